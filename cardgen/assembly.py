"""The assembly page of a game: which files to print, on what paper or card stock, how many sheets,
which flip, and how to cut, fold and put the parts together, with a small picture of each file.

Counts are never typed in: the page is built after every other file of the game (it is last in
the planned outputs) and reads the pages of the files themselves. Words come from
`content/print/assembly.yaml`, in English and Traditional Chinese.
"""

from __future__ import annotations

import tempfile
from functools import lru_cache, partial
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader

from cardgen.faces import wrap
from cardgen.pdfdoc import PAPER_MM, atomic_output, font_for, mm, new_canvas
from cardgen.printdata import assembly_texts
from cardgen.words import CountingFormatter

MARGIN = 15 * mm
THUMB_W = 28 * mm
INK = HexColor("#222222")
GREY = HexColor("#666666")


def _text(key: str, lang: str, **values) -> str:
    """The text `key` in `lang`; a count written `{sheets:sheet}` comes with its noun ("1 sheet")."""
    entry = assembly_texts()[key]
    return CountingFormatter().format(entry.get(lang, entry["en"]), **values)


def _paper_of(name: str) -> str | None:
    for paper in PAPER_MM:
        if f"-{paper}-" in name or f"-{paper}." in name or name.endswith(f"-{paper}"):
            return paper
    return None


def _kind(name: str) -> str:
    if name.startswith(("cards-", "replacements-", "aids-")):
        for layout in ("home", "butted", "fold"):
            if f"-{layout}" in name:
                return layout
    if name.startswith("rules-"):
        return "rules"
    if name.startswith("proof-"):
        return "proof"
    return "other"


def _pages(path: Path) -> tuple[int | None, bool]:
    """(page count, whether the first page lies landscape) of a PDF; (None, False) when it is not
    a PDF a reader can open (listed without a count)."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(str(path))
    except pypdfium2.PdfiumError:
        return None, False
    try:
        width, height = document.get_page_size(0) if len(document) else (0, 0)  # without loading the page
        return len(document), width > height
    finally:
        document.close()


def _thumbnail(path: Path) -> ImageReader | None:
    """A picture of the file's first page, or None when it is not a PDF a reader can open."""
    image = _thumbnail_image(str(path), *_identity(path))
    return None if image is None else ImageReader(image)


