"""Two versions of one card file played side by side: do they ever play differently, and where first?

A modder who edits a card asks whether the edit changed what the card does; the mutation tool
asks the same of a surviving mutant (can any game tell it apart?). ``diff_cards`` answers both
the same way the law catalogue checks English equivalences (``testing.differential``): each
version is loaded as the modder's file would load (``load_rules`` with that one file as the
mod), and both are played from the same generated focused positions, with the same answers, and
their public states compared. The positions feature the card at each of its timings in turn, at
the seat counts and with the variants the laws use (last day, last voyage, empty bag, empty
piles, broke, ties, a tie of ranks on the island...); one in four is played to the end of the
game, so that what only final scoring reads is seen too.

The first difference is shrunk (fewer seats, cards and tokens) and reported with an
``examples:`` entry for each version, ready to paste: the example that tells them apart. No
difference in every position tried means *probably* the same card: a position no generator
reaches may still tell them apart, so the report says how many positions were tried.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import attrs

from ..engine.specs import CharacterSpec, LootSpec, Rules
from ..errors import ArgumentError, DataError, UnverifiedLootWarning
from ..loading.examples import edition_of
from ..loading.rules import check_cards, load_rules
from .differential import Difference, compare, shrink
from .focus import Feature, FocusedPosition, focused_position
from .laws import vary
from .laws.family import VARIANTS

__all__ = ["DEFAULT_POSITIONS", "CardDiff", "diff_cards", "diff_rules"]

DEFAULT_POSITIONS = 60
"""Positions tried when none are asked for: every timing of a card meets every variant a few times."""
TO_END_EVERY = 4
"""One position in this many is played to the end of the game (final scoring reads what a day does not)."""


@attrs.frozen
class CardDiff:
    """What ``diff_cards`` found: ``difference`` is None when no position told the versions apart."""

    card: str  # the card's name, or a tile's "kind (side)"
    files: tuple[str, str]
    positions: int  # tried, up to and including the one that differed
    timings: tuple[str, ...]  # where the card was featured
    difference: Difference | None

    @property
    def differs(self) -> bool:
        return self.difference is not None

    def __str__(self) -> str:
        a, b = self.files
        if self.difference is None:
            return (f"{a} and {b} played alike in {self.positions} positions ({self.card}, featured at "
                    f"{', '.join(self.timings)}): probably the same card")
        return (f"{a} and {b} differ at position {self.positions} ({self.card}), shrunk:\n"
                f"{self.difference}")


def diff_cards(a: str | Path, b: str | Path, *, edition: str | Path | None = None,
               positions: int = DEFAULT_POSITIONS, seed: int = 0, players: int | None = None,
               to_end: bool = False) -> CardDiff:
    """Play the card files ``a`` and ``b`` (two versions of one card or loot tile) side by side.

    ``edition`` defaults to the edition whose bundled folders hold ``a`` (or ``b``), as ``cards test``
    runs a bundled card, else galecrest: a copy of a 2012 card, edited, is diffed under the 2012 board.

    ``positions`` focused positions are drawn from ``seed`` (``players`` fixes the seat count;
    ``to_end`` plays every one to the end of the game).  Either file failing the checker raises
    its ``DataError``; files that define different cards raise ``ArgumentError``.
    """
    if isinstance(positions, bool) or not isinstance(positions, int) or positions < 1:
        raise ArgumentError(f"diff_cards: positions must be a whole number of at least 1, not {positions!r}")
    paths = (Path(a), Path(b))
    if edition is None:
        edition = edition_of(paths[0]) or edition_of(paths[1]) or "galecrest"
    specs = (_card_of(paths[0], edition), _card_of(paths[1], edition))
    name, loot = _identity(specs[0]), None
    if _identity(specs[1]) != name:
        raise ArgumentError(f"{paths[0]} defines {name} and {paths[1]} defines {_identity(specs[1])}: "
                            "diff compares two versions of one card (the same name, or the same loot kind and side)")
    if isinstance(specs[0], LootSpec):
        loot = {specs[0].kind: specs[0].side}
    with warnings.catch_warnings():  # each version loads from the user's own file, so errors name it
        warnings.simplefilter("ignore", UnverifiedLootWarning)
        versions = [load_rules(edition, loot=loot, extra_cards=[p]) for p in paths]
    if not any(s.compiled for s in specs):
        raise ArgumentError(f"{name} has no ability in either file: there is nothing to play")
    report = diff_rules(versions[0], versions[1], specs, labels=(str(paths[0]), str(paths[1])), positions=positions,
                        seed=seed, players=players, to_end=to_end)
    if report.positions == 0:
        raise ArgumentError(f"no position could feature {name} at {', '.join(report.timings)}"
                            + (f" with {players} players" if players is not None else ""))
    return report


def diff_rules(a: Rules, b: Rules, specs: tuple[CharacterSpec | LootSpec, CharacterSpec | LootSpec], *,
               labels: tuple[str, str], positions: int = DEFAULT_POSITIONS, seed: int = 0,
               players: int | None = None, to_end: bool = False) -> CardDiff:
    """Play the rules ``a`` and ``b``, which differ in one card (``specs``: its version in each), side by side.

    The engine of ``diff_cards``, for callers that hold the rules already (``cards mutate`` plays each
    surviving mutant against its card).  Positions the card cannot be featured in are skipped; a report
    with ``positions == 0`` says none could be.
    """
    name = _identity(specs[0])
    feature = specs[0].kind if isinstance(specs[0], LootSpec) else specs[0].name
    timings = tuple(sorted({c.timing for s in specs for c in s.compiled}, key=_TIMING_ORDER.index))
    if not timings:
        return CardDiff(name, labels, 0, timings, None)
    versions = [a, b]
    rng = random.Random(f"card-diff/{seed}")
    tried = 0
    for index in range(positions):
        timing = timings[index % len(timings)]
        variant = VARIANTS[(index // len(timings)) % len(VARIANTS)]
        position = _position(versions[0], feature, timing, players, variant, rng)
        answers = rng.randrange(2**32)
        if position is None:
            continue
        tried = index + 1
        end = to_end or index % TO_END_EVERY == TO_END_EVERY - 1
        if compare(versions, position, answers, labels=labels, to_end=end, examples=False) is None:
            continue

        def differs(p: FocusedPosition, answers: int = answers, end: bool = end) -> bool:
            return compare(versions, p, answers, labels=labels, to_end=end, examples=False) is not None

        small = shrink(position, differs, rules=versions[0])
        found = compare(versions, small, answers, labels=labels, to_end=end)
        assert found is not None  # the shrunk position still differs, by ``differs``
        found = attrs.evolve(found, examples=(_own(found.examples[0]), _own(found.examples[1])))
        return CardDiff(name, labels, index + 1, timings, found)
    return CardDiff(name, labels, positions if tried else 0, timings, None)


_TIMING_ORDER = ("sun", "dusk", "moon", "anchor")


def _card_of(path: Path, edition: str | Path) -> CharacterSpec | LootSpec:
    """The one card or tile ``path`` defines, as the checker reads it (its first error raised)."""
    if not path.is_file():
        raise ArgumentError(f"{path}: not a card file (diff compares two YAML files, each one card or loot tile)")
    errors, checked = check_cards([path], edition)
    if errors:
        raise errors[0]
    if len(checked) != 1:
        raise DataError(f"{path}: a card file for diff defines one card or loot tile, not {len(checked)}")
    return checked[0][0]


def _own(example: str) -> str:
    """An example without the note on other mod files: each version was loaded alone, from its own file, so
    the example pasted into that file runs as it stands."""
    lines = example.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("  # The rules had mod cards from "):
            del lines[i:i + 2]
            break
    return "".join(lines)


def _identity(spec: CharacterSpec | LootSpec) -> str:
    return f"{spec.kind} ({spec.side})" if isinstance(spec, LootSpec) else spec.name


def _position(rules: Rules, feature: str, timing: str, players: int | None, variant: str,
              rng: random.Random) -> FocusedPosition | None:
    """A position featuring the card at ``timing``, changed by ``variant`` (None: the card cannot go there)."""
    try:
        position = focused_position(rules, players, [Feature(feature, timing)], rng=rng, phase=timing)
    except ValueError:  # a timing or seat count the card cannot be featured at
        return None
    return vary(rules, position, variant, rng)
