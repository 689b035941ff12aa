"""Many games between bots, and what they say about seats, bots and characters.

Each game's seed is ``seed + i`` and each bot's seed derives from the game's,
so a run gives the same numbers whether it uses one process, many, or a cluster:
games go out in chunks of consecutive seeds to any ``concurrent.futures.Executor``
and come back in seed order.
"""

from __future__ import annotations

import json
import os
import statistics
import threading
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from pathlib import Path
from typing import Any

import attrs

from . import _lifeline, _paths, agents
from ._version import library_version
from .bots.registry import parse_bot
from .earnings import BASE, FLOOR, OTHER, game_earnings, loot_last
from .engine.specs import Rules
from .errors import RulesWarning
from .files import clean_temporary, make_private_folder
from .game import Game, new_game
from .loading.rules import load_rules
from .playing import play_out
from .records import GameRecord

BOTS: dict[str, Callable[[int], agents.Agent]] = {name: parse_bot(name) for name in ("random", "first")}
"""Bots by plain name (tests may swap one in); ``bot_factory`` also takes the parametrised ones."""


def bot_factory(spec: str) -> Callable[[int], agents.Agent]:
    """``seed -> agent`` for a bot name: a plain name in ``BOTS`` first (tests may swap one in), else
    ``bots.parse_bot`` (``ValueError`` listing the bots for a name it does not know)."""
    plain = BOTS.get(spec)
    return plain if plain is not None else parse_bot(spec)


def lineup(bots: Sequence[str], players: int, seed: int) -> tuple[str, ...]:
    """Who plays each seat of the game with ``seed``: ``bots`` cycling, rotated by ``seed`` seats.

    Consecutive seeds move every bot one seat on, so over any run of ``players`` games each
    bot sits in each seat once and the advantage of a seat cancels out (a solo game has one
    seat to fill, and Automa beside it).
    """
    names = seat_bots(bots, players)
    shift = seed % players
    return tuple(names[(i + shift) % players] for i in range(players)) + names[players:]


@attrs.frozen
class GameSummary:
    """What one finished game contributes to the statistics."""

    seed: int
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    played: tuple[tuple[str, ...], ...]  # per seat, the characters it sent to the island
    doubloons: tuple[dict[str, int], ...]  # per seat, doubloons gained (+) or lost (-) by each source
    unrecorded: str = ""  # why the game's record could not be written (naming the file); "" if it was, or none asked


@attrs.frozen
class GameFailure:
    """A game that stopped with an error (a card text that loops; a bot's bug): reported, not counted."""

    seed: int
    bots: tuple[str, ...]
    error: str  # the exception's class name, e.g. StepBudgetExceeded
    message: str


def summarize(game: Game, seed: int, bots: tuple[str, ...]) -> GameSummary:
    """The game's scores, each seat's plays and the doubloons each source really moved for it.

    Doubloons come from ``earnings``, which applies them as the engine does: a loss by day or night
    counts what the seat had left to lose (R2), and the anchor's changes are netted (R3).  An event
    names the change its card asked for, so summing events would overstate losses.
    """
    events = game.events  # decoded from the game's packed log at each reading: read once
    played: list[list[str]] = [[] for _ in game.players]
    for e in events:
        if e.seat is not None and e.kind == "play" and e.source is not None:
            played[e.seat].append(e.source)
    earned = game_earnings(events, len(game.players), loot_last(game.rules))
    doubloons = tuple({source: n for source, n in e.sources if source not in _NOT_A_CARD} for e in earned)
    return GameSummary(seed, bots, game.final_scores(), game.winners(), tuple(tuple(p) for p in played), doubloons)


_NOT_A_CARD = frozenset({*BASE, OTHER, FLOOR})
"""Sources of ``earnings`` that no card is: income, starting doubloons, a handicap, the floor at 0."""


_RULES: dict[str, Rules] = {}
_RULES_LOCK = threading.Lock()


def _rules(args_json: str) -> Rules:
    """The rules for these ``load_rules`` arguments, loaded once per process (and per rules identity).

    The lock makes threads of one worker (a thread pool, a dask worker with several
    threads) wait for the first load instead of each loading the same rules again.
    """
    with _RULES_LOCK:
        rules = _RULES.get(args_json)
        if rules is None:
            # Reconstruction warnings are the caller's to show once, not every worker's.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RulesWarning)
                rules = _RULES[args_json] = load_rules(**json.loads(args_json))
        return rules


Result = GameSummary | GameFailure
Task = tuple[str, int, int, tuple[str, ...], str | None]
Chunk = tuple[str, int, int, int, tuple[str, ...], str | None]


