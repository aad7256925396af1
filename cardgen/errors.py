"""Errors that the user caused and that the CLI reports as one line each (never a traceback), and
the two helpers every printer of content text goes through: `printable` (control characters shown
escaped, long values cut) and `display_path` (names quoted when they hold such characters)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

MAX_SHOWN = 300  # characters of one echoed value or message; the rest is counted, not shown

# C0 and C1 controls, DEL, and the marks that reorder or hide text on a terminal (bidi overrides
# and isolates, zero-width joiners, line and paragraph separators).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def _escape(match: re.Match) -> str:
    char = match.group(0)
    named = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
    if char in named:
        return named[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text, limit: int | None = MAX_SHOWN) -> str:
    """`text` as one terminal line: every control character shown escaped (an escape sequence in
    content cannot retitle or clear the terminal, a newline cannot forge a line), cut to `limit`
    characters with the rest counted."""
    text = str(text)
    if limit is not None and len(text) > limit:
        text = text[:limit] + f"... ({len(text) - limit} more characters)"
    return _CONTROL.sub(_escape, text)


def quoted_name(name) -> str:
    """A file, folder or game name as printed: unchanged when plain, else quoted with its control
    characters escaped, so a name holding a newline cannot pass for a line of output."""
    name = str(name)
    shown = printable(name, limit=None)
    return name if shown == name else "'" + shown + "'"


@dataclass(unsafe_hash=True)
class ContentError(Exception):
    """A problem in a content or scenario file, located as precisely as we can. Not frozen: the
    interpreter and context managers set `__traceback__` on an exception as it passes."""

    file: str
    line: int
    col: int
    json_path: str
    message: str

    def __str__(self) -> str:
        name = display_path(self.file)
        where = f"{name}:{self.line}:{self.col}" if self.line else name
        return f"{where}: {printable(self.json_path)}: {printable(self.message, limit=1000)}"


def display_path(path: str) -> str:
    """A path under the current folder is shown relative to it, as an editor or a shell would;
    quoted when it holds control characters."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        relative = ".."
    return quoted_name(str(path) if relative.startswith("..") else relative)


class ContentErrors(Exception):
    """Every error found in one pass, so the user can fix them all at once."""

    def __init__(self, errors: list[ContentError]):
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


class UsageError(Exception):
    """The user asked for something that does not exist (unknown game, bad option value)."""


class OutputError(Exception):
    """An output file or folder could not be written (read-only, full, not a folder)."""

    def __init__(self, path, cause: OSError):
        reason = cause.strerror or str(cause)
        super().__init__(f"cannot write {display_path(str(path))}: {reason}")
        self.path = path


class Interrupted(KeyboardInterrupt):
    """A signal asked the run to stop (SIGTERM, SIGHUP); handled as Ctrl-C is. The command line
    parser turns every KeyboardInterrupt into one of its own, so the signal is also kept on the
    class (`received`) for the exit status."""

    received: int | None = None

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
        Interrupted.received = signum
