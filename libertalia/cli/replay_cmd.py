"""``libertalia replay``: a recorded game, day by day."""

from __future__ import annotations

import os
from collections.abc import Sequence

import click

from ..records import GameRecord
from . import console, friendly_errors, notes
from .display import print_events


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--cards", "extra", multiple=True, type=click.Path(exists=True),
              help="A mod path the record names outside its folder and this one: read it anyway.")
def replay(path: str, extra: tuple[str, ...]) -> None:
    """Replay a game record (from play or simulate --record) and print it day by day.

    Only a regular file is read.  The mod files a record names are read only under its folder
    or the current one, unless given again with --cards.
    """
    out = console()
    with friendly_errors(), notes():
        record = GameRecord.load(path)
        check_cards(record, extra)
        game = record.replay(cards=extra)
    print_events(out, game.events)
    who = ", ".join(f"seat {i}: {a}" for i, a in enumerate(record.agents)) or f"{record.players} seats"
    out.print(f"\n{game.rules.board.title}, seed {record.seed} ({who})")
    if game.is_over:
        winners = set(game.winners())
        for p in game.players:
            out.print(f"  seat {p.seat}: {p.score}{'  <- winner' if p.seat in winners else ''}")
    else:
        out.print(f"  the record stops at voyage {game.voyage}, day {game.day}: the game is not over")


def check_cards(record: GameRecord, extra: Sequence[str]) -> None:
    """With a record, ``--cards`` only names the record's own mod paths: any other is a usage error, not ignored."""
    named = [os.path.realpath(p) for p in record.mod_paths()]
    for path in extra:
        real = os.path.realpath(path)
        if not any(n == real or n.startswith(real.rstrip(os.sep) + os.sep) for n in named):
            uses = ", ".join(record.mod_paths()) or "no mod"
            raise click.BadParameter(f"{path}: the record does not read it (it uses {uses}); with a record, "
                                     "--cards names the record's own mod paths, to read them", param_hint="--cards")
