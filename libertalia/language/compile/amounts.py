"""How many: counters, amounts and the players an action is about."""

from __future__ import annotations

from collections.abc import Callable

from ...engine.work import Frame, Work
from ...state import CardRef
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
        of_kinds = set(c.kinds)
        return lambda w, f: len({k for k in w.seats[f.seat].loot if not of_kinds or k in of_kinds})
    if isinstance(c, ast.CountMoved):
        return lambda w, f: f.moved
    if isinstance(c, ast.CountSpaces):
        if c.side == "left":
            return lambda w, f: w.reputation(f.seat)
        return lambda w, f: len(w.track) - 1 - w.reputation(f.seat)
    return lambda w, f: f.count


def table(rows: tuple[ast.Row, ...], n: int) -> int:
    """The value of the last row that ``n`` matches (exactly, or "or more"/"or fewer")."""
    value = 0
    for r in rows:
        if n == r.count or (r.cmp == "more" and n >= r.count) or (r.cmp == "fewer" and n <= r.count):
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


SeatAmount = Callable[[Work, Frame, int], int]
"""An amount for one subject seat: ``half your doubloons`` and ``doubloons up to N`` are that seat's own."""


def amount_fn(a: ast.Amount) -> SeatAmount:
    """The amount for the subject seat given with each call.

    The seat is an argument, never a cell the compiled code writes: the code is shared by
    every game of the rules, so any state kept in it would leak between games on threads.
    """
    if isinstance(a, ast.Fixed):
        n = a.n
        if a.per is None:
            return lambda w, f, seat: n
        per = counter_fn(a.per)
        return lambda w, f, seat: n * per(w, f)
    if isinstance(a, ast.Half):
        return lambda w, f, seat: w.seats[seat].coins // 2
    if isinstance(a, ast.UpTo):
        target = a.n
        return lambda w, f, seat: max(0, target - w.seats[seat].coins)
    if isinstance(a, ast.ByTable):
        counter, rows = counter_fn(a.counter), a.rows
        return lambda w, f, seat: table(rows, counter(w, f))
    kind, set_rows = a.kind, a.rows

    def in_sets(w: Work, f: Frame, seat: int) -> int:
        n = w.seats[seat].loot.count(kind) + w.extra.get((seat, kind), 0)
        return best_sets(n, set_rows)
    return in_sets


def unit_of(a: ast.Amount) -> str:
    return a.unit if isinstance(a, ast.Fixed) else "doubloons"


# ------------------------------------------------------------------ players
Subjects = Callable[[Work, Frame], list[tuple[int, CardRef | None]]]
"""The players an action is about, each with the character that named it (bound to ``it``)."""


def players_fn(p: ast.PlayerRef | None) -> Subjects:
    """Every player the phrase names, in order; "the owner of every …" names one per character."""
    if p is None:
        return lambda w, f: [(f.seat, None)]
    if isinstance(p, ast.PlayerOnSide):
        step = 1 if p.side == "left" else -1
        return lambda w, f: [((f.seat + step) % w.n, None)]
    if isinstance(p, ast.EveryPlayer):
        other = p.other
        return lambda w, f: [(s, None) for s in range(w.n) if not (other and s == f.seat)]
    if isinstance(p, ast.ItsOwner):
        def its_owner(w: Work, f: Frame) -> list[tuple[int, CardRef | None]]:
            if f.it is None:
                raise Unbound
            return [] if f.it[0] is None else [(f.it[0], f.it)]  # a neutral card owns nothing (R13)
        return its_owner
    target = select_chars(p.target, "name")

    def owners_of(w: Work, f: Frame) -> list[tuple[int, CardRef | None]]:
        refs = target(w, f)
        if not refs:
            raise Unbound
        f.it = refs[-1]
        return [(r[0], r) for r in refs if r[0] is not None]  # a neutral card owns nothing (R13)
    return owners_of


def player_fn(p: ast.PlayerRef | None) -> Callable[[Work, Frame], int]:
    """The one player a phrase names (the checker allows only such phrases where one is needed)."""
    players = players_fn(p)

    def one(w: Work, f: Frame) -> int:
        found = players(w, f)
        if not found:
            raise Unbound
        return found[0][0]
    return one
