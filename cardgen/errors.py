"""Errors that the user caused and that the CLI reports as one line each (never a traceback)."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class ContentError(Exception):
    """A problem in a content or scenario file, located as precisely as we can."""

    file: str
    line: int
    col: int
    json_path: str
    message: str

    def __str__(self) -> str:
        name = display_path(self.file)
        where = f"{name}:{self.line}:{self.col}" if self.line else name
        return f"{where}: {self.json_path}: {self.message}"


def display_path(path: str) -> str:
    """A path under the current folder is shown relative to it, as an editor or a shell would."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if relative.startswith("..") else relative


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
