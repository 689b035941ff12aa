"""What happened in a game, as typed values: one frozen class per kind of event.

``game.events`` holds these, oldest first, and ``game.events_since(earlier)`` those logged after
an earlier game of the same line of play.  Every event has the fields of the common base
``Event`` (``voyage``, ``day``, ``phase``, ``kind``, ``text``, ``seat``, ``source``,
``amount``, ``timing``, ``targets``, ``target``, ``target_seats``, ``target_seat``) and its own
typed fields, so a test names what it looks for instead of matching sentences.

``select(events, ...)`` keeps the events that match every filter given, so a property reads
like the rule it checks::

    hits = select(game.events_since(before), type=Discarded, source="saber", target_seat=2)

Its filters, all keyword-only and each left out to match anything:

- ``type``: an event class or a tuple of them (``Discarded``; the result is typed so);
- ``kind``: the family, such as ``"discard"`` or ``"loot"`` (``KINDS`` lists them);
- ``seat``, ``source``, ``timing``, ``phase``, ``voyage``, ``day``: the base fields;
- ``target``: a card or loot kind among the event's ``targets``; ``target_seat``: a seat
  among its ``target_seats``.

A filter's value may be a set, frozenset, tuple or list of values, meaning any of them; ``None``
matches an event without one (``source=None``: no ability caused it; ``target=None``: it acts on
no card or token).  A card name matches however the card is held: ``source="Cook"`` finds seat
1's Cook held by seat 0 (``Cook#1``) too, and ``"Cook#1"`` only that one.  A kind, phase or
timing that no event can have raises ``ValueError`` naming the ones there are.

The targets of each class: the card moved, discarded, played, kept or borrowed, with the seat
that owns it (``TakenOver``: the seat it is taken from; ``Borrowed``: none, the lender's seat is
not logged); the loot taken, returned, kept, given, drawn or swapped (both kinds), with the seat
it was taken from (``LootTaken``, ``LootReturned``, ``LootSwapped``: its holders) or given to
(``LootGiven``: ``to_seat``); for doubloons, income, banking and reputation, the seat whose purse
or token changed (``Paid``: the payer).  Events of the table (a voyage or day beginning, the
reveal, the game's end) target nothing.

Words used throughout:

- a *phase* is when the event happened: ``setup`` (before the first voyage), ``voyage``
  (its start: dealing and income), ``select``, ``sun``, ``dusk``, ``night``, ``anchor`` and
  ``over``; ``None`` where the log cannot tell (one written before phases were logged);
- a *timing* is the ability's trigger: ``sun``, ``dusk``, ``moon`` or ``anchor``;
- a character's *zone* is ``hand``, ``ship``, ``graveyard`` or ``island``; a loot token's is
  ``today's loot``, ``tomorrow's loot``, ``the bag`` or ``loot`` (held: the seat is given
  beside it);
- a *card* is named as its holder holds it: ``Cook#1`` is seat 1's Cook, taken over by
  another seat.

Every event an ability caused names that ability's card or loot kind as its ``source``; a
``play`` event's ``source`` is the card played, and ``PutOnIsland.cause`` the ability that
played it.

Events are built when the log is read (``engine.journal``), and their sentences when
``str()`` or ``text`` is read: the engine only appends a template number and its arguments.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Collection, Iterable
from typing import Any, ClassVar, TypeVar, overload

import attrs

from .state import CardRef, Event

__all__ = [
    "Banked", "Borrowed", "DayBegan", "Discarded", "DoubloonsChanged", "Event", "GameOver", "GameStarted",
    "HandicapDoubloons", "IncomeCollected", "KeptAboard", "LootDrawn", "LootGiven", "LootKept",
    "LootLeftOver", "LootRemoved", "LootReturned", "LootSwapped", "LootTaken", "Moved", "Paid",
    "PilfererPlayed", "PilfererTook", "Played", "Pushed", "PutOnIsland", "Reranked", "ReputationChanged",
    "ReputationMovedTo", "ReputationOverflowed", "Revealed", "StartingDoubloons", "TakenOver", "TieBroken",
    "VoyageBegan", "select",
]

PHASES: tuple[str, ...] = ("setup", "voyage", "select", "sun", "dusk", "night", "anchor", "over")
"""Every phase an event can carry, in the order a voyage goes through them."""

TIMING_OF_PHASE: dict[str, str] = {"sun": "sun", "dusk": "dusk", "night": "moon", "anchor": "anchor"}
"""The timing of the abilities a phase runs (an ability's event gets its phase's, unless its
source has abilities of one timing only: a loot token's dusk ability fires when it is taken,
whatever the phase)."""


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _place(zone: str | None, seat: int | None) -> str:
    """A loot token's place as the log says it: a held token is "seat N"."""
    return f"seat {seat}" if zone == "loot" else zone or ""


