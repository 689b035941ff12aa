"""Positions that put chosen cards where they act: focused property tests and the pair sweep.

A random position rarely shows two given cards acting together: a sun character must be the
card its seat plays that day, a moon character must be aboard at night.  A *focused* position
puts each featured character or loot kind where its ability runs and leaves everything else
random and consistent:

- a character featured for ``sun`` or ``dusk`` is in its seat's hand and is the card that seat
  plays first (``setup=`` cannot fix a play, so ``FocusedPosition.start`` answers the plays);
- a character featured for ``moon`` or ``anchor`` is in its seat's ship;
- a loot kind featured for ``dusk`` lies in today's loot, one featured for another timing is held;
- with an ``anchor`` feature the position is the voyage's last day, so the anchor comes tonight.

A card's timing is its first ability in day order (sun, dusk, moon, anchor) unless its entry
or ``phase`` names another.  An entry may instead say where the card goes (``Feature``):
``("Apprentice", "play")`` and ``("Carpenter", "ship")`` put an Apprentice on today's island
while a Carpenter is already aboard, whatever their timings, and a seat label
(``("Apprentice", "play", "a"), ("Carpenter", "ship", "a")``) puts them in one drawn seat.

Every seat holds one copy of each character, so a name may be featured more than once
(``["Wind Nymph", "Wind Nymph"]``: two seats' Nymphs).  An unpinned feature goes to a seat
drawn among those that can take it (a seat holds a name once and plays one card); pin one
with ``("Witch", 0)``.  Copies of a featured name that are not featured stay out of the
position, so an event naming the card comes from a featured copy.

``positions`` and ``interactions`` are hypothesis strategies (hypothesis is imported when they
are called); ``focused_position`` builds the same positions from a ``random.Random``, for code
that must not depend on hypothesis (``testing.sweep``).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import attrs

from .. import events as ev
from ..engine.specs import Rules
from ..game import Game, new_game
from ..state import Event
from ..suggest import did_you_mean
from ..syntax import ast
from .moments import Moment, moments, opening
from .repro import note_game, note_position, noting

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

T = TypeVar("T")

TIMINGS = ("sun", "dusk", "moon", "anchor")
"""The card language's triggers, in the order a day runs them."""

ZONES = ("play", "hand", "ship", "loot", "day loot")
"""Where a feature may be put: a character ``play`` (in the hand, and the card its seat plays
today, so on the island), ``hand`` (held, not played) or ``ship`` (already aboard); a loot kind
``loot`` (held by a seat) or ``day loot`` (in today's loot)."""

_CHARACTER_ZONES = ("play", "hand", "ship")
_LOOT_ZONES = ("loot", "day loot")
_ALIASES = {"island": "play"}  # a character reaches the island only by being played today


def _unalias(at: Any) -> Any:
    return _ALIASES.get(at, at) if isinstance(at, str) else at


def _close(word: Any) -> str:
    return did_you_mean(word, [*ZONES, *_ALIASES, *TIMINGS]) if isinstance(word, str) else ""


def _words() -> str:
    return ", ".join(repr(w) for w in (*ZONES, *_ALIASES, *TIMINGS))


