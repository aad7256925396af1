"""The `cardgen` command: thin Typer commands that call the library, report, and set the exit code.

Exit status: 0 success, 1 the content or a scenario is wrong, 2 a usage error. Problems with the
user's input are printed as one line each, never as a traceback.

Start-up matters for a command people type often: this module imports only Typer and the error
types; the content loader, reportlab, sympy and the rules engines are imported inside the commands
that need them, so `cardgen --help` and `cardgen list` answer at once.
"""

from __future__ import annotations

import json
import sys
import time
from enum import Enum
from functools import partial
from pathlib import Path
from typing import List, Optional

import typer

from cardgen import __version__
from cardgen.errors import (
    ContentError, ContentErrors, Interrupted, OutputError, UsageError, display_path, printable, quoted_name,
)
from cardgen.words import counted, noun_for

# Plain help, as most command-line tools print it: it wraps to the terminal and costs a tenth of
# a second less to start than Typer's boxed panels.
app = typer.Typer(
    rich_markup_mode=None,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Print-and-play card sheets, rule sheets and rules verification for five games.",
)

# Options of the whole program that people also type after the command (`cardgen build --content
# DIR`); `main` moves them in front of it. Each takes one value.
GLOBAL_OPTIONS = ("--content", "--font")

_options: dict[str, Path | None] = {"content": None}


class Failed(Exception):
    """The command ran but found problems (exit status 1); they were already reported."""


def say(message: str = "") -> None:
    typer.echo(_terminal_safe(message))


def complain(message: str) -> None:
    typer.echo(_terminal_safe(message), err=True)


def _terminal_safe(message: str) -> str:
    """The last wall before the terminal: control characters that slipped into a line are shown
    escaped (texts and names from content are escaped and quoted where they are formatted)."""
    return "\n".join(printable(line, limit=None) for line in str(message).split("\n"))


def choices(name: str, *values: str) -> type[Enum]:
    """The values an option takes, as Typer wants them: it lists them in --help and, with
    case_sensitive=False, takes any case (`--paper A4`)."""
    return Enum(name, {value.lower().replace("-", "_"): value for value in values}, type=str)


Paper = choices("Paper", "a4", "letter", "all")
Lang = choices("Lang", "en", "zh-Hant", "all")
Flip = choices("Flip", "long", "short")
Sides = choices("Sides", "both", "fronts", "backs")
Policy = choices("Policy", "random", "greedy")


def _show_version(value: bool) -> None:
    if value:
        say(f"cardgen {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    content: Optional[Path] = typer.Option(
        None, "--content", help="Content folder holding one sub-folder per game (default: the games that come "
        "with cardgen). Also accepted after the command.", file_okay=False, show_default=False),
    font: Optional[Path] = typer.Option(
        None, "--font", help="A Chinese font file to embed (.ttf, .ttc, .otf); default: CARDGEN_CJK_FONT, the "
        "project's .fonts/, then the system's own (CARDGEN_FONT_PATH replaces the system search). Also "
        "accepted after the command.", dir_okay=False),
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Print the version and exit."),
):
    """Print-and-play generator and rules verifier."""
    _options["content"] = content
    # The font module brings reportlab; commands that print nothing need neither.
    if font is not None or "cardgen.pdfdoc" in sys.modules:
        from cardgen.pdfdoc import use_cjk_font

        use_cjk_font(font)


def content_dir() -> Path:
    if _options["content"] is not None:
        return _options["content"]
    from cardgen.content import PROJECT_CONTENT

    return PROJECT_CONTENT


def _where() -> str:
    """' in DIR' for a content folder the user named; nothing for the games shipped with cardgen,
    whose folder (inside site-packages) means nothing to a user."""
    return "" if _options["content"] is None else f" in {display_path(str(content_dir()))}"


def selected_games(names: list[str] | None) -> list[str]:
    """The games named (each must exist; a misspelling gets a "did you mean"), or every game of
    the content folder, which must hold at least one."""
    from cardgen.content import discover_games

    available = discover_games(content_dir())
    if not available:
        complain(f"{display_path(str(content_dir()))}: the folder holds no game (a game is a sub-folder "
                 "with a game.yaml)")
        raise Failed()
    for name in names or []:
        if name not in available:
            import difflib

            close = difflib.get_close_matches(name, available, n=1, cutoff=0.5)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UsageError(f"unknown game {printable(name)!r}{hint} (games{_where()}: "
                             f"{', '.join(map(quoted_name, available))})")
    return list(names) if names else available


def complete_games(incomplete: str) -> list[str]:
    """Shell completion of a game's name from the content folder."""
    from cardgen.content import discover_games

    try:
        return [name for name in discover_games(content_dir()) if name.startswith(incomplete)]
    except ContentErrors:
        return []


def load_or_fail(names: list[str] | None, report=None) -> list:
    """Load and check the games: schemas, cross-file facts and every static check (rule-sheet
    parts, house style, scenario setups, glyphs), reporting every error of every game at once.
    `report(errors)` replaces the printed report (for --json)."""
    from cardgen.content import load_games

    games, errors = load_games(content_dir(), selected_games(names))
    errors += _static_checks(games)
    if errors:
        if report is not None:
            report(errors)
        else:
            for error in errors:
                complain(str(error))
            complain(f"{counted(len(errors), 'error')} found")
        raise Failed()
    return games


def _static_checks(games: list) -> list:
    """The games' static checks, in the games' order: those that passed before on the same content,
    code and fonts are skipped (`cardgen.checkcache`), the others run side by side, one process
    per core."""
    from cardgen.checkcache import check_key, recall, remember
    from cardgen.static_checks import check_game
    from verify.workers import default_workers, forked_map

    keys = {content.id: check_key(content_dir(), "static", content.id, {}, _fonts_read()) for content in games}
    pending = [content for content in games if recall(keys[content.id]) != []]
    errors = []
    for content, found in zip(pending, forked_map(check_game, pending, default_workers())):
        if not found:
            remember(keys[content.id], [])
        errors += found
    return errors


def _fonts_read() -> tuple:
    """The font files checks and builds read: the Latin font, and the Chinese font when one is
    found (cards such as Game of Trains' print Chinese in an English build too)."""
    from cardgen.pdfdoc import NoChineseFont, find_cjk_font, latin_font_file

    try:
        return latin_font_file(), find_cjk_font()[0]
    except NoChineseFont:
        return (latin_font_file(),)  # Chinese is not checked or printed, which a font found later must redo


def error_dict(error: ContentError) -> dict:
    return {"file": display_path(error.file), "line": error.line, "column": error.col, "path": error.json_path,
            "message": error.message}


def _print_json(document) -> None:
    say(json.dumps(document, ensure_ascii=False, sort_keys=True))


@app.command()
def validate(
    games: Optional[List[str]] = typer.Argument(None, help="Games to check (default: all).",
                                                      autocompletion=complete_games),
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
):
    """Check every content file against its schema and the cross-file facts; list every error."""
    def report_json(errors):
        _print_json({"ok": False, "games": [], "errors": [error_dict(e) for e in errors]})

    rows = []
    for content in load_or_fail(games, report_json if as_json else None):
        counts = content.deck_counts()
        rows.append({"game": content.id, "cards": sum(counts.values()), "decks": len(counts),
                     "other_component_kinds": len(content.other_components()),
                     "scenarios": len(content.scenario_paths)})
    if as_json:
        _print_json({"ok": True, "games": rows, "errors": []})
        return
    for row in rows:
        say(f"ok  {quoted_name(row['game'])}: {counted(row['cards'], 'card')} in {counted(row['decks'], 'deck')}, "
            f"{counted(row['other_component_kinds'], 'other component kind')}, "
            f"{counted(row['scenarios'], 'scenario')}")


