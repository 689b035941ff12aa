"""``libertalia cards mutate``: how many of a modder's slips would a card's examples catch?

The work is ``libertalia.testing.mutation`` (pure reports); this module runs it over files,
in worker processes if asked, and prints scores and surviving mutants.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .._lifeline import worker_pool
from . import echo, echo_json, friendly_errors

if TYPE_CHECKING:
    from ..testing.mutation import CardMutation, MutationReport

JSON_HELP = """With --json the report is one object: cards (each: path, card, edition, examples, killed,
mutants, refused, same, score, survivors: each with operator, slip, text, line, column, killed_by),
editions ({EDITION: {killed, mutants, score}}) and total ({killed, mutants, score}). A score is
null where there are no mutants."""


@click.command("mutate", epilog=JSON_HELP)
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--edition", default=None,
              help="Edition for files outside the bundled card folders (default galecrest).")
@click.option("--operator", "operators", multiple=True, metavar="NAME",
              help="Only these kinds of slip (repeatable): number, comparison, owner, quantifier, side, "
                   "may, timing.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Worker processes, one file at a time each (the report does not depend on it).")
@click.option("--min-score", default=None, type=click.FloatRange(0, 100), metavar="PERCENT",
              help="Exit with status 1 when an edition's score is below PERCENT.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (keys below).")
def mutate(paths: tuple[str, ...], edition: str | None, operators: tuple[str, ...], jobs: int,
           min_score: float | None, as_json: bool) -> None:
    """Mutate each card's text the way modders slip, and run its examples against every mutant.

    Each slip (a number one off, a comparison turned round, your and an opponent's swapped,
    every and a swapped, left and right swapped, a "you may" added or dropped, another timing)
    that the checker accepts and that changes what the card says is a mutant. A mutant that
    fails one of the card's examples is killed; one that passes them all survives, and is
    printed as FILE:LINE:COLUMN with its text: add the example that tells it from the card.
    """
    from ..loading.examplefile import example_files
    from ..testing.mutants import OPERATORS
    from ..testing.mutation import MutationReport

    with friendly_errors():
        unknown = [op for op in operators if op not in OPERATORS]
        if unknown:
            raise click.BadParameter(f"{unknown[0]!r}: expected one of {', '.join(OPERATORS)}",
                                     param_hint="--operator")
        files = example_files(paths)
        chosen = operators or OPERATORS
        together = tuple(map(str, files))  # loaded beside each file, as cards test loads them
        tasks = [(str(f), edition, tuple(chosen), together) for f in files]
        done: list[CardMutation] = []
        # Workers die with this process and leave no files, even when it is killed outright (``_lifeline``).
        with worker_pool(min(jobs, len(tasks))) if jobs > 1 and tasks else nullcontext() as pool:
            for result in (pool.map(_one, tasks) if pool is not None else map(_one, tasks)):
                done.append(result)
                if not as_json:
                    _print_card(result)
        report = MutationReport(tuple(done))
    if as_json:
        echo_json(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        _print_totals(report)
    low = [e for e in report.editions
           if min_score is not None and (report.score(e) or 0.0) * 100 < min_score and report.totals(e)[1]]
    if low:
        if not as_json:
            echo(f"below {min_score:g}%: {', '.join(low)}", err=True)
        raise SystemExit(1)


def _one(task: tuple[str, str | None, tuple[str, ...], tuple[str, ...]]) -> CardMutation:
    from ..testing.mutation import mutate_file

    path, edition, operators, siblings = task
    return mutate_file(Path(path), edition, operators=operators, siblings=siblings)


def _percent(score: float | None) -> str:
    return "no mutants" if score is None else f"{score:.1%}"


def _print_card(card: CardMutation) -> None:
    line = f"{card.path}: {card.card}: {card.killed} of {len(card.mutants)} mutants killed ({_percent(card.score)})"
    if not card.examples:
        line += ", no examples"
    echo(line)
    for m in card.survivors:
        text = " / ".join(part.strip() for part in m.text.strip().splitlines())
        echo(f"  {card.path}:{m.line}:{m.column}: survived ({m.operator}: {m.slip}): {text}")


def _print_totals(report: MutationReport) -> None:
    for edition in report.editions:
        killed, mutants = report.totals(edition)
        echo(f"{edition}: {killed} of {mutants} mutants killed ({_percent(report.score(edition))})")
    if len(report.editions) > 1:
        killed, mutants = report.totals()
        echo(f"in all: {killed} of {mutants} mutants killed ({_percent(report.score())})")
