"""A build preflights the printed cards side by side with the static checks; what the user is
told is as if they ran one after the other: the static checks' errors first and alone, the
preflight's findings only once the static checks found nothing."""

from __future__ import annotations

import cardgen.preflight
from cardgen.preflight import Finding
from tests.cli.test_check_cache import BUILD, run
from tests.conftest import edit


def broken_preflight(content, strict=False):
    raise RuntimeError("drawing failed on content the static checks refuse")


def test_static_errors_are_told_alone_even_when_the_preflight_fails(content_copy, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    scenario = sorted((content_copy / "game-of-trains" / "scenarios").glob("*.yaml"))[0]
    edit(scenario, "players:", "players: 9\nplayers_again:")
    monkeypatch.setattr(cardgen.preflight, "preflight", broken_preflight)
    code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "a"))
    assert code == 1 and scenario.name in out, out
    assert "drawing failed" not in out and "Traceback" not in out and "preflight" not in out, out
    assert not (tmp_path / "a").exists()


def test_the_preflights_findings_come_once_the_static_checks_pass(content_copy, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    error = Finding("error", "game-of-trains", "card c01", "overflow", "text 'Swap' runs past the trim")
    monkeypatch.setattr(cardgen.preflight, "preflight", lambda content, strict=False: [error])
    code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "a"))
    assert code == 1 and "runs past the trim" in out and "preflight: 1 error" in out, out
    assert not (tmp_path / "a").exists()
    # With the content broken as well, only the static checks' error is told.
    scenario = sorted((content_copy / "game-of-trains" / "scenarios").glob("*.yaml"))[0]
    edit(scenario, "players:", "players: 9\nplayers_again:")
    code, out = run(capsys, content_copy, *BUILD, "--out", str(tmp_path / "b"))
    assert code == 1 and scenario.name in out and "runs past the trim" not in out, out
