"""Card faces and backs described as data: a list of elements per deck and per back, drawn in order.

A layout lives in a game's `layout.yaml` or under `layout:` in its `game.yaml`:

    layout:
      fonts: {title: fonts/Title.ttf}          # TrueType files in the game's folder
      icons: {coin: images/coin.png}           # drawn where a text says :coin:
      faces:
        default:                               # or a deck id
          - {type: background, colour: {by: suit, map: {hearts: "#f6d5d5"}, default: "#ffffff"}}
          - {type: text, text: "{name}", x: 5, y: 5, width: 53, height: 10, size: 14, font: title}
          - {type: image, file: "{art}", x: 5, y: 18, width: 53, height: 40}
          - {type: text, text: "{cost} :coin:", anchor: bottom-right, x: -5, y: -5, width: 20, height: 8}
      backs:
        red: [...]

Positions are millimetres: `x` to the right and `y` down from the `anchor`, a point of the card's
trim (top-left unless named: top, top-right, left, center, right, bottom-left, bottom,
bottom-right), where the element's own point of the same name is placed. A `background` covers
the trim and the bleed. A value may be picked by a card's field: `{by: suit, map: {...}, default:
...}`. Texts are templates: `{name}` is the card's field, `{{` and `}}` print braces; a text is
plain text, drawn as the characters it holds. A text that does not fit its box shrinks (unless
`shrink: false`); below the 7 pt minimum it goes on shrinking only so that the preflight reports it.
`hang: 3` starts the second and later lines of each paragraph 3 mm in, for lists.

`check_layout` finds every fault before anything is drawn, each located to the layout's file, line
and key (or, for a picture a card names, to the card's cell); `draw_elements` draws.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.errors import ContentError
from cardgen.faces import INK, MIN_TEXT_PT, fill_bleed, ink_for
from cardgen.images import ImageProblem, draw_picture, fitted, picture, resolve
from cardgen.layout import Rect
from cardgen.pdfdoc import CJK, SANS, SANS_BOLD, mm

BUILTIN_FONTS = {"sans": SANS, "sans-bold": SANS_BOLD, "cjk": CJK}
FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
ICON = re.compile(r":([a-z][a-z0-9_-]{0,31}):")
SMALLEST_PT = 2.0  # a text that cannot fit even here is left at this size (and the preflight says so)
DEFAULT_BACK_COLOUR = "#3a4a6b"
HORIZONTAL = {"left": 0.0, "center": 0.5, "right": 1.0}
VERTICAL = {"top": 0.0, "middle": 0.5, "bottom": 1.0}


@dataclass(frozen=True)
class Source:
    """Where a layout is written: the content file stem and the JSON path of the layout in it."""

    stem: str
    prefix: tuple


def layout_source(content) -> Source | None:
    if isinstance(content.files.get("layout"), dict):
        return Source("layout", ())
    if isinstance(content.game.get("layout"), dict):
        return Source("game", ("layout",))
    return None


def layout_of(content) -> dict:
    source = layout_source(content)
    if source is None:
        return {}
    node = content.files[source.stem]
    for key in source.prefix:
        node = node[key]
    return node


# --- values and templates -----------------------------------------------------------------------

class ValueProblem(Exception):
    """A value that cannot be worked out for a card: (message, field the card lacks or None)."""

    def __init__(self, message: str, field: str | None = None, key: tuple = ()):
        super().__init__(message)
        self.field = field
        self.key = key  # path under the value where the problem lies (e.g. ("map", "hearts"))


def pick_language(value, lang: str, languages) -> str:
    """A field's text in `lang`: a text object gives that language (or its first), a number its
    plain form."""
    if isinstance(value, dict):
        for choice in (lang, *languages, "en", *value):
            if choice in value:
                return str(value[choice])
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def choose(value, fields: dict, lang: str, languages) -> Any:
    """`value` itself, or the entry its `by:` field picks for this card."""
    if isinstance(value, dict) and "by" in value:
        name = value["by"]
        if name not in fields:
            raise ValueProblem(f"no field {name!r}", name)
        key = pick_language(fields[name], lang, languages)
        if key in value["map"]:
            return value["map"][key]
        if "default" in value:
            return value["default"]
        known = ", ".join(repr(k) for k in value["map"])
        raise ValueProblem(f"{name} {key!r}, which the map does not list ({known}) and there is no default", name)
    return value


def fill_template(text: str, fields: dict, lang: str, languages) -> str:
    def field(match):
        if match.group(1) is None:
            return match.group(0)[0]
        name = match.group(1).strip()
        if name not in fields:
            raise ValueProblem(f"no field {name!r}", name)
        return pick_language(fields[name], lang, languages)

    return FIELD.sub(field, text)


def template_fields(text: str) -> list[str]:
    return [m.group(1).strip() for m in FIELD.finditer(text) if m.group(1) is not None]


def value_for(value, fields: dict, lang: str, languages) -> Any:
    """The value after `by:` selection and, for text, template filling."""
    chosen = choose(value, fields, lang, languages)
    return fill_template(chosen, fields, lang, languages) if isinstance(chosen, str) else chosen


# --- fonts ----------------------------------------------------------------------------------------

_font_names: dict[tuple[str, str], str] = {}


def font_file(root: Path, name: str) -> Path:
    path = resolve(root, name, (".ttf",))
    if not path.is_file():
        raise ImageProblem(f"{name[:80]!r} not found in the game's folder")
    return path


def register_font(root: Path, file_name: str) -> str:
    """Register a TrueType font of the game's folder once; its reportlab name."""
    path = font_file(root, file_name)
    key = (str(path.resolve()), str(path.stat().st_mtime_ns))
    if key not in _font_names:
        raw = path.read_bytes()
        name = "Data" + hashlib.sha256(raw).hexdigest()[:12]
        if name not in pdfmetrics.getRegisteredFontNames():
            import io

            try:
                pdfmetrics.registerFont(TTFont(name, io.BytesIO(raw)))
            except Exception as exc:  # reportlab's TTFError and others for broken or CFF fonts
                raise ImageProblem(f"{file_name[:80]!r} cannot be embedded ({str(exc)[:100]}); "
                                   "a TrueType (.ttf) font is needed") from None
        _font_names[key] = name
    return _font_names[key]


