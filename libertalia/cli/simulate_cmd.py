"""``libertalia simulate``: many games between bots, and their statistics."""

from __future__ import annotations

import csv
import functools
import importlib
import io
import json
import logging
import math
import textwrap
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.progress import Progress
from rich.table import Table

from .. import _paths, files, stats
from ..bots.registry import BOT_HELP
from ..engine import rng
from ..errors import RulesWarning, UnverifiedLootWarning
from ..game import new_game
from . import cluster, console, echo, echo_json, friendly_errors, load, rules_args
from .terminal import safe_text

if TYPE_CHECKING:
    from ..engine.specs import BoardSpec, Rules

# One row per seat and game.  ``won`` is 1 for every winner, tied winners included; ``winners``
# says how many shared the win (a fractional share is won / winners, as the report counts it).
CSV_HEADER = ("seed", "seat", "bot", "score", "won", "winners", "played")


DASK_TIMEOUT = 60.0
"""Seconds ``--dask`` waits for the scheduler to answer and for a worker: long enough for
workers started by hand or by a batch system to join, short enough to notice a mistake."""
EXIT_MACHINERY = 3
"""The exit status of a run whose cluster or worker processes failed (1 is a failed game, 2 a usage error)."""


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as ``play`` exits on Ctrl-C


def _machinery_failures(command: Callable[..., None]) -> Callable[..., None]:
    """A cluster or pool that fails becomes one line and exit status 3, not tracebacks and 1; Ctrl-C, status 130."""
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except cluster.ClusterError as exc:
            echo(f"libertalia: {exc}; the run stopped and nothing is reported", err=True)
            raise SystemExit(EXIT_MACHINERY) from None
        except BrokenProcessPool:
            echo(f"libertalia: a worker process of --jobs {kwargs.get('jobs')} died (killed, or out of "
                 "memory?); the run stopped and nothing is reported", err=True)
            raise SystemExit(EXIT_MACHINERY) from None
        except KeyboardInterrupt:
            # Like play: the shell's status for Ctrl-C, one line, and no click "Aborted!" with status 1.
            echo("\nInterrupted: the run stopped and nothing is reported (records already written stay).",
                 err=True)
            raise SystemExit(EXIT_INTERRUPTED) from None
    return run


def _check_seed(ctx: click.Context, param: click.Parameter, value: int) -> int:
    """``--seed``: the library's one rule for seeds (``rng.seed_problem``); the last seed is checked with --games."""
    problem = rng.seed_problem(value)
    if problem is not None:
        raise click.BadParameter(problem)
    return value


@click.command()
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1), help="How many games.")
@click.option("--players", default=4, show_default=True, help="Players per game (1: solo against Automa).")
@click.option("--bots", default="random", show_default=True,
              help="Bot per seat, cycling: e.g. greedy,random puts greedy on seats 0, 2... and random on 1, 3...; "
                   "each game turns the line-up one seat on, so no bot keeps a seat's advantage. "
                   f"The bots: {BOT_HELP}.")
@click.option("--cards-of", "cards_of", metavar="BOT",
              help="Count the character statistics over the seats this bot played only (one of --bots).")
@click.option("--seed", default=0, show_default=True, callback=_check_seed,
              help="Seed of the first game, 0 to 2**64 - 1; game i uses seed+i (the last one too must fit).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(min=1),
              help="Worker processes (results do not depend on it); with --dask local, the cluster's workers.")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="Run on a dask.distributed cluster: its scheduler (tcp://HOST:8786), or 'local' for a "
                   "LocalCluster on this machine. Needs libertalia[cluster]; results do not depend on it.")
@click.option("--dask-timeout", "dask_timeout", default=DASK_TIMEOUT, show_default=True, metavar="SECONDS",
              type=click.FloatRange(min=0, min_open=True),
              help="With --dask: how long to wait to reach the scheduler, and for a worker when it has none "
                   "(at the start or mid-run), before stopping with exit status 3.")
