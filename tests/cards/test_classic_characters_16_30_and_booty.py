"""Scenario tests: classic (2012) characters ranked 16 to 30, the seven booty kinds and the
campaign end (set-aside booty, removed dens and discard piles, fresh doubloons, hands, ties).

Every scenario is a declared position.  Seat 0 plays the card under test and keeps two
spare cards (Monkey, Beggar) so the game stops at the next day's selection.  Seats 1 and 2
hold one quiet card each: French Officer (10; at 10 doubloons it gains nothing) and Voodoo
Witch (11; with an empty discard pile it gains nothing).  Being low, they pick their booty
after seat 0 (dusk runs right to left), and a one-option decision resolves itself.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import libertalia as lt
from tests.helpers import answer, at, coins, scores, start

RULES = lt.load_rules("classic")

Seat = dict[str, Any]
FILL = ("Monkey", "Beggar")  # never played: seat 0 keeps a real choice on the next day
BAG_TOTAL = 50
VALUES = {"chest": 5, "jewels": 3, "goods": 1, "relic": -3, "saber": 0, "officer": 0, "map": 0}


def S(*hand: str, **zones: Any) -> Seat:
    """A seat with ``hand`` and 10 doubloons (declared seats start with what they declare)."""
    return {"hand": list(hand), "doubloons": 10, **zones}


def me(card: str, **zones: Any) -> Seat:
    """Seat 0: the card under test plus the two spare cards."""
    return S(card, *FILL, **zones)


def fo(**zones: Any) -> Seat:
    return S("French Officer", **zones)


def vw(**zones: Any) -> Seat:
    return S("Voodoo Witch", **zones)


def game(seats: list[Seat], loot: list[list[str]], seed: int = 0, **extra: Any) -> lt.Game:
    return start(len(seats), seed=seed, rules=RULES, players=seats, loot=loot, **extra)


def last_day(seats: list[Seat], loot: list[str], voyage: int = 1) -> lt.Game:
    """Day 6 of ``voyage``: after its night the campaign ends."""
    return game(seats, [loot], voyage=voyage, day=6)


def bag_total(g: lt.Game) -> int:
    return sum(g.bag.values())


def in_play(g: lt.Game) -> int:
    """Every booty token somewhere: bag, days, set aside, held."""
    return (bag_total(g) + sum(len(d) for d in g.loot_days) + len(g.state.aside)
            + sum(len(p.loot) for p in g.players))


def next_campaign(g: lt.Game, voyage: int = 2) -> None:
    at(g, "play_character", 0)
    assert (g.voyage, g.day) == (voyage, 1)


# ====================================================================== 16 Topman
def test_topman_tie_for_fewest_counts_as_fewest() -> None:
    """Topman (A): +5 when no other player has fewer den characters; a tie counts as fewest."""
    g = last_day([me("Topman"), fo(), vw(ship=["Cook"])], ["goods", "goods", "goods"])
    g = answer(g, "Topman")
    next_campaign(g)
    # dens at campaign end: [Topman] 1, [French Officer] 1, [Cook, Voodoo Witch] 2
    assert scores(g) == [10 + 5 + 1, 11, 11]


def test_topman_all_dens_equal_still_pays() -> None:
    """Topman (A): with every den the same size, nobody has fewer, so +5."""
    g = last_day([me("Topman", ship=["Cook"]), fo(ship=["Cook"]), vw(ship=["Cook"])],
                 ["goods", "goods", "goods"])
    g = answer(g, "Topman")
    next_campaign(g)
    assert scores(g) == [16, 11, 11]


def test_topman_pays_nothing_when_another_den_is_smaller() -> None:
    """Topman (A): another player with fewer den characters means no +5."""
    g = last_day([me("Topman", ship=["Cook"]), fo(), vw(ship=["Cook"])], ["goods", "goods", "goods"])
    g = answer(g, "Topman")
    next_campaign(g)
    assert scores(g) == [11, 11, 11]  # 2 vs 1 vs 2


# ====================================================================== 17 Spanish Spy
def test_spanish_spy_without_officers_does_nothing() -> None:
    """Spanish Spy (D): with no officer held nothing is returned and nothing drawn."""
    g = game([me("Spanish Spy", loot=["chest", "saber"]), fo(), vw()], [["goods", "jewels", "map"]])
    before = dict(g.bag)
    g = answer(g, "Spanish Spy")
    at(g, "choose_loot", 0)
    assert g.players[0].loot == ("chest", "saber")
    assert g.bag == before
    assert coins(g) == [10, 10, 10]


@pytest.mark.parametrize("seed", range(8))
def test_spanish_spy_swaps_officers_for_draws_without_effect(seed: int) -> None:
    """Spanish Spy (D): every officer back to the bag, one draw each; drawn tokens have no dusk effect."""
    g = game([me("Spanish Spy", loot=["officer", "officer", "chest"]),
              fo(ship=["Cook"]), vw(ship=["Bosun"])],
             [["goods", "jewels", "map"]], seed=seed)
    bag0 = Counter(g.bag)
    total0 = bag_total(g)
    g = answer(g, "Spanish Spy")
    at(g, "choose_loot", 0)  # no saber or officer decision in between: nothing fired
    bag1 = Counter(g.bag)
    assert bag_total(g) == total0  # 2 returned, 2 drawn
    drawn = Counter({k: bag0[k] + (2 if k == "officer" else 0) - bag1[k] for k in bag0})
    assert all(v >= 0 for v in drawn.values()) and sum(drawn.values()) == 2
    assert Counter(g.players[0].loot) == Counter({"chest": 1}) + drawn
    assert len(g.players[0].loot) == 3
    # no saber discard, no officer discard: every den and discard pile untouched
    assert [p.ship for p in g.players] == [(), ("Cook",), ("Bosun",)]
    assert [p.graveyard for p in g.players] == [(), (), ()]
    assert g.island == ((1, "French Officer"), (2, "Voodoo Witch"), (0, "Spanish Spy"))
    assert coins(g) == [10, 10, 10]
    g = answer(g, "goods", "jewels")
    at(g, "play_character", 0)
    assert g.players[0].ship == ("Spanish Spy",)  # a drawn officer did not discard the Spy
    assert g.players[0].graveyard == ()
    assert [p.ship for p in g.players[1:]] == [("Cook", "French Officer"), ("Bosun", "Voodoo Witch")]
    assert Counter(g.players[0].loot) == Counter({"chest": 1, "goods": 1}) + drawn


def test_spanish_spy_seeds_do_draw_sabers_or_officers() -> None:
    """Spanish Spy: the seeds above really draw a saber or an officer at least once (test guard)."""
    drawn: Counter[str] = Counter()
    for seed in range(8):
        g = game([me("Spanish Spy", loot=["officer", "officer", "chest"]),
                  fo(ship=["Cook"]), vw(ship=["Bosun"])], [["goods", "jewels", "map"]], seed=seed)
        g = answer(g, "Spanish Spy")
        drawn.update(g.players[0].loot[1:])
    assert drawn["saber"] > 0 and drawn["officer"] > 0


# ====================================================================== 18 Cook
def test_cook_takes_two_tokens() -> None:
    """Cook (K): takes a second booty token after the first; the last picker gets none."""
    g = game([me("Cook"), fo(), vw()], [["chest", "jewels", "goods"]])
    g = answer(g, "Cook", "chest")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"jewels", "goods"}
    g = answer(g, "jewels")
    at(g, "play_character", 0)
    assert [p.loot for p in g.players] == [("chest", "jewels"), (), ("goods",)]
    assert g.players[0].ship == ("Cook",)
    assert g.players[1].ship == ("French Officer",)
    assert g.state.aside == ()


def test_cook_takes_both_tokens_even_when_an_officer_discards_it() -> None:
    """C6: the Cook takes its two tokens together; an officer among them discards the Cook, both are taken."""
    g = game([me("Cook"), fo(), vw()], [["officer", "chest", "goods"]])
    g = answer(g, "Cook", "officer")
    at(g, "choose_loot", 0)  # the second token comes before the officer's effect, with no condition
    assert set(g.legal_keys()) == {"chest", "goods"}
    g = answer(g, "chest")
    at(g, "play_character", 0)
    assert [p.loot for p in g.players] == [("officer", "chest"), (), ("goods",)]
    assert g.players[0].ship == () and g.players[0].graveyard == ("Cook",)


def test_cook_second_token_officer_discards_it_too() -> None:
    """C6/C2: an officer as the second token also discards the Cook; both tokens stay taken."""
    g = game([me("Cook"), fo(), vw()], [["officer", "chest", "goods"]])
    g = answer(g, "Cook", "chest", "officer")
    at(g, "play_character", 0)
    assert g.players[0].loot == ("chest", "officer")
    assert g.players[0].graveyard == ("Cook",)


def test_cook_with_one_token_left_takes_only_that() -> None:
    """Cook (K): when the day's booty is used up, the second take does nothing (R1)."""
    g = game([S("Cook", *FILL), S("Captain"), S("Spanish Governor")], [["chest", "jewels", "goods"]])
    g = answer(g, "Cook", "chest", "jewels")  # Spanish Governor (30) then Captain (29) pick first
    at(g, "play_character", 0)
    assert [p.loot for p in g.players] == [("goods",), ("jewels",), ("chest",)]
    assert g.players[0].ship == ("Cook",)


