"""A small OpenType font with CFF outlines and Chinese glyphs, standing in for Noto Sans CJK (which
ships CFF outlines) in tests: every character it maps is drawn as a box."""

from __future__ import annotations

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen

CHARACTERS = "中遊戲規則火車卡牌玩家ABCabc0123 "


def make_cff_font(path: Path, characters: str = CHARACTERS, family: str = "Probe Sans TC") -> Path:
    names = [".notdef"] + [f"uni{ord(ch):04X}" for ch in characters]
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(ch): f"uni{ord(ch):04X}" for ch in characters})
    charstrings = {}
    for name in names:
        pen = T2CharStringPen(600, None)
        if name != "uni0020":
            pen.moveTo((50, 0))
            pen.curveTo((50, 300), (100, 700), (550, 700))
            pen.lineTo((550, 0))
            pen.closePath()
        charstrings[name] = pen.getCharString()
    builder.setupCFF(family.replace(" ", ""), {"FullName": family}, charstrings, {})
    builder.setupHorizontalMetrics({name: (600, 50) for name in names})
    builder.setupHorizontalHeader(ascent=880, descent=-120)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=880, usWinAscent=880, usWinDescent=120)
    builder.setupPost()
    builder.save(str(path))
    return path
