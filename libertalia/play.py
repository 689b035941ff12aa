"""Run whole games between agents."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .agents import Agent
from .game import Game, new_game
from .loading.specs import Rules

MAX_DECISIONS = 100_000
"""A bound no legal game comes near; reaching it means an engine bug."""


def play(rules: Rules, agents: Sequence[Agent], seed: int = 0, setup: Mapping[str, Any] | None = None) -> Game:
    """Play to the end with one agent per seat and return the final game."""
    game = new_game(rules, len(agents), seed, setup)
    return play_out(game, agents)


def play_out(game: Game, agents: Sequence[Agent]) -> Game:
    """Continue a game to its end."""
    for _ in range(MAX_DECISIONS):
        d = game.decision
        if d is None:
            return game
        key = agents[d.player].choose(game.observation(d.player), d)
        game = game.choose(key)
    raise RuntimeError(f"the game did not end within {MAX_DECISIONS} decisions")
