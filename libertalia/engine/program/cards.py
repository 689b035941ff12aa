"""Which characters a phrase means: filters, noun phrases and selectors, as typed records.

A filter answers for one character now (``fits``) or as it stood before some step
(``fitted``, given the zone it was in then: the tense ``was``).  A phrase lists every
character it describes; a selector turns a phrase into the characters one action acts
on, asking the ability's owner where it is a choice.  Each action says which
characters it can act on at all (``eligible``): a selector offers only those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ...state import CardRef, Option
from ..options import new_option
from .base import Unbound, bound_card, source_name
from .record import Record, declare

if TYPE_CHECKING:
    from ..work import Frame, Work


class Eligible(Record):
    """What an action can act on: the selector offers only characters that pass.

    A base class rather than a protocol, so that the compiled build calls ``eligible`` natively: a
    selector asks it of every card it could pick.
    """

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        raise NotImplementedError


# ------------------------------------------------------------------ filters
class RankedAbove(Record):
    rank: int
    __node_fields__ = declare("rank")

    def __init__(self, rank: int) -> None:
        object.__setattr__(self, "rank", rank)

    def fits(self, w: Work, f: Frame, r: CardRef) -> bool:
        return w.tables.ranks[r[1]] > self.rank

    def fitted(self, w: Work, f: Frame, r: CardRef, zone: str | None) -> bool:
        return w.tables.ranks[r[1]] > self.rank


class RankedBelow(Record):
    rank: int
    __node_fields__ = declare("rank")

    def __init__(self, rank: int) -> None:
        object.__setattr__(self, "rank", rank)

    def fits(self, w: Work, f: Frame, r: CardRef) -> bool:
        return w.tables.ranks[r[1]] < self.rank

    def fitted(self, w: Work, f: Frame, r: CardRef, zone: str | None) -> bool:
        return w.tables.ranks[r[1]] < self.rank


class RankedThanThis(Record):
    """Ranked above (or below) the character whose ability runs (``this``; a borrower's own, R10)."""

    above: bool
    __node_fields__ = declare("above")

    def __init__(self, above: bool) -> None:
        object.__setattr__(self, "above", above)

    def fits(self, w: Work, f: Frame, r: CardRef) -> bool:
        if f.this is None:  # the checker keeps it to characters' abilities
            return False
        mine, theirs = w.tables.ranks[f.this[1]], w.tables.ranks[r[1]]
        return theirs > mine if self.above else theirs < mine

    def fitted(self, w: Work, f: Frame, r: CardRef, zone: str | None) -> bool:
        return self.fits(w, f, r)


class HasAbility(Record):
    timing: str
    __node_fields__ = declare("timing")

    def __init__(self, timing: str) -> None:
        object.__setattr__(self, "timing", timing)

    def fits(self, w: Work, f: Frame, r: CardRef) -> bool:
        return w.tables.cards[r[1]].has(self.timing)

    def fitted(self, w: Work, f: Frame, r: CardRef, zone: str | None) -> bool:
        return w.tables.cards[r[1]].has(self.timing)


class OwnedBy(Record):
    """Owned by you (``step`` 0), by any other player (``other``), or by the seat ``step`` away."""

    other: bool
    step: int
    __node_fields__ = declare("other", step=0)

    def __init__(self, other: bool, step: int = 0) -> None:
        object.__setattr__(self, "other", other)
        object.__setattr__(self, "step", step)

    def fits(self, w: Work, f: Frame, r: CardRef) -> bool:
        if r[0] is None:
            return False
        if self.other:
            return r[0] != f.seat
        return r[0] == (f.seat + self.step) % w.n

    def fitted(self, w: Work, f: Frame, r: CardRef, zone: str | None) -> bool:
        return self.fits(w, f, r)


class InZone(Record):
    """On the island, in your pile, or in some ships: ``place`` is ``island``, ``your``,
    or the ships ``ship_seats`` names (``pile`` "graveyard": those players' graveyards instead)."""

    place: str
    pile: str
    __node_fields__ = declare("place", pile='')

    def __init__(self, place: str, pile: str = '') -> None:
        object.__setattr__(self, "place", place)
        object.__setattr__(self, "pile", pile)

    def fits(self, w: Work, f: Frame, r: CardRef) -> bool:
        return self.fitted(w, f, r, w.zone_of(r))

    def fitted(self, w: Work, f: Frame, r: CardRef, zone: str | None) -> bool:
        place = self.place
        if place == "island":
            return zone == "island"
        if place == "your":
            return r[0] == f.seat and zone == self.pile
        if zone != (self.pile or "ship"):  # the ships, or the same players' graveyards
            return False
        if place == "any_ship":
            return True
        if place == "other_ship":
            return r[0] != f.seat
        return r[0] in ship_seats(place, w, f.seat)


Filter = RankedAbove | RankedBelow | RankedThanThis | HasAbility | OwnedBy | InZone


def ship_seats(place: str, w: Work, seat: int) -> list[int]:
    """The seats whose ships a place names, for the ability's owner at ``seat``: every one, every other,
    the neighbours (R12: one opponent once), one neighbour (left: the next seat), or the player highest
    (or lowest) on the reputation track, where each space holds one token."""
    if place == "any_ship":
        return list(range(w.n))
    if place == "other_ship":
        return [s for s in range(w.n) if s != seat]
    if place == "adjacent_ship":
        return w.adjacent(seat)
    if place == "left_ship":
        return [(seat + 1) % w.n]
    if place == "right_ship":
        return [(seat - 1) % w.n]
    assert place in ("top_ship", "bottom_ship"), place
    ranking = sorted(range(w.n), key=w.reputation)
    return [ranking[-1] if place == "top_ship" else ranking[0]]


# ------------------------------------------------------------------ phrases
class Phrase(Record):
    """Every character a noun phrase describes, in a stable order (island, then ships by seat).

    ``place`` is where to look (``in_play`` when the phrase names no place: the island and
    every ship); ``name`` limits the phrase to one card ("" for any character).
    """

    place: str
    pile: str
    other: bool
    name: str
    filters: tuple[Filter, ...]
    __node_fields__ = declare("place", "pile", "other", "name", "filters")

    def __init__(self, place: str, pile: str, other: bool, name: str, filters: tuple[Filter, ...]) -> None:
        object.__setattr__(self, "place", place)
        object.__setattr__(self, "pile", pile)
        object.__setattr__(self, "other", other)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "filters", filters)

    def _source(self, w: Work, f: Frame, nightfall: bool) -> list[CardRef]:
        place = self.place
        if place == "island":
            return list(w.island)
        census = w.census if nightfall else None
        if place == "in_play":  # "there was no Topman at nightfall": every ship as night fell
            ships = census if census is not None else tuple(w.seats[s].ship for s in range(w.n))
            return [*w.island, *((s, n) for s in range(w.n) for n in ships[s])]
        if place == "your":
            if census is not None and self.pile == "ship":
                return [(f.seat, n) for n in census[f.seat]]
            return [(f.seat, n) for n in w.seats[f.seat].pile(self.pile)]
        seats = ship_seats(place, w, f.seat)
        if self.pile == "graveyard":  # those players' graveyards (read as they stand, as "your graveyard" is)
            return [(s, n) for s in seats for n in w.seats[s].graveyard]
        if census is not None:
            return [(s, n) for s in seats for n in census[s]]
        return [(s, n) for s in seats for n in w.seats[s].ship]

    def cards(self, w: Work, f: Frame, nightfall: bool = False) -> list[CardRef]:
        refs = self._source(w, f, nightfall)
        if self.other:
            this = f.this
            refs = [r for r in refs if r != this]
        if self.name:
            name, cards = self.name, w.tables.cards
            refs = [r for r in refs if cards[r[1]].name == name]
        for flt in self.filters:
            refs = [r for r in refs if flt.fits(w, f, r)]
        return refs


