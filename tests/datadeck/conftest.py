"""A designer's deck with no Python and no schema (tests/datadeck/content/my-deck), copied so that
a test may change it, and a way to run the command on it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.cli import main

DECK = Path(__file__).parent / "content" / "my-deck"


@pytest.fixture
def deck(tmp_path) -> Path:
    """A writable copy of the deck, alone in a content folder of its own."""
    target = tmp_path / "content" / "my-deck"
    shutil.copytree(DECK, target)
    return target


def cardgen(capsys, content: Path, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_:
        main(["--content", str(content), *args])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def to_xlsx(csv_path: Path, xlsx_path: Path, change=None) -> None:
    """The CSV's rows as a workbook (numbers as numbers); `change(sheet)` may spoil a cell."""
    import csv

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    with csv_path.open(newline="", encoding="utf-8") as handle:
        for row in csv.reader(handle):
            sheet.append([int(v) if v.isdigit() else (v or None) for v in row])
    if change is not None:
        change(sheet)
    book.save(xlsx_path)
