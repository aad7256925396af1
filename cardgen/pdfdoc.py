"""The PDF basics every output shares: units, embedded fonts, a print-ready canvas, atomic writes.

Fonts: Bitstream Vera (shipped inside reportlab) for Latin text and a TrueType Chinese font for
Chinese, found in this order: `--font PATH` (`use_cjk_font`), the environment variable
`CARDGEN_CJK_FONT`, the project's `.fonts/wqy-zenhei.ttc` (unpacked by `scripts/fetch-fonts.sh`),
then a fixed list of system font files (WenQuanYi, AR PL). Both are embedded as subsets; the canvas
starts with an embedded font so no unembedded Helvetica sneaks in. CFF-outline OpenType fonts (Noto
Sans CJK, Source Han as usually packaged) cannot be embedded by reportlab and are passed over.
"""

from __future__ import annotations

import io
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import reportlab
from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from cardgen.errors import UsageError

# Never fetch: reportlab opens URLs named in markup or image paths; content is plain text (see
# cardgen.markup), and as a second wall no scheme but inline data is trusted.
rl_config.trustedHosts = ["no-network.invalid"]
rl_config.trustedSchemes = ["data"]

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CJK_FONT_FILE = "wqy-zenhei.ttc"
FONT_ENV = "CARDGEN_CJK_FONT"
# (file, face index of the Traditional Chinese face, face index of a fixed-width face or None)
SYSTEM_CJK_FONTS = (
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0, 1),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0, 1),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 2, None),
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 2, None),
    ("/usr/local/share/fonts/wqy-zenhei.ttc", 0, 1),
    ("/Library/Fonts/Arial Unicode.ttf", 0, None),
)
HOW_TO_GET_A_FONT = (
    "run `make setup` in the project (it unpacks WenQuanYi Zen Hei into .fonts/), install Debian's "
    "fonts-wqy-zenhei or fonts-arphic-uming, or name a TrueType Chinese font with --font PATH or "
    f"{FONT_ENV}; `cardgen build --lang en` needs no Chinese font"
)

SANS = "Vera"
SANS_BOLD = "Vera-Bold"
CJK = "ZenHei"

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

CJK_MONO = "ZenHeiMono"
_registered = False
_cjk_choice: Path | None = None  # set by --font
_cjk_used: str | None = None


def use_cjk_font(path: Path | None) -> None:
    """Use this font file for Chinese (the `--font` option); None restores the search. Fonts are
    registered once per process, so a later choice cannot replace one already in use."""
    global _cjk_choice, _found
    if _cjk_used is not None and path is not None and str(Path(path)) != _cjk_used:
        raise UsageError(f"the Chinese font {_cjk_used} is already in use in this process")
    _cjk_choice = Path(path) if path is not None else None
    if _cjk_used is None:
        _found = None


def cjk_candidates() -> list[tuple[Path, int, int | None, str]]:
    """Font files to try for Chinese, in search order, with where each came from."""
    found: list[tuple[Path, int, int | None, str]] = []
    if _cjk_choice is not None:
        return [(_cjk_choice, 0, None, "--font")]
    if os.environ.get(FONT_ENV):
        return [(Path(os.environ[FONT_ENV]), 0, None, FONT_ENV)]
    for folder in (PROJECT_ROOT / ".fonts", Path.cwd() / ".fonts"):
        found.append((folder / CJK_FONT_FILE, 0, 1, ".fonts/"))
    found += [(Path(path), face, mono, "system fonts") for path, face, mono in SYSTEM_CJK_FONTS]
    return found


_found: tuple[Path, int, int | None, str] | None = None


def find_cjk_font() -> tuple[Path, int, int | None, str]:
    """The first usable Chinese font (a TrueType face that has Chinese glyphs), or a usage error
    that says how to get one. Found once per run."""
    global _found
    if _found is not None:
        return _found
    for path, face, mono, origin in cjk_candidates():
        if not path.is_file():
            if origin in ("--font", FONT_ENV):
                raise UsageError(f"{origin}: no font file at {path}")
            continue
        problem = _cjk_problem(path, face)
        if problem is None:
            _found = (path, face, mono, origin)
            return _found
        if origin in ("--font", FONT_ENV):
            raise UsageError(f"{origin}: {path} {problem}")
    raise UsageError("no Chinese font found; " + HOW_TO_GET_A_FONT)


def _cjk_problem(path: Path, face: int) -> str | None:
    try:
        font = TTFont("CardgenProbe", str(path), subfontIndex=face)
    except Exception as exc:  # reportlab raises its own TTFError, and others for broken files
        return f"cannot be embedded ({exc}); a TrueType (.ttf or .ttc) font is needed"
    if not all(ord(ch) in font.face.charToGlyph for ch in "中遊戲規則"):
        return "has no Chinese glyphs"
    return None


def latin_font_file() -> Path:
    return Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"


