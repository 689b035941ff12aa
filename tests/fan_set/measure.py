"""Measure how many first-try ability lines of the blind fan set the card checker accepts.

Every ``TIMING: sentence.`` line of every card under ``characters/`` and ``loot/`` is loaded on
its own, as a one-ability card with the same name and rank (or kind and side), beside the
galecrest edition with ``lt.load_rules("galecrest", extra_cards=[folder])``. A line is accepted
when that load raises no library error. Loading one line at a time gives a per-sentence figure
even though the checker may stop at the first error of a file.

Two things about loot. ``load_rules`` parses only the sides it plays, so a loot line is loaded with
its side selected (``loot={kind: side}``). And the board fixes how many tokens of a kind are in
the bag: a tile whose ``count`` differs is refused whatever its text says, so the one-line tile
carries the board's count, and each file's own count is reported apart, as a file-level finding
that is not a sentence's.

Run from the worktree root: ``PYTHONPATH=$PWD python tests/fan_set/measure.py [--json] [--set printed]``.
``--set printed`` measures the second set, ``printed/``: cards written the way printed cards read (``--set
printed2`` the third, ``printed2/``, and ``--set printed3`` the fourth, ``printed3/``).
The output is deterministic: files and lines in order, error locations rewritten to the fan-set
file and line they came from (the temporary file's path and line mean nothing to a reader).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

import libertalia as lt

HERE = Path(__file__).resolve().parent
KINDS = ("characters", "loot")
HEADER_KEYS = {"characters": ("name", "rank"), "loot": ("kind", "side", "count")}
LOCATION = re.compile(r"^(?P<path>.+?\.yaml):(?P<line>\d+):(?P<col>\d+): ")


@dataclass(frozen=True)
class Outcome:
    """One ability line and what the loader said about it alone."""

    file: str
    line: int
    text: str
    accepted: bool
    error: str


def ability_lines(path: Path) -> list[tuple[int, str]]:
    """The (file line number, ability text) of each non-empty line of the card's `text` block."""
    raw = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, row in enumerate(raw) if row.startswith("text:"))
    # The block ends at the next key of the file (``examples:``): its first unindented line.
    end = next((i for i, row in enumerate(raw) if i > start and row and not row[0].isspace()), len(raw))
    return [(i + 1, row.strip()) for i, row in enumerate(raw) if start < i < end and row.strip()]


def one_line_card(header: dict[str, Any], line: str) -> str:
    """A YAML card with the original header and `line` as its only ability."""
    return yaml.safe_dump(header, sort_keys=False) + "text: |\n  " + line + "\n"


def first_line(message: str, shown: str, line: int) -> str:
    """The error's first line, its temporary location replaced by the fan-set file and line."""
    head = message.strip().splitlines()[0] if message.strip() else "(empty message)"
    found = LOCATION.match(head)
    if found:
        head = f"{shown}:{line}:{found['col']}: " + head[found.end() :]
    return head


@dataclass(frozen=True)
class CountCheck:
    """A loot file's `count` beside the number of tokens of its kind the board puts in the bag."""

    file: str
    kind: str
    count: int
    bag: int
    matches: bool


def set_folder(name: str | None) -> Path:
    """The folder of the set measured: this one, or the named set beside the first (``printed``)."""
    return HERE if name is None else HERE / name


def shown_path(path: Path) -> str:
    """The path as a reader in the worktree root sees it."""
    return str(path.relative_to(HERE.parent.parent))


def check_line(kind: str, path: Path, header: dict[str, Any], number: int, line: str) -> Outcome:
    """Load `line` alone as a card of its own and record whether the library refuses it."""
    shown = shown_path(path)
    sides = {header["kind"]: header["side"]} if kind == "loot" else None
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / kind / path.name
        target.parent.mkdir()
        target.write_text(one_line_card(header, line), encoding="utf-8")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # unverified-loot notices are not refusals
                lt.load_rules("galecrest", extra_cards=[tmp], loot=sides)
        except lt.errors.LibertaliaError as error:
            return Outcome(shown, number, line, False, first_line(str(error), shown, number))
    return Outcome(shown, number, line, True, "")


def measure(folder: Path = HERE) -> tuple[list[Outcome], list[CountCheck]]:
    """Every ability line of the set in ``folder``, in file order, checked one at a time; and the loot counts."""
    bag = dict(lt.load_rules("galecrest").board.bag)
    outcomes, counts = [], []
    for kind in KINDS:
        for path in sorted((folder / kind).glob("*.yaml")):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            header = {key: data[key] for key in HEADER_KEYS[kind]}
            if kind == "loot":
                held = bag[header["kind"]]
                counts.append(
                    CountCheck(shown_path(path), header["kind"], header["count"], held, header["count"] == held)
                )
                header["count"] = held
            for number, line in ability_lines(path):
                outcomes.append(check_line(kind, path, header, number, line))
    return outcomes, counts


def totals(outcomes: list[Outcome]) -> dict[str, Any]:
    """Accepted sentences, all sentences and the rate in percent (one decimal)."""
    accepted = sum(o.accepted for o in outcomes)
    rate = round(100 * accepted / len(outcomes), 1) if outcomes else 0.0
    return {"accepted": accepted, "sentences": len(outcomes), "rate_percent": rate}


def print_table(outcomes: list[Outcome], counts: list[CountCheck]) -> None:
    """A plain-text table, one row per ability line, then the totals and the loot counts."""
    width = max(len(o.file) for o in outcomes)
    print(f"{'file':<{width}}  line  ok   first line of the error")
    for o in outcomes:
        print(f"{o.file:<{width}}  {o.line:>4}  {'yes' if o.accepted else 'no ':<3}  {o.error}")
    t = totals(outcomes)
    print(f"\naccepted {t['accepted']} / {t['sentences']} sentences: {t['rate_percent']}%")
    if not counts:
        return
    print("\nloot counts (file-level, not counted above):")
    for c in counts:
        verdict = "matches" if c.matches else "differs: the loader refuses the file for it"
        print(f"  {c.file}: count {c.count}, the board's bag holds {c.bag} {c.kind} tokens ({verdict})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print the lines and totals as JSON")
    parser.add_argument("--set", dest="set_name", metavar="NAME", help="measure the set in this sub-folder (printed)")
    args = parser.parse_args(argv)
    outcomes, counts = measure(set_folder(args.set_name))
    if args.json:
        report = {
            "lines": [asdict(o) for o in outcomes],
            "totals": totals(outcomes),
            "loot_counts": [asdict(c) for c in counts],
        }
        print(json.dumps(report, indent=2))
    else:
        print_table(outcomes, counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
