"""Metamorphic laws: wordings that English says mean the same must play the same.

The contract fuzzer checks each step against a restatement of its own reading; when that reading
misreads English, both agree.  These laws need no restatement: a family (``Family``) is two or
more wordings of one card, spelled to compile through different code paths, that any reader
takes to mean the same.  ``check_laws`` loads each wording as the same mod card, plays them side
by side from generated focused positions (``testing.differential``) and reports, per family, the
first position where two wordings differ, shrunk, with an ``examples:`` entry per wording.  A
family of random draws is a statistical law: the loot won and lost, over many game seeds, within
a stated total-variation distance.

The long run: ``python -m libertalia.testing.laws --positions 200``.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from ...engine.specs import Rules
from ..differential import (
    Difference,
    Outcome,
    compare,
    distribution,
    load_wordings,
    play,
    shrink,
    total_variation,
)
from ..focus import Feature, FocusedPosition, bag_left, empty_bag, focused_position
from .catalogue import CATALOGUE
from .family import VARIANTS, WORDS, Family

__all__ = ["CATALOGUE", "VARIANTS", "WORDS", "Family", "FamilyResult", "LawReport", "TreesAlike",
           "check_family", "check_laws", "vary", "wordings_of"]

CARD = "Lawful Rover"
"""The name every wording of a character family is loaded under."""


class TreesAlike(ValueError):
    """A family whose wordings read as one tree: it would compare a code path with itself."""


# ------------------------------------------------------------------ loading a family
def wordings_of(family: Family, base: Rules) -> list[Rules]:
    """The rules once per wording (``TreesAlike`` if two wordings read as the same tree)."""
    if family.tile is None:
        name, rank = (family.card, base.card(family.card).rank) if family.card else (CARD, family.rank)
        files = [("lawful-rover.yaml", f"name: {name}\nrank: {rank:g}\n" + _block(w)) for w in family.wordings]
    else:
        count = dict(base.board.bag)[family.tile]
        files = [(f"{family.tile}.yaml", f"kind: {family.tile}\nside: {base.board.default_loot}\ncount: {count}\n"
                  + _block(w)) for w in family.wordings]
    loaded = load_wordings(base, files)
    trees = [r.loot_spec(family.tile).abilities if family.tile else r.card(card_of(family)).abilities
             for r in loaded]
    for i in range(len(trees)):
        for j in range(i):
            if trees[i] == trees[j]:
                raise TreesAlike(f"family {family.name!r}: {family.wordings[j]!r} and {family.wordings[i]!r} read as "
                                 "the same tree, so they test nothing: spell one another way")
    return loaded


def card_of(family: Family) -> str:
    """The name the family's character wordings are loaded under."""
    return family.card or CARD


def _block(text: str) -> str:
    return "text: |\n" + "".join(f"  {line}\n" for line in text.splitlines())


# ------------------------------------------------------------------ positions
def position_of(family: Family, rules: Rules, index: int, rng: random.Random) -> FocusedPosition:
    """The ``index``-th position of a family: its seat count and variant taken in turn."""
    players = family.players[index % len(family.players)] if family.players else None
    feature = Feature(family.tile or card_of(family), family.timing)
    position = focused_position(rules, players, [feature], rng=rng, phase=family.timing)
    return vary(rules, position, family.variants[index % len(family.variants)], rng)


def vary(rules: Rules, position: FocusedPosition, variants: str, rng: random.Random) -> FocusedPosition:
    """``position`` changed by each of ``variants`` (``family.VARIANTS`` joined by ``+``; ``""``: as drawn)."""
    for variant in variants.split("+"):
        if variant == "twins":
            position = _twins(position)
        elif variant == "quiet":
            position = _quiet(rules, position, rng)
        elif variant:
            position = attrs.evolve(position, setup=_vary(rules, position, variant, rng))
    return position


def _twins(position: FocusedPosition) -> FocusedPosition:
    """Every seat without a feature plays the card the first of them plays: a tie of ranks on the island."""
    setup = copy.deepcopy(position.setup)
    free = [i for i in range(position.players) if all(p.seat != i for p in position.featured)]
    if len(free) < 2:
        return position
    card = position.plays[free[0]]
    plays = list(position.plays)
    for i in free:
        seat = setup["players"][i]
        for pile in ("ship", "graveyard"):
            if card in seat[pile]:
                seat[pile].remove(card)
        if card not in seat["hand"]:
            seat["hand"].append(card)
        plays[i] = card
    return attrs.evolve(position, setup=setup, plays=tuple(plays))


