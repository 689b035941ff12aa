"""``libertalia cards diff``: do two versions of a card ever play differently?

The work is ``libertalia.testing.card_diff`` (a pure report); this module prints it.
"""

from __future__ import annotations

import json

import click

from . import echo, echo_json, friendly_errors

JSON_HELP = """With --json the report is one object: card, files, positions, timings, differs, and difference
(null, or: field, values (each as Python shows it), players, seed, answer_seed, setup, plays, and examples:
one examples: entry per file)."""


@click.command("diff", epilog=JSON_HELP)
@click.argument("first", type=click.Path(exists=True, dir_okay=False))
@click.argument("second", type=click.Path(exists=True, dir_okay=False))
@click.option("--edition", default=None,
              help="Edition name or board YAML (default: the edition of a bundled card's folder, else galecrest).")
@click.option("--positions", default=60, show_default=True, type=click.IntRange(min=1),
              help="Focused positions to play both versions from.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0),
              help="Varies the positions and the answers (the same seed, the same report).")
@click.option("--players", default=None, type=click.IntRange(1, 6), help="Seats in every position (default: drawn).")
@click.option("--to-end", is_flag=True, help="Play every position to the end of the game (slower; by default one "
                                            "in four is).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (keys below).")
def diff(first: str, second: str, edition: str | None, positions: int, seed: int, players: int | None, to_end: bool,
         as_json: bool) -> None:
    """Play two versions of one card file side by side and show where they first differ.

    Both files define the same card (or loot tile). Each is loaded as a mod on its own, and both
    are played from the same generated positions, featuring the card at each of its timings,
    with the same answers. The first position where they differ is shrunk and printed with an
    examples: entry for each file: paste it to pin the difference. Exit status 1 when they
    differ, 0 when no position told them apart (probably the same card), 2 when a file does not
    load.
    """
    from ..testing.card_diff import diff_cards

    with friendly_errors():
        report = diff_cards(first, second, edition=edition, positions=positions, seed=seed, players=players,
                            to_end=to_end)
    if as_json:
        d = report.difference
        echo_json(json.dumps({
            "card": report.card, "files": list(report.files), "positions": report.positions,
            "timings": list(report.timings), "differs": report.differs,
            "difference": None if d is None else {
                "field": d.field, "values": [repr(v) for v in d.values], "players": d.position.players,
                "seed": d.position.seed, "answer_seed": d.seed, "setup": d.position.setup,
                "plays": list(d.position.plays), "examples": list(d.examples)},
        }, indent=2, ensure_ascii=False))
    else:
        echo(str(report))
    if report.differs:
        raise SystemExit(1)