def play_one(task: Task) -> Result:
    """One game from plain arguments (so that worker processes can run it).

    A game that stops with an error comes back as a ``GameFailure``: the other games go on.
    That is a library error (``StepBudgetExceeded``: a card text that loops), and any other
    exception raised while the game is set up or played, by the engine or by a bot (a bug, but
    one game's: the games already played must not be lost with it).  ``KeyboardInterrupt`` and
    the like are no game's failure and stop the run.  A record
    that cannot be written (a full disk, a file-size limit) is noted in the summary's
    ``unrecorded``, naming the file; the game still counts, and the records written before
    stay whole (each is written atomically).
    """
    args_json, players, seed, bots, record_dir = task
    rules = _rules(args_json)
    names = lineup(bots, players, seed)  # with the solo opponent's seat, played by her own rules
    try:
        seats = [bot_factory(names[i])(seed * 16 + i) for i in range(players)]
        game = play_out(new_game(rules, players, seed), seats)
    except Exception as exc:  # any error is this game's failure, reported with its seed: the others go on
        return GameFailure(seed, names, type(exc).__name__, str(exc) or repr(exc))
    summary = summarize(game, seed, names)
    if record_dir is not None:
        path = Path(record_dir) / f"game-{seed:06d}.json"
        try:
            GameRecord.of(game, seed=seed, agents=names).save(path)
        except OSError as exc:
            return attrs.evolve(summary, unrecorded=f"cannot write {path}: {exc.strerror or exc}")
    return summary


def play_chunk(chunk: Chunk) -> list[Result]:
    """The games with seeds ``first`` to ``first + count - 1``, in seed order: one unit of work for a worker."""
    args_json, players, first, count, bots, record_dir = chunk
    return [play_one((args_json, players, seed, bots, record_dir)) for seed in range(first, first + count)]


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: about eight chunks per worker, 25 to 200 games each, and never so many that a worker idles.

    Small chunks balance the load and move the progress bar; big ones spend less on
    sending tasks and results (a dask task costs about a millisecond, a game far more).
    """
    workers = max(1, workers)
    per_worker = -(-games // workers)
    size = -(-games // (workers * 8))
    return max(1, min(max(size, min(25, per_worker)), 200))


def _workers(executor: Executor) -> int:
    """How many games the executor can run at once, as well as it can be told."""
    n = getattr(executor, "_max_workers", None)  # ProcessPoolExecutor, ThreadPoolExecutor
    if isinstance(n, int) and n > 0:
        return n
    client = getattr(executor, "_client", None)  # dask.distributed's ClientExecutor
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # an unreachable scheduler fails at submit, with its own message
            pass
    return os.cpu_count() or 1


def _portable(rules_args: dict[str, Any]) -> dict[str, Any]:
    """The arguments with file paths made absolute, so that workers started elsewhere find the same files."""
    args = dict(rules_args)
    if args.get("extra_cards"):
        args["extra_cards"] = [str(Path(p).absolute()) for p in args["extra_cards"]]
    edition = args.get("edition")
    if isinstance(edition, str | Path) and not (_paths.boards_dir() / f"{edition}.yaml").is_file() \
            and Path(edition).is_file():
        args["edition"] = str(Path(edition).absolute())
    return args


def simulate(rules_args: dict[str, Any], *, games: int, players: int, bots: Sequence[str], seed: int = 0,
             jobs: int = 1, record_dir: str | Path | None = None, executor: Executor | None = None,
             chunk: int | None = None, progress: Callable[[int], object] | None = None) -> Iterator[Result]:
    """Summaries of ``games`` games, in seed order; a ``GameFailure`` for a game that stopped with an error.

    Where the games run:

    - by default, one after the other in this process;
    - ``jobs=N`` (N > 1): in a ``ProcessPoolExecutor`` of N processes, made and shut down here;
    - ``executor=``: on any ``concurrent.futures.Executor`` (a thread or process pool,
      ``distributed.Client(...).get_executor()`` for a dask cluster), which stays the caller's.

    With an executor, games go out in chunks of ``chunk`` consecutive seeds (by default
    ``chunk_size(games, workers)``); each worker loads the rules once per rules identity.
    ``progress(n)`` is called in this thread as ``n`` more games finish: after every chunk
    (or every game, in this process).  The results do not depend on where the games run.
    """
    for b in bots:
        bot_factory(b)  # an unknown name fails here, before any game
    if executor is not None and jobs > 1:
        raise ValueError("give jobs or an executor, not both")
    args_json = json.dumps(_portable(rules_args), sort_keys=True)
    _rules(args_json)  # load (and validate) once before any worker starts
    if record_dir is not None:
        make_private_folder(record_dir)  # a new folder is the user's only (0700), as each record is (0600)
        clean_temporary(record_dir)  # what a run killed mid-write left
    record = None if record_dir is None else str(Path(record_dir).absolute())
    if executor is None and jobs <= 1:
        for i in range(games):
            result = play_one((args_json, players, seed + i, tuple(bots), record))
            if progress is not None:
                progress(1)
            yield result
        return
    if executor is not None:
        yield from _run_chunks(executor, args_json, players, seed, games, tuple(bots), record, chunk, progress)
        return
    # Workers die with this process, even killed outright (``_lifeline``): none is left playing.
    with _lifeline.worker_pool(jobs) as pool:
        yield from _run_chunks(pool, args_json, players, seed, games, tuple(bots), record, chunk, progress)


def _run_chunks(executor: Executor, args_json: str, players: int, seed: int, games: int, bots: tuple[str, ...],
                record: str | None, chunk: int | None, progress: Callable[[int], object] | None) -> Iterator[Result]:
    size = chunk if chunk is not None else chunk_size(games, _workers(executor))
    if size < 1:
        raise ValueError(f"a chunk holds at least one game, not {size}")
    starts = range(seed, seed + games, size)
    futures: dict[Future[list[Result]], int] = {
        executor.submit(play_chunk, (args_json, players, first, min(size, seed + games - first), bots, record)): i
        for i, first in enumerate(starts)
    }
    finished: dict[int, list[Result]] = {}
    pending = set(futures)
    next_chunk = 0
    try:
        while next_chunk < len(starts):
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                results = future.result()  # an error in a worker (not a failed game) stops the run here
                finished[futures.pop(future)] = results  # dropping the future frees its copy of the results
                if progress is not None:
                    progress(len(results))
            while next_chunk in finished:  # hand results on in seed order, as soon as the earlier ones are in
                yield from finished.pop(next_chunk)
                next_chunk += 1
    finally:
        for future in pending:
            future.cancel()


def _describe(values: Sequence[float]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(values), 3) if values else 0.0,
        "median": float(statistics.median(values)) if values else 0.0,
        "stdev": round(statistics.stdev(values), 3) if len(values) > 1 else 0.0,
    }


def seat_bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The line-up before rotation: ``bots`` cycling, and Automa beside a solo player (``lineup`` turns it per game)."""
    names = tuple(bots[i % len(bots)] for i in range(players))
    return names + ("automa",) if players == 1 else names


