"""Players compared, narrowed and acting for themselves, played from declared positions (E30, E31, E32).

Each test plays one mod card of ``MOD`` from seat 0 on day 1 of a three-seat game; seats 1 and 2
play the Explorer (10) and the Treasurer (32), which do nothing by day, and every hand keeps two
fillers so that day 2 waits on a real choice.  The assertions are read once the day's sun
abilities are done, at the first dusk question.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

import libertalia as lt
from libertalia import events as ev
from libertalia.agents import RandomAgent
from libertalia.testing import check_invariants
from libertalia.testing.contracts import solo_game
from tests.helpers import at, coins, mod_rules, write_cards

# Ranks no bundled Galecrest character has.
MOD = {
    "Envier": (30.5, "sun: gain 3 doubloons if you have more doubloons than every other player."),
    "Underdog": (31.5, "sun: gain 3 doubloons if you have fewer doubloons than any other player."),
    "Hoarder": (33.5, "sun: gain 5 doubloons if you hold more relics than any other player."),
    "Swordsmith": (34.5, "sun: gain 2 doubloons if you hold more sabers or hooks than every other player."),
    "Crowd": (35.5, "sun: gain 2 doubloons if you have more characters in your ship than every other player."),
    "Peer": (36.5, "sun: gain 2 doubloons if you have at least as many doubloons as every other player."),
    "Modest": (37.5, "sun: gain 2 doubloons unless you have more doubloons than every other player."),
    "Almoner": (38.5, "sun: each player with the fewest doubloons gains 2 doubloons."),
    "Rival": (39.5, "sun: each opponent with the most characters in their ship loses 1 doubloon."),
    "Inspector": (40.5, "sun: every player who holds a saber loses 1 doubloon."),
    "Levier": (29.5, "sun: every other player who has 10 or more doubloons pays you 2 doubloons."),
    "Veteran": (28.5, "sun: each opponent with a character in their ship ranked above 20 loses 2 doubloons."),
    "Purser": (27.5, "sun: every other player returns a loot they hold to the bag, then gain 1 doubloon for "
                     "each one returned."),
    "Mutinous": (26.5, "sun: each opponent discards a character from their hand."),
    "Tithe": (25.5, "sun: every other player gives a loot they hold to you."),
    "Austere": (24.5, "sun: every other player returns every loot they hold but 1 of their choice to the bag."),
    "Hoarders": (23.5, "sun: each player with the most loot returns a loot they hold to the bag."),
    "Taxed": (22.5, "moon: every other player returns a loot they hold to the bag."),
    "Leveller": (21.5, "sun: every other player with more doubloons than you loses 2 doubloons."),
    "Debt Collector": (20.25, "sun: each player who has fewer doubloons than you pays you 1 doubloon."),
    "Grandee": (19.5, "sun: if you have the highest reputation, gain 6 doubloons."),
    "Reformer": (18.5, "sun: the player with the highest reputation loses 2 doubloons."),
    "Humbler": (17.5, "sun: you may every other player with fewer reputation than you loses 5 reputation."),
}
QUIET = ("Explorer", "Treasurer")


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    return mod_rules(write_cards(tmp_path_factory.mktemp("players"), MOD))


def _setup(card: str, seats: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """Each seat as declared; a seat that declares no hand holds its card and two fillers."""
    players = [{"hand": [plays, "Quartermaster", "Governor"], **seat} for plays, seat in zip((card, *QUIET), seats,
                                                                                            strict=True)]
    return {"players": players, "reputation": [0, 1, 2], "loot": [["amulet", "barrel", "hook"]]}


def _start(rules: lt.Rules, card: str, *seats: dict[str, Any], reputation: list[int] | None = None) -> lt.Game:
    """Seat 0 with ``card``, seats 1 and 2 with their quiet cards, each seat as declared in ``seats``
    (and the reputation spaces as given, else 0, 1 and 2)."""
    seats = (*seats, *({} for _ in range(3 - len(seats))))
    setup = _setup(card, seats)
    return lt.new_game(rules, 3, seed=0, setup={**setup, "reputation": reputation or setup["reputation"]})


def _day(rules: lt.Rules, card: str, *seats: dict[str, Any], reputation: list[int] | None = None) -> lt.Game:
    """The game once the day's sun abilities are done (nobody's choice asked but the plays)."""
    g = _start(rules, card, *seats, reputation=reputation).choose(card).choose("Explorer").choose("Treasurer")
    at(g, "choose_loot")  # dusk: the first token to take
    return g


# ---------------------------------------------------------------- comparisons (E30)
@pytest.mark.parametrize(("reputation", "paid"), [([5, 1, 2], 6), ([2, 5, 1], 0), ([4, 5, 3], 0)])
def test_the_highest_reputation_is_more_than_every_other_players(rules: lt.Rules, reputation: list[int],
                                                                 paid: int) -> None:
    """E30: "you have the highest reputation" is "more reputation than every other player": one token a space,
    so it holds for exactly one seat (the rightmost token)."""
    assert coins(_day(rules, "Grandee", reputation=reputation))[0] == paid


def test_the_player_with_the_highest_reputation_is_one_player(rules: lt.Rules) -> None:
    """E31: reputation never ties, so "the player with the highest reputation" names one player, and loads."""
    g = _day(rules, "Reformer", {}, {"doubloons": 4}, {"doubloons": 4}, reputation=[0, 5, 2])
    assert coins(g) == [0, 2, 4]
    assert lt.render(rules.card("Reformer").abilities) == MOD["Reformer"][1]


def test_reputation_words_are_refused_where_there_is_no_track(tmp_path: Path) -> None:
    """The 2012 game has no reputation track, so no card of it may gain, move or compare reputation."""
    for text in ("sun: if you have the highest reputation, gain 6 doubloons.", "sun: gain 1 reputation."):
        folder = write_cards(tmp_path / str(abs(hash(text))), {"Grandee": (30.5, text)})
        with pytest.raises(lt.CardError, match="this edition has no reputation track"):
            lt.load_rules("classic", extra_cards=[folder])


def test_more_doubloons_than_every_other_player(rules: lt.Rules) -> None:
    """E30: more than each other player, one at a time: 6 against 5 and 2 pays."""
    g = _day(rules, "Envier", {"doubloons": 6}, {"doubloons": 5}, {"doubloons": 2})
    assert coins(g) == [9, 5, 2]


def test_a_tie_is_not_more(rules: lt.Rules) -> None:
    """E30: a tie with anyone is not "more": 5 against 5 and 2 pays nothing."""
    g = _day(rules, "Envier", {"doubloons": 5}, {"doubloons": 5}, {"doubloons": 2})
    assert coins(g) == [5, 5, 2]


def test_fewer_than_any_other_player_means_than_each(rules: lt.Rules) -> None:
    """E30: "than any other player" is "than each": 1 against 2 and 9 pays, 3 against 2 and 9 does not."""
    assert coins(_day(rules, "Underdog", {"doubloons": 1}, {"doubloons": 2}, {"doubloons": 9})) == [4, 2, 9]
    assert coins(_day(rules, "Underdog", {"doubloons": 3}, {"doubloons": 2}, {"doubloons": 9})) == [3, 2, 9]


def test_loot_is_counted_by_its_plural_kind(rules: lt.Rules) -> None:
    """E30: "more relics" counts relic tokens only: 2 relics beat 1 relic and 3 maps."""
    g = _day(rules, "Hoarder", {"loot": ["relic", "relic"]}, {"loot": ["relic", "map", "map", "map"]})
    assert coins(g) == [5, 0, 0]


def test_sabers_or_hooks_count_together(rules: lt.Rules) -> None:
    """E30: "more sabers or hooks" adds both kinds, as "for each saber or hook you hold" does: 1 + 1 beat 1."""
    assert coins(_day(rules, "Swordsmith", {"loot": ["saber", "hook"]}, {"loot": ["saber"]},
                      {"loot": ["hook", "map"]})) == [2, 0, 0]
    assert coins(_day(rules, "Swordsmith", {"loot": ["saber"]}, {"loot": ["hook"]})) == [0, 0, 0]


def test_characters_in_your_ship_are_compared(rules: lt.Rules) -> None:
    """E30: two characters in your ship beat one and none; one against one is no more."""
    g = _day(rules, "Crowd", {"ship": ["Cook", "Brute"]}, {"ship": ["Carpenter"]})
    assert coins(g) == [2, 0, 0]
    assert coins(_day(rules, "Crowd", {"ship": ["Cook"]}, {"ship": ["Carpenter"]})) == [0, 0, 0]


def test_at_least_as_many_lets_ties_count(rules: lt.Rules) -> None:
    """E30: "at least as many ... as every other player" holds on a tie, and not below anyone."""
    assert coins(_day(rules, "Peer", {"doubloons": 5}, {"doubloons": 5}, {"doubloons": 1})) == [7, 5, 1]
    assert coins(_day(rules, "Peer", {"doubloons": 4}, {"doubloons": 5}, {"doubloons": 1})) == [4, 5, 1]


def test_unless_a_comparison(rules: lt.Rules) -> None:
    """E30: "unless you have more doubloons than every other player" pays on a tie, not to the richest."""
    assert coins(_day(rules, "Modest", {"doubloons": 5}, {"doubloons": 5})) == [7, 5, 0]
    assert coins(_day(rules, "Modest", {"doubloons": 6}, {"doubloons": 5})) == [6, 5, 0]


# ---------------------------------------------------------------- players a comparison names (E31)
def test_each_player_with_the_fewest_is_every_tied_player(rules: lt.Rules) -> None:
    """E31: "each player with the fewest doubloons" names both tied players, you among them."""
    g = _day(rules, "Almoner", {"doubloons": 1}, {"doubloons": 4}, {"doubloons": 1})
    assert coins(g) == [3, 4, 3]


def test_each_opponent_with_the_most_compares_opponents_only(rules: lt.Rules) -> None:
    """E31: "each opponent with the most characters in their ship": the opponents' most, yours aside."""
    g = _day(rules, "Rival", {"ship": ["Cook", "Brute", "Gunner"], "doubloons": 3},
             {"ship": ["Carpenter"], "doubloons": 3}, {"ship": ["Bosun", "Thief"], "doubloons": 3})
    assert coins(g) == [3, 3, 2]


