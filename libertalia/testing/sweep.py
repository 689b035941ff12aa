"""Every card alone, then every pair of cards together: errors, broken invariants, and what each does to the other.

First each card of the pairs plays ``games`` positions alone (``focus.focused_position``
featuring only it), each to the game's end, beside the edition's own cards: a mod card with
the edition and none of the mod's other files, so that another card's fault is not taken for
its own.  A card that fails alone (a loop, an error, a broken invariant) is reported once, with
its first failing game (``SoloReport``), and is left out: its pairs are not played, and its
file is left out of ``extra_cards`` for the pairs' games, so that no innocent pair's game deals
it.  A card that cannot be left out so (a bundled card, or a mod whose other files name it) is
kept out of the pairs' focused positions instead (later voyages may still deal it).

For each pair, ``games`` focused positions (both cards where they act) are built from a
``random.Random`` seeded by the pair and the game's number, so a sweep gives the same report
on any machine and with any number of workers.  Each position is played by random bots: its
focus day with ``choose`` (to read the table when the day ends), then on to the end with
``Game.play_out`` and ``RandomAgent``s; ``check_invariants`` runs after the plays, at the day's
end and at the game's end.  Then the position is played to the day's end twice more, once
without each card (``FocusedPosition.without``).

On the focus day the bots (``_Varied``) give each question (seat, kind, asking card, keys
offered) its own ``random.Random``, seeded by a hash of the question: the n-th time a question
comes it gets the same answer in all three games, so they differ only where the missing card
makes them differ; and a question that comes again is answered afresh, so a card that merely
allows repetition (a ``you may`` that can start itself again) stops when an answer says no.  A
``loop`` (the engine's ``StepBudgetExceeded``: a step or question bound no real game comes
near) is then a game that goes round whatever is answered.

What a pair reports (``PairReport``):

- ``swing``: per card, the mean over the games of its owner's doubloons (held plus banked) at
  the end of the focus day, minus the same seat's in the game without the other card.  It says
  what the other card's presence was worth to this card's owner.  ``None`` for loot in today's
  loot (no owner).  After a voyage's last day it includes the next voyage's income.
- ``idle``: per card, the share of the games in which its ability logged nothing on the focus
  day (``focus.acted``): it had no target, its condition failed, or it was discarded first.
- ``failures``: each error, loop or broken invariant, with a reproduction (``repro.reproduction``).

Nothing here prints: ``libertalia cards interactions`` shows the reports.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import threading
import warnings
from collections.abc import Callable, Collection, Iterable, Sequence
from concurrent.futures import Executor, as_completed
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import attrs

from .. import _lifeline
from ..agents import RandomAgent
from ..engine.specs import Rules
from ..errors import LibertaliaError, RulesWarning, StepBudgetExceeded
from ..game import Game, Observation, new_game
from ..state import Decision
from .focus import FocusedPosition, acted, focused_position
from .invariants import check_invariants
from .repro import reproduction

TOGETHER = "together"
"""The ``variant`` of a failure in the game with both cards; the others are ``"without NAME"``."""
ALONE = "alone"
"""The ``variant`` of a failure in a game featuring one card (``SoloReport``)."""


@attrs.frozen
class Failure:
    """An error, a loop or a broken invariant in one game, with the code that replays it."""

    cards: tuple[str, ...]  # the pair, or the one card of a game alone
    game: int  # the game's number within the pair (or the card's games alone), 0 to games - 1
    variant: str  # TOGETHER, "without NAME", or ALONE
    kind: str  # "error" (an exception while playing), "loop" (StepBudgetExceeded) or "invariant"
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
    skipped: str | None = None  # why nothing was played: the pair cannot be focused, or a card fails alone

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "games": self.games, "swing": list(self.swing), "idle": list(self.idle),
                "failures": [f.to_json() for f in self.failures], "skipped": self.skipped}


@attrs.frozen
class SoloReport:
    """One card's games alone: how many ended without a failure, and the first failure if one did not.

    The games stop at the first failure: a card that fails alone is reported once, whatever
    pairs it is in.
    """

    card: str
    games: int
    failure: Failure | None = None
    skipped: str | None = None  # why the card could not be focused (then nothing was played)

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "games": self.games,
                "failure": None if self.failure is None else self.failure.to_json(), "skipped": self.skipped}


@attrs.frozen
class SweepReport:
    """A sweep's outcome: every card alone, then every pair (in the order asked).

    ``left_out`` are the cards that failed alone: their pairs are skipped.  ``dropped`` are
    their files, left out of ``extra_cards`` for the pairs' games; ``kept_out`` those of them
    that could not be (a bundled card, or a mod whose other files need it), kept out of the
    pairs' focused positions only.
    """

    solo: tuple[SoloReport, ...]
    pairs: tuple[PairReport, ...]
    left_out: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    kept_out: tuple[str, ...] = ()

    @property
    def failures(self) -> tuple[Failure, ...]:
        """Every failure: the cards' alone first, then the pairs'."""
        alone = tuple(r.failure for r in self.solo if r.failure is not None)
        return alone + tuple(f for r in self.pairs for f in r.failures)

    def to_json(self) -> dict[str, Any]:
        return {"solo": [r.to_json() for r in self.solo], "left_out": list(self.left_out),
                "dropped": list(self.dropped), "kept_out": list(self.kept_out),
                "pairs": [r.to_json() for r in self.pairs]}


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


# ------------------------------------------------------------------ one game
def game_seed(cards: tuple[str, ...], index: int, seed: int = 0) -> int:
    """The seed a pair's (or a card's alone) game is built from: stable across runs, machines and Python's hash seed."""
    digest = hashlib.sha256("\0".join((*cards, str(index), str(seed))).encode()).digest()
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


