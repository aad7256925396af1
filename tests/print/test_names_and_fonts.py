"""Files that a shop may merge carry font subsets with tags of their own; short-flip files carry
their own names; the same content and options still give byte-identical files."""

from __future__ import annotations

from pypdf import PdfReader

from cardgen.build import card_sheet_name, planned_outputs
from tests.pdfcheck import fonts


def _tags(path) -> set[str]:
    return {name.lstrip("/").split("+")[0] for name in fonts(PdfReader(path))}


def test_every_file_has_its_own_subset_tags_and_rebuilds_identically(trains, tmp_path):
    planned = planned_outputs(trains, tmp_path, papers=("a4",), layouts=("home", "fold"), langs=("en",))
    chosen = [(p, r) for p, r in planned if p.name in ("cards-a4-home.pdf", "cards-a4-fold.pdf", "rules-a4-en.pdf")]
    assert len(chosen) == 3
    tags = {}
    for path, render in chosen:
        path.parent.mkdir(parents=True, exist_ok=True)
        render(path)
        tags[path.name] = _tags(path)
        assert "AAAAAA" not in tags[path.name]
        assert all(len(t) == 6 and t.isupper() for t in tags[path.name])
    names = list(tags)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not tags[a] & tags[b], (a, b)
    for path, render in chosen:
        before = path.read_bytes()
        render(path)
        assert path.read_bytes() == before, path.name


def test_short_flip_files_have_their_own_names(trains, tmp_path):
    long_names = {p.name for p, _ in planned_outputs(trains, tmp_path, papers=("a4",), flip="long")}
    short_names = {p.name for p, _ in planned_outputs(trains, tmp_path, papers=("a4",), flip="short")}
    assert "cards-a4-home.pdf" in long_names and "cards-a4-home-short.pdf" in short_names
    cards = lambda names: {n for n in names if n.startswith("cards-") and "fold" not in n}
    assert not cards(long_names) & cards(short_names)
    # A fold-over sheet is printed on one side: the flip does not change it.
    assert "cards-a4-fold.pdf" in short_names
    assert card_sheet_name("a4", "home", "short", "fronts") == "cards-a4-home-fronts.pdf"
    assert card_sheet_name("a4", "home", "short", "backs") == "cards-a4-home-backs-short.pdf"


def test_a_short_flip_build_names_its_calibration_sheet_and_the_assembly_page_says_so(trains, tmp_path):
    from cardgen.build import build_all

    written = build_all([trains], tmp_path, papers=("a4",), layouts=("home",), flip="short", langs=("en",),
                        calibration=True)
    assert [p.name for p in written] == ["cards-a4-home-short.pdf", "aids-a4-home-short.pdf", "proof-a4.pdf", "rules-a4-en.pdf", "assembly-a4-en.pdf",
                                         "calibration-a4-short.pdf", "calibration-a4-landscape-short.pdf"]
    text = " ".join(PdfReader(tmp_path / trains.id / "assembly-a4-en.pdf").pages[0].extract_text().split())
    # The home sheets lie landscape: the landscape sheet's reading corrects them.
    assert "print calibration-a4-landscape-short.pdf" in text and "flip on the short edge" in text
    assert "--back-offset-landscape X,Y" in text