def _doubloons(n: int) -> str:
    return f"{n} doubloon{'' if n == 1 else 's'}"


def _seats(*seats: int | None) -> tuple[int, ...]:
    """The seats named, each once and in order, without the missing ones."""
    return tuple(dict.fromkeys(seat for seat in seats if seat is not None))


# ------------------------------------------------------------------ the game and its voyages
@attrs.frozen(slots=True)
class GameStarted(Event):
    """The first event of every game: the board and each loot kind's side."""

    kind: ClassVar[str] = "rules"
    title: str
    loot_sides: tuple[tuple[str, str], ...]  # (kind, side)

    def sentence(self) -> str:
        return f"{self.title}; loot sides: {', '.join(f'{k} {s}' for k, s in self.loot_sides)}"


@attrs.frozen(slots=True)
class HandicapDoubloons(Event):
    """A seat given extra doubloons before the game (``new_game(handicap=...)``)."""

    kind: ClassVar[str] = "income"
    seat: int
    doubloons: int

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} starts with {self.doubloons} extra doubloons"


@attrs.frozen(slots=True)
class VoyageBegan(Event):
    """A voyage starts: its number is ``voyage``; every seat receives the same characters."""

    kind: ClassVar[str] = "voyage"
    days: int
    dealt: tuple[str, ...]

    def sentence(self) -> str:
        return f"voyage {self.voyage} begins ({self.days} days); everyone receives {', '.join(self.dealt)}"


@attrs.frozen(slots=True)
class IncomeCollected(Event):
    """Galecrest: each seat's income from its reputation space as a voyage starts."""

    kind: ClassVar[str] = "income"
    seat: int
    doubloons: int

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} collects {self.doubloons} doubloons of income"


@attrs.frozen(slots=True)
class StartingDoubloons(Event):
    """Classic: each seat starts a campaign with the same doubloons."""

    kind: ClassVar[str] = "income"
    seat: int
    doubloons: int

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} starts with {self.doubloons} doubloons"


@attrs.frozen(slots=True)
class DayBegan(Event):
    """A day starts (its ``voyage`` and ``day``), with the loot laid out for it."""

    kind: ClassVar[str] = "day"
    loot: tuple[str, ...]

    def sentence(self) -> str:
        return f"voyage {self.voyage}, day {self.day}: today's loot is {', '.join(self.loot) or 'nothing'}"


@attrs.frozen(slots=True)
class Banked(Event):
    """At a voyage's end a seat banks its doubloons into its score."""

    kind: ClassVar[str] = "bank"
    seat: int
    doubloons: int
    score: int  # after banking

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} banks {self.doubloons} doubloons (score {self.score})"


@attrs.frozen(slots=True)
class GameOver(Event):
    """The last voyage ended: every seat's final score."""

    kind: ClassVar[str] = "over"
    scores: tuple[int, ...]

    def sentence(self) -> str:
        return f"the game is over: {', '.join(f'seat {i} {s}' for i, s in enumerate(self.scores))}"


@attrs.frozen(slots=True)
class TieBroken(Event):
    """R26: seats tied on the top score; the one highest on the reputation track wins."""

    kind: ClassVar[str] = "over"
    winner: int
    tied: tuple[int, ...]

    def sentence(self) -> str:
        return f"seats {', '.join(str(s) for s in self.tied)} tie on score; seat {self.winner} wins on reputation"


