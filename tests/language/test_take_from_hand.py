"""Taking from another player's hand (issue 34.2, ruling E41; docs/card-language.md, form `take_from_hand`).

A hand is hidden: the taker picks the player (when several have a card), and the engine's seeded draw picks
the card, which changes hands as a card taken over does ("Cook#1").  Without "random" the text is refused.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import libertalia as lt
from libertalia.language.parser import parse
from libertalia.language.render import render_ability
from libertalia.syntax import ast
from libertalia.testing.texts import text_problem
from tests.helpers import answer, mod_rules, start, write_cards

FILLERS = ["Quartermaster", "Governor"]
HANDS = ["another player's hand", "an opponent's hand", "the hand of the player on your left",
         "the hand of the player on your right"]


@functools.cache
def _rules(edition: str) -> lt.Rules:
    return lt.load_rules(edition)


@pytest.mark.parametrize("hand", HANDS)
def test_each_hand_has_one_canonical_text(hand: str) -> None:
    """take_from_hand: each wording renders as written ("an opponent's" as "another player's") and parses back."""
    text = f"dusk: take a random character from {hand}."
    abilities = parse(text)
    assert render_ability(abilities[0]) == text.replace("an opponent's", "another player's")
    assert parse(render_ability(abilities[0])) == abilities
    assert isinstance(abilities[0].steps[0].actions[0], ast.TakeFromHand)  # type: ignore[union-attr]


def test_the_player_to_your_left_is_the_player_on_your_left() -> None:
    """take_from_hand: "to your left" is the canonical "on your left"."""
    assert parse("sun: take a random character from the hand of the player to your left.") == \
        parse("sun: take a random character from the hand of the player on your left.")


@pytest.mark.parametrize("hand", HANDS)
def test_a_card_chosen_from_a_hidden_hand_is_refused_with_the_form_to_use(hand: str) -> None:
    """E41: without "random" the taker would choose a card they cannot see: refused, naming the wording."""
    with pytest.raises(lt.CardError, match="a hand is hidden") as err:
        parse(f"sun: take a character from {hand}.")
    assert f"take a random character from {hand.replace('an opponent', 'another player')}" in str(err.value)


@pytest.mark.parametrize("edition", ["galecrest", "classic"])
@pytest.mark.parametrize("timing", ["sun", "dusk", "moon", "anchor"])
def test_taking_from_a_hand_is_read_at_every_trigger_in_both_editions(edition: str, timing: str) -> None:
    """take_from_hand: accepted at every trigger of a character, in both editions."""
    for hand in HANDS:
        assert text_problem(f"{timing}: take a random character from {hand}.", _rules(edition)) is None


@pytest.mark.parametrize("timing", ["dusk", "moon", "anchor"])
def test_taking_from_a_hand_is_read_on_loot_tiles(timing: str) -> None:
    """take_from_hand on a loot tile: the holder takes into their own hand."""
    assert text_problem(f"{timing}: take a random character from an opponent's hand.", _rules("galecrest"),
                        loot=True) is None


def _day(tmp_path: Path, text: str, hands: list[list[str]], seed: int = 1) -> lt.Game:
    """Seat 0 plays Reckoner (the text, by day), seats 1 and 2 the first card of their hands."""
    rules = mod_rules(write_cards(tmp_path, {"Reckoner": (41.5, text)}))
    game = start(3, seed=seed, rules=rules, reputation=[0, 1, 2], loot=[["chest", "amulet", "barrel"]],
                 players=[{"hand": ["Reckoner", *FILLERS]}, *({"hand": h} for h in hands)])
    first = {0: "Reckoner", 1: hands[0][0], 2: hands[1][0]}
    while game.decision is not None and game.decision.kind == "play_character":  # a hand of one plays alone
        game = answer(game, first[game.decision.player])
    return game


def test_the_only_card_of_the_only_hand_is_taken_over_with_its_seat_mark(tmp_path: Path) -> None:
    """E41 ("Marked names"): one hand with one card: that card, without asking, as Name#seat."""
    game = _day(tmp_path, "sun: take a random character from the hand of the player on your left.",
                [["Explorer", "Cook"], ["Treasurer", "Surgeon"]])
    assert "Cook#1" in game.players[0].hand and game.players[1].hand == ()
    assert game.players[2].hand == ("Surgeon",)


def test_the_taker_picks_the_player_and_the_seeded_draw_picks_the_card(tmp_path: Path) -> None:
    """E41: with several hands the taker is asked whose; the card is drawn at random, the same for one seed."""
    text = "sun: take a random character from another player's hand."
    taken = set()
    for seed in range(8):
        game = _day(tmp_path / str(seed), text, [["Explorer", "Cook"], ["Treasurer", "Surgeon", "Bosun"]], seed)
        decision = game.decision
        assert decision is not None and decision.player == 0 and decision.kind == "choose_option"
        assert sorted(o.key for o in decision.options) == ["1", "2"]
        after = answer(game, "2")
        assert after.players[1].hand == ("Cook",) and len(after.players[2].hand) == 1
        (got,) = set(after.players[0].hand) - set(FILLERS)
        assert answer(game, "2").players[0].hand == after.players[0].hand  # determinism
        taken.add(got)
    assert taken == {"Surgeon#2", "Bosun#2"}


def test_an_empty_hand_is_not_offered_and_no_cards_means_nothing_happens(tmp_path: Path) -> None:
    """E41: a player with no card in hand is not offered; when nobody has one, nothing happens."""
    text = "sun: take a random character from an opponent's hand."
    game = _day(tmp_path / "one", text, [["Explorer"], ["Treasurer", "Surgeon"]])
    assert "Surgeon#2" in game.players[0].hand and game.players[2].hand == ()
    game = _day(tmp_path / "none", text, [["Explorer"], ["Treasurer"]])
    assert sorted(game.players[0].hand) == sorted(FILLERS)


def test_it_names_the_card_taken(tmp_path: Path) -> None:
    """take_from_hand binds "it": the card taken can be acted on next (here put into your ship)."""
    game = _day(tmp_path, "sun: take a random character from the hand of the player on your right, then put it "
                          "into your ship.", [["Explorer", "Cook"], ["Treasurer", "Surgeon"]])
    assert game.players[0].ship[-1] == "Surgeon#2" and game.players[2].hand == ()


def test_the_env_action_keys_hold_every_answer_a_take_from_a_hand_asks(tmp_path: Path) -> None:
    """E41 (libertalia.env.keys): whose hand is "1".."k" for the other seats, and the card taken is marked."""
    from libertalia.env.keys import action_keys

    rules = mod_rules(write_cards(tmp_path, {"Reckoner": (41.5, "sun: take a random character from an opponent's "
                                                                  "hand.")}))
    keys = set(action_keys(rules, 4))
    assert {"1", "2", "3"} <= keys and "Cook#1" in keys


def test_a_named_card_drawn_from_a_hidden_hand_is_refused() -> None:
    """E41: a card drawn from a hidden hand is any character; a name there is refused, naming the form."""
    with pytest.raises(lt.CardError, match="is any character, not Cook"):
        parse("sun: take a random Cook from the hand of the player on your right.")
