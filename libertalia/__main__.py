"""``python -m libertalia``: play one seeded game among bots and narrate it."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence

from . import agents
from .errors import LibertaliaError, UnverifiedLootWarning
from .loading.rules import load_rules
from .play import play


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="libertalia", description=__doc__)
    parser.add_argument("--edition", default="galecrest", help="bundled edition name or board YAML path")
    parser.add_argument("--players", type=int, default=4, help="number of seats (default 4)")
    parser.add_argument("--loot", default=None,
                        help="loot sides: calm, stormy, uncharted or automa (default: the board's)")
    parser.add_argument("--seed", type=int, default=1, help="game seed (default 1)")
    parser.add_argument("--bots", default="random", choices=("random", "first"), help="bot type for every seat")
    parser.add_argument("--quiet", action="store_true", help="print only the final scores")
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UnverifiedLootWarning)
            rules = load_rules(args.edition, loot=args.loot, seed=args.seed)
        for w in caught:
            print(f"note: {w.message}", file=sys.stderr)
        seats: list[agents.Agent] = [
            agents.RandomAgent(args.seed * 100 + i) if args.bots == "random" else agents.FirstOptionAgent()
            for i in range(args.players)
        ]
        game = play(rules, seats, seed=args.seed)
    except LibertaliaError as exc:
        print(f"libertalia: {exc}", file=sys.stderr)
        return 2
    if not args.quiet:
        for event in game.events:
            indent = "" if event.kind in ("voyage", "day", "over") else "  "
            print(indent + str(event))
    print()
    print(f"{rules.board.title}, {args.players} players, seed {args.seed}")
    winners = set(game.winners())
    for seat, p in enumerate(game.players):
        mark = "  <- winner" if seat in winners else ""
        rep = f", reputation space {p.reputation}" if rules.board.track_income else ""
        print(f"  seat {seat}: {p.score:3d} doubloons{rep}{mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