def loot_sides(rules: Rules, players: int) -> dict[str, str]:
    """The side of each loot kind the run's games play: ``"uncharted"`` for a kind drawn per game.

    A solo game swaps the board's replaced kinds for the solo side (``new_game`` does the
    same), so the report names what was really in the bag, not what was asked for.
    """
    sides = {kind: "uncharted" if kind in rules.uncharted else side for kind, side in rules.loot_sides.items()}
    solo = rules.board.solo
    if players == 1 and solo is not None:
        sides.update({kind: solo.loot_side for kind in solo.replaced if kind in sides})
    return sides


def run_info(rules: Rules, *, games: int, players: int, bots: Sequence[str], seed: int,
             extra_cards: Sequence[str | Path] = (), notes: Sequence[str] = ()) -> dict[str, Any]:
    """What a run simulates, for ``report(run=...)``: enough to tell two reports apart and to run one again.

    ``notes`` are caveats about the rules played (solo cards that are constructions, say).
    Nothing here depends on where the games run (jobs, cluster), so equal runs give equal reports.
    """
    sides = loot_sides(rules, players)
    return {
        "edition": rules.board.edition,
        "title": rules.board.title,
        "players": players,
        "bots": list(seat_bots(bots, players)),
        "rotation": "the game with seed s seats bots[(i + s) % players] at seat i",
        "seed": seed,
        "games": games,  # asked for: finished and failed together
        "loot_sides": sides,
        "uncharted": {kind: [spec.side for spec in specs] for kind, specs in rules.uncharted.items()
                      if sides.get(kind) == "uncharted"},
        "extra_cards": [str(p) for p in extra_cards],
        "rules_fingerprint": rules.fingerprint,
        "version": library_version(),
        "notes": list(notes),
    }


