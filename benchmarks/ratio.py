"""The speed yardstick the README cites: the engine's loops as ratios, batches alternated in one process.

Run: ``python benchmarks/ratio.py [--players 4] [--rounds 5] [--games 30] [--edition galecrest]``.

Absolute games per second drift on a shared machine; the ratio of two batches that take turns
in one process does not, so each figure is the median over rounds of one round's ratio (the
spread is the lowest and highest round):

- ``play/toy`` and ``choose/toy``: ``lt.play`` with random agents (log on, as a user calls it)
  and a public ``choose()`` loop picking uniformly among the options, each in games per second
  over the toy's (``toy.py``: a bare Libertalia-like game on plain lists, no rules engine).
- ``env/play``: one game through the PettingZoo env (``env()``, random actions from the mask)
  costs this many ``lt.play`` games with the log off (needs the ``rl`` extra).
- ``spiel/ttt``: ``python_libertalia`` steps per second over ``python_tic_tac_toe``'s, random
  play-outs with chance sampled from its outcomes (needs the ``spiel`` extra).

The env and OpenSpiel batches are ``learning_ratios.py``'s.  Speed is measured here, never in
the pass/fail tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import learning_ratios as lr  # noqa: E402
import toy  # noqa: E402

import libertalia as lt  # noqa: E402


def toy_batch(players: int) -> lr.Batch:
    """The toy's seeded games; each seat's play of a day counted as a step."""
    def run(seed0: int, games: int) -> int:
        for seed in range(seed0, seed0 + games):
            toy.play_game(seed, players)
        return games * sum(toy.DAYS) * players
    return run


def choose_batch(rules: lt.Rules, players: int) -> lr.Batch:
    """The public ``choose()`` loop, each option drawn uniformly by a seeded ``random.Random``."""
    def run(seed0: int, games: int) -> int:
        steps = 0
        for seed in range(seed0, seed0 + games):
            rng = random.Random(seed)
            game = lt.new_game(rules, players=players, seed=seed)
            while not game.is_over:
                options = game.decision.options
                game = game.choose(options[rng.randrange(len(options))].key)
                steps += 1
        return steps
    return run


def line(label: str, each: list[float], a_rates: list[float], b_rates: list[float], text: str, unit: str) -> str:
    """One figure: the median ratio, its spread over rounds, and the two median rates."""
    return (f"{label:11} {text} {statistics.median(each):6.3f}  (rounds {min(each):.3f}-{max(each):.3f}; "
            f"{statistics.median(a_rates):.0f} vs {statistics.median(b_rates):.0f} {unit})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=30,
                        help="Libertalia games per batch (the toy plays 10 times as many)")
    parser.add_argument("--edition", default="galecrest")
    args = parser.parse_args(argv)
    rules = lt.load_rules(args.edition)
    n, games, rounds = args.players, args.games, args.rounds
    build = "compiled" if str(import_module("libertalia.engine.rng").__file__).endswith((".so", ".pyd")) else "pure"
    print(f"{n} players, {args.edition}, {rounds} rounds of {games} games, build {build}")
    bare = toy_batch(n)
    for label, batch in (("play/toy", lr.play_batch(rules, n, log=True)), ("choose/toy", choose_batch(rules, n))):
        # the toy as "mine" and the engine as "base": per game, the ratio is engine games/s over toy games/s
        each, toy_rates, rates = lr.ratios(bare, games * 10, batch, games, rounds, "game")
        print(line(label, each, rates, toy_rates, "games/s ratio", "games/s, engine vs toy"))
    if find_spec("pettingzoo") is None:
        print("env/play skipped: the rl extra is not installed")
    else:
        each, a, b = lr.ratios(lr.env_batch(rules, n), games, lr.play_batch(rules, n), games, rounds, "game")
        print(line("env/play", each, a, b, "one game costs", "games/s"))
    if find_spec("pyspiel") is None:
        print("spiel/ttt skipped: the spiel extra is not installed")
    else:
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  # registers python_tic_tac_toe

        import libertalia.spiel  # noqa: F401  # registers python_libertalia

        mine = lr.spiel_batch("python_libertalia", {"players": n, "edition": args.edition})
        ttt = lr.spiel_batch("python_tic_tac_toe", {})
        each, a, b = lr.ratios(mine, max(1, games // 4), ttt, games * 25, rounds, "step")
        print(line("spiel/ttt", each, a, b, "steps/s ratio", "steps/s"))


if __name__ == "__main__":
    main()
