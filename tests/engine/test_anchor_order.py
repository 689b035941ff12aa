"""Each player orders their anchor abilities, asked only where the order can change the game (E8, R3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import libertalia as lt
from tests.helpers import at, mod_rules, patches_engine, scores, write_cards

MOD = {
    "Fence": (30.5, "anchor: return every relic you hold to the bag."),
    "Banker": (31.5, "anchor: gain 4 doubloons."),
    "Counter": (32.5, "anchor: gain 1 doubloon for each character in your ship."),
}


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    return mod_rules(write_cards(tmp_path_factory.mktemp("anchor"), MOD))


@pytest.fixture(scope="module")
def stormy() -> lt.Rules:
    return mod_rules(loot={"chest": "stormy"})


def _anchor(rules: lt.Rules, seat0: dict[str, Any]) -> lt.Game:
    """The last day of voyage 1 with empty hands: the game runs straight to seat 0's anchor abilities."""
    return lt.new_game(rules, 3, seed=0, setup={
        "voyage": 1, "day": 4, "reputation": [0, 2, 4], "loot": [["barrel", "barrel", "barrel"]],
        "players": [{"hand": [], **seat0}, {"hand": []}, {"hand": []}]})


def test_abilities_that_commute_are_not_ordered(rules: lt.Rules) -> None:
    """E8/R3: fixed gains, counts of the ship, a relic, a barrel and calm maps commute: nothing is asked."""
    g = _anchor(rules, {"ship": ["Banker", "Counter"], "loot": ["relic", "barrel", "map", "map", "amulet"]})
    assert not g.history  # no question was asked before voyage 2's first pick
    at(g, "play_character")
    # 4 (Banker) + 2 (Counter) - 3 (relic) + 1 (barrel) + 7 (a pair of maps) + 3 (amulet)
    assert scores(g)[0] == 14


def test_a_chest_that_spends_maps_is_ordered_against_the_maps(stormy: lt.Rules) -> None:
    """E8: the stormy chest may return a map, which changes what the maps score: its holder orders them."""
    g = _anchor(stormy, {"ship": ["Bosun"], "loot": ["chest", "map", "map", "map"]})
    at(g, "order_abilities", 0)
    assert set(g.legal_keys()) == {"chest", "map"}
    maps_first = g.choose("map").choose("yes")
    chest_first = g.choose("chest").choose("yes")
    assert scores(maps_first)[0] == 12 + 8  # three maps, then one of them traded
    assert scores(chest_first)[0] == 8 + 7  # one map traded, then the pair left


def test_a_returned_relic_no_longer_costs(rules: lt.Rules) -> None:
    """E8: returning relics first means their anchor cost never comes; relics first, they cost and then go."""
    g = _anchor(rules, {"ship": ["Fence"], "loot": ["relic", "relic"], "doubloons": 10})
    at(g, "order_abilities", 0)
    assert set(g.legal_keys()) == {"Fence", "relic"}
    assert scores(g.choose("Fence"))[0] == 10
    one_relic = g.choose("relic")
    at(one_relic, "order_abilities", 0)  # the second relic and the Fence are still to order
    assert scores(one_relic.choose("Fence"))[0] == 10 - 3
    assert scores(one_relic.choose("relic"))[0] == 10 - 6


def test_counts_come_first_without_asking(rules: lt.Rules) -> None:
    """E2/E8: the Explorer's extra map is counted before maps score, and nobody is asked about it."""
    g = _anchor(rules, {"ship": ["Explorer"], "loot": ["map"]})
    assert not g.history
    assert scores(g)[0] == 7  # one map and one counted extra: a pair


def test_automa_is_never_asked_to_order(stormy: lt.Rules) -> None:
    """S8/E8: in solo, every question goes to the player: Automa's own anchor order follows her rule."""
    for seed in range(3):
        solo = lt.new_game(stormy, 1, seed=seed)
        while not solo.is_over:
            assert solo.decision is not None and solo.decision.player == 0
            solo = solo.choose(solo.legal_keys()[0])
        assert len(solo.final_scores()) == 2


@patches_engine
@pytest.mark.parametrize("edition", ["galecrest", "classic"])
def test_cached_order_check_agrees_with_every_pair(edition: str) -> None:
    """E8: the per-ability clash masks give the same verdict as comparing every pair of footprints."""
    import random
    from types import SimpleNamespace

    from libertalia.engine import flow
    from libertalia.engine.program.footprint import may_conflict

    rules = lt.load_rules(edition)
    anchor = [(source, i) for source, abilities in rules.sources.items()
              for i, c in enumerate(abilities) if c.timing == "anchor"]

    def footprint(source: str, i: int) -> tuple[frozenset[str], frozenset[str]]:
        return _footprint(rules, source, i)

    w: Any = SimpleNamespace(rules=rules, tables=rules.tables)
    rnd = random.Random(7)
    verdicts = set()
    for _ in range(300):
        group = [(0, source, i, None, False, False) for source, i in rnd.sample(anchor, rnd.randint(1, 6))]
        distinct = sorted({(q[1], q[2]) for q in group})
        expected = any(may_conflict(*footprint(*a), *footprint(*b), netted=True)
                       for n, a in enumerate(distinct) for b in distinct[n + 1:])
        assert flow._order_matters(w, group) is expected, distinct
        verdicts.add(expected)
    # Both verdicts were tried where some anchor abilities meet; every one of the 2012 edition's commutes.
    assert verdicts == ({True, False} if edition == "galecrest" else {False})