# ====================================================================== 19 Bosun
def test_bosun_two_per_den_character_below_19() -> None:
    """Bosun (D): +2 per den character ranked below 19 (Parrot 1, Cook 18; not Merchant 21)."""
    g = game([me("Bosun", ship=["Parrot", "Cook", "Merchant"]), fo(), vw()], [["chest", "jewels", "goods"]])
    g = answer(g, "Bosun")
    at(g, "choose_loot", 0)
    assert coins(g) == [14, 10, 10]


# ====================================================================== 20 Armorer
def test_armorer_one_per_saber_at_night() -> None:
    """Armorer (N): +1 per saber held; officers and other booty pay nothing."""
    g = game([me("Armorer", loot=["saber", "saber", "officer"]), fo(), vw()], [["chest", "chest", "chest"]])
    g = answer(g, "Armorer")
    at(g, "play_character", 0)
    assert coins(g) == [12, 10, 10]
    assert g.players[0].ship == ("Armorer",)


# ====================================================================== 21 Merchant
def test_merchant_offers_every_legal_sale_and_three_for_five() -> None:
    """Merchant (D, R18 Classic): 2 identical for 3 or 3 identical for 5; kinds with a single token are not offered."""
    g = game([me("Merchant", loot=["goods", "goods", "relic", "relic", "relic", "chest"]), fo(), vw()],
             [["chest", "jewels", "goods"]])
    relics = g.bag["relic"]
    g = answer(g, "Merchant")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"goods*2", "relic*2", "relic*3"}
    g = answer(g, "relic*3")
    at(g, "choose_loot", 0)
    assert coins(g) == [15, 10, 10]
    assert g.players[0].loot == ("goods", "goods", "chest")
    assert g.bag["relic"] == relics + 3


