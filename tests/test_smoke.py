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


def test_main_job_runs() -> None:
    """``python -m libertalia simulate`` (the README's first command) runs with its defaults."""
    from click.testing import CliRunner

    from libertalia.cli import main

    result = CliRunner().invoke(main, ["simulate", "--games", "5"])
    assert result.exit_code == 0, result.output
    assert "5 games" in result.output and "win rate" in result.output