def list_row(content_root: Path, name: str) -> dict:
    """One game's line of `cardgen list`, read from game.yaml and the card list (cards.yaml, then
    cards.csv or cards.xlsx) alone: a listing, not a check (`validate` checks). A deck made of data
    may give its title as one text and no player count (None here). Content that cannot be read
    gives a row with `error`."""
    from cardgen.content import read_inside
    from cardgen.spreadsheet import card_sheet_of, read_card_sheet
    from cardgen.yamlio import load_yaml

    folder = content_root / name
    try:
        game, _ = load_yaml(folder / "game.yaml")
        cards_file = folder / "cards.yaml"
        cards = list(load_yaml(cards_file)[0].get("cards", [])) if cards_file.is_file() else []
        for sheet in card_sheet_of(folder):
            unread: list = []
            read = read_inside(sheet, folder, read_card_sheet, unread)
            if read is None:
                raise unread[0]
            cards += read[0]["cards"]
        title = game["title"]
        players = game.get("players")
        return {"game": name, "title": str(title.get("en", next(iter(title.values()))) if isinstance(title, dict) else title),
                "cards": sum(int(card.get("copies", 1)) for card in cards),
                "other_components": sum(int(item.get("count", 1)) for item in game.get("components", [])),
                "players_min": None if players is None else int(players["min"]),
                "players_max": None if players is None else int(players["max"])}
    except (ContentError, KeyError, TypeError, ValueError, AttributeError, OSError, StopIteration):
        return {"game": name, "error": f"content has errors: run `cardgen validate {name}`"}


@app.command("list")
def list_games(as_json: bool = typer.Option(False, "--json", help="Print the games as one JSON object.")):
    """The games in the content folder with their component totals."""
    rows = [list_row(content_dir(), name) for name in selected_games(None)]
    if as_json:
        _print_json({"games": rows})
    else:
        for row in rows:
            if "error" in row:
                say(f"{quoted_name(row['game']):28} ({row['error']})")
                continue
            players = "" if row["players_min"] is None else f"  {row['players_min']}-{row['players_max']} players"
            say(f"{quoted_name(row['game']):28} {printable(row['title'], limit=60):32} {row['cards']:4} "
                f"{noun_for(row['cards'], 'card'):5}  {row['other_components']:3} other "
                f"{noun_for(row['other_components'], 'component'):10}{players}")
    if any("error" in row for row in rows):
        raise Failed()


def manifest_rows(content) -> list[dict]:
    """One row per physical card, then one per other component."""
    rows = []
    for card in content.physical_cards():
        row = {"deck": card["deck"], "id": card["id"], "copy": card["copy"]}
        row.update({k: v for k, v in card.items() if k not in ("deck", "id", "copy", "copies")})
        rows.append(row)
    for item in content.other_components():
        for n in range(1, item.get("count", 1) + 1):
            rows.append({**{k: v for k, v in item.items() if k != "count"}, "deck": None, "copy": n})
    return rows


@app.command()
def manifest(
    game: str = typer.Argument(..., help="The game.", autocompletion=complete_games),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per physical card or component."),
):
    """Every physical component with its count, for checking a printed set against the data."""
    from cardgen.registry import definition_for

    (content,) = load_or_fail([game])
    if as_json:
        for row in manifest_rows(content):
            say(json.dumps(row, ensure_ascii=False, sort_keys=True))
        return
    say(f"{printable(content.title['en'])} ({quoted_name(content.id)})")
    definition = definition_for(content.id)
    counts = content.deck_counts()
    for deck in content.decks:
        width, height = content.card_size_mm(deck)
        n = counts[deck['id']]
        say(f"  {deck['id']:24} {n:4} {noun_for(n, 'card'):5}  {width:g} x {height:g} mm  back: {deck['back']}")
        for line in definition.manifest_lines(content, deck):
            say(f"      {line}")
    for item in content.other_components():
        n = item.get("count", 1)
        say(f"  {item['id']:24} {n:4} {noun_for(n, item['kind'])}")
    total_cards = sum(counts.values())
    total_other = sum(item.get("count", 1) for item in content.other_components())
    say(f"  total: {counted(total_cards, 'card')}, {counted(total_other, 'other component')}")


LANG_HELP = ("Languages of the rule sheets and card texts: en, zh-Hant or all. Default: all when a Chinese "
             "font is found, else English alone (with a note saying what was left out).")


def chosen_languages(lang: Lang | None, contents: list) -> tuple[str, ...]:
    """The languages this run prints. Chinese asked for by name needs a font (a usage error says
    how to get one); Chinese by default is left out, in one line on stderr, when no font is found."""
    from cardgen.content import LANGUAGES
    from cardgen.pdfdoc import HOW_TO_GET_A_FONT, chinese_font_found, require_cjk

    langs = LANGUAGES if lang in (None, Lang.all) else (lang.value,)
    # A game declares the languages it prints (an English-only deck needs no Chinese font).
    printed = {code for content in contents for code in content.printed_languages}
    wants_chinese = any(code.startswith("zh") and code in printed for code in langs)
    if wants_chinese and lang is None and not chinese_font_found():
        langs = tuple(code for code in langs if not code.startswith("zh"))
        complain("Chinese left out (rule sheets, assembly pages and Chinese card text): no Chinese font found; "
                 + HOW_TO_GET_A_FONT + "; --lang en builds English alone without this note")
        wants_chinese = False
    if wants_chinese and not chinese_font_found():
        raise UsageError(f"--lang {lang.value} prints Chinese, and no Chinese font was found; {HOW_TO_GET_A_FONT}; "
                         "--lang en builds English alone")
    require_cjk(wants_chinese)
    for content in contents:
        content.languages = tuple(code for code in langs if code in content.printed_languages)
    return langs


