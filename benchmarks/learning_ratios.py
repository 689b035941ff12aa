"""What a learner's loop costs, as ratios measured in one process with batches alternated.

Run: ``python benchmarks/learning_ratios.py [--rounds 5] [--games 20] [--players 4]``.

Absolute rates drift on a shared machine; a ratio of two loops whose batches take turns in one
process does not, so each figure here is the median over rounds of one batch's rate over its
partner batch's, run back to back:

- ``env/play``: a game through the PettingZoo env (``env()``, each action drawn uniformly from
  the mask, the observation built every step as a policy reads it) over an ``lt.play`` game of
  the same seats with random agents (log off): how many ``lt.play`` games one env game costs.
  Issue 36's target (compiled build): at most 3.  The draw is the user's, not the env's, and is
  made as a PettingZoo user's loop makes it (numpy: ``rng.choice(np.flatnonzero(mask))``), so it
  is in the figure.  ``env/play py`` is the same loop drawing with Python's ``random.choice``
  over ``np.flatnonzero(mask).tolist()`` instead: the difference is what numpy's draw costs a
  loop (more than the same draws alone, on recorded masks, which ``sampling`` prints).
  ``env/play pz`` draws as PettingZoo's documented loop draws: ``env.action_space(agent).sample(mask)``
  (the env's ``MaskedDiscrete``: gymnasium's draw for the same seed, at a fraction of its cost).
- ``single/play``: the same for ``single_agent_env`` (one learner drawing from the mask, the
  other seats random bots inside the env).
- ``spiel/ttt``: ``python_libertalia`` steps per second over OpenSpiel's ``python_tic_tac_toe``
  steps per second, both random play-outs the way a user's loop runs them (a chance node
  sampled from ``chance_outcomes()`` with numpy, a decision drawn from ``legal_actions()``;
  every ``apply_action`` a step).  Issue 36's target (compiled build): at least 0.5.

The env and OpenSpiel figures need the ``rl`` and ``spiel`` extras; a figure whose packages are
missing is skipped.  Speed is measured here, never in the pass/fail tests.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from importlib import import_module
from importlib.util import find_spec
from typing import Any

import libertalia as lt

Batch = Callable[[int, int], int]
"""(first seed, games) -> steps taken; the games are played when called."""


def play_batch(rules: lt.Rules, players: int, log: bool = False) -> Batch:
    """``lt.play`` with random agents, log off by default (as the env plays): decisions counted as steps."""
    def run(seed0: int, games: int) -> int:
        steps = 0
        for seed in range(seed0, seed0 + games):
            agents = [lt.agents.RandomAgent(seed * 16 + i) for i in range(players)]
            steps += len(lt.play(rules, agents, seed=seed, log=log).history)
        return steps
    return run


def env_batch(rules: lt.Rules, players: int, draw: str = "numpy") -> Batch:
    """``env()`` driven by PettingZoo's loop, each action uniform among the mask's: drawn with numpy's
    ``rng.choice`` (``draw="numpy"``, as a PettingZoo user's loop draws), Python's ``random.choice``
    (``"python"``) or the agent's action space (``"space"``: ``action_space(agent).sample(mask)``, seeded once)."""
    import random

    import numpy as np

    from libertalia.env import env

    e = env(rules, players)
    for agent in e.possible_agents:  # seeded once, as a user's loop seeds them (gymnasium's seeding is costly)
        e.action_space(agent).seed(0)

    def run(seed0: int, games: int) -> int:
        steps = 0
        for seed in range(seed0, seed0 + games):
            rng = np.random.default_rng(seed)
            plain = random.Random(seed)
            e.reset(seed=seed)
            for agent in e.agent_iter():
                observation, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    e.step(None)
                elif draw == "space":
                    e.step(e.action_space(agent).sample(observation["action_mask"]))
                elif draw == "numpy":
                    e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                else:
                    e.step(plain.choice(np.flatnonzero(observation["action_mask"]).tolist()))
                steps += 1
        return steps
    return run


def env_masks(rules: lt.Rules, players: int, games: int) -> list[list[Any]]:
    """The masks an env game draws from, step by step, for ``games`` games (``sample_batch`` draws from them)."""
    import numpy as np

    from libertalia.env import env

    e = env(rules, players)
    out = []
    for seed in range(games):
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        masks = []
        for _ in e.agent_iter():
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            masks.append(observation["action_mask"])
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        out.append(masks)
    return out


def sample_batch(masks: list[list[Any]]) -> Batch:
    """``env_batch``'s draws alone, one recorded game's masks per game: numpy's draws with nothing else around them."""
    import numpy as np

    def run(seed0: int, games: int) -> int:
        steps = 0
        for seed in range(seed0, seed0 + games):
            rng = np.random.default_rng(seed)
            for mask in masks[seed % len(masks)]:
                int(rng.choice(np.flatnonzero(mask)))
                steps += 1
        return steps
    return run


def single_batch(rules: lt.Rules, players: int) -> Batch:
    """``single_agent_env`` with random opponents, the learner uniform among the mask's actions."""
    import numpy as np

    from libertalia.env import single_agent_env

    e = single_agent_env(rules, players, opponents="random")

    def run(seed0: int, games: int) -> int:
        steps = 0
        for seed in range(seed0, seed0 + games):
            rng = np.random.default_rng(seed)
            e.reset(seed=seed)
            done = False
            while not done:
                _, _, done, _, _ = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
                steps += 1
        return steps
    return run


def spiel_batch(name: str, params: dict[str, Any]) -> Batch:
    """Random play-outs of an OpenSpiel game as a user's loop runs them: chance sampled from its outcomes."""
    import numpy as np
    import pyspiel

    game = pyspiel.load_game(name, params)

    def run(seed0: int, games: int) -> int:
        steps = 0
        for seed in range(seed0, seed0 + games):
            rng = np.random.default_rng(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(actions, p=probs)))
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
                steps += 1
        return steps
    return run


