"""Run whole games between agents (``lt.play``; named so that no submodule shadows that function)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import _args
from .agents import Agent
from .engine.specs import Rules
from .game import Game, _check_agents, new_game


def play(rules: Rules, agents: Sequence[Agent], seed: int = 0, setup: Mapping[str, Any] | None = None,
         *, log: bool = True) -> Game:
    """Play to the end with one agent per seat and return the final game (``log``: see ``new_game``).

    The number of agents is the number of players (one agent: the solo game against Automa).
    """
    if not isinstance(agents, list | tuple):
        raise _args.wrong_type("play", "agents", "a list or tuple of agents, one per seat", agents)
    game = new_game(rules, len(agents), seed, setup, log=log)
    _check_agents(agents, game._base, "play")
    return game.play_out(agents)


def play_out(game: Game, agents: Sequence[Agent]) -> Game:
    """Continue a game to its end (``Game.play_out``: one private working copy, no snapshot per decision)."""
    _args.instance(game, Game, "play_out", "game", "a Game")
    return game.play_out(agents)