def font_name(content, element: dict, text: str) -> str:
    """The reportlab font an element's text is set in: a font the layout names, a built-in one,
    or by default the Chinese face for text with Chinese characters and Vera for the rest."""
    chosen = element.get("font")
    if chosen is None:
        return CJK if any(ord(ch) >= 0x2E80 for ch in text) else SANS
    if chosen in BUILTIN_FONTS:
        return BUILTIN_FONTS[chosen]
    return register_font(content.root, layout_of(content)["fonts"][chosen])


# --- geometry -------------------------------------------------------------------------------------

def box(element: dict, rect: Rect) -> Rect:
    """The element's box in points: its anchor point placed at the card's point of that name,
    moved by x (right) and y (down)."""
    x, y = element.get("x", 0) * mm, element.get("y", 0) * mm
    if element["type"] == "circle":
        w = h = 2 * element["radius"] * mm
    else:
        w = element["width"] * mm if "width" in element else max(rect.w - 2 * abs(x), 1.0)
        h = element["height"] * mm if "height" in element else max(rect.h - 2 * abs(y), 1.0)
    anchor = element.get("anchor", "top-left")
    vertical, _, horizontal = anchor.partition("-") if "-" in anchor else (anchor, "", anchor)
    fx = HORIZONTAL.get(horizontal, 0.5)
    fy = VERTICAL.get({"center": "middle", "bottom": "bottom", "top": "top"}.get(vertical, "middle"), 0.5)
    left = rect.x + fx * rect.w + x - fx * w
    top = rect.top - fy * rect.h - y + fy * h
    return Rect(left, top - h, w, h)


# --- text -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    text: str  # a word, a Chinese character, or "" for an icon
    icon: str | None
    space_before: bool


