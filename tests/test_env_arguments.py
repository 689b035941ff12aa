"""libertalia.env checks its arguments: no float, bool or string becomes an action, and nothing runs before reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402 - only once the extra is known to be installed

import libertalia as lt  # noqa: E402
from libertalia.env import LibertaliaEnv, action_keys, final_rewards, observation_layout, raw_env  # noqa: E402


@pytest.fixture(scope="module")
def rules() -> lt.Rules:
    return lt.load_rules("galecrest")


def _started(rules: lt.Rules) -> LibertaliaEnv:
    e = raw_env(rules, 4)
    e.reset(seed=1)
    return e


@pytest.mark.parametrize("action", [1.5, 1.0, True, False, "0", None, [0], np.float64(2.0), np.bool_(True)])
def test_an_action_that_is_no_integer_is_a_type_error(rules: lt.Rules, action: object) -> None:
    """step(1.5), step(True), step("0"), step(None) for a live agent: TypeError naming the action; the game stays."""
    e = _started(rules)
    before = e.game
    with pytest.raises(TypeError, match=r"step \(seat_\d\): action must be an integer from 0 to \d+, not"):
        e.step(action)  # type: ignore[arg-type]
    assert e.game is before


def test_integer_actions_of_every_kind_answer(rules: lt.Rules) -> None:
    """An int, a numpy integer and a 0-d integer array (what Discrete.contains takes) all answer the same."""
    games = []
    for wrap in (int, np.int64, np.int32, lambda i: np.array(i)):
        e = _started(rules)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(wrap(int(np.flatnonzero(mask)[0])))
        games.append(e.game)
    assert all(g == games[0] for g in games) and games[0].history


@pytest.mark.parametrize("index", [-1, -300, 10**6])
def test_an_index_outside_the_space_is_an_argument_error(rules: lt.Rules, index: int) -> None:
    """Negative indexes no longer count from the end: key(-1) and step(-1) are refused (ArgumentError, a ValueError)."""
    e = _started(rules)
    with pytest.raises(lt.ArgumentError, match="action must be an integer from 0 to"):
        e.step(index)
    with pytest.raises(lt.ArgumentError, match="action must be an integer from 0 to"):
        e.key(index)


def test_nothing_runs_before_reset(rules: lt.Rules) -> None:
    """step, observe and render before reset say to call reset() first (no AttributeError)."""
    e = raw_env(rules, 4, render_mode="ansi")
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        e.step(0)
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        e.observe("seat_0")
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        e.render()


Case = tuple[Callable[[lt.Rules], Any], type[Exception], str]
CASES: dict[str, Case] = {
    "env(5)": (lambda r: raw_env(5), TypeError, "rules must be Rules, an edition name"),  # type: ignore[arg-type]
    "env(players='4')": (lambda r: raw_env(r, "4"), TypeError, "players must be a whole number"),  # type: ignore[arg-type]
    "env(players=True)": (lambda r: raw_env(r, True), TypeError, "players must be a whole number"),
    "env(log='yes')": (lambda r: raw_env(r, 4, log="yes"), TypeError, "log must be True or False"),  # type: ignore[arg-type]
    "observe('seat_9')": (lambda r: _started(r).observe("seat_9"), lt.ArgumentError, "no agent 'seat_9'"),
    "observe(0)": (lambda r: _started(r).observe(0), TypeError, "agent must be an agent name"),  # type: ignore[arg-type]
    "action_space('x')": (lambda r: _started(r).action_space("x"), lt.ArgumentError, "no agent 'x'"),
    "observation_space(None)": (lambda r: _started(r).observation_space(None), TypeError,  # type: ignore[arg-type]
                                "agent must be"),
    "key(1.0)": (lambda r: _started(r).key(1.0), TypeError, "action must be an integer"),  # type: ignore[arg-type]
    "action('nope')": (lambda r: _started(r).action("nope"), lt.ArgumentError, "'nope' is no answer key"),
    "action(3)": (lambda r: _started(r).action(3), TypeError, "key must be an answer key"),  # type: ignore[arg-type]
    "reset(seed=-1)": (lambda r: raw_env(r, 4).reset(seed=-1), lt.SetupError, "from 0 to 2**64 - 1"),
    "reset(seed=2**64)": (lambda r: raw_env(r, 4).reset(seed=2**64), lt.SetupError, "from 0 to 2**64 - 1"),
    "reset(seed=1.0)": (lambda r: raw_env(r, 4).reset(seed=1.0), lt.SetupError, "not 1.0 (float)"),  # type: ignore[arg-type]
    "reset(options=5)": (lambda r: raw_env(r, 4).reset(options=5), TypeError, "options must be a dict"),  # type: ignore[arg-type]
    "final_rewards(started)": (lambda r: final_rewards(lt.new_game(r, 4), "win"), lt.ArgumentError, "not over"),
    "final_rewards(None)": (lambda r: final_rewards(None, "win"), TypeError, "game must be a Game"),  # type: ignore[arg-type]
    "action_keys(None, 4)": (lambda r: action_keys(None, 4), TypeError, "action_keys: rules must be"),  # type: ignore[arg-type]
    "action_keys(r, 4.0)": (lambda r: action_keys(r, 4.0), TypeError, "players must be a whole number"),  # type: ignore[arg-type]
    "observation_layout(r, 9)": (lambda r: observation_layout(r, 9), lt.ArgumentError, "2 to 6 players"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_bad_env_argument_is_named_in_a_clear_error(rules: lt.Rules, name: str) -> None:
    """Each bad argument of the env and its helpers raises its TypeError or library error, naming it."""
    call, error, words = CASES[name]
    with pytest.raises(Exception) as caught:  # noqa: PT011 - the exact class is checked below
        call(rules)
    assert isinstance(caught.value, error) and not isinstance(caught.value, IndexError | KeyError | AttributeError), \
        f"{type(caught.value).__name__}: {caught.value}"
    assert words in str(caught.value), str(caught.value)
