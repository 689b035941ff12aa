"""The env steps the game's working copy through the compiled glue (``libertalia._envstep``) while nobody reads
``env.game``: the same games as ``Game.choose``, the same errors, and a game once read stays what it was."""

from __future__ import annotations

import copy
import pickle
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402 - only once the extra is known to be installed

import libertalia as lt  # noqa: E402
from libertalia.env import raw_env  # noqa: E402
from libertalia.env.aec import LibertaliaEnv  # noqa: E402
from tests.test_env import rules  # noqa: E402 - the same cached, warning-free loads


def _play(e: LibertaliaEnv, seed: int, steps: int | None = None) -> list[str]:
    """Step ``e`` with actions drawn from the mask (``steps`` of them, or to the end), never reading ``e.game``;
    the keys answered."""
    rng = np.random.default_rng(seed)
    keys: list[str] = []
    for agent in e.agent_iter():
        if steps is not None and len(keys) == steps:
            break
        if e.terminations[agent]:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"])))
        keys.append(e.keys[action])
        e.step(action)
    return keys


def _chosen(r: lt.Rules, players: int, seed: int, keys: list[str]) -> lt.Game:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game = lt.new_game(r, players, seed, log=False)
    for key in keys:
        game = game.choose(key)
    return game


@pytest.mark.parametrize(("edition", "players"), [("galecrest", 1), ("galecrest", 4), ("classic", 5)])
def test_an_env_game_is_the_choose_line_of_its_keys(edition: str, players: int) -> None:
    """Issue 36 item 2: stepped without reading ``game``, an env game is ``Game.choose`` of its keys, bit for bit."""
    r = rules(edition)
    e = raw_env(r, players)
    for seed in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            e.reset(seed=seed)
        keys = _play(e, seed)
        expected = _chosen(r, players, seed, keys)
        assert e.game.is_over and e.game.state == expected.state


def test_a_game_read_off_the_env_stays_what_it_was() -> None:
    """Issue 36 item 2: a ``Game`` read mid-way (``env.game``) is immutable: later steps leave it as it was, it
    still branches, and the env plays on the same game as if it had never been read."""
    r = rules("galecrest")
    e = raw_env(r, 4)
    e.reset(seed=7)
    first = _play(e, 7, 9)
    read = e.game
    assert read is e.game and read.history == tuple(first)
    more = _play(e, 8, 30)
    assert read.history == tuple(first) and read.state == _chosen(r, 4, 7, first).state
    branch = read.choose(read.legal_keys()[-1])
    assert branch.history == (*first, read.legal_keys()[-1])
    assert e.game.state == _chosen(r, 4, 7, first + more).state


def test_an_action_not_offered_changes_nothing() -> None:
    """Issue 36 item 2: on the compiled step a key not offered raises ``IllegalChoice`` naming the offered keys, as
    ``Game.choose`` does, and the game goes on unchanged."""
    r = rules("galecrest")
    e = raw_env(r, 4)
    e.reset(seed=4)
    before = _play(e, 4, 12)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(lt.IllegalChoice) as raised:
        e.step(bad)
    offered = _chosen(r, 4, 4, before).legal_keys()
    assert raised.value.key == e.keys[bad] and raised.value.legal == offered
    after = _play(e, 5)
    assert e.game.state == _chosen(r, 4, 4, before + after).state


def test_an_env_pickles_and_copies_mid_game() -> None:
    """Issue 36 item 2: mid-game, a pickled or copied env holds the game, not the working copy, and each twin plays
    on to the very game the original reaches with the same actions."""
    r = rules("galecrest")
    e = raw_env(r, 3)
    e.reset(seed=11)
    _play(e, 11, 20)
    twins: list[Any] = [pickle.loads(pickle.dumps(e)), copy.deepcopy(e)]
    ends = []
    for env in [e, *twins]:
        _play(env, 12)
        ends.append(env.game.state)
    assert ends[0] == ends[1] == ends[2]
