"""Card names that the engine can keep apart, and that players can tell apart.

A card's name is its identity everywhere: in answer keys (``"Cook"``, another seat's
``"Cook@2"``, a card that changed hands ``"Cook#1"``), in ``order_abilities`` keys beside
loot kinds (``"map"``), in saves and records.  Three rules follow, all checked when the
rules load (``load_rules`` and ``libertalia cards check``):

- **No key characters.**  ``@``, ``#`` and ``*`` are read back out of keys by the engine
  (``Work.key_for``, ``Work.take_over``, ``selectors.loot_key``, ``automa``), so a name
  holding one would make two options share a key or confuse the owner mark.
- **Shown and typed as written.**  A name is words of letters (of any script, with their
  accents), digits, apostrophes and hyphens, one space apart, with at least one letter:
  ``Pirate Queen``, ``Governor's Daughter``, ``Café Owner``, ``map``.  So no empty or blank
  name, no space before, after or doubled, no control or format character (ESC, a bidi
  override, a zero-width space: what ``_terminal`` would spell out), no lone surrogate, and
  no other punctuation: ``?`` is what observations show for a hidden card.  The grammar's
  NAME (capitalised ASCII words of letters, apostrophes and hyphens) is the part of this a
  card text can name.
- **No look-alikes.**  A name must not equal another card's name (a character, a neutral
  card such as the Midshipman, or a loot kind) once compatibility forms (NFKC: full-width
  letters, ligatures), case, invisible format characters and look-alike letters are set
  aside: ``COOK``, ``Ｃｏｏｋ`` and ``Cоok`` (a Cyrillic о) all read ``cook``.

The look-alike letters come from ``confusable-homoglyphs``, which ships the Unicode
confusables table (UTS #39): thousands of letters of every script, where a hand-made table
would cover a few dozen.  It is imported only for a name that still holds a non-ASCII
character after NFKC, so loading the bundled cards never pays for its 1 MB table.  The
digits 0 and 1 read as o and l.  A name that is *exactly* another character's is left to
the checks that already refuse it (two files defining one card, a neutral card's name).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from .._terminal import escape, unseen
from ..errors import CardError
from .yamlfile import Document, Field

RESERVED = {
    "@": "it marks another seat's card or loot in answer keys (Cook@2, map@1)",
    "#": "it marks a card that changed hands (Cook#1 is seat 1's Cook, held by another seat)",
    "*": "it gives how many tokens in a loot answer key (map*2)",
}
"""The characters the engine reads out of answer keys, and what each one marks."""

SHAPE = "letters, digits, apostrophes and hyphens, in words one space apart, such as Pirate Queen"
"""What a name is made of (``shape_problem``), as an error's "expected" says it."""

_MARKS = "'\u2019-"  # the apostrophe, the typographic one, and the hyphen
_UNSEEN_KINDS = {"Cc": "control", "Cf": "format", "Cs": "lone surrogate"}  # else Zl or Zp: a separator

_DIGITS = str.maketrans({"0": "o", "1": "l"})


class Name(NamedTuple):
    """One name the rules define, and where."""

    text: str
    what: str  # "character", "neutral card" or "loot kind"
    path: str
    line: int
    column: int
    source_line: str


def skeleton(name: str) -> str:
    """What ``name`` reads as once width, case, invisible characters and look-alike letters are set aside."""
    s = unicodedata.normalize("NFKC", name)
    s = "".join(ch for ch in s if unicodedata.category(ch) not in ("Cf", "Cc"))
    s = " ".join(s.split()).casefold()
    if not s.isascii():
        s = unicodedata.normalize("NFKC", "".join(_plain(ch) for ch in s)).casefold()
    return s.translate(_DIGITS)


def _plain(ch: str) -> str:
    """The ASCII letter (or letters) Unicode's confusables table says ``ch`` looks like, or ``ch`` itself."""
    if ch.isascii():
        return ch
    from confusable_homoglyphs import confusables  # the 1 MB table, read only when a name needs it

    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=[])
    for hit in found or ():
        for glyph in hit["homoglyphs"]:
            text = str(glyph["c"])
            if text.isascii() and text.strip():
                return text
    return ch


def names_in(char_docs: Iterable[tuple[Field, Document]], board: Mapping[str, Field] | None = None) -> list[Name]:
    """The names a board (its neutral cards and loot kinds, first) and character files define, in that order."""
    out: list[Name] = []
    if board is not None:
        for n in board["neutrals"].as_list() if "neutrals" in board else []:
            out.append(_name(n.mapping({"name": True, "rank": True, "players": True}, "a neutral card")["name"],
                             "neutral card"))
        out.extend(_name(key, "loot kind") for key, _ in board["bag"].keyed_items())
    for root, _ in char_docs:
        field = dict(root.items()).get("name")
        if field is not None and isinstance(field.value, str):
            out.append(_name(field, "character"))
    return out


