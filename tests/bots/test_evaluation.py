"""The greedy bot's yardstick: the voyage-end preview and the worth of a position."""

from __future__ import annotations

import functools

import attrs
import pytest

import libertalia as lt
from libertalia.bots.evaluation import card_values, margins, worths
from libertalia.engine.preview import voyage_end_scores
from libertalia.engine.specs import Rules


@functools.cache
def _rules(edition: str = "galecrest") -> Rules:
    return lt.load_rules(edition)


def _last_day(loot: list[list[str]], doubloons: int = 0) -> lt.Game:
    """Three seats on the last day of voyage 1, seat 0 holding ``loot[0]`` and so on."""
    rules = _rules()
    days = rules.board.voyage_days[0]
    return lt.new_game(rules, 3, 1, setup={
        "voyage": 1, "day": days, "reputation": [0, 1, 2],
        "players": [{"hand": ["Cook"], "loot": held, "doubloons": doubloons} for held in loot],
    })


def test_preview_scores_loot_by_the_anchor_texts() -> None:
    """A chest pays 5 and a relic costs 3 at the anchor, floored at 0 (R3): the preview runs the real texts."""
    game = _last_day([["chest"], ["relic"], ["chest", "relic"]], doubloons=1)
    assert voyage_end_scores(game.rules, game.state) == (6, 0, 3)


def test_preview_scores_maps_in_sets() -> None:
    """Two maps score as a set (7), which no per-token table could say: the preview asks the edition."""
    game = _last_day([["map", "map"], ["map"], []])
    assert voyage_end_scores(game.rules, game.state) == (7, 0, 0)


def test_preview_leaves_the_game_unchanged() -> None:
    """The preview runs on a scratch copy: the game it looked at reads the same afterwards."""
    game = _last_day([["chest"], [], []])
    before = game.to_json()
    voyage_end_scores(game.rules, game.state)
    assert game.to_json() == before


def test_preview_of_a_finished_game_is_its_scores() -> None:
    """A finished game is worth exactly its final scores."""
    game = lt.play(_rules(), [lt.agents.RandomAgent(i) for i in range(3)], seed=2)
    assert voyage_end_scores(game.rules, game.state) == game.final_scores()
    assert worths(game.rules, game.state) == tuple(float(s) for s in game.final_scores())


def test_worth_counts_income_still_to_come() -> None:
    """Reputation pays income at each voyage still to come: a seat further right is worth more, all else equal."""
    game = _last_day([[], [], []])
    income = game.rules.board.track_income
    voyages_left = len(game.rules.board.voyage_days) - 1
    w = worths(game.rules, attrs.evolve(game.state, seats=tuple(attrs.evolve(p, hand=()) for p in game.state.seats)))
    assert [round(x - y, 6) for x, y in zip(w[1:], w[:-1], strict=False)] == [
        (income[s + 1] - income[s]) * voyages_left for s in range(2)]


def test_card_values_are_measured_per_rules() -> None:
    """Every character gets a value, from the rules' own random games; a card that only pays earns a positive one."""
    values = card_values(_rules())
    names = {c.name for c in _rules().characters}
    assert set(values) == names
    assert card_values(_rules()) is values  # measured once per rules
    assert values["Infantry"] > 0  # its sun text gains doubloons


@pytest.mark.parametrize("players", [1, 3])
def test_margins_sum_to_zero(players: int) -> None:
    """A margin is a seat's worth minus the others' mean: over all seats they cancel out."""
    game = lt.new_game(_rules(), players, 4)
    assert abs(sum(margins(game.rules, game.state))) < 1e-9