# ------------------------------------------------------------------ characters played
@attrs.frozen(slots=True)
class Played(Event):
    """A seat's character arrives on the island at the reveal; ``source`` is the printed card."""

    kind: ClassVar[str] = "play"
    seat: int
    card: str

    @property
    def source(self) -> str:
        return self.card.partition("#")[0]

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.card,)

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@attrs.frozen(slots=True)
class PilfererPlayed(Event):
    """Solo: the Pilferer's card (nobody's) goes to the island."""

    kind: ClassVar[str] = "play"
    card: str

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.card,)

    def sentence(self) -> str:
        return f"the Pilferer plays {self.card}"


@attrs.frozen(slots=True)
class Revealed(Event):
    """The island as the day's characters stand on it, left to right (seat ``None``: neutral)."""

    kind: ClassVar[str] = "reveal"
    island: tuple[CardRef, ...]

    def sentence(self) -> str:
        return "the island: " + ", ".join(name if seat is None else f"{name} (seat {seat})"
                                          for seat, name in self.island)


@attrs.frozen(slots=True)
class PutOnIsland(Event):
    """An ability plays a character onto the island; like every play event's, ``source`` is
    the card played, and ``cause`` the card or loot kind whose ability played it."""

    kind: ClassVar[str] = "play"
    seat: int
    card: str
    from_zone: str | None = None
    cause: str | None = None
    timing: str | None = None

    @property
    def source(self) -> str:
        return self.card

    @property
    def to_zone(self) -> str:
        return "island"

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.card,)

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} puts {self.card} onto the island"


@attrs.frozen(slots=True)
class Reranked(Event):
    """Solo (S2): an Automa card whose sun ability changed nothing takes its "no effect" rank."""

    kind: ClassVar[str] = "rank"
    seat: int
    card: str
    rank: float

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.card,)

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat}'s {self.card} changed nothing: it now ranks {self.rank:g}"


# ------------------------------------------------------------------ characters moved
@attrs.frozen(slots=True)
class Discarded(Event):
    """A character goes to its owner's graveyard; ``seat`` is that owner (``target_seat``),
    ``by_seat`` and ``source`` who discarded it and with what."""

    kind: ClassVar[str] = "discard"
    target_seat: int
    target: str
    from_zone: str | None = None
    by_seat: int | None = None
    source: str | None = None
    timing: str | None = None

    @property
    def seat(self) -> int:
        return self.target_seat

    @property
    def to_zone(self) -> str:
        return "graveyard"

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.target,)

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.target_seat,)

    def sentence(self) -> str:
        if self.by_seat is None:
            return f"seat {self.target_seat}'s {self.target} is discarded"
        return f"seat {self.by_seat}'s {self.source} discards seat {self.target_seat}'s {self.target}"


@attrs.frozen(slots=True)
class Moved(Event):
    """A seat's character moves between its own zones; ``card`` is ``None`` for one taken
    from the graveyard into the hand, which the others do not see."""

    kind: ClassVar[str] = "move"
    seat: int
    card: str | None
    from_zone: str | None
    to_zone: str
    source: str | None = None
    timing: str | None = None

    @property
    def targets(self) -> tuple[str, ...]:
        return () if self.card is None else (self.card,)

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        if self.card is None:
            return f"seat {self.seat} takes a card from their {self.from_zone} into their {self.to_zone}"
        return f"seat {self.seat} puts {self.card} from their {self.from_zone or ''} into their {self.to_zone}"


@attrs.frozen(slots=True)
class TakenOver(Event):
    """Another seat's character becomes ``seat``'s where it stands (``zone``), marked with its
    first owner's seat (``Cook#1``); ``target`` is the printed card."""

    kind: ClassVar[str] = "move"
    seat: int
    target_seat: int
    target: str
    zone: str | None = None
    source: str | None = None
    timing: str | None = None

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.target,)

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.target_seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} takes seat {self.target_seat}'s {self.target} into their own zones"


