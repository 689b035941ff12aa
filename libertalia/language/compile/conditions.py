"""Conditions: ``True``, ``False``, or ``None`` when they speak of an unbound ``it``."""

from __future__ import annotations

from ...engine.work import Frame, Work
from ...state import CardRef
from .. import ast
from .common import CondFn
from .selectors import candidates, filter_test, pick_positional


# ------------------------------------------------------------------ conditions
def cond_fn(c: ast.Cond) -> CondFn:
    if isinstance(c, ast.IsPositioned):
        cands, position, ref = candidates(c.np), c.position, c.ref

        def is_positioned(w: Work, f: Frame) -> bool | None:
            me = bound_card(ref, f)
            return pick_positional(position, cands(w, f), w) == me
        return is_positioned
    if isinstance(c, ast.IsA):
        ref, name = c.ref, c.name

        def is_a(w: Work, f: Frame) -> bool | None:
            me = bound_card(ref, f)
            return None if me is None else w.rules.card(me[1]).name == name
        return is_a
    if isinstance(c, ast.IsLike):
        ref, test = c.ref, filter_test(c.filter)

        def is_like(w: Work, f: Frame) -> bool | None:
            me = bound_card(ref, f)
            return None if me is None else test(w, f, me)
        return is_like
    if isinstance(c, ast.LastVoyage):
        return lambda w, f: w.voyage >= len(w.rules.board.voyage_days)
    if isinstance(c, ast.HaveDoubloons):
        n = c.n
        if c.at_most:
            return lambda w, f: w.seats[f.seat].coins <= n
        return lambda w, f: w.seats[f.seat].coins >= n
    if isinstance(c, ast.NoOtherHas):
        pile, fewer = c.pile, c.cmp == "fewer"

        def no_other_has(w: Work, f: Frame) -> bool:
            mine = len(w.seats[f.seat].pile(pile))
            others = [len(w.seats[s].pile(pile)) for s in range(w.n) if s != f.seat]
            return all(o >= mine for o in others) if fewer else all(o <= mine for o in others)
        return no_other_has
    if isinstance(c, ast.Hold):
        kinds, negated = set(c.kinds), c.negated
        return lambda w, f: any(not kinds or k in kinds for k in w.seats[f.seat].loot) != negated
    if isinstance(c, ast.JustTook):
        kinds = set(c.kinds)
        return lambda w, f: f.this is not None and w.just_took.get(f.this, "") in kinds
    if isinstance(c, ast.Exists):
        cands, negated = candidates(c.np), c.negated
        pick = cands.nightfall if c.at_nightfall else cands  # type: ignore[attr-defined]
        return lambda w, f: (len(pick(w, f)) == 0) == negated
    if isinstance(c, ast.HoldCount):
        kinds, n, more = set(c.kinds), c.n, c.cmp == "more"

        def hold_count(w: Work, f: Frame) -> bool:
            held = sum(1 for k in w.seats[f.seat].loot if not kinds or k in kinds)
            return held >= n if more else held <= n
        return hold_count
    if isinstance(c, ast.CountExists):
        cands, n, more = candidates(c.np), c.n, c.cmp == "more"

        def count_exists(w: Work, f: Frame) -> bool:
            found = len(cands(w, f))
            return found >= n if more else found <= n
        return count_exists
    assert isinstance(c, ast.YouDid)
    return lambda w, f: f.did


def bound_card(word: str, f: Frame) -> CardRef | None:
    if word == "it":
        return f.it
    return f.this  # "this", or in loot abilities "the character that took this"


def condition_fn(c: ast.Condition) -> CondFn:
    """Groups joined by "or", each a run of conditions joined by "and".

    ``None`` (a condition about an unbound ``it``) makes its group fail to
    decide; the whole is ``None`` only if no group holds and one was undecided.
    """
    groups = [[cond_fn(p) for p in group] for group in c.groups]

    def all_of(w: Work, f: Frame, parts: list[CondFn]) -> bool | None:
        for p in parts:
            v = p(w, f)
            if v is None:
                return None
            if not v:
                return False
        return True

    def run(w: Work, f: Frame) -> bool | None:
        undecided = False
        for parts in groups:
            v = all_of(w, f, parts)
            if v:
                return True
            undecided = undecided or v is None
        return None if undecided else False
    return run
