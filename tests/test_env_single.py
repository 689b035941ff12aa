"""libertalia.env.single_agent_env and vector_env: one learning seat against fixed opponents, as a
gymnasium.Env (issue 36); the scaled observation and the loot-sides part of the vector."""

from __future__ import annotations

import pytest

import libertalia as lt

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from libertalia.env import (  # noqa: E402
    final_rewards,
    observation_bounds,
    observation_layout,
    raw_env,
    single_agent_env,
    vector_env,
)


def _episode(env: object, seed: int, pick: int = 0) -> list[tuple[object, ...]]:
    """Every (seat, observation bytes, mask bytes, reward, done) of one episode, the learner answering
    the ``pick``-th offered action (wrapping round)."""
    obs, info = env.reset(seed=seed)
    trail = [(info["seat"], obs.tobytes(), env.action_masks().tobytes())]
    done = False
    while not done:
        offered = np.flatnonzero(env.action_masks())
        obs, reward, done, truncated, info = env.step(int(offered[pick % len(offered)]))
        trail.append((info["seat"], obs.tobytes(), info["action_mask"].tobytes(), reward, done, truncated))
    return trail


@pytest.mark.parametrize("kwargs", [
    {},
    {"players": 3, "loot": "uncharted", "observation": "scaled", "opponents": ["first", "greedy"]},
    {"players": 1, "opponents": []},
], ids=["default", "scaled-uncharted-3", "solo"])
def test_gymnasium_check_env_passes(kwargs: dict[str, object]) -> None:
    """gymnasium's own env checker (spaces, reset and step signatures, seeding determinism) passes."""
    check_env(single_agent_env(**kwargs), skip_render_check=True)


def test_the_same_seed_plays_the_same_episodes_and_seats_are_drawn() -> None:
    """Determinism: reset(seed) fixes seat, game and opponents; with seat=None the seat varies by episode."""
    a = single_agent_env(players=4, opponents=["random", "first", "random"])
    b = single_agent_env(players=4, opponents=["random", "first", "random"])
    assert _episode(a, 11, 1) == _episode(b, 11, 1)
    seats = {single_agent_env(players=4).reset(seed=s)[1]["seat"] for s in range(20)}
    assert seats == {0, 1, 2, 3}
    fixed = single_agent_env(players=4, seat=2)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(5)} == {2}


def test_the_learner_is_asked_only_at_its_seat_with_the_offered_mask() -> None:
    """Each step returns at the learner's own decision, and action_masks() is exactly the keys offered."""
    env = single_agent_env(players=4, seat=1, opponents="first")
    env.reset(seed=3)
    while True:
        d = env.game.decision
        assert d.player == 1
        offered = {env.aec.keys[i] for i in np.flatnonzero(env.action_masks())}
        assert offered == {o.key for o in d.options}
        _, reward, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if done:
            assert reward == final_rewards(env.game, "win")[1]
            break


def test_opponents_may_be_bot_names_agents_or_functions() -> None:
    """An opponent is a bot name, an agent (choose) or a function (vector, mask) -> action; each is asked."""
    calls: list[tuple[int, int]] = []

    def last_offered(vector: object, mask: object) -> int:
        calls.append((len(vector), len(mask)))
        return int(np.flatnonzero(mask)[-1])

    env = single_agent_env(players=3, seat=0, opponents=[lt.agents.FirstOptionAgent(), last_offered])
    _episode(env, 4)
    size, actions = env.observation_space.shape[0], env.action_space.n
    assert calls and set(calls) == {(size, actions)}


@pytest.mark.parametrize("kwargs, message", [
    ({"opponents": ["first"]}, "3 opponents are needed"),
    ({"opponents": "grumpy"}, "unknown bot"),
    ({"opponents": 3}, "a bot name, an agent or a function"),
    ({"seat": 4}, "seat must be None"),
    ({"observation": "sparse"}, "'dense', 'scaled' or 'compact'"),
    ({"illegal": "ignore"}, "'end' or 'raise'"),
])
def test_bad_arguments_are_refused_with_the_reason(kwargs: dict[str, object], message: str) -> None:
    """Arguments are checked when the env is made, each refusal saying what is accepted."""
    with pytest.raises((ValueError, TypeError), match=message):
        single_agent_env(players=4, **kwargs)


