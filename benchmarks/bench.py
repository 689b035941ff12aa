"""Speed and size of the engine: games and decisions per second, loading, memory.

Run: ``python benchmarks/bench.py [--games N] [--players 3 4 5 6] [--edition galecrest]``.

Prints, per player count, random games per second and decisions per second through the
three ways of playing (``lt.play`` / ``Game.play_out``, the same with ``log=False``, and a
public ``choose()`` loop whose agents read their observation), then the same seats played
through the PettingZoo environment (``libertalia.env``, if the ``rl`` extra is installed),
wrapped as ``env()`` gives it and bare (``raw_env()``): its steps per second, and what a game
costs there against ``lt.play`` with the log off (the env's default) playing the same games
answer for answer, their batches alternated, and against ``lt.play`` whose agents build the same
observation vectors (what a learner pays without the env).  Then the time to import the
library and to load the rules in fresh processes (warm cache, median of five), and the size
of a finished game: its state in memory and its ``to_json`` text.  Speed is measured here,
never in the pass/fail tests.  On a shared machine compare ratios, not absolute figures:
``python benchmarks/ratio.py`` sets the engine against a bare mutable toy.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import libertalia as lt

Loop = Callable[[lt.Rules, int, int], int]


def play_loop(log: bool) -> Loop:
    def run(rules: lt.Rules, players: int, seed: int) -> int:
        game = lt.play(rules, [lt.agents.RandomAgent(seed * 16 + i) for i in range(players)], seed=seed, log=log)
        return len(game.history)
    return run


def choose_loop(rules: lt.Rules, players: int, seed: int) -> int:
    agents = [lt.agents.RandomAgent(seed * 16 + i) for i in range(players)]
    game = lt.new_game(rules, players, seed=seed)
    decisions = 0
    while (d := game.decision) is not None:
        game = game.choose(agents[d.player].choose(game.observation(d.player), d))
        decisions += 1
    return decisions


def env_loop(wrapped: bool) -> Loop:
    """A game through ``libertalia.env`` as a learner's loop drives it (``agent_iter``, ``last``,
    ``step``), answered by ``play_loop``'s random agents, so that the games are the same ones.

    ``wrapped``: ``env()`` (PettingZoo's checking wrappers around it, as the docs use it), else
    ``raw_env()``.  Counts ``step`` calls: each decision, and the closing ``None`` step of every
    agent.  The observation and mask are built every step, as a policy would read them.
    """
    from libertalia.env import env, raw_env  # the rl extra: only these figures need it

    make = env if wrapped else raw_env
    envs: dict[tuple[int, int], Any] = {}

    def run(rules: lt.Rules, players: int, seed: int) -> int:
        e = envs.get((id(rules), players))
        if e is None:
            e = envs[id(rules), players] = make(rules, players)
        agents = [lt.agents.RandomAgent(seed * 16 + i) for i in range(players)]
        raw = e.unwrapped
        e.reset(seed=seed)
        steps = 0
        for _ in e.agent_iter():
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                action = None
            else:
                d = raw.game.decision
                action = raw.action(agents[d.player].choose(raw.game.observation(d.player), d))
                assert observation["action_mask"][action], "the bot's key is offered"
            e.step(action)
            steps += 1
        return steps
    return run


def encoding_play_loop() -> Loop:
    """``lt.play`` (log off) whose agents build the env's observation vector at each of their decisions,
    as a learning agent playing through the library would: the same games as ``play_loop``'s.

    What a learner pays without the env, so that the env's own cost (answering through ``choose()``,
    PettingZoo's bookkeeping) can be told apart from the cost of the vector, which both pay.
    """
    from libertalia.env.encoding import Encoder  # the rl extra

    class Encoding(lt.agents.RandomAgent):
        answers_from_options = True  # a RandomAgent's answers: play_out need not check them

        def __init__(self, seed: int, encoder: Encoder) -> None:
            super().__init__(seed)
            self.encoder = encoder

        def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
            self.encoder.encode(observation)
            return super().choose(observation, decision)

    encoders: dict[tuple[int, int], Encoder] = {}

    def run(rules: lt.Rules, players: int, seed: int) -> int:
        encoder = encoders.get((id(rules), players))
        if encoder is None:
            encoder = encoders[id(rules), players] = Encoder(rules, players)
        agents = [Encoding(seed * 16 + i, encoder) for i in range(players)]
        return len(lt.play(rules, agents, seed=seed, log=False).history)
    return run


def same_games(rules: lt.Rules, players: int, seeds: range) -> bool:
    """Whether ``env_loop`` plays the very games ``lt.play`` does (else the ratio means nothing)."""
    from libertalia.env import raw_env

    e = raw_env(rules, players)
    for seed in seeds:
        agents = [lt.agents.RandomAgent(seed * 16 + i) for i in range(players)]
        e.reset(seed=seed)
        for _ in e.agent_iter():
            d = e.game.decision
            e.step(None if d is None else e.action(agents[d.player].choose(e.game.observation(d.player), d)))
        expected = lt.play(rules, [lt.agents.RandomAgent(seed * 16 + i) for i in range(players)], seed=seed,
                           log=False)
        if e.game.history != expected.history:
            return False
    return True


def side_by_side(loops: dict[str, Loop], rules: lt.Rules, players: int, games: int,
                 batches: int = 5) -> dict[str, tuple[float, float]]:
    """``rate`` for several loops whose batches take turns, so that a busy spell of a shared
    machine slows them alike: games and decisions (or steps) per second, each loop's best batch."""
    best = dict.fromkeys(loops, (0.0, 0.0))
    for batch in range(batches):
        for name, loop in loops.items():
            decisions = 0
            t0 = time.perf_counter()
            for seed in range(batch * games, (batch + 1) * games):
                decisions += loop(rules, players, seed)
            elapsed = time.perf_counter() - t0
            best[name] = max(best[name], (games / elapsed, decisions / elapsed))
    return best


def rate(loop: Loop, rules: lt.Rules, players: int, games: int) -> tuple[float, float]:
    """Games and decisions per second: the best of three batches (the least disturbed)."""
    best = (0.0, 0.0)
    for batch in range(3):
        decisions = 0
        t0 = time.perf_counter()
        for seed in range(batch * games, (batch + 1) * games):
            decisions += loop(rules, players, seed)
        elapsed = time.perf_counter() - t0
        best = max(best, (games / elapsed, decisions / elapsed))
    return best


def fresh_process_ms(code: str, runs: int = 5) -> float:
    """Median wall time of ``code`` in a new interpreter, its own start-up subtracted."""
    def once(snippet: str) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", snippet], check=True)
        return time.perf_counter() - t0

    base = statistics.median(once("pass") for _ in range(runs))
    return 1000 * (statistics.median(once(code) for _ in range(runs)) - base)


def deep_size(obj: object, seen: set[int] | None = None) -> int:
    """Bytes of ``obj`` and everything it refers to, each object counted once."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, str | bytes | int | float | bool | type(None)):
        return size
    if isinstance(obj, dict):
        return size + sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    if isinstance(obj, tuple | list | set | frozenset):
        return size + sum(deep_size(v, seen) for v in obj)
    slots = [s for cls in type(obj).__mro__ for s in getattr(cls, "__slots__", ())]
    size += sum(deep_size(getattr(obj, s), seen) for s in slots if hasattr(obj, s))
    return size + (deep_size(vars(obj), seen) if hasattr(obj, "__dict__") else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40,
                        help="games per batch (three batches a figure, five for the env side by side)")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    parser.add_argument("--edition", default="galecrest")
    args = parser.parse_args()
    rules = lt.load_rules(args.edition)

    has_env = find_spec("pettingzoo") is not None and find_spec("numpy") is not None
    loops: dict[str, Loop] = {"play": play_loop(True), "play, log off": play_loop(False), "choose()": choose_loop}
    for players in args.players:
        for name, loop in loops.items():
            games, decisions = rate(loop, rules, players, args.games)
            print(f"{players} players, {name:13}: {games:6.0f} games/s {decisions:8.0f} decisions/s")
        if has_env:
            if not same_games(rules, players, range(3)):
                raise SystemExit("the env played other games than lt.play: the comparison is void")
            side = side_by_side({"play": play_loop(False), "play, encoding": encoding_play_loop(),
                                 "env()": env_loop(True), "raw_env()": env_loop(False)}, rules, players, args.games)
            for name in ("env()", "raw_env()"):
                games, steps = side[name]
                print(f"{players} players, {name:13}: {games:6.0f} games/s {steps:8.0f} steps/s     "
                      f"a game costs {side['play'][0] / games:.2f} times lt.play's (log off, batches alternated), "
                      f"{side['play, encoding'][0] / games:.2f} times with agents that encode their observation")

    edition = repr(args.edition)
    print(f"import libertalia:            {fresh_process_ms('import libertalia'):5.0f} ms (fresh process)")
    print(f"import + load_rules({edition}): "
          f"{fresh_process_ms(f'import libertalia as lt; lt.load_rules({edition})'):5.0f} ms (fresh process)")

    game = lt.play(rules, [lt.agents.RandomAgent(i) for i in range(4)], seed=1)
    shared: set[int] = set()  # what the rules hold already costs a finished state nothing
    deep_size(rules, shared)
    print(f"finished 4-player game: state {deep_size(game.state) / 1024:.1f} KiB "
          f"({deep_size(game.state, set(shared)) / 1024:.1f} KiB beyond what the rules hold), "
          f"to_json {len(game.to_json()) / 1024:.1f} KiB, {len(game.events)} events")
    tracemalloc.start()
    lt.play(rules, [lt.agents.RandomAgent(i) for i in range(4)], seed=2)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"peak memory while playing one 4-player game: {peak / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
