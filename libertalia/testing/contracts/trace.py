"""Rules that check every step against its contract as it runs, with the engine left as it is.

``traced(rules, tracer)`` is a copy of the rules whose compiled programs call, for each step,
a wrapper instead of the step's ``act``: the wrapper copies the game's parts, runs the step,
copies them again, decodes the events the step logged, and hands all that to
``laws.check``.  The engine's loop never knows: untraced rules run exactly as before, and
traced ones run the same steps in the same order (``coins=None`` makes fixed-doubloon
abilities run as steps too, instead of ``flow.run_coins``).

A ``Tracer`` keeps the counts of steps checked and the violations found, and one more law that
spans steps: an option of ``you may`` or ``choose one`` is offered only when it can change
something, so the actions of an option taken must change something between them.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import attrs

from ...engine import journal
from ...engine.program import control as ctl
from ...engine.program.base import Unbound
from ...engine.specs import CharacterSpec, Compiled, LootSpec, Rules
from ...engine.work import Suspend
from ...state import Event
from . import laws
from .snapshot import snapshot

if TYPE_CHECKING:
    from ...engine.work import Frame, Work

DEFAULT_LIMIT = 20
"""Violations a tracer keeps in full (it counts all of them)."""


@attrs.frozen
class StepViolation:
    """One run of one step that broke its contract: where, which step, what the contract says, what differed.

    ``keys`` are the answers the game had been given when the step ran (its ``history``): with
    the game's start they replay it up to the step.
    """

    source: str  # "c:Name" (a character's ability) or "l:kind" (a loot tile's)
    index: int  # which of the source's abilities
    pc: int  # which step of the ability's program
    ability: str  # the ability's text
    kind: str  # the step's class
    step: str  # the step itself
    contract: str  # its contract's law, in words
    problems: tuple[str, ...]
    keys: tuple[str, ...]
    voyage: int
    day: int
    phase: str

    def __str__(self) -> str:
        lines = [f"{self.source[2:]}: step {self.pc} ({self.kind}) of \"{self.ability}\" broke its contract "
                 f"(voyage {self.voyage}, day {self.day}, {self.phase}, after {len(self.keys)} answers)",
                 f"  step: {self.step}", f"  contract: {self.contract}"]
        lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


@attrs.define
class _Arm:
    """An option being carried out: its steps run from ``start`` to ``end`` (exclusive)."""

    start: int
    end: int
    asker: Any  # the May or ChooseOne step
    pc: int  # where the asker stands
    label: str
    changed: bool = False
    asked: bool = False  # a step of the option stopped for an answer: that answer may leave it changing nothing


class Tracer:
    """Counts the steps checked (``counts``, by kind) and keeps what broke a contract (``violations``).

    ``active`` turns the checks off without rebuilding the rules (a replay that must not count);
    at most ``limit`` violations are kept whole, and ``broken`` counts them all.
    """

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.counts: Counter[str] = Counter()
        self.suspended = 0
        self.violations: list[StepViolation] = []
        self.broken = 0
        self.limit = limit
        self.active = True
        self._arms: dict[tuple[Any, ...], _Arm] = {}

    def reset(self) -> None:
        """Forget the violations and the options in progress (for the next game); counts stay."""
        self.violations = []
        self.broken = 0
        self._arms = {}

    def run(self, step: Any, pc: int, w: Work, f: Frame) -> int:
        """Run one step and check it (the body of every traced instruction)."""
        if w.journal is None:
            raise ValueError("traced rules check the events steps log: start the game with its log (log=True)")
        before = snapshot(w, f)
        start = len(w.journal)
        try:
            nxt: int = step.act(w, f)
        except Suspend:
            self.suspended += 1
            self._check(step, pc, None, "suspended", before, w, f, start)
            raise
        except Unbound:
            self._check(step, pc, None, "unbound", before, w, f, start)
            raise
        self._check(step, pc, nxt, "done", before, w, f, start)
        return nxt

    def _check(self, step: Any, pc: int, nxt: int | None, outcome: str, before: Any, w: Work, f: Frame,
               start: int) -> None:
        after = snapshot(w, f)
        assert w.journal is not None
        entries = w.journal[start:]
        problems: list[str] = []
        try:
            events = _decode(w, entries)
        except journal.JournalError as exc:
            problems.append(f"its events do not decode: {exc}")
            events = ()
        seen = laws.Seen(step, pc, nxt, outcome, before, after, events, w.rules, f.seat, f.this, f.source,
                         asked=outcome == "done" and f.pos > 0)
        problems += laws.check(seen)
        self.counts[type(step).__name__] += 1
        if problems:
            self._violate(step, pc, problems, w, f)
        if outcome == "suspended" or f.pos:  # it stopped for an answer, or used one (given live or on resuming)
            arm = self._arms.get((_depth(w, f), f.source, f.index, f.seat, f.this))
            if arm is not None and arm.start <= pc < arm.end:
                arm.asked = True
        if outcome != "suspended":
            self._options(step, pc, nxt, bool(seen.changed), w, f)

    def _violate(self, step: Any, pc: int, problems: list[str], w: Work, f: Frame) -> None:
        self.broken += 1
        if len(self.violations) >= self.limit:
            return
        ability = w.rules.sources[f.source][f.index]
        self.violations.append(StepViolation(
            f.source, f.index, pc, ability.text, type(step).__name__, repr(step), type(step).CONTRACT.law,
            tuple(problems), tuple(w.history), w.voyage, w.day, w.step))

    def _options(self, step: Any, pc: int, nxt: int | None, changed: bool, w: Work, f: Frame) -> None:
        """An option taken must change something (an option that cannot is never offered), unless a choice
        made while carrying it out chose a way that changes nothing: "you may give every loot you hold to
        the owner of another character, then discard it" may be given to your own character (E36), which
        the offer could not know."""
        key = (_depth(w, f), f.source, f.index, f.seat, f.this)
        arm = self._arms.get(key)
        if arm is not None:
            if not arm.start <= pc < arm.end:
                del self._arms[key]
            else:
                arm.changed = arm.changed or changed
                if pc == arm.end - 1:
                    del self._arms[key]
                    if not arm.changed and not arm.asked:
                        self._violate(arm.asker, arm.pc, [
                            f"it offered {arm.label}, which changed nothing when taken: an option that "
                            "cannot change anything is never offered"], w, f)
        if nxt is None or not isinstance(step, ctl.May | ctl.ChooseOne):
            return
        steps = w.rules.sources[f.source][f.index].steps
        if isinstance(step, ctl.May):
            if nxt != pc + 1:
                return
            end = step.else_at - 1 if isinstance(steps[step.else_at - 1], ctl.Jump) else step.else_at
            label = f'"yes" to "{step.text}"'
        else:
            if nxt not in step.starts:
                return
            end = next((j for j in range(nxt, len(steps)) if isinstance(steps[j], ctl.Jump)), len(steps))
            label = f'option {step.starts.index(nxt) + 1} ("{step.labels[step.starts.index(nxt)]}")'
        if end > nxt:
            self._arms[key] = _Arm(nxt, end, step, pc, label)


def _depth(w: Work, f: Frame) -> int:
    """Where the frame stands on the stack (-1: run on the spot, off the stack)."""
    for i, frame in enumerate(w.frames):
        if frame is f:
            return i
    return -1


def _decode(w: Work, entries: list[journal.Entry]) -> tuple[Event, ...]:
    """The typed events of journal entries, read as a game's log would be (no clock: voyage 0, no phase)."""
    if not entries:
        return ()
    out = bytearray()
    journal.encode_into(out, w.rules.lexicon_ids, entries)
    return journal.decode(bytes(out), w.rules.lexicon, players=w.n)


