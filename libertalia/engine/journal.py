"""The event log, packed: a few bytes an event, typed events built only when someone reads them.

A game logs some 300 events.  As objects with their sentences formatted eagerly they were
90% of a finished state's memory and a quarter of its play time, yet most games (bots,
simulations, search) never read them.  So the engine writes each event as a template
number and its arguments, varint-encoded into one ``bytes`` value: numbers zigzag-coded,
words as their index in the rules' lexicon (card names, loot kinds, a fixed vocabulary),
any other text spelled out.  ``decode`` turns the bytes back into the typed events of
``libertalia.events``, each stamped with the voyage, day and phase it happened in.

A template's arguments have one of these shapes:

``n``  a number;  ``w``  a word;  ``a``  a word its sentence gives an article ("a map");
``W``  a list of words, and ``V`` the same (a day's loot, "nothing" when empty);
``R``  characters as (seat or -1, name) pairs;  ``S``  numbers, one per seat;
``P``  (word, word) pairs.

Template numbers are in every saved game and record, so a template is never removed,
renumbered or given other arguments: what needs more gets a new template at the end of
``TEMPLATES``, and the old one still decodes.  Some templates are bookkeeping, not events:
the phase markers (``DUSK``, ``NIGHT``, ``ANCHOR``) and ``POSITION`` only move the reader's
clock, and one ``PLAYS_REVEALED`` record stands for a day's plays and its reveal (the sun
phase begins after it; after an older log's ``REVEAL`` the phase is unknown until the next day).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from ..events import (
    TIMING_OF_PHASE,
    Banked,
    Borrowed,
    DayBegan,
    Discarded,
    DoubloonsChanged,
    GameOver,
    GameStarted,
    HandicapDoubloons,
    IncomeCollected,
    KeptAboard,
    LootDrawn,
    LootGiven,
    LootKept,
    LootLeftOver,
    LootRemoved,
    LootReturned,
    LootSwapped,
    LootTaken,
    Moved,
    Paid,
    PilfererPlayed,
    PilfererTook,
    Played,
    Pushed,
    PutOnIsland,
    ReputationChanged,
    ReputationMovedTo,
    ReputationOverflowed,
    Reranked,
    Revealed,
    StartingDoubloons,
    TakenOver,
    TieBroken,
    VoyageBegan,
)
from ..state import Event


class JournalError(ValueError):
    """Bytes that are not an event log written with this lexicon (a damaged save)."""


class Clock:
    """What a reader knows as it goes: when the next event happens (from the voyage and day
    events, the reveal and the phase markers), and the one timing of each source that has one."""

    __slots__ = ("voyage", "day", "phase", "at", "timings")

    def __init__(self, timings: Mapping[str, str] | None = None) -> None:
        self.timings: Mapping[str, str] = timings or {}
        self.set(0, 0, "setup")

    def set(self, voyage: int, day: int, phase: str | None) -> None:
        self.voyage, self.day, self.phase = voyage, day, phase
        self.at: dict[str, Any] = {"voyage": voyage, "day": day, "phase": phase}

    def to(self, phase: str | None) -> None:
        self.set(self.voyage, self.day, phase)

    def timing(self, source: str | None) -> str | None:
        """An ability's timing: its source's only one, else its phase's (``TIMING_OF_PHASE``)."""
        if source is None:
            return None
        return self.timings.get(source) or TIMING_OF_PHASE.get(self.phase or "")


Built = Event | tuple[Event, ...] | None
"""What a record stands for: one event, several (``PLAYS_REVEALED``), or none (a marker)."""


@attrs.frozen
class Template:
    """One kind of record: its argument shapes, what it stands for, and which arguments name
    a seat of the game (checked when read)."""

    shapes: str
    build: Callable[[list[Any], Clock], Built]
    seats: tuple[int, ...] = ()


def _opt(word: str) -> str | None:
    """A word that may be missing: the engine writes ``""`` for none."""
    return word or None


def _loot_place(place: str) -> tuple[str, int | None]:
    """A token's place as logged ("today's loot", "the bag", "seat 2": held) as (zone, seat)."""
    if place.startswith("seat "):
        try:
            return "loot", int(place[5:])
        except ValueError:
            raise JournalError(f"a loot place {place!r} that is neither a zone nor a seat") from None
    return place, None


