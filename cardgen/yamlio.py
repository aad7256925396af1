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
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardgen.errors import ContentError, printable

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_NODES = 200_000  # more values than any real content file; stops alias bombs cheaply
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
    """Builds plain data straight from the parser's events, counting values and depth as they
    arrive: an alias bomb or a file of a million values stops at the limit instead of being
    composed whole first, and deep nesting stops without recursion."""

    def __init__(self, path: Path, loader):
        self.locator = Locator(path)
        self.loader = loader
        self.count = 0
        # Every (json path, mark) in the order met, so an alias can repeat its anchor's positions.
        self.log: list[tuple[tuple, tuple[int, int]]] = []
        self.anchors: dict[str, tuple[Any, tuple, int, int]] = {}  # name -> value, path, log slice
        self.scalars: dict[tuple, Any] = {}

    def build(self) -> Any:
        loader = self.loader
        loader.get_event()  # the stream's start
        if loader.check_event(yaml.StreamEndEvent):
            return None
        loader.get_event()  # the document's start
        result = self._document()
        loader.get_event()  # the document's end
        if not loader.check_event(yaml.StreamEndEvent):
            event = loader.peek_event()
            raise self._error(event, (), "a content file holds one YAML document, not several")
        return result

    def _document(self) -> Any:
        # Each open collection is [value, json path, pending key (or _NO_KEY), anchor, log start].
        stack: list[list] = []
        root: list = []

        def place(value, path) -> None:
            if not stack:
                root.append(value)
                return
            top = stack[-1]
            if isinstance(top[0], list):
                top[0].append(value)
            else:
                top[0][top[2]] = value
                top[2] = _NO_KEY

        while True:
            if stack and isinstance(stack[-1][0], list):
                path = stack[-1][1] + (len(stack[-1][0]),)
            elif stack:
                top = stack[-1]
                if top[2] is _NO_KEY:
                    event = self.loader.get_event()
                    if isinstance(event, yaml.MappingEndEvent):
                        self._close(stack.pop())
                        place(top[0], top[1])
                        if not stack:
                            return root[0]
                        continue
                    top[2] = self._key(event, top)
                    continue
                path = top[1] + (top[2],)
            else:
                path = ()
            event = self.loader.get_event()
            if isinstance(event, yaml.SequenceEndEvent):
                top = stack.pop()
                self._close(top)
                place(top[0], top[1])
                if not stack:
                    return root[0]
                continue
            if isinstance(event, yaml.AliasEvent):
                place(self._alias(event, path), path)
            elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                mapping = isinstance(event, yaml.MappingStartEvent)
                kind = yaml.MappingNode if mapping else yaml.SequenceNode
                tag = event.tag if event.tag not in (None, "!") else self.loader.resolve(kind, None, event.implicit)
                if tag != ("tag:yaml.org,2002:map" if mapping else "tag:yaml.org,2002:seq"):
                    raise self._error(event, path, f"unsupported tag {tag!r}")
                self._count(event, path)
                stack.append([{} if mapping else [], path, _NO_KEY, event.anchor, len(self.log) - 1])
                continue
            else:
                value = self._scalar(event, path)
                self._count(event, path)
                if event.anchor is not None:
                    self.anchors[event.anchor] = (value, path, len(self.log) - 1, len(self.log))
                place(value, path)
            if not stack:
                return root[0]

    def _count(self, event, path: tuple) -> None:
        self.count += 1
        if self.count > MAX_NODES:
            raise self._error(event, path, f"more than {MAX_NODES} values (alias expansion?)")
        if len(path) > MAX_DEPTH:
            raise self._error(event, path[:MAX_DEPTH], f"nested more than {MAX_DEPTH} levels deep")
        mark = (event.start_mark.line + 1, event.start_mark.column + 1)
        self.locator.marks[path] = mark
        self.log.append((path, mark))

    def _close(self, frame: list) -> None:
        if frame[3] is not None:
            self.anchors[frame[3]] = (frame[0], frame[1], frame[4], len(self.log))

    def _alias(self, event, path: tuple) -> Any:
        if event.anchor not in self.anchors:
            raise self._error(event, path, f"unknown alias *{event.anchor}")
        value, anchored, first, last = self.anchors[event.anchor]
        # The alias stands for every value under its anchor: count them and place their positions.
        for sub_path, mark in self.log[first:last]:
            self.count += 1
            if self.count > MAX_NODES:
                raise self._error(event, path, f"more than {MAX_NODES} values (alias expansion?)")
            here = path + sub_path[len(anchored):]
            self.locator.marks[here] = mark if here != path else (event.start_mark.line + 1, event.start_mark.column + 1)
            self.log.append((here, mark))
        return value

    def _key(self, event, frame: list) -> Any:
        path = frame[1]
        if not isinstance(event, yaml.ScalarEvent):
            raise self._error(event, path, "mapping keys must be plain scalars")
        if event.value == "<<" and event.tag in (None, "tag:yaml.org,2002:merge"):
            raise self._error(event, path, "merge keys ('<<') are not supported")
        key = self._scalar(event, path)
        if event.anchor is not None:
            raise self._error(event, path, "anchors on keys are not supported")
        if key in frame[0]:
            raise self._error(event, path + (key,), f"duplicate key {key!r}")
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            raise self._error(event, path, f"a key must be a text or a whole number, not {event.value!r}"
                                           + (" (write it in quotes)" if event.value else ""))
        return key

    def _scalar(self, event, json_path: tuple) -> Any:
        # Short scalars repeat (numbers, ids, colours): each distinct one is resolved once.
        key = (event.value, event.tag, event.implicit)
        if key in self.scalars:
            return self.scalars[key]
        value = self._new_scalar(event, json_path)
        if len(event.value) <= 64:
            self.scalars[key] = value
        return value

    def _new_scalar(self, event, json_path: tuple) -> Any:
        tag = event.tag
        if tag in (None, "!"):
            tag = self.loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        if tag == _STR:
            return event.value
        if tag.startswith("tag:yaml.org,2002:") and tag.rsplit(":", 1)[1] in _SAFE_TAGS:
            node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
            try:
                value = _CONSTRUCTOR.yaml_constructors[tag](_CONSTRUCTOR, node)
            except (yaml.YAMLError, ValueError, OverflowError) as exc:
                raise self._error(event, json_path, f"bad value: {exc}") from None
            if isinstance(value, float) and not math.isfinite(value):
                raise self._error(event, json_path, f"{node.value!r} is not a finite number")
            return value
        raise self._error(event, json_path, f"unsupported tag {tag!r}")

    def _error(self, event, json_path: tuple, message: str) -> ContentError:
        mark = event.start_mark
        return ContentError(
            str(self.locator.path), mark.line + 1, mark.column + 1, format_json_path(json_path), message
        )


