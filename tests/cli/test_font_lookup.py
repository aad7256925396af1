"""Finding a Chinese font as the platform does: fontconfig's answer (asked without a shell and
with a time limit), the folders of CARDGEN_FONT_PATH in its place, and a CFF-outline font (as Noto
Sans CJK ships) turned once into a cached TrueType copy that reportlab can embed."""

from __future__ import annotations

import hashlib
import itertools
import stat
import sys
from unittest.mock import patch

import pytest
from reportlab.pdfbase.ttfonts import TTFont

from cardgen import fontsearch, pdfdoc
from tests.cli.fontmaker import make_cff_font


@pytest.fixture
def clean_search(monkeypatch, tmp_path):
    """No project font, a private cache folder, and the search state of a fresh run."""
    monkeypatch.setattr(pdfdoc, "PROJECT_ROOT", tmp_path / "project")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # where macOS and Windows keep caches
    monkeypatch.delenv(pdfdoc.FONT_ENV, raising=False)
    monkeypatch.setattr(pdfdoc, "_found", None)
    monkeypatch.setattr(pdfdoc, "_cjk_choice", None)
    monkeypatch.setattr(pdfdoc, "_cjk_used", None)
    return tmp_path


def fake_program(folder, name: str, script: str):
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + script, "utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="fontconfig is the lookup on Linux")
def test_fontconfig_is_asked_for_traditional_chinese(clean_search, monkeypatch):
    log = clean_search / "asked"
    fake_program(clean_search / "bin", "fc-match", f'echo "$@" > {log}\nprintf "/fonts/Noto.ttc\\n3\\n"\n')
    monkeypatch.setenv("PATH", str(clean_search / "bin"))
    monkeypatch.delenv(fontsearch.FONT_PATH_ENV, raising=False)
    assert fontsearch.fc_match() == [(fontsearch.Path("/fonts/Noto.ttc"), 3, None, "fontconfig")]
    assert ":lang=zh-tw" in log.read_text()
    assert fontsearch.platform_candidates()[0][:2] == (fontsearch.Path("/fonts/Noto.ttc"), 3)


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for fc-match")
def test_a_fontconfig_that_hangs_is_given_up(clean_search, monkeypatch):
    fake_program(clean_search / "bin", "fc-match", "sleep 30\n")
    monkeypatch.setenv("PATH", str(clean_search / "bin"))
    monkeypatch.setattr(fontsearch, "FC_MATCH_TIMEOUT_S", 0.5)
    assert fontsearch.fc_match() == []


def test_an_empty_font_path_finds_no_font(clean_search, monkeypatch):
    (clean_search / "empty").mkdir()
    monkeypatch.setenv(fontsearch.FONT_PATH_ENV, str(clean_search / "empty"))
    with pytest.raises(pdfdoc.NoChineseFont, match="no Chinese font found"):
        pdfdoc.find_cjk_font()
    assert not pdfdoc.chinese_font_found()


def test_a_font_without_chinese_in_the_font_path_is_passed_over(clean_search, monkeypatch):
    fonts = clean_search / "fonts"
    fonts.mkdir()
    make_cff_font(fonts / "latin.otf", characters="ABCabc")
    monkeypatch.setenv(fontsearch.FONT_PATH_ENV, str(fonts))
    assert not pdfdoc.chinese_font_found()


def test_a_cff_font_is_embedded_through_a_cached_truetype_copy(clean_search, monkeypatch, capsys):
    fonts = clean_search / "fonts"
    fonts.mkdir()
    original = make_cff_font(fonts / "ProbeSansTC.otf")
    monkeypatch.setenv(fontsearch.FONT_PATH_ENV, str(fonts))
    path, face, _, origin = pdfdoc.find_cjk_font()
    assert path.parent == clean_search / "cache" / "cardgen" / "fonts" and face == 0
    assert "TrueType copy of" in origin and "converting" in capsys.readouterr().err
    font = TTFont("ProbeCopy", str(path))  # reportlab refuses CFF outlines; it takes the copy
    assert ord("中") in font.face.charToGlyph
    first = hashlib.sha256(path.read_bytes()).hexdigest()

    # A later run reuses the copy without converting again; made anew, it is the same bytes.
    monkeypatch.setattr(pdfdoc, "_found", None)
    assert pdfdoc.find_cjk_font()[0] == path and "converting" not in capsys.readouterr().err
    path.unlink()
    monkeypatch.setattr(pdfdoc, "_found", None)
    assert hashlib.sha256(pdfdoc.find_cjk_font()[0].read_bytes()).hexdigest() == first
    assert original.read_bytes()[:4] == b"OTTO"  # the system's own file is left as it was


