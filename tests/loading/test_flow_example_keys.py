"""The example keys the flow needs: ``winners``, a game dealt from its seed (no ``setup``), and solo seats."""

from __future__ import annotations

from pathlib import Path

import pytest

from libertalia.errors import DataError
from libertalia.loading.examples import run_examples

HEAD = "name: Lantern Keeper\nrank: 41\ntext: |\n  sun: gain 2 doubloons.\nexamples:\n"


def _file(tmp_path: Path, examples: str) -> Path:
    path = tmp_path / "lantern.yaml"
    path.write_text(HEAD + examples, encoding="utf-8")
    return path


def test_winners_compares_the_seats_that_win(tmp_path: Path) -> None:
    """R26: winners lists the seats Game.winners() names once the game is over; a wrong seat fails."""
    example = """\
  - it: "the higher reputation wins the tie"
    setup:
      voyage: 3
      day: 6
      reputation: [0, 2, 1]
      loot: [[relic, relic, relic]]
      players:
        - {hand: [Barkeep], score: 10}
        - {hand: [Barkeep], score: 10}
        - {hand: [Barkeep], score: 9}
    expect: [{}]
    winners: [WHO]
"""
    assert run_examples(_file(tmp_path, example.replace("WHO", "1")))[0].passed
    failure = run_examples(_file(tmp_path, example.replace("WHO", "0")))[0].failure
    assert failure is not None and "winners: expected [0], got [1]" in str(failure)


def test_winners_before_the_end_says_the_game_is_not_over(tmp_path: Path) -> None:
    """winners on a game still running fails with the reason, not an exception."""
    example = """\
  - it: "no winner yet"
    setup:
      reputation: [0, 1, 2]
      players: [{hand: [Barkeep, Cook]}, {hand: [Barkeep, Cook]}, {hand: [Barkeep, Cook]}]
    expect: [{}]
    winners: [0]
"""
    failure = run_examples(_file(tmp_path, example))[0].failure
    assert failure is not None and "the game is not over" in str(failure)


def test_an_example_without_setup_is_dealt_from_its_seed(tmp_path: Path) -> None:
    """No setup: the game starts as new_game(rules, players, seed) deals it; players is then required."""
    example = """\
  - it: "two players start on the third and fourth spaces"
    players: 2
    expect: [{doubloons: 9, reputation: 3}, {doubloons: 10, reputation: 2}]
"""
    assert run_examples(_file(tmp_path, example))[0].passed
    with pytest.raises(DataError, match="players count"):
        run_examples(_file(tmp_path, "  - it: no seats\n    expect: [{}]\n"))


def test_a_solo_example_expects_automas_seat_too(tmp_path: Path) -> None:
    """S1: players 1 is the solo game, whose expect may list Automa (seat 1) as well."""
    example = """\
  - it: "Automa collects the income of her space"
    players: 1
    expect: [{reputation: 3, doubloons: 9}, {reputation: 2, doubloons: 10}]
"""
    assert run_examples(_file(tmp_path, example))[0].passed


def test_a_board_pattern_that_gives_one_number_twice_is_refused(tmp_path: Path) -> None:
    """C1: a board's tie-breaker pattern needs a different number per seat colour, as a card's own numbers do."""
    from libertalia.loading.rules import load_rules

    board = Path(load_rules("classic").board.path).read_text(encoding="utf-8")
    path = tmp_path / "board.yaml"
    path.write_text(board.replace("P6: [1, 6, 3, 2, 4, 5]", "P6: [1, 6, 3, 2, 3, 5]"), encoding="utf-8")
    with pytest.raises(DataError, match="pattern 'P6' gives 3 to two seat colours"):
        load_rules(str(path))
