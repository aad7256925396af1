"""Typesetting a game's rule sheet: one PDF per language, built from the game's content.

The sheet is the game's `rules.yaml` sections in order, each a heading, a body in light markup
(paragraphs, bullets, numbered steps, notes) and optionally a diagram. A section may also say
`generated: <kind>` to place a part computed from the content after its body: the rulings (always
headed "Questions and answers"), the worked examples no section places, or a part of the game's
own. `examples: [scenario, ...]` places worked examples under the rule they show: each is a
scenario replayed by the verifier, its text, title and narrated steps in its `example:`, kept on
one page with the game's picture of the positions right before and right after those steps.
`one_page: true` keeps a whole section (a player aid) on one page. The scenario notation is for people who write scenarios, not players: it is in
docs/scenarios.md and `cardgen verify --notation GAME`. A game adds its pictures and parts through its definition
(`diagrams`, `parts`, `example_diagram`; see `cardgen.registry`). Shared parts a game has but does
not place are appended at the end, so no ruling or example is ever left out.

Every worked example is replayed before anything is drawn; one failing example stops the build and
no file is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    BaseDocTemplate, CondPageBreak, Flowable, Frame, KeepTogether, ListFlowable, ListItem, PageTemplate,
    Paragraph, Spacer, Table, TableStyle,
)
from reportlab.platypus.flowables import _listWrapOn

from cardgen.content import LANGUAGES, GameContent
from cardgen.registry import GameDefinition, definition_for, engine_for
from cardgen.markup import SPACE, bold, inline, join, para, plain
from cardgen.errors import ContentError, ContentErrors, UsageError
from cardgen.static_checks import GENERATED_PARTS, check_sections
from cardgen.pdfdoc import canvas_class, PAPER_MM, SANS, atomic_output, font_for, mm, register_fonts

MARGIN = 18 * mm
HEADER_GAP = 9 * mm
INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#666666")
NOTE_FILL = colors.HexColor("#f3efe4")
RULE_LINE = colors.HexColor("#c8c8c8")

# Words the typesetting itself prints; everything about the game comes from its content.
LABELS = {
    "en": {
        "players": "{min}–{max} players",
        "play_time": "about {minutes} minutes",
        "age": "ages {age}+",
        "best_players": "best with {n}",
        "designers": "Designed by {names} ({year})",
        "publisher": "Published by {name}{year}",
        "rules": "Rules",
        "page": "Page {n}",
        "rulings": "Questions and answers",
        "question": "Q.",
        "answer": "A.",
        "variant": "Variant:",
        "examples": "Worked examples",
        "example": "Example {n}",
        "example_titled": "Example: {title}",
    },
    "zh-Hant": {
        "players": "{min}–{max} 人",
        "play_time": "約 {minutes} 分鐘",
        "age": "{age} 歲以上",
        "best_players": "{n} 人最佳",
        "designers": "設計：{names}（{year}）",
        "publisher": "出版：{name}{year}",
        "rules": "遊戲規則",
        "page": "第 {n} 頁",
        "rulings": "問與答",
        "question": "問：",
        "answer": "答：",
        "variant": "變體：",
        "examples": "實例解說",
        "example": "範例 {n}",
        "example_titled": "範例：{title}",
    },
}

GENERIC_PARTS = ("rulings", "examples")


# --- body markup ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Block:
    """One block of a section body: `kind` is paragraph, bullets, steps or note."""

    kind: str
    items: tuple[str, ...]


_BULLET = re.compile(r"^- ")
_STEP = re.compile(r"^\d+\. ")
_NOTE = re.compile(r"^> ?")


def _wide(char: str) -> bool:
    """Chinese characters and full-width punctuation, between which no space is written."""
    return ord(char) > 0x2E7F


FULL_WIDTH_CLOSERS = "，。、；：！？）」』】〉》"


def tidy(text: str) -> str:
    """Drop the spaces a folded YAML block leaves between two Chinese sentences, also where a
    **term** begins or ends at the seam (the markup prints nothing, so it must not keep a gap),
    and after full-width punctuation, which carries its own space (「保留。P1的」, not 「保留。 P1的」)."""
    text = re.sub(r"(?<=[^\x00-\u2e7f])(\**) +(\**)(?=[^\x00-\u2e7f])", r"\1\2", text)
    return re.sub(rf"(?<=[{FULL_WIDTH_CLOSERS}])(\**) +", r"\1", text)


def _join(lines: list[str]) -> str:
    """Join wrapped source lines; Chinese lines join without a space, as Chinese is written.
    Bold markup at either end of the seam is looked through."""
    text = ""
    for line in lines:
        line = line.strip()
        before, after = text.rstrip("*"), line.lstrip("*")
        if text and not (before and after and _wide(before[-1]) and _wide(after[0])):
            text += " "
        text += line
    return text


def parse_blocks(text: str) -> list[Block]:
    """Split a body into blocks. A list item continues on following lines until the next marker."""
    blocks = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
        lines = [line for line in chunk.splitlines() if line.strip()]
        if not lines:
            continue
        first = lines[0].lstrip()
        for kind, marker in (("bullets", _BULLET), ("steps", _STEP)):
            if marker.match(first):
                items: list[list[str]] = []
                for line in lines:
                    stripped = line.strip()
                    if marker.match(stripped):
                        items.append([marker.sub("", stripped, count=1)])
                    else:
                        items[-1].append(stripped)
                blocks.append(Block(kind, tuple(_join(item) for item in items)))
                break
        else:
            if _NOTE.match(first):
                blocks.append(Block("note", (_join([_NOTE.sub("", line.strip(), count=1) for line in lines]),)))
            else:
                blocks.append(Block("paragraph", (_join(lines),)))
    return blocks


# --- styles ---------------------------------------------------------------------------------------

@dataclass
class Styles:
    """Paragraph styles for one language, coloured with the game's accent."""

    lang: str
    accent: colors.Color

    @property
    def accent_hex(self) -> str:
        return "#" + self.accent.hexval()[2:]
    body: ParagraphStyle = field(init=False)
    small: ParagraphStyle = field(init=False)
    h1: ParagraphStyle = field(init=False)
    h2: ParagraphStyle = field(init=False)
    title: ParagraphStyle = field(init=False)
    subtitle: ParagraphStyle = field(init=False)
    note: ParagraphStyle = field(init=False)
    caption: ParagraphStyle = field(init=False)

    def __post_init__(self):
        cjk = self.lang.startswith("zh")
        regular = font_for(self.lang)
        bold = font_for(self.lang, bold=True)
        wrap = "CJK" if cjk else None
        self.body = ParagraphStyle("body", fontName=regular, fontSize=10, leading=15 if cjk else 14,
                                   textColor=INK, spaceAfter=5, wordWrap=wrap)
        self.small = ParagraphStyle("small", parent=self.body, fontSize=9, leading=13 if cjk else 12, spaceAfter=2)
        self.caption = ParagraphStyle("caption", parent=self.small, textColor=MUTED, alignment=TA_CENTER)
        self.note = ParagraphStyle("note", parent=self.body, spaceAfter=0)
        self.h1 = ParagraphStyle("h1", parent=self.body, fontName=bold, fontSize=15, leading=20,
                                 textColor=self.accent, spaceBefore=12, spaceAfter=6, keepWithNext=1)
        self.h2 = ParagraphStyle("h2", parent=self.body, fontName=bold, fontSize=11, leading=15,
                                 textColor=INK, spaceBefore=8, spaceAfter=3, keepWithNext=1)
        self.title = ParagraphStyle("title", parent=self.body, fontName=bold, fontSize=30, leading=36,
                                    textColor=colors.white, spaceAfter=4)
        self.subtitle = ParagraphStyle("subtitle", parent=self.body, fontSize=11, leading=16,
                                       textColor=colors.white, spaceAfter=0)


