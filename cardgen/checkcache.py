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
from pathlib import Path
from typing import Callable

from cardgen.buildcache import build_key, cache_dir, write_record


def check_key(content_dir: Path, check: str, game: str, settings: dict, fonts: tuple, files: tuple = ()) -> str:
    """The hash of everything `check` reads for one game: the content folder, the code (with the
    game's own definition and rules engine, wherever they are installed), the libraries, the
    identity of `fonts`, the bytes of `files` read from elsewhere (the project's schemas) and the
    check's `settings`."""
    return build_key(content_dir, {"check": check, "game": game, "definition": _definition_code(game), **settings},
                     files, fonts)


def _definition_code(game: str) -> str:
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


def unless_passed(key: str, check: Callable[[], list]) -> list:
    """The errors `check()` finds; none, without running it, when it passed before under `key`.
    A clean run is remembered."""
    if recall(key) == []:
        return []
    errors = check()
    if not errors:
        remember(key, [])
    return errors


__all__ = ["check_key", "recall", "remember", "unless_passed"]
