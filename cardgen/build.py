"""Building every printable file of one game: card sheets per paper and layout, a rule sheet per
paper and language, and whatever else the game's definition adds (tiles, boards).

Every renderer writes its file through `pdfdoc.atomic_output`, which moves a file into place only
when complete, so an interrupted or failed build never leaves a half-written PDF. A whole run
(`build_all`) goes further: it writes every file into a staging folder beside the output folder and
moves them into place only when all are done, so a fault or an interruption leaves the output folder
as it was, never a mix of new card sheets and old rule sheets.
"""

from __future__ import annotations

import errno
import importlib
import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Callable

from cardgen.content import LANGUAGES
from cardgen.layout import FLIPS, INNER_GUIDES
from cardgen.errors import OutputError, UsageError
from cardgen.registry import definition_for
from cardgen.sheets import DEFAULT_OPTIONS, SHEET_LAYOUTS, SheetOptions, print_order, render_card_sheets, select_cards
from cardgen.subsets import tagged
from verify.workers import local_pool, signals_held, stops_interrupt

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


# Layouts a build can make: card sheets (home, butted, fold-over), the print-shop export and
# Tabletop Simulator deck sheets.
ALL_LAYOUTS = ("home", "butted", "fold", "shop", "tts")
# What a library call builds unless told otherwise: every card sheet (the shop export and the
# Tabletop Simulator images rasterise every card and are asked for by name, or by `all`).
SHEETS_ONLY = ("home", "butted", "fold")
# The parts a build can be limited to (`--only`): cards (card sheets in every chosen layout, with the
# print-shop and Tabletop Simulator exports), aids (reference cards), proof (the card list),
# rules (rule sheets), pieces (tiles, boards, tokens and mats) and calibration (duplex calibration
# sheets). The assembly page lists every part, so it is made only when every part is.
PARTS = ("cards", "aids", "proof", "rules", "pieces", "calibration")


@dataclass(frozen=True)
class BuildOptions:
    """Everything about a build beyond papers, layouts, flip and languages.

    sheet: cut lines, back offset and sides of the card sheets; shop: the shop profile id (None:
    the default profile); cards: a `--cards` selection (then only card files are made, named
    `replacements-...`); tts_url: where the Tabletop Simulator images will be hosted (None:
    addresses relative to the saved object); parts: the `PARTS` to make (every part by default)."""

    sheet: SheetOptions = DEFAULT_OPTIONS
    shop: str | None = None
    cards: str | None = None
    tts_url: str | None = None
    parts: tuple[str, ...] = PARTS  # in PARTS' order, so the options' repr (part of a build's key) is stable

    def makes(self, part: str) -> bool:
        return part in self.parts

    @property
    def whole(self) -> bool:
        """Whether every part is made (then the assembly page, which lists them all, is too)."""
        return self.parts == PARTS