def accent_colour(content: GameContent) -> colors.Color:
    """The colour of the game's first card back, so the sheet matches the box on the table."""
    backs = content.game.get("backs", {})
    first = next(iter(backs.values()), None)
    return colors.HexColor(first["colour"]) if first else colors.HexColor("#1f3a5f")


# --- small flowables ------------------------------------------------------------------------------

class Rule(Flowable):
    """A thin horizontal line under a heading; it stays on the page of the text under it."""

    keepWithNext = 1

    def __init__(self, colour, thickness=0.8):
        super().__init__()
        self.colour = colour
        self.thickness = thickness

    GAP_BELOW = 5  # points between the line and the text under it; CJK glyphs fill their whole line height

    def wrap(self, available_width, available_height):
        self.width = available_width
        return available_width, self.thickness + 1 + self.GAP_BELOW

    def draw(self):
        self.canv.setStrokeColor(self.colour)
        self.canv.setLineWidth(self.thickness)
        self.canv.line(0, self.GAP_BELOW, self.width, self.GAP_BELOW)


# --- worked examples ------------------------------------------------------------------------------

@dataclass
class WorkedExample:
    """A scenario marked as an example, replayed. An example names the steps it narrates
    (`example: {steps: [first, last]}`, or one step number); `before` is the position right
    before the first of them and `after` the position right after the last, so a picture shows
    exactly what the text says. Without `steps` the example narrates the whole scenario.
    `positions[n]` is the position after step n (`positions[0]` the start)."""

    path: Path
    data: dict
    before: dict[str, Any]
    after: dict[str, Any]
    positions: list[dict[str, Any]] = field(default_factory=list)
    steps: tuple[int, int] = (1, 0)

    def at(self, n: int) -> dict[str, Any]:
        """The position after step n of the scenario (0: the start)."""
        return self.positions[n]


