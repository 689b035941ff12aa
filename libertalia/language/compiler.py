"""Syntax tree to runnable instructions, once per ``load_rules``.

An ability becomes a flat tuple of closures; each runs one action (or one
branch test) against the working game and returns the next program counter.
Conditions and ``may`` become jumps, so a suspended ability is just a program
counter plus the answers given so far: plain data (design.md §2).

An action asks all its questions before it changes anything, so re-running it
with one more answer after a suspension repeats no side effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..engine.work import Frame, Work, with_article
from ..state import CardRef, Option
from . import ast
from .render import render_ability

if TYPE_CHECKING:
    from ..loading.specs import Compiled, Instruction

CharFn = Callable[[Work, Frame], list[CardRef]]
IntFn = Callable[[Work, Frame], int]
CondFn = Callable[[Work, Frame], "bool | None"]
LootRef = tuple[str, int, str]  # (place, seat or -1, kind); place: today/tomorrow/bag/held
ActionFn = Callable[[Work, Frame], None]

_UNBOUND = None


class Unbound(Exception):
    """``it`` or an owner was needed but nothing is bound: skip the step."""


def _source_name(f: Frame) -> str:
    return f.source[2:]


# ------------------------------------------------------------------ characters
def _candidates(np: ast.CharNP) -> CharFn:
    """Every character the noun phrase describes, in a stable order."""
    zone = np.zone
    assert zone is not None, "the checker guarantees a zone"
    tests: list[Callable[[Work, Frame, CardRef], bool]] = []
    if np.other:
        tests.append(lambda w, f, r: r != f.this)
    if np.noun != "character":
        noun = np.noun
        tests.append(lambda w, f, r: r[1] == noun)
    for flt in np.filters:
        if isinstance(flt, ast.RankedAbove):
            above = flt.rank
            tests.append(lambda w, f, r, above=above: w.rules.rank(r[1]) > above)  # type: ignore[misc]
        elif isinstance(flt, ast.RankedBelow):
            below = flt.rank
            tests.append(lambda w, f, r, below=below: w.rules.rank(r[1]) < below)  # type: ignore[misc]
        elif isinstance(flt, ast.WithAbility):
            timing = flt.timing
            tests.append(lambda w, f, r, timing=timing: w.rules.card(r[1]).has(timing))  # type: ignore[misc]
        elif isinstance(flt, ast.OwnedBy):
            if flt.who == "other":
                tests.append(lambda w, f, r: r[0] is not None and r[0] != f.seat)
            else:
                tests.append(lambda w, f, r: r[0] == f.seat)

    place, pile = zone.place, zone.pile

    def source(w: Work, f: Frame, nightfall: bool = False) -> list[CardRef]:
        if place == "island":
            return list(w.island)
        if place == "your":
            if nightfall and pile == "ship" and w.census is not None:
                return [(f.seat, n) for n in w.census[f.seat]]
            return [(f.seat, n) for n in w.seats[f.seat].pile(pile)]
        if place == "any_ship":
            seats = list(range(w.n))
        elif place == "other_ship":
            seats = [s for s in range(w.n) if s != f.seat]
        else:
            seats = w.adjacent(f.seat)
        if nightfall and w.census is not None:
            return [(s, n) for s in seats for n in w.census[s]]
        return [(s, n) for s in seats for n in w.seats[s].ship]

    def run(w: Work, f: Frame) -> list[CardRef]:
        return [r for r in source(w, f) if all(t(w, f, r) for t in tests)]

    def at_nightfall(w: Work, f: Frame) -> list[CardRef]:
        return [r for r in source(w, f, True) if all(t(w, f, r) for t in tests)]

    run.nightfall = at_nightfall  # type: ignore[attr-defined]
    return run


def _pick_positional(position: str, refs: list[CardRef], w: Work) -> CardRef | None:
    if not refs:
        return None
    if position == "leftmost":
        return refs[0]
    if position == "rightmost":
        return refs[-1]
    if position == "lowest-ranked":
        return min(refs, key=lambda r: w.rules.rank(r[1]))
    return max(refs, key=lambda r: w.rules.rank(r[1]))


def _select_chars(sel: ast.CharSel, verb: str, extra: Callable[[Work, Frame, CardRef], bool] | None = None,
                  ) -> Callable[[Work, Frame], list[CardRef]]:
    """Resolve a character selector, asking the owner where it is a choice."""
    if isinstance(sel, (ast.This, ast.Taker)):
        # In a loot ability the frame's ``this`` is the character that took the token.
        def this(w: Work, f: Frame) -> list[CardRef]:
            return [f.this] if f.this is not None and (extra is None or extra(w, f, f.this)) else []
        return this
    if isinstance(sel, ast.It):
        def it(w: Work, f: Frame) -> list[CardRef]:
            if f.it is None:
                raise Unbound
            return [f.it] if extra is None or extra(w, f, f.it) else []
        return it
    cands = _candidates(sel.np)
    if isinstance(sel, ast.EveryChar):
        def every(w: Work, f: Frame) -> list[CardRef]:
            return [r for r in cands(w, f) if extra is None or extra(w, f, r)]
        return every
    if isinstance(sel, ast.Positional):
        position = sel.position

        def positional(w: Work, f: Frame) -> list[CardRef]:
            ref = _pick_positional(position, cands(w, f), w)
            return [ref] if ref is not None and (extra is None or extra(w, f, ref)) else []
        return positional

    def choose(w: Work, f: Frame) -> list[CardRef]:
        refs = [r for r in cands(w, f) if r[0] is not None and (extra is None or extra(w, f, r))]
        if not refs:
            return []
        options = [Option(w.key_for(r, f.seat), _label(w, r, f.seat)) for r in refs]
        key = w.ask(f, f.seat, "choose_character", options, f"choose a character to {verb}", _source_name(f))
        return [refs[[o.key for o in options].index(key)]]
    return choose


def _label(w: Work, ref: CardRef, seat: int) -> str:
    owner = "your" if ref[0] == seat else f"seat {ref[0]}'s"
    return f"{owner} {ref[1]} ({w.rules.rank(ref[1]):g}, {w.zone_of(ref)})"


# ------------------------------------------------------------------ loot
def _loot_candidates(np: ast.LootNP) -> Callable[[Work, Frame], list[LootRef]]:
    kinds = set(np.kinds)
    place = np.place

    def run(w: Work, f: Frame) -> list[LootRef]:
        if place == "today":
            refs = [("today", -1, k) for k in w.today()]
        elif place == "tomorrow":
            refs = [("tomorrow", -1, k) for k in (w.tomorrow() or [])]
        elif place == "bag":
            refs = [("bag", -1, k) for k in w.bag_tokens()]
        elif place == "held":
            refs = [("held", f.seat, k) for k in w.seats[f.seat].loot]
        else:
            refs = [("held", s, k) for s in w.adjacent(f.seat) for k in w.seats[s].loot]
        return [r for r in refs if not kinds or r[2] in kinds]
    return run


def _loot_key(ref: LootRef, seat: int) -> str:
    return ref[2] if ref[1] in (-1, seat) else f"{ref[2]}@{ref[1]}"


def _choose_loot(w: Work, f: Frame, refs: list[LootRef], prompt: str) -> LootRef | None:
    if not refs:
        return None
    seen: dict[str, LootRef] = {}
    for r in refs:
        seen.setdefault(_loot_key(r, f.seat), r)
    options = [Option(k, _loot_label(k)) for k in seen]
    key = w.ask(f, f.seat, "choose_loot", options, prompt, _source_name(f))
    return seen[key]


def _loot_label(key: str) -> str:
    kind, _, seat = key.partition("@")
    return f"{kind} from seat {seat}" if seat else kind


def _select_loot(sel: ast.LootSel, verb: str) -> Callable[[Work, Frame], list[LootRef]]:
    if isinstance(sel, ast.AllBut):
        keep = sel.keep

        def all_but(w: Work, f: Frame) -> list[LootRef]:
            held = [("held", f.seat, k) for k in w.seats[f.seat].loot]
            for _ in range(keep):
                kept = _choose_loot(w, f, held, "choose a loot token to keep")
                if kept is None:
                    break
                held.remove(kept)
            return held
        return all_but
    cands = _loot_candidates(sel.np)
    if isinstance(sel, ast.EveryLoot):
        return cands
    if isinstance(sel, ast.RandomLoot):
        def random(w: Work, f: Frame) -> list[LootRef]:
            refs = cands(w, f)
            return [refs[w.random(len(refs))]] if refs else []
        return random

    def choose(w: Work, f: Frame) -> list[LootRef]:
        ref = _choose_loot(w, f, cands(w, f), f"choose a loot token to {verb}")
        return [ref] if ref is not None else []
    return choose


def _remove_loot(w: Work, ref: LootRef) -> None:
    place, seat, kind = ref
    if place == "today":
        w.today().remove(kind)
    elif place == "tomorrow":
        tomorrow = w.tomorrow()
        assert tomorrow is not None
        tomorrow.remove(kind)
    elif place == "bag":
        w.bag[kind] -= 1
    else:
        w.seats[seat].loot.remove(kind)


# ------------------------------------------------------------------ amounts
def _counter(c: ast.Counter) -> IntFn:
    if isinstance(c, ast.CountCharacters):
        cands = _candidates(c.np)
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


def _table(rows: tuple[ast.Row, ...], n: int) -> int:
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


def _amount(a: ast.Amount, who: Callable[[Work, Frame], int]) -> IntFn:
    if isinstance(a, ast.Fixed):
        n = a.n
        if a.per is None:
            return lambda w, f: n
        per = _counter(a.per)
        return lambda w, f: n * per(w, f)
    if isinstance(a, ast.Half):
        return lambda w, f: w.seats[who(w, f)].coins // 2
    if isinstance(a, ast.UpTo):
        target = a.n
        return lambda w, f: max(0, target - w.seats[who(w, f)].coins)
    if isinstance(a, ast.ByTable):
        counter, rows = _counter(a.counter), a.rows
        return lambda w, f: _table(rows, counter(w, f))
    kind, set_rows = a.kind, a.rows

    def in_sets(w: Work, f: Frame) -> int:
        seat = who(w, f)
        n = w.seats[seat].loot.count(kind) + w.extra.get((seat, kind), 0)
        return best_sets(n, set_rows)
    return in_sets


def _unit(a: ast.Amount) -> str:
    return a.unit if isinstance(a, ast.Fixed) else "doubloons"


# ------------------------------------------------------------------ players
def _player(p: ast.PlayerRef | None) -> Callable[[Work, Frame], int]:
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
    target = _select_chars(p.target, "name")

    def owner_of(w: Work, f: Frame) -> int:
        refs = target(w, f)
        if not refs:
            raise Unbound
        f.it = refs[0]
        if refs[0][0] is None:
            raise Unbound  # a neutral card owns nothing (R13)
        return refs[0][0]
    return owner_of


# ------------------------------------------------------------------ conditions
def _cond(c: ast.Cond) -> CondFn:
    if isinstance(c, ast.IsPositioned):
        cands, position, ref = _candidates(c.np), c.position, c.ref

        def is_positioned(w: Work, f: Frame) -> bool | None:
            me = _ref(ref, f)
            return _pick_positional(position, cands(w, f), w) == me
        return is_positioned
    if isinstance(c, ast.IsOnIsland):
        ref = c.ref
        return lambda w, f: _ref(ref, f) in w.island
    if isinstance(c, ast.IsRanked):
        ref, above, rank = c.ref, c.above, c.rank

        def is_ranked(w: Work, f: Frame) -> bool | None:
            me = _ref(ref, f)
            if me is None:
                return None
            return w.rules.rank(me[1]) > rank if above else w.rules.rank(me[1]) < rank
        return is_ranked
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
        kinds = set(c.kinds)
        return lambda w, f: any(not kinds or k in kinds for k in w.seats[f.seat].loot)
    if isinstance(c, ast.JustTook):
        kinds = set(c.kinds)
        return lambda w, f: f.this is not None and w.just_took.get(f.this, "") in kinds
    if isinstance(c, ast.Exists):
        cands, negated = _candidates(c.np), c.negated
        pick = cands.nightfall if c.at_nightfall else cands  # type: ignore[attr-defined]
        return lambda w, f: (len(pick(w, f)) == 0) == negated
    if isinstance(c, ast.ItWasYours):
        def it_was_yours(w: Work, f: Frame) -> bool | None:
            if f.it is None:
                return None
            return f.it[0] == f.seat
        return it_was_yours
    if isinstance(c, ast.YouDid):
        return lambda w, f: f.did
    n_gained = c.n
    return lambda w, f: f.gained >= n_gained


def _ref(word: str, f: Frame) -> CardRef | None:
    if word == "it":
        return f.it
    return f.this  # "this", or in loot abilities "the character that took this"


def _condition(c: ast.Condition) -> CondFn:
    parts = [_cond(p) for p in c.parts]

    def run(w: Work, f: Frame) -> bool | None:
        for p in parts:
            v = p(w, f)
            if v is None:
                return None
            if not v:
                return False
        return True
    return run


# ------------------------------------------------------------------ actions
def _action(a: ast.Action) -> ActionFn:  # noqa: C901 - one dispatch over the action kinds
    if isinstance(a, ast.Change):
        who = _player(a.subject)
        amount = _amount(a.amount, who)
        unit = _unit(a.amount)
        sign = 1 if a.verb == "gain" else -1

        def change(w: Work, f: Frame) -> None:
            seat = who(w, f)
            n = amount(w, f)
            if unit == "reputation":
                w.change_reputation(seat, sign * n)
            elif sign > 0:
                w.gain(seat, n)
                f.gained = n
            else:
                w.lose(seat, n)
            if n:
                what = "doubloon" if unit == "doubloons" and n == 1 else unit
                w.log(unit, f"seat {seat} {'gains' if sign > 0 else 'loses'} {n} {what} ({_source_name(f)})", seat,
                      _source_name(f), sign * n if unit == "doubloons" else 0)
            f.did = n > 0
        return change
    if isinstance(a, ast.PaysYou):
        payer_of = _player(a.subject)
        price = _amount(a.amount, payer_of)

        def pays(w: Work, f: Frame) -> None:
            payer = payer_of(w, f)
            if payer == f.seat:
                f.did = False
                return
            n = min(price(w, f), w.seats[payer].coins)
            w.lose(payer, n)
            w.gain(f.seat, n)
            f.did = n > 0
            w.log("pay", f"seat {payer} pays seat {f.seat} {n} doubloons ({_source_name(f)})", f.seat,
                  _source_name(f), n)
        return pays
    if isinstance(a, ast.MoveReputation):
        end = a.end

        def move(w: Work, f: Frame) -> None:
            f.moved = w.move_reputation_to(f.seat, end)
            f.did = f.moved > 0
            w.log("reputation", f"seat {f.seat} moves to the {end} reputation space", f.seat)
        return move
    if isinstance(a, ast.Discard):
        pick = _select_chars(a.target, "discard", lambda w, f, r: r[0] is not None)

        def discard(w: Work, f: Frame) -> None:
            refs = pick(w, f)
            done = [r for r in refs if w.discard(r)]
            f.count, f.did = len(done), bool(done)
            if done:
                f.it = done[-1]
        return discard
    if isinstance(a, ast.Put):
        pile = a.pile
        pick = _select_chars(a.target, f"put into your {pile}")

        def put(w: Work, f: Frame) -> None:
            done = [r for r in pick(w, f) if r[0] == f.seat and w.put(r, pile)]
            f.count, f.did = len(done), bool(done)
            if done:
                f.it = done[-1]
        return put
    if isinstance(a, ast.Play):
        pick = _select_chars(a.target, "play onto the island")

        def play(w: Work, f: Frame) -> None:
            refs = pick(w, f)
            for r in refs:
                w.remove(r)
                w.insert_on_island(r)
                w.log("play", f"seat {r[0]} puts {r[1]} onto the island", r[0])
            f.count, f.did = len(refs), bool(refs)
            if refs:
                f.it = refs[-1]
        return play
    if isinstance(a, ast.Take):
        pick_loot = _select_loot(a.loot, "take")

        def take(w: Work, f: Frame) -> None:
            refs = pick_loot(w, f)
            for ref in refs:
                _remove_loot(w, ref)
                w.seats[f.seat].loot.append(ref[2])
                fires = ref[0] in ("today", "bag")
                w.log("loot", f"seat {f.seat} takes {with_article(ref[2])} ({_source_name(f)})", f.seat)
                if fires:
                    if f.this is not None:
                        w.just_took[f.this] = ref[2]
                    push_loot_abilities(w, f.seat, ref[2], "dusk", f.this)
            f.count, f.did = len(refs), bool(refs)
        return take
    if isinstance(a, ast.ReturnLoot):
        pick_loot = _select_loot(a.loot, "return to the bag")

        def give_back(w: Work, f: Frame) -> None:
            refs = pick_loot(w, f)
            for ref in refs:
                _remove_loot(w, ref)
                w.to_bag(ref[2])
            if refs:
                w.log("loot", f"seat {f.seat} returns {', '.join(r[2] for r in refs)} to the bag", f.seat)
            f.count, f.did = len(refs), bool(refs)
        return give_back
    if isinstance(a, ast.Keep):
        pick = _select_chars(a.target, "keep", lambda w, f, r: r[1] not in w.seats[f.seat].kept)

        def keep(w: Work, f: Frame) -> None:
            refs = [r for r in pick(w, f) if r[0] == f.seat]
            for r in refs:
                w.seats[f.seat].kept.append(r[1])
                w.log("keep", f"seat {f.seat} keeps {r[1]} aboard for the next voyage", f.seat)
            f.count, f.did = len(refs), bool(refs)
        return keep
    if isinstance(a, ast.KeepLoot):
        pick_loot = _select_loot(a.loot, "keep for the next voyage")

        def keep_loot(w: Work, f: Frame) -> None:
            refs = [r for r in pick_loot(w, f) if r[0] == "held" and r[1] == f.seat]
            for ref in refs:
                w.seats[f.seat].kept_loot.append(ref[2])
            if refs:
                w.log("keep", f"seat {f.seat} keeps {', '.join(r[2] for r in refs)} for the next voyage", f.seat)
            f.count, f.did = len(refs), bool(refs)
        return keep_loot
    if isinstance(a, ast.Give):
        pick_loot, receiver = _select_loot(a.loot, "give away"), _player(a.to)

        def give(w: Work, f: Frame) -> None:
            to = receiver(w, f)
            refs = [r for r in pick_loot(w, f) if r[0] == "held"] if to != f.seat else []
            for ref in refs:
                _remove_loot(w, ref)
                w.seats[to].loot.append(ref[2])
            if refs:
                w.log("loot", f"seat {f.seat} gives {', '.join(r[2] for r in refs)} to seat {to}", f.seat)
            f.count, f.did = len(refs), bool(refs)
        return give
    if isinstance(a, ast.Draw):
        n_draw = a.n
        per_draw = _counter(a.per) if a.per is not None else None

        def draw(w: Work, f: Frame) -> None:
            count = n_draw * (per_draw(w, f) if per_draw is not None else 1)
            drawn = [k for k in (w.draw_from_bag() for _ in range(count)) if k is not None]
            w.seats[f.seat].loot.extend(drawn)
            if drawn:
                w.log("loot", f"seat {f.seat} draws {', '.join(drawn)} from the bag", f.seat)
            f.count, f.did = len(drawn), bool(drawn)
        return draw
    if isinstance(a, ast.Swap):
        first, second = _select_loot(a.first, "swap"), _select_loot(a.second, "swap with")
        # R1/R22: with nothing on either side (the last day has no tomorrow) ask nothing.
        sides = [_loot_candidates(s.np) for s in (a.first, a.second) if not isinstance(s, ast.AllBut)]

        def swap(w: Work, f: Frame) -> None:
            if not all(side(w, f) for side in sides):
                f.did = False
                return
            a_refs = first(w, f)
            b_refs = second(w, f) if a_refs else []
            if not a_refs or not b_refs:
                f.did = False
                return
            (pa, _, ka), (pb, _, kb) = a_refs[0], b_refs[0]
            _remove_loot(w, a_refs[0])
            _remove_loot(w, b_refs[0])
            _place_loot(w, pa, kb)
            _place_loot(w, pb, ka)
            f.did = True
            w.log("loot", f"seat {f.seat} swaps {with_article(ka)} for {with_article(kb)}", f.seat)
        return swap
    if isinstance(a, ast.UseAbility):
        timing = a.timing

        def borrowable(w: Work, f: Frame, r: CardRef) -> bool:
            if not w.rules.card(r[1]).has(timing):
                return False
            # A card whose ability is already running cannot be borrowed again:
            # that would let two Apprentices copy each other for ever.
            busy = {(fr.seat, fr.source[2:]) for fr in w.frames if fr.source[0] == "c"}
            return (r[0], r[1]) not in busy and r != f.this
        pick = _select_chars(a.target, f"borrow its {timing} ability", borrowable)

        def use(w: Work, f: Frame) -> None:
            refs = pick(w, f)
            f.did = bool(refs)
            for r in refs:
                spec = w.rules.card(r[1])
                w.log("borrow", f"seat {f.seat} uses the {timing} ability of {r[1]}", f.seat)
                for i in reversed(range(len(spec.compiled))):
                    if spec.compiled[i].timing == timing:
                        push_frame(w, f"c:{r[1]}", i, f.seat, f.this)
        return use
    if isinstance(a, ast.CountExtra):
        n, kind = a.n, a.kind

        def count_extra(w: Work, f: Frame) -> None:
            w.extra[(f.seat, kind)] = w.extra.get((f.seat, kind), 0) + n
            f.did = True
        return count_extra
    if isinstance(a, ast.Sell):
        table = dict(zip(a.counts, a.prices, strict=True))

        def sell(w: Work, f: Frame) -> None:
            held = w.seats[f.seat].loot
            options = [
                Option(f"{k}*{n}", f"return {n} {k} for {price}")
                for k in w.rules.kinds if k in held
                for n, price in table.items() if held.count(k) >= n
            ]
            f.did = False
            if not options:
                return
            key = w.ask(f, f.seat, "choose_loot", options, "choose what to sell", _source_name(f))
            kind, _, count = key.partition("*")
            for _ in range(int(count)):
                held.remove(kind)
                w.to_bag(kind)
            w.gain(f.seat, table[int(count)])
            f.count, f.did, f.gained = int(count), True, table[int(count)]
            w.log("sell", f"seat {f.seat} sells {count} {kind} for {table[int(count)]}", f.seat,
                  _source_name(f), table[int(count)])
        return sell
    assert isinstance(a, ast.TakeNoLoot)
    return lambda w, f: None


def _place_loot(w: Work, place: str, kind: str) -> None:
    if place == "today":
        w.today().append(kind)
    else:
        tomorrow = w.tomorrow()
        assert tomorrow is not None
        tomorrow.append(kind)


def push_frame(w: Work, source: str, index: int, seat: int, this: CardRef | None) -> None:
    w.frames.append(Frame.start(source, index, seat, this, w.rules.sources[source][index].code))


def push_loot_abilities(w: Work, seat: int, kind: str, timing: str, taker: CardRef | None) -> None:
    """Resolve a token's ``timing`` abilities now (R6: only when taken from a day or the bag)."""
    spec = w.rules.loot_spec(kind)
    for i in reversed(range(len(spec.compiled))):
        if spec.compiled[i].timing == timing:
            push_frame(w, f"l:{kind}", i, seat, taker)


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
    """Whether a ``may`` action has anything to choose from (R1: never ask in vain)."""
    loot = getattr(a, "loot", None)
    if isinstance(loot, ast.ChooseLoot):
        loot_cands = _loot_candidates(loot.np)
        return lambda w, f: bool(loot_cands(w, f))
    target = getattr(a, "target", None)
    if not isinstance(target, ast.ChooseChar):
        return lambda w, f: True
    cands = _candidates(target.np)
    keeping = isinstance(a, ast.Keep)  # a character can be kept once (R20)

    def possible(w: Work, f: Frame) -> bool:
        kept = w.seats[f.seat].kept if keeping else ()
        return any(r[0] is not None and r[1] not in kept for r in cands(w, f))
    return possible


