"""Tabletop Simulator deck sheets, to try a game online before printing it.

Tabletop Simulator takes a custom deck as one image of up to 10 x 7 cards (no larger than
4096 px either way) and one back image. For each back of a game the cards that wear it are put
on as many sheets as needed, drawn into a PDF by the game's own faces and rasterised with
pypdfium2; `<game>.json` is a saved object holding one ready deck per back. Its images are named
by addresses relative to the saved object (the files beside it), so the folder can be moved and
two builds give the same bytes on any machine; `--tts-url BASE` names them under the address the
images will be hosted at instead. Each card is nicknamed with its title. Copies of a card are
separate cards of the deck.
"""

from __future__ import annotations

import hashlib
import io
import json
from functools import partial
from math import ceil, floor
from pathlib import Path
from urllib.parse import quote

from cardgen.raster import png_bytes
from cardgen.layout import Rect
from cardgen.pdfdoc import mm, new_canvas
from cardgen.registry import definition_for
from cardgen.sheets import print_order

MAX_PIXELS = 4096
MAX_COLUMNS = 10
MAX_ROWS = 7


def card_pixels(w_mm: float, h_mm: float) -> tuple[int, int]:
    """Width and height of one card in a sheet, so that 10 x 7 stay within 4096 px."""
    width = min(MAX_PIXELS // MAX_COLUMNS, floor(MAX_PIXELS / MAX_ROWS * w_mm / h_mm))
    return width, int(floor(width * h_mm / w_mm))


def deck_groups(content) -> list[tuple[str, list[list[dict]]]]:
    """(back id, sheets of at most 70 cards) in print order of the backs' first cards."""
    by_back: dict[str, list[dict]] = {}
    for card in print_order(content):
        by_back.setdefault(content.deck(card["deck"])["back"], []).append(card)
    per_sheet = MAX_COLUMNS * MAX_ROWS
    return [(back, [cards[i:i + per_sheet] for i in range(0, len(cards), per_sheet)])
            for back, cards in by_back.items()]


def _grid(count: int) -> tuple[int, int]:
    columns = min(MAX_COLUMNS, count)
    return columns, ceil(count / columns)


class SheetImages:
    """Draws every sheet and back once (on the first request) and keeps the PNG bytes."""

    def __init__(self, content):
        self.content = content
        self.images: dict[str, bytes] | None = None

    def get(self, name: str) -> bytes:
        if self.images is None:
            self.images = self._render()
        return self.images[name]

    def _render(self) -> dict[str, bytes]:
        import pypdfium2

        content = self.content
        faces = definition_for(content.id)
        jobs = []  # (name, page size in points, card size in points, pixel size)
        buffer = io.BytesIO()
        canvas = new_canvas(buffer, (100.0, 100.0), f"{content.title['en']}: Tabletop Simulator sheets")
        for back, sheets in deck_groups(content):
            w_mm, h_mm = content.card_size_mm(content.deck(sheets[0][0]["deck"]))
            px_w, px_h = card_pixels(w_mm, h_mm)
            cw, ch = w_mm * mm, h_mm * mm
            for n, cards in enumerate(sheets, 1):
                columns, rows = _grid(len(cards))
                canvas.setPageSize((columns * cw, rows * ch))
                for i, card in enumerate(cards):
                    row, column = divmod(i, columns)
                    rect = Rect(column * cw, (rows - 1 - row) * ch, cw, ch)
                    canvas.saveState()
                    clip = canvas.beginPath()
                    clip.rect(rect.x, rect.y, rect.w, rect.h)
                    canvas.clipPath(clip, stroke=0, fill=0)
                    faces.draw_face(canvas, content, card, rect, 0.0)
                    canvas.restoreState()
                canvas.showPage()
                jobs.append((sheet_name(back, n), cw, (columns * px_w, rows * px_h)))
            canvas.setPageSize((cw, ch))
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(0, 0, cw, ch)
            canvas.clipPath(clip, stroke=0, fill=0)
            faces.draw_back(canvas, content, back, Rect(0, 0, cw, ch), 0.0)
            canvas.restoreState()
            canvas.showPage()
            jobs.append((back_name(back), cw, (px_w, px_h)))
        canvas.save()
        images = {}
        document = pypdfium2.PdfDocument(buffer.getvalue())
        try:
            for index, (name, card_w_pt, size) in enumerate(jobs):
                page = document[index]
                px_w = size[0] / (page.get_size()[0] / card_w_pt)
                image = page.render(scale=px_w / card_w_pt, rev_byteorder=True).to_pil().convert("RGB")
                page.close()
                image = image.crop((0, 0, *size)) if image.size != size else image
                images[name] = png_bytes(image, compress_level=1)
        finally:
            document.close()
        return images


def _safe(text) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in str(text))


