"""What a planted failure costs hypothesis with the game strategies: the time to find it, and to shrink it.

Run: ``python benchmarks/shrink.py [--seeds 5] [--scenario games,focused,interactions] [--base DIR]``.

Each scenario is a property over one strategy of ``libertalia.testing`` that fails on a rare
interaction, the kind of property issue 35 timed (2-5 s to find, 17-310 s to shrink):

- ``games``: ``games(rules, 3)``; fails when a Gunner is played after day 3 of a voyage;
- ``focused``: ``games(rules, 3, featuring=["Beggar"])``; fails when a Gunner is played after
  day 3 (the position's own day counts);
- ``interactions``: ``interactions(rules, ["Scout", "Barkeep"])``; fails when the Scout puts a
  Gunner on the island.

For every seed (``hypothesis.seed``, no database) it prints the examples and CPU seconds spent
until the first failure, the test calls and CPU seconds the shrink took after it, and the
answers of the game it shrank to (``len(game.history)``).  CPU time (``time.process_time``) is
this process's own: wall time on a shared machine measures the neighbours.  Call counts do not
depend on the machine at all.

``--base DIR`` runs each seed a second time with the ``libertalia`` of another checkout (an
older commit, unpacked with ``git archive``), the two alternating seed by seed in child
processes, and prints both: "before" and "after" on the same machine at the same time.

Speed is measured here, never in the pass/fail tests.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SCENARIOS = ("games", "focused", "interactions")


def _scenario(name: str) -> tuple[Any, Callable[[Any], bool]]:
    """The strategy and the planted bug: a predicate on the drawn game that makes the property fail."""
    import libertalia as lt
    from libertalia import events as ev
    from libertalia.testing import games
    from libertalia.testing.focus import interactions

    rules = lt.load_rules("galecrest")

    def late_gunner(game: Any) -> bool:
        return any(isinstance(e, ev.Played) and e.source == "Gunner" and e.day > 3 for e in game.events)

    def scout_plays_gunner(game: Any) -> bool:
        return any(isinstance(e, ev.PutOnIsland) and e.cause == "Scout" and e.card.startswith("Gunner")
                   for e in game.events)

    if name == "games":
        return games(rules, 3), late_gunner
    if name == "focused":
        return games(rules, 3, featuring=["Beggar"]), late_gunner
    if name == "interactions":
        return interactions(rules, ["Scout", "Barkeep"]), scout_plays_gunner
    raise SystemExit(f"unknown scenario {name!r}: say one of {', '.join(SCENARIOS)}")


def measure(name: str, seed: int, max_examples: int = 2000) -> dict[str, Any]:
    """One seeded run of a scenario: find, then shrink, timed and counted apart."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as seeded

    strategy, bug = _scenario(name)
    calls = 0
    first: tuple[float, int] | None = None
    size = 0

    @seeded(seed)
    @settings(max_examples=max_examples, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
              phases=[Phase.generate, Phase.shrink])
    @given(game=strategy)
    def prop(game: Any) -> None:
        nonlocal calls, first, size
        calls += 1
        if bug(game):
            if first is None:
                first = (time.process_time(), calls)
            size = len(game.history)  # the last failing call is the replay of the shrunk example
            raise AssertionError("the planted bug")

    start = time.process_time()
    with contextlib.suppress(AssertionError):
        prop()
    end = time.process_time()
    if first is None:
        return {"scenario": name, "seed": seed, "found": False, "calls": calls, "cpu": end - start}
    at, found_after = first
    return {"scenario": name, "seed": seed, "found": True, "find_calls": found_after, "find_cpu": at - start,
            "shrink_calls": calls - found_after, "shrink_cpu": end - at, "answers": size}


def _child(root: Path, name: str, seed: int, max_examples: int) -> dict[str, Any]:
    """``measure`` in a fresh process that imports ``libertalia`` from ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root), "LIBERTALIA_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, __file__, "--one", name, str(seed), str(max_examples)], env=env,
                          text=True, capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the run with {root} failed:\n{done.stderr}")
    return dict(json.loads(done.stdout.splitlines()[-1]))


def _row(label: str, r: dict[str, Any]) -> str:
    if not r["found"]:
        return f"{label:6} seed {r['seed']:2}: not found in {r['calls']} examples ({r['cpu']:.1f} s)"
    return (f"{label:6} seed {r['seed']:2}: found after {r['find_calls']:4} examples {r['find_cpu']:6.1f} s; "
            f"shrunk in {r['shrink_calls']:4} calls {r['shrink_cpu']:6.1f} s to {r['answers']} answers")


def _summary(label: str, runs: list[dict[str, Any]]) -> str:
    found = [r for r in runs if r["found"]]
    if not found:
        return f"{label:6} never found"

    def med(key: str) -> float:
        return statistics.median(r[key] for r in found)

    return (f"{label:6} median of {len(found)}: find {med('find_cpu'):.1f} s, shrink {med('shrink_cpu'):.1f} s "
            f"in {med('shrink_calls'):.0f} calls (total {sum(r['shrink_cpu'] for r in found):.1f} s), "
            f"{med('answers'):.0f} answers")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5, help="hypothesis seeds 0 to N-1")
    parser.add_argument("--scenario", default=",".join(SCENARIOS), help="comma-separated: " + ", ".join(SCENARIOS))
    parser.add_argument("--max-examples", type=int, default=2000)
    parser.add_argument("--base", type=Path, help="a checkout to compare with ('before'), run alternately")
    parser.add_argument("--one", nargs=3, metavar=("SCENARIO", "SEED", "MAX"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one[0], int(args.one[1]), int(args.one[2]))))
        return
    here = Path(__file__).resolve().parent.parent
    for name in args.scenario.split(","):
        _scenario(name)  # refuse an unknown name before any run
        print(f"{name}:", flush=True)
        after: list[dict[str, Any]] = []
        before: list[dict[str, Any]] = []
        for seed in range(args.seeds):
            if args.base is not None:
                before.append(_child(args.base.resolve(), name, seed, args.max_examples))
                print(_row("before", before[-1]), flush=True)
                after.append(_child(here, name, seed, args.max_examples))
            else:
                after.append(measure(name, seed, args.max_examples))
            print(_row("after" if args.base is not None else "", after[-1]), flush=True)
        if args.base is not None:
            print(_summary("before", before))
        print(_summary("after" if args.base is not None else "", after), flush=True)


if __name__ == "__main__":
    main()