@attrs.frozen
class Feature:
    """A card or loot kind to feature, where it goes and which seat holds it.

    ``at`` is a zone of ``ZONES`` ("island" says "play"), or a timing: the zone where that
    ability runs (sun or dusk: ``play``, moon or anchor: ``ship``; for loot, dusk: ``day loot``,
    else ``loot``).  None: where the card's first ability runs (or the ``phase`` given to
    ``positions``).  ``timing`` names the ability featured beside a zone
    (``Feature("Carpenter", "ship", timing="sun")``: aboard, its sun ability lent to a borrower);
    with a zone and no timing, any of the card's abilities counts as it acting (``acted``).
    ``seat`` is a seat number (pinned), or a label: a seat drawn for it, shared by the features
    that give the same label; different labels get different seats.

    Plain entries convert: ``"Witch"``, ``("Witch", 0)`` (pinned), ``("Witch", "moon")``,
    ``("Apprentice", "play")`` and ``("Apprentice", "play", "a")`` (zone or timing, then seat).
    """

    name: str
    at: str | None = attrs.field(default=None, converter=_unalias)
    seat: int | str | None = None
    timing: str | None = None

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a feature names a card or loot kind, not {self.name!r}")
        if self.at is not None and self.at not in ZONES and self.at not in TIMINGS:
            raise ValueError(f"{self.name} cannot be featured at {self.at!r}{_close(self.at)}: say {_words()} "
                             "(or None: where its first ability runs)")
        if self.timing is not None and self.timing not in TIMINGS:
            raise ValueError(f"{self.name}'s timing must be one of {', '.join(TIMINGS)} (or None), "
                             f"not {self.timing!r}")
        if self.at in TIMINGS and self.timing not in (None, self.at):
            raise ValueError(f"{self.name} is featured at {self.at} and for its {self.timing} ability: give a "
                             f"zone ({', '.join(ZONES)}) with timing={self.timing!r}, or one timing")
        seat = self.seat
        if isinstance(seat, bool) or not (seat is None or (isinstance(seat, int) and seat >= 0)
                                          or (isinstance(seat, str) and seat)):
            raise ValueError(f"{self.name}'s seat is a seat number (0, 1, ...) or a label naming a seat to "
                             f"draw (\"a\"), not {seat!r}")

    @classmethod
    def of(cls, entry: Featured) -> Feature:
        """An entry of ``featuring`` as a ``Feature``: a name, a tuple or a ``Feature``."""
        if isinstance(entry, Feature):
            return entry
        if isinstance(entry, str):
            return cls(entry)
        if isinstance(entry, tuple) and len(entry) in (2, 3) and isinstance(entry[0], str):
            name, second = entry[0], entry[1]
            if len(entry) == 3:
                return cls(name, second, entry[2])  # the class checks the words and the seat
            if isinstance(second, int) and not isinstance(second, bool):
                return cls(name, seat=second)
            if isinstance(second, str) and (second in ZONES or second in TIMINGS or second in _ALIASES):
                return cls(name, second)
            raise ValueError(f"({name!r}, {second!r}){_close(second)}: the second item of a pair is a seat number "
                             f"or one of {_words()}; a seat label comes third: ({name!r}, where, {second!r}) "
                             f"or Feature({name!r}, seat={second!r})")
        raise ValueError(f"a feature is a card name or loot kind, (name, seat), (name, where), "
                         f"(name, where, seat) or a Feature, not {entry!r}")


Featured = str | tuple[str, int] | tuple[str, str] | tuple[str, str | None, int | str] | Feature
"""A ``featuring`` entry: a character name or loot kind, ``(name, seat)`` to pin it to a seat,
``(name, where)`` or ``(name, where, seat)`` to say where it goes, or a ``Feature``."""


@attrs.frozen
class Placement:
    """Where a featured character or loot kind was put, and for which of its timings.

    ``zone`` is ``"play"`` (in the hand, played today), ``"hand"`` (in the hand, not played),
    ``"ship"``, ``"loot"`` (held by ``seat``) or ``"day loot"`` (in today's loot: ``seat`` is
    ``None``).  ``timing`` is None when the feature gave a zone and no timing: any of the card's
    abilities counts as it acting.
    """

    name: str
    loot: bool
    timing: str | None
    zone: str
    seat: int | None


@attrs.frozen
class FocusedPosition:
    """A declared position plus the character each seat plays first.

    ``setup`` is ``new_game``'s ``setup=``; ``plays`` has one card name per seat;
    ``featured`` says where each featured card went, in the order they were asked for.
    """

    setup: dict[str, Any] = attrs.field(hash=False)
    plays: tuple[str, ...]
    players: int
    seed: int
    featured: tuple[Placement, ...]

    def start(self, rules: Rules, *, log: bool = True) -> Game:
        """The game after the plays: the island revealed, run on to the next question."""
        return self.answer(new_game(rules, self.players, self.seed, setup=self.setup, log=log))

    def started(self, rules: Rules) -> tuple[Game, tuple[Moment, ...]]:
        """``start(rules)``, and a ``Moment`` (``testing.moments``) for every event it logged.

        ``start`` runs ``new_game`` and the plays, and each runs on to the next question: the
        reveal, the day, and where no seat is asked anything, the night and the anchor too.
        These are the moments of all of it, the game's first events included, in order.
        """
        game, seen = opening(rules, self.players, self.seed, self.setup)
        more: list[Moment] = list(seen)

        def play(before: Game, key: str) -> Game:
            after, happened = moments(before, key)
            more.extend(happened)
            return after

        game = answer_plays(game, self.plays, day=(self.setup["voyage"], self.setup["day"]), choose=play)
        return game, tuple(more)

    def answer(self, game: Game, record: list[str] | None = None) -> Game:
        """``answer_plays`` for this position's plays on its day: ``game`` is ``new_game`` of it."""
        return answer_plays(game, self.plays, record, day=(self.setup["voyage"], self.setup["day"]))

    def without(self, index: int, rules: Rules) -> FocusedPosition:
        """The same position with ``featured[index]`` taken out: the others' games "alone".

        A ship or hand card or a held token is removed.  A played card is replaced, in hand and as the
        play, by a stand-in: the nearest-ranked character without a sun or dusk ability that
        its seat does not hold.  A token of today's loot is replaced by a kind without a dusk
        ability that the bag still has (or dropped if there is none).
        """
        gone = self.featured[index]
        setup = copy.deepcopy(self.setup)
        plays = list(self.plays)
        if gone.zone == "day loot":
            today = setup["loot"][0]
            today.remove(gone.name)
            spare = bag_left(rules, setup)
            quiet = [k for k in rules.kinds if spare[k] > 0 and not rules.for_game(self.seed).loot_spec(k).has("dusk")]
            if quiet:
                today.append(quiet[0])
        else:
            assert gone.seat is not None
            seat = setup["players"][gone.seat]
            if gone.zone == "loot":
                seat["loot"].remove(gone.name)
            elif gone.zone in ("ship", "hand"):
                seat[gone.zone].remove(gone.name)
            else:
                stand_in = _stand_in(rules, gone.name, seat, {p.name for p in self.featured if not p.loot})
                seat["hand"][seat["hand"].index(gone.name)] = stand_in
                plays[gone.seat] = stand_in
        featured = self.featured[:index] + self.featured[index + 1:]
        return attrs.evolve(self, setup=setup, plays=tuple(plays), featured=featured)