@click.option("--edition", default="galecrest", show_default=True, help="Edition name or board YAML.")
@click.option("--loot", default=None, help="Loot sides: calm, stormy, uncharted, automa or kind=side,...")
@click.option("--cards", "extra", multiple=True, type=click.Path(exists=True), help="Extra card files or folders.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the report as JSON: what was run (under 'run'), then the statistics.")
@click.option("--csv", "as_csv", is_flag=True,
              help=f"Print one CSV row per seat and game: {','.join(CSV_HEADER)}. won is 1 for every winner "
                   "(ties included) and winners says how many shared the win; played lists the characters "
                   "the seat sent to the island, joined with ';'. Not with --json.")
@click.option("--record", "record_dir", type=click.Path(file_okay=False), help="Write every game's record here.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False),
              help="Also draw charts to this PNG (needs matplotlib: the plot extra).")
@_machinery_failures
def simulate(games: int, players: int, bots: str, cards_of: str | None, seed: int, jobs: int,
             dask_address: str | None, dask_timeout: float, edition: str, loot: str | None, extra: tuple[str, ...],
             as_json: bool, as_csv: bool, record_dir: str | None,
             plot_path: str | None) -> None:
    """Play many games between bots and report win rates, scores and characters.

    The report says what was played (edition, loot sides, seeds, bots, version) and
    explains its columns. A game that stops with an error (a card text that loops, or a
    bot's own bug) is reported with its seed, its bots and the error, and left out of the
    statistics; the others go on, and the exit status is 1.  So it is
    when a record of --record cannot be written (a full disk, say): the games still count,
    and the message names the files.

    \b
    Exit status:
      0  every game was played and recorded
      1  some games failed (each is named with its seed, bots and error; the others
         are counted), or some records could not be written (each file is named)
      2  a usage error or bad input (an option, a card file), or a file that could
         not be read or written
      3  the machinery failed: the dask scheduler could not be reached, had no
         worker for --dask-timeout seconds, or was lost mid-run; or a worker
         process of --jobs died. One line says which; nothing is reported.
      130 interrupted by Ctrl-C: nothing is reported (as with play)
    """
    # Every option is checked before the first game: a run can take hours.
    if as_json and as_csv:
        raise click.UsageError("--json and --csv cannot be combined: give one of them")
    last = seed + games - 1
    if rng.seed_problem(last) is not None:
        raise click.BadParameter(f"the run's last game would have seed {last}, past the last seed 2**64 - 1: "
                                 f"start at {rng.SEED_LIMIT - games} or lower, or play fewer games",
                                 param_hint="--seed")
    bot_list = _bot_list(bots)
    if cards_of is not None and cards_of not in bot_list:
        raise click.BadParameter(f"{cards_of!r} plays no seat; --bots names {', '.join(dict.fromkeys(bot_list))}",
                                 param_hint="--cards-of")
    plt = None if plot_path is None else _pyplot(plot_path)
    distributed = None if dask_address is None else _distributed(dask_address, jobs)
    out = console()
    with friendly_errors():
        args = rules_args(edition, loot, extra)
        rules = load(args)
        _check_players(rules.board, players)
        notes = _first_game_notes(rules, players, seed)
        run = stats.run_info(rules, games=games, players=players, bots=bot_list, seed=seed, extra_cards=extra,
                             notes=notes)
        # Each game is tallied (and written as CSV rows) as it comes in, never kept: a run of a
        # million games needs the memory of its statistics only.
        tally = stats.Tally(cards_of=cards_of)
        if as_csv:
            echo(",".join(CSV_HEADER))
        elif not as_json:  # what is being played, before the progress bar: a run can take hours
            for line in run_header(run):
                out.print(safe_text(line))
        with _executor(distributed, dask_address, jobs, dask_timeout) as executor, warnings.catch_warnings(), \
                Progress(console=out, transient=True, disable=not out.is_terminal) as progress:
            warnings.simplefilter("ignore", RulesWarning)  # in the report's notes, not once per game
            task = progress.add_task("playing", total=games)  # advanced as each chunk of games comes back
            for result in stats.simulate(args, games=games, players=players, bots=bot_list, seed=seed,
                                         jobs=jobs if executor is None else 1, executor=executor,
                                         record_dir=record_dir, progress=lambda n: progress.advance(task, n)):
                tally.add(result)
                if as_csv and isinstance(result, stats.GameSummary):
                    echo(csv_rows(result), nl=False)
        report = tally.report(run=run)
    if as_json:
        echo_json(json.dumps(report, indent=1))
    elif not as_csv:
        _tables(out, report)
    if plt is not None and plot_path is not None:  # after the report, so that a failing chart never loses it
        _plot_to(plt, [tally.scores_by_seat[seat] for seat in sorted(tally.scores_by_seat)], report, plot_path)
    _report_unrecorded(report["unrecorded"])
    if report["failed"]:
        if as_json or as_csv:  # the tables name them already; keep stdout machine-readable
            for f in report["failed"]:
                echo(f"libertalia: game with seed {f['seed']} (bots by seat: {', '.join(f['bots'])}) failed: "
                     f"{f['error']}: {f['message']}", err=True)
        raise SystemExit(1)
    if report["unrecorded"]:
        raise SystemExit(1)


