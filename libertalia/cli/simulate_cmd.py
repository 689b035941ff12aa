"""``libertalia simulate``: many games between bots, and their statistics."""

from __future__ import annotations

import csv
import importlib
import io
import json
import logging
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

import click
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from .. import stats
from . import console, friendly_errors, load, rules_args


@click.command()
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1), help="How many games.")
@click.option("--players", default=4, show_default=True, help="Players per game (1: solo against Automa).")
@click.option("--bots", default="random", show_default=True,
              help="Bot per seat, cycling: e.g. random,first puts random on seats 0, 2... and first on 1, 3...")
@click.option("--seed", default=1, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Worker processes (results do not depend on it); with --dask local, the cluster's workers.")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Run on a dask.distributed cluster: its scheduler (tcp://HOST:8786), or 'local' for a "
                   "LocalCluster on this machine. Needs libertalia[cluster]; results do not depend on it.")
@click.option("--edition", default="galecrest", show_default=True, help="Edition name or board YAML.")
@click.option("--loot", default=None, help="Loot sides: calm, stormy, uncharted, automa or kind=side,...")
@click.option("--cards", "extra", multiple=True, type=click.Path(exists=True), help="Extra card files or folders.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print one CSV row per seat and game.")
@click.option("--record", "record_dir", type=click.Path(file_okay=False), help="Write every game's record here.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Draw charts to this PNG (needs matplotlib).")
def simulate(games: int, players: int, bots: str, seed: int, jobs: int, dask_address: str | None, edition: str,
             loot: str | None, extra: tuple[str, ...], as_json: bool, as_csv: bool, record_dir: str | None,
             plot_path: str | None) -> None:
    """Play many games between bots and report win rates, scores and characters.

    A game that stops with an error (a card text that loops, say) is reported with its seed
    and left out of the statistics; the others go on, and the exit status is then 1.
    """
    out = console()
    bot_list = [b.strip() for b in bots.split(",") if b.strip()]
    distributed = None if dask_address is None else _distributed(dask_address, jobs)
    with friendly_errors():
        args = rules_args(edition, loot, extra)
        board = load(args).board
        lo, hi = board.players
        if not (lo <= players <= hi or (players == 1 and board.solo is not None)):
            solo = " (or 1: the solo game)" if board.solo is not None else ""
            raise click.BadParameter(f"{board.title} is for {lo} to {hi} players{solo}, not {players}",
                                     param_hint="--players")
        results: list[stats.GameSummary | stats.GameFailure] = []
        with _executor(distributed, dask_address, jobs) as executor, \
                Progress(console=out, transient=True, disable=not out.is_terminal) as progress:
            task = progress.add_task("playing", total=games)  # advanced as each chunk of games comes back
            results.extend(stats.simulate(args, games=games, players=players, bots=bot_list, seed=seed,
                                          jobs=jobs if executor is None else 1, executor=executor,
                                          record_dir=record_dir, progress=lambda n: progress.advance(task, n)))
        report = stats.report(results)
        summaries = [r for r in results if isinstance(r, stats.GameSummary)]
        if plot_path:
            _plot(summaries, report, plot_path)
    if as_json:
        click.echo(json.dumps(report, indent=1))
    elif as_csv:
        click.echo(_csv(summaries), nl=False)
    else:
        _tables(out, report)
    if plot_path:
        click.echo(f"charts written to {plot_path}", err=True)
    if report["failed"]:
        if as_json or as_csv:  # the tables name them already; keep stdout machine-readable
            for f in report["failed"]:
                click.echo(f"libertalia: game with seed {f['seed']} failed: {f['error']}: {f['message']}", err=True)
        raise SystemExit(1)


def _distributed(address: str, jobs: int) -> Any:
    """dask.distributed, checked before any game: --jobs only sizes a local cluster, and dask must be installed."""
    if address != "local" and jobs > 1:
        raise click.BadParameter("--jobs sets the workers of --dask local; a cluster at an address has its own",
                                 param_hint="--jobs")
    try:
        return importlib.import_module("distributed")  # an optional extra: typed as Any, imported only here
    except ImportError:
        raise click.ClickException("--dask needs dask.distributed: pip install 'libertalia[cluster]' "
                                   "(or pip install '.[cluster]' from a checkout)") from None


