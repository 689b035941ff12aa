"""``observation="compact"``: the dense vector's non-zero entries as (index, value) pairs, padded to a length the
rules fix (``compact_length``); the same information as the dense vector, and no more (issue 36, item 3)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402 - only once the extra is known to be installed
from pettingzoo.test import api_test  # noqa: E402

import libertalia as lt  # noqa: E402
from libertalia.env import compact_length, env, observation_layout, raw_env, single_agent_env  # noqa: E402
from tests.test_env_fast_observe import _setups, quiet  # noqa: E402
from tests.test_env_fast_observe import rules as loaded  # noqa: E402


def decode(compact: dict[str, Any], size: int) -> np.ndarray[Any, Any]:
    """The dense vector back from its pairs: what a learner that wants it does."""
    x = np.zeros(size + 1, np.float32)
    x[compact["index"]] = compact["value"]
    return x[:size]


def _check(rules: lt.Rules, players: int, seed: int, loot_sides: bool) -> int:
    """A random game through a dense and a compact env in step: every seat's compact observation decodes to its
    dense vector, lies in its space, and lists the entries in index order; returns the observations checked."""
    dense = raw_env(rules, players, loot_sides=loot_sides)
    compact = raw_env(rules, players, observation="compact", loot_sides=loot_sides)
    for e in (dense, compact):
        quiet(lambda e=e: e.reset(seed=seed))
    size, length = dense.encoder.size, compact_length(rules, players, loot_sides=loot_sides)
    rng = np.random.default_rng(seed)
    checked = 0
    while not dense.game.is_over:
        for agent in dense.possible_agents:
            x = dense.observe(agent)["observation"]
            seen = compact.observe(agent)
            pairs = seen["observation"]
            assert compact.observation_space(agent).contains(seen)
            assert pairs["index"].shape == pairs["value"].shape == (length,)
            k = int(np.count_nonzero(x))
            assert np.all(np.diff(pairs["index"][:k]) > 0) and np.all(pairs["index"][k:] == size)
            assert np.all(pairs["value"][:k] != 0) and np.all(pairs["value"][k:] == 0)
            assert decode(pairs, size).tobytes() == x.tobytes()
            checked += 1
        action = int(rng.choice(np.flatnonzero(dense.observe(dense.agent_selection)["action_mask"])))
        dense.step(action)
        compact.step(action)
    return checked


@pytest.mark.parametrize(("edition", "loot", "players"), _setups())
def test_the_compact_observation_decodes_to_the_dense_vector(edition: str, loot: str | None, players: int) -> None:
    """Issue 36 item 3: scattering "value" at "index" gives the dense vector, bit for bit, every seat, every step."""
    rules = loaded(edition, loot)
    assert sum(_check(rules, players, seed, loot_sides=seed == 1) for seed in range(2)) > 50


def test_the_compact_length_is_shorter_than_the_vector() -> None:
    """Issue 36 item 3: the compact observation is under half the dense length (Galecrest, 2 to 6 seats, Classic 3)."""
    for edition, players in (("galecrest", 2), ("galecrest", 4), ("galecrest", 6), ("classic", 3)):
        rules = loaded(edition, None)
        size = max(s.stop for s in observation_layout(rules, players).values())
        assert 2 * compact_length(rules, players) < size


def test_a_seats_compact_observation_does_not_depend_on_anothers_secret_pick() -> None:
    """Issue 36 item 3: seat 1's compact observation is the same whichever character seat 0 committed."""
    galecrest = loaded("galecrest", None)
    start = lt.new_game(galecrest, 4, seed=5)
    picks = [start.choose(k).history[0] for k in start.legal_keys()[:2]]
    seen = []
    for pick in picks:
        e = raw_env(galecrest, 4, observation="compact")
        e.reset(seed=5)
        e.step(e.action(pick))
        seen.append(e.observe("seat_1")["observation"])
    assert picks[0] != picks[1]
    assert all(np.array_equal(seen[0][key], seen[1][key]) for key in ("index", "value"))


def test_other_seats_hidden_cards_are_absent_from_the_compact_observation() -> None:
    """Issue 36 item 3: no pair falls in another seat's hand or graveyard part; their sizes are there."""
    e = raw_env(loaded("galecrest", None), 3, observation="compact")
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(80):  # into the second voyage: graveyards have cards
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    layout = observation_layout(e.rules, 3)
    index = set(e.observe("seat_0")["observation"]["index"].tolist())
    for seat in (1, 2):
        for part in ("hand", "graveyard"):
            where = layout[f"seat_{seat}.{part}"]
            assert not index & set(range(where.start, where.stop))
        assert layout[f"seat_{seat}.hand_size"].start in index
    assert e.game.players[1].graveyard  # the hidden graveyard was not empty


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning",
                            "ignore:Observation is not a NumPy array:UserWarning")
def test_pettingzoo_api_test_passes_with_the_compact_observation() -> None:
    """Issue 36 item 3: PettingZoo's api_test accepts the env with observation="compact"."""
    quiet(lambda: api_test(env(loaded("galecrest", None), 3, observation="compact"), num_cycles=100))


def test_the_single_agent_env_gives_the_compact_dict() -> None:
    """Issue 36 item 3: single_agent_env's observation is the compact dict, in its Dict space, at reset and step."""
    e = single_agent_env("galecrest", 3, opponents="first", observation="compact")
    observation, _ = e.reset(seed=2)
    assert e.observation_space.contains(observation)
    observation, *_ = e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert e.observation_space.contains(observation) and set(observation) == {"index", "value"}
