"""YAML documents that remember where every value came from.

PyYAML's composer keeps a mark for each node; reading through it (instead of
``safe_load``) lets every complaint about a data file name its line and
column, and lets unknown keys be rejected instead of silently ignored.
"""

from __future__ import annotations

import codecs
import math
import re
import reprlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from ..errors import DataError
from ..language.suggest import did_you_mean

MAX_BYTES = 250_000
"""The largest card or board file read (the bundled ones are under 3 kB; 250 kB of card text parses in seconds)."""
MAX_DEPTH = 64
"""The deepest nesting of lists and mappings read (the bundled files nest 8 deep)."""
MAX_NODES = 10_000
"""The most values a file may hold, an alias counting every value it repeats (the bundled files hold 230)."""
MAX_NUMBER_DIGITS = 100
"""The longest number read; fields bound their numbers further (see ``Field.as_int``)."""


class Field:
    """One YAML value with its position; ``value`` is plain Python data."""

    __slots__ = ("node", "doc")

    def __init__(self, node: yaml.Node, doc: Document) -> None:
        self.node = node
        self.doc = doc

    @property
    def line(self) -> int:
        return int(self.node.start_mark.line) + 1

    @property
    def column(self) -> int:
        return int(self.node.start_mark.column) + 1

    @property
    def value(self) -> Any:
        try:
            return _Constructor().construct_document(self.node)
        except yaml.MarkedYAMLError as exc:  # pragma: no cover - Document already constructed every node
            raise self.doc.marked_error(exc) from None

    def error(self, message: str, expected: str = "") -> DataError:
        return self.doc.error(message, self.line, self.column, expected)

    def is_block(self) -> bool:
        """Whether the value is a ``|`` or ``>`` block scalar (every line indented)."""
        return getattr(self.node, "style", None) in ("|", ">")

    def text_origin(self) -> tuple[int, int]:
        """Line and column offsets that map positions inside a string value back into the file.

        A block scalar (``|``) starts on the line after its indicator; a
        quoted scalar one column after its quote.
        """
        style = getattr(self.node, "style", None)
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
            yield str(k.node.value), v

    def keyed_items(self) -> Iterator[tuple[Field, Field]]:
        """The keys and values of a mapping, each key as a field of its own (keys are always scalars)."""
        if not isinstance(self.node, yaml.MappingNode):
            raise self.error("expected a mapping of keys to values", "key: value lines")
        for k, v in self.node.value:
            yield Field(k, self.doc), Field(v, self.doc)

    def as_list(self) -> list[Field]:
        if not isinstance(self.node, yaml.SequenceNode):
            raise self.error("expected a list", "a list such as [1, 2]")
        return [Field(n, self.doc) for n in self.node.value]

    def mapping(self, allowed: dict[str, bool], what: str) -> dict[str, Field]:
        """The keys of a mapping, rejecting unknown ones and missing required ones.

        ``allowed`` maps each key to whether it is required.
        """
        out: dict[str, Field] = {}
        if not isinstance(self.node, yaml.MappingNode):
            raise self.error(f"{what} must be a mapping of keys to values", "key: value lines")
        for k, v in self.node.value:
            key = str(k.value)
            if key not in allowed:
                raise self.doc.error(
                    f"unknown key {key!r} in {what}{did_you_mean(key, allowed)}",
                    int(k.start_mark.line) + 1,
                    int(k.start_mark.column) + 1,
                    "one of " + ", ".join(sorted(allowed)),
                )
            if key in out:
                raise self.doc.error(f"key {key!r} appears twice in {what}",
                                     int(k.start_mark.line) + 1, int(k.start_mark.column) + 1)
            out[key] = Field(v, self.doc)
        missing = [k for k, required in allowed.items() if required and k not in out]
        if missing:
            raise self.error(f"{what} lacks the required key {missing[0]!r}", f"a {missing[0]!r} entry")
        return out


