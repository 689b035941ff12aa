"""Differential play: wordings of one card played side by side, the same position, the same answers.

Two texts that English says mean the same must run the same.  ``compare`` starts one game per
wording (each wording loaded as a mod card under one name: ``load_wordings``) from the same
focused position and seed, drives each game with the same answer policy, and compares the
public state when the focus day is over (the ability's moment and the rest of its day): every
seat's doubloons, reputation, score, hand, ship, graveyard, loot and kept cards, the island,
the loot of every day left, the bag, where the game stands.

The answer policy is a function of the question, not of its place in the game: a question's
options are named by key (a choose-one option, keyed ``"1"``, ``"2"``, by its label, which is
its own text, its actions in sorted order), and the answer is the name a hash of the seed ranks
first.  So wordings that ask the same questions in another order (``A and B`` against
``B and A``) get the same answers; wordings whose questions differ get answers that may differ,
as their games then may.

A difference is shrunk greedily (fewer seats, fewer cards, fewer tokens, empty purses, while the
wordings still differ) and reported with an ``examples:`` entry for each wording
(``repro.reproduction``).  Under hypothesis, draw the position from ``focus.positions`` and call
``assert_same``: hypothesis shrinks it instead.
"""

from __future__ import annotations

import copy
import hashlib
import tempfile
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..engine.specs import Rules
from ..errors import RulesWarning
from ..game import Game
from ..state import Decision
from .focus import FocusedPosition
from .repro import reproduction

__all__ = ["Difference", "Outcome", "answer", "assert_same", "compare", "distribution", "load_wordings", "play",
           "shrink", "snapshot", "total_variation"]

MAX_ANSWERS = 400
"""Answers given in one focus day before the game is called stuck (no day of the game needs as many)."""


# ------------------------------------------------------------------ loading
def load_wordings(base: Rules, files: Sequence[tuple[str, str]]) -> list[Rules]:
    """The base rules once per mod file: ``files`` holds (file name, YAML) pairs, one per wording.

    Each wording loads through ``load_rules`` itself, as the base rules were loaded plus a folder
    holding its one file, so a wording is played only if a modder's file with it would load.
    """
    from ..loading.rules import load_rules

    out = []
    for name, content in files:
        with tempfile.TemporaryDirectory(prefix="wording-") as folder:
            (Path(folder) / name).write_text(content, encoding="utf-8")
            args = dict(base.load_args)
            args["extra_cards"] = [*args.get("extra_cards", ()), folder]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RulesWarning)
                out.append(load_rules(**args))
    return out


# ------------------------------------------------------------------ the answer policy
def _names(decision: Decision) -> list[tuple[str, str]]:
    """(name, key) per option: a numbered option (choose one) is named by its label, its ``and``-joined
    actions in sorted order (``B and A`` is the option ``A and B``); any other option by its key."""
    return sorted((_unordered(o.label) if o.key.isdigit() else o.key, o.key) for o in decision.options)


def _unordered(label: str) -> str:
    return " and ".join(sorted(label.split(" and ")))


def answer(seed: int, decision: Decision) -> str:
    """The key to answer: the option whose name the seed ranks first, among those offered.

    Each name's rank is a hash of the seed, who is asked, the kind of question and the name, so
    a question that offers fewer options (one wording filters a choice the other does not)
    still gets the same answer whenever that answer is offered.
    """
    def rank(name: str) -> bytes:
        return hashlib.sha256(repr((seed, decision.player, decision.kind, name)).encode()).digest()

    return min(_names(decision), key=lambda item: rank(item[0]))[1]


# ------------------------------------------------------------------ one game
def snapshot(game: Game) -> tuple[tuple[str, Any], ...]:
    """The public state compared: each seat's purse and piles (as multisets), the island, the loot, the bag."""
    s = game.state
    out: list[tuple[str, Any]] = [("where", (s.voyage, s.day, game.phase, game.is_over))]
    for p in game.players:
        for field in ("doubloons", "reputation", "score"):
            out.append((f"seat {p.seat} {field}", getattr(p, field)))
        for field in ("hand", "ship", "graveyard", "loot", "kept", "kept_loot", "removed"):
            out.append((f"seat {p.seat} {field}", tuple(sorted(getattr(p, field)))))
    out.append(("island", tuple(s.island)))
    out += [(f"loot of day {i + 1}", tuple(sorted(d))) for i, d in enumerate(s.days) if i + 1 >= s.day]
    out.append(("bag", tuple(sorted((k, n) for k, n in s.bag if n))))
    return tuple(out)


