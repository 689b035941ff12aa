"""``libertalia simulate`` as a newcomer meets it (issue 12): a report that says what it shows and explains itself."""

from __future__ import annotations

import csv
import io
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import libertalia as lt
from libertalia import _paths, stats
from libertalia.cli import main, simulate_cmd
from libertalia.errors import UnverifiedLootWarning

GAMES = ("simulate", "--games", "3", "--players", "3", "--bots", "random,first", "--seed", "5")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game that starts fails the test: for errors that must come before the first game."""
    monkeypatch.setattr(stats, "play_one", lambda task: pytest.fail("a game ran"))


def _scripted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games whose summaries are known: seats 0 and 1 share every win; Barkeep is played twice by seat 1."""
    def play_one(task: Any) -> stats.GameSummary:
        return stats.GameSummary(seed=task[2], bots=("random",) * 3, scores=(50, 50, 40), winners=(0, 1),
                                 played=(("Cook", "Barkeep"), ("Barkeep", "Barkeep"), ()),
                                 doubloons=({"Barkeep": 3, "map": 2}, {"Barkeep": 1}, {}))
    monkeypatch.setattr(stats, "play_one", play_one)


def _galecrest_kinds() -> list[str]:
    return [kind for kind, _ in lt.load_rules("galecrest").board.bag]


# ------------------------------------------------------------------ what was simulated