def _island(pairs: tuple[tuple[int, str], ...]) -> tuple[tuple[int | None, str], ...]:
    return tuple((None if seat < 0 else seat, name) for seat, name in pairs)


def _change(v: list[Any], c: Clock) -> Built:
    """Gains and losses, logged as (unit, seat, signed n, source)."""
    unit, seat, n, source = v
    if unit == "doubloons":
        return DoubloonsChanged(seat, n, source, c.timing(source), **c.at)
    if unit == "reputation":
        return ReputationChanged(seat, n, source, c.timing(source), **c.at)
    raise JournalError(f"a change of {unit!r}, which is neither doubloons nor reputation")


def _voyage(v: list[Any], c: Clock) -> Built:
    c.set(v[0], 0, "voyage")
    return VoyageBegan(v[1], v[2], **c.at)


def _day(v: list[Any], c: Clock) -> Built:
    c.set(v[0], v[1], "select")
    return DayBegan(v[2], **c.at)


def _position(v: list[Any], c: Clock) -> Built:
    """A declared position starts at a day's selection, with no day event of its own."""
    c.set(v[0], v[1], "select")
    return None


def _marker_none(v: list[Any], c: Clock) -> Built:
    """A marker that moves no clock (``VIA``: ``_records`` reads it)."""
    return None


def _marker(phase: str) -> Callable[[list[Any], Clock], Built]:
    def to_phase(v: list[Any], c: Clock) -> Built:
        c.to(phase)
        return None
    return to_phase


def _reveal(v: list[Any], c: Clock) -> Built:
    """A reveal of a log written before phases were: what follows it, until the next day, is
    of a phase the log does not tell."""
    e = Revealed(_island(v[0]), **c.at)
    c.to(None)
    return e


def _plays_revealed(v: list[Any], c: Clock) -> Built:
    """Each seat's card arriving, in seat order, then the island, and the sun phase begins.

    The island holds every card played and the neutral ones (seat -1), so it names them all.
    """
    island = _island(v[0])
    at = c.at
    out: list[Event] = [Played(seat, name, **at) for seat, name in sorted(_seated(island))]
    out.append(Revealed(island, **at))
    c.to("sun")
    return tuple(out)


def _solo_plays_revealed(v: list[Any], c: Clock) -> Built:
    """Solo: your card, the Pilferer's (the one of no seat), Automa's (seat ``v[0]``), the island."""
    automa, island = v[0], _island(v[1])
    at = c.at
    out: list[Event] = [Played(seat, name, **at) for seat, name in sorted(_seated(island)) if seat != automa]
    out.extend(PilfererPlayed(name, **at) for seat, name in island if seat is None)
    out.extend(Played(automa, name, **at) for seat, name in island if seat == automa)
    out.append(Revealed(island, **at))
    c.to("sun")
    return tuple(out)


def _seated(island: tuple[tuple[int | None, str], ...]) -> list[tuple[int, str]]:
    return [(seat, name) for seat, name in island if seat is not None]


def _bank(v: list[Any], c: Clock) -> Built:
    """Banking ends a voyage's anchor: an older log, without phase markers, says so too."""
    c.to("anchor")
    return Banked(v[0], v[1], v[2], **c.at)


def _over(v: list[Any], c: Clock) -> Built:
    c.to("over")
    return GameOver(v[0], **c.at)


def _tie(v: list[Any], c: Clock) -> Built:
    """R26: ``v[0]`` is the winner, then every seat tied with it."""
    if not v[0]:
        raise JournalError("a broken tie that names no seat")
    winner, *tied = v[0]
    c.to("over")
    return TieBroken(winner, tuple(tied), **c.at)


def _rank(v: list[Any], c: Clock) -> Built:
    try:
        rank = float(v[2])
    except ValueError:
        raise JournalError(f"a rank {v[2]!r} that is not a number") from None
    return Reranked(v[0], v[1], rank, **c.at)


def _taken_from(v: list[Any], c: Clock) -> Built:
    seat, loot, place, source = v
    zone, holder = _loot_place(place)
    return LootTaken(seat, loot, zone, holder, None, source, c.timing(source), **c.at)


def _taken_by(v: list[Any], c: Clock) -> Built:
    seat, loot, place, source, card = v
    zone, holder = _loot_place(place)
    return LootTaken(seat, loot, zone, holder, card, source, c.timing(source), **c.at)


