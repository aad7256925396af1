"""The games the contract tests run over: every game folder in the project's content."""

from __future__ import annotations

import pytest

from cardgen.content import PROJECT_CONTENT, discover_games, load_game
from cardgen.registry import engine_for

GAMES = discover_games(PROJECT_CONTENT)


@pytest.fixture(scope="session")
def contents():
    return {}


@pytest.fixture(params=GAMES)
def content(request, contents):
    if request.param not in contents:
        contents[request.param] = load_game(PROJECT_CONTENT, request.param)
    return contents[request.param]


@pytest.fixture
def engine(content):
    game = engine_for(content)
    if game is None:
        pytest.fail(f"{content.id} has no rules engine")
    return game
