"""Scenario tests for the Galecrest characters ranked 15 (Witch) to 27 (Watchman)."""

from __future__ import annotations

from typing import Any

import libertalia as lt
from tests.helpers import answer, at, galecrest

Seat = dict[str, Any]

TODAY = ["chest", "amulet", "relic"]


def new(
    players: list[Seat],
    loot: list[list[str]] | None = None,
    reputation: list[int] | None = None,
    **setup: Any,
) -> lt.Game:
    """A declared game at voyage 1, day 1 unless told otherwise; reputation 0, 1, 2... by seat."""
    setup.setdefault("voyage", 1)
    setup.setdefault("day", 1)
    setup["players"] = players
    setup["reputation"] = reputation if reputation is not None else list(range(len(players)))
    setup["loot"] = loot if loot is not None else [list(TODAY)]
    return lt.new_game(galecrest(), len(players), seed=0, setup=setup)


def seat(*hand: str, **zones: Any) -> Seat:
    """One seat's declared state: a hand plus any other zones (ship, graveyard, loot...)."""
    return {"hand": list(hand), **zones}


def quiet_opponents(*cards: str) -> list[Seat]:
    """Opponents each playing one ability-free card today and keeping a second card."""
    spare = {"Treasurer": "Collector", "Collector": "Treasurer"}
    return [seat(card, spare.get(card, "Treasurer")) for card in cards]


def next_day(game: lt.Game, day: int = 2) -> None:
    """Assert the night is over and seat 0 is choosing a card on the given day."""
    at(game, "play_character", 0)
    assert game.phase == "select" and game.day == day


# --------------------------------------------------------------------------- Witch (15)


