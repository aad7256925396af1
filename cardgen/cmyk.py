"""CMYK files for print shops that ask for them: every colour a face draws is converted from sRGB
through a CMYK ICC profile with LittleCMS (Pillow's ImageCms), raster art included; the file names
the profile as its PDF/X output intent and carries the PDF/X-1a:2001 keys; and no colour may need
more ink than the profile's limit (the sum of the four inks, in percent).

The profile is Ghostscript's SWOP CMYK profile (Debian's libgs-common), which `make setup` unpacks
into `.icc/`; a system copy or `CARDGEN_CMYK_PROFILE` also serve. Without one, the CMYK file is
left out with one line saying how to get it.
"""

from __future__ import annotations

import hashlib
import io
import os
from functools import lru_cache
from pathlib import Path

from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDate, PDFDictionary, PDFInfo, PDFName, PDFStream, PDFString
from reportlab.pdfgen.canvas import Canvas

from cardgen.errors import ContentError, ContentErrors

PROFILE_ENV = "CARDGEN_CMYK_PROFILE"
PROFILE_FILE = "default_cmyk.icc"
SYSTEM_PROFILES = (
    "/usr/share/color/icc/ghostscript/default_cmyk.icc",
    "/usr/share/ghostscript/iccprofiles/default_cmyk.icc",
)
PROFILE_NAME = "SWOP (Artifex CMYK SWOP profile)"
HOW_TO_GET_A_PROFILE = ("run `make setup` in the project (it unpacks Ghostscript's CMYK profile into .icc/), "
                        f"install Debian's libgs-common, or name a CMYK ICC profile with {PROFILE_ENV}")


def find_profile() -> Path | None:
    """The CMYK ICC profile to convert through, or None."""
    from cardgen.pdfdoc import PROJECT_ROOT

    candidates = [os.environ.get(PROFILE_ENV, ""), str(PROJECT_ROOT / ".icc" / PROFILE_FILE), *SYSTEM_PROFILES]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


class Converter:
    """sRGB to CMYK through an ICC profile (perceptual intent), one conversion per distinct colour;
    remembers the most ink any colour drawn needs."""

    def __init__(self, profile: Path, ink_limit: float):
        from PIL import ImageCms

        self.profile_bytes = profile.read_bytes()
        cmyk = ImageCms.ImageCmsProfile(io.BytesIO(self.profile_bytes))
        self._transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), cmyk, "RGB", "CMYK",
                                                  renderingIntent=0)  # perceptual
        self.ink_limit = ink_limit
        self.over_limit: dict[str, float] = {}  # colour as written -> its ink, for every colour over the limit
        self.see_through: set[float] = set()  # every opacity below 1 asked for (PDF/X-1a has no transparency)

    @lru_cache(maxsize=4096)
    def _rgb(self, r: int, g: int, b: int) -> tuple[float, float, float, float]:
        from PIL import Image, ImageCms

        pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), (r, g, b)), self._transform).getpixel((0, 0))
        return tuple(v / 255 for v in pixel)

    def __call__(self, colour) -> CMYKColor:
        """A colour as reportlab's canvas takes it, as the CMYK colour to print."""
        if isinstance(colour, (tuple, list)) and len(colour) == 4:
            colour = CMYKColor(*colour)
        if not isinstance(colour, CMYKColor):
            rgb = toColor(colour) if not isinstance(colour, Color) else colour
            c, m, y, k = self._rgb(*(int(round(v * 255)) for v in (rgb.red, rgb.green, rgb.blue)))
            colour = CMYKColor(c, m, y, k, alpha=rgb.alpha)
        d = colour.density
        ink = 100 * d * (colour.cyan + colour.magenta + colour.yellow + colour.black)
        if ink > self.ink_limit + 0.5:
            self.over_limit[f"C{colour.cyan:.2f} M{colour.magenta:.2f} Y{colour.yellow:.2f} K{colour.black:.2f}"] = ink
        return colour

    def image(self, pil_image):
        """Raster art converted through the same profile."""
        from PIL import ImageCms

        return ImageCms.applyTransform(pil_image.convert("RGB"), self._transform)