def test_merchant_two_for_three_is_mandatory_even_at_a_loss() -> None:
    """Merchant (D, R18 Classic): the only possible sale (2 chests for 3) must be made."""
    g = game([me("Merchant", loot=["chest", "chest", "map"]), fo(), vw()], [["chest", "jewels", "goods"]])
    chests = g.bag["chest"]
    g = answer(g, "Merchant")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"chest", "jewels", "goods"}  # today's booty: the sale is done
    assert coins(g) == [13, 10, 10]
    assert g.players[0].loot == ("map",)
    assert g.bag["chest"] == chests + 2


def test_merchant_nothing_when_no_pair() -> None:
    """Merchant (D, R18 Classic): no two identical tokens, so nothing happens."""
    g = game([me("Merchant", loot=["chest", "goods", "map"]), fo(), vw()], [["chest", "jewels", "goods"]])
    bag = dict(g.bag)
    g = answer(g, "Merchant")
    at(g, "choose_loot", 0)
    assert coins(g) == [10, 10, 10]
    assert g.players[0].loot == ("chest", "goods", "map")
    assert g.bag == bag


# ====================================================================== 22 Surgeon
def test_surgeon_takes_a_discarded_character_back_to_hand() -> None:
    """Surgeon (D): put a character from your discard pile into your hand (your choice)."""
    g = game([me("Surgeon", graveyard=["Captain", "Cook"]), fo(), vw()], [["chest", "jewels", "goods"]])
    g = answer(g, "Surgeon")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Captain", "Cook"}
    g = answer(g, "Captain")
    at(g, "choose_loot", 0)
    assert sorted(g.players[0].hand) == sorted([*FILL, "Captain"])
    assert g.players[0].graveyard == ("Cook",)