class Document:
    """A parsed YAML file: its root field, its text and its path for messages.

    Every value is constructed once here, so that a bad tag or an unreadable
    value (``!!int abc``, a date like 2020-13-45, ``!!python/object``) is an
    error at its line and column when the file is read, whoever reads it.
    """

    def __init__(self, path: Path, text: str) -> None:
        self.path = str(path)
        self.lines = text.split("\n")
        try:
            node = yaml.compose(text, Loader=_Loader)
            if node is not None:
                _Constructor().construct_document(node)
        except _Refused as exc:
            raise self.marked_error(exc, exc.expected) from None
        except yaml.constructor.ConstructorError as exc:
            raise self.marked_error(exc, "a plain value, or quotes around it to make it text") from None
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = int(mark.line) + 1 if mark else 0
            column = int(mark.column) + 1 if mark else 0
            raise self.error(f"this is not valid YAML: {exc.problem or exc.context}", line, column,
                             "well-formed YAML (check indentation and colons)") from None
        except yaml.reader.ReaderError as exc:
            line, column = _position(text, exc.position)
            raise self.error(f"the file contains a character YAML does not allow ({exc.character!r})",
                             line, column, "printable text") from None
        except yaml.YAMLError as exc:  # pragma: no cover - PyYAML's other errors are all marked
            raise self.error(f"this is not valid YAML: {exc}", 0, 0) from None
        if node is None:
            raise DataError("the file is empty", path=self.path, expected="a YAML mapping")
        self.root = Field(node, self)

    def error(self, message: str, line: int, column: int, expected: str = "") -> DataError:
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return DataError(message, path=self.path, line=line, column=column, source_line=source,
                         expected=expected)

    def marked_error(self, exc: yaml.MarkedYAMLError, expected: str = "") -> DataError:
        """A refused or unconstructible value, at the position PyYAML marked."""
        mark = exc.problem_mark or exc.context_mark
        line = int(mark.line) + 1 if mark else 0
        column = int(mark.column) + 1 if mark else 0
        problem = exc.problem or exc.context or "this value cannot be read"
        return self.error(problem, line, column, expected)


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def read(path: Path, *, skip: str | None = None) -> Document:
    """The file at ``path``: UTF-8 YAML of at most ``MAX_BYTES``, or a DataError naming it.

    ``skip`` names a top-level key whose block is left unread (its lines blanked, so every
    other position stays exact): ``load_rules`` skips a card's ``examples:``, most of its
    text, which only ``cards test`` and ``cards check`` read.
    """
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise DataError(f"cannot read the file: {exc.strerror}", path=str(path)) from None
    if len(data) > MAX_BYTES:
        raise DataError(f"the file is larger than {MAX_BYTES:,} bytes", path=str(path),
                        expected=f"a card or board file of at most {MAX_BYTES // 1000} kB")
    text = decode(data, str(path))
    return Document(path, _blank_block(text, skip) if skip else text)


def _blank_block(text: str, key: str) -> str:
    """``text`` with the top-level ``key:`` block's lines emptied, when that block is plainly indented.

    The block runs from ``key:`` at column 0 to the next line that starts at column 0 (another
    key, or a document marker).  If any line in between is not indented or a comment, the text
    is returned whole: an odd file is read as it is, never guessed at.
    """
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith(f"{key}:")), None)
    if start is None:
        return text
    end = start + 1
    while end < len(lines) and (not lines[end] or lines[end][0] in " \t#"):
        end += 1
    if end < len(lines) and not re.match(r"[A-Za-z_][\w-]*:", lines[end]):
        return text
    return "\n".join([*lines[:start], *([""] * (end - start)), *lines[end:]])


_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
              (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))
_SAVE_AS_UTF8 = "UTF-8 text (save the file with the UTF-8 encoding)"


def decode(data: bytes, path: str) -> str:
    """The text of a UTF-8 file (a UTF-8 byte-order mark is dropped); any other encoding is a DataError."""
    for bom, encoding in _WIDE_BOMS:
        if data.startswith(bom):
            raise DataError(f"the file is {encoding} text (it starts with a {encoding} byte-order mark); "
                            "card and board files must be UTF-8", path=path, line=1, column=1,
                            expected=_SAVE_AS_UTF8)
    data = data.removeprefix(codecs.BOM_UTF8)
    nul = data.find(b"\0")
    if nul >= 0:
        line, column, _ = _byte_position(data, nul)
        raise DataError("the file contains NUL bytes, as UTF-16 or UTF-32 text does; card and board files "
                        "must be UTF-8", path=path, line=line, column=column, expected=_SAVE_AS_UTF8)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column, source = _byte_position(data, exc.start)
        raise DataError(f"the file is not UTF-8: byte 0x{data[exc.start]:02x} cannot be read as UTF-8 "
                        "(is it Latin-1 or Windows-1252?)", path=path, line=line, column=column,
                        source_line=source, expected=_SAVE_AS_UTF8) from None


def _byte_position(data: bytes, offset: int) -> tuple[int, int, str]:
    """1-based line and column of a byte offset, and its line (undecodable bytes shown as \ufffd)."""
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    column = len(data[start:offset].decode("utf-8", "replace")) + 1
    return data.count(b"\n", 0, offset) + 1, column, data[start:end if end >= 0 else len(data)].decode(
        "utf-8", "replace")


