"""Printed-card wordings (issue 34.1): each read as its canonical form, or refused naming both readings.

docs/card-language.md, "Plain-English variants": a printed wording builds exactly the tree of the canonical
wording beside it, so it compiles to the same program and ``cards check`` shows the canonical text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from libertalia.errors import WordingError
from tests.helpers import mod_rules, write_cards

# (printed, canonical): one pair a kind of wording, in sentences of our own.
PAIRS = [
    # a "," after the timing, as "At dusk, …" reads, is its ":" (a modifier keeps its ",")
    ("At dusk, take a map from today's loot.", "dusk: take a map from today's loot."),
    ("Each night, lose 1 doubloon.", "moon: lose 1 doubloon."),
    ("Dusk, last: gain 1 doubloon.", "dusk, last: gain 1 doubloon."),
    # the first and the last character on the island, by day
    ("Day: The owner of the last character on the island gains 2 doubloons.",
     "sun: the owner of the rightmost character on the island gains 2 doubloons."),
    ("sun: discard the first other character on the island.",
     "sun: discard the leftmost other character on the island."),
    ("sun: gain 4 doubloons if this is the last character on the island.",
     "sun: gain 4 doubloons if this is the rightmost character on the island."),
    ("sun: if this is the first character, lose 1 reputation.",
     "sun: if this is the leftmost character, lose 1 reputation."),
    # adjacency on the island
    ("Day: Put a character adjacent to this one into your hand.",
     "sun: choose one: put the character left of this into your hand; or put the character right of this into "
     "your hand."),
    ("sun: discard a character next to this card on the island.",
     "sun: choose one: discard the character left of this; or discard the character right of this."),
    ("sun: discard each character beside this one, then gain 1 doubloon.",
     "sun: discard the character left of this and discard the character right of this, then gain 1 doubloon."),
    ("sun: if you hold a map, discard every character adjacent to this; otherwise gain 1 doubloon.",
     "sun: if you hold a map, discard the character left of this and discard the character right of this; "
     "otherwise gain 1 doubloon."),
    # "target" is "a": the owner chooses
    ("Day: Discard target character in an opponent's ship.", "sun: discard a character in an opponent's ship."),
    # discarding a loot token sends it back to the bag
    ("Night: Discard a chest you hold. If you do, gain 6 doubloons.",
     "moon: return a chest you hold to the bag, then if you did, gain 6 doubloons."),
    ("moon: discard a saber.", "moon: return a saber you hold to the bag."),
    ("sun: discard every hook in today's loot.", "sun: return every hook in today's loot to the bag."),
    ("Day: Give one of your loot tokens to the player on your right.",
     "sun: give a loot you hold to the player on your right."),
    ("moon: discard one of your loot tokens.", "moon: return a loot you hold to the bag."),
    # players named in the plural, with a plural verb
    ("Day: All other players lose 2 doubloons.", "sun: every other player loses 2 doubloons."),
    ("Day: Your opponents each move down 1 reputation.", "sun: every other player loses 1 reputation."),
    ("Night: All players gain 1 doubloon.", "moon: every player gains 1 doubloon."),
    ("Day: Other players pay you 1 doubloon.", "sun: every other player pays you 1 doubloon."),
    ("Day: All of your opponents discard a character from their hand.",
     "sun: every other player discards a character from their hand."),
    ("Day: All opponents return a loot they hold to the bag.",
     "sun: every other player returns a loot they hold to the bag."),
    # more places and counts said as printed cards say them
    ("Night: The player to your left pays you 1 doubloon.", "moon: the player on your left pays you 1 doubloon."),
    ("sun: give a loot token to the player to your right.", "sun: give a loot you hold to the player on your right."),
    ("Day: You may return a loot token to the bag.", "sun: you may return a loot you hold to the bag."),
    ("Night: Gain 1 doubloon for each of your loot tokens.", "moon: gain 1 doubloon for each loot you hold."),
    ("Day: Draw a loot token. Then draw three loot tokens.",
     "sun: draw 1 random loot from the bag, then draw 3 random loot from the bag."),
    ("Day: Put the lowest ranked character in your ship into your hand.",
     "sun: put the lowest-ranked character in your ship into your hand."),
    ("sun: if this is the highest ranked character on the island, lose 2 doubloons.",
     "sun: if this is the highest-ranked character on the island, lose 2 doubloons."),
    ("anchor: if you have more doubloons than each opponent, lose 3 doubloons.",
     "anchor: if you have more doubloons than every other player, lose 3 doubloons."),
    ("anchor: gain 2 doubloons if you have at least as many characters in your ship as all other players.",
     "anchor: gain 2 doubloons if you have at least as many characters in your ship as every other player."),
    ("moon: gain 1 doubloon if there are no other characters in your ship.",
     "moon: gain 1 doubloon if there is no other character in your ship."),
    # "more than N", "fewer than N" and "exactly N" on whole numbers
    ("Night: If you have fewer than 4 doubloons, gain 2 doubloons.",
     "moon: if you have 3 or fewer doubloons, gain 2 doubloons."),
    ("sun: lose 1 reputation if there are more than 2 characters in your hand.",
     "sun: lose 1 reputation if there are 3 or more characters in your hand."),
    ("sun: every other player with more than 6 doubloons pays you 1 doubloon.",
     "sun: every other player with 7 or more doubloons pays you 1 doubloon."),
    ("anchor: if you hold exactly 1 loot, gain 5 doubloons.",
     "anchor: if you hold 1 or more loot and you hold 1 or fewer loot, gain 5 doubloons."),
    ("Day: If you have exactly 3 doubloons, gain 3 doubloons.",
     "sun: if you have 3 or more doubloons and you have 3 or fewer doubloons, gain 3 doubloons."),
    ("moon: gain 2 doubloons if there are exactly 2 characters in your ship.",
     "moon: gain 2 doubloons if there are 2 or more characters in your ship and there are 2 or fewer characters in "
     "your ship."),
    # "the most reputation" never ties
    ("anchor: if you have the most reputation, gain 3 doubloons.",
     "anchor: if you have the highest reputation, gain 3 doubloons."),
    ("anchor: gain 1 doubloon if you have the fewest reputation.",
     "anchor: gain 1 doubloon if you have the lowest reputation."),
]


@pytest.mark.parametrize(("printed", "canonical"), PAIRS, ids=[p[:48] for p, _ in PAIRS])
def test_a_printed_wording_parses_to_its_canonical_tree(printed: str, canonical: str) -> None:
    """Plain-English variants (issue 34.1): the printed wording's tree is the canonical one, rendered canonically."""
    tree = lt.parse(printed)
    assert tree == lt.parse(canonical)
    assert lt.render(tree) == canonical


