"""``libertalia cards interactions``: the sweep over a mod folder (each card alone, then pairs), its JSON, and its
reproductions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import libertalia as lt
import libertalia.testing
from libertalia.cli import main
from libertalia.engine import flow
from libertalia.game import Game
from libertalia.language import loops
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
# Each map taken at dusk returns a map and takes one from the bag, whose dusk ability fires again (R6): a loop
# whatever anyone answers.  load_rules refuses it; the tests below switch that check off to sweep it.
RETURNING_MAP = """\
kind: map
side: calm
count: 10
text: |
  dusk: return a map you hold to the bag, then take a map from the bag.
  anchor, once: gain doubloons for your map in sets (2 for 7, 3 for 12).
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
    assert "2 cards alone, then 1 pair, 3 games each" in result.output
    assert "Sea Witch + Powder Monkey" in result.output
    assert "swing:" in result.output and "idle:" in result.output
    assert "0 cards of 2 failed alone" in result.output and "0 failures in 0 of 1 pair" in result.output


def test_json_lists_every_pair_involving_the_mod(mod: Path) -> None:
    """Without names, --with-mod pairs each fan card with every character (and with each other); --json parses."""
    result = run("--with-mod", str(mod), "--games", "1", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report) == {"run", "solo", "left_out", "dropped", "kept_out", "pairs", "failures"}
    assert report["failures"] == 0 and report["left_out"] == report["dropped"] == report["kept_out"] == []
    pairs = [tuple(p["cards"]) for p in report["pairs"]]
    assert len(pairs) == report["run"]["pairs"] == 2 * 40 + 1
    assert ("Sea Witch", "Powder Monkey") in pairs
    assert all("Sea Witch" in p or "Powder Monkey" in p for p in pairs)
    alone = [s["card"] for s in report["solo"]]
    assert alone[:2] == ["Sea Witch", "Powder Monkey"] and set(alone) == {c for p in pairs for c in p}
    assert len(alone) == report["run"]["cards"] and all(s["failure"] is None for s in report["solo"])
    first = report["pairs"][0]
    assert set(first) == {"cards", "games", "swing", "idle", "failures", "skipped"}
    assert report["run"]["extra_cards"] == [str(mod.resolve())]


def test_the_report_does_not_depend_on_jobs(mod: Path) -> None:
    """Two worker processes give the same cards alone, pairs, swings and idle shares as one process."""
    args = ("--with-mod", str(mod), "--games", "2", "--cards", "Sea Witch", "Cook", "Wind Nymph", "--json")
    one, two = run(*args), run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    for key in ("solo", "pairs"):
        assert json.loads(one.output)[key] == json.loads(two.output)[key]


def test_an_unknown_card_is_a_usage_error(mod: Path) -> None:
    """A misspelt card stops the command before any game, suggesting the name meant."""
    result = run("--with-mod", str(mod), "--cards", "Sea Wich", "Cook")
    assert result.exit_code == 2 and "did you mean" in result.output


def test_an_injected_failure_comes_with_a_reproduction_that_replays_it(
        mod: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken invariant of a pair (each card alone keeps it) is listed with a Python script that, run as
    printed, fails the same way."""
    def strict(game: Game, before: Game | None = None) -> None:
        aboard = {name for p in game.players for name in p.ship}
        if {"Sea Witch", "Powder Monkey"} <= aboard:
            raise AssertionError("injected: a Sea Witch is aboard with a Powder Monkey")

    monkeypatch.setattr(sweep, "check_invariants", strict)  # what the sweep checks
    monkeypatch.setattr(libertalia.testing, "check_invariants", strict)  # what the script imports
    # One game each: the Powder Monkey's file names the Sea Witch, so its games alone are dealt from the
    # whole mod and a later one of them puts a Sea Witch aboard too.
    result = run("--with-mod", str(mod), "--games", "1", "--cards", "Sea Witch", "Powder Monkey", "--json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert [s["failure"] for s in report["solo"]] == [None, None] and report["left_out"] == []
    (pair,) = report["pairs"]
    assert pair["games"] == 0 and len(pair["failures"]) == 1 == report["failures"]
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


@pytest.fixture
def looping_mod(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A mod folder with an innocent fan card and a map tile that loops at run time, with the loader's loop
    check off (its private hook) and a tenth of the step budget, so that the loop is quick to reach."""
    monkeypatch.setattr(loops, "_ENABLED", False)
    monkeypatch.setattr(flow, "STEP_BUDGET", 10_000)
    folder = tmp_path / "looping"
    folder.mkdir()
    (folder / "sea-witch.yaml").write_text(SEA_WITCH, encoding="utf-8")
    (folder / "map.yaml").write_text(RETURNING_MAP, encoding="utf-8")
    return folder


def test_a_looping_card_is_reported_once_alone_and_spoils_no_pair(looping_mod: Path) -> None:
    """A tile that loops fails its own games alone, once; its pairs are skipped, and the others, played
    without its file (so no bag holds it), pass."""
    args = ("--with-mod", str(looping_mod), "--games", "2", "--cards", "map", "Sea Witch", "Cook", "Wind Nymph")
    result = run(*args, "--json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["failures"] == 1 and report["left_out"] == ["map"] and report["kept_out"] == []
    assert report["dropped"] == [str(looping_mod.resolve() / "map.yaml")]
    (solo,) = [s for s in report["solo"] if s["failure"] is not None]
    failure = solo["failure"]
    assert solo["card"] == "map" and failure["cards"] == ["map"] and failure["variant"] == "alone"
    assert failure["kind"] == "loop" and "StepBudgetExceeded" in failure["message"]
    with pytest.raises(lt.StepBudgetExceeded):
        exec(compile(failure["python"], "<reproduction>", "exec"), {})
    played = [p for p in report["pairs"] if "map" not in p["cards"]]
    skipped = [p for p in report["pairs"] if "map" in p["cards"]]
    assert len(played) == len(skipped) == 3
    assert all(p["skipped"] == "map fails alone" and p["games"] == 0 for p in skipped)
    assert all(p["skipped"] is None and p["games"] == 2 and not p["failures"] for p in played)

    text = run(*args)
    assert text.exit_code == 1
    assert text.output.count("Failure alone") == 1 and "Failure alone 1: map, game 0, loop:" in text.output
    assert "Left out of the pairs (they fail alone): map." in text.output
    assert "1 card of 4 failed alone (map: 3 pairs skipped)" in text.output
    assert "0 failures in 0 of 6 pairs" in text.output