class _Refused(yaml.MarkedYAMLError):
    """Well-formed YAML that this library does not read: too deep, too big, an alias or a list as a key."""

    def __init__(self, problem: str, mark: Any, expected: str) -> None:
        super().__init__(problem=problem, problem_mark=mark)
        self.expected = expected


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, with the document's size and shape bounded while it is composed.

    Nesting deeper than ``MAX_DEPTH`` (PyYAML's composer recurses, so
    ``[[[[...`` would raise ``RecursionError``), more than ``MAX_NODES``
    values counting what every alias repeats (a "billion laughs" file), an
    alias inside the value it names and a key that is not a scalar are refused
    at the offending mark.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._count = 0
        self._open: set[str] = set()  # anchors of the collections being composed
        self._sizes: dict[int, int] = {}  # values in a composed node, aliases expanded

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(parent, yaml.MappingNode) and index is None and not isinstance(event, yaml.ScalarEvent):
            what = "an alias" if isinstance(event, yaml.AliasEvent) else "a list or mapping"
            raise _Refused(f"a mapping key must be a word or number, not {what}", event.start_mark,
                           "a plain key such as name:")
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in self._open:
                raise _Refused(f"the alias *{event.anchor} is inside the value it names", event.start_mark,
                               "an alias after the end of its anchored value")
            target = self.anchors.get(event.anchor)
            self._add(self._size(target) if target is not None else 1, event.start_mark)
            return super().compose_node(parent, index)
        self._add(1, event.start_mark)
        if not isinstance(event, yaml.CollectionStartEvent):
            return super().compose_node(parent, index)
        if self._depth >= MAX_DEPTH:
            raise _Refused(f"lists and mappings are nested more than {MAX_DEPTH} deep here", event.start_mark,
                           f"at most {MAX_DEPTH} levels of nesting")
        self._depth += 1
        if event.anchor is not None:
            self._open.add(event.anchor)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1
            self._open.discard(event.anchor or "")

    def _add(self, values: int, mark: Any) -> None:
        self._count += values
        if self._count > MAX_NODES:
            raise _Refused(f"the file holds more than {MAX_NODES:,} values here, counting every value an alias "
                           "repeats", mark, f"at most {MAX_NODES:,} values (fewer or smaller aliases)")

    def _size(self, node: yaml.Node) -> int:
        """How many values ``node`` stands for, every alias inside it expanded (memoised: nodes are shared)."""
        size = self._sizes.get(id(node))
        if size is None:
            if isinstance(node, yaml.SequenceNode):
                size = 1 + sum(self._size(n) for n in node.value)
            elif isinstance(node, yaml.MappingNode):
                size = 1 + sum(self._size(k) + self._size(v) for k, v in node.value)
            else:
                size = 1
            self._sizes[id(node)] = size
        return size


_KINDS = {"tag:yaml.org,2002:int": "whole number", "tag:yaml.org,2002:float": "number",
          "tag:yaml.org,2002:bool": "true or false", "tag:yaml.org,2002:timestamp": "date",
          "tag:yaml.org,2002:null": "null"}


class _Constructor(yaml.constructor.SafeConstructor):
    """PyYAML's safe constructor; a scalar it cannot convert is a ConstructorError at the scalar.

    ``SafeConstructor`` raises ``ValueError``, ``KeyError`` or ``AttributeError``
    for ``!!int abc``, ``!!bool maybe`` or ``!!timestamp abc``, and Python's
    ``int`` refuses more than 4300 digits; numbers here have at most
    ``MAX_NUMBER_DIGITS`` digits.
    """

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node.tag not in self.yaml_constructors:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise yaml.constructor.ConstructorError(
                None, None, f"the tag {show(tag)[1:-1]} is not allowed: card and board files hold plain values",
                node.start_mark)
        kind = _KINDS.get(node.tag, node.tag)
        if kind in ("whole number", "number") and isinstance(node.value, str) \
                and sum(c.isdigit() for c in node.value) > MAX_NUMBER_DIGITS:
            raise yaml.constructor.ConstructorError(
                None, None, f"this number has {sum(c.isdigit() for c in node.value):,} digits; numbers have at "
                f"most {MAX_NUMBER_DIGITS}", node.start_mark)
        try:
            value = super().construct_object(node, deep=deep)
        except (ValueError, KeyError, AttributeError, TypeError, OverflowError) as exc:
            if isinstance(exc, yaml.YAMLError):
                raise
            what = show(node.value) if isinstance(node, yaml.ScalarNode) else "this value"
            raise yaml.constructor.ConstructorError(
                None, None, f"{what} is not a valid {kind.removeprefix('tag:yaml.org,2002:')}",
                node.start_mark) from None
        if isinstance(value, int) and abs(value).bit_length() > MAX_NUMBER_DIGITS * 3.33:
            raise yaml.constructor.ConstructorError(
                None, None, f"this number has more than {MAX_NUMBER_DIGITS} digits", node.start_mark)
        return value


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxdict = _SHORT.maxset = _SHORT.maxtuple = 6
_SHORT.maxlevel = 3


def show(value: Any) -> str:
    """A value for a message: its repr, cut short (a file may hold long strings and lists)."""
    return _SHORT.repr(value)
