"""Meaning checks that the grammar cannot make.

The grammar accepts any Capitalised name and any lower-case loot word; this
module checks them against the loaded rules and catches sentences that parse
but could never run: a character phrase with no zone, a random pick outside
the bag, ``it`` before anything was picked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from ..errors import CardError
from . import ast

Report = Callable[[str, int, int, str], CardError]


@attrs.frozen
class Vocabulary:
    """The names a card may mention."""

    names: frozenset[str]
    kinds: frozenset[str]


def check(abilities: tuple[ast.Ability, ...], vocab: Vocabulary, report: Report, *, loot: bool) -> None:
    """Raise the first problem found, located at its line and column."""
    for ability in abilities:
        _check_ability(ability, vocab, report, loot)


def _check_ability(a: ast.Ability, vocab: Vocabulary, report: Report, loot: bool) -> None:
    if len(set(a.modifiers)) != len(a.modifiers):
        raise report("a modifier is repeated", a.line, a.column, "each of last and once at most once")
    if a.once and not loot:
        raise report('"once" is for loot abilities', a.line, a.column, "a trigger without once")
    bound = False  # whether ``it`` can be bound at this point
    for step in a.steps:
        for act in _actions(step):
            if isinstance(act, ast.TakeNoLoot) and (a.timing != "dusk" or len(a.steps) != 1):
                raise report('"take no loot" must stand alone in a dusk ability', act.line, act.column,
                             "dusk: take no loot.")
        if step.condition is not None:
            for c in step.condition.parts:
                ref = getattr(c, "ref", None)
                refers_to_it = isinstance(c, ast.ItWasYours) or ref == "it"
                if isinstance(c, ast.LastVoyage) and ref != "this":
                    raise report('say "this is the last voyage"', step.line, step.column, '"this is the last voyage"')
                if ref == "taker" and not loot:
                    raise report('"the character that took this" only makes sense on loot', step.line, step.column,
                                 '"this" for the character itself')
                if refers_to_it and not bound:
                    raise report('"it" is used before anything was picked', step.line, step.column,
                                 "an earlier action that discards, puts or names a character")
                if isinstance(c, ast.Exists) and c.at_nightfall and a.timing != "moon":
                    raise report('"at nightfall" only makes sense at night', step.line, step.column,
                                 "a moon ability")
                _check_cond(c, vocab, report, step)
        for act in _actions(step):
            if _uses_it(act) and not bound:
                raise report('"it" is used before anything was picked', act.line, act.column,
                             "an earlier action that discards, puts or names a character")
            _check_action(act, vocab, report, a.timing)
            _check_self_reference(act, report, loot)
            if _binds_it(act):
                bound = True


def _check_self_reference(act: ast.Action, report: Report, loot: bool) -> None:
    """``this`` is a character; on loot, the token's taker is named in full."""
    targets = [getattr(act, "target", None)]
    subject = getattr(act, "subject", None)
    if isinstance(subject, ast.OwnerOf):
        targets.append(subject.target)
    for t in targets:
        if loot and isinstance(t, ast.This):
            raise report('on loot, "this" is the token, not a character', act.line, act.column,
                         '"the character that took this"')
        if not loot and isinstance(t, ast.Taker):
            raise report('"the character that took this" only makes sense on loot', act.line, act.column,
                         '"this" for the character itself')
    for what, holder in ((ast.KeepLoot, "kept for the next voyage"), (ast.Give, "given away")):
        loot_sel = getattr(act, "loot", None)
        if isinstance(act, what) and isinstance(loot_sel, ast.ChooseLoot | ast.EveryLoot | ast.RandomLoot) \
                and loot_sel.np.place != "held":
            raise report(f"only loot you hold can be {holder}", act.line, act.column, '"you hold"')


def _actions(step: ast.Step) -> Iterator[ast.Action]:
    yield from step.actions
    if step.otherwise:
        yield from step.otherwise


def _uses_it(act: ast.Action) -> bool:
    if isinstance(act, (ast.Change, ast.PaysYou)) and isinstance(act.subject, ast.ItsOwner):
        return True
    target = getattr(act, "target", None)
    return isinstance(target, ast.It)


def _binds_it(act: ast.Action) -> bool:
    if isinstance(act, (ast.Change, ast.PaysYou)) and isinstance(act.subject, ast.OwnerOf):
        return True
    return isinstance(act, (ast.Discard, ast.Put, ast.Play))


