"""Moscow to Paris' Homeland card is one a player writes on; homeland.yaml prints it with the
player's own country name and flag picture instead."""

from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

from cardgen.content import PROJECT_CONTENT
from tests.datadeck.conftest import cardgen


def own_homeland(tmp_path: Path, flag: str = "flags/ours.png") -> Path:
    content = tmp_path / "content"
    shutil.copytree(PROJECT_CONTENT / "moscow-to-paris", content / "moscow-to-paris")
    game = content / "moscow-to-paris"
    (game / "flags").mkdir()
    Image.new("RGB", (900, 600), "#2a7f3f").save(game / "flags" / "ours.png")
    (game / "homeland.yaml").write_text(f"homeland:\n  name: {{en: Freedonia, zh-Hant: 自由國}}\n  flag: {flag}\n", "utf-8")
    return content


def test_the_homeland_card_prints_the_players_country_and_flag(capsys, tmp_path):
    content = own_homeland(tmp_path)
    code, out, err = cardgen(capsys, content, "build", "moscow-to-paris", "--cards", "homeland", "--paper", "a4",
                             "--layout", "home", "--out", str(tmp_path / "out"))
    assert code == 0, err
    reader = PdfReader(tmp_path / "out" / "moscow-to-paris" / "replacements-a4-home.pdf")
    front = reader.pages[0]
    assert "Freedonia" in front.extract_text() and "自由國" in front.extract_text()
    images = [x for x in (front["/Resources"].get("/XObject") or {}).values() if x.get_object()["/Subtype"] == "/Image"]
    assert len(images) == 1 and images[0].get_object()["/Width"] == 900


def test_without_homeland_yaml_the_card_stays_blank_to_write_on(capsys, tmp_path):
    code, out, err = cardgen(capsys, PROJECT_CONTENT, "build", "moscow-to-paris", "--cards", "homeland", "--paper", "a4",
                             "--layout", "home", "--lang", "en", "--out", str(tmp_path / "out"))
    assert code == 0, err
    front = PdfReader(tmp_path / "out" / "moscow-to-paris" / "replacements-a4-home.pdf").pages[0]
    assert "Freedonia" not in front.extract_text() and not (front["/Resources"].get("/XObject") or {}).keys() & {"/Image"}


def test_a_missing_flag_picture_is_located_in_homeland_yaml(capsys, tmp_path):
    content = own_homeland(tmp_path, flag="flags/missing.png")
    code, out, err = cardgen(capsys, content, "validate")
    assert code == 1 and "Traceback" not in err
    assert err.startswith(f"{content / 'moscow-to-paris' / 'homeland.yaml'}:3:9: $.homeland.flag: 'flags/missing.png' "
                          "not found"), err