def narrated_steps(data: dict, locator=None) -> tuple[int, int]:
    """The (first, last) scenario steps an example narrates, 1-based and inclusive."""
    total = len(data["steps"])
    wanted = data.get("example", {}).get("steps") if isinstance(data.get("example"), dict) else None
    if wanted is None:
        return 1, total
    if isinstance(wanted, int) and not isinstance(wanted, bool):
        wanted = [wanted, wanted]
    if (isinstance(wanted, list) and len(wanted) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in wanted)
            and 1 <= wanted[0] <= wanted[1] <= total):
        return wanted[0], wanted[1]
    message = f"example.steps must be a step number or [first, last] within 1-{total}"
    if locator is not None:
        raise locator.error(["example", "steps"], message)
    raise ValueError(message)


def _failure_error(line: str, path: Path) -> ContentError:
    """A replay failure line (`file:line: message`) as a ContentError the CLI prints as is."""
    found = re.match(r"^(.*?):(\d+): (.*)$", line)
    if found:
        return ContentError(found.group(1), int(found.group(2)), 1, "example", found.group(3))
    return ContentError(str(path), 0, 0, "example", line)


def worked_example(content: GameContent, stem: str) -> WorkedExample:
    """The scenario `scenarios/<stem>.yaml` replayed as a worked example: its data and the states
    before and after. A scenario the engine disagrees with stops the build (ContentErrors), so no
    sheet ever prints an example the rules do not bear out. Replayed once per content and run."""
    from verify.scenario import load_scenario, run_scenario

    cache = content.__dict__.setdefault("_worked_examples", {})
    if stem in cache:
        return cache[stem]
    path = content.root / "scenarios" / f"{stem}.yaml"
    game = engine_for(content)
    if game is None:
        raise ContentErrors([ContentError(str(path), 0, 0, "example",
                                          f"no rules engine for {content.id} to check the worked example")])
    try:
        data, locator = load_scenario(path)
        first, last = narrated_steps(data, locator)
    except ContentError as exc:
        raise ContentErrors([exc]) from None
    result = run_scenario(path, game, record=True)
    if not result.ok:
        raise ContentErrors([_failure_error(line, path) for line in result.failures])
    positions = result.positions
    cache[stem] = WorkedExample(path, data, positions[first - 1], positions[last], positions, (first, last))
    return cache[stem]


def example_beside_rule(content: GameContent, stem: str, lang: str | None = None, words: str | None = None,
                        draw: Callable | None = None) -> WorkedExample:
    """The worked example `stem`, drawn by a game's own part under the rule it shows; the sheet
    then leaves it out of the examples gathered at the end. The part tells the words it prints in
    `lang` and the function that draws the picture (f(content, lang, example) -> flowable); they
    are kept with the content, so what checks a sheet finds them wherever the part took them from."""
    record = examples_beside_rules(content).setdefault(stem, {"words": {}, "draw": None})
    if lang is not None and words is not None:
        record["words"][lang] = words
    if draw is not None:
        record["draw"] = draw
    return worked_example(content, stem)


def examples_beside_rules(content: GameContent) -> dict[str, dict]:
    """stem -> {"words": {lang: text}, "draw": function} of the examples game parts have placed."""
    return content.__dict__.setdefault("_examples_beside_rules", {})


def example_words(content: GameContent, stem: str, lang: str) -> str:
    """The words the sheet prints for the worked example `stem` in `lang`: those a game part
    printed under its rule, else the scenario's own `example.<lang>`."""
    words = examples_beside_rules(content).get(stem, {}).get("words", {})
    if lang in words:
        return words[lang]
    spec = worked_example(content, stem).data["example"]
    if lang not in spec:
        raise KeyError(f"{content.id}: example {stem} has no words in {lang} until its game part has placed it")
    return tidy(spec[lang])


