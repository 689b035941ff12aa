"""``testing.sweep``: each card alone first, a card that fails alone left out, and bots that vary their answers."""

from __future__ import annotations

import hashlib
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

import libertalia as lt
from libertalia.engine import driver
from libertalia.game import Observation
from libertalia.state import Decision, Option
from libertalia.testing import focus, sweep

# Accepted by the loader (the take needs its owner's "yes" each time), and it may start itself again.
MAY_MAP = """\
kind: map
side: calm
count: 10
text: |
  dusk: return a map you hold to the bag, then you may take a map from the bag.
  anchor, once: gain doubloons for your map in sets (2 for 7, 3 for 12).
"""


@pytest.fixture(scope="module")
def galecrest() -> lt.Rules:
    return lt.load_rules("galecrest")


@pytest.fixture
def may_map(tmp_path: Path) -> lt.Rules:
    folder = tmp_path / "may-map"
    folder.mkdir()
    (folder / "map.yaml").write_text(MAY_MAP, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        return lt.load_rules("galecrest", extra_cards=[folder])


def _may(prompt: str = "you may take a map") -> Decision:
    return Decision(0, "may", (Option("yes", "yes"), Option("no", "no")), prompt, source="map")


class _Steady(sweep._Recorder):
    """The sweep's bot as it was: a question gets the same answer however often it is asked."""

    def __init__(self, seed: int, keys: list[str]) -> None:
        super().__init__(seed, keys)
        self._seed = seed

    def choose(self, observation: Observation, decision: Decision) -> str:
        question = "\0".join((str(self._seed), decision.kind, decision.source or "", *decision.keys()))
        key = decision.options[int.from_bytes(hashlib.sha256(question.encode()).digest()[:8], "big")
                               % len(decision.options)].key
        self._keys.append(key)
        return key


def test_a_repeated_question_is_answered_afresh_and_the_same_in_every_game() -> None:
    """The focus day's bot: each question has its own seeded stream, so the n-th asking gets the same answer
    in the three games of a pair (another question in between changes nothing) and repeats are not all alike."""
    observation: Any = None
    alone = sweep._Varied(7, [])
    answers = [alone.choose(observation, _may()) for _ in range(30)]
    assert set(answers) == {"yes", "no"}
    mixed = sweep._Varied(7, [])
    interleaved = []
    for _ in range(30):
        mixed.choose(observation, Decision(0, "choose_option", (Option("a", "a"), Option("b", "b")), "which?"))
        interleaved.append(mixed.choose(observation, _may()))
    assert interleaved == answers


def test_a_card_that_only_allows_repetition_is_not_reported_as_a_loop(
        may_map: lt.Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    """A "you may" that starts itself again ends when a bot says no; the old bots, saying yes every time, ran it
    into the engine's question bound (lowered here, so that the old way fails fast)."""
    report = sweep.sweep(may_map, [("map", "Cook"), ("map", "Wind Nymph")], games=3)
    assert not report.failures and [r.games for r in report.solo] == [3, 3, 3]
    assert [r.games for r in report.pairs] == [3, 3]

    monkeypatch.setattr(driver, "question_limit", lambda rules, players: 40 * players)
    monkeypatch.setattr(sweep, "_Varied", _Steady)
    steady = sweep.play_card(may_map, "map", 3)
    assert steady.failure is not None and steady.failure.kind == "loop"


def test_a_card_failing_alone_is_reported_once_and_kept_out_of_the_pairs(
        galecrest: lt.Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundled card that fails alone (here: every game featuring a Cook fails) cannot leave the rules: it
    is reported once, its pairs are skipped, and the other pairs' positions deal it to nobody."""
    real_play, real_position = sweep._play, focus.focused_position
    built: list[focus.FocusedPosition] = []

    def failing(rules: lt.Rules, position: focus.FocusedPosition, bot_seed: int, *, to_end: bool) -> Any:
        if any(p.name == "Cook" for p in position.featured):
            raise sweep._Failed("error", "injected: a Cook is featured", [])
        return real_play(rules, position, bot_seed, to_end=to_end)

    def spy(*args: Any, **kwargs: Any) -> focus.FocusedPosition:
        built.append(real_position(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(sweep, "_play", failing)
    monkeypatch.setattr(sweep, "focused_position", spy)
    pairs = [("Cook", "Witch"), ("Witch", "Wind Nymph"), ("Wind Nymph", "Cook"), ("Witch", "Carpenter")]
    report = sweep.sweep(galecrest, pairs, games=2)
    (failure,) = report.failures
    assert failure.cards == ("Cook",) and failure.variant == sweep.ALONE and "injected" in failure.message
    assert report.left_out == ("Cook",) and report.kept_out == ("Cook",) and report.dropped == ()
    assert [r.skipped for r in report.pairs] == ["Cook fails alone", None, "Cook fails alone", None]
    assert [r.games for r in report.pairs] == [0, 2, 0, 2]
    paired = [p for p in built if len(p.featured) == 2]
    assert len(paired) == 4
    for position in paired:
        for seat in position.setup["players"]:
            assert "Cook" not in seat["hand"] + seat["ship"] + seat["graveyard"]


def test_excluded_characters_are_dealt_to_nobody(galecrest: lt.Rules) -> None:
    """``focused_position(exclude=...)``: no hand, ship or graveyard of the position holds an excluded card."""
    excluded = {"Cook", "Carpenter", "Barkeep", "Mutineer"}
    dealt = set()
    for n in range(30):
        position = focus.focused_position(galecrest, None, ["Witch"], rng=random.Random(n), exclude=excluded)
        for seat in position.setup["players"]:
            dealt.update(seat["hand"] + seat["ship"] + seat["graveyard"])
    assert "Witch" in dealt and len(dealt) > 20 and not dealt & excluded