def _returned(v: list[Any], c: Clock) -> Built:
    seat, pairs, source = v
    places = [_loot_place(place) for place, _ in pairs]
    return LootReturned(seat, tuple(kind for _, kind in pairs), tuple(z for z, _ in places),
                        tuple(s for _, s in places), source, c.timing(source), **c.at)


def _given(v: list[Any], c: Clock) -> Built:
    seat, pairs, to, source = v
    return LootGiven(seat, tuple(kind for _, kind in pairs), to,
                     tuple(_loot_place(place)[1] for place, _ in pairs), source, c.timing(source), **c.at)


def _swapped(v: list[Any], c: Clock) -> Built:
    seat, loot, place, other, other_place, source = v
    (zone, holder), (to_zone, to_holder) = _loot_place(place), _loot_place(other_place)
    return LootSwapped(seat, loot, other, zone, holder, to_zone, to_holder, source, c.timing(source), **c.at)


TEMPLATES: tuple[Template, ...] = (
    Template("wP", lambda v, c: GameStarted(v[0], v[1], **c.at)),  # RULES: title, (kind, side) pairs
    Template("nnW", _voyage),  # VOYAGE: voyage, days, dealt
    Template("nn", lambda v, c: IncomeCollected(v[0], v[1], **c.at), (0,)),  # INCOME
    Template("nn", lambda v, c: StartingDoubloons(v[0], v[1], **c.at), (0,)),  # START_COINS
    Template("nnV", _day),  # DAY: voyage, day, today's loot
    Template("nw", lambda v, c: Played(v[0], v[1], **c.at), (0,)),  # PLAY
    Template("R", _reveal),  # REVEAL (before phases were logged)
    Template("W", lambda v, c: LootLeftOver(v[0], **c.at)),  # LEFTOVER
    Template("na", lambda v, c: LootRemoved(v[0], v[1], **c.at), (0,)),  # REMOVE_LOOT
    Template("nwa", lambda v, c: LootTaken(v[0], v[2], "today's loot", None, v[1], **c.at), (0,)),  # TAKE_AT_DUSK
    Template("nnn", _bank, (0,)),  # BANK: seat, doubloons, score
    Template("S", _over),  # OVER: scores
    Template("nw", lambda v, c: Discarded(v[0], v[1], **c.at), (0,)),  # DISCARD
    Template("nnw", lambda v, c: TakenOver(v[0], v[1], v[2], **c.at), (0, 1)),  # TAKE_OVER: seat, owner, card
    Template("n", lambda v, c: Moved(v[0], None, "graveyard", "hand", **c.at), (0,)),  # GRAVEYARD_TO_HAND
    Template("nwww", lambda v, c: Moved(v[0], v[1], _opt(v[2]), v[3], **c.at), (0,)),  # PUT: seat, card, from, to
    Template("wnnw", _change, (1,)),  # CHANGE: unit, seat, n (negative: a loss), source
    Template("nnnw", lambda v, c: Paid(v[0], v[1], v[2], v[3], c.timing(v[3]), **c.at), (0, 1)),  # PAY
    Template("nw", lambda v, c: ReputationMovedTo(v[0], v[1], **c.at), (0,)),  # MOVE_REPUTATION: seat, end
    Template("nw", lambda v, c: PutOnIsland(v[0], v[1], **c.at), (0,)),  # PUT_ON_ISLAND
    Template("naw", lambda v, c: LootTaken(v[0], v[1], None, None, None, v[2], c.timing(v[2]), **c.at),
             (0,)),  # TAKE_LOOT: seat, kind, source
    Template("nW", lambda v, c: LootReturned(v[0], v[1], **c.at), (0,)),  # RETURN_LOOT
    Template("nw", lambda v, c: KeptAboard(v[0], v[1], **c.at), (0,)),  # KEEP
    Template("nW", lambda v, c: LootKept(v[0], v[1], **c.at), (0,)),  # KEEP_LOOT
    Template("nWn", lambda v, c: LootGiven(v[0], v[1], v[2], **c.at), (0, 2)),  # GIVE_LOOT: seat, kinds, to
    Template("nW", lambda v, c: LootDrawn(v[0], v[1], **c.at), (0,)),  # DRAW_LOOT
    Template("naa", lambda v, c: LootSwapped(v[0], v[1], v[2], **c.at), (0,)),  # SWAP_LOOT
    Template("nww", lambda v, c: Borrowed(v[0], v[2], v[1], **c.at), (0,)),  # BORROW: seat, timing, card
    Template("nnw", lambda v, c: DoubloonsChanged(v[0], v[1], v[2], c.timing(v[2]), **c.at),
             (0,)),  # CHANGE_DOUBLOONS: CHANGE in doubloons, the commonest event
    # Solo games: the Pilferer is nobody's, so these events have no seat.
    Template("w", lambda v, c: PilfererPlayed(v[0], **c.at)),  # PILFERER_PLAYS
    Template("a", lambda v, c: PilfererTook(v[0], **c.at)),  # PILFERER_TAKES
    Template("nww", _rank, (0,)),  # NO_EFFECT: seat, card, rank
    Template("nn", lambda v, c: HandicapDoubloons(v[0], v[1], **c.at), (0,)),  # HANDICAP
    # Causes, spelled out: who discarded whom and with what, where a token came from, the track.
    Template("nwnw", lambda v, c: Discarded(v[2], v[3], None, v[0], v[1], c.timing(v[1]), **c.at),
             (0, 2)),  # DISCARD_BY: by seat, by source, seat, card
    Template("naww", _taken_from, (0,)),  # TAKE_LOOT_FROM: seat, kind, place, source
    Template("nn", lambda v, c: ReputationOverflowed(v[0], v[1], **c.at), (0,)),  # OVERFLOW: seat, doubloons
    Template("nn", lambda v, c: Pushed(v[0], v[1], **c.at), (0,)),  # PUSHED: seat, space
    Template("S", _tie),  # TIE_BROKEN: winner, then the seats tied
    Template("nwww", lambda v, c: Borrowed(v[0], v[3], v[2], v[1], c.timing(v[1]), **c.at),
             (0,)),  # BORROW_BY: seat, borrower, timing, card
    # ---- Bookkeeping, no event of its own: the phases, and where a declared position starts.
    Template("", _marker("dusk")),  # DUSK
    Template("", _marker("night")),  # NIGHT
    Template("", _marker("anchor")),  # ANCHOR
    Template("nn", _position),  # POSITION: voyage, day
    # ---- A day's plays and its reveal in one record (the island names every card played).
    Template("R", _plays_revealed),  # PLAYS_REVEALED: the island
    Template("nR", _solo_plays_revealed, (0,)),  # SOLO_PLAYS_REVEALED: Automa's seat, the island
    # ---- Characters moved, with the zone they left and the ability that moved them ("": none).
    Template("nww", lambda v, c: Discarded(v[0], v[1], _opt(v[2]), **c.at), (0,)),  # DISCARDED: seat, card, zone
    Template("nwnww", lambda v, c: Discarded(v[2], v[3], _opt(v[4]), v[0], v[1], c.timing(v[1]), **c.at),
             (0, 2)),  # DISCARDED_BY: by seat, by source, seat, card, zone
    Template("nnwww", lambda v, c: TakenOver(v[0], v[1], v[2], _opt(v[3]), _opt(v[4]), c.timing(_opt(v[4])), **c.at),
             (0, 1)),  # TAKEN_OVER: seat, owner, card, zone, source
    Template("nwwww", lambda v, c: Moved(v[0], v[1], _opt(v[2]), v[3], _opt(v[4]), c.timing(_opt(v[4])), **c.at),
             (0,)),  # MOVED: seat, card, from, to, source
    Template("nw", lambda v, c: Moved(v[0], None, "graveyard", "hand", _opt(v[1]), c.timing(_opt(v[1])), **c.at),
             (0,)),  # GRAVEYARD_TO_HAND_BY: seat, source
    Template("nnw", lambda v, c: ReputationOverflowed(v[0], v[1], _opt(v[2]), c.timing(_opt(v[2])), **c.at),
             (0,)),  # OVERFLOW_BY: seat, doubloons, source
    Template("nnnw", lambda v, c: Pushed(v[0], v[1], v[2], _opt(v[3]), c.timing(_opt(v[3])), **c.at),
             (0, 2)),  # PUSHED_BY: seat, space, by seat, source
    # ---- The card language's actions with their source (and zones); written by its compiled code.
    Template("nww", lambda v, c: ReputationMovedTo(v[0], v[1], v[2], c.timing(v[2]), **c.at),
             (0,)),  # MOVE_REPUTATION_BY: seat, end, source
    Template("nwww", lambda v, c: PutOnIsland(v[0], v[1], _opt(v[2]), v[3], c.timing(v[3]), **c.at),
             (0,)),  # PUT_ON_ISLAND_FROM: seat, card, zone, source
    Template("nPw", _returned, (0,)),  # RETURN_LOOT_FROM: seat, (place, kind) pairs, source
    Template("nww", lambda v, c: KeptAboard(v[0], v[1], v[2], c.timing(v[2]), **c.at), (0,)),  # KEEP_BY
    Template("nWw", lambda v, c: LootKept(v[0], v[1], v[2], c.timing(v[2]), **c.at), (0,)),  # KEEP_LOOT_BY
    Template("nPnw", _given, (0, 2)),  # GIVE_LOOT_FROM: seat, (place, kind) pairs, to, source
    Template("nWw", lambda v, c: LootDrawn(v[0], v[1], v[2], c.timing(v[2]), **c.at), (0,)),  # DRAW_LOOT_BY
    Template("nwwwww", _swapped, (0,)),  # SWAP_LOOT_FROM: seat, kind, its place, other kind, its place, source
    # ---- A token taken by a character's ability (the Cook's second take): the character, as held, too.
    Template("nawww", _taken_by, (0,)),  # TAKE_LOOT_BY_CARD: seat, kind, place, source, card
    # ---- Bookkeeping: the next record is an event of a borrowed text, run by this borrower (as held).
    Template("w", _marker_none),  # VIA: borrower
)

