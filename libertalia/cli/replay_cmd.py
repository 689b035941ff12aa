"""``libertalia replay``: a recorded game, day by day."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import click

from ..errors import RecordError
from ..files import write_atomic
from ..records import MAX_RECORD_BYTES, GameRecord
from . import console, friendly_errors, notes
from .display import print_events


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--cards", "extra", multiple=True, type=click.Path(exists=True),
              help="A mod path the record names outside its folder and this one: read it anyway.")
@click.option("--html", "page", type=click.Path(dir_okay=False, writable=True),
              help="Write a self-contained page that steps through the game (buttons and arrow keys) to this file.")
def replay(path: str, extra: tuple[str, ...], page: str | None) -> None:
    """Replay a game record (from play or simulate --record) and print it day by day.

    PATH - reads the record from standard input (its mod paths are then relative to the current
    folder).  Otherwise only a regular file is read.  The mod files a record names are read only
    under its folder or the current one, unless given again with --cards.  With --html, the page
    is written (private to you, like the records) instead of printing the game.
    """
    out = console()
    with friendly_errors(), notes():
        record = read_stdin() if path == "-" else GameRecord.load(path)
        check_cards(record, extra)
        if page is not None:
            from ..pictures_page import replay_page  # here: only --html draws

            write_atomic(page, replay_page(record, cards=extra))
            out.print(f"wrote {page}: {len(record.answers)} answers, step through them in a browser", highlight=False)
            return
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


def read_stdin() -> GameRecord:
    """The record on standard input (``replay -``), as ``GameRecord.load`` reads a file: UTF-8, size-limited."""
    data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"standard input holds more than {MAX_RECORD_BYTES} bytes: that is no game record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"standard input is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return GameRecord.from_json(text, origin=os.getcwd())


def check_cards(record: GameRecord, extra: Sequence[str]) -> None:
    """With a record, ``--cards`` only names the record's own mod paths: any other is a usage error, not ignored."""
    named = [os.path.realpath(p) for p in record.mod_paths()]
    for path in extra:
        real = os.path.realpath(path)
        if not any(n == real or n.startswith(real.rstrip(os.sep) + os.sep) for n in named):
            uses = ", ".join(record.mod_paths()) or "no mod"
            raise click.BadParameter(f"{path}: the record does not read it (it uses {uses}); with a record, "
                                     "--cards names the record's own mod paths, to read them", param_hint="--cards")
