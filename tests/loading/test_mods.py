"""Mods are data only: a folder of YAML cards replaces or adds cards with no Python change."""

from __future__ import annotations

from pathlib import Path

import libertalia as lt
from tests.helpers import answer, at, coins, galecrest, scores, start

RICH_CHEST = "kind: chest\nside: calm\ncount: 4\ntext: |\n  anchor: gain 6 doubloons.\n"

PIRATE_QUEEN = (
    "name: Pirate Queen\n"
    "rank: 41\n"
    "text: |\n"
    "  sun: gain 2 doubloons for each character in your ship ranked above 30.\n"
)


def mod(tmp_path: Path, files: dict[str, str]) -> Path:
    """Write a mod folder holding the given YAML files and return it."""
    folder = tmp_path / "mod"
    folder.mkdir(exist_ok=True)
    for name, body in files.items():
        (folder / name).write_text(body, encoding="utf-8")
    return folder


def anchor_scores(rules: lt.Rules) -> list[int]:
    """Play voyage 1's last day (3 Explorers, 3 amulets today; seat 0 holds a chest) and return the banked scores."""
    g = start(
        3,
        rules=rules,
        voyage=1,
        day=4,
        reputation=[0, 1, 2],
        players=[
            {"hand": ["Explorer"], "loot": ["chest"]},
            {"hand": ["Explorer"]},
            {"hand": ["Explorer"]},
        ],
        loot=[["amulet", "amulet", "amulet"]],
    )
    # every choice has one option; the voyage ends and voyage 2 starts at its selection
    at(g, "play_character", 0)
    assert g.voyage == 2
    return scores(g)


def test_mod_replaces_calm_chest_payout(tmp_path: Path) -> None:
    """A mod tile with the same kind and side replaces the calm chest: anchor pays 6 instead of 5."""
    folder = mod(tmp_path, {"chest.yaml": RICH_CHEST})
    rules = lt.load_rules("galecrest", extra_cards=[folder])
    assert rules.loot_spec("chest").text.strip() == "anchor: gain 6 doubloons."
    assert anchor_scores(galecrest()) == [5 + 3, 3, 3]
    assert anchor_scores(rules) == [6 + 3, 3, 3]
    # the stock rules are untouched by loading the mod
    assert lt.load_rules("galecrest").loot_spec("chest").text.strip() == "anchor: gain 5 doubloons."


def test_mod_adds_a_new_character_that_is_dealt_and_acts(tmp_path: Path) -> None:
    """A new rank-41 character from a mod can be declared in a hand, is placed rightmost and its sun ability runs."""
    folder = mod(tmp_path, {"pirate-queen.yaml": PIRATE_QUEEN})
    rules = lt.load_rules("galecrest", extra_cards=[folder])
    assert rules.has_card("Pirate Queen") and rules.rank("Pirate Queen") == 41
    assert not galecrest().has_card("Pirate Queen")
    g = start(
        3,
        rules=rules,
        reputation=[0, 1, 2],
        players=[
            {"hand": ["Pirate Queen", "Cook"], "ship": ["Captain", "Collector", "Explorer"]},
            {"hand": ["Treasurer", "Collector"]},
            {"hand": ["Collector", "Treasurer"]},
        ],
        loot=[["chest", "map", "relic"]],
    )
    at(g, "play_character", 0)
    assert g.players[0].hand == ("Cook", "Pirate Queen")
    g = answer(g, "Pirate Queen", "Treasurer", "Collector")
    assert g.island == ((1, "Treasurer"), (2, "Collector"), (0, "Pirate Queen"))
    # sun: Captain (39) and Collector (35) are above 30, the Explorer (10) is not: +4
    at(g, "choose_loot", 0)
    assert coins(g) == [4, 0, 0]
