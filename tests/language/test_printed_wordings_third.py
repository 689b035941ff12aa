"""Printed-card wordings, third set (issue 34; docs/card-language.md, "Printed wordings, third set"): phrases of
several words read as one ("When revealed", "discard pile", "spaces on the reputation track", "that player"),
"steal" for "take", words left out ("this way", "up to" before an amount taken, "either"), words read in ("A or B",
a list of loot after "you have"), respellings ("has" before loot, a singular verb, "have" for "hold") and phrases
put in the grammar's order ("the X's owner", "you don't have", "move your reputation marker up 2 spaces").

Each is read as exactly the tree of its canonical form, which ``cards check`` shows; what reads two ways is refused.
"""

from __future__ import annotations

import pytest

import libertalia as lt
from libertalia.errors import UnsayableError
from libertalia.language.normalise import singular_kinds
from libertalia.language.parser import parse
from tests.language.test_printed_wordings_second import _load, _refused

PAIRS = [
    # phrases of several words read as one word
    ("When revealed: Each other player pays you 1 doubloon.", "sun: every other player pays you 1 doubloon."),
    ("When played: Gain 2 doubloons.", "sun: gain 2 doubloons."),
    ("At voyage end: Lose 1 doubloon for each relic you have.", "anchor: lose 1 doubloon for each relic you hold."),
    ("End of voyage: Gain 2 doubloons for each character in your discard pile.",
     "anchor: gain 2 doubloons for each character in your graveyard."),
    ("Day: Lose 3 doubloons and move up 2 spaces on the reputation track.",
     "sun: lose 3 doubloons and gain 2 reputation."),
    ("Day: Move down 1 space on your reputation track.", "sun: lose 1 reputation."),
    ("Day: Choose an opponent. That player loses 2 doubloons.",
     "sun: another player of your choice loses 2 doubloons."),
    # steal, and words that say nothing there
    ("Day: Steal a loot token from the player on your right. Lose 1 reputation.",
     "sun: take a loot from the player on your right, then lose 1 reputation."),
    ("Day: Steal up to 3 doubloons from the player on your left.",
     "sun: the player on your left pays you 3 doubloons."),
    ("Day: The player on your right loses up to two doubloons.", "sun: the player on your right loses 2 doubloons."),
    ("Day: Return all your relics to the bag. Gain 1 reputation for each relic returned this way.",
     "sun: return every relic you hold to the bag, then gain 1 reputation for each one returned."),
    ("Day: Either gain 3 doubloons or lose 1 reputation.", "sun: choose one: gain 3 doubloons; or lose 1 reputation."),
    # a choice with "or", an amount alone repeating its verb
    ("Day: Discard a character from your ship or lose 3 doubloons.",
     "sun: choose one: discard a character from your ship; or lose 3 doubloons."),
    ("Day: Gain 3 doubloons or 1 reputation.", "sun: choose one: gain 3 doubloons; or gain 1 reputation."),
    ("Day: Lose 2 doubloons, or 1 reputation.", "sun: choose one: lose 2 doubloons; or lose 1 reputation."),
    ("Day: Choose one: gain 3 doubloons, or gain 1 reputation.",
     "sun: choose one: gain 3 doubloons; or gain 1 reputation."),
    ("Day: Choose one: gain 3 doubloons or take a map from today's loot.",
     "sun: choose one: gain 3 doubloons; or take a map from today's loot."),
    # a list of loot after "you have", joined as its last word
    ("End of voyage: If you have an amulet, a barrel and a chest, gain 5 doubloons.",
     "anchor: if you hold an amulet and you hold a barrel and you hold a chest, gain 5 doubloons."),
    ("Day: If you have a chest, a map, or a relic, gain 1 doubloon.",
     "sun: if you hold a chest or you hold a map or you hold a relic, gain 1 doubloon."),
    ("Day: If you have a map or a chest, gain 2 doubloons.",
     "sun: if you hold a map or you hold a chest, gain 2 doubloons."),
    ("Day: If you have a character in your ship and a relic, gain 2 doubloons.",
     "sun: if there is a character in your ship and you hold a relic, gain 2 doubloons."),
    # respellings
    ("Night: Each other player who has a relic loses 1 doubloon.",
     "moon: each other player who holds a relic loses 1 doubloon."),
    ("Day: Each opponent who has at least 2 maps pays you 1 doubloon.",
     "sun: each opponent who holds 2 or more map pays you 1 doubloon."),
    ("Day: Each player with no characters in their ship gains 3 doubloons.",
     "sun: each player with no character in their ship gains 3 doubloons."),
    # phrases put in the grammar's order
    ("Day: The rightmost character's owner gains 3 doubloons.",
     "sun: the owner of the rightmost character gains 3 doubloons."),
    ("Day: The lowest-ranked card's owner on the island loses 1 doubloon.",
     "sun: the owner of the lowest-ranked character on the island loses 1 doubloon."),
    ("Day: If you don't have a relic, gain 2 doubloons.", "sun: if you hold no relic, gain 2 doubloons."),
    ("Day: If you do not have any characters in your ship, gain 2 doubloons.",
     "sun: if there is no character in your ship, gain 2 doubloons."),
    ("Day: Move your reputation marker up two spaces on the reputation track.", "sun: gain 2 reputation."),
    ("Night: If your ship contains 4 or more characters, gain 2 doubloons.",
     "moon: if there are 4 or more characters in your ship, gain 2 doubloons."),
    ("Night: If your hand has no cards, gain 2 doubloons.",
     "moon: if there is no character in your hand, gain 2 doubloons."),
    # holding, a kind, a pick, a group said in other words
    ("Night: Lose 1 doubloon for each relic you own.", "moon: lose 1 doubloon for each relic you hold."),
    ("Night: Gain 1 doubloon for each different type of loot you have.",
     "moon: gain 1 doubloon for each kind of loot you hold."),
    ("Day: Take any loot token from today's loot.", "sun: take a loot from today's loot."),
    ("Day: Take a loot token of your choice from today's loot.", "sun: take a loot from today's loot."),
    ("Day: Discard one character from your ship.", "sun: discard a character from your ship."),
    ("Day: Discard any character from your hand.", "sun: discard a character from your hand."),
    ("End of voyage: Gain 3 doubloons for each set of 2 maps you have.",
     "anchor: gain 3 doubloons for every 2 map you hold."),
    # words that say nothing there
    ("Day: Take a saber or a hook from today's loot.", "sun: take a saber or hook from today's loot."),
    ("Dusk: Gain 2 doubloons if you took a map or a chest.", "dusk: gain 2 doubloons if you just took a map or chest."),
    ("Day: Each other player must discard a character from their hand.",
     "sun: every other player discards a character from their hand."),
    ("Day: You may choose to lose 2 doubloons. If you do, gain 1 reputation.",
     "sun: you may lose 2 doubloons, then if you did, gain 1 reputation."),
    ("Day: The next player loses 2 doubloons.", "sun: the player on your left loses 2 doubloons."),
    ("Day: Steal 2 doubloons from the previous player.", "sun: the player on your right pays you 2 doubloons."),
    ("Day: Gain 1 doubloon. Then, if you have a chest, gain 2 doubloons.",
     "sun: gain 1 doubloon, then if you hold a chest, gain 2 doubloons."),
    ("Dusk: If this card is still on the island, gain 2 doubloons.",
     "dusk: if this is on the island, gain 2 doubloons."),
]


