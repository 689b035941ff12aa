"""``cards mutate`` on the command line: probably equivalent survivors, the example to add, and --list."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from libertalia.cli import main

# Rank 41 is above every bundled character, so "ranked below 42" and "below 41" play alike at sun.
TALLY = """\
name: Tally Keeper
rank: 41
text: |
  sun: gain 2 doubloons for each character in your ship ranked below 42.
"""


def _tally(folder: Path) -> Path:
    path = folder / "tally.yaml"
    path.write_text(TALLY, encoding="utf-8")
    return path


def _run(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["cards", "mutate", *args], catch_exceptions=False)
    return out.exit_code, out.output


def test_probably_equivalent_survivors_are_labelled_and_both_scores_shown(tmp_path: Path) -> None:
    """Item 2: an equivalent survivor is printed with the positions tried; the totals give the raw share and
    the score without the probably equivalent."""
    path = _tally(tmp_path)
    code, out = _run(str(path), "--operator", "number", "--positions", "10")
    assert code == 0, out
    assert (f"{path}:4:70: probably equivalent, played alike in 10 positions (number: '42' → '41'): "
            "sun: gain 2 doubloons for each character in your ship ranked below 41.") in out
    assert "galecrest: 0 of 4 mutants killed (0.0%), 2 probably equivalent: 0 of 2 (0.0%)" in out


def test_a_differing_survivor_is_printed_with_its_example_ready_to_paste(tmp_path: Path) -> None:
    """Item 2: a survivor that plays differently is followed by its shrunk examples: entry, indented."""
    path = _tally(tmp_path)
    code, out = _run(str(path), "--operator", "number", "--positions", "10")
    assert f"{path}:4:13: survived (number: '2' → '3')" in out
    assert "    it plays differently (seat " in out
    assert "      - it: \"tells the card from the slip '2' → '3'" in out


def test_positions_zero_plays_no_survivor_and_json_counts_equivalents(tmp_path: Path) -> None:
    """--positions 0 skips the side-by-side play: no survivor is equivalent, every one counts."""
    path = _tally(tmp_path)
    code, out = _run(str(path), "--operator", "number", "--positions", "0", "--json")
    report = json.loads(out)
    assert report["total"] == {"killed": 0, "mutants": 4, "equivalent": 0, "score": 0.0}
    assert all(s["positions"] == 0 and s["example"] == "" for s in report["cards"][0]["survivors"])


def test_list_prints_each_mutants_place_slip_and_text_and_runs_nothing(tmp_path: Path) -> None:
    """Item 1: --list prints every mutant (FILE:LINE:COLUMN, operator, slip, then its whole text), runs no
    example and prints no score."""
    path = _tally(tmp_path)
    code, out = _run(str(path), "--list")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].startswith(f"{path}: Tally Keeper: ") and lines[0].endswith(" mutants")
    assert f"  {path}:4:13: number: '2' → '3'" in lines
    assert "    sun: gain 3 doubloons for each character in your ship ranked below 42." in lines
    assert any(line.startswith(f"  {path}:") and ": slot: " in line for line in lines)
    assert "killed" not in out and "galecrest:" not in out
    listed = json.loads(_run(str(path), "--list", "--json")[1])
    assert listed[0]["card"] == "Tally Keeper" and len(listed[0]["mutants"]) == int(lines[0].split()[-2])
