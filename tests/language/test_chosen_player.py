"""A player of your choice (issue 34.2, ruling E42; docs/card-language.md, form `chosen_player`), and two
neighbouring meanings: a card taken from another player's graveyard (form `others_graveyard`) and "their" after
an opponent's possessive (refused with the place to name instead).

The owner picks one seat through an ordinary ``choose_option`` decision whose keys count the seats from the
owner's left ("1" the next seat, the owner last when "a player" includes them).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import libertalia as lt
from libertalia.language.parser import parse
from libertalia.language.render import render_ability
from libertalia.records import GameRecord
from libertalia.syntax import ast
from libertalia.testing.texts import text_problem
from tests.helpers import answer, at, coins, mod_rules, reps, start, write_cards

FILLERS = ["Quartermaster", "Governor"]


@functools.cache
def _rules(edition: str) -> lt.Rules:
    return lt.load_rules(edition)


@pytest.mark.parametrize(("written", "canonical"), [
    ("sun: choose a player: they gain 3 reputation.", "sun: a player of your choice gains 3 reputation."),
    ("sun: choose an opponent; they pay you 2 doubloons.", "sun: another player of your choice pays you 2 doubloons."),
    ("sun: choose another player, they move down 1 reputation.", "sun: another player of your choice loses 1 "
                                                                 "reputation."),
    ("sun: an opponent of your choice loses 4 doubloons.", "sun: another player of your choice loses 4 doubloons."),
    ("moon: choose an opponent: they discard a character from their ship.",
     "moon: another player of your choice discards a character from their ship."),
    ("dusk: a player of your choice returns a loot they hold to the bag.",
     "dusk: a player of your choice returns a loot they hold to the bag."),
    ("sun: an opponent of your choice gives a loot they hold to you.",
     "sun: another player of your choice gives a loot they hold to you."),
    ("sun: give a relic you hold to a player of your choice.",
     "sun: give a relic you hold to a player of your choice."),
])
def test_each_wording_reads_as_one_canonical_player_of_your_choice(written: str, canonical: str) -> None:
    """chosen_player: "choose X: they …" and "an opponent of your choice" are the canonical "… of your choice"."""
    (ability,) = parse(written)
    assert render_ability(ability) == canonical
    assert tuple(parse(canonical)) == (ability,)
    assert any(isinstance(getattr(a, f, None), ast.ChosenPlayer) for s in ability.steps for a in s.actions
               for f in ("subject", "to", "by"))


@pytest.mark.parametrize("edition", ["galecrest", "classic"])
@pytest.mark.parametrize("timing", ["sun", "dusk", "moon", "anchor"])
def test_a_player_of_your_choice_is_read_at_every_trigger_in_both_editions(edition: str, timing: str) -> None:
    """chosen_player: accepted at every trigger of a character and of a loot tile (not on a tile by day)."""
    for text in (f"{timing}: a player of your choice gains 1 doubloon for each character in their ship.",
                 f"{timing}: choose an opponent: they lose 1 doubloon.",
                 f"{timing}: another player of your choice discards a character from their hand."):
        assert text_problem(text, _rules(edition)) is None, text
        if timing != "sun":
            assert text_problem(text, _rules(edition), loot=True) is None, text


def test_no_token_goes_to_a_chosen_player_at_anchor() -> None:
    """L4 (E38) holds for a chosen receiver: a gift at anchor is refused, as to any player."""
    assert text_problem("anchor: give a map you hold to a player of your choice.", _rules("galecrest")) is not None
    assert text_problem("moon: give a map you hold to a player of your choice.", _rules("galecrest")) is None


def test_players_who_give_for_themselves_do_not_give_to_a_player_you_choose() -> None:
    """E42: the givers are settled before a receiver could be chosen: refused, naming what to say."""
    problem = text_problem("moon: each opponent gives a loot they hold to a player of your choice.",
                           _rules("galecrest"))
    assert problem is not None and "another player of your choice gives a loot they hold to you" in str(problem)
    assert text_problem("moon: another player of your choice gives a loot they hold to you.",
                        _rules("galecrest")) is None


def _day(tmp_path: Path, text: str, doubloons: list[int], seed: int = 1, last: tuple[str, ...] = ("Surgeon",),
         **more: object) -> lt.Game:
    """Seat 0 plays Envoy (the text, by day) at a three-seat table, seat 2 keeps ``last`` in hand; the game waits
    on what the text asks."""
    rules = mod_rules(write_cards(tmp_path, {"Envoy": (41.5, text)}))
    hands: list[list[str]] = [["Envoy", *FILLERS], ["Explorer", "Cook"], ["Treasurer", *last]]
    players = [{"hand": h, "doubloons": d, **more} for h, d in zip(hands, doubloons, strict=True)]
    game = start(3, seed=seed, rules=rules, reputation=[0, 1, 2], loot=[["chest", "amulet", "barrel"]],
                 players=players)
    first = {0: "Envoy", 1: "Explorer", 2: "Treasurer"}
    while game.decision is not None and game.decision.kind == "play_character":
        game = answer(game, first[game.decision.player])
    return game


def test_the_owner_chooses_a_seat_counted_from_their_left(tmp_path: Path) -> None:
    """E42: a choose_option decision of the owner; "1" is the player on the left, and only that seat loses."""
    game = _day(tmp_path, "sun: choose an opponent: they lose 2 doubloons.", [5, 5, 5])
    at(game, "choose_option", 0)
    assert game.decision is not None
    assert [(o.key, o.label) for o in game.decision.options] == [("1", "seat 1"), ("2", "seat 2")]
    assert coins(answer(game, "1")) == [5, 3, 5]
    assert coins(answer(game, "2")) == [5, 5, 3]


def test_a_player_includes_you_and_an_opponent_does_not(tmp_path: Path) -> None:
    """E42: English "a player" is anyone, you too (offered last, key "3" at three seats); "another player" is not."""
    game = _day(tmp_path / "a", "sun: choose a player: they gain 2 doubloons.", [0, 0, 0])
    assert game.decision is not None
    assert [(o.key, o.label) for o in game.decision.options] == [("1", "seat 1"), ("2", "seat 2"),
                                                                 ("3", "seat 0 (you)")]
    assert coins(answer(game, "3")) == [2, 0, 0]
    game = _day(tmp_path / "b", "sun: another player of your choice gains 2 doubloons.", [0, 0, 0])
    assert game.decision is not None and [o.key for o in game.decision.options] == ["1", "2"]


def test_only_a_seat_the_action_changes_is_offered_and_one_is_taken_unasked(tmp_path: Path) -> None:
    """E42 (E25): a seat with nothing to lose is not offered; one seat left is taken without asking; none, nothing."""
    game = _day(tmp_path / "one", "sun: an opponent of your choice loses 3 doubloons.", [4, 0, 4])
    assert game.decision is not None and game.decision.kind != "choose_option"
    assert coins(game) == [4, 0, 1]
    game = _day(tmp_path / "none", "sun: an opponent of your choice loses 3 doubloons.", [4, 0, 0])
    assert game.decision is not None and game.decision.kind != "choose_option"
    assert coins(game) == [4, 0, 0]


def test_a_gift_to_a_player_of_your_choice_never_offers_yourself(tmp_path: Path) -> None:
    """E42: "a player" includes you, but a gift to yourself changes nothing and is not offered (E25)."""
    game = _day(tmp_path, "sun: give a loot you hold to a player of your choice.", [0, 0, 0], loot=["relic"])
    assert game.decision is not None and [o.key for o in game.decision.options] == ["1", "2"]
    after = answer(game, "2")
    assert after.players[2].loot.count("relic") == 2 and "relic" not in after.players[0].loot


def test_the_chosen_player_acts_for_themselves_and_their_means_them(tmp_path: Path) -> None:
    """E42 with E32: after the owner chooses, the chosen player picks their own card; "their" reads their side."""
    game = _day(tmp_path / "discard", "sun: choose an opponent: they discard a character from their hand.", [0, 0, 0],
                last=("Surgeon", "Bosun"))
    game = answer(game, "2")
    at(game, "choose_character", 2)
    assert game.players[2].graveyard == ()
    game = answer(game, game.legal_keys()[0])
    assert len(game.players[2].graveyard) == 1
    game = _day(tmp_path / "their", "sun: a player of your choice gains 2 doubloons for each character in their hand.",
                [0, 0, 0])
    assert coins(answer(game, "1")) == [0, 2, 0]  # seat 1 kept one card in hand: "their" is seat 1's


def test_a_chosen_player_moves_on_the_track(tmp_path: Path) -> None:
    """E42: "they move up 1 reputation" is a gain of reputation for the chosen seat alone."""
    game = _day(tmp_path, "sun: choose an opponent: they move up 1 reputation.", [0, 0, 0])
    before = reps(game)
    after = reps(answer(game, "1"))
    assert after[1] == before[1] + 1 and after[0] == before[0]


def test_a_game_with_a_chosen_player_saves_and_replays_exactly(tmp_path: Path) -> None:
    """E42: the choice is an ordinary answer, so a save and a record replay to the same game."""
    game = _day(tmp_path, "sun: choose an opponent: they lose 2 doubloons.", [5, 5, 5])
    assert game.decision is not None and game.decision.kind == "choose_option"
    saved = game.to_json()
    game = answer(game, "2")
    assert lt.Game.from_json(saved, game.rules).choose("2").state == game.state
    assert GameRecord.from_json(GameRecord.of(game).to_json()).replay(cards=[tmp_path]).state == game.state


def test_the_env_action_keys_hold_every_seat_a_choice_can_offer(tmp_path: Path) -> None:
    """E42 (libertalia.env.keys): a seat is "1".."n" counted from the owner's left, at every table size."""
    from libertalia.env.keys import action_keys

    rules = mod_rules(write_cards(tmp_path, {"Envoy": (41.5, "sun: choose a player: they gain 1 doubloon.")}))
    assert {"1", "2", "3", "4", "5"} <= set(action_keys(rules, 5))