# Template numbers, by what happened (the engine's ``log`` calls name these), in ``TEMPLATES``' order.
# Final literals: the compiled engine builds them into its code instead of looking each one up on
# this module at every event (tests/engine/test_journal.py holds each to its template's place).
RULES: Final = 0
VOYAGE: Final = 1
INCOME: Final = 2
START_COINS: Final = 3
DAY: Final = 4
PLAY: Final = 5
REVEAL: Final = 6
LEFTOVER: Final = 7
REMOVE_LOOT: Final = 8
TAKE_AT_DUSK: Final = 9
BANK: Final = 10
OVER: Final = 11
DISCARD: Final = 12
TAKE_OVER: Final = 13
GRAVEYARD_TO_HAND: Final = 14
PUT: Final = 15
CHANGE: Final = 16
PAY: Final = 17
MOVE_REPUTATION: Final = 18
PUT_ON_ISLAND: Final = 19
TAKE_LOOT: Final = 20
RETURN_LOOT: Final = 21
KEEP: Final = 22
KEEP_LOOT: Final = 23
GIVE_LOOT: Final = 24
DRAW_LOOT: Final = 25
SWAP_LOOT: Final = 26
BORROW: Final = 27
CHANGE_DOUBLOONS: Final = 28
PILFERER_PLAYS: Final = 29
PILFERER_TAKES: Final = 30
NO_EFFECT: Final = 31
HANDICAP: Final = 32
DISCARD_BY: Final = 33
TAKE_LOOT_FROM: Final = 34
OVERFLOW: Final = 35
PUSHED: Final = 36
TIE_BROKEN: Final = 37
BORROW_BY: Final = 38
DUSK: Final = 39
NIGHT: Final = 40
ANCHOR: Final = 41
POSITION: Final = 42
PLAYS_REVEALED: Final = 43
SOLO_PLAYS_REVEALED: Final = 44
DISCARDED: Final = 45
DISCARDED_BY: Final = 46
TAKEN_OVER: Final = 47
MOVED: Final = 48
GRAVEYARD_TO_HAND_BY: Final = 49
OVERFLOW_BY: Final = 50
PUSHED_BY: Final = 51
MOVE_REPUTATION_BY: Final = 52
PUT_ON_ISLAND_FROM: Final = 53
RETURN_LOOT_FROM: Final = 54
KEEP_BY: Final = 55
KEEP_LOOT_BY: Final = 56
GIVE_LOOT_FROM: Final = 57
DRAW_LOOT_BY: Final = 58
SWAP_LOOT_FROM: Final = 59
TAKE_LOOT_BY_CARD: Final = 60
VIA: Final = 61

