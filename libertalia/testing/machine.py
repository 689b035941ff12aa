"""``GameMachine``: a hypothesis state machine that plays games and checks them at every step.

Hypothesis draws the seed (and, if asked, a declared position), then answers one decision per
step, drawing an index into the legal keys so that a failure shrinks toward first options and
few steps.  Now and then it goes back to an earlier game of the line and answers it
differently, which tests that ``choose`` is pure even when games share a working copy.  After
every step the invariants run: ``check_invariants`` against the game before, purity (every game
still saves as it did when it was made) and the exact JSON round trip, plus any ``@invariant``
a subclass adds.  When something fails, hypothesis reports the minimal failing run and the
machine adds a reproduction (``libertalia.testing.repro``): a script and a card example.

    class NobodyGetsRich(GameMachine):
        game_rules = "galecrest"
        players = 3

        @invariant()
        def nobody_is_rich(self) -> None:
            assert all(p.doubloons <= 40 for p in self.game.players)

    TestNobodyGetsRich = NobodyGetsRich.TestCase
"""

from __future__ import annotations

import functools
import inspect
import json
import sys
import textwrap
import traceback
from collections.abc import Sequence
from typing import Any, ClassVar, cast

from hypothesis import Phase, currently_in_test_context, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ..engine.specs import Rules
from ..game import Game, new_game
from ..loading.rules import load_rules
from .focus import Featured, FocusedPosition
from .invariants import check_invariants
from .repro import Reproduction, load_call, reproduction, unnoted
from .strategies import positions

__all__ = ["GameMachine"]

_BRANCH_EVERY = 4  # forward answers between two side branches, so that the line still gets deep
PHASES = tuple(p for p in Phase if p is not Phase.explain)
"""Hypothesis' phases but ``explain``, which replays a failing run once per step it could vary: minutes
for a long run, and the reproduction says more.  ``GameMachine.TestCase`` uses them; pass them
too when you give settings of your own (``@settings(..., phases=PHASES)``)."""


@functools.cache
def _edition(name: str) -> Rules:
    return load_rules(name)