def test_instead_of_taking_loot_is_take_no_loot_and_the_effect() -> None:
    """Plain-English variants: "Instead of taking a loot token, A" at dusk is "dusk: take no loot." and "dusk: A."."""
    tree = lt.parse("Dusk: Instead of taking a loot token, gain 2 reputation and lose 1 doubloon.")
    canonical = "dusk: take no loot.\ndusk: gain 2 reputation and lose 1 doubloon."
    assert tree == lt.parse(canonical)
    assert lt.render(tree) == canonical


@pytest.mark.parametrize(("printed", "canonical"), [
    ("moon: discard one of your maps, then gain 2 doubloons.", "moon: return a map you hold to the bag, then gain 2 "
                                                                "doubloons."),
    ("Day: Give one of your amulets to the player on your right.",
     "sun: give an amulet you hold to the player on your right."),
    ("End of voyage: Gain 2 doubloons for each of your relics.", "anchor: gain 2 doubloons for each relic you hold."),
    ("Dusk: Instead of getting any loot, gain 4 doubloons.", "dusk: take no loot.\ndusk: gain 4 doubloons."),
    ("Day: Discard a character adjacent to this one.",
     "sun: choose one: discard the character left of this; or discard the character right of this."),
])
def test_a_printed_card_loads_as_its_canonical_card(printed: str, canonical: str, tmp_path: Path) -> None:
    """Plain-English variants: a card in printed words loads (checker included) as the canonical card does."""
    rules = mod_rules(write_cards(tmp_path / "p", {"Print Reader": (61, printed.replace("\n", "\n  "))}))
    plain = mod_rules(write_cards(tmp_path / "c", {"Print Reader": (61, canonical.replace("\n", "\n  "))}))
    assert rules.card("Print Reader").abilities == plain.card("Print Reader").abilities
    assert lt.render(rules.card("Print Reader").abilities) == canonical


def test_one_before_a_kind_is_still_the_number() -> None:
    """Plain-English variants: only "one of" is "one of your …"; "return one map you hold" keeps its count of 1."""
    assert lt.parse("sun: return one map you hold to the bag.") == lt.parse("sun: return 1 map you hold to the bag.")


@pytest.mark.parametrize(("text", "readings"), [
    ("dusk: discard the last character on the island.", ("rightmost", "leftmost")),
    ("Dusk: If this is the first character on the island, gain 2 doubloons.", ("leftmost", "rightmost")),
    ("sun: discard the character next to this one.", ("left of this", "right of this")),
    ("sun: put the character adjacent to this card on the island into your hand.", ("left of this", "right of this")),
    ("anchor: gain 3 doubloons if you have the most characters in your ship.", ("more", "at least as many")),
    ("anchor: gain 3 doubloons if you hold the fewest relics.", ("fewer", "no more than")),
])
def test_a_printed_wording_read_two_ways_is_refused_naming_both(text: str, readings: tuple[str, str]) -> None:
    """Issue 34.1: a wording with two readings is refused, and the message names both."""
    with pytest.raises(WordingError) as info:
        lt.parse(text)
    assert "two ways" in info.value.message
    assert all(r in info.value.message for r in readings), info.value.message