def example_picture(content: GameContent, stem: str, lang: str):
    """The picture the sheet draws for the worked example `stem`: the one its game part drew under
    the rule, else the game's `example_diagram`; None if the game draws none."""
    draw = examples_beside_rules(content).get(stem, {}).get("draw") or definition_for(content.id).example_diagram
    return None if draw is None else draw(content, lang, worked_example(content, stem))


def replay_examples(content: GameContent) -> list[WorkedExample]:
    """Replay every scenario that carries `example:` with its words; raise ContentErrors if any
    fails. An `example:` that holds only `steps` has its words in rules.yaml and is placed under
    its rule by the game's own part, so it is not listed here. Worked out once per content."""
    cache = content.__dict__.setdefault("_replayed_examples", [])
    if not cache:
        cache.append(_replay_examples(content))
    return list(cache[0])


def _may_hold_example(path: Path) -> bool:
    """Whether a scenario file can carry `example:`: a file that never spells the word (nor hides
    it behind an escape) cannot, and is left unparsed. A file that cannot be read is parsed, so
    that its error is reported."""
    from cardgen.yamlio import read_regular_file

    try:
        raw = read_regular_file(path)
    except ContentError:
        return True
    return b"example" in raw or b"\\" in raw


def _replay_examples(content: GameContent) -> list[WorkedExample]:
    from verify.scenario import load_scenario

    marked = []
    errors: list[ContentError] = []
    for path in content.scenario_paths:
        if not _may_hold_example(path):
            continue
        try:
            data, locator = load_scenario(path)
        except ContentError as exc:
            errors.append(exc)
            continue
        if "example" in data:
            if isinstance(data["example"], dict) and not any(lang in data["example"] for lang in LANGUAGES):
                continue  # its words are in rules.yaml: the game's own part places it under its rule
            if not (isinstance(data["example"], dict) and all(isinstance(data["example"].get(lang), str)
                                                              for lang in LANGUAGES)):
                errors.append(locator.error(["example"], f"needs a text in each of {', '.join(LANGUAGES)}"))
                continue
            marked.append((path, data))
    if errors:
        raise ContentErrors(errors)
    if not marked:
        return []
    game = engine_for(content)
    if game is None:
        raise ContentErrors([ContentError(str(marked[0][0]), 0, 0, "example",
                                          f"no rules engine for {content.id} to check the worked examples")])
    examples = []
    for path, _ in marked:
        try:
            examples.append(worked_example(content, path.stem))
        except ContentErrors as exc:
            errors.extend(exc.errors)
    if errors:
        raise ContentErrors(errors)
    return examples


# --- the story ------------------------------------------------------------------------------------

@dataclass
class Sheet:
    """Everything one build needs, handed to each part that adds flowables."""

    content: GameContent
    lang: str
    styles: Styles
    examples: list[WorkedExample]
    game_parts: GameDefinition

    def label(self, key: str, **values) -> str:
        return LABELS[self.lang][key].format(**values)

    @cached_property
    def facts(self) -> dict:
        return self.content.facts()  # once per sheet: the content does not change while it is drawn

    def text(self, value: dict) -> str:
        return tidy(self.content.render_text(value[self.lang], self.lang, self.facts))


def body_flowables(text: str, styles: Styles) -> list[Flowable]:
    flowables: list[Flowable] = []
    for block in parse_blocks(text):
        if block.kind == "paragraph":
            flowables.append(para(inline(block.items[0], styles.accent_hex), styles.body))
        elif block.kind == "note":
            box = Table([[para(inline(block.items[0], styles.accent_hex), styles.note)]], colWidths=["100%"])
            box.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),  # reportlab's cell default is Helvetica, which is not embedded
                ("BACKGROUND", (0, 0), (-1, -1), NOTE_FILL),
                ("LINEBEFORE", (0, 0), (0, -1), 2.5, styles.accent),
                ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
            ]))
            flowables += [box, Spacer(1, 6)]
        else:
            if flowables and isinstance(flowables[-1], Paragraph):
                flowables[-1].keepWithNext = 1  # a list stays on the page of the sentence that leads into it
            # One list per item (numbering carried on), so that a long list may break between
            # items and a picture after it keeps only the last item on its page.
            numbered = block.kind == "steps"
            for n, item in enumerate(block.items, 1):
                flowables.append(ListFlowable(
                    [ListItem(para(inline(item, styles.accent_hex), styles.body), leftIndent=16)],
                    bulletType="1" if numbered else "bullet", start=n if numbered else "•",
                    bulletFontName=font_for(styles.lang, bold=numbered) if numbered else SANS,
                    bulletFontSize=9 if numbered else 10,
                    bulletColor=styles.accent, leftIndent=16, bulletDedent=14 if numbered else 12,
                    bulletFormat="%s." if numbered else None, spaceAfter=4 if n == len(block.items) else 0,
                ))
    return flowables