class _PdfxInfo(PDFInfo):
    """The document information with the PDF/X-1a:2001 keys."""

    def format(self, document):
        date = PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        return PDFDictionary({
            "Title": PDFString(self.title), "Author": PDFString(self.author), "Subject": PDFString(self.subject),
            "Keywords": PDFString(self.keywords), "Creator": PDFString(self.creator),
            "Producer": PDFString(self.producer), "CreationDate": date, "ModDate": date,
            "Trapped": PDFName(self.trapped),
            "GTS_PDFXVersion": PDFString("PDF/X-1:2001"), "GTS_PDFXConformance": PDFString("PDF/X-1a:2001"),
        }).format(document)


class CmykCanvas(Canvas):
    """A canvas whose every fill and stroke colour and every image is converted to CMYK. Its file is
    PDF 1.3, as PDF/X-1a:2001 asks: every colour is opaque, so setting a colour (which carries an
    opacity of 1) changes nothing and does not mark the file as using transparency, as reportlab
    would; an opacity below 1 is remembered by the converter, and `check_ink` refuses the file."""

    converter: Converter

    def _opacity(self, value: float) -> None:
        if value < 1:
            self.converter.see_through.add(value)

    _setFillAlpha = _setStrokeAlpha = _opacity  # reportlab's names

    def beginText(self, *args, **kwargs):  # noqa: N802 (reportlab's name)
        text = super().beginText(*args, **kwargs)
        text._setFillAlpha = text._setStrokeAlpha = self._opacity  # text colours are opaque the same way
        return text

    def drawImage(self, image, *args, **kwargs):  # noqa: N802 (reportlab's name)
        return super().drawImage(self._cmyk_image(image), *args, **kwargs)

    def drawInlineImage(self, image, *args, **kwargs):  # noqa: N802
        return super().drawInlineImage(self._cmyk_image(image), *args, **kwargs)

    def _cmyk_image(self, image):
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        if isinstance(image, ImageReader):
            image = image._image if getattr(image, "_image", None) is not None else Image.open(image.fp)
        elif isinstance(image, (str, Path)):
            image = Image.open(image)
        return ImageReader(self.converter.image(image))


def cmyk_canvas(target, page_size, title: str, converter: Converter) -> CmykCanvas:
    """A deterministic CMYK canvas that declares the converter's profile as its output intent."""
    from cardgen.pdfdoc import SANS, register_fonts

    register_fonts()
    canvas = CmykCanvas(target, pagesize=page_size, invariant=1, initialFontName=SANS, initialFontSize=10,
                        pageCompression=1, enforceColorSpace=converter)
    canvas.converter = converter
    canvas.setTitle(title)
    canvas.setAuthor("cardgen")
    canvas.setCreator("cardgen")
    canvas.setViewerPreference("PrintScaling", "None")
    document = canvas._doc
    info = _PdfxInfo()
    info.__dict__.update(document.info.__dict__)
    document.info = info
    icc = PDFStream(PDFDictionary({"N": 4}), converter.profile_bytes)
    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString("CGATS TR 001"), "OutputCondition": PDFString(PROFILE_NAME),
        "RegistryName": PDFString("http://www.color.org"), "Info": PDFString(PROFILE_NAME),
        "DestOutputProfile": document.Reference(icc, f"ICC{hashlib.sha1(converter.profile_bytes).hexdigest()[:8]}"),
    })
    catalog = document.Catalog
    catalog.__NoDefault__ = [*type(catalog).__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = PDFArray([intent])
    return canvas


def check_ink(converter: Converter, path: Path) -> None:
    """Stop with a located error when a colour needs more ink than the profile allows, or when
    something was drawn see-through (PDF/X-1a allows no transparency)."""
    errors = []
    if converter.over_limit:
        worst = sorted(converter.over_limit.items(), key=lambda item: -item[1])
        errors += [ContentError(str(path), 0, 0, "ink",
                                f"{name} needs {ink:.0f} % ink; the profile allows {converter.ink_limit:g} %")
                   for name, ink in worst[:10]]
    if converter.see_through:
        errors.append(ContentError(str(path), 0, 0, "opacity",
                                   f"something is drawn see-through (opacity {min(converter.see_through):g}); a "
                                   "PDF/X-1a file allows no transparency: draw it opaque"))
    if errors:
        raise ContentErrors(errors)


__all__ = ["Converter", "HOW_TO_GET_A_PROFILE", "check_ink", "cmyk_canvas", "find_profile"]