def _report_unrecorded(unrecorded: list[dict[str, Any]], shown: int = 5) -> None:
    """The records --record could not write, after the report: the first few by name, then how many in all."""
    if not unrecorded:
        return
    echo(f"libertalia: {len(unrecorded)} game record(s) could not be written; the statistics count those "
         "games, and every record written is whole:", err=True)
    for entry in unrecorded[:shown]:
        echo(f"  seed {entry['seed']}: {entry['error']}", err=True)
    if len(unrecorded) > shown:
        echo(f"  ... and {len(unrecorded) - shown} more", err=True)


def _bot_list(bots: str) -> list[str]:
    """The --bots names, checked here: an unknown or missing bot is a usage error, not a failure mid-run."""
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise click.BadParameter(f"name at least one bot: {BOT_HELP}", param_hint="--bots")
    for name in names:
        try:
            stats.bot_factory(name)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--bots") from None
    return names


def _check_players(board: BoardSpec, players: int) -> None:
    """The player count must fit the board (or be 1 when the board has a solo mode)."""
    lo, hi = board.players
    if not (lo <= players <= hi or (players == 1 and board.solo is not None)):
        solo = " (or 1: the solo game)" if board.solo is not None else ""
        raise click.BadParameter(f"{board.title} is for {lo} to {hi} players{solo}, not {players}",
                                 param_hint="--players")


def _first_game_notes(rules: Rules, players: int, seed: int) -> list[str]:
    """Set up the first game once, here: what it warns about (solo cards that are constructions) goes in the report.

    The games of the run then keep quiet about it, instead of a Python warning in the middle of the output.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UnverifiedLootWarning)
        new_game(rules, players, seed, log=False)
    return list(dict.fromkeys(str(w.message) for w in caught))


def _pyplot(path: str) -> Any:
    """matplotlib's pyplot on a file backend, or a usage error: checked before the games, which may take hours."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise click.BadParameter(f"there is no folder {str(folder)!r} to write {path!r} in", param_hint="--plot")
    try:
        matplotlib = importlib.import_module("matplotlib")  # an optional extra: typed as Any, imported only here
        matplotlib.use("Agg")
        return importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise click.BadParameter(f"charts need matplotlib, which is not installed: {_paths.install_hint('plot')}",
                                 param_hint="--plot") from None


def _distributed(address: str, jobs: int) -> Any:
    """dask.distributed, checked before any game: --jobs only sizes a local cluster, and dask must be installed."""
    if address != "local" and jobs > 1:
        raise click.BadParameter("--jobs sets the workers of --dask local; a cluster at an address has its own",
                                 param_hint="--jobs")
    try:
        return importlib.import_module("distributed")  # an optional extra: typed as Any, imported only here
    except ImportError:
        raise click.ClickException(f"--dask needs dask.distributed: {_paths.install_hint('cluster')}") from None


