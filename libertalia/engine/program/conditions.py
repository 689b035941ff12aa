"""Conditions: ``True``, ``False``, or ``None`` (unknown) when they speak of a character nobody named.

A condition about a character names it by ``slot``: -1 for ``this`` (on loot, the
character that took the token), or the binder step that named ``it``.  ``past`` reads
that character as it stood just before its binder acted (``it was …``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...state import CardRef
from .base import Unbound, bound_before, bound_card, mark_of
from .cards import Filter, Phrase, pick_positional
from .kinds import count_of, of_kind
from .record import Record, declare

if TYPE_CHECKING:
    from ..work import Frame, Work
    from .measures import Measure


def _card(f: Frame, slot: int) -> CardRef | None:
    if slot < 0:
        return f.this
    try:
        return bound_card(f, slot)
    except Unbound:
        return None


class IsPositioned(Record):
    slot: int
    position: str
    phrase: Phrase
    __node_fields__ = declare("slot", "position", "phrase")

    def __init__(self, slot: int, position: str, phrase: Phrase) -> None:
        object.__setattr__(self, "slot", slot)
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "phrase", phrase)

    def test(self, w: Work, f: Frame) -> bool | None:
        me = _card(f, self.slot)
        if me is None:
            return None  # about nobody: unknown, like every other part about a character
        return pick_positional(self.position, self.phrase.cards(w, f), w) == me


class IsA(Record):
    slot: int
    name: str
    __node_fields__ = declare("slot", "name")

    def __init__(self, slot: int, name: str) -> None:
        object.__setattr__(self, "slot", slot)
        object.__setattr__(self, "name", name)

    def test(self, w: Work, f: Frame) -> bool | None:
        me = _card(f, self.slot)
        return None if me is None else w.tables.cards[me[1]].name == self.name


class IsLike(Record):
    """A filter said of one character, now or (``past``) as it stood before its binder acted."""

    slot: int
    filter: Filter
    past: bool
    __node_fields__ = declare("slot", "filter", past=False)

    def __init__(self, slot: int, filter: Filter, past: bool = False) -> None:
        object.__setattr__(self, "slot", slot)
        object.__setattr__(self, "filter", filter)
        object.__setattr__(self, "past", past)

    def test(self, w: Work, f: Frame) -> bool | None:
        if self.past:
            try:
                ref, zone = bound_before(f, self.slot)
            except Unbound:
                return None
            return self.filter.fitted(w, f, ref, zone)
        me = _card(f, self.slot)
        return None if me is None else self.filter.fits(w, f, me)


class LastVoyage(Record):
    def test(self, w: Work, f: Frame) -> bool | None:
        return w.voyage >= w.tables.voyages


class HaveDoubloons(Record):
    n: int
    at_most: bool
    __node_fields__ = declare("n", "at_most")

    def __init__(self, n: int, at_most: bool) -> None:
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "at_most", at_most)

    def test(self, w: Work, f: Frame) -> bool | None:
        coins = w.seats[f.seat].coins
        return coins <= self.n if self.at_most else coins >= self.n


class ReputationAt(Record):
    """Your reputation is ``n`` or more (``at_most``: or fewer), the track's spaces numbered 1 (the leftmost)
    upwards, as a player counts them: the engine's space index is one less."""

    n: int
    at_most: bool
    __node_fields__ = declare("n", "at_most")

    def __init__(self, n: int, at_most: bool) -> None:
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "at_most", at_most)

    def test(self, w: Work, f: Frame) -> bool | None:
        space = w.reputation(f.seat) + 1
        return space <= self.n if self.at_most else space >= self.n


class NoOtherHas(Record):
    """No other player has fewer (or more) characters in that pile than you."""

    pile: str
    fewer: bool
    __node_fields__ = declare("pile", "fewer")

    def __init__(self, pile: str, fewer: bool) -> None:
        object.__setattr__(self, "pile", pile)
        object.__setattr__(self, "fewer", fewer)

    def test(self, w: Work, f: Frame) -> bool | None:
        mine = len(w.seats[f.seat].pile(self.pile))
        others = [len(w.seats[s].pile(self.pile)) for s in range(w.n) if s != f.seat]
        return all(o >= mine for o in others) if self.fewer else all(o <= mine for o in others)


class Hold(Record):
    kinds: frozenset[str]
    negated: bool
    __node_fields__ = declare("kinds", "negated")

    def __init__(self, kinds: frozenset[str], negated: bool) -> None:
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "negated", negated)

    def test(self, w: Work, f: Frame) -> bool | None:
        kinds = self.kinds
        return any(of_kind(k, kinds) for k in w.seats[f.seat].loot) != self.negated


