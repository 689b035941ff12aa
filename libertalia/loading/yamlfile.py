"""YAML documents that remember where every value came from.

PyYAML's composer keeps a mark for each node; reading through it (instead of
``safe_load``) lets every complaint about a data file name its line and
column, and lets unknown keys be rejected instead of silently ignored.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from ..errors import DataError
from ..language.suggest import did_you_mean


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
        return yaml.constructor.SafeConstructor().construct_document(self.node)

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

    def as_int(self, what: str, minimum: int | None = None) -> int:
        v = self.value
        if not isinstance(v, int) or isinstance(v, bool) or (minimum is not None and v < minimum):
            bound = f" of at least {minimum}" if minimum is not None else ""
            raise self.error(f"{what} must be a whole number{bound}, not {v!r}", "a whole number")
        return v

    def as_number(self, what: str) -> float:
        v = self.value
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise self.error(f"{what} must be a number, not {v!r}", "a number")
        return float(v)

    def items(self) -> Iterator[tuple[str, Field]]:
        if not isinstance(self.node, yaml.MappingNode):
            raise self.error("expected a mapping of keys to values", "key: value lines")
        for k, v in self.node.value:
            yield str(k.value), Field(v, self.doc)

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
    """A parsed YAML file: its root field, its text and its path for messages."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = str(path)
        self.lines = text.split("\n")
        try:
            node = yaml.compose(text, Loader=yaml.SafeLoader)
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


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def read(path: Path) -> Document:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read the file: {exc.strerror}", path=str(path)) from None
    return Document(path, text)
