"""Playing a sampled game forward cheaply: the look-aheads and play-outs the bots run."""

from __future__ import annotations

from ..engine import rng
from ..game import Game


def finish_day(game: Game, seed: int) -> Game:
    """Answer uniformly at random until today's day is over (or the game is), from stream ``seed``.

    The day is over when the engine has moved to another day or voyage: the look-ahead then
    sees the day's plays, loot and night abilities resolved.
    """
    voyage, day, _ = game._where()
    counter = 0
    while True:
        d = game.decision
        if d is None:
            return game
        v, dd, _ = game._where()
        if v != voyage or dd != day:
            return game
        options = d.options
        key = options[rng.draw(seed, counter, len(options))].key if len(options) > 1 else options[0].key
        counter += 1
        game = game.choose(key)
