"""Bots by name: what --bots accepts, seat rotation and the win-rate interval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from libertalia import stats
from libertalia.bots import make_agent, parse_bot
from libertalia.bots.greedy import GreedyAgent
from libertalia.bots.ismcts import ISMCTSAgent
from libertalia.cli import main
from libertalia.records import GameRecord


def test_names_build_their_bots() -> None:
    """Each accepted name builds the bot it says, with the budget it says."""
    assert isinstance(make_agent("greedy", 1), GreedyAgent)
    assert make_agent("greedy:3", 1).samples == 3  # type: ignore[attr-defined]
    bot = make_agent("ismcts:50", 2)
    assert isinstance(bot, ISMCTSAgent) and bot.iterations == 50 and bot.seconds is None
    timed = make_agent("ismcts:0.2s", 2)
    assert isinstance(timed, ISMCTSAgent) and timed.seconds == 0.2 and timed.iterations is None


@pytest.mark.parametrize("spec", ["ismcts", "ismcts:0", "ismcts:0s", "greedy:0", "greedy:1.5s", "random:3", "smart",
                                  "ismcts:-1", ""])
def test_bad_names_say_what_is_accepted(spec: str) -> None:
    """A name that is not a bot is a ValueError naming the bots, never a bot with a silent default."""
    with pytest.raises(ValueError, match="ismcts|greedy|bots are"):
        parse_bot(spec)


def test_lineup_rotates_one_seat_per_game() -> None:
    """Over any ``players`` consecutive seeds every bot sits in every seat once (seat advantage cancels out)."""
    bots = ["greedy", "random", "random", "first"]
    lineups = [stats.lineup(bots, 4, seed) for seed in range(10, 14)]
    for seat in range(4):
        assert sorted(lineup[seat] for lineup in lineups) == sorted(bots)
    assert stats.lineup(["greedy"], 1, 7) == ("greedy", "automa")


def test_win_interval_is_wilson() -> None:
    """The 95% interval contains the rate, narrows with more games and stays within [0, 1]."""
    lo, hi = stats.win_interval(40, 100)
    assert lo < 0.40 < hi and (round(lo, 3), round(hi, 3)) == (0.309, 0.498)
    lo2, hi2 = stats.win_interval(400, 1000)
    assert hi2 - lo2 < hi - lo
    assert stats.win_interval(0, 5)[0] == 0.0 and stats.win_interval(5, 5)[1] == 1.0


def test_simulate_reports_intervals_and_cards_of_one_bot() -> None:
    """--cards-of restricts the character statistics to one bot's seats; every bot row has its interval."""
    runner = CliRunner()
    both = runner.invoke(main, ["simulate", "--games", "6", "--players", "3", "--bots", "first,random", "--json"])
    assert both.exit_code == 0, both.output
    only = runner.invoke(main, ["simulate", "--games", "6", "--players", "3", "--bots", "first,random",
                                "--cards-of", "first", "--json"])
    assert only.exit_code == 0, only.output
    everyone, first = json.loads(both.stdout), json.loads(only.stdout)
    assert first["cards_of"] == "first"
    assert sum(c["seat_games"] for c in first["characters"]) < sum(c["seat_games"] for c in everyone["characters"])
    for row in everyone["bots"]:
        lo, hi = row["win_interval"]
        assert lo <= row["win_rate"] <= hi


def test_unknown_bot_and_cards_of_are_usage_errors() -> None:
    """A bad --bots or --cards-of stops before any game, naming what is accepted."""
    runner = CliRunner()
    bad = runner.invoke(main, ["simulate", "--games", "1", "--bots", "ismcts:x"])
    assert bad.exit_code == 2 and "ismcts:ITERATIONS" in bad.output
    stray = runner.invoke(main, ["simulate", "--games", "1", "--bots", "random", "--cards-of", "greedy"])
    assert stray.exit_code == 2 and "plays no seat" in stray.output


def test_play_takes_the_new_bots(tmp_path: Path) -> None:
    """``libertalia play --bots greedy:1,ismcts:5`` plays a whole game against them and records their names."""
    runner = CliRunner()
    record = tmp_path / "r.json"
    result = runner.invoke(main, ["play", "--players", "3", "--seed", "4", "--bots", "greedy:1,ismcts:5",
                                  "--record", str(record)], input="1\n" * 200, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "Final scores:" in result.output
    assert GameRecord.load(record).agents == ("human", "greedy:1", "ismcts:5")
    bad = runner.invoke(main, ["play", "--bots", "smart"])
    assert bad.exit_code == 2 and "ismcts:ITERATIONS" in bad.output


def test_the_tally_reports_as_the_games_come_in() -> None:
    """A Tally fed one game at a time gives report()'s figures at every point, from a generator too."""
    results = list(stats.simulate({"edition": "galecrest"}, games=8, players=3, bots=["random", "first"], seed=3))
    tally = stats.Tally(cards_of="first")
    for k, result in enumerate(results, 1):
        tally.add(result)
        assert tally.report() == stats.report(results[:k], cards_of="first")
    assert stats.report(iter(results)) == stats.report(results)
    assert not hasattr(tally, "summaries") and sum(len(v) for v in tally.scores_by_seat.values()) == 8 * 3
