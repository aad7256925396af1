"""The build command's print options, end to end: exit status, files made, usage errors."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.cli import main


def run(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def test_replacement_fronts_with_a_chosen_cut_line(capsys, tmp_path):
    code, out, err = run(capsys, "build", "game-of-trains", "--paper", "a4", "--layout", "home", "--cards", "1-2,c40",
                         "--sides", "fronts", "--cut-line", "0.5,#808080", "--lang", "en", "--out", str(tmp_path))
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "game-of-trains").iterdir()) == ["replacements-a4-home-fronts.pdf"]
    assert not list(tmp_path.glob("calibration-*"))
    reader = PdfReader(tmp_path / "game-of-trains" / "replacements-a4-home-fronts.pdf")
    assert len(reader.pages) == 1 and "cards 1-2, 40" in reader.pages[0].extract_text()


def test_a_printer_file_moves_the_backs_and_the_calibration_sheet_is_made(capsys, tmp_path):
    printer = tmp_path / "printer.yaml"
    printer.write_text("printer:\n  back_offset_mm: [0.5, -1]\n", "utf-8")
    out = tmp_path / "out"
    code, _, err = run(capsys, "build", "game-of-trains", "--paper", "letter", "--layout", "butted", "--cards", "1-9",
                       "--printer", str(printer), "--lang", "en", "--out", str(out))
    assert code == 0, err
    pages = PdfReader(out / "game-of-trains" / "replacements-letter-butted.pdf").pages
    assert float(pages[1].trimbox.left) - float(pages[0].trimbox.left) == pytest.approx(0.5 * 72 / 25.4, abs=1e-3)


@pytest.mark.parametrize("args, message", [
    (("--cards", "3"), "--cards needs exactly one game"),
    (("game-of-trains", "--cards", "999"), "positions run from 1 to 88"),
    (("game-of-trains", "--layout", "poster"), "--layout must be one of"),
    (("game-of-trains", "--shop", "nowhere"), "no such profile"),
    (("game-of-trains", "--back-offset", "7,0"), "within 5 mm"),
    (("game-of-trains", "--sides", "left"), "'left' is not one of 'both', 'fronts', 'backs'"),
    (("game-of-trains", "--cut-line", "red"), "WIDTH_PT,#RRGGBB"),
])
def test_bad_print_options_are_usage_errors(capsys, tmp_path, args, message):
    code, _, err = run(capsys, "build", *args, "--out", str(tmp_path / "o"))
    assert code == 2 and message in err, err
    assert not (tmp_path / "o").exists()
