"""What a step's words mean, restated from the rules, for the checker to compare with the engine.

The engine works out which characters a phrase describes, how many doubloons an amount is and
whether a condition holds (``engine.program``); the contract checker must not ask it, or a bug
in those would agree with itself.  So this module says the same things again, from a snapshot
of the game taken before the step (``snapshot.Snap``) and the step's own fields: a second,
independent reading of the card language, written from docs/card-language.md rather than from
the engine's code.  Where it cannot tell (a choice a player made), it says which outcomes are
allowed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ...engine.program import amounts as amt
from ...engine.program import cards, loot
from ...engine.program import conditions as cond
from ...engine.program import measures as msr
from ...engine.program.kinds import count_of, of_kind
from ...engine.specs import Rules
from ...state import CardRef, Mark
from .snapshot import Snap


class Unbound(Exception):
    """A word that points back ("it", "its owner") whose binder named nobody: the step must do nothing."""


UNKNOWN = object()
"""What the oracle answers for a form it does not restate (a new condition kind)."""

Group = tuple[CardRef, ...]
"""Characters of which a step must act on exactly one when there are any (one: it must act on that one)."""


class View:
    """The game as a step found it: a snapshot, the rules, and who runs the ability."""

    __slots__ = ("snap", "rules", "seat", "this", "source", "n", "_zones")

    def __init__(self, snap: Snap, rules: Rules, seat: int, this: CardRef | None, source: str) -> None:
        self.snap = snap
        self.rules = rules
        self.seat = seat
        self.this = this
        self.source = source  # "c:Name" or "l:kind"
        self.n = len(snap.coins)
        self._zones: dict[CardRef, str | None] | None = None

    # ------------------------------------------------------------ where things are
    def zone_of(self, ref: CardRef) -> str | None:
        """The zone a character is in: ``island``, ``hand``, ``ship``, ``graveyard``, or None."""
        if self._zones is None:
            zones: dict[CardRef, str | None] = {r: "island" for r in self.snap.island}
            for pile in ("hand", "ship", "graveyard"):
                for seat, names in enumerate(getattr(self.snap, pile)):
                    for name in names:
                        zones.setdefault((seat, name), pile)
            self._zones = zones
        return self._zones.get(ref)

    def pile(self, seat: int, pile: str) -> tuple[str, ...]:
        piles: tuple[tuple[str, ...], ...] = getattr(self.snap, pile)
        return piles[seat]

    def adjacent(self, seat: int) -> list[int]:
        """R12: the seats beside ``seat``, around the table; a lone opponent once."""
        if self.n < 2:
            return []
        return sorted({(seat - 1) % self.n, (seat + 1) % self.n})

    def reputation(self, seat: int) -> int:
        track = self.snap.track
        return track.index(seat) if track else 0

    def printed(self, name: str) -> str:
        """The card's printed name: ``Cook#1`` (seat 1's Cook, held by another) is a Cook."""
        return name.partition("#")[0]

    def rank(self, name: str) -> float:
        return self.rules.rank(name)

    def mark(self, slot: int) -> Mark | None:
        marks = self.snap.marks
        return marks[slot] if 0 <= slot < len(marks) else None

    def bound(self, slot: int) -> CardRef:
        """The character the binder of ``slot`` named; ``Unbound`` if it named nobody or did not run."""
        mark = self.mark(slot)
        if mark is None or not mark[0]:
            raise Unbound
        return mark[0][0]

    def today(self) -> tuple[str, ...]:
        days, day = self.snap.days, self.snap.day
        return days[day - 1] if 0 < day <= len(days) else ()

    def tomorrow(self) -> tuple[str, ...]:
        days, day = self.snap.days, self.snap.day
        return days[day] if day < len(days) else ()

    def acts(self, name: str, timing: str) -> bool:
        """Whether the character has an ability of ``timing`` that runs (a standing rule does not)."""
        return any(c.timing == timing and not c.passive for c in self.rules.card(name).compiled)


# ------------------------------------------------------------------ characters
def fits(flt: cards.Filter, v: View, ref: CardRef, zone: str | None) -> bool:
    """Whether one filter of a phrase holds of a character standing in ``zone``."""
    if isinstance(flt, cards.RankedAbove):
        return v.rank(ref[1]) > flt.rank
    if isinstance(flt, cards.RankedBelow):
        return v.rank(ref[1]) < flt.rank
    if isinstance(flt, cards.RankedThanThis):
        if v.this is None:
            return False
        mine, theirs = v.rank(v.this[1]), v.rank(ref[1])
        return theirs > mine if flt.above else theirs < mine
    if isinstance(flt, cards.HasAbility):
        return any(c.timing == flt.timing for c in v.rules.card(ref[1]).compiled)
    if isinstance(flt, cards.OwnedBy):
        if ref[0] is None:
            return False
        return ref[0] != v.seat if flt.other else ref[0] == (v.seat + flt.step) % v.n
    return in_place(flt.place, flt.pile, v, ref, zone)


def in_place(place: str, pile: str, v: View, ref: CardRef, zone: str | None) -> bool:
    """Whether a character in ``zone`` stands in a phrase's place ("on the island", "in your hand", ...)."""
    if place == "island":
        return zone == "island"
    if place == "in_play":
        return zone in ("island", "ship")
    if place == "your":
        return ref[0] == v.seat and zone == pile
    if zone != "ship":
        return False
    if place == "any_ship":
        return True
    if place == "other_ship":
        return ref[0] != v.seat
    return ref[0] in ship_owners(place, v)


