"""Plain-English variants read as exactly the tree of their canonical wording (docs/card-language.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from libertalia.errors import WordingError
from tests.helpers import mod_rules, write_cards

# (variant, canonical): each pair is one kind of variant, in a sentence of its own.
PAIRS = [
    ("sun: Gain two doubloons", "sun: gain 2 doubloons."),
    ("day: each player loses 1 doubloon.", "sun: every player loses 1 doubloon."),
    ("night: each opponent loses 1 doubloon.", "moon: every other player loses 1 doubloon."),
    ("moon: each opponent discards the lowest-ranked character in their ship.",
     "moon: every other player discards the lowest-ranked character in their ship."),
    ("sun: each other player loses 1 doubloon.", "sun: every other player loses 1 doubloon."),
    ("at the end of the voyage: gain 2 doubloons.", "anchor: gain 2 doubloons."),
    ("End of voyage: gain 2 doubloons per character in your ship.",
     "anchor: gain 2 doubloons for each character in your ship."),
    ("at dusk: take a map from today's loot.", "dusk: take a map from today's loot."),
    ("sun: discard a character in an opponent's ship. Its owner gains 2 doubloons.",
     "sun: discard a character in an opponent's ship, then its owner gains 2 doubloons."),
    ("dusk: take a map from today's loot. Then gain 1 doubloon.",
     "dusk: take a map from today's loot, then gain 1 doubloon."),
    ("sun: gain 2 doubloons and then lose 1 reputation.", "sun: gain 2 doubloons, then lose 1 reputation."),
    ("sun: gain 2 doubloons; then lose 1 reputation.", "sun: gain 2 doubloons, then lose 1 reputation."),
    ("sun: you may discard a character in your hand; if you do, gain 3 doubloons.",
     "sun: you may discard a character in your hand, then if you did, gain 3 doubloons."),
    ("sun: discard a character in your hand; if you cannot, lose 3 doubloons.",
     "sun: discard a character in your hand, then lose 3 doubloons unless you did."),
    ("sun: discard a character in your hand. If you didn't, lose 3 doubloons.",
     "sun: discard a character in your hand, then lose 3 doubloons unless you did."),
    ("sun: gain 1 doubloon. If this is the leftmost character, gain 4 doubloons instead.",
     "sun: gain 4 doubloons if this is the leftmost character; otherwise gain 1 doubloon."),
    ("sun: gain 1 doubloon; gain 4 doubloons instead if you hold a map.",
     "sun: gain 4 doubloons if you hold a map; otherwise gain 1 doubloon."),
    ("sun: gain 1 doubloon. Gain 4 doubloons instead unless you hold a map.",
     "sun: gain 1 doubloon if you hold a map; otherwise gain 4 doubloons."),
    ("anchor: gain 5 doubloons, or 7 doubloons if you hold a map.",
     "anchor: gain 7 doubloons if you hold a map; otherwise gain 5 doubloons."),
    ("sun: gain 3 doubloons if you hold a map, otherwise lose 1 doubloon.",
     "sun: gain 3 doubloons if you hold a map; otherwise lose 1 doubloon."),
    ("sun: gain 3 doubloons if you hold a map; otherwise, lose 1 doubloon.",
     "sun: gain 3 doubloons if you hold a map; otherwise lose 1 doubloon."),
    ("sun: discard the character to the left of this card.", "sun: discard the character left of this."),
    ("sun: discard the character directly to the right of this character.",
     "sun: discard the character right of this."),
    ("sun: return every relic you hold to the bag, then gain 2 doubloons for each relic returned.",
     "sun: return every relic you hold to the bag, then gain 2 doubloons for each one returned."),
    ("sun: discard a character in your hand, then gain 2 doubloons for each character discarded.",
     "sun: discard a character in your hand, then gain 2 doubloons for each one discarded."),
    ("anchor: gain 1 doubloon for each map you have.", "anchor: gain 1 doubloon for each map you hold."),
    ("anchor: gain 1 doubloon for every map you hold.", "anchor: gain 1 doubloon for each map you hold."),
    ("anchor: gain 2 doubloons for each hook and each saber you hold.",
     "anchor: gain 2 doubloons for each hook or saber you hold."),
    ("anchor: gain 1 doubloon for each different kind of loot you hold.",
     "anchor: gain 1 doubloon for each kind of loot you hold."),
    ("dusk: take an amulet token from today's loot.", "dusk: take an amulet from today's loot."),
    ("moon: use the night ability of a character in your ship.",
     "moon: use the moon ability of a character in your ship."),
    ("sun: discard a character owned by an opponent on the island.",
     "sun: discard a character owned by another player on the island."),
    ("sun: you gain 2 doubloons and you lose 1 reputation.", "sun: gain 2 doubloons and lose 1 reputation."),
    ("sun: every other player gives you 1 doubloon.", "sun: every other player pays you 1 doubloon."),
    ("sun: steal 2 doubloons from the player on your left.", "sun: the player on your left pays you 2 doubloons."),
    ("sun: take 2 doubloons from the player on your right.", "sun: the player on your right pays you 2 doubloons."),
    ("dusk: gain 2 more doubloons if you just took a chest.", "dusk: gain 2 doubloons if you just took a chest."),
    ("dusk: if the loot you took is a chest, gain 2 doubloons.", "dusk: if you just took a chest, gain 2 doubloons."),
    ("moon: if you have 3 or more characters in your ship, gain 1 doubloon.",
     "moon: if there are 3 or more characters in your ship, gain 1 doubloon."),
    ("anchor: gain 3 doubloons if your graveyard is empty.",
     "anchor: gain 3 doubloons if there is no character in your graveyard."),
    ("sun: discard all other characters on the island.", "sun: discard every other character on the island."),
    ("sun: discard the highest-ranked character on the island other than this one.",
     "sun: discard the highest-ranked other character on the island."),
    ("sun: discard the lowest-ranked character in every other player's ship.",
     "sun: discard the lowest-ranked character in each opponent's ship."),
    ("moon: return a character from your graveyard to your hand.",
     "moon: put a character from your graveyard into your hand."),
    ("sun: discard every character on the island ranked lower than this card.",
     "sun: discard every character on the island ranked below this."),
    ("sun: discard a character on the island ranked higher than 30.",
     "sun: discard a character on the island ranked above 30."),
    ("anchor: if this is the only character in your ship, gain 10 doubloons.",
     "anchor: if this is in your ship and there is no other character in your ship, gain 10 doubloons."),
    ("dusk: discard a character in the ship of the player on your left or on your right.",
     "dusk: discard a character in an adjacent player's ship."),
    ("sun: every player with a map loses 1 doubloon.", "sun: every player who holds a map loses 1 doubloon."),
    ("sun: if this card is the leftmost character, gain 1 doubloon.",
     "sun: if this is the leftmost character, gain 1 doubloon."),
    ("dusk: discard this card instead of placing it in your ship, and gain 4 doubloons.",
     "dusk: discard this and gain 4 doubloons."),
    ("sun: discard this instead of putting it into your ship.", "sun: discard this."),
    ("sun: gain 1 doubloon, and lose 1 reputation.", "sun: gain 1 doubloon and lose 1 reputation."),
    ("anchor: gain 2 doubloons if you have more reputation than every other player.",
     "anchor: gain 2 doubloons if you have the highest reputation."),
    ("anchor: gain 2 doubloons if you have fewer reputation than any other player.",
     "anchor: gain 2 doubloons if you have the lowest reputation."),
    ("sun: each player with the most reputation loses 1 doubloon.",
     "sun: the player with the highest reputation loses 1 doubloon."),
    ("sun: the player with the fewest reputation loses 1 doubloon.",
     "sun: the player with the lowest reputation loses 1 doubloon."),
    ("sun: take a loot token from another player.", "sun: take a loot from another player."),
    ("dusk: draw a loot token from the bag.", "dusk: draw 1 random loot from the bag."),
    ("sun: draw two loot from the bag.", "sun: draw 2 random loot from the bag."),
    ("sun: give every map you hold to the bag.", "sun: return every map you hold to the bag."),
    ("sun: return a map you hold to the player on your left.", "sun: give a map you hold to the player on your left."),
    ("moon: move up 1 reputation.", "moon: gain 1 reputation."),
    ("anchor: move down 1 reputation for each relic you hold.", "anchor: lose 1 reputation for each relic you hold."),
    ("sun: every other player moves down 1 reputation.", "sun: every other player loses 1 reputation."),
    ("dusk: if you hold at least 2 chest, gain 3 doubloons.", "dusk: if you hold 2 or more chest, gain 3 doubloons."),
    ("moon: lose 2 doubloons if you have at least 6 doubloons.",
     "moon: lose 2 doubloons if you have 6 or more doubloons."),
    ("sun: each player who has at least 7 doubloons loses 2 doubloons.",
     "sun: each player who has 7 or more doubloons loses 2 doubloons."),
    ("anchor: gain 4 doubloons if there are at least 4 characters in your ship.",
     "anchor: gain 4 doubloons if there are 4 or more characters in your ship."),
    ("moon: copy the night ability of a character in your ship.",
     "moon: use the moon ability of a character in your ship."),
    ("sun: discard a character on the island that belongs to another player.",
     "sun: discard a character on the island owned by another player."),
    ("sun: discard a character in any ship belonging to the player on your right.",
     "sun: discard a character in any ship owned by the player on your right."),
    ("dusk: return all your loot to the bag.", "dusk: return every loot you hold to the bag."),
    ("sun: lose 1 reputation, or lose 3 doubloons.", "sun: choose one: lose 1 reputation; or lose 3 doubloons."),
    ("sun: discard the character with the lowest rank in an opponent's ship.",
     "sun: discard the lowest-ranked character in an opponent's ship."),
    ("dusk: put the other character with the highest rank in your ship into your hand.",
     "dusk: put the highest-ranked other character in your ship into your hand."),
    ("sun: discard the lowest-ranked character on the island, other than this card.",
     "sun: discard the lowest-ranked other character on the island."),
    ("moon: if you have no doubloons, gain 2 doubloons.", "moon: if you have 0 or fewer doubloons, gain 2 doubloons."),
]


@pytest.mark.parametrize(("variant", "canonical"), PAIRS, ids=[v[:48] for v, _ in PAIRS])
def test_a_variant_parses_to_its_canonical_tree(variant: str, canonical: str) -> None:
    """A variant's tree is the canonical wording's, and render prints the canonical wording."""
    tree = lt.parse(variant)
    assert tree == lt.parse(canonical)
    assert lt.render(tree) == canonical


@pytest.mark.parametrize("text", [
    "sun: if you hold a map, gain 4 doubloons instead.",  # nothing before it to replace
    "sun: you may gain 1 doubloon. If you hold a map, gain 4 doubloons instead.",  # replaces a may
    "sun: if you have 3 or more characters, gain 1 doubloon.",  # says not where
    "sun: lose 1 doubloon and take a map from the bag, or 2 doubloons if you hold a map.",  # whose amount?
    "sun: discard this instead of placing it on your ship.",  # placed on what?
    "sun: move up 2 doubloons.",  # a track of reputation only
    "sun: the player on your left moves down 1 doubloon.",
])
def test_a_variant_with_no_one_meaning_is_refused_saying_what_to_write(text: str) -> None:
    """A variant the parser reads but cannot give one meaning raises WordingError, with what to write."""
    with pytest.raises(WordingError) as info:
        lt.parse(text)
    assert info.value.expected and info.value.line == 1 and info.value.column >= 1


def test_plural_kinds_read_as_the_rules_kinds(tmp_path: Path) -> None:
    """A plural loot kind is read against the board's kinds when the card loads: the canonical tree."""
    rules = mod_rules(write_cards(tmp_path, {
        "Tally Clerk": (41.5, "anchor: if you hold 3 or more maps, gain 5 doubloons.\n  "
                              "sun: return every relics you hold to the bag, then gain 2 doubloons for each relics "
                              "returned.")}))
    card = rules.card("Tally Clerk")
    assert card.abilities == lt.parse("anchor: if you hold 3 or more map, gain 5 doubloons.\nsun: return every relic "
                                      "you hold to the bag, then gain 2 doubloons for each one returned.")


