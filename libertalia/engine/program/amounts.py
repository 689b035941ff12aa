"""How many, and whom: counters, amounts and the players an action is about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...state import CardRef, Option
from .base import Unbound, leave_mark, mark_of, seen_from, source_name
from .cards import ANYONE, Choose, Eligible, PerShip, Phrase, Selector
from .kinds import count_of, of_kind
from .record import Record, declare

if TYPE_CHECKING:
    from ..work import Frame, Work
    from .conditions import Cond
    from .measures import Measure


# ------------------------------------------------------------------ counters
class CountCards(Record):
    phrase: Phrase
    __node_fields__ = declare("phrase")

    def __init__(self, phrase: Phrase) -> None:
        object.__setattr__(self, "phrase", phrase)

    def count(self, w: Work, f: Frame) -> int:
        return len(self.phrase.cards(w, f))


class CountHeld(Record):
    kinds: frozenset[str]  # ANY_KIND: every token
    __node_fields__ = declare("kinds")

    def __init__(self, kinds: frozenset[str]) -> None:
        object.__setattr__(self, "kinds", kinds)

    def count(self, w: Work, f: Frame) -> int:
        return count_of(w.seats[f.seat].loot, self.kinds)


class CountKindsHeld(Record):
    kinds: frozenset[str]
    __node_fields__ = declare("kinds")

    def __init__(self, kinds: frozenset[str]) -> None:
        object.__setattr__(self, "kinds", kinds)

    def count(self, w: Work, f: Frame) -> int:
        return len({k for k in w.seats[f.seat].loot if of_kind(k, self.kinds)})


class CountSpacesSide(Record):
    """Track spaces on one side of your token (low reputation: many to the right)."""

    side: str
    __node_fields__ = declare("side")

    def __init__(self, side: str) -> None:
        object.__setattr__(self, "side", side)

    def count(self, w: Work, f: Frame) -> int:
        if self.side == "left":
            return w.reputation(f.seat)
        return len(w.track) - 1 - w.reputation(f.seat)


class CountMarked(Record):
    """How many things the binder step of ``slot`` affected ("one returned", "space moved"):
    0 when it did not run."""

    slot: int
    __node_fields__ = declare("slot")

    def __init__(self, slot: int) -> None:
        object.__setattr__(self, "slot", slot)

    def count(self, w: Work, f: Frame) -> int:
        mark = mark_of(f, self.slot)
        return 0 if mark is None else mark[2]


Counter = CountCards | CountHeld | CountKindsHeld | CountSpacesSide | CountMarked


# ------------------------------------------------------------------ amounts
class Row(Record):
    count: int
    cmp: str  # "" (exactly), "more" or "fewer"
    value: int
    __node_fields__ = declare("count", "cmp", "value")

    def __init__(self, count: int, cmp: str, value: int) -> None:
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "cmp", cmp)
        object.__setattr__(self, "value", value)


def table(rows: tuple[Row, ...], n: int) -> int:
    """The value of the last row that ``n`` matches (exactly, or "or more"/"or fewer")."""
    value = 0
    for r in rows:
        if n == r.count or (r.cmp == "more" and n >= r.count) or (r.cmp == "fewer" and n <= r.count):
            value = r.value
    return value


def best_sets(n: int, rows: tuple[Row, ...]) -> int:
    """Best total from splitting ``n`` items into sets priced by ``rows`` (R14), in time bounded by the rows.

    However large ``n`` is (``count 999999 extra map``), only a bounded part of it is worked out
    one by one: once ``n`` reaches ``c * (top + 1)``, where ``c`` is the size of the set worth most
    per item and ``top`` the largest set, one more ``c`` items always add one more such set.  (An
    optimal split can always be chosen with fewer than ``c`` other sets, by exchanging any ``c`` of
    them for sets of the best kind, and fewer than ``c`` items left over, so past that size it holds
    a best set to remove.)  So ``n`` is brought below that size first, and each ``c`` removed adds
    that set's value.
    """
    sets = [(r.count, r.value) for r in rows if r.count > 0 and r.value > 0]  # a set of no tokens sells nothing
    if n <= 0 or not sets:
        return 0
    size, worth = sets[0]
    for c, v in sets[1:]:
        if v * size > worth * c:  # more per item
            size, worth = c, v
    limit = size * (max(c for c, _ in sets) + 1)
    bonus = 0
    if n > limit:
        skipped = (n - limit + size - 1) // size
        n -= skipped * size
        bonus = skipped * worth
    best = [0] * (n + 1)
    for i in range(1, n + 1):
        best[i] = best[i - 1]
        for c, v in sets:
            if c <= i:
                best[i] = max(best[i], best[i - c] + v)
    return best[n] + bonus


class Fixed(Record):
    """``n``, or ``n`` for each thing ``per`` counts: for each whole group of ``every`` ("for every 2 maps": the
    count divided by 2, rounded down), and never more than ``cap`` ("…, up to 6 doubloons") when there is one."""

    n: int
    per: Counter | None
    every: int
    cap: int | None
    __node_fields__ = declare("n", per=None, every=1, cap=None)

    def __init__(self, n: int, per: Counter | None = None, every: int = 1, cap: int | None = None) -> None:
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "per", per)
        object.__setattr__(self, "every", every)
        object.__setattr__(self, "cap", cap)

    def value(self, w: Work, f: Frame, seat: int) -> int:
        if self.per is None:
            return self.n
        value = self.n * (self.per.count(w, f) // self.every)
        cap = self.cap
        return value if cap is None or value <= cap else cap


class Half(Record):
    """Half your doubloons, rounded down: "your" is the frame's player (the ability's owner, or the
    player an amount said in their words is read for: ``Theirs``), whoever the action is about."""

    def value(self, w: Work, f: Frame, seat: int) -> int:
        return w.seats[f.seat].coins // 2


class UpTo(Record):
    """Whatever brings the subject's doubloons up to ``n``."""

    n: int
    __node_fields__ = declare("n")

    def __init__(self, n: int) -> None:
        object.__setattr__(self, "n", n)

    def value(self, w: Work, f: Frame, seat: int) -> int:
        return max(0, self.n - w.seats[seat].coins)


