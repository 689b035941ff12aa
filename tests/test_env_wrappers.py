"""env()'s wrappers: PettingZoo's own, made cheap, checking and answering exactly what the stock ones do."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402 - only once the extra is known to be installed
from pettingzoo.utils import wrappers  # noqa: E402

from libertalia.env import env, raw_env  # noqa: E402
from tests.test_env import quiet, rules  # noqa: E402


def stock(players: int) -> Any:
    """``env()`` as PettingZoo's wrappers make it, unchanged."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(rules("galecrest"), players)))


def outcome(call: Callable[[], Any]) -> tuple[str, str]:
    """What ``call`` gives, as text: its value's repr, or its exception's type and message, and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = call()
            result = ("value", repr(value) if not isinstance(value, dict) else repr(sorted(value)))
        except Exception as exc:  # noqa: BLE001 - the very exception is what is compared
            result = (type(exc).__name__, str(exc))
    return result[0], result[1] + "".join(f" / warned {w.message}" for w in caught)


READS = ["agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "num_agents",
         "_cumulative_rewards", "possible_agents", "max_num_agents", "_private"]


def test_they_are_pettingzoos_wrappers_and_show_the_envs_name() -> None:
    """isinstance checks on PettingZoo's wrapper classes still hold, and the env shows its own name."""
    e = env(rules("galecrest"), 4)
    assert isinstance(e, wrappers.OrderEnforcingWrapper) and isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert str(e) == str(stock(4)) == "libertalia_v0"


def test_before_reset_every_read_and_call_fails_as_the_stock_wrappers_fail() -> None:
    """Calls out of order: the same error or warning as PettingZoo's OrderEnforcingWrapper gives."""
    ours, theirs = env(rules("galecrest"), 4), stock(4)
    for name in READS:
        assert outcome(lambda: getattr(ours, name)) == outcome(lambda: getattr(theirs, name)), name  # noqa: B023
    calls: list[Callable[[Any], Any]] = [lambda e: e.step(0), lambda e: e.observe("seat_0"), lambda e: e.last(),
                                         lambda e: e.render(), lambda e: next(iter(e.agent_iter())),
                                         lambda e: e.action_space("seat_0")]
    for call in calls:
        assert outcome(lambda: call(ours)) == outcome(lambda: call(theirs))  # noqa: B023


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_a_game_reads_and_steps_as_through_the_stock_wrappers(players: int) -> None:
    """Every ``last()``, read and step of random games, dead steps and a step after the end included."""
    ours, theirs = env(rules("galecrest"), players), stock(players)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        quiet(lambda: (ours.reset(seed=seed), theirs.reset(seed=seed)))  # noqa: B023
        for agent, other in zip(ours.agent_iter(), theirs.agent_iter(), strict=True):
            assert agent == other
            mine, stocks = ours.last(), theirs.last()
            assert np.array_equal(mine[0]["observation"], stocks[0]["observation"])
            assert np.array_equal(mine[0]["action_mask"], stocks[0]["action_mask"])
            assert mine[1:] == stocks[1:]
            for name in READS[:-1]:
                assert outcome(lambda: getattr(ours, name)) == outcome(lambda: getattr(theirs, name))  # noqa: B023
            terminated = mine[2]
            action = None if terminated else int(rng.choice(np.flatnonzero(mine[0]["action_mask"])))
            ours.step(action)
            theirs.step(action)
        assert outcome(lambda: ours.step(None)) == outcome(lambda: theirs.step(None))  # no agents left: a warning


@pytest.mark.parametrize("action", [-1, 10**6, 2**70, True, 1.0, "1", None, np.int64(-1), np.int8(1)])
def test_a_bad_action_is_refused_as_the_stock_wrappers_refuse_it(action: object) -> None:
    """An action out of range or of the wrong type: refused as AssertOutOfBoundsWrapper refuses it."""
    ours, theirs = env(rules("galecrest"), 4), stock(4)
    for e in (ours, theirs):
        e.reset(seed=3)
    assert outcome(lambda: ours.step(action)) == outcome(lambda: theirs.step(action))


def test_a_numpy_action_in_range_answers_as_through_the_stock_wrappers() -> None:
    """A numpy integer in range takes the stock check and answers the same key."""
    ours, theirs = env(rules("galecrest"), 4), stock(4)
    for e in (ours, theirs):
        e.reset(seed=3)
        e.step(np.int64(e.unwrapped.action(e.unwrapped.game.legal_keys()[0])))
    assert ours.unwrapped.game.history == theirs.unwrapped.game.history
