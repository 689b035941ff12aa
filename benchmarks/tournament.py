"""Bot strength: tournaments with seats rotated, and the time each bot takes per decision.

    python benchmarks/tournament.py                      # the three tournaments of docs/bots.md
    python benchmarks/tournament.py --games 400 --jobs 2 --only greedy,random,random,random

Each tournament is ``stats.simulate`` with the line-up turning one seat per game, so every
bot sits in every seat equally often.  It prints each bot's win rate with its 95% Wilson
interval, then the mean time per decision that the bot really had to think about (more
than one option), measured in this process over a few games.  Speed is never asserted in
tests; this script is where the figures come from.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from libertalia import stats  # noqa: E402
from libertalia.game import new_game  # noqa: E402
from libertalia.loading.rules import load_rules  # noqa: E402

TOURNAMENTS = (
    "greedy,random,random,random",
    "ismcts:200,random,random,random",
    "ismcts:200,greedy,greedy,greedy",
)


def tournament(lineup: str, games: int, jobs: int, seed: int) -> dict[str, Any]:
    bots = lineup.split(",")
    start = time.perf_counter()
    results = list(stats.simulate({"edition": "galecrest"}, games=games, players=len(bots), bots=bots, seed=seed,
                                  jobs=jobs))
    seconds = time.perf_counter() - start
    report = stats.report(results)
    return {"lineup": lineup, "games": report["games"], "failed": len(report["failed"]), "seconds": seconds,
            "bots": {b["bot"]: (b["win_rate"], b["win_interval"], b["seat_games"]) for b in report["bots"]}}


class _Timed:
    """Wraps a bot and times its decisions with more than one option."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.times: list[float] = []
        self.answers_from_options = getattr(agent, "answers_from_options", False)

    def choose(self, observation: Any, decision: Any) -> str:
        start = time.perf_counter()
        key: str = self.agent.choose(observation, decision)
        if len(decision.options) > 1:
            self.times.append(time.perf_counter() - start)
        return key


def decision_time(bot: str, games: int = 2) -> float:
    """Mean seconds per real decision of ``bot`` in seat 0 against random bots (4-player Galecrest)."""
    rules = load_rules("galecrest")
    times: list[float] = []
    for seed in range(games):
        timed = _Timed(stats.bot_factory(bot)(seed))
        agents = [timed, *(stats.bot_factory("random")(seed * 16 + i) for i in range(1, 4))]
        new_game(rules, 4, 10_000 + seed).play_out(agents)
        times.extend(timed.times)
    return statistics.fmean(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="One line-up, e.g. greedy,random,random,random")
    args = parser.parse_args()
    lineups = (args.only,) if args.only else TOURNAMENTS
    for lineup in lineups:
        t = tournament(lineup, args.games, args.jobs, args.seed)
        print(f"{t['lineup']}: {t['games']} games ({t['failed']} failed) in {t['seconds']:.0f} s")
        for bot, (rate, (lo, hi), n) in sorted(t["bots"].items()):
            print(f"  {bot:<12} win rate {rate:6.1%}  95% interval {lo:.1%}-{hi:.1%}  ({n} seat-games)")
        sys.stdout.flush()
    for bot in dict.fromkeys(b for lineup in lineups for b in lineup.split(",")):
        if bot != "random":
            print(f"time per decision, {bot}: {1000 * decision_time(bot):.1f} ms")


if __name__ == "__main__":
    main()
