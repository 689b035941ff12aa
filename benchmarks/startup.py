"""How long a fresh worker takes to reach its first step, and where the time goes.

Run: ``python benchmarks/startup.py [--runs 5] [--edition galecrest] [--players 4]``.

Each run is a fresh ``python -c`` (the cache of read cards warm, as on any second start): the
CPU seconds to import libertalia, to load the rules, to make the first ``lt.play``-style decision,
then to import ``libertalia.env`` (numpy, gymnasium, pettingzoo) and take the first env step, and
last a whole random ``lt.play`` game (its first anchor builds the rules' clash tables, once a process).
CPU time, not wall time, so that a busy machine shows the work rather than the wait; the wall
time of the whole process is printed beside it.  Then the same first env step in a worker of a
``multiprocessing`` pool, started three ways: ``spawn`` (a fresh interpreter, as above),
``forkserver`` with ``libertalia.env`` preloaded (``set_forkserver_preload``), and ``fork``.
Medians over runs.  Speed is measured here, never in the pass/fail tests.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import subprocess
import sys
import time

PROBE = r"""
import time
t0 = time.process_time()
import libertalia as lt
import libertalia.game
t1 = time.process_time()
rules = lt.load_rules({edition!r})
t2 = time.process_time()
game = lt.new_game(rules, {players}, 1)
game = game.choose(game.decision.options[0].key)
t3 = time.process_time()
from libertalia.env import env
e = env(rules, {players})
e.reset(seed=1)
e.step(int(e.observe(e.agent_selection)["action_mask"].nonzero()[0][0]))
t4 = time.process_time()
lt.play(rules, [lt.agents.RandomAgent(i) for i in range({players})], seed=1, log=False)
t5 = time.process_time()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4, t5 - t4)
"""

PARTS = ("import libertalia", "load_rules", "first decision", "env import + first step", "to first env step",
         "first whole game")


def fresh_process(edition: str, players: int) -> tuple[list[float], float]:
    """One fresh interpreter: its CPU seconds per part (and the total), and its wall seconds."""
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", PROBE.format(edition=edition, players=players)],
                         capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    return [float(v) for v in out.stdout.split()], wall


def first_env_step(edition: str, players: int) -> float:
    """In a pool worker: the CPU seconds this process spent until its first env step (imports included)."""
    import libertalia as lt
    from libertalia.env import env

    e = env(lt.load_rules(edition), players)
    e.reset(seed=1)
    e.step(int(e.observe(e.agent_selection)["action_mask"].nonzero()[0][0]))
    return time.process_time()


def pooled(method: str, edition: str, players: int) -> float:
    """Wall seconds from asking a new one-worker pool for a first env step to having it."""
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(["libertalia.env", "libertalia.game", "libertalia.loading.rules"])
    t = time.perf_counter()
    with context.Pool(1) as pool:
        pool.apply(first_env_step, (edition, players))
        return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--edition", default="galecrest")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    fresh_process(args.edition, args.players)  # warm the cache and the file system
    runs = [fresh_process(args.edition, args.players) for _ in range(args.runs)]
    print(f"fresh python -c, {args.edition} {args.players} players, median of {args.runs} (CPU seconds):")
    for i, part in enumerate(PARTS):
        print(f"  {part:26} {statistics.median(r[0][i] for r in runs):6.3f}")
    print(f"  {'whole process, wall':26} {statistics.median(r[1] for r in runs):6.3f}")
    print("a pool worker's first env step, wall seconds from Pool() to its answer:")
    for method in ("spawn", "forkserver", "fork"):
        if method not in multiprocessing.get_all_start_methods():
            continue
        pooled(method, args.edition, args.players)
        times = [pooled(method, args.edition, args.players) for _ in range(args.runs)]
        print(f"  {method:26} {statistics.median(times):6.3f}")


if __name__ == "__main__":
    main()