def pieces(text: str, icons: dict) -> Iterator[Piece | None]:
    """The text as breakable pieces; None marks a forced line break."""
    for n, line in enumerate(text.split("\n")):
        if n:
            yield None
        for w, word in enumerate(line.split(" ")):
            if not word:
                continue
            space = w > 0  # a space before the word's first piece only
            at = 0
            for match in ICON.finditer(word):
                if match.group(1) not in icons:
                    continue  # an unknown :name: is printed as written
                yield from _split_chinese(word[at:match.start()], space)
                if match.start() > at:
                    space = False
                yield Piece("", match.group(1), space)
                space = False
                at = match.end()
            yield from _split_chinese(word[at:], space)


def _split_chinese(text: str, space_before: bool) -> Iterator[Piece]:
    """A run of Chinese characters breaks between any two; Latin words stay whole."""
    if not text:
        return
    run = ""
    for ch in text:
        if ord(ch) >= 0x2E80:
            if run:
                yield Piece(run, None, space_before)
                space_before = False
                run = ""
            yield Piece(ch, None, space_before)
            space_before = False
        else:
            run += ch
    if run:
        yield Piece(run, None, space_before)


def _width(piece: Piece, font: str, size: float, icon_aspects: dict) -> float:
    if piece.icon is not None:
        return size * icon_aspects[piece.icon]
    return pdfmetrics.stringWidth(piece.text, font, size)


def set_lines(all_pieces: list, font: str, size: float, width: float, wrap: bool, icon_aspects: dict,
              hang: float = 0.0):
    """Lines of pieces no wider than `width` (when wrapping); each line as (pieces, width). Each
    paragraph whose last line would be a short remnant (a word or a Chinese character or two) is
    broken again at the narrowest width that needs no more lines, which evens its lines out. With
    `hang`, a paragraph's second and later lines start that far in (a hanging indent for lists)."""
    paragraphs: list[list] = [[]]
    for piece in all_pieces:
        if piece is None:
            paragraphs.append([])
        else:
            paragraphs[-1].append(piece)
    lines = []
    for paragraph in paragraphs:
        greedy = _greedy_lines(paragraph, font, size, width, wrap, icon_aspects, hang)
        if wrap and len(greedy) > 1 and greedy[-1][1] < 0.3 * width:
            low, high = 0.0, width
            for _ in range(12):
                middle = (low + high) / 2
                if len(_greedy_lines(paragraph, font, size, middle, wrap, icon_aspects, hang)) <= len(greedy):
                    high = middle
                else:
                    low = middle
            greedy = _greedy_lines(paragraph, font, size, high, wrap, icon_aspects, hang)
        lines += greedy
    return lines


def _greedy_lines(paragraph: list, font: str, size: float, width: float, wrap: bool, icon_aspects: dict,
                  hang: float = 0.0):
    space = pdfmetrics.stringWidth(" ", font, size)
    lines, current, used = [], [], 0.0
    for piece in paragraph:
        w = _width(piece, font, size, icon_aspects)
        gap = space if piece.space_before and current else 0.0
        if wrap and current and used + gap + w > width:
            carried = []
            if piece.text and piece.text in "，。、；：！？）」』" and len(current) > 1:
                # No closing mark starts a Chinese line: the character before it goes down with it.
                carried = [current.pop()[0]]
                used = sum(g + _width(p, font, size, icon_aspects) for p, g in current)
            lines.append((current, used))
            current, used = [], 0.0
            for moved in carried:  # the hanging indent: a gap before the line's first piece
                current.append((moved, hang))
                used += hang + _width(moved, font, size, icon_aspects)
            gap = 0.0 if carried else hang
        current.append((piece, gap))
        used += gap + w
    lines.append((current, used))
    return lines


_fitted: dict[tuple, tuple] = {}


def fit_text(text: str, font: str, element: dict, area: Rect, icon_aspects: dict, icons: dict):
    """(size, lines) for the text in its box: the element's size, smaller if needed and allowed.
    Worked out once per text, box and style: every copy, layout and paper sets it the same way."""
    key = (text, font, element.get("size"), element.get("leading"), element.get("wrap"), element.get("shrink"), element.get("hang"),
           round(area.w, 3), round(area.h, 3), tuple(sorted(icon_aspects.items())))
    if key not in _fitted:
        _fitted[key] = _fit_text(text, font, element, area, icon_aspects, icons)
    return _fitted[key]