# ---------------------------------------------------------------- a card taken from another player's graveyard
def test_a_card_from_another_graveyard_is_yours_to_play_and_pays_you(tmp_path: Path) -> None:
    """others_graveyard ("Marked names"): the card comes over as Name#seat, and played by you it is yours."""
    rules = mod_rules(write_cards(tmp_path, {"Digger": (41.5, "sun: put the highest-ranked character in the graveyard "
                                                              "of the player on your left into your hand.")}))
    game = start(3, seed=2, rules=rules, reputation=[0, 1, 2], loot=[["chest", "amulet", "barrel"]] * 2,
                 players=[{"hand": ["Digger", *FILLERS]}, {"hand": ["Explorer", "Cook"], "graveyard": ["Carpenter"]},
                          {"hand": ["Treasurer", "Surgeon"], "graveyard": ["Aristocrat"]}])
    first = {0: "Digger", 1: "Explorer", 2: "Treasurer"}
    while game.decision is not None and game.decision.kind == "play_character":
        game = answer(game, first[game.decision.player])
    assert "Carpenter#1" in game.players[0].hand and game.players[1].graveyard == ()
    assert game.players[2].graveyard == ("Aristocrat",)
    while not (game.decision is not None and game.decision.kind == "play_character" and game.decision.player == 0):
        assert game.decision is not None
        game = answer(game, game.legal_keys()[0])
    assert "Carpenter#1" in game.legal_keys()  # the next day, its new holder may play it


