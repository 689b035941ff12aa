"""A file's bytes to text and its text to :class:`~.yamlnode.Node` trees: the slow path of ``yamlfile.read``.

A file is read as UTF-8 only (other encodings are refused at the first byte that
gives them away), with the block ``load_rules`` does not need blanked.

PyYAML's pure-Python composer keeps a mark for each node and raises errors at exact
positions; a subclass bounds the document's size and shape while it is composed.  The
composed nodes are then constructed once (so that a bad tag or an unreadable value is
an error at its line and column when the file is read, whoever reads it), and turned
into plain ``Node`` trees that the cache can keep.

Kept apart from ``yamlfile`` because PyYAML takes longer to import than a warm load
takes in all: a process whose files are all in the cache never imports this module.
"""

from __future__ import annotations

import codecs
import re
from typing import Any

import yaml

from ..errors import DataError
from .yamlnode import MAX_DEPTH, MAX_NODES, MAX_NUMBER_DIGITS, Node, error_at, show


def blank_block(text: str, key: str) -> str:
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


def compose(text: str, path: str) -> Node:
    """The tree of ``text``, the file ``path``, or a DataError at the offending line and column."""
    try:
        root = yaml.compose(text, Loader=_Loader)
        if root is None:
            raise DataError("the file is empty", path=path, expected="a YAML mapping")
        constructed = _Constructor().construct_all(root)
    except _Refused as exc:
        raise _marked_error(path, text, exc, exc.expected) from None
    except yaml.constructor.ConstructorError as exc:
        raise _marked_error(path, text, exc, "a plain value, or quotes around it to make it text") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = int(mark.line) + 1 if mark else 0
        column = int(mark.column) + 1 if mark else 0
        raise _error(path, text, f"this is not valid YAML: {exc.problem or exc.context}", line, column,
                     "well-formed YAML (check indentation and colons)") from None
    except yaml.reader.ReaderError as exc:
        line, column = _position(text, exc.position)
        raise _error(path, text, f"the file contains a character YAML does not allow ({exc.character!r})",
                     line, column, "printable text") from None
    except yaml.YAMLError as exc:  # pragma: no cover - PyYAML's other errors are all marked
        raise _error(path, text, f"this is not valid YAML: {exc}", 0, 0) from None
    return _Converter(constructed).node(root)


def _marked_error(path: str, text: str, exc: yaml.MarkedYAMLError, expected: str = "") -> DataError:
    """A refused or unconstructible value, at the position PyYAML marked."""
    mark = exc.problem_mark or exc.context_mark
    line = int(mark.line) + 1 if mark else 0
    column = int(mark.column) + 1 if mark else 0
    problem = exc.problem or exc.context or "this value cannot be read"
    return _error(path, text, problem, line, column, expected)


def _error(path: str, text: str, message: str, line: int, column: int, expected: str = "") -> DataError:
    """A DataError at ``line`` and ``column`` of the file ``path`` whose text is ``text`` (as ``Document.error``)."""
    return error_at(path, text.split("\n"), message, line, column, expected)


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


_UNMADE = object()


class _Converter:
    """PyYAML nodes to ``Node``\\s, each with the Python value PyYAML constructed for it.

    An alias is the node it names, in PyYAML's tree and in the ``Node`` tree alike, so
    a value repeated through aliases is kept (and stored) once.
    """

    def __init__(self, constructed: dict[Any, Any]) -> None:
        self._constructed = constructed
        self._done: dict[int, Node] = {}

    def node(self, node: yaml.Node) -> Node:
        found = self._done.get(id(node))
        if found is not None:
            return found
        data = self._constructed.get(node, _UNMADE)
        if data is _UNMADE:  # a member of an !!omap or !!pairs, which PyYAML constructs only as a part
            data = _Constructor().construct_document(node)
        line, column = int(node.start_mark.line) + 1, int(node.start_mark.column) + 1
        style = getattr(node, "style", None)
        span = int(node.start_mark.index), int(node.end_mark.index)
        if isinstance(node, yaml.MappingNode):
            pairs = tuple((self.node(k), self.node(v)) for k, v in node.value)
            out = Node("mapping", line, column, style, "", (), pairs, data, *span)
        elif isinstance(node, yaml.SequenceNode):
            out = Node("sequence", line, column, style, "", tuple(self.node(n) for n in node.value), (), data, *span)
        else:
            out = Node("scalar", line, column, style, str(node.value), (), (), data, *span)
        self._done[id(node)] = out
        return out


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

    def construct_all(self, node: yaml.Node) -> dict[Any, Any]:
        """Every node's value: ``construct_document``, keeping what it made of each node on the way."""
        self.construct_object(node)
        while self.state_generators:
            generators, self.state_generators = self.state_generators, []
            for generator in generators:
                for _ in generator:
                    pass
        constructed: dict[Any, Any] = self.constructed_objects
        self.constructed_objects, self.recursive_objects, self.deep_construct = {}, {}, False
        return constructed

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
