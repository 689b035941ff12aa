"""``libertalia cards interactions``: play each card alone, then pairs of cards together, and report what goes wrong.

The sweep itself is ``libertalia.testing.sweep`` (pure, no printing); this module picks the
pairs, shows progress and prints the report.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import click
from rich.progress import Progress
from rich.table import Table

from .._version import library_version
from ..suggest import did_you_mean, lookup
from . import console, echo_json, friendly_errors, load, rules_args
from .terminal import safe_text

if TYPE_CHECKING:
    from ..engine.specs import Rules
    from ..testing.sweep import Failure, PairReport, SweepReport

JSON_HELP = """With --json the report is one object:
run: edition, title, loot_sides, extra_cards, games (per card and per pair), seed, players
(null: drawn per game), cards (how many played alone), pairs (how many), seconds, version,
rules_fingerprint;
solo: one entry per card, in order: card, games (finished without a failure), failure (null,
or its first: cards [CARD], game, variant "alone", kind, message, python, yaml) and skipped
(null, or why the card could not be focused);
left_out: the cards that failed alone (their pairs are skipped); dropped: their files, left
out of extra_cards for the pairs' games; kept_out: those that could not be, kept out of the
pairs' positions only;
pairs: one entry per pair, in order: cards [A, B], games (finished without a failure),
swing [A, B] and idle [A, B] (as above), failures (each: cards, game, variant, kind
(error, loop or invariant), message, python, yaml) and skipped (null, or why the pair was
not played);
failures: how many failures in all, alone and in pairs."""


@click.command("interactions", epilog=JSON_HELP)
@click.argument("names", nargs=-1, metavar="[CARD]...")
@click.option("--cards", "named", multiple=True, metavar="CARD",
              help="A card (or loot kind) to pair; more may follow as arguments: --cards Witch 'Wind Nymph'. "
                   "Two or more: every pair among them (a name given twice pairs two copies); one: it with "
                   "every character.")
@click.option("--edition", default="galecrest", show_default=True, help="Edition name or board YAML.")
@click.option("--loot", default=None, help="Loot sides: calm, stormy, uncharted or kind=side,...")
@click.option("--with-mod", "mods", multiple=True, type=click.Path(exists=True), metavar="DIR",
              help="A mod folder (or file) loaded beside the edition; without CARDs, every pair involving its cards.")
@click.option("--games", default=5, show_default=True, type=click.IntRange(min=1),
              help="Positions per card alone and per pair.")
@click.option("--players", default=None, type=click.IntRange(min=2),
              help="Players per game (default: drawn per game, from the fewest the pair needs).")
@click.option("--seed", default=0, show_default=True, help="Varies every position (the same seed, the same report).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Worker processes (the report does not depend on it).")
@click.option("--top", default=20, show_default=True, type=click.IntRange(min=0),
              help="Pairs shown in the table, largest swing first (0: all). --json always has all.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (keys below).")
def interactions(names: tuple[str, ...], named: tuple[str, ...], edition: str, loot: str | None,
                 mods: tuple[str, ...], games: int, players: int | None, seed: int, jobs: int, top: int,
                 as_json: bool) -> None:
    """Play each card alone, then every pair of cards together from positions where both act, with random bots.

    Each card first plays --games positions alone, each to the game's end (a mod card beside
    the edition's cards only). A card that fails alone (a loop, an error, a broken invariant)
    is reported once, as its own failure; its pairs are skipped and the pairs' games are
    played without its file. Each pair plays --games positions (both cards where they act: a
    sun or dusk card played that day, a moon or anchor card aboard), checking the invariants
    after the plays, at the day's end and at the game's end, and replays each position to the
    day's end without each card in turn. The bots answer at random, and a question asked again
    afresh: a loop is a game that goes round whatever is answered. Failures are listed with a
    reproduction (Python and an examples: entry); the exit status is then 1.

    swing: what the other card's presence was worth to this card's owner, in doubloons (held
    plus banked) at the end of the day, mean over the games. idle: the share of the games in
    which the card's ability logged nothing that day.
    """
    from ..testing import sweep

    out = console()
    with friendly_errors():
        rules = load(rules_args(edition, loot, mods))
        if players is not None and not rules.board.players[0] <= players <= rules.board.players[1]:
            lo, hi = rules.board.players
            raise click.BadParameter(f"{rules.board.title} is for {lo} to {hi} players, not {players}",
                                     param_hint="--players")
        pairs = _pairs(rules, [*named, *names], mods)
        cards = len(dict.fromkeys(name for pair in pairs for name in pair))
        started = time.perf_counter()
        with Progress(console=out, transient=True, disable=not out.is_terminal or as_json) as progress:
            task = progress.add_task("cards alone, then pairs", total=cards + len(pairs))
            report = sweep.sweep(rules, pairs, games, seed=seed, players=players, jobs=jobs,
                                 progress=lambda n: progress.advance(task, n))
        seconds = time.perf_counter() - started
    run = _run(rules, games=games, seed=seed, players=players, cards=cards, pairs=len(pairs), seconds=seconds,
               mods=mods)
    failures = len(report.failures)
    if as_json:
        echo_json(json.dumps({"run": run, **report.to_json(), "failures": failures}, indent=1))
    else:
        _print(out, run, report, top)
    if failures:
        raise SystemExit(1)


def _pairs(rules: Rules, wanted: list[str], mods: tuple[str, ...]) -> list[tuple[str, str]]:
    """The pairs to play: among the named cards, else those involving the mod's, else every pair."""
    from ..testing import sweep

    everyone = sweep.characters(rules)
    if wanted:
        known = [*everyone, *rules.kinds]
        cards = []
        for name in wanted:
            found = lookup(name, known)
            if found is None:
                raise click.BadParameter(f"no card or loot kind called {name!r} in {rules.board.title}"
                                         f"{did_you_mean(name, known)}", param_hint="CARD")
            cards.append(found)
        return sweep.pairs_of(cards, everyone if len(cards) == 1 else ())
    if mods:
        own = sweep.mod_cards(rules, mods)
        if not own:
            raise click.BadParameter("the mod has no character or loot tile to pair", param_hint="--with-mod")
        return sweep.pairs_of(own, everyone)
    return sweep.pairs_of(everyone)


