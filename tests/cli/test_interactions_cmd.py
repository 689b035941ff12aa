"""``libertalia cards interactions``: the pair sweep over a mod folder, its JSON, and its reproductions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import libertalia.testing
from libertalia.cli import main
from libertalia.game import Game
from libertalia.testing import sweep

SEA_WITCH = """\
name: Sea Witch
rank: 41
text: |
  moon: gain 1 doubloon for each character in your ship ranked above 30.
"""
POWDER_MONKEY = """\
name: Powder Monkey
rank: 42
text: |
  sun: lose 4 doubloons if there is a Sea Witch in another player's ship.
"""


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    """A mod folder with two fan cards that know about each other."""
    folder = tmp_path / "fan-cards"
    folder.mkdir()
    (folder / "sea-witch.yaml").write_text(SEA_WITCH, encoding="utf-8")
    (folder / "powder-monkey.yaml").write_text(POWDER_MONKEY, encoding="utf-8")
    return folder


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["cards", "interactions", *args])


def test_the_mods_pair_is_swept_and_reported(mod: Path) -> None:
    """Naming the two fan cards sweeps exactly their pair, and the table shows it with a legend."""
    result = run("--with-mod", str(mod), "--games", "3", "--cards", "sea witch", "Powder Monkey")
    assert result.exit_code == 0, result.output
    assert "1 pair, 3 games each" in result.output
    assert "Sea Witch + Powder Monkey" in result.output
    assert "swing:" in result.output and "idle:" in result.output
    assert "0 failures in 0 of 1 pair" in result.output


def test_json_lists_every_pair_involving_the_mod(mod: Path) -> None:
    """Without names, --with-mod pairs each fan card with every character (and with each other); --json parses."""
    result = run("--with-mod", str(mod), "--games", "1", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report) == {"run", "pairs", "failures"} and report["failures"] == 0
    pairs = [tuple(p["cards"]) for p in report["pairs"]]
    assert len(pairs) == report["run"]["pairs"] == 2 * 40 + 1
    assert ("Sea Witch", "Powder Monkey") in pairs
    assert all("Sea Witch" in p or "Powder Monkey" in p for p in pairs)
    first = report["pairs"][0]
    assert set(first) == {"cards", "games", "swing", "idle", "failures", "skipped"}
    assert report["run"]["extra_cards"] == [str(mod.resolve())]


def test_the_report_does_not_depend_on_jobs(mod: Path) -> None:
    """Two worker processes give the same pairs, swings and idle shares as one process."""
    args = ("--with-mod", str(mod), "--games", "2", "--cards", "Sea Witch", "Cook", "Wind Nymph", "--json")
    one, two = run(*args), run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert json.loads(one.output)["pairs"] == json.loads(two.output)["pairs"]


def test_an_unknown_card_is_a_usage_error(mod: Path) -> None:
    """A misspelt card stops the command before any game, suggesting the name meant."""
    result = run("--with-mod", str(mod), "--cards", "Sea Wich", "Cook")
    assert result.exit_code == 2 and "did you mean" in result.output


def test_an_injected_failure_comes_with_a_reproduction_that_replays_it(
        mod: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken invariant is listed with a Python script that, run as printed, fails the same way."""
    def strict(game: Game, before: Game | None = None) -> None:
        if any("Sea Witch" in p.ship for p in game.players):
            raise AssertionError("injected: a Sea Witch is aboard")

    monkeypatch.setattr(sweep, "check_invariants", strict)  # what the sweep checks
    monkeypatch.setattr(libertalia.testing, "check_invariants", strict)  # what the script imports
    result = run("--with-mod", str(mod), "--games", "2", "--cards", "Sea Witch", "Powder Monkey", "--json")
    assert result.exit_code == 1
    (pair,) = json.loads(result.output)["pairs"]
    assert pair["games"] == 0 and len(pair["failures"]) == 2
    failure = pair["failures"][0]
    assert failure["kind"] == "invariant" and failure["variant"] == "together"
    assert "injected: a Sea Witch is aboard" in failure["message"]
    assert "- it:" in failure["yaml"] and "setup:" in failure["yaml"]
    with pytest.raises(AssertionError, match="injected: a Sea Witch is aboard"):
        exec(compile(failure["python"], "<reproduction>", "exec"), {})

    text = run("--with-mod", str(mod), "--games", "1", "--cards", "Sea Witch", "Powder Monkey")
    assert text.exit_code == 1
    assert "Failure 1: Sea Witch and Powder Monkey, game 0 (together), invariant:" in text.output
    assert "Replay it in Python:" in text.output and "lt.new_game(rules" in text.output