@app.command()
def build(
    games: Optional[List[str]] = typer.Argument(None, help="Games to build (default: all).",
                                                      autocompletion=complete_games),
    paper: Paper = typer.Option(Paper.all, case_sensitive=False, help="Paper size: a4, letter or all."),
    layout: str = typer.Option(
        "home,butted,fold", help="home (gutter between cards, art bleeding into it), butted (cards share cut "
        "lines), fold (fronts and backs on one side, for single-sided printers), shop (one card per page and a "
        "PNG per card, for a print shop), tts (Tabletop Simulator deck sheets), several joined by commas, or all."),
    flip: Flip = typer.Option(Flip.long, case_sensitive=False,
                              help="Duplex flip edge for the backs (short-flip files end in -short)."),
    cut_line: Optional[str] = typer.Option(
        None, "--cut-line", help="Crop mark weight and colour as WIDTH_PT,#RRGGBB (default 0.3,#000000)."),
    back_offset: Optional[str] = typer.Option(
        None, "--back-offset", help="Move every portrait backs page by X,Y mm (right, up, as seen on the back), "
        "as read on the portrait calibration sheet (calibration-PAPER.pdf)."),
    back_offset_landscape: Optional[str] = typer.Option(
        None, "--back-offset-landscape", help="The same for landscape backs pages (home card sheets), as read on "
        "the landscape calibration sheet (calibration-PAPER-landscape.pdf)."),
    printer: Optional[Path] = typer.Option(
        None, "--printer", help="A printer profile (YAML: printer: {back_offset_mm: {portrait: [X, Y], landscape: [X, Y]}}); "
        "only this file is read.", dir_okay=False),
    shop: Optional[str] = typer.Option(None, "--shop", help="Print-shop profile of content/print/shops.yaml: "
                                       "poker-63x88 (default), makeplayingcards-poker, drivethrucards-poker, "
                                       "us-poker (The Game Crafter) or per-component-poker (a PDF per deck)."),
    cards: Optional[str] = typer.Option(
        None, "--cards", help="Only these cards, to replace lost or damaged ones: positions in print order "
        "(1 is the first card printed; each sheet's label lists its positions), ranges such as 40-44, or card "
        "ids (one copy each time named), e.g. 12,17,40-44. Needs one game; makes replacements-* files only."),
    sides: Sides = typer.Option(Sides.both, "--sides", case_sensitive=False,
                                help="Card sheets of both sides, or of fronts or backs only."),
    only: Optional[str] = typer.Option(
        None, "--only", help="Make only these parts, joined by commas: cards (card sheets, with the shop and "
        "Tabletop Simulator files their layouts ask for), aids (reference cards), proof (the card list), rules "
        "(rule sheets), pieces (tiles, boards, tokens, mats), calibration (duplex calibration sheets). The "
        "assembly page lists every part, so it is made only when every part is. Default: every part."),
    inner_guides: str = typer.Option(
        "none", "--inner-guides", help="Cut guides inside blocks of butted cards, on the fronts: none, crosses "
        "(a small cross where trims meet) or lines (a hairline along every shared edge)."),
    card_size: Optional[str] = typer.Option(
        None, help="Print every card at this size instead of the content's, as WIDTHxHEIGHT in mm (e.g. 57x89)."),
    margin: Optional[float] = typer.Option(
        None, "--margin", help="Keep card sheets this many mm from the paper's edge (default 5; up to 40), for "
        "printers that leave a wider edge unprinted, as many inkjets do when printing double-sided."),
    out: str = typer.Option("output", "--out", help="Output folder."),
    lang: Optional[Lang] = typer.Option(None, "--lang", case_sensitive=False, help=LANG_HELP, show_default=False,
                                         metavar="<en|zh-Hant|all>"),
    strict: bool = typer.Option(False, "--strict", help="Treat preflight warnings as errors."),
    tts_url: Optional[str] = typer.Option(
        None, "--tts-url", help="Where the Tabletop Simulator images will be hosted (a URL ending in the tts/ "
        "folder); default: addresses relative to the saved object."),
    workers: int = typer.Option(0, min=0, max=1024, help="Processes to draw the files on (0: one per core); "
                                "the files do not depend on it."),
):
    """Build every PDF (card sheets, tiles, rule sheets) of the games into OUT/<game>/.

    Every check runs first; the files are written into a staging folder beside OUT and moved into
    place only when all are done, so a failure or Ctrl-C leaves OUT as it was."""
    if Path(out).exists() and not Path(out).is_dir():
        raise UsageError(f"--out {display_path(out)}: not a folder (a file of that name is there)")
    if not out.strip():
        raise UsageError("--out must name a folder")
    from cardgen.build import build_all, build_options
    from cardgen.buildcache import remember_build, unchanged_files
    from cardgen.pdfdoc import cjk_font_description
    from verify.workers import default_workers

    papers = ("a4", "letter") if paper is Paper.all else (paper.value,)
    layouts, options = build_options(layout.lower(), cut_line, back_offset, printer, shop, cards, sides.value, games,
                                     back_offset_landscape, inner_guides.lower(), margin, only)
    if options.sheet.back_offset != (0.0, 0.0) and options.sheet.back_offset_landscape == (0.0, 0.0):
        say("note: the back offset corrects portrait pages only; landscape pages (the home card sheets) "
            "take --back-offset-landscape, read on calibration-PAPER-landscape.pdf")
    if tts_url is not None:
        from dataclasses import replace
        from urllib.parse import urlsplit

        address = urlsplit(tts_url)
        if address.scheme not in ("http", "https", "file") or not (address.netloc or address.path):
            raise UsageError(f"--tts-url must be an address such as https://example.org/decks/, not {tts_url!r}")
        options = replace(options, tts_url=tts_url)
    size = _card_size(card_size) if card_size else None
    settings = dict(games=games, paper=paper.value, layouts=layouts, flip=flip.value, options=repr(options),
                    card_size=size, lang=lang.value if lang else None, strict=strict, content=str(content_dir()))
    key = _build_key(settings, printer, layouts)
    kept = unchanged_files(Path(out), key)
    if kept is not None:
        say(f"nothing changed since the last build into {quoted_name(Path(out))} (same content, options and code): "
            f"{counted(len(kept), 'file')} kept as they are")
        closing = where_to_start(kept)
        if closing:
            say(closing)
        return
    contents = load_or_fail(games)
    if size is not None:
        for content in contents:
            for declared in content.game["card_sizes"].values():
                declared["width_mm"], declared["height_mm"] = size
    check_sheets_fit(contents, papers, layouts, options.sheet.margin)
    langs = chosen_languages(lang, contents)
    if any(code.startswith("zh") for code in langs):
        say(f"Chinese font: {cjk_font_description()}")
    run_preflight(contents, strict, {"card_size": size})
    start = time.perf_counter()
    calibration = options.cards is None and options.makes("calibration") and bool({"home", "butted"} & set(layouts))
    plan = dict(papers=papers, layouts=layouts, flip=flip.value, langs=langs, options=options)
    with Progress("building", _planned_files(contents, Path(out), calibration, **plan), "files") as progress:
        written = build_all(contents, Path(out), progress=progress.step, calibration=calibration,
                            workers=workers or default_workers(), **plan)
    folders: dict[Path, int] = {}
    for path in written:
        if path.suffix in (".png", ".csv", ".json"):  # shop and Tabletop Simulator folders: one line each
            folders[path.parent] = folders.get(path.parent, 0) + 1
            continue
        say(f"wrote {quoted_name(path)}  ({path.stat().st_size // 1024} KiB)")
    for folder, count in folders.items():
        say(f"wrote {quoted_name(folder)}/  ({counted(count, 'file')})")
    say(f"{counted(len(written), 'file')} in {time.perf_counter() - start:.2f} s")
    remember_build(Path(out), key, written)
    _say_what_cmyk_left_out(layouts, options)
    closing = where_to_start(written)
    if closing:
        say(closing)


def _build_key(settings: dict, printer: Path | None, layouts) -> str:
    """The hash of what a build is made from (see `cardgen.buildcache`): its settings, the printer
    profile's bytes, the fonts and colour profile it would use, the content and the code."""
    from cardgen.buildcache import build_key

    fonts = list(_fonts_read())
    if "shop" in layouts:
        from cardgen.cmyk import find_profile

        fonts.append(find_profile() or "no colour profile")
    return build_key(content_dir(), settings, (printer,) if printer else (), tuple(fonts))