def answer_plays(game: Game, plays: Sequence[str], record: list[str] | None = None, *,
                 day: tuple[int, int] | None = None, choose: Callable[[Game, str], Game] | None = None) -> Game:
    """Answer the first selection's ``play_character`` questions with each seat's card.

    A seat holding a single card plays it without being asked; its entry is then unused.
    Only the selection of ``day`` (``(voyage, day)``, default the game's) is answered: a card's
    ability that asks for another play, or a later day reached without a question (every seat
    holding one card), is left to the caller.  Each answer is appended to ``record`` before
    it is given (so a play that raises is in it).  ``choose(game, key)`` gives each answer
    (default ``game.choose(key)``): ``FocusedPosition.started`` passes one that keeps moments.
    """
    asked: set[int] = set()
    when = day if day is not None else (game.voyage, game.day)
    while (d := game.decision) is not None and d.kind == "play_character" and d.player not in asked \
            and game.phase == "select" and (game.voyage, game.day) == when:
        asked.add(d.player)
        if record is not None:
            record.append(plays[d.player])
        game = game.choose(plays[d.player]) if choose is None else choose(game, plays[d.player])
    return game


# ------------------------------------------------------------------ what acted
def acted(events: Iterable[Event], placement: Placement, rules: Rules) -> bool:
    """Whether an ability of the featured card logged anything in ``events``.

    An event counts when its ``source`` is the card (a character taken over, ``Cook#1``, is
    still a Cook); a ``play`` event names the card played, not an ability, and does not count.
    The engine logs a borrowed ability under the card lent, and the borrowing itself
    (``seat 0's Witch uses the moon ability of ...``) under the borrower.  An older log's
    borrowing event has no source: it counts for a featured borrower of the same seat.  Only
    events of the featured timing count where the event knows its timing (a placement without a
    timing: any of the card's).  An ability that changed nothing logs nothing.
    """
    name = placement.name
    borrower = not placement.loot and borrows(rules, name)
    timing = placement.timing
    for e in events:
        if e.kind == "play":
            continue
        if timing is not None and e.timing is not None and e.timing != timing:
            continue  # another of the card's abilities (the Witch's anchor, say), not the one featured
        if e.kind == "borrow":  # the borrower's seat is the event's: only that seat's card acted
            if borrower and e.seat == placement.seat and e.source in (None, name):
                return True
            continue
        if e.source is not None and e.source.partition("#")[0] == name:
            actor = _actor(e)
            if actor is None or placement.seat is None or actor == placement.seat:
                return True
    return False


def _actor(e: Event) -> int | None:
    """The seat whose ability logged ``e``, where the event says it (a move is its mover's, a discard its
    discarder's); None where the seat is whom it happened to (a gain, a loss)."""
    if isinstance(e, ev.Discarded):
        return e.by_seat
    if isinstance(e, ev.Moved | ev.KeptAboard | ev.PutOnIsland | ev.TakenOver):
        return e.seat
    return None


def borrows(rules: Rules, name: str) -> bool:
    """Whether the character has an ability that uses another character's (the Witch, the Apprentice)."""
    return _has_node(rules.card(name).abilities, ast.UseAbility)