def _fit_text(text: str, font: str, element: dict, area: Rect, icon_aspects: dict, icons: dict):
    size = float(element.get("size", 10))
    leading = float(element.get("leading", 1.2))
    wrap = element.get("wrap", True)
    all_pieces = list(pieces(text, icons))
    while True:
        lines = set_lines(all_pieces, font, size, area.w, wrap, icon_aspects, float(element.get("hang", 0)) * mm)
        tall = size + (len(lines) - 1) * size * leading
        fits = tall <= area.h + 0.01 and all(w <= area.w + 0.01 for _, w in lines)
        if fits or not element.get("shrink", True) or size <= SMALLEST_PT:
            return size, lines
        size = max(SMALLEST_PT, size - (0.5 if size > MIN_TEXT_PT + 1 else 0.25))


def draw_text(canvas, content, element: dict, text: str, colour, area: Rect, icons: dict) -> None:
    font = font_name(content, element, text)
    icon_pictures = {name: picture(content.root, layout_of(content)["icons"][name]) for name in icons}
    aspects = {name: pic.aspect for name, pic in icon_pictures.items()}
    size, lines = fit_text(text, font, element, area, aspects, icons)
    leading = float(element.get("leading", 1.2)) * size
    face = pdfmetrics.getFont(font).face
    ascent = getattr(face, "ascent", 750) / 1000 * size
    descent = -getattr(face, "descent", -250) / 1000 * size
    tall = ascent + descent + (len(lines) - 1) * leading
    vertical = VERTICAL[element.get("valign", "top")]
    baseline = area.top - ascent - vertical * (area.h - tall)
    horizontal = HORIZONTAL[element.get("align", "left")]
    canvas.setFillColor(colour)
    canvas.setFont(font, size)
    for line, used in lines:
        x = area.x + horizontal * (area.w - used)
        words = ""  # the words since the last icon, drawn as one string so the line reads as one
        for piece, gap in line:
            if piece.icon is not None:
                if words:
                    canvas.drawString(x, baseline, words)
                    x += pdfmetrics.stringWidth(words, font, size)
                    words = ""
                x += gap
                w = size * aspects[piece.icon]
                draw_picture(canvas, icon_pictures[piece.icon], x, baseline - descent, w, size)
                x += w
            elif gap and not words:
                x += gap
                words = piece.text
            else:
                words += (" " if gap else "") + piece.text
        if words:
            canvas.drawString(x, baseline, words)
        baseline -= leading


# --- drawing --------------------------------------------------------------------------------------

def elements_for_face(content, card: dict) -> list[dict]:
    faces = layout_of(content).get("faces", {})
    return faces.get(card["deck"], faces.get("default", []))


def back_elements(content, back_id: str) -> list[dict] | None:
    backs = layout_of(content).get("backs", {})
    return backs.get(back_id, backs.get("default"))


def face_fields(content, card: dict) -> dict:
    return card


def back_fields(content, back_id: str) -> dict:
    back = content.game["backs"][back_id]
    # A back may carry fields of its own (a reference card's back prints the card's other language).
    return {**back.get("fields", {}), "id": back_id, "title": back.get("title", content.title), "game": content.title,
            "colour": back.get("colour", DEFAULT_BACK_COLOUR)}