# ---------------------------------------------------------------- players a clause narrows (E32)
def test_every_player_who_holds_a_saber(rules: lt.Rules) -> None:
    """E32: the clause is read from each player's side; "every player" takes you in too."""
    g = _day(rules, "Inspector", {"loot": ["saber"], "doubloons": 2}, {"loot": ["map"], "doubloons": 2},
             {"loot": ["saber", "relic"], "doubloons": 2})
    assert coins(g) == [1, 2, 1]


def test_every_other_player_who_has_ten_or_more_pays_you(rules: lt.Rules) -> None:
    """E32: only the other players with 10 or more doubloons pay; your own 12 do not count."""
    g = _day(rules, "Levier", {"doubloons": 12}, {"doubloons": 10}, {"doubloons": 9})
    assert coins(g) == [14, 8, 9]


def test_each_opponent_with_a_character_in_their_ship_ranked_above_20(rules: lt.Rules) -> None:
    """E32: "their ship" is each opponent's own: a 29 there counts, a 29 in your ship or their hand does not."""
    g = _day(rules, "Veteran", {"ship": ["Infantry"], "doubloons": 5},
             {"hand": ["Explorer", "Infantry", "Governor"], "ship": ["Carpenter"], "doubloons": 5},
             {"ship": ["Infantry", "Cook"], "doubloons": 5})
    assert coins(g) == [5, 5, 3]


