"""What a step's words name, read off the rules and the game as the step found it.

The engine works out at run time which characters, seats, tokens and numbers a step record
names (``engine.program``).  This module does not repeat that code, helper for helper: a copy
agrees with the code it copies, so a misreading in one is a misreading in both.  It keeps only
what the rules fix, each written once from its source and cited there:

- the seating (R12; card-language "Players"): whom ``you``, ``the player on your left``,
  ``an adjacent player``, ... name, as seat arithmetic of its own (``seats``);
- the places (card-language "Places"): which piles a place word names, read off the snapshot,
  and one listing of every character in the order phrases list them (``standing``);
- the island's order (R4, R5: left to right): ``leftmost``, ``the character left of this``;
- the tense (card-language "Tense"): ``was`` reads a character as its binder found it, the
  ``before`` of its mark, which the laws check against the snapshot before the binder ran;
- the numbers the words say: ``2 doubloons``, ``for each``, a table's rows, R14's sets.

Everything else the laws check is a fact that holds whatever the words say (``laws``: cards and
tokens only move, a gain never lowers a purse, a step changes only what its contract names,
what it counted is what it moved, you did is whether it changed the game).  Where the words
leave a choice to a player, the oracle says which outcomes are allowed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ...engine.program import amounts as amt
from ...engine.program import cards, loot
from ...engine.program import conditions as cond
from ...engine.program import measures as msr
from ...engine.specs import Rules
from ...state import CardRef, Mark
from .snapshot import Snap


class Unbound(Exception):
    """A word that points back ("it", "its owner") whose binder named nobody: the step must do nothing."""


Group = tuple[CardRef, ...]
"""Characters of which a step must act on exactly one when there are any (one: it must act on that one)."""

Standing = list[tuple[CardRef, str]]
"""Characters with the pile each stands in (``island``, ``ship``, ``hand``, ``graveyard``)."""


class View:
    """The game as a step found it: a snapshot, the rules, and who runs the ability."""

    __slots__ = ("snap", "rules", "seat", "this", "source", "n", "_zones", "_standing")

    def __init__(self, snap: Snap, rules: Rules, seat: int, this: CardRef | None, source: str) -> None:
        self.snap = snap
        self.rules = rules
        self.seat = seat
        self.this = this
        self.source = source  # "c:Name" or "l:kind"
        self.n = len(snap.coins)
        self._zones: dict[CardRef, str] | None = None
        self._standing: dict[bool, Standing] = {}

    def standing(self, nightfall: bool = False) -> Standing:
        """Every character, the island left to right first, then each seat's ship, hand and graveyard.

        ``nightfall``: the ships as they were when night fell (``there was no … at nightfall``, R9).
        """
        if nightfall not in self._standing:
            s = self.snap
            ships = s.census if nightfall and s.census is not None else s.ship
            out: Standing = [(r, "island") for r in s.island]
            for pile, piles in (("ship", ships), ("hand", s.hand), ("graveyard", s.graveyard)):
                out += [((seat, name), pile) for seat in range(self.n) for name in piles[seat]]
            self._standing[nightfall] = out
        return self._standing[nightfall]

    def zone_of(self, ref: CardRef) -> str | None:
        """The pile a character is in now: ``island``, ``hand``, ``ship``, ``graveyard``, or None."""
        if self._zones is None:
            self._zones = {}
            for r, pile in self.standing():
                self._zones.setdefault(r, pile)
        return self._zones.get(ref)

    def pile(self, seat: int, pile: str) -> tuple[str, ...]:
        piles: tuple[tuple[str, ...], ...] = getattr(self.snap, pile)
        return piles[seat]

    def reputation(self, seat: int) -> int:
        track = self.snap.track
        return track.index(seat) if track else 0

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

    def acts(self, name: str, timing: str) -> bool:
        """Whether the character has an ability of ``timing`` that runs (a standing rule does not)."""
        return any(c.timing == timing and not c.passive for c in self.rules.card(name).compiled)

    def side(self, seat: int) -> View:
        """The game as the player at ``seat`` sees it: "your ship", "you hold" are theirs (E32)."""
        return View(self.snap, self.rules, seat, self.this, self.source)


def printed(name: str) -> str:
    """The card's printed name: ``Cook#1`` (seat 1's Cook, held by another) is a Cook."""
    return name.partition("#")[0]


# ------------------------------------------------------------------ the seating
SIDE = {0: "you", 1: "left", -1: "right"}
"""A step record's seat offset as the word it stands for (card-language "Players"); no other offset is a word."""


