"""The greedy and ISMCTS bots: legal, seeded, blind to what their seat cannot see, and sensible."""

from __future__ import annotations

import functools

import pytest

import libertalia as lt
from libertalia.bots import make_agent
from libertalia.engine.specs import Rules


@functools.cache
def _rules(edition: str = "galecrest") -> Rules:
    return lt.load_rules(edition)


def _play(spec: str, edition: str, players: int, seed: int) -> lt.Game:
    agents = [make_agent(spec if seat == 0 else "random", seed * 16 + seat) for seat in range(players)]
    return lt.play(_rules(edition), agents, seed=seed)


@pytest.mark.parametrize(("spec", "edition", "players"), [
    ("greedy:2", "galecrest", 3), ("greedy:2", "classic", 3), ("greedy:2", "galecrest", 1),
    ("ismcts:8", "galecrest", 2), ("ismcts:8", "classic", 4), ("ismcts:8", "galecrest", 1),
])
def test_bots_finish_games_the_same_way_twice(spec: str, edition: str, players: int) -> None:
    """Each bot plays whole games of both editions (solo too) with offered keys, and a seed fixes every answer."""
    first = _play(spec, edition, players, 3)
    again = _play(spec, edition, players, 3)
    assert first.is_over and first.history == again.history


def test_bots_answer_the_same_whatever_they_cannot_see() -> None:
    """Another seat's secret pick is hidden: two games that differ only there get the same answer from a seeded bot."""
    game = lt.new_game(_rules(), 4, 11)
    hand = game.decision.keys()
    a, b = game.choose(hand[0]), game.choose(hand[-1])
    assert a.decision == b.decision and a.decision.player == 1
    for spec in ("greedy:3", "ismcts:20"):
        assert make_agent(spec, 7).choose(a.observation(1), a.decision) == \
            make_agent(spec, 7).choose(b.observation(1), b.decision)


def _loot_choice(rules: Rules) -> lt.Game:
    """A random game stopped at a seat's dusk choice between a chest and a relic on the voyage's last day."""
    for seed in range(200):
        game = lt.new_game(rules, 4, seed)
        bot = lt.agents.RandomAgent(seed)
        while game.decision is not None:
            d = game.decision
            last_day = game.day == rules.board.voyage_days[game.voyage - 1]
            if d.kind == "choose_loot" and last_day and {"chest", "relic"} <= set(d.keys()):
                return game
            game = game.choose(bot.choose(game.observation(d.player), d))
    raise AssertionError("no chest-or-relic choice in 200 games")


def test_greedy_takes_a_chest_over_a_relic() -> None:
    """The evaluation scores loot by the edition's anchor texts: +5 for a chest beats -3 for a relic."""
    game = _loot_choice(_rules())
    d = game.decision
    key = make_agent("greedy", 1).choose(game.observation(d.player), d)
    assert key.partition("@")[0] != "relic"


def test_ismcts_time_budget_stops_and_answers() -> None:
    """ismcts:Xs searches until the time is up (at least one iteration) and answers an offered key."""
    game = lt.new_game(_rules(), 3, 2)
    bot = make_agent("ismcts:0.05s", 1)
    key = bot.choose(game.observation(0), game.decision)
    assert key in game.legal_keys() and bot.last_iterations >= 1  # type: ignore[attr-defined]
