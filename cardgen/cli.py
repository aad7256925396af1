"""The `cardgen` command: thin Typer commands that call the library, report, and set the exit code.

Exit status: 0 success, 1 the content or a scenario is wrong, 2 a usage error. Problems with the
user's input are printed as one line each, never as a traceback.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer

from cardgen.content import LANGUAGES, PROJECT_CONTENT, GameContent, discover_games, load_game, load_games
from cardgen.errors import ContentError, ContentErrors, OutputError, UsageError
from cardgen.pdfdoc import cjk_font_description, require_cjk, use_cjk_font
from cardgen.registry import definition_for

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Print-and-play card sheets, rule sheets and rules verification for five games.",
)

_options = {"content": PROJECT_CONTENT}


class Failed(Exception):
    """The command ran but found problems (exit status 1); they were already reported."""


def say(message: str = "") -> None:
    typer.echo(message)


def complain(message: str) -> None:
    typer.echo(message, err=True)


@app.callback()
def main_options(
    content: Path = typer.Option(
        PROJECT_CONTENT, "--content", help="Content folder holding one sub-folder per game.",
        file_okay=False,
    ),
    font: Optional[Path] = typer.Option(
        None, "--font", help="A TrueType font with Chinese glyphs (.ttf or .ttc) to embed; default: the "
        "CARDGEN_CJK_FONT environment variable, the project's .fonts/, then the system's fonts.", dir_okay=False),
):
    """Print-and-play generator and rules verifier."""
    _options["content"] = content
    use_cjk_font(font)


def content_dir() -> Path:
    return _options["content"]


def selected_games(names: list[str] | None) -> list[str]:
    available = discover_games(content_dir())
    for name in names or []:
        if name not in available:
            raise UsageError(f"unknown game {name!r}; games in {content_dir()}: {', '.join(available) or 'none'}")
    return list(names) if names else available


def load_or_fail(names: list[str] | None) -> list[GameContent]:
    """Load and check the games: schemas, cross-file facts and every static check (rule-sheet
    parts, house style, scenario setups), reporting every error of every game at once."""
    from cardgen.static_checks import check_game

    games, errors = load_games(content_dir(), selected_games(names))
    for content in games:
        errors += check_game(content)
    if errors:
        for error in errors:
            complain(str(error))
        complain(f"{len(errors)} error{'s' if len(errors) != 1 else ''} found")
        raise Failed()
    return games


@app.command()
def validate(games: Optional[List[str]] = typer.Argument(None, help="Games to check (default: all).")):
    """Check every content file against its schema and the cross-file facts; list every error."""
    for content in load_or_fail(games):
        counts = content.deck_counts()
        say(f"ok  {content.id}: {sum(counts.values())} cards in {len(counts)} decks, "
            f"{len(content.other_components())} other component kinds, {len(content.scenario_paths)} scenarios")


@app.command("list")
def list_games():
    """The games in the content folder with their component totals."""
    names = selected_games(None)
    games, errors = load_games(content_dir(), names)
    loaded = {g.id: g for g in games}
    for name in names:
        content = loaded.get(name)
        if content is None:
            say(f"{name:28} (content has errors: run `cardgen validate {name}`)")
            continue
        cards = sum(content.deck_counts().values())
        others = sum(item.get("count", 1) for item in content.other_components())
        title = content.title["en"]
        say(f"{name:28} {title:32} {cards:4} cards  {others:3} other components  "
            f"{content.game['players']['min']}-{content.game['players']['max']} players")
    if errors:
        raise Failed()


def manifest_rows(content: GameContent) -> list[dict]:
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
    game: str = typer.Argument(..., help="The game."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per physical card or component."),
):
    """Every physical component with its count, for checking a printed set against the data."""
    (content,) = load_or_fail([game])
    if as_json:
        for row in manifest_rows(content):
            say(json.dumps(row, ensure_ascii=False, sort_keys=True))
        return
    say(f"{content.title['en']} ({content.id})")
    definition = definition_for(content.id)
    counts = content.deck_counts()
    for deck in content.decks:
        width, height = content.card_size_mm(deck)
        say(f"  {deck['id']:24} {counts[deck['id']]:4} cards  {width:g} x {height:g} mm  back: {deck['back']}")
        for line in definition.manifest_lines(content, deck):
            say(f"      {line}")
    for item in content.other_components():
        say(f"  {item['id']:24} {item.get('count', 1):4} {item['kind']}")
    total_cards = sum(counts.values())
    total_other = sum(item.get("count", 1) for item in content.other_components())
    say(f"  total: {total_cards} cards, {total_other} other components")


@app.command()
def build(
    games: Optional[List[str]] = typer.Argument(None, help="Games to build (default: all)."),
    paper: str = typer.Option("all", help="a4, letter or all."),
    layout: str = typer.Option(
        "home,butted,fold", help="home (gutter between cards, art bleeding into it), butted (cards share cut "
        "lines), fold (fronts and backs on one side, for single-sided printers), shop (one card per page and a "
        "PNG per card, for a print shop), tts (Tabletop Simulator deck sheets), several joined by commas, or all."),
    flip: str = typer.Option("long", help="Duplex flip edge for the backs: long or short (short-flip files end in -short)."),
    cut_line: Optional[str] = typer.Option(
        None, "--cut-line", help="Crop mark weight and colour as WIDTH_PT,#RRGGBB (default 0.3,#000000)."),
    back_offset: Optional[str] = typer.Option(
        None, "--back-offset", help="Move every backs page by X,Y mm (right, up, as seen on the back), as read "
        "on the calibration sheet."),
    printer: Optional[Path] = typer.Option(
        None, "--printer", help="A printer profile (YAML: printer: {back_offset_mm: [X, Y]}); only this file is read.",
        dir_okay=False),
    shop: Optional[str] = typer.Option(None, "--shop", help="Print-shop profile of content/print/shops.yaml "
                                       "(default poker-63x88; us-poker is 2.5 x 3.5 in)."),
    cards: Optional[str] = typer.Option(
        None, "--cards", help="Only these cards, to replace lost or damaged ones: positions in print order "
        "(1 is the first card printed; each sheet's label lists its positions), ranges such as 40-44, or card "
        "ids (one copy each time named), e.g. 12,17,40-44. Needs one game; makes replacements-* files only."),
    sides: str = typer.Option("both", "--sides", help="both, fronts or backs: card sheets of one side only."),
    card_size: Optional[str] = typer.Option(
        None, help="Print every card at this size instead of the content's, as WIDTHxHEIGHT in mm (e.g. 57x89)."),
    out: str = typer.Option("output", "--out", help="Output folder."),
    lang: str = typer.Option("all", "--lang", help="Rule sheet languages: en, zh-Hant or all."),
    strict: bool = typer.Option(False, "--strict", help="Treat preflight warnings as errors."),
):
    """Build every PDF (card sheets, tiles, rule sheets) of the games into OUT/<game>/.

    Every check runs first; the files are written into a staging folder beside OUT and moved into
    place only when all are done, so a failure or Ctrl-C leaves OUT as it was."""
    if not out.strip():
        raise UsageError("--out must name a folder")
    langs = _choice("lang", lang, LANGUAGES)
    papers = _choice("paper", paper, ("a4", "letter"))
    if flip not in ("long", "short"):
        raise UsageError(f"--flip must be long or short, not {flip!r}")
    from cardgen.build import build_all, build_options

    layouts, options = build_options(layout, cut_line, back_offset, printer, shop, cards, sides, games)

    size = _card_size(card_size) if card_size else None
    contents = load_or_fail(games)
    if size is not None:
        for content in contents:
            for declared in content.game["card_sizes"].values():
                declared["width_mm"], declared["height_mm"] = size
    for content in contents:
        content.languages = langs
    require_cjk(any(lang.startswith("zh") for lang in langs))
    say(f"Chinese font: {cjk_font_description()}")
    run_preflight(contents, strict)
    start = time.perf_counter()
    with _progress() as progress:
        written = build_all(contents, Path(out), progress=progress, papers=papers, layouts=layouts, flip=flip,
                            langs=langs, options=options, calibration=options.cards is None and
                            bool({"home", "butted"} & set(layouts)))
    folders: dict[Path, int] = {}
    for path in written:
        if path.suffix in (".png", ".csv", ".json"):  # shop and Tabletop Simulator folders: one line each
            folders[path.parent] = folders.get(path.parent, 0) + 1
            continue
        say(f"wrote {path}  ({path.stat().st_size // 1024} KiB)")
    for folder, count in folders.items():
        say(f"wrote {folder}/  ({count} files)")
    say(f"{len(written)} files in {time.perf_counter() - start:.2f} s")


def run_preflight(contents: list[GameContent], strict: bool) -> None:
    """Check the printed cards before anything is written: errors stop the build, warnings are
    listed (and stop it too with --strict)."""
    from cardgen.preflight import preflight, table

    findings = [f for content in contents for f in preflight(content, strict=strict)]
    errors = [f for f in findings if f.level == "error"]
    warnings = [f for f in findings if f.level != "error"]
    if warnings:
        complain(table(warnings))
    if errors:
        for finding in errors:
            complain(str(finding))
        complain(f"preflight: {len(errors)} error{'s' if len(errors) != 1 else ''}; nothing was written")
        raise Failed()


@app.command("preflight")
def preflight_command(
    games: Optional[List[str]] = typer.Argument(None, help="Games to check (default: all)."),
    strict: bool = typer.Option(False, "--strict", help="Treat warnings as errors."),
    as_json: bool = typer.Option(False, "--json", help="Print the findings as JSON, one object per line."),
):
    """Check every card face and back as a prepress technician would: text below 7 pt, characters
    no font can print, text past the trim or inside the 3 mm safe zone, art that stops short of
    the bleed. Each finding names the game, the card and where it is in the content."""
    from cardgen.preflight import preflight, table

    contents = load_or_fail(games)
    findings = [f for content in contents for f in preflight(content, strict=strict)]
    if as_json:
        for finding in findings:
            say(json.dumps(finding.as_dict(), ensure_ascii=False, sort_keys=True))
    else:
        say(table(findings))
    if any(f.level == "error" for f in findings):
        raise Failed()


def _card_size(text: str) -> tuple[float, float]:
    try:
        width, height = (float(part) for part in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--card-size must look like 63x88 (millimetres), not {text!r}") from None
    if not (20 < width <= 200 and 20 < height <= 280):
        raise UsageError(f"--card-size {text}: each side must be more than 20 mm and fit on the paper")
    return width, height


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    if value == "all":
        return allowed
    if value not in allowed:
        raise UsageError(f"--{name} must be one of {', '.join(allowed)} or all, not {value!r}")
    return (value,)


class _progress:
    """A rich progress line on a terminal; silence otherwise. Called once per written file."""

    def __enter__(self):
        self.bar = None
        if sys.stdout.isatty():
            from rich.progress import Progress

            self.bar = Progress(transient=True)
            self.bar.start()
            self.task = self.bar.add_task("building", total=None)
        return self

    def __call__(self, path) -> None:
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=f"building {Path(path).name}")

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
):
    """Check the data, then replay every scenario; report each failure with file, line and step.

    A scenario is a YAML file with a title, a rule, the players, optional params, seed and setup, and steps. A step is an action (P1: text, with rejects: text when it must be refused), expect: (fields of the position), observe: (what one player sees), or chance: (the outcome of the next shuffle); end: compares the result.

    Each game's actions and fields: cardgen verify --notation GAME, or docs/scenarios.md.
    """
    from cardgen.registry import engine_for
    from verify.scenario import run_scenario

    if notation is not None:
        (content,) = load_or_fail([notation])
        engine = engine_for(content)
        if engine is None:
            complain(f"{notation}: no rules engine (rules not implemented)")
            raise Failed()
        say(engine.notation_help().rstrip())
        return

    game_names, scenario_files = [], []
    for target in targets or []:
        if target.endswith((".yaml", ".yml")):
            scenario_files.append(Path(target))
        else:
            game_names.append(target)
    plan: dict[str, list[Path] | None] = {}
    for path in scenario_files:
        owner = game or _game_of_scenario(path)
        plan.setdefault(owner, [])
        if plan[owner] is not None:
            plan[owner].append(path)
    for name in game_names or ([] if scenario_files else selected_games(None)):
        plan[name] = None  # every scenario of the game
    contents = {c.id: c for c in load_or_fail(list(plan))}
    failures = 0
    replayed = 0
    for name, paths in plan.items():
        content = contents[name]
        prov = content.provenance_counts()
        say(f"{name}: data ok; components sourced {prov['sourced']}, reconstructed {prov['reconstructed']}")
        engine = engine_for(content)
        if engine is None:
            complain(f"{name}: no rules engine: scenarios not replayed (rules not implemented)")
            failures += 1
            continue
        for path in paths if paths is not None else content.scenario_paths:
            result = run_scenario(path, engine)
            replayed += 1
            if result.ok:
                say(f"  pass  {path.name}: {result.title}")
            else:
                failures += 1
                say(f"  FAIL  {path.name}: {result.title}")
                for line in result.failures:
                    complain(f"{line}")
        if paths is None:
            failures += _recheck_comparisons(content, engine)
    say(f"{replayed} scenarios replayed, {failures} failed")
    if failures:
        raise Failed()


def _recheck_comparisons(content: GameContent, engine) -> int:
    """Each ruling's stored comparison of readings is measured again; a moved figure fails."""
    from verify.compare import recheck

    failed = 0
    for i, ruling in enumerate(content.files.get("rulings", {}).get("rulings", [])):
        record = ruling.get("compare")
        if record is None:
            continue
        if "param" not in ruling:
            complain(f"{content.where('rulings', ['rulings', i, 'compare'])}: a comparison needs the ruling's param")
            failed += 1
            continue
        moved = recheck(engine, ruling["param"], record)
        if moved:
            failed += 1
            complain(f"{content.where('rulings', ['rulings', i, 'compare'])}: ruling {ruling['id']}: the comparison "
                     f"moved: {'; '.join(moved)}")
        else:
            say(f"  pass  ruling {ruling['id']}: comparison of {ruling['param']} readings holds")
    return failed