def seats(word: str, v: View) -> list[int]:
    """The seats a player word names, for the owner at ``v.seat``, in seat order.

    Players sit round one table.  Card-language "Players": "the player on your left" is the next
    seat and "the player on your right" the previous one, round the table.  R12: an adjacent
    player is a seat neighbour, wrapping round; with two players the one opponent counts once.
    The highest (lowest) reputation is the seat furthest right (left) on the track, one token a
    space (card-language "Places").
    """
    me, n = v.seat, v.n
    if word == "you":
        return [me]
    if word == "any":
        return list(range(n))
    if n < 2:
        return []
    nxt, prev = (me + 1) % n, (me + n - 1) % n
    if word == "left":
        return [nxt]
    if word == "right":
        return [prev]
    if word == "adjacent":
        return sorted({nxt, prev})
    if word == "other":
        return [x for x in range(n) if x != me]
    assert word in ("top", "bottom"), f"no seating for the word {word!r}"
    spaces = [v.reputation(x) for x in range(n)]
    return [spaces.index(max(spaces) if word == "top" else min(spaces))]


def ship_word(place: str) -> str:
    """``left_ship`` is "the ship of the player on your left": the seat word of a place of ships."""
    return place.removesuffix("_ship")


def in_place(place: str, pile: str, v: View, ref: CardRef, zone: str | None) -> bool:
    """Whether a character standing in ``zone`` is in a phrase's place (card-language "Places").

    No place means in play: the island or any ship.  ``your`` is the owner's own ``pile``.
    """
    if zone == "island":
        return place in ("island", "in_play")
    if place == "your":
        return ref[0] == v.seat and zone == pile
    if place == "island":
        return False
    if place == "in_play":
        return zone == "ship"
    return zone == (pile or "ship") and ref[0] in seats(ship_word(place), v)  # ships, or those graveyards


# ------------------------------------------------------------------ characters
def fits(flt: cards.Filter, v: View, ref: CardRef, zone: str | None) -> bool:
    """Whether one filter of a phrase holds of a character standing in ``zone``."""
    if isinstance(flt, cards.RankedAbove | cards.RankedBelow):
        rank = v.rank(ref[1])
        return rank > flt.rank if isinstance(flt, cards.RankedAbove) else rank < flt.rank
    if isinstance(flt, cards.RankedThanThis):  # R10: a borrower compares its own rank
        if v.this is None:
            return False
        mine, theirs = v.rank(v.this[1]), v.rank(ref[1])
        return theirs > mine if flt.above else theirs < mine
    if isinstance(flt, cards.HasAbility):
        return any(c.timing == flt.timing for c in v.rules.card(ref[1]).compiled)
    if isinstance(flt, cards.OwnedBy):  # R13: a neutral card is owned by nobody
        return ref[0] is not None and ref[0] in seats("other" if flt.other else SIDE[flt.step], v)
    return in_place(flt.place, flt.pile, v, ref, zone)


def describe(phrase: cards.Phrase, v: View, nightfall: bool = False) -> list[CardRef]:
    """Every character the phrase describes, in ``standing`` order."""
    out = []
    for ref, zone in v.standing(nightfall):
        if not in_place(phrase.place, phrase.pile, v, ref, zone):
            continue
        if (phrase.other and ref == v.this) or (phrase.name and printed(ref[1]) != phrase.name):
            continue
        if all(fits(flt, v, ref, zone) for flt in phrase.filters):
            out.append(ref)
    return out