# ====================================================================== 23 Treasurer
def test_treasurer_one_per_goods_jewels_chest() -> None:
    """Treasurer (A): +1 per goods, jewels and chest (maps, relics, sabers not counted), with C4 booty."""
    g = last_day([me("Treasurer", loot=["goods", "jewels", "chest", "map", "relic", "saber"]), fo(), vw()],
                 ["goods", "goods", "goods"])
    g = answer(g, "Treasurer")
    next_campaign(g)
    # Treasurer +4 (2 goods, jewels, chest); booty 2 + 3 + 5 + 0 - 3 + 0 = 7
    assert scores(g) == [10 + 4 + 7, 11, 11]


# ====================================================================== 24 Gambler
def test_gambler_pays_per_token_by_day_and_gains_eight_at_campaign_end() -> None:
    """Gambler (D + A): -1 per booty held by day; +8 at campaign end."""
    g = last_day([me("Gambler", loot=["relic", "goods", "map"]), fo(), vw()], ["chest", "jewels", "goods"])
    g = answer(g, "Gambler")
    at(g, "choose_loot", 0)
    assert coins(g) == [7, 10, 10]
    g = answer(g, "chest", "jewels")
    next_campaign(g)
    # 7 + 8 (Gambler) - 3 relic + 1 goods + 0 map + 5 chest = 18
    assert scores(g) == [18, 11, 13]


# ====================================================================== 25 Governor's Daughter
def test_governors_daughter_alone_gains_six() -> None:
    """Governor's Daughter (A): +6 when no other den holds one."""
    g = last_day([me("Governor's Daughter"), fo(), vw()], ["goods", "goods", "goods"])
    g = answer(g, "Governor's Daughter")
    next_campaign(g)
    assert scores(g) == [17, 11, 11]


def test_governors_daughter_clash_loses_three_each() -> None:
    """Governor's Daughter (A): another den holds one, so both lose 3."""
    g = last_day([me("Governor's Daughter"), fo(ship=["Governor's Daughter"]), vw()],
                 ["goods", "goods", "goods"])
    g = answer(g, "Governor's Daughter")
    next_campaign(g)
    assert scores(g) == [8, 8, 11]


# ====================================================================== 26 Quartermaster
def test_quartermaster_gains_per_token_then_loses_eight_netted_to_zero() -> None:
    """Quartermaster (D + A, R3): +1 per booty by day; -8 at the end, netted with booty and floored at 0."""
    g = last_day([me("Quartermaster", loot=["relic", "relic"]), fo(), vw()], ["goods", "chest", "jewels"])
    g = answer(g, "Quartermaster")
    at(g, "choose_loot", 0)
    assert coins(g) == [12, 10, 10]
    g = answer(g, "goods", "chest")
    next_campaign(g)
    # 12 + (-8 - 6 + 1) = -1 -> 0
    assert scores(g) == [0, 13, 15]


def test_quartermaster_day_gain() -> None:
    """Quartermaster (D): +1 per booty token held."""
    g = game([me("Quartermaster", loot=["relic", "saber", "officer"]), fo(), vw()], [["chest", "jewels", "goods"]])
    g = answer(g, "Quartermaster")
    at(g, "choose_loot", 0)
    assert coins(g) == [13, 10, 10]


# ====================================================================== 27 Granny Wata
def test_granny_wata_alone_gains_two() -> None:
    """Granny Wata (N): +2 when no other den holds one at nightfall."""
    g = game([me("Granny Wata"), fo(), vw()], [["chest", "chest", "chest"]])
    g = answer(g, "Granny Wata")
    at(g, "play_character", 0)
    assert coins(g) == [12, 10, 10]
    assert g.players[0].ship == ("Granny Wata",)


def test_granny_wata_clash_discards_every_granny() -> None:
    """Granny Wata (N): two in different dens at nightfall: every Granny Wata is discarded, nobody gains."""
    g = game([me("Granny Wata"), fo(ship=["Granny Wata"]), vw()], [["chest", "chest", "chest"]])
    g = answer(g, "Granny Wata")
    at(g, "play_character", 0)
    assert coins(g) == [10, 10, 10]
    assert g.players[0].ship == () and g.players[0].graveyard == ("Granny Wata",)
    assert g.players[1].ship == ("French Officer",) and g.players[1].graveyard == ("Granny Wata",)


# ====================================================================== 28 First Mate
def test_first_mate_one_per_den_character_itself_included() -> None:
    """First Mate (A): +1 per character in your den, itself included."""
    g = last_day([me("First Mate", ship=["Parrot", "Cook"]), fo(), vw()], ["goods", "goods", "goods"])
    g = answer(g, "First Mate")
    next_campaign(g)
    assert scores(g) == [10 + 3 + 1, 11, 11]