@attrs.frozen(slots=True)
class KeptAboard(Event):
    """A character stays aboard ``seat``'s ship for the next voyage."""

    kind: ClassVar[str] = "keep"
    seat: int
    card: str
    source: str | None = None
    timing: str | None = None

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.card,)

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} keeps {self.card} aboard for the next voyage"


@attrs.frozen(slots=True)
class Borrowed(Event):
    """``seat`` uses ``target``'s ``borrowed_timing`` ability; ``source`` is the borrower (the
    Witch, the Apprentice, or a loot tile's kind borrowing through its taker), ``None`` in an
    older log."""

    kind: ClassVar[str] = "borrow"
    seat: int
    target: str
    borrowed_timing: str
    source: str | None = None
    timing: str | None = None

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.target,)

    def sentence(self) -> str:
        who = f"seat {self.seat}" if self.source is None else f"seat {self.seat}'s {self.source}"
        return f"{who} uses the {self.borrowed_timing} ability of {self.target}"


# ------------------------------------------------------------------ doubloons and reputation
@attrs.frozen(slots=True)
class DoubloonsChanged(Event):
    """An ability gains (``amount`` > 0) or loses doubloons for ``seat``."""

    kind: ClassVar[str] = "doubloons"
    seat: int
    amount: int
    source: str
    timing: str | None = None

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        n = abs(self.amount)
        verb = "gains" if self.amount > 0 else "loses"
        return f"seat {self.seat} {verb} {n} doubloon{'' if n == 1 else 's'} ({self.source})"


@attrs.frozen(slots=True)
class Paid(Event):
    """``payer`` pays ``seat`` (the ability's owner) ``amount`` doubloons."""

    kind: ClassVar[str] = "pay"
    payer: int
    seat: int
    amount: int
    source: str
    timing: str | None = None

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.payer,)

    def sentence(self) -> str:
        return f"seat {self.payer} pays seat {self.seat} {self.amount} doubloons ({self.source})"


@attrs.frozen(slots=True)
class ReputationChanged(Event):
    """An ability moves ``seat`` ``steps`` spaces along the track (negative: to the left)."""

    kind: ClassVar[str] = "reputation"
    seat: int
    steps: int
    source: str
    timing: str | None = None

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} {'gains' if self.steps > 0 else 'loses'} {abs(self.steps)} reputation ({self.source})"


@attrs.frozen(slots=True)
class ReputationMovedTo(Event):
    """An ability moves ``seat`` to one end of the track (``end``: leftmost or rightmost)."""

    kind: ClassVar[str] = "reputation"
    seat: int
    end: str
    source: str | None = None
    timing: str | None = None

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} moves to the {self.end} reputation space"


@attrs.frozen(slots=True)
class Pushed(Event):
    """``seat``'s token slides to ``space`` as ``by_seat``'s token passes it."""

    kind: ClassVar[str] = "reputation"
    seat: int
    space: int
    by_seat: int | None = None
    source: str | None = None
    timing: str | None = None

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} is pushed along the track to space {self.space}"


@attrs.frozen(slots=True)
class ReputationOverflowed(Event):
    """R28: reputation past an end of the track turns into ``doubloons`` (negative: lost)."""

    kind: ClassVar[str] = "reputation"
    seat: int
    doubloons: int
    source: str | None = None
    timing: str | None = None

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        verb = "gains" if self.doubloons > 0 else "loses"
        return (f"seat {self.seat}'s reputation runs past the end of the track: "
                f"{verb} {_doubloons(abs(self.doubloons))}")


