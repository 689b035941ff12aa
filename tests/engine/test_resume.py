"""``choose()`` resumes the flow step that asked instead of running it again from its start.

The resume must change nothing but the work done: the seeded ``choose()`` lines below (both
editions, 2 to 5 seats, solo, stormy and uncharted loot, a declared position, a game without
a log) read exactly as the engine before the resume played them.  Each line also freezes its
newest game now and then (a save in the middle of a question) and branches from it (so that the
line goes on from a game rebuilt from its frozen state), and ``GOLDEN`` holds a digest of every
decision, save, branch and final game.  It was written once, on the tree before the resume, with

    PYTHONPATH=<that tree> python tests/engine/test_resume.py

(it uses only what that engine had).  Run it again only on purpose, as for ``golden_events``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.helpers import patches_engine

# (edition, loot, players, seed, declared position, log)
LINES: tuple[tuple[str, str | None, int, int, dict[str, Any] | None, bool], ...] = (
    *(("galecrest", None, n, seed, None, True) for n in (2, 3, 4, 5) for seed in (1, 2, 3)),
    *(("galecrest", None, 1, seed, None, True) for seed in (4, 5, 6)),
    ("galecrest", "stormy", 4, 7, None, True),
    ("galecrest", "stormy", 1, 8, None, True),
    ("galecrest", "uncharted", 3, 9, None, True),
    *(("classic", None, n, seed, None, True) for n in (2, 3, 4, 5) for seed in (10, 11)),
    ("galecrest", None, 3, 12, {"voyage": 2, "day": 2, "reputation": [0, 3, 5],
                                "loot": [["map", "chest", "relic"]]}, True),
    ("galecrest", None, 4, 13, None, False),
)

# Re-recorded on purpose (issue 32, meaning rule L3): saves no longer hold a token taken by day in
# ``just_took``.  With that field left out of each save, every line digests the same before and after.
GOLDEN: dict[str, str] = {
    "galecrest-2p-seed1": "d7607e2ba8e60d157124b0d891e52c77",
    "galecrest-2p-seed2": "91a21e60184a4736ef645d58ea71ae0d",
    "galecrest-2p-seed3": "b5ef56fb44bc8918feb317729195075f",
    "galecrest-3p-seed1": "cbe0a335c5016451cf60fcbea2938d76",
    "galecrest-3p-seed2": "e8db3530830faf2c0306c7802f69f424",
    "galecrest-3p-seed3": "fc79d5d41b5615a844fead00a0a64128",
    "galecrest-4p-seed1": "2ae95a506c20b95728ab3cc974e2ceee",
    "galecrest-4p-seed2": "e539238c5748d35e416cfde17438a993",
    "galecrest-4p-seed3": "08573d794548f305c616c03cbfd1485a",
    "galecrest-5p-seed1": "651cd5e51424a25f459994d2ab4f25d6",
    "galecrest-5p-seed2": "defe25d8ca9f8f7a7dbf12bdca6fa299",
    "galecrest-5p-seed3": "1e8648adcbe406fe3b6403f314ae6477",
    "galecrest-1p-seed4": "d525eb0886749a76235f61770d27f66f",
    "galecrest-1p-seed5": "5f2d099e799f30e7dac6396b11fdeb59",
    "galecrest-1p-seed6": "ff73687570edf32d18a067975c48045b",
    "galecrest-stormy-4p-seed7": "addb97f9196d6111a6d0281406c33120",
    "galecrest-stormy-1p-seed8": "709648e1be93fea262ac8f5aaa6f56cb",
    "galecrest-uncharted-3p-seed9": "583501e062d289cb8b842ffeab9854b4",
    "classic-2p-seed10": "90cc586ec476ade9df17fad8c63fb356",
    "classic-2p-seed11": "1e23e74fa10d120666b234335122f10b",
    "classic-3p-seed10": "a0ac92997734ff93c58f38a9dc6f117a",
    "classic-3p-seed11": "8b8133231edaa54e6b4be3b43ca1071f",
    "classic-4p-seed10": "b2329a20aa4efaf965839c4b0e241ddc",
    "classic-4p-seed11": "7325cd1581e2f823ab0b400cd7a2addb",
    "classic-5p-seed10": "c9153d47b29975426d65f98e78efbfc1",
    "classic-5p-seed11": "a73aefd8e0406dbf92ad04a8ae633329",
    "galecrest-3p-seed12-declared": "8b280be6662e82408d32bd389bff0a8d",
    "galecrest-4p-seed13-nolog": "0e4d80c05bb4a7c4862ee2037e084eb9",
}


def _rules(edition: str, loot: str | None) -> Any:
    import libertalia as lt

    return lt.load_rules(edition, loot=loot) if loot else lt.load_rules(edition)


def _saved(game: Any) -> str:
    """The save's state: what a save holds of the game (its rules stamp names the library version)."""
    return json.dumps(json.loads(game.to_json())["state"], sort_keys=True)


def play_line(edition: str, loot: str | None, players: int, seed: int, setup: dict[str, Any] | None,
              log: bool) -> tuple[str, Any]:
    """One seeded ``choose()`` line, saved and branched along the way; its digest and final game."""
    import libertalia as lt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reconstructed loot and solo cards warn on purpose
        rules = _rules(edition, loot)
        game = lt.new_game(rules, players, seed=seed, setup=setup, log=log)
    rnd = random.Random(seed)
    digest = hashlib.blake2b(digest_size=16)
    asked = 0
    while game.decision is not None:
        d = game.decision
        digest.update(repr(d).encode())
        keys = d.keys()
        key = keys[rnd.randrange(len(keys))]
        if asked % 5 == 2:  # freeze the newest game mid-question; the line goes on from its working copy
            digest.update(_saved(game).encode())
        if asked % 9 == 4 and len(keys) > 1:  # a branch takes the working copy: the line goes on rebuilt
            other = game.choose(keys[(keys.index(key) + 1) % len(keys)])
            digest.update(repr(other.decision).encode())
            digest.update(_saved(other).encode())
        game = game.choose(key)
        asked += 1
    digest.update(_saved(game).encode())
    digest.update(repr(game.events).encode())
    digest.update("\n".join(map(str, game.events)).encode())
    digest.update(repr((game.history, game.final_scores(), game.winners())).encode())
    return digest.hexdigest(), game