def test_a_word_that_is_no_kind_nor_its_plural_is_refused(tmp_path: Path) -> None:
    """"gems" is neither a kind nor a kind's plural: the checker names it, with the nearest kind."""
    with pytest.raises(lt.CardError) as info:
        mod_rules(write_cards(tmp_path, {"Gem Cutter": (41.5, "anchor: gain 1 doubloon for each gems you hold.")}))
    assert "gems" in str(info.value)


@pytest.mark.parametrize("text", [
    "sun: return every relic you hold to the bag, then gain 2 doubloons for each map returned.",
    "sun: discard a character in your hand, then gain 2 doubloons for each Cook discarded.",
    "sun: take a map from the bag, then gain 1 doubloon for each character taken.",
])
def test_a_named_count_must_name_what_was_acted_on(tmp_path: Path, text: str) -> None:
    """"for each relic returned" counts only a return of relics: another noun is refused (soundness)."""
    with pytest.raises(lt.CardError) as info:
        mod_rules(write_cards(tmp_path, {"Miscount": (41.5, text)}))
    assert "for each one" in info.value.expected


def test_a_named_count_counts_what_the_one_count_counts(tmp_path: Path) -> None:
    """The named count plays as "one returned": two relics returned pay 4 doubloons."""
    rules = mod_rules(write_cards(tmp_path, {"Relic Seller": (41.5, "sun: return every relic you hold to the bag, "
                                                                    "then gain 2 doubloons for each relic returned.")}))
    seats = [{"hand": ["Relic Seller", "Cook"], "loot": ["relic", "relic", "map"]},
             {"hand": ["Bosun", "Cook"]}, {"hand": ["Scout", "Cook"]}]
    game = lt.new_game(rules, 3, setup={"players": seats, "loot": [["chest", "map", "barrel"]]})
    game = game.choose("Relic Seller").choose("Bosun").choose("Scout")
    me = game.players[0]
    assert me.doubloons == 4 and sorted(me.loot) == ["map"]