class _Traced:
    """One step of a traced program: what the engine calls instead of the step's ``act``."""

    __slots__ = ("step", "pc", "tracer")

    def __init__(self, step: Any, pc: int, tracer: Tracer) -> None:
        self.step = step
        self.pc = pc
        self.tracer = tracer

    def __call__(self, w: Work, f: Frame) -> int:
        if not self.tracer.active:
            nxt: int = self.step.act(w, f)
            return nxt
        return self.tracer.run(self.step, self.pc, w, f)


def traced(rules: Rules, tracer: Tracer) -> Rules:
    """A copy of ``rules`` whose every step is checked by ``tracer`` as it runs.

    Every character's and loot tile's abilities are wrapped, the uncharted and solo sides too;
    ``Rules`` rebuilds its lookups (``sources``, ``timed``, ...) from the wrapped abilities.
    """
    done: dict[int, Any] = {}

    def ability(c: Compiled) -> Compiled:
        return attrs.evolve(c, code=tuple(_Traced(s, i, tracer) for i, s in enumerate(c.steps)), coins=None)

    def spec(s: CharacterSpec | LootSpec) -> Any:
        if id(s) not in done:
            done[id(s)] = attrs.evolve(s, compiled=tuple(ability(c) for c in s.compiled))
        return done[id(s)]

    return attrs.evolve(
        rules,
        characters=tuple(spec(c) for c in rules.characters),
        loot=tuple(spec(s) for s in rules.loot),
        uncharted={k: tuple(spec(s) for s in sides) for k, sides in rules.uncharted.items()},
        solo_loot={k: spec(s) for k, s in rules.solo_loot.items()},
    )