def title_block(sheet: Sheet) -> list[Flowable]:
    game = sheet.content.game
    published = game.get("published", {})
    lines = [sheet.label("players", min=game["players"]["min"], max=game["players"]["max"])]
    # What a box's side says, where game.yaml gives it.
    for key, value in (("best_players", {"n": game.get("best_players")}), ("play_time", {"minutes": game.get("play_time")}),
                       ("age", {"age": game.get("age")})):
        if None not in value.values():
            lines.append(sheet.label(key, **value))
    credits = []
    if published.get("designers"):
        separator = "、" if sheet.lang.startswith("zh") else ", "
        credits.append(sheet.label("designers", names=separator.join(published["designers"]), year=published["year"]))
    publisher = game.get("publisher")
    if publisher is not None:
        year = ""
        if "year" in published:
            year = f"（{published['year']}）" if sheet.lang.startswith("zh") else f" ({published['year']})"
        credits.append(sheet.label("publisher", name=publisher[sheet.lang] if isinstance(publisher, dict) else publisher,
                                   year=year))
    other = [lang for lang in sheet.content.languages if lang != sheet.lang]
    cells = [
        [para(sheet.content.title[sheet.lang], sheet.styles.title)],
        [para(" · ".join(lines), sheet.styles.subtitle)],
    ]
    if credits:
        cells.append([para(" · ".join(credits), sheet.styles.subtitle)])
    if other:
        alias_style = ParagraphStyle("alias", parent=sheet.styles.subtitle, fontName=font_for(other[0]), fontSize=10,
                                     textColor=colors.HexColor("#dfe6ee"))
        cells.append([para(sheet.content.title[other[0]], alias_style)])
    band = Table(cells, colWidths=["100%"])
    band.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), SANS),  # reportlab's cell default is Helvetica, which is not embedded
        ("BACKGROUND", (0, 0), (-1, -1), sheet.styles.accent),
        ("LEFTPADDING", (0, 0), (-1, -1), 14), ("RIGHTPADDING", (0, 0), (-1, -1), 14),
        ("TOPPADDING", (0, 0), (-1, 0), 14), ("BOTTOMPADDING", (0, -1), (-1, -1), 12),
    ]))
    return [band, Spacer(1, 8)]


def heading(sheet: Sheet, number: int, title: str) -> list[Flowable]:
    return [CondPageBreak(45 * mm), para(join(str(number), SPACE, SPACE, title), sheet.styles.h1),
            Rule(sheet.styles.accent)]


def with_heading(head: list[Flowable], parts: list[Flowable]) -> list[Flowable]:
    """A heading travels with the first block under it, so it never ends a page on its own (a
    tall block such as a worked example would otherwise leave its section title behind)."""
    if not parts:
        return head
    return head[:1] + [KeepGroups(head[1:] + parts[:1])] + parts[1:]


def rulings_part(sheet: Sheet) -> list[Flowable]:
    flowables: list[Flowable] = []
    # A full-width colon already carries its own space; only Western labels need one after them.
    gap = "" if sheet.lang.startswith("zh") else " "
    answer = ParagraphStyle("answer", parent=sheet.styles.body, leftIndent=12, spaceAfter=2)
    aside = ParagraphStyle("aside", parent=sheet.styles.small, leftIndent=12, textColor=MUTED, spaceAfter=2)
    for ruling in sheet.content.files.get("rulings", {}).get("rulings", []):
        parts = [
            para(join(bold(sheet.label('question')), gap, inline(sheet.text(ruling['question']), sheet.styles.accent_hex)),
                 sheet.styles.body),
            para(join(bold(sheet.label('answer')), gap, inline(sheet.text(ruling['ruling']), sheet.styles.accent_hex)), answer),
        ]
        # Another reading is a variant players may agree on; what it costs in play belongs to
        # `cardgen simulate --compare`, not to the sheet.
        for alternative in ruling.get("alternatives", []):
            parts.append(para(join(bold(sheet.label("variant")), gap,
                                   inline(sheet.text(alternative["text"]), sheet.styles.accent_hex)), aside))
        parts.append(Spacer(1, 6))
        flowables.append(KeepTogether(parts))
    return flowables


