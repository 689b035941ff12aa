"""What happened in a game, as typed values: one frozen class per kind of event.

``game.events`` holds these, oldest first.  Every event has the fields of the common base
``Event`` (``voyage``, ``day``, ``phase``, ``kind``, ``text``, ``seat``, ``source``,
``amount``, ``timing``) and its own typed fields, so a test names what it looks for instead
of matching sentences::

    discarded = [e for e in game.events if isinstance(e, Discarded) and e.target_seat == 2]

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

Events are built when the log is read (``engine.journal``), and their sentences when
``str()`` or ``text`` is read: the engine only appends a template number and its arguments.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .state import CardRef, Event

__all__ = [
    "Banked", "Borrowed", "DayBegan", "Discarded", "DoubloonsChanged", "Event", "GameOver", "GameStarted",
    "HandicapDoubloons", "IncomeCollected", "KeptAboard", "LootDrawn", "LootGiven", "LootKept",
    "LootLeftOver", "LootRemoved", "LootReturned", "LootSwapped", "LootTaken", "Moved", "Paid",
    "PilfererPlayed", "PilfererTook", "Played", "Pushed", "PutOnIsland", "Reranked", "ReputationChanged",
    "ReputationMovedTo", "ReputationOverflowed", "Revealed", "StartingDoubloons", "TakenOver", "TieBroken",
    "VoyageBegan",
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

    def sentence(self) -> str:
        return f"seat {self.seat} collects {self.doubloons} doubloons of income"


@attrs.frozen(slots=True)
class StartingDoubloons(Event):
    """Classic: each seat starts a campaign with the same doubloons."""

    kind: ClassVar[str] = "income"
    seat: int
    doubloons: int

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

    def sentence(self) -> str:
        return f"seat {self.seat} plays {self.card}"


@attrs.frozen(slots=True)
class PilfererPlayed(Event):
    """Solo: the Pilferer's card (nobody's) goes to the island."""

    kind: ClassVar[str] = "play"
    card: str

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

    def sentence(self) -> str:
        return f"seat {self.seat} puts {self.card} onto the island"


@attrs.frozen(slots=True)
class Reranked(Event):
    """Solo (S2): an Automa card whose sun ability changed nothing takes its "no effect" rank."""

    kind: ClassVar[str] = "rank"
    seat: int
    card: str
    rank: float

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

    def sentence(self) -> str:
        return f"seat {self.seat} keeps {self.card} aboard for the next voyage"


@attrs.frozen(slots=True)
class Borrowed(Event):
    """``seat`` uses ``target``'s ``borrowed_timing`` ability; ``source`` is the borrower (the
    Witch, the Apprentice), ``None`` in an older log or for a loot token borrowing."""

    kind: ClassVar[str] = "borrow"
    seat: int
    target: str
    borrowed_timing: str
    source: str | None = None
    timing: str | None = None

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

    def sentence(self) -> str:
        verb = "gains" if self.doubloons > 0 else "loses"
        return (f"seat {self.seat}'s reputation runs past the end of the track: "
                f"{verb} {_doubloons(abs(self.doubloons))}")


# ------------------------------------------------------------------ loot
@attrs.frozen(slots=True)
class LootTaken(Event):
    """A token joins ``seat``'s loot: taken at dusk by its character ``card``, or by an
    ability (``source``) from ``from_zone`` (and ``from_seat``, for a held token)."""

    kind: ClassVar[str] = "loot"
    seat: int
    loot: str
    from_zone: str | None = None
    from_seat: int | None = None
    card: str | None = None
    source: str | None = None
    timing: str | None = None

    def sentence(self) -> str:
        if self.card is not None:
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

    def sentence(self) -> str:
        return f"seat {self.seat} removes {_a(self.loot)} from today's loot"


@attrs.frozen(slots=True)
class LootLeftOver(Event):
    """Dusk ends: the tokens nobody took leave today's loot (to the bag, or aside in Classic)."""

    kind: ClassVar[str] = "loot"
    loot: tuple[str, ...]

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

    def sentence(self) -> str:
        return f"seat {self.seat} swaps {_a(self.loot)} for {_a(self.swapped_for)}"


@attrs.frozen(slots=True)
class PilfererTook(Event):
    """Solo (S3): the Pilferer takes a token of today's loot; it goes back to the bag."""

    kind: ClassVar[str] = "loot"
    loot: str

    def sentence(self) -> str:
        return f"the Pilferer takes {_a(self.loot)} and returns it to the bag"