def _say_what_cmyk_left_out(layouts, options) -> None:
    """One line when a shop profile asks for a CMYK file that no CMYK profile could make."""
    if "shop" not in layouts:
        return
    from cardgen.cmyk import HOW_TO_GET_A_PROFILE, find_profile
    from cardgen.printdata import shop_profile

    if shop_profile(options.shop).cmyk_ink_limit is not None and find_profile() is None:
        say(f"cards-cmyk.pdf left out: no CMYK colour profile found; {HOW_TO_GET_A_PROFILE}")


def _planned_files(contents, out: Path, calibration: bool, **plan) -> int:
    """How many files the build will write, for the progress bar."""
    from cardgen.build import planned_outputs

    from cardgen.calibration import ORIENTATIONS

    total = sum(len(planned_outputs(content, out, **plan)) for content in contents)
    return total + (len(plan["papers"]) * len(ORIENTATIONS) if calibration else 0)


def where_to_start(written: list[Path]) -> str:
    """The build's closing line: which file to open first (the assembly page, which says what to
    print, on what, and how to cut and assemble) and where the card sheets are."""
    pages: dict[Path, Path] = {}
    for path in sorted(written, key=lambda p: (not p.name.endswith("-en.pdf"), p.name)):
        if path.name.startswith("assembly-"):
            pages.setdefault(path.parent, path)
    sheets = sorted({p.parent for p in written if p.name.startswith(("cards-", "replacements-"))})
    parts = []
    if len(pages) == 1:
        parts.append(f"open {display_path(str(next(iter(pages.values()))))} first: it says what to print, on "
                     "what, and how to cut and assemble")
    elif pages:
        first = display_path(str(pages[min(pages)]))
        parts.append(f"open each game's assembly page first ({first} and {len(pages) - 1} more): it says what to "
                     "print, on what, and how to cut and assemble")
    if len(sheets) == 1:
        parts.append(f"the card sheets (cards-*.pdf) are in {display_path(str(sheets[0]))}/")
    elif sheets:
        parts.append(f"the card sheets (cards-*.pdf) are in each game's folder under "
                     f"{display_path(str(sheets[0].parent))}/")
    return "; ".join(parts)


def check_sheets_fit(contents: list, papers, layouts, margin: float) -> None:
    """Before anything is built: every card size fits on every paper and card layout asked for
    inside the margin (a margin that leaves no room is a usage error naming --margin)."""
    from cardgen.sheets import SHEET_LAYOUTS, plan_for

    for content in contents:
        for size_name in content.game["card_sizes"]:
            for paper in papers:
                for layout in (name for name in layouts if name in SHEET_LAYOUTS):
                    plan_for(content, size_name, paper, layout, margin)


def run_preflight(contents: list, strict: bool, settings: dict) -> None:
    """Check the printed cards before anything is written: errors stop the build, warnings are
    listed (and stop it too with --strict). A game whose preflight found no error before, with the
    same content, code, fonts and `settings` (card size, languages), shows that preflight's
    warnings again without drawing anything (`cardgen.checkcache`)."""
    from cardgen.checkcache import check_key, recall, remember
    from cardgen.preflight import Finding, preflight, table
    from verify.workers import default_workers, forked_map

    by_game, keys = {}, {}
    for content in contents:
        keys[content.id] = key = check_key(content_dir(), "preflight", content.id,
                                           {**settings, "strict": strict, "printed": content.languages}, _fonts_read())
        record = recall(key)
        try:
            by_game[content.id] = None if record is None else [Finding(**entry) for entry in record]
        except TypeError:  # a record this version cannot read: the preflight runs again
            by_game[content.id] = None
    # The games not recalled are checked side by side, one process per core.
    pending = [content for content in contents if by_game[content.id] is None]
    for content, mine in zip(pending, forked_map(partial(preflight, strict=strict), pending, default_workers())):
        if not any(f.level == "error" for f in mine):
            remember(keys[content.id], [f.as_dict() for f in mine])
        by_game[content.id] = mine
    findings = [finding for content in contents for finding in by_game[content.id]]
    errors = [f for f in findings if f.level == "error"]
    warnings = [f for f in findings if f.level != "error"]
    if warnings:
        complain(table(warnings))
    if errors:
        for finding in errors:
            complain(str(finding))
        complain(f"preflight: {counted(len(errors), 'error')}; nothing was written")
        raise Failed()


@app.command("preflight")
def preflight_command(
    games: Optional[List[str]] = typer.Argument(None, help="Games to check (default: all).",
                                                      autocompletion=complete_games),
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as errors."),
    as_json: bool = typer.Option(False, "--json", help="Print the findings as JSON, one object per line."),
    lang: Optional[Lang] = typer.Option(None, "--lang", case_sensitive=False, help=LANG_HELP, show_default=False,
                                         metavar="<en|zh-Hant|all>"),
):
    """Check every card face and back as a prepress technician would, before anything is printed.

    Errors: text below 7 pt, characters no font can print, text past the trim. Warnings: text inside
    the 3 mm safe zone, text that runs into other text, art that stops short of the bleed. Each
    finding names the game, the card and where it is in the content."""
    from cardgen.preflight import preflight, table
    from verify.workers import default_workers, forked_map

    contents = load_or_fail(games)
    chosen_languages(lang, contents)
    findings = [f for mine in forked_map(partial(preflight, strict=strict), contents, default_workers()) for f in mine]
    if as_json:
        for finding in findings:
            say(json.dumps(finding.as_dict(), ensure_ascii=False, sort_keys=True))
    else:
        say(table(findings))
    if any(f.level == "error" for f in findings):
        raise Failed()


@app.command("new")
def new_deck(folder: Path = typer.Argument(..., help="The content folder to create (it may exist; the deck's folder in it may not).",
                                           file_okay=False),
             game_id: str = typer.Option("my-deck", "--id", help="The deck's id and the name of its folder.")):
    """Write a small starter deck made of data alone (a card spreadsheet, a layout, two backs, a
    picture) that builds as it is, and say what to run next."""
    import re

    from cardgen.starter import write_starter

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", game_id):
        raise UsageError(f"--id must be lower-case letters, digits and dashes, not {game_id!r}")
    game_dir = write_starter(folder, game_id)
    say(f"wrote {game_dir}/ (game.yaml, layout.yaml, cards.csv, images/emblem.png)")
    say(f"next: cardgen --content {folder} build {game_id} --out {folder}-print")