def draw_elements(canvas, content, elements: list[dict], fields: dict, rect: Rect, bleed: float) -> None:
    languages = tuple(content.game.get("languages", ("en",)))
    icons = layout_of(content).get("icons", {})
    for element in elements:
        lang = element.get("lang", languages[0])
        if element.get("lang") and lang not in getattr(content, "languages", (lang,)):
            continue  # a language this run does not print

        def get(key, default=None):
            return value_for(element[key], fields, lang, languages) if key in element else default

        kind = element["type"]
        if kind == "background":
            fill_bleed(canvas, rect, bleed, HexColor(get("colour", "#ffffff")))
            if "image" in element:
                area = Rect(rect.x - bleed, rect.y - bleed, rect.w + 2 * bleed, rect.h + 2 * bleed)
                _draw_image(canvas, content, get("image"), area, "cover")
            continue
        area = box(element, rect)
        if kind in ("rect", "circle"):
            fill, stroke = get("fill"), get("stroke")
            if fill is None and stroke is None:
                stroke = "#222222"
            canvas.setLineWidth(float(element.get("stroke_width", 0.5)))
            if fill is not None:
                canvas.setFillColor(HexColor(fill))
            if stroke is not None:
                canvas.setStrokeColor(HexColor(stroke))
            flags = {"stroke": int(stroke is not None), "fill": int(fill is not None)}
            if kind == "circle":
                canvas.circle(area.x + area.w / 2, area.y + area.h / 2, area.w / 2, **flags)
            elif element.get("radius"):
                canvas.roundRect(area.x, area.y, area.w, area.h, element["radius"] * mm, **flags)
            else:
                canvas.rect(area.x, area.y, area.w, area.h, **flags)
        elif kind == "text":
            text = get("text")
            if text:
                colour = HexColor(get("colour")) if "colour" in element else INK
                draw_text(canvas, content, element, text, colour, area, icons)
        elif kind == "image":
            _draw_image(canvas, content, get("file"), area, element.get("fit", "contain"))


def _draw_image(canvas, content, name: str, area: Rect, fit: str) -> None:
    pic = picture(content.root, name)
    x, y, w, h = fitted(pic, area.x, area.y, area.w, area.h, fit)
    canvas.saveState()
    if fit == "cover":
        path = canvas.beginPath()
        path.rect(area.x, area.y, area.w, area.h)
        canvas.clipPath(path, stroke=0, fill=0)
    draw_picture(canvas, pic, x, y, w, h)
    canvas.restoreState()


def draw_default_back(canvas, content, back_id: str, rect: Rect, bleed: float) -> None:
    """A back the layout does not draw: its colour over the bleed and its title in the middle."""
    fields = back_fields(content, back_id)
    colour = HexColor(fields["colour"])
    fill_bleed(canvas, rect, bleed, colour)
    lang = tuple(content.game.get("languages", ("en",)))[0]
    title = pick_language(fields["title"], lang, content.game.get("languages", ("en",)))
    element = {"size": 16, "align": "center", "valign": "middle", "font": "sans-bold" if ord(max(title, default="a")) < 0x2E80 else "cjk"}
    area = Rect(rect.x + 6 * mm, rect.y + 6 * mm, rect.w - 12 * mm, rect.h - 12 * mm)
    draw_text(canvas, content, element, title, ink_for(colour), area, {})


# --- checks ---------------------------------------------------------------------------------------

