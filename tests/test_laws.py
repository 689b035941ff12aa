"""Metamorphic laws: wordings English reads alike play alike (issue 32, deliver 2; docs/testing.md, "Laws")."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia.engine import ordering as engine_ordering
from libertalia.engine.program import amounts as engine_amounts
from libertalia.state import Decision, Option
from libertalia.testing.differential import answer, assert_same, compare, load_wordings, play
from libertalia.testing.focus import Feature, focused_position, positions
from libertalia.testing.laws import (
    CATALOGUE,
    WORDS,
    Family,
    TreesAlike,
    check_family,
    check_laws,
    position_of,
    wordings_of,
)
from libertalia.testing.laws.__main__ import main
from libertalia.testing.laws.family import CONNECTIVES, PLACES, PLAYERS, REFERENCES
from libertalia.testing.laws.order import check_order

SHORT = 6
"""Positions per family in the short run (the long one: ``python -m libertalia.testing.laws``)."""


@functools.cache
def _rules(edition: str) -> lt.Rules:
    return lt.load_rules(edition)


@pytest.mark.parametrize("family", [pytest.param(f, id=f.name) for f in CATALOGUE])
def test_family_plays_alike(family: Family) -> None:
    """Every family of equivalent wordings plays the same from every position of the short run."""
    result = check_family(family, _rules(family.edition), positions=SHORT)
    assert result.ok, str(result)


def test_catalogue_is_broad() -> None:
    """The catalogue has 40 or more families and covers every connective, reference, place and player word."""
    assert len(CATALOGUE) >= 40
    covered = {w for f in CATALOGUE for w in f.covers}
    for group in (CONNECTIVES, REFERENCES, PLACES, PLAYERS):
        assert set(group) <= covered, set(group) - covered
    assert set(WORDS) <= covered
    assert {"classic"} <= {f.edition for f in CATALOGUE}
    assert any(f.samples for f in CATALOGUE) and any(f.tile for f in CATALOGUE)


def test_the_guide_counts_the_catalogue() -> None:
    """docs/testing.md ("Laws: English equivalences") gives the catalogue's size as it is."""
    guide = (Path(__file__).resolve().parents[1] / "docs" / "testing.md").read_text(encoding="utf-8")
    assert f"CATALOGUE`, {len(CATALOGUE)} families)" in guide


def test_wordings_that_read_as_one_tree_are_refused() -> None:
    """A family whose wordings are one tree after normalisation tests nothing: it is refused."""
    alike = Family("alike", ("sun: gain 2 doubloons.", "sun: you gain 2 doubloons."), ("you",), "sun", "a variant")
    with pytest.raises(TreesAlike, match="same tree"):
        wordings_of(alike, _rules("galecrest"))


def test_a_family_needs_two_wordings_and_known_words() -> None:
    """A family states two or more different wordings and only words the catalogue knows."""
    with pytest.raises(ValueError, match="two or more"):
        Family("one", ("sun: gain 2 doubloons.",), ("you",), "sun", "alone")
    with pytest.raises(ValueError, match="unknown words"):
        Family("odd", ("sun: gain 2 doubloons.", "sun: gain 1 reputation."), ("whoever",), "sun", "odd")


def test_answers_follow_the_question_not_its_place() -> None:
    """The answer policy: the same question gets the same answer, however its options are keyed or ordered."""
    one = Decision(0, "choose_option", (Option("1", "gain 1 reputation and gain 2 doubloons"),
                                        Option("2", "take a map from today's loot")), "choose")
    two = Decision(0, "choose_option", (Option("1", "take a map from today's loot"),
                                        Option("2", "gain 2 doubloons and gain 1 reputation")), "choose")
    for seed in range(20):
        first, second = answer(seed, one), answer(seed, two)
        label = {o.key: o.label for o in one.options}[first]
        assert ("take" in label) == ("take" in {o.key: o.label for o in two.options}[second])