def _run(rules: Rules, *, games: int, seed: int, players: int | None, cards: int, pairs: int, seconds: float,
         mods: tuple[str, ...]) -> dict[str, Any]:
    return {
        "edition": rules.board.edition, "title": rules.board.title, "loot_sides": dict(rules.loot_sides),
        "extra_cards": list(rules.load_args.get("extra_cards", mods)), "games": games, "seed": seed,
        "players": players, "cards": cards, "pairs": pairs, "seconds": round(seconds, 2),
        "version": library_version(),
        "rules_fingerprint": rules.fingerprint,
    }


def _print(out: Any, run: dict[str, Any], report: SweepReport, top: int) -> None:
    """Failures first, each with its reproduction (the cards' alone, then the pairs'); then the pairs with the
    largest swings; then a legend."""
    reports = report.pairs
    players = "drawn per game" if run["players"] is None else str(run["players"])
    out.print(safe_text(f"{run['title']} ({run['edition']}): {_count(run['cards'], 'card')} alone, then "
                        f"{_count(run['pairs'], 'pair')}, {_count(run['games'], 'game')} each, "
                        f"seed {run['seed']}, players {players}; {run['seconds']:.1f} s"))
    if run["extra_cards"]:
        out.print(safe_text(f"  mod: {', '.join(run['extra_cards'])}"))
    alone = [r.failure for r in report.solo if r.failure is not None]
    for n, f in enumerate(alone, 1):
        _show(out, f"Failure alone {n}: {f.cards[0]}, game {f.game}, {f.kind}:", f)
    if report.left_out:
        out.print(safe_text(f"\nLeft out of the pairs (they fail alone): {', '.join(report.left_out)}.", style="bold"))
        if report.dropped:
            out.print(safe_text(f"  The pairs' games were played without {_count(len(report.dropped), 'file')}: "
                                f"{', '.join(report.dropped)}"))
        if report.kept_out:
            out.print(safe_text(f"  {', '.join(report.kept_out)} could not be left out of the rules (a bundled "
                                "card, or the mod does not load without it): kept out of the pairs' positions only."))
    for solo in report.solo:
        if solo.skipped:
            out.print(safe_text(f"skipped {solo.card} alone: {solo.skipped}"))
    failed = [f for r in reports for f in r.failures]
    for n, f in enumerate(failed, 1):
        _show(out, f"Failure {n}: {f.cards[0]} and {f.cards[1]}, game {f.game} ({f.variant}), {f.kind}:", f)
    for r in reports:
        if r.skipped and not set(r.cards) & set(report.left_out):
            out.print(safe_text(f"skipped {r.cards[0]} and {r.cards[1]}: {r.skipped}"))
    shown = sorted((r for r in reports if r.skipped is None), key=_largest_swing, reverse=True)
    if top:
        shown = shown[:top]
    table = Table(title="Pairs, largest swing first" + (f" (top {top})" if top else ""), title_justify="left")
    table.add_column("A + B")
    for col in ("swing A / B", "idle A / B", "games", "failures"):
        table.add_column(col, justify="right", no_wrap=True)
    for r in shown:
        table.add_row(safe_text(f"{r.cards[0]} + {r.cards[1]}"), " / ".join(_swing(s) for s in r.swing),
                      " / ".join(_share(i) for i in r.idle), str(r.games), str(len(r.failures)))
    out.print()
    out.print(table)
    for line in ("swing: what the other card's presence was worth to this card's owner, in doubloons",
                 "  (held plus banked) at the end of the day: the mean over the games of (with both)",
                 "  minus (without the other card). '-': no owner (loot in today's loot) or no game.",
                 "idle: the share of the games in which the card's ability logged nothing that day.",
                 "games: positions played through (with both, and without each) without a failure."):
        out.print(safe_text(line, style="dim"))
    if report.solo:
        out.print(safe_text(f"{_count(len(alone), 'card')} of {len(report.solo)} failed alone"
                       + (f" ({', '.join(report.left_out)}: {_count(len(reports) - _played(report), 'pair')} "
                          "skipped)" if report.left_out else "")))
    out.print(safe_text(f"{_count(len(failed), 'failure')} in {sum(1 for r in reports if r.failures)} of "
                        f"{_count(len(reports), 'pair')}"))


def _show(out: Any, title: str, f: Failure) -> None:
    out.print(safe_text(f"\n{title}", style="bold red"))
    out.print(safe_text(f.message))
    out.print(safe_text("Replay it in Python:"))
    out.print(safe_text(f.python))
    out.print(safe_text("or as an examples: entry:"))
    out.print(safe_text(f.yaml))


def _played(report: SweepReport) -> int:
    """The pairs played: those without a card that failed alone."""
    return sum(1 for r in report.pairs if not set(r.cards) & set(report.left_out))


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _largest_swing(report: PairReport) -> float:
    return max((abs(s) for s in report.swing if s is not None), default=0.0)


def _swing(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1f}"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"
