"""Cards played onto the island by day take their sun turn that day, once (R5, E26)."""

from __future__ import annotations

import json
import warnings
from typing import Any

import attrs
import pytest

import libertalia as lt
from libertalia.engine import flow
from libertalia.engine.work import Work
from tests.helpers import answer, at, coins, mod_rules, write_cards

# Each card's rank is one no bundled Galecrest character has; the ones that gain are witnesses.
MOD = {
    "Herald": (30.5, "sun: play a character from your hand onto the island."),
    "Admiral": (29.5, "sun: play every character from your hand onto the island."),
    "Crier": (34.5, "sun: play a character from your hand onto the island, "
                    "then play a character from your hand onto the island."),
    "Trickster": (31.5, "sun: play a character from your hand onto the island, then discard it."),
    "Juggler": (32.5, "sun: gain 1 doubloon, then put this into your hand, "
                      "then play a character from your hand onto the island."),
    "Corsair": (28.5, "sun: put the rightmost character on the island owned by another player into your hand, "
                      "then play it onto the island."),
    "Lookout": (3.5, "sun: gain 2 doubloons."),
    "Piper": (5.5, "sun: gain 3 doubloons."),
    "Fifer": (8.5, "sun: gain 5 doubloons."),
    "Bugler": (33.5, "sun: gain 4 doubloons."),
    "Drummer": (36.5, "sun: gain 1 doubloon."),
}


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    return mod_rules(write_cards(tmp_path_factory.mktemp("day-play"), MOD))


def day(rules: lt.Rules, *hands: list[str]) -> lt.Game:
    """Voyage 1, day 1, three seats (reputation 0, 1, 2): each seat plays the first card of its hand."""
    game = lt.new_game(rules, 3, seed=0, setup={
        "voyage": 1, "day": 1, "reputation": [0, 1, 2], "loot": [["chest", "map", "relic"]],
        "players": [{"hand": hand} for hand in hands]})
    return answer(game, *(hand[0] for hand in hands if len(hand) > 1))  # a single card is played unasked


def gains(game: lt.Game) -> list[str | None]:
    """The cards whose abilities gained doubloons, in the order they did."""
    return [e.source for e in game.events if e.kind == "doubloons"]


def _to_dusk(game: lt.Game) -> lt.Game:
    while game.decision is not None and game.phase == "day":
        game = game.choose(game.legal_keys()[0])
    return game


# ---------------------------------------------------------------- where a played card acts
def test_a_card_played_left_of_the_running_card_acts_next(rules: lt.Rules) -> None:
    """E26/R5: the Herald (30.5) plays a Lookout (3.5) to its left: it acts right after, before the Drummer."""
    g = day(rules, ["Herald", "Lookout", "Bugler"], ["Drummer", "Cook"], ["Piper", "Cook"])
    at(g, "choose_character", 0)
    g = g.choose("Lookout")
    assert g.island == ((0, "Lookout"), (2, "Piper"), (0, "Herald"), (1, "Drummer"))
    assert gains(g) == ["Piper", "Lookout", "Drummer"]
    assert coins(g) == [2, 1, 3]
    assert g.phase == "dusk"


def test_a_card_played_right_of_the_running_card_acts_once_in_island_order(rules: lt.Rules) -> None:
    """R5/E26: a Bugler (33.5) played right of the Herald acts when the walk reaches it, once, before the Drummer."""
    g = day(rules, ["Herald", "Lookout", "Bugler"], ["Drummer", "Cook"], ["Piper", "Cook"]).choose("Bugler")
    assert g.island == ((2, "Piper"), (0, "Herald"), (0, "Bugler"), (1, "Drummer"))
    assert gains(g) == ["Piper", "Bugler", "Drummer"]
    assert coins(g) == [4, 1, 3]