def _name(line: tuple[str, str | None, int, int, dict[str, Any] | None, bool]) -> str:
    edition, loot, players, seed, setup, log = line
    return (f"{edition}{'-' + loot if loot else ''}-{players}p-seed{seed}{'-declared' if setup else ''}"
            f"{'' if log else '-nolog'}")


def record() -> dict[str, str]:
    return {_name(line): play_line(*line)[0] for line in LINES}


# ---------------------------------------------------------------- the tests
@pytest.mark.parametrize("line", LINES, ids=_name)
def test_choose_lines_play_saves_and_branch_exactly_as_before_the_resume(
        line: tuple[str, str | None, int, int, dict[str, Any] | None, bool]) -> None:
    """Determinism bit for bit: every decision, mid-question save, branch and final game as before."""
    assert play_line(*line)[0] == GOLDEN[_name(line)]


@contextmanager
def _counting_selects(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Count entries of the select step (``count["select"]``) while the block runs."""
    from libertalia.engine import flow

    count: Counter[str] = Counter()
    select = flow._STEPS["select"]

    def counted(w: Any) -> None:
        count["select"] += 1
        select(w)

    with monkeypatch.context() as m:
        m.setitem(flow._STEPS, "select", counted)
        yield count


def _random_line(game: Any, seed: int, each: Callable[[Any], object] = lambda game: None) -> Any:
    """Answer ``game`` at random to its end, calling ``each`` on every game of the line."""
    rnd = random.Random(seed)
    while game.decision is not None:
        each(game)
        keys = game.legal_keys()
        game = game.choose(keys[rnd.randrange(len(keys))])
    return game


@pytest.mark.parametrize(("edition", "players"), [("galecrest", 4), ("galecrest", 2), ("galecrest", 1),
                                                  ("classic", 5)])
@pytest.mark.parametrize("frozen_along", [False, True], ids=["unread", "read"])
def test_the_select_step_runs_once_a_day_and_once_after_each_pick(
        monkeypatch: pytest.MonkeyPatch, edition: str, players: int, frozen_along: bool) -> None:
    """A choose() line enters the select step once per day plus once per pick asked, read or not."""
    import libertalia as lt

    rules = _rules(edition, None)
    picks = 0

    def each(game: Any) -> None:
        nonlocal picks
        picks += game.decision.kind == "play_character"
        if frozen_along:
            assert game.state.decision == game.decision  # a snapshot leaves the working copy where it was

    with _counting_selects(monkeypatch) as count, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the solo cards warn on purpose
        ends = [_random_line(lt.new_game(rules, players, seed=seed), seed, each) for seed in range(4)]
    days = sum(isinstance(e, lt.events.Revealed) for end in ends for e in end.events)
    assert picks >= days > 0
    assert count["select"] == picks + days  # running it again from its start would give about 2 per pick


@patches_engine
def test_no_question_of_the_flow_is_asked_twice_in_a_choose_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Picks, loot, neutral removals and orders resume (R6, R8, R13); an ability's step still replays."""
    import libertalia as lt
    from libertalia.engine.work import FlowAnswers, Work

    replayed: Counter[str] = Counter()
    ask = Work.ask

    def counted(w: Work, asker: Any, seat: int, kind: str, options: Any, prompt: str, source: str | None) -> str:
        if len(options) > 1 and seat != w.automa and asker.pos < len(asker.answers):
            replayed["flow" if isinstance(asker, FlowAnswers) else "ability"] += 1
        return ask(w, asker, seat, kind, options, prompt, source)

    kinds: Counter[str] = Counter()
    monkeypatch.setattr(Work, "ask", counted)
    for edition, players in (("galecrest", 5), ("classic", 6), ("galecrest", 1)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            game = lt.new_game(_rules(edition, None), players, seed=players)
        _random_line(game, players, lambda game: kinds.update([game.decision.kind]))
    assert replayed["flow"] == 0
    assert replayed["ability"] > 0  # the counter sees replays: abilities' questions still replay
    assert min(kinds[k] for k in ("play_character", "choose_loot", "order_abilities")) > 10


def test_a_resumed_step_and_one_run_again_after_a_thaw_reach_the_same_game() -> None:
    """Each answer gives the same game whether the working copy resumes or a frozen state replays."""
    import libertalia as lt

    rules = lt.load_rules("galecrest")
    checked: Counter[str] = Counter()
    for seed in range(3):
        game = lt.new_game(rules, 4 + seed % 2, seed=seed)
        rnd = random.Random(seed)
        while game.decision is not None:
            keys = game.legal_keys()
            key = keys[rnd.randrange(len(keys))]
            rebuilt = lt.Game(rules, game.state).choose(key)  # thawed: the step runs again from its start
            resumed = game.choose(key)
            assert resumed.state == rebuilt.state
            assert resumed.to_json() == rebuilt.to_json()
            checked[game.state.step] += 1
            game = resumed
    assert min(checked[step] for step in ("select", "dusk", "night", "anchor", "sun")) > 0


if __name__ == "__main__":
    json.dump(record(), sys.stdout, indent=4)
    print()