def test_a_card_from_another_graveyard_discarded_goes_to_your_graveyard(tmp_path: Path) -> None:
    """E43: the card taken over is yours in every way: discarded, it goes to your graveyard, still marked."""
    rules = mod_rules(write_cards(tmp_path, {"Digger": (41.5, "sun: put a character from the graveyard of the player "
                                                              "on your right into your hand, then discard it.")}))
    game = start(3, seed=2, rules=rules, reputation=[0, 1, 2], loot=[["chest", "amulet", "barrel"]],
                 players=[{"hand": ["Digger", *FILLERS]}, {"hand": ["Explorer", "Cook"]},
                          {"hand": ["Treasurer", "Surgeon"], "graveyard": ["Aristocrat"]}])
    first = {0: "Digger", 1: "Explorer", 2: "Treasurer"}
    while game.decision is not None and game.decision.kind == "play_character":
        game = answer(game, first[game.decision.player])
    assert game.players[0].graveyard == ("Aristocrat#2",) and game.players[2].graveyard == ()


# ---------------------------------------------------------------- "their" after an opponent's possessive
@pytest.mark.parametrize(("text", "instead"), [
    ("sun: discard an opponent's character in their ship.", "sun: discard a character in an opponent's ship."),
    ("moon: gain 1 doubloon for each other player's character in their ship.",
     "moon: gain 1 doubloon for each character in an opponent's ship."),
    ("sun: put another player's character from their graveyard into your hand.",
     "sun: put a character from another player's graveyard into your hand."),
    ("moon: discard an opponent's character from their hand.",
     "moon: take a random character from another player's hand."),
])
def test_their_after_an_opponents_possessive_is_refused_naming_the_opponents_pile(text: str, instead: str) -> None:
    """docs ("What the checker refuses"): "their" after "an opponent's …" is that opponent; the refusal names the
    opponents' pile as a place, and the wording it names passes."""
    problem = text_problem(text, _rules("galecrest"))
    assert problem is not None and '"their' in str(problem) and "opponent's possessive" in str(problem)
    pile = text.split("their ")[1].split(" ")[0].rstrip(".")
    assert {"ship": "in an opponent's ship", "graveyard": "another player's graveyard",
            "hand": "random character from another player's hand"}[pile] in str(problem)
    assert text_problem(instead, _rules("galecrest")) is None