def ship_owners(place: str, v: View) -> list[int]:
    """The seats whose ships a place of one or more ships names, for the ability's owner."""
    seats = list(range(v.n))
    if place == "any_ship":
        return seats
    if place == "other_ship":
        return [x for x in seats if x != v.seat]
    if place == "left_ship":
        return [(v.seat + 1) % v.n]
    if place == "right_ship":
        return [(v.seat - 1) % v.n]
    if place in ("top_ship", "bottom_ship"):
        spaces = [v.reputation(x) for x in seats]
        return [spaces.index(max(spaces) if place == "top_ship" else min(spaces))]
    return v.adjacent(v.seat)


def describe(phrase: cards.Phrase, v: View, nightfall: bool = False) -> list[CardRef]:
    """Every character the phrase describes, the island left to right first, then each seat's ship.

    ``nightfall``: the ships as they were when night fell (``there was no … at nightfall``).
    """
    s = v.snap
    seats = range(v.n)
    ships = s.census if nightfall and s.census is not None else s.ship
    place = phrase.place
    if place in ("island", "in_play"):
        found: list[tuple[CardRef, str | None]] = [(r, "island") for r in s.island]
        if place == "in_play":
            found += [((seat, name), "ship") for seat in seats for name in ships[seat]]
    elif place == "your":
        names = ships[v.seat] if phrase.pile == "ship" else v.pile(v.seat, phrase.pile)
        found = [((v.seat, name), phrase.pile) for name in names]
    else:
        owners = ship_owners(place, v)
        found = [((seat, name), "ship") for seat in owners for name in ships[seat]]
    out = []
    for ref, zone in found:
        if phrase.other and ref == v.this:
            continue
        if phrase.name and v.printed(ref[1]) != phrase.name:
            continue
        if all(fits(flt, v, ref, zone) for flt in phrase.filters):
            out.append(ref)
    return out


def positional(position: str, refs: Sequence[CardRef], v: View) -> CardRef | None:
    """The leftmost, rightmost, lowest- or highest-ranked of ``refs`` (the first of equals)."""
    if not refs:
        return None
    if position == "leftmost":
        return refs[0]
    if position == "rightmost":
        return refs[-1]
    ranked = sorted(range(len(refs)), key=lambda i: (v.rank(refs[i][1]) if position == "lowest-ranked"
                                                     else -v.rank(refs[i][1]), i))
    return refs[ranked[0]]


def neighbour(side: str, v: View) -> CardRef | None:
    island = v.snap.island
    if v.this not in island:
        return None
    i = island.index(v.this) + (-1 if side == "left" else 1)
    return island[i] if 0 <= i < len(island) else None


def expect(selector: Any, v: View, eligible: Callable[[CardRef], bool]) -> list[Group]:
    """The groups a character selector must act on: exactly one character of each group that has any.

    ``eligible`` says which characters the action can act on at all.  Raises ``Unbound`` for
    "it" whose binder named nobody.
    """
    if isinstance(selector, cards.This):
        return [_one(v.this, eligible)]
    if isinstance(selector, cards.It):
        return [_one(v.bound(selector.slot), eligible)]
    if isinstance(selector, cards.Beside):
        return [_one(neighbour(selector.side, v), eligible)]
    if isinstance(selector, cards.Every):
        return [(r,) for r in describe(selector.phrase, v) if eligible(r)]
    if isinstance(selector, cards.Positional):
        return [_one(positional(selector.position, describe(selector.phrase, v), v), eligible)]
    if isinstance(selector, cards.Choose):
        return [tuple(r for r in describe(selector.phrase, v) if r[0] is not None and eligible(r))]
    assert isinstance(selector, cards.PerShip), f"no oracle for the selector {selector!r}"
    refs = describe(selector.phrase, v)
    groups: list[Group] = []
    for seat in dict.fromkeys(r[0] for r in refs):
        ship = [r for r in refs if r[0] == seat]
        if selector.position:
            groups.append(_one(positional(selector.position, ship, v), eligible))
        else:
            groups.append(tuple(r for r in ship if eligible(r)))
    return groups


