"""Moments: the state of a game right after each event of one answer.

One ``game.choose(key)`` can run a whole day, its night and the voyage's end; a property that
looks only at the game it returns sees none of what stood in between.  ``moments(game, key)``
answers the same way and also returns, for every event that answer logged, a ``Moment``: the
event and a read-only view of the game as it stood just after it, mid-ability included::

    after, seen = moments(game, key)
    for m in when(seen, source="Mutineer"):          # each event of a Mutineer's ability
        assert all(p.doubloons >= 0 for p in m.players)

How it works, and why the normal ``choose`` pays nothing for it: the engine appends every event
through one method, ``Work.log``, on the working copy an answer runs on.  ``moments`` runs the
answer on a working copy of a subclass whose ``log`` also freezes the copy (without its packed
log, so nothing the engine reads changes) each time a record is logged; the engine itself has
no hook and no test for one.  When the answer is done the records are read back into typed
events (``engine.journal.records``) and paired with the states in order.  A day's plays and
its reveal are one record: their moments share the state after the reveal.

The step hook of ``testing.contracts`` (``traced``) does not fit this: it wraps the steps of
card programs, so it never sees what the flow logs itself (plays, dusk takes, banking), nor
fixed-doubloon abilities, which run without steps; and it needs other rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from ..engine import journal
from ..engine.driver import answer as _answer
from ..engine.driver import begin as _begin
from ..engine.driver import check_question_budget
from ..engine.specs import Rules
from ..engine.work import Work
from ..errors import IllegalChoice
from ..events import matcher
from ..game import Game, _PublicReading, _timings, new_game
from ..state import Event, GameState, PlayerState

__all__ = ["Moment", "moments", "opening", "when"]


@attrs.frozen(slots=True)
class Moment(_PublicReading):
    """One event of an answer and the game as it stood right after it.

    The game's reading API (``voyage``, ``day``, ``phase``, ``island``, ``day_loot``,
    ``loot_days``, ``players``, ``bag``) reads that state; ``state`` is the frozen state itself,
    abilities under way included (``state.frames``), with no event log (``state.journal`` is
    ``None``: the moments before it are the log).  A moment is a view for properties: it has no
    decision and cannot be answered.
    """

    event: Event
    state: GameState = attrs.field(repr=False)
    rules: Rules = attrs.field(repr=False, eq=False)

    @property
    def _public(self) -> GameState:
        return self.state

    @property
    def _rules(self) -> Rules:
        return self.rules

    @property
    def players(self) -> tuple[PlayerState, ...]:
        return self.state.seats

    @property
    def bag(self) -> dict[str, int]:
        """Tokens in the bag by kind, as ``Game.bag``."""
        return dict(self.state.bag)

    def __str__(self) -> str:
        return f"after {self.event}: voyage {self.voyage}, day {self.day} ({self.phase})"


class _Watched(Work):
    """A working copy that freezes itself each time the engine logs a record (markers aside)."""

    __slots__ = ("states",)

    def __init__(self, rules: Rules, s: GameState) -> None:
        super().__init__(rules, s)
        self.states: list[GameState | None] = []

    def log(self, template: int, *args: object) -> None:
        before = len(self.journal) if self.journal is not None else 0
        Work.log(self, template, *args)
        if self.journal is None:
            return
        for logged, _ in self.journal[before:]:  # the record, and a VIA marker before it (a borrowed text's)
            if logged in journal.MARKERS:
                self.states.append(None)
                continue
            pending, self.journal = self.journal, None  # a snapshot without the log: nothing is packed early
            try:
                self.states.append(self.freeze())
            finally:
                self.journal = pending


def moments(game: Game, key: str) -> tuple[Game, tuple[Moment, ...]]:
    """``game.choose(key)``, and a ``Moment`` for every event the answer logged, in order.

    The game returned equals ``game.choose(key)``; ``game`` is unchanged.  A key that was not
    offered raises ``IllegalChoice`` as ``choose`` does; a game started with ``log=False`` has
    no events to see and raises ``ValueError``.
    """
    if not isinstance(game, Game):
        raise TypeError(f"moments: game is a Game (lt.new_game(...)), not {type(game).__name__}")
    d = game.decision
    if d is None or key not in d.keys():  # noqa: SIM118 - Decision.keys() returns a tuple
        raise IllegalChoice(key, game.legal_keys(), d.prompt if d else "")
    s = game.state
    if s.journal is None:
        raise ValueError("moments: the game keeps no event log; start it with lt.new_game(..., log=True)")
    rules = game.rules
    check_question_budget(rules, s.players, len(s.history), d, s)
    return _watched(rules, s, lambda w: _answer(w, key))


def opening(rules: Rules, players: int, seed: int = 0, setup: Any = None,
            **options: Any) -> tuple[Game, tuple[Moment, ...]]:
    """``new_game(rules, players, seed, setup, ...)``, and a ``Moment`` for every event it logged.

    A new game runs on until someone is asked something: a declared position whose seats each
    hold one card plays its whole day, its night and perhaps the anchor before ``new_game``
    returns, and ``moments`` of the first answer would miss all of it.  The game returned equals
    ``new_game``'s; ``options`` are its keywords (``handicap``; ``log=False`` raises ``ValueError``).
    """
    if options.get("log", True) is not True:
        raise ValueError("opening: the game keeps no event log with log=False; leave log out")
    game = new_game(rules, players, seed, setup, **options)
    rules, start = game.rules, game._base  # the rules for this seed (a solo game's), and the state before anything ran
    return _watched(rules, start, lambda w: _begin(rules, start, w))


def _watched(rules: Rules, s: GameState, run: Any) -> tuple[Game, tuple[Moment, ...]]:
    """Run ``run`` on a watching working copy of ``s``; the game it reaches and the moments of what it logged."""
    assert s.journal is not None
    w = _Watched(rules, s)
    run(w)
    after = w.freeze()
    assert after.journal is not None
    seen: list[Moment] = []
    logged = journal.records(after.journal, rules.lexicon, after.players, _timings(rules), len(s.journal))
    for events, state in zip(logged, w.states, strict=True):
        if state is not None:
            seen.extend(Moment(event, state, rules) for event in events)
    return Game(rules, after), tuple(seen)


def when(seen: Iterable[Moment], **filters: Any) -> tuple[Moment, ...]:
    """The moments whose event matches every filter given: ``events.select``'s filters, same rules.

    ``when(seen, source="Mutineer")`` is the state after each event of a Mutineer's ability;
    ``when(seen, type=Discarded, target_seat=2)`` after each discard of a seat 2 card.
    """
    test = matcher("when", **filters)
    return tuple([m for m in seen if test(m.event)])