def _quiet(rules: Rules, position: FocusedPosition, rng: random.Random) -> FocusedPosition:
    """Every seat without a featured play plays a card without a sun or dusk ability, and today's loot
    holds no token with a dusk ability: the island at dusk is the island the day revealed."""
    setup = copy.deepcopy(position.setup)
    game_rules = rules.for_game(position.seed)
    plays = list(position.plays)
    featured = {p.name for p in position.featured}
    for i, seat in enumerate(setup["players"]):
        if any(p.seat == i and p.zone == "play" for p in position.featured):
            continue
        held = {*seat["hand"], *seat["ship"], *seat["graveyard"]}
        calm = [c.name for c in game_rules.characters if not c.neutral and "#" not in c.name and not c.has("sun")
                and not c.has("dusk") and c.name not in held and c.name not in featured]
        if not calm:
            return position
        seat["hand"][seat["hand"].index(plays[i])] = plays[i] = calm[rng.randrange(len(calm))]
    if "loot" not in setup:
        left = bag_left(rules, setup)
        quiet = [k for k in rules.kinds for _ in range(max(0, left[k])) if not game_rules.loot_spec(k).has("dusk")]
        rng.shuffle(quiet)
        setup["loot"] = [quiet[:rules.board.loot_per_day_for(position.players)]]
    return attrs.evolve(position, setup=setup, plays=tuple(plays))


def _vary(rules: Rules, position: FocusedPosition, variant: str, rng: random.Random) -> dict[str, Any]:
    """The setup changed as ``variant`` says (``family.VARIANTS``)."""
    setup: dict[str, Any] = copy.deepcopy(position.setup)
    board = rules.board
    seats = setup["players"]
    if variant in ("last day", "last voyage"):
        if variant == "last voyage":
            setup["voyage"] = len(board.voyage_days)
        setup["day"] = board.voyage_days[setup["voyage"] - 1]
    elif variant == "first voyage":
        setup["voyage"], setup["day"] = 1, min(setup["day"], board.voyage_days[0])
    elif variant == "empty piles":
        for i, seat in enumerate(seats):
            mine = [p for p in position.featured if p.seat == i]
            seat["hand"] = [position.plays[i], *(p.name for p in mine if p.zone == "hand")]
            seat["ship"] = [p.name for p in mine if p.zone == "ship"]
            seat["graveyard"] = []
            seat["loot"] = [p.name for p in mine if p.zone == "loot"]
    elif variant in ("broke", "ties"):
        for seat in seats:
            seat["doubloons"] = 0 if variant == "broke" else 7
    elif variant == "holds map":
        owner = next((p.seat for p in position.featured if p.seat is not None), 0)
        if bag_left(rules, setup)["map"] > 0:
            seats[owner]["loot"].append("map")
    elif variant == "empty bag":
        empty_bag(rules, setup, position.players, rng)
    elif variant in ("lowest reputation", "highest reputation", "lowest two") and "reputation" in setup:
        owner = next((p.seat for p in position.featured if p.seat is not None), 0)
        wanted = {owner: 0} if variant == "lowest reputation" else {owner: len(board.track_income) - 1} \
            if variant == "highest reputation" else {owner: 0, (owner + 1) % position.players: 1}
        _place_tokens(setup["reputation"], wanted)
    return setup


def _place_tokens(spaces: list[int], wanted: dict[int, int]) -> None:
    """Put each seat of ``wanted`` on its space; whoever stood there takes the space it left (one a space)."""
    for seat, space in wanted.items():
        if space in spaces:
            spaces[spaces.index(space)] = spaces[seat]
        spaces[seat] = space


# ------------------------------------------------------------------ checking
@attrs.frozen
class FamilyResult:
    """One family's run: how many positions it played, and what differed first (shrunk), if anything."""

    family: Family
    positions: int
    failure: str = ""
    difference: Difference | None = None

    @property
    def ok(self) -> bool:
        return not self.failure

    def __str__(self) -> str:
        head = f"{self.family.name}: {self.positions} positions, " + ("same" if self.ok else "DIFFER")
        return head if self.ok else f"{head}\n{self.failure}"


@attrs.frozen
class LawReport:
    """Every family's result; ``ok`` when every family played the same."""

    results: tuple[FamilyResult, ...]

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def summary(self) -> str:
        failed = [r for r in self.results if not r.ok]
        lines = [f"{len(self.results)} families, {sum(r.positions for r in self.results)} positions: "
                 f"{len(self.results) - len(failed)} same, {len(failed)} differ"]
        lines += [str(r) for r in self.results]
        return "\n".join(lines)


