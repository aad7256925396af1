"""Comparing two readings of a rule over the same seeded games."""

from __future__ import annotations

import pytest

from cardgen.cli import main
from cardgen.content import PROJECT_CONTENT, load_game
from cardgen.registry import engine_for
from verify.compare import compare, recheck, wilson


@pytest.fixture(scope="module")
def mountain_stage():
    return engine_for(load_game(PROJECT_CONTENT, "flamme-rouge")).with_params(stage="la-haute-montagne")


def test_wilson_interval_brackets_the_proportion():
    low, high = wilson(10, 100)
    assert low < 0.1 < high and round(low, 3) == 0.055 and round(high, 3) == 0.174
    assert wilson(0, 50)[0] == 0.0 and wilson(50, 50)[1] == 1.0


def test_the_same_reading_twice_changes_nothing(mountain_stage):
    result = compare(mountain_stage, "mountains", (True, True), players=3, games=10, seed=3, policy="random")
    assert (result.winner_changed, result.order_changed, result.length_changed) == (0, 0, 0)


def test_two_readings_differ_and_the_figure_is_reproducible(mountain_stage):
    result = compare(mountain_stage, "mountains", (True, False), players=3, games=20, seed=3, policy="random")
    assert result.order_changed > 0
    record = {**result.as_record(), "params": {"stage": "la-haute-montagne"}}
    base = engine_for(load_game(PROJECT_CONTENT, "flamme-rouge"))
    assert recheck(base, "mountains", record) == []
    moved = recheck(base, "mountains", {**record, "winner_changed": record["winner_changed"] + 1})
    assert moved and "winner_changed: stored" in moved[0]


@pytest.mark.parametrize("text", ["mountains", "mountains=true", "mountains=true,", "=a,b", "mountains=true,false,true"])
def test_a_malformed_comparison_is_a_usage_error(text, capsys):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "flamme-rouge", "--players", "2", "--games", "1", "--compare", text])
    assert info.value.code == 2 and "--compare must look like KEY=A,B" in capsys.readouterr().err


@pytest.mark.parametrize("args, said", [
    (["--compare", "exhaustion_supply=limited,limited"], "both readings are limited"),
    (["--compare", "mountains=true,True"], "both readings are true"),
    (["--compare", "exhaustion_supply=limited,unlimited", "--param", "exhaustion_supply=limited"], "--param sets it too"),
    (["--param", "mountains=true", "--param", "mountains=false"], "--param mountains is given twice"),
])
def test_a_comparison_or_parameter_that_says_two_things_is_a_usage_error(args, said, capsys):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "flamme-rouge", "--players", "2", "--games", "1", *args])
    assert info.value.code == 2 and said in capsys.readouterr().err