@contextmanager
def _executor(distributed: Any, address: str | None, jobs: int, timeout: float) -> Iterator[Executor | None]:
    """None without --dask (stats.simulate then uses --jobs); else an executor on the cluster, closed afterwards.

    The cluster is watched (``cluster.watched``): unreachable, without workers for ``timeout``
    seconds, or lost mid-run, it raises ``ClusterError``.
    """
    if address is None:
        yield None
    elif address == "local":
        # Processes (games hold the GIL), one thread each; no dashboard, nothing listening beyond 127.0.0.1.
        with distributed.LocalCluster(n_workers=jobs if jobs > 1 else 2, threads_per_worker=1, processes=True,
                                      host="127.0.0.1", dashboard_address=None,
                                      silence_logs=logging.ERROR) as local, \
                cluster.watched(distributed, local.scheduler_address, timeout) as executor:
            yield executor
    else:
        with cluster.watched(distributed, address, timeout) as executor:
            yield executor


def csv_rows(s: stats.GameSummary) -> str:
    """A game's rows (``CSV_HEADER``), one per seat: whole numbers and a ';'-separated list, easy to load anywhere."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for seat, score in enumerate(s.scores):
        writer.writerow([s.seed, seat, s.bots[seat], score, int(seat in s.winners), len(s.winners),
                         ";".join(s.played[seat])])
    return buffer.getvalue()


# ------------------------------------------------------------------ the text report

def _tables(out: Any, report: dict[str, Any]) -> None:
    """The report as tables, each with a legend: a newcomer should not need the docs to read it."""
    run = report["run"]
    out.print(safe_text(finished_line(report)))  # the run's header was printed before the games
    if report["failed"]:
        _failed_table(out, report["failed"])
    if not report["games"]:
        return
    mixed = len(set(run["bots"])) > 1
    _seats_table(out, report["seats"], ["rotating"] * len(run["bots"]) if mixed else run["bots"])
    _bots_table(out, report["bots"])
    _characters_table(out, report["characters"], len(report["seats"]), report.get("cards_of"))


def finished_line(report: dict[str, Any]) -> str:
    """How many games of the run finished (a failed game is named in its own table)."""
    failed = report["failed"]
    return f"{report['games']} games finished" + (f" ({len(failed)} failed, not counted)" if failed else "")


def run_header(run: dict[str, Any]) -> list[str]:
    """What is simulated (the report's head, shown before the games are played): enough to run it again."""
    first, last = run["seed"], run["seed"] + run["games"] - 1
    seeds = f"seed {first}" if first == last else f"seeds {first} to {last}"
    players = "1 (solo, against Automa)" if run["players"] == 1 else str(run["players"])
    cards = "the edition's" + (f", plus {', '.join(run['extra_cards'])}" if run["extra_cards"] else "")
    loot = loot_groups(run)
    return [
        f"{run['title']} ({run['edition']})",
        f"  players:      {players}; {run['games']} games, {seeds}",
        f"  bots by seat: {', '.join(f'{i} {b}' for i, b in enumerate(run['bots']))}"
        + (" (turning one seat on per game)" if len(set(run["bots"])) > 1 else ""),
        f"  loot sides:   {loot[0]}",
        *(f"                {group}" for group in loot[1:]),
        f"  cards:        {cards}",
        f"  version:      libertalia {run['version']}, rules fingerprint {run['rules_fingerprint']}",
        *(line for note in run["notes"] for line in textwrap.wrap(note, 78, initial_indent="  note:         ",
                                                                    subsequent_indent=" " * 16)),
    ]


def loot_groups(run: dict[str, Any]) -> list[str]:
    """The loot sides, one group per side: ['calm for every kind'], or ['calm: chest, map', 'automa: hook']."""
    by_side: dict[str, list[str]] = {}
    for kind, side in run["loot_sides"].items():
        by_side.setdefault(side, []).append(kind)

    def name(side: str) -> str:
        if side != "uncharted":
            return side
        drawn = dict.fromkeys(s for sides in run["uncharted"].values() for s in sides)
        return f"uncharted ({' or '.join(drawn)}, drawn per game)"

    if len(by_side) == 1:
        return [f"{name(next(iter(by_side)))} for every kind"]
    return [f"{name(side)}: {', '.join(kinds)}" for side, kinds in by_side.items()]


def _legend(out: Any, *lines: str) -> None:
    """Lines under a table that say what its columns mean; short enough for 80 columns."""
    for line in lines:
        out.print(safe_text(line, style="dim"))
    out.print()


def _table(title: str, *columns: str, left: str = "") -> Table:
    table = Table(title=title, title_justify="left")
    for col in columns:
        table.add_column(col, justify="left" if col == left else "right")
    return table


def _failed_table(out: Any, failed: list[dict[str, Any]]) -> None:
    table = _table("Failed games", "seed", "bots by seat", "error", left="error")
    for f in failed:  # Text: no markup in messages or bot names
        table.add_row(str(f["seed"]), safe_text(", ".join(f["bots"])), safe_text(f"{f['error']}: {f['message']}"))
    out.print(table)
    _legend(out, "Left out of every table below. To look at one again, run it alone:",
            "  --games 1 --seed SEED with the same options (--record DIR keeps its record).",
            "An error that is not one of the library's own (libertalia.errors) is a bug in",
            "  a bot or the engine: please report it with the seed and the options.")


def _seats_table(out: Any, rows: list[dict[str, Any]], bots: list[str]) -> None:
    table = _table("Seats", "seat", "bot", "win rate", "mean", "median", "stdev", left="bot")
    for r in rows:
        table.add_row(str(r["seat"]), bots[r["seat"]], f"{r['win_rate']:.1%}", f"{r['mean']:.1f}",
                      f"{r['median']:.1f}", f"{r['stdev']:.1f}")
    out.print(table)
    _legend(out, "win rate: share of the games the seat won; k seats tied for the win get 1/k.",
            "mean, median, stdev: the seat's final score in doubloons (stdev: sample",
            "  standard deviation, the spread from game to game).")


def _bots_table(out: Any, rows: list[dict[str, Any]]) -> None:
    table = _table("Bots", "bot", "seat-games", "win rate", "95% interval", "mean", "median", "stdev", left="bot")
    for r in rows:
        lo, hi = r["win_interval"]
        table.add_row(r["bot"], str(r["seat_games"]), f"{r['win_rate']:.1%}", f"{lo:.1%}-{hi:.1%}",
                      f"{r['mean']:.1f}", f"{r['median']:.1f}", f"{r['stdev']:.1f}")
    out.print(table)
    _legend(out, "seat-games: the seats the bot filled, added up over the games.",
            "win rate: share of those seat-games it won (k seats tied for the win get 1/k);",
            "  95% interval: where the true rate lies, 19 times in 20 (Wilson interval).",
            "mean, median, stdev: its final score in doubloons, as under Seats.")


def _characters_table(out: Any, rows: list[dict[str, Any]], seats: int, cards_of: str | None = None) -> None:
    whose = f", played by {cards_of}" if cards_of else ""
    table = _table(f"Characters{whose} (highest win rate first)", "character", "plays", "seat-games", "mean doubloons",
                   "win rate when played", left="character")
    for r in sorted(rows, key=lambda r: -r["win_rate"]):  # stable: equal rates stay in name order
        doubloons = f"{r['mean_doubloons']:+.2f}" if r["mean_doubloons"] else "0"
        table.add_row(r["character"], str(r["plays"]), str(r["seat_games"]), doubloons, f"{r['win_rate']:.1%}")
    out.print(table)
    _legend(out, "plays: times a seat sent the character to the island, all seats and games.",
            "seat-games: (game, seat) pairs that played it at least once; the next two",
            "  columns are means over them.",
            "mean doubloons: doubloons the seat gained (+) or lost (-) in that game through",
            "  abilities of cards with this name. Loot, the reputation track and other",
            "  characters are not counted. 0 (not +0.00): no doubloon came or went that",
            "  way in these games; its worth lies in loot, discards or reputation.",
            "win rate when played: share of those seat-games the seat won (k seats tied",
            f"  for the win get 1/k); 1 / {seats} seats = {1 / seats:.1%} is the average.")


# ------------------------------------------------------------------ the charts

def _plot_to(plt: Any, scores: Sequence[Sequence[int]], report: dict[str, Any], path: str) -> None:
    """Draw the charts from each seat's final scores and the report, or say why there are none;
    a file that cannot be written is reported, not a traceback."""
    if not report["games"]:
        echo("no game finished: no charts drawn", err=True)
        return
    with friendly_errors():
        _save(plt, _figure(plt, scores, report), path)
    echo(f"charts written to {path}", err=True)


def _save(plt: Any, fig: Any, path: str) -> None:
    """The PNG drawn in memory, then written as the library writes every file: whole (a crash leaves the
    old file or none) and, when new, private to the user (0600), whatever the umask."""
    picture = io.BytesIO()
    try:
        fig.savefig(picture, format="png", dpi=110)
    finally:
        plt.close(fig)
    files.write_atomic(path, picture.getvalue())


def chart_title(report: dict[str, Any]) -> str:
    """What the charts are about, as the text report's first lines say it."""
    run = report["run"]
    players = "solo against Automa" if run["players"] == 1 else f"{run['players']} players"
    return (f"{report['games']} games of {run['title']} ({run['edition']}), {players}; "
            f"bots by seat: {', '.join(run['bots'])}\n"
            f"loot sides: {'; '.join(loot_groups(run))}; libertalia {run['version']}")


def _figure(plt: Any, scores: Sequence[Sequence[int]], report: dict[str, Any]) -> Any:
    """Final scores per seat (doubloons) and win rate per character (percent): the units of the tables."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 7), gridspec_kw={"width_ratios": [1, 2]})
    fig.suptitle(chart_title(report), fontsize=10)
    _score_boxes(left, scores, report["run"]["bots"], [r["win_rate"] for r in report["seats"]])
    _win_rate_bars(right, report["characters"], 1 / len(report["seats"]))
    fig.tight_layout()
    return fig


def _score_boxes(ax: Any, scores: Sequence[Sequence[int]], bots: list[str], wins: list[float]) -> None:
    """One box of final scores per seat, labelled with its bot and win rate as in the Seats table."""
    seats = len(scores)
    ax.boxplot([list(seat) for seat in scores], showmeans=True)
    ax.set_xticks(range(1, seats + 1), [f"seat {i}\n{bots[i]}\nwins {wins[i]:.1%}" for i in range(seats)])
    ax.set_title("Final score per seat\n(box: middle half, line: median, triangle: mean)", fontsize=10)
    ax.set_ylabel("final score (doubloons)")


def _win_rate_bars(ax: Any, rows: list[dict[str, Any]], baseline: float) -> None:
    """Bars from the average win rate, on an axis fitted to the rates: a fixed 0-100 % would flatten them."""
    rows = sorted(rows, key=lambda r: r["win_rate"])
    rates = [100 * r["win_rate"] for r in rows]
    errors = [100 * math.sqrt(r["win_rate"] * (1 - r["win_rate"]) / r["seat_games"]) for r in rows]
    base = 100 * baseline
    ax.barh([r["character"] for r in rows], [rate - base for rate in rates], left=base, xerr=errors,
            color=["tab:blue" if rate >= base else "tab:orange" for rate in rates], error_kw={"linewidth": 0.8})
    ax.axvline(base, color="grey", linestyle="--", linewidth=1)
    ax.set_xlim(*win_rate_limits(rates, errors, base))
    ax.set_title("Win rate when played, per character\n"
                 f"(bars start at the average, 1 / seats = {base:.1f} %; whiskers: one standard error)", fontsize=10)
    ax.set_xlabel("win rate when played (%)")
    ax.tick_params(axis="y", labelsize=7)


def win_rate_limits(rates: Sequence[float], errors: Sequence[float], base: float) -> tuple[float, float]:
    """The x range that holds every rate with its error bar and the average, with a margin, within 0-100."""
    lo = min([base, *(r - e for r, e in zip(rates, errors, strict=True))])
    hi = max([base, *(r + e for r, e in zip(rates, errors, strict=True))])
    pad = max((hi - lo) * 0.05, 0.5)
    return max(0.0, lo - pad), min(100.0, hi + pad)