def _one(ref: CardRef | None, eligible: Callable[[CardRef], bool]) -> Group:
    return (ref,) if ref is not None and eligible(ref) else ()


def matches(groups: Sequence[Group], acted: Sequence[CardRef]) -> str | None:
    """Why ``acted`` is not one character of each non-empty group and nothing else (None: it is)."""
    left = list(acted)
    for group in groups:
        if not group:
            continue
        hit = [r for r in left if r in group]
        if len(hit) != 1:
            shown = ", ".join(_card(r) for r in group)
            return (f"it acted on {len(hit)} of [{shown}], not one" if hit else
                    f"it acted on none of [{shown}], though one of them was there to act on")
        left.remove(hit[0])
    if left:
        return f"it acted on {', '.join(_card(r) for r in left)}, which its words do not name"
    return None


def _card(ref: CardRef) -> str:
    return ref[1] if ref[0] is None else f"seat {ref[0]}'s {ref[1]}"


# ------------------------------------------------------------------ players
class Subjects:
    """The players an action is about: ``exact`` in order when the words fix them, else those ``allowed``."""

    __slots__ = ("exact", "allowed")

    def __init__(self, exact: list[int] | None, allowed: set[int]) -> None:
        self.exact = exact
        self.allowed = allowed


def subjects(players: Any, v: View, named: Callable[[CardRef], bool] = lambda r: True) -> Subjects:
    """Whom ``players`` names; ``Unbound`` when it points back to a character nobody named.

    ``named``: which characters the ability's owner may pick for "the owner of a …" (E25).
    """
    if isinstance(players, amt.You):
        return Subjects([v.seat], {v.seat})
    if isinstance(players, amt.PlayerOnSide):
        seat = (v.seat + players.step) % v.n
        return Subjects([seat], {seat})
    if isinstance(players, amt.EveryPlayer):
        seats = [s for s in range(v.n) if not (players.other and s == v.seat)]
        return Subjects(seats, set(seats))
    if isinstance(players, amt.ItsOwner):
        ref = v.bound(players.slot)
        seats = [] if ref[0] is None else [ref[0]]
        return Subjects(seats, set(seats))
    if isinstance(players, amt.PlayersWhere):  # E32: the clause read from each seat's side
        pool = [s for s in range(v.n) if not (players.other and s == v.seat)]
        truths = [_cond(players.test, seen_from(v, s)) for s in pool]
        if any(t is UNKNOWN for t in truths):
            return Subjects(None, set(pool))
        seats = [s for s, t in zip(pool, truths, strict=True) if t is True]
        return Subjects(seats, set(seats))
    if isinstance(players, amt.MoreThanYou):  # E33: strictly more (or fewer) than the ability's owner
        mine = measure(players.measure, v, v.seat)
        seats = [s for s in range(v.n) if not (players.other and s == v.seat)
                 and (measure(players.measure, v, s) > mine if players.more else measure(players.measure, v, s) < mine)]
        return Subjects(seats, set(seats))
    if isinstance(players, amt.MostOf):  # E31: every seat tied for the most (or the fewest)
        pool = [s for s in range(v.n) if not (players.other and s == v.seat)]
        values = [measure(players.measure, v, s) for s in pool]
        best = (max(values) if players.most else min(values)) if values else 0
        seats = [s for s, n in zip(pool, values, strict=True) if n == best]
        return Subjects(seats, set(seats))
    assert isinstance(players, amt.OwnersOf), f"no oracle for the players {players!r}"
    groups = [g for g in expect(players.target, v, named if amt.asks(players.target) else lambda r: True) if g]
    if not groups:
        raise Unbound  # "the owner of …" names nobody: the action does nothing (R1)
    owners = [r[0] for g in groups for r in g if r[0] is not None]
    if all(len(g) == 1 for g in groups):
        return Subjects(list(dict.fromkeys(owners)), set(owners))
    return Subjects(None, set(owners))


def seen_from(v: View, seat: int) -> View:
    """The game as the player at ``seat`` sees it: "your ship", "you hold" are theirs (E32)."""
    return View(v.snap, v.rules, seat, v.this, v.source)