def ratios(mine: Batch, games: int, base: Batch, base_games: int, rounds: int,
           per: str) -> tuple[list[float], list[float], list[float]]:
    """Each round's ratio of ``mine``'s rate over ``base``'s, their batches back to back.

    ``per="game"``: the cost of one of ``mine``'s games in ``base`` games (time per game over
    time per game); ``per="step"``: ``mine``'s steps per second over ``base``'s.  Also each
    round's two rates (games or steps per second) for the record.
    """
    mine(0, 1)
    base(0, 1)  # warm: rules, caches, imports
    each, a_rates, b_rates = [], [], []
    for r in range(rounds):
        t = time.perf_counter()
        a_steps = mine(1000 + r * games, games)
        a_time = time.perf_counter() - t
        t = time.perf_counter()
        b_steps = base(1000 + r * base_games, base_games)
        b_time = time.perf_counter() - t
        if per == "game":
            a, b = games / a_time, base_games / b_time
            each.append(b / a)
        else:
            a, b = a_steps / a_time, b_steps / b_time
            each.append(a / b)
        a_rates.append(a)
        b_rates.append(b)
    return each, a_rates, b_rates


def ratio(mine: Batch, games: int, base: Batch, base_games: int, rounds: int, per: str) -> tuple[float, float, float]:
    """Median over ``rounds`` of ``ratios``: the ratio, then the two median rates."""
    each, a_rates, b_rates = ratios(mine, games, base, base_games, rounds, per)
    return statistics.median(each), statistics.median(a_rates), statistics.median(b_rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=20, help="Libertalia games per batch")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--edition", default="galecrest")
    args = parser.parse_args()
    rules = lt.load_rules(args.edition)
    n, games, rounds = args.players, args.games, args.rounds
    engine = import_module("libertalia.engine.rng")
    build = "compiled" if str(engine.__file__).endswith((".so", ".pyd")) else "pure"
    print(f"{n} players, {args.edition}, {rounds} rounds, build {build}")
    if find_spec("pettingzoo") is None:
        print("env figures skipped: the rl extra is not installed")
    else:
        play = play_batch(rules, n)
        x, a, b = ratio(env_batch(rules, n), games, play, games, rounds, "game")
        print(f"{'env/play':12} one game costs {x:5.2f} lt.play games   ({a:6.1f} vs {b:6.1f} games/s)")
        y, a, b = ratio(env_batch(rules, n, "python"), games, play, games, rounds, "game")
        print(f"{'env/play py':12} one game costs {y:5.2f} lt.play games   (Python's random.choice: numpy's draws "
              f"cost the loop {x - y:.2f})")
        z, a, b = ratio(env_batch(rules, n, "space"), games, play, games, rounds, "game")
        print(f"{'env/play pz':12} one game costs {z:5.2f} lt.play games   (action_space(agent).sample(mask), "
              "as PettingZoo's loop draws)")
        drawn, a, b = ratio(sample_batch(env_masks(rules, n, 20)), games, play, games, rounds, "game")
        print(f"{'sampling':12} its draws cost {drawn:5.2f} lt.play games   (numpy's draws alone, on recorded masks)")
        x, a, b = ratio(single_batch(rules, n), games, play, games, rounds, "game")
        print(f"{'single/play':12} one game costs {x:5.2f} lt.play games   ({a:6.1f} vs {b:6.1f} games/s)")
    if find_spec("pyspiel") is None:
        print("OpenSpiel figures skipped: the spiel extra is not installed")
    else:
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  # registers python_tic_tac_toe

        import libertalia.spiel  # noqa: F401  # registers python_libertalia

        mine = spiel_batch("python_libertalia", {"players": n, "edition": args.edition})
        ttt = spiel_batch("python_tic_tac_toe", {})
        x, a, b = ratio(mine, max(1, games // 4), ttt, games * 25, rounds, "step")
        print(f"{'spiel/ttt':12} steps/s ratio {x:5.3f}           ({a:8.0f} vs {b:8.0f} steps/s)")


if __name__ == "__main__":
    main()