def pick_positional(position: str, refs: list[CardRef], w: Work) -> CardRef | None:
    """The leftmost, rightmost, lowest- or highest-ranked of ``refs``.

    Equal ranks are told apart as the island tells them (R4): the card the tie rule puts further right
    ranks higher.  On the island that is where it lies (the order is fixed at reveal); elsewhere it is
    the board's tie rule now (reputation, or the 2012 tie-breakers).  So on the island the highest-ranked
    card is always the rightmost of those named, never the left one of a tie.
    """
    if not refs:
        return None
    if position == "leftmost":
        return refs[0]
    if position == "rightmost":
        return refs[-1]
    if position == "lowest-ranked":
        return min(refs, key=w.rank_order)
    return max(refs, key=w.rank_order)


def character_option(w: Work, ref: CardRef, seat: int) -> Option:
    """The option naming ``ref`` to ``seat``: made once per card, asker and zone (``Rules.option_cache``)."""
    zone = w.zone_of(ref)
    cache = w.tables.option_cache
    key = (ref[0], ref[1], seat, zone)  # flat: one tuple to build and hash, not one within another
    option = cache.get(key)
    if option is None:
        # Joined rather than formatted: compiled, each f-string part is a ``str.format`` call, and the cache
        # misses often (it holds every card, asker and zone) while a process plays its first hundred games.
        owner = "your" if ref[0] == seat else "seat " + str(ref[0]) + "'s"
        label = owner + " " + ref[1] + " (" + w.tables.rank_labels[ref[1]] + ", " + str(zone) + ")"
        option = new_option(w.key_for(ref, seat), label)
        cache[key] = option
    return option