MARKERS = frozenset({DUSK, NIGHT, ANCHOR, POSITION, VIA})
"""The templates that are bookkeeping only: they stand for no event."""

LEGACY: dict[int, tuple[int, tuple[int, ...]]] = {
    DISCARDED: (DISCARD, (0, 1)),
    DISCARDED_BY: (DISCARD_BY, (0, 1, 2, 3)),
    TAKEN_OVER: (TAKE_OVER, (0, 1, 2)),
    MOVED: (PUT, (0, 1, 2, 3)),
    GRAVEYARD_TO_HAND_BY: (GRAVEYARD_TO_HAND, (0,)),
    OVERFLOW_BY: (OVERFLOW, (0, 1)),
    PUSHED_BY: (PUSHED, (0, 1)),
    MOVE_REPUTATION_BY: (MOVE_REPUTATION, (0, 1)),
    PUT_ON_ISLAND_FROM: (PUT_ON_ISLAND, (0, 1)),
    KEEP_BY: (KEEP, (0, 1)),
    KEEP_LOOT_BY: (KEEP_LOOT, (0, 1)),
    DRAW_LOOT_BY: (DRAW_LOOT, (0, 1)),
    TAKE_LOOT_BY_CARD: (TAKE_LOOT_FROM, (0, 1, 2, 3)),
}
"""Each template that adds arguments to an older one: (the older template, the arguments of
the new one that are its arguments, in order).  A reader that follows only what the older
templates said (``engine.sampling``) reads the new ones through this, and ``PLAYS`` for the
records that stand for several.  The loot templates that pair each token with its place
(``RETURN_LOOT_FROM``, ``GIVE_LOOT_FROM``, ``SWAP_LOOT_FROM``) have no older form such a
reader needs.
"""