def test_a_non_equivalent_family_is_reported_shrunk() -> None:
    """A planted misreading: left and right at 4 players are not the same, and the checker says where, shrunk."""
    planted = Family("left is not right at 4",
                     ("sun: the player on your left loses 2 doubloons.",
                      "sun: the player on your right loses 2 doubloons."),
                     ("the player on your left",), "sun", "not equivalent: planted", players=(4,))
    result = check_family(planted, _rules("galecrest"), positions=SHORT)
    assert not result.ok and result.difference is not None
    found = result.difference
    assert found.position.players == 3  # shrunk to the fewest seats where left and right are two players
    assert found.field.endswith(("doubloons", "score"))  # a purse, or the score it was banked into
    assert all("  - it:" in example and "answers:" in example for example in found.examples)
    seats = found.position.setup["players"]
    assert sum(len(s["ship"]) + len(s["graveyard"]) + len(s["loot"]) for s in seats) == 0  # shrunk away


def test_a_planted_step_misreading_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted engine bug (the player on your left read as yourself) breaks a law, reported with a shrunk position."""
    if not engine_amounts.__file__.endswith(".py"):
        pytest.skip("the compiled engine cannot be patched from Python")

    def misread(self: object, w: object, f: Any, act: object = None) -> list[tuple[int, None]]:
        return [(f.seat, None)]  # the wrong seat: the owner's own

    monkeypatch.setattr(engine_amounts.PlayerOnSide, "seats", misread)
    family = next(f for f in CATALOGUE if f.name == "every other player is the player on your left at 2")
    report = check_laws(_rules("galecrest"), [family], positions=SHORT)
    assert not report.ok
    (result,) = report.results
    assert result.difference is not None and result.difference.position.players == 2
    assert "DIFFER" in report.summary() and "examples: entry" in result.failure


def test_a_planted_statistical_misreading_is_caught() -> None:
    """A statistical law bites: a draw of any kind is not a draw of maps, beyond the stated tolerance."""
    planted = Family("any kind is not maps", ("sun: take a random loot from the bag.",
                                              "sun: take a random map from the bag."),
                     ("the bag",), "sun", "not equivalent: planted", players=(2,), samples=60, tolerance=0.12)
    result = check_family(planted, _rules("galecrest"), positions=SHORT)
    assert not result.ok and "tolerance 0.12" in result.failure


def test_compare_finds_the_same_game_the_same() -> None:
    """Differential play of one wording against itself finds nothing: answers and state are deterministic."""
    rules = _rules("galecrest")
    files = [("rover.yaml", "name: Lawful Rover\nrank: 18.5\ntext: |\n  sun: take a loot from another player.\n")] * 2
    wordings = load_wordings(rules, files)
    rng = random.Random(3)
    for _ in range(4):
        position = focused_position(wordings[0], None, [Feature("Lawful Rover", "sun")], rng=rng)
        assert compare(wordings, position, rng.randrange(100)) is None


_SIDES = [("rover.yaml", f"name: Lawful Rover\nrank: 18.5\ntext: |\n  sun: the player on your {side} loses 2 "
                         "doubloons.\n") for side in ("left", "right")]


@given(data=st.data())
@settings(max_examples=8, deadline=None, database=None)
def test_under_hypothesis_assert_same_holds_for_an_equivalence(data: st.DataObject) -> None:
    """Under hypothesis (which then shrinks a failing position), left and right at 2 players play alike."""
    wordings = _wordings(tuple(_SIDES))
    position = data.draw(positions(wordings[0], 2, [Feature("Lawful Rover", "sun")]))
    assert_same(wordings, position, seed=data.draw(st.integers(0, 99)), labels=["left", "right"])


def test_assert_same_raises_with_the_difference() -> None:
    """assert_same fails with the difference and an examples: entry per wording, for hypothesis to shrink."""
    wordings = _wordings(tuple(_SIDES))
    rng = random.Random(5)
    for _ in range(20):
        position = focused_position(wordings[0], 3, [Feature("Lawful Rover", "sun")], rng=rng)
        if compare(wordings, position, examples=False) is not None:
            break
    with pytest.raises(AssertionError, match="differ in") as info:
        assert_same(wordings, position, labels=["left", "right"])
    assert "an examples: entry for the card worded 'left'" in str(info.value)


@functools.cache
def _wordings(files: tuple[tuple[str, str], ...]) -> list[lt.Rules]:
    return load_wordings(_rules("galecrest"), files)


def test_games_played_to_their_end_compare_alike() -> None:
    """With to_end, equivalent wordings are compared at the game's end too: the same final state."""
    family = next(f for f in CATALOGUE if f.name == "unless against if no")
    assert check_family(family, _rules("galecrest"), positions=2, to_end=True).ok


