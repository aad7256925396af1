"""Remembering checks that passed, so that a run on unchanged content skips checks that cannot
find anything new: a build in another layout, paper or folder, a second `validate`.

A check's result is a pure function of the content folder, the code, the drawing libraries and the
fonts, so it is stored in the user's cache folder under the hash of exactly those (the hash of
`cardgen.buildcache.build_key`, with the check's own settings). Only clean results are stored:
static checks with no error, and a preflight with no error (its warnings are stored and shown
again). Any change to any content file, to the code or to a font is a new hash, and the checks run
again. A record that cannot be read or written only costs the next run the checks.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from fractions import Fraction
from numbers import Rational
from pathlib import Path
from typing import Any, Callable

from cardgen.buildcache import build_key, cache_dir, code_digest, write_record


def check_key(content_dir: Path, check: str, game: str, settings: dict, fonts: tuple, files: tuple = ()) -> str:
    """The hash of everything `check` reads for one game: the content folder, the code (with the
    game's own definition and rules engine, wherever they are installed), the libraries, the
    identity of `fonts`, the bytes of `files` read from elsewhere (the project's schemas) and the
    check's `settings`."""
    return build_key(content_dir, {"check": check, "game": game, "definition": definition_code(game), **settings},
                     files, fonts)


def bytes_key(check: str, data: bytes) -> str:
    """The hash of `check` run on `data` alone (one file's bytes), with the code and libraries."""
    return hashlib.sha256(check.encode("utf-8") + b"\0" + hashlib.sha256(data).digest() + code_digest()).hexdigest()


def definition_code(game: str) -> str:
    """The hash of the source folders of the game's definition and engine classes (a game
    installed as a package lives outside cardgen's own code)."""
    from cardgen.registry import definition_for

    try:
        definition = definition_for(game)
    except Exception:  # noqa: BLE001 - an unknown game has no code of its own to hash
        return "none"
    digest = hashlib.sha256()
    kinds = [kind for kind in (type(definition), getattr(definition, "engine", None)) if isinstance(kind, type)]
    sources = [inspect.getsourcefile(kind) for kind in kinds]
    for folder in sorted({str(Path(source).parent) for source in sources if source}):
        digest.update(folder.encode("utf-8") + b"\0")
        for path in sorted(Path(folder).glob("*.py")):
            digest.update(path.name.encode("utf-8") + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _record(key: str) -> Path:
    return cache_dir() / "checks" / f"{key}.json"


def recall(key: str) -> list | None:
    """What a clean run of the check hashed as `key` left (a list, empty when nothing), or None."""
    try:
        value = json.loads(_record(key).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, list) else None


def remember(key: str, value: list) -> None:
    write_record(_record(key), value)


def forget(key: str) -> None:
    """Drop the record kept under `key` (one its reader found of another shape)."""
    try:
        _record(key).unlink(missing_ok=True)
    except OSError:
        pass


def unless_passed(key: str, check: Callable[[], list]) -> list:
    """The errors `check()` finds; none, without running it, when it passed before under `key`.
    A clean run is remembered."""
    if recall(key) == []:
        return []
    errors = check()
    if not errors:
        remember(key, [])
    return errors


def kept(key: str, work_out: Callable[[], Any]) -> Any:
    """What `work_out()` gives, worked out once under `key` and read back after: for values that
    take a moment to work out, such as exact odds, which need sympy loaded. The value may hold
    text, numbers, lists and dicts (any keys) and exact fractions, which come back as `Fraction`s,
    exact; the value is handed out in that form whether it was worked out or read back, so both
    print alike. A value of another kind is worked out every time."""
    record = recall(key)
    if record is not None and len(record) == 1:
        try:
            return _decoded(record[0])
        except (TypeError, ValueError, KeyError, ZeroDivisionError):
            pass  # a record this version cannot read: worked out again
    value = work_out()
    try:
        stored = _encoded(value)
    except TypeError:
        return value
    remember(key, [stored])
    return _decoded(stored)


# How `kept` writes a value in JSON: an exact fraction as {"/": [p, q]}, a dict as {"{}": [[key,
# value], ...]} (its keys need not be text), a list as a list; text, whole numbers, floats, truth
# values and None as themselves.
def _encoded(value):
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, Rational):  # sympy's Rationals and Integers are registered as such
        return {"/": [int(value.numerator), int(value.denominator)]}
    if isinstance(value, dict):
        return {"{}": [[_encoded(k), _encoded(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [_encoded(item) for item in value]
    raise TypeError(f"{type(value).__name__} is not kept")


def _decoded(value):
    if isinstance(value, list):
        return [_decoded(item) for item in value]
    if isinstance(value, dict):
        (tag, body), = value.items()
        if tag == "/":
            return Fraction(*body)
        if tag == "{}":
            return {_hashable(_decoded(k)): _decoded(v) for k, v in body}
        raise KeyError(tag)
    return value


def _hashable(key):
    return tuple(key) if isinstance(key, list) else key


__all__ = ["bytes_key", "check_key", "definition_code", "forget", "kept", "recall", "remember", "unless_passed"]