def measure(m: Any, v: View, seat: int) -> int:
    """What players are compared by (E30), for ``seat``: their doubloons, tokens of some kinds, or a pile."""
    s = v.snap
    if isinstance(m, msr.Doubloons):
        return s.coins[seat]
    if isinstance(m, msr.Reputation):
        return v.reputation(seat)
    if isinstance(m, msr.LootHeld):
        return count_of(s.loot[seat], m.kinds)
    assert isinstance(m, msr.PileSize), f"no oracle for the measure {m!r}"
    return len(v.pile(seat, m.pile))


# ------------------------------------------------------------------ amounts
def count(counter: Any, v: View) -> int | None:
    """What a counter counts for the ability's owner (None: a form this oracle does not know)."""
    s = v.snap
    if isinstance(counter, amt.CountCards):
        return len(describe(counter.phrase, v))
    if isinstance(counter, amt.CountHeld):
        return count_of(s.loot[v.seat], counter.kinds)
    if isinstance(counter, amt.CountKindsHeld):
        return len({k for k in s.loot[v.seat] if of_kind(k, counter.kinds)})
    if isinstance(counter, amt.CountSpacesSide):
        if not s.track:
            return 0
        mine = v.reputation(v.seat)
        return mine if counter.side == "left" else len(s.track) - 1 - mine
    if isinstance(counter, amt.CountMarked):
        mark = v.mark(counter.slot)
        return 0 if mark is None else mark[2]
    return None


def table_value(rows: Iterable[amt.Row], n: int) -> int:
    """A table's value for ``n``: the last row that matches it (``N for V``, ``N or more``, ``N or fewer``)."""
    value = 0
    for row in rows:
        if n == row.count or (row.cmp == "more" and n >= row.count) or (row.cmp == "fewer" and n <= row.count):
            value = row.value
    return value


def sets_value(n: int, rows: Sequence[amt.Row]) -> int:
    """R14: the most ``n`` tokens are worth split into priced sets (any tokens may stay unsold)."""
    best = {0: 0}
    for i in range(1, n + 1):
        best[i] = max([0, *(row.value + best[i - row.count] for row in rows if 0 < row.count <= i)])
    return best[n]


def amount(a: Any, v: View, seat: int) -> int | None:
    """How many doubloons (or reputation) an amount is for ``seat`` (None: unknown to this oracle)."""
    s = v.snap
    if isinstance(a, amt.Fixed):
        if a.per is None:
            return a.n
        c = count(a.per, v)
        return None if c is None else a.n * c
    if isinstance(a, amt.Theirs):  # said in the subject's words: read from their side
        return amount(a.amount, View(v.snap, v.rules, seat, v.this, v.source), seat)
    if isinstance(a, amt.Half):  # "half your doubloons": the reader's, whoever the subject is
        return s.coins[v.seat] // 2
    if isinstance(a, amt.UpTo):
        return max(0, a.n - s.coins[seat])
    if isinstance(a, amt.ByTable):
        c = count(a.counter, v)
        return None if c is None else table_value(a.rows, c)
    if isinstance(a, amt.InSets):
        extra = dict(s.extra).get((v.seat, a.kind), 0)
        return sets_value(s.loot[v.seat].count(a.kind) + extra, a.rows)
    return None


# ------------------------------------------------------------------ loot
Place = tuple[str, int]
"""Where a token is: (``today``, -1), (``tomorrow``, -1), (``bag``, -1) or (``held``, seat)."""


def places(v: View) -> dict[Place, Counter[str]]:
    """Every place a token can be, with the tokens there."""
    s = v.snap
    out: dict[Place, Counter[str]] = {("today", -1): Counter(v.today()), ("tomorrow", -1): Counter(v.tomorrow()),
                                      ("bag", -1): Counter(dict(s.bag))}
    for seat, held in enumerate(s.loot):
        out[("held", seat)] = Counter(held)
    return out


def phrase_places(phrase: loot.LootPhrase, v: View) -> list[Place]:
    """The places a loot phrase looks in ("you hold": yours; "an adjacent player": each neighbour's)."""
    if phrase.place in ("today", "tomorrow", "bag"):
        return [(phrase.place, -1)]
    if phrase.place == "held":
        return [("held", v.seat)]
    if phrase.place == "adjacent_player":
        return [("held", seat) for seat in v.adjacent(v.seat)]
    if v.n < 2:
        return []
    seats = {"other_player": [s for s in range(v.n) if s != v.seat], "left_player": [(v.seat + 1) % v.n],
             "right_player": [(v.seat - 1) % v.n]}[phrase.place]
    return [("held", seat) for seat in seats]