def test_the_long_run_command(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m libertalia.testing.laws`` runs the chosen families and exits 0 when they play alike."""
    assert main(["--positions", "2", "--family", "two gains"]) == 0
    assert "1 families, 2 positions: 1 same" in capsys.readouterr().out


def test_anchor_abilities_left_unordered_commute() -> None:
    """E8/L1: anchor abilities the engine does not ask to order end alike in either order; apart ones are not asked."""
    result = check_order(_rules("galecrest"), positions=2)
    assert result.ok, result.failure
    assert 0 < result.asked < result.pairs  # some pairs were ordered by the player, some by the engine


def test_anchor_abilities_on_loot_of_two_kinds_are_not_asked_to_be_ordered() -> None:
    """L1: returning maps and counting relics meet nowhere; with no loot of its own to score, the seat is not asked."""
    pool = ("anchor: return every map you hold to the bag.", "anchor: gain 1 doubloon for each relic you hold.")
    result = check_order(_rules("galecrest"), pool, positions=1, apart=(pool,))  # the first position holds no loot
    assert result.ok, result.failure


def test_a_planted_order_misreading_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """E8/L1: an engine that never asks the anchor order (every footprint apart) breaks the order law."""
    if not engine_amounts.__file__.endswith(".py"):
        pytest.skip("the compiled engine cannot be patched from Python")
    monkeypatch.setattr(engine_ordering, "may_conflict", lambda *args, **kwargs: False)
    result = check_order(lt.load_rules("galecrest"), positions=2)  # fresh rules: the clash table is cached on them
    assert not result.ok and "not ordered, yet end otherwise" in result.failure


def test_a_gain_at_the_tracks_end_without_overflow_is_not_offered(tmp_path: Path) -> None:
    """R28 and "Options: offered when taking them can change something": on a board with no overflow, a step right
    from the rightmost space changes nothing, so `you may gain 1 reputation` is not asked there (yes is still X)."""
    board = (Path(__file__).resolve().parents[1] / "boards" / "galecrest.yaml").read_text(encoding="utf-8")
    assert "overflow: 1 " in board
    (tmp_path / "calm.yaml").write_text(board.replace("overflow: 1 ", "overflow: 0 "), encoding="utf-8")
    rules = lt.load_rules(tmp_path / "calm.yaml")
    family = Family("a gain at the end", ("sun: you may gain 1 reputation.", "sun: gain 1 reputation."), ("may",),
                    "sun", "yes is the gain", variants=("quiet",), may="yes", offered=True)
    wordings = wordings_of(family, rules)
    rng = random.Random(4)
    for index in range(3):
        position = position_of(family, wordings[0], index, rng)
        seat = position.featured[0].seat
        spaces = list(position.setup["reputation"])
        top = len(rules.board.track_income) - 1
        if top in spaces:
            spaces[spaces.index(top)] = spaces[seat]
        spaces[seat] = top
        at_top = attrs.evolve(position, setup={**position.setup, "reputation": spaces})
        assert "may Lawful Rover" not in play(wordings[0], at_top, index, may="yes").asked
        assert compare(wordings, at_top, index, may="yes") is None