# ====================================================================== 29 Captain
def test_captain_gains_three_then_three_per_relic_at_campaign_end() -> None:
    """Captain (D + A): +3 by day; -3 per relic at the end, on top of each relic's own -3 (C4, R3)."""
    g = last_day([me("Captain", loot=["relic", "relic"]), fo(), vw()], ["goods", "goods", "goods"])
    g = answer(g, "Captain")
    next_campaign(g)
    # 13 + (-6 Captain - 6 relics + 1 goods) = 2
    assert scores(g) == [2, 11, 11]


def test_captain_day_gain() -> None:
    """Captain (D): +3 doubloons."""
    g = game([me("Captain"), fo(), vw()], [["chest", "jewels", "goods"]])
    g = answer(g, "Captain")
    at(g, "choose_loot", 0)
    assert coins(g) == [13, 10, 10]


# ====================================================================== 30 Spanish Governor
def test_spanish_governor_discards_every_den_character() -> None:
    """Spanish Governor (D): every character in your den is discarded; the Governor then docks."""
    g = game([me("Spanish Governor", ship=["Parrot", "Cook", "Captain"]), fo(ship=["Bosun"]), vw()],
             [["chest", "chest", "chest"]])
    g = answer(g, "Spanish Governor")
    at(g, "play_character", 0)
    assert g.players[0].ship == ("Spanish Governor",)
    assert sorted(g.players[0].graveyard) == ["Captain", "Cook", "Parrot"]
    assert g.players[1].ship == ("Bosun", "French Officer") and g.players[1].graveyard == ()


# ====================================================================== booty values (C4)
@pytest.mark.parametrize(("kind", "value"), sorted(VALUES.items()))
def test_booty_value_at_campaign_end(kind: str, value: int) -> None:
    """Booty (C4): chest 5, jewels 3, goods 1, relic -3, saber 0, officer 0, a lone map 0."""
    g = last_day([me("Bosun", loot=[kind]), fo(), vw()], ["goods", "goods", "goods"])
    g = answer(g, "Bosun")
    next_campaign(g)
    assert scores(g) == [10 + value + 1, 11, 11]


def test_booty_mixed_is_netted() -> None:
    """Booty (C4, R3): all kinds at once are summed then banked."""
    g = last_day([me("Bosun", loot=["chest", "jewels", "goods", "relic", "saber", "officer", "map"]), fo(), vw()],
                 ["goods", "goods", "goods"])
    g = answer(g, "Bosun")
    next_campaign(g)
    assert scores(g) == [10 + 5 + 3 + 1 - 3 + 1, 11, 11]


def test_relics_floor_the_campaign_at_zero() -> None:
    """Booty (R2/R3): relics worth more than your doubloons leave 0, no debt."""
    g = last_day([me("Bosun", loot=["relic"] * 5, doubloons=4), fo(), vw()], ["goods", "goods", "goods"])
    g = answer(g, "Bosun")
    next_campaign(g)
    assert scores(g) == [0, 11, 11]


@pytest.mark.parametrize(("maps", "value"), [(1, 0), (2, 0), (3, 12), (4, 12), (5, 12), (6, 24)])
def test_maps_score_twelve_per_full_set_of_three(maps: int, value: int) -> None:
    """Map (C4): each full set of 3 maps scores 12; 1-2 leftover maps score nothing."""
    g = last_day([me("Bosun", loot=["map"] * maps), fo(), vw()], ["goods", "goods", "goods"])
    g = answer(g, "Bosun")
    next_campaign(g)
    assert scores(g) == [10 + value + 1, 11, 11]


# ====================================================================== saber (C3)
def test_saber_targets_both_neighbours_dens_with_three_players() -> None:
    """Saber (C3): discard a character from an adjacent den of your choice; your own den is no target."""
    g = game([me("Captain", ship=["Surgeon"]), fo(ship=["Parrot"]), vw(ship=["Monkey"])],
             [["saber", "chest", "goods"]])
    g = answer(g, "Captain", "saber")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Parrot@1", "Monkey@2"}
    g = answer(g, "Monkey@2", "chest")
    at(g, "play_character", 0)
    assert g.players[2].ship == ("Voodoo Witch",) and g.players[2].graveyard == ("Monkey",)
    assert g.players[1].ship == ("Parrot", "French Officer")
    assert g.players[0].ship == ("Surgeon", "Captain") and g.players[0].loot == ("saber",)


