"""``libertalia replay``: a recorded game, day by day."""

from __future__ import annotations

import click

from ..records import GameRecord
from . import console, friendly_errors, notes
from .display import print_events


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def replay(path: str) -> None:
    """Replay a game record (from play or simulate --record) and print it day by day."""
    out = console()
    with friendly_errors(), notes():
        record = GameRecord.load(path)
        game = record.replay()
    print_events(out, game.events)
    who = ", ".join(f"seat {i}: {a}" for i, a in enumerate(record.agents)) or f"{record.players} seats"
    out.print(f"\n{game.rules.board.title}, seed {record.seed} ({who})")
    if game.is_over:
        winners = set(game.winners())
        for p in game.players:
            out.print(f"  seat {p.seat}: {p.score}{'  <- winner' if p.seat in winners else ''}")
    else:
        out.print(f"  the record stops at voyage {game.voyage}, day {game.day}: the game is not over")
