"""The plain tree a YAML file reads as, and the limits it is read within.

Shared by the two sides of reading a file: ``yamlcompose`` (the slow path, with PyYAML)
builds ``Node`` trees within these limits, and ``yamlfile`` wraps them, or the ones the
cache kept, in positioned fields.  Neither side imports the other's module for them.
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import Any

from ..errors import DataError

MAX_DEPTH = 64
"""The deepest nesting of lists and mappings read (the bundled files nest 8 deep)."""
MAX_NODES = 10_000
"""The most values a file may hold, an alias counting every value it repeats (the bundled files hold 230)."""
MAX_NUMBER_DIGITS = 100
"""The longest number read; fields bound their numbers further (see ``Field.as_int``)."""


class Node:
    """One value of a YAML file as read: its kind, where it starts, how it is written and what it is.

    ``kind`` is ``scalar``, ``sequence`` or ``mapping``; ``text`` is a scalar as written
    (a key's name), ``children`` a sequence's items and ``pairs`` a mapping's keys and
    values, in file order; ``data`` is the Python value PyYAML made of the whole node.
    ``offset`` and ``end`` are where the node's text starts and stops in the document's
    text (character offsets), so that a value can be rewritten in place (``cards check
    --fix``) without re-serialising, and so losing, the rest of the file.
    Plain slotted data, so that the cache stores and loads trees quickly and without
    PyYAML (``yamlcompose`` builds them).
    """

    __slots__ = ("kind", "line", "column", "style", "text", "children", "pairs", "data", "offset", "end")

    def __init__(self, kind: str, line: int, column: int, style: str | None, text: str,
                 children: tuple[Node, ...], pairs: tuple[tuple[Node, Node], ...], data: Any,
                 offset: int = 0, end: int = 0) -> None:
        self.kind = kind
        self.line = line  # 1-based, as are columns
        self.column = column
        self.style = style  # a scalar's: None (plain), "|" or ">" (block), "'" or '"' (quoted); else None
        self.text = text
        self.children = children
        self.pairs = pairs
        self.data = data
        self.offset = offset
        self.end = end


def error_at(path: str, lines: Sequence[str], message: str, line: int, column: int, expected: str = "") -> DataError:
    """A DataError at ``line`` and ``column`` of the file ``path`` whose text is ``lines``, showing that line."""
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    return DataError(message, path=path, line=line, column=column, source_line=source, expected=expected)


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxdict = _SHORT.maxset = _SHORT.maxtuple = 6
_SHORT.maxlevel = 3


def show(value: Any) -> str:
    """A value for a message: its repr, cut short (a file may hold long strings and lists)."""
    return _SHORT.repr(value)
