"""Whole games run to the end for every supported player count."""

import pytest

import libertalia as lt
from tests.helpers import galecrest


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_game_ends(players: int) -> None:
    """A random game for each player count reaches the end with a winner."""
    game = lt.play(galecrest(), [lt.agents.RandomAgent(i) for i in range(players)], seed=players)
    assert game.is_over and game.decision is None
    assert game.winners() and all(p.score >= 0 for p in game.players)


def test_main_job_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m libertalia`` narrates a game and prints the final scores."""
    from libertalia.__main__ import main

    assert main(["--players", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "voyage 1 begins" in out and "seat 2:" in out