def check_layout(content) -> list[ContentError]:
    """Every fault of the game's layout, each located once: unknown decks, backs, fonts and icons,
    fields a card lacks, pictures that are missing, unreadable or outside the game's folder."""
    source = layout_source(content)
    if source is None:
        return []
    layout = layout_of(content)
    errors: dict[str, ContentError] = {}

    def add(error: ContentError) -> None:
        errors.setdefault(str(error), error)

    def at(*path) -> list:
        return [*source.prefix, *path]

    for name, file_name in layout.get("fonts", {}).items():
        try:
            register_font(content.root, file_name)
        except ImageProblem as exc:
            add(content.error(source.stem, at("fonts", name), str(exc)))
    for name, file_name in layout.get("icons", {}).items():
        try:
            picture(content.root, file_name)
        except ImageProblem as exc:
            add(content.error(source.stem, at("icons", name), str(exc)))
    deck_ids = {deck["id"] for deck in content.decks}
    faces = layout.get("faces", {})
    for key in faces:
        if key != "default" and key not in deck_ids:
            add(content.error(source.stem, at("faces", key), f"no deck {key!r} (decks: {', '.join(sorted(deck_ids))})"))
    for deck in content.decks:
        if deck["id"] not in faces and "default" not in faces:
            add(content.error(source.stem, at("faces"), f"no face for deck {deck['id']!r}: add faces.{deck['id']} or faces.default"))
    for key in layout.get("backs", {}):
        if key != "default" and key not in content.game["backs"]:
            add(content.error(source.stem, at("backs", key), f"no back {key!r} (backs: {', '.join(sorted(content.game['backs']))})"))
    fonts = set(BUILTIN_FONTS) | set(layout.get("fonts", {}))
    # A fault that many cards share is said once, naming the cards.
    shared: dict[tuple, list[str]] = {}
    for i, card in enumerate(content.cards):
        key = card["deck"] if card["deck"] in faces else "default"
        for n, element in enumerate(faces.get(key, [])):
            for problem in _element_problems(content, source, at("faces", key, n), element, card, ("cards", i), fonts):
                if isinstance(problem, ContentError):
                    add(problem)
                else:
                    shared.setdefault(problem, []).append(f"{card['id']!r}".strip("'"))
    backs = layout.get("backs", {})
    for back_id in content.game["backs"]:
        key = back_id if back_id in backs else "default"
        for n, element in enumerate(backs.get(key, [])):
            for problem in _element_problems(content, source, at("backs", key, n), element,
                                             back_fields(content, back_id), None, fonts):
                if isinstance(problem, ContentError):
                    add(problem)
                else:
                    shared.setdefault(problem, []).append(f"back {back_id}")
    for (stem, path, message), whose in shared.items():
        add(content.error(stem, list(path), f"{_cards_named(whose)} {message.replace('{has}', 'has' if len(whose) == 1 else 'have')}"))
    return list(errors.values())


def _cards_named(whose: list[str]) -> str:
    if whose[0].startswith("back "):
        return whose[0]
    shown = ", ".join(whose[:6]) + (f" and {len(whose) - 6} more" if len(whose) > 6 else "")
    return f"card {shown}" if len(whose) == 1 else f"cards {shown}"


def _element_problems(content, source: Source, path: list, element: dict, fields: dict, card_path, fonts) -> list:
    """ContentErrors, and (stem, path, message) problems that the same element may have for other
    cards too ({has} stands for has or have)."""
    errors: list = []
    languages = tuple(content.game.get("languages", ("en",)))
    lang = element.get("lang", languages[0])
    if element.get("font") is not None and element["font"] not in fonts:
        errors.append(content.error(source.stem, path + ["font"], f"no font {element['font']!r} "
                                    f"(built in: {', '.join(BUILTIN_FONTS)}; or name one under layout fonts)"))
    for key in ("text", "colour", "fill", "stroke", "file", "image"):
        if key not in element:
            continue
        try:
            value = value_for(element[key], fields, lang, languages)
        except ValueProblem as exc:
            errors.append((source.stem, tuple(path + [key]), f"{{has}} {exc}"))
            continue
        if key in ("file", "image"):
            try:
                picture(content.root, value)
            except ImageProblem as exc:
                errors.append(_picture_error(content, source, path + [key], element[key], fields, card_path, str(exc)))
        elif key != "text" and not re.match(r"^#[0-9a-fA-F]{6}$", str(value)):
            errors.append((source.stem, tuple(path + [key]), f"{{has}} {key} {value!r}, which is not a colour (#rrggbb)"))
    return errors


def _picture_error(content, source: Source, path: list, written, fields: dict, card_path, message: str) -> ContentError:
    """A picture named by a card's field is reported at the card's cell, where it is fixed; one the
    layout names, at the layout's key."""
    if card_path is not None and isinstance(written, str):
        names = template_fields(written)
        if names and names[0] in fields:
            return content.error("cards", [*card_path, names[0]], message)
    if card_path is not None and isinstance(written, dict) and "by" in written:
        return content.error(source.stem, path + ["map"], f"card {fields.get('id')!r}: {message}")
    return content.error(source.stem, path, message)


__all__ = ["back_elements", "check_layout", "draw_default_back", "draw_elements", "elements_for_face", "layout_of",
           "layout_source"]