def _identity(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_size, status.st_mtime_ns


@lru_cache(maxsize=64)
def _thumbnail_image(path: str, size: int, mtime_ns: int):
    """The thumbnail's pixels (a PIL image), drawn once per file for the pages of every language."""
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(path)
    except pypdfium2.PdfiumError:
        return None
    try:
        page = document[0]
        width, _ = page.get_size()
        image = page.render(scale=(THUMB_W / width) * 2).to_pil().convert("RGB")
        page.close()
    finally:
        document.close()
    return image


def _joined_from_panels(path: Path) -> bool:
    """Whether the file is a drawing split over pages to be joined (cardgen.panels marks such
    files in their keywords)."""
    from cardgen.panels import PANELS_KEYWORD

    return f"/Keywords ({PANELS_KEYWORD})".encode() in path.read_bytes()


def _duplex(path: Path) -> str | None:
    data = path.read_bytes()
    if b"/DuplexFlipShortEdge" in data:
        return "short"
    if b"/DuplexFlipLongEdge" in data:
        return "long"
    return None


def file_rows(game_dir: Path, planned: list[tuple[Path, object]], paper: str, lang: str, scratch: Path) -> list[dict]:
    """One row per file (or folder of images) to print on `paper`: name, kind, stock, count text.
    A planned PDF not written yet (a partial rebuild) is drawn into `scratch` to be counted."""
    rows, folders = [], {}

    def ready(path: Path, render) -> Path:
        if path.exists():
            return path
        copy = scratch / path.relative_to(game_dir)
        copy.parent.mkdir(parents=True, exist_ok=True)
        render(copy)
        return copy

    renders = dict(planned)
    for path, render in planned:
        rel = path.relative_to(game_dir)
        if len(rel.parts) > 1:  # a folder of shop or Tabletop Simulator files
            folders.setdefault(rel.parts[0], []).append(path)
            continue
        if path.suffix != ".pdf" or path.name.startswith("assembly-"):
            continue
        if _paper_of(path.name) not in (paper, None):
            continue
        kind = _kind(path.name)
        source = ready(path, render)
        if kind == "other" and _joined_from_panels(source):
            kind = "panels"
        pages, landscape = _pages(source)
        flip = _duplex(source)
        if pages is None:
            count = ""
        elif flip:
            count = _text("sheets_duplex", lang, sheets=(pages + 1) // 2, pages=pages, edge=_text(f"edge_{flip}", lang))
        else:
            count = _text("sheets_single", lang, sheets=pages)
        stock = {"rules": "stock_paper", "proof": "stock_paper", "other": "stock_other",
                 "panels": "stock_other"}.get(kind, "stock_cards")
        rows.append({"name": path.name, "kind": kind, "what": _text(f"kind_{kind}", lang),
                     "stock": _text(stock, lang), "count": count, "path": source, "flip": flip,
                     "orientation": "landscape" if landscape else "portrait"})
    for folder, files in folders.items():
        kind = "tts" if folder == "tts" else "shop"
        pdf = next((ready(p, renders[p]) for p in files if p.suffix == ".pdf"), None)
        rows.append({"name": folder + "/", "kind": kind, "what": _text(f"kind_{kind}", lang),
                     "stock": _text("stock_screen" if kind == "tts" else "stock_shop", lang),
                     "count": _text("files_count", lang, pages=len(files)), "path": pdf})
    return rows


def calibration_steps(rows: list[dict], paper: str, lang: str) -> list[str]:
    """One step per calibration sheet the double-sided files need, naming those files: a
    landscape file is corrected by what the landscape sheet reads, a portrait one by the portrait
    sheet."""
    from cardgen.calibration import calibration_name

    needs: dict[str, list[str]] = {}
    for row in rows:
        if row.get("flip") and row["kind"] != "rules":
            name = calibration_name(paper, row["flip"], row["orientation"])
            needs.setdefault(name, []).append(row["name"])
    return [_text("step_calibrate", lang, calibration=name, files=", ".join(files),
                  option="--back-offset-landscape" if "-landscape" in name else "--back-offset")
            for name, files in sorted(needs.items())]


def steps(content, rows: list[dict], paper: str, lang: str) -> list[str]:
    out = []
    layouts = [r["name"] for r in rows if r["kind"] in ("home", "butted", "fold")]
    if len(layouts) > 1:
        out.append(_text("step_choose", lang, files=", ".join(layouts)))
    out += calibration_steps(rows, paper, lang)
    for row in rows:
        if row["kind"] in ("home", "butted", "fold"):
            out.append(_text(f"step_{row['kind']}", lang, file=row["name"]))
        elif row["kind"] in ("other", "panels"):
            out.append(_text(f"step_{row['kind']}", lang, file=row["name"]))
    out.append(_text("step_count", lang, cards=len(content.physical_cards())))
    out.append(_text("step_sleeves", lang))
    return out


class _Writer:
    def __init__(self, canvas, page_w, page_h, lang):
        self.c, self.w, self.h, self.lang = canvas, page_w, page_h, lang
        self.y = page_h - MARGIN
        self._pages = 0
        self._start()

    def _start(self):
        self.c.setPageSize((self.w, self.h))
        self.c.setTrimBox((0, 0, self.w, self.h))
        self.c.setBleedBox((0, 0, self.w, self.h))

    def need(self, height):
        if self.y - height < MARGIN:
            self.c.showPage()
            self._start()
            self.y = self.h - MARGIN

    def para(self, text, size=9.5, bold=False, indent=0.0, colour=INK, gap=2.5):
        font = font_for(self.lang, bold)
        width = self.w - 2 * MARGIN - indent
        lines = wrap(text, font, size, width)
        self.need(len(lines) * size * 1.3)
        self.c.setFont(font, size)
        self.c.setFillColor(colour)
        for line in lines:
            self.y -= size * 1.3
            self.c.drawString(MARGIN + indent, self.y, line)
        self.y -= gap


def render_assembly(content, path: Path, paper: str, lang: str, game_dir: Path, planned) -> Path:
    """The assembly page for one paper and language; `planned` are the (path, render) pairs of the
    game's other files."""
    page_w, page_h = (v * mm for v in PAPER_MM[paper])
    with tempfile.TemporaryDirectory() as scratch:
        rows = file_rows(game_dir, planned, paper, lang, Path(scratch))
        return _draw(content, path, paper, lang, rows, page_w, page_h)


def _draw(content, path: Path, paper: str, lang: str, rows, page_w, page_h) -> Path:
    title = _text("title", lang, game=content.title.get(lang, content.title["en"]))
    with atomic_output(path) as buffer:
        canvas = new_canvas(buffer, (page_w, page_h), title)
        out = _Writer(canvas, page_w, page_h, lang)
        out.para(title, size=15, bold=True, gap=4)
        out.para(_text("intro", lang), gap=8)
        out.para(_text("files_heading", lang), size=12, bold=True, gap=3)
        for row in rows:
            thumb = _thumbnail(row["path"]) if row["path"] is not None and row["kind"] != "rules" else None
            thumb_h = 0.0
            if thumb is not None:
                iw, ih = thumb.getSize()
                thumb_h = THUMB_W * ih / iw
            out.need(max(thumb_h, 30) + 4)
            top = out.y
            if thumb is not None:
                canvas.drawImage(thumb, MARGIN, top - thumb_h - 2, THUMB_W, thumb_h)
                canvas.setStrokeColor(GREY)
                canvas.setLineWidth(0.3)
                canvas.rect(MARGIN, top - thumb_h - 2, THUMB_W, thumb_h, stroke=1, fill=0)
            indent = THUMB_W + 5 * mm
            out.para(row["name"], size=10, bold=True, indent=indent, gap=1)
            out.para(row["what"], size=8.5, indent=indent, gap=1)
            out.para(" · ".join(filter(None, (row["stock"], row["count"]))), size=8.5, indent=indent, colour=GREY, gap=1)
            out.y = min(out.y, top - thumb_h - 2) - 5 * mm
        out.para(_text("steps_heading", lang), size=12, bold=True, gap=3)
        for n, step in enumerate(steps(content, rows, paper, lang), 1):
            out.para(f"{n}. {step}", gap=3)
        canvas.showPage()
        canvas.save()
    return Path(path)


def assembly_outputs(content, game_dir: Path, papers, langs, flip: str, planned) -> list:
    """(path, render) of the assembly page for every paper and language; each reads the files
    planned before it."""
    return [(game_dir / f"assembly-{paper}-{lang}.pdf",
             partial(_render, content, paper=paper, lang=lang, game_dir=game_dir, planned=list(planned)))
            for paper in papers for lang in langs]


def _render(content, path: Path, *, paper, lang, game_dir, planned) -> None:
    render_assembly(content, path, paper, lang, game_dir, planned)


__all__ = ["assembly_outputs", "render_assembly", "file_rows", "steps"]
