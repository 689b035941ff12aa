"""The anchor-order law: where the engine does not ask a player to order their anchor abilities, no order
the rules allow could end otherwise (E8, docs/rulings.md L1).

The engine asks only when two abilities' footprints meet (``engine.program.footprint``); it runs
the rest in an order of its own.  That is a claim about English, not about the footprint: two
anchor abilities the engine leaves unordered must give the same game whichever runs first.  The
law plays every pair of a pool of anchor texts twice from one position: once with the first text
on the lower-ranked of two cards in a seat's ship and the second on the higher-ranked, once the
other way round, so whatever order the engine picks (by rank, by name, by the ship), the two games
run the texts in opposite orders.  When the engine asked the order in either game, the player
decides and the law claims nothing; when it asked in neither, the games must end alike.
"""

from __future__ import annotations

import copy
import random
import tempfile
import warnings
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import attrs

from ...engine.specs import Rules
from ...errors import UnverifiedLootWarning
from ...game import new_game
from ..differential import answer, snapshot

POOL: tuple[str, ...] = (
    "anchor: discard a character in your ship ranked below 12.",
    "anchor: gain 1 doubloon for each character in your ship.",
    "anchor: return every map you hold to the bag.",
    "anchor: gain 2 doubloons for each map you hold if there is a character in your ship ranked above 12.",
    "anchor: put a character from your graveyard into your hand.",
    "anchor: gain 3 doubloons if there is a character in your graveyard.",
    "anchor: return every loot you hold to the bag.",
    "anchor: lose 1 reputation.",
    "anchor: gain 1 doubloon for each space left of your reputation.",
)
"""Anchor texts whose pairs touch the same parts of the game, and other parts (footprints that meet and not)."""

APART: tuple[tuple[str, str], ...] = (
    (POOL[1], POOL[4]),  # counting your ship, moving a card from your graveyard to your hand
    (POOL[1], POOL[7]),  # counting your ship, moving your reputation token
)
"""Pairs of ``POOL`` that touch no common part of the game (the ship; the graveyard and hand; the track):
the engine must not ask their order at all (L1: only where the footprints meet)."""

LOOT: tuple[tuple[str, ...], ...] = ((), ("map", "map", "map"), ("map", "relic", "chest"), ("map", "barrel"))
"""The seat's loot in the positions, in turn: none, maps only, maps beside tokens of other kinds."""


@attrs.frozen
class OrderResult:
    """The pairs played, and the first that ended otherwise in the two orders without a question."""

    pairs: int
    asked: int  # pairs the engine asked to order in some position
    failure: str = ""

    @property
    def ok(self) -> bool:
        return not self.failure


def load_pool(base: Rules, pool: Sequence[str]) -> Rules:
    """The base rules with two mod characters per text of ``pool``: ``low_name(i)`` ranked below every
    ``high_name(j)``, each saying text ``i``."""
    from ...loading.rules import load_rules

    with tempfile.TemporaryDirectory(prefix="order-") as folder:
        for i, text in enumerate(pool):
            for name, rank in ((low_name(i), 40.5 + i), (high_name(i), 70.5 + i)):
                (Path(folder) / f"{name.lower().replace(' ', '-')}.yaml").write_text(
                    f"name: {name}\nrank: {rank}\ntext: |\n  {text}\n", encoding="utf-8")
        args = dict(base.load_args)
        args["extra_cards"] = [*args.get("extra_cards", ()), folder]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnverifiedLootWarning)
            return load_rules(**args)


def low_name(i: int) -> str:
    return f"Orderly Low {chr(65 + i)}"


def high_name(i: int) -> str:
    return f"Orderly High {chr(65 + i)}"


def _setup(rules: Rules, index: int, rng: random.Random, low: str, high: str) -> dict[str, Any]:
    """Seat 0 at the anchor of the last voyage (empty hands: the game runs straight there, and ends after it, with
    no deal that the cards' names would change), both cards in its ship."""
    calm = [c.name for c in rules.characters if not c.neutral and "#" not in c.name and not c.has("anchor")
            and not c.name.startswith("Orderly")]
    picked = rng.sample(calm, 4)
    days = rules.board.voyage_days
    return {"voyage": len(days), "day": days[-1], "reputation": rng.sample(range(6), 3),
            "players": [{"hand": [], "ship": [low, high, *picked[:2]], "graveyard": picked[2:3],
                         "loot": list(LOOT[index % len(LOOT)]), "doubloons": rng.randrange(4)},
                        {"hand": [], "ship": picked[3:]}, {"hand": []}]}


def _anchor(rules: Rules, setup: dict[str, Any], seed: int) -> tuple[bool, tuple[tuple[str, Any], ...]]:
    """Whether seat 0 was asked to order, and the state when the game is over."""
    game = new_game(rules, 3, seed=seed, setup=setup)
    asked = False
    for _ in range(200):
        d = game.decision
        if d is None:
            break
        asked = asked or (d.kind == "order_abilities" and d.player == 0)
        game = game.choose(answer(seed, d))
    return asked, tuple((k, _plain(v)) for k, v in snapshot(game))


def _plain(value: Any) -> Any:
    """A state's value with each pool card named by its text alone (low or high is where it sat, not what it is)."""
    if isinstance(value, str):
        return "Orderly " + value[-1] if value.startswith("Orderly ") else value
    if isinstance(value, tuple):
        return tuple(sorted((_plain(v) for v in value), key=repr))
    return value


def check_order(base: Rules, pool: Sequence[str] = POOL, *, positions: int = 4, seed: int = 0,
                apart: Sequence[tuple[str, str]] = APART) -> OrderResult:
    """Every pair of ``pool`` in ``positions`` positions, both ways round (see the module's docstring); a pair
    of ``apart`` (in pool order) must not even be asked."""
    rng = random.Random(f"order/{seed}")
    rules = load_pool(base, pool)
    pairs = asked_pairs = 0
    for (i, a), (j, b) in combinations(enumerate(pool), 2):
        pairs += 1
        was_asked = False
        for index in range(positions):
            setup = _setup(rules, index, rng, low_name(i), high_name(j))
            swapped = copy.deepcopy(setup)
            swapped["players"][0]["ship"][:2] = [low_name(j), high_name(i)]
            game_seed = rng.randrange(2**32)
            asked_one, first = _anchor(rules, setup, game_seed)
            asked_other, second = _anchor(rules, swapped, game_seed)
            if (a, b) in apart and (asked_one or asked_other):
                return OrderResult(pairs, asked_pairs, (
                    f"{a!r} and {b!r} touch no part of the game in common, yet the engine asked their order; "
                    f"setup {setup!r}, seed {game_seed}"))
            if asked_one or asked_other:
                was_asked = True
                continue
            if first != second:
                diff = next(f"{k}: {x!r} against {y!r}" for (k, x), (_, y) in zip(first, second, strict=False)
                            if x != y)
                return OrderResult(pairs, asked_pairs, (
                    f"{a!r} and {b!r} were not ordered, yet end otherwise in the other order ({diff}); "
                    f"setup {setup!r}, seed {game_seed}"))
        asked_pairs += was_asked
    return OrderResult(pairs, asked_pairs)