def test_ranked_above_this_compares_with_the_running_character(tmp_path: Path) -> None:
    """"ranked higher than this card" ("ranked above this"): only characters outranking the card itself count."""
    rules = mod_rules(write_cards(tmp_path, {"Rank Keeper": (20.25, "sun: gain 1 doubloon for each character in "
                                                                   "your hand ranked higher than this card.")}))
    assert rules.card("Rank Keeper").abilities == lt.parse(
        "sun: gain 1 doubloon for each character in your hand ranked above this.")
    hand = ["Rank Keeper", "Scout", "Gunner", "Cook", "Armorer"]  # 20.25 | 1, 18, 26, 28: two above it
    ranks = [rules.rank(n) for n in hand[1:]]
    seats = [{"hand": hand}, {"hand": ["Bosun", "Cook"]}, {"hand": ["Thief", "Cook"]}]
    game = lt.new_game(rules, 3, setup={"players": seats, "loot": [["chest", "map", "barrel"]]})
    game = game.choose("Rank Keeper").choose("Bosun").choose("Thief")
    assert game.players[0].doubloons == sum(r > 20.25 for r in ranks) == 2


def test_ranked_above_this_on_a_loot_tile_is_refused(tmp_path: Path) -> None:
    """A loot tile is no character: "ranked above this" has nothing to compare with there."""
    (tmp_path / "map.yaml").write_text("kind: map\nside: calm\ncount: 10\ntext: |\n  anchor: gain 1 doubloon for each "
                                       "character in your ship ranked above this.\n", encoding="utf-8")
    with pytest.raises(lt.CardError) as info:
        mod_rules(tmp_path)
    assert "ranked above this" in str(info.value)


