"""The engine's lookup tables (``specs.Tables``) are the rules' own, in every form the rules take."""

from __future__ import annotations

import copy
import pickle
import types
from collections.abc import Iterator

import pytest

import libertalia as lt
from libertalia.engine.specs import Rules, Tables
from tests.helpers import ENGINE_COMPILED, fresh_pickle_registry, galecrest

_SHARED = ("sources", "timed", "acting", "card_sources", "timed_kinds", "kind_order", "loot_options", "ranks",
           "play_options", "option_cache", "all_direct", "ability_bits")


@pytest.fixture(scope="module", autouse=True)
def fresh_registry() -> Iterator[None]:
    """The pickles below leave no rules in the registry (``helpers.fresh_pickle_registry``)."""
    with fresh_pickle_registry():
        yield


def _agrees(rules: Rules) -> None:
    t = rules.tables
    assert isinstance(t, Tables)
    for name in _SHARED:
        assert getattr(t, name) is getattr(rules, name), name
    assert t.cards is rules._by_name
    assert t.overflow == rules.board.overflow
    assert t.voyages == len(rules.board.voyage_days)
    assert (t.early_bits, t.loot_movers) == (rules.early_bits, rules.loot_movers)
    assert t.no_loot == {name for name, c in rules._by_name.items() if not c.takes_loot}
    board = rules.board
    assert t.tie_breakers == (board.tie_breakers if board.tie_break == "tie_breakers" else None)
    assert t.deck == tuple(c.name for c in rules.characters if not c.neutral)
    assert t.neutrals == {n: tuple(x.name for x in board.neutrals if n in x.players)
                          for n in range(1, board.players[1] + 1)}
    assert t.running.keys() == rules.sources.keys()
    for source, abilities in rules.sources.items():
        assert [(r.code, r.slots, r.direct, r.coins, r.early, r.constant_gain) for r in t.running[source]] == [
            (c.code, c.slots, c.direct, c.coins, c.early, c.constant_gain) for c in abilities], source
    for timing in ("sun", "dusk", "moon", "anchor"):
        for name, source in rules.card_sources.items():
            abilities = rules.timed.get((source, timing), ())
            acting = tuple((source, i, c.last, c.first) for i, c in abilities if not c.passive)
            assert t.card_entries[timing].get(name, ()) == acting, (timing, name)
        for kind in rules.kinds:
            source = f"l:{kind}"
            held = tuple((source, i, c.last, c.first, c.once) for i, c in rules.timed.get((source, timing), ()))
            assert t.loot_entries[timing].get(kind, ()) == held, (timing, kind)


def test_tables_are_the_rules_own_dicts() -> None:
    """One object per Rules shares the very dicts the rules hold, and what it derives agrees with them."""
    rules = galecrest()
    _agrees(rules)
    assert rules.tables.cards["Bosun#1"] is rules.card("Bosun#1")  # marked names, as Rules.card has them


@pytest.mark.parametrize("edition", ["galecrest", "classic"])
def test_derived_and_copied_rules_have_their_own_tables(edition: str) -> None:
    """for_game, for_solo, pickle and deepcopy give rules whose tables are built from their own abilities."""
    rules = lt.load_rules(edition)
    forms = [rules.for_game(7), pickle.loads(pickle.dumps(rules)), copy.deepcopy(rules)]
    if rules.board.solo is not None:
        forms.append(rules.for_solo())
    for other in forms:
        _agrees(other)


def test_a_game_reads_the_tables_of_its_own_rules() -> None:
    """A game's working copy reads the tables of the rules it plays (for_game's, drawn sides included)."""
    rules = galecrest()
    w, _ = lt.new_game(rules, 4, seed=3)._work()
    assert w.rules is rules.for_game(3)
    assert w.tables is w.rules.tables
    _agrees(w.rules)


@pytest.mark.skipif(not ENGINE_COMPILED, reason="native classes exist only in the compiled build")
def test_tables_are_native_when_compiled() -> None:
    """Compiled, Tables is a mypyc class: its __init__ is native code, not a Python function."""
    assert not isinstance(Tables.__init__, types.FunctionType)