def test_a_named_font_that_is_not_chinese_is_a_usage_error(clean_search):
    latin = make_cff_font(clean_search / "latin.otf", characters="ABC")
    pdfdoc.use_cjk_font(latin)
    with pytest.raises(pdfdoc.UsageError, match="--font: .* is not a font with Chinese glyphs"):
        pdfdoc.chinese_font_found()


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_the_usual_font_folders_of_macos_and_windows_are_searched(clean_search, monkeypatch, platform):
    monkeypatch.delenv(fontsearch.FONT_PATH_ENV, raising=False)
    monkeypatch.setattr(fontsearch.sys, "platform", platform)
    if platform == "darwin":
        folder = clean_search / "Library" / "Fonts"
        monkeypatch.setattr(fontsearch, "MAC_FONT_FOLDERS", (str(folder),))
        name = "PingFang.ttc"
    else:
        folder = clean_search / "Windows" / "Fonts"
        monkeypatch.setenv("WINDIR", str(folder.parent))
        monkeypatch.delenv("LOCALAPPDATA", raising=False)
        name = "msjh.ttc"
    folder.mkdir(parents=True)
    make_cff_font(folder / name)
    path, _, _, origin = pdfdoc.find_cjk_font()
    assert f"TrueType copy of {folder / name}" in origin and path.suffix == ".ttf"
    assert path.is_relative_to(clean_search / "home")


def test_what_a_font_holds_is_read_once_and_again_when_the_file_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    font = make_cff_font(tmp_path / "probe.otf")
    assert fontsearch.chinese_face(font, 0) == (0, False)

    def refuse(*args):
        raise AssertionError("the font was read again")

    with monkeypatch.context() as patched:
        patched.setattr(fontsearch, "_probe_chinese_face", refuse)
        assert fontsearch.chinese_face(font, 0) == (0, False)
    # Replaced by a font without Chinese glyphs: read again, and found wanting.
    make_cff_font(font, characters="ABCabc0123 ")
    assert fontsearch.chinese_face(font, 0) is None
    # A record that is not an answer is read past.
    for record in (tmp_path / "cache" / "fonts-probed").glob("*.json"):
        record.write_text('{"not": "an answer"}', "utf-8")
    assert fontsearch.chinese_face(font, 0) is None


FACE_FIELDS = ("name", "familyName", "ascent", "descent", "capHeight", "bbox", "flags", "italicAngle", "stemV",
               "unitsPerEm", "numGlyphs", "defaultWidth", "charToGlyph", "glyphToChar", "charWidths", "hmetrics",
               "glyphPos")


def _face_fields(face) -> dict:
    return {name: getattr(face, name) for name in FACE_FIELDS}


_FONT_NUMBERS = itertools.count()


def _pdf_with(face, text: str) -> bytes:
    import io

    from reportlab.pdfbase import pdfmetrics, ttfonts
    from reportlab.pdfgen.canvas import Canvas

    constructor = ttfonts.TTFontFace
    ttfonts.TTFontFace = lambda *args, **kwargs: face
    try:
        font = TTFont(f"Kept{next(_FONT_NUMBERS)}", face.filename)  # a name no earlier font took
    finally:
        ttfonts.TTFontFace = constructor
    out = io.BytesIO()
    # reportlab registers a second font of a face name it knows as the first one: this face, not
    # the same font registered earlier in the process, must set the text.
    with patch.dict(pdfmetrics._dynFaceNames, clear=True):
        pdfmetrics.registerFont(font)
        canvas = Canvas(out, invariant=1)
        canvas.setFont(font.fontName, 12)
        canvas.drawString(10, 10, text)
        canvas.save()
    return out.getvalue().replace(font.fontName.encode(), b"F")


def test_a_fonts_tables_are_kept_and_read_back_as_the_font_gives_them(tmp_path, monkeypatch):
    from reportlab.pdfbase import ttfonts

    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    font = tmp_path / "face.ttf"
    font.write_bytes(pdfdoc.latin_font_file().read_bytes())
    fresh = ttfonts.TTFontFace(str(font))
    first = pdfdoc._RememberedFace(str(font))
    assert _face_fields(first) == _face_fields(fresh)
    assert list((tmp_path / "cache" / "fonts-parsed").glob("*.marshal"))

    def refuse(self, charInfo=1):
        raise AssertionError("the font's tables were read again")

    with monkeypatch.context() as patched:
        patched.setattr(ttfonts.TTFontFile, "extractInfo", refuse)
        kept = pdfdoc._RememberedFace(str(font))
    assert _face_fields(kept) == _face_fields(fresh)
    assert kept.name.ustr == fresh.name.ustr and kept._pdfScale(2048) == fresh._pdfScale(2048)
    # A page set in the kept face holds the same bytes, subset font included; a second page with
    # the same glyphs embeds the subset made and compressed for the first.
    made, make = [], ttfonts.TTFontFile.makeSubset

    def counted(self, subset):
        made.append(list(subset))
        return make(self, subset)

    with monkeypatch.context() as patched:
        patched.setattr(ttfonts.TTFontFile, "makeSubset", counted)
        first_pdf, second_pdf = _pdf_with(kept, "Kept tables"), _pdf_with(kept, "Kept tables")
    assert first_pdf == second_pdf == _pdf_with(fresh, "Kept tables")
    assert len(made) == 1
    # Another font in the same place is read afresh.
    bold = pdfdoc.latin_font_file().with_name("VeraBd.ttf")
    font.write_bytes(bold.read_bytes())
    assert _face_fields(pdfdoc._RememberedFace(str(font))) == _face_fields(ttfonts.TTFontFace(str(bold)))
    # A kept copy that cannot be read is passed over.
    for record in (tmp_path / "cache" / "fonts-parsed").glob("*.marshal"):
        record.write_bytes(b"\x00not a record")
    assert _face_fields(pdfdoc._RememberedFace(str(font))) == _face_fields(ttfonts.TTFontFace(str(bold)))