@contextmanager
def _executor(distributed: Any, address: str | None, jobs: int) -> Iterator[Executor | None]:
    """None without --dask (stats.simulate then uses --jobs); else an executor on the cluster, closed afterwards."""
    if address is None:
        yield None
    elif address == "local":
        # Processes (games hold the GIL), one thread each; no dashboard, nothing listening beyond 127.0.0.1.
        with distributed.LocalCluster(n_workers=jobs if jobs > 1 else 2, threads_per_worker=1, processes=True,
                                      host="127.0.0.1", dashboard_address=None,
                                      silence_logs=logging.ERROR) as cluster, distributed.Client(cluster) as client:
            yield client.get_executor()
    else:
        with distributed.Client(address) as client:
            yield client.get_executor()


def _csv(summaries: Sequence[stats.GameSummary]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["seed", "seat", "bot", "score", "won", "played"])
    for s in summaries:
        for seat, score in enumerate(s.scores):
            won = round(1 / len(s.winners), 4) if seat in s.winners else 0
            writer.writerow([s.seed, seat, s.bots[seat], score, won, " ".join(s.played[seat])])
    return buffer.getvalue()


def _tables(out: Any, report: dict[str, Any]) -> None:
    failed = report["failed"]
    out.print(f"{report['games']} games" + (f" ({len(failed)} failed, not counted)" if failed else ""))
    if failed:
        table = Table(title="Failed games", title_justify="left")
        table.add_column("seed", justify="right")
        table.add_column("error")
        for f in failed:
            table.add_row(str(f["seed"]), Text(f"{f['error']}: {f['message']}"))  # Text: no markup in messages
        out.print(table)
    for title, rows, key in (("Seats", report["seats"], "seat"), ("Bots", report["bots"], "bot")):
        table = Table(title=title, title_justify="left")
        for col in (key, "win rate", "mean", "median", "stdev"):
            table.add_column(col, justify="right")
        for r in rows:
            table.add_row(str(r[key]), f"{r['win_rate']:.1%}", f"{r['mean']:.1f}", f"{r['median']:.1f}",
                          f"{r['stdev']:.1f}")
        out.print(table)
    table = Table(title="Most played", title_justify="left")
    table.add_column("character")
    table.add_column("plays", justify="right")
    for r in report["most_played"]:
        table.add_row(r["character"], str(r["plays"]))
    out.print(table)
    table = Table(title="Characters", title_justify="left")
    for col in ("character", "plays", "mean doubloons", "win rate when played"):
        table.add_column(col, justify="left" if col == "character" else "right")
    for r in sorted(report["characters"], key=lambda r: -r["win_rate"]):
        table.add_row(r["character"], str(r["plays"]), f"{r['mean_doubloons']:+.2f}", f"{r['win_rate']:.1%}")
    out.print(table)


def _plot(summaries: Sequence[stats.GameSummary], report: dict[str, Any], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise click.ClickException("--plot needs matplotlib: pip install 'libertalia[plot]'") from None
    players = len(summaries[0].scores) if summaries else 0
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 6), gridspec_kw={"width_ratios": [1, 2]})
    left.boxplot([[s.scores[i] for s in summaries] for i in range(players)])
    left.set_xticks(range(1, players + 1), [f"seat {i}" for i in range(players)])
    left.set_title("Final scores per seat")
    left.set_ylabel("doubloons")
    chars = sorted(report["characters"], key=lambda r: r["win_rate"])
    right.barh([r["character"] for r in chars], [r["win_rate"] for r in chars], color="tab:blue")
    right.axvline(1 / players if players else 0, color="grey", linestyle="--", linewidth=1)
    right.set_title("Win rate of players who played each character (dashed: 1 / players)")
    right.set_xlabel("win rate")
    right.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
