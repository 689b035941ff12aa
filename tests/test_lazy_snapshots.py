"""Lazy snapshots: games of a ``choose`` line share one working copy, yet each reads as if frozen at once."""

from __future__ import annotations

import pickle
import threading

import pytest

import libertalia as lt
from libertalia.engine.work import Work
from libertalia.game import _answer


@pytest.fixture(scope="module")
def rules() -> lt.Rules:
    return lt.load_rules("galecrest")


def _line(rules: lt.Rules, seed: int, players: int = 4) -> list[lt.Game]:
    """Every game of one random choose() line, none of them read along the way."""
    game = lt.new_game(rules, players, seed=seed)
    line = [game]
    while game.decision is not None:
        keys = game.legal_keys()
        game = game.choose(keys[(seed * 7 + len(line)) % len(keys)])
        line.append(game)
    return line


def _eager(rules: lt.Rules, first: lt.Game, history: tuple[str, ...]) -> list[lt.GameState]:
    """The same line frozen after every answer, the way choose() once worked."""
    states = [first.state]
    for key in history[len(first.state.history):]:
        w = Work(first.rules, states[-1])
        w.decision = states[-1].decision
        _answer(w, key)
        states.append(w.freeze())
    return states


@pytest.mark.parametrize("newest_first", [False, True])
def test_every_game_of_a_line_reads_as_if_frozen_at_once(rules: lt.Rules, newest_first: bool) -> None:
    """Old games rebuild their own state (in any order of reading), equal to an eager snapshot."""
    line = _line(rules, seed=4)
    expected = _eager(rules, line[0], line[-1].history)
    order = range(len(line) - 1, -1, -1) if newest_first else range(len(line))
    for i in order:
        assert line[i].state == expected[i]
        assert line[i].decision == expected[i].decision
    assert line[-1].is_over and not any(g.is_over for g in line[:-1])


def test_choose_stays_pure_when_branching_from_an_old_game(rules: lt.Rules) -> None:
    """Answering a game twice, before or after its line moved on, gives equal games."""
    line = _line(rules, seed=9)
    middle = line[40]
    key = middle.legal_keys()[0]
    a = middle.choose(key)
    b = middle.choose(key)
    assert a == b and a.state == b.state
    assert middle.choose(middle.legal_keys()[-1]).history[-1] == middle.legal_keys()[-1]
    assert line[41].state.history[:len(middle.history)] == middle.history


def test_an_illegal_choice_leaves_the_newest_game_whole(rules: lt.Rules) -> None:
    """A refused key neither moves nor spoils the working copy the newest game owns."""
    game = lt.new_game(rules, 3, seed=1)
    game = game.choose(game.legal_keys()[0])
    with pytest.raises(lt.IllegalChoice):
        game.choose("no such card")
    after = game.choose(game.legal_keys()[0])
    assert after.history == game.history + (game.legal_keys()[0],)
    assert after.state == _eager(rules, game, after.history)[-1]


def test_threads_answering_one_game_all_get_the_same_game(rules: lt.Rules) -> None:
    """Only one caller takes the working copy over; the others rebuild, with the same result."""
    game = lt.new_game(rules, 4, seed=6)
    for _ in range(30):
        game = game.choose(game.legal_keys()[-1])
    key = game.legal_keys()[0]
    results: list[lt.Game] = []

    def answer() -> None:
        results.append(game.choose(key))

    threads = [threading.Thread(target=answer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8 and all(r == results[0] for r in results)


def test_a_game_compares_and_hashes_by_its_state(rules: lt.Rules) -> None:
    """Equality, hashing and pickling see the state, never the working copy behind it."""
    line = _line(rules, seed=2)
    game = line[25]
    copy = lt.Game(rules.for_game(2), pickle.loads(pickle.dumps(game.state)))
    assert copy == game and hash(copy) == hash(game) and copy != line[26]
    assert repr(copy) == repr(game)
    with pytest.raises(AttributeError):
        game.rules = rules  # type: ignore[misc]
