"""Shared fixtures: the project's content folder and a writable copy of it for broken-content tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.content import PROJECT_CONTENT, load_game


@pytest.fixture(scope="session")
def trains():
    return load_game(PROJECT_CONTENT, "game-of-trains")


@pytest.fixture
def content_copy(tmp_path) -> Path:
    """A copy of the whole content folder that a test may break."""
    target = tmp_path / "content"
    shutil.copytree(PROJECT_CONTENT, target)
    return target


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace `old` by `new` in a file, insisting that `old` is there."""
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), "utf-8")


@pytest.fixture(scope="session", autouse=True)
def own_cache(tmp_path_factory):
    """Measured results are remembered in a cache of the test run's own, so no run depends on what
    an earlier one left in the user's cache."""
    import os

    previous = os.environ.get("CARDGEN_CACHE")
    os.environ["CARDGEN_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if previous is None:
        os.environ.pop("CARDGEN_CACHE", None)
    else:
        os.environ["CARDGEN_CACHE"] = previous