def test_cards_played_together_act_left_to_right(rules: lt.Rules) -> None:
    """E26: the Admiral plays three cards at once; the two left of it act first, left to right."""
    g = day(rules, ["Admiral", "Lookout", "Piper", "Bugler"], ["Drummer", "Cook"], ["Fifer", "Cook"])
    assert g.island == ((0, "Lookout"), (0, "Piper"), (2, "Fifer"), (0, "Admiral"), (0, "Bugler"), (1, "Drummer"))
    assert gains(g) == ["Fifer", "Lookout", "Piper", "Bugler", "Drummer"]
    assert coins(g) == [2 + 3 + 4, 1, 5]
    assert g.players[0].hand == ()


@pytest.mark.parametrize("played", ["Lookout", "Bugler"])
def test_a_card_played_then_discarded_before_its_turn_does_not_act(rules: lt.Rules, played: str) -> None:
    """R5: a card that leaves the island before its turn loses it, on either side of the running card."""
    g = day(rules, ["Trickster", "Lookout", "Bugler"], ["Drummer", "Cook"], ["Piper", "Cook"]).choose(played)
    assert g.island == ((2, "Piper"), (0, "Trickster"), (1, "Drummer"))
    assert g.players[0].graveyard == (played,)
    assert gains(g) == ["Piper", "Drummer"]
    assert coins(g) == [0, 1, 3]


def test_a_card_that_had_its_turn_and_comes_back_does_not_act_again(rules: lt.Rules) -> None:
    """E26: the Juggler goes back to the hand and is played again: no second turn (else it would loop for ever)."""
    g = day(rules, ["Juggler"], ["Drummer", "Cook"], ["Piper", "Cook"])
    assert g.island == ((2, "Piper"), (0, "Juggler"), (1, "Drummer"))
    assert gains(g) == ["Piper", "Juggler", "Drummer"]
    assert coins(g) == [1, 1, 3]
    g = answer(g, "chest", "map")  # dusk, right to left: the Juggler boards its ship like any card
    assert g.players[0].ship == ("Juggler",)


def test_a_waiting_card_that_changes_hands_acts_once_for_its_new_owner(rules: lt.Rules) -> None:
    """E19/E26: the Corsair takes the waiting Drummer and plays it again: it acts once, for seat 0."""
    g = day(rules, ["Corsair", "Cook"], ["Drummer", "Cook"], ["Piper", "Cook"])
    assert g.island == ((2, "Piper"), (0, "Corsair"), (0, "Drummer#1"))
    assert [(e.seat, e.source) for e in g.events if e.kind == "doubloons"] == [(2, "Piper"), (0, "Drummer#1")]
    assert coins(g) == [1, 0, 3]


