"""Finding a Chinese font the way the platform does, and making it one reportlab can embed.

After the fonts a user names (`--font`, `CARDGEN_CJK_FONT`) and the project's own `.fonts/`, the
search asks the platform: fontconfig's `fc-match :lang=zh-tw` on Linux and other Unix systems
(then a few well-known files), the usual font folders on macOS and Windows. When the environment
variable `CARDGEN_FONT_PATH` is set, its folders (separated as in PATH) replace the platform's
lookup entirely, so a packager or a test decides exactly what is seen; set to an empty folder, no
font is found.

reportlab embeds TrueType outlines only. A Chinese font with CFF outlines (Noto Sans CJK and Source
Han Sans as most systems ship them) is converted once with fontTools (cubic curves to quadratic
ones, cu2qu) into a TrueType copy in the user's cache folder, named after the hash of the original,
so every later run reuses it. The copy carries no timestamp of its own: the same font gives the
same bytes, and so do the PDFs built with it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FONT_PATH_ENV = "CARDGEN_FONT_PATH"
FONT_SUFFIXES = (".ttf", ".ttc", ".otf", ".otc")
CHINESE_PROBE = "中遊戲規則"
FC_MATCH_TIMEOUT_S = 5
MAX_FOLDER_FONTS = 2000  # font files looked at in one folder tree; more than any real font folder
CONVERSION_VERSION = "1"  # part of the cache key: a change to the conversion makes new copies

# Candidate: (font file, face index, face index of a fixed-width face or None, where it came from)
Candidate = tuple[Path, int, "int | None", str]

# Debian's and other distributions' usual files, tried after fontconfig's answer.
UNIX_FONT_FILES = (
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0, 1),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0, 1),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 2, None),
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 2, None),
    ("/usr/local/share/fonts/wqy-zenhei.ttc", 0, 1),
)
MAC_FONT_FOLDERS = ("/System/Library/Fonts", "/System/Library/Fonts/Supplemental", "/Library/Fonts",
                    "~/Library/Fonts")
MAC_FONT_NAMES = ("PingFang.ttc", "STHeiti Medium.ttc", "STHeiti Light.ttc", "Hiragino Sans GB.ttc",
                  "Songti.ttc", "Arial Unicode.ttf")
WINDOWS_FONT_NAMES = ("msjh.ttc", "mingliu.ttc", "msyh.ttc", "simsun.ttc", "kaiu.ttf")


def platform_candidates() -> list[Candidate]:
    """The fonts this system offers for Traditional Chinese, best first."""
    if FONT_PATH_ENV in os.environ:
        folders = [f for f in os.environ[FONT_PATH_ENV].split(os.pathsep) if f]
        return [c for folder in folders for c in folder_candidates(Path(folder).expanduser(), FONT_PATH_ENV)]
    if sys.platform == "darwin":
        folders = [Path(f).expanduser() for f in MAC_FONT_FOLDERS]
        return [(folder / name, -1, None, "system fonts") for name in MAC_FONT_NAMES for folder in folders]
    if sys.platform == "win32":
        folders = [Path(os.environ.get("WINDIR", r"C:\Windows")) / "Fonts"]
        if os.environ.get("LOCALAPPDATA"):
            folders.append(Path(os.environ["LOCALAPPDATA"]) / "Microsoft" / "Windows" / "Fonts")
        return [(folder / name, -1, None, "system fonts") for name in WINDOWS_FONT_NAMES for folder in folders]
    return fc_match() + [(Path(path), face, mono, "system fonts") for path, face, mono in UNIX_FONT_FILES]


def fc_match() -> list[Candidate]:
    """fontconfig's choice for Traditional Chinese, as (file, face); nothing when fontconfig is
    missing, slow or says nothing. Run without a shell, with a time limit."""
    program = shutil.which("fc-match")
    if program is None:
        return []
    try:
        done = subprocess.run([program, "--format=%{file}\n%{index}\n", ":lang=zh-tw"], capture_output=True,
                              text=True, timeout=FC_MATCH_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    lines = done.stdout.splitlines()
    if done.returncode != 0 or not lines or not lines[0].strip():
        return []
    face = int(lines[1]) if len(lines) > 1 and lines[1].strip().isdigit() else 0
    return [(Path(lines[0].strip()), face, None, "fontconfig")]


def folder_candidates(folder: Path, origin: str) -> list[Candidate]:
    """Every font file under `folder`, in name order; the face is chosen when the file is probed."""
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() in FONT_SUFFIXES and path.is_file():
            found.append((path, -1, None, origin))
            if len(found) >= MAX_FOLDER_FONTS:
                break
    return found


def _face_count(path: Path) -> int:
    with open(path, "rb") as handle:
        head = handle.read(12)
    if head[:4] == b"ttcf":
        return int.from_bytes(head[8:12], "big")
    return 1


TRADITIONAL_MARKS = (" TC", " HK", "Traditional", "JhengHei", "Ming")


def chinese_face(path: Path, face: int) -> tuple[int, bool] | None:
    """(face index, has TrueType outlines) of a face of `path` that has Chinese glyphs, or None.
    Face -1 means "choose": a Traditional Chinese face (by its name: TC, HK, JhengHei, ...) when
    the collection has one, else the first face with Chinese glyphs. Broken files give None.

    Reading a large font's character map takes about a tenth of a second, so the answer is kept in
    the cache folder under the file's path, size and time (fonts are replaced, not edited)."""
    from cardgen.buildcache import cache_dir, write_record

    try:
        status = os.stat(path)
    except OSError:
        return None
    identity = f"{Path(path).resolve()}\0{status.st_size}\0{status.st_mtime_ns}\0{face}"
    record = cache_dir() / "fonts-probed" / f"{hashlib.sha256(identity.encode('utf-8')).hexdigest()}.json"
    try:
        kept = json.loads(record.read_text("utf-8"))
        if kept is None or (isinstance(kept, list) and len(kept) == 2 and isinstance(kept[0], int)
                            and isinstance(kept[1], bool)):
            return None if kept is None else (kept[0], kept[1])
    except (OSError, ValueError):
        pass
    found = _probe_chinese_face(path, face)
    write_record(record, None if found is None else list(found))
    return found