class _Varied(_Recorder):
    """A random bot for the focus day: each question has its own stream of answers.

    The stream is a ``random.Random`` seeded by a hash of the bot's seed and the question (kind,
    asking card, keys offered), not the next number of one stream for the game: in the game
    without a card, the n-th asking of a question the missing card does not change gets the
    answer it got with both, so the swing measures the card and not the bots drifting apart.
    A question asked again draws again: answering it the same way every time would make a
    card that only allows repetition (``you may`` start itself again) go round until the
    engine's bound, a loop that is not one.
    """

    def __init__(self, seed: int, keys: list[str]) -> None:
        super().__init__(seed, keys)
        self._seed = seed
        self._streams: dict[str, random.Random] = {}

    def choose(self, observation: Observation, decision: Decision) -> str:
        question = "\0".join((str(self._seed), decision.kind, decision.source or "", *decision.keys()))
        stream = self._streams.get(question)
        if stream is None:
            digest = hashlib.sha256(question.encode()).digest()
            stream = self._streams[question] = random.Random(int.from_bytes(digest[:8], "big"))
        key = decision.options[stream.randrange(len(decision.options))].key
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
    varied = [_Varied(bot_seed + seat, keys) for seat in range(position.players)]
    try:
        first = new_game(rules, position.players, position.seed, setup=position.setup)
        game = position.answer(first, keys)
        _check(game, first)
        when = (position.setup["voyage"], position.setup["day"])
        while (d := game.decision) is not None and (game.voyage, game.day) == when:
            game = game.choose(varied[d.player].choose(game.observation(d.player), d))
        _check(game, first)
        day = _Day(tuple(p.doubloons + p.score for p in game.players), game)
        if to_end:
            _check(game.play_out([_Recorder(bot_seed + seat, keys) for seat in range(position.players)]), first)
        return day
    except _Failed:
        raise
    except StepBudgetExceeded as exc:  # whatever the bots answered, the game went round
        raise _Failed("loop", f"{type(exc).__name__}: {exc}", keys) from None
    except Exception as exc:  # noqa: BLE001 - any exception a card causes is a finding, reported with its replay
        raise _Failed("error", f"{type(exc).__name__}: {exc}", keys) from None


def play_card(rules: Rules, card: str, games: int = 5, *, seed: int = 0, players: int | None = None) -> SoloReport:
    """Play ``games`` positions featuring ``card`` alone, each to the game's end, up to the first failure."""
    for index in range(games):
        try:
            position = focused_position(rules, players, [card], rng=random.Random(game_seed((card,), index, seed)))
        except ValueError as exc:  # a card without abilities, say: nothing to play
            return SoloReport(card, 0, skipped=str(exc))
        try:
            _play(rules, position, position.seed * 16, to_end=True)
        except _Failed as failed:
            return SoloReport(card, index, _failure(rules, (card,), index, ALONE, position, failed))
    return SoloReport(card, games)


