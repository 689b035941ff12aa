"""Loot sides: named, uncharted from a seed, per kind, and reported."""

from __future__ import annotations

import warnings

import pytest

import libertalia as lt


def _load(**kwargs: object) -> lt.Rules:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        return lt.load_rules("galecrest", **kwargs)  # type: ignore[arg-type]


def test_uncharted_is_a_seeded_mix_reported_in_rules_and_events() -> None:
    """Uncharted draws calm or stormy per kind from the seed, the same every time, and says so."""
    mixes = {tuple(_load(loot="uncharted", seed=s).loot_sides.values()) for s in range(12)}
    assert len(mixes) > 1 and all(set(m) <= {"calm", "stormy"} for m in mixes)
    first, again = _load(loot="uncharted", seed=5), _load(loot="uncharted", seed=5)
    assert first.loot_sides == again.loot_sides
    game = lt.new_game(first, 5, seed=1)
    assert str(game.events[0]).endswith(", ".join(f"{k} {v}" for k, v in first.loot_sides.items()))
    assert [spec.side for spec in first.loot] == list(first.loot_sides.values())


def test_per_kind_mapping_leaves_the_rest_on_the_default() -> None:
    """A mapping sets the named kinds; the others stay calm."""
    rules = _load(loot={"map": "stormy", "hook": "automa"})
    assert rules.loot_sides == {"chest": "calm", "hook": "automa", "map": "stormy", "saber": "calm",
                                "amulet": "calm", "barrel": "calm", "relic": "calm"}


@pytest.mark.parametrize(("loot", "message"), [
    ("foggy", "no 'foggy' loot side"),
    ({"gem": "calm"}, "unknown loot kind 'gem'"),
    ({"chest": "automa"}, "no 'automa' side for chest"),
])
def test_bad_sides_are_explained(loot: object, message: str) -> None:
    """An unknown side or kind is a RulesError naming what exists."""
    with pytest.raises(lt.RulesError, match=message):
        _load(loot=loot)


def test_uncharted_sides_are_drawn_per_game() -> None:
    """Issue 9: without a seed to load_rules, each game draws its own sides from its seed, shown in the game."""
    rules = _load(loot="uncharted")
    mixes = {tuple(lt.new_game(rules, 4, seed=s).rules.loot_sides.values()) for s in range(12)}
    assert len(mixes) > 1 and all(set(m) <= {"calm", "stormy"} for m in mixes)
    one, again = lt.new_game(rules, 4, seed=7), lt.new_game(rules, 4, seed=7)
    assert one.rules.loot_sides == again.rules.loot_sides
    assert str(one.events[0]).endswith(", ".join(f"{k} {v}" for k, v in one.rules.loot_sides.items()))
    assert [spec.side for spec in one.rules.loot] == list(one.rules.loot_sides.values())


def test_uncharted_draws_leave_the_game_stream_alone() -> None:
    """The side draws use their own counters: the deal is the same whatever sides a seed draws."""
    calm = lt.new_game(_load(), 4, seed=3)
    uncharted = lt.new_game(_load(loot="uncharted"), 4, seed=3)
    assert calm.players[0].hand == uncharted.players[0].hand
    assert calm.state.track == uncharted.state.track


def test_uncharted_game_round_trips_and_replays() -> None:
    """A per-game uncharted game saves, loads against the uncharted rules, and replays with the same sides."""
    rules = _load(loot="uncharted")
    game = lt.play(rules, [lt.agents.RandomAgent(i) for i in range(3)], seed=11)
    again = lt.Game.from_json(game.to_json(), rules)
    assert again.rules.loot_sides == game.rules.loot_sides and again.state == game.state
    record = lt.records.GameRecord.of(game)
    assert record.replay().state == game.state