def build_options(layout: str, cut_line: str | None, back_offset: str | None, printer, shop: str | None,
                  cards: str | None, sides: str, games,
                  back_offset_landscape: str | None = None,
                  inner_guides: str = "none", margin: float | None = None,
                  only: str | None = None) -> tuple[tuple[str, ...], BuildOptions]:
    """The build command's options checked and turned into (layouts, BuildOptions); usage errors
    name the option."""
    from cardgen.printdata import printer_offsets, shop_profile
    from cardgen.sheets import parse_cut_line, parse_offset

    names = [part.strip() for part in layout.split(",") if part.strip()]
    if not names:
        raise UsageError("--layout names no layout")
    layouts: list[str] = []
    for name in names:
        if name == "all":
            layouts += [n for n in ALL_LAYOUTS if n not in layouts]
        elif name in ALL_LAYOUTS:
            if name not in layouts:
                layouts.append(name)
        else:
            raise UsageError(f"--layout must be one of {', '.join(ALL_LAYOUTS)} or all, not {name!r}")
    if sides not in ("both", "fronts", "backs"):
        raise UsageError(f"--sides must be both, fronts or backs, not {sides!r}")
    width, colour = parse_cut_line(cut_line) if cut_line else (DEFAULT_OPTIONS.cut_width, DEFAULT_OPTIONS.cut_colour)
    if (back_offset or back_offset_landscape) and printer:
        raise UsageError("give --back-offset (and --back-offset-landscape) or --printer, not both")
    offsets = printer_offsets(printer) if printer else {}
    if back_offset:
        offsets["portrait"] = parse_offset(back_offset, "--back-offset")
    if back_offset_landscape:
        offsets["landscape"] = parse_offset(back_offset_landscape, "--back-offset-landscape")
    if cards is not None and len(games or []) != 1:
        raise UsageError("--cards needs exactly one game named, since positions and ids belong to a game")
    if shop is not None:
        shop_profile(shop)  # an unknown profile is a usage error before anything is built
    if inner_guides not in INNER_GUIDES:
        raise UsageError(f"--inner-guides must be one of {', '.join(INNER_GUIDES)}, not {inner_guides!r}")
    sheet = SheetOptions(cut_width=width, cut_colour=colour, sides=sides, inner_guides=inner_guides,
                         back_offset=offsets.get("portrait", (0.0, 0.0)),
                         back_offset_landscape=offsets.get("landscape", (0.0, 0.0)),
                         **({} if margin is None else {"margin_mm": margin}))
    parts = parse_parts(only)
    if cards is not None and "cards" not in parts:
        raise UsageError("--cards makes card sheets only: it cannot go with an --only that leaves out cards")
    return tuple(layouts), BuildOptions(sheet=sheet, shop=shop, cards=cards, parts=parts)


def parse_parts(only: str | None) -> tuple[str, ...]:
    """`--only`: parts joined by commas (see `PARTS`); None makes every part."""
    if only is None:
        return PARTS
    names = {part.strip().lower() for part in only.split(",") if part.strip()}
    if not names:
        raise UsageError("--only names no part")
    unknown = sorted(names - set(PARTS))
    if unknown:
        raise UsageError(f"--only must name parts among {', '.join(PARTS)}, not {', '.join(map(repr, unknown))}")
    return tuple(part for part in PARTS if part in names)


def _proof(content, path: Path, *, paper: str) -> None:
    from cardgen.proof import render_proof

    render_proof(content, path, paper)


def card_sheet_name(paper: str, layout: str, flip: str, sides: str = "both", selection: bool = False) -> str:
    """`cards-a4-home.pdf`; `-fronts`/`-backs` for one side only; `-short` when the file is made for
    short-edge flipping (fold-over and fronts-only files do not depend on the flip)."""
    stem = f"{'replacements' if selection else 'cards'}-{paper}-{layout}"
    if sides != "both":
        stem += f"-{sides}"
    if flip == "short" and layout != "fold" and sides != "fronts":
        stem += "-short"
    return stem + ".pdf"


def _short(path: Path, flip: str) -> Path:
    return path.with_name(f"{path.stem}-short{path.suffix}") if flip == "short" else path


