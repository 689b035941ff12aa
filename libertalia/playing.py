"""Run whole games between agents (``lt.play``; named so that no submodule shadows that function)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .agents import Agent
from .engine.specs import Rules
from .game import Game, new_game


def play(rules: Rules, agents: Sequence[Agent], seed: int = 0, setup: Mapping[str, Any] | None = None,
         *, log: bool = True) -> Game:
    """Play to the end with one agent per seat and return the final game (``log``: see ``new_game``)."""
    game = new_game(rules, len(agents), seed, setup, log=log)
    return play_out(game, agents)


def play_out(game: Game, agents: Sequence[Agent]) -> Game:
    """Continue a game to its end (``Game.play_out``: one private working copy, no snapshot per decision)."""
    return game.play_out(agents)
