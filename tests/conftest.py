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