class ByTable(Record):
    counter: Counter
    rows: tuple[Row, ...]
    __node_fields__ = declare("counter", "rows")

    def __init__(self, counter: Counter, rows: tuple[Row, ...]) -> None:
        object.__setattr__(self, "counter", counter)
        object.__setattr__(self, "rows", rows)

    def value(self, w: Work, f: Frame, seat: int) -> int:
        return table(self.rows, self.counter.count(w, f))


class InSets(Record):
    kind: str
    rows: tuple[Row, ...]
    __node_fields__ = declare("kind", "rows")

    def __init__(self, kind: str, rows: tuple[Row, ...]) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "rows", rows)

    def value(self, w: Work, f: Frame, seat: int) -> int:
        """Your tokens of the kind in sets ("for your map"): the frame's player's, as ``Half`` reads "your"."""
        n = w.seats[f.seat].loot.count(self.kind) + w.extra.get((f.seat, self.kind), 0)
        return best_sets(n, self.rows)


class Theirs(Record):
    """An amount said of another player in their own words ("… gains 1 doubloon for each character in
    their ship"): its "your" and "their" are that player's, so it is read from their side.

    The compiler wraps an amount in it only where the text says "their"; everywhere else "you" and
    "your" in an amount are the ability's owner, whoever the action is about.
    """

    amount: Fixed | Half | UpTo | ByTable | InSets
    __node_fields__ = declare("amount")

    def __init__(self, amount: Fixed | Half | UpTo | ByTable | InSets) -> None:
        object.__setattr__(self, "amount", amount)

    def value(self, w: Work, f: Frame, seat: int) -> int:
        return self.amount.value(w, seen_from(f, seat), seat)


Amount = Fixed | Half | UpTo | ByTable | InSets | Theirs


# ------------------------------------------------------------------ players
Subjects = list[tuple[int, "CardRef | None"]]
"""The players an action is about, each with the character that named it (or None)."""


class You(Record):
    def seats(self, w: Work, f: Frame, act: Eligible = ANYONE) -> Subjects:
        return [(f.seat, None)]


class PlayerOnSide(Record):
    """The seat neighbour on your left (the next seat, ``step`` 1) or right (the previous, -1)."""

    step: int
    __node_fields__ = declare("step")

    def __init__(self, step: int) -> None:
        object.__setattr__(self, "step", step)

    def seats(self, w: Work, f: Frame, act: Eligible = ANYONE) -> Subjects:
        return [((f.seat + self.step) % w.n, None)]


class EveryPlayer(Record):
    other: bool
    __node_fields__ = declare("other")

    def __init__(self, other: bool) -> None:
        object.__setattr__(self, "other", other)

    def seats(self, w: Work, f: Frame, act: Eligible = ANYONE) -> Subjects:
        return [(s, None) for s in range(w.n) if not (self.other and s == f.seat)]


class ChosenPlayer(Record):
    """One player the ability's owner chooses (E42): any seat, or with ``other`` any seat but theirs.

    A ``choose_option`` decision whose options are seats, keyed by where each sits from the owner: "1" the
    player on their left (the next seat), "2" the one after, … and, for "a player", the owner last ("n" at n
    seats); each label names the seat.  Only seats the action would change something for are offered (the
    action's eligibility, which reads only a character's owner: E25); one such seat is taken unasked, and
    with none the action names nobody."""

    other: bool
    __node_fields__ = declare("other")

    def __init__(self, other: bool) -> None:
        object.__setattr__(self, "other", other)

    def candidates(self, w: Work, f: Frame, act: Eligible = ANYONE) -> list[int]:
        """The seats offered, from the owner's left round to the owner, without asking."""
        out: list[int] = []
        for k in range(1, w.n + 1):
            seat = (f.seat + k) % w.n
            if not (self.other and seat == f.seat) and act.eligible(w, f, (seat, "")):
                out.append(seat)
        return out

    def seats(self, w: Work, f: Frame, act: Eligible = ANYONE) -> Subjects:
        found = self.candidates(w, f, act)
        if not found:
            return []
        options = [Option(str((s - f.seat - 1) % w.n + 1), f"seat {s} (you)" if s == f.seat else f"seat {s}")
                   for s in found]
        key = w.ask(f, f.seat, "choose_option", options, "choose a player", source_name(f))
        return [(found[[o.key for o in options].index(key)], None)]