# ---------------------------------------------------------------- other players acting for themselves (E32)
def test_each_other_player_returns_a_token_of_their_choice(rules: lt.Rules) -> None:
    """E32: seat 1, then seat 2 (from the owner's left) choose their own token; nothing moves before both
    answered; "one returned" counts every token returned."""
    g = _start(rules, "Purser", {}, {"loot": ["map", "relic"]}, {"loot": ["chest", "saber"]})
    g = g.choose("Purser").choose("Explorer").choose("Treasurer")
    at(g, "choose_loot", 1)
    assert [o.key for o in g.decision.options] == ["map", "relic"]  # their own tokens, keyed as theirs
    g = g.choose("relic")
    at(g, "choose_loot", 2)
    assert g.players[1].loot == ("map", "relic")  # asked first, changed after
    g = g.choose("chest")
    assert [p.loot for p in g.players] == [(), ("map",), ("saber",)]
    assert coins(g) == [2, 0, 0]
    returned = [e for e in g.events if isinstance(e, ev.LootReturned)]
    assert [(e.seat, e.loot) for e in returned] == [(1, ("relic",)), (2, ("chest",))]
    check_invariants(g)


def test_each_opponent_discards_from_their_own_hand(rules: lt.Rules) -> None:
    """E32: each opponent picks a card of their own hand, which goes to their own graveyard."""
    g = _start(rules, "Mutinous", {}, {"hand": ["Explorer", "Cook", "Brute"]},
               {"hand": ["Treasurer", "Gunner"]})
    g = g.choose("Mutinous").choose("Explorer").choose("Treasurer")
    at(g, "choose_character", 1)
    assert [o.key for o in g.decision.options] == ["Brute", "Cook"]  # their hand, in rank order
    g = g.choose("Brute")  # seat 2 has one card left in hand: it goes without a question
    assert [p.graveyard for p in g.players] == [(), ("Brute",), ("Gunner",)]
    assert g.players[1].hand == ("Cook",) and g.players[2].hand == ()
    assert [(e.target_seat, e.target, e.by_seat) for e in g.events if isinstance(e, ev.Discarded)] == \
        [(1, "Brute", 1), (2, "Gunner", 2)]


