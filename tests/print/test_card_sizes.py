"""Cards laid out at the size asked for: every card size the README offers builds, its text keeps
its point size (7 pt or more, measured in the card sheets) and its art reaches the new bleed."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.build import build_game
from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.faces import MIN_TEXT_PT
from cardgen.layout import plan_sheet
from cardgen.pdfdoc import mm
from cardgen.preflight import preflight
from tests.pdfcheck import part_text_sizes

GAMES = ("game-of-trains", "ticket-to-ride-card-game", "moscow-to-paris", "spectral-rails", "flamme-rouge")
# The README's example and a tall one; the games' own size is checked by every other print test.
SIZES = ((57, 89), (70, 120))


def _at_size(game: str, size: tuple[float, float]):
    content = load_game(PROJECT_CONTENT, game)
    for declared in content.game["card_sizes"].values():
        declared["width_mm"], declared["height_mm"] = size
    return content


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_a_card_size_builds_with_text_of_seven_points_or_more(game, size, tmp_path):
    content = _at_size(game, size)
    findings = preflight(content, strict=True)
    assert findings == [], "\n".join(map(str, findings))
    build_game(content, tmp_path, papers=("a4",), layouts=("home",), langs=("en",))
    reader = PdfReader(tmp_path / game / "cards-a4-home.pdf")
    sheet = plan_sheet("a4", *size, "home")
    trim = [float(v) for v in reader.pages[0].trimbox]
    columns = round((trim[2] - trim[0] + 2 * sheet.bleed) / (size[0] * mm + 2 * sheet.bleed))
    assert columns == sheet.columns  # the cards are the size asked for
    label = f"{content.title['en']} · sheet "
    sizes = [s for page in reader.pages for s in part_text_sizes(page, label)]
    assert sizes and min(sizes) >= MIN_TEXT_PT - 0.01