def sheet_name(back: str, n: int) -> str:
    return f"deck-{_safe(back)}-{n}.png"


def back_name(back: str) -> str:
    return f"back-{_safe(back)}.png"


def _guid(*parts) -> str:
    return hashlib.sha256("\x00".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def saved_object(content, url_of) -> dict:
    """The saved object: one DeckCustom per back; `url_of(file name)` gives each image's address."""
    objects = []
    deck_number = 0
    definition = definition_for(content.id)
    for position, (back, sheets) in enumerate(deck_groups(content)):
        custom, ids, contained = {}, [], []
        for n, cards in enumerate(sheets, 1):
            deck_number += 1
            columns, rows = _grid(len(cards))
            entry = {"FaceURL": url_of(sheet_name(back, n)), "BackURL": url_of(back_name(back)),
                     "NumWidth": columns, "NumHeight": rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
            custom[str(deck_number)] = entry
            for i, card in enumerate(cards):
                card_id = deck_number * 100 + i
                ids.append(card_id)
                contained.append({"Name": "Card", "Nickname": definition.card_title(content, card),
                                  "Description": f"{card['id']} ({card['deck']})",
                                  "CardID": card_id, "CustomDeck": {str(deck_number): entry},
                                  "Transform": _transform(position * 3.0), "GUID": _guid(content.id, back, card_id)})
        objects.append({
            "Name": "DeckCustom", "Transform": _transform(position * 3.0),
            "Nickname": f"{content.title['en']}: {back}", "Description": "",
            "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713}, "Locked": False, "Grid": True, "Snap": True,
            "Autoraise": True, "Sticky": True, "Tooltip": True, "SidewaysCard": False, "HideWhenFaceDown": True,
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained, "GUID": _guid(content.id, back)})
    return {"SaveName": content.title["en"], "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects,
            "TabStates": {}, "VersionNumber": ""}


def _write(data_of, path: Path) -> None:
    from cardgen.shop import write_bytes

    write_bytes(data_of(), path)


def image_address(name: str, base_url: str | None = None) -> str:
    """An image's address in the saved object: relative to it, or under `base_url`."""
    return quote(name) if base_url is None else f"{base_url.rstrip('/')}/{quote(name)}"


def tts_outputs(content, game_dir: Path, base_url: str | None = None) -> list[tuple[Path, object]]:
    """(path, render) of every sheet image, back image and the saved object."""
    folder = game_dir / "tts"
    images = SheetImages(content)
    outputs = []
    for back, sheets in deck_groups(content):
        for n in range(1, len(sheets) + 1):
            outputs.append((folder / sheet_name(back, n), partial(_write, partial(images.get, sheet_name(back, n)))))
        outputs.append((folder / back_name(back), partial(_write, partial(images.get, back_name(back)))))
    document = saved_object(content, partial(image_address, base_url=base_url))
    text = json.dumps(document, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    outputs.append((folder / f"{content.id}.json", partial(_write, lambda: text.encode("utf-8"))))
    return outputs


__all__ = ["card_pixels", "deck_groups", "saved_object", "tts_outputs", "MAX_PIXELS"]
