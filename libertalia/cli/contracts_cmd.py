"""``libertalia cards contracts``: fuzz generated card texts against the step contracts.

The fuzzer itself is ``libertalia.testing.contracts`` (pure, no printing); this module runs it,
shows progress and prints the report.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click
from rich.progress import Progress

from .._version import library_version
from . import console, echo_json, friendly_errors, load, rules_args
from .terminal import safe_text

if TYPE_CHECKING:
    from ..testing.contracts import ContractReport

JSON_HELP = """With --json the report is one object: texts, loot_texts, positions, steps (checked, by
step kind), suspended, broken, skipped, seconds, seed, version, rules_fingerprint; violations
(each: text, card, context, source, ability, kind, step, contract, problems, python, yaml);
refused (each: text, role, message, reason); errors (each: text, card, context, message, python).
With --coverage --json: edition, seed, tries, games, seconds, productions, covered (mattered +
synonyms_covered + within + spellings), in_edition (productions less those not in this edition), mattered,
synonyms_covered, within, spellings, synonyms, no_effect, not_spelled, unreachable (not in this edition: refused
by its board), refused (by the checker in every text), rules (each: covered, alternatives) and entries
(each: production, rule, index, status, texts, pairs, why)."""


@click.command("contracts", epilog=JSON_HELP)
@click.option("--texts", default=200, show_default=True, type=click.IntRange(min=1),
              help="Distinct card texts to spell and fuzz.")
@click.option("--seed", default=0, show_default=True,
              help="Varies the texts and every position (the same seed, the same report).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Worker processes (the report does not depend on it).")
@click.option("--edition", default="galecrest", show_default=True, help="Edition name or board YAML.")
@click.option("--loot", default=None, help="Loot sides: calm, stormy or kind=side,... (not uncharted).")
@click.option("--cards", "extra", multiple=True, type=click.Path(exists=True), metavar="DIR",
              help="A mod folder (or file) loaded beside the edition: its cards play in the positions too.")
@click.option("--quick", is_flag=True,
              help="One context per text (they take turns) and each game only to the end of its focus day.")
@click.option("--show", default=10, show_default=True, type=click.IntRange(min=0),
              help="Violations printed in full, with their reproductions. --json always has every one kept.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (keys below).")
@click.option("--coverage", "with_coverage", is_flag=True,
              help="Instead: spell every production of the grammar against its siblings and report the ones "
                   "whose choice changed a result (coverage), and those never covered, with the reason.")
@click.option("--tries", default=3, show_default=True, type=click.IntRange(min=1),
              help="With --coverage: accepted texts spelled per production, at most.")
@click.option("--only", multiple=True, metavar="RULE",
              help="With --coverage: only the productions of this grammar rule (repeat for more).")
def contracts(texts: int, seed: int, jobs: int, edition: str, loot: str | None, extra: tuple[str, ...],
              quick: bool, show: int, as_json: bool, with_coverage: bool, tries: int, only: tuple[str, ...]) -> None:
    """Fuzz generated card texts: play each where it acts and check every step against its contract.

    Each text the checker accepts is loaded as a mod card (and as a loot tile where the checker
    takes it as one) and played from focused positions: at each of its timings, borrowed by a
    Witch-like card, as a loot tile, at 2 players and in solo, on the last day of the last
    voyage, with empty hands, ships and graveyards, and with an empty bag. Seeded random bots
    answer; every step any ability runs is compared with its contract (what it may change, the
    events it must log). Violations are listed with a script that replays them; the exit
    status is then 1.
    """
    from ..testing.contracts import fuzz_contracts

    out = console()
    if with_coverage:
        _coverage(out, rules_args(edition, loot, extra), seed, tries, jobs, as_json, only)
        return
    with friendly_errors():
        rules = load(rules_args(edition, loot, extra))
        with Progress(console=out, transient=True, disable=not out.is_terminal or as_json) as progress:
            task = progress.add_task("texts", total=texts)
            report = fuzz_contracts(rules, texts, seed=seed, jobs=jobs, every_context=not quick, to_end=not quick,
                                    progress=lambda n: progress.advance(task, n))
    if as_json:
        stamp = {"version": library_version(), "rules_fingerprint": rules.fingerprint}
        echo_json(json.dumps({**report.to_json(), **stamp}, indent=1))
    else:
        _print(out, report, show)
    if not report.ok:
        raise SystemExit(1)


def _print(out: object, report: ContractReport, show: int) -> None:
    from rich.console import Console

    assert isinstance(out, Console)
    for n, v in enumerate(report.violations[:show], 1):
        out.print(safe_text(f"\nViolation {n}:", style="bold red"))
        out.print(safe_text(str(v)))
        out.print(safe_text("Replay it in Python:"))
        out.print(safe_text(v.python))
        if v.yaml:
            out.print(safe_text("or as an examples: entry:"))
            out.print(safe_text(v.yaml))
    for n, e in enumerate(report.errors[:show], 1):
        out.print(safe_text(f"\nFailed game {n}: {e.card} ({e.context}): {e.message}", style="bold red"))
        out.print(safe_text(f"text: {e.text!r}"))
        out.print(safe_text(e.python))
    hidden = len(report.violations) - min(show, len(report.violations))
    if hidden:
        out.print(safe_text(f"\n{hidden} more violations kept (--show, or --json for all)"))
    out.print(safe_text(report.summary()))


def _coverage(out: object, args: dict[str, Any], seed: int, tries: int, jobs: int, as_json: bool,
              only: tuple[str, ...]) -> None:
    """``--coverage``: the grammar's productions, each spelled against its siblings (``testing.contracts.coverage``)."""
    from rich.console import Console

    from ..testing.contracts import coverage, productions

    assert isinstance(out, Console)
    known = {p.rule for p in productions()}
    unknown = [r for r in only if r not in known]
    if unknown:
        raise click.BadParameter(f"{unknown[0]!r} is not a rule of the grammar", param_hint="--only")
    with friendly_errors():
        rules = load(args)
        with Progress(console=out, transient=True, disable=not out.is_terminal or as_json) as progress:
            task = progress.add_task("productions", total=sum(not only or p.rule in only for p in productions()))
            report = coverage(rules, seed=seed, tries=tries, jobs=jobs, only=only,
                              progress=lambda n: progress.advance(task, n))
    if as_json:
        stamp = {"version": library_version(), "rules_fingerprint": rules.fingerprint}
        echo_json(json.dumps({**report.to_json(), **stamp}, indent=1))
    else:
        out.print(safe_text(report.summary()))