def unkept(flowables: list[Flowable]) -> list[Flowable]:
    """The flowables with every KeepTogether opened: one KeepTogether inside another reports an
    endless height, so a group that is kept together whole holds no inner group."""
    flat: list[Flowable] = []
    for flowable in flowables:
        flat += unkept(list(flowable._content)) if isinstance(flowable, KeepTogether) else [flowable]
    return flat


class KeepGroups(KeepTogether):
    """Flowables kept on one page, as KeepTogether keeps them, measured as one flat list (a
    KeepTogether inside another would report an endless height). When they are taller than a
    page they flow on from where they stand, but each group among them (a picture with the
    sentence that leads to it, a worked example with its picture, a heading with the block under
    it) still stays on one page."""

    def __init__(self, items: list[Flowable]):
        self.items = list(items)
        super().__init__(unkept(self.items))

    def split(self, available_width, available_height):
        flowing = super().split(available_width, available_height)
        frame = getattr(self, "_frame", None)
        if frame is None or self._H <= frame._height:
            return flowing  # it fits on a page: on this one, or whole on the next
        # Led by a step that draws nothing, as KeepTogether leads its own flowing contents: the
        # page takes what follows one piece at a time.
        return [self.NullActionFlowable()] + regrouped(self.items)


def regrouped(items: list[Flowable]) -> list[Flowable]:
    """`items` as a page may take them one by one: a flowable that keeps with the next (a
    heading, its rule, the sentence that leads into a list) joins the group after it."""
    placed: list[Flowable] = []
    lead: list[Flowable] = []
    for item in items:
        if not isinstance(item, KeepTogether) and item.getKeepWithNext():
            lead.append(item)
            continue
        if lead:
            # Joined to the inside of a group of groups, so that each split takes one level off.
            if isinstance(item, KeepGroups):
                item = KeepGroups(lead + item.items)
            else:
                item = KeepTogether(lead + unkept([item]))
            lead = []
        placed.append(item)
    return placed + lead


def kept_groups(flowables: list[Flowable]) -> list[KeepTogether]:
    """Every group in `flowables` that is kept on one page, and each group inside a KeepGroups."""
    found: list[KeepTogether] = []
    for flowable in flowables:
        if isinstance(flowable, KeepTogether):
            found.append(flowable)
            found += kept_groups(getattr(flowable, "items", []))
    return found


def example_flowables(content: GameContent, lang: str, styles: Styles, example: WorkedExample,
                      number: int | None = None, whole: bool = True) -> list[Flowable]:
    """One worked example: its title (the scenario's `example.title`, else "Example n"), its text
    (the scenario's `example.<lang>`) and the game's picture of it, kept whole on one page. With
    `whole` false (the examples gathered at the end of a sheet, one after another) a long text may
    break between paragraphs: the title stays with its first and the picture with its last."""
    spec = example.data["example"]
    title = spec.get("title")
    if isinstance(title, dict) and isinstance(title.get(lang), str):
        head = LABELS[lang]["example_titled"].format(title=tidy(title[lang]))
    else:
        head = LABELS[lang]["example"].format(n=number or 1)
    # Scenario texts are not rule texts: braces in them are literal, not facts to fill in.
    text = unkept(body_flowables(tidy(spec[lang]), styles))
    draw = definition_for(content.id).example_diagram
    picture = [draw(content, lang, example)] if draw is not None else []
    if whole or len(text) < 2:
        return [KeepTogether([para(plain(head), styles.h2)] + text + picture)]
    return [KeepTogether([para(plain(head), styles.h2)] + text[:1])] + text[1:-1] + [KeepTogether(text[-1:] + picture)]


def placed_examples(content: GameContent) -> list[str]:
    """The scenarios that sections place under their rules (`examples:` in rules.yaml)."""
    return [stem for section in content.files["rules"]["sections"] for stem in section.get("examples", [])]