# ------------------------------------------------------------------ loot
@attrs.frozen(slots=True)
class LootTaken(Event):
    """A token joins ``seat``'s loot: taken at dusk by its character ``card``, or by an
    ability (``source``) from ``from_zone`` (and ``from_seat``, for a held token).

    An ability's take names the character on whose behalf it took as ``card`` too (as held,
    ``Cook#1``): the Cook for its second take, the borrower for a borrowed text, the character
    that took a loot tile for the tile's; ``None`` in an older log, and for an ability of no
    character's (a solo rule's)."""

    kind: ClassVar[str] = "loot"
    seat: int
    loot: str
    from_zone: str | None = None
    from_seat: int | None = None
    card: str | None = None
    source: str | None = None
    timing: str | None = None

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.loot,)

    @property
    def target_seats(self) -> tuple[int, ...]:
        return _seats(self.from_seat)

    def sentence(self) -> str:
        if self.card is not None and self.source is None:
            return f"seat {self.seat}'s {self.card} takes {_a(self.loot)}"
        if self.from_zone is None:
            return f"seat {self.seat} takes {_a(self.loot)} ({self.source})"
        return f"seat {self.seat} takes {_a(self.loot)} from {_place(self.from_zone, self.from_seat)} ({self.source})"


@attrs.frozen(slots=True)
class LootRemoved(Event):
    """R13: ``seat`` returns a token of today's loot to the bag before the card left of the
    neutral character takes one."""

    kind: ClassVar[str] = "loot"
    seat: int
    loot: str

    @property
    def from_zone(self) -> str:
        return "today's loot"

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.loot,)

    def sentence(self) -> str:
        return f"seat {self.seat} removes {_a(self.loot)} from today's loot"


@attrs.frozen(slots=True)
class LootLeftOver(Event):
    """Dusk ends: the tokens nobody took leave today's loot (to the bag, or aside in Classic)."""

    kind: ClassVar[str] = "loot"
    loot: tuple[str, ...]

    @property
    def targets(self) -> tuple[str, ...]:
        return self.loot

    def sentence(self) -> str:
        return f"unclaimed loot leaves the day: {', '.join(self.loot)}"


@attrs.frozen(slots=True)
class LootReturned(Event):
    """Tokens go back to the bag; ``from_zones`` and ``from_seats`` say where each came from
    (``None`` in a log that does not say)."""

    kind: ClassVar[str] = "loot"
    seat: int
    loot: tuple[str, ...]
    from_zones: tuple[str, ...] | None = None
    from_seats: tuple[int | None, ...] | None = None
    source: str | None = None
    timing: str | None = None

    @property
    def targets(self) -> tuple[str, ...]:
        return self.loot

    @property
    def target_seats(self) -> tuple[int, ...]:
        return _seats(*self.from_seats or ())

    def sentence(self) -> str:
        return f"seat {self.seat} returns {', '.join(self.loot)} to the bag"


@attrs.frozen(slots=True)
class LootKept(Event):
    """Tokens ``seat`` holds stay with it for the next voyage."""

    kind: ClassVar[str] = "keep"
    seat: int
    loot: tuple[str, ...]
    source: str | None = None
    timing: str | None = None

    @property
    def targets(self) -> tuple[str, ...]:
        return self.loot

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} keeps {', '.join(self.loot)} for the next voyage"


@attrs.frozen(slots=True)
class LootGiven(Event):
    """``seat`` gives held tokens to ``to_seat``; ``from_seats`` holds each one's holder
    (``None`` in a log that does not say)."""

    kind: ClassVar[str] = "loot"
    seat: int
    loot: tuple[str, ...]
    to_seat: int
    from_seats: tuple[int | None, ...] | None = None
    source: str | None = None
    timing: str | None = None

    @property
    def targets(self) -> tuple[str, ...]:
        return self.loot

    @property
    def target_seats(self) -> tuple[int, ...]:
        return (self.to_seat,)

    def sentence(self) -> str:
        return f"seat {self.seat} gives {', '.join(self.loot)} to seat {self.to_seat}"


@attrs.frozen(slots=True)
class LootDrawn(Event):
    """``seat`` draws tokens at random from the bag."""

    kind: ClassVar[str] = "loot"
    seat: int
    loot: tuple[str, ...]
    source: str | None = None
    timing: str | None = None

    @property
    def from_zone(self) -> str:
        return "the bag"

    @property
    def targets(self) -> tuple[str, ...]:
        return self.loot

    def sentence(self) -> str:
        return f"seat {self.seat} draws {', '.join(self.loot)} from the bag"


