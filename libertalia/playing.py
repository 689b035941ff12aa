"""Run whole games between agents (``lt.play``; named so that no submodule shadows that function)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .agents import Agent
from .game import Game, new_game
from .loading.specs import Rules


def play(rules: Rules, agents: Sequence[Agent], seed: int = 0, setup: Mapping[str, Any] | None = None) -> Game:
    """Play to the end with one agent per seat and return the final game."""
    game = new_game(rules, len(agents), seed, setup)
    return play_out(game, agents)


def play_out(game: Game, agents: Sequence[Agent]) -> Game:
    """Continue a game to its end (``Game.play_out``: one private working copy, no snapshot per decision)."""
    return game.play_out(agents)