def examples_part(sheet: Sheet) -> list[Flowable]:
    """The examples no section places beside its rule, together in one part."""
    placed = set(placed_examples(sheet.content)) | set(examples_beside_rules(sheet.content))
    flowables: list[Flowable] = []
    left = [example for example in sheet.examples if example.path.stem not in placed]
    for n, example in enumerate(left, 1):
        flowables += example_flowables(sheet.content, sheet.lang, sheet.styles, example, n, whole=False)
    return flowables


BUILTIN_PARTS: dict[str, Callable[[Sheet], list[Flowable]]] = dict(zip(GENERATED_PARTS, (rulings_part, examples_part)))


def _has_part(sheet: Sheet, kind: str) -> bool:
    """Whether a generated part has anything to show, so empty parts get no heading."""
    if kind == "rulings":
        return bool(sheet.content.files.get("rulings", {}).get("rulings"))
    if kind == "examples":
        placed = set(placed_examples(sheet.content)) | set(examples_beside_rules(sheet.content))
        return any(example.path.stem not in placed for example in sheet.examples)
    return True


def build_story(sheet: Sheet) -> list[Flowable]:
    story = title_block(sheet)
    diagrams = sheet.game_parts.diagrams
    extra = sheet.game_parts.parts
    examples = {example.path.stem: example for example in sheet.examples}
    placed = set()
    number = shown = 0
    for section in sheet.content.files["rules"]["sections"]:
        kind = section.get("generated")
        if kind in BUILTIN_PARTS and not _has_part(sheet, kind):
            continue
        number += 1
        parts = body_flowables(sheet.text(section["body"]), sheet.styles)
        if "diagram" in section:
            picture = diagrams[section["diagram"]](sheet.content, sheet.lang)
            # A picture stays on the page of the paragraph that introduces it.
            parts[-1:] = [KeepTogether(unkept(parts[-1:]) + [picture])]
        if section.get("examples"):
            # A rule and the examples that show it are read together: they share one page.
            shown_here = []
            for stem in section["examples"]:
                shown += 1  # an example without a title of its own is numbered in the order printed
                shown_here += example_flowables(sheet.content, sheet.lang, sheet.styles, examples[stem], shown)
            parts = [KeepGroups(parts + shown_here)]
        if kind in BUILTIN_PARTS:
            parts += BUILTIN_PARTS[kind](sheet)
        elif kind is not None:
            added = extra[kind](sheet.content, sheet.lang, sheet.styles)
            if added and isinstance(added[0], WithRule):
                # A worked example a game's part draws stays on the page of the rule it shows.
                added = [WithRule(parts + [KeepTogether(list(added[0]._content))])] + added[1:]
                parts = []
            parts += added
        # The Q&A part has one name in every game.
        title = sheet.label("rulings") if kind == "rulings" else sheet.text(section["title"])
        head = heading(sheet, number, title)
        if section.get("one_page"):
            # A player aid stays whole on one page, heading included.
            story += head[:1] + [KeepGroups(head[1:] + parts), PartEnd()]
        else:
            story += with_heading(head, parts) + [PartEnd()]
        placed.add(kind)
    for kind in GENERIC_PARTS:
        if kind not in placed and _has_part(sheet, kind):
            number += 1
            story += with_heading(heading(sheet, number, sheet.label(kind)), BUILTIN_PARTS[kind](sheet)) + [PartEnd()]
    return story


class WithRule(KeepGroups):
    """A game part that stays on one page with the rule text above it (a worked example under
    the rule it shows), when the two fit on a page."""


class PartEnd(Flowable):
    """Marks where a part of the sheet ends (it draws nothing): a page may stay partly blank there."""

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self):
        pass


# --- the document ---------------------------------------------------------------------------------