def _check_action(act: ast.Action, vocab: Vocabulary, report: Report, timing: str) -> None:
    for np in _char_nps(act):
        _check_np(np, vocab, report)
    for sel in _loot_sels(act):
        _check_loot(sel, vocab, report, act)
    if isinstance(act, ast.Take) and isinstance(act.loot, ast.ChooseLoot | ast.RandomLoot | ast.EveryLoot) \
            and act.loot.np.place == "held":
        raise report("you cannot take loot you already hold", act.line, act.column,
                     "today's loot, the bag or an adjacent player")
    if isinstance(act, ast.Swap):
        places = {s.np.place for s in (act.first, act.second) if not isinstance(s, ast.AllBut)}
        if not places <= {"today", "tomorrow"}:
            raise report("swap works between today's and tomorrow's loot", act.line, act.column,
                         "a loot in today's loot with a loot in tomorrow's loot")
    if isinstance(act, ast.CountExtra) and act.kind not in vocab.kinds:
        raise report(f"unknown loot kind {act.kind!r}", act.line, act.column, _kinds(vocab))
    if isinstance(act, ast.Sell) and len(act.counts) != len(act.prices):
        raise report("sell needs as many prices as counts", act.line, act.column,
                     "for example: sell 2 or 3 loot of one kind for 3 or 5 doubloons")
    amount = getattr(act, "amount", None)
    if isinstance(amount, ast.InSets) and amount.kind not in vocab.kinds:
        raise report(f"unknown loot kind {amount.kind!r}", act.line, act.column, _kinds(vocab))
    if isinstance(amount, ast.Half | ast.UpTo | ast.ByTable | ast.InSets) and isinstance(act, ast.Change) \
            and act.verb == "lose" and not isinstance(amount, ast.Half):
        raise report("only a fixed amount or half your doubloons can be lost", act.line, act.column,
                     "lose N doubloons or lose half your doubloons")
    counter = getattr(amount, "per", None) or getattr(amount, "counter", None)
    if isinstance(counter, ast.CountLoot):
        _check_kinds(counter.kinds, vocab, report, act.line, act.column)
    if isinstance(counter, ast.CountCharacters):
        _check_np(counter.np, vocab, report)


def _char_nps(act: ast.Action) -> Iterator[ast.CharNP]:
    targets: list[object] = [getattr(act, "target", None)]
    subject = getattr(act, "subject", None)
    if isinstance(subject, ast.OwnerOf):
        targets.append(subject.target)
    for t in targets:
        np = getattr(t, "np", None)
        if isinstance(np, ast.CharNP):
            yield np


def _loot_sels(act: ast.Action) -> Iterator[ast.LootSel]:
    if isinstance(act, (ast.Take, ast.ReturnLoot, ast.KeepLoot, ast.Give)):
        yield act.loot
    if isinstance(act, ast.Swap):
        yield act.first
        yield act.second


def _check_np(np: ast.CharNP, vocab: Vocabulary, report: Report) -> None:
    zones = [f for f in np.filters if isinstance(f, ast.Zone)]
    if len(zones) != 1:
        raise report(f"say where the {np.noun} is, once", np.line, np.column,
                     "one place such as 'in your ship' or 'on the island'")
    zone = zones[0]
    if zone.place == "island" and zone.prep == "in":
        raise report("a character is on the island, not in it", np.line, np.column, '"on the island"')
    if zone.place != "island" and zone.prep == "on":
        raise report(f"a character is in a {zone.pile or 'ship'}, not on it", np.line, np.column,
                     '"in" or "from"')
    if np.noun != "character" and np.noun not in vocab.names:
        raise report(f"unknown card name {np.noun!r}", np.line, np.column, "the name of a loaded character")


def _check_loot(sel: ast.LootSel, vocab: Vocabulary, report: Report, act: ast.Action) -> None:
    if isinstance(sel, ast.AllBut):
        return
    np = sel.np
    _check_kinds(np.kinds, vocab, report, np.line, np.column)
    if isinstance(sel, ast.RandomLoot) and np.place != "bag":
        raise report("a random loot can only come from the bag", np.line, np.column, '"from the bag"')
    if np.place in ("today", "tomorrow") and np.prep == "on":
        raise report(f"loot is in {np.place}'s loot, not on it", np.line, np.column, '"in" or "from"')
    if np.place in ("bag", "adjacent_player") and np.prep != "from":
        raise report("loot comes from there", np.line, np.column, '"from"')


def _check_kinds(kinds: tuple[str, ...], vocab: Vocabulary, report: Report, line: int, column: int) -> None:
    for k in kinds:
        if k not in vocab.kinds:
            raise report(f"unknown loot kind {k!r}", line, column, _kinds(vocab))


def _kinds(vocab: Vocabulary) -> str:
    return "one of " + ", ".join(sorted(vocab.kinds))


def _check_cond(c: ast.Cond, vocab: Vocabulary, report: Report, step: ast.Step) -> None:
    if isinstance(c, (ast.IsPositioned, ast.Exists)):
        _check_np(c.np, vocab, report)
    if isinstance(c, (ast.Hold, ast.JustTook)):
        _check_kinds(c.kinds, vocab, report, step.line, step.column)