class JustTook(Record):
    kinds: frozenset[str]
    __node_fields__ = declare("kinds")

    def __init__(self, kinds: frozenset[str]) -> None:
        object.__setattr__(self, "kinds", kinds)

    def test(self, w: Work, f: Frame) -> bool | None:
        if f.this is None:
            return False
        took = w.just_took.get(f.this)
        return took is not None and of_kind(took, self.kinds)


class Exists(Record):
    phrase: Phrase
    negated: bool
    nightfall: bool
    __node_fields__ = declare("phrase", "negated", "nightfall")

    def __init__(self, phrase: Phrase, negated: bool, nightfall: bool) -> None:
        object.__setattr__(self, "phrase", phrase)
        object.__setattr__(self, "negated", negated)
        object.__setattr__(self, "nightfall", nightfall)

    def test(self, w: Work, f: Frame) -> bool | None:
        return (len(self.phrase.cards(w, f, self.nightfall)) == 0) == self.negated


class HoldCount(Record):
    kinds: frozenset[str]
    n: int
    more: bool
    __node_fields__ = declare("kinds", "n", "more")

    def __init__(self, kinds: frozenset[str], n: int, more: bool) -> None:
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "more", more)

    def test(self, w: Work, f: Frame) -> bool | None:
        held = count_of(w.seats[f.seat].loot, self.kinds)
        return held >= self.n if self.more else held <= self.n


class CountExists(Record):
    phrase: Phrase
    n: int
    more: bool
    __node_fields__ = declare("phrase", "n", "more")

    def __init__(self, phrase: Phrase, n: int, more: bool) -> None:
        object.__setattr__(self, "phrase", phrase)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "more", more)

    def test(self, w: Work, f: Frame) -> bool | None:
        found = len(self.phrase.cards(w, f))
        return found >= self.n if self.more else found <= self.n


class Compare(Record):
    """You have more (or fewer) of ``measure`` than each other player (E30); with ``ties``, a tie counts
    ("at least as many ... as every other player")."""

    measure: Measure
    more: bool
    ties: bool
    __node_fields__ = declare("measure", "more", ties=False)

    def __init__(self, measure: Measure, more: bool, ties: bool = False) -> None:
        object.__setattr__(self, "measure", measure)
        object.__setattr__(self, "more", more)
        object.__setattr__(self, "ties", ties)

    def test(self, w: Work, f: Frame) -> bool | None:
        of, me = self.measure.of, f.seat
        mine = of(w, me)
        for s in range(w.n):
            if s == me:
                continue
            theirs = of(w, s)
            if mine == theirs and not self.ties or (mine < theirs if self.more else mine > theirs):
                return False
        return True


class YouDid(Record):
    """Whether the sentence part the words follow did anything (its binder's mark; false if it never ran)."""

    slot: int
    __node_fields__ = declare("slot")

    def __init__(self, slot: int) -> None:
        object.__setattr__(self, "slot", slot)

    def test(self, w: Work, f: Frame) -> bool | None:
        mark = mark_of(f, self.slot)
        return mark is not None and mark[3]


Cond = (IsPositioned | IsA | IsLike | LastVoyage | HaveDoubloons | ReputationAt | NoOtherHas | Hold | JustTook | Exists
        | HoldCount | CountExists | Compare | YouDid)


class Condition(Record):
    """Groups joined by "or", each a run of conditions joined by "and", in Kleene's three-valued logic.

    A part about a character nobody named is *unknown* (``None``).  "and" is false if any part
    is false, else unknown if any is unknown, else true; "or" is true if any group is true, else
    unknown if any is unknown, else false; "unless" negates a known value and leaves unknown
    unknown.  Each is read from the set of its parts' values, so neither the order of the parts
    nor their grouping changes the outcome (docs/card-language.md, "Meaning rules").
    """

    groups: tuple[tuple[Cond, ...], ...]
    negated: bool  # "unless"
    __node_fields__ = declare("groups", negated=False)

    def __init__(self, groups: tuple[tuple[Cond, ...], ...], negated: bool = False) -> None:
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "negated", negated)

    def test(self, w: Work, f: Frame) -> bool | None:
        undecided = False
        for parts in self.groups:
            value: bool | None = True
            for p in parts:
                v = p.test(w, f)
                if v is None:
                    value = None  # unknown, unless a later part is false
                elif not v:
                    value = False
                    break
            if value:
                return not self.negated
            undecided = undecided or value is None
        if undecided:
            return None
        return self.negated