@attrs.frozen(slots=True)
class LootSwapped(Event):
    """``loot`` moves from ``from_zone`` to ``to_zone`` and ``swapped_for`` the other way."""

    kind: ClassVar[str] = "loot"
    seat: int
    loot: str
    swapped_for: str
    from_zone: str | None = None
    from_seat: int | None = None
    to_zone: str | None = None
    to_seat: int | None = None
    source: str | None = None
    timing: str | None = None

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.loot, self.swapped_for)

    @property
    def target_seats(self) -> tuple[int, ...]:
        return _seats(self.from_seat, self.to_seat)

    def sentence(self) -> str:
        return f"seat {self.seat} swaps {_a(self.loot)} for {_a(self.swapped_for)}"


@attrs.frozen(slots=True)
class PilfererTook(Event):
    """Solo (S3): the Pilferer takes a token of today's loot; it goes back to the bag."""

    kind: ClassVar[str] = "loot"
    loot: str

    @property
    def targets(self) -> tuple[str, ...]:
        return (self.loot,)

    def sentence(self) -> str:
        return f"the Pilferer takes {_a(self.loot)} and returns it to the bag"


# ------------------------------------------------------------------ querying
CLASSES: tuple[builtins.type[Event], ...] = tuple(
    cls for cls in (globals()[name] for name in __all__ if name[0].isupper() and name != "Event"))
"""Every class of event, in the order ``__all__`` lists them."""

KINDS: frozenset[str] = frozenset(cls.kind for cls in CLASSES)
"""Every ``kind`` an event can have."""

TIMINGS: frozenset[str] = frozenset(TIMING_OF_PHASE.values())
"""Every ``timing`` an ability's event can have."""

E = TypeVar("E", bound=Event)


class _Anything:
    """What a filter left out stands for: matches every event (``None`` matches only missing values)."""

    def __repr__(self) -> str:
        return "anything"


ANY: Any = _Anything()
"""The default of every ``select`` filter: it matches anything."""


@overload
def select(events: Iterable[Event], *, type: builtins.type[E] | tuple[builtins.type[E], ...],
           kind: Any = ANY, seat: Any = ANY, source: Any = ANY, target: Any = ANY, target_seat: Any = ANY,
           timing: Any = ANY, phase: Any = ANY, voyage: Any = ANY, day: Any = ANY) -> tuple[E, ...]: ...


@overload
def select(events: Iterable[Event], *, kind: Any = ANY, seat: Any = ANY, source: Any = ANY, target: Any = ANY,
           target_seat: Any = ANY, timing: Any = ANY, phase: Any = ANY, voyage: Any = ANY,
           day: Any = ANY) -> tuple[Event, ...]: ...


def select(events: Iterable[Event], *, type: Any = ANY, kind: Any = ANY, seat: Any = ANY, source: Any = ANY,
           target: Any = ANY, target_seat: Any = ANY, timing: Any = ANY, phase: Any = ANY, voyage: Any = ANY,
           day: Any = ANY) -> tuple[Event, ...]:
    """The events that match every filter given, in their order (the module docstring says how each matches)."""
    test = matcher("select", type=type, kind=kind, seat=seat, source=source, target=target,
                   target_seat=target_seat, timing=timing, phase=phase, voyage=voyage, day=day)
    return tuple([e for e in events if test(e)])


def matcher(where: str, **filters: Any) -> Callable[[Event], bool]:
    """One test for ``select``'s filters (``where`` names the caller in errors): every filter given must match.

    Checked once, before any event is read: a kind, phase or timing that cannot be, or a filter
    of the wrong type, is refused here rather than matching nothing.
    """
    unknown = set(filters) - set(_FIELDS)
    if unknown:
        raise TypeError(f"{where}: no filter {', '.join(sorted(unknown))}; the filters are {', '.join(_FIELDS)}")
    tests: list[Callable[[Event], bool]] = []
    for name, value in filters.items():
        if value is ANY:
            continue
        tests.append(_FIELDS[name](where, name, value))
    if not tests:
        return _always
    if len(tests) == 1:
        return tests[0]
    return lambda e: all(test(e) for test in tests)