def check_family(family: Family, rules: Rules, *, positions: int = 10, seed: int = 0,
                 to_end: bool = False) -> FamilyResult:
    """Play the family's wordings side by side from ``positions`` positions drawn from ``seed``."""
    wordings = wordings_of(family, rules)
    rng = random.Random(f"{family.name}/{seed}")
    if family.samples:
        return _statistical(family, wordings, rng, max(1, positions // 10))
    labels = list(family.wordings)
    may = family.may
    for index in range(positions):
        position = position_of(family, wordings[0], index, rng)
        answers = rng.randrange(2**32)
        if family.offered:
            vain = _offered_in_vain(family, wordings, position, answers, to_end)
            if vain:
                return FamilyResult(family, index + 1, f"at position {index + 1} of {positions}: {vain}")
        if compare(wordings, position, answers, labels=labels, to_end=to_end, examples=False, may=may) is None:
            continue

        def differs(p: FocusedPosition, answers: int = answers) -> bool:
            return compare(wordings, p, answers, labels=labels, to_end=to_end, examples=False, may=may) is not None

        small = shrink(position, differs, rules=wordings[0])
        found = compare(wordings, small, answers, labels=labels, to_end=to_end, may=may)
        assert found is not None
        return FamilyResult(family, index + 1, f"at position {index + 1} of {positions}, shrunk:\n{found}", found)
    return FamilyResult(family, positions)


def _offered_in_vain(family: Family, wordings: list[Rules], position: FocusedPosition, answers: int,
                     to_end: bool) -> str:
    """Where a wording's own ``may`` is asked but "yes" and "no" end alike: what was offered in vain."""
    source = family.tile or card_of(family)
    for text, rules in zip(family.wordings, wordings, strict=True):
        yes = play(rules, position, answers, to_end=to_end, may="yes", may_of=source)
        if f"may {source}" not in yes.asked:
            continue
        no = play(rules, position, answers, to_end=to_end, may="no", may_of=source)
        if yes.state == no.state and yes.error == no.error:
            return (f"{text!r} asked its may in vain (yes and no end alike) from {position.players} players, "
                    f"setup {position.setup!r}, plays {list(position.plays)!r}, answer seed {answers}")
    return ""


def _statistical(family: Family, wordings: list[Rules], rng: random.Random, positions: int) -> FamilyResult:
    """Each wording's loot won and lost over ``family.samples`` game seeds from a few positions, compared."""
    for index in range(positions):
        position = position_of(family, wordings[0], index, rng)
        seeds = [rng.randrange(2**32) for _ in range(family.samples)]
        found = [distribution(r, position, seeds, _loot_moved) for r in wordings]
        for i in range(1, len(found)):
            gap = total_variation(found[0], found[i])
            if gap > family.tolerance:
                return FamilyResult(family, index + 1, (
                    f"{family.wordings[0]!r} and {family.wordings[i]!r}: loot won and lost over {family.samples} "
                    f"seeds differs by {gap:.3f} (tolerance {family.tolerance}) from {position.players} players, "
                    f"setup {position.setup!r}, plays {list(position.plays)!r}\n"
                    f"  first: {_top(found[0])}\n  other: {_top(found[i])}"))
    return FamilyResult(family, positions)


def _loot_moved(position: FocusedPosition, outcome: Outcome) -> Any:
    """Per seat, the loot gained (+) and lost (-) against the position: a draw's outcome, whatever else drew."""
    state = dict(outcome.state)
    out = []
    for seat, held in enumerate(position.setup["players"]):
        now = Counter(state.get(f"seat {seat} loot", ()))
        was = Counter(held.get("loot", ()))
        out.append(tuple(sorted({**{k: n for k, n in (now - was).items()},
                                 **{k: -n for k, n in (was - now).items()}}.items())))
    return (outcome.error, tuple(out))


def _top(dist: Counter[Any]) -> str:
    n = sum(dist.values())
    return ", ".join(f"{k!r}: {c / n:.2f}" for k, c in dist.most_common(6))


def check_laws(rules: Rules, families: Sequence[Family] = CATALOGUE, *, positions: int = 10, seed: int = 0,
               to_end: bool = False) -> LawReport:
    """Every family in ``positions`` positions each (a family of another edition loads that edition)."""
    from ...loading.rules import load_rules

    bases: dict[str, Rules] = {rules.load_args.get("edition", ""): rules}
    results = []
    for family in families:
        base = bases.get(family.edition)
        if base is None:
            base = bases[family.edition] = load_rules(family.edition)
        results.append(check_family(family, base, positions=positions, seed=seed, to_end=to_end))
    return LawReport(tuple(results))
