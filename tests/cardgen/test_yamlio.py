"""The YAML loader: positions kept, and every kind of hostile or broken file refused in one line."""

from __future__ import annotations

import time

import pytest

from cardgen.errors import ContentError
from cardgen.yamlio import load_yaml


def write(tmp_path, data: bytes | str, name="f.yaml"):
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def error_of(path) -> str:
    with pytest.raises(ContentError) as info:
        load_yaml(path)
    return str(info.value)


def test_positions_of_nested_values_are_kept(tmp_path):
    data, loc = load_yaml(write(tmp_path, "cards:\n  - {id: a, n: 1}\n  - id: b\n    n: 2\n"))
    assert data == {"cards": [{"id": "a", "n": 1}, {"id": "b", "n": 2}]}
    assert loc.where(("cards", 1, "n")) == (4, 8)
    assert loc.where(("cards", 0, "n")) == (2, 16)


def test_missing_path_falls_back_to_nearest_parent(tmp_path):
    _, loc = load_yaml(write(tmp_path, "a:\n  b: 1\n"))
    assert loc.where(("a", "zz", 3)) == (2, 3)


def test_duplicate_key_is_an_error_with_its_line(tmp_path):
    assert error_of(write(tmp_path, "a: 1\nb: 2\na: 3\n")).endswith(":3:1: $.a: duplicate key 'a'")


def test_syntax_error_names_line(tmp_path):
    message = error_of(write(tmp_path, "a: [1, 2\nb: 3\n"))
    assert "f.yaml:" in message and "YAML syntax" in message


def test_not_utf8_names_the_byte_position(tmp_path):
    message = error_of(write(tmp_path, b"a: 1\nb: \xff\n"))
    assert message.endswith(":2:4: $: not valid UTF-8 (byte 0xff)")


def test_missing_file(tmp_path):
    assert error_of(tmp_path / "nope.yaml").endswith("nope.yaml: $: file not found")


def test_unsafe_tag_is_refused(tmp_path):
    assert "unsupported tag" in error_of(write(tmp_path, "a: !!python/object/apply:os.system [ls]\n"))


def test_alias_bomb_is_refused_quickly(tmp_path):
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for prev, name in zip("abcdefg", "bcdefgh"):
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    start = time.perf_counter()
    assert "more than" in error_of(write(tmp_path, "\n".join(lines) + "\n"))
    assert time.perf_counter() - start < 10  # a hang, not a timing figure: the bomb expands to 10^8


def test_deep_nesting_is_refused_at_its_own_line(tmp_path):
    flow = error_of(write(tmp_path, "a: 1\nb: " + "[" * 5000 + "]" * 5000 + "\n"))
    assert "nesting depth" in flow and ".yaml:2:" in flow
    block = "a: 1\n" + "".join("  " * i + "k:\n" for i in range(60)) + "  " * 60 + "leaf\n"
    message = error_of(write(tmp_path, block))
    assert "nested more than 40 levels" in message and ".yaml:43:" in message


def test_yes_no_on_off_stay_words_as_in_yaml_1_2(tmp_path):
    data, _ = load_yaml(write(tmp_path, "on: yes\nno: off\nflag: true\n"))
    assert data == {"on": "yes", "no": "off", "flag": True}


def test_nan_and_infinity_are_refused(tmp_path):
    for value in (".nan", ".inf", "-.Inf"):
        assert "is not a finite number" in error_of(write(tmp_path, f"size: {value}\n"))


def test_merge_keys_are_refused(tmp_path):
    assert "merge keys" in error_of(write(tmp_path, "a: &x {b: 1}\nc:\n  <<: *x\n"))


def test_empty_file_is_none(tmp_path):
    assert load_yaml(write(tmp_path, ""))[0] is None
