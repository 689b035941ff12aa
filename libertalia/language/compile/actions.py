"""Actions: each asks all its questions first, then changes the game."""

from __future__ import annotations

from functools import singledispatch

from ...engine import journal
from ...engine.work import Frame, Work
from ...state import CardRef
from .. import ast
from .amounts import amount_fn, counter_fn, player_fn, players_fn, unit_of
from .common import ActionFn, push_frame, push_loot_abilities, source_name
from .selectors import loot_candidates, place_loot, remove_loot, select_chars, select_loot

# ------------------------------------------------------------------ actions


@singledispatch
def action_fn(a: object) -> ActionFn:  # pragma: no cover - every action node is registered
    """The runnable form of one action node."""
    raise TypeError(f"no compiled form for {a!r}")


@action_fn.register
def _(a: ast.Change) -> ActionFn:
    subjects, amount = players_fn(a.subject), amount_fn(a.amount)
    unit = unit_of(a.amount)
    sign = 1 if a.verb == "gain" else -1

    def apply(w: Work, f: Frame, seat: int) -> bool:
        n = amount(w, f, seat)
        if unit == "reputation":
            w.change_reputation(seat, sign * n)
        elif sign > 0:
            w.gain(seat, n)
        else:
            w.lose(seat, n)
        if n:
            if unit == "doubloons":
                w.log(journal.CHANGE_DOUBLOONS, seat, sign * n, source_name(f))
            else:
                w.log(journal.CHANGE, unit, seat, sign * n, source_name(f))
        return n > 0

    fixed = a.amount.n if isinstance(a.amount, ast.Fixed) and a.amount.per is None else None
    if a.subject is None and fixed is not None and unit == "doubloons":
        # "gain 2 doubloons": the commonest action of all, with nothing to work out.
        signed = sign * fixed
        change_coins = Work.gain if sign > 0 else Work.lose

        def coins_own(w: Work, f: Frame) -> None:
            change_coins(w, f.seat, fixed)
            if fixed:
                w.log(journal.CHANGE_DOUBLOONS, f.seat, signed, f.source[2:])
            f.did = fixed > 0
        return coins_own

    if a.subject is None:  # the ability's owner
        def change_own(w: Work, f: Frame) -> None:
            f.did = apply(w, f, f.seat)
        return change_own

    def change(w: Work, f: Frame) -> None:
        did = False
        for seat, named_by in subjects(w, f):
            if named_by is not None:
                f.it = named_by
            did = apply(w, f, seat) or did
        f.did = did
    return change


@action_fn.register
def _(a: ast.PaysYou) -> ActionFn:
    subjects, price = players_fn(a.subject), amount_fn(a.amount)

    def pays(w: Work, f: Frame) -> None:
        did = False
        for payer, named_by in subjects(w, f):
            if named_by is not None:
                f.it = named_by
            if payer == f.seat:
                continue
            n = min(price(w, f, payer), w.seats[payer].coins)
            w.lose(payer, n)
            w.gain(f.seat, n)
            did = did or n > 0
            w.log(journal.PAY, payer, f.seat, n, source_name(f))
        f.did = did
    return pays


@action_fn.register
def _(a: ast.MoveReputation) -> ActionFn:
    end = a.end

    def move(w: Work, f: Frame) -> None:
        f.moved = w.move_reputation_to(f.seat, end)
        f.did = f.moved > 0
        w.log(journal.MOVE_REPUTATION, f.seat, end)
    return move


def _affected(f: Frame, refs: list[CardRef]) -> None:
    """Bind what a character action did: how many, whether any, and ``it`` (the last one)."""
    f.count, f.did = len(refs), bool(refs)
    if refs:
        f.it = refs[-1]


@action_fn.register
def _(a: ast.Discard) -> ActionFn:
    pick = select_chars(a.target, "discard", lambda w, f, r: r[0] is not None)

    def discard(w: Work, f: Frame) -> None:
        by = (f.seat, source_name(f))
        _affected(f, [r for r in pick(w, f) if w.discard(r, by)])
    return discard


