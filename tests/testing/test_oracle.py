"""The contract oracle reads the rules, not the engine (issue 32, deliver 5): planted bugs and the facts it checks."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import libertalia as lt
from libertalia.agents import RandomAgent
from libertalia.engine.program import actions as act
from libertalia.engine.program import conditions as cond
from libertalia.engine.program import loot
from libertalia.engine.work import Frame, Work
from libertalia.state import CardRef
from libertalia.testing.contracts import (
    ContractReport,
    FuzzText,
    StepViolation,
    Tracer,
    fuzz_contracts,
    fuzz_texts,
    traced,
)
from libertalia.testing.contracts.oracle import View, seats, truth
from libertalia.testing.contracts.snapshot import Snap
from tests.helpers import galecrest, patches_engine
from tests.test_contracts import _mod

# ------------------------------------------------------------------ planted bugs
Plant = Callable[[pytest.MonkeyPatch, Counter[str]], None]


def _left_read_from_the_right(monkeypatch: pytest.MonkeyPatch, mattered: Counter[str]) -> None:
    """Loot "from the player on your left" read from the player on the right."""
    original = loot.LootPhrase.tokens

    def tokens(self: loot.LootPhrase, w: Work, f: Frame) -> list[loot.LootRef]:
        correct = original(self, w, f)
        if self.place != "left_player":
            return correct
        wrong = original(loot.LootPhrase(self.kinds, "right_player"), w, f)
        mattered["changed"] += wrong != correct
        return wrong

    monkeypatch.setattr(loot.LootPhrase, "tokens", tokens)


def _was_read_now(monkeypatch: pytest.MonkeyPatch, mattered: Counter[str]) -> None:
    """``it was …`` read as the character stands now instead of before its binder acted."""
    original = cond.IsLike.test

    def test(self: cond.IsLike, w: Work, f: Frame) -> bool | None:
        correct = original(self, w, f)
        if not self.past:
            return correct
        me = cond._card(f, self.slot)
        wrong = None if me is None else self.filter.fits(w, f, me)
        mattered["changed"] += wrong != correct
        return wrong

    monkeypatch.setattr(cond.IsLike, "test", test)


def _gain_one_too_many(monkeypatch: pytest.MonkeyPatch, mattered: Counter[str]) -> None:
    """``gain N doubloons`` gains N + 1."""
    original = act.GainCoins.act

    def act_(self: act.GainCoins, w: Work, f: Frame) -> int:
        nxt: int = original(self, w, f)
        if self.n > 0:
            w.gain(f.seat, 1)
            mattered["changed"] += 1
        return nxt

    monkeypatch.setattr(act.GainCoins, "act", act_)


PLANTS: dict[str, tuple[Plant, str]] = {
    "left read from the right": (_left_read_from_the_right,
                                 "sun: take every relic or barrel from the player on your left, then gain 1 doubloon."),
    "was read now": (_was_read_now,
                     "sun: discard the highest-ranked character on the island, then gain 3 doubloons if it was "
                     "on the island."),
    "gain off by one": (_gain_one_too_many, "moon: gain 2 doubloons."),
}


def _problems(report: ContractReport) -> str:
    return "\n\n".join(map(str, report.violations[:3]))


@patches_engine
@pytest.mark.parametrize("name", PLANTS)
def test_a_planted_bug_is_caught_where_its_form_is_played(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Each planted bug breaks a contract once a text with its form plays where the bug changes something."""
    plant, text = PLANTS[name]
    mattered: Counter[str] = Counter()
    plant(monkeypatch, mattered)
    report = fuzz_texts(galecrest(), [FuzzText(text, character=True, tile=False)], seed=4, to_end=False)
    assert mattered["changed"], f"the texts never reached the planted bug ({name})"
    assert report.broken, f"{name}: the bug changed {mattered['changed']} answers and no step broke its contract"


def _short_run() -> ContractReport:
    return fuzz_contracts(galecrest(), 16, seed=2026, every_context=False, to_end=False)


@functools.cache
def _unplanted() -> int:
    """What the short run finds with no bug planted (a bug of the engine's own counts in both runs)."""
    return _short_run().broken


