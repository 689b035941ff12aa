"""Syntax tree to runnable instructions, once per ``load_rules``.

An ability becomes a flat tuple of closures; each runs one action (or one
branch test) against the working game and returns the next program counter.
Conditions and ``may`` become jumps, so a suspended ability is just a program
counter plus the answers given so far: plain data (design.md §2).

An action asks all its questions before it changes anything, so re-running it
with one more answer after a suspension repeats no side effect.  The modules:
``selectors`` (which characters and loot), ``amounts`` (how many, and whom),
``conditions``, ``actions``, and this one, which assembles abilities.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...engine.journal import CHANGE_DOUBLOONS
from ...engine.work import Frame, Work
from ...state import Option
from .. import ast
from ..render import render_ability, render_actions
from .actions import action_fn
from .amounts import best_sets
from .common import ActionFn, CondFn, Unbound, push_frame, push_loot_abilities, source_name
from .conditions import condition_fn
from .selectors import candidates, loot_candidates

if TYPE_CHECKING:
    from ...engine.specs import Compiled, Instruction

__all__ = ["best_sets", "compile_ability", "push_frame", "push_loot_abilities"]

# ------------------------------------------------------------------ assembly
def _instruction(fn: ActionFn) -> Instruction:
    """One action as an instruction; an action that needs an unbound ``it`` is skipped."""

    def instr(w: Work, f: Frame) -> int:
        pc = f.pc
        try:
            fn(w, f)
        except Unbound:
            f.did = False
        return pc + 1
    return instr


def _may_possible(a: ast.Action) -> Callable[[Work, Frame], bool]:
    """Whether a ``may`` action has anything to choose from (R1: never ask in vain).

    Keeping anything "for the next voyage" is impossible on the last voyage.
    """
    if isinstance(a, ast.Keep | ast.KeepLoot):
        inner = _may_possible_pick(a)
        return lambda w, f: w.voyage < len(w.rules.board.voyage_days) and inner(w, f)
    return _may_possible_pick(a)


def _may_possible_pick(a: ast.Action) -> Callable[[Work, Frame], bool]:
    loot = getattr(a, "loot", None)
    if isinstance(loot, ast.ChooseLoot):
        loot_cands = loot_candidates(loot.np)
        return lambda w, f: bool(loot_cands(w, f))
    target = getattr(a, "target", None)
    if not isinstance(target, ast.ChooseChar):
        return lambda w, f: True
    cands = candidates(target.np)
    keeping = isinstance(a, ast.Keep)  # a character can be kept once (R20)

    def possible(w: Work, f: Frame) -> bool:
        kept = w.seats[f.seat].kept if keeping else ()
        return any(r[0] is not None and r[1] not in kept for r in cands(w, f))
    return possible


def compile_ability(ability: ast.Ability) -> Compiled:
    from ...engine.specs import Compiled

    code: list[Instruction] = []

    def emit_actions(actions: tuple[ast.Action, ...]) -> None:
        for act in actions:
            code.append(_instruction(action_fn(act)))

    for step in ability.steps:
        if step.form == "plain":
            emit_actions(step.actions)
            continue
        if step.form == "choose_one":
            # A question, then a jump to the chosen option's actions; each option ends with a jump past the rest.
            branch_at = len(code)
            code.append(_placeholder)
            starts, exits = [], []
            for option in (step.actions, *step.choices):
                starts.append(len(code))
                emit_actions(option)
                exits.append(len(code))
                code.append(_placeholder)
            for at in exits:
                code[at] = _jump(len(code))
            options = (step.actions, *step.choices)
            labels = [render_actions(option) for option in options]
            possible = [_may_possible(option[0]) for option in options]
            code[branch_at] = _choose_one(starts, labels, possible, len(code), render_ability(ability))
            continue
        if step.form == "may":
            branch_at = len(code)
            code.append(_placeholder)
            emit_actions(step.actions)
            jump_at = len(code)
            if step.otherwise:
                code.append(_placeholder)
            else_at = len(code)
            if step.otherwise:
                emit_actions(step.otherwise)
                code[jump_at] = _jump(len(code))
            code[branch_at] = _may(_may_possible(step.actions[0]), else_at, render_ability(ability))
            continue
        # "A if X; otherwise B if Y; otherwise C": one test per arm, each arm jumping past the rest.
        assert step.condition is not None
        first = condition_fn(step.condition)
        arms = [(_negated(first) if step.form == "unless" else first, step.actions)]
        arms += [(condition_fn(c), acts) for c, acts in step.elifs]
        tests, exits = [], []
        for cond, acts in arms:
            tests.append((len(code), cond))
            code.append(_placeholder)
            emit_actions(acts)
            exits.append(len(code))
            code.append(_placeholder)
        falls = [at for at, _ in tests[1:]] + [len(code)]
        if step.otherwise:
            emit_actions(step.otherwise)
        end_at = len(code)
        for (at, cond), fall in zip(tests, falls, strict=True):
            code[at] = _branch(cond, fall, end_at)
        for at in exits:
            code[at] = _jump(end_at)

    early = all(isinstance(a, ast.CountExtra) for s in ability.steps for a in s.actions)
    constant_gain = all(
        s.form == "plain"
        and all(isinstance(a, ast.Change) and a.verb == "gain" and a.subject is None
                and isinstance(a.amount, ast.Fixed) and a.amount.per is None
                and a.amount.unit == "doubloons" for a in s.actions)
        for s in ability.steps
    )
    passive = all(isinstance(a, ast.TakeNoLoot) for s in ability.steps for a in s.actions)
    direct = all(
        s.form == "plain" and all(isinstance(a, ast.MoveReputation)
                                  or (isinstance(a, ast.Change) and a.subject is None) for a in s.actions)
        for s in ability.steps
    )
    return Compiled(
        timing=ability.timing, last=ability.last, once=ability.once, first=ability.first, early=early,
        constant_gain=constant_gain, passive=passive, text=render_ability(ability), code=tuple(code),
        direct=direct, fast=_fixed_coins(ability),
    )


def _fixed_coins(ability: ast.Ability) -> Callable[[Work, int, str], None] | None:
    """"Gain 5 doubloons", "lose 3 doubloons": the commonest abilities, run without a frame."""
    changes: list[tuple[int, int]] = []
    for s in ability.steps:
        if s.form != "plain":
            return None
        for a in s.actions:
            if not (isinstance(a, ast.Change) and a.subject is None and isinstance(a.amount, ast.Fixed)
                    and a.amount.per is None and a.amount.unit == "doubloons"):
                return None
            changes.append((1 if a.verb == "gain" else -1, a.amount.n))

    def fast(w: Work, seat: int, source: str) -> None:
        for sign, n in changes:
            if sign > 0:
                w.gain(seat, n)
            else:
                w.lose(seat, n)
            if n:
                w.log(CHANGE_DOUBLOONS, seat, sign * n, source[2:])
    return fast


def _placeholder(w: Work, f: Frame) -> int:  # pragma: no cover - always replaced
    raise AssertionError("unpatched jump")


def _jump(target: int) -> Instruction:
    return lambda w, f: target


def _branch(cond: CondFn, else_at: int, end_at: int) -> Instruction:
    def branch(w: Work, f: Frame) -> int:
        v = cond(w, f)
        if v is None:
            return end_at
        return f.pc + 1 if v else else_at
    return branch


def _negated(cond: CondFn) -> CondFn:
    def unless(w: Work, f: Frame) -> bool | None:
        v = cond(w, f)
        return None if v is None else not v
    return unless


def _choose_one(starts: list[int], labels: list[str], possible: list[Callable[[Work, Frame], bool]], end_at: int,
                text: str) -> Instruction:
    """Ask which option to carry out; keys are "1", "2", … in the order the card lists them.

    An option that could do nothing now (nothing to pick, nothing to keep on the last
    voyage) is not offered; with none left, nothing is asked.
    """
    all_options = [Option(str(i + 1), label) for i, label in enumerate(labels)]

    def choose_one(w: Work, f: Frame) -> int:
        options = [o for o, can in zip(all_options, possible, strict=True) if can(w, f)]
        if not options:
            return end_at
        key = w.ask(f, f.seat, "choose_option", options, f"{text} Which one?", source_name(f))
        return starts[int(key) - 1]
    return choose_one


def _may(possible: Callable[[Work, Frame], bool], else_at: int, text: str) -> Instruction:
    def may(w: Work, f: Frame) -> int:
        if not possible(w, f):
            return else_at
        options = [Option("yes", "yes"), Option("no", "no")]
        key = w.ask(f, f.seat, "may", options, f"{text} Do you want to?", source_name(f))
        return f.pc + 1 if key == "yes" else else_at
    return may