def choose_char(w: Work, f: Frame, refs: list[CardRef], verb: str) -> CardRef | None:
    """Ask the ability's owner to pick one of ``refs`` (none asked when there is nothing to pick)."""
    if not refs:
        return None
    options = [character_option(w, r, f.seat) for r in refs]
    key = w.ask(f, f.seat, "choose_character", options, f"choose a character to {verb}", source_name(f))
    return refs[[o.key for o in options].index(key)]


# ------------------------------------------------------------------ selectors
class This(Record):
    """The character whose ability runs (R10: the borrower), or on loot the character that took it."""

    plural: ClassVar[bool] = False

    def pick(self, w: Work, f: Frame, act: Eligible) -> list[CardRef]:
        this = f.this
        return [this] if this is not None and act.eligible(w, f, this) else []

    def any(self, w: Work, f: Frame, act: Eligible) -> bool:
        return bool(self.pick(w, f, act))


class It(Record):
    """The character named by the binder step of slot ``slot``."""

    slot: int
    __node_fields__ = declare("slot")
    plural: ClassVar[bool] = False

    def __init__(self, slot: int) -> None:
        object.__setattr__(self, "slot", slot)

    def pick(self, w: Work, f: Frame, act: Eligible) -> list[CardRef]:
        ref = bound_card(f, self.slot)
        return [ref] if act.eligible(w, f, ref) else []

    def any(self, w: Work, f: Frame, act: Eligible) -> bool:
        try:
            return bool(self.pick(w, f, act))
        except Unbound:
            return False


class Beside(Record):
    """The character directly left or right of this one on the island."""

    side: str
    __node_fields__ = declare("side")
    plural: ClassVar[bool] = False

    def __init__(self, side: str) -> None:
        object.__setattr__(self, "side", side)

    def pick(self, w: Work, f: Frame, act: Eligible) -> list[CardRef]:
        if f.this not in w.island:
            return []
        i = w.island.index(f.this) + (-1 if self.side == "left" else 1)
        ref = w.island[i] if 0 <= i < len(w.island) else None
        return [ref] if ref is not None and act.eligible(w, f, ref) else []

    def any(self, w: Work, f: Frame, act: Eligible) -> bool:
        return bool(self.pick(w, f, act))


class Every(Record):
    phrase: Phrase
    __node_fields__ = declare("phrase")
    plural: ClassVar[bool] = True

    def __init__(self, phrase: Phrase) -> None:
        object.__setattr__(self, "phrase", phrase)

    def pick(self, w: Work, f: Frame, act: Eligible) -> list[CardRef]:
        return [r for r in self.phrase.cards(w, f) if act.eligible(w, f, r)]

    def any(self, w: Work, f: Frame, act: Eligible) -> bool:
        return any(act.eligible(w, f, r) for r in self.phrase.cards(w, f))


class Positional(Record):
    position: str
    phrase: Phrase
    __node_fields__ = declare("position", "phrase")
    plural: ClassVar[bool] = False

    def __init__(self, position: str, phrase: Phrase) -> None:
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "phrase", phrase)

    def pick(self, w: Work, f: Frame, act: Eligible) -> list[CardRef]:
        ref = pick_positional(self.position, self.phrase.cards(w, f), w)
        return [ref] if ref is not None and act.eligible(w, f, ref) else []

    def any(self, w: Work, f: Frame, act: Eligible) -> bool:
        return bool(self.pick(w, f, act))