@pytest.mark.parametrize(("printed", "canonical"), PAIRS)
def test_a_printed_wording_is_its_canonical_tree(printed: str, canonical: str) -> None:
    """Printed wordings, third set: each is read as exactly the canonical form's tree."""
    assert _load(printed) == canonical
    kinds = ("chest", "map", "relic", "barrel", "amulet", "hook", "saber")  # plurals are read as the rules load
    assert singular_kinds(parse(printed), kinds) == singular_kinds(parse(canonical), kinds)


@pytest.mark.parametrize("text", [
    "Day: If you have a chest and a map or a relic, gain 1 doubloon.",  # which of "and", "or" binds first?
    "Day: If you have a chest, a map, gain 1 doubloon.",  # a list with no joining word
    "Day: Gain 2 doubloons or gain 1 reputation if you have a map.",  # a choice, or a replacement when C?
    "Day: Each opponent loses 2 doubloons or 1 reputation.",  # who chooses?
    "Day: Gain up to 3 doubloons.",  # a gain up to 3 is no payment that takes what there is
    "Day: Each other player discards a character of your choice from their ship.",  # they discard, you choose
])
def test_a_wording_left_open_is_still_refused(text: str) -> None:
    """Printed wordings, third set: a list joined with both "and" and "or" (or neither), "A or B if C", a choice of
    another player's, and "gain up to N" are not read: each could mean more than one thing."""
    _refused(text)


@pytest.mark.parametrize(("text", "intent"), [
    ("Day: Choose another player. You and that player each gain 2 doubloons.", "you and another player together"),
    ("Day: Steal up to 2 doubloons from each player adjacent to you.", "both seat neighbours as one group"),
    ("Day: If the character to the left of this one belongs to another player, gain 3 doubloons.",
     "a condition said of a neighbour"),
])
def test_unsayable_printed_wordings_get_their_entry(text: str, intent: str) -> None:
    """Printed wordings, third set: two players as one subject, both neighbours as one group and a condition on a
    neighbour are refused by their known-intents entry, with the nearest line, before any "did you mean"."""
    from libertalia.language.intents import INTENTS

    error = _refused(text)
    first = (getattr(error, "errors", None) or [error])[0]
    assert isinstance(first, UnsayableError), first
    assert str(first.message).endswith(next(i for i in INTENTS if i.name == intent).lacks)


@pytest.mark.parametrize(("text", "word"), [
    ("sun: steal up to 2 doubloons from the player on your lef.", "lef"),
    ("sun: move your reputation marker up two spaces on the reputation track, then gian 2 doubloons.", "gian"),
    ("sun: gain 1 doubloon for each character in your discard pile or lose 1 doublon.", "doublon"),
])
def test_an_error_after_a_printed_phrase_is_found_where_the_parser_stops(text: str, word: str) -> None:
    """Printed wordings, third set: the repair search reads a line through the lexer's own reading, so the error is
    the word the parser stops at, never a word of a phrase the lexer reads."""
    with pytest.raises(lt.CardError) as info:
        lt.parse(text)
    assert (info.value.column, repr(word) in info.value.message) == (text.index(f" {word}") + 2, True)


def test_a_word_the_parser_takes_keeps_its_own_reading() -> None:
    """Printed wordings, third set: a phrase, a respelling or a word left out applies only where the word as written
    cannot stand: "discard" before "pile" elsewhere, "has" before a character, "or" of a list keep their words."""
    assert _load("Day: Discard a character in your ship.") == "sun: discard a character in your ship."
    assert _load("Day: Each player who has a character in their ship gains 1 doubloon.") == \
        "sun: each player who has a character in their ship gains 1 doubloon."
    assert _load("Day: Take a saber or hook from today's loot.") == "sun: take a saber or hook from today's loot."
    assert _load("Day: Gain 5 doubloons, or 7 doubloons if you hold a map.") == \
        "sun: gain 7 doubloons if you hold a map; otherwise gain 5 doubloons."