PLAYS: dict[int, int] = {PLAYS_REVEALED: 0, SOLO_PLAYS_REVEALED: 1}
"""The records that stand for a day's ``PLAY`` records (each seated card of the island, in
seat order; solo: Automa's last) and its reveal: which argument holds the island."""

VOCABULARY: tuple[str, ...] = (
    "doubloons", "doubloon", "reputation", "gains", "loses", "leftmost", "rightmost",
    "hand", "ship", "graveyard", "island", "removed", "sun", "dusk", "moon", "anchor",
    "today's loot", "tomorrow's loot", "the bag", *(f"seat {n}" for n in range(8)),
)
"""Words the engine itself writes into events; each edition's names follow them in its lexicon."""

_LITERAL = 0
"""The word number that announces a word spelled out in UTF-8 (one not in the lexicon)."""


def lexicon(names: Sequence[str]) -> tuple[str, ...]:
    """The words an edition's events are written with: slot 0 is the literal escape."""
    return ("", *dict.fromkeys((*VOCABULARY, *names)))


# ------------------------------------------------------------------ writing
Entry = tuple[int, tuple[object, ...]]
"""An event as the engine logs it: template number and arguments (ints, strings, tuples of them)."""


def write(out: bytearray, ids: Mapping[str, int], template: int, args: Sequence[object]) -> None:
    """Append one event to ``out``."""
    encode_into(out, ids, ((template, tuple(args)),))


def encode_into(out: bytearray, ids: Mapping[str, int], entries: Sequence[Entry]) -> None:
    """Append events to ``out``.  Hot when a game is frozen: one-byte values take no call."""
    append = out.append
    for template, args in entries:
        append(template)  # fewer than 128 templates: one byte
        for a in args:
            if a.__class__ is int:
                z = a << 1 if a >= 0 else (-a << 1) - 1
                if z < 0x80:
                    append(z)
                else:
                    _varint(out, z)
            elif a.__class__ is str:
                i = ids.get(a)
                if i is not None and i < 0x80:
                    append(i)
                else:
                    _word(out, ids, a)
            else:
                items: Sequence[object] = a  # type: ignore[assignment]
                _varint(out, len(items))
                for item in items:
                    if item.__class__ is int:
                        _number(out, item)
                        continue
                    i = ids.get(item)  # type: ignore[call-overload]
                    if i is not None and i < 0x80:
                        append(i)
                    else:
                        _word(out, ids, item)  # type: ignore[arg-type]


