"""A card's text as a modder might mistype it: every one-slip variant, for mutation testing.

A card's examples are only as good as the mistakes they catch.  ``slips(text)`` lists the
small edits a modder makes without noticing, each at one place in the text:

- ``number``: a number one higher or one lower (``gain 3`` → ``gain 4``, ``gain 2``);
- ``comparison``: the direction of a comparison (``more`` ↔ ``fewer``, ``most`` ↔ ``fewest``,
  ``highest`` ↔ ``lowest``, ``lowest-ranked`` ↔ ``highest-ranked``);
- ``owner``: whose thing it is (``your`` ↔ ``an opponent's``);
- ``quantifier``: how many (``every``/``each`` → ``a``, ``a``/``an`` → ``every``);
- ``side``: ``left`` ↔ ``right``, ``leftmost`` ↔ ``rightmost``;
- ``may``: a ``you may`` dropped, or added before an ability's first step;
- ``timing``: another trigger (``sun:`` → ``dusk:``, ``moon:``, ``anchor:``);
- ``slot``, ``drop``, ``word``, ``kind``: read off the card grammar (``testing.grammar_slips``):
  another wording of a slot, a part the grammar lets go dropped, another word of a terminal,
  another loot kind or one more.

Pure text work: which slips the checker accepts, and which the examples catch, is
``testing.mutation``'s job.  Many slips make text the grammar refuses ("a day"); they are
listed all the same, and the loader sorts them out exactly as it would a modder's file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .grammar_slips import GRAMMAR_OPERATORS, grammar_slips
from .slip import Slip

__all__ = ["OPERATORS", "Slip", "slips"]

OPERATORS: tuple[str, ...] = ("number", "comparison", "owner", "quantifier", "side", "may", "timing",
                              "slot", "drop", "word", "kind")
"""The kinds of slip, in the order ``slips`` lists them."""

_TIMINGS = ("sun", "dusk", "moon", "anchor")
_SAME_TIMING = {"day": "sun", "night": "moon"}  # the printed cards' words for two of the timings
_SWAPS: dict[str, dict[str, tuple[str, ...]]] = {
    "comparison": {"more": ("fewer",), "fewer": ("more",), "most": ("fewest",), "fewest": ("most",),
                   "highest": ("lowest",), "lowest": ("highest",),
                   "lowest-ranked": ("highest-ranked",), "highest-ranked": ("lowest-ranked",)},
    "owner": {"your": ("an opponent's",), "an opponent's": ("your",)},
    "quantifier": {"every": ("a",), "each": ("a",), "a": ("every",), "an": ("every",)},
    "side": {"left": ("right",), "right": ("left",), "leftmost": ("rightmost",), "rightmost": ("leftmost",)},
}
_WORD = re.compile(r"\ban opponent's\b|\b[A-Za-z][A-Za-z'-]*\b|\b\d+\b", re.IGNORECASE)
_TRIGGER = re.compile(r"^[ \t]*(?P<timing>[A-Za-z]+(?: [A-Za-z]+)*)(?:,[ \t]*[a-z]+)*[ \t]*:[ \t]*", re.MULTILINE)
_MAY = re.compile(r"\byou may\s+", re.IGNORECASE)


def slips(text: str, operators: tuple[str, ...] = OPERATORS, *, kinds: tuple[str, ...] = ()) -> tuple[Slip, ...]:
    """Every one-slip edit of ``text`` by the ``operators`` named, in operator order, then text order.

    ``kinds`` are the rules' loot kinds, for the ``kind`` operator (none: no ``kind`` slips).
    """
    unknown = [op for op in operators if op not in OPERATORS]
    if unknown:
        raise ValueError(f"unknown mutation operator {unknown[0]!r}: expected one of {', '.join(OPERATORS)}")
    found: list[Slip] = []
    for op in OPERATORS:
        if op in operators and op in _BY_OPERATOR:
            found.extend(_BY_OPERATOR[op](text))
    grammar_ops = tuple(op for op in GRAMMAR_OPERATORS if op in operators)
    if grammar_ops:
        found.extend(grammar_slips(text, grammar_ops, kinds=kinds))
    return tuple(found)


def _numbers(text: str) -> list[Slip]:
    out = []
    for m in _WORD.finditer(text):
        if m.group().isdigit() and not _in_name(text, m.start()):
            n = int(m.group())
            out += [Slip("number", m.start(), m.end(), m.group(), str(v)) for v in (n + 1, n - 1) if v >= 0]
    return out


def _in_name(text: str, at: int) -> bool:
    """Whether the number at ``at`` belongs to a card's name (``Cook#1``), not to the effect."""
    return at > 0 and text[at - 1] == "#"


def _swaps(op: str) -> Callable[[str], list[Slip]]:
    table = _SWAPS[op]

    def swap(text: str) -> list[Slip]:
        out = []
        for m in _WORD.finditer(text):
            word = m.group()
            for after in table.get(word.lower(), ()):
                out.append(Slip(op, m.start(), m.end(), word, _cased(after, word)))
        return out

    return swap


def _cased(word: str, like: str) -> str:
    """``word`` capitalised as ``like`` is (a sentence's first word)."""
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def _may(text: str) -> list[Slip]:
    out = [Slip("may", m.start(), m.end(), m.group(), "") for m in _MAY.finditer(text)]
    for m in _TRIGGER.finditer(text):
        rest = text[m.end():]
        if not _MAY.match(rest) and rest[:1].isalpha():
            out.append(Slip("may", m.end(), m.end(), "", "you may "))
    return out


def _timing(text: str) -> list[Slip]:
    out = []
    for m in _TRIGGER.finditer(text):
        word = m.group("timing")
        own = _timing_of(word)
        if own is None:
            continue
        for other in _TIMINGS:
            if other != own:
                out.append(Slip("timing", m.start("timing"), m.end("timing"), word, _cased(other, word)))
    return out


def _timing_of(trigger: str) -> str | None:
    """The timing a trigger's words name ("at dusk", "night", "the end of the voyage"), else None."""
    words = trigger.lower().split()
    while words and words[0] in ("at", "each", "every", "during", "the"):
        words = words[1:]
    if words[-1:] == ["voyage"] and words[:2] == ["end", "of"]:
        return "anchor"
    if len(words) != 1:
        return None
    timing = _SAME_TIMING.get(words[0], words[0])
    return timing if timing in _TIMINGS else None


_BY_OPERATOR = {"number": _numbers, "comparison": _swaps("comparison"), "owner": _swaps("owner"),
                "quantifier": _swaps("quantifier"), "side": _swaps("side"), "may": _may, "timing": _timing}
