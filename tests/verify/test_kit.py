"""The engine kit: zones and what is derived from them, outcomes with ties, teams and tie-breaks."""

from __future__ import annotations

from verify.kit import (
    Visibility, Zone, ZoneSpec, ZoneTable, conservation_problems, freeze, outcome_from_scores, rank_sides,
    zone_fields,
)


def table():
    t = ZoneTable([ZoneSpec("deck", Visibility.NOBODY, ordered=True), ZoneSpec("hand", Visibility.OWNER, per_player=True),
                   ZoneSpec("market", Visibility.EVERYONE)], ["P1", "P2"])
    t["deck"] = [5, 4]
    t["hand", "P1"] = [3, 1]
    t["hand", "P2"] = [2]
    t["market"] = [6]
    return t


def test_a_player_sees_own_hand_and_public_zones_and_only_sizes_of_the_rest():
    seen = zone_fields(table().zones(), viewer="P1", everything=False)
    assert seen == {"deck": {"hidden": 2}, "hand": {"P1": [1, 3], "P2": {"hidden": 1}}, "market": [6]}


def test_expect_fields_show_every_zone_and_keep_order_where_it_matters():
    assert zone_fields(table().zones()) == {"deck": [5, 4], "hand": {"P1": [1, 3], "P2": [2]}, "market": [6]}


def test_a_secret_size_is_hidden_too():
    zone = Zone("pile", [1, 2], Visibility.NOBODY, size_public=False)
    assert zone_fields([zone], viewer="P1", everything=False) == {"pile": {"hidden": None}}


def test_conservation_finds_missing_doubled_and_unknown_components():
    zones = table().zones()
    assert conservation_problems(zones, {n: 1 for n in range(1, 7)}) == []
    zones[0].cards.append(3)
    zones[0].cards.append(99)
    problems = conservation_problems(zones, {n: 1 for n in range(1, 8)})
    assert any("3 is in 2 places" in p and "P1's hand" in p for p in problems)
    assert any("99 is no component" in p for p in problems)
    assert any("7 is missing" in p for p in problems)


def test_a_table_copy_shares_no_list():
    t = table()
    other = t.copy()
    other["hand", "P1"].append(9)
    assert t["hand", "P1"] == [3, 1]


def test_ties_share_a_place_and_the_next_place_is_skipped():
    outcome = outcome_from_scores({"P1": 5, "P2": 7, "P3": 7, "P4": 1})
    result = outcome.as_result()
    assert result["winner"] is None and result["winners"] == ["P2", "P3"] and result["shared"]
    assert result["ranks"] == {"P2": 1, "P3": 1, "P1": 3, "P4": 4}


def test_tie_breaks_apply_in_order_and_are_reported_when_used():
    outcome = outcome_from_scores({"P1": 5, "P2": 5, "P3": 2},
                                  tiebreaks=[("capitals", {"P1": 1, "P2": 1, "P3": 0}), ("cities", {"P1": 2, "P2": 3, "P3": 9})])
    assert outcome.winners == ["P2"] and outcome.tiebreaks == ["cities"]
    groups, used = rank_sides(["a", "b"], [("score", {"a": 1, "b": 2}), ("x", {"a": 5, "b": 0})])
    assert groups == [["b"], ["a"]] and used == []


def test_teams_share_score_and_place():
    outcome = outcome_from_scores({"red": 9, "blue": 4}, teams={"red": ["P1", "P3"], "blue": ["P2", "P4"]})
    result = outcome.as_result()
    assert result["winners"] == ["P1", "P3"] and result["winner"] is None and not result["shared"]
    assert result["ranks"] == {"P1": 1, "P3": 1, "P2": 2, "P4": 2} and result["teams"]["red"] == ["P1", "P3"]


def test_freeze_makes_plain_data_hashable_and_order_free_for_mappings():
    assert freeze({"b": [1, {2}], "a": 1}) == freeze({"a": 1, "b": [1, {2}]})
    hash(freeze({"x": [1, [2, 3]]}))