CACHE_LIMIT = 50_000
"""Packed events remembered per rules (``encode_cached``) before the memo starts afresh."""


def encode_cached(out: bytearray, ids: Mapping[str, int], entries: Sequence[Entry],
                  cache: dict[Entry, bytes]) -> None:
    """``encode_into`` with a memo of whole events: games repeat the same few hundred events
    (a seat, a card, an amount), so most are packed once per process, not once per game."""
    get = cache.get
    for entry in entries:
        packed = get(entry)
        if packed is None:
            one = bytearray()
            encode_into(one, ids, (entry,))
            packed = bytes(one)
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            cache[entry] = packed
        out += packed


def _varint(out: bytearray, n: int) -> None:
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _number(out: bytearray, n: int) -> None:
    _varint(out, n << 1 if n >= 0 else (-n << 1) - 1)


def _word(out: bytearray, ids: Mapping[str, int], word: str) -> None:
    i = ids.get(word)
    if i is not None:
        _varint(out, i)
        return
    raw = word.encode()
    out.append(_LITERAL)
    _varint(out, len(raw))
    out.extend(raw)


# ------------------------------------------------------------------ reading
class _Reader:
    __slots__ = ("data", "pos", "words")

    def __init__(self, data: bytes, words: Sequence[str]) -> None:
        self.data = data
        self.pos = 0
        self.words = words

    def varint(self) -> int:
        n = shift = 0
        while True:
            if self.pos >= len(self.data):
                raise JournalError(f"the log ends inside an event (byte {self.pos})")
            b = self.data[self.pos]
            self.pos += 1
            n |= (b & 0x7F) << shift
            if b < 0x80:
                return n
            shift += 7
            if shift > 70:
                raise JournalError(f"a number too long to be real at byte {self.pos}")

    def number(self) -> int:
        z = self.varint()
        return z >> 1 if not z & 1 else -((z + 1) >> 1)

    def word(self) -> str:
        i = self.varint()
        if i == _LITERAL:
            size = self.varint()
            raw = self.data[self.pos:self.pos + size]
            if len(raw) != size:
                raise JournalError(f"a word runs past the end of the log (byte {self.pos})")
            self.pos += size
            try:
                return raw.decode()
            except UnicodeDecodeError as e:
                raise JournalError(f"a word that is not UTF-8 at byte {self.pos - size}") from e
        if i >= len(self.words):
            raise JournalError(f"word number {i} is not in these rules' lexicon ({len(self.words)} words)")
        return self.words[i]

    def count(self) -> int:
        n = self.varint()
        if n > len(self.data):
            raise JournalError(f"a list of {n} items cannot fit in the log (byte {self.pos})")
        return n

    def pairs(self) -> int:
        """A list of pairs is written flat: its length counts both halves."""
        n = self.count()
        if n % 2:
            raise JournalError(f"a list of pairs with an odd length {n} (byte {self.pos})")
        return n // 2


def _read(r: _Reader, shape: str) -> Any:
    """One argument, as the engine logged it (lists as tuples)."""
    if shape == "n":
        return r.number()
    if shape in "wa":
        return r.word()
    if shape in "WV":
        return tuple([r.word() for _ in range(r.count())])
    if shape == "R":
        return tuple([(r.number(), r.word()) for _ in range(r.pairs())])
    if shape == "S":
        return tuple([r.number() for _ in range(r.count())])
    return tuple([(r.word(), r.word()) for _ in range(r.pairs())])  # "P"


def decode(data: bytes, words: Sequence[str], players: int | None = None,
           timings: Mapping[str, str] | None = None, start: int = 0) -> tuple[Event, ...]:
    """The events ``data`` records, oldest first; ``JournalError`` if it is damaged.

    With ``players``, every seat an event names must be one of the game's seats.
    ``timings`` gives the one timing of each source (card or loot kind) that has only one,
    for an ability's event in a phase other than its own (a token's dusk ability fires when
    it is taken, whatever the phase); without it an ability's timing is its phase's.
    ``start`` is a byte offset where a record begins: only the events from there on are
    returned.  What comes before is read for the clock only, and not even that when it is a
    log read to its end before (``ENDS``): a property that reads each step's new events
    (``Game.events_since``) reads each record once, not the whole log at every step.
    """
    return tuple(_events(data, words, players, timings, start))


