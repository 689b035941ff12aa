"""Two readings the engine-mutation probe (seed 2) found no test for: "the rightmost" in a ship is the
character that boarded last, whatever its rank; and an arm of `choose one` whose subject is "the owner of
a character …" is offered by whether that owner could act (docs/card-language.md, "Options: offered
when taking them can change something").  The texts here are this file's own.
"""

from __future__ import annotations

from typing import Any

import pytest

import libertalia as lt
from tests.helpers import coins, mod_rules, write_cards

# Ranks no bundled Galecrest character has.
MOD = {
    "Sternward": (5.25, "sun: discard the rightmost character in your ship."),
    "Bowward": (5.75, "sun: discard the leftmost character in your ship."),
    "Tattler": (6.25, "sun: choose one: the owner of a character in an opponent's ship discards a character "
                      "from their hand; or gain 1 doubloon."),
    "Idler": (3.25, "moon: gain 1 doubloon."),
}


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    return mod_rules(write_cards(tmp_path_factory.mktemp("meaning_order"), MOD))


def _sun(rules: lt.Rules, first: str, seats: tuple[dict[str, Any], ...]) -> lt.Game:
    """Seat 0 plays ``first``, the others an Idler; stopped at the first question of the sun abilities."""
    hands = (first, "Idler", "Idler")
    players = [{"hand": [card, "Beggar", "Carpenter"], **extra} for card, extra in zip(hands, seats, strict=True)]
    game = lt.new_game(rules, 3, seed=0, setup={
        "voyage": 1, "day": 1, "reputation": [0, 1, 2], "loot": [["chest", "map", "relic"]] * 4,
        "players": players})
    for card in hands:
        if card in game.legal_keys():  # a seat with one card left plays it unasked
            game = game.choose(card)
    return game


def _through_day(game: lt.Game) -> lt.Game:
    while game.decision is not None and game.phase == "day":
        game = game.choose(game.legal_keys()[0])
    return game


@pytest.mark.parametrize(("card", "ship", "gone"), [
    ("Sternward", ["Governor", "Surgeon", "Brawler"], "Brawler"),  # the highest-ranked is the Governor
    ("Bowward", ["Surgeon", "Brawler", "Governor"], "Surgeon"),  # the lowest-ranked is the Brawler
])
def test_a_ship_side_is_where_the_card_lies_not_its_rank(rules: lt.Rules, card: str, ship: list[str],
                                                         gone: str) -> None:
    """Positional: "the rightmost"/"the leftmost" in a ship names the card that lies at that end (ships keep
    the order cards boarded in), never the highest- or lowest-ranked, as it would on the island."""
    game = _through_day(_sun(rules, card, ({"ship": ship}, {}, {})))
    assert f"{gone}#0" in game.players[0].graveyard or gone in game.players[0].graveyard
    assert [c for c in game.players[0].ship if c in ship] == [c for c in ship if c != gone]


@pytest.mark.parametrize(("opponent", "asked"), [
    ({"ship": ["Brawler"]}, True),  # an opponent with a character aboard and two cards in hand
    ({}, False),  # no character in an opponent's ship: the arm names nobody
    ({"ship": ["Brawler"], "hand": ["Idler"]}, False),  # that owner's hand is empty once the Idler is played
])
def test_an_arm_whose_subject_is_an_owner_is_offered_by_what_that_owner_can_do(
        rules: lt.Rules, opponent: dict[str, Any], asked: bool) -> None:
    """Options: a `choose one` arm "the owner of a character … discards …" is offered only when such an owner
    has something to discard; otherwise the other arm is taken unasked."""
    game = _sun(rules, "Tattler", ({}, opponent, {}))
    if asked:
        assert game.phase == "day" and game.decision is not None
        assert game.decision.kind == "choose_option" and game.legal_keys() == ("1", "2")
        assert coins(game)[0] == 0
    else:
        assert game.phase != "day" and coins(game)[0] == 1