def test_other_players_give_to_you_starting_from_your_left(rules: lt.Rules) -> None:
    """E32: the owner is seat 1, so seat 2 gives first, then seat 0; "you" is the owner."""
    setup = _setup("Tithe", ({"hand": ["Explorer", "Quartermaster", "Governor"], "loot": ["map", "relic"]},
                             {"hand": ["Tithe", "Quartermaster", "Governor"]}, {"loot": ["chest", "saber"]}))
    g = lt.new_game(rules, 3, seed=0, setup=setup).choose("Explorer").choose("Tithe").choose("Treasurer")
    at(g, "choose_loot", 2)
    g = g.choose("saber")
    at(g, "choose_loot", 0)
    g = g.choose("map")
    assert [p.loot for p in g.players] == [("relic",), ("saber", "map"), ("chest",)]
    given = [e for e in g.events if isinstance(e, ev.LootGiven)]
    assert [(e.seat, e.loot, e.to_seat) for e in given] == [(2, ("saber",), 1), (0, ("map",), 1)]


def test_every_loot_they_hold_but_one_of_their_choice(rules: lt.Rules) -> None:
    """E32: each player keeps the one token they pick and returns the rest to the bag."""
    g = _start(rules, "Austere", {"loot": ["map"]}, {"loot": ["map", "relic", "chest"]}, {"loot": ["saber"]})
    bag = dict(g.state.bag)
    g = g.choose("Austere").choose("Explorer").choose("Treasurer")
    at(g, "choose_loot", 1)
    g = g.choose("chest")
    assert [p.loot for p in g.players] == [("map",), ("chest",), ("saber",)]
    after = dict(g.state.bag)
    assert (after["map"] - bag["map"], after["relic"] - bag["relic"], after["chest"] - bag["chest"]) == (1, 1, 0)


