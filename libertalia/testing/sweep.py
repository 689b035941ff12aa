"""Every pair of cards played together: errors, broken invariants, and what each does to the other.

For each pair, ``games`` focused positions (``focus.focused_position``, both cards where they
act) are built from a ``random.Random`` seeded by the pair and the game's number, so a sweep
gives the same report on any machine and with any number of workers.  Each position is played
by random bots: its focus day with ``choose`` (to read the table when the day ends), then on
to the end with ``Game.play_out`` and ``RandomAgent``s; ``check_invariants`` runs after the
plays, at the day's end and at the game's end.  Then the position is played to the day's end
twice more, once without each card (``FocusedPosition.without``).  On the focus day the bots
answer each question by a hash of the question (``_Steady``), so the three games differ only
where the missing card makes them differ.

What a pair reports (``PairReport``):

- ``swing``: per card, the mean over the games of its owner's doubloons (held plus banked) at
  the end of the focus day, minus the same seat's in the game without the other card.  It says
  what the other card's presence was worth to this card's owner.  ``None`` for loot in today's
  loot (no owner).  After a voyage's last day it includes the next voyage's income.
- ``idle``: per card, the share of the games in which its ability logged nothing on the focus
  day (``focus.acted``): it had no target, its condition failed, or it was discarded first.
- ``failures``: each error or broken invariant, with a reproduction (``repro.reproduction``).

Nothing here prints: ``libertalia cards interactions`` shows the reports.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import threading
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import attrs

from ..agents import RandomAgent
from ..engine.specs import Rules
from ..errors import UnverifiedLootWarning
from ..game import Game, Observation, new_game
from ..state import Decision
from .focus import FocusedPosition, acted, focused_position
from .invariants import check_invariants
from .repro import reproduction

TOGETHER = "together"
"""The ``variant`` of a failure in the game with both cards; the others are ``"without NAME"``."""


@attrs.frozen
class Failure:
    """An error or a broken invariant in one game of a pair, with the code that replays it."""

    cards: tuple[str, str]
    game: int  # the game's number within the pair, 0 to games - 1
    variant: str  # TOGETHER, or "without NAME"
    kind: str  # "error" (an exception while playing) or "invariant" (check_invariants failed)
    message: str
    python: str  # a runnable new_game(..., setup=...) with its choose() keys
    yaml: str  # the same game as an ``examples:`` entry

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "game": self.game, "variant": self.variant, "kind": self.kind,
                "message": self.message, "python": self.python, "yaml": self.yaml}


@attrs.frozen
class PairReport:
    """One pair's outcome over its games (see the module's docstring for the fields)."""

    cards: tuple[str, str]
    games: int  # games whose three plays finished without a failure: swing and idle are over these
    swing: tuple[float | None, float | None]
    idle: tuple[float | None, float | None]
    failures: tuple[Failure, ...] = ()
    skipped: str | None = None  # why the pair could not be focused (then nothing was played)

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "games": self.games, "swing": list(self.swing), "idle": list(self.idle),
                "failures": [f.to_json() for f in self.failures], "skipped": self.skipped}


# ------------------------------------------------------------------ which pairs
def pairs_of(cards: Sequence[str], others: Sequence[str] = ()) -> list[tuple[str, str]]:
    """Every pair among ``cards`` (a name given twice pairs two copies), or with ``others``:
    each of ``cards`` with every one of ``others``, each unordered pair once."""
    candidates = itertools.combinations(cards, 2) if not others else \
        ((a, b) for a in cards for b in (*cards, *others) if a != b)
    seen: set[tuple[str, ...]] = set()
    out = []
    for a, b in candidates:
        key = tuple(sorted((a, b)))
        if key not in seen:
            seen.add(key)
            out.append((a, b))
    return out


def characters(rules: Rules) -> list[str]:
    """The characters a seat can hold (not the board's neutral cards), in rank order."""
    return [c.name for c in rules.characters if not c.neutral and "#" not in c.name]


def mod_cards(rules: Rules, folders: Iterable[str | Path]) -> list[str]:
    """The characters and loot kinds whose files lie in ``folders`` (a mod's, loaded as ``extra_cards``)."""
    roots = [Path(f).resolve() for f in folders]

    def inside(path: str) -> bool:
        return bool(path) and any(Path(path).resolve().is_relative_to(r) or Path(path).resolve() == r
                                  for r in roots)

    return ([c.name for c in rules.characters if not c.neutral and inside(c.path)]
            + [spec.kind for spec in rules.loot if inside(spec.path)])


# ------------------------------------------------------------------ one pair
def game_seed(pair: tuple[str, str], index: int, seed: int = 0) -> int:
    """The seed a pair's game is built from: stable across runs, machines and Python's hash seed."""
    digest = hashlib.sha256(f"{pair[0]}\0{pair[1]}\0{index}\0{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class _Recorder:
    """A random bot that writes down every answer, so that a failure can be replayed key by key."""

    answers_from_options = True  # a RandomAgent's answers are offered keys (play_out skips its check)

    def __init__(self, seed: int, keys: list[str]) -> None:
        self._bot = RandomAgent(seed)
        self._keys = keys

    def choose(self, observation: Observation, decision: Decision) -> str:
        key = self._bot.choose(observation, decision)
        self._keys.append(key)
        return key


class _Steady(_Recorder):
    """A random bot for the focus day that answers the same question the same way in every game.

    Its pick is a hash of its seed and the question (seat, kind, asking card, keys offered), not
    the next number of a stream: in the game without a card, every question the missing card
    does not change gets the answer it got with both, so the swing measures the card and not
    the bots drifting apart.
    """

    def __init__(self, seed: int, keys: list[str]) -> None:
        super().__init__(seed, keys)
        self._seed = seed

    def choose(self, observation: Observation, decision: Decision) -> str:
        question = "\0".join((str(self._seed), decision.kind, decision.source or "", *decision.keys()))
        pick = int.from_bytes(hashlib.sha256(question.encode()).digest()[:8], "big") % len(decision.options)
        key = decision.options[pick].key
        self._keys.append(key)
        return key


class _Failed(Exception):
    """A game stopped: the failure as it will be reported."""

    def __init__(self, kind: str, message: str, keys: list[str]) -> None:
        super().__init__(message)
        self.kind, self.message, self.keys = kind, message, keys


@attrs.frozen
class _Day:
    """How a position's focus day ended: each seat's doubloons (held plus banked), and the day's game."""

    wealth: tuple[int, ...]
    game: Game


def _check(game: Game, before: Game) -> None:
    try:
        check_invariants(game, before=before)
    except AssertionError as exc:
        raise _Failed("invariant", str(exc) or "check_invariants failed", list(game.history)) from None


def _play(rules: Rules, position: FocusedPosition, bot_seed: int, *, to_end: bool) -> _Day:
    """The focus day with ``choose`` (then, ``to_end``, the rest with ``play_out``); ``_Failed`` on a failure."""
    keys: list[str] = []
    steady = [_Steady(bot_seed + seat, keys) for seat in range(position.players)]
    try:
        first = new_game(rules, position.players, position.seed, setup=position.setup)
        game = position.answer(first, keys)
        _check(game, first)
        when = (position.setup["voyage"], position.setup["day"])
        while (d := game.decision) is not None and (game.voyage, game.day) == when:
            game = game.choose(steady[d.player].choose(game.observation(d.player), d))
        _check(game, first)
        day = _Day(tuple(p.doubloons + p.score for p in game.players), game)
        if to_end:
            _check(game.play_out([_Recorder(bot_seed + seat, keys) for seat in range(position.players)]), first)
        return day
    except _Failed:
        raise
    except Exception as exc:  # noqa: BLE001 - any exception a card causes is a finding, reported with its replay
        raise _Failed("error", f"{type(exc).__name__}: {exc}", keys) from None


def play_pair(rules: Rules, pair: tuple[str, str], games: int = 5, *, seed: int = 0,
              players: int | None = None) -> PairReport:
    """Play one pair's ``games`` positions together and each card without the other."""
    failures: list[Failure] = []
    swings: list[list[int]] = [[], []]
    idle = [0, 0]
    done = 0
    for index in range(games):
        try:
            position = focused_position(rules, players, pair, rng=random.Random(game_seed(pair, index, seed)))
        except ValueError as exc:  # the pair cannot be focused (a card without abilities, say): nothing to play
            return PairReport(pair, 0, (None, None), (None, None), skipped=str(exc))
        bot_seed = position.seed * 16
        current, variant = position, TOGETHER
        try:
            together = _play(rules, current, bot_seed, to_end=True)
            alone = []
            for i in (0, 1):
                other = position.featured[1 - i]
                current = position.without(1 - i, rules)
                variant = f"without {other.name}" + ("" if other.seat is None else f" (seat {other.seat})")
                alone.append(_play(rules, current, bot_seed, to_end=False))
        except _Failed as failed:
            failures.append(_failure(rules, pair, index, variant, current, failed))
            continue
        done += 1
        events = together.game.events
        for i, placement in enumerate(position.featured):
            idle[i] += not acted(events, placement, rules)
            if placement.seat is not None:
                swings[i].append(together.wealth[placement.seat] - alone[i].wealth[placement.seat])
    swing = tuple(sum(s) / len(s) if s else None for s in swings)
    share = tuple(n / done if done else None for n in idle)
    return PairReport(pair, done, (swing[0], swing[1]), (share[0], share[1]), tuple(failures))


def _failure(rules: Rules, pair: tuple[str, str], index: int, variant: str, position: FocusedPosition,
             failed: _Failed) -> Failure:
    note = f"{pair[0]} and {pair[1]}, game {index} ({variant}): {failed.message}"
    # Every check compares with the game as it started, as the script's last line does.
    check = f"check_invariants(game, lt.new_game(rules, {position.players}, seed={position.seed}, setup=setup))"
    repro = reproduction(rules, position.players, position.seed, position.setup, failed.keys, note=note,
                         check=check)
    return Failure(pair, index, variant, failed.kind, failed.message, repro.python, repro.yaml)


# ------------------------------------------------------------------ many pairs
_WORKER_RULES: dict[str, Rules] = {}
_WORKER_LOCK = threading.Lock()


def _worker_rules(args_json: str) -> Rules:
    """The rules for these ``load_rules`` arguments, loaded once per worker process."""
    from ..loading.rules import load_rules

    with _WORKER_LOCK:
        rules = _WORKER_RULES.get(args_json)
        if rules is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UnverifiedLootWarning)  # the caller shows them once
                rules = _WORKER_RULES[args_json] = load_rules(**json.loads(args_json))
        return rules


def _chunk(task: tuple[str, list[tuple[str, str]], int, int, int | None]) -> list[PairReport]:
    args_json, pairs, games, seed, players = task
    rules = _worker_rules(args_json)
    return [play_pair(rules, pair, games, seed=seed, players=players) for pair in pairs]


def sweep(rules: Rules, pairs: Sequence[tuple[str, str]], games: int = 5, *, seed: int = 0,
          players: int | None = None, jobs: int = 1,
          progress: Callable[[int], None] | None = None) -> list[PairReport]:
    """``play_pair`` for every pair, in order; ``progress(n)`` as each ``n`` pairs finish.

    ``jobs > 1`` runs chunks of pairs in worker processes, each loading the rules once from
    ``rules.load_args``; the reports do not depend on it.
    """
    if jobs <= 1 or len(pairs) <= 1:
        out = []
        for pair in pairs:
            out.append(play_pair(rules, pair, games, seed=seed, players=players))
            if progress is not None:
                progress(1)
        return out
    args_json = json.dumps(rules.load_args, sort_keys=True)
    size = max(1, min(20, len(pairs) // (jobs * 8)))
    chunks = [list(pairs[i:i + size]) for i in range(0, len(pairs), size)]
    results: dict[int, list[PairReport]] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(_chunk, (args_json, chunk, games, seed, players)): i for i, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            if progress is not None:
                progress(len(chunks[i]))
    return [report for i in range(len(chunks)) for report in results[i]]