def planned_outputs(content, out_dir: Path, papers=("a4", "letter"), layouts=SHEETS_ONLY,
                    flip: str = "long", langs=LANGUAGES, options: BuildOptions | None = None) -> list[tuple[Path, Render]]:
    """Every (path, render) the build of `content` will make, in build order. Every PDF's font
    subsets carry tags of its own (see `cardgen.subsets`)."""
    if flip not in FLIPS:
        raise UsageError(f"unknown flip {flip!r}; choose one of {', '.join(FLIPS)}")
    for layout in layouts:
        if layout not in ALL_LAYOUTS:
            raise UsageError(f"unknown layout {layout!r}; choose one of {', '.join(ALL_LAYOUTS)}")
    options = options or BuildOptions()
    langs = tuple(lang for lang in langs if lang in content.printed_languages)
    game_dir = Path(out_dir) / content.id
    definition = definition_for(content.id)
    selection = select_cards(content, options.cards) if options.cards else None
    sides = options.sheet.sides
    outputs: list[tuple[Path, Render]] = []
    if options.makes("cards"):
        for paper in papers:
            for layout in layouts:
                if layout in SHEET_LAYOUTS:
                    path = game_dir / card_sheet_name(paper, layout, flip, sides, selection is not None)
                    outputs.append((path, partial(_cards, content, paper=paper, layout=layout, flip=flip,
                                                  options=options.sheet, cards=selection)))
        if "shop" in layouts:
            outputs += _shop_outputs(content, game_dir, options, selection)
    if selection is None:
        from cardgen.aids import aid_outputs

        if options.makes("aids"):
            outputs += aid_outputs(content, game_dir, papers, layouts, flip, options.sheet)  # reference cards
        if "tts" in layouts and options.makes("cards"):
            from cardgen.tts import tts_outputs

            outputs += tts_outputs(content, game_dir, options.tts_url)
        if options.makes("proof"):
            for paper in papers:
                outputs.append((game_dir / f"proof-{paper}.pdf", partial(_proof, content, paper=paper)))
        rule_sheet = _rule_sheet_renderer() if "rules" in content.files and options.makes("rules") else None
        if rule_sheet is not None:
            for paper in papers:
                for lang in langs:
                    outputs.append((game_dir / f"rules-{paper}-{lang}.pdf", partial(_rules, rule_sheet, content, lang, paper)))
        if options.makes("pieces"):
            for paper in papers:
                outputs.extend((_short(path, flip), render) for path, render in definition.extra_outputs(content, game_dir, paper, flip, options.sheet))
        if options.whole:
            from cardgen.assembly import assembly_outputs

            outputs += assembly_outputs(content, game_dir, papers, langs, flip, list(outputs))
    return [(path, tagged(f"{content.id}/{path.relative_to(game_dir).as_posix()}", render) if path.suffix == ".pdf" else render)
            for path, render in outputs]


def _shop_outputs(content, game_dir: Path, options: BuildOptions, selection) -> list[tuple[Path, Render]]:
    from cardgen.printdata import shop_profile
    from cardgen.shop import PngRenderer, card_list_csv, png_names, render_shop_pdf, safe_name, write_bytes

    profile = shop_profile(options.shop)
    folder = game_dir / f"shop-{profile.id}{'-replacements' if selection is not None else ''}"
    pdf = folder / "cards.pdf"
    outputs: list[tuple[Path, Render]] = [(pdf, partial(_shop_pdf, content, profile=profile, cards=selection))]
    if profile.cmyk_ink_limit is not None:
        from cardgen.cmyk import find_profile

        icc = find_profile()
        if icc is not None:  # without a profile the command says so once and makes the rest
            outputs.append((folder / "cards-cmyk.pdf",
                            partial(_shop_pdf, content, profile=profile, cards=selection, cmyk_profile=icc)))
    if profile.files == "per-deck":
        chosen = selection if selection is not None else print_order(content)
        for deck in content.decks:
            cards = [card for card in chosen if card["deck"] == deck["id"]]
            if cards:
                outputs.append((folder / f"cards-{safe_name(deck['id'])}.pdf",
                                partial(_shop_pdf, content, profile=profile, cards=cards)))
    outputs.append((folder / "cards.csv", partial(write_bytes, card_list_csv(content, profile, selection))))
    names = png_names(content, profile, selection)
    renderer = PngRenderer(lambda png: png.parent / "cards.pdf", profile, len(names))
    for name, index in names:
        outputs.append((folder / name, partial(_png, renderer, index=index)))
    return outputs


def _shop_pdf(content, path: Path, *, profile, cards, cmyk_profile: Path | None = None) -> None:
    from cardgen.shop import render_shop_pdf

    converter = None
    if cmyk_profile is not None:
        from cardgen.cmyk import Converter

        converter = Converter(cmyk_profile, profile.cmyk_ink_limit)
    render_shop_pdf(content, path, profile, cards, converter)


def _png(renderer, path: Path, *, index: int) -> None:
    renderer.write(path, index)


def _cards(content, path: Path, *, paper: str, layout: str, flip: str, options=DEFAULT_OPTIONS, cards=None) -> None:
    render_card_sheets(content, path, paper, layout, flip, options, cards)


def _rules(render_rule_sheet, content, lang: str, paper: str, path: Path) -> None:
    render_rule_sheet(content, lang, path, paper=paper)