@attrs.frozen
class Outcome:
    """How one wording's game went: the state compared, the answers given, and any error raised."""

    state: tuple[tuple[str, Any], ...]
    history: tuple[str, ...]
    error: str = ""


def play(rules: Rules, position: FocusedPosition, seed: int, *, to_end: bool = False) -> Outcome:
    """The position's game, answered by ``answer`` to the end of its focus day (``to_end``: of the game)."""
    try:
        game = position.start(rules, log=False)
    except Exception as exc:
        return Outcome((), (), _describe(exc))
    focus = (position.setup["voyage"], position.setup["day"])
    try:
        for _ in range(MAX_ANSWERS * (20 if to_end else 1)):
            d = game.decision
            if d is None or (not to_end and (game.voyage, game.day) != focus):
                break
            game = game.choose(answer(seed, d))
        else:
            return Outcome(snapshot(game), game.history, "stuck: too many answers")
    except Exception as exc:
        return Outcome(snapshot(game), game.history, _describe(exc))
    return Outcome(snapshot(game), game.history)


def _describe(exc: BaseException) -> str:
    first = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {first}"


# ------------------------------------------------------------------ two or more
@attrs.frozen
class Difference:
    """The first two wordings whose games differ from one position, and how."""

    labels: tuple[str, str]  # the two wordings (their texts, or the caller's names)
    position: FocusedPosition
    seed: int  # the answer policy's seed
    field: str  # the first part of the state that differs ("seat 1 doubloons", "error")
    values: tuple[Any, Any]
    examples: tuple[str, str] = ("", "")  # an examples: entry per wording

    def __str__(self) -> str:
        a, b = self.labels
        lines = [f"{a!r} and {b!r} differ in {self.field}: {self.values[0]!r} against {self.values[1]!r}",
                 f"  from {self.position.players} players, seed {self.position.seed}, answer seed {self.seed}",
                 f"  setup: {self.position.setup!r}", f"  plays: {list(self.position.plays)!r}"]
        for label, example in zip(self.labels, self.examples, strict=True):
            if example:
                lines += [f"  an examples: entry for the card worded {label!r}:", example.rstrip()]
        return "\n".join(lines)


def _first_difference(a: Outcome, b: Outcome) -> tuple[str, Any, Any] | None:
    if a.error != b.error:
        return "error", a.error, b.error
    for (field, x), (_, y) in zip(a.state, b.state, strict=False):
        if x != y:
            return field, x, y
    if len(a.state) != len(b.state):
        return "seats", len(a.state), len(b.state)
    return None


def compare(wordings: Sequence[Rules], position: FocusedPosition, seed: int = 0, *,
            labels: Sequence[str] | None = None, to_end: bool = False, examples: bool = True) -> Difference | None:
    """The first pair of wordings (the first against each other) whose games from ``position`` differ.

    ``examples`` writes each one's ``examples:`` entry (turn it off while shrinking).
    """
    names = list(labels) if labels is not None else [f"wording {i + 1}" for i in range(len(wordings))]
    outcomes = [play(r, position, seed, to_end=to_end) for r in wordings]
    for i in range(1, len(wordings)):
        found = _first_difference(outcomes[0], outcomes[i])
        if found is None:
            continue
        field, x, y = found
        written = ("", "")
        if examples:
            note = f"{names[0]!r} and {names[i]!r} differ in {field}"
            written = (_example(wordings[0], position, outcomes[0], note),
                       _example(wordings[i], position, outcomes[i], note))
        return Difference((names[0], names[i]), position, seed, field, (x, y), written)
    return None


