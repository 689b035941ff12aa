"""A game the engine gives up on (a looping card) is reported by ``simulate``, and the others go on."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

import libertalia as lt
from libertalia import stats
from libertalia.cli import main
from libertalia.engine import flow
from libertalia.language import loops

# Taking a chest returns it and takes a chest from the bag, which fires this again: for ever.
LOOPING_CHEST = (
    "kind: chest\nside: calm\ncount: 4\ntext: |\n"
    "  dusk: return every chest you hold to the bag, then take a random chest from the bag.\n"
)


@pytest.fixture(autouse=True)
def _small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A looping game costs its whole step budget: a tenth of it keeps these tests fast.

    The loop check that refuses such texts at load (``language.loops``) is off here, so that
    the engine's own safety net is what these tests see.
    """
    monkeypatch.setattr(flow, "STEP_BUDGET", 10_000)
    monkeypatch.setattr(loops, "_ENABLED", False)


def _loop_mod(tmp_path: Path) -> Path:
    folder = tmp_path / "loop-mod"
    folder.mkdir()
    (folder / "chest.yaml").write_text(LOOPING_CHEST, encoding="utf-8")
    return folder


def _rules_args(folder: Path) -> dict[str, Any]:
    return {"edition": "galecrest", "loot": None, "seed": 0, "extra_cards": [str(folder)]}


def test_a_looping_card_raises_step_budget_exceeded_naming_it(tmp_path: Path) -> None:
    """A loot text that loops without a question stops with StepBudgetExceeded naming the chest; game unchanged."""
    rules = lt.load_rules("galecrest", extra_cards=[_loop_mod(tmp_path)])
    game = lt.new_game(rules, 3, seed=1, setup={"players": [{"hand": ["Cook", "Scout"]}] * 3,
                                                "loot": [["chest", "chest", "chest"]]})
    before = game.state
    with pytest.raises(lt.StepBudgetExceeded) as caught:
        while game.decision is not None:
            game = game.choose(game.legal_keys()[0])
    assert game.state is not before  # it failed during play, not at the start
    assert "chest" in caught.value.sources and "loops" in str(caught.value)
    assert "ran 10,000 steps without asking anything" in str(caught.value)
    assert isinstance(caught.value, lt.LibertaliaError)


def test_a_looping_game_is_a_failure_and_the_others_go_on(tmp_path: Path) -> None:
    """``stats.simulate`` yields a GameFailure (seed, error, message) for every looping game and plays all games."""
    results = list(stats.simulate(_rules_args(_loop_mod(tmp_path)), games=3, players=3, bots=["random"], seed=5))
    assert [r.seed for r in results] == [5, 6, 7]
    failures = [r for r in results if isinstance(r, stats.GameFailure)]
    assert failures, "a chest is drawn in every 3-player game, so the loop must fire"
    for f in failures:
        assert f.error == "StepBudgetExceeded" and "chest" in f.message
    report = stats.report(results)
    assert report["games"] == len(results) - len(failures)
    assert [f["seed"] for f in report["failed"]] == [f.seed for f in failures]
    assert json.loads(json.dumps(report)) == report