def test_json_names_what_was_simulated() -> None:
    """``--json`` starts with ``run``: edition, players, bots per seat, seeds, loot side per kind, version."""
    result = run(*GAMES, "--loot", "map=stormy", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert list(report)[0] == "run"
    run_info = report["run"]
    assert isinstance(run_info.pop("rules_fingerprint"), str)
    assert run_info == {
        "edition": "galecrest", "title": "Libertalia: Winds of Galecrest", "players": 3,
        "bots": ["random", "first", "random"], "seed": 5, "games": 3,
        "rotation": "the game with seed s seats bots[(i + s) % players] at seat i",
        "loot_sides": {kind: "stormy" if kind == "map" else "calm" for kind in _galecrest_kinds()},
        "uncharted": {}, "extra_cards": [], "version": lt.__version__, "notes": [],
    }


def test_uncharted_loot_is_named_with_the_sides_it_is_drawn_from() -> None:
    """``--loot uncharted``: every kind says 'uncharted', and ``uncharted`` lists the sides each is drawn from."""
    result = run(*GAMES, "--loot", "uncharted", "--json")
    assert result.exit_code == 0, result.output
    run_info = json.loads(result.stdout)["run"]
    assert set(run_info["loot_sides"].values()) == {"uncharted"}
    assert run_info["uncharted"] == {kind: ["calm", "stormy"] for kind in _galecrest_kinds()}


def test_solo_run_names_automa_its_loot_and_the_constructed_cards() -> None:
    """``--players 1``: Automa's seat and solo loot side in ``run``; the solo-card warning is a note, said once."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnverifiedLootWarning)  # a warning escaping per game would stop the run
        result = run("simulate", "--players", "1", "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    run_info = json.loads(result.stdout)["run"]
    assert run_info["bots"] == ["random", "automa"]
    solo = lt.load_rules("galecrest").board.solo
    assert solo is not None
    assert {k for k, side in run_info["loot_sides"].items() if side == "automa"} == set(solo.replaced)
    assert len(run_info["notes"]) == 1 and "solo cards are constructions" in run_info["notes"][0]


def test_text_report_names_what_was_simulated() -> None:
    """The tables are headed by the edition, players, seeds, bots by seat, loot sides by side and the version."""
    result = run(*GAMES, "--loot", "map=stormy")
    assert result.exit_code == 0, result.output
    head = result.stdout.split("Seats")[0]
    assert "Libertalia: Winds of Galecrest (galecrest)" in head
    assert "players:      3; 3 games, seeds 5 to 7" in head
    assert "bots by seat: 0 random, 1 first, 2 random" in head
    assert "loot sides:   calm: " in head and "stormy: map" in head
    assert f"libertalia {lt.__version__}" in head and "3 games finished" in head


# ------------------------------------------------------------------ explaining the columns

def test_every_column_of_the_text_report_has_a_legend() -> None:
    """Each table is followed by lines that define its columns; the duplicated 'Most played' table is gone."""
    result = run(*GAMES)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Most played" not in out
    legends = {line.strip().split(":")[0] for line in out.splitlines() if ":" in line and "│" not in line}
    for column in ("win rate", "mean, median, stdev", "seat-games", "plays", "mean doubloons",
                   "win rate when played"):
        assert column in legends, column
    assert "abilities of cards with this name" in out and "1 / 3 seats = 33.3% is the average" in out
    assert all(len(line) <= 80 for line in out.splitlines() if "│" not in line and "━" not in line
               and "─" not in line), "legends fit 80 columns"


def test_mean_doubloons_is_per_seat_game_from_the_characters_own_abilities(monkeypatch: pytest.MonkeyPatch) -> None:
    """mean_doubloons averages, over the seat-games that played a character, the doubloons its abilities gave."""
    _scripted(monkeypatch)
    result = run("simulate", "--games", "2", "--players", "3", "--json")
    assert result.exit_code == 0, result.output
    characters = {c["character"]: c for c in json.loads(result.stdout)["characters"]}
    assert set(characters) == {"Barkeep", "Cook"}  # loot ("map") is not a character
    assert characters["Barkeep"] == {"character": "Barkeep", "plays": 6, "seat_games": 4,
                                     "mean_doubloons": 2.0, "win_rate": 0.5}
    assert characters["Cook"]["mean_doubloons"] == 0 and characters["Cook"]["seat_games"] == 2
    text = run("simulate", "--games", "2", "--players", "3").stdout
    assert [line.split() for line in text.splitlines() if "Barkeep" in line or "Cook" in line] == [
        ["│", "Barkeep", "│", "6", "│", "4", "│", "+2.00", "│", "50.0%", "│"],
        ["│", "Cook", "│", "2", "│", "2", "│", "0", "│", "50.0%", "│"],  # 0, not +0.00: no doubloon at all
    ]


# ------------------------------------------------------------------ --csv

def test_csv_won_is_a_whole_number_and_played_a_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--csv``: won is 1 for each tied winner, winners says how many shared it, played is joined with ';'."""
    _scripted(monkeypatch)
    result = run("simulate", "--games", "1", "--players", "3", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert tuple(rows[0]) == simulate_cmd.CSV_HEADER == ("seed", "seat", "bot", "score", "won", "winners", "played")
    assert rows[1:] == [["0", "0", "random", "50", "1", "2", "Cook;Barkeep"],  # seed 0: the default
                        ["0", "1", "random", "50", "1", "2", "Barkeep;Barkeep"],
                        ["0", "2", "random", "40", "0", "2", ""]]


def test_csv_of_real_games_has_integer_wins_and_known_characters() -> None:
    """In real games every won is 0 or 1, the wins of a game add up to winners, and played names characters."""
    result = run(*GAMES, "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    rules = lt.load_rules("galecrest")
    for seed in ("5", "6", "7"):
        game = [r for r in rows if r["seed"] == seed]
        assert {r["won"] for r in game} <= {"0", "1"}
        assert sum(int(r["won"]) for r in game) == int(game[0]["winners"]) >= 1
        assert all(rules.has_card(name) for r in game for name in r["played"].split(";"))


# ------------------------------------------------------------------ options checked up front

def test_json_and_csv_together_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--json --csv`` stops before any game with a usage error (exit 2), not a traceback."""
    _no_games(monkeypatch)
    result = run("simulate", "--json", "--csv")
    assert result.exit_code == 2 and "--json and --csv cannot be combined" in result.output
    assert "Traceback" not in result.output


def test_negative_games_and_jobs_are_usage_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--games -3`` and ``--jobs -1`` are refused with exit 2 before any game (0 is tested in test_cli_safety)."""
    _no_games(monkeypatch)
    for option, value in (("--games", "-3"), ("--jobs", "-1")):
        result = run("simulate", option, value)
        assert result.exit_code == 2 and option in result.output and "Traceback" not in result.output


def test_no_bot_or_an_unknown_bot_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bots ,`` (no name) and ``--bots random,genius`` are usage errors naming the bots, before any game."""
    _no_games(monkeypatch)
    for bots in (",", "random,genius"):
        result = run("simulate", "--bots", bots)
        assert result.exit_code == 2 and "random, first" in result.output and "Traceback" not in result.output


# ------------------------------------------------------------------ --plot

def test_plot_without_matplotlib_stops_before_any_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--plot`` without matplotlib is a usage error before the games, with the checkout's install command."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes ``import matplotlib`` fail
    _no_games(monkeypatch)
    result = run("simulate", "--plot", str(tmp_path / "out.png"))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "matplotlib" in result.output and "pip install '.[plot]'" in result.output  # tests run from a checkout


def test_plot_hint_outside_a_checkout_names_a_checkout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Installed from a wheel (no pyproject.toml beside the data), the hint still installs from a checkout:
    the package is not on the package index."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(_paths, "data_root", lambda: tmp_path)
    _no_games(monkeypatch)
    result = run("simulate", "--plot", str(tmp_path / "out.png"))
    output = " ".join(result.output.split())  # click wraps the message
    assert result.exit_code == 2 and "pip install '.[plot]' in a checkout" in output and "libertalia[" not in output


def test_plot_into_a_missing_folder_stops_before_any_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--plot no/such/dir/out.png`` is a usage error at once, not a lost report after the games."""
    _no_games(monkeypatch)
    result = run("simulate", "--plot", str(tmp_path / "missing" / "out.png"))
    assert result.exit_code == 2 and "no folder" in result.output


def test_chart_has_a_title_table_units_and_a_fitted_win_rate_axis(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """The chart's title names games, edition and bots; win rates are in percent on an axis fitted to them."""
    figures: list[Any] = []
    monkeypatch.setattr(simulate_cmd, "_save", lambda plt, fig, path: figures.append(fig))
    result = run("simulate", "--games", "40", "--players", "4", "--bots", "random,first", "--seed", "2",
                 "--plot", str(tmp_path / "out.png"))
    assert result.exit_code == 0, result.output
    (fig,) = figures
    title = fig._suptitle.get_text()  # Figure.get_suptitle() needs matplotlib 3.8; the plot extra allows 3.7
    assert "40 games" in title and "(galecrest)" in title and "random, first, random, first" in title
    scores, rates = fig.axes
    assert "doubloons" in scores.get_ylabel() and "(%)" in rates.get_xlabel()
    lo, hi = rates.get_xlim()
    assert lo > 0 and hi < 100, "a fixed 0-100 axis would flatten the spread"
    assert all(lo <= bar.get_x() + bar.get_width() <= hi for bar in rates.patches)
    fig.clf()


def test_win_rate_limits_hold_every_bar_with_a_small_margin() -> None:
    """The axis spans the rates, their error bars and the average, plus a margin of at least half a point."""
    assert simulate_cmd.win_rate_limits([24.0, 26.0], [0.5, 0.5], 25.0) == (23.0, 27.0)
    assert simulate_cmd.win_rate_limits([2.0, 99.0], [3.0, 3.0], 50.0) == (0.0, 100.0)  # clipped to 0-100