def build_game(content, out_dir: Path, papers=("a4", "letter"), layouts=SHEETS_ONLY,
               flip: str = "long", progress: Callable[[Path], object] | None = None,
               langs=LANGUAGES, options: BuildOptions | None = None) -> list[Path]:
    """Write every printable file of one game under `out_dir/<game id>/`; call `progress(path)`
    after each file. Returns the paths written, in order."""
    return render_all(planned_outputs(content, out_dir, papers, layouts, flip, langs, options), 1, progress)


def build_all(contents, out_dir: Path, progress: Callable[[Path], object] | None = None,
              calibration: bool = False, workers: int = 1, **options) -> list[Path]:
    """Build every game into `out_dir` through a staging folder beside it: files appear in
    `out_dir` only once every file of the run is done; files the run does not make stay as they
    are. With `calibration`, the duplex calibration sheet of every paper is made too, at the top
    of `out_dir`. `workers` processes render the files (see `render_all`). Returns the final
    paths. `OutputError` names the path and the cause when the output folder cannot be written."""
    out_dir = Path(out_dir)
    chosen = options.get("options")
    if chosen is not None and chosen.cards:
        for content in contents:
            select_cards(content, chosen.cards)  # a selection naming no card stops before anything is made
    made_out_dir = not out_dir.exists()
    build_options = options.pop("options", None) or BuildOptions()
    staging, done = None, False
    # A stop (SIGTERM, SIGHUP) is handled from before the staging folder exists until it is gone:
    # the folder is made and named, and later removed, with the stop signals held back.
    with stops_interrupt():
        try:
            with signals_held():
                try:
                    out_dir.mkdir(parents=True, exist_ok=True)
                    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.resolve().name}.staging-",
                                                    dir=_staging_parent(out_dir)))
                except OSError as exc:
                    raise OutputError(out_dir, exc) from None
            jobs: list[tuple[Path, Render]] = []
            for content in contents:
                jobs += planned_outputs(content, staging, options=build_options, **options)
            if calibration:
                from cardgen.calibration import ORIENTATIONS, calibration_name, render_calibration

                flip = options.get("flip", "long")
                for paper in options.get("papers", ("a4", "letter")):
                    for orientation in ORIENTATIONS:
                        path = staging / calibration_name(paper, flip, orientation)
                        jobs.append((path, tagged(path.name, partial(render_calibration, paper=paper, flip=flip,
                                                                     orientation=orientation))))
            staged = render_all(jobs, workers, progress)
            final = _move_into_place([(path, out_dir / path.relative_to(staging)) for path in staged], out_dir)
            done = True
            return final
        except OSError as exc:
            raise OutputError(Path(getattr(exc, "filename", None) or out_dir), exc) from None
        finally:
            with signals_held():
                if staging is not None:
                    shutil.rmtree(staging, ignore_errors=True)
                if made_out_dir and not done:
                    _remove_empty(out_dir)


def reads_other_outputs(path: Path) -> bool:
    """Whether the file at `path` is made from files of the same build: an assembly page reads the
    files planned before it, a shop PNG is a page of the shop PDF beside it."""
    return path.name.startswith("assembly-") or (path.suffix == ".png" and path.parent.name.startswith("shop-"))


_jobs: list[tuple[Path, Render]] = []  # the jobs of the running `render_all`, inherited by its workers


def _render_job(index: int) -> int:
    path, render = _jobs[index]
    path.parent.mkdir(parents=True, exist_ok=True)
    render(path)
    return index


def _render_jobs(indices: list[int]) -> list[int]:
    return [_render_job(index) for index in indices]


def _groups(jobs: list[tuple[Path, Render]], chosen: list[int]) -> list[list[int]]:
    """The jobs `chosen`, grouped for the worker processes: the PDFs of one kind of one game go to
    one process, which works out what they share (a game's pictures, its card texts' line breaks,
    its replayed examples, the thumbnails of an assembly page in both languages) once. Other files
    (a shop's or Tabletop Simulator's pictures, many to a game) go one by one. The rule sheets,
    the longest to draw, go first; short files are left for the end, where one process would
    otherwise wait on the other."""
    groups: dict[tuple, list[int]] = {}
    for index in chosen:
        path = jobs[index][0]
        key = (path.parent, path.name.split("-")[0]) if path.suffix == ".pdf" else (path,)
        groups.setdefault(key, []).append(index)
    return sorted(groups.values(), key=lambda group: not jobs[group[0]][0].name.startswith("rules-"))