def test_saber_four_players_only_adjacent_dens() -> None:
    """Saber (C3): with 4 players the seat across the table is not adjacent."""
    g = game([me("Captain"), fo(ship=["Parrot"]), vw(ship=["Monkey"]), S("Barkeep", ship=["Beggar"])],
             [["saber", "goods", "relic", "map"]])
    g = answer(g, "Captain", "saber")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Parrot@1", "Beggar@3"}
    g = answer(g, "Beggar@3")
    assert g.players[3].graveyard == ("Beggar",)
    assert g.players[2].ship == ("Monkey",)


def test_saber_two_players_hits_the_one_opponent() -> None:
    """Saber (C3, R12): with 2 players the opponent is the only neighbour."""
    g = game([me("Captain", ship=["Surgeon"]), fo(ship=["Parrot", "Cook"])], [["saber", "goods"]])
    g = answer(g, "Captain", "saber")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Parrot@1", "Cook@1"}
    g = answer(g, "Cook@1")
    at(g, "play_character", 0)
    assert g.players[1].graveyard == ("Cook",)
    assert g.players[1].ship == ("Parrot", "French Officer")


def test_saber_does_nothing_when_adjacent_dens_are_empty() -> None:
    """Saber (C3): no character in an adjacent den, so nothing happens; the token is kept."""
    g = game([me("Captain", ship=["Surgeon"]), fo(), vw()], [["saber", "chest", "goods"]])
    g = answer(g, "Captain", "saber")
    at(g, "choose_loot", 2)  # straight on to the next picker
    g = answer(g, "chest")
    at(g, "play_character", 0)
    assert g.players[0].loot == ("saber",)
    assert g.players[0].ship == ("Surgeon", "Captain")
    assert [p.graveyard for p in g.players] == [(), (), ()]


def test_saber_can_hit_a_character_docked_earlier_this_dusk() -> None:
    """Saber (C3): characters enter the den right after their booty, so a later saber can hit them."""
    g = game([me("Captain"), fo(), vw()], [["goods", "saber", "relic"]])
    g = answer(g, "Captain", "goods")  # the Captain docks at once
    at(g, "choose_loot", 2)
    g = answer(g, "saber")  # only target: the Captain (the French Officer is still on the island)
    at(g, "play_character", 0)
    assert g.players[0].ship == () and g.players[0].graveyard == ("Captain",)
    assert g.players[0].loot == ("goods",)
    assert g.players[1].ship == ("French Officer",) and g.players[1].loot == ("relic",)
    assert g.players[2].loot == ("saber",)


# ====================================================================== officer (C2)
def test_officer_discards_the_taker_and_stays() -> None:
    """Officer (C2): the character that took it is discarded instead of docking; the token stays."""
    g = game([me("Captain"), fo(), vw()], [["officer", "chest", "goods"]])
    g = answer(g, "Captain", "officer", "chest")
    at(g, "play_character", 0)
    assert coins(g) == [13, 10, 10]  # the Captain's day ability had already paid
    assert g.players[0].ship == () and g.players[0].graveyard == ("Captain",)
    assert g.players[0].loot == ("officer",)
    assert g.players[0].removed == ()


# ====================================================================== unclaimed booty (R7)
def test_unclaimed_booty_is_set_aside_not_returned() -> None:
    """Booty (R7 Classic): the day's unclaimed token is set aside, not put back in the bag."""
    g = game([me("Captain"), S("Cabin Boy"), vw()], [["chest", "relic", "map"]])
    bag0 = dict(g.bag)
    g = answer(g, "Captain", "chest", "map")  # the Cabin Boy takes nothing
    at(g, "play_character", 0)
    assert g.state.aside == ("relic",)
    assert g.bag == bag0
    assert [p.loot for p in g.players] == [("chest",), (), ("map",)]
    assert in_play(g) == BAG_TOTAL


def test_set_aside_booty_returns_to_bag_at_campaign_end() -> None:
    """Booty (R7 Classic): set-aside and held booty all go back in the bag when the campaign ends."""
    g = last_day([me("Captain", loot=["relic", "relic"]), S("Cabin Boy", loot=["map"]), vw()],
                 ["chest", "relic", "map"])
    g = answer(g, "Captain", "chest", "map")
    next_campaign(g)
    assert g.state.aside == ()
    assert [p.loot for p in g.players] == [(), (), ()]
    assert bag_total(g) == BAG_TOTAL - 3 * 6  # everything back, then six new days drawn
    assert in_play(g) == BAG_TOTAL
    for kind, count in RULES.board.bag:
        assert g.bag[kind] + sum(d.count(kind) for d in g.loot_days) == count


