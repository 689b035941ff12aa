"""The game's own flow on the command line: a board's ``examples:`` in ``cards test``, ``check`` and ``mutate``.

A board file (``edition:`` and ``bag:`` at its top) carries examples of what no card says; a mod
folder that ships a board runs its cards and its board's examples under that board (issue 35, item 4).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from libertalia.cli import main

ROOT = Path(__file__).resolve().parents[2]
GALECREST = ROOT / "boards" / "galecrest.yaml"

# Two voyages of 3 days: the anchor comes after day 3.
SHORT = """\
  - it: "a voyage of 3 days: the anchor after day 3 banks the Lantern's 2 and an amulet's 3"
    setup:
      voyage: 1
      day: 3
      reputation: [2, 0, 1]
      loot: [[amulet, amulet, amulet]]
      players:
        - {hand: [Lantern Keeper]}
        - {hand: [Cabin Boy]}
        - {hand: [Cabin Boy]}
    expect: [{score: 5}]
    voyage: 2
"""
LANTERN = """\
name: Lantern Keeper
rank: 41
text: |
  sun: gain 2 doubloons.
"""


def _run(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["cards", *args], catch_exceptions=False)
    return out.exit_code, out.output


def _short_board(folder: Path, expected_score: int = 5) -> Path:
    """A mod folder: a copy of the Galecrest board with 3-day voyages and one flow example, and a card."""
    text = GALECREST.read_text(encoding="utf-8")
    text = text[:text.index("\nexamples:")].replace("voyages: [4, 5, 6]", "voyages: [3, 3]")
    text = text.replace("deal: [6, 6, 6]", "deal: [4, 4]")
    (folder / "board.yaml").write_text(text + "\nexamples:\n" + SHORT.replace("score: 5", f"score: {expected_score}"),
                                       encoding="utf-8")
    (folder / "lantern.yaml").write_text(LANTERN, encoding="utf-8")
    return folder


def test_cards_test_runs_the_bundled_boards_flow_examples() -> None:
    """cards test boards/galecrest.yaml: the flow examples (R3, R4, R13, R14, R26, S1-S3) pass."""
    code, out = _run("test", str(GALECREST))
    assert code == 0, out
    assert " passed, 0 failed" in out


def test_a_mod_folder_with_its_own_board_runs_under_that_board(tmp_path: Path) -> None:
    """A mod folder that ships a board: its cards load beside that board, and the board's examples run there."""
    folder = _short_board(tmp_path)
    code, out = _run("test", str(folder))
    assert code == 0, out
    assert "1 example passed, 0 failed" in out
    code, out = _run("check", str(folder))
    assert code == 0, out


def test_a_failing_flow_example_names_its_board_file_and_line(tmp_path: Path) -> None:
    """A board example that fails is reported at its file, line and column, like a card's."""
    folder = _short_board(tmp_path, expected_score=6)
    code, out = _run("test", str(folder))
    assert code == 1
    assert f"{folder / 'board.yaml'}:" in out and "seat 0 score: expected 6, got 5" in out


def test_check_refuses_a_board_whose_examples_are_malformed(tmp_path: Path) -> None:
    """cards check of a board: its examples' shape is checked as a card's are."""
    folder = _short_board(tmp_path)
    board = folder / "board.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("    expect: [{score: 5}]\n", ""), encoding="utf-8")
    code, out = _run("check", str(board))
    assert code == 1
    assert "expect" in out


def test_mutate_lists_and_scores_a_boards_slips(tmp_path: Path) -> None:
    """cards mutate of a board: its words mutated (another of a setting's choices), each mutant run against the
    flow examples; --list prints each mutant's line."""
    code, out = _run("mutate", str(GALECREST), "--operator", "word", "--list")
    assert code == 0, out
    assert "winner_ties: shared" in out and "leftover_loot: aside" in out
    code, out = _run("mutate", str(GALECREST), "--operator", "word", "--positions", "0", "--json")
    report = json.loads(out)
    card = report["cards"][0]
    assert card["card"] == "board (galecrest)" and card["mutants"] >= 2
    assert card["killed"] == card["mutants"], card["survivors"]