# ---------------------------------------------------------------- solo
def _solo_day(rules: lt.Rules, you: list[str], automa_hand: list[str], deck: list[str],
              today: list[str]) -> lt.Game:
    """A solo game at its first day, with your hand, Automa's, the top of the solo deck and today's loot."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        g = lt.new_game(rules, 1, seed=5)
    solo = g.rules.board.solo
    assert solo is not None
    s = g.state
    rest = [c.name for c in solo.deck if c.name not in {*automa_hand, *deck}]
    seats = (attrs.evolve(s.seats[0], hand=tuple(you)), attrs.evolve(s.seats[1], hand=tuple(automa_hand)))
    undealt = tuple(c.name for c in g.rules.characters
                    if not c.neutral and c.name not in you and c.name not in solo.without)
    bag = dict(s.bag)
    for kind in s.days[0]:
        bag[kind] += 1
    for kind in today:
        bag[kind] -= 1
    state = attrs.evolve(s, seats=seats, solo_deck=(*deck, *rest), undealt=undealt, bag=tuple(bag.items()),
                         days=(tuple(today), *s.days[1:]), decision=None, history=())
    w = Work(g.rules, state)
    flow.run(w)
    return lt.Game(g.rules, w.freeze())


def test_solo_automa_still_takes_her_no_effect_rank_after_a_day_play(rules: lt.Rules) -> None:
    """S2/E26: your Herald's Lookout acts that day, and Automa's idle Beggar still moves to rank 18 after the walk."""
    g = _solo_day(rules, ["Herald", "Lookout"], ["Beggar"], ["Quartermaster", "Gunner"], ["relic", "saber", "amulet"])
    before = coins(g)
    g = g.choose("Herald")  # the Lookout is the only card left in hand: played without a question
    texts = [str(e) for e in g.events]
    assert "the island: Beggar (seat 1), Herald (seat 0), Quartermaster" in texts
    assert "seat 0 gains 2 doubloons (Lookout)" in texts
    assert "seat 1's Beggar changed nothing: it now ranks 18" in texts
    # Dusk has begun (the Pilferer's card, rightmost, went first): re-ranked, the Beggar stands right of the Lookout.
    assert g.island == ((0, "Lookout"), (1, "Beggar"), (0, "Herald"))
    assert coins(g) == [before[0] + 2, before[1]]


# ---------------------------------------------------------------- saves
def _mid_walk(rules: lt.Rules) -> lt.Game:
    """Mid-sun after a play: the Crier played a Lookout (waiting, left of it) and asks for its second card."""
    g = day(rules, ["Crier", "Lookout", "Bugler", "Fifer"], ["Drummer", "Cook"], ["Piper", "Cook"])
    g = g.choose("Lookout")
    at(g, "choose_character", 0)
    assert g.state.step == "sun" and g.state.order[g.state.cursor:] == ((0, "Lookout"), (1, "Drummer"))
    return g


def _load(rules: lt.Rules, payload: dict[str, Any]) -> lt.Game:
    return lt.Game.from_json(json.dumps(payload), rules)


def test_a_mid_sun_save_round_trips_and_resumes_to_the_same_game(rules: lt.Rules) -> None:
    """E26: a save taken mid-walk, with a played card waiting, loads to the same state and plays on identically."""
    g = _mid_walk(rules)
    loaded = lt.Game.from_json(g.to_json(), rules)
    assert loaded.state == g.state
    ours, theirs = _to_dusk(g.choose("Bugler")), _to_dusk(loaded.choose("Bugler"))
    assert ours.state == theirs.state
    assert gains(theirs) == ["Piper", "Lookout", "Bugler", "Drummer"]


@pytest.mark.parametrize(("edit", "expected"), [
    (lambda s: s["order"].pop(), r"state\.order: seat 1's Drummer is on the island but not in the day's walk"),
    (lambda s: s["order"].append([0, "Lookout"]), r"state\.order\[4\]: seat 0's Lookout is in the day's walk twice"),
    (lambda s: s["order"].append([0, "Bugler"]), r"state\.order\[4\]: seat 0's Bugler waits .* not on the island"),
    (lambda s: s.__setitem__("order", s["order"][:1]), r"state\.cursor: 2 is past the end of the day's walk"),
])
def test_a_mid_sun_save_with_a_broken_walk_is_refused(rules: lt.Rules, edit: Any, expected: str) -> None:
    """R5/E26: a walk that drops an island card, lists one twice or waits for an absent one is refused by name."""
    payload = json.loads(_mid_walk(rules).to_json())
    edit(payload["state"])
    with pytest.raises(lt.SaveError, match=expected):
        _load(rules, payload)


def test_a_format_3_save_is_refused_as_unverifiable(rules: lt.Rules) -> None:
    """An older save lacks how its game began, so it cannot be checked by replay: refused, saying so."""
    payload = json.loads(_mid_walk(rules).to_json())
    payload["format"] = 3
    with pytest.raises(lt.SaveError, match="without how the game began: it cannot be checked by replay"):
        _load(rules, payload)


def test_a_save_format_this_library_cannot_read_is_refused_by_name(rules: lt.Rules) -> None:
    """A save of a future format is refused, naming the formats this library reads."""
    payload = json.loads(_mid_walk(rules).to_json())
    payload["format"] = 5
    with pytest.raises(lt.SaveError, match="unsupported save format 5; this library reads format 4"):
        _load(rules, payload)