def _card_size(text: str) -> tuple[float, float]:
    try:
        width, height = (float(part) for part in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--card-size must look like 63x88 (millimetres), not {text!r}") from None
    if not (20 < width <= 200 and 20 < height <= 280):
        raise UsageError(f"--card-size {text}: each side must be more than 20 mm and fit on the paper")
    return width, height


class Progress:
    """What a long command is doing. On a terminal (stderr), a bar with the count done of the
    total, the current game and file, and the time left; when piped, a plain line as each game's
    files begin (verify prints its own line per scenario). `step(path)` is called once per
    finished item."""

    def __init__(self, verb: str, total: int, unit: str):
        self.verb, self.total, self.unit = verb, total, unit
        self.bar, self.said = None, set()

    def __enter__(self):
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
            from rich.progress import Progress as Bar

            self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TextColumn(self.unit), TimeRemainingColumn(), transient=True,
                           console=Console(stderr=True))
            self.bar.start()
            self.task = self.bar.add_task(self.verb, total=self.total)
        return self

    def describe(self, text: str) -> None:
        """Say what is being done now (the game and file), without counting a step."""
        if self.bar is not None:
            self.bar.update(self.task, description=f"{self.verb} {text}")

    def step(self, path=None) -> None:
        if self.bar is not None:
            self.bar.update(self.task, advance=1)
            if path is not None:  # game/file; files at the top of the (staging) folder by name alone
                path = Path(path)
                self.describe(path.name if path.parent.name.startswith(".") else f"{path.parent.name}/{path.name}")
        elif path is not None:
            # Piped: one plain line when the work reaches a game's folder for the first time.
            group = Path(path).parent.name
            if group not in self.said and not group.startswith("."):
                complain(f"{self.verb} {group}")
                self.said.add(group)

    def advance(self, count: int) -> None:
        """Count `count` items done at once (games, on the bar only)."""
        if self.bar is not None:
            self.bar.update(self.task, advance=count)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False


