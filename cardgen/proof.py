"""The proof sheet: every distinct card face and every back of a game, small and labelled, on as
few pages as a readable size allows (one for most games), to check a deck at a glance before
printing it. Each face is drawn by the game's own face code, scaled down; under it its position in
print order, its id and how many copies the deck holds.
"""

from __future__ import annotations

import math
from pathlib import Path

from reportlab.lib.colors import HexColor

from cardgen.faces import clip_to_bleed, wrap
from cardgen.geometry import Rect
from cardgen.pdfdoc import PAPER_MM, SANS, SANS_BOLD, atomic_output, mm, new_canvas
from cardgen.registry import definition_for
from cardgen.sheets import print_order
from cardgen.words import counted

MARGIN = 12 * mm
HEADER = 14 * mm
GAP = 3 * mm
LABEL_SIZE = 6.5
LABEL_LINES = 2
MIN_CARD_WIDTH = 16 * mm  # smaller than this and a face no longer shows its text: use more pages
INK = HexColor("#222222")
FRAME = HexColor("#9e9e9e")


def proof_items(content) -> list[tuple[str, dict | str, tuple[float, float], str]]:
    """(kind, card or back id, size in mm, label) for every distinct face in print order, then every
    back. A card entry with several copies is one face."""
    items, seen = [], set()
    for card in print_order(content):
        key = (card["deck"], str(card["id"]))
        if key in seen:
            continue
        seen.add(key)
        size = content.card_size_mm(content.deck(card["deck"]))
        copies = card.get("copies", 1)
        label = f"#{card['position']} · {card['id']}" + (f" · x{copies}" if copies > 1 else "")
        items.append(("face", card, size, label))
    backs = []
    for deck in content.decks:
        if deck["back"] not in backs:
            backs.append(deck["back"])
            items.append(("back", deck["back"], content.card_size_mm(deck), f"back · {deck['back']}"))
    return items


def grid(count: int, card_w: float, card_h: float, area_w: float, area_h: float) -> tuple[int, int, float]:
    """(columns, rows, scale) that fit `count` cards of one proportion into the area as large as
    possible; each cell also holds the label lines under its card."""
    label_h = LABEL_LINES * LABEL_SIZE * 1.2 + 1
    best = (1, 1, 0.0)
    for columns in range(1, count + 1):
        rows = math.ceil(count / columns)
        scale = min((area_w - (columns - 1) * GAP) / columns / card_w,
                    (area_h - (rows - 1) * GAP - rows * label_h) / rows / card_h)
        if scale > best[2]:
            best = (columns, rows, scale)
    return best


def render_proof(content, path: Path, paper: str = "a4") -> Path:
    """Write the proof sheet of `content` to `path`."""
    faces = definition_for(content.id)
    items = proof_items(content)
    page_w, page_h = (v * mm for v in PAPER_MM[paper])
    area_w, area_h = page_w - 2 * MARGIN, page_h - 2 * MARGIN - HEADER
    # Every cell is as big as the largest card, so faces keep their relative sizes.
    cell_w = max(w for _, _, (w, _), _ in items) * mm
    cell_h = max(h for _, _, (_, h), _ in items) * mm
    # As few pages as keep every face at least MIN_CARD_WIDTH wide.
    for page_count in range(1, len(items) + 1):
        per_page = math.ceil(len(items) / page_count)
        columns, rows, scale = grid(per_page, cell_w, cell_h, area_w, area_h)
        if cell_w * scale >= MIN_CARD_WIDTH:
            break
    scale = min(scale, 1.0)
    pages = [items[i:i + per_page] for i in range(0, len(items), per_page)]
    label_h = LABEL_LINES * LABEL_SIZE * 1.2 + 1
    title = f"{content.title['en']}: proof sheet"
    with atomic_output(Path(path)) as buffer:
        canvas = new_canvas(buffer, (page_w, page_h), title)
        for n, chunk in enumerate(pages, 1):
            canvas.setTrimBox((0, 0, page_w, page_h))
            canvas.setBleedBox((0, 0, page_w, page_h))
            canvas.setFillColor(INK)
            canvas.setFont(SANS_BOLD, 11)
            canvas.drawString(MARGIN, page_h - MARGIN - 11, title + (f" ({n}/{len(pages)})" if len(pages) > 1 else ""))
            canvas.setFont(SANS, 7.5)
            faces_count = sum(1 for kind, *_ in items if kind == "face")
            cards = len(content.physical_cards())
            canvas.drawString(MARGIN, page_h - MARGIN - 22,
                              f"{counted(faces_count, 'different face')}, {counted(cards, 'card')}, "
                              f"{counted(len(items) - faces_count, 'back')}; not to scale, not for cutting")
            top = page_h - MARGIN - HEADER
            for i, (kind, item, (w_mm, h_mm), label) in enumerate(chunk):
                row, column = divmod(i, columns)
                cell_x = MARGIN + column * (cell_w * scale + GAP)
                cell_top = top - row * (cell_h * scale + label_h + GAP)
                w, h = w_mm * mm * scale, h_mm * mm * scale
                x = cell_x + (cell_w * scale - w) / 2
                y = cell_top - cell_h * scale + (cell_h * scale - h) / 2
                canvas.saveState()
                canvas.translate(x, y)
                canvas.scale(scale, scale)
                full = Rect(0, 0, w_mm * mm, h_mm * mm)
                clip_to_bleed(canvas, full, 0.0)
                if kind == "face":
                    faces.draw_face(canvas, content, item, full, 0.0)
                else:
                    faces.draw_back(canvas, content, item, full, 0.0)
                canvas.restoreState()
                canvas.setStrokeColor(FRAME)
                canvas.setLineWidth(0.3)
                canvas.rect(x, y, w, h, stroke=1, fill=0)
                canvas.setFillColor(INK)
                canvas.setFont(SANS, LABEL_SIZE)
                lines = wrap(label, SANS, LABEL_SIZE, cell_w * scale)[:LABEL_LINES]
                for k, line in enumerate(lines):
                    canvas.drawCentredString(cell_x + cell_w * scale / 2,
                                             cell_top - cell_h * scale - (k + 1) * LABEL_SIZE * 1.2, line)
            canvas.showPage()
        canvas.save()
    return Path(path)


__all__ = ["proof_items", "render_proof", "grid"]
