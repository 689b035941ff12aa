"""Card texts in their canonical wording, and the edit that writes one back into its file.

The grammar accepts several wordings of one tree; ``render`` prints one of them, the
canonical wording, which is how the engine reads the card.  ``cards check`` notes a card
written otherwise and ``cards check --fix`` rewrites it.  The canonical wording comes
from the tree the loader kept for the card (``CharacterSpec.abilities``), not from a fresh
parse of the text, so that whatever the loader resolves after parsing is part of it.

PyYAML cannot write a file back as it was (comments, key order, quoting and the
``examples:`` block would all change), so the text is replaced where it is written: the
reader knows each value's extent in the file (``Field.extent``), and every other
character of the file is left as it was.  The functions here are pure; reading and
writing files is the command's job.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

import attrs

from ..errors import DataError
from ..language.render import render, render_ability
from ..syntax import ast
from .yamlfile import Document, Field


def canonical_text(abilities: Iterable[ast.Ability]) -> str:
    """The canonical wording of a card's abilities: one ability per line, as the engine reads them.

    Give it the abilities the loaded rules hold (``spec.abilities``), which include what the
    loader settles after parsing (a plural kind, say), rather than a parse of the raw text.
    """
    return render(tuple(abilities))


@attrs.frozen
class Rewording:
    """A card text with every ability line in canonical wording, and the lines that changed.

    ``changed`` pairs each ability whose line changed with its canonical line, for the
    notes that ``cards check`` prints at the ability's own line and column.
    """

    text: str
    changed: tuple[tuple[ast.Ability, str], ...]


def reword(written: str, abilities: Sequence[ast.Ability]) -> Rewording | None:
    """``written`` with each ability's line in canonical wording, or None if every line already is.

    Only wording counts: spaces around a line, blank lines and comments are the author's,
    and stay (a trailing comment stays after its line; lines lose the indentation that
    YAML leaves them, since a block is written with one indentation).  Each ability is one
    line of text, which pairs lines and abilities in order; should a text ever not pair so,
    the whole text becomes the canonical one, unless it holds a comment that would be lost:
    that is a ValueError, never a silent deletion.
    """
    lines = written.split("\n")
    coded = [i for i, line in enumerate(lines) if _code(line).strip()]
    canonical = [render_ability(a) for a in abilities]
    if len(coded) != len(abilities):
        if any("#" in line for line in lines):
            raise ValueError("its abilities are not one per line, so its comments cannot be kept in place")
        text = "\n".join(canonical)
        if text == written.strip():
            return None
        return Rewording(text, tuple(zip(abilities, canonical, strict=True)))
    out = [line.strip() for line in lines]
    changed = []
    for i, ability, line in zip(coded, abilities, canonical, strict=True):
        code = _code(lines[i]).rstrip()
        out[i] = line + lines[i][len(code):].rstrip()  # the canonical line, then its comment as written
        if code.strip() != line:
            changed.append((ability, line))
    if not changed:
        return None
    return Rewording("\n".join(out).strip("\n"), tuple(changed))


def _code(line: str) -> str:
    """A line of card text without its comment (``#`` to the end of the line, as the lexer reads it)."""
    return line.partition("#")[0]


@attrs.frozen
class TextSpan:
    """Where a card's text value is written in its file, and how.

    ``start`` and ``end`` are character offsets into the file's text; ``style`` is the
    scalar's (None plain, ``'`` or ``"`` quoted, ``|`` or ``>`` block); ``indent`` is the
    column (0-based) of the ``text:`` key, which a block's lines go past.
    """

    start: int
    end: int
    style: str | None
    indent: int


def text_span(root: Field) -> TextSpan:
    """The span of the ``text:`` value of a card file's top-level mapping (a KeyError if it has none)."""
    for key, value in root.keyed_items():
        if key.node.text == "text":
            start, end = value.extent
            return TextSpan(start, end, value.node.style, key.column - 1)
    raise KeyError("text")


_BLOCK_HEADER = re.compile(r"(?P<before>(?:[!&]\S*[ \t]+)*)(?P<style>[|>])(?P<flags>[-+]?[1-9]?|[1-9][-+])"
                           r"(?P<after>[ \t]*(?:#.*)?)\Z")
"""A block scalar's first line: anchor and tag, ``|`` or ``>``, chomping and indentation, a comment."""
_PROPERTIES = re.compile(r"(?:[!&]\S*[ \t]+)*")
"""A value's anchor and tag, which it starts with and which a rewrite keeps."""
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")
_REST_OF_LINE = re.compile(r"[ \t]*(?:#[^\n]*)?\r?(?:\n|\Z)")
"""What may follow a value that becomes a block: spaces and a comment, to the line's end."""


def rewrite_text_block(file_text: str, span: TextSpan, new_text: str) -> str:
    """``file_text`` with the text value at ``span`` replaced by ``new_text``; every character outside it kept.

    A ``|`` block keeps its header (chomping indicator, comment, anchor) and its
    indentation, and the blank lines after it; a ``>`` block becomes ``|`` when the new text
    has several lines, which folding would join.  A one-line quoted scalar stays one line
    in its quotes when the new text is one line, as does a plain one that needs no quotes;
    otherwise the value becomes a ``|`` block (its line's comment moves onto the ``|`` line),
    or, where more follows it on its line (``{name: ..., text: '...'}``), a double-quoted
    line with ``\\n`` escapes.  A ValueError says why a value cannot be rewritten at all.
    """
    newline = "\r\n" if "\r\n" in file_text else "\n"
    if span.style in ("|", ">"):
        return file_text[:span.start] + _block(file_text[span.start:span.end], span, new_text, newline) \
            + file_text[span.end:]
    start = _PROPERTIES.match(file_text, span.start).end()  # type: ignore[union-attr]  # matches "" at least
    head = file_text[:start]  # up to the value, its anchor or tag included
    if "\n" not in new_text:
        one_line = _one_line(new_text, span.style)
        if one_line is not None:
            return head + one_line + file_text[span.end:]
    rest = _REST_OF_LINE.match(file_text, span.end)
    if rest is None:  # inside a {...} mapping, say: double quotes hold any text on one line
        if span.style is None or not new_text.replace("\n", "").isprintable():
            raise ValueError("something else follows the text on its line, so it cannot become a | block")
        return head + json.dumps(new_text, ensure_ascii=False) + file_text[span.end:]
    tail = rest.group().rstrip("\r\n")
    body = "".join(_indented(line, span.indent + 2) + newline for line in new_text.split("\n"))
    if not rest.group().endswith("\n"):  # the file ended there without a line break: so it still does
        body = body.removesuffix(newline)
    return head + "|" + tail + newline + body + file_text[rest.end():]


def _block(written: str, span: TextSpan, new_text: str, newline: str) -> str:
    """A block scalar's new writing: its header, the new lines at its indentation, its trailing blank lines."""
    header, _, body = written.partition("\n")
    found = _BLOCK_HEADER.fullmatch(header.removesuffix("\r"))
    if found is None:
        raise ValueError(f"its block header {header.strip()!r} is not one this can rewrite")
    lines = _LINE.findall(body)
    tail: list[str] = []
    while lines and not lines[-1].strip():
        tail.insert(0, lines.pop())
    digit = next((c for c in found["flags"] if c.isdigit()), None)
    if digit is not None:
        indent = span.indent + int(digit)
    else:
        first = next((line for line in lines if line.strip()), None)
        indent = len(first) - len(first.lstrip(" ")) if first is not None else span.indent + 2
    style = "|" if "\n" in new_text else found["style"]
    out = [found["before"] + style + found["flags"] + found["after"]]
    out += [_indented(line, indent) for line in new_text.split("\n")]
    text = newline.join(out) + newline
    if lines and not lines[-1].endswith("\n") and not tail:  # the file ended on the text without a line break
        text = text.removesuffix(newline)
    return text + "".join(tail)


def _indented(line: str, indent: int) -> str:
    """A line of a block at ``indent`` spaces (an empty line is left empty: no trailing spaces)."""
    return " " * indent + line if line else ""


_PLAIN = re.compile(r"[A-Za-z0-9][^#:\n]*[^\s:#]|[A-Za-z0-9]")


def _one_line(text: str, style: str | None) -> str | None:
    """``text`` as a one-line scalar of ``style``, or None where that style cannot hold it.

    A plain scalar is kept only for text that YAML reads as plain text whatever it says
    (a letter or digit first, no ``:`` or ``#``: card texts always have a ``:``, so in
    practice they are quoted or blocks); JSON's escapes are YAML's in double quotes.
    """
    if not text.isprintable():
        return None
    if style == "'":
        return "'" + text.replace("'", "''") + "'"
    if style == '"':
        return json.dumps(text, ensure_ascii=False)
    if _PLAIN.fullmatch(text) and text.lower() not in _PLAIN_WORDS:
        return text
    return None


_PLAIN_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n"})
"""Plain words YAML reads as something other than text."""


def rewrite_card(doc: Document, rewording: Rewording, abilities: Sequence[ast.Ability]) -> str:
    """The text of the card file ``doc`` with its card text replaced by ``rewording``'s.

    ``abilities`` is the tree the loader kept for the card.  The new file is read back
    before it is offered: its keys and their values other than the text must be exactly
    as before, its text the new one, and that text must parse to the same abilities.
    Anything else (a layout this cannot rewrite, a text reached through an alias) is a
    DataError at the text, and nothing should be written.
    """
    field = dict(doc.root.items())["text"]
    try:
        new = rewrite_text_block(doc.text, text_span(doc.root), rewording.text)
    except ValueError as exc:
        raise _refusal(field, str(exc)) from None
    _check_rewrite(doc, new, rewording.text, abilities, field)
    return new


def _refusal(field: Field, why: str) -> DataError:
    """Why a text is not rewritten, at the text, for ``cards check`` to print like any error."""
    return field.error(f"cannot rewrite the text in canonical wording: {why}", "a text written as a | block")


def _check_rewrite(doc: Document, new: str, text: str, abilities: Sequence[ast.Ability], field: Field) -> None:
    """A DataError at ``field`` unless ``new`` reads as ``doc`` does but for its text, which is ``text``.

    A guard against any YAML this module misjudges: the rewrite is trusted only once the
    file it makes has been read back.
    """
    from ..language.parser import parse

    try:
        after = Document(doc.path, new)
    except DataError:
        raise _refusal(field, "the rewritten file would not read as YAML") from None
    before_items = [(k, v.node.data) for k, v in doc.root.items()]
    after_items = [(k, v.node.data) for k, v in after.root.items()]
    if [k for k, _ in before_items] != [k for k, _ in after_items]:
        raise _refusal(field, "the rewritten file would have other keys")
    for (key, old), (_, value) in zip(before_items, after_items, strict=True):
        if key == "text":
            if not isinstance(value, str) or value.strip("\n") != text:
                raise _refusal(field, "the rewritten file would read as another text")
        elif value != old:
            raise _refusal(field, f"the rewritten file would change its {key!r} value")
    if parse(text) != tuple(abilities):
        raise _refusal(field, "the canonical text would not read as the same abilities")