class ItsOwner(Record):
    """The owner of the character the binder of ``slot`` named (a neutral card owns nothing, R13)."""

    slot: int
    __node_fields__ = declare("slot")

    def __init__(self, slot: int) -> None:
        object.__setattr__(self, "slot", slot)

    def seats(self, w: Work, f: Frame, act: Eligible = ANYONE) -> Subjects:
        mark = mark_of(f, self.slot)
        if mark is None or not mark[0]:
            raise Unbound
        ref = mark[0][0]
        return [] if ref[0] is None else [(ref[0], ref)]


class OwnersOf(Record):
    """The owner of the characters ``target`` names: each owner once, in the order named.

    It binds those characters (slot ``slot``) for a later "it" or "its owner".  Where the
    owner of the ability picks the character (``a …``) and no later word reads the pick, only
    characters whose owner the action could change something for are offered (``act``: E25); the
    others name whoever they name.  When a later word reads it (``slot`` >= 0: the compiler gives a
    slot only to a binder some word reads), the pick serves that word too, so it offers every
    character the phrase names: narrowed by the first action alone it would starve the next
    ("… loses 2 doubloons, then put it into your hand" when nobody has a doubloon).
    """

    target: Selector
    slot: int
    __node_fields__ = declare("target", slot=-1)

    def __init__(self, target: Selector, slot: int = -1) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "slot", slot)

    def seats(self, w: Work, f: Frame, act: Eligible = ANYONE) -> Subjects:
        refs = self.target.pick(w, f, act if self.slot < 0 and asks(self.target) else ANYONE)
        if not refs:
            leave_mark(f, self.slot, (), (), 0, False)
            raise Unbound
        zone_of = w.zone_of
        leave_mark(f, self.slot, tuple(refs), tuple((r, zone_of(r)) for r in refs), len(refs), True)
        out: Subjects = []
        seen: set[int] = set()
        for r in refs:
            if r[0] is not None and r[0] not in seen:  # a neutral card owns nothing (R13)
                seen.add(r[0])
                out.append((r[0], r))
        return out


def asks(target: Selector) -> bool:
    """Whether a selector asks the ability's owner to pick (rather than naming by position or by every)."""
    return isinstance(target, Choose) or (isinstance(target, PerShip) and not target.position)


# ------------------------------------------------------------------ players compared and filtered
class PlayersWhere(Record):
    """Every seat (or every other), each one ``test`` holds for, read from that seat's side (E32):
    "every other player who holds a saber", "each opponent with a character in their ship"."""

    other: bool
    test: Cond
    __node_fields__ = declare("other", "test")

    def __init__(self, other: bool, test: Cond) -> None:
        object.__setattr__(self, "other", other)
        object.__setattr__(self, "test", test)

    def seats(self, w: Work, f: Frame, act: Eligible = ANYONE) -> Subjects:
        test = self.test.test
        return [(s, None) for s in range(w.n) if not (self.other and s == f.seat) and test(w, seen_from(f, s))]


class MostOf(Record):
    """The seats of a group (every one, or every other) with the most (or fewest) of ``measure``:
    every one tied for it (E31)."""

    measure: Measure
    most: bool
    other: bool
    __node_fields__ = declare("measure", "most", other=False)

    def __init__(self, measure: Measure, most: bool, other: bool = False) -> None:
        object.__setattr__(self, "measure", measure)
        object.__setattr__(self, "most", most)
        object.__setattr__(self, "other", other)

    def seats(self, w: Work, f: Frame, act: Eligible = ANYONE) -> Subjects:
        pool = [s for s in range(w.n) if not (self.other and s == f.seat)]
        if not pool:
            return []
        values = [self.measure.of(w, s) for s in pool]
        best = max(values) if self.most else min(values)
        return [(s, None) for s, v in zip(pool, values, strict=True) if v == best]


class MoreThanYou(Record):
    """The seats of a group (every one, or every other) with more (or fewer) of ``measure`` than the
    ability's owner (E33: strictly; the owner never has more than themselves)."""

    measure: Measure
    more: bool
    other: bool
    __node_fields__ = declare("measure", "more", other=False)

    def __init__(self, measure: Measure, more: bool, other: bool = False) -> None:
        object.__setattr__(self, "measure", measure)
        object.__setattr__(self, "more", more)
        object.__setattr__(self, "other", other)

    def seats(self, w: Work, f: Frame, act: Eligible = ANYONE) -> Subjects:
        mine = self.measure.of(w, f.seat)
        of = self.measure.of
        return [(s, None) for s in range(w.n) if not (self.other and s == f.seat)
                and (of(w, s) > mine if self.more else of(w, s) < mine)]


Players = You | PlayerOnSide | EveryPlayer | ChosenPlayer | ItsOwner | OwnersOf | PlayersWhere | MostOf | MoreThanYou