def records(data: bytes, words: Sequence[str], players: int | None = None,
            timings: Mapping[str, str] | None = None, start: int = 0) -> Iterator[tuple[Event, ...]]:
    """``decode``, one record at a time from ``start``: the events each record stands for.

    A record is one ``Work.log`` call: a marker stands for none (``()``), ``PLAYS_REVEALED``
    for a day's plays and its reveal, any other for one event.  ``testing.moments`` pairs each
    with the state the engine was in when it logged it.
    """
    for built in _records(data, words, players, timings, start):
        if built is None:
            yield ()
        elif isinstance(built, tuple):
            yield built
        else:
            yield (built,)


_SETUP = frozenset({RULES, HANDICAP, VOYAGE, POSITION})
"""What a log may hold before its first voyage or day: anything else, and the log is an older
declared position's, whose first day has no event saying when it is."""


_CLOCK = frozenset({VOYAGE, DAY, REVEAL, BANK, OVER, TIE_BROKEN, *MARKERS, PLAYS_REVEALED, SOLO_PLAYS_REVEALED})
"""The templates that move the clock: before ``start`` only these need building."""

ENDS: dict[tuple[int, int | None, bytes], tuple[int, int, str | None]] = {}
"""The clock (voyage, day, phase) at the end of logs read to their end, keyed by (lexicon size,
seats, log): a later read of a log that begins with one of them starts there, instead of
reading it again.  The lexicon's size and the seats are in the key because they decide which
logs read without an error; a log's clock depends on nothing else."""
ENDS_KEPT = 256
"""Logs whose end clock ``ENDS`` remembers before it starts afresh."""


def _events(data: bytes, words: Sequence[str], players: int | None,
            timings: Mapping[str, str] | None = None, start: int = 0) -> Iterator[Event]:
    """``decode``, one event at a time: a reader that stops early reads no further."""
    for built in _records(data, words, players, timings, start):
        if built is None:
            continue
        if isinstance(built, tuple):
            yield from built
        else:
            yield built


def _records(data: bytes, words: Sequence[str], players: int | None,
             timings: Mapping[str, str] | None = None, start: int = 0) -> Iterator[Built]:
    """What each record from ``start`` on stands for, in order (``None`` for a marker)."""
    r = _Reader(data, words)
    clock = Clock(timings)
    keep = data.__class__ is bytes  # a log to remember the end of (a bytearray is no key)
    if start and keep:
        known_end = ENDS.get((len(words), players, data[:start]))
        if known_end is not None:
            r.pos = start
            clock.set(*known_end)
    templates, known = TEMPLATES, len(TEMPLATES)
    end = len(data)
    via: str | None = None  # a VIA marker's borrower, for the record after it
    while r.pos < end:
        at = r.pos
        number = data[at]
        r.pos += 1
        if number >= known:
            raise JournalError(f"byte {at} starts an event of unknown template {number}")
        t = templates[number]
        values = [_read(r, shape) for shape in t.shapes]
        for i in t.seats:
            seat = values[i]
            if seat < 0 or (players is not None and seat >= players):
                raise JournalError(f"the event at byte {at} names seat {seat}, not a seat of this game")
        if clock.phase == "setup" and number not in _SETUP:
            clock.set(0, 0, None)
        borrower, via = via, (values[0] if number == VIA else None)
        if at < start and number not in _CLOCK:
            continue
        built = t.build(values, clock)
        if at < start:
            continue
        if borrower is not None and isinstance(built, Event):
            built = attrs.evolve(built, borrower=borrower)
        yield built
    if end and keep:
        if len(ENDS) >= ENDS_KEPT:
            ENDS.clear()
        ENDS[(len(words), players, data)] = (clock.voyage, clock.day, clock.phase)


def began_with_deal(packed: bytes | None, words: Sequence[str]) -> bool:
    """Whether the game was dealt its cards (a voyage began before any card was played).

    ``False`` for a declared position, and for a game without a log (nothing to tell by).
    """
    for e in _events(packed or b"", words, None):  # the first voyage or play decides: read no further
        if e.kind in ("voyage", "play"):
            return e.kind == "voyage"
    return False