@app.command()
def verify(
    targets: Optional[List[str]] = typer.Argument(None, help="Games or scenario files (default: every game)."),
    game: Optional[str] = typer.Option(None, help="The game of scenario files outside a game folder."),
    notation: Optional[str] = typer.Option(
        None, "--notation", help="Print GAME's scenario notation (its actions and the fields expect: reads) and stop."),
    show: Optional[int] = typer.Option(
        None, "--show", min=0, help="Print the whole position after step N of each scenario named (0: the start): "
        "every zone, and what each player sees."),
    trace: bool = typer.Option(False, "--trace", help="Print the whole position after every step."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    junit: Optional[Path] = typer.Option(None, "--junit", dir_okay=False,
                                         help="Also write the result as a JUnit XML report to this file, for CI."),
):
    """Check the data, then replay every scenario; report each failure with file, line and step.

    A scenario is a YAML file with a title, a rule, the players, optional params, seed and setup, and
    steps. A step is an action (P1: text, with rejects: text when it must be refused), expect: (fields of
    the position), observe: (what one player sees), or chance: (the outcome of the next shuffle); end:
    compares the result.

    Each game's actions and fields: cardgen verify --notation GAME, or docs/scenarios.md."""
    from cardgen.registry import engine_for
    from verify.scenario import check_scenario, run_scenario

    if notation is not None:
        (content,) = load_or_fail([notation])
        engine = engine_for(content)
        if engine is None:
            complain(f"{notation}: no rules engine (rules not implemented)")
            raise Failed()
        say(engine.notation_help().rstrip())
        return
    if as_json and (show is not None or trace):
        raise UsageError("--show and --trace print positions as text; leave out --json")

    def refuse(errors: list[ContentError]) -> None:
        """Faults found before replay: reported (as JSON with --json, in the JUnit file with
        --junit) and the command stops."""
        if junit is not None:
            write_junit({"games": [], "scenarios": [], "rulings": [], "errors": errors}, junit)
        if as_json:
            _print_json({"ok": False, "errors": [error_dict(e) for e in errors], "games": [], "scenarios": [],
                         "rulings": [], "replayed": 0, "failed": 0})
        else:
            for error in errors:
                complain(str(error))
            complain(f"{counted(len(errors), 'error')} found before replay")
        raise Failed()

    plan = _verify_plan(targets or [], game)
    contents = {c.id: c for c in load_or_fail(list(plan), refuse)}
    engines = {name: engine_for(contents[name]) for name in plan}
    # Files named on the command line are checked whole before anything is replayed (a game's own
    # scenarios were checked by load_or_fail).
    static = [e for name, paths in plan.items() for path in paths or [] for e in check_scenario(path, engines[name])]
    if static:
        refuse(static)
    echo = (lambda text: None) if as_json else say
    report = {"games": [], "scenarios": [], "rulings": []}
    watch = PositionPrinter(show, trace) if (show is not None or trace) else None
    total = sum(len(paths) if paths is not None else len(contents[name].scenario_paths) for name, paths in plan.items())
    with Progress("replaying", total, "scenarios") as progress:
        for name, paths in plan.items():
            content = contents[name]
            prov = content.provenance_counts()
            engine = engines[name]
            if engine is not None:
                echo(f"{quoted_name(name)}: data ok; components sourced {prov['sourced']}, reconstructed {prov['reconstructed']}")
            report["games"].append({"game": name, "sourced": prov["sourced"], "reconstructed": prov["reconstructed"],
                                    "engine": engine is not None})
            if engine is None:
                complain(f"{name}: this game has no rules engine, so there is nothing to verify")
                report["scenarios"].append({"game": name, "file": None, "title": "rules engine", "ok": False,
                                            "failures": ["this game has no rules engine"], "seconds": 0.0})
                continue
            for path in paths if paths is not None else content.scenario_paths:
                progress.describe(f"{name}/{path.name}")
                started = time.perf_counter()
                result = run_scenario(path, engine, watch=watch)
                report["scenarios"].append({"game": name, "file": display_path(str(path)), "title": result.title,
                                            "ok": result.ok, "failures": result.failures,
                                            "seconds": round(time.perf_counter() - started, 4)})
                progress.step()
                missed = watch.missed(path, result.steps_run) if watch is not None else None
                if missed:
                    complain(missed)
                echo(f"  {'pass' if result.ok else 'FAIL'}  {quoted_name(path.name)}: {printable(result.title)}")
                for line in result.failures:
                    complain(line)
            if paths is None:
                report["rulings"] += _recheck_comparisons(content, engine, echo, progress)
    replayed = sum(1 for s in report["scenarios"] if s["file"] is not None)
    failed = sum(not s["ok"] for s in report["scenarios"]) + sum(not r["ok"] for r in report["rulings"])
    report.update(replayed=replayed, failed=failed, ok=failed == 0, errors=[])
    if junit is not None:
        write_junit(report, junit)
    if as_json:
        _print_json(report)
    elif any(game["engine"] for game in report["games"]):
        say(f"{replayed} scenarios replayed, {failed} failed")
    if failed:
        raise Failed()


def _verify_plan(targets: list[str], game: str | None) -> dict[str, list[Path] | None]:
    """Game -> the scenario files named for it, or None for all of its scenarios."""
    plan: dict[str, list[Path] | None] = {}
    names = []
    for target in targets:
        if not target.endswith((".yaml", ".yml")):
            names.append(target)
            continue
        path = Path(target)
        if not path.exists():
            raise UsageError(f"{display_path(target)}: the file does not exist")
        # Anything else that is not a plain file (a folder, a pipe) is refused, unread, with its
        # place when the scenario is read.
        owner = game or _game_of_scenario(path)
        plan.setdefault(owner, [])
        if plan[owner] is not None:
            plan[owner].append(path)
    for name in names or ([] if plan else selected_games(None)):
        plan[name] = None  # every scenario of the game
    return plan


class PositionPrinter:
    """A `watch(step number, step, state)` for run_scenario that prints the whole position (every
    zone, and what each player sees) after step `show`, or after every step with `trace`."""

    def __init__(self, show: int | None, trace: bool):
        self.show, self.trace, self.shown = show, trace, False

    def __call__(self, n: int, step, state) -> None:
        from verify.scenario import describe_position

        if self.trace or n == self.show:
            self.shown = self.shown or n == self.show
            say(describe_position(n, step, state))

    def missed(self, path: Path, steps_run: int) -> str | None:
        """What to say when the step asked for was never reached; resets for the next file."""
        missed, self.shown = self.show is not None and not self.shown, False
        return f"{path.name}: no position after step {self.show}: the replay stopped after step {steps_run}" \
            if missed else None


def write_junit(report: dict, path: Path) -> None:
    """The verify report as JUnit XML: one test suite per game, one test case per scenario and per
    ruling's comparison."""
    import xml.etree.ElementTree as ET

    from cardgen.pdfdoc import atomic_output

    root = ET.Element("testsuites", name="cardgen verify")
    for game in report["games"]:
        name = game["game"]
        cases = [s for s in report["scenarios"] if s["game"] == name] + \
            [r for r in report["rulings"] if r["game"] == name]
        suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(cases)),
                              failures=str(sum(not c["ok"] for c in cases)), errors="0", skipped="0")
        for case in cases:
            label = f"{Path(case['file']).name}: {case['title']}" if case.get("file") else \
                case.get("title") or f"ruling {case['ruling']}"
            element = ET.SubElement(suite, "testcase", classname=name, name=label,
                                    time=f"{case.get('seconds', 0.0):.4f}")
            if case.get("file"):
                element.set("file", case["file"])
            if not case["ok"]:
                messages = case.get("failures") or case.get("moved") or []
                failure = ET.SubElement(element, "failure", message=messages[0] if messages else "failed")
                failure.text = "\n".join(messages)
    if report.get("errors"):
        suite = ET.SubElement(root, "testsuite", name="checks before replay", tests=str(len(report["errors"])),
                              failures=str(len(report["errors"])), errors="0", skipped="0")
        for error in report["errors"]:
            case = ET.SubElement(suite, "testcase", classname="checks", name=str(error), file=display_path(error.file))
            ET.SubElement(case, "failure", message=error.message).text = str(error)
    ET.indent(root)
    try:
        with atomic_output(path) as buffer:
            buffer.write(ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n")
    except OSError as exc:
        raise OutputError(path, exc) from None


def _recheck_comparisons(content, engine, echo, progress: Progress) -> list[dict]:
    """Each ruling's stored comparison of readings is measured again; a moved figure fails. The
    seeded games are played on every core, one pool for all the game's comparisons (started by the
    first that is not remembered): the figures do not depend on it."""
    from verify.compare import recheck
    from verify.workers import Runner, default_workers

    results = []
    rulings = [(i, r) for i, r in enumerate(content.files.get("rulings", {}).get("rulings", [])) if r.get("compare")]
    if rulings:
        echo(f"  re-measuring {counted(len(rulings), 'ruling comparison')} of {content.id} "
             "(seeded games under each reading; this takes a while)")
    runner = Runner(default_workers())
    with runner.held():
        for i, ruling in rulings:
            where = content.where("rulings", ["rulings", i, "compare"])
            progress.describe(f"{content.id}: ruling {ruling['id']} (re-measuring)")
            if "param" not in ruling:
                complain(f"{where}: a comparison needs the ruling's param")
                results.append({"game": content.id, "ruling": ruling["id"], "ok": False,
                                "moved": ["a comparison needs the ruling's param"]})
                continue
            moved = recheck(engine, ruling["param"], ruling["compare"], runner=runner)
            results.append({"game": content.id, "ruling": ruling["id"], "ok": not moved, "moved": moved})
            if moved:
                complain(f"{where}: ruling {ruling['id']}: the comparison moved: {'; '.join(moved)}")
            else:
                echo(f"  pass  ruling {ruling['id']}: comparison of {ruling['param']} readings holds")
    return results


def _game_of_scenario(path: Path) -> str:
    parts = path.resolve().parts
    if len(parts) >= 3 and parts[-2] == "scenarios":
        return parts[-3]
    raise UsageError(f"{path}: cannot tell its game from where it lies; name it with --game")


@app.command()
def simulate(
    game: str = typer.Argument(..., help="The game.", autocompletion=complete_games),
    players: int = typer.Option(4, help="Players per game."),
    games: int = typer.Option(100, min=1, max=10_000_000, help="Games to play."),
    seed: int = typer.Option(1, help="Seed of the run; each game's own seed is drawn from it, so game k is the "
                             "same game however the run is split."),
    policy: Policy = typer.Option(Policy.random, case_sensitive=False,
                                  help="random plays any legal action; greedy the best by the engine's score."),
    turn_cap: int = typer.Option(2000, min=1, max=10_000_000, help="Stop a game after this many actions."),
    param: Optional[List[str]] = typer.Option(
        None, help="A game parameter as KEY=VALUE, repeatable (e.g. stage=la-haute-montagne, mountains=false)."),
    failures: Path = typer.Option(Path("output/failures"), help="Folder where a broken game is written as a scenario.", file_okay=False),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    compare: Optional[str] = typer.Option(
        None, "--compare", help="KEY=A,B: play the same seeded games under two readings of a rule and report "
        "how often the winner, the order and the length change (e.g. exhaustion_supply=limited,unlimited)."),
    workers: int = typer.Option(0, min=0, max=1024, help="Processes to play on (0: one per core); the results do not depend on it."),
    cluster: Optional[str] = typer.Option(
        None, help="Play on a Dask cluster: 'local' starts one on this machine, an address such as "
        "tcp://HOST:8786 joins a running scheduler (needs the cluster extra)."),
):
    """Random playouts that check the invariants after every action; report speed and outcomes.

    Policies: `random` picks any legal action (games may run long; it is for invariants), `greedy` picks
    the best action by the engine's own score and finishes games (use it for lengths and win rates).
    With --compare, the games are played twice, once per reading."""
    from verify.simulate import simulate as run

    engine = _playable_engine(game)
    if not engine.min_players <= players <= engine.max_players:
        raise UsageError(f"{game} takes {engine.min_players}-{engine.max_players} players, not {players}")
    engine = _with_params(engine, param or [], players=players)
    runner = _runner(workers, cluster)
    if policy is Policy.greedy and not as_json:
        from verify.simulate import greedy_scorer

        if greedy_scorer(engine.new_state(players, seed=seed)) is None:
            say(f"note: {game}'s rules engine scores no position, so greedy play is random play")
    if compare is not None:
        key, values = _comparison(engine, compare, players)
        from verify.compare import compare as run_comparison

        result = _on_runner(runner, lambda: run_comparison(engine, key, values, players, games, seed, policy.value,
                                                           turn_cap, runner), 2 * games)
        say(json.dumps({**result.as_record(), "differed": result.differed, "unfinished": result.unfinished},
                       ensure_ascii=False) if as_json else result.summary())
        return
    failure_path = failures / f"{game}-{players}p-seed{seed}.yaml"
    report = _on_runner(runner, lambda: run(engine, players=players, games=games, seed=seed, policy=policy.value,
                                            turn_cap=turn_cap, failure_path=failure_path, runner=runner), games)
    if as_json:
        say(json.dumps(simulation_dict(game, report), ensure_ascii=False, sort_keys=True))
    else:
        say(report.summary())
    if report.failures:
        raise Failed()


@app.command()
def sweep(
    game: str = typer.Argument(..., help="The game.", autocompletion=complete_games),
    param: Optional[List[str]] = typer.Option(
        None, help="KEY=A,B,C: the values of one parameter to sweep over, repeatable; every combination is played."),
    players: str = typer.Option("4", help="Player counts, e.g. 2,3,4."),
    games: int = typer.Option(100, min=1, max=10_000_000, help="Games per combination."),
    seed: int = typer.Option(1, help="Seed of every combination's games (the same games under each reading)."),
    policy: Policy = typer.Option(Policy.greedy, case_sensitive=False,
                                  help="random plays any legal action; greedy the best by the engine's score."),
    turn_cap: int = typer.Option(2000, min=1, max=10_000_000, help="Stop a game after this many actions."),
    out: Path = typer.Option(Path("output/sweep.csv"), dir_okay=False,
                             help="The results: a CSV file, or Parquet when the name ends in .parquet (needs "
                             "pyarrow: pip install 'cardgen[parquet]'); combinations already in it are not "
                             "played again, nor the chunks of one that were finished before a stop."),
    workers: int = typer.Option(0, min=0, max=1024, help="Processes to play on (0: one per core)."),
    cluster: Optional[str] = typer.Option(None, help="'local' or a Dask scheduler address, as for simulate."),
):
    """Play the same seeded games under every combination of parameter values and player counts,
    one row per combination (wins by seat, shared wins, capped games, lengths, mean scores), as CSV
    or Parquet. Stopped and started again, it plays only what the file lacks."""
    import importlib.util

    from verify.engine import param_text
    from verify.sweep import SweepFileError, combinations, is_parquet
    from verify.sweep import sweep as run_sweep

    engine = _playable_engine(game)
    counts = _player_counts(players, engine, game)
    grid = {}
    for pair in param or []:
        key, sep, values = pair.partition("=")
        if not sep or not key or not all(v.strip() for v in values.split(",")):
            raise UsageError(f"--param must look like KEY=A,B,C, not {pair!r}")
        if key in grid:
            raise UsageError(f"--param {printable(key)} is given twice; give all its values at once, as "
                             f"{printable(key)}=A,B,C")
        read = [_with_params(engine, [f"{key}={v.strip()}"], players=max(counts)).params[key] for v in values.split(",")]
        # A value named twice (or written two ways, as true and True) is one reading, played once.
        unique: dict = {}
        for value in read:
            unique.setdefault(param_text(value), value)
        grid[key] = list(unique.values())
    if out.exists() and not out.is_file():
        raise UsageError(f"--out {out} is not a file")
    if is_parquet(out) and importlib.util.find_spec("pyarrow") is None:
        raise UsageError("a Parquet file needs pyarrow: pip install 'cardgen[parquet]' (or name a .csv file)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(out.parent, exc) from None
    runner = _runner(workers, cluster)
    try:  # a file that is not a sweep's is refused before any game is played
        played, skipped = _on_runner(runner, lambda: run_sweep(
            engine, grid, counts, games, seed, policy.value, turn_cap, out, runner,
            progress=lambda line: say(f"  {line}")), len(combinations(grid, counts)) * games)
    except SweepFileError as exc:
        complain(str(exc))
        raise Failed() from None
    say(f"{counted(played, 'combination')} played, {skipped} already in {display_path(str(out))}")


@app.command()
def report(
    game: str = typer.Argument(..., help="The game.", autocompletion=complete_games),
    players: Optional[str] = typer.Option(None, help="Player counts, e.g. 3,4 (default: every count the game takes)."),
    games: int = typer.Option(200, min=1, max=1_000_000, help="Games per player count and per reading."),
    seed: int = typer.Option(1, help="Seed of the games (the same games under every reading)."),
    policy: Policy = typer.Option(Policy.greedy, case_sensitive=False,
                                  help="random plays any legal action; greedy the best by the engine's score."),
    turn_cap: int = typer.Option(2000, min=1, max=10_000_000, help="Stop a game after this many actions."),
    out: Optional[Path] = typer.Option(None, dir_okay=False,
                                       help="The PDF to write (default: output/GAME/balance-report.pdf)."),
    workers: int = typer.Option(0, min=0, max=1024, help="Processes to play on (0: one per core)."),
    cluster: Optional[str] = typer.Option(None, help="'local' or a Dask scheduler address, as for simulate."),
):
    """The balance lab: a PDF with the win rate by seat (95 % intervals), the spread of game lengths,
    the games stopped by the cap, and each ruling's other reading played on the same games, for
    every player count; and the odds the rule sheet prints against games the rules deal."""
    from cardgen.balance import render_balance_report
    from cardgen.registry import definition_for
    from verify.lab import measure, readings_of
    from verify.oddscheck import check_odds

    engine = _playable_engine(game)
    counts = _player_counts(players, engine, game) if players else list(range(engine.min_players, engine.max_players + 1))
    target = out or Path("output") / game / "balance-report.pdf"
    if target.exists() and not target.is_file():
        raise UsageError(f"--out {target} is not a file")
    runner = _runner(workers, cluster)
    (content,) = load_or_fail([game])
    lab = _on_runner(runner, lambda: measure(engine, content, counts, games, seed, policy.value, turn_cap, runner,
                                             progress=lambda line: say(f"  {line}")),
                     len(counts) * games * (1 + 2 * len(readings_of(content))))
    events = definition_for(content.id).odds_events(content)
    if events:
        say(f"  the rule sheet's odds against {ODDS_DEALS} dealt games")
        lab.odds = check_odds(engine, events, deals=ODDS_DEALS, seed=seed)
    render_balance_report(lab, target)
    say(f"wrote {target}")


ODDS_DEALS = 4000  # games dealt to check the rule sheet's odds in a balance report


def _player_counts(text: str, engine, game: str) -> list[int]:
    try:
        counts = sorted({int(n) for n in text.split(",")})
    except ValueError:
        raise UsageError(f"--players must be whole numbers such as 2,3,4, not {text!r}") from None
    for n in counts:
        if not engine.min_players <= n <= engine.max_players:
            raise UsageError(f"--players: {game} takes {engine.min_players}-{engine.max_players} players, not {n}")
    return counts


def _playable_engine(game: str):
    """The checked game's rules engine for playouts, or the reason there is none."""
    from cardgen.registry import engine_for

    (content,) = load_or_fail([game])
    engine = engine_for(content)
    if engine is None:
        complain(f"{game}: this game has no rules engine, so it cannot be simulated")
        raise Failed()
    return engine


def _runner(workers: int, cluster: str | None):
    from verify.workers import ClusterUnavailable, Runner, cluster_address, default_workers

    try:
        return Runner(workers or default_workers(), None if cluster is None else cluster_address(cluster))
    except ClusterUnavailable as exc:
        raise UsageError(f"--cluster: {printable(exc)}") from None


def _on_runner(runner, job, games: int):
    """Run `job` with one pool of `runner`'s processes (or one cluster connection) for all its
    maps, on a terminal with a bar counting the `games` it plays; a cluster that cannot be used is
    a usage error, not a traceback."""
    from verify.workers import ClusterUnavailable

    try:
        with Progress("playing", games, "games") as bar, runner.held():
            runner.progress = bar.advance
            return job()
    except ClusterUnavailable as exc:
        raise UsageError(f"--cluster: {exc}") from None


def _comparison(engine, text: str, players: int | None = None) -> tuple[str, tuple]:
    """`KEY=A,B` as a parameter name and its two values (read as YAML), both accepted by the engine,
    and different; the parameter must not be set by --param as well."""
    from verify.engine import param_text

    key, sep, values = text.partition("=")
    parts = values.split(",")
    if not sep or not key or len(parts) != 2 or not all(p.strip() for p in parts):
        raise UsageError(f"--compare must look like KEY=A,B, not {text!r}")
    if key in engine.params:
        raise UsageError(f"--compare {printable(key)}: --param sets it too; the two readings are the values to compare")
    readings = tuple(_with_params(engine, [f"{key}={part.strip()}"], "--compare", players).params[key] for part in parts)
    if param_text(readings[0]) == param_text(readings[1]):
        raise UsageError(f"--compare {printable(key)}: both readings are {printable(param_text(readings[0]))}; "
                         "name two different values")
    return key, readings


def _with_params(engine, pairs: list[str], option: str = "--param", players: int | None = None):
    """The engine with KEY=VALUE parameters applied; values are read as YAML (true, 3, {P1: 1})
    under the same guards as content (no tags, no alias bombs, no deep nesting). Errors name
    `option`, the command-line option the pairs came from. A game of `players` (by default the
    fewest the game takes) is set up once, so a parameter that does not fit them is refused here."""
    from cardgen.yamlio import load_yaml_text
    from verify.engine import SetupError

    params = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"{option} must look like KEY=VALUE, not {printable(pair)!r}")
        if key in params:
            raise UsageError(f"{option} {printable(key)} is given twice; give each parameter once")
        try:
            params[key], _ = load_yaml_text(value, f"{option} {key}")
        except ContentError as exc:
            raise UsageError(f"{option} {printable(key)}: cannot read the value: {exc.message}") from None
    if not params:
        return engine
    try:
        configured = engine.with_params(**params)
        configured.new_state(players, seed=0)
    except (ValueError, SetupError) as exc:
        raise UsageError(f"{option}: {exc}") from None
    return configured


def simulation_dict(game: str, report) -> dict:
    return {
        "game": game, "players": report.players, "policy": report.policy, "games": report.games,
        "actions": report.actions, "seconds": round(report.seconds, 4),
        "games_per_second": round(report.games_per_second, 2),
        "actions_per_second": round(report.actions_per_second, 1),
        "wins": report.wins, "win_rate": {p: round(n / report.games, 4) if report.games else 0.0 for p, n in report.wins.items()},
        "length": {"mean": round(report.mean_length, 2), "min": report.min_length, "max": report.max_length},
        "capped": report.capped, "shared_wins": report.shared,
        "mean_scores": {p: round(v, 3) for p, v in report.mean_scores().items()},
        "failures": report.failures, "fingerprint": report.fingerprint,
        "failure_file": str(report.failure_file) if report.failure_file else None,
    }


def _paragraphs_on_one_line() -> None:
    """Help texts as Typer prints them keep the docstrings' line breaks, which then fall in the
    middle of sentences; each paragraph is joined into one line and wrapped to the terminal."""
    import inspect

    for info in app.registered_commands:
        text = info.help or inspect.getdoc(info.callback) or ""
        info.help = "\n\n".join(" ".join(part.split()) for part in text.split("\n\n"))
        # The command list shows the whole first sentence instead of cutting it at 45 characters.
        info.short_help = info.short_help or info.help.split("\n\n")[0]


_paragraphs_on_one_line()


def hoist_global_options(argv: list[str]) -> list[str]:
    """`cardgen build --content DIR` as `cardgen --content DIR build`: the program's own options
    (GLOBAL_OPTIONS) typed after the command are moved in front of it. Nothing after `--` moves."""
    commands = {c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands}
    position, i = None, 0
    while i < len(argv) and position is None:
        if argv[i] in GLOBAL_OPTIONS:
            i += 1  # its value, which may look like a command
        elif argv[i] in commands:
            position = i
        i += 1
    if position is None:
        return argv
    before, after, moved = argv[:position + 1], [], []
    rest = argv[position + 1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg == "--":
            after += rest[i:]
            break
        name = arg.split("=", 1)[0]
        if name in GLOBAL_OPTIONS:
            if "=" in arg:
                moved.append(arg)
            elif i + 1 < len(rest):
                moved += [arg, rest[i + 1]]
                i += 1
            else:
                after.append(arg)  # no value: let the parser say so
        else:
            after.append(arg)
        i += 1
    return moved + before + after if moved else argv


def main(argv: list[str] | None = None) -> None:
    _options["content"] = None
    Interrupted.received = None
    if "cardgen.pdfdoc" in sys.modules:  # a second run in one process starts from the defaults
        from cardgen.pdfdoc import require_cjk, use_cjk_font

        use_cjk_font(None)
        require_cjk(True)
    args = hoist_global_options(list(sys.argv[1:] if argv is None else argv))
    try:
        from cardgen.buildcache import one_reading_of_content
        from verify.workers import stops_interrupt

        # Typer turns Ctrl-C into the return value 130 when it does not exit itself. SIGTERM and
        # SIGHUP stop every command as Ctrl-C does: its worker processes end with it.
        with stops_interrupt(), one_reading_of_content():
            if app(args=args, prog_name="cardgen", standalone_mode=False) == 130:
                raise KeyboardInterrupt
    except Failed:
        sys.exit(1)
    except (ContentErrors, ContentError) as exc:
        complain(str(exc))
        sys.exit(1)
    except UsageError as exc:
        complain(f"usage error: {printable(exc, limit=1000)}")
        sys.exit(2)
    except OutputError as exc:
        complain(str(exc))
        sys.exit(1)
    except KeyboardInterrupt as exc:
        import signal

        signum = getattr(exc, "signum", None) or Interrupted.received or signal.SIGINT
        complain(f"interrupted ({signal.Signals(signum).name}): stopped before finishing; files are moved into "
                 "place only when complete, so nothing half-written was left")
        if hasattr(signal, "pthread_sigmask"):
            # A Ctrl-C that lands while Python runs code made from a string (dataclasses make
            # their methods so when a module is imported) leaves Python set to end itself with
            # SIGINT at exit, whatever status it is given; that last SIGINT, held back, cannot,
            # and the process ends with the status given here.
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        sys.exit(128 + signum)
    except typer.Abort:
        complain("aborted")
        sys.exit(1)
    except Exception as exc:
        # Typer's own usage errors (unknown command, bad option) arrive here in non-standalone
        # mode; they know how to print themselves and which exit status they mean.
        if hasattr(exc, "exit_code") and hasattr(exc, "show"):
            exc.show()
            sys.exit(exc.exit_code)
        if type(exc).__name__ == "Exit" and hasattr(exc, "exit_code"):
            sys.exit(exc.exit_code)
        raise
    sys.exit(0)


if __name__ == "__main__":
    main()