def available(phrase: loot.LootPhrase, v: View) -> dict[Place, Counter[str]]:
    """The tokens a loot phrase describes, by place."""
    all_places = places(v)
    out = {}
    for place in phrase_places(phrase, v):
        there = all_places[place]
        out[place] = Counter({k: n for k, n in there.items() if n > 0 and of_kind(k, phrase.kinds)})
    return out


def place_of_event(zone: str | None, seat: int | None) -> Place | None:
    """A token's place as an event names it (``today's loot``, ``loot`` and a seat, ...)."""
    named = {"today's loot": "today", "tomorrow's loot": "tomorrow", "the bag": "bag"}
    if zone in named:
        return named[zone], -1
    if zone == "loot" and seat is not None:
        return "held", seat
    return None


# ------------------------------------------------------------------ conditions
def truth(condition: cond.Condition, v: View) -> object:
    """Whether a condition holds: True, False, None (unknown: it speaks of a character nobody named) or UNKNOWN
    (the oracle cannot tell).

    Kleene's table (docs/card-language.md, "Meaning rules"): a group joined by "and" is false if any
    part is, else None if any part is; "or" is true if any group is, else None if any is None.
    """
    values: list[object] = []
    for parts in condition.groups:
        seen = [_cond(part, v) for part in parts]
        if any(t is not UNKNOWN and t is not None and not t for t in seen):
            values.append(False)
        elif any(t is UNKNOWN for t in seen):
            values.append(UNKNOWN)
        elif any(t is None for t in seen):
            values.append(None)
        else:
            values.append(True)
    if True in values:
        return not condition.negated
    if any(t is UNKNOWN for t in values):
        return UNKNOWN
    if any(t is None for t in values):
        return None
    return condition.negated


def _me(slot: int, v: View) -> CardRef | None:
    """"this" (slot -1; on loot, the character that took it) or the character "it" names (None: nobody)."""
    if slot < 0:
        return v.this
    try:
        return v.bound(slot)
    except Unbound:
        return None


def _cond(c: Any, v: View) -> object:  # noqa: C901, PLR0911 - one branch per condition kind
    s = v.snap
    if isinstance(c, cond.IsPositioned):
        me = _me(c.slot, v)
        if me is None:
            return None
        return positional(c.position, describe(c.phrase, v), v) == me
    if isinstance(c, cond.IsA):
        me = _me(c.slot, v)
        return None if me is None else v.printed(me[1]) == c.name
    if isinstance(c, cond.IsLike):
        if c.past:
            mark = v.mark(c.slot)
            if mark is None or not mark[1]:
                return None
            ref, zone = mark[1][0]
            return fits(c.filter, v, ref, zone)
        me = _me(c.slot, v)
        return None if me is None else fits(c.filter, v, me, v.zone_of(me))
    if isinstance(c, cond.LastVoyage):
        return s.voyage >= len(v.rules.board.voyage_days)
    if isinstance(c, cond.HaveDoubloons):
        mine = s.coins[v.seat]
        return mine <= c.n if c.at_most else mine >= c.n
    if isinstance(c, cond.NoOtherHas):
        mine = len(v.pile(v.seat, c.pile))
        others = [len(v.pile(x, c.pile)) for x in range(v.n) if x != v.seat]
        return all(o >= mine for o in others) if c.fewer else all(o <= mine for o in others)
    if isinstance(c, cond.Hold):
        return any(of_kind(k, c.kinds) for k in s.loot[v.seat]) != c.negated
    if isinstance(c, cond.JustTook):
        took = dict(s.just_took).get(v.this) if v.this is not None else None
        return took is not None and of_kind(took, c.kinds)
    if isinstance(c, cond.Exists):
        return (not describe(c.phrase, v, c.nightfall)) == c.negated
    if isinstance(c, cond.HoldCount):
        held = count_of(s.loot[v.seat], c.kinds)
        return held >= c.n if c.more else held <= c.n
    if isinstance(c, cond.CountExists):
        found = len(describe(c.phrase, v))
        return found >= c.n if c.more else found <= c.n
    if isinstance(c, cond.YouDid):
        mark = v.mark(c.slot)
        return mark is not None and mark[3]
    if isinstance(c, cond.Compare):  # E30: against each other player; a tie counts only with ``ties``
        mine = measure(c.measure, v, v.seat)
        others = [measure(c.measure, v, x) for x in range(v.n) if x != v.seat]
        if c.more:
            return all(mine > o or (c.ties and mine == o) for o in others)
        return all(mine < o or (c.ties and mine == o) for o in others)
    return UNKNOWN