class GameMachine(RuleBasedStateMachine):
    """Plays one game per run, one hypothesis-drawn answer per step; subclass it to add invariants.

    Override the class attributes: ``game_rules`` (loaded rules, or an edition name), ``players``
    (a count, several to draw from, or None for every count the board allows),
    ``from_position`` (start from a random declared position instead of a deal) and
    ``featuring`` (the entries ``positions(featuring=...)`` takes: names, ``(name, seat)``,
    ``(name, where, seat)`` or ``focus.Feature``s), or the ``setups`` method for a position
    strategy of your own.  An ``@invariant()`` reads ``self.game`` (the current game),
    ``self.before`` (the game before the last answer, or None) and ``self.line`` (every game
    from the start to this one).

    A start that asks nothing (the last day of the last voyage with one card in every hand: the
    game ends at once) is a run like any other, not redrawn: the invariants check the finished
    game, and the run's remaining steps are ``over``, which does nothing.  Such a position is
    what the setups asked for, and the end of the game is worth checking too.
    """

    game_rules: ClassVar[Rules | str] = "galecrest"  # not ``rules``: hypothesis keeps its own rules there
    players: ClassVar[int | Sequence[int] | None] = None
    from_position: ClassVar[bool] = False
    featuring: ClassVar[Sequence[Featured]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _without_explain(cls)

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.before: Game | None = None
        self.line: list[Game] = []  # the games from the start to ``game``
        self.saved: list[str] = []  # each one's save, taken when it was made
        self.calls: list[tuple[int, str]] = []  # every choose() made: (index in line of the game, key)
        self.player_count = 0
        self.seed = 0
        self.setup: dict[str, Any] | None = None
        self._since_branch = 0
        self._doing = ""  # what the running rule is checking, for the reproduction of its failure
        self._key = ""  # the answer the running rule gives
        self._at = 0  # the game of the line it answers

    # ------------------------------------------------------------ what to play
    @classmethod
    def loaded_rules(cls) -> Rules:
        """``game_rules``, loaded once per edition name."""
        return _edition(cls.game_rules) if isinstance(cls.game_rules, str) else cls.game_rules

    def player_counts(self, rules: Rules) -> list[int]:
        """The player counts a run draws from (shrinking toward the first)."""
        if self.players is None:
            lo, hi = rules.board.players
            return list(range(max(lo, 2), hi + 1))
        return [self.players] if isinstance(self.players, int) else list(self.players)

    def setups(self, rules: Rules,
               players: int) -> st.SearchStrategy[dict[str, Any]] | st.SearchStrategy[FocusedPosition] | None:
        """The positions a run may start from (declared, or focused on ``featuring``), or None for a deal."""
        if self.featuring:
            return positions(rules, players, featuring=self.featuring)
        return positions(rules, players) if self.from_position else None

    # ------------------------------------------------------------ the steps
    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        """Draw the player count, the position (if any) and the seed, and start the game."""
        rules = self.loaded_rules()
        self.player_count = data.draw(st.sampled_from(self.player_counts(rules)), label="players")
        strategy = self.setups(rules, self.player_count)
        with unnoted():  # the run's own reproduction (teardown) replaces the strategies' notes
            drawn = data.draw(strategy, label="position") if strategy is not None else None
        plays: list[str] = []
        if isinstance(drawn, FocusedPosition):  # its own seed, and the plays that put its cards to work
            self.setup, self.seed = drawn.setup, drawn.seed
            drawn.answer(new_game(rules, self.player_count, self.seed, self.setup), plays)
        else:
            self.setup = cast("dict[str, Any] | None", drawn)
            self.seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
        self._doing = "start"
        self._extend(new_game(rules, self.player_count, self.seed, self.setup))
        for key in plays:  # one step each, like any answer: the line and the calls stay exact
            self._doing, self._key, self._at = "answer", key, len(self.line) - 1
            self.calls.append((self._at, key))
            self._extend(self.line[-1].choose(key))

    @precondition(lambda self: self.game is not None and self.game.decision is not None)
    @rule(data=st.data())
    def answer(self, data: st.DataObject) -> None:
        """Answer the current decision with a drawn legal key (shrinking toward the first)."""
        assert self.game is not None
        keys = self.game.legal_keys()
        key = keys[data.draw(st.integers(0, len(keys) - 1), label="answer")]
        self._doing, self._key, self._at = "answer", key, len(self.line) - 1
        self.calls.append((self._at, key))
        self._extend(self.game.choose(key))
        self._since_branch += 1

    @precondition(lambda self: len(self.line) > 1 and (self._since_branch >= _BRANCH_EVERY or self.game is None
                                                       or self.game.decision is None))
    @rule(data=st.data())
    def branch(self, data: st.DataObject) -> None:
        """Answer an earlier game of the line differently, then carry on with the line as it was.

        Enabled every few answers, and always once the game is over (hypothesis needs a step).

        The side game must keep the invariants, and neither the earlier game nor the newest one
        may change: games share a working copy while nobody reads them, so this is where an
        impure ``choose`` would show.
        """
        self._since_branch = 0
        at = data.draw(st.integers(0, len(self.line) - 2), label="back to")
        earlier = self.line[at]
        assert earlier.decision is not None
        keys = earlier.legal_keys()
        key = keys[data.draw(st.integers(0, len(keys) - 1), label="side answer")]
        self._doing, self._key, self._at = "side", key, at
        self.calls.append((at, key))
        side = earlier.choose(key)
        check_invariants(side, earlier)
        self._doing = "purity"
        assert earlier.to_json() == self.saved[at], "answering a game changed it"
        assert self.line[-1].to_json() == self.saved[-1], "answering an earlier game changed the newest one"

    @precondition(lambda self: len(self.line) == 1 and self.line[0].decision is None)
    @rule()
    def over(self) -> None:
        """The start asked nothing: the game is over, and the invariants have checked it.

        Hypothesis needs a step to take; with an earlier game to answer, ``branch`` is that step.
        """

    def _extend(self, game: Game) -> None:
        self.before, self.game = self.game, game
        self.line.append(game)
        self.saved.append(game.to_json())
        self._doing = ""

    # ------------------------------------------------------------ the invariants
    @invariant()
    def rules_hold(self) -> None:
        """``check_invariants``, step by step: decisions, conservation, coins, the track."""
        assert self.game is not None
        check_invariants(self.game, self.before)

    @invariant()
    def choose_is_pure(self) -> None:
        """The game the last answer was given to still saves exactly as it did when it was made."""
        if len(self.line) > 1:
            assert self.line[-2].to_json() == self.saved[-2], "answering a game changed it"

    @invariant()
    def json_round_trip(self) -> None:
        """The game's save (taken when it was made) loads back as an equal game."""
        assert self.game is not None
        assert Game.from_json(self.saved[-1], self.loaded_rules()) == self.game, "the JSON round trip differs"

    # ------------------------------------------------------------ reporting
    def teardown(self) -> None:
        """Hand hypothesis the reproduction; it prints notes for the minimal failing run only."""
        if self.player_count and currently_in_test_context():
            note(_Report(self))

    def reproduction(self, failed: BaseException | None = None) -> Reproduction:
        """The script and card example that replay this run up to ``failed`` (by default, the
        exception on its way out, if any), ending with the check that failed."""
        failed = failed if failed is not None else sys.exception()
        method = self._failed_method(failed) if failed is not None else None
        rules = self.loaded_rules()
        game = self.game
        keys: list[str] = list(game.history) if game is not None else []
        what = f"{type(self).__name__}: " + (_describe(failed) if failed is not None else "no failure")
        check = "check_invariants(game, before)"
        if method == "start" and self._doing == "start":
            keys, check = [], "# lt.new_game above raised the error"
        elif method in ("start", "answer") and self._doing == "answer":
            check = "# the last choose above raised the error"
            keys.append(self._key)
        elif method == "branch" and self._doing == "side":
            keys = list(self.line[self._at].history) + [self._key]
        elif method == "choose_is_pure" or (method == "branch" and self._doing == "purity"):
            keys, check = [], self._purity_check()
        elif method == "json_round_trip":
            check = "assert lt.Game.from_json(game.to_json(), rules) == game, 'the JSON round trip differs'"
        elif method not in (None, "rules_hold"):
            check = self._user_check(method)
        return reproduction(rules, self.player_count, self.seed, self.setup, keys, note=what,
                            load_call=load_call(rules), check=check)

    def _failed_method(self, failed: BaseException) -> str | None:
        """The outermost method of this machine in the traceback: the rule or invariant that failed."""
        codes: dict[Any, str] = {}
        for klass in type(self).__mro__:
            for name, value in vars(klass).items():
                code = getattr(inspect.unwrap(value), "__code__", None) if callable(value) else None
                if code is not None:
                    codes.setdefault(code, name)
        for frame, _ in traceback.walk_tb(failed.__traceback__):
            if frame.f_code in codes and frame.f_locals.get("self") is self and codes[frame.f_code] not in (
                    "check_invariants", "teardown"):
                return codes[frame.f_code]
        return None

    def _purity_check(self) -> str:
        """Every choose() call as the run made it, checking after each that no game of the line changed."""
        calls = ", ".join(f"({at}, {json.dumps(key)})" for at, key in self.calls)
        return textwrap.dedent(f"""\
            # Every game must save as it did when it was made; the calls as the test made them:
            line, saved = [game], [game.to_json()]
            for at, key in [{calls}]:
                made = line[at].choose(key)
                if at == len(line) - 1:  # the newest game answered: the line grows
                    line.append(made)
                    saved.append(made.to_json())
                for i, earlier in enumerate(line):
                    assert earlier.to_json() == saved[i], f"game {{i}} of the line changed after it was made"
            """).rstrip("\n")

    def _user_check(self, method: str) -> str:
        """A subclass's invariant: named, with its code as a comment (``self.game`` is ``game``)."""
        lines = [f"# {type(self).__name__}.{method} fails here; its code reads self.game as game and "
                 "self.before as before:"]
        try:
            source = textwrap.dedent(inspect.getsource(getattr(type(self), method)))
        except (OSError, TypeError):
            source = ""
        lines += [f"#     {line}" for line in source.rstrip("\n").splitlines()]
        return "\n".join(lines)


def _without_explain(cls: type[RuleBasedStateMachine]) -> None:
    case = cls.TestCase
    case.settings = settings(case.settings, phases=PHASES)


_without_explain(GameMachine)


def _describe(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Report:
    """The reproduction, built only if hypothesis prints it (``note`` formats its value then)."""

    def __init__(self, machine: GameMachine) -> None:
        self.machine = machine
        self.failed = sys.exception()

    def __repr__(self) -> str:
        try:
            return str(self.machine.reproduction(self.failed))
        except Exception as exc:  # the report must never hide the failure it reports
            return f"(no reproduction: building it raised {_describe(exc)})"
