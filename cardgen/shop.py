"""The print-shop export: what card printing services take, following a shop profile
(`cardgen.printdata`): one card per page, the page exactly the card with the shop's bleed (1/8 in),
a TrimBox and a BleedBox on every page, pages in the shop's order (every front then every back, or
front-back pairs), and one PNG per card and per back at the shop's resolution, rasterised from the
very same PDF with pypdfium2, with a CSV that says which back and how many copies go with each
front.

A card whose size is within the profile's tolerance of the shop's size is drawn at the shop's
size (faces are drawn for any rectangle); any other card keeps its own size.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from cardgen.layout import shop_page
from cardgen.pdfdoc import atomic_output, mm, new_canvas
from cardgen.printdata import ShopProfile
from cardgen.raster import png_bytes
from cardgen.registry import definition_for
from cardgen.sheets import print_order

SHOP_FOLDER = "shop-{profile}"


def _card_size(content, card: dict, profile: ShopProfile) -> tuple[float, float]:
    w, h = content.card_size_mm(content.deck(card["deck"]))
    return profile.fits(w, h) or (w, h)


def shop_pages(content, profile: ShopProfile, cards: list[dict] | None = None) -> list[tuple[str, dict]]:
    """(side, card) per page in the shop's order; side is "front" or "back"."""
    cards = print_order(content) if cards is None else cards
    if profile.page_order == "pairs":
        return [(side, card) for card in cards for side in ("front", "back")]
    return [("front", card) for card in cards] + [("back", card) for card in cards]


def render_shop_pdf(content, path: Path, profile: ShopProfile, cards: list[dict] | None = None,
                    converter=None) -> Path:
    """Every card (or the given ones) one per page, at the shop's size and bleed; in CMYK through
    `converter` (cardgen.cmyk.Converter) when one is given, and then refused, with nothing written,
    if a colour needs more ink than the profile allows."""
    faces = definition_for(content.id)
    title = f"{content.title['en']}: cards for a print shop ({profile.name})"
    with atomic_output(path) as buffer:
        if converter is None:
            canvas = new_canvas(buffer, (100.0, 100.0), title)
        else:
            from cardgen.cmyk import cmyk_canvas

            canvas = cmyk_canvas(buffer, (100.0, 100.0), title, converter)
        for side, card in shop_pages(content, profile, cards):
            w, h = _card_size(content, card, profile)
            page_w, page_h, slot = shop_page(w * mm, h * mm, profile.bleed)
            canvas.setPageSize((page_w, page_h))
            canvas.setTrimBox(tuple(round(v, 4) for v in slot.trim.box()))
            canvas.setBleedBox(tuple(round(v, 4) for v in slot.bleed.box()))
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(0, 0, page_w, page_h)
            canvas.clipPath(clip, stroke=0, fill=0)
            if side == "front":
                faces.draw_face(canvas, content, card, slot.trim, profile.bleed)
            else:
                faces.draw_back(canvas, content, content.deck(card["deck"])["back"], slot.trim, profile.bleed)
            canvas.restoreState()
            canvas.showPage()
        canvas.save()
        if converter is not None:
            from cardgen.cmyk import check_ink

            check_ink(converter, path)
    return Path(path)


def png_names(content, profile: ShopProfile, cards: list[dict] | None = None) -> list[tuple[str, int]]:
    """(file name, page index in the shop PDF) of every PNG: one per distinct front (its first
    copy) and one per back."""
    pages = shop_pages(content, profile, cards)
    names, seen = [], set()
    for index, (side, card) in enumerate(pages):
        if side == "front":
            key = ("front", card["deck"], card["id"])
            name = f"front-{card['position']:03d}-{safe_name(card['id'])}.png"
        else:
            back_id = content.deck(card["deck"])["back"]
            key = ("back", back_id)
            name = f"back-{safe_name(back_id)}.png"
        if key not in seen:
            seen.add(key)
            names.append((name, index))
    return names


def safe_name(text) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in str(text))


def card_list_csv(content, profile: ShopProfile, cards: list[dict] | None = None) -> bytes:
    """One row per distinct front: its image, its back's image, copies, deck and id."""
    cards = print_order(content) if cards is None else cards
    rows: dict[tuple, list] = {}
    for card in cards:
        key = (card["deck"], card["id"])
        if key not in rows:
            back_id = content.deck(card["deck"])["back"]
            rows[key] = [f"front-{card['position']:03d}-{safe_name(card['id'])}.png", f"back-{safe_name(back_id)}.png",
                         0, card["deck"], card["id"]]
        rows[key][2] += 1
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["front", "back", "copies", "deck", "id"])
    writer.writerows(rows.values())
    return out.getvalue().encode("utf-8")


class PngRenderer:
    """Rasterises pages of the shop PDF, opening it once for all the PNGs of a build."""

    def __init__(self, pdf_path_of, profile: ShopProfile, count: int):
        self.pdf_path_of = pdf_path_of
        self.profile = profile
        self.left = count
        self.document = None

    def png(self, pdf: Path, index: int) -> bytes:
        import pypdfium2

        if self.document is None:
            self.document = pypdfium2.PdfDocument(str(pdf))
        page = self.document[index]
        width, height = page.get_size()
        image = page.render(scale=self.profile.dpi / 72, rev_byteorder=True).to_pil().convert("RGB")
        page.close()
        # pdfium rounds the bitmap up; the shop's size is the rounded one.
        size = (int(round(width / 72 * self.profile.dpi)), int(round(height / 72 * self.profile.dpi)))
        if image.size != size:
            image = image.crop((0, 0, *size))
        return png_bytes(image, dpi=self.profile.dpi)

    def write(self, path: Path, index: int) -> None:
        try:
            data = self.png(self.pdf_path_of(path), index)
        finally:
            self.left -= 1
            if self.left <= 0 and self.document is not None:
                self.document.close()
                self.document = None
        with atomic_output(path) as buffer:
            buffer.write(data)


def write_bytes(data: bytes, path: Path) -> None:
    with atomic_output(path) as buffer:
        buffer.write(data)


__all__ = ["shop_pages", "render_shop_pdf", "png_names", "card_list_csv", "PngRenderer", "SHOP_FOLDER",
           "write_bytes"]