def _game_of_scenario(path: Path) -> str:
    parts = path.resolve().parts
    if len(parts) >= 3 and parts[-2] == "scenarios":
        return parts[-3]
    raise UsageError(f"{path}: cannot tell its game from where it lies; name it with --game")


@app.command()
def simulate(
    game: str = typer.Argument(..., help="The game."),
    players: int = typer.Option(4, help="Players per game."),
    games: int = typer.Option(100, min=1, max=10_000_000, help="Games to play."),
    seed: int = typer.Option(1, help="Seed of the first game; game k uses seed + k."),
    policy: str = typer.Option("random", help="random or greedy."),
    turn_cap: int = typer.Option(2000, min=1, max=10_000_000, help="Stop a game after this many actions."),
    param: Optional[List[str]] = typer.Option(
        None, help="A game parameter as KEY=VALUE, repeatable (e.g. stage=la-haute-montagne, mountains=false)."),
    failures: Path = typer.Option(Path("output/failures"), help="Folder where a broken game is written as a scenario.", file_okay=False),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    compare: Optional[str] = typer.Option(
        None, "--compare", help="KEY=A,B: play the same seeded games under two readings of a rule and report "
        "how often the winner, the order and the length change (e.g. exhaustion_supply=limited,unlimited)."),
):
    """Random playouts that check the invariants after every action; report speed and outcomes.

    Policies: `random` picks any legal action (games may run long; it is for invariants),
    `greedy` picks the best action by the engine's own score and finishes games (use it for
    lengths and win rates). With --compare, the games are played twice, once per reading."""
    from cardgen.registry import engine_for
    from verify.simulate import simulate as run

    if policy not in ("random", "greedy"):
        raise UsageError(f"--policy must be random or greedy, not {policy!r}")
    (content,) = load_or_fail([game])
    engine = engine_for(content)
    if engine is None:
        complain(f"{game}: no rules engine (rules not implemented)")
        raise Failed()
    if not engine.min_players <= players <= engine.max_players:
        raise UsageError(f"{game} takes {engine.min_players}-{engine.max_players} players, not {players}")
    engine = _with_params(engine, param or [], players)
    if compare is not None:
        key, values = _comparison(engine, compare, players)
        from verify.compare import compare as run_comparison

        result = run_comparison(engine, key, values, players, games, seed, policy, turn_cap)
        say(json.dumps(result.as_record(), ensure_ascii=False) if as_json else result.summary())
        return
    failure_path = failures / f"{game}-{players}p-seed{seed}.yaml"
    report = run(engine, players=players, games=games, seed=seed, policy=policy, turn_cap=turn_cap,
                 failure_path=failure_path)
    if as_json:
        say(json.dumps(simulation_dict(game, report), ensure_ascii=False, sort_keys=True))
    else:
        say(report.summary())
    if report.failures:
        raise Failed()


