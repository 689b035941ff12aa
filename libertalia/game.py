"""The public ``Game``: an immutable value with a pure ``choose``."""

from __future__ import annotations

import base64
import json
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import attrs

from . import _args, saves
from . import pickling as _pickling  # noqa: F401 - imported for its effect: rules pickle as their load arguments
from ._glance import PHASES as _PHASES
from ._glance import Glance as _Glance  # compiled with the engine: the env reads one at every step
from ._glance import glance as _glance_of
from .engine import flow, journal, rng
from .engine.driver import LiveAnswers as _LiveAnswers
from .engine.driver import answer as _answer
from .engine.driver import answer_within_budget as _answer_within_budget
from .engine.driver import begin as _begin
from .engine.driver import check_offered as _check_offered
from .engine.driver import check_question_budget as _check_question_budget
from .engine.setup import initial_state
from .engine.specs import Rules
from .engine.work import Work
from .errors import ArgumentError, GameNotOver, SetupError, UnverifiedSoloWarning
from .state import (
    CardRef,
    Decision,
    Event,
    GameState,
    PlayerState,
)

if TYPE_CHECKING:
    import random

SAVE_FORMAT = saves.SAVE_FORMAT
_T = TypeVar("_T")


class Agent(Protocol):
    """A player that answers decisions: anything with ``choose(observation, decision) -> key``.

    It sees only its own seat's ``Observation``.  Declared here, beside the observation it is
    given and the ``play_out`` that asks it; ``libertalia.agents`` offers it with the library's
    own agents.
    """

    def choose(self, observation: Observation, decision: Decision) -> str: ...


def new_game(rules: Rules, players: int, seed: int = 0, setup: Mapping[str, Any] | None = None,
             *, log: bool = True, handicap: Mapping[int, int] | None = None) -> Game:
    """A game at its first decision: the start of voyage 1, or a declared position.

    Uncharted loot sides are drawn here, from ``seed``: ``game.rules.loot_sides`` shows them.
    ``players=1`` is the solo game against Automa (seat 1) and the Pilferer, with the
    board's solo tiles.  ``handicap`` gives seats extra doubloons at the start, such as
    ``{0: 10}`` to make a solo game easier or ``{1: 10}`` to make it harder.
    ``log=False`` keeps no event log (``events`` stays empty), for bulk play where nobody
    reads it; everything else about the game is the same.

    ``players``, ``seed``, ``setup`` and ``handicap`` that do not make a game raise ``SetupError``;
    ``rules`` that are no ``Rules`` and a ``log`` that is not ``True`` or ``False``, ``TypeError``.
    """
    _args.instance(rules, Rules, "new_game", "rules", "the Rules of lt.load_rules")
    _args.flag(log, "new_game", "log")
    problem = rng.seed_problem(seed)
    if problem is not None:
        raise SetupError(problem)
    rules = rules.for_game(seed)
    solo = rules.board.solo
    if players == 1 and solo is not None:
        rules = rules.for_solo()
        guessed = sum(not card.verified for card in solo.deck)
        if guessed:
            warnings.warn(UnverifiedSoloWarning(
                f"{guessed} of the {len(solo.deck)} solo cards are constructions, not the "
                "printed values (see docs/solo.md)"), stacklevel=2)
    start = initial_state(rules, players, seed, setup, handicap)
    if not log:
        start = attrs.evolve(start, journal=None)
    return Game._owning(rules, _begin(rules, start), None, start)


class _LiveState:
    """The reading side of a ``GameState``, read straight from a working copy (``play_out``).

    Agents that look at little pay little: each field is built when read.
    """

    __slots__ = ("_base", "_game", "_w")

    def __init__(self, w: Work, base: GameState) -> None:
        self._w = w
        self._base = base  # the frozen state ``w`` was built from: with its history, the game so far
        self._game: Game | None = None

    def game(self) -> Game:
        """The game as it stands, as a ``Game`` of its own: what a search bot samples from.

        Rebuilt from the base state and the answers so far (the working copy itself is in the
        middle of a step and keeps running for ``play_out``), once per question.
        """
        w = self._w
        game = self._game
        if game is None or game._asked != len(w.history):
            game = Game.__new__(Game)
            _init(game, w.rules, None, w.decision, self._base, list(w.history), len(w.history), None)
            self._game = game
        return game

    @property
    def rules(self) -> Rules:
        return self._w.rules

    @property
    def voyage(self) -> int:
        return self._w.voyage

    @property
    def day(self) -> int:
        return self._w.day

    @property
    def step(self) -> str:
        return self._w.step

    @property
    def island(self) -> tuple[CardRef, ...]:
        return tuple(self._w.island)

    @property
    def days(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(d) for d in self._w.days)

    @property
    def events(self) -> tuple[Event, ...]:
        w = self._w
        return _events(w.rules, w.journal_bytes(), w.n)

    @property
    def state(self) -> _LiveState:
        return self

    @property
    def seats(self) -> tuple[PlayerState, ...]:
        return self._w.freeze_seats()

    @property
    def decision(self) -> Decision | None:
        return self._w.decision

    @property
    def commits(self) -> tuple[str | None, ...]:
        return tuple(self._w.commits)

    @property
    def automa(self) -> int | None:
        return self._w.automa

    @property
    def solo_deck(self) -> tuple[str, ...]:
        return tuple(self._w.solo_deck)