def render_all(jobs: list[tuple[Path, Render]], workers: int = 1,
               progress: Callable[[Path], object] | None = None) -> list[Path]:
    """Render every (path, render) and return the paths in the order given. With more than one
    worker, forked processes render the files, first those made from content alone and then those
    made from other files of the build (`reads_other_outputs`); every file is drawn by the same
    code from the same data either way, so its bytes do not depend on the number of workers.
    Where processes cannot be forked, the files are rendered here, one after another."""
    global _jobs
    import multiprocessing

    workers = min(workers, len(jobs))
    previous, _jobs = _jobs, jobs
    try:
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            for index in map(_render_job, range(len(jobs))):
                if progress is not None:
                    progress(jobs[index][0])
        else:
            with local_pool(workers) as pool:
                for wave in (False, True):
                    chosen = [i for i, (path, _) in enumerate(jobs) if reads_other_outputs(path) is wave]
                    for group in pool.imap(_render_jobs, _groups(jobs, chosen)):
                        if progress is not None:
                            for index in group:
                                progress(jobs[index][0])
    finally:
        _jobs = previous
    return [path for path, _ in jobs]


def _staging_parent(out_dir: Path) -> Path:
    """Where the staging folder goes: beside the output folder, or inside it when the output folder
    is a mount point (a USB stick, a tmpfs), since files move into place by renaming within one
    filesystem."""
    target = out_dir.resolve()
    try:
        if os.stat(target.parent).st_dev != os.stat(target).st_dev:
            return target
    except OSError:
        pass
    return target.parent


def _move_into_place(moves: list[tuple[Path, Path]], out_dir: Path) -> list[Path]:
    """Move every staged file to its target, all or none: every target is checked first (no folder
    where a file goes, no file where a folder goes), files on another filesystem are copied beside
    their target, and only then is each renamed into place, with interruptions held back until the
    last rename is done. A failure before the renames leaves the output folder as it was."""
    for _, target in moves:
        _check_target(target, out_dir)
    created: list[Path] = []
    ready: list[tuple[Path, Path]] = []
    try:
        for staged, target in moves:
            for folder in reversed([target.parent, *target.parent.parents]):
                if not folder.exists():
                    folder.mkdir()
                    created.append(folder)
            if os.stat(staged).st_dev != os.stat(target.parent).st_dev:
                staged = _copy_beside(staged, target)
            ready.append((staged, target))
        with signals_held():
            for staged, target in ready:
                try:
                    os.replace(staged, target)
                except OSError as exc:
                    if exc.errno != errno.EXDEV:
                        raise OutputError(target, exc) from None
                    os.replace(_copy_beside(staged, target), target)
    except BaseException:
        for staged, target in ready:
            if staged.parent == target.parent and staged.exists():
                staged.unlink()
        for folder in reversed(created):
            _remove_empty(folder)
        raise
    return [target for _, target in moves]


def _check_target(target: Path, out_dir: Path) -> None:
    """Refuse a target that cannot be replaced by a file: a folder standing where the file goes,
    or a file standing where one of its folders goes."""
    if target.is_dir() and not target.is_symlink():
        raise OutputError(target, IsADirectoryError(errno.EISDIR, "a folder stands where this file goes"))
    for folder in target.parents:
        if folder == out_dir:
            break
        if folder.exists() and not folder.is_dir():
            raise OutputError(folder, NotADirectoryError(errno.ENOTDIR, "a file stands where this folder goes"))


def _copy_beside(staged: Path, target: Path) -> Path:
    """A copy of `staged` in the target's folder under a hidden name, ready to be renamed."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    try:
        shutil.copyfile(staged, name)
        shutil.copymode(staged, name)
    except BaseException:
        os.unlink(name)
        raise
    return Path(name)


def _remove_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


__all__ = ["ALL_LAYOUTS", "PARTS", "BuildOptions", "build_all", "build_game", "card_sheet_name", "planned_outputs"]
