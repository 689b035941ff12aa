"""Starting and answering a working copy: the steps every way of playing a game shares.

``Game`` (``choose``, ``play_out``), records and saves (which replay a game to verify it)
all start a game from its first state and give it answers the same way; here, below all
of them, so that none needs another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, cast

from .._mypyc import mypyc_attr
from ..errors import IllegalChoice, StepBudgetExceeded
from ..state import Decision, FrameState, GameState, Option
from . import flow, journal
from .specs import Rules
from .work import Answerer, Frame, Work


def begin(rules: Rules, start: GameState, w: Work | None = None) -> Work:
    """A working copy of a new game, run from its starting state to the first decision.

    ``w`` is a fresh working copy of ``start`` to run on (``testing.moments`` gives one that
    watches the log); by default a plain one.
    """
    if w is None:
        w = Work(rules, start)
    w.log(journal.RULES, rules.board.title, tuple(x for kind, side in rules.loot_sides.items() for x in (kind, side)))
    for p in start.seats:
        if p.doubloons:
            w.log(journal.HANDICAP, p.seat, p.doubloons)
    if start.step == "select":  # a declared position: no day event says when it starts
        w.log(journal.POSITION, start.voyage, start.day)
    flow.run(w)
    return w


def answer(w: Work, key: str) -> None:
    """Give ``key`` to whoever asked, then run on to the next question.

    A flow step that asked in this very working copy is finished where it stopped (its
    ``Resume``); anything else that asked (an ability, or any step of a thawed game) runs
    again from the start of its step with the answer, and replays to it.
    """
    w.history.append(key)
    point = w.resume
    if point is not None:
        w.decision = None
        point.answer(w, key)
        flow.run(w, 1)  # the step resumed counts as the first one run since the question
        return
    if w.frames:
        w.frames[-1].answers.append(key)
    else:
        w.flow.answers.append(key)
    w.decision = None
    flow.run(w)


def answer_within_budget(w: Work, d: Decision, asked: int, key: str) -> None:
    """``check_question_budget`` for the game at ``d`` (``asked`` answers so far), then ``answer``.

    One call where ``Game.choose`` made two at every answer: compiled, each call from interpreted
    code into the engine parses its arguments again.
    """
    if asked >= question_limit(w.rules, w.n):
        check_question_budget(w.rules, w.n, asked, d, w)
    answer(w, key)


def question_limit(rules: Rules, players: int) -> int:
    return 50 * rules.tables.days * players  # ``Tables``: read at every ``choose()``, not summed each time


def check_offered(d: Decision | None, key: str) -> Decision:
    """``d`` if it offers ``key``; else the ``IllegalChoice`` that ``Game.choose`` and the env raise alike.

    Looks through the options rather than building ``d.keys()``: it runs at every answer."""
    if d is None:
        raise IllegalChoice(key, (), "")
    for option in d.options:
        if option.key == key:
            return d
    raise IllegalChoice(key, d.keys(), d.prompt)


def check_question_budget(rules: Rules, players: int, asked: int, d: Decision, w: Work | GameState) -> None:
    """A per-game bound on decisions, for loops that ask a question every time round.

    ``run`` bounds those that ask none.  A real game asks each seat a few questions a day
    (a character, loot, an order, a target): random games with the bundled cards average
    about 2 per seat and day and never reached 3, so 50 per seat and day of the edition's
    voyages is generous for any mod and still ends a loop in seconds.
    """
    if asked >= question_limit(rules, players):
        frames: Sequence[Frame | FrameState] = w.frames
        running = [f.source for f in reversed(frames)]
        raise StepBudgetExceeded(
            f"the game has asked {asked:,} questions, the most a game may ask (50 per seat "
            f"and day), and asks seat {d.player} again: {d.prompt}",
            [d.source, *running] if d.source else running)


class _Agent(Protocol):
    """``libertalia.game.Agent``, restated here: the engine sits below the module that declares it."""

    def choose(self, observation: Any, decision: Decision) -> object: ...


@mypyc_attr(allow_interpreted_subclasses=True)
class Picker:
    """An agent whose answer is read off the options alone: its ``choose(observation, d)`` is ``pick(d.options)``.

    The library's own bots are pickers (``libertalia.agents``).  Live play asks such an agent
    ``pick`` straight away, with no ``Decision`` built for it: a question then costs the draw
    and little more.  Only a class that says so in its own body (``picks_from_options``) is
    asked that way; a subclass that changes ``choose`` and not the flag is asked through ``choose``.
    """

    picks_from_options: ClassVar[bool] = False

    def pick(self, options: Sequence[Option]) -> str:
        """The key of one of ``options``, the one ``choose`` would answer."""
        raise NotImplementedError


def fast_picker(agent: object) -> Picker | None:
    """``agent`` if live play may ask it ``pick`` for ``choose`` (its own class says ``picks_from_options``)."""
    if isinstance(agent, Picker) and type(agent).__dict__.get("picks_from_options") is True:
        return agent
    return None


class LiveAnswers(Answerer):
    """Live play's answerer (``Work.answerer``, ``Game.play_out``): each question goes to its seat's agent.

    A class of the engine rather than a closure in ``play_out``, so that the compiled build runs this
    per-question glue natively (it is called once for every decision of every play-out).  It checks
    the key unless the agent answers from the options by construction (``checked``), bounds the
    questions (``check_question_budget``) and records the key in the working copy's ``history``.
    A seat whose agent is a ``Picker`` (``fast_picker``) is asked ``pick``, and no ``Decision`` is built.
    """

    __slots__ = ("agents", "views", "checked", "w", "most", "pickers")

    def __init__(self, w: Work, agents: Sequence[_Agent], views: Sequence[object], checked: Sequence[bool]) -> None:
        self.w = w
        self.agents = list(agents)
        self.views = list(views)
        self.checked = list(checked)
        self.most = question_limit(w.rules, w.n)
        self.pickers = [fast_picker(agent) for agent in agents]

    def ask(self, w: Work, seat: int, kind: str, options: Sequence[Option], prompt: str, source: str | None) -> str:
        picker = self.pickers[seat]
        history = w.history
        if picker is None or len(history) >= self.most:
            return Answerer.ask(self, w, seat, kind, options, prompt, source)
        key = picker.pick(options)
        history.append(key)
        return key

    def decide(self, d: Decision) -> str:
        seat = d.player
        # Typed ``object`` until checked: an agent's wrong answer (not even a string) is an IllegalChoice.
        answer = self.agents[seat].choose(self.views[seat], d)
        if self.checked[seat] and answer not in d.keys():  # noqa: SIM118 - Decision.keys() returns a tuple
            raise IllegalChoice(answer, d.keys(), f"seat {seat}'s agent answered {d.prompt!r}", seat=seat)
        key = cast(str, answer)
        w = self.w
        history = w.history
        if len(history) >= self.most:
            check_question_budget(w.rules, w.n, len(history), d, w)
        history.append(key)
        return key