def _has_node(node: Any, kind: type) -> bool:
    if isinstance(node, kind):
        return True
    if isinstance(node, tuple):
        return any(_has_node(item, kind) for item in node)
    if ast.is_node(node):
        return any(_has_node(getattr(node, f.name), kind) for f in ast.fields(node))
    return False


# ------------------------------------------------------------------ random sources
class Source(Protocol):
    """Where a position's random parts come from: hypothesis (which shrinks) or a seeded ``Random``."""

    def integer(self, lo: int, hi: int) -> int: ...

    def choice(self, items: Sequence[T]) -> T: ...

    def distinct(self, items: Sequence[T], n: int) -> list[T]: ...


class _Drawn:
    """Draws through hypothesis: integers shrink to ``lo``, choices to the first item.

    A choice is ``sampled_from`` its items, which hypothesis labels by the items: measured with
    ``benchmarks/shrink.py``, an index labelled by the count alone made the shrinker try far more
    reorderings of a position's picks (twice the calls on some seeds).
    """

    def __init__(self, draw: DrawFn) -> None:
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self._draw(integers(lo, hi))

    def choice(self, items: Sequence[T]) -> T:
        from hypothesis import strategies as st

        return self._draw(st.sampled_from(items))

    def distinct(self, items: Sequence[T], n: int) -> list[T]:
        from hypothesis import strategies as st

        return self._draw(st.lists(st.sampled_from(items), min_size=n, max_size=n, unique=True))


@functools.cache
def index(n: int) -> SearchStrategy[int]:
    """An index into ``n`` options, shrinking to 0 (the first), one strategy per ``n`` for the process.

    ``sampled_from(range(n))`` rather than ``integers(0, n - 1)``: hypothesis labels it by ``n``, so its
    shrinker does not try to reorder an answer's index among every other integer drawn (a pass that
    a game's answers almost never survive, and that doubled the calls of a shrink when tried).
    """
    from hypothesis import strategies as st

    return st.sampled_from(range(n))


@functools.cache
def integers(lo: int, hi: int) -> SearchStrategy[int]:
    """``st.integers(lo, hi)``, built once per process."""
    from hypothesis import strategies as st

    return st.integers(lo, hi)


