"""Card lists kept in a spreadsheet: `cards.csv` or `cards.xlsx` in a game's folder.

The first row names the columns; every further row is one card entry, the same dict a `cards.yaml`
entry would be, so the same schema checks apply. A cell is read as a whole number when it is
written as one, as a decimal number when it is written as one, and as text otherwise; an empty cell
leaves its key out (so a blank `copies` means one copy). A row with every cell empty is skipped.
Every problem is one `ContentError` naming the file, the row and the column (`cards.csv:4:3`, with
the column's letter and name in the message), and the `SheetLocator` made here points schema and
cross-file errors at the same cells.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from pathlib import Path
from typing import Any

from cardgen.errors import ContentError
from cardgen.yamlio import MAX_FILE_BYTES, Locator, format_json_path

SHEET_NAMES = ("cards.csv", "cards.xlsx")
MAX_ROWS = 10_000
MAX_COLUMNS = 200
MAX_CELL_CHARS = 20_000
INTEGER = re.compile(r"^[+-]?\d{1,15}$")
DECIMAL = re.compile(r"^[+-]?(\d+\.\d*|\.\d+)$")
COLUMN_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")


def column_letter(index: int) -> str:
    """Spreadsheet column name of the 1-based `index`: 1 -> A, 27 -> AA."""
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


class SheetLocator(Locator):
    """Positions of a card list read from a spreadsheet: `("cards", i, key)` is the cell of row
    i's column `key`; a message names the cell as a spreadsheet shows it (C4, column cost)."""

    def __init__(self, path: Path, header: list[str]):
        super().__init__(path)
        self.header = header
        self.rows: list[int] = []  # spreadsheet row of each card entry

    def error(self, json_path, message: str) -> ContentError:
        line, col = self.where(json_path)
        keys = list(json_path)
        if len(keys) >= 2 and keys[0] == "cards" and isinstance(keys[1], int):
            cell = f"row {line}"
            if len(keys) >= 3 and keys[2] in self.header:
                cell = f"cell {column_letter(col)}{line} (column {keys[2]})"
            message = f"{cell}: {message}"
        return ContentError(str(self.path), line, col, format_json_path(json_path), message)