def positional(position: str, refs: Sequence[CardRef], v: View) -> CardRef | None:
    """The leftmost, rightmost (R4: the island left to right, then the ships), lowest- or highest-ranked
    of ``refs``.

    Equal ranks (R4): the card the island puts further right ranks higher.  On the island that is where
    it lies, its rank there being S2's "no effect" rank if it has one; elsewhere the printed rank, then
    the seat further right on the reputation track, or on the 2012 board the higher printed tie-breaker.
    """
    if not refs:
        return None
    if position in ("leftmost", "rightmost"):
        return refs[0] if position == "leftmost" else refs[-1]
    island, overrides, board = v.snap.island, dict(v.snap.ranks), v.rules.board

    def order(r: CardRef) -> tuple[float, float]:
        if r in island:
            return (overrides.get(r, v.rank(r[1])), island.index(r))
        if r[0] is None:
            return (v.rank(r[1]), -1.0)
        if board.tie_break == "tie_breakers":
            return (v.rank(r[1]), board.tie_breakers[v.rank(r[1])][r[0]])
        return (v.rank(r[1]), v.reputation(r[0]))

    return (min if position == "lowest-ranked" else max)(refs, key=order)


def neighbour(side: str, v: View) -> CardRef | None:
    """The character directly left (right) of this one on the island (R5: the island left to right)."""
    island = v.snap.island
    if v.this not in island:
        return None
    i = island.index(v.this) + (-1 if side == "left" else 1)
    return island[i] if 0 <= i < len(island) else None


def expect(selector: Any, v: View, eligible: Callable[[CardRef], bool]) -> list[Group]:
    """The groups a character selector must act on: exactly one character of each group that has any.

    ``the …``, ``this``, ``it``: that one; ``every …``: each; ``a …``: one of them; ``… in each
    ship``: one per ship.  ``eligible``: which characters the action can change at all (E25).
    Raises ``Unbound`` for "it" whose binder named nobody.
    """
    if isinstance(selector, cards.This | cards.It | cards.Beside | cards.Positional):
        if isinstance(selector, cards.This):
            one = v.this
        elif isinstance(selector, cards.It):
            one = v.bound(selector.slot)
        elif isinstance(selector, cards.Beside):
            one = neighbour(selector.side, v)
        else:
            one = positional(selector.position, describe(selector.phrase, v), v)
        return [(one,) if one is not None and eligible(one) else ()]
    if isinstance(selector, cards.RandomInHand):  # E41: one card of one named player's hand, drawn at random
        return [tuple((s, name) for s in seats(ship_word(selector.place), v) if s != v.seat
                      for name in v.pile(s, "hand") if eligible((s, name)))]
    refs = describe(selector.phrase, v)
    if isinstance(selector, cards.Every):
        return [(r,) for r in refs if eligible(r)]
    if isinstance(selector, cards.Choose):  # R13: a neutral card is nobody's to pick
        return [tuple(r for r in refs if r[0] is not None and eligible(r))]
    assert isinstance(selector, cards.PerShip), f"no oracle for the selector {selector!r}"
    groups: list[Group] = []
    for seat in dict.fromkeys(r[0] for r in refs):
        ship = [r for r in refs if r[0] == seat]
        if selector.position:
            one = positional(selector.position, ship, v)
            groups.append((one,) if one is not None and eligible(one) else ())
        else:
            groups.append(tuple(r for r in ship if eligible(r)))
    return groups


def matches(groups: Sequence[Group], acted: Sequence[CardRef]) -> str | None:
    """Why ``acted`` is not one character of each non-empty group and nothing else (None: it is)."""
    left = list(acted)
    for group in groups:
        if not group:
            continue
        hit = [r for r in left if r in group]
        if len(hit) != 1:
            shown = ", ".join(card_name(r) for r in group)
            return (f"it acted on {len(hit)} of [{shown}], not one" if hit else
                    f"it acted on none of [{shown}], though one of them was there to act on")
        left.remove(hit[0])
    if left:
        return f"it acted on {', '.join(card_name(r) for r in left)}, which its words do not name"
    return None