@action_fn.register
def _(a: ast.Put) -> ActionFn:
    pile = a.pile
    pick = select_chars(a.target, f"put into your {pile}", lambda w, f, r: r[0] is not None)

    def put(w: Work, f: Frame) -> None:
        # Another player's character changes hands: it is yours now (see Work.take_over).
        _affected(f, [r for r in (w.take_over(r, f.seat) for r in pick(w, f)) if r is not None and w.put(r, pile)])
    return put


@action_fn.register
def _(a: ast.Play) -> ActionFn:
    # A card already on the island cannot be played onto it again (it would act again, for ever).
    pick = select_chars(a.target, "play onto the island", lambda w, f, r: r not in w.island)

    def play(w: Work, f: Frame) -> None:
        refs = pick(w, f)
        for r in refs:
            w.remove(r)
            w.insert_on_island(r)
            w.log(journal.PUT_ON_ISLAND, r[0], r[1])
        _affected(f, refs)
    return play


_PLACES = {"today": "today's loot", "tomorrow": "tomorrow's loot", "bag": "the bag"}
"""Where a token taken came from, as the log says it (a held token: "seat N")."""


@action_fn.register
def _(a: ast.Take) -> ActionFn:
    pick_loot = select_loot(a.loot, "take")

    def take(w: Work, f: Frame) -> None:
        refs = pick_loot(w, f)
        for ref in refs:
            remove_loot(w, ref)
            w.seats[f.seat].loot.append(ref[2])
            fires = ref[0] in ("today", "bag")
            w.log(journal.TAKE_LOOT_FROM, f.seat, ref[2], _PLACES.get(ref[0]) or f"seat {ref[1]}", source_name(f))
            if fires:
                if f.this is not None:
                    w.just_took[f.this] = ref[2]
                push_loot_abilities(w, f.seat, ref[2], "dusk", f.this)
        f.count, f.did = len(refs), bool(refs)
    return take


@action_fn.register
def _(a: ast.ReturnLoot) -> ActionFn:
    pick_loot = select_loot(a.loot, "return to the bag")

    def give_back(w: Work, f: Frame) -> None:
        refs = pick_loot(w, f)
        for ref in refs:
            remove_loot(w, ref)
            w.to_bag(ref[2])
        if refs:
            w.log(journal.RETURN_LOOT, f.seat, tuple(r[2] for r in refs))
        f.count, f.did = len(refs), bool(refs)
    return give_back


@action_fn.register
def _(a: ast.Keep) -> ActionFn:
    # Only a character aboard your ship can stay aboard (R20), and only once.
    pick = select_chars(a.target, "keep",
                        lambda w, f, r: r[0] == f.seat and w.in_zone(r, "ship") and r[1] not in w.seats[f.seat].kept)

    def keep(w: Work, f: Frame) -> None:
        refs = [r for r in pick(w, f) if r[0] == f.seat]
        for r in refs:
            w.seats[f.seat].kept.append(r[1])
            w.log(journal.KEEP, f.seat, r[1])
        f.count, f.did = len(refs), bool(refs)
    return keep


@action_fn.register
def _(a: ast.KeepLoot) -> ActionFn:
    pick_loot = select_loot(a.loot, "keep for the next voyage")

    def keep_loot(w: Work, f: Frame) -> None:
        seat = w.seats[f.seat]
        refs = []
        for ref in pick_loot(w, f):
            # A token is kept once: keeping "a map" and then "every map" keeps each map once.
            if ref[0] == "held" and ref[1] == f.seat and seat.kept_loot.count(ref[2]) < seat.loot.count(ref[2]):
                seat.kept_loot.append(ref[2])
                refs.append(ref)
        if refs:
            w.log(journal.KEEP_LOOT, f.seat, tuple(r[2] for r in refs))
        f.count, f.did = len(refs), bool(refs)
    return keep_loot


