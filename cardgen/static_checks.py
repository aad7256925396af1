"""Every check that needs no build and no replay, run by `validate` and before `build` writes a
file: the rule sheet's diagram and part names, the house style of printed texts, and each
scenario's shape and starting position (its setup must be one the rules allow)."""

from __future__ import annotations

import re

from cardgen.content import GameContent, iter_texts
from cardgen.errors import ContentError
from cardgen.registry import definition_for, engine_for
from cardgen.yamlio import load_yaml

# An ASCII mark right after a Chinese character, where a full-width one belongs.
HALF_WIDTH_AFTER_CJK = re.compile(r"[\u3400-\u9fff][,;:?!()]")


def check_house_style(content: GameContent) -> list[ContentError]:
    """Chinese sentences use full-width punctuation, in every file that reaches print."""
    errors = []
    files = [(stem, data, content.locators[stem]) for stem, data in content.files.items()]
    for path in content.scenario_paths:
        try:
            data, locator = load_yaml(path)
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
    return errors


def check_game(content: GameContent) -> list[ContentError]:
    """Every static check of one loaded game, all errors at once."""
    from cardgen.rulesheet import check_sections
    from verify.scenario import check_scenario

    errors = check_sections(content, definition_for(content.id))
    errors += check_house_style(content)
    engine = engine_for(content)
    for path in content.scenario_paths:
        errors += check_scenario(path, engine)
    return errors


__all__ = ["check_game", "check_house_style"]