@patches_engine
@pytest.mark.parametrize("name", PLANTS)
def test_a_short_generated_run_catches_the_planted_bugs_it_reaches(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """16 generated texts (seed 2026, one context each, the focus day only): the off-by-one gain is caught;
    the other two bugs are never reached, since no text spells their form (the generator's gap, not the
    oracle's), and a bug that changed nothing adds no alarm to the unplanted run's."""
    clean = _unplanted()
    plant, _ = PLANTS[name]
    mattered: Counter[str] = Counter()
    plant(monkeypatch, mattered)
    report = _short_run()
    shown = (f"{name}: the bug changed {mattered['changed']} answers; {report.broken} steps broke "
             f"({clean} unplanted)\n{_problems(report)}")
    if not mattered["changed"]:
        assert report.broken == clean, shown
    if name == "gain off by one":
        assert mattered["changed"] and report.broken > clean, shown


# ------------------------------------------------------------------ the seating, from the rules
def _view(players: int, seat: int, track: tuple[int, ...] = (), this: CardRef | None = None,
          just_took: tuple[tuple[CardRef, str], ...] = ()) -> View:
    empty: tuple[tuple[str, ...], ...] = ((),) * players
    snap = Snap(coins=(0,) * players, net=None, hand=empty, ship=empty, graveyard=empty, island=(), order=(),
                track=track, loot=empty, days=(), aside=(), just_took=just_took, bag=(), kept=empty, kept_loot=empty,
                extra=(), frames=(), queue=(), counter=0, marks=(), voyage=1, day=1, step="dusk", sub=0, cursor=0,
                commits=(), census=None, score=(0,) * players, removed=empty, undealt=(), ranks=(), solo=())
    return View(snap, galecrest(), seat, this, "c:Cook")


def test_the_player_on_your_left_is_the_next_seat_round_the_table() -> None:
    """Card-language "Players": left is the next seat, right the previous, both wrapping round the table."""
    assert seats("left", _view(4, 1)) == [2] and seats("right", _view(4, 1)) == [0]
    assert seats("left", _view(4, 3)) == [0] and seats("right", _view(4, 0)) == [3]
    assert seats("other", _view(3, 1)) == [0, 2] and seats("any", _view(3, 1)) == [0, 1, 2]


def test_adjacent_players_are_the_neighbours_and_one_opponent_counts_once() -> None:
    """R12: the adjacent players are the two seat neighbours; with two players the one opponent counts once."""
    assert seats("adjacent", _view(5, 0)) == [1, 4]
    assert seats("adjacent", _view(2, 1)) == [0]


def test_the_highest_reputation_is_the_rightmost_token() -> None:
    """Card-language "Places": the player with the highest reputation sits furthest right on the track."""
    view = _view(3, 0, track=(2, 0, 1))  # seat 2 leftmost, seat 1 rightmost
    assert seats("top", view) == [1] and seats("bottom", view) == [2]


def test_you_just_took_a_loot_means_a_token_of_any_kind() -> None:
    """Card-language "Loot": `a loot` names no kind, so any token taken counts; named kinds count only themselves."""
    cook: CardRef = (0, "Cook")
    took_a_map = _view(2, 0, this=cook, just_took=((cook, "map"),))

    def holds(*kinds: str) -> bool | None:
        return truth(cond.Condition(((cond.JustTook(frozenset(kinds)),),)), took_a_map)

    assert holds() and holds("map", "relic") and not holds("saber")
    assert not truth(cond.Condition(((cond.JustTook(frozenset()),),)), _view(2, 0, this=cook))


# ------------------------------------------------------------------ facts that hold whatever the words say
def _traced(text: str, setup: dict[str, Any]) -> list[StepViolation]:
    tracer = Tracer()
    game = lt.new_game(traced(_mod(text), tracer), 2, 0, setup=setup)
    game.play_out([RandomAgent(0), RandomAgent(1)])
    return tracer.violations


_SETUP = {"players": [{"hand": ["Fuzzed Corsair"], "doubloons": 3}, {"hand": ["Cook"], "doubloons": 3}]}


@patches_engine
def test_a_token_made_from_nothing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tokens only move: a step that adds a token to a player's loot from nowhere breaks the law of every step."""
    original = act.GainCoins.act

    def forge(self: act.GainCoins, w: Work, f: Frame) -> int:
        w.seats[f.seat].loot.append("map")
        nxt: int = original(self, w, f)
        return nxt

    monkeypatch.setattr(act.GainCoins, "act", forge)
    problems = [p for v in _traced("sun: gain 2 doubloons.", _SETUP) for p in v.problems]
    assert any("tokens appeared (1 x map)" in p and "tokens only move" in p for p in problems)


@patches_engine
def test_a_mark_that_says_you_did_when_nothing_changed_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """``you did`` is whether the step changed the game: a mark that claims a deed nothing shows breaks the law."""
    original = act.Discard.act

    def boast(self: act.Discard, w: Work, f: Frame) -> int:
        nxt: int = original(self, w, f)
        if self.mark >= 0 and f.marks[self.mark] == ((), (), 0, False):
            f.marks[self.mark] = ((), (), 0, True)
        return nxt

    monkeypatch.setattr(act.Discard, "act", boast)
    text = "sun: discard a character in your ship, then gain 1 doubloon if you did."  # the ship is empty
    problems = [p for v in _traced(text, _SETUP) for p in v.problems]
    assert any("its mark says it did something, but it changed nothing" in p for p in problems)