# ====================================================================== campaign end (C5)
def test_campaign_end_removes_den_and_discards_keeps_hand_and_resets_doubloons() -> None:
    """Campaign end (C5): den and discard pile leave the game; hand kept plus 6 new cards; 10 doubloons each."""
    g = last_day([S("Captain", "Monkey", "Beggar", "Recruiter", ship=["Parrot"], graveyard=["Cook"]),
                  fo(ship=["Bosun"]), vw(doubloons=0)],
                 ["goods", "goods", "goods"])
    g = answer(g, "Captain")
    next_campaign(g)
    assert scores(g) == [14, 11, 1]
    assert coins(g) == [10, 10, 10]
    p0, p1, p2 = g.players
    assert sorted(p0.removed) == ["Captain", "Cook", "Parrot"]
    assert sorted(p1.removed) == ["Bosun", "French Officer"]
    assert p2.removed == ("Voodoo Witch",)
    assert [p.ship for p in g.players] == [(), (), ()]
    assert [p.graveyard for p in g.players] == [(), (), ()]
    new = set(p1.hand)
    assert len(p1.hand) == 6 and set(p2.hand) == new  # the same 6 new cards for everyone
    assert len(p0.hand) == 9 and set(p0.hand) == new | {"Monkey", "Beggar", "Recruiter"}
    assert new.isdisjoint({"Monkey", "Beggar", "Recruiter", "Captain", "Parrot", "Cook", "Bosun",
                           "French Officer", "Voodoo Witch"})
    assert [len(d) for d in g.loot_days] == [3] * 6
    assert [p.reputation for p in g.players] == [0, 0, 0]


def test_second_campaign_end_banks_onto_existing_score() -> None:
    """Campaign end (C5): doubloons are added to the score already banked, then reset to 10."""
    g = last_day([me("Captain", score=30), fo(score=5), vw(score=12)], ["goods", "goods", "goods"], voyage=2)
    g = answer(g, "Captain")
    next_campaign(g, voyage=3)
    assert scores(g) == [30 + 14, 5 + 11, 12 + 11]
    assert coins(g) == [10, 10, 10]


def test_new_game_deals_nine_and_ten_doubloons() -> None:
    """Set-up (C5): 10 doubloons each, the same 9 cards for everyone, 6 days of booty, one token per player."""
    g = lt.new_game(RULES, 4, seed=3)
    assert coins(g) == [10, 10, 10, 10]
    assert len(g.players[0].hand) == 9 and all(p.hand == g.players[0].hand for p in g.players)
    assert [len(d) for d in g.loot_days] == [4] * 6
    assert bag_total(g) == BAG_TOTAL - 24
    assert (g.voyage, g.day) == (1, 1)


def test_classic_has_no_reputation_track() -> None:
    """Set-up (Classic): reputation is always 0, and declaring it is an error."""
    g = game([me("Captain"), fo(), vw()], [["chest", "jewels", "goods"]])
    assert [p.reputation for p in g.players] == [0, 0, 0]
    with pytest.raises(lt.SetupError):
        start(3, rules=RULES, players=[me("Captain"), fo(), vw()], reputation=[0, 1, 2])


# ====================================================================== winners (R26 Classic)
def test_equal_final_scores_share_the_win() -> None:
    """Winner (R26 Classic): a tie for the highest score is shared."""
    g = last_day([me("Captain", score=50, doubloons=8), fo(score=51), vw(score=40)],
                 ["goods", "goods", "goods"], voyage=3)
    g = answer(g, "Captain")
    assert g.is_over
    assert scores(g) == [50 + 8 + 3 + 1, 51 + 11, 40 + 11]
    assert g.winners() == (0, 1)


def test_single_highest_score_wins_alone() -> None:
    """Winner (R26 Classic): without a tie there is one winner."""
    g = last_day([me("Captain", score=50), fo(score=51), vw(score=40)], ["goods", "goods", "goods"], voyage=3)
    g = answer(g, "Captain")
    assert g.is_over
    assert scores(g) == [64, 62, 51]
    assert g.winners() == (0,)