def card_name(ref: CardRef | None) -> str:
    if ref is None:
        return "nobody"
    return ref[1] if ref[0] is None else f"seat {ref[0]}'s {ref[1]}"


# ------------------------------------------------------------------ players
class Subjects:
    """The players an action is about: ``exact`` in order when the words fix them, else those ``allowed``."""

    __slots__ = ("exact", "allowed")

    def __init__(self, exact: list[int] | None, allowed: set[int]) -> None:
        self.exact = exact
        self.allowed = allowed


def _fixed(found: list[int]) -> Subjects:
    return Subjects(found, set(found))


def subjects(players: Any, v: View) -> Subjects:
    """Whom ``players`` names; ``Unbound`` when it points back to a character nobody named.

    "The owner of a …" leaves the pick to the owner: any character the phrase describes may be
    picked here, and the laws check that the pick changed something (E25).
    """
    if isinstance(players, amt.You | amt.PlayerOnSide | amt.EveryPlayer):
        word = "you" if isinstance(players, amt.You) else SIDE[players.step] \
            if isinstance(players, amt.PlayerOnSide) else "other" if players.other else "any"
        return _fixed(seats(word, v))
    if isinstance(players, amt.ItsOwner):  # R13: a neutral card owns nothing
        ref = v.bound(players.slot)
        return _fixed([] if ref[0] is None else [ref[0]])
    pool = seats("other" if getattr(players, "other", False) else "any", v)
    if isinstance(players, amt.PlayersWhere):  # E32: the clause read from each seat's side
        return _fixed([x for x in pool if _cond(players.test, v.side(x))])
    if isinstance(players, amt.MoreThanYou):  # E33: strictly more (or fewer) than the ability's owner
        mine = measure(players.measure, v, v.seat)
        return _fixed([x for x in pool if (measure(players.measure, v, x) - mine) * (1 if players.more else -1) > 0])
    if isinstance(players, amt.MostOf):  # E31: every seat tied for the most (or the fewest)
        values = {x: measure(players.measure, v, x) for x in pool}
        best = (max if players.most else min)(values.values(), default=0)
        return _fixed([x for x in pool if values[x] == best])
    if isinstance(players, amt.ChosenPlayer):  # E42: the owner picks one seat of the pool (E25: one it changes)
        return Subjects(None, set(pool))
    assert isinstance(players, amt.OwnersOf), f"no oracle for the players {players!r}"
    groups = [g for g in expect(players.target, v, lambda r: True) if g]
    if not groups:
        raise Unbound  # "the owner of …" names nobody: the action does nothing (R1)
    owners = [r[0] for g in groups for r in g if r[0] is not None]
    if all(len(g) == 1 for g in groups):
        return _fixed(list(dict.fromkeys(owners)))
    return Subjects(None, set(owners))


def measure(m: Any, v: View, seat: int) -> int:
    """What players are compared by (E30), for ``seat``: their doubloons, space, tokens of some kinds, or a pile."""
    s = v.snap
    if isinstance(m, msr.Doubloons):
        return s.coins[seat]
    if isinstance(m, msr.Reputation):
        return v.reputation(seat)
    if isinstance(m, msr.LootHeld):
        return held(s.loot[seat], m.kinds)
    assert isinstance(m, msr.PileSize), f"no oracle for the measure {m!r}"
    return len(v.pile(seat, m.pile))


def held(tokens: Iterable[str], kinds: Iterable[str]) -> int:
    """How many of ``tokens`` are of ``kinds``: no kind named is any kind (card-language "Loot")."""
    wanted = set(kinds)
    return sum(1 for k in tokens if not wanted or k in wanted)