def test_failed_games_are_left_out_of_the_statistics(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games that raise a library error are listed under ``failed``; the finished ones alone make the statistics."""
    real = stats.play_out

    def flaky(game: lt.Game, agents: Any) -> lt.Game:
        if game.state.seed % 2 == 0:
            raise lt.StepBudgetExceeded("injected", ["c:Cook", "l:map"])
        return real(game, agents)

    monkeypatch.setattr(stats, "play_out", flaky)
    results = list(stats.simulate({"edition": "galecrest"}, games=5, players=3, bots=["random"], seed=10))
    report = stats.report(results)
    assert report["games"] == 2
    assert report["failed"] == [
        {"seed": s, "bots": ["random"] * 3, "error": "StepBudgetExceeded",
         "message": "injected; involved: Cook, map. This is probably a card text that loops."}
        for s in (10, 12, 14)]
    assert sum(b["seat_games"] for b in report["bots"]) == 2 * 3


class _Shaky:
    """A bot with a bug: in the games whose seed is a multiple of 3 it raises at its first question."""

    def __init__(self, seed: int) -> None:
        self.broken = (seed // 16) % 3 == 0  # stats.play_one seeds seat i of game s with 16 * s + i
        self.rng = random.Random(seed)

    def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
        if self.broken:
            raise RuntimeError("shaky bot \x1b]52;c;aGk=\x07 tripped")
        return self.rng.choice(decision.keys())


def test_any_error_in_a_game_is_that_games_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: an exception that is not the library's (a bot's bug) fails its game only; the others finish."""
    monkeypatch.setitem(stats.BOTS, "shaky", _Shaky)
    results = list(stats.simulate({"edition": "galecrest"}, games=5, players=3, bots=["shaky", "random"], seed=2))
    assert [r.seed for r in results] == [2, 3, 4, 5, 6]
    failed = [r for r in results if isinstance(r, stats.GameFailure)]
    assert [(f.seed, f.error) for f in failed] == [(3, "RuntimeError"), (6, "RuntimeError")]
    assert all("shaky" in f.bots and "tripped" in f.message for f in failed)
    assert stats.report(results)["games"] == 3


def test_simulate_reports_a_game_a_bot_broke_and_plays_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: the failed game is named with seed, bots and error (control characters spelt out); status 1."""
    monkeypatch.setitem(stats.BOTS, "shaky", _Shaky)
    args = ["simulate", "--games", "4", "--players", "3", "--bots", "shaky,random", "--seed", "3"]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 2 and [f["seed"] for f in report["failed"]] == [3, 6]
    lines = [line for line in result.stderr.splitlines() if "failed" in line]
    assert lines == [f"libertalia: game with seed {seed} (bots by seat: {bots}) failed: RuntimeError: "
                     "shaky bot \\x1b]52;c;aGk=\\x07 tripped" for seed, bots in
                     ((3, "shaky, random, shaky"), (6, "shaky, random, shaky"))]
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    table = CliRunner().invoke(main, args)
    assert table.exit_code == 1 and "Failed games" in table.stdout and "Traceback" not in table.output
    assert "shaky, random, shaky" in table.stdout and "\x1b" not in table.stdout


def test_simulate_command_reports_failed_games(tmp_path: Path) -> None:
    """``libertalia simulate`` names failed games in the tables and the JSON, and exits with status 1."""
    folder = str(_loop_mod(tmp_path))
    runner = CliRunner()
    args = ["simulate", "--games", "2", "--players", "3", "--cards", folder]
    result = runner.invoke(main, args)
    assert result.exit_code == 1, result.output
    assert "Failed games" in result.output and "StepBudgetExceeded" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(main, [*args, "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["failed"] and all("chest" in f["message"] for f in report["failed"])
    assert "failed: StepBudgetExceeded" in result.stderr


def test_choose_stops_a_game_past_its_decision_bound() -> None:
    """``choose`` raises StepBudgetExceeded past 50 decisions per seat and day, leaving the game unchanged."""
    rules = lt.load_rules("galecrest")
    game = lt.new_game(rules, 3, seed=2)
    limit = 50 * sum(rules.board.voyage_days) * 3
    below = lt.Game(rules, attrs.evolve(game.state, history=("x",) * (limit - 1)))
    assert len(below.choose(below.legal_keys()[0]).history) == limit
    at = lt.Game(rules, attrs.evolve(game.state, history=("x",) * limit))
    before = at.state
    with pytest.raises(lt.StepBudgetExceeded, match=f"asked {limit:,} questions"):
        at.choose(at.legal_keys()[0])
    assert at.state == before


def test_a_loop_asking_every_time_is_stopped_by_the_decision_bound(tmp_path: Path) -> None:
    """A loot text that loops through a "you may" question ends in StepBudgetExceeded naming it, not a hang."""
    folder = tmp_path / "may-mod"
    folder.mkdir()
    (folder / "chest.yaml").write_text(LOOPING_CHEST.replace("then take", "then you may take"), encoding="utf-8")
    rules = lt.load_rules("galecrest", extra_cards=[folder])
    game = lt.new_game(rules, 2, seed=1, setup={"players": [{"hand": ["Cook", "Scout"]}] * 2,
                                                "loot": [["chest", "chest", "chest"]]})
    # Start near the bound so that the growing stack of chest abilities stays short.
    game = lt.Game(rules, attrs.evolve(game.state, history=("x",) * (50 * 15 * 2 - 40)))
    with pytest.raises(lt.StepBudgetExceeded) as caught:
        while game.decision is not None:
            game = game.choose("yes" if "yes" in game.legal_keys() else game.legal_keys()[0])
    assert caught.value.sources[0] == "chest"
