"""Writes docs/rules-<game>-example.png: the page of each game's English rule sheet that holds its
first worked example (the first a section places under its rule, else the first scenario with an
example), as a reader sees it. Run it again after a sheet changes:

    .venv/bin/python scripts/rules-example-pages.py [GAME ...]

With no game named, every game in the content folder is pictured."""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import pypdfium2
from pypdf import PdfReader

from cardgen.content import PROJECT_CONTENT, discover_games, load_game
from cardgen.rulesheet import narrated_steps, placed_examples, render_rule_sheet, tidy, worked_example, example_words

DOCS = Path(__file__).resolve().parent.parent / "docs"
SCALE = 1.5  # 893 x 1263 pixels for an A4 page


def first_example(content) -> str | None:
    """The scenario of the first worked example a reader meets in the sheet."""
    placed = placed_examples(content)
    if placed:
        return placed[0]
    for path in content.scenario_paths:
        if "example:" in path.read_text("utf-8"):
            return path.stem
    return None


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def example_page(content, sheet: Path, stem: str) -> int:
    """The index of the page where the example's text begins (the sheet is built first, so an
    example a game part places beside its rule has its words recorded by then)."""
    example = worked_example(content, stem)
    narrated_steps(example.data)  # a malformed example stops here, before any picture is written
    start = flat(re.sub(r"\*\*", "", example_words(content, stem, "en")))[:24]
    for n, page in enumerate(PdfReader(sheet).pages):
        if start in flat(page.extract_text()):
            return n
    raise SystemExit(f"{content.id}: the example {stem} is not on its rule sheet")


def picture(game: str) -> Path:
    content = load_game(PROJECT_CONTENT, game)
    stem = first_example(content)
    if stem is None:
        raise SystemExit(f"{game}: no worked example to picture")
    with tempfile.TemporaryDirectory() as folder:
        sheet = render_rule_sheet(content, "en", Path(folder) / "rules-en.pdf")
        index = example_page(content, sheet, stem)
        document = pypdfium2.PdfDocument(str(sheet))
        try:
            image = document[index].render(scale=SCALE).to_pil().convert("RGB")
        finally:
            document.close()
    target = DOCS / f"rules-{game}-example.png"
    image.save(target, optimize=True)
    return target


def main(argv: list[str]) -> int:
    games = argv or discover_games(PROJECT_CONTENT)
    for game in games:
        print(picture(game))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