_NO_KEY = object()
_STR = "tag:yaml.org,2002:str"


_SAFE_TAGS = {"str", "int", "float", "bool", "null"}
_CONSTRUCTOR = yaml.SafeLoader("")


def read_regular_file(path: Path, limit: int = MAX_FILE_BYTES, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes, else a `ContentError`. The size is
    checked before anything is read (a huge sparse file costs nothing), and a named pipe, a device
    or a folder is refused without being read: opening a pipe for reading waits for a writer."""
    name = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ContentError(name, 0, 0, "$", f"{what} not found") from None
    except OSError as exc:
        raise ContentError(name, 0, 0, "$", f"cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ContentError(name, 0, 0, "$", f"not a regular file; only a plain {what} is read")
    if info.st_size > limit:
        raise ContentError(name, 1, 1, "$", f"{what} is larger than {limit} bytes")
    try:
        # O_NONBLOCK: should the name be swapped for a pipe after the check, opening still returns.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ContentError(name, 0, 0, "$", f"cannot read: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ContentError(name, 0, 0, "$", f"not a regular file; only a plain {what} is read")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise ContentError(name, 1, 1, "$", f"{what} is larger than {limit} bytes")
    except OSError as exc:
        raise ContentError(name, 0, 0, "$", f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def load_yaml(path: Path) -> tuple[Any, Locator]:
    """Read one YAML file safely; raise `ContentError` with file:line:col on any problem."""
    path = Path(path)
    raw = read_regular_file(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ContentError(str(path), line, col, "$", f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})") from None
    return load_yaml_text(text, path)


def load_yaml_text(text: str, path: Path | str) -> tuple[Any, Locator]:
    """YAML text (a file's, or an option's value named by `path`) read under every guard of
    `load_yaml`."""
    name = str(path)
    builder = _Builder(Path(name), _Loader(text))
    try:
        return builder.build(), builder.locator
    except yaml.reader.ReaderError as exc:
        # libyaml counts the position in bytes of the UTF-8 text.
        raw = text.encode("utf-8")
        start = raw.rfind(b"\n", 0, exc.position) + 1
        line = raw.count(b"\n", 0, exc.position) + 1
        col = len(raw[start:exc.position].decode("utf-8", "replace")) + 1
        shown = printable(chr(exc.character)) if isinstance(exc.character, int) else printable(exc.character)
        raise ContentError(name, line, col, "$", f"character {shown} is not allowed in YAML") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise ContentError(name, line, col, "$", f"YAML syntax: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise ContentError(name, 1, 1, "$", f"YAML error: {printable(exc)}") from None
    finally:
        builder.loader.dispose()