# ------------------------------------------------------------------ amounts
def count(counter: Any, v: View) -> int:
    """What a counter counts for the owner: characters, tokens, kinds, track spaces, or what its binder did."""
    s = v.snap
    if isinstance(counter, amt.CountCards):
        return len(describe(counter.phrase, v))
    if isinstance(counter, amt.CountHeld):
        return held(s.loot[v.seat], counter.kinds)
    if isinstance(counter, amt.CountKindsHeld):
        return len({k for k in s.loot[v.seat] if held((k,), counter.kinds)})
    if isinstance(counter, amt.CountSpacesSide):  # the spaces beside your token on that side of the track
        mine = v.reputation(v.seat)
        return 0 if not s.track else mine if counter.side == "left" else len(s.track) - 1 - mine
    assert isinstance(counter, amt.CountMarked), f"no oracle for the counter {counter!r}"
    mark = v.mark(counter.slot)
    return 0 if mark is None else mark[2]


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


def amount(a: Any, v: View, seat: int) -> int:
    """How many doubloons (or spaces) an amount is for ``seat``."""
    s = v.snap
    if isinstance(a, amt.Fixed):
        if a.per is None:
            return a.n
        whole = a.n * (count(a.per, v) // a.every)  # "for every 2 …": whole groups only
        return whole if a.cap is None else min(whole, a.cap)  # "…, up to 6 doubloons"
    if isinstance(a, amt.Theirs):  # said in the subject's own words ("their ship"): read from their side
        return amount(a.amount, View(v.snap, v.rules, seat, v.this, v.source), seat)
    if isinstance(a, amt.Half):  # "half your doubloons": the ability's owner's (E37), rounded down
        return s.coins[v.seat] // 2
    if isinstance(a, amt.UpTo):  # tops up the purse of the one who gains
        return max(0, a.n - s.coins[seat])
    if isinstance(a, amt.ByTable):
        return table_value(a.rows, count(a.counter, v))
    assert isinstance(a, amt.InSets), f"no oracle for the amount {a!r}"
    return sets_value(s.loot[v.seat].count(a.kind) + dict(s.extra).get((v.seat, a.kind), 0), a.rows)  # "your" (E37)


# ------------------------------------------------------------------ loot
Place = tuple[str, int]
"""Where a token is: (``today``, -1), (``tomorrow``, -1), (``bag``, -1) or (``held``, seat)."""


def places(v: View) -> dict[Place, Counter[str]]:
    """Every place a token can be, with the tokens there."""
    s = v.snap
    days, day = s.days, s.day
    out: dict[Place, Counter[str]] = {
        ("today", -1): Counter(days[day - 1] if 0 < day <= len(days) else ()),
        ("tomorrow", -1): Counter(days[day] if day < len(days) else ()), ("bag", -1): Counter(dict(s.bag))}
    for seat, tokens in enumerate(s.loot):
        out[("held", seat)] = Counter(tokens)
    return out


def available(phrase: loot.LootPhrase, v: View) -> dict[Place, Counter[str]]:
    """The tokens a loot phrase describes, by place: a day, the bag, or the loot of the players its word
    names (``you hold``: yours; ``from the player on your left``: that seat's, by ``seats``)."""
    everywhere = places(v)
    where = [(phrase.place, -1)] if phrase.place in ("today", "tomorrow", "bag") else \
        [("held", x) for x in seats("you" if phrase.place == "held" else phrase.place.removesuffix("_player"), v)]
    return {p: Counter({k: n for k, n in everywhere[p].items() if n > 0 and held((k,), phrase.kinds)})
            for p in where}


def place_of_event(zone: str | None, seat: int | None) -> Place | None:
    """A token's place as an event names it (``today's loot``, ``loot`` and a seat, ...)."""
    named = {"today's loot": "today", "tomorrow's loot": "tomorrow", "the bag": "bag"}
    if zone in named:
        return named[zone], -1
    if zone == "loot" and seat is not None:
        return "held", seat
    return None


# ------------------------------------------------------------------ conditions
def truth(condition: cond.Condition, v: View) -> bool | None:
    """Whether a condition holds: True, False, or None (unknown: a part speaks of a character nobody named).

    Kleene's table (docs/card-language.md, "Meaning rules"): an "and" group is false if any part is
    false, else unknown if any part is; "or" is true if any group is, else unknown if any group is;
    "unless" negates a known value.  Read from the set of values, so order and grouping never matter.
    """
    values = set()
    for parts in condition.groups:
        seen = {_cond(part, v) for part in parts}
        values.add(False if False in seen else None if None in seen else True)
    if True in values:
        return not condition.negated
    return None if None in values else condition.negated


def _me(slot: int, v: View) -> CardRef | None:
    """"this" (slot -1; on loot, the character that took it) or the character "it" names (None: nobody)."""
    if slot < 0:
        return v.this
    try:
        return v.bound(slot)
    except Unbound:
        return None


def _cond(c: Any, v: View) -> bool | None:  # noqa: C901, PLR0911 - one branch per condition kind
    s = v.snap
    if isinstance(c, cond.IsPositioned | cond.IsA | cond.IsLike) and not getattr(c, "past", False):
        me = _me(c.slot, v)
        if me is None:
            return None  # about nobody: unknown (the Kleene table above)
        if isinstance(c, cond.IsPositioned):  # a position is read as things stand
            return positional(c.position, describe(c.phrase, v), v) == me
        if isinstance(c, cond.IsA):  # the card it is, whoever holds it
            return printed(me[1]) == c.name
        return fits(c.filter, v, me, v.zone_of(me))
    if isinstance(c, cond.IsLike):  # "was": as its binder found it (card-language "Tense")
        mark = v.mark(c.slot)
        if mark is None or not mark[1]:
            return None
        ref, zone = mark[1][0]
        return fits(c.filter, v, ref, zone)
    if isinstance(c, cond.LastVoyage):
        return s.voyage >= len(v.rules.board.voyage_days)
    if isinstance(c, cond.HaveDoubloons):
        return s.coins[v.seat] <= c.n if c.at_most else s.coins[v.seat] >= c.n
    if isinstance(c, cond.ReputationAt):  # spaces numbered 1 (the leftmost) upwards
        space = v.reputation(v.seat) + 1
        return space <= c.n if c.at_most else space >= c.n
    if isinstance(c, cond.NoOtherHas):
        mine = len(v.pile(v.seat, c.pile))
        others = [len(v.pile(x, c.pile)) for x in seats("other", v)]
        return all(o >= mine for o in others) if c.fewer else all(o <= mine for o in others)
    if isinstance(c, cond.Hold):
        return (held(s.loot[v.seat], c.kinds) > 0) != c.negated
    if isinstance(c, cond.JustTook):  # "a loot" names no kind: any token taken counts
        took = dict(s.just_took).get(v.this) if v.this is not None else None
        return took is not None and held((took,), c.kinds) > 0
    if isinstance(c, cond.Exists):
        return (not describe(c.phrase, v, c.nightfall)) == c.negated
    if isinstance(c, cond.HoldCount | cond.CountExists):
        found = held(s.loot[v.seat], c.kinds) if isinstance(c, cond.HoldCount) else len(describe(c.phrase, v))
        return found >= c.n if c.more else found <= c.n
    if isinstance(c, cond.YouDid):
        mark = v.mark(c.slot)
        return mark is not None and mark[3]
    assert isinstance(c, cond.Compare), f"no oracle for the condition {c!r}"
    # E30: against each other player; a tie counts only with ``ties``
    mine = measure(c.measure, v, v.seat)
    sign = 1 if c.more else -1
    return all((mine - measure(c.measure, v, x)) * sign > 0 or (c.ties and mine == measure(c.measure, v, x))
               for x in seats("other", v))
