"""Building every printable file of one game: card sheets per paper and layout, a rule sheet per
paper and language, and whatever else the game's definition adds (tiles, boards).

Every renderer writes its file through `pdfdoc.atomic_output`, which moves a file into place only
when complete, so an interrupted or failed build never leaves a half-written PDF. A whole run
(`build_all`) goes further: it writes every file into a staging folder beside the output folder and
moves them into place only when all are done, so a fault or an interruption leaves the output folder
as it was, never a mix of new card sheets and old rule sheets.
"""

from __future__ import annotations

import importlib
import os
import shutil
import tempfile
from functools import partial
from pathlib import Path
from typing import Callable

from cardgen.content import LANGUAGES
from cardgen.layout import FLIPS
from cardgen.errors import OutputError, UsageError
from cardgen.registry import definition_for
from cardgen.sheets import render_card_sheets

Render = Callable[[Path], object]


def _rule_sheet_renderer():
    """`render_rule_sheet(content, lang, path)` once the rule-sheet module exists, else None."""
    try:
        module = importlib.import_module("cardgen.rulesheet")
    except ModuleNotFoundError as exc:
        if exc.name == "cardgen.rulesheet":
            return None
        raise
    return module.render_rule_sheet


def planned_outputs(content, out_dir: Path, papers=("a4", "letter"), layouts=("home", "shop"),
                    flip: str = "long", langs=LANGUAGES) -> list[tuple[Path, Render]]:
    """Every (path, render) the build of `content` will make, in build order."""
    if flip not in FLIPS:
        raise UsageError(f"unknown flip {flip!r}; choose one of {', '.join(FLIPS)}")
    game_dir = Path(out_dir) / content.id
    definition = definition_for(content.id)
    outputs: list[tuple[Path, Render]] = []
    for paper in papers:
        for layout in layouts:
            path = game_dir / f"cards-{paper}-{layout}.pdf"
            outputs.append((path, partial(_cards, content, paper=paper, layout=layout, flip=flip)))
    rule_sheet = _rule_sheet_renderer()
    if rule_sheet is not None:
        for paper in papers:
            for lang in langs:
                outputs.append((game_dir / f"rules-{paper}-{lang}.pdf", partial(_rules, rule_sheet, content, lang, paper)))
    for paper in papers:
        outputs.extend(definition.extra_outputs(content, game_dir, paper, flip))
    return outputs


def _cards(content, path: Path, *, paper: str, layout: str, flip: str) -> None:
    render_card_sheets(content, path, paper, layout, flip)


def _rules(render_rule_sheet, content, lang: str, paper: str, path: Path) -> None:
    render_rule_sheet(content, lang, path, paper=paper)


def build_game(content, out_dir: Path, papers=("a4", "letter"), layouts=("home", "shop"),
               flip: str = "long", progress: Callable[[Path], object] | None = None,
               langs=LANGUAGES) -> list[Path]:
    """Write every printable file of one game under `out_dir/<game id>/`; call `progress(path)`
    after each file. Returns the paths written, in order."""
    written = []
    for path, render in planned_outputs(content, out_dir, papers, layouts, flip, langs):
        path.parent.mkdir(parents=True, exist_ok=True)
        render(path)
        written.append(path)
        if progress is not None:
            progress(path)
    return written


def build_all(contents, out_dir: Path, progress: Callable[[Path], object] | None = None, **options) -> list[Path]:
    """Build every game into `out_dir` through a staging folder beside it: files appear in
    `out_dir` only once every file of the run is done; files the run does not make stay as they
    are. Returns the final paths. `OutputError` names the path and the cause when the output
    folder cannot be written."""
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.resolve().name}.staging-", dir=out_dir.resolve().parent))
    except OSError as exc:
        raise OutputError(out_dir, exc) from None
    try:
        staged: list[Path] = []
        for content in contents:
            staged += build_game(content, staging, progress=progress, **options)
        final = []
        for path in staged:
            target = out_dir / path.relative_to(staging)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(path, target)
            except OSError as exc:
                raise OutputError(target, exc) from None
            final.append(target)
        return final
    except OSError as exc:
        raise OutputError(Path(getattr(exc, "filename", None) or out_dir), exc) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


__all__ = ["build_all", "build_game", "planned_outputs"]