def play_pair(rules: Rules, pair: tuple[str, str], games: int = 5, *, seed: int = 0,
              players: int | None = None, exclude: Collection[str] = ()) -> PairReport:
    """Play one pair's ``games`` positions together and each card without the other.

    ``exclude``: characters the positions deal to nobody (cards that failed alone).
    """
    failures: list[Failure] = []
    swings: list[list[int]] = [[], []]
    idle = [0, 0]
    done = 0
    for index in range(games):
        try:
            position = focused_position(rules, players, pair, rng=random.Random(game_seed(pair, index, seed)),
                                        exclude=exclude)
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


def _failure(rules: Rules, cards: tuple[str, ...], index: int, variant: str, position: FocusedPosition,
             failed: _Failed) -> Failure:
    note = f"{' and '.join(cards)}, game {index} ({variant}): {failed.message}"
    # Every check compares with the game as it started, as the script's last line does.
    check = f"check_invariants(game, lt.new_game(rules, {position.players}, seed={position.seed}, setup=setup))"
    repro = reproduction(rules, position.players, position.seed, position.setup, failed.keys, note=note,
                         check=check)
    return Failure(cards, index, variant, failed.kind, failed.message, repro.python, repro.yaml)


# ------------------------------------------------------------------ which rules each game is played with
_WORKER_RULES: dict[str, Rules] = {}
_WORKER_LOCK = threading.Lock()


def _worker_rules(args_json: str) -> Rules:
    """The rules for these ``load_rules`` arguments, loaded once per process."""
    from ..loading.rules import load_rules

    with _WORKER_LOCK:
        rules = _WORKER_RULES.get(args_json)
        if rules is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RulesWarning)  # the caller shows them once
                rules = _WORKER_RULES[args_json] = load_rules(**json.loads(args_json))
        return rules


def _key(args: dict[str, Any]) -> str:
    return json.dumps(args, sort_keys=True)


def _mod_files(rules: Rules) -> list[str]:
    """The card and loot files of the rules' ``extra_cards`` (a folder stands for its YAML files, as it loads)."""
    files: list[str] = []
    for entry in rules.load_args.get("extra_cards") or ():
        path = Path(entry)
        found = [path] if path.is_file() else sorted(p for p in path.rglob("*.yaml") if p.is_file())
        files.extend(str(p.resolve()) for p in found)
    return list(dict.fromkeys(files))


def _files_of(rules: Rules, card: str, files: Collection[str]) -> list[str]:
    """The files among ``files`` that define ``card`` (a character, or any side of a loot kind)."""
    specs: list[Any] = [c for c in rules.characters if c.name == card]
    specs += [s for s in (*rules.loot, *(s for sides in rules.uncharted.values() for s in sides),
                          *rules.solo_loot.values()) if s.kind == card]
    paths = {str(Path(s.path).resolve()) for s in specs if s.path}
    return [f for f in files if f in paths]


def _loads(args: dict[str, Any]) -> bool:
    """Whether ``load_rules`` takes these arguments (a mod file may name a card of a file left out)."""
    try:
        _worker_rules(_key(args))
    except LibertaliaError:
        return False
    return True


def _alone_args(rules: Rules, card: str, files: Sequence[str]) -> dict[str, Any]:
    """The rules a card plays alone with: the edition and the card's own files, none of the mod's others.

    Another mod card's loop or error would otherwise fail every card's games alone.  When the
    card's file does not load without the others (it names one), the whole mod.
    """
    if not files:
        return rules.load_args
    args = {**rules.load_args, "extra_cards": _files_of(rules, card, files)}
    return args if _loads(args) else rules.load_args