class _PublicReading:
    """The reading API that a game and a seat's observation share: nothing here is secret."""

    __slots__ = ()

    @property
    def _public(self) -> GameState:
        raise NotImplementedError

    @property
    def _rules(self) -> Rules:
        raise NotImplementedError

    @property
    def voyage(self) -> int:
        return self._public.voyage

    @property
    def day(self) -> int:
        return self._public.day

    @property
    def phase(self) -> str:
        return _PHASES[self._public.step]

    @property
    def island(self) -> tuple[CardRef, ...]:
        return self._public.island

    @property
    def automa(self) -> int | None:
        """Automa's seat in a solo game (seat 1), else ``None``; the Pilferer's cards have no seat."""
        return self._public.automa

    @property
    def solo_deck_size(self) -> int:
        """Solo cards left in the deck (0 outside a solo game)."""
        return len(self._public.solo_deck)

    @property
    def solo_top_picks(self) -> tuple[tuple[str, int], ...]:
        """The picks printed on the back of the top solo card, which lies face down in view (S5).

        Empty outside a solo game or with the deck empty.  Each pick is a direction and a count,
        as the board's solo deck lists them; which one applies depends on today's loot.
        """
        s = self._public
        solo = self._rules.board.solo if s.automa is not None else None
        deck = s.solo_deck
        return solo.card(deck[0]).picks if solo is not None and deck else ()

    @property
    def day_loot(self) -> tuple[str, ...]:
        s = self._public
        return s.days[s.day - 1] if 0 < s.day <= len(s.days) else ()

    @property
    def loot_days(self) -> tuple[tuple[str, ...], ...]:
        """Loot waiting on every day of this voyage (earlier days are empty)."""
        return self._public.days



