"""The PDF basics every output shares: units, embedded fonts, a print-ready canvas, atomic writes.

Fonts: Bitstream Vera (shipped inside reportlab) for Latin text and WenQuanYi Zen Hei (unpacked by
`scripts/fetch-fonts.sh` into `.fonts/`) for Chinese. Both are TrueType, so reportlab embeds them
as subsets; the canvas starts with an embedded font so no unembedded Helvetica sneaks in.
"""

from __future__ import annotations

import io
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import reportlab
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from cardgen.errors import UsageError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = Path(os.environ.get("CARDGEN_FONT_DIR", PROJECT_ROOT / ".fonts"))
CJK_FONT_FILE = "wqy-zenhei.ttc"

SANS = "Vera"
SANS_BOLD = "Vera-Bold"
CJK = "ZenHei"

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

_registered = False


def register_fonts() -> None:
    """Register the embedded fonts once per process; a missing Chinese font is a usage error."""
    global _registered
    if _registered:
        return
    vera_dir = Path(reportlab.__file__).parent / "fonts"
    pdfmetrics.registerFont(TTFont(SANS, str(vera_dir / "Vera.ttf")))
    pdfmetrics.registerFont(TTFont(SANS_BOLD, str(vera_dir / "VeraBd.ttf")))
    cjk_path = FONT_DIR / CJK_FONT_FILE
    if not cjk_path.is_file():
        raise UsageError(f"Chinese font not found at {cjk_path}; run `make setup` (scripts/fetch-fonts.sh)")
    pdfmetrics.registerFont(TTFont(CJK, str(cjk_path), subfontIndex=0))
    pdfmetrics.registerFontFamily(SANS, normal=SANS, bold=SANS_BOLD, italic=SANS, boldItalic=SANS_BOLD)
    pdfmetrics.registerFontFamily(CJK, normal=CJK, bold=CJK, italic=CJK, boldItalic=CJK)
    _registered = True


def font_for(lang: str, bold: bool = False) -> str:
    """The font that has the glyphs of `lang` (the CJK face also covers Latin text)."""
    if lang.startswith("zh"):
        return CJK
    return SANS_BOLD if bold else SANS


def new_canvas(target, page_size: tuple[float, float], title: str, duplex: str | None = None) -> Canvas:
    """A deterministic canvas that asks viewers to print at actual size (and duplex, if given:
    'DuplexFlipLongEdge' or 'DuplexFlipShortEdge')."""
    register_fonts()
    c = Canvas(target, pagesize=page_size, invariant=1, initialFontName=SANS, initialFontSize=10,
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


__all__ = ["mm", "PAPER_MM", "SANS", "SANS_BOLD", "CJK", "register_fonts", "font_for", "new_canvas", "atomic_output"]