class Choose(Record):
    """The owner picks one character the phrase describes (none asked when there is one or none)."""

    phrase: Phrase
    verb: str
    __node_fields__ = declare("phrase", "verb")
    plural: ClassVar[bool] = False

    def __init__(self, phrase: Phrase, verb: str) -> None:
        object.__setattr__(self, "phrase", phrase)
        object.__setattr__(self, "verb", verb)

    def pick(self, w: Work, f: Frame, act: Eligible) -> list[CardRef]:
        refs = [r for r in self.phrase.cards(w, f) if r[0] is not None and act.eligible(w, f, r)]
        picked = choose_char(w, f, refs, self.verb)
        return [] if picked is None else [picked]

    def any(self, w: Work, f: Frame, act: Eligible) -> bool:
        return any(r[0] is not None and act.eligible(w, f, r) for r in self.phrase.cards(w, f))


class PerShip(Record):
    """One pick in each ship the place names ("in each opponent's ship"), ship by ship in seat order:
    the ``position`` one, or the owner's choice when ``position`` is empty."""

    phrase: Phrase
    position: str
    verb: str
    __node_fields__ = declare("phrase", "position", "verb")
    plural: ClassVar[bool] = True

    def __init__(self, phrase: Phrase, position: str, verb: str) -> None:
        object.__setattr__(self, "phrase", phrase)
        object.__setattr__(self, "position", position)
        object.__setattr__(self, "verb", verb)

    def pick(self, w: Work, f: Frame, act: Eligible) -> list[CardRef]:
        refs = self.phrase.cards(w, f)
        out: list[CardRef] = []
        for seat in dict.fromkeys(r[0] for r in refs):
            ship = [r for r in refs if r[0] == seat]
            if self.position:
                ref = pick_positional(self.position, ship, w)
                picked = ref if ref is not None and act.eligible(w, f, ref) else None
            else:
                picked = choose_char(w, f, [r for r in ship if act.eligible(w, f, r)], self.verb)
            if picked is not None:
                out.append(picked)
        return out

    def any(self, w: Work, f: Frame, act: Eligible) -> bool:
        if self.position:
            return bool(self.pick(w, f, act))
        return any(act.eligible(w, f, r) for r in self.phrase.cards(w, f))


class RandomInHand(Record):
    """A character drawn at random from the hand of a player ``place`` names (issue 34.2, E41): a hand is
    hidden, so the owner picks only the player (one whose hand holds a card the action can take, asked
    when several do) and the engine's seeded draw picks the card."""

    place: str  # other_ship | left_ship | right_ship: the players, named as their ships are
    __node_fields__ = declare("place")
    plural: ClassVar[bool] = False

    def __init__(self, place: str) -> None:
        object.__setattr__(self, "place", place)

    def _hands(self, w: Work, f: Frame, act: Eligible) -> list[list[CardRef]]:
        hands: list[list[CardRef]] = []
        for s in ship_seats(self.place, w, f.seat):
            if s == f.seat:
                continue
            refs: list[CardRef] = [(s, n) for n in w.seats[s].hand]
            refs = [r for r in refs if act.eligible(w, f, r)]
            if refs:
                hands.append(refs)
        return hands

    def pick(self, w: Work, f: Frame, act: Eligible) -> list[CardRef]:
        hands = self._hands(w, f, act)
        if not hands:
            return []
        hand = hands[0]
        if len(hands) > 1:
            options = [Option(str(i + 1), f"seat {h[0][0]}'s hand ({len(h)} cards)") for i, h in enumerate(hands)]
            key = w.ask(f, f.seat, "choose_option", options, "choose whose hand to take a random character from",
                        source_name(f))
            hand = hands[[o.key for o in options].index(key)]
        return [hand[w.random(len(hand))]]

    def any(self, w: Work, f: Frame, act: Eligible) -> bool:
        return bool(self._hands(w, f, act))


Selector = This | It | Beside | Every | Positional | Choose | PerShip | RandomInHand


class Anyone(Eligible):
    """The eligibility of a phrase that only names (``the owner of …``): every character qualifies."""

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        return True


ANYONE = Anyone()