def register_latin_fonts() -> None:
    if SANS in pdfmetrics.getRegisteredFontNames():
        return
    vera_dir = latin_font_file().parent
    pdfmetrics.registerFont(TTFont(SANS, str(vera_dir / "Vera.ttf")))
    pdfmetrics.registerFont(TTFont(SANS_BOLD, str(vera_dir / "VeraBd.ttf")))
    pdfmetrics.registerFontFamily(SANS, normal=SANS, bold=SANS_BOLD, italic=SANS, boldItalic=SANS_BOLD)


_cjk_required = True
_english_only = False  # no Chinese font in this run: Chinese characters are left out of every page


def english_only() -> bool:
    """Whether this run prints without a Chinese font, leaving Chinese characters out."""
    return _english_only


def drop_chinese(text: str) -> str:
    """`text` without the characters only a Chinese font has (CJK scripts and full-width forms);
    a run that was Chinese goes whole, digits and all, and a bilingual one keeps its Latin words."""
    kept = "".join(ch for ch in text if ord(ch) < 0x2E80 or 0xFF61 <= ord(ch) <= 0xFFDC)
    if kept == text:
        return text
    if not any(ch.isascii() and ch.isalpha() for ch in kept):
        return ""
    return kept.strip(" ·/|-–")


class _EnglishOnlyText(PDFTextObject):
    def _formatText(self, text):
        if self._fontname in (CJK, CJK_MONO):
            text = drop_chinese(text)
        return super()._formatText(text)


class EnglishOnlyCanvas(Canvas):
    """A canvas for a run without a Chinese font: text set in the Chinese face keeps only its
    Latin characters, so no empty boxes reach the page."""

    def beginText(self, x=0, y=0, direction=None):
        return _EnglishOnlyText(self, x, y, direction=direction)


def canvas_class() -> type[Canvas]:
    return EnglishOnlyCanvas if _english_only else Canvas


def require_cjk(required: bool) -> None:
    """Whether this run prints Chinese (an English-only build runs without any Chinese font)."""
    global _cjk_required
    _cjk_required = required


def register_fonts() -> None:
    """Register the embedded fonts once per process; a missing Chinese font is a usage error,
    except in an English-only run, where the Chinese face's name stands for the Latin face (any
    Chinese character that still reaches a page is then caught by the preflight)."""
    global _registered, _cjk_used, _english_only
    if _registered:
        return
    register_latin_fonts()
    try:
        path, face, mono, _ = find_cjk_font()
    except UsageError:
        if _cjk_required:
            raise
        _english_only = True
        pdfmetrics.registerFont(TTFont(CJK, str(latin_font_file())))
        pdfmetrics.registerFont(TTFont(CJK_MONO, str(latin_font_file())))
        pdfmetrics.registerFontFamily(CJK, normal=CJK, bold=CJK, italic=CJK, boldItalic=CJK)
        _registered = True
        return
    pdfmetrics.registerFont(TTFont(CJK, str(path), subfontIndex=face))
    pdfmetrics.registerFont(TTFont(CJK_MONO, str(path), subfontIndex=face if mono is None else mono))
    pdfmetrics.registerFontFamily(CJK, normal=CJK, bold=CJK, italic=CJK, boldItalic=CJK)
    _cjk_used = str(path)
    _registered = True


def cjk_font_description() -> str:
    """Which Chinese font this run uses and where it was found (for the build's report)."""
    try:
        path, face, _, origin = find_cjk_font()
    except UsageError:
        if _cjk_required:
            raise
        return "none found; building English only"
    return f"{path} (face {face}, from {origin})"


def font_for(lang: str, bold: bool = False) -> str:
    """The font that has the glyphs of `lang` (the CJK face also covers Latin text)."""
    if lang.startswith("zh"):
        return CJK
    return SANS_BOLD if bold else SANS


def new_canvas(target, page_size: tuple[float, float], title: str, duplex: str | None = None) -> Canvas:
    """A deterministic canvas that asks viewers to print at actual size (and duplex, if given:
    'DuplexFlipLongEdge' or 'DuplexFlipShortEdge')."""
    register_fonts()
    c = canvas_class()(target, pagesize=page_size, invariant=1, initialFontName=SANS, initialFontSize=10,
               pageCompression=1)
    c.setTitle(title)
    c.setAuthor("cardgen")
    c.setCreator("cardgen")
    c.setSubject(title)
    c.setViewerPreference("PrintScaling", "None")
    if duplex:
        c.setViewerPreference("Duplex", duplex)
    return c


@contextmanager
def atomic_output(path: Path) -> Iterator[io.BytesIO]:
    """Collect a file's bytes and move it into place only when complete; nothing on failure."""
    path = Path(path)
    buffer = io.BytesIO()
    yield buffer
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(buffer.getvalue())
        # mkstemp makes the file private; a finished PDF gets the usual permissions.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


__all__ = ["mm", "PAPER_MM", "SANS", "SANS_BOLD", "CJK", "CJK_MONO", "register_fonts", "require_cjk", "use_cjk_font", "cjk_font_description", "font_for", "new_canvas", "atomic_output"]
