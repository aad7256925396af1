"""One helper for every PDF check the tests make: fonts embedded, page boxes, rendering a page to
an image. Uses only the libraries the project declares (pypdf, pypdfium2, Pillow), never programs
such as poppler's that a fresh machine may lack."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
from PIL import Image
from pypdf import PdfReader

FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def _fonts_in(resources, seen: set[int]):
    """Every font dictionary reachable from `resources`, forms (shared card art) included."""
    if resources is None:
        return
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        yield font.get_object()
    for xobject in (resources.get("/XObject") or {}).values():
        ref = getattr(xobject, "idnum", None)
        xobject = xobject.get_object()
        if ref is not None:
            if ref in seen:
                continue
            seen.add(ref)
        if xobject.get("/Subtype") == "/Form":
            yield from _fonts_in(xobject.get("/Resources"), seen)


def _reader(pdf) -> PdfReader:
    return pdf if isinstance(pdf, PdfReader) else PdfReader(pdf)


def fonts(pdf) -> dict[str, bool]:
    """Base font name -> whether its program is embedded, over every page of the file (a path or
    a PdfReader)."""
    found: dict[str, bool] = {}
    seen: set[int] = set()
    for page in _reader(pdf).pages:
        for font in _fonts_in(page.get("/Resources"), seen):
            described = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = described.get("/FontDescriptor")
            embedded = descriptor is not None and any(k in descriptor.get_object() for k in FONT_FILES)
            found[str(font["/BaseFont"])] = embedded
    return found


def pdf_problems(pdf) -> list[str]:
    """What a printable PDF of this project must never have: a font not embedded (Helvetica
    included), a page without TrimBox and BleedBox, or a TrimBox outside the BleedBox."""
    reader = _reader(pdf)
    problems = [f"font {name} is not embedded" for name, ok in fonts(reader).items() if not ok]
    for n, page in enumerate(reader.pages, 1):
        if "/TrimBox" not in page or "/BleedBox" not in page:
            problems.append(f"page {n} lacks a TrimBox or a BleedBox")
            continue
        trim, bleed = page.trimbox, page.bleedbox
        if not (bleed.left <= trim.left + 1e-3 and bleed.bottom <= trim.bottom + 1e-3
                and trim.right <= bleed.right + 1e-3 and trim.top <= bleed.top + 1e-3):
            problems.append(f"page {n}: TrimBox {list(trim)} is not inside BleedBox {list(bleed)}")
    return problems


def render_page(path: Path, index: int = 0, dpi: float = 72) -> Image.Image:
    """Page `index` of the PDF as an RGB image at `dpi`."""
    document = pypdfium2.PdfDocument(str(path))
    try:
        page = document[index]
        image = page.render(scale=dpi / 72).to_pil().convert("RGB")
        page.close()
        return image
    finally:
        document.close()


def page_count(path: Path) -> int:
    document = pypdfium2.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


def text_sizes(page) -> list[tuple[float, str]]:
    """(size in points as printed, text) of every run of text on a pypdf page, forms included."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            a = tm[0] * cm[0] + tm[1] * cm[2]
            b = tm[0] * cm[1] + tm[1] * cm[3]
            c = tm[2] * cm[0] + tm[3] * cm[2]
            d = tm[2] * cm[1] + tm[3] * cm[3]
            found.append((size * abs(a * d - b * c) ** 0.5, text.strip()))

    page.extract_text(visitor_text=visit)
    return found


RULER_FIGURES = [str(n) for n in range(10)] + ["10 cm"]


def part_text_sizes(page, label_start: str | None = None) -> list[float]:
    """The sizes of the text a page's parts print: every run less the page's own furniture, one
    100 mm ruler's figures and, if given, the sheet label starting with `label_start`. Exactly one
    run is taken away for each, so a part's own small text that reads like a figure still counts."""
    runs = text_sizes(page)
    for figure in RULER_FIGURES:  # the smallest such run: a part's own small figure is still left
        matching = [i for i, (_, text) in enumerate(runs) if text == figure]
        if matching:
            del runs[min(matching, key=lambda i: runs[i][0])]
    if label_start is not None:
        runs = [run for run in runs if not run[1].startswith(label_start)] + \
               [run for run in runs if run[1].startswith(label_start)][1:]
    return [size for size, _ in runs]