def _name(field: Field, what: str) -> Name:
    doc = field.doc
    source = doc.lines[field.line - 1] if 0 < field.line <= len(doc.lines) else ""
    return Name(str(field.value), what, doc.path, field.line, field.column, source)


def problems(names: Sequence[Name], blame_from: int = 0) -> list[CardError]:
    """A CardError for each name (from index ``blame_from`` on) with a key character or like an earlier one."""
    errors: list[CardError] = []
    seen: dict[str, Name] = {}
    for i, name in enumerate(names):
        reserved = next((ch for ch in name.text if ch in RESERVED), None)
        if reserved is not None:
            if i >= blame_from:
                errors.append(_error(name, f"the {name.what} name {name.text!r} holds {reserved!r}, which the "
                                     f"engine reserves: {RESERVED[reserved]}", "a name without @, # or *",
                                     reserved))
            continue
        shape = shape_problem(name.text)
        if shape is not None:
            if i >= blame_from:
                errors.append(_shape_error(name, shape))
            continue
        key = skeleton(name.text)
        earlier = seen.get(key)
        if earlier is None:
            seen[key] = name
            continue
        if earlier.text == name.text and "loot kind" not in (earlier.what, name.what):
            continue  # the same name twice: the checks of duplicate cards and neutral names refuse it
        if i >= blame_from:
            errors.append(_resembles(name, earlier, key))
    return errors


def shape_problem(name: str) -> tuple[str, str] | None:
    """What makes ``name`` not one to show and type (the module's first rule), and the character to point at; or None.

    The problem reads after the quoted name: "is empty", "holds the format character \\u202e (RIGHT-TO-LEFT
    OVERRIDE), which no one can see or type".
    """
    if not name.strip():
        return ("is empty" if not name else "is blank"), ""
    if name != name.strip(" "):
        return "starts or ends with a space", ""
    if "  " in name:
        return "holds two spaces in a row", "  "
    for ch in name:
        category = unicodedata.category(ch)
        if unseen(ch):
            what = _UNSEEN_KINDS.get(category, "separator")
            described = unicodedata.name(ch, "")
            said = f" ({described})" if described else ""
            return f"holds the {what} character {escape(ch)}{said}, which no one can see or type", ch
        if ch != " " and ch not in _MARKS and category[0] not in "LM" and category != "Nd":
            hidden = ", what an observation shows for a hidden card" if ch == "?" else ""
            return f"holds {ch!r} ({unicodedata.name(ch, f'U+{ord(ch):04X}')}{hidden})", ch
    if not any(unicodedata.category(ch)[0] == "L" for ch in name):
        return "has no letter", ""
    return None


def check_shapes(names: Sequence[Name]) -> None:
    """Raise at the first of ``names`` that ``shape_problem`` refuses (the board's, checked as the board loads)."""
    for name in names:
        shape = shape_problem(name.text)
        if shape is not None:
            raise _shape_error(name, shape)


def _shape_error(name: Name, shape: tuple[str, str]) -> CardError:
    problem, mark = shape
    return _error(name, f"the {name.what} name {name.text!r} {problem}", f"a name of {SHAPE}", mark)


def check(names: Sequence[Name]) -> None:
    """Raise the first problem ``problems`` finds."""
    found = problems(names)
    if found:
        raise found[0]


def _resembles(name: Name, other: Name, key: str) -> CardError:
    odd = [ch for ch in dict.fromkeys(name.text) if not ch.isascii()]
    spelt = "".join(f"; it spells {ch!r} ({unicodedata.name(ch, f'U+{ord(ch):04X}')})" for ch in odd[:3])
    where = f"{other.path}:{other.line}" if other.line else other.path
    return _error(name, f"the {name.what} name {name.text!r} looks like the {other.what} {other.text!r} ({where}): "
                  f"both read {key!r} once case, width and look-alike letters are set aside{spelt}",
                  "a name that no other card's name resembles", odd[0] if odd else "")


def _error(name: Name, message: str, expected: str, mark: str) -> CardError:
    """A CardError at the name, its caret on ``mark`` where the file line shows it."""
    column = name.column
    at = name.source_line.find(mark, max(column - 1, 0)) if mark else -1
    if at >= 0:
        column = at + 1
    return CardError(message, path=name.path, line=name.line, column=column, source_line=name.source_line,
                     expected=expected)
