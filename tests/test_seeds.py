"""Seeds are the whole numbers in [0, 2**64), by one rule, in the library, saves, records and both commands."""

from __future__ import annotations

import json

import attrs
import pytest
from click.testing import CliRunner

import libertalia as lt
from libertalia.cli import main
from libertalia.engine import rng

TOP = 2**64 - 1
OUTSIDE = [2**64, 2**64 + 7, -1, -5, -(2**64)]
RANGE = "a seed is a whole number from 0 to 2**64 - 1 (18446744073709551615)"


@pytest.fixture(scope="module")
def rules() -> lt.Rules:
    return lt.load_rules("galecrest")


def test_the_rule_is_one_function_with_one_message() -> None:
    """``rng.seed_problem`` takes 0 and 2**64 - 1 and refuses the rest, naming the range."""
    assert rng.seed_problem(0) is None and rng.seed_problem(TOP) is None
    for bad in [*OUTSIDE, True, 1.0, "3", None]:
        problem = rng.seed_problem(bad)
        assert problem is not None and problem.startswith(RANGE)
    assert "a 300-bit number" in (rng.seed_problem(2**299) or "")


@pytest.mark.parametrize("seed", OUTSIDE)
def test_new_game_and_play_refuse_seeds_outside_the_range(rules: lt.Rules, seed: int) -> None:
    """2**64 no longer deals like 0 (nor -1 like 2**64 - 1): new_game and play raise SetupError naming the range."""
    with pytest.raises(lt.SetupError, match=r"from 0 to 2\*\*64 - 1"):
        lt.new_game(rules, 4, seed=seed)
    with pytest.raises(lt.SetupError, match=r"from 0 to 2\*\*64 - 1"):
        lt.play(rules, [lt.agents.FirstOptionAgent()] * 3, seed=seed)


def test_the_ends_of_the_range_are_games_of_their_own(rules: lt.Rules) -> None:
    """0, 1, 2**64 - 2 and 2**64 - 1 deal four different games; the top seed plays to the end."""
    starts = {s: lt.new_game(rules, 4, seed=s).state for s in (0, 1, TOP - 1, TOP)}
    assert len({attrs.evolve(s, seed=0) for s in starts.values()}) == 4
    final = lt.play(rules, [lt.agents.RandomAgent(i) for i in range(4)], seed=TOP)
    assert final.is_over and final.seed == TOP


@pytest.mark.parametrize("seed", [2**64, -1])
def test_a_game_of_a_state_with_such_a_seed_is_refused(rules: lt.Rules, seed: int) -> None:
    """Game(rules, state) with a seed outside the range (so play_out too) raises ArgumentError, not a folded game."""
    state = attrs.evolve(lt.new_game(rules, 4, seed=3).state, seed=seed)
    with pytest.raises(lt.ArgumentError, match=r"state.seed: a seed is a whole number from 0 to 2\*\*64 - 1"):
        lt.Game(rules, state).play_out([lt.agents.FirstOptionAgent()] * 4)


@pytest.mark.parametrize("seed", [2**64, -1, "7"])
def test_load_rules_refuses_such_an_uncharted_seed(seed: object) -> None:
    """load_rules(loot="uncharted", seed=...) raises RulesError naming the range."""
    with pytest.raises(lt.RulesError, match=r"seed: a seed is a whole number from 0 to 2\*\*64 - 1"):
        lt.load_rules("galecrest", loot="uncharted", seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [2**64, -1])
def test_saves_and_records_refuse_such_seeds(rules: lt.Rules, seed: int) -> None:
    """A save's state.seed and a record's seed outside the range are a SaveError and a RecordError naming the field."""
    game = lt.new_game(rules, 4, seed=3)
    save = json.loads(game.to_json())
    save["state"]["seed"] = seed
    with pytest.raises(lt.SaveError, match=r"state\.seed: must be from 0 to 18446744073709551615"):
        lt.Game.from_json(json.dumps(save), rules)
    record = json.loads(lt.GameRecord.of(game).to_json())
    record["seed"] = seed
    with pytest.raises(lt.RecordError, match=r"seed: a seed is a whole number from 0 to 2\*\*64 - 1"):
        lt.GameRecord.from_json(json.dumps(record))


def test_the_top_seed_round_trips_through_a_save_and_a_record(rules: lt.Rules) -> None:
    """A game with seed 2**64 - 1 saves, records and loads again as itself."""
    game = lt.new_game(rules, 4, seed=TOP)
    game = game.choose(game.legal_keys()[0])
    assert lt.Game.from_json(game.to_json(), rules) == game
    assert lt.GameRecord.from_json(lt.GameRecord.of(game).to_json()).replay(rules) == game


@pytest.mark.parametrize("seed", ["-1", "-5", str(2**64)])
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_both_commands_refuse_such_seeds_as_usage_errors(command: str, seed: str) -> None:
    """`play --seed` and `simulate --seed` refuse the same seeds with the same message, exit status 2."""
    result = CliRunner().invoke(main, [command, "--seed", seed], input="quit\n")
    assert result.exit_code == 2, result.output
    assert RANGE in result.output and f"not {int(seed)}" in result.output


def test_simulate_refuses_a_run_whose_last_seed_is_past_the_range() -> None:
    """`simulate --seed 2**64 - 1 --games 2` would need seed 2**64: a usage error saying where to start."""
    result = CliRunner().invoke(main, ["simulate", "--seed", str(TOP), "--games", "2"])
    assert result.exit_code == 2 and "18446744073709551616" in result.output
    assert "start at 18446744073709551614 or lower" in result.output


def test_simulate_plays_the_top_seed() -> None:
    """`simulate --seed 2**64 - 1 --games 1` plays that game (its bots' seeds derive from it)."""
    result = CliRunner().invoke(main, ["simulate", "--seed", str(TOP), "--games", "1", "--players", "2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["run"]["seed"] == TOP and report["games"] == 1