class Game(_PublicReading):
    """A game between two decisions: an immutable value whose ``choose`` returns a new one.

    Snapshots are lazy (design.md §4).  The newest game of a line of ``choose`` calls owns
    the working copy the engine runs on, so answering it goes on from where the engine
    stopped, with nothing frozen or thawed.  A game whose working copy has moved on to its
    successor keeps an earlier frozen state and the answers given since, and rebuilds its
    own state from them the first time anyone reads it (or branches from it).  Either way
    every game reads, compares, hashes and saves exactly as if it had been frozen at once.
    """

    # ``decision`` is a slot read straight from the instance (no property call): a ``choose()`` loop reads
    # it at every answer, and ``__setattr__`` keeps it as read-only as the rest.
    __slots__ = ("rules", "decision", "_state", "_base", "_history", "_asked", "_live")

    rules: Rules
    _state: GameState | None  # frozen, once built
    decision: Decision | None  # the question this game waits for (``None`` once it is over)
    _base: GameState  # an earlier state of this game (or its own) ...
    _history: list[str] | None  # ... and a list whose first ``_asked`` keys lead from it to this game
    _asked: int
    _live: list[Work] | None  # holds the working copy while it stands at this game (a list: ``pop`` is atomic)

    def __init__(self, rules: Rules, state: GameState) -> None:
        """The game at a frozen ``state`` (``game.state``, a sampled world) under ``rules``."""
        _args.instance(rules, Rules, "Game", "rules", "the Rules of lt.load_rules")
        _args.instance(state, GameState, "Game", "state", "a GameState (such as game.state)")
        problem = rng.seed_problem(state.seed)
        if problem is not None:
            raise ArgumentError(f"Game: state.seed: {problem}")
        _init(self, rules, state, state.decision, state, None, len(state.history), None)

    @classmethod
    def _frozen(cls, rules: Rules, state: GameState) -> Game:
        """``Game(rules, state)`` for a state the engine made itself: nothing to check."""
        game = cls.__new__(cls)
        _init(game, rules, state, state.decision, state, None, len(state.history), None)
        return game

    @classmethod
    def _owning(cls, rules: Rules, w: Work, state: GameState | None, base: GameState | None = None) -> Game:
        """The game ``w`` stands at, owning ``w``; frozen as ``state`` if that is known."""
        game = cls.__new__(cls)
        _init(game, rules, state, w.decision, state or base, w.history, len(w.history), [w])
        return game

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.state == other.state

    def __hash__(self) -> int:
        return hash(self.state)

    # ------------------------------------------------------------ copies and pickles
    def __copy__(self) -> Game:
        """The game itself: it is an immutable value (``choose`` returns a new one), so a copy could
        never differ from it, and sharing it is what passing it around does already."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """The game itself, as ``copy.copy``: its parts are immutable too (its rules, its state)."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its rules and its frozen state, which unpickle to a game equal to this one that
        plays on identically; the rules pickle as their load arguments (``libertalia.pickling``)."""
        return _unpickled_game, (self.rules, self.state)

    def __repr__(self) -> str:
        """Short: ``<Game galecrest, 4 players, seed 7: voyage 1, day 1 (select), seat 0 to answer play_character>``."""
        s = self.state
        seats = "solo" if s.automa is not None else f"{s.players} players"
        head = f"<Game {self.rules.board.edition}, {seats}, seed {s.seed}: "
        if self.is_over:
            return head + "over, scores " + ", ".join(map(str, self.final_scores())) + ">"
        return head + f"voyage {s.voyage}, day {s.day} ({self.phase}){_waiting(self.decision)}>"

    def render(self, seat: int | None = None, *, width: int = 100) -> str:
        """The table as ``libertalia play`` shows it, as plain text, seen by ``seat``.

        ``seat`` defaults to the seat being asked (seat 0 once the game is over); other seats'
        hands are hidden, as on the command line.  ``str(game)`` is ``game.render()``.
        """
        import io

        from rich.console import Console  # imported here: ``import libertalia`` stays quick

        from .tableview import table_view

        if seat is None:
            seat = self.decision.player if self.decision is not None else 0
        else:
            seat = _args.seat(seat, self._base.players, "render")
        if _args.whole(width, "render", "width") < 1:
            raise ArgumentError(f"render: width is a number of characters, 1 or more, not {width}")
        out = io.StringIO()
        # force_jupyter=False: inside a Jupyter kernel rich would otherwise send the table to the
        # notebook as a side effect and leave ``out`` empty (so ``str(game)`` would be "").
        Console(file=out, width=width, color_system=None, force_terminal=False, force_jupyter=False,
                force_interactive=False, highlight=False, emoji=False, soft_wrap=True).print(table_view(self, seat))
        return "\n".join(line.rstrip() for line in out.getvalue().splitlines())

    def __str__(self) -> str:
        return self.render()

    def _repr_html_(self) -> str:
        """The game in a notebook: its repr as a heading, then the picture (``svg``), once.

        The only ``_repr_*_`` a game has, so a notebook shows one table and computes it once;
        ``print(game)`` gives the text table (``render``)."""
        import html

        return f"<pre>{html.escape(repr(self))}</pre>\n<div>{self.svg()}</div>"

    def svg(self, seat: int | None = None) -> str:
        """The table as an SVG picture (``libertalia.pictures``): the whole table, every hand and
        secret pick shown, or with ``seat`` only what that seat sees (``observation(seat).svg()``)."""
        from .pictures import table_svg  # here: ``import libertalia`` stays quick

        if seat is None:
            return table_svg(self.rules, self, picks=self._public.commits, decision=self.decision,
                             last=self._last_step(), winners=self.winners() if self.is_over else ())
        return self.observation(seat).svg()

    def _last_step(self) -> tuple[Event, ...]:
        """The events of the last answer's step: those logged since the game stood at its last question
        (none at the start, or with the log off).  The game is played again from its seed, setup and
        answers to that question, so this costs a replay: for pictures, not for bots."""
        s = self.state
        if not s.history or s.journal is None:
            return ()
        try:
            start = initial_state(self.rules, 1 if s.automa is not None else s.players, s.seed,
                                  None if s.setup is None else json.loads(s.setup), dict(enumerate(s.handicap)) or None)
            w = _begin(self.rules, start)
            for key in s.history[:-1]:
                _answer(w, key)
            before = w.journal_bytes()
        except Exception:  # a state the engine did not reach by playing (a sampled world): nothing to mark
            return ()
        if before is None or not s.journal.startswith(before):
            return ()
        return _events(self.rules, s.journal, s.players, start=len(before))

    @property
    def state(self) -> GameState:
        """The frozen state: built on first reading when this game's snapshot was deferred."""
        s = self._state
        if s is None:
            w = self._claim()
            if w is None:
                s = self._replay().freeze()
            else:
                try:
                    s = w.freeze()
                finally:
                    if self.decision is not None:  # a finished game needs no working copy again
                        self._live.append(w)  # type: ignore[union-attr]  # still this game's
            # Only ``_state`` is set: ``_base`` and ``_history`` stay as they were, so that a
            # thread rebuilding this game meanwhile (``_replay``) never reads one of them new
            # and the other old (an earlier base with no answers after it is a wrong game).
            _set(self, "_state", s)
        return s

    def _claim(self) -> Work | None:
        """The working copy standing at this game, taken over (``None`` if it has moved on)."""
        live = self._live
        if live:
            try:
                return live.pop()
            except IndexError:  # another thread took it first
                return None
        return None

    def _glance(self, seat: int, read: Callable[[_Glance], _T]) -> _T | None:
        """``read`` of ``seat``'s ``_Glance`` at this game, or ``None`` when no working copy stands here.

        The env's fast ``observe``: freezing the whole state (every seat, the packed log) to encode
        one seat's vector costs more than the encoding.  The working copy is claimed for the call,
        as ``state`` claims it, so no other thread changes it meanwhile (one that answers this game
        then rebuilds it from the earlier state, as it does whenever the copy has moved on), and it
        is always put back: the game stays unfrozen and goes on from it.
        """
        w = self._claim()
        if w is None:
            return None
        try:
            return read(_glance_of(w, self.decision, seat))
        finally:
            self._live.append(w)  # type: ignore[union-attr]  # still this game's

    def _packed_log(self) -> bytes | None:
        """The packed event log so far, read off the working copy standing here when there is one
        (as ``_glance`` reads it), so that nothing else is frozen; ``None`` for a game without a log."""
        s = self._state
        if s is not None:
            return s.journal
        w = self._claim()
        if w is None:
            return self.state.journal
        try:
            return w.journal_bytes()
        finally:
            self._live.append(w)  # type: ignore[union-attr]  # still this game's

    def _log_mark(self) -> int:
        """Where the packed log ends now (0 without one): ``_logged`` reads the events between two marks.

        ``libertalia.spiel`` marks each step with it and writes the step's sentences only when an
        information state asks for them: ``events_since`` at every step froze the whole game."""
        packed = self._packed_log()
        return 0 if packed is None else len(packed)

    def _logged(self, start: int, end: int) -> tuple[Event, ...]:
        """The events logged between two ``_log_mark``s of this game or of earlier points of it
        (``events_since`` between those points, read off this game's log)."""
        packed = self._packed_log()
        if not packed or end <= start:
            return ()
        return _events(self.rules, packed[:end], self._base.players, start=start)

    def _replay(self) -> Work:
        """A working copy at this game, rebuilt from its earlier state and the answers since.

        The earlier state is a decision, or the starting state of ``new_game`` (no decision
        yet and not over), which is begun again first.
        """
        base = self._base
        w = _begin(self.rules, base) if base.decision is None and base.step != "over" else Work(self.rules, base)
        if self._history is not None:
            for key in self._history[len(base.history):self._asked]:
                _answer(w, key)
        w.decision = self.decision
        return w

    def _work(self) -> tuple[Work, GameState]:
        """A working copy at this game that only the caller will touch, and a frozen state it
        can be rebuilt from (with the answers it records from then on)."""
        w = self._claim()
        if w is not None:
            return w, self._state if self._state is not None else self._base
        s = self.state
        return Work(self.rules, s), s

    # ------------------------------------------------------------ playing
    def legal_keys(self) -> tuple[str, ...]:
        d = self.decision
        return d.keys() if d is not None else ()

    def choose(self, key: str) -> Game:
        """Answer the current decision; raises ``IllegalChoice`` (this game unchanged)."""
        d = _check_offered(self.decision, key)
        w = self._claim()
        if w is None:
            s = self.state
            _check_question_budget(self.rules, s.players, self._asked, d, s)
            if d.kind == "play_character" and s.step == "select" and not s.frames:
                # A secret pick that is not the last one only records the pick and asks the
                # next seat: done on the frozen state, without thawing the whole game.
                commits = list(s.commits)
                commits[d.player] = key
                commits, seat = flow.forced_commits([p.hand for p in s.seats], commits, s.automa)
                if seat is not None:
                    question = flow.selection_question(self.rules, seat, s.seats[seat].hand)
                    return Game._frozen(self.rules, attrs.evolve(s, commits=tuple(commits), decision=question,
                                                                 history=s.history + (key,)))
            w = Work(self.rules, s)
            base = s
            _answer(w, key)
        else:
            base = self._state if self._state is not None else self._base
            _answer_within_budget(w, d, self._asked, key)
        # The new game owns ``w``, as ``_owning`` makes it (without the classmethod's hop: the hottest path of a
        # ``choose()`` loop).
        game = _new(Game)
        _init(game, self.rules, None, w.decision, base, w.history, len(w.history), [w])
        return game

    def play_out(self, agents: Sequence[Agent]) -> Game:
        """Play on to the end with one agent per seat; the final game, as ``choose`` would reach it.

        The game runs on one private working copy, with no frozen snapshot per decision
        (design.md §4): agents receive the real ``Decision`` and a read-only observation
        that is valid during their ``choose`` call.  The result is identical, bit for bit,
        to answering the same keys with ``choose``.  An agent's illegal key raises
        ``IllegalChoice`` naming its seat; this game is unchanged either way.

        ``agents`` is a list or tuple with an agent for every seat (in a solo game, for seat 0;
        one for Automa's seat may follow and is never asked): another count raises
        ``ArgumentError``, and anything that is not an agent ``TypeError``.
        """
        _check_agents(agents, self._base, "play_out")
        d = self.decision
        if d is None:
            return self
        w, base = self._work()
        live = _LiveState(w, base)
        # One view per seat for the whole game: each reads the working copy as it stands.
        views = [Observation(live, seat) for seat in range(w.n)]
        # The library's own bots answer with an offered key by construction: not checked again.
        checked = [type(agent).__dict__.get("answers_from_options") is not True for agent in agents]
        answer = _LiveAnswers(w, agents, views, checked)

        # The pending question resumes the suspended step; every later one is answered where
        # it is asked (``Work.answerer``), so no step is suspended and re-run.
        w.decision = d
        key = answer.decide(d)
        w.history.pop()  # ``_answer`` records it
        w.answerer = answer
        _answer(w, key)
        w.answerer = None
        # The final game owns the working copy, like the newest game of a choose() line: it is
        # frozen when first read (its state, events or a save), not here; scores and winners
        # read it without freezing (``players``).
        return Game._owning(self.rules, w, None, base)

    # ------------------------------------------------------------ reading
    @property
    def _public(self) -> GameState:
        return self.state

    @property
    def _rules(self) -> Rules:
        return self.rules

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, oldest first: typed events (``libertalia.events``) whose
        ``str()`` is a sentence (empty for a game started with ``log=False``)."""
        return _events(self.rules, self.state.journal, self.state.players)

    def events_since(self, earlier: Game) -> tuple[Event, ...]:
        """The events logged after ``earlier``, a game this one was reached from by answering.

        ``game.events_since(before) == game.events[len(before.events):]``, without reading
        what came before twice.  Raises ``ValueError`` when ``earlier`` is not an earlier
        point of this game: other rules, seed or seats, answers that are not the start of
        this game's, or a log that is not the start of this one's.
        """
        if not isinstance(earlier, Game):
            raise TypeError(f"events_since takes a Game, not {type(earlier).__name__}")
        mine, theirs = self.state, earlier.state
        why = _not_ancestor(self.rules, mine, earlier.rules, theirs)
        if why:
            raise ValueError(f"events_since: the earlier game is not an earlier point of this one ({why})")
        if mine.journal is None or theirs.journal is None:
            return ()
        return _events(self.rules, mine.journal, mine.players, start=len(theirs.journal))

    def _where(self) -> tuple[int, int, str]:
        """(voyage, day, step) without a snapshot: what bots' look-aheads check after each step.

        Read off the working copy while it stands here; if it was taken (``choose`` from
        another thread) before the read was confirmed, from the frozen state instead.
        """
        live = self._live
        if self._state is None and live:
            try:
                w = live[0]
                where = (w.voyage, w.day, w.step)
                if live and live[0] is w:  # still here after reading, so read before any change
                    return where
            except IndexError:
                pass
        s = self.state
        return s.voyage, s.day, s.step

    @property
    def is_over(self) -> bool:
        s = self._state
        return s.step == "over" if s is not None else self.decision is None

    @property
    def players(self) -> tuple[PlayerState, ...]:
        live = self._live
        if self._state is None and self.decision is None and live:
            # A finished game still holding its working copy (``play_out``'s result) reads its
            # seats from it: scores and winners need no snapshot and no packed log.  Nobody
            # answers a finished game, so the working copy no longer changes.
            try:
                return live[0].freeze_seats()
            except IndexError:  # frozen meanwhile by another thread
                pass
        return self.state.seats

    @property
    def bag(self) -> dict[str, int]:
        """Tokens left in the bag by kind (kinds with none left included, as 0)."""
        return dict(self.state.bag)

    @property
    def history(self) -> tuple[str, ...]:
        """Every answer given since the game began: with the rules and seed, the whole game."""
        if self._state is None and self._history is not None:
            return tuple(self._history[:self._asked])
        return self.state.history

    def final_scores(self) -> tuple[int, ...]:
        """Each seat's score once the game is over; ``GameNotOver`` before (running scores are in ``players``)."""
        self._require_over("final_scores")
        return tuple(p.score for p in self.players)

    def winners(self) -> tuple[int, ...]:
        """R26: highest score; ties go to the higher reputation unless shared.  ``GameNotOver`` before the end."""
        self._require_over("winners")
        seats = self.players
        best = max(p.score for p in seats)
        tied = [p.seat for p in seats if p.score == best]
        if self.rules.board.winner_tie == "shared" or len(tied) == 1:
            return tuple(tied)
        return (max(tied, key=lambda i: seats[i].reputation),)

    def _require_over(self, what: str) -> None:
        """Scores mid-game are not final: say where the game stands and how to finish it, rather than answer."""
        if self.is_over:
            return
        voyage, day, step = self._where()
        d = self.decision
        who = f"; seat {d.player} is to answer {d.kind!r}" if d is not None else ""
        raise GameNotOver(
            f"{what}() needs a finished game, but this one is still in voyage {voyage}, day {day}, "
            f"phase {_PHASES.get(step, step)!r}{who}. Finish it first: game = game.play_out(agents), "
            f"one agent per seat (such as libertalia.agents.RandomAgent(seed)), or keep answering "
            f"with game = game.choose(key) until game.is_over is True.")

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: others' hands, graveyards, picks and the seed hidden.

        ``seat`` is a whole number from 0 to the seat count less one (Automa's seat 1 in a solo
        game too); anything else raises ``ArgumentError``, or ``TypeError`` for a non-integer.
        """
        return Observation(self, _args.seat(seat, self._base.players, "observation"))

    # ------------------------------------------------------------ saving
    @property
    def seed(self) -> int:
        """The seed the game was started with: with the rules, setup and ``history``, the whole game."""
        return self._base.seed

    def to_json(self) -> str:
        """Exact, versioned state: with ``from_json`` it round-trips mid-ability.

        The save names its rules (edition and loot sides, a fingerprint of their files and the
        library version) and its random generator, so that it never loads under others.
        """
        payload = {
            "format": SAVE_FORMAT,
            "rules": saves.rules_stamp(self.rules),
            "rng": {"name": rng.RNG_NAME, "version": rng.RNG_VERSION},
            "state": _encode(self.state),
        }
        return json.dumps(payload, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str, rules: Rules) -> Game:
        """The saved game, checked against ``rules`` first (see ``libertalia.saves``).

        Raises ``SaveError`` (a ``ValueError``), and nothing else, for a save that is not
        JSON, is damaged or inconsistent anywhere, or was made with rules that now load
        differently; its message names the field, such as ``state.seats[2].hand[0]``.
        ``rules`` that are no ``Rules`` raise ``TypeError``.
        """
        _args.instance(rules, Rules, "Game.from_json", "rules", "the Rules of lt.load_rules")
        return cls(*saves.load_game(text, rules))


_set = object.__setattr__
_new = object.__new__


def _unpickled_game(rules: Rules, state: GameState) -> Game:
    """A game from its pickle: its rules and state (a pickle is the user's own, so nothing is checked)."""
    return Game._frozen(rules, state)


def _check_agents(agents: object, start: GameState, where: str) -> None:
    """One agent per seat that can be asked (Automa's seat may have one, never asked)."""
    if not isinstance(agents, list | tuple):
        raise _args.wrong_type(where, "agents", "a list or tuple of agents, one per seat", agents)
    seats = start.players
    counts = (seats - 1, seats) if start.automa is not None else (seats,)
    if len(agents) not in counts:
        wanted = "1 (you; Automa plays by her own rules)" if start.automa is not None else str(seats)
        raise ArgumentError(f"{where}: agents: one agent per seat, {wanted} for this game, not {len(agents)}")
    for i, agent in enumerate(agents):
        if not callable(getattr(agent, "choose", None)):
            raise _args.wrong_type(where, f"agents[{i}]", "an agent (with a choose(observation, decision) method)",
                                   agent)


# One setter per slot of ``Game``, as ``engine.work.new_decision`` builds a ``Decision``: a slot's own
# descriptor writes it a third faster than ``object.__setattr__`` (which first finds the descriptor by
# name), and a ``choose()`` loop builds a game at every answer.
_SET_RULES, _SET_STATE, _SET_DECISION, _SET_BASE, _SET_HISTORY, _SET_ASKED, _SET_LIVE = (
    Game.__dict__[name].__set__ for name in ("rules", "_state", "decision", "_base", "_history", "_asked", "_live"))


def _init(game: Game, rules: Rules, state: GameState | None, decision: Decision | None, base: GameState | None,
          history: list[str] | None, asked: int, live: list[Work] | None) -> None:
    _SET_RULES(game, rules)
    _SET_STATE(game, state)
    _SET_DECISION(game, decision)
    _SET_BASE(game, base)
    _SET_HISTORY(game, history)
    _SET_ASKED(game, asked)
    _SET_LIVE(game, live)


def _waiting(d: Decision | None) -> str:
    """Whose decision a game waits for, for a repr."""
    return f", seat {d.player} to answer {d.kind}" if d is not None else ""


def _events(rules: Rules, packed: bytes | None, players: int, start: int = 0) -> tuple[Event, ...]:
    return journal.decode(packed, rules.lexicon, players, _timings(rules), start) if packed else ()


_TIMINGS: dict[int, tuple[Rules, dict[str, str]]] = {}
_TIMINGS_KEPT = 64
"""Rules whose sources' timings are remembered (``_timings``) before the memo starts afresh."""


def _timings(rules: Rules) -> dict[str, str]:
    """The one timing of each source (card, marked card or loot kind) whose abilities that act
    all have the same: an event of theirs has that timing in any phase (``journal.decode``)."""
    kept = _TIMINGS.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    by_source: dict[str, set[str]] = {}
    for source, abilities in rules.sources.items():
        by_source[source[2:]] = {c.timing for c in abilities if not c.passive}
    timings = {name: next(iter(found)) for name, found in by_source.items() if len(found) == 1}
    if len(_TIMINGS) >= _TIMINGS_KEPT:
        _TIMINGS.clear()
    _TIMINGS[id(rules)] = (rules, timings)
    return timings


def _not_ancestor(rules: Rules, later: GameState, earlier_rules: Rules, earlier: GameState) -> str:
    """Why ``earlier`` cannot be an earlier point of the game now at ``later`` ("" if it can be)."""
    if earlier_rules is not rules and earlier_rules.identity != rules.identity:
        return f"rules {earlier_rules.identity}, not {rules.identity}"
    if (earlier.seed, earlier.players) != (later.seed, later.players):
        return f"seed {earlier.seed} with {earlier.players} seats, not seed {later.seed} with {later.players}"
    if later.history[:len(earlier.history)] != earlier.history:
        return (f"its {len(earlier.history)} answers are not the first of this game's "
                f"{len(later.history)}")
    if (earlier.journal is None) != (later.journal is None):
        return "one of the two keeps no event log"
    if earlier.journal is not None and later.journal is not None and not later.journal.startswith(earlier.journal):
        return "its event log is not the start of this game's"
    return ""


class Observation(_PublicReading):
    """A seat's view of a game: the ``Game`` reading API minus what it may not see.

    A view, not a copy: making one is free and each field is worked out when
    read, so bots that look at little pay little.
    """

    __slots__ = ("_source", "seat")

    def __init__(self, source: Game | _LiveState, seat: int) -> None:
        if isinstance(source, Game):
            seats = source._base.players  # the seat count never changes: no need to build the state
        elif isinstance(source, _LiveState):
            seats = source._w.n
        else:
            raise _args.wrong_type("Observation", "source", "a Game", source)
        self._source = source
        self.seat = _args.seat(seat, seats, "Observation")

    @property
    def _public(self) -> GameState:
        return self._source.state  # type: ignore[return-value]  # a _LiveState reads like one

    @property
    def _rules(self) -> Rules:
        return self._source.rules

    # ------------------------------------------------------------ comparing, copies and pickles
    def _viewed(self) -> Game:
        """The game this observation views; inside ``play_out``, the game as it stands now."""
        source = self._source
        return source if isinstance(source, Game) else source.game()

    def _seen(self) -> tuple[Any, ...]:
        """Everything this view shows, and nothing it hides: what observations compare by."""
        view = self.__copy__()  # a view of a Game, which a view inside ``play_out`` is not
        s = view._public
        return (view.seat, s.voyage, s.day, view.phase, s.island, s.days, s.automa, len(s.solo_deck),
                view.solo_top_picks, view.players, view.decision, view.committed, s.journal)

    def __eq__(self, other: object) -> bool:
        """Whether two observations show the same: the same seat's view of the same rules, table, log
        and question.  Two games that differ only in what the seat cannot see give equal observations,
        so comparing them tells an agent nothing hidden."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Observation)
        return self._rules == other._rules and self._seen() == other._seen()

    def __hash__(self) -> int:
        return hash((self._rules.identity, self._seen()))

    def __copy__(self) -> Observation:
        """A view of a game is as immutable as the game (itself); a view inside ``play_out``, which
        follows the game as it goes on, copies to a view of the game as it stands now."""
        return self if isinstance(self._source, Game) else Observation(self._source.game(), self.seat)

    def __deepcopy__(self, memo: dict[int, Any]) -> Observation:
        return self.__copy__()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the seat and the game it views (inside ``play_out``, the game as it stands now).

        The game is whole, hidden parts included (``sample_game`` draws from it), so the pickle of an
        observation holds what its seat may not see: send it only where the game itself may go.
        """
        return Observation, (self._viewed(), self.seat)

    def __repr__(self) -> str:
        """Short: ``<Observation by seat 0: voyage 1, day 1 (select), seat 0 to answer play_character>``."""
        return (f"<Observation by seat {self.seat}: voyage {self.voyage}, day {self.day} ({self.phase})"
                f"{_waiting(self.decision)}>")

    def svg(self) -> str:
        """This seat's view of the table as an SVG picture: others' hands and picks stay hidden
        (a seat that has picked today shows as such, without the card)."""
        from .pictures import table_svg  # here: ``import libertalia`` stays quick

        mine = self._public.commits[self.seat]
        picks = tuple(mine if i == self.seat else chosen for i, chosen in enumerate(self.committed))
        game = self._viewed()
        # The last step's events are public (they never name a hidden card), and so is when a seat answered.
        return table_svg(self._rules, self, self.seat, picks=picks, decision=self.decision, last=game._last_step(),
                         winners=game.winners() if game.is_over else ())

    def _repr_svg_(self) -> str:
        return self.svg()

    @property
    def events(self) -> tuple[Event, ...]:
        # Events never name a hidden card, in their text or fields (``Work.put``): shared as they are.
        return self._source.events

    @property
    def players(self) -> tuple[PlayerState, ...]:
        """Every seat; another's hand and graveyard hidden (Automa's hand lies open, solo)."""
        automa = self._public.automa
        return tuple(
            p if p.seat in (self.seat, automa) else PlayerState(
                p.seat, p.doubloons, p.score, p.reputation, ("?",) * len(p.hand), p.ship,
                ("?",) * len(p.graveyard), p.loot, p.kept, p.kept_loot, p.removed)
            for p in self._public.seats
        )

    @property
    def decision(self) -> Decision | None:
        d = self._source.decision
        if d is not None and d.player != self.seat:
            return Decision(d.player, d.kind, (), f"waiting for seat {d.player}", d.source)
        return d

    @property
    def committed(self) -> tuple[bool, ...]:
        """Which seats have chosen today's character (not what they chose)."""
        return tuple(c is not None for c in self._public.commits)

    def sample_game(self, rng: random.Random) -> Game:
        """A whole game this seat cannot tell from the real one, its hidden parts drawn from ``rng``.

        For search bots: others' unrevealed picks, what the log cannot pin down of their hands
        (a Surgeon's secret pick), the seed and the solo deck's order are drawn again;
        everything this seat saw is kept (``libertalia.engine.sampling`` says what, and why).
        ``rng`` is the caller's ``random.Random``: the same state gives the same game.
        """
        from .engine import sampling  # here: only search bots need it

        source = self._source
        # A live view's game is rebuilt from the answers so far (once per question), so a bot
        # inside ``play_out`` samples from exactly the state ``choose`` would have reached.
        real = source if isinstance(source, Game) else source.game()
        return Game._frozen(real.rules, sampling.sample_state(real.rules, real.state, self.seat, rng))


# ---------------------------------------------------------------- JSON
def _encode(value: Any) -> Any:
    if attrs.has(type(value)):
        return {f.name: _encode(getattr(value, f.name)) for f in attrs.fields(type(value))}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, bytes):  # the packed event log
        return base64.b64encode(value).decode("ascii")
    return value
