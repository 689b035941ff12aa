"""Threads: any ``Game``, the newest of a ``choose`` line included, answers as it would serially."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import libertalia as lt
from libertalia.engine import flow
from libertalia.engine.work import Frame, Work


@pytest.fixture(scope="module")
def rules() -> lt.Rules:
    return lt.load_rules("galecrest")


@contextmanager
def _switch_often() -> Iterator[None]:
    """Threads switch every microsecond, so that races show in a few hundred operations."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _at_once(tasks: list[Callable[[], Any]]) -> list[Any]:
    """Run every task on its own thread, all released together; their results in task order."""
    barrier = threading.Barrier(len(tasks))
    results: list[Any] = [None] * len(tasks)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = tasks[i]()
        except BaseException as e:  # noqa: BLE001 - reported by the test below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(tasks))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    return results


def _newest(rules: lt.Rules, seed: int, depth: int) -> lt.Game:
    """The newest game of a choose() line ``depth`` answers long: it owns the working copy."""
    game = lt.new_game(rules, 4, seed=seed)
    for i in range(depth):
        keys = game.legal_keys()
        game = game.choose(keys[(seed * 7 + i) % len(keys)])
    return game


def _child(game: lt.Game, key: str) -> tuple[lt.GameState, str]:
    child = game.choose(key)
    return child.state, child.to_json()


def _played_out(game: lt.Game) -> tuple[int, ...]:
    return game.play_out([lt.agents.RandomAgent(seat) for seat in range(4)]).final_scores()


def _tasks(game: lt.Game, keys: tuple[str, ...]) -> list[Callable[[], Any]]:
    """Eight calls on ``game`` at once: four answers (a key may repeat), two readings and saves, two play-outs."""
    tasks: list[Callable[[], Any]] = []
    for i in range(8):
        key = keys[i % len(keys)]
        if i % 4 in (0, 2):
            tasks.append(lambda key=key: ("child", key, _child(game, key)))
        elif i % 4 == 1:
            tasks.append(lambda: ("state", None, (game.state, game.to_json(), game.history)))
        else:
            tasks.append(lambda: ("out", None, _played_out(game)))
    return tasks


def test_threads_answering_reading_and_saving_the_newest_game_agree_with_serial(rules: lt.Rules) -> None:
    """Eight threads answer, read, save and play out one newest game: children, parent and saves as serially."""
    with _switch_often():
        for trial in range(24):
            seed, depth = trial % 4, 8 + 3 * trial
            serial = _newest(rules, seed, depth)
            keys = serial.legal_keys()
            want_children = {key: _child(serial, key) for key in keys}
            want_state, want_out = serial.state, _played_out(serial)

            game = _newest(rules, seed, depth)
            for kind, key, got in _at_once(_tasks(game, keys)):
                where = f"seed {seed}, {depth} answers, {kind} {key or ''}"
                if kind == "child":
                    assert got[0] == want_children[key][0], where
                    assert lt.Game.from_json(got[1], game.rules).state == got[0], where
                elif kind == "state":
                    assert got[0] == want_state and got[2] == want_state.history, where
                    assert got[1] == serial.to_json(), where
                else:
                    assert got == want_out, where
            assert game.state == want_state, f"seed {seed}, {depth} answers: the parent changed"


def test_compiled_amounts_share_nothing_between_games_on_threads(rules: lt.Rules) -> None:
    """"Doubloons up to 12" reads its own seat's doubloons, whatever other games run the same card at once."""
    officer = rules.card("Officer").compiled[0]
    state = lt.new_game(rules, 4, seed=3).state

    def officer_for(seat: int) -> bool:
        w = Work(rules, state)
        for _ in range(3000):
            for other, p in enumerate(w.seats):
                p.coins = 3 * other  # every seat below 12, each by a different amount
            flow.run_direct(w, Frame("c:Officer", 0, seat, (seat, "Officer"), officer.code, (seat, "Officer")))
            if w.seats[seat].coins != 12:
                return False
        return True

    with _switch_often():
        assert all(_at_once([lambda seat=seat: officer_for(seat) for seat in range(4)]))
