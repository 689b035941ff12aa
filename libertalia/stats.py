"""Many games between bots, and what they say about seats, bots and characters.

Each game's seed is ``seed + i`` and each bot's seed derives from the game's,
so a run gives the same numbers whether it uses one process or many.
"""

from __future__ import annotations

import functools
import json
import statistics
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

from . import agents
from .errors import LibertaliaError, UnverifiedLootWarning
from .game import Game, new_game
from .loading.rules import load_rules
from .loading.specs import Rules
from .play import play_out
from .records import GameRecord

BOTS: dict[str, Callable[[int], agents.Agent]] = {
    "random": lambda seed: agents.RandomAgent(seed),
    "first": lambda seed: agents.FirstOptionAgent(),
}


@attrs.frozen
class GameSummary:
    """What one finished game contributes to the statistics."""

    seed: int
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    played: tuple[tuple[str, ...], ...]  # per seat, the characters it sent to the island
    doubloons: tuple[dict[str, int], ...]  # per seat, doubloons gained (+) or lost (-) by each source


@attrs.frozen
class GameFailure:
    """A game that stopped with a library error (a card text that loops, say): reported, not counted."""

    seed: int
    bots: tuple[str, ...]
    error: str  # the exception's class name, e.g. StepBudgetExceeded
    message: str


def summarize(game: Game, seed: int, bots: tuple[str, ...]) -> GameSummary:
    played: list[list[str]] = [[] for _ in game.players]
    doubloons: list[dict[str, int]] = [defaultdict(int) for _ in game.players]
    for e in game.events:
        if e.seat is None:
            continue
        if e.kind == "play" and e.source is not None:
            played[e.seat].append(e.source)
        if e.amount and e.source is not None:
            doubloons[e.seat][e.source] += e.amount
    return GameSummary(seed, bots, game.final_scores(), game.winners(),
                       tuple(tuple(p) for p in played), tuple(dict(d) for d in doubloons))


@functools.cache
def _rules(args_json: str) -> Rules:
    # Each worker loads the rules again; reconstruction warnings are the caller's to show once.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnverifiedLootWarning)
        return load_rules(**json.loads(args_json))


def play_one(task: tuple[str, int, int, tuple[str, ...], str | None]) -> GameSummary | GameFailure:
    """One game from plain arguments (so that worker processes can run it).

    A game the engine gives up on (``StepBudgetExceeded`` or any other library
    error while playing) comes back as a ``GameFailure``: the other games go on.
    """
    args_json, players, seed, bots, record_dir = task
    rules = _rules(args_json)
    seats = [BOTS[bots[i % len(bots)]](seed * 16 + i) for i in range(players)]
    names = tuple(bots[i % len(bots)] for i in range(players))
    try:
        game = play_out(new_game(rules, players, seed), seats)
    except LibertaliaError as exc:
        return GameFailure(seed, names, type(exc).__name__, str(exc))
    if record_dir is not None:
        GameRecord.of(game, seed=seed, agents=names).save(Path(record_dir) / f"game-{seed:06d}.json")
    return summarize(game, seed, names)


def simulate(rules_args: dict[str, Any], *, games: int, players: int, bots: Sequence[str], seed: int = 0,
             jobs: int = 1, record_dir: str | Path | None = None) -> Iterator[GameSummary | GameFailure]:
    """Summaries of ``games`` games, in seed order, using ``jobs`` processes; a ``GameFailure`` for a game
    that stopped with a library error."""
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; the bots are {', '.join(BOTS)}")
    args_json = json.dumps(rules_args, sort_keys=True)
    _rules(args_json)  # load (and validate) once before any worker starts
    if record_dir is not None:
        Path(record_dir).mkdir(parents=True, exist_ok=True)
    tasks = [(args_json, players, seed + i, tuple(bots), None if record_dir is None else str(record_dir))
             for i in range(games)]
    if jobs <= 1:
        yield from map(play_one, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_one, tasks, chunksize=max(1, games // (jobs * 8)))


def _describe(values: list[float]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(values), 3) if values else 0.0,
        "median": float(statistics.median(values)) if values else 0.0,
        "stdev": round(statistics.stdev(values), 3) if len(values) > 1 else 0.0,
    }


def report(results: Sequence[GameSummary | GameFailure], top: int = 10) -> dict[str, Any]:
    """Win rates and score spread per seat and per bot; play counts, doubloons and win rates per character.

    A shared win counts as a fraction: two tied winners get half a win each.  ``games``
    counts the finished games the statistics are over; ``failed`` lists the others
    (seed, bots, error and message).
    """
    summaries = [r for r in results if isinstance(r, GameSummary)]
    failures = [r for r in results if isinstance(r, GameFailure)]
    wins_by_seat: dict[int, float] = defaultdict(float)
    scores_by_seat: dict[int, list[float]] = defaultdict(list)
    wins_by_bot: dict[str, float] = defaultdict(float)
    scores_by_bot: dict[str, list[float]] = defaultdict(list)
    plays: Counter[str] = Counter()
    char_doubloons: dict[str, list[float]] = defaultdict(list)
    char_wins: dict[str, list[float]] = defaultdict(list)
    for s in summaries:
        share = 1 / len(s.winners)
        for seat, score in enumerate(s.scores):
            won = share if seat in s.winners else 0.0
            wins_by_seat[seat] += won
            scores_by_seat[seat].append(score)
            wins_by_bot[s.bots[seat]] += won
            scores_by_bot[s.bots[seat]].append(score)
            for name in set(s.played[seat]):
                plays[name] += s.played[seat].count(name)
                char_doubloons[name].append(s.doubloons[seat].get(name, 0))
                char_wins[name].append(won)
    n = len(summaries)
    return {
        "games": n,
        "failed": [{"seed": f.seed, "bots": list(f.bots), "error": f.error, "message": f.message}
                   for f in failures],
        "seats": [
            {"seat": seat, "win_rate": round(wins_by_seat[seat] / n, 4), **_describe(scores_by_seat[seat])}
            for seat in sorted(scores_by_seat)
        ],
        "bots": [
            {"bot": bot, "seat_games": len(scores_by_bot[bot]),
             "win_rate": round(wins_by_bot[bot] / len(scores_by_bot[bot]), 4), **_describe(scores_by_bot[bot])}
            for bot in sorted(scores_by_bot)
        ],
        "most_played": [{"character": c, "plays": k} for c, k in plays.most_common(top)],
        "characters": [
            {"character": c, "plays": plays[c],
             "mean_doubloons": round(statistics.fmean(char_doubloons[c]), 3),
             "win_rate": round(statistics.fmean(char_wins[c]), 4)}
            for c in sorted(char_doubloons)
        ],
    }