def _footprint(rules: lt.Rules, source: str, i: int) -> tuple[frozenset[str], frozenset[str]]:
    """An ability's (reads, writes) as the clash table compares them: a loot tile also reads its own kind."""
    c = rules.ability(source, i)
    return (c.reads | {f"loot:{source[2:]}"} if source[0] == "l" else c.reads), c.writes


def _footprints(rules: lt.Rules) -> tuple[Callable[[int], tuple[frozenset[str], frozenset[str]]], dict[str, list[int]]]:
    """Each ability bit's footprint as the clash table reads it (a tile's own kind joins its reads), and the bits
    of each timing."""

    def footprint(n: int) -> tuple[frozenset[str], frozenset[str]]:
        return _footprint(rules, *rules.bit_abilities[n])

    by_timing: dict[str, list[int]] = {}
    for n, (source, i) in enumerate(rules.bit_abilities):
        by_timing.setdefault(rules.ability(source, i).timing, []).append(n)
    return footprint, by_timing


@pytest.mark.parametrize("edition", ["galecrest", "classic"])
def test_the_clash_table_of_every_timing_is_every_pair_compared(edition: str) -> None:
    """E8: the clash table, built once per distinct footprint, says of every pair of same-timing abilities what
    comparing their two footprints says (fresh rules, so the table is built here, in either build)."""
    from libertalia.engine.ordering import clashes
    from libertalia.engine.program.footprint import may_conflict

    rules = lt.load_rules(edition)
    table = clashes(rules)
    footprint, by_timing = _footprints(rules)
    seen = set()
    for members in by_timing.values():
        prints = [footprint(n) for n in members]
        for a in range(len(members)):
            for b in range(a + 1, len(members)):
                expected = may_conflict(*prints[a], *prints[b], netted=True)
                assert table.matter(1 << members[a] | 1 << members[b]) is expected, (members[a], members[b])
                seen.add(expected)
    assert seen == {True, False}


@pytest.mark.parametrize("edition", ["galecrest", "classic"])
def test_clashy_keeps_exactly_the_abilities_that_meet_another_of_their_timing(edition: str) -> None:
    """E8: ``Clashes.clashy`` (the anchor's two-AND shortcut) keeps an ability's bit exactly when its footprint
    meets that of some other ability of its timing, so a queue with fewer than two kept is never ordered."""
    from libertalia.engine.ordering import clashes
    from libertalia.engine.program.footprint import may_conflict

    rules = lt.load_rules(edition)
    table = clashes(rules)
    footprint, by_timing = _footprints(rules)
    kept_any = False
    for members in by_timing.values():
        mask = sum(1 << n for n in members)
        kept = table.clashy(mask)
        for n in members:
            expected = any(may_conflict(*footprint(n), *footprint(m), netted=True) for m in members if m != n)
            assert bool(kept >> n & 1) is expected, n
            kept_any = kept_any or expected
    assert kept_any
    first, second = by_timing["anchor"][0], by_timing["sun"][0]  # two timings: returned whole, never cut
    assert table.clashy(1 << first | 1 << second) == 1 << first | 1 << second


@patches_engine
def test_contested_classes_agree_with_every_pair() -> None:
    """E8: the anchor's contested classes (a seat's first, plain or last abilities) are those with two different
    abilities whose footprints meet, whatever the other classes hold."""
    import random
    from types import SimpleNamespace

    from libertalia.engine import flow
    from libertalia.engine.program.footprint import may_conflict

    rules = lt.load_rules("galecrest")
    anchor = [(source, i) for source, abilities in rules.sources.items()
              for i, c in enumerate(abilities) if c.timing == "anchor" and not c.early]

    def footprint(source: str, i: int) -> tuple[frozenset[str], frozenset[str]]:
        return _footprint(rules, source, i)

    w: Any = SimpleNamespace(rules=rules, tables=rules.tables)
    rnd = random.Random(11)
    found = set()
    for _ in range(300):
        queue = [(rnd.randrange(3), source, i, None, rnd.random() < 0.2, rnd.random() < 0.2)
                 for source, i in rnd.sample(anchor, rnd.randint(1, 8))]
        expected = set()
        for kin in {flow._class_of(q) for q in queue}:
            distinct = sorted({(q[1], q[2]) for q in queue if flow._class_of(q) == kin})
            if any(may_conflict(*footprint(*a), *footprint(*b), netted=True)
                   for n, a in enumerate(distinct) for b in distinct[n + 1:]):
                expected.add(kin)
        assert flow._contested(w, queue, flow._bits(w, queue)) == expected
        found.add(bool(expected))
    assert found == {True, False}