class _Seeded:
    """Draws from a ``random.Random``: the same seed builds the same position."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self._rng.randint(lo, hi)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._rng.randrange(len(items))]

    def distinct(self, items: Sequence[T], n: int) -> list[T]:
        return self._rng.sample(list(items), n)


# ------------------------------------------------------------------ the public builders
def positions(rules: Rules, players: int | None, featuring: Sequence[Featured],
              phase: str | None = None) -> SearchStrategy[FocusedPosition]:
    """A hypothesis strategy of ``FocusedPosition``s with every featured card where it acts.

    ``players=None`` draws the seat count (the fewest that can take the features first).
    ``phase`` is the timing of every entry that names neither a timing nor a zone.
    Refused with ``ValueError`` when the strategy is made: an unknown or neutral card, a card
    without an ability at its timing, a zone it cannot go to, a solo game, seats that cannot
    take the features.  A test that fails on a drawn position prints its reproduction (the
    rules, the setup, the plays and the position itself: ``repro.note_position``).
    """
    from hypothesis import strategies as st

    plan = _Plan.of(rules, players, featuring, phase)

    @st.composite
    def focused(draw: DrawFn) -> FocusedPosition:
        position = plan.build(_Drawn(draw))
        if noting():
            kept = attrs.evolve(position, setup=copy.deepcopy(position.setup))  # as drawn, whatever the test does
            note_position(rules, kept.players, kept.setup, seed=kept.seed,
                          keys=functools.partial(_plays_made, rules, kept), check=_position_code(kept))
        return position

    return focused()


def focused_position(rules: Rules, players: int | None, featuring: Sequence[Featured], *,
                     rng: random.Random, phase: str | None = None, exclude: Collection[str] = ()) -> FocusedPosition:
    """One focused position drawn from ``rng`` (no hypothesis): as ``positions`` draws them.

    ``exclude`` names characters the position deals to nobody (the sweep keeps a card that
    failed alone out of the others' games); later voyages still deal them from the deck.
    """
    return _Plan.of(rules, players, featuring, phase).build(_Seeded(rng), exclude)


def interactions(rules: Rules, cards: Sequence[Featured], players: int | None = None, *,
                 phase: str | None = None, max_steps: int = 400) -> SearchStrategy[Game]:
    """Games from focused positions, stopped at the first question by which every featured
    card's ability has acted (logged an event: ``acted``).

    After the plays, hypothesis draws every answer, so a failure shrinks to a short list of
    keys as well as to a small position.  A game that ends, or runs ``max_steps`` answers,
    before all the cards acted is rejected (hypothesis draws another).
    """
    from hypothesis import reject
    from hypothesis import strategies as st

    plan = _Plan.of(rules, players, cards, phase)

    @st.composite
    def stopped(draw: DrawFn) -> Game:
        position = plan.build(_Drawn(draw))
        game = position.start(rules)
        waiting = [p for p in position.featured if not acted(game.events, p, rules)]
        for _ in range(max_steps + 1):
            if not waiting:
                note_game(rules, position.players, position.seed, position.setup, game)
                return game
            if game.decision is None:
                break
            keys = game.legal_keys()
            before, game = game, game.choose(keys[draw(index(len(keys)))])
            fresh = game.events_since(before)  # each event read once, not the whole log at every answer
            waiting = [p for p in waiting if not acted(fresh, p, rules)]
        reject()

    return stopped()


def _plays_made(rules: Rules, position: FocusedPosition) -> list[str]:
    """The answers ``position.start`` gives, up to one that raises (the reproduction replays it)."""
    record: list[str] = []
    with contextlib.suppress(Exception):
        position.answer(new_game(rules, position.players, position.seed, setup=position.setup), record)
    return record


def _position_code(position: FocusedPosition) -> str:
    """The lines that rebuild the drawn ``FocusedPosition`` after a reproduction's script."""
    plays = ", ".join(repr(p) for p in position.plays) + ("," if len(position.plays) == 1 else "")
    lines = ["# game is position.start(rules): the position drawn, each seat's first card played",
             "from libertalia.testing import FocusedPosition, Placement",
             f"position = FocusedPosition(setup, plays=({plays}), players={position.players}, "
             f"seed={position.seed}, featured=(",
             *(f"    {p!r}," for p in position.featured),
             "))",
             "position  # your test's assertions on position"]
    return "\n".join(lines)


# ------------------------------------------------------------------ the plan
@attrs.frozen
class _Want:
    """A feature as checked: the card, whether it is loot, the zone and timing asked for (None:
    derived), a pinned seat or a seat label."""

    name: str
    loot: bool
    zone: str | None
    phase: str | None
    seat: int | None
    label: str | None

    def timing(self, rules: Rules) -> str | None:
        """The timing featured in a game of ``rules``: the one asked for, else the first ability's
        (for a loot kind, of the side in play), else None for a feature given a zone."""
        if self.phase is not None or self.zone is not None:
            return self.phase
        spec = rules.loot_spec(self.name) if self.loot else rules.card(self.name)
        have = [t for t in TIMINGS if spec.has(t)]
        return have[0] if have else None

    def where(self, timing: str | None) -> str:
        """The zone: the one asked for, else where ``timing`` runs."""
        if self.zone is not None:
            return self.zone
        assert timing is not None, "a feature without a zone has a timing"
        return _zone(self.loot, timing)

    def shown(self) -> str:
        said = [w for w in (self.zone, self.phase) if w is not None]
        if self.seat is not None:
            said.append(f"seat {self.seat}")
        if self.label is not None:
            said.append(f"seat {self.label!r}")
        return f"{self.name} ({', '.join(said)})" if said else self.name


def _zone(loot: bool, timing: str) -> str:
    if loot:
        return "day loot" if timing == "dusk" else "loot"
    return "play" if timing in ("sun", "dusk") else "ship"


@attrs.frozen
class _Plan:
    """The features, checked against the rules once; ``build`` draws a position from them."""

    rules: Rules
    players: int | None
    wants: tuple[_Want, ...]

    @classmethod
    def of(cls, rules: Rules, players: int | None, featuring: Sequence[Featured], phase: str | None) -> _Plan:
        board = rules.board
        if phase is not None and phase not in TIMINGS:
            raise ValueError(f"phase must be one of {', '.join(TIMINGS)} (or None: each card's first), not {phase!r}")
        if players is not None:
            lo, hi = board.players
            if players == 1:
                raise ValueError("a solo game cannot be focused: it starts at the beginning "
                                 "(setup= declares positions of 2 or more players)")
            if not lo <= players <= hi:
                raise ValueError(f"{board.title} is for {lo} to {hi} players, not {players}")
        if isinstance(featuring, str | Feature):
            featuring = [featuring]  # a lone name, not its letters
        wants = tuple(_want(rules, entry, phase, players) for entry in featuring)
        if not wants:
            raise ValueError("featuring names no card: give at least one character or loot kind")
        _check_groups(rules, wants)
        plan = cls(rules, players, wants)
        counts = Counter(w.name for w in wants if w.loot)
        for kind, n in counts.items():
            if n > dict(board.bag)[kind]:
                raise ValueError(f"{kind} is featured {n} times, but the bag holds {dict(board.bag)[kind]}")
        seats = [players] if players is not None else list(range(max(2, board.players[0]), board.players[1] + 1))
        if not any(plan._feasible(n) for n in seats):
            labels = {w.label for w in wants if w.label is not None}
            more = f"; {len(labels)} seat labels take {len(labels)} seats" if len(labels) > 1 else ""
            raise ValueError(f"no seating of {_names(wants)} works with {_seats(seats)}: a seat plays one "
                             f"card a day and holds each character once{more}")
        return plan

    def _feasible(self, players: int) -> bool:
        zones = [w.where(w.timing(self.rules)) for w in self.wants]
        return _assign(self.wants, zones, players, None) is not None

    def build(self, src: Source, exclude: Collection[str] = ()) -> FocusedPosition:
        """Draw one position: the simple parts first, so that a shrunk one is small."""
        seed = src.integer(0, 2**32 - 1)
        rules = self.rules.for_game(seed)  # uncharted sides: the features' timings are this game's
        board = rules.board
        timings = [self._game_timing(w, rules) for w in self.wants]
        zones = [w.where(t) for w, t in zip(self.wants, timings, strict=True)]
        if self.players is not None:
            players = self.players
        else:
            # More seats never make a seating impossible: the fewest that work, up to the board's most.
            fits = [n for n in range(max(2, board.players[0]), board.players[1] + 1)
                    if _assign(self.wants, zones, n, None) is not None]
            if not fits:  # this game's uncharted sides gave the features other timings
                raise ValueError(f"no seating of {_names(self.wants)} works with these loot sides")
            players = src.integer(fits[0], board.players[1])
        voyage = src.integer(1, len(board.voyage_days))
        last = board.voyage_days[voyage - 1]
        day = last if "anchor" in timings else src.integer(1, last)
        seats_of = _assign(self.wants, zones, players, src)
        if seats_of is None:  # checked when the plan was made: only a different seat count fails
            raise ValueError(f"no seating of {_names(self.wants)} works with {players} players")
        placements = tuple(
            Placement(w.name, w.loot, t, zone, None if zone == "day loot" else seat)
            for w, t, zone, seat in zip(self.wants, timings, zones, seats_of, strict=True))
        featured_names = {p.name for p in placements if not p.loot}
        pool = [c.name for c in rules.characters
                if not c.neutral and "#" not in c.name and c.name not in featured_names and c.name not in exclude]
        bag: Counter[str] = Counter(dict(board.bag))
        for p in placements:
            if p.loot:
                bag[p.name] -= 1
        today = [p.name for p in placements if p.zone == "day loot"]
        per_day = board.loot_per_day_for(players)
        if len(today) > per_day:
            raise ValueError(f"{len(today)} tokens are featured in today's loot, which has {per_day}")
        seats: list[dict[str, Any]] = []
        plays: list[str] = []
        for seat in range(players):
            mine = [p for p in placements if p.seat == seat]
            played = [p.name for p in mine if p.zone == "play"]
            held = [p.name for p in mine if p.zone == "hand"]
            hand_n = src.integer(0 if played else 1, 6)
            ship_n, grave_n = src.integer(0, 4), src.integer(0, 3)
            cards = src.distinct(pool, min(len(pool), hand_n + ship_n + grave_n))
            playable = played + cards[:hand_n]  # a featured hand card stays in the hand
            hand = played + held + cards[:hand_n]
            ship = [p.name for p in mine if p.zone == "ship"] + cards[hand_n:hand_n + ship_n]
            loot = [p.name for p in mine if p.zone == "loot"] + _tokens(src, bag, src.integer(0, 4))
            seats.append({
                "hand": hand, "ship": ship, "graveyard": cards[hand_n + ship_n:], "loot": loot,
                "doubloons": src.integer(0, 25), "score": src.integer(0, 80),
            })
            if not playable:  # the pool ran dry (a tiny mod edition): nothing to play
                raise ValueError(f"seat {seat} has no character to play: the edition has too few characters")
            plays.append(played[0] if played else src.choice(sorted(playable, key=rules.rank)))
        setup: dict[str, Any] = {"voyage": voyage, "day": day, "players": seats}
        if today:
            setup["loot"] = [today + _tokens(src, bag, per_day - len(today))]
        if board.track_income:
            setup["reputation"] = src.distinct(range(len(board.track_income)), players)
        return FocusedPosition(setup, tuple(plays), players, seed, placements)

    def _game_timing(self, want: _Want, rules: Rules) -> str | None:
        found = want.timing(rules)
        if found is None and want.zone is None:  # an uncharted side drawn for this game lacks the phase
            raise ValueError(f"{want.name} has no ability on its {rules.loot_sides[want.name]} side")
        return found


def _want(rules: Rules, entry: Featured, phase: str | None, players: int | None) -> _Want:
    """One ``featuring`` entry, checked: a feature that cannot act is refused, never ignored."""
    feature = Feature.of(entry)
    name, seat = feature.name, feature.seat
    zone = feature.at if feature.at in ZONES else None
    timing = feature.timing or (feature.at if feature.at in TIMINGS else None)
    if timing is None and zone is None:
        timing = phase
    label = seat if isinstance(seat, str) else None
    pinned = seat if isinstance(seat, int) else None
    if pinned is not None and ((players is not None and pinned >= players) or pinned >= rules.board.players[1]):
        raise ValueError(f"{name} is pinned to seat {pinned!r}, which is not a seat of the game")
    title = rules.board.title
    if name in rules.kinds:
        if zone is not None and zone not in _LOOT_ZONES:
            raise ValueError(f"loot kind {name} is held ('loot') or lies in today's loot ('day loot'), "
                             f"not in a {zone!r}: that is for characters")
        sides = rules.uncharted.get(name) or (rules.loot_spec(name),)
        for spec in sides:
            have = [t for t in TIMINGS if spec.has(t)]
            if not have:
                raise ValueError(f"loot kind {name} ({spec.side} side) has no ability to feature")
            if timing is not None and timing not in have:
                raise ValueError(f"loot kind {name} ({spec.side} side) has no {timing} ability (it has "
                                 f"{', '.join(have)})")
        first = timing or [t for t in TIMINGS if sides[0].has(t)][0]
        if seat is not None and (zone or _zone(True, first)) == "day loot":
            raise ValueError(f"loot kind {name} lies in today's loot, which is no seat's: do not give it a seat "
                             "(or say 'loot': held by a seat)")
        return _Want(name, True, zone, timing, pinned, label)
    if not rules.has_card(name):
        names = [c.name for c in rules.characters]
        raise ValueError(f"{name!r} is neither a character nor a loot kind of {title}"
                         f"{did_you_mean(name, [*names, *rules.kinds])}")
    card = rules.card(name)
    if card.neutral:
        raise ValueError(f"{name} is a neutral card of {title}: it belongs to no seat and is put on the "
                         "island by the rules, so it cannot be featured")
    if zone is not None and zone not in _CHARACTER_ZONES:
        raise ValueError(f"{name} is a character: it goes to {', '.join(repr(z) for z in _CHARACTER_ZONES)} "
                         f"(or 'island', said 'play'), not {zone!r}, which is for loot")
    have = [t for t in TIMINGS if card.has(t)]
    if not have:
        raise ValueError(f"{name} has no ability to feature")
    if timing is not None and timing not in have:
        raise ValueError(f"{name} has no {timing} ability (it has {', '.join(have)})")
    return _Want(name, False, zone, timing, pinned, label)


def _check_groups(rules: Rules, wants: Sequence[_Want]) -> None:
    """Features one seat must hold together (a pinned seat, a label), refused when no seat can:
    a seat holds each character once and plays one card a day."""
    groups: dict[int | str, list[_Want]] = {}
    for w in wants:
        key = w.seat if w.seat is not None else w.label
        if key is not None and not w.loot:
            groups.setdefault(key, []).append(w)
    for key, group in groups.items():
        seat = f"seat {key}" if isinstance(key, int) else f"seat {key!r}"
        names = Counter(w.name for w in group)
        twice = [n for n, k in names.items() if k > 1]
        if twice:
            raise ValueError(f"{twice[0]} is featured {names[twice[0]]} times in {seat}, which holds each "
                             "character once: give the copies different seats")
        played = [w.name for w in group if w.where(w.timing(rules)) == "play"]
        if len(played) > 1:
            raise ValueError(f"{' and '.join(played)} are both played today by {seat}, which plays one card a "
                             "day: put one in 'hand' or 'ship', or give it another seat")


def _assign(wants: Sequence[_Want], zones: Sequence[str], players: int, src: Source | None) -> list[int] | None:
    """A seat per feature: pinned ones as pinned, the others drawn from the seats that can
    still take them (without ``src``, the first that can: a feasibility check).

    A seat holds each character once and plays one card; loot has no such limit.  The features
    of one label share a seat, drawn once; two labels never share one.
    """
    n = len(wants)
    chosen: list[int | None] = [w.seat for w in wants]
    if any(seat is not None and seat >= players for seat in chosen):
        return None
    groups: list[list[int]] = []  # the features that take one drawn seat: a label's, or one free feature
    by_label: dict[str, int] = {}
    for i, w in enumerate(wants):
        if w.seat is not None:
            continue
        if w.label is None:
            groups.append([i])
        elif w.label in by_label:
            groups[by_label[w.label]].append(i)
        else:
            by_label[w.label] = len(groups)
            groups.append([i])
    labelled = set(by_label.values())
    group_seat: list[int | None] = [None] * len(groups)

    def clash(i: int, j: int) -> bool:
        a, b = wants[i], wants[j]
        if a.loot or b.loot or chosen[i] != chosen[j] or chosen[i] is None:
            return False
        return a.name == b.name or (zones[i] == "play" and zones[j] == "play")

    def ok(g: int) -> bool:
        """Whether group ``g``'s seat clashes with no seat taken so far."""
        if g in labelled and any(h in labelled and h != g and group_seat[h] == group_seat[g]
                                 for h in range(len(groups))):
            return False
        return not any(clash(i, j) for i in groups[g] for j in range(n) if j != i)

    def put(g: int, seat: int | None) -> None:
        group_seat[g] = seat
        for i in groups[g]:
            chosen[i] = seat

    def complete(g: int) -> bool:
        if g == len(groups):
            return True
        for seat in range(players):
            put(g, seat)
            if ok(g) and complete(g + 1):
                put(g, None)
                return True
        put(g, None)
        return False

    if any(clash(i, j) for i in range(n) for j in range(i + 1, n)):
        return None
    for g in range(len(groups)):
        fits = []
        for seat in range(players):
            put(g, seat)
            if ok(g) and complete(g + 1):
                fits.append(seat)
        put(g, None)
        if not fits:
            return None
        put(g, fits[0] if src is None else src.choice(fits))
    return [seat for seat in chosen if seat is not None]


def _tokens(src: Source, bag: Counter[str], n: int) -> list[str]:
    """``n`` random tokens out of what the bag still holds (fewer if it runs out)."""
    out = []
    for _ in range(n):
        kinds = sorted((k for k, left in bag.items() if left > 0), key=list(bag).index)
        if not kinds:
            break
        kind = src.choice(kinds)
        bag[kind] -= 1
        out.append(kind)
    return out


def empty_bag(rules: Rules, setup: dict[str, Any], players: int, rng: random.Random) -> None:
    """Empty the bag of a setup, in place: every day left of the voyage laid out in full, and every other
    token dealt round the seats' loot.  A position for words about the bag when it holds nothing."""
    board = rules.board
    left = bag_left(rules, setup)
    declared = [list(day) for day in setup.get("loot", [])]
    days_left = board.voyage_days[setup["voyage"] - 1] - setup["day"] + 1
    per_day = board.loot_per_day_for(players)
    pool = [k for k in rules.kinds for _ in range(max(0, left[k]))]
    rng.shuffle(pool)
    declared += [[] for _ in range(days_left - len(declared))]
    for day in declared:
        while len(day) < per_day and pool:
            day.append(pool.pop())
    setup["loot"] = declared
    seats = setup["players"]
    for i, kind in enumerate(pool):
        seats[i % len(seats)]["loot"].append(kind)


def bag_left(rules: Rules, setup: dict[str, Any]) -> Counter[str]:
    """The tokens a setup leaves in the bag: the board's, less the held and declared ones."""
    left: Counter[str] = Counter(dict(rules.board.bag))
    for seat in setup["players"]:
        left.subtract(seat.get("loot", ()))
    for day in setup.get("loot", ()):
        left.subtract(day)
    return left


def _stand_in(rules: Rules, name: str, seat: dict[str, Any], featured: set[str]) -> str:
    """The character a seat plays instead of ``name`` in its "alone" game.

    The nearest in rank without a sun or dusk ability (so the island keeps its order and no
    other day ability comes in), among those the seat does not hold and nobody features.
    """
    held = {*seat["hand"], *seat["ship"], *seat["graveyard"]}
    free = [c for c in rules.characters if not c.neutral and "#" not in c.name
            and c.name not in held and c.name not in featured]
    if not free:
        raise ValueError(f"no character is left to stand in for {name}")
    rank = rules.rank(name)
    return min(free, key=lambda c: (c.has("sun") or c.has("dusk"), abs(c.rank - rank), c.rank)).name


def _names(wants: Sequence[_Want]) -> str:
    return ", ".join(w.shown() for w in wants)


def _seats(counts: Sequence[int]) -> str:
    return f"{counts[0]} players" if len(counts) == 1 else f"{counts[0]} to {counts[-1]} players"
