"""``python -m libertalia.testing.laws [--positions N] [--seed S] [--family TEXT] [--to-end]``: the long run.

Prints every family's result (a difference shrunk, with an ``examples:`` entry per wording) and
exits 1 when a family that waits for no fix differs.
"""

from __future__ import annotations

import argparse
import sys

from . import CATALOGUE, check_laws


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m libertalia.testing.laws",
                                     description="Play each family of equivalent wordings side by side.")
    parser.add_argument("--positions", type=int, default=200, help="positions per family (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="the seed positions are drawn from (default 0)")
    parser.add_argument("--family", default="", help="only the families whose name contains this text")
    parser.add_argument("--to-end", action="store_true", help="play every game to its end, not to the focus day's")
    args = parser.parse_args(argv)
    import libertalia as lt

    families = [f for f in CATALOGUE if args.family in f.name]
    if not families:
        parser.error(f"no family's name contains {args.family!r}")
    report = check_laws(lt.load_rules("galecrest"), families, positions=args.positions, seed=args.seed,
                        to_end=args.to_end)
    print(report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