def compile_ability(ability: ast.Ability) -> Compiled:
    from ..loading.specs import Compiled

    code: list[Instruction] = []

    def emit_actions(actions: tuple[ast.Action, ...]) -> None:
        for act in actions:
            code.append(_instruction(_action(act)))

    for step in ability.steps:
        if step.form == "plain":
            emit_actions(step.actions)
            continue
        branch_at = len(code)
        code.append(_placeholder)
        emit_actions(step.actions)
        jump_at = len(code)
        if step.otherwise:
            code.append(_placeholder)
        else_at = len(code)
        if step.otherwise:
            emit_actions(step.otherwise)
        end_at = len(code)
        if step.otherwise:
            code[jump_at] = _jump(end_at)
        if step.form == "may":
            code[branch_at] = _may(_may_possible(step.actions[0]), else_at, render_ability(ability))
        else:
            assert step.condition is not None
            code[branch_at] = _branch(_condition(step.condition), else_at, end_at)

    early = all(isinstance(a, ast.CountExtra) for s in ability.steps for a in s.actions)
    constant_gain = all(
        s.form == "plain"
        and all(isinstance(a, ast.Change) and a.verb == "gain" and a.subject is None
                and isinstance(a.amount, ast.Fixed) and a.amount.per is None
                and a.amount.unit == "doubloons" for a in s.actions)
        for s in ability.steps
    )
    passive = all(isinstance(a, ast.TakeNoLoot) for s in ability.steps for a in s.actions)
    return Compiled(
        timing=ability.timing, last=ability.last, once=ability.once, early=early,
        constant_gain=constant_gain, passive=passive, text=render_ability(ability), code=tuple(code),
    )


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


def _may(possible: Callable[[Work, Frame], bool], else_at: int, text: str) -> Instruction:
    def may(w: Work, f: Frame) -> int:
        if not possible(w, f):
            return else_at
        options = [Option("yes", "yes"), Option("no", "no")]
        key = w.ask(f, f.seat, "may", options, f"{text} Do you want to?", _source_name(f))
        return f.pc + 1 if key == "yes" else else_at
    return may