@pytest.mark.parametrize("text", [
    "moon: discard this instead of placing it in your ship.",
    "anchor: discard this card instead of putting it into your ship.",
])
def test_not_placing_a_card_in_its_ship_is_said_only_before_it_is(tmp_path: Path, text: str) -> None:
    """By night and at anchor a character is aboard already: "instead of placing it in your ship" is refused."""
    with pytest.raises(lt.CardError, match="has yet to be placed in a ship"):
        mod_rules(write_cards(tmp_path, {"Gallows": (41.5, text)}))


def _tile(tmp_path: Path, kind: str, text: str) -> lt.Rules:
    count = dict(lt.load_rules("galecrest").board.bag)[kind]
    (tmp_path / f"{kind}.yaml").write_text(f"kind: {kind}\nside: fan\ncount: {count}\ntext: |\n  {text}\n",
                                           encoding="utf-8")
    return mod_rules(tmp_path, loot={kind: "fan"})


@pytest.mark.parametrize(("kind", "text", "canonical"), [
    ("map", "anchor: each set of 2 maps is worth 6 doubloons.",
     "anchor, once: gain doubloons for your map in sets (2 for 6)."),
    ("relic", "anchor: score your relics: 1 relic, 1 doubloon; 2 or more relics, 4 doubloons.",
     "anchor, once: gain doubloons by relic you hold (1 for 1, 2 or more for 4)."),
    ("barrel", "anchor: gain 1 doubloon for each barrel you hold.",
     "anchor: gain 1 doubloon for each barrel you hold."),
    ("relic", "anchor: gain doubloons for your map in sets (2 for 6).",
     "anchor: gain doubloons for your map in sets (2 for 6)."),
])
def test_a_tile_scoring_its_own_kind_as_a_collection_runs_once(tmp_path: Path, kind: str, text: str,
                                                                canonical: str) -> None:
    """E34: a tile's set or table scoring of its own kind is one rule for all its tokens, so it reads as
    `once`; a count per token ("for each barrel") and a scoring of another kind keep running per token."""
    rules = _tile(tmp_path, kind, text)
    tile = next(t for t in rules.loot if t.kind == kind)
    assert lt.render(tile.abilities) == canonical


@pytest.mark.parametrize(("variant", "canonical"), [
    ("dusk: if you hold at least 2 maps, gain 3 doubloons.", "dusk: if you hold 2 or more map, gain 3 doubloons."),
    ("sun: return all your relics to the bag.", "sun: return every relic you hold to the bag."),
])
def test_a_plural_kind_in_a_printed_wording_loads_as_its_canonical_card(variant: str, canonical: str,
                                                                         tmp_path: Path) -> None:
    """Plain-English variants: "at least 2 maps" and "all your relics" load as the canonical singular kind."""
    rules = mod_rules(write_cards(tmp_path / "v", {"Plural Reader": (61, variant)}))
    plain = mod_rules(write_cards(tmp_path / "c", {"Plural Reader": (61, canonical)}))
    assert rules.card("Plural Reader").abilities == plain.card("Plural Reader").abilities
