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
mutants, equivalent, refused, same, score, survivors: each with operator, slip, text, line, column,
killed_by, probably_equivalent, positions, differs_in, example), editions ({EDITION: {killed, mutants,
equivalent, score}}) and total ({killed, mutants, equivalent, score}). A score is killed / (mutants -
equivalent), null where no mutant counts."""


@click.command("mutate", epilog=JSON_HELP)
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--edition", default=None,
              help="Edition for files outside the bundled card folders (default galecrest).")
@click.option("--operator", "operators", multiple=True, metavar="NAME",
              help="Only these kinds of slip (repeatable): number, comparison, owner, quantifier, side, "
                   "may, timing, and those read off the grammar: slot, drop, word, kind; a board file's: "
                   "number, word (another of a setting's choices), order (two neighbours of a list swapped).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Worker processes, one file at a time each (the report does not depend on it).")
@click.option("--positions", default=60, show_default=True, type=click.IntRange(min=0),
              help="Positions each survivor is played in beside its card before it is reported (0: none).")
@click.option("--min-score", default=None, type=click.FloatRange(0, 100), metavar="PERCENT",
              help="Exit with status 1 when an edition's score is below PERCENT.")
@click.option("--list", "listing", is_flag=True,
              help="Only list each mutant (its place, slip and whole text); run no example.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (keys below).")
def mutate(paths: tuple[str, ...], edition: str | None, operators: tuple[str, ...], jobs: int, positions: int,
           min_score: float | None, listing: bool, as_json: bool) -> None:
    """Mutate each card's text the way modders slip, and run its examples against every mutant.

    Each slip (a number one off, a comparison turned round, your and an opponent's swapped,
    every and a swapped, left and right swapped, a "you may" added or dropped, another timing;
    and, read off the grammar, a slot's other wordings, a part the grammar lets go dropped,
    another word of a word class, another loot kind or one more) that the checker accepts and
    that changes what the card says is a mutant; --list prints them and runs nothing. A mutant that
    fails one of the card's examples is killed. One that passes them all is played beside the
    card from generated positions with the same answers: if it ever plays differently it survives,
    printed as FILE:LINE:COLUMN with its text and the examples: entry (shrunk) that kills it; if it
    never does it is "probably equivalent", printed with the number of positions tried, and left
    out of the score (killed / (mutants - probably equivalent)).
    """
    from ..loading.examplefile import example_files
    from ..loading.examples import is_board, is_board_data
    from ..testing.board_mutation import BOARD_OPERATORS
    from ..testing.mutants import OPERATORS
    from ..testing.mutation import MutationReport

    with friendly_errors():
        known = tuple(dict.fromkeys([*OPERATORS, *BOARD_OPERATORS]))
        unknown = [op for op in operators if op not in known]
        if unknown:
            raise click.BadParameter(f"{unknown[0]!r}: expected one of {', '.join(known)}",
                                     param_hint="--operator")
        files = [f for f in example_files(paths) if is_board(f) or not is_board_data(f)]  # a solo deck: its board's
        chosen = operators or OPERATORS
        together = tuple(map(str, files))  # loaded beside each file, as cards test loads them
        tasks = [(str(f), edition, tuple(chosen), together, positions, not listing) for f in files]
        done: list[CardMutation] = []
        # Workers die with this process and leave no files, even when it is killed outright (``_lifeline``).
        with worker_pool(min(jobs, len(tasks))) if jobs > 1 and tasks else nullcontext() as pool:
            for result in (pool.map(_one, tasks) if pool is not None else map(_one, tasks)):
                done.append(result)
                if listing and not as_json:
                    _print_list(result)
                elif not as_json:
                    _print_card(result)
        report = MutationReport(tuple(done))
    if listing:
        if as_json:
            echo_json(json.dumps([{"path": c.path, "card": c.card, "mutants": [
                {k: v for k, v in m.to_json().items() if k in ("operator", "slip", "text", "line", "column")}
                for m in c.mutants]} for c in report.cards], indent=2, ensure_ascii=False))
        return
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


def _one(task: tuple[str, str | None, tuple[str, ...], tuple[str, ...], int, bool]) -> CardMutation:
    from ..testing.mutation import mutate_file

    path, edition, operators, siblings, positions, run = task
    return mutate_file(Path(path), edition, operators=operators, siblings=siblings, positions=positions, run=run)


def _print_list(card: CardMutation) -> None:
    """Each mutant of a file: where, which slip, and its whole text (indented, line by line)."""
    echo(f"{card.path}: {card.card}: {len(card.mutants)} mutants")
    for m in card.mutants:
        echo(f"  {card.path}:{m.line}:{m.column}: {m.operator}: {m.slip}")
        for line in m.text.strip("\n").splitlines():
            echo(f"    {line}")


def _percent(score: float | None) -> str:
    return "no mutants" if score is None else f"{score:.1%}"


def _counts(killed: int, mutants: int, equivalent: int, score: float | None) -> str:
    """``K of M mutants killed (S)``; with probably equivalent ones, the raw share and the score without them."""
    if not equivalent:
        return f"{killed} of {mutants} mutants killed ({_percent(score)})"
    raw = killed / mutants if mutants else None
    return (f"{killed} of {mutants} mutants killed ({_percent(raw)}), {equivalent} probably equivalent: "
            f"{killed} of {mutants - equivalent} ({_percent(score)})")


def _print_card(card: CardMutation) -> None:
    line = f"{card.path}: {card.card}: {_counts(card.killed, len(card.mutants), card.equivalent, card.score)}"
    if not card.examples:
        line += ", no examples"
    echo(line)
    for m in card.survivors:
        text = " / ".join(part.strip() for part in m.text.strip().splitlines())
        where = f"  {card.path}:{m.line}:{m.column}"
        if m.equivalent:
            echo(f"{where}: probably equivalent, played alike in {m.positions} positions ({m.operator}: {m.slip}): "
                 f"{text}")
            continue
        echo(f"{where}: survived ({m.operator}: {m.slip}): {text}")
        if m.differs_in is not None:
            echo(f"    it plays differently ({m.differs_in}); the example that kills it, shrunk:")
            echo("".join("    " + part for part in m.example.splitlines(keepends=True)).rstrip("\n"))


def _print_totals(report: MutationReport) -> None:
    for edition in report.editions:
        killed, mutants = report.totals(edition)
        echo(f"{edition}: {_counts(killed, mutants, report.equivalent(edition), report.score(edition))}")
    if len(report.editions) > 1:
        killed, mutants = report.totals()
        echo(f"in all: {_counts(killed, mutants, report.equivalent(), report.score())}")
