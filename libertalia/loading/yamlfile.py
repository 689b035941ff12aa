"""YAML documents that remember where every value came from.

PyYAML's composer keeps a mark for each node; reading through it (instead of
``safe_load``) lets every complaint about a data file name its line and
column, and lets unknown keys be rejected instead of silently ignored.

Composing is slow (PyYAML's composer is pure Python, and PyYAML itself takes a
while to import), so each file's tree of ``Node`` objects is kept in the cache
(``loading.cache``) under the file's bytes: a warm start imports no PyYAML and
composes nothing (``yamlcompose`` is the slow path).  Only files that read without
error are kept, so every error comes from a real reading of the file, at the exact
line and column it always had.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import DataError
from ..suggest import did_you_mean
from . import cache
from .codec import Codec
from .yamlnode import MAX_DEPTH as MAX_DEPTH
from .yamlnode import MAX_NODES as MAX_NODES
from .yamlnode import MAX_NUMBER_DIGITS as MAX_NUMBER_DIGITS
from .yamlnode import Node, error_at, show

MAX_BYTES = 250_000
"""The largest card or board file read (the bundled ones are under 3 kB; 250 kB of card text parses in seconds)."""
_FIRST_READ = 64 * 1024

class Field:
    """One YAML value with its position; ``value`` is plain Python data."""

    __slots__ = ("node", "doc")

    def __init__(self, node: Node, doc: Document) -> None:
        self.node = node
        self.doc = doc

    @property
    def line(self) -> int:
        return self.node.line

    @property
    def column(self) -> int:
        return self.node.column

    @property
    def value(self) -> Any:
        """The value as plain Python data, a fresh copy each time (callers may change it)."""
        data = self.node.data
        return copy.deepcopy(data) if isinstance(data, (list, dict, set)) else data

    def error(self, message: str, expected: str = "") -> DataError:
        return self.doc.error(message, self.line, self.column, expected)

    @property
    def extent(self) -> tuple[int, int]:
        """Where the value is written: character offsets of its start and end in ``Document.text``.

        A block scalar's extent runs from its ``|`` to the line after its last one (its
        trailing blank lines included); a quoted one's covers its quotes.
        """
        return self.node.offset, self.node.end

    def is_block(self) -> bool:
        """Whether the value is a ``|`` or ``>`` block scalar (every line indented)."""
        return self.node.style in ("|", ">")

    def text_origin(self) -> tuple[int, int]:
        """Line and column offsets that map positions inside a string value back into the file.

        A block scalar (``|``) starts on the line after its indicator; a
        quoted scalar one column after its quote.
        """
        style = self.node.style
        if self.is_block():
            first = self.line  # 1-based line of the indicator = 0-based first content line
            raw = self.doc.lines[first] if first < len(self.doc.lines) else ""
            indent = len(raw) - len(raw.lstrip(" "))
            return first, indent
        if style in ("'", '"'):
            return self.line - 1, self.column
        return self.line - 1, self.column - 1

    def as_str(self, what: str) -> str:
        v = self.value
        if not isinstance(v, str):
            raise self.error(f"{what} must be text", "a string")
        return v

    def as_int(self, what: str, minimum: int | None = None, maximum: int | None = None) -> int:
        v = self.value
        number = isinstance(v, int) and not isinstance(v, bool)
        if number and maximum is not None and v > maximum:
            raise self.error(f"{what} must be a whole number of at most {maximum}, not {show(v)}",
                             f"a whole number of at most {maximum}")
        if not number or (minimum is not None and v < minimum):
            bound = f" of at least {minimum}" if minimum is not None else ""
            raise self.error(f"{what} must be a whole number{bound}, not {show(v)}", "a whole number")
        return int(v)

    def as_number(self, what: str, limit: float | None = None) -> float:
        """A finite number (``.nan`` and ``.inf`` are refused), of at most ``limit`` either side of 0."""
        v = self.value
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise self.error(f"{what} must be a number, not {show(v)}", "a number")
        if not math.isfinite(v):
            raise self.error(f"{what} must be a finite number, not {show(v)}", "a number such as 7 or 20.5")
        if limit is not None and abs(v) > limit:
            raise self.error(f"{what} must be a number from {-limit:g} to {limit:g}, not {show(v)}",
                             f"a number from {-limit:g} to {limit:g}")
        return float(v)

    def items(self) -> Iterator[tuple[str, Field]]:
        for k, v in self.keyed_items():
            yield k.node.text, v

    def keyed_items(self) -> Iterator[tuple[Field, Field]]:
        """The keys and values of a mapping, each key as a field of its own (keys are always scalars)."""
        if self.node.kind != "mapping":
            raise self.error("expected a mapping of keys to values", "key: value lines")
        for k, v in self.node.pairs:
            yield Field(k, self.doc), Field(v, self.doc)

    def as_list(self) -> list[Field]:
        if self.node.kind != "sequence":
            raise self.error("expected a list", "a list such as [1, 2]")
        return [Field(n, self.doc) for n in self.node.children]

    def mapping(self, allowed: dict[str, bool], what: str) -> dict[str, Field]:
        """The keys of a mapping, rejecting unknown ones and missing required ones.

        ``allowed`` maps each key to whether it is required.
        """
        out: dict[str, Field] = {}
        if self.node.kind != "mapping":
            raise self.error(f"{what} must be a mapping of keys to values", "key: value lines")
        for k, v in self.node.pairs:
            key = k.text
            if key not in allowed:
                raise self.doc.error(
                    f"unknown key {key!r} in {what}{did_you_mean(key, allowed)}",
                    k.line,
                    k.column,
                    "one of " + ", ".join(sorted(allowed)),
                )
            if key in out:
                raise self.doc.error(f"key {key!r} appears twice in {what}", k.line, k.column)
            out[key] = Field(v, self.doc)
        missing = [k for k, required in allowed.items() if required and k not in out]
        if missing:
            raise self.error(f"{what} lacks the required key {missing[0]!r}", f"a {missing[0]!r} entry")
        return out


class Document:
    """A read YAML file: its root field, its text and its path for messages.

    Made from the text by ``yamlcompose.compose`` (which raises a DataError at the
    first problem), or from a tree the cache kept for this very text.  ``raw`` is the
    file's bytes as read (``read`` keeps them), for what must hash the file itself.
    """

    def __init__(self, path: Path | str, text: str, root: Node | None = None, *, raw: bytes = b"") -> None:
        self.path = str(path)
        self.raw = raw
        self.lines = text.split("\n")
        if root is None:
            from .yamlcompose import compose

            root = compose(text, self.path)
        self.root = Field(root, self)

    @property
    def text(self) -> str:
        """The text the document was read from (the file's, unless ``read`` blanked a block)."""
        return "\n".join(self.lines)

    def error(self, message: str, line: int, column: int, expected: str = "") -> DataError:
        return error_at(self.path, self.lines, message, line, column, expected)


def read(path: Path, *, skip: str | None = None) -> Document:
    """The file at ``path``: UTF-8 YAML of at most ``MAX_BYTES``, or a DataError naming it.

    ``skip`` names a top-level key whose block is left unread (its lines blanked, so every
    other position stays exact): ``load_rules`` skips a card's ``examples:``, most of its
    text, which only ``cards test`` and ``cards check`` read.

    What a file reads as depends only on its bytes (and ``skip``), so the text and tree
    are kept in the cache under those: a warm start neither decodes nor composes.  A
    file that does not read is never stored, so its errors always come from reading it.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read(_FIRST_READ)  # a card file fits; asking for MAX_BYTES would allocate them all
            if len(data) == _FIRST_READ:
                data += fh.read(MAX_BYTES + 1 - _FIRST_READ)
    except OSError as exc:
        raise DataError(f"cannot read the file: {exc.strerror}", path=str(path)) from None
    if len(data) > MAX_BYTES:
        raise DataError(f"the file is larger than {MAX_BYTES:,} bytes", path=str(path),
                        expected=f"a card or board file of at most {MAX_BYTES // 1000} kB")
    key = cache.key(f"{skip or ''}\n".encode() + data, *_SOURCES)
    stored = cache.load("yaml", key, _CODEC)
    if isinstance(stored, tuple) and len(stored) == 2 and isinstance(stored[0], str) and isinstance(stored[1], Node):
        return Document(path, stored[0], stored[1], raw=data)
    from .yamlcompose import blank_block, decode

    text = decode(data, str(path))
    doc = Document(path, blank_block(text, skip) if skip else text, raw=data)
    cache.save("yaml", key, ("\n".join(doc.lines), doc.root.node), _CODEC)
    return doc


_CODEC = Codec([(Node, Node.__slots__)])
"""A stored document is its text and its tree: ``Node``\\s and the plain values PyYAML makes, nothing else."""
_SOURCES = (Path(__file__), Path(__file__).with_name("yamlcompose.py"), Path(__file__).with_name("yamlnode.py"))
"""The code a stored document depends on besides the file: a change to it makes every stored one stale."""