class RuleSheetTemplate(BaseDocTemplate):
    """A4 (or letter) pages with a running header (game title) and page numbers in the footer."""

    def __init__(self, target, sheet: Sheet, page_size: tuple[float, float]):
        width, height = page_size
        title = f"{sheet.content.title[sheet.lang]} – {sheet.label('rules')}"
        super().__init__(
            target, pagesize=page_size, invariant=1, initialFontName=SANS, pageCompression=1,
            leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + HEADER_GAP, bottomMargin=MARGIN,
            title=title, author="cardgen", creator="cardgen", subject=title, lang=sheet.lang,
            trimBox=(0, 0, width, height), bleedBox=(0, 0, width, height),
        )
        self.sheet = sheet
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="text",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=self.decorate)])
        # Per page: the share of the text column left blank, and whether a part ends there.
        self.page_fill: list[tuple[float, bool]] = []
        self._part_ended = False
        self.page_of: dict[int, int] = {}  # id of each flowable drawn whole -> its page

    def afterFlowable(self, flowable):
        self.page_of[id(flowable)] = self.page
        if not isinstance(flowable, CondPageBreak):  # the next part's heading may break the page
            self._part_ended = isinstance(flowable, PartEnd)

    def torn(self, groups: list[KeepTogether]) -> list[str]:
        """The groups, among `groups` (those the story held), that fit on a page but were printed
        across pages, each named by its first words."""
        frame = self.pageTemplates[0].frames[0]
        found = []
        for group in groups:
            pages = {self.page_of.get(id(flowable)) for flowable in group._content}
            if len(pages) > 1 and _listWrapOn(group._content, frame._width, self.canv)[1] <= frame._height:
                first = next((f for f in group._content if isinstance(f, Paragraph)), None)
                found.append(f"{first.getPlainText()[:50] if first else type(group).__name__} (pages "
                             f"{', '.join(str(n) for n in sorted(pages, key=lambda n: n or 0))})")
        return found

    def handle_pageEnd(self):
        frame = self.frame
        self.page_fill.append(((frame._y - frame._y1p) / frame._height, self._part_ended))
        super().handle_pageEnd()

    def decorate(self, canv, doc):
        sheet = self.sheet
        width, height = self.pagesize
        font = font_for(sheet.lang)
        canv.saveState()
        if doc.page > 1:
            top = height - MARGIN + 2 * mm
            canv.setFont(font_for(sheet.lang, bold=True), 8.5)
            canv.setFillColor(sheet.styles.accent)
            canv.drawString(MARGIN, top, sheet.content.title[sheet.lang])
            canv.setFont(font, 8.5)
            canv.setFillColor(MUTED)
            canv.drawRightString(width - MARGIN, top, sheet.label("rules"))
            canv.setStrokeColor(RULE_LINE)
            canv.setLineWidth(0.5)
            canv.line(MARGIN, top - 2.5 * mm, width - MARGIN, top - 2.5 * mm)
        canv.setFont(font, 8.5)
        canv.setFillColor(MUTED)
        canv.drawCentredString(width / 2, MARGIN - 8 * mm, sheet.label("page", n=doc.page))
        canv.restoreState()


def render_rule_sheet(content: GameContent, lang: str, path: Path, paper: str = "a4") -> Path:
    """Write the rule sheet of `content` in `lang` to `path` (A4 portrait unless `paper` says).

    Raises ContentErrors, writing nothing, if a worked example fails to replay or rules.yaml names
    a diagram or generated part that does not exist."""
    if lang not in LANGUAGES:
        raise UsageError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if paper not in PAPER_MM:
        raise UsageError(f"unknown paper {paper!r}; choose one of {', '.join(PAPER_MM)}")
    game_parts = definition_for(content.id)
    errors = check_sections(content, game_parts)
    if errors:
        raise ContentErrors(errors)
    examples = replay_examples(content)
    shown = {example.path.stem for example in examples}
    missing = [content.error("rules", ["sections", i, "examples", k], f"scenarios/{stem}.yaml has no example: text to show")
               for i, section in enumerate(content.files["rules"]["sections"])
               for k, stem in enumerate(section.get("examples", [])) if stem not in shown]
    if missing:
        raise ContentErrors(missing)
    register_fonts()
    sheet = Sheet(content, lang, Styles(lang, accent_colour(content)), examples, game_parts)
    story = build_story(sheet)
    page_size = tuple(v * mm for v in PAPER_MM[paper])
    groups = kept_groups(story)
    with atomic_output(Path(path)) as buffer:
        template = RuleSheetTemplate(buffer, sheet, page_size)
        template.build(story, canvasmaker=canvas_class())
    LAST_PAGE_FILL[Path(path)] = template.page_fill
    LAST_TORN_GROUPS[Path(path)] = template.torn(groups)
    return Path(path)


# How full each page of the sheets built in this process came out, by path, and the groups kept
# together that were printed across pages all the same (for the tests).
LAST_PAGE_FILL: dict[Path, list[tuple[float, bool]]] = {}
LAST_TORN_GROUPS: dict[Path, list[str]] = {}


__all__ = ["render_rule_sheet", "replay_examples", "worked_example", "parse_blocks", "Block", "LABELS", "WorkedExample"]