@pytest.mark.parametrize("text", [
    "sun: gain 1 doubloon for each character adjacent to this one.",  # a count
    "sun: the owner of a character next to this one loses 1 doubloon.",  # of an owner
    "sun: discard a character adjacent to this one and gain 1 doubloon.",  # a choice beside another action
    "sun: you may discard a character adjacent to this one.",  # a choice in a branch
    "sun: discard a Cook adjacent to this one.",  # a name the neighbour words cannot carry
    "dusk: discard a character adjacent to this one.",  # at dusk only the left neighbour is on the island
    "sun: discard the last character in your ship.",  # a ship has no row
    "sun: gain 1 doubloon if you hold fewer than 0 relics.",  # nothing is fewer than 0
])
def test_adjacency_and_order_where_no_canonical_form_says_them_are_refused(text: str) -> None:
    """Issue 34.1: "adjacent to this one" and "the last …" outside what "left/right of this" can say are refused."""
    with pytest.raises(WordingError) as info:
        lt.parse(text)
    assert info.value.expected


def test_a_worth_said_of_a_kind_is_refused_naming_both_readings(tmp_path: Path) -> None:
    """Printed wordings, a worth (issue 34.1): on a character "your maps are worth 2 doubloons each" reads two ways
    (on top of each token's own worth, or in its place); refused, both named, with the sayable one to write."""
    with pytest.raises(lt.CardError) as info:
        mod_rules(write_cards(tmp_path, {"Map Lover": (61, "End of voyage: Your maps are worth 2 doubloons each.")}))
    assert "reads two ways" in str(info.value) and "on top of its own worth" in str(info.value)
    assert "in place of its own" in str(info.value) and "worth 2 more doubloons" in str(info.value)


def _day(tmp_path: Path, text: str, plays: tuple[str, str], answers: tuple[str, ...] = ()) -> tuple[lt.Game, list[str]]:
    """Seat 0 plays a rank-20.25 card with ``text``; seats 1 and 2 play ``plays``; the kinds asked on the way."""
    rules = mod_rules(write_cards(tmp_path, {"Printer": (20.25, text)}))
    seats = [{"hand": ["Printer", "Cook"], "loot": ["relic"], "doubloons": 0}, {"hand": [plays[0], "Cook"]},
             {"hand": [plays[1], "Cook"]}]
    game = lt.new_game(rules, 3, seed=0, setup={"players": seats, "loot": [["amulet", "amulet", "relic"]],
                                                "reputation": [0, 1, 2]})
    for key in ("Printer", *plays):
        game = game.choose(key)
    asked = []
    for answer in answers:
        assert game.decision is not None
        asked.append(game.decision.kind)
        game = game.choose(answer)
    return game, asked


@pytest.mark.parametrize(("answer", "seat", "name"), [("1", 1, "Explorer"), ("2", 2, "Armorer")])
def test_a_character_adjacent_to_this_one_is_either_neighbour(tmp_path: Path, answer: str, seat: int,
                                                              name: str) -> None:
    """Issue 34.1: with a neighbour on each side, the owner picks which one "a character adjacent" names."""
    game, asked = _day(tmp_path, "Day: Discard a character adjacent to this one.", ("Explorer", "Armorer"), (answer,))
    assert asked == ["choose_option"]
    assert list(game.players[seat].graveyard) == [name]
    assert not game.players[3 - seat].graveyard


def test_a_character_adjacent_to_this_one_with_one_neighbour_is_not_asked(tmp_path: Path) -> None:
    """Meaning rule "options": with no character right of it, the left neighbour goes without a question."""
    game, _ = _day(tmp_path, "Day: Discard a character adjacent to this one.", ("Explorer", "Gunner"))
    assert game.decision is not None and game.decision.kind != "choose_option"
    assert list(game.players[2].graveyard) == ["Gunner"] and not game.players[1].graveyard


def test_discarding_a_token_sends_it_back_to_the_bag(tmp_path: Path) -> None:
    """Issue 34.1 (cards.md: loot discarded mid-voyage goes back into the bag): "discard a relic" returns it."""
    game, _ = _day(tmp_path, "Day: Discard a relic. If you do, gain 4 doubloons.", ("Explorer", "Armorer"))
    me = game.players[0]
    assert "relic" not in me.loot and me.doubloons == 4
