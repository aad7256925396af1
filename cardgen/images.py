"""Pictures a game's content names: PNG, JPEG and SVG files inside the game's own folder.

A name is a path relative to the game's folder; it is resolved through the same guard as every
content file (`cardgen.content.inside`), so an absolute path, `..` or a link that leads out of the
folder is refused and the file is never opened. Raster images are decoded with Pillow once per run
(`picture`) and drawn with reportlab's `drawImage` from one `ImageReader` per file, which a PDF
stores once however many cards show it; an SVG is converted by svglib into a reportlab drawing and
placed as a form, defined once per PDF. `image_problem` says why a named picture cannot be used,
for the content checks; `pixel_size` gives what the preflight needs to compute the resolution.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from cardgen.content import inside

RASTER = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
VECTOR = {".svg"}
MAX_IMAGE_BYTES = 32 * 1024 * 1024
MAX_PIXELS = 60_000_000  # a 300 dpi A3 poster; beyond it, Pillow would only be asked to bomb
PRINT_DPI = 300


class ImageProblem(Exception):
    """Why a named picture cannot be used, in words for the content error."""


@dataclass(frozen=True)
class Picture:
    path: Path
    digest: str
    kind: str  # PNG, JPEG or SVG
    pixels: tuple[int, int] | None  # None for a vector picture
    reader: Any = None  # an ImageReader (raster)
    drawing: Any = None  # a reportlab Drawing (SVG)

    @property
    def aspect(self) -> float:
        """Width over height."""
        if self.pixels:
            return self.pixels[0] / self.pixels[1]
        return self.drawing.width / self.drawing.height


_pictures: dict[tuple[str, int, int], Picture] = {}


def resolve(root: Path, name: str, suffixes=(*RASTER, *VECTOR)) -> Path:
    """The file `name` (relative to the game's folder `root`), or ImageProblem if it leads out of
    the folder or is not of a kind in `suffixes`."""
    if not isinstance(name, str) or not name.strip():
        raise ImageProblem("names no file")
    if "\x00" in name or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":") or "://" in name:
        raise ImageProblem(f"{name[:80]!r}: name a file inside the game's folder by a relative path")
    path = Path(root) / name
    if not inside(path, root):
        raise ImageProblem(f"{name[:80]!r} leads out of the game's folder; copy the file in instead")
    if path.suffix.lower() not in suffixes:
        raise ImageProblem(f"{name[:80]!r}: the file must be a {' or '.join(sorted(suffixes))} file")
    return path


def picture(root: Path, name: str) -> Picture:
    """The decoded picture `name` of the game in `root`; ImageProblem if missing or unreadable."""
    path = resolve(root, name)
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise ImageProblem(f"{name[:80]!r} not found in the game's folder") from None
    except OSError as exc:
        raise ImageProblem(f"{name[:80]!r} cannot be read: {exc.strerror}") from None
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _pictures:
        _pictures[key] = _decode(path, name)
    return _pictures[key]


def _decode(path: Path, name: str) -> Picture:
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise ImageProblem(f"{name[:80]!r} is a folder, not a picture") from None
    except OSError as exc:
        raise ImageProblem(f"{name[:80]!r} cannot be read: {exc.strerror}") from None
    if len(raw) > MAX_IMAGE_BYTES:
        raise ImageProblem(f"{name[:80]!r} is larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MiB")
    digest = hashlib.sha256(raw).hexdigest()[:16]
    if path.suffix.lower() in VECTOR:
        return Picture(path, digest, "SVG", None, drawing=_svg_drawing(raw, name))
    return _raster(path, raw, digest, name)


def _raster(path: Path, raw: bytes, digest: str, name: str) -> Picture:
    from PIL import Image

    from reportlab.lib.utils import ImageReader

    expected = RASTER[path.suffix.lower()]
    try:
        with Image.open(io.BytesIO(raw)) as probe:
            if probe.format != expected:
                raise ImageProblem(f"{name[:80]!r} is not a {expected} file (it reads as {probe.format or 'unknown'})")
            if probe.width * probe.height > MAX_PIXELS:
                raise ImageProblem(f"{name[:80]!r} has {probe.width} x {probe.height} pixels; at most {MAX_PIXELS} are read")
            probe.verify()
        with Image.open(io.BytesIO(raw)) as image:
            image.load()
            # reportlab draws RGB(A) and greyscale; palette and CMYK pictures are converted once here.
            if image.mode not in ("RGB", "RGBA", "L"):
                image = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
            else:
                image = image.copy()
    except ImageProblem:
        raise
    except Exception as exc:  # Pillow raises many kinds for broken files
        raise ImageProblem(f"{name[:80]!r} cannot be read as {expected}: {type(exc).__name__}") from None
    # A JPEG in colours a PDF takes as they are is stored as the JPEG it is, not decoded and packed again.
    passthrough = expected == "JPEG" and image.mode in ("RGB", "L")
    reader = ImageReader(io.BytesIO(raw)) if passthrough else ImageReader(image)
    reader.cardgen_name = name  # the preflight names the picture it measures
    return Picture(path, digest, expected, (image.width, image.height), reader=reader)


def _svg_drawing(raw: bytes, name: str):
    """The SVG as a reportlab drawing. The parser is told never to fetch: svglib resolves external
    files and addresses through lxml, which is given no network and no entity expansion."""
    from lxml import etree
    from svglib.svglib import SvgRenderer

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True)
    try:
        root = etree.fromstring(raw, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise ImageProblem(f"{name[:80]!r} is not readable SVG: {str(exc)[:120]}") from None
    for element in root.iter():
        tag = element.tag if isinstance(element.tag, str) else ""
        href = element.get("{http://www.w3.org/1999/xlink}href") or element.get("href") or ""
        if tag.endswith("image") or (href and not href.startswith("#")):
            raise ImageProblem(f"{name[:80]!r}: an SVG may not link to other files or addresses ({href[:60]!r})")
        style = (element.text or "") if tag.endswith("style") else ""
        if "@import" in style or ("url(" in style and "url(#" not in style):
            raise ImageProblem(f"{name[:80]!r}: an SVG may not link to other files or addresses")
    try:
        drawing = SvgRenderer(name).render(root)
    except Exception as exc:  # svglib raises many kinds for SVG it cannot draw
        raise ImageProblem(f"{name[:80]!r} cannot be drawn: {type(exc).__name__}") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise ImageProblem(f"{name[:80]!r} has no width or height")
    if _has_text(drawing):
        # svglib would set SVG text in fonts that are not embedded; letters drawn as paths print.
        raise ImageProblem(f"{name[:80]!r} holds text: convert its text to paths (outlines) in the drawing program")
    from cardgen.pdfdoc import SANS, register_latin_fonts

    register_latin_fonts()
    drawing.initialFontName = SANS  # else reportlab starts every drawing in Times-Roman, never embedded
    return drawing


def _has_text(node) -> bool:
    from reportlab.graphics.shapes import Group, String

    if isinstance(node, String):
        return True
    return isinstance(node, Group) and any(_has_text(child) for child in node.contents)


def image_problem(root: Path, name: str) -> str | None:
    """Why the picture `name` cannot be drawn, or None."""
    try:
        picture(root, name)
    except ImageProblem as exc:
        return str(exc)
    return None


def fitted(pic: Picture, x: float, y: float, w: float, h: float, fit: str) -> tuple[float, float, float, float]:
    """Where the picture goes in the box: `contain` keeps it whole, `cover` fills the box (the
    caller clips), `stretch` fills it out of proportion."""
    if fit == "stretch":
        return x, y, w, h
    aspect = pic.aspect
    if (w / h > aspect) == (fit == "contain"):
        dw, dh = h * aspect, h
    else:
        dw, dh = w, w / aspect
    return x + (w - dw) / 2, y + (h - dh) / 2, dw, dh


_svg_forms: "WeakKeyDictionary[object, set[str]]" = WeakKeyDictionary()


def draw_picture(canvas, pic: Picture, x: float, y: float, w: float, h: float) -> None:
    """Draw the picture filling (x, y, w, h) in points."""
    if pic.reader is not None:
        canvas.drawImage(pic.reader, x, y, w, h, mask="auto")
        return
    from reportlab.graphics import renderPDF

    name = f"Svg{pic.digest}"
    defined = _svg_forms.setdefault(canvas, set())
    drawing = pic.drawing
    if name not in defined:
        canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.endForm()
        defined.add(name)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w / drawing.width, h / drawing.height)
    canvas.doForm(name)
    canvas.restoreState()


def dpi_at(pic: Picture, w_pt: float, h_pt: float) -> float | None:
    """The resolution a raster picture prints at when drawn w x h points; None for vectors."""
    if pic.pixels is None or w_pt <= 0 or h_pt <= 0:
        return None
    return min(pic.pixels[0] / (w_pt / 72), pic.pixels[1] / (h_pt / 72))


__all__ = ["ImageProblem", "PRINT_DPI", "Picture", "dpi_at", "draw_picture", "fitted", "image_problem", "picture",
           "resolve"]