def _comparison(engine, text: str, players: int) -> tuple[str, tuple]:
    """`KEY=A,B` as a parameter name and its two values (read as YAML), both accepted by the engine."""
    key, sep, values = text.partition("=")
    parts = values.split(",")
    if not sep or not key or len(parts) != 2 or not all(p.strip() for p in parts):
        raise UsageError(f"--compare must look like KEY=A,B, not {text!r}")
    readings = tuple(_with_params(engine, [f"{key}={part.strip()}"], players).params[key] for part in parts)
    return key, readings


def _with_params(engine, pairs: list[str], players: int):
    """The engine with KEY=VALUE parameters applied; values are read as YAML (true, 3, {P1: 1}).
    A game of `players` is set up once, so a parameter that does not fit them is refused here."""
    import yaml

    from verify.engine import SetupError

    params = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--param must look like KEY=VALUE, not {pair!r}")
        try:
            params[key] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise UsageError(f"--param {key}: cannot read the value {value!r}") from None
    if not params:
        return engine
    try:
        configured = engine.with_params(**params)
        configured.new_state(players, seed=0)
    except (ValueError, SetupError) as exc:
        raise UsageError(f"--param: {exc}") from None
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
        "failures": report.failures,
        "failure_file": str(report.failure_file) if report.failure_file else None,
    }


def main(argv: list[str] | None = None) -> None:
    _options["content"] = PROJECT_CONTENT
    use_cjk_font(None)
    require_cjk(True)
    try:
        # Typer turns Ctrl-C into the return value 130 when it does not exit itself.
        if app(args=argv, prog_name="cardgen", standalone_mode=False) == 130:
            raise KeyboardInterrupt
    except Failed:
        sys.exit(1)
    except (ContentErrors, ContentError) as exc:
        complain(str(exc))
        sys.exit(1)
    except UsageError as exc:
        complain(f"usage error: {exc}")
        sys.exit(2)
    except OutputError as exc:
        complain(str(exc))
        sys.exit(1)
    except KeyboardInterrupt:
        complain("interrupted: stopped before finishing; files are moved into place only when complete, "
                 "so nothing half-written was left")
        sys.exit(130)
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
