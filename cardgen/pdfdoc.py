"""The PDF basics every output shares: units, embedded fonts, a print-ready canvas, atomic writes.

Fonts: Bitstream Vera (shipped inside reportlab) for Latin text and a Chinese font for Chinese,
found in this order: `--font PATH` (`use_cjk_font`), the environment variable `CARDGEN_CJK_FONT`,
the project's `.fonts/wqy-zenhei.ttc` (unpacked by `scripts/fetch-fonts.sh`), then the platform's
own lookup (`cardgen.fontsearch`: fontconfig, the usual font folders, or the folders of
`CARDGEN_FONT_PATH`). A font with CFF outlines (Noto Sans CJK) is embedded through a TrueType copy
made once and cached. Both fonts are embedded as subsets; the canvas starts with an embedded font
so no unembedded Helvetica sneaks in.
"""

from __future__ import annotations

import io
import os
import tempfile
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Iterator

import reportlab
from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.pdfdoc import PDFStreamFilterZCompress, PDFZCompress
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace
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
HOW_TO_GET_A_FONT = (
    "install a Chinese font (Debian and Ubuntu: fonts-noto-cjk or fonts-wqy-zenhei; macOS and Windows "
    f"have one) or name one with --font PATH or {FONT_ENV} (in the project's folder, `make setup` fetches one)"
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
    """Font files to try for Chinese, in search order, with where each came from. A face of -1
    is chosen when the file is probed."""
    from cardgen.fontsearch import platform_candidates

    if _cjk_choice is not None:
        return [(_cjk_choice, -1, None, "--font")]
    if os.environ.get(FONT_ENV):
        return [(Path(os.environ[FONT_ENV]), -1, None, FONT_ENV)]
    found: list[tuple[Path, int, int | None, str]] = []
    for folder in (PROJECT_ROOT / ".fonts", Path.cwd() / ".fonts"):
        found.append((folder / CJK_FONT_FILE, 0, 1, ".fonts/"))
    return found + platform_candidates()


_found: tuple[Path, int, int | None, str] | None = None


def find_cjk_font() -> tuple[Path, int, int | None, str]:
    """The first usable Chinese font as (embeddable TrueType file, face, fixed-width face, where
    it came from), or a usage error that says how to get one. A CFF-outline font is replaced by
    its cached TrueType copy. Found once per run."""
    global _found
    if _found is not None:
        return _found
    from cardgen.fontsearch import chinese_face, truetype_copy

    for path, face, mono, origin in cjk_candidates():
        named = origin in ("--font", FONT_ENV)
        if not path.is_file():
            if named:
                raise UsageError(f"{origin}: no font file at {path}")
            continue
        chosen = chinese_face(path, face)
        if chosen is None:
            if named:
                raise UsageError(f"{origin}: {path} is not a font with Chinese glyphs")
            continue
        index, truetype = chosen
        embedded = path if truetype else truetype_copy(path, index, announce=_announce)
        if not truetype:
            origin = f"{origin}, TrueType copy of {path}"
            index, mono = 0, None
        _found = (embedded, index, mono if index == face else None, origin)
        return _found
    raise NoChineseFont("no Chinese font found; " + HOW_TO_GET_A_FONT)


class NoChineseFont(UsageError):
    """The search found no Chinese font (a font the user named but that is unusable is a plain
    UsageError)."""


def chinese_font_found() -> bool:
    """Whether a Chinese font can be had; a font named by the user that is unusable still raises."""
    try:
        find_cjk_font()
    except NoChineseFont:
        return False
    return True


def _announce(message: str) -> None:
    import sys

    print(message, file=sys.stderr, flush=True)


def latin_font_file() -> Path:
    return Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"


_faces: dict[tuple[str, int], TTFontFace] = {}


def parsed_face(path: Path, index: int = 0) -> TTFontFace:
    """The parsed face `index` of a font file, parsed once per process: the Chinese font is large,
    and the glyph check and the canvas both need it."""
    key = (str(path), index)
    if key not in _faces:
        _faces[key] = _RememberedFace(str(path), subfontIndex=index)
    return _faces[key]


class _RememberedFace(TTFontFace):
    """A font face whose metrics and character tables, once read from the file, are kept in the
    cache folder under the file's path, size and time and reportlab's version: reading the Chinese
    font's tables takes about 0.3 s, reading the kept copy about a third of that. A kept copy that
    cannot be read is read from the font again. The glyphs themselves always come from the file.
    Within a run, each embedded subset of the face is made and compressed once."""

    def extractInfo(self, charInfo=1):
        record = _face_record(self.filename, self.subfontNameX, charInfo)
        kept = _read_face_record(record) if record is not None else None
        if kept is not None:
            self.__dict__.update(kept)
            self._pdfScale = _font_units_to_points(self.unitsPerEm)
            return
        before = dict(self.__dict__)
        super().extractInfo(charInfo)
        if record is not None:
            found = {name: value for name, value in self.__dict__.items()
                     if name != "_pdfScale" and before.get(name, _UNSET) is not value}
            _write_face_record(record, found)

    def makeSubset(self, subset):
        # The same glyphs in the same order make the same embedded font: the card sheets of every
        # layout and paper, and a rule sheet on both papers, embed the same subsets.
        made = self.__dict__.setdefault("_made_subsets", {})
        key = tuple(subset)
        if key not in made:
            if len(made) >= KEPT_STREAMS:
                made.clear()
            made[key] = super().makeSubset(subset)
        return made[key]

    def addSubsetObjects(self, doc, fontname, subset):
        reference = super().addSubsetObjects(doc, fontname, subset)
        # ... and the same embedded font compresses to the same bytes: compressed once.
        stream = doc.idToObject.get(f"fontFile:{self.filename}({fontname})")
        if stream is not None and stream.filters == [PDFZCompress]:
            stream.filters = [_KEPT_FLATE]
        return reference


KEPT_STREAMS = 256  # far more distinct embedded fonts than a whole build makes


class _KeptFlate(PDFStreamFilterZCompress):
    """Flate compression that keeps what it compressed, for streams that recur unchanged (the
    embedded fonts): the same bytes out as compressing again."""

    def __init__(self):
        self.kept: dict[bytes, bytes] = {}

    def encode(self, text):
        if not isinstance(text, bytes):
            return super().encode(text)
        if text not in self.kept:
            if len(self.kept) >= KEPT_STREAMS:
                self.kept.clear()
            self.kept[text] = super().encode(text)
        return self.kept[text]


_KEPT_FLATE = _KeptFlate()


_UNSET = object()


def _font_units_to_points(units_per_em: int):
    """Font units to thousandths of the font size, as reportlab scales them."""
    if units_per_em == 1000:
        return lambda value: value
    factor = 1000 / units_per_em
    return lambda value: value * factor


def _face_record(filename: str, subfont: bytes, char_info) -> Path | None:
    import hashlib

    from cardgen.buildcache import cache_dir

    try:
        status = os.stat(filename)
    except OSError:
        return None
    identity = (f"{Path(filename).resolve()}\0{status.st_size}\0{status.st_mtime_ns}\0{subfont!r}\0{char_info}"
                f"\0{reportlab.Version}")
    return cache_dir() / "fonts-parsed" / f"{hashlib.sha256(identity.encode('utf-8')).hexdigest()}.marshal"


def _read_face_record(record: Path) -> dict | None:
    import marshal

    try:
        names, fields = marshal.loads(record.read_bytes())
        if not (isinstance(names, dict) and isinstance(fields, dict) and "unitsPerEm" in fields):
            return None
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return {**fields, **{name: ttfonts.TTFNameBytes(value) for name, value in names.items()}}


def _write_face_record(record: Path, found: dict) -> None:
    import marshal

    from cardgen.buildcache import write_record

    names = {name: bytes(value) for name, value in found.items() if isinstance(value, ttfonts.TTFNameBytes)}
    fields = {name: value for name, value in found.items() if name not in names}
    try:
        data = marshal.dumps((names, fields))
    except ValueError:  # a field marshal cannot hold: nothing is kept
        return
    write_record(record, data)


def _truetype_font(name: str, path: Path, index: int = 0) -> TTFont:
    """A reportlab TrueType font named `name` on the face `parsed_face` keeps, so registering it
    parses nothing again."""
    face = parsed_face(path, index)
    constructor = ttfonts.TTFontFace
    ttfonts.TTFontFace = lambda *args, **kwargs: face  # TTFont.__init__ looks the class up at call time
    try:
        return TTFont(name, str(path), subfontIndex=index)
    finally:
        ttfonts.TTFontFace = constructor


class _FontsOnDemand(dict):
    """reportlab's table of registered fonts, which parses a font named in `_on_demand` the first
    time a page sets text in it: a file with no Chinese text, or a run without the fixed-width
    face, never parses the Chinese font."""

    def __missing__(self, name):
        make = _on_demand.pop(name, None)
        if make is None:
            raise KeyError(name)
        pdfmetrics.registerFont(make())
        return dict.__getitem__(self, name)


_on_demand: dict = {}


def _register_on_demand(name: str, path: Path, index: int) -> None:
    if not isinstance(pdfmetrics._fonts, _FontsOnDemand):
        pdfmetrics._fonts = _FontsOnDemand(pdfmetrics._fonts)
    _on_demand[name] = partial(_truetype_font, name, path, index)


def register_latin_fonts() -> None:
    if SANS in pdfmetrics.getRegisteredFontNames():
        return
    vera_dir = latin_font_file().parent
    pdfmetrics.registerFont(_truetype_font(SANS, vera_dir / "Vera.ttf"))
    pdfmetrics.registerFont(_truetype_font(SANS_BOLD, vera_dir / "VeraBd.ttf"))
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
    _register_on_demand(CJK, path, face)
    _register_on_demand(CJK_MONO, path, face if mono is None else mono)
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
