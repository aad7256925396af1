"""Remembering a build, so that building again with nothing changed writes nothing.

After a build, a small record goes into the user's cache folder (one per output folder): a hash of
everything the files were made from, and the SHA-256 of every file written. The hash covers every
file of the content folder, the build's options (with the bytes of a printer profile it names),
the source of cardgen and of the rules engines, the versions of the libraries that draw,
rasterise and check, and the fonts and colour profile the run would use. The next build with the same hash
whose files are all still in place, byte for byte, has nothing to do and says so; any difference
builds everything again as usual. A record that cannot be read or written only costs the next run
a full build.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import sys
from contextlib import contextmanager
from pathlib import Path

import cardgen

# Libraries whose version can change the bytes of a file (drawing, fonts, pictures, rasterising)
# or the verdict of a check that is recalled (schemas, exact odds).
DRAWING_LIBRARIES = ("reportlab", "rl-accel", "pypdfium2", "Pillow", "fonttools", "svglib", "openpyxl", "PyYAML")
CHECKING_LIBRARIES = ("jsonschema", "referencing", "sympy")


def cache_dir() -> Path:
    """Where results worth keeping between runs go: $CARDGEN_CACHE, else the user's cache folder."""
    if os.environ.get("CARDGEN_CACHE"):
        return Path(os.environ["CARDGEN_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardgen"


HASHED_BYTES = 64 * 1024 * 1024  # a larger file (refused by every reader) counts by its size and time


def _add_tree(digest, root: Path, pattern: str) -> None:
    """Every entry under `root` into `digest`: a regular file by its bytes; anything else (a link,
    a named pipe, a file too large to read) by its kind, size and time, never by opening it, so
    that no link is followed out of the folder and no special file is read."""
    for path in sorted(p for p in root.rglob(pattern) if "__pycache__" not in p.parts):
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode):
            continue
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        if stat.S_ISREG(info.st_mode) and info.st_size <= HASHED_BYTES:
            try:
                digest.update(hashlib.sha256(path.read_bytes()).digest())
                continue
            except OSError:
                pass  # unreadable: its readers will say so
        digest.update(f"special {info.st_mode} {info.st_size} {info.st_mtime_ns}\0".encode("utf-8"))


def _file_identity(path) -> str:
    """A file named by path, size and modification time (fonts are large and never edited in place)."""
    try:
        status = os.stat(path)
    except OSError:
        return f"{path}: missing"
    return f"{path}: {status.st_size} {status.st_mtime_ns}"


def build_key(content_dir: Path, options: dict, files_named: tuple = (), fonts: tuple = ()) -> str:
    """The hash of everything a build's files are made from: the content folder, `options` (any
    JSON-able values), the bytes of `files_named` (a printer profile), the identity of `fonts`
    (font and colour-profile files the run uses), the code and the drawing libraries' versions."""
    digest = hashlib.sha256()
    digest.update(json.dumps(options, sort_keys=True, default=str).encode("utf-8"))
    for path in files_named:
        digest.update(b"named\0" + hashlib.sha256(Path(path).read_bytes()).digest())
    for path in fonts:
        digest.update(_file_identity(path).encode("utf-8") + b"\0")
    digest.update(b"content\0" + _content_digest(Path(content_dir)))
    digest.update(code_digest())
    return digest.hexdigest()


_content_read: dict[str, bytes] | None = None  # content folders hashed during the running command


@contextmanager
def one_reading_of_content():
    """Within the block (one command), each content folder is hashed once, however many checks
    and builds ask: a command reads its content once, at its start, and works from that."""
    global _content_read
    outer, _content_read = _content_read, {}
    try:
        yield
    finally:
        _content_read = outer


def _content_digest(root: Path) -> bytes:
    key = str(root.resolve())
    if _content_read is not None and key in _content_read:
        return _content_read[key]
    digest = hashlib.sha256()
    _add_tree(digest, root, "*")
    if _content_read is not None:
        _content_read[key] = digest.digest()
    return digest.digest()


_code: bytes | None = None


def code_digest() -> bytes:
    """The hash of the source of cardgen and of the rules engines and of the versions of the
    libraries that draw and check: the code does not change while it runs, so this is worked out
    once."""
    global _code
    if _code is None:
        digest = hashlib.sha256()
        for package in (Path(cardgen.__file__).parent, Path(cardgen.__file__).parent.parent / "verify"):
            digest.update(f"code {package.name}\0".encode("utf-8"))
            _add_tree(digest, package, "*.py")
        versions = installed_versions(DRAWING_LIBRARIES + CHECKING_LIBRARIES)
        for name in DRAWING_LIBRARIES + CHECKING_LIBRARIES:
            digest.update(f"{name} {versions.get(name, 'absent')}\0".encode("utf-8"))
        _code = digest.digest()
    return _code


def installed_versions(names) -> dict[str, str]:
    """The installed version of each distribution named, read off the names of the folders that
    describe installed distributions (`NAME-VERSION.dist-info`, `.egg-info`) on the import path, the
    first found winning, as Python's own lookup does; this reads folder listings only, where
    `importlib.metadata` costs a twentieth of a second to load."""
    def normal(name: str) -> str:
        return re.sub(r"[-_.]+", "_", name).lower()

    wanted = {normal(name): name for name in names}
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            listing = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for folder in listing:
            stem, dot, kind = folder.rpartition(".")
            if not dot or kind not in ("dist-info", "egg-info"):
                continue
            name, _, version = stem.partition("-")
            name = wanted.get(normal(name))
            if name is not None and name not in found:
                found[name] = version.partition("-")[0]  # an egg's folder may add its Python version
    return found


def _record_path(out_dir: Path) -> Path:
    where = hashlib.sha256(str(Path(out_dir).resolve()).encode("utf-8")).hexdigest()[:32]
    return cache_dir() / "builds" / f"{where}.json"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def unchanged_files(out_dir: Path, key: str) -> list[Path] | None:
    """The files the last build into `out_dir` wrote, when it was made from the same inputs
    (`key`) and every file is still there as written; None when anything differs."""
    out_dir = Path(out_dir)
    try:
        record = json.loads(_record_path(out_dir).read_text("utf-8"))
        if record.get("key") != key or not record.get("files"):
            return None
        paths = []
        for name, sha in record["files"].items():
            path = out_dir / name
            if not path.is_file() or path.is_symlink() or _sha256(path) != sha:
                return None
            paths.append(path)
        return paths
    except (OSError, ValueError, TypeError, AttributeError):
        return None


def remember_build(out_dir: Path, key: str, written: list[Path]) -> None:
    """Note what the build into `out_dir` made from the inputs hashed as `key`."""
    out_dir = Path(out_dir)
    record = {"key": key, "files": {path.relative_to(out_dir).as_posix(): _sha256(path) for path in written}}
    write_record(_record_path(out_dir), record)


def write_record(target: Path, value) -> None:
    """Write a record into the cache whole (a reader never sees half of it), or not at all: bytes
    as they are, anything else as JSON. An unwritable cache only costs the next run the work the
    record would have saved."""
    data = value if isinstance(value, bytes) else json.dumps(value, sort_keys=True).encode("utf-8")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(data)
        os.replace(temporary, target)
    except OSError:
        pass


__all__ = ["build_key", "cache_dir", "one_reading_of_content", "remember_build", "unchanged_files", "write_record"]