@action_fn.register
def _(a: ast.Give) -> ActionFn:
    pick_loot, receiver = select_loot(a.loot, "give away"), player_fn(a.to)  # the checker allows one receiver

    def give(w: Work, f: Frame) -> None:
        to = receiver(w, f)
        refs = [r for r in pick_loot(w, f) if r[0] == "held"] if to != f.seat else []
        for ref in refs:
            remove_loot(w, ref)
            w.seats[to].loot.append(ref[2])
        if refs:
            w.log(journal.GIVE_LOOT, f.seat, tuple(r[2] for r in refs), to)
        f.count, f.did = len(refs), bool(refs)
    return give


@action_fn.register
def _(a: ast.Draw) -> ActionFn:
    n_draw = a.n
    per_draw = counter_fn(a.per) if a.per is not None else None

    def draw(w: Work, f: Frame) -> None:
        count = n_draw * (per_draw(w, f) if per_draw is not None else 1)
        drawn = [k for k in (w.draw_from_bag() for _ in range(count)) if k is not None]
        w.seats[f.seat].loot.extend(drawn)
        if drawn:
            w.log(journal.DRAW_LOOT, f.seat, tuple(drawn))
        f.count, f.did = len(drawn), bool(drawn)
    return draw


@action_fn.register
def _(a: ast.Swap) -> ActionFn:
    first, second = select_loot(a.first, "swap"), select_loot(a.second, "swap with")
    # R1/R22: with nothing on either side (the last day has no tomorrow) ask nothing.
    sides = [loot_candidates(s.np) for s in (a.first, a.second)]

    def swap(w: Work, f: Frame) -> None:
        if not all(side(w, f) for side in sides):
            f.did = False
            return
        a_refs = first(w, f)
        b_refs = second(w, f) if a_refs else []
        if not a_refs or not b_refs:
            f.did = False
            return
        ra, rb = a_refs[0], b_refs[0]
        remove_loot(w, ra)
        remove_loot(w, rb)
        place_loot(w, ra, rb[2])
        place_loot(w, rb, ra[2])
        f.did = True
        w.log(journal.SWAP_LOOT, f.seat, ra[2], rb[2])
    return swap


@action_fn.register
def _(a: ast.UseAbility) -> ActionFn:
    timing = a.timing

    def borrowable(w: Work, f: Frame, r: CardRef) -> bool:
        if not w.rules.card(r[1]).acts(timing):
            return False  # a standing rule ("take no loot") is nothing to use
        # No ability runs inside itself: a card whose text is already running,
        # natively or borrowed, anywhere down the chain, cannot be borrowed.
        return r != f.this and all(fr.origin != r for fr in w.frames)
    pick = select_chars(a.target, f"borrow its {timing} ability", borrowable)

    def use(w: Work, f: Frame) -> None:
        refs = pick(w, f)
        f.did = bool(refs)
        for r in refs:
            spec = w.rules.card(r[1])
            if f.this is not None:
                w.log(journal.BORROW_BY, f.seat, f.this[1].partition("#")[0], timing, spec.name)
            else:  # a loot tile's ability borrowing: no card of its own to name
                w.log(journal.BORROW, f.seat, timing, spec.name)
            for i in reversed(range(len(spec.compiled))):
                if spec.compiled[i].timing == timing and not spec.compiled[i].passive:
                    push_frame(w, f"c:{r[1]}", i, f.seat, f.this, origin=r)
    return use


@action_fn.register
def _(a: ast.CountExtra) -> ActionFn:
    n, kind = a.n, a.kind

    def count_extra(w: Work, f: Frame) -> None:
        w.extra[(f.seat, kind)] = w.extra.get((f.seat, kind), 0) + n
        f.did = True
    return count_extra


@action_fn.register
def _(a: ast.TakeNoLoot) -> ActionFn:
    """A standing rule read when the rules load (the card takes no dusk loot): nothing to run."""
    return lambda w, f: None