def _probe_chinese_face(path: Path, face: int) -> tuple[int, bool] | None:
    """`chinese_face` read from the file itself. Names are read first, as a collection's character
    maps are large and shared."""
    from fontTools.ttLib import TTFont

    try:
        faces = list(range(_face_count(path))) if face < 0 else [face]
        if len(faces) > 1:
            def traditional(index: int) -> bool:
                font = TTFont(str(path), fontNumber=index, lazy=True)
                name = (font["name"].getDebugName(4) or "") if "name" in font else ""
                font.close()
                return any(mark in name for mark in TRADITIONAL_MARKS)

            faces.sort(key=lambda index: not traditional(index))
        for index in faces:
            font = TTFont(str(path), fontNumber=index, lazy=True)
            cmap = font.getBestCmap() or {}
            truetype = "glyf" in font
            font.close()
            if all(ord(ch) in cmap for ch in CHINESE_PROBE):
                return index, truetype
    except Exception:  # noqa: BLE001 - any broken or foreign file is simply not a usable font
        return None
    return None


def cache_folder() -> Path:
    """The user's cache folder for cardgen, as the platform names it."""
    if sys.platform == "darwin":
        base = Path("~/Library/Caches").expanduser()
    elif sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "cardgen" / "fonts"


def truetype_copy(path: Path, face: int, announce=None) -> Path:
    """A TrueType copy of the CFF-outline face `face` of `path`, made once and kept in the cache.
    `announce(message)` is told before a conversion starts (it takes a while for a full CJK font)."""
    from fontTools import version as fonttools_version

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    digest.update(f"\0{face}\0{CONVERSION_VERSION}\0{fonttools_version}".encode())
    target = cache_folder() / f"{path.stem}-{face}-{digest.hexdigest()[:16]}.ttf"
    if target.is_file():
        return target
    if announce is not None:
        announce(f"converting {path} (face {face}) to TrueType once; the copy is kept in {target.parent}")
    font = convert_to_truetype(path, face)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".font-", suffix=".tmp", dir=target.parent)
    except OSError:
        # No writable cache: keep the copy for this run only.
        fd, tmp = tempfile.mkstemp(prefix="cardgen-font-", suffix=".ttf")
        target = Path(tmp)
    with os.fdopen(fd, "wb") as handle:
        font.save(handle, reorderTables=True)
    if Path(tmp) != target:
        os.replace(tmp, target)
    return target


def convert_to_truetype(path: Path, face: int):
    """The face as a fontTools TTFont with quadratic (glyf) outlines instead of CFF ones."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    # recalcTimestamp=False: the copy keeps the original's dates, so it is the same bytes each time.
    font = TTFont(str(path), fontNumber=face, recalcTimestamp=False)
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        # A tolerance of 1 font unit (of 1000) is invisible at any printed size.
        glyph_set[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    for table in ("CFF ", "CFF2", "VORG"):
        if table in font:
            del font[table]
    glyf.compile(font)
    metrics = font["hmtx"].metrics
    for name, glyph in glyphs.items():  # TrueType wants each left side bearing at the glyph's xMin
        width, _ = metrics[name]
        metrics[name] = (width, getattr(glyph, "xMin", 0))
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 1 if field == "maxZones" else 0)
    maxp.compile(font)
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    try:
        post.compile(font)
    except OverflowError:  # too many glyph names for format 2: keep none
        post.formatType = 3.0
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
    return font


__all__ = ["FONT_PATH_ENV", "cache_folder", "chinese_face", "fc_match", "platform_candidates", "truetype_copy"]