def read_card_sheet(path: Path) -> tuple[dict, SheetLocator]:
    """`{"cards": [...]}` from a CSV or XLSX file, with its locator; `ContentError` on any fault."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ContentError(str(path), 0, 0, "$", f"cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ContentError(str(path), 1, 1, "$", f"file is larger than {MAX_FILE_BYTES} bytes")
    rows = _csv_rows(path, raw) if path.suffix == ".csv" else _xlsx_rows(path, raw)
    return _cards_from_rows(path, rows)


def _csv_rows(path: Path, raw: bytes) -> list[tuple[int, list[tuple[int, Any]]]]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ContentError(str(path), line, 1, "$", f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); "
                           "save the sheet as CSV UTF-8") from None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows = []
    try:
        for values in reader:
            if reader.line_num > MAX_ROWS + 1:
                raise ContentError(str(path), reader.line_num, 1, "$", f"more than {MAX_ROWS} rows")
            rows.append((reader.line_num, [(i + 1, _csv_value(v)) for i, v in enumerate(values)]))
    except csv.Error as exc:
        raise ContentError(str(path), reader.line_num, 1, "$", f"CSV syntax: {exc}") from None
    return rows


def _csv_value(text: str) -> Any:
    text = text.strip()
    if INTEGER.match(text):
        return int(text)
    if DECIMAL.match(text):
        return float(text)
    return text


def _xlsx_rows(path: Path, raw: bytes) -> list[tuple[int, list[tuple[int, Any]]]]:
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    # A workbook is a zip archive: its unpacked size is bounded before openpyxl opens it.
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError):
        raise ContentError(str(path), 0, 0, "$", "not an XLSX workbook (save the sheet as .xlsx or .csv)") from None
    if unpacked > 8 * MAX_FILE_BYTES:
        raise ContentError(str(path), 0, 0, "$", f"the workbook unpacks to {unpacked} bytes; too large")
    try:
        book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise ContentError(str(path), 0, 0, "$", f"cannot read the workbook: {type(exc).__name__}") from None
    try:
        sheet = book.worksheets[0]
        rows = []
        for number, cells in enumerate(sheet.iter_rows(max_col=MAX_COLUMNS), start=1):
            if number > MAX_ROWS + 1:
                raise ContentError(str(path), number, 1, "$", f"more than {MAX_ROWS} rows")
            values = []
            for column, cell in enumerate(cells, start=1):
                values.append((column, _xlsx_value(path, number, column, cell)))
            rows.append((number, values))
        return rows
    finally:
        book.close()


def _xlsx_value(path: Path, row: int, column: int, cell) -> Any:
    value = getattr(cell, "value", None)
    where = f"cell {column_letter(column)}{row}"
    if getattr(cell, "data_type", None) == "e":
        raise ContentError(str(path), row, column, "$", f"{where} holds the spreadsheet error {value}")
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time, datetime.timedelta)):
        raise ContentError(str(path), row, column, "$", f"{where} holds a date or time; format the cell as text")
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ContentError(str(path), row, column, "$", f"{where} is not a finite number")
        return int(value) if value.is_integer() and abs(value) < 1e15 else value
    if isinstance(value, int):
        return value
    return _csv_value(str(value))


def _cards_from_rows(path: Path, rows) -> tuple[dict, SheetLocator]:
    rows = [(n, values) for n, values in rows if any(v != "" for _, v in values)]
    if not rows:
        raise ContentError(str(path), 1, 1, "$", "the sheet is empty: the first row names the columns")
    header_row, header_cells = rows[0]
    header: list[str] = []
    seen: dict[str, int] = {}
    for column, name in header_cells:
        name = str(name).strip()
        if name == "":
            header.append("")
            continue
        if not COLUMN_NAME.match(name):
            raise ContentError(str(path), header_row, column, "$", f"cell {column_letter(column)}{header_row}: column "
                               f"name {name[:40]!r} must be a word of letters, digits, - or _")
        if name in seen:
            raise ContentError(str(path), header_row, column, "$", f"cell {column_letter(column)}{header_row}: column "
                               f"{name!r} appears twice (first in column {column_letter(seen[name])})")
        seen[name] = column
        header.append(name)
    locator = SheetLocator(path, header)
    locator.marks[()] = (header_row, 1)
    locator.marks[("cards",)] = (header_row, 1)
    cards = []
    for number, cells in rows[1:]:
        index = len(cards)
        locator.marks[("cards", index)] = (number, 1)
        locator.rows.append(number)
        card: dict[str, Any] = {}
        for column, value in cells:
            name = header[column - 1] if column <= len(header) else ""
            if value == "":
                continue
            if not name:
                raise ContentError(str(path), number, column, "$", f"cell {column_letter(column)}{number} holds a value "
                                   "but its column has no name in the first row")
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                raise ContentError(str(path), number, column, "$",
                                   f"cell {column_letter(column)}{number} holds more than {MAX_CELL_CHARS} characters")
            card[name] = value
            locator.marks[("cards", index, name)] = (number, column)
        cards.append(card)
    return {"cards": cards}, locator


class CardListLocator(Locator):
    """Positions in a card list gathered from several files (cards.yaml, then cards.csv, then
    cards.xlsx): card i is located in the file it came from, by its index there."""

    def __init__(self, parts: list[tuple[int, Locator]]):
        super().__init__(parts[0][1].path)
        self.parts = parts  # (index of the file's first card in the whole list, its locator), in order

    def _part(self, json_path) -> tuple[Locator, tuple]:
        keys = tuple(json_path)
        if len(keys) >= 2 and keys[0] == "cards" and isinstance(keys[1], int):
            start, locator = [part for part in self.parts if part[0] <= keys[1]][-1]
            return locator, ("cards", keys[1] - start, *keys[2:])
        return self.parts[0][1], keys

    def where(self, json_path):
        locator, keys = self._part(json_path)
        return locator.where(keys)

    def error(self, json_path, message: str) -> ContentError:
        locator, keys = self._part(json_path)
        return locator.error(keys, message)


def card_sheet_of(game_dir: Path) -> list[Path]:
    """The spreadsheets holding a game's cards, if any."""
    return [game_dir / name for name in SHEET_NAMES if (game_dir / name).exists()]


__all__ = ["CardListLocator", "SHEET_NAMES", "SheetLocator", "card_sheet_of", "column_letter", "read_card_sheet"]
