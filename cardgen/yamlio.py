"""Safe YAML loading that remembers where every value came from.

`load_yaml` returns the plain data (dicts, lists, scalars) together with a `Locator` that maps a
JSON path such as ``("cards", 41, "ability")`` to the line and column of that value in the file.
Every problem a hostile or broken file can cause (bad UTF-8, syntax errors, duplicate keys, alias
bombs, unsafe tags, huge files, deep nesting, NaN and infinities) becomes one `ContentError` naming
the file and line. Booleans follow YAML 1.2: only true and false are booleans, so a key such as
`on:` or `no:` stays the word it is instead of turning into True or False. libyaml's C parser is
used where it is installed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardgen.errors import ContentError

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_NODES = 200_000  # more nodes than any real content file; stops alias bombs cheaply
MAX_DEPTH = 40  # deeper than any real content file


_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BOOL = "tag:yaml.org,2002:bool"


class _Loader(_BASE_LOADER):
    """The safe loader with YAML 1.2 booleans (yes/no/on/off are plain words)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _BOOL]
    for first, resolvers in _BASE_LOADER.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


@dataclass
class Locator:
    """Positions (1-based line, 1-based column) of every node, keyed by JSON path."""

    path: Path
    marks: dict[tuple, tuple[int, int]] = field(default_factory=dict)

    def where(self, json_path) -> tuple[int, int]:
        """The position of the deepest node on `json_path` that exists in the file."""
        keys = tuple(json_path)
        while keys not in self.marks and keys:
            keys = keys[:-1]
        return self.marks.get(keys, (1, 1))

    def error(self, json_path, message: str) -> ContentError:
        line, col = self.where(json_path)
        return ContentError(str(self.path), line, col, format_json_path(json_path), message)


def format_json_path(json_path) -> str:
    text = "$"
    for key in json_path:
        text += f"[{key}]" if isinstance(key, int) else f".{key}"
    return text


class _Builder:
    """Turns a composed node tree into plain data, refusing what a content file never needs."""

    def __init__(self, path: Path):
        self.locator = Locator(path)
        self.count = 0

    def build(self, node: yaml.Node, json_path: tuple) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise self._error(node, json_path, f"more than {MAX_NODES} values (alias expansion?)")
        if len(json_path) > MAX_DEPTH:
            raise self._error(node, json_path[:MAX_DEPTH], f"nested more than {MAX_DEPTH} levels deep")
        self.locator.marks[json_path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            if node.tag != "tag:yaml.org,2002:map":
                raise self._error(node, json_path, f"unsupported tag {node.tag!r}")
            result: dict = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self._error(key_node, json_path, "mapping keys must be plain scalars")
                if key_node.tag == "tag:yaml.org,2002:merge" or key_node.value == "<<":
                    raise self._error(key_node, json_path, "merge keys ('<<') are not supported")
                key = self._scalar(key_node, json_path)
                if key in result:
                    raise self._error(key_node, json_path + (key,), f"duplicate key {key!r}")
                result[key] = self.build(value_node, json_path + (key,))
            return result
        if isinstance(node, yaml.SequenceNode):
            if node.tag != "tag:yaml.org,2002:seq":
                raise self._error(node, json_path, f"unsupported tag {node.tag!r}")
            return [self.build(item, json_path + (i,)) for i, item in enumerate(node.value)]
        return self._scalar(node, json_path)

    def _scalar(self, node: yaml.ScalarNode, json_path: tuple) -> Any:
        if node.tag.startswith("tag:yaml.org,2002:") and node.tag.rsplit(":", 1)[1] in _SAFE_TAGS:
            try:
                value = _CONSTRUCTOR.construct_object(node, deep=True)
            except (yaml.YAMLError, ValueError, OverflowError) as exc:
                raise self._error(node, json_path, f"bad value: {exc}") from None
            if isinstance(value, float) and not math.isfinite(value):
                raise self._error(node, json_path, f"{node.value!r} is not a finite number")
            return value
        raise self._error(node, json_path, f"unsupported tag {node.tag!r}")

    def _error(self, node: yaml.Node, json_path: tuple, message: str) -> ContentError:
        mark = node.start_mark
        return ContentError(
            str(self.locator.path), mark.line + 1, mark.column + 1, format_json_path(json_path), message
        )


_SAFE_TAGS = {"str", "int", "float", "bool", "null"}
_CONSTRUCTOR = yaml.SafeLoader("")


def load_yaml(path: Path) -> tuple[Any, Locator]:
    """Read one YAML file safely; raise `ContentError` with file:line:col on any problem."""
    path = Path(path)
    name = str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ContentError(name, 0, 0, "$", "file not found") from None
    except OSError as exc:
        raise ContentError(name, 0, 0, "$", f"cannot read: {exc.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ContentError(name, 1, 1, "$", f"file is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ContentError(name, line, col, "$", f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})") from None
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise ContentError(name, line, col, "$", f"YAML syntax: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise ContentError(name, 1, 1, "$", f"YAML error: {exc}") from None
    except RecursionError:
        raise ContentError(name, 1, 1, "$", "nested too deeply") from None
    builder = _Builder(path)
    if node is None:
        return None, builder.locator
    try:
        return builder.build(node, ()), builder.locator
    except RecursionError:
        raise ContentError(name, 1, 1, "$", "nested too deeply") from None
