"""The one way content text becomes reportlab paragraph markup.

reportlab's Paragraph reads its text as markup: `<img src=...>` fetches a file or an address, `<b`
or `&` breaks the parser. Content is plain text, never markup, so every paragraph is made here:
`para(text, style)` escapes a plain string; only a `Markup` value (made by the functions below from
escaped pieces) passes through as markup. The tests check that no other module builds a Paragraph.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

import reportlab.lib.textsplit as _textsplit
import reportlab.platypus.paragraph as _paragraph
from reportlab.platypus import Paragraph, XPreformatted

# Chinese line breaking: reportlab knows the Japanese list of marks that may not start a line but
# not the full-width comma, semicolon, colon, exclamation and question marks Chinese uses; they are
# added to the list both of its line breakers read.
_NO_LINE_START = "，；：！？"
for _module in (_textsplit, _paragraph):
    if _NO_LINE_START[0] not in _module.ALL_CANNOT_START:
        _module.ALL_CANNOT_START += _NO_LINE_START


class TextParagraph(Paragraph):
    """A paragraph that Chinese typesetting would accept: no line starts with a closing mark (even
    two in a row, such as 「）：」, where reportlab hangs only the first) or ends with an opening
    one (「（」 waits for its word on the next line), and no single Chinese
    character is left alone on the last line. When either would happen, the lines are broken a
    little narrower, keeping their number where it can."""

    def wrap(self, availWidth, availHeight):
        """As Paragraph's, worked out once for each width in a row: a paragraph kept with the
        next one is wrapped again, at the same width, when its page places it, and its lines
        depend on the width alone."""
        known = self.__dict__.get("_wrapped")
        if known is not None and known[0] == availWidth and "blPara" in self.__dict__:
            return known[1]
        size = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, size) if "blPara" in self.__dict__ else None
        return size

    def breakLinesCJK(self, maxWidths):
        result = super().breakLinesCJK(maxWidths)
        if _acceptable(result):
            return result
        widths = maxWidths if isinstance(maxWidths, (list, tuple)) else [maxWidths]
        size = self.style.fontSize
        for step in (0.5, 1, 1.5, 2, 3, 4):
            retry = super().breakLinesCJK([w - step * size for w in widths])
            if _acceptable(retry) and len(retry.lines) <= len(result.lines) + 1:
                return retry
        return super().breakLinesCJK(maxWidths)


OPENING_MARKS = "（「『【《〈"


def _line_text(kind: int, line) -> str:
    if kind == 0:
        return "".join(line[1])
    return "".join(getattr(word, "text", "") for word in line.words)


def _acceptable(result) -> bool:
    texts = [_line_text(result.kind, line).strip() for line in result.lines]
    if any(text[:1] in _paragraph.ALL_CANNOT_START and text[:1] > "\u3000" for text in texts[1:]):
        return False
    if any(text[-1:] in OPENING_MARKS for text in texts[:-1]):  # an opening mark stays with what it opens
        return False
    return len(texts) < 2 or len(texts[-1]) > 1 or not ("\u3400" <= texts[-1][:1] <= "\u9fff")


class Markup(str):
    """Paragraph markup that this module built from escaped text; anything else is plain text."""


def plain(text: str) -> Markup:
    """A plain text, escaped so that every character prints as itself."""
    return text if isinstance(text, Markup) else Markup(escape(str(text)))


def inline(text: str, accent: str = "#000000") -> Markup:
    """A content text with its one piece of light markup: **term** becomes a bold, coloured term
    (the Chinese face has no bold, so the colour is what makes a term stand out there)."""
    return Markup(re.sub(r"\*\*(.+?)\*\*", rf'<b><font color="{_colour(accent)}">\1</font></b>', escape(text)))


def bold(text: str) -> Markup:
    return Markup(f"<b>{plain(text)}</b>")


def styled(text: str, colour: str | None = None, size: float | None = None, font: str | None = None) -> Markup:
    """A run of text in another colour, size or font."""
    attrs = ""
    if colour is not None:
        attrs += f' color="{_colour(colour)}"'
    if size is not None:
        attrs += f' size="{float(size):g}"'
    if font is not None:
        if not re.fullmatch(r"[A-Za-z0-9_-]+", font):
            raise ValueError(f"not a font name: {font!r}")
        attrs += f' name="{font}"'
    return Markup(f"<font{attrs}>{plain(text)}</font>")


SPACE = Markup("&nbsp;")


def join(*parts: str, sep: str = "") -> Markup:
    """Pieces side by side: Markup as it is, anything else escaped."""
    return Markup(plain(sep).join(plain(part) for part in parts))


def para(text: str, style) -> Paragraph:
    """A paragraph of `text`: plain text is escaped, `Markup` is used as built."""
    return TextParagraph(plain(text), style)


def preformatted(text: str, style) -> XPreformatted:
    """Lines kept as written (a notation listing), escaped."""
    return XPreformatted(plain(text), style)


def _colour(value: str) -> str:
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ValueError(f"not a colour: {value!r}")
    return value


__all__ = ["Markup", "SPACE", "TextParagraph", "bold", "inline", "join", "para", "plain", "preformatted", "styled"]
