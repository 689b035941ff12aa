"""The env's action space (``env.spaces.MaskedDiscrete``): gymnasium's draws, checks and errors, cheaper."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402 - only once the extra is known to be installed
import numpy as np  # noqa: E402

from libertalia.env import env, single_agent_env  # noqa: E402
from libertalia.env.spaces import MaskedDiscrete  # noqa: E402


def _masks(n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = [np.zeros(n, np.int8), np.ones(n, np.int8)]
    for k in (1, 2, 3, 7, 40):
        mask = np.zeros(n, np.int8)
        mask[rng.choice(n, k, replace=False)] = 1
        out.append(mask)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_a_masked_sample_is_gymnasiums_draw_for_the_same_seed(seed: int) -> None:
    """PettingZoo's loop (``action_space(agent).sample(mask)``): the same actions as gymnasium's ``Discrete``, in
    order, from the same seed, with the generator left where gymnasium leaves it; also with a ``start``."""
    for start in (0, 5):
        ours, theirs = MaskedDiscrete(60, seed=seed, start=start), gymnasium.spaces.Discrete(60, seed=seed, start=start)
        for mask in _masks(60, seed) * 3:
            a, b = ours.sample(mask), theirs.sample(mask)
            assert a == b and type(a) is type(b)
        assert ours.np_random.bit_generator.state == theirs.np_random.bit_generator.state


def test_an_unusual_mask_gets_gymnasiums_own_checks_and_draws() -> None:
    """A mask gymnasium refuses is refused the same way; no mask, or a probability mask, draws as gymnasium draws."""
    ours, theirs = MaskedDiscrete(6, seed=3), gymnasium.spaces.Discrete(6, seed=3)
    for bad in (np.array([0, 2, 1, 0, 0, 0], np.int8), np.zeros(5, np.int8), np.zeros(6, np.int64), [0, 1, 0, 0, 0, 0]):
        with pytest.raises(AssertionError):
            ours.sample(bad)  # type: ignore[arg-type]
    p = np.array([0.5, 0.5, 0, 0, 0, 0])
    assert [ours.sample(), ours.sample(probability=p)] == [theirs.sample(), theirs.sample(probability=p)]
    assert ours == theirs and isinstance(ours, gymnasium.spaces.Discrete)


def test_the_envs_spaces_draw_legal_actions() -> None:
    """Both envs' action spaces are ``MaskedDiscrete``: a sample from the mask is always a legal action."""
    e = env("galecrest", 3)
    e.reset(seed=2)
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        space = e.action_space(agent)
        assert type(space) is MaskedDiscrete
        action = space.sample(observation["action_mask"])
        assert observation["action_mask"][action] == 1
        e.step(action)
    single = single_agent_env("galecrest", 3, seat=0, opponents="random")
    assert type(single.action_space) is MaskedDiscrete
