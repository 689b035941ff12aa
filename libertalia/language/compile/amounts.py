"""How many: counters, amounts and the players an action is about."""

from __future__ import annotations

from collections.abc import Callable

from ...engine.work import Frame, Work
from .. import ast
from .common import IntFn, Unbound
from .selectors import candidates, select_chars


# ------------------------------------------------------------------ amounts
def counter_fn(c: ast.Counter) -> IntFn:
    if isinstance(c, ast.CountCharacters):
        cands = candidates(c.np)
        return lambda w, f: len(cands(w, f))
    if isinstance(c, ast.CountLoot):
        kinds = set(c.kinds)
        if not kinds:
            return lambda w, f: len(w.seats[f.seat].loot)
        return lambda w, f: sum(1 for k in w.seats[f.seat].loot if k in kinds)
    if isinstance(c, ast.CountKinds):
        return lambda w, f: len(set(w.seats[f.seat].loot))
    if isinstance(c, ast.CountMoved):
        return lambda w, f: f.moved
    if isinstance(c, ast.CountSpaces):
        if c.side == "left":
            return lambda w, f: w.reputation(f.seat)
        return lambda w, f: len(w.track) - 1 - w.reputation(f.seat)
    return lambda w, f: f.count


def table(rows: tuple[ast.Row, ...], n: int) -> int:
    value = 0
    for r in rows:
        if n == r.count or (r.or_more and n >= r.count):
            value = r.value
    return value


def best_sets(n: int, rows: tuple[ast.Row, ...]) -> int:
    """Best total from splitting ``n`` items into sets priced by ``rows`` (R14)."""
    best = [0] * (n + 1)
    for i in range(1, n + 1):
        best[i] = best[i - 1]
        for r in rows:
            if r.count <= i:
                best[i] = max(best[i], best[i - r.count] + r.value)
    return best[n]


def amount_fn(a: ast.Amount, who: Callable[[Work, Frame], int]) -> IntFn:
    if isinstance(a, ast.Fixed):
        n = a.n
        if a.per is None:
            return lambda w, f: n
        per = counter_fn(a.per)
        return lambda w, f: n * per(w, f)
    if isinstance(a, ast.Half):
        return lambda w, f: w.seats[who(w, f)].coins // 2
    if isinstance(a, ast.UpTo):
        target = a.n
        return lambda w, f: max(0, target - w.seats[who(w, f)].coins)
    if isinstance(a, ast.ByTable):
        counter, rows = counter_fn(a.counter), a.rows
        return lambda w, f: table(rows, counter(w, f))
    kind, set_rows = a.kind, a.rows

    def in_sets(w: Work, f: Frame) -> int:
        seat = who(w, f)
        n = w.seats[seat].loot.count(kind) + w.extra.get((seat, kind), 0)
        return best_sets(n, set_rows)
    return in_sets


def unit_of(a: ast.Amount) -> str:
    return a.unit if isinstance(a, ast.Fixed) else "doubloons"


# ------------------------------------------------------------------ players
def player_fn(p: ast.PlayerRef | None) -> Callable[[Work, Frame], int]:
    if p is None:
        return lambda w, f: f.seat
    if isinstance(p, ast.PlayerOnSide):
        step = 1 if p.side == "left" else -1
        return lambda w, f: (f.seat + step) % w.n
    if isinstance(p, ast.ItsOwner):
        def its_owner(w: Work, f: Frame) -> int:
            if f.it is None or f.it[0] is None:
                raise Unbound
            return f.it[0]
        return its_owner
    target = select_chars(p.target, "name")

    def owner_of(w: Work, f: Frame) -> int:
        refs = target(w, f)
        if not refs:
            raise Unbound
        f.it = refs[0]
        if refs[0][0] is None:
            raise Unbound  # a neutral card owns nothing (R13)
        return refs[0][0]
    return owner_of