def _example(rules: Rules, position: FocusedPosition, outcome: Outcome, note: str) -> str:
    try:
        return reproduction(rules, position.players, position.seed, position.setup, outcome.history, note=note,
                            load_call="lt.load_rules(...)  # the edition, with the mod folder of this wording").yaml
    except Exception as exc:  # a report must never hide the difference it explains
        return f"  # (no example: {_describe(exc)})\n"


def assert_same(wordings: Sequence[Rules], position: FocusedPosition, seed: int = 0, *,
                labels: Sequence[str] | None = None, to_end: bool = False) -> None:
    """``AssertionError`` with the difference when the wordings' games differ: for a hypothesis test."""
    found = compare(wordings, position, seed, labels=labels, to_end=to_end)
    if found is not None:
        raise AssertionError(str(found))


# ------------------------------------------------------------------ shrinking
def shrink(position: FocusedPosition, differs: Callable[[FocusedPosition], bool], *,
           rules: Rules, budget: int = 400) -> FocusedPosition:
    """A smaller position that still ``differs``: greedily fewer seats, cards and tokens, and empty purses.

    Each smaller position that still differs is taken, and the search starts again from it, until
    none does or ``budget`` positions were tried.  Featured cards and tokens and the cards played
    stay; a candidate the rules refuse to start fails alike for every wording, so it is not taken.
    """
    tried = 0
    while tried < budget:
        for candidate in _smaller(position, rules):
            tried += 1
            if differs(candidate):
                position = candidate
                break
            if tried >= budget:
                break
        else:
            break
    return position


def _smaller(position: FocusedPosition, rules: Rules) -> Iterator[FocusedPosition]:
    """Each one-step smaller position (fewer seats first: they shrink the most)."""
    lo = max(2, rules.board.players[0])
    featured_seats = {p.seat for p in position.featured}
    for seat in reversed(range(position.players)):
        if position.players > lo and seat not in featured_seats:
            yield _without_seat(position, seat)
    kept = {(p.seat, p.zone, p.name) for p in position.featured}
    for seat, held in enumerate(position.setup["players"]):
        for pile in ("hand", "ship", "graveyard", "loot"):
            for name in sorted(set(held.get(pile, ()))):
                zone = "play" if pile == "hand" and name == position.plays[seat] else pile
                if (seat, zone, name) in kept or (seat, "hand", name) in kept or zone == "play":
                    continue
                setup = copy.deepcopy(position.setup)
                setup["players"][seat][pile].remove(name)
                yield attrs.evolve(position, setup=setup)
        for purse in ("doubloons", "score"):
            if held.get(purse):
                setup = copy.deepcopy(position.setup)
                setup["players"][seat][purse] = 0
                yield attrs.evolve(position, setup=setup)


def _without_seat(position: FocusedPosition, seat: int) -> FocusedPosition:
    setup = copy.deepcopy(position.setup)
    del setup["players"][seat]
    if "reputation" in setup:
        del setup["reputation"][seat]
    plays = position.plays[:seat] + position.plays[seat + 1:]
    featured = tuple(p if p.seat is None or p.seat < seat else attrs.evolve(p, seat=p.seat - 1)
                     for p in position.featured)
    return attrs.evolve(position, setup=setup, plays=plays, players=position.players - 1, featured=featured)


# ------------------------------------------------------------------ random draws
def distribution(rules: Rules, position: FocusedPosition, seeds: Sequence[int],
                 project: Callable[[FocusedPosition, Outcome], Any]) -> Counter[Any]:
    """How often each projected outcome comes, over games of ``position`` with each game seed in ``seeds``."""
    out: Counter[Any] = Counter()
    for s in seeds:
        at = attrs.evolve(position, seed=s)
        out[project(at, play(rules, at, s))] += 1
    return out


def total_variation(a: Counter[Any], b: Counter[Any]) -> float:
    """Half the summed gaps between two empirical distributions: 0 for the same, 1 for disjoint."""
    na, nb = sum(a.values()) or 1, sum(b.values()) or 1
    return sum(abs(a[k] / na - b[k] / nb) for k in {*a, *b}) / 2
