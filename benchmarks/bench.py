"""Speed of the engine: random full games per second, rules loading time, peak memory.

Run: ``python benchmarks/bench.py [--games N] [--players 4]``.  Speed is measured
here, never in the pass/fail tests.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import libertalia as lt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    parser.add_argument("--edition", default="galecrest")
    args = parser.parse_args()

    t0 = time.perf_counter()
    rules = lt.load_rules(args.edition)
    load = time.perf_counter() - t0
    print(f"load_rules({args.edition!r}): {load * 1000:.0f} ms (parse, check and compile every card)")

    for players in args.players:
        agents = [lt.agents.RandomAgent(i) for i in range(players)]
        decisions = 0
        t0 = time.perf_counter()
        for seed in range(args.games):
            game = lt.new_game(rules, players, seed=seed)
            while game.decision is not None:
                d = game.decision
                game = game.choose(agents[d.player].choose(game.observation(d.player), d))
                decisions += 1
        elapsed = time.perf_counter() - t0
        print(f"{players} players: {args.games / elapsed:7.0f} games/s, "
              f"{decisions / elapsed:8.0f} decisions/s ({decisions / args.games:.0f} decisions a game)")

    tracemalloc.start()
    lt.play(lt.load_rules(args.edition), [lt.agents.RandomAgent(i) for i in range(4)], seed=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak memory, loading rules and playing one 4-player game: {peak / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