def test_an_action_not_offered_ends_the_episode_or_raises() -> None:
    """illegal="end" ends the episode with -1 (PettingZoo's convention); illegal="raise" raises IllegalChoice."""
    env = single_agent_env(players=2, seat=0, opponents="first")
    env.reset(seed=1)
    refused = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, done, _, info = env.step(refused)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(refused)
    strict = single_agent_env(players=2, seat=0, opponents="first", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(lt.IllegalChoice):
        strict.step(refused)


@pytest.mark.parametrize("edition, loot, players", [("galecrest", "uncharted", 4), ("classic", None, 3),
                                                    ("galecrest", None, 1)])
def test_the_scaled_vector_is_the_dense_one_over_its_bounds(edition: str, loot: str | None, players: int) -> None:
    """observation="scaled" is min(dense / observation_bounds, 1) at every step, so it lies in [0, 1]."""
    rules = lt.load_rules(edition, loot=loot)
    dense, scaled = raw_env(rules, players), raw_env(rules, players, observation="scaled")
    bounds = observation_bounds(rules, players)
    assert bounds.min() >= 1 and len(bounds) == dense.encoder.size
    agent = lt.agents.RandomAgent(2)
    for e in (dense, scaled):
        e.reset(seed=9)
    while not dense.game.is_over:
        for a in dense.possible_agents:
            x, y = dense.observe(a)["observation"], scaled.observe(a)["observation"]
            assert np.array_equal(y, np.minimum(x / bounds, 1).astype(np.float32))
            assert y.min() >= 0 and y.max() <= 1 and scaled.observation_space(a).contains(scaled.observe(a))
        d = dense.game.decision
        action = dense.action(agent.choose(dense.game.observation(d.player), d))
        dense.step(action)
        scaled.step(action)


def test_the_loot_sides_part_shows_the_sides_each_game_drew() -> None:
    """loot_sides=True appends one flag per uncharted (kind, side); exactly the game's drawn sides are set."""
    rules = lt.load_rules("galecrest", loot="uncharted")
    env = raw_env(rules, 3, loot_sides=True)
    part = observation_layout(rules, 3, loot_sides=True)["loot_sides"]
    names = [(kind, spec.side) for kind, specs in rules.uncharted.items() for spec in specs]
    assert part.stop == env.encoder.size and part.stop - part.start == len(names)
    drawn = set()
    for seed in range(6):
        env.reset(seed=seed)
        flags = env.observe("seat_1")["observation"][part]
        shown = {names[i] for i in np.flatnonzero(flags)}
        assert shown == {(k, s) for k, s in env.game.rules.loot_sides.items() if k in rules.uncharted}
        drawn.add(frozenset(shown))
    assert len(drawn) > 1
    fixed = observation_layout(lt.load_rules("galecrest"), 3, loot_sides=True)["loot_sides"]
    assert fixed.start == fixed.stop  # fixed sides: the rules say them, the part is empty


def test_a_vector_env_steps_many_games_in_one_process() -> None:
    """vector_env(n) steps n games together (gymnasium's SyncVectorEnv, reset in the same step), one mask row
    per game, deterministic under reset(seed)."""
    envs = vector_env(3, players=4, opponents="first")
    obs, info = envs.reset(seed=5)
    assert obs.shape == (3, envs.single_observation_space.shape[0])
    seen, ended = [], 0
    for _ in range(150):
        masks = envs.action_masks()
        assert masks.shape == (3, envs.single_action_space.n) and (masks.sum(axis=1) > 0).all()
        actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
        obs, rewards, done, truncated, info = envs.step(actions)
        seen.append(obs.tobytes())
        ended += int(done.sum())
    assert ended >= 3  # games ended and were reset in the same step, their masks still offering actions
    again = vector_env(3, players=4, opponents="first")
    again.reset(seed=5)
    for first in seen:
        masks = again.action_masks()
        obs, *_ = again.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
        assert obs.tobytes() == first


def test_render_shows_the_learners_table() -> None:
    """render_mode="ansi" returns Game.render for the learner's seat (whichever seat was drawn)."""
    env = single_agent_env(players=3, opponents="first", render_mode="ansi")
    _, info = env.reset(seed=8)
    assert env.render() == env.game.render(info["seat"])