def win_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default): sound near 0 and 1 and for few games."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def report(results: Iterable[GameSummary | GameFailure], top: int = 10, *,
           run: dict[str, Any] | None = None, cards_of: str | None = None) -> dict[str, Any]:
    """Win rates and score spread per seat and per bot; play counts, doubloons and win rates per character.

    A shared win counts as a fraction: two tied winners get half a win each.  ``games``
    counts the finished games the statistics are over; ``failed`` lists the others
    (seed, bots, error and message), and ``unrecorded`` the counted games whose record could
    not be written (seed, and the error naming the file).  ``run`` (from ``run_info``) is put first, as it says
    what the numbers are about.

    Per character, ``plays`` counts every time a seat sent it to the island; ``seat_games``
    counts the (game, seat) pairs that played it at least once, and ``mean_doubloons`` and
    ``win_rate`` are means over those pairs: the doubloons the seat gained or lost through
    abilities of cards with that name (``summarize``), and its share of the win.  With
    ``cards_of`` (a bot name) the character statistics count only the seats that bot played:
    how a card does in the hands of a strong player, say.

    Each bot's ``win_interval`` is the 95% Wilson interval of its win rate over its seat-games.
    ``Tally`` gathers the same report one game at a time, for runs too long to keep.
    """
    tally = Tally(cards_of=cards_of)
    for result in results:
        tally.add(result)
    return tally.report(top, run=run)


class Tally:
    """``report``'s statistics, gathered as the games come in.

    It keeps sums and counts, one score per seat and game (for the medians), and the failed
    games, never the summaries themselves: a million-game run fits in memory.
    """

    def __init__(self, *, cards_of: str | None = None) -> None:
        self.cards_of = cards_of
        self.games = 0
        self.failures: list[GameFailure] = []
        self.unrecorded: list[tuple[int, str]] = []  # (seed, why) of the games whose record was not written
        self.wins_by_seat: dict[int, float] = defaultdict(float)
        self.scores_by_seat: dict[int, list[int]] = defaultdict(list)
        self.wins_by_bot: dict[str, float] = defaultdict(float)
        self.scores_by_bot: dict[str, list[int]] = defaultdict(list)
        self.plays: Counter[str] = Counter()
        self.char_doubloons: dict[str, int] = defaultdict(int)
        self.char_wins: dict[str, float] = defaultdict(float)
        self.char_games: Counter[str] = Counter()

    def add(self, result: GameSummary | GameFailure) -> None:
        if isinstance(result, GameFailure):
            self.failures.append(result)
            return
        s = result
        self.games += 1
        if s.unrecorded:
            self.unrecorded.append((s.seed, s.unrecorded))
        share = 1 / len(s.winners)
        for seat, score in enumerate(s.scores):
            won = share if seat in s.winners else 0.0
            bot = s.bots[seat]
            self.wins_by_seat[seat] += won
            self.scores_by_seat[seat].append(score)
            self.wins_by_bot[bot] += won
            self.scores_by_bot[bot].append(score)
            if self.cards_of is not None and bot != self.cards_of:
                continue
            for name in dict.fromkeys(s.played[seat]):  # not set(): its order changes with the hash seed
                self.plays[name] += s.played[seat].count(name)
                self.char_doubloons[name] += s.doubloons[seat].get(name, 0)
                self.char_wins[name] += won
                self.char_games[name] += 1

    def report(self, top: int = 10, *, run: dict[str, Any] | None = None) -> dict[str, Any]:
        """The report of the games added so far (``report``'s keys and meanings)."""
        n = self.games
        by_bot = self.scores_by_bot
        return {
            **({} if run is None else {"run": run}),
            "games": n,
            "failed": [{"seed": f.seed, "bots": list(f.bots), "error": f.error, "message": f.message}
                       for f in self.failures],
            "unrecorded": [{"seed": seed, "error": why} for seed, why in self.unrecorded],
            "seats": [
                {"seat": seat, "win_rate": round(self.wins_by_seat[seat] / n, 4),
                 **_describe(self.scores_by_seat[seat])}
                for seat in sorted(self.scores_by_seat)
            ],
            "bots": [
                {"bot": bot, "seat_games": len(by_bot[bot]),
                 "win_rate": round(self.wins_by_bot[bot] / len(by_bot[bot]), 4),
                 "win_interval": list(win_interval(self.wins_by_bot[bot], len(by_bot[bot]))),
                 **_describe(by_bot[bot])}
                for bot in sorted(by_bot)
            ],
            **({} if self.cards_of is None else {"cards_of": self.cards_of}),
            "most_played": [{"character": c, "plays": k}  # ties by name, so every run prints the same list
                            for c, k in sorted(self.plays.items(), key=lambda ck: (-ck[1], ck[0]))[:top]],
            "characters": [
                {"character": c, "plays": self.plays[c], "seat_games": self.char_games[c],
                 "mean_doubloons": round(self.char_doubloons[c] / self.char_games[c], 3),
                 "win_rate": round(self.char_wins[c] / self.char_games[c], 4)}
                for c in sorted(self.char_games)
            ],
        }
