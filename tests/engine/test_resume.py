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
# Re-recorded on purpose again (issue 35, items 8b and 8c): a save's packed log now names the character an
# ability's take is for (TAKE_LOOT_BY_CARD) and marks a borrowed text's events (VIA); the games are unchanged.
GOLDEN: dict[str, str] = {
    "galecrest-2p-seed1": "6771033b49573a4b72e51033cd208f49",
    "galecrest-2p-seed2": "02e7c8e2e0e1548c78391daea37955cc",
    "galecrest-2p-seed3": "f5fd6466cdcf0b4966e7b2ccbf2ab541",
    "galecrest-3p-seed1": "3d23866dc719566187eb2ec880705d68",
    "galecrest-3p-seed2": "cbbbed45dec4fa934cb98f56ce35e863",
    "galecrest-3p-seed3": "37c59bf65d68778b35d678fb6e5b52a2",
    "galecrest-4p-seed1": "e22a775ca40cfce4b56e216ba9b9c2f0",
    "galecrest-4p-seed2": "255863eaa68b958ecd8ffd14ebb30007",
    "galecrest-4p-seed3": "87167156dc3c48a739d41f6b1f653a40",
    "galecrest-5p-seed1": "47ab33d00ec394f5487da715dd102212",
    "galecrest-5p-seed2": "72d2ad61ebc8321c6bd00429914659c6",
    "galecrest-5p-seed3": "86257c675cce403dfbd4ad3b1de9dbdb",
    "galecrest-1p-seed4": "ba9521c2b0e9820b3bfa678eea2fe457",
    "galecrest-1p-seed5": "16838105dd05af449220c8850915e71f",
    "galecrest-1p-seed6": "d46a9a27b865cb8e4bcdd3ca5a03052e",
    "galecrest-stormy-4p-seed7": "9b76eab5329b0fdfe655488417da4331",
    "galecrest-stormy-1p-seed8": "b3f32319bb75ef6893d93ceb9fe3a0c0",
    "galecrest-uncharted-3p-seed9": "278f5c816b8333bc880dc45da861a355",
    "classic-2p-seed10": "001e60a5b0de0ac339a71e5c3cfa7584",
    "classic-2p-seed11": "38d5d5952a8c6d4bb05f3c711013c7f8",
    "classic-3p-seed10": "c23c808683074a25f6f18b362a59e5b4",
    "classic-3p-seed11": "ed057a9ec11e93c596ecd9844e654ee0",
    "classic-4p-seed10": "ec4fd64a5077eecb3eb6fe746bcc1021",
    "classic-4p-seed11": "952d1f7ee332c8b7dc37c889a28064f2",
    "classic-5p-seed10": "1f57482eb21e515e6cbc40e0f62a9701",
    "classic-5p-seed11": "4f53425eaf7af993d550ce21ffe7e627",
    "galecrest-3p-seed12-declared": "a1c2ca133f3b7948623026a7556622b5",
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
