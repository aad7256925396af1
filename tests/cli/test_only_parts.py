"""`build --only`: the parts named and nothing else; the assembly page, which lists every part,
only in a whole build; an unknown part is a usage error naming the parts there are."""

from __future__ import annotations

import pytest

from cardgen.build import PARTS
from cardgen.cli import main

ONE_PAPER = ["--paper", "a4", "--layout", "home", "--lang", "en", "--workers", "1"]


def build(capsys, out, *args) -> tuple[int, str, list[str]]:
    with pytest.raises(SystemExit) as exit_:
        main(["build", *args, *ONE_PAPER, "--out", str(out)])
    stdout, stderr = capsys.readouterr()
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) if out.exists() else []
    return exit_.value.code or 0, stdout + stderr, made


def kind(name: str) -> str:
    """The part a file of a build belongs to, by its name."""
    stem = name.rsplit("/", 1)[-1]
    for prefix, part in (("cards-", "cards"), ("aids-", "aids"), ("proof-", "proof"), ("rules-", "rules"),
                         ("calibration-", "calibration"), ("assembly-", "assembly")):
        if stem.startswith(prefix):
            return part
    return "pieces"


@pytest.mark.parametrize("parts", [("cards",), ("rules", "pieces"), ("aids", "proof", "calibration")])
def test_only_the_parts_named_are_made(capsys, tmp_path, parts):
    code, out, made = build(capsys, tmp_path / "out", "spectral-rails", "--only", ",".join(parts))
    assert code == 0, out
    assert {kind(name) for name in made} == set(parts), made


def test_every_part_named_is_a_whole_build_with_its_assembly_page(capsys, tmp_path):
    code, out, whole = build(capsys, tmp_path / "a", "spectral-rails")
    assert code == 0, out
    code, out, named = build(capsys, tmp_path / "b", "spectral-rails", "--only", ",".join(reversed(PARTS)))
    assert code == 0, out
    assert named == whole and any(kind(name) == "assembly" for name in whole)
    assert {kind(name) for name in whole} == set(PARTS) | {"assembly"}


@pytest.mark.parametrize("only", ["cardz", "cards,assembly", ","])
def test_an_unknown_part_is_a_usage_error(capsys, tmp_path, only):
    code, out, made = build(capsys, tmp_path / "out", "flamme-rouge", "--only", only)
    assert code == 2 and "--only" in out and "Traceback" not in out, out
    assert made == []



def test_a_card_selection_needs_the_cards_part(capsys, tmp_path):
    code, out, made = build(capsys, tmp_path / "out", "spectral-rails", "--cards", "1-3", "--only", "rules")
    assert code == 2 and "--cards" in out and "--only" in out, out
    assert made == []
    code, out, made = build(capsys, tmp_path / "out", "spectral-rails", "--cards", "1-3", "--only", "cards")
    assert code == 0 and made and all(name.rsplit("/", 1)[-1].startswith("replacements-") for name in made), made