def _without_args(rules: Rules, cards: Collection[str], files: Sequence[str]) -> tuple[dict[str, Any], list[str]]:
    """The rules for the pairs' games, with the files of ``cards`` left out, and the files left out.

    The rules as given when none is a mod's file or the mod does not load without them.
    """
    gone = [f for card in cards for f in _files_of(rules, card, files)]
    if not gone:
        return rules.load_args, []
    args = {**rules.load_args, "extra_cards": [f for f in files if f not in gone]}
    return (args, gone) if _loads(args) else (rules.load_args, [])


# ------------------------------------------------------------------ many games
Task = tuple[str, tuple[str, ...], int, int, int | None, tuple[str, ...]]
"""What a worker plays: the rules' arguments (JSON), a card (alone) or a pair, games, seed, players, exclude."""


def _run(rules: Rules, given: str, task: Task) -> SoloReport | PairReport:
    args_json, cards, games, seed, players, exclude = task
    here = rules if args_json == given else _worker_rules(args_json)
    if len(cards) == 1:
        return play_card(here, cards[0], games, seed=seed, players=players)
    return play_pair(here, (cards[0], cards[1]), games, seed=seed, players=players, exclude=exclude)


def _chunk(tasks: list[Task]) -> list[SoloReport | PairReport]:
    return [_run(_worker_rules(t[0]), t[0], t) for t in tasks]


def _play_all(rules: Rules, tasks: list[Task], pool: Executor | None, jobs: int,
              progress: Callable[[int], None] | None) -> list[SoloReport | PairReport]:
    """Every task's report, in order; in chunks over ``pool``'s workers when there is one."""
    given = _key(rules.load_args)
    if pool is None or len(tasks) <= 1:
        out = []
        for task in tasks:
            out.append(_run(rules, given, task))
            if progress is not None:
                progress(1)
        return out
    size = max(1, min(20, len(tasks) // (jobs * 8)))
    chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
    results: dict[int, list[SoloReport | PairReport]] = {}
    futures = {pool.submit(_chunk, chunk): i for i, chunk in enumerate(chunks)}
    for future in as_completed(futures):
        i = futures[future]
        results[i] = future.result()
        if progress is not None:
            progress(len(chunks[i]))
    return [report for i in range(len(chunks)) for report in results[i]]


def sweep(rules: Rules, pairs: Sequence[tuple[str, str]], games: int = 5, *, seed: int = 0,
          players: int | None = None, jobs: int = 1,
          progress: Callable[[int], None] | None = None) -> SweepReport:
    """Every card of ``pairs`` alone (``play_card``), then ``play_pair`` for every pair, in order,
    but those of a card that failed alone; ``progress(n)`` as each ``n`` cards or pairs finish.

    ``jobs > 1`` runs chunks in worker processes, each loading the rules once from
    ``rules.load_args``; the reports do not depend on it.
    """
    cards = list(dict.fromkeys(name for pair in pairs for name in pair))
    files = _mod_files(rules)
    # Workers die with this process and leave no files, even when it is killed outright (``_lifeline``).
    with _lifeline.worker_pool(jobs) if jobs > 1 and len(pairs) + len(cards) > 1 else nullcontext() as pool:
        solo_tasks: list[Task] = [(_key(_alone_args(rules, card, files)), (card,), games, seed, players, ())
                                  for card in cards]
        solo = [r for r in _play_all(rules, solo_tasks, pool, jobs, progress) if isinstance(r, SoloReport)]
        failed = [r.card for r in solo if r.failure is not None]
        args, dropped = _without_args(rules, failed, files)
        kept_out = tuple(card for card in failed if not _files_of(rules, card, dropped))
        todo = [pair for pair in pairs if not set(pair) & set(failed)]
        tasks: list[Task] = [(_key(args), pair, games, seed, players, kept_out) for pair in todo]
        played = iter(r for r in _play_all(rules, tasks, pool, jobs, progress) if isinstance(r, PairReport))
    reports = []
    for pair in pairs:
        if set(pair) & set(failed):
            bad = " and ".join(card for card in dict.fromkeys(pair) if card in failed)
            reports.append(PairReport(pair, 0, (None, None), (None, None), skipped=f"{bad} fails alone"))
            if progress is not None:
                progress(1)
        else:
            reports.append(next(played))
    return SweepReport(tuple(solo), tuple(reports), tuple(failed), tuple(dropped), kept_out)
