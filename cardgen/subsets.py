"""Font subset tags that differ from file to file.

A PDF names each embedded font subset with a six-letter tag (`ABCDEF+Vera`). reportlab numbers
them from `AAAAAA` in every file, so two of our files merged by a print shop carry two different
`AAAAAA+Vera` subsets under one name and one of them prints with the wrong glyphs. `file_tags(key)`
derives every tag of a file from a key that names the file (the game and the file name): tags
differ between files and stay the same from one build to the next, so output stays byte-identical.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from typing import Callable, Iterator

from reportlab.pdfbase import ttfonts


def subset_tag(key: str, n: int) -> bytes:
    """Six capital letters for subset `n` of the file named by `key`."""
    digest = hashlib.sha256(f"{key}\x00{n}".encode("utf-8")).digest()
    return bytes(65 + b % 26 for b in digest[:6])


@contextmanager
def file_tags(key: str) -> Iterator[None]:
    """Within this block, subsets written by reportlab take their tags from `key`."""
    previous = ttfonts.SUBSETN
    ttfonts.SUBSETN = lambda n, *args, **kwargs: subset_tag(key, n)
    try:
        yield
    finally:
        ttfonts.SUBSETN = previous


def tagged(key: str, render: Callable) -> Callable:
    """`render` wrapped so the file it writes carries tags derived from `key`."""
    def run(path):
        with file_tags(key):
            return render(path)
    return run


__all__ = ["subset_tag", "file_tags", "tagged"]
