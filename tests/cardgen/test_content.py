"""Content validation: the schema and the cross-file checks, each error reported as file:line:col."""

from __future__ import annotations

import pytest

from cardgen.content import load_game, load_games
from cardgen.errors import ContentErrors
from tests.conftest import edit


def errors_of(content_dir, game="game-of-trains") -> list[str]:
    with pytest.raises(ContentErrors) as info:
        load_game(content_dir, game)
    return [str(e) for e in info.value.errors]


def test_game_of_trains_has_the_published_card_table(trains):
    table = {c["number"]: c["ability"] for c in trains.cards if c["deck"] == "carriages"}
    assert sorted(table) == list(range(1, 85))
    # Spot checks against the published table, including its irregular stretch after 48.
    assert (table[1], table[2], table[8], table[48], table[49], table[58], table[59], table[84]) == (3, 8, 2, 2, 2, 3, 3, 2)
    assert trains.deck_counts() == {"carriages": 84, "locomotives": 4}


def test_ability_counts_are_facts_for_the_rule_text(trains):
    facts = trains.facts()
    assert sum(facts[f"ability_{k}_cards"] for k in range(1, 9)) == 84
    assert facts["cards"] == 88


def test_schema_error_points_at_the_field(content_copy):
    cards = content_copy / "game-of-trains" / "cards.yaml"
    edit(cards, "number: 42, ability: 8", "number: 42, ability: 9")
    (message,) = errors_of(content_copy)
    assert message.startswith(f"{cards}:46:")
    assert "$.cards[41].ability: 9 is not one of [1, 2, 3, 4, 5, 6, 7, 8]" in message


def test_wrong_type_is_reported(content_copy):
    edit(content_copy / "game-of-trains" / "game.yaml", "players: {min: 2, max: 4}", "players: {min: two, max: 4}")
    (message,) = errors_of(content_copy)
    assert "game.yaml:5:" in message and "$.players.min: 'two' is not of type 'integer'" in message


def test_every_error_is_reported_not_only_the_first(content_copy):
    cards = content_copy / "game-of-trains" / "cards.yaml"
    edit(cards, "number: 3, ability: 4", "number: 3, ability: 0")
    edit(cards, "number: 9, ability: 3", "number: 9, ability: 10")
    messages = errors_of(content_copy)
    assert len(messages) == 2
    assert "$.cards[2].ability" in messages[0] and "$.cards[8].ability" in messages[1]


def test_duplicate_carriage_number_and_missing_number(content_copy):
    edit(content_copy / "game-of-trains" / "cards.yaml", "number: 7, ability: 5", "number: 6, ability: 5")
    messages = errors_of(content_copy)
    assert any("cards.yaml:11:" in m and "carriage number 6 appears twice" in m for m in messages)
    assert any("carriage number 7 is missing" in m for m in messages)


def test_unknown_ability_reference(content_copy):
    abilities = content_copy / "game-of-trains" / "abilities.yaml"
    edit(abilities, "  - id: 8\n", "  - id: 7\n")
    messages = errors_of(content_copy)
    assert any("ability 7 defined twice" in m for m in messages)
    assert any("unknown ability 8" in m for m in messages)


def test_stated_deck_count_must_match_the_cards(content_copy):
    edit(content_copy / "game-of-trains" / "game.yaml", "count: 84", "count: 85")
    (message,) = errors_of(content_copy)
    assert "$.decks[0].count: deck 'carriages' states 85 cards but cards.yaml has 84" in message


def test_decks_shuffled_together_must_share_a_back(content_copy):
    edit(content_copy / "game-of-trains" / "game.yaml", "shuffle_group: locomotives", "shuffle_group: draw")
    (message,) = errors_of(content_copy)
    assert "must share one back" in message and "$.decks[1].back" in message


def test_unknown_placeholder_in_rule_text(content_copy):
    rules = content_copy / "game-of-trains" / "rules.yaml"
    rules.write_text(rules.read_text("utf-8").replace("{carriages}", "{wagons}", 1), "utf-8")
    messages = errors_of(content_copy)
    assert any("rules.yaml:" in m and "unknown fact {wagons}" in m for m in messages)


def test_malformed_yaml_is_one_line(content_copy):
    (content_copy / "game-of-trains" / "abilities.yaml").write_text("abilities: [\n", "utf-8")
    (message,) = errors_of(content_copy)
    assert "abilities.yaml:" in message and "YAML syntax" in message


def test_missing_file_is_named(content_copy):
    (content_copy / "game-of-trains" / "abilities.yaml").unlink()
    (message,) = errors_of(content_copy)
    assert message.endswith("missing file abilities.yaml")


def test_unexpected_file_is_named(content_copy):
    (content_copy / "game-of-trains" / "extra.yaml").write_text("a: 1\n", "utf-8")
    (message,) = errors_of(content_copy)
    assert "unexpected file" in message and "extra" in message


def test_errors_of_several_games_are_collected(content_copy):
    edit(content_copy / "game-of-trains" / "game.yaml", "count: 84", "count: 80")
    games, errors = load_games(content_copy)
    assert "game-of-trains" not in [g.id for g in games]
    assert len([e for e in errors if "game-of-trains" in e.file]) == 1


def test_errors_name_files_relative_to_the_current_folder(content_copy, monkeypatch):
    monkeypatch.chdir(content_copy.parent)
    edit(content_copy / "game-of-trains" / "game.yaml", "count: 84", "count: 85")
    (message,) = errors_of(content_copy)
    assert message.startswith("content/game-of-trains/game.yaml:")


def test_a_games_facts_are_worked_out_once_and_handed_out_as_copies(monkeypatch, tmp_path):
    """Once per content loaded; and another load of the same data reads them back from the cache."""
    from cardgen.content import PROJECT_CONTENT, load_game
    from cardgen.registry import definition_for

    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))

    definition = definition_for("game-of-trains")
    worked_out = []
    original = type(definition).facts
    monkeypatch.setattr(type(definition), "facts", lambda self, c: worked_out.append(c) or original(self, c))
    content = load_game(PROJECT_CONTENT, "game-of-trains")  # its checks may quote the facts already
    first = content.facts()
    first["cards"] = -1
    assert content.facts()["cards"] == sum(content.deck_counts().values())
    assert len(worked_out) == 1
    assert load_game(PROJECT_CONTENT, "game-of-trains").facts() == content.facts() and len(worked_out) == 1