def _always(e: Event) -> bool:
    return True


def _values(where: str, name: str, value: Any, kinds: tuple[builtins.type, ...], known: Collection[Any] | None = None,
            what: str = "") -> frozenset[Any]:
    """A filter's value as the set of values it accepts, each checked."""
    many = isinstance(value, set | frozenset | tuple | list)
    wanted = frozenset(value) if many else frozenset((value,))
    for v in wanted:
        if v is not None and not isinstance(v, kinds):
            raise TypeError(f"{where}: {name} is {what}, or a set of them, not {v!r}")
        if isinstance(v, bool) and int in kinds:
            raise TypeError(f"{where}: {name} is {what}, or a set of them, not {v!r}")
        if known is not None and v is not None and v not in known:
            raise ValueError(f"{where}: {name} {v!r} is none of {', '.join(sorted(known))}")
    return wanted


def _field(attribute: str, kinds: tuple[builtins.type, ...], what: str, known: Collection[Any] | None = None
           ) -> Callable[[str, str, Any], Callable[[Event], bool]]:
    def build(where: str, name: str, value: Any) -> Callable[[Event], bool]:
        wanted = _values(where, name, value, kinds, known, what)
        return lambda e: getattr(e, attribute) in wanted
    return build


def _printed(name: str) -> str:
    return name.partition("#")[0]


def _names(attribute: str) -> Callable[[str, str, Any], Callable[[Event], bool]]:
    """A card or loot kind: ``"Cook"`` matches a Cook however it is held (``Cook#1``), ``"Cook#1"`` only that one."""
    def build(where: str, name: str, value: Any) -> Callable[[Event], bool]:
        wanted = _values(where, name, value, (str,), None, "a card name or loot kind")

        def test(e: Event) -> bool:
            got = getattr(e, attribute)
            return got in wanted or (got is not None and _printed(got) in wanted)
        return test
    return build


def _any_target(attribute: str, types: tuple[type, ...], what: str,
                by_name: bool) -> Callable[[str, str, Any], Callable[[Event], bool]]:
    """Any of the event's ``attribute`` values (its targets, or their seats); ``None``: it has none."""
    def build(where: str, name: str, value: Any) -> Callable[[Event], bool]:
        wanted = _values(where, name, value, types, None, what)
        none = None in wanted

        def test(e: Event) -> bool:
            found = getattr(e, attribute)
            if not found:
                return none
            return any(t in wanted or (by_name and _printed(t) in wanted) for t in found)
        return test
    return build


_targets = _any_target("targets", (str,), "a card name or loot kind", by_name=True)
_target_seats = _any_target("target_seats", (int,), "a seat number", by_name=False)


def _type(where: str, name: str, value: Any) -> Callable[[Event], bool]:
    classes = value if isinstance(value, tuple) else (value,)
    for cls in classes:
        if not (isinstance(cls, builtins.type) and issubclass(cls, Event)):
            raise TypeError(f"{where}: type is an event class (such as Discarded), or a tuple of them, not {cls!r}")
    return lambda e: isinstance(e, classes)


_FIELDS: dict[str, Callable[[str, str, Any], Callable[[Event], bool]]] = {
    "type": _type,
    "kind": _field("kind", (str,), "an event kind", KINDS),
    "seat": _field("seat", (int,), "a seat number"),
    "source": _names("source"),
    "target": _targets,
    "target_seat": _target_seats,
    "timing": _field("timing", (str,), "a timing", TIMINGS),
    "phase": _field("phase", (str,), "a phase", PHASES),
    "voyage": _field("voyage", (int,), "a voyage number"),
    "day": _field("day", (int,), "a day number"),
}
"""Each filter ``select`` takes, and how it builds its test from the value given."""