def test_a_group_chosen_by_a_comparison_acts_for_itself(rules: lt.Rules) -> None:
    """E31, E32: the two players tied for the most loot each return one of theirs; you, with less, do not."""
    g = _start(rules, "Hoarders", {"loot": ["map"]}, {"loot": ["map", "relic"]}, {"loot": ["chest", "chest"]})
    g = g.choose("Hoarders").choose("Explorer").choose("Treasurer")
    at(g, "choose_loot", 1)
    g = g.choose("map")  # seat 2's two chests are one option: no question
    assert [p.loot for p in g.players] == [("map",), ("relic",), ("chest",)]


def test_automa_acting_for_herself_is_never_asked() -> None:
    """E32, S8: Automa, returning a token for herself at night, picks by the preference order unasked."""
    rules = _solo_rules()
    game = solo_game(rules, 3, card="Taxed", zone="ship")
    s = game.state
    automa = s.seats[1]
    bag = dict(s.bag)
    bag["relic"] -= 1
    bag["hook"] -= 1
    state = attrs.evolve(s, seats=(s.seats[0], attrs.evolve(automa, loot=("relic", "hook"))),
                         bag=tuple(bag.items()))
    game = lt.Game(game.rules, state)
    me = RandomAgent(0)
    while game.decision is not None and game.voyage == 1 and game.day == 1:
        assert game.decision.player == 0  # Automa is never asked
        game = game.choose(me.choose(game.observation(0), game.decision))
    returned = [e for e in game.events if isinstance(e, ev.LootReturned) and e.seat == 1 and e.source == "Taxed"]
    assert len(returned) == 1 and len(returned[0].loot) == 1
    solo = rules.board.solo
    assert solo is not None
    assert returned[0].loot[0] == min((*game.players[1].loot, *returned[0].loot), key=solo.preference_of)


_SOLO: dict[str, lt.Rules] = {}


def _solo_rules() -> lt.Rules:
    if "rules" not in _SOLO:
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="solo-players-"))
        _SOLO["rules"] = mod_rules(write_cards(folder, {"Taxed": MOD["Taxed"]}))
    return _SOLO["rules"]


# ---------------------------------------------------------------- than you (E33)
def test_players_with_more_than_you_are_those_strictly_above_your_purse(rules: lt.Rules) -> None:
    """E33: "every other player with more doubloons than you": strictly more than the owner; a tie is not more."""
    g = _day(rules, "Leveller", {"doubloons": 5}, {"doubloons": 5}, {"doubloons": 8})
    assert coins(g) == [5, 5, 6]


def test_players_with_fewer_than_you_include_nobody_equal_and_never_you(rules: lt.Rules) -> None:
    """E33: "each player who has fewer doubloons than you" names those below the owner (never the owner)."""
    g = _day(rules, "Debt Collector", {"doubloons": 4}, {"doubloons": 1}, {"doubloons": 4})
    assert coins(g) == [5, 0, 4]


@pytest.mark.parametrize(("purse", "asked"), [(0, False), (1, True)])
def test_reputation_moves_that_undo_each_other_are_not_offered(rules: lt.Rules, purse: int, asked: bool) -> None:
    """E25, R28: seats 1 and 2 at the two left spaces with empty purses trade places and trade back, so
    "you may … loses 5 reputation" would change nothing and is not asked; with a doubloon to pay it is."""
    g = _start(rules, "Humbler", {}, {}, {"doubloons": purse}, reputation=[4, 1, 0])
    g = g.choose("Humbler").choose("Explorer").choose("Treasurer")
    assert g.decision is not None and (g.decision.kind == "may") == asked, g.decision