def test_witch_copies_moon_ability_of_ship_character() -> None:
    """R10: the Witch uses the moon ability of another ship character (Barkeep: +1 twice)."""
    g = new([seat("Witch", "Explorer", "Cook", ship=["Barkeep"], doubloons=5),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Witch", "Treasurer", "Collector", "chest", "amulet")
    at(g, "order_abilities", 0)
    assert set(g.legal_keys()) == {"Witch", "Barkeep"}
    g = answer(g, "Witch")
    next_day(g)
    p = g.players[0]
    assert p.doubloons == 7
    assert sorted(p.ship) == ["Barkeep", "Witch"]
    assert p.loot == ("relic",)
    assert p.graveyard == ()
    assert g.players[1].doubloons == 0 and g.players[2].doubloons == 0


def test_witch_with_nothing_to_borrow_does_nothing() -> None:
    """R10: with no other moon ability in the ship the Witch's night changes nothing."""
    g = new([seat("Witch", "Explorer", "Collector", ship=["Cook"], doubloons=5),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Witch", "Treasurer", "Collector", "chest", "amulet")
    next_day(g)
    p = g.players[0]
    assert p.doubloons == 5
    assert sorted(p.ship) == ["Cook", "Witch"]
    assert p.graveyard == ()
    assert p.reputation == 0


def test_witch_copying_unique_wind_nymph_gains_two_more() -> None:
    """R9/R10: a Witch copying the only Wind Nymph follows the census: +2 for each."""
    g = new([seat("Witch", "Explorer", "Cook", ship=["Wind Nymph"], doubloons=1),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Witch", "Treasurer", "Collector", "chest", "amulet")
    if g.decision is not None and g.decision.kind == "order_abilities":
        g = answer(g, "Witch")
    next_day(g)
    p = g.players[0]
    assert p.doubloons == 5
    assert sorted(p.ship) == ["Wind Nymph", "Witch"]


def test_witch_copying_freed_prisoner_discards_the_witch() -> None:
    """R10/R11: `this` in a borrowed Freed Prisoner is the Witch: both gain 3 and are discarded."""
    ship = ["Freed Prisoner", "Cook", "Treasurer", "Collector"]
    g = new([seat("Witch", "Explorer", "Barkeep", ship=ship, doubloons=0),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Witch", "Treasurer", "Collector", "chest", "amulet")
    next_day(g)
    p = g.players[0]
    assert p.doubloons == 6
    assert sorted(p.ship) == ["Collector", "Cook", "Treasurer"]
    assert sorted(p.graveyard) == ["Freed Prisoner", "Witch"]


def test_witch_alone_at_anchor_returns_to_hand() -> None:
    """R39: a Witch that is the only moon character in the ship goes to hand at anchor."""
    g = new([seat("Witch", ship=["Cook"], doubloons=5), seat("Treasurer"), seat("Collector")],
            voyage=3, day=6)
    g = answer(g, "chest", "amulet")
    assert g.phase == "over" and g.decision is None
    p = g.players[0]
    assert p.hand == ("Witch",)
    assert p.graveyard == ("Cook",)
    assert p.ship == ()
    assert p.score == 2  # 5 coins, relic -3 at anchor
    assert g.players[1].score == 4  # amulet 3 + Treasurer 1
    assert g.players[2].score == 5  # chest


def test_witch_at_anchor_with_another_moon_character_goes_to_graveyard() -> None:
    """R39: with another moon character (Barkeep) in the ship the Witch is discarded normally."""
    g = new([seat("Witch", ship=["Barkeep"], doubloons=5), seat("Treasurer"), seat("Collector")],
            voyage=3, day=6)
    g = answer(g, "chest", "amulet", "Barkeep")
    assert g.phase == "over" and g.decision is None
    p = g.players[0]
    assert p.hand == ()
    assert sorted(p.graveyard) == ["Barkeep", "Witch"]
    assert p.ship == ()
    assert p.score == 4  # 5 + Barkeep 1 + Witch-as-Barkeep 1, relic -3


# --------------------------------------------------------------------------- Mutineer (16)


def test_mutineer_discards_lowest_ranked_ship_character_and_gains_two() -> None:
    """R16: the Mutineer discards the lowest-ranked ship character (Explorer) and gains 2."""
    g = new([seat("Mutineer", "Barkeep", "Witch", ship=["Explorer", "Cook"], doubloons=1),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Mutineer", "Treasurer", "Collector", "chest", "amulet")
    next_day(g)
    p = g.players[0]
    assert p.doubloons == 3
    assert sorted(p.ship) == ["Cook", "Mutineer"]
    assert p.graveyard == ("Explorer",)


def test_mutineer_discards_itself_when_lowest() -> None:
    """R16: when the Mutineer is the lowest-ranked ship character it discards itself, still +2."""
    g = new([seat("Mutineer", "Barkeep", "Witch", ship=["Cook"], doubloons=1),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Mutineer", "Treasurer", "Collector", "chest", "amulet")
    next_day(g)
    p = g.players[0]
    assert p.doubloons == 3
    assert p.ship == ("Cook",)
    assert p.graveyard == ("Mutineer",)


# --------------------------------------------------------------------------- Brute (17)


def test_brute_discards_rightmost_opponent_card_and_owner_gains_reputation() -> None:
    """Brute: the rightmost card (seat 2's Collector) is discarded; its owner gains 1 rep."""
    g = new([seat("Brute", "Explorer"), *quiet_opponents("Treasurer", "Collector")],
            reputation=[0, 1, 2])
    g = answer(g, "Brute", "Treasurer", "Collector")
    at(g, "choose_loot", 1)
    assert g.island == ((0, "Brute"), (1, "Treasurer"))
    assert g.players[2].graveyard == ("Collector",)
    assert g.players[2].reputation == 3
    assert g.players[0].reputation == 0 and g.players[1].reputation == 1
    g = answer(g, "chest", "amulet")
    assert g.players[2].loot == () and g.players[2].ship == ()
    assert g.players[1].loot == ("chest",) and g.players[0].loot == ("amulet",)
    assert g.players[0].ship == ("Brute",)


def test_brute_rightmost_is_own_brute_discards_itself_and_gains_reputation() -> None:
    """Brute: when the Brute is rightmost it discards itself and its owner gains 1 rep."""
    g = new([seat("Brute", "Explorer"), seat("Barkeep", "Treasurer"), seat("Explorer", "Cook")],
            reputation=[0, 1, 2])
    g = answer(g, "Brute", "Barkeep", "Explorer")
    at(g, "choose_loot", 2)
    assert g.island == ((1, "Barkeep"), (2, "Explorer"))
    p = g.players[0]
    assert p.graveyard == ("Brute",)
    assert p.reputation == 1
    assert g.players[1].reputation == 0  # the passed token slides left
    assert g.players[2].reputation == 2
    g = answer(g, "chest", "amulet")
    assert g.players[0].loot == () and g.players[0].ship == ()
    assert g.players[2].loot == ("chest",) and g.players[1].loot == ("amulet",)


# --------------------------------------------------------------------------- Gunner (18)


def test_gunner_discarding_own_ship_character_gains_reputation() -> None:
    """R36: Gunner discarding a character from your own ship gains 1 rep."""
    g = new([seat("Gunner", "Cook", ship=["Explorer"]), *quiet_opponents("Treasurer", "Collector")],
            reputation=[2, 1, 0])
    g = answer(g, "Gunner", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    p = g.players[0]
    assert p.reputation == 3
    assert p.ship == () and p.graveyard == ("Explorer",)
    assert p.doubloons == 0


def test_gunner_discarding_opponent_ship_character_loses_reputation() -> None:
    """R36: Gunner discarding an opponent's ship character loses 1 rep; it goes to their graveyard."""
    g = new([seat("Gunner", "Cook"), seat("Treasurer", "Collector", ship=["Explorer"]),
             seat("Collector", "Treasurer")], reputation=[2, 1, 0])
    g = answer(g, "Gunner", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert g.players[0].reputation == 1
    assert g.players[1].reputation == 2  # the passed token slides right
    assert g.players[1].ship == () and g.players[1].graveyard == ("Explorer",)
    assert g.players[0].graveyard == ()


def test_gunner_may_target_any_ship_including_own() -> None:
    """R36: the Gunner's choice covers every ship, own included; picking seat 2's card costs 1 rep."""
    g = new([seat("Gunner", "Explorer", ship=["Cook"]), seat("Treasurer", "Collector"),
             seat("Collector", "Treasurer", ship=["Explorer"])], reputation=[2, 1, 0])
    g = answer(g, "Gunner", "Treasurer", "Collector")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Cook", "Explorer@2"}
    g = answer(g, "Explorer@2")
    at(g, "choose_loot", 2)
    assert g.players[0].reputation == 1
    assert g.players[1].reputation == 2
    assert g.players[0].ship == ("Cook",)
    assert g.players[2].ship == () and g.players[2].graveyard == ("Explorer",)


def test_gunner_with_empty_ships_does_nothing() -> None:
    """R1/R36: with no character in any ship the Gunner changes nothing."""
    g = new([seat("Gunner", "Cook"), *quiet_opponents("Treasurer", "Collector")],
            reputation=[2, 1, 0])
    g = answer(g, "Gunner", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert [p.reputation for p in g.players] == [2, 1, 0]
    assert all(p.graveyard == () for p in g.players)


def test_gunner_reputation_loss_at_left_end_costs_a_doubloon() -> None:
    """R28/R36: losing 1 rep at space 0 instead loses 1 doubloon."""
    g = new([seat("Gunner", "Cook", doubloons=3), seat("Treasurer", "Collector", ship=["Explorer"]),
             seat("Collector", "Treasurer")], reputation=[0, 1, 2])
    g = answer(g, "Gunner", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert g.players[0].reputation == 0
    assert g.players[0].doubloons == 2
    assert g.players[1].graveyard == ("Explorer",)


# --------------------------------------------------------------------------- Necromancer (19)


def test_necromancer_spends_relic_to_raise_graveyard_character() -> None:
    """R17: with a relic and a graveyard character, a relic goes to the bag and the card to the ship."""
    g = new([seat("Necromancer", "Cook", graveyard=["Bosun"], loot=["relic", "chest"]),
             *quiet_opponents("Treasurer", "Collector")])
    relics = g.bag["relic"]
    g = answer(g, "Necromancer", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    p = g.players[0]
    assert p.loot == ("chest",)
    assert p.ship == ("Bosun",)
    assert p.graveyard == ()
    assert p.doubloons == 0  # the raised Bosun gets no sun turn
    assert g.bag["relic"] == relics + 1


def test_necromancer_chooses_which_graveyard_character() -> None:
    """R17: the owner picks which graveyard character the Necromancer raises."""
    g = new([seat("Necromancer", "Cook", graveyard=["Explorer", "Treasurer"], loot=["relic"]),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Necromancer", "Treasurer", "Collector")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Explorer", "Treasurer"}
    g = answer(g, "Treasurer")
    at(g, "choose_loot", 2)
    p = g.players[0]
    assert p.ship == ("Treasurer",)
    assert p.graveyard == ("Explorer",)
    assert p.loot == ()


def test_necromancer_without_relic_does_nothing() -> None:
    """R17: without a relic nothing happens, even with a graveyard character."""
    g = new([seat("Necromancer", "Cook", graveyard=["Bosun"], loot=["chest"]),
             *quiet_opponents("Treasurer", "Collector")])
    bag = dict(g.bag)
    g = answer(g, "Necromancer", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    p = g.players[0]
    assert p.loot == ("chest",)
    assert p.ship == () and p.graveyard == ("Bosun",)
    assert dict(g.bag) == bag


def test_necromancer_with_empty_graveyard_keeps_relic() -> None:
    """R17: with an empty graveyard no relic is spent."""
    g = new([seat("Necromancer", "Cook", loot=["relic"]), *quiet_opponents("Treasurer", "Collector")])
    bag = dict(g.bag)
    g = answer(g, "Necromancer", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    p = g.players[0]
    assert p.loot == ("relic",)
    assert p.ship == () and p.graveyard == ()
    assert dict(g.bag) == bag


# --------------------------------------------------------------------------- Freed Prisoner (20)


def test_freed_prisoner_gains_per_character_above_20_and_stays_under_three() -> None:
    """R11: Freed Prisoner gains 1 per ship character ranked above 20; at 2 it stays aboard."""
    g = new([seat("Freed Prisoner", "Barkeep", "Witch", ship=["Explorer", "Cook", "Treasurer"],
                  doubloons=1), *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Freed Prisoner", "Treasurer", "Collector", "chest", "amulet")
    next_day(g)
    p = g.players[0]
    assert p.doubloons == 3
    assert sorted(p.ship) == ["Cook", "Explorer", "Freed Prisoner", "Treasurer"]
    assert p.graveyard == ()


def test_freed_prisoner_discarded_when_gaining_three_or_more() -> None:
    """R11: Freed Prisoner gaining 3 or more is discarded after gaining."""
    g = new([seat("Freed Prisoner", "Barkeep", "Witch", ship=["Cook", "Treasurer", "Collector"],
                  doubloons=1), *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Freed Prisoner", "Treasurer", "Collector", "chest", "amulet")
    next_day(g)
    p = g.players[0]
    assert p.doubloons == 4
    assert sorted(p.ship) == ["Collector", "Cook", "Treasurer"]
    assert p.graveyard == ("Freed Prisoner",)


def test_freed_prisoner_counts_after_wind_nymph_clash() -> None:
    """R9/R11: Freed Prisoner resolves after the Nymph clash, so the discarded Nymph is not counted."""
    g = new([seat("Freed Prisoner", "Barkeep", "Witch", ship=["Wind Nymph", "Cook", "Treasurer"],
                  doubloons=1),
             seat("Treasurer", "Collector", ship=["Wind Nymph"]), seat("Collector", "Treasurer")])
    g = answer(g, "Freed Prisoner", "Treasurer", "Collector", "chest", "amulet")
    next_day(g)
    p = g.players[0]
    assert p.doubloons == 3
    assert sorted(p.ship) == ["Cook", "Freed Prisoner", "Treasurer"]
    assert p.graveyard == ("Wind Nymph",)
    assert g.players[1].graveyard == ("Wind Nymph",)
    assert g.players[1].doubloons == 0


# --------------------------------------------------------------------------- Bosun (21)


def test_bosun_gains_two_per_ship_character_ranked_below_21() -> None:
    """Bosun: +2 for each ship character ranked below 21 (Explorer 10, Freed Prisoner 20)."""
    g = new([seat("Bosun", "Barkeep", ship=["Explorer", "Freed Prisoner", "Brawler", "Cook"],
                  doubloons=1), *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Bosun", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert g.players[0].doubloons == 5
    assert g.players[0].reputation == 0


def test_bosun_with_empty_ship_gains_nothing() -> None:
    """Bosun: an empty ship gives nothing."""
    g = new([seat("Bosun", "Barkeep", doubloons=1), *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Bosun", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert g.players[0].doubloons == 1


# --------------------------------------------------------------------------- Brawler (22)


def test_brawler_discards_opponent_brawler_gains_two_rep_and_one_at_night() -> None:
    """R37: Brawler discards an opponent's ship Brawler for +2 rep, then gains 1 at night."""
    g = new([seat("Brawler", "Explorer", "Cook"), seat("Treasurer", "Collector", ship=["Brawler"]),
             seat("Collector", "Treasurer")], reputation=[0, 1, 2])
    g = answer(g, "Brawler", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert g.players[0].reputation == 2
    assert g.players[1].ship == () and g.players[1].graveyard == ("Brawler",)
    assert g.players[1].reputation == 0 and g.players[2].reputation == 1  # passed tokens slide
    g = answer(g, "chest", "amulet")
    next_day(g)
    assert g.players[0].doubloons == 1
    assert g.players[0].ship == ("Brawler",)
    assert g.players[1].doubloons == 0


def test_brawler_without_opponent_brawler_gains_no_reputation() -> None:
    """R37: with no Brawler in an opponent's ship nothing is discarded and no rep is gained."""
    g = new([seat("Brawler", "Explorer", "Cook", ship=["Barkeep"]),
             seat("Treasurer", "Collector", ship=["Explorer"]), seat("Collector", "Treasurer")],
            reputation=[0, 1, 2])
    g = answer(g, "Brawler", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert [p.reputation for p in g.players] == [0, 1, 2]
    assert all(p.graveyard == () for p in g.players)
    assert g.players[1].ship == ("Explorer",)
    g = answer(g, "chest", "amulet")
    if g.decision is not None and g.decision.kind == "order_abilities":
        g = answer(g, "Brawler")
    next_day(g)
    assert g.players[0].doubloons == 2  # Brawler 1 + Barkeep 1
    assert sorted(g.players[0].ship) == ["Barkeep", "Brawler"]


def test_brawler_chooses_among_opponent_brawlers() -> None:
    """R37: with two opponents' Brawlers the owner chooses one; only that one is discarded."""
    g = new([seat("Brawler", "Explorer"), seat("Treasurer", "Collector", ship=["Brawler"]),
             seat("Collector", "Treasurer", ship=["Brawler"])], reputation=[0, 1, 2])
    g = answer(g, "Brawler", "Treasurer", "Collector")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Brawler@1", "Brawler@2"}
    g = answer(g, "Brawler@2")
    at(g, "choose_loot", 2)
    assert g.players[0].reputation == 2
    assert g.players[1].ship == ("Brawler",)
    assert g.players[2].ship == () and g.players[2].graveyard == ("Brawler",)


# --------------------------------------------------------------------------- Thief (23)


def test_thief_takes_adjacent_token_loses_two_rep_without_dusk_effect() -> None:
    """R25/R6: the Thief takes a barrel from a neighbour, loses 2 rep; the barrel's dusk rep does not fire."""
    g = new([seat("Thief", "Cook"), seat("Treasurer", "Collector", loot=["barrel"]),
             seat("Collector", "Treasurer")], reputation=[3, 1, 2])
    g = answer(g, "Thief", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert g.players[0].loot == ("barrel",)
    assert g.players[1].loot == ()
    assert g.players[0].reputation == 1
    assert g.players[1].reputation == 2 and g.players[2].reputation == 3  # passed tokens slide


def test_thief_chooses_among_both_neighbours_tokens() -> None:
    """R12/R25: the Thief picks a token held by either neighbour (kind@seat)."""
    g = new([seat("Thief", "Cook"), seat("Treasurer", "Collector", loot=["barrel", "map"]),
             seat("Collector", "Treasurer", loot=["relic"])], reputation=[3, 1, 2])
    g = answer(g, "Thief", "Treasurer", "Collector")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"barrel@1", "map@1", "relic@2"}
    g = answer(g, "map@1")
    at(g, "choose_loot", 2)
    assert g.players[0].loot == ("map",)
    assert g.players[1].loot == ("barrel",)
    assert g.players[2].loot == ("relic",)
    assert g.players[0].reputation == 1


def test_thief_with_nothing_to_take_keeps_reputation() -> None:
    """R25: if no neighbour holds loot nothing is taken and no reputation is lost."""
    g = new([seat("Thief", "Cook"), *quiet_opponents("Treasurer", "Collector")], reputation=[3, 1, 2])
    g = answer(g, "Thief", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert g.players[0].reputation == 3
    assert g.players[0].loot == ()


def test_thief_ignores_non_adjacent_player_with_four_seats() -> None:
    """R12/R25: with 4 players the seat across is not adjacent; seat 3 wraps around and is."""
    g = new([seat("Thief", "Cook"), seat("Treasurer", "Collector"),
             seat("Collector", "Treasurer", loot=["chest"]), seat("Explorer", "Barkeep", loot=["map"])],
            loot=[["chest", "amulet", "relic", "barrel"]], reputation=[3, 0, 1, 2])
    g = answer(g, "Thief", "Treasurer", "Collector", "Explorer")
    at(g, "choose_loot", 2)
    assert g.players[0].loot == ("map",)
    assert g.players[3].loot == ()
    assert g.players[2].loot == ("chest",)
    assert g.players[0].reputation == 1


def test_thief_no_loot_nearby_with_four_seats_keeps_reputation() -> None:
    """R12/R25: loot only across the table (not adjacent) means nothing taken, no rep lost."""
    g = new([seat("Thief", "Cook"), seat("Treasurer", "Collector"),
             seat("Collector", "Treasurer", loot=["chest"]), seat("Explorer", "Barkeep")],
            loot=[["chest", "amulet", "relic", "barrel"]], reputation=[3, 0, 1, 2])
    g = answer(g, "Thief", "Treasurer", "Collector", "Explorer")
    at(g, "choose_loot", 2)
    assert g.players[0].loot == ()
    assert g.players[2].loot == ("chest",)
    assert g.players[0].reputation == 3


# --------------------------------------------------------------------------- Topman (24)


def test_topman_gains_four_minus_ship_size_including_itself() -> None:
    """R41: Topman gains 4 then loses 1 per ship character, itself included (3 aboard: +1)."""
    g = new([seat("Topman", "Barkeep", "Witch", ship=["Explorer", "Cook"], doubloons=1),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Topman", "Treasurer", "Collector", "chest", "amulet")
    next_day(g)
    assert g.players[0].doubloons == 2
    assert sorted(g.players[0].ship) == ["Cook", "Explorer", "Topman"]


def test_topman_gain_then_loss_floors_at_zero() -> None:
    """R41/R2: 1 coin, +4 then -6 (six aboard) leaves 0, not 1 - 6 -> 0 + 4."""
    ship = ["Explorer", "Bosun", "Cook", "Treasurer", "Collector"]
    g = new([seat("Topman", "Barkeep", "Witch", ship=ship, doubloons=1),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Topman", "Treasurer", "Collector", "chest", "amulet")
    next_day(g)
    assert g.players[0].doubloons == 0
    assert len(g.players[0].ship) == 6


# --------------------------------------------------------------------------- Recruiter (25)


def test_recruiter_puts_hand_card_into_ship_without_sun_or_loot() -> None:
    """R38: the recruited Bosun goes straight to the ship: no sun gain, no dusk loot."""
    g = new([seat("Recruiter", "Bosun", "Cook", "Barkeep", ship=["Explorer"], doubloons=1),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Recruiter", "Treasurer", "Collector")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Bosun", "Cook", "Barkeep"}
    g = answer(g, "Bosun")
    at(g, "choose_loot", 2)
    p = g.players[0]
    assert p.hand == ("Barkeep", "Cook")
    assert sorted(p.ship) == ["Bosun", "Explorer"]
    assert p.doubloons == 1
    assert g.island == ((0, "Recruiter"), (1, "Treasurer"), (2, "Collector"))
    g = answer(g, "chest", "amulet")
    at(g, "play_character", 0)
    p = g.players[0]
    assert p.loot == ("relic",)
    assert sorted(p.ship) == ["Bosun", "Explorer", "Recruiter"]
    assert p.doubloons == 1


def test_recruited_moon_character_works_the_same_night() -> None:
    """R38: a recruited Barkeep is in the ship by night and gains its 1."""
    g = new([seat("Recruiter", "Barkeep", "Cook", "Explorer", doubloons=1),
             *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Recruiter", "Treasurer", "Collector", "Barkeep", "chest", "amulet")
    next_day(g)
    p = g.players[0]
    assert sorted(p.ship) == ["Barkeep", "Recruiter"]
    assert p.hand == ("Explorer", "Cook")
    assert p.doubloons == 2
    assert p.loot == ("relic",)


def test_recruiter_with_empty_hand_does_nothing() -> None:
    """R1/R38: a Recruiter played from a one-card hand has nothing to recruit."""
    g = new([seat("Recruiter", ship=["Explorer"]), *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    p = g.players[0]
    assert p.hand == ()
    assert p.ship == ("Explorer",)


# --------------------------------------------------------------------------- Cook (26)


def test_cook_takes_second_token_and_resolves_its_dusk() -> None:
    """R24: the Cook takes a second token after the first; the barrel's dusk rep fires."""
    g = new([seat("Cook", "Explorer", "Collector"), seat("Barkeep", "Treasurer"), seat("Explorer", "Treasurer")],
            loot=[["chest", "barrel", "relic"]], reputation=[0, 1, 2])
    g = answer(g, "Cook", "Barkeep", "Explorer")
    at(g, "choose_loot", 0)
    g = answer(g, "chest")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"barrel", "relic"}
    g = answer(g, "barrel")
    at(g, "play_character", 0)
    p = g.players[0]
    assert sorted(p.loot) == ["barrel", "chest"]
    assert p.reputation == 1
    assert g.players[1].reputation == 0  # the passed token slides left
    assert p.ship == ("Cook",)
    assert g.players[2].loot == ("relic",)
    assert g.players[1].loot == () and g.players[1].ship == ("Barkeep",)


def test_cook_first_token_saber_resolves_before_second_token() -> None:
    """R24/R23: the Cook's first-token saber resolves, then the Cook takes a second token."""
    g = new([seat("Cook", "Explorer", "Collector"), seat("Barkeep", "Treasurer"), seat("Explorer", "Treasurer")],
            loot=[["saber", "chest", "amulet"]], reputation=[0, 1, 2])
    g = answer(g, "Cook", "Barkeep", "Explorer", "saber")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Barkeep@1", "Explorer@2"}
    g = answer(g, "Explorer@2")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"chest", "amulet"}
    g = answer(g, "chest")
    at(g, "play_character", 0)
    assert sorted(g.players[0].loot) == ["chest", "saber"]
    assert g.players[2].graveyard == ("Explorer",) and g.players[2].loot == ()
    assert g.players[1].loot == ("amulet",)


def test_cook_gets_only_one_token_when_none_is_left() -> None:
    """R1/R24: with no token left after its first, the Cook takes just one."""
    g = new([seat("Cook", "Explorer", "Collector"), *quiet_opponents("Treasurer", "Collector")])
    g = answer(g, "Cook", "Treasurer", "Collector", "chest", "amulet")
    at(g, "play_character", 0)
    assert g.players[0].loot == ("relic",)
    assert g.players[0].ship == ("Cook",)


def test_cook_sabered_before_its_turn_takes_no_loot() -> None:
    """R23/R24: a Cook no longer on the island takes no token at all."""
    g = new([seat("Cook", "Explorer", "Collector"), seat("Treasurer", "Collector"), seat("Barkeep", "Explorer")],
            loot=[["saber", "chest", "amulet"]], reputation=[0, 1, 2])
    g = answer(g, "Cook", "Treasurer", "Barkeep", "saber")
    at(g, "choose_character", 1)
    g = answer(g, "Cook@0")
    at(g, "choose_loot", 2)
    assert g.island == ((2, "Barkeep"),)
    assert g.players[0].graveyard == ("Cook",) and g.players[0].loot == ()
    g = answer(g, "chest")
    assert g.players[0].loot == () and g.players[0].ship == ()
    assert g.players[2].loot == ("chest",)


# --------------------------------------------------------------------------- Watchman (27)


def test_watchman_swaps_token_with_tomorrow() -> None:
    """R22: the Watchman swaps one of today's tokens with one of tomorrow's."""
    g = new([seat("Watchman", "Explorer", "Cook"), *quiet_opponents("Treasurer", "Collector")],
            loot=[["chest", "amulet", "relic"], ["map", "hook", "barrel"]])
    g = answer(g, "Watchman", "Treasurer", "Collector")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"chest", "amulet", "relic"}
    g = answer(g, "relic")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"map", "hook", "barrel"}
    g = answer(g, "barrel")
    at(g, "choose_loot", 2)
    assert sorted(g.day_loot) == ["amulet", "barrel", "chest"]
    assert sorted(g.loot_days[1]) == ["hook", "map", "relic"]
    g = answer(g, "chest", "amulet")
    next_day(g)
    assert g.players[0].loot == ("barrel",)
    assert g.players[0].reputation == 1  # the swapped-in barrel's dusk
    assert g.players[1].reputation == 0
    assert sorted(g.day_loot) == ["hook", "map", "relic"]


def test_watchman_on_last_day_does_nothing() -> None:
    """R22: on the voyage's last day the Watchman has no tomorrow, so nothing happens."""
    g = new([seat("Watchman", "Explorer"), *quiet_opponents("Treasurer", "Collector")],
            loot=[["chest", "amulet", "relic"]], voyage=1, day=4)
    g = answer(g, "Watchman", "Treasurer", "Collector")
    at(g, "choose_loot", 2)
    assert g.day == 4
    assert g.day_loot == ("chest", "amulet", "relic")
    assert g.players[0].doubloons == 0 and g.players[0].reputation == 0
