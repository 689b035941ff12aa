"""Scenario tests: Galecrest characters ranked 28 to 40 and the seven calm loot tiles.

Every scenario is a declared position with three seats.  Seat 0 plays the card under test;
seats 1 and 2 hold one quiet card each (Necromancer 19 without a relic, Bosun 21 with an
empty ship, Treasurer 32, Collector 35), so their numbers stay easy to follow.  A one-card
hand and a one-option decision resolve on their own, so only real choices are answered.
"""

from __future__ import annotations

from typing import Any

import pytest

import libertalia as lt
from tests.helpers import answer, at, coins, galecrest, reps, scores

Seat = dict[str, Any]

# Quiet low-ranked opponents: no ability fires for them in these positions.
NECRO: Seat = {"hand": ["Necromancer"]}
BOSUN: Seat = {"hand": ["Bosun"]}
# Two spare cards kept in seat 0's hand, so the next day waits on seat 0's choice.
FILLER = ["Cook", "Watchman"]


def position(
    seats: list[Seat],
    loot: list[list[str]] | None = None,
    reputation: tuple[int, ...] = (0, 1, 2),
    **extra: Any,
) -> lt.Game:
    """A game at a declared position (seat list, today's loot first, track spaces)."""
    setup: dict[str, Any] = {"players": seats, "reputation": list(reputation), **extra}
    if loot is not None:
        setup["loot"] = loot
    return lt.new_game(galecrest(), len(seats), seed=0, setup=setup)


def last_day(seats: list[Seat], loot: list[str], reputation: tuple[int, ...] = (0, 1, 2)) -> lt.Game:
    """The final day of the game (voyage 3, day 6): after its night comes anchor, then the end."""
    return position(seats, [loot], reputation, voyage=3, day=6)


# ====================================================================== 28 Armorer
def test_armorer_hook_gains_two_reputation_then_night_pays_per_saber_and_hook() -> None:
    """Armorer: taking a hook gives +2 reputation at dusk; at night +1 per saber or hook held."""
    g = position([{"hand": ["Armorer", *FILLER], "loot": ["saber"]}, NECRO, BOSUN],
                 [["hook", "amulet", "relic"]])
    g = answer(g, "Armorer")
    at(g, "choose_loot", 0)  # the Armorer is rightmost, so it picks first
    assert g.island == ((1, "Necromancer"), (2, "Bosun"), (0, "Armorer"))
    g = answer(g, "hook", "amulet")
    at(g, "play_character", 0)  # the night has passed: day 2 begins
    assert (g.voyage, g.day) == (1, 2)
    assert reps(g) == [2, 0, 1]  # seat 0 passes both tokens, they slide left
    assert coins(g) == [2, 0, 0]  # saber + hook at night
    assert g.players[0].loot == ("saber", "hook")
    assert g.players[0].ship == ("Armorer",)
    assert g.players[1].loot == ("relic",) and g.players[2].loot == ("amulet",)


def test_armorer_saber_gains_two_reputation() -> None:
    """Armorer: a saber just taken gives +2 reputation (its saber discards a victim too, R23)."""
    g = position([{"hand": ["Armorer", *FILLER]}, NECRO, BOSUN], [["saber", "amulet", "relic"]])
    g = answer(g, "Armorer", "saber")
    if g.decision is not None and g.decision.kind == "order_abilities":
        g = answer(g, "Armorer")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Necromancer@1", "Bosun@2"}
    g = answer(g, "Bosun@2", "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [2, 0, 1]
    assert coins(g) == [1, 0, 0]  # one saber at night
    assert g.players[2].graveyard == ("Bosun",) and g.players[2].loot == ()
    assert g.players[2].ship == ()


def test_armorer_map_gives_no_reputation_and_no_night_coins() -> None:
    """Armorer: a map gives no reputation, and with no saber or hook the night pays nothing."""
    g = position([{"hand": ["Armorer", *FILLER], "loot": ["amulet"]}, NECRO, BOSUN],
                 [["map", "amulet", "relic"]])
    g = answer(g, "Armorer", "map", "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [0, 1, 2]
    assert coins(g) == [0, 0, 0]
    assert g.players[0].loot == ("amulet", "map")


# ====================================================================== 29 Infantry
def test_infantry_rightmost_gains_five() -> None:
    """Infantry: +5 when it is the rightmost character on the island."""
    g = position([{"hand": ["Infantry", *FILLER], "doubloons": 1}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]])
    g = answer(g, "Infantry")
    at(g, "choose_loot", 0)
    assert g.island[-1] == (0, "Infantry")
    assert coins(g) == [6, 0, 0]


def test_infantry_not_rightmost_gains_nothing() -> None:
    """Infantry: nothing when a higher-ranked character stands to its right."""
    g = position([{"hand": ["Infantry", *FILLER], "doubloons": 1}, NECRO, {"hand": ["Treasurer"]}],
                 [["chest", "amulet", "relic"]])
    g = answer(g, "Infantry")
    at(g, "choose_loot", 2)
    assert g.island == ((1, "Necromancer"), (0, "Infantry"), (2, "Treasurer"))
    assert coins(g) == [1, 0, 0]


# ====================================================================== 30 Merchant
def test_merchant_offers_one_to_three_tokens_of_one_kind() -> None:
    """R18: the Merchant offers 1, 2 or 3 tokens of one kind held, and nothing else."""
    g = position([{"hand": ["Merchant", *FILLER], "loot": ["map", "map", "map", "relic"]}, NECRO, BOSUN],
                 [["chest", "amulet", "barrel"]])
    g = answer(g, "Merchant")
    at(g, "choose_loot", 0)
    assert sorted(g.legal_keys()) == ["map*1", "map*2", "map*3", "relic*1"]


@pytest.mark.parametrize(("key", "gain", "left"), [
    ("map*1", 1, ("map", "map", "relic")),
    ("map*2", 4, ("map", "relic")),
    ("map*3", 9, ("relic",)),
    ("relic*1", 1, ("map", "map", "map")),
])
def test_merchant_sale_prices(key: str, gain: int, left: tuple[str, ...]) -> None:
    """R18: selling 1, 2 or 3 tokens of one kind pays 1, 4 or 9; the tokens go back to the bag."""
    g = position([{"hand": ["Merchant", *FILLER], "loot": ["map", "map", "map", "relic"], "doubloons": 2},
                  NECRO, BOSUN], [["chest", "amulet", "barrel"]])
    g = answer(g, "Merchant")
    bag = g.bag
    kind, count = key.split("*")
    g = answer(g, key)
    at(g, "choose_loot", 0)  # dusk: the Merchant (rightmost) picks first
    assert coins(g) == [2 + gain, 0, 0]
    assert g.players[0].loot == left
    assert g.bag[kind] == bag[kind] + int(count)


def test_merchant_sale_is_mandatory_even_for_one_relic() -> None:
    """R18: holding only a relic, the Merchant must sell it for 1 (no decision is offered)."""
    g = position([{"hand": ["Merchant", *FILLER], "loot": ["relic"], "doubloons": 2}, NECRO, BOSUN],
                 [["chest", "amulet", "barrel"]])
    bag = g.bag
    g = answer(g, "Merchant")
    at(g, "choose_loot", 0)  # straight on to dusk
    assert coins(g) == [3, 0, 0]
    assert g.players[0].loot == ()
    assert g.bag["relic"] == bag["relic"] + 1


def test_merchant_without_loot_does_nothing() -> None:
    """R1/R18: with no loot the Merchant has nothing to sell; no coins, no decision."""
    g = position([{"hand": ["Merchant", *FILLER], "doubloons": 2}, NECRO, BOSUN], [["chest", "amulet", "barrel"]])
    g = answer(g, "Merchant")
    at(g, "choose_loot", 0)
    assert coins(g) == [2, 0, 0]


# ====================================================================== 31 Surgeon
def test_surgeon_returns_a_graveyard_character_to_hand() -> None:
    """Surgeon: a character of your choice goes from your graveyard to your hand."""
    g = position([{"hand": ["Surgeon", *FILLER], "graveyard": ["Treasurer", "Explorer"]}, NECRO, BOSUN],
                 [["chest", "amulet", "barrel"]])
    g = answer(g, "Surgeon")
    at(g, "choose_character", 0)
    assert sorted(g.legal_keys()) == ["Explorer", "Treasurer"]
    g = answer(g, "Explorer")
    at(g, "choose_loot", 0)
    assert g.players[0].hand == ("Explorer", "Cook", "Watchman")  # sorted by rank
    assert g.players[0].graveyard == ("Treasurer",)


def test_surgeon_with_empty_graveyard_does_nothing() -> None:
    """R1: the Surgeon with an empty graveyard changes nothing."""
    g = position([{"hand": ["Surgeon", *FILLER]}, NECRO, BOSUN], [["chest", "amulet", "barrel"]])
    g = answer(g, "Surgeon")
    at(g, "choose_loot", 0)
    assert g.players[0].hand == ("Cook", "Watchman") and g.players[0].graveyard == ()


# ====================================================================== 32 Treasurer
def test_treasurer_anchor_pays_per_barrel_amulet_chest() -> None:
    """Treasurer: at anchor +1 per barrel, amulet and chest (netted with the loot's own anchors, R3)."""
    g = last_day([{"hand": ["Treasurer"], "loot": ["barrel", "amulet", "chest", "map"], "doubloons": 2},
                  NECRO, BOSUN], ["relic", "relic", "relic"])
    assert g.is_over
    # coins 2; Treasurer +3; barrel +1, amulet +3, chest +5, relic -3, single map 0
    assert scores(g) == [11, 0, 0]


# ====================================================================== 33 Gambler
def test_gambler_sun_loses_one_per_loot_held() -> None:
    """Gambler: by day lose 1 per loot token held."""
    g = position([{"hand": ["Gambler", *FILLER], "loot": ["map", "map", "relic"], "doubloons": 5}, NECRO, BOSUN],
                 [["chest", "amulet", "barrel"]])
    g = answer(g, "Gambler")
    at(g, "choose_loot", 0)
    assert coins(g) == [2, 0, 0]
    assert g.players[0].loot == ("map", "map", "relic")


def test_gambler_loss_floors_at_zero() -> None:
    """R2: the Gambler's loss larger than the coins held leaves 0."""
    g = position([{"hand": ["Gambler", *FILLER], "loot": ["map", "map", "relic"], "doubloons": 1}, NECRO, BOSUN],
                 [["chest", "amulet", "barrel"]])
    g = answer(g, "Gambler")
    at(g, "choose_loot", 0)
    assert coins(g) == [0, 0, 0]


def test_gambler_anchor_gains_six() -> None:
    """Gambler: at anchor +6 (holding no loot by day, so the sun loses nothing)."""
    g = last_day([{"hand": ["Gambler"], "doubloons": 3}, NECRO, BOSUN], ["map", "map", "map"])
    assert g.is_over
    assert scores(g) == [9, 0, 0]  # 3 + 6; one map scores 0


# ====================================================================== 34 Aristocrat
def test_aristocrat_gains_two_reputation() -> None:
    """Aristocrat: by day +2 reputation; the passed tokens slide one space left."""
    g = position([{"hand": ["Aristocrat", *FILLER], "doubloons": 1}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]], reputation=(1, 2, 3))
    g = answer(g, "Aristocrat")
    at(g, "choose_loot", 0)
    assert reps(g) == [3, 1, 2]
    assert coins(g) == [1, 0, 0]


def test_aristocrat_at_right_end_overflows_into_two_doubloons() -> None:
    """R28: the Aristocrat at space 5 cannot move; each step past the right end gains 1."""
    g = position([{"hand": ["Aristocrat", *FILLER], "doubloons": 1}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]], reputation=(5, 0, 1))
    g = answer(g, "Aristocrat")
    at(g, "choose_loot", 0)
    assert reps(g) == [5, 0, 1]
    assert coins(g) == [3, 0, 0]


def test_aristocrat_one_step_from_right_end_moves_one_and_gains_one() -> None:
    """R28: at space 4 the Aristocrat moves 1 space and the second step pays 1 doubloon."""
    g = position([{"hand": ["Aristocrat", *FILLER], "doubloons": 1}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]], reputation=(4, 5, 0))
    g = answer(g, "Aristocrat")
    at(g, "choose_loot", 0)
    assert reps(g) == [5, 4, 0]
    assert coins(g) == [2, 0, 0]


def test_aristocrat_alone_gains_five_at_anchor() -> None:
    """R30: no Aristocrat in another player's ship (one in a graveyard does not count): +5."""
    g = last_day([{"ship": ["Aristocrat"], "doubloons": 1}, {"hand": ["Necromancer"], "graveyard": ["Aristocrat"]},
                  BOSUN], ["map", "map", "map"])
    assert g.is_over
    assert scores(g) == [6, 0, 0]


def test_aristocrat_not_alone_loses_three_at_anchor() -> None:
    """R30: an Aristocrat in another player's ship makes each Aristocrat lose 3 (floored, R3)."""
    g = last_day([{"ship": ["Aristocrat"], "doubloons": 5}, {"hand": ["Necromancer"], "ship": ["Aristocrat"],
                  "doubloons": 2}, BOSUN], ["map", "map", "map"])
    assert g.is_over
    assert scores(g) == [2, 0, 0]


def test_aristocrat_played_today_is_alone_and_gains_five() -> None:
    """R30: the Aristocrat played on the last day reaches the ship and scores +5 at anchor."""
    g = last_day([{"hand": ["Aristocrat"], "doubloons": 1}, NECRO, BOSUN], ["map", "map", "map"],
                 reputation=(0, 1, 2))
    assert g.is_over
    assert reps(g) == [2, 0, 1]
    assert scores(g) == [6, 0, 0]


# ====================================================================== 35 Collector
@pytest.mark.parametrize(("loot", "expected"), [
    (["map"], 0),  # 1 kind: nothing
    (["map", "saber"], 1),  # 2 kinds: 1
    (["map", "map", "saber"], 1 + 7),  # still 2 kinds; the pair of maps scores 7 (R14)
    (["map", "saber", "barrel"], 3 + 1),  # 3 kinds: 3; barrel +1
    (["map", "saber", "barrel", "amulet"], 5 + 1 + 3),  # 4 kinds: 5
    (["map", "saber", "barrel", "amulet", "relic"], 10 + 1 + 3 - 3),  # 5 kinds: 10
    (["map", "saber", "barrel", "amulet", "relic", "chest"], 10 + 1 + 3 - 3 + 5),  # 6 kinds: still 10
])
def test_collector_pays_by_kinds_held(loot: list[str], expected: int) -> None:
    """Collector: at anchor 2 kinds give 1, 3 give 3, 4 give 5, 5 or more give 10."""
    g = last_day([{"ship": ["Collector"], "loot": loot}, NECRO, BOSUN], ["relic", "relic", "relic"])
    assert g.is_over
    assert scores(g) == [expected, 0, 0]


# ====================================================================== 36 Quartermaster
def test_quartermaster_sun_gains_one_per_loot_held() -> None:
    """Quartermaster: by day +1 per loot token held."""
    g = position([{"hand": ["Quartermaster", *FILLER], "loot": ["map", "map", "relic"], "doubloons": 1},
                  NECRO, BOSUN], [["chest", "amulet", "barrel"]])
    g = answer(g, "Quartermaster")
    at(g, "choose_loot", 0)
    assert coins(g) == [4, 0, 0]


def test_quartermaster_anchor_loses_six_netted() -> None:
    """R3: the Quartermaster's -6 nets against the loot's anchor gains, then floors at 0."""
    # coins 0 +2 (two loot by day) = 2; anchor: -6 + chest 5 + amulet 3 + barrel 1 = +3 -> 5
    g = answer(last_day([{"hand": ["Quartermaster"], "loot": ["chest", "amulet"]}, NECRO, BOSUN],
                        ["barrel", "map", "map"]), "barrel")
    assert g.is_over
    assert scores(g)[0] == 5
    # coins 0 +0 by day; anchor -6 + barrel 1 = -5 -> floored at 0
    g = answer(last_day([{"hand": ["Quartermaster"]}, NECRO, BOSUN], ["barrel", "map", "map"]), "barrel")
    assert g.is_over
    assert scores(g)[0] == 0


# ====================================================================== 37 Wind Nymph
def test_wind_nymph_alone_gains_two_each_night() -> None:
    """R9: the only Wind Nymph in any ship gains 2 at night."""
    g = position([{"hand": ["Treasurer", *FILLER], "ship": ["Wind Nymph"], "doubloons": 1},
                  {"hand": ["Necromancer"], "graveyard": ["Wind Nymph"]}, BOSUN], [["chest", "amulet", "relic"]])
    g = answer(g, "Treasurer", "chest", "amulet")
    at(g, "play_character", 0)
    assert (g.voyage, g.day) == (1, 2)
    assert coins(g) == [3, 0, 0]
    assert g.players[0].ship == ("Wind Nymph", "Treasurer")


def test_wind_nymph_clash_discards_every_nymph() -> None:
    """R9: two players with a Wind Nymph at nightfall: every Nymph is discarded, nobody gains."""
    g = position([{"hand": ["Treasurer", *FILLER], "ship": ["Wind Nymph"], "doubloons": 1},
                  {"hand": ["Necromancer"], "ship": ["Wind Nymph", "Explorer"], "doubloons": 1}, BOSUN],
                 [["chest", "amulet", "relic"]])
    g = answer(g, "Treasurer", "chest", "amulet")
    at(g, "play_character", 0)
    assert coins(g) == [1, 1, 0]
    assert g.players[0].ship == ("Treasurer",) and g.players[0].graveyard == ("Wind Nymph",)
    assert g.players[1].ship == ("Explorer", "Necromancer") and g.players[1].graveyard == ("Wind Nymph",)


def test_wind_nymph_played_today_clashes_at_nightfall() -> None:
    """R9: a Nymph that reached a ship at dusk counts in that night's census: both are discarded."""
    g = position([{"hand": ["Wind Nymph", *FILLER], "doubloons": 1},
                  {"hand": ["Necromancer"], "ship": ["Wind Nymph"]}, BOSUN], [["chest", "amulet", "relic"]])
    g = answer(g, "Wind Nymph", "chest", "amulet")
    at(g, "play_character", 0)
    assert coins(g) == [1, 0, 0]
    assert g.players[0].ship == () and g.players[0].graveyard == ("Wind Nymph",)
    assert g.players[1].ship == ("Necromancer",) and g.players[1].graveyard == ("Wind Nymph",)


# ====================================================================== 38 First Mate
def test_first_mate_sun_loses_one_per_ship_character() -> None:
    """R40: by day the First Mate loses 1 per character already in the ship."""
    g = position([{"hand": ["First Mate", *FILLER], "ship": ["Explorer", "Treasurer", "Collector"], "doubloons": 5},
                  NECRO, BOSUN], [["chest", "amulet", "relic"]])
    g = answer(g, "First Mate")
    at(g, "choose_loot", 0)
    assert coins(g) == [2, 0, 0]


def test_first_mate_sun_loss_floors_at_zero() -> None:
    """R2/R40: the First Mate's loss beyond the coins held leaves 0."""
    g = position([{"hand": ["First Mate", *FILLER], "ship": ["Explorer", "Treasurer", "Collector"], "doubloons": 1},
                  NECRO, BOSUN], [["chest", "amulet", "relic"]])
    g = answer(g, "First Mate")
    at(g, "choose_loot", 0)
    assert coins(g) == [0, 0, 0]


def test_first_mate_anchor_counts_itself() -> None:
    """R40: at anchor the First Mate gains 1 per ship character, itself included."""
    # coins 10, -2 by day (Bosun, Necromancer aboard) = 8; anchor +3 -> 11
    g = last_day([{"hand": ["First Mate"], "ship": ["Bosun", "Necromancer"], "doubloons": 10},
                  {"hand": ["Explorer"]}, {"hand": ["Treasurer"]}], ["map", "map", "map"])
    assert g.is_over
    assert scores(g)[0] == 11


# ====================================================================== 39 Captain
def test_captain_moves_to_right_end_and_pays_per_space() -> None:
    """Captain: move to the rightmost space, losing 1 per space moved; passed tokens slide left."""
    g = position([{"hand": ["Captain", *FILLER], "doubloons": 10}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]], reputation=(1, 5, 0))
    g = answer(g, "Captain")
    at(g, "choose_loot", 0)
    assert reps(g) == [5, 4, 0]
    assert coins(g) == [6, 0, 0]


def test_captain_already_rightmost_has_no_overflow() -> None:
    """R28: the Captain moves exactly to the end, so at space 5 nothing changes (no overflow gain)."""
    g = position([{"hand": ["Captain", *FILLER], "doubloons": 10}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]], reputation=(5, 2, 0))
    g = answer(g, "Captain")
    at(g, "choose_loot", 0)
    assert reps(g) == [5, 2, 0]
    assert coins(g) == [10, 0, 0]


def test_captain_cost_floors_at_zero() -> None:
    """R2: the Captain moving 5 spaces with 2 coins leaves 0."""
    g = position([{"hand": ["Captain", *FILLER], "doubloons": 2}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]], reputation=(0, 2, 1))
    g = answer(g, "Captain")
    at(g, "choose_loot", 0)
    assert reps(g) == [5, 1, 0]
    assert coins(g) == [0, 0, 0]


# ====================================================================== 40 Governor
def test_governor_discards_ship_and_gains_reputation_per_card() -> None:
    """Governor: discard every ship character, +1 reputation per card discarded."""
    g = position([{"hand": ["Governor", *FILLER], "ship": ["Explorer", "Treasurer"], "doubloons": 5},
                  NECRO, BOSUN], [["chest", "amulet", "relic"]])
    g = answer(g, "Governor")
    at(g, "choose_loot", 0)
    assert g.players[0].ship == ()
    assert g.players[0].graveyard == ("Explorer", "Treasurer")
    assert reps(g) == [2, 0, 1]
    assert coins(g) == [5, 0, 0]


def test_governor_with_empty_ship_does_nothing() -> None:
    """Governor: an empty ship means no discard and no reputation."""
    g = position([{"hand": ["Governor", *FILLER]}, NECRO, BOSUN], [["chest", "amulet", "relic"]])
    g = answer(g, "Governor")
    at(g, "choose_loot", 0)
    assert reps(g) == [0, 1, 2]
    assert g.players[0].graveyard == ()


# ====================================================================== calm loot
@pytest.mark.parametrize(("loot", "start", "expected"), [
    (["chest"], 0, 5),
    (["amulet"], 0, 3),
    (["barrel"], 0, 1),
    (["saber"], 0, 0),
    (["relic", "relic"], 10, 4),
    (["chest", "amulet", "barrel", "relic"], 0, 6),
])
def test_calm_loot_anchor_values(loot: list[str], start: int, expected: int) -> None:
    """Calm loot at anchor: chest +5, amulet +3, barrel +1, saber 0, relic -3."""
    g = last_day([{"ship": ["Bosun"], "loot": loot, "doubloons": start}, NECRO, {"hand": ["Treasurer"]}],
                 ["map", "map", "map"])
    assert g.is_over
    assert scores(g)[0] == expected


def test_barrel_gains_one_reputation_when_taken() -> None:
    """Barrel: when taken at dusk, +1 reputation."""
    g = position([{"hand": ["Treasurer", *FILLER]}, NECRO, BOSUN], [["barrel", "amulet", "relic"]])
    g = answer(g, "Treasurer", "barrel", "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [1, 0, 2]
    assert g.players[0].loot == ("barrel",)


@pytest.mark.parametrize(("maps", "expected"), [(1, 0), (2, 7), (3, 12), (4, 14), (5, 19), (6, 24)])
def test_maps_score_best_split_into_pairs_and_triples(maps: int, expected: int) -> None:
    """R14: maps score the best split into sets of 2 (7) and 3 (12): 4 maps 14, 5 maps 19, 6 maps 24."""
    g = last_day([{"ship": ["Bosun"], "loot": ["map"] * maps}, NECRO, {"hand": ["Treasurer"]}],
                 ["relic", "relic", "relic"])
    assert g.is_over
    assert scores(g)[0] == expected


def test_relic_and_chest_net_at_anchor_from_zero_coins() -> None:
    """R3: with 0 coins, a relic and a chest net +2 at anchor (never 5 by paying the relic at 0 first)."""
    g = last_day([{"ship": ["Bosun"], "loot": ["relic", "chest"]}, NECRO, {"hand": ["Treasurer"]}],
                 ["map", "map", "map"])
    assert g.is_over
    assert scores(g)[0] == 2


def test_anchor_net_loss_floors_at_zero() -> None:
    """R3: a negative anchor total is applied once and floored at 0 (2 coins, two relics, an amulet)."""
    g = last_day([{"ship": ["Bosun"], "loot": ["relic", "relic", "amulet"], "doubloons": 2}, NECRO,
                  {"hand": ["Treasurer"]}], ["map", "map", "map"])
    assert g.is_over
    assert scores(g)[0] == 0


def test_saber_discards_another_island_character_which_takes_no_loot() -> None:
    """R23: the saber discards another player's island character; it takes no loot and skips the ship."""
    g = position([{"hand": ["Collector", *FILLER]}, NECRO, BOSUN], [["saber", "amulet", "relic"]])
    g = answer(g, "Collector")
    assert g.island == ((1, "Necromancer"), (2, "Bosun"), (0, "Collector"))
    g = answer(g, "saber")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Necromancer@1", "Bosun@2"}  # never your own, only other players'
    g = answer(g, "Bosun@2")
    # Bosun is gone, so the Necromancer picks next: the two tokens remain
    at(g, "choose_loot", 1)
    assert g.island == ((1, "Necromancer"),)
    assert g.day_loot == ("amulet", "relic")
    assert g.players[2].graveyard == ("Bosun",) and g.players[2].ship == () and g.players[2].loot == ()
    g = answer(g, "amulet")
    at(g, "play_character", 0)
    assert g.players[0].loot == ("saber",) and g.players[0].ship == ("Collector",)
    assert g.players[1].loot == ("amulet",) and g.players[1].ship == ("Necromancer",)
    assert g.players[2].loot == () and g.players[2].graveyard == ("Bosun",)


def test_saber_without_target_does_nothing() -> None:
    """R1/R23: taken by the last character at dusk, the saber has no target; nothing is discarded."""
    g = position([{"hand": ["Necromancer", *FILLER]}, {"hand": ["Treasurer"]}, {"hand": ["Collector"]}],
                 [["saber", "amulet", "relic"]])
    g = answer(g, "Necromancer", "relic", "amulet")
    # the Necromancer, leftmost, takes the saber last: nobody else is on the island
    at(g, "play_character", 0)
    assert g.players[0].loot == ("saber",) and g.players[0].ship == ("Necromancer",)
    assert g.players[1].ship == ("Treasurer",) and g.players[2].ship == ("Collector",)
    assert all(p.graveyard == () for p in g.players)


def hook_anchor() -> lt.Game:
    """Voyage 1's last day: seat 0 holds a hook and ends with Treasurer and Collector aboard."""
    g = position([{"hand": ["Collector", *FILLER], "loot": ["hook"], "ship": ["Treasurer"]}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]], voyage=1, day=4)
    g = answer(g, "Collector", "chest", "amulet")
    at(g, "may", 0)
    return g


def test_hook_keeps_a_character_aboard_for_the_next_voyage() -> None:
    """R20: the hook may keep one ship character for the next voyage instead of gaining 2."""
    g = answer(hook_anchor(), "yes")
    at(g, "choose_character", 0)
    assert sorted(g.legal_keys()) == ["Collector", "Treasurer"]
    g = answer(g, "Treasurer")
    at(g, "play_character", 0)
    assert (g.voyage, g.day) == (2, 1)
    # anchor: Treasurer +1 (chest), Collector +1 (2 kinds), chest +5; no hook coins
    assert scores(g) == [7, 0, 3]
    assert g.players[0].ship == ("Treasurer",)
    assert g.players[0].graveyard == ("Collector",)
    assert g.players[0].loot == ()
    assert coins(g) == [12, 11, 10]  # income for spaces 0, 1, 2


def test_hook_declined_gains_two() -> None:
    """R20: declining the hook's keep gains 2; the whole ship goes to the graveyard."""
    g = answer(hook_anchor(), "no")
    at(g, "play_character", 0)
    assert scores(g) == [9, 0, 3]
    assert g.players[0].ship == ()
    assert sorted(g.players[0].graveyard) == ["Collector", "Treasurer"]


def test_two_hooks_keep_two_different_characters() -> None:
    """R20: each hook keeps a different character."""
    g = position([{"hand": ["Collector", *FILLER], "loot": ["hook", "hook"], "ship": ["Treasurer"]}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]], voyage=1, day=4)
    g = answer(g, "Collector", "chest", "amulet")
    at(g, "may", 0)
    g = answer(g, "yes")
    at(g, "choose_character", 0)
    g = answer(g, "Treasurer")
    at(g, "may", 0)
    g = answer(g, "yes")
    # only the Collector is left to keep: a one-option choice resolves itself
    if g.decision is not None and g.decision.kind == "choose_character":
        assert g.legal_keys() == ("Collector",)
        g = answer(g, "Collector")
    at(g, "play_character", 0)
    assert (g.voyage, g.day) == (2, 1)
    assert sorted(g.players[0].ship) == ["Collector", "Treasurer"]
    assert g.players[0].graveyard == ()
    assert scores(g)[0] == 7  # Treasurer 1 + Collector 1 + chest 5


def test_hook_with_empty_ship_gains_two() -> None:
    """R1/R20: with nothing to keep, the hook simply gains 2."""
    g = last_day([{"loot": ["hook"]}, NECRO, {"hand": ["Treasurer"]}], ["map", "map", "map"])
    assert g.is_over
    assert scores(g)[0] == 2


# Cards that could move or discard a ship character; the scripted voyage avoids them.
SHIP_MOVERS = {"Scout", "Apprentice", "Innkeeper", "Mutineer", "Gunner", "Brawler", "Necromancer", "Witch",
               "Governor"}


def gentle_key(game: lt.Game) -> str:
    """A scripted answer: never keep with a hook, and spare seat 0's Barkeep where there is a choice."""
    d = game.decision
    assert d is not None
    keys = game.legal_keys()
    if d.kind == "may":
        return "no"
    if d.kind == "play_character":
        safe = [k for k in keys if k not in SHIP_MOVERS]
        return (safe or list(keys))[0]
    spare = [k for k in keys if k not in ("Barkeep", "Barkeep@0")]
    return (spare or list(keys))[0]


def test_kept_character_works_next_voyage_then_is_discarded_unless_kept_again() -> None:
    """R20: a hooked character keeps working next voyage and goes to the graveyard at its end."""
    g = position([{"hand": ["Collector", *FILLER], "loot": ["hook"], "ship": ["Barkeep"]}, NECRO, BOSUN],
                 [["chest", "amulet", "relic"]], voyage=1, day=4)
    g = answer(g, "Collector", "chest", "amulet", "yes", "Barkeep")
    at(g, "play_character", 0)
    assert (g.voyage, g.players[0].ship) == (2, ("Barkeep",))
    seen = len(g.events)
    while g.voyage == 2:  # play voyage 2 out, keeping nothing and leaving the Barkeep alone
        g = answer(g, gentle_key(g))
    voyage2 = [str(e) for e in g.events[seen:]]
    assert voyage2.count("seat 0 gains 1 doubloon (Barkeep)") == 5  # one per night of voyage 2
    assert "Barkeep" not in g.players[0].ship
    assert "Barkeep" in g.players[0].graveyard


def test_witch_copying_the_only_nymph_gains_two_more() -> None:
    """R9: a Witch copying the only Wind Nymph gains 2 as well (4 in all), whatever the order."""
    for first in ("Witch", "Wind Nymph"):
        g = position([{"hand": ["Treasurer", *FILLER], "ship": ["Witch", "Wind Nymph"]}, NECRO, BOSUN],
                     [["chest", "amulet", "relic"]])
        g = answer(g, "Treasurer", "chest", "amulet")
        at(g, "order_abilities", 0)
        g = answer(g, first)
        at(g, "play_character", 0)
        assert coins(g) == [4, 0, 0]
        assert g.players[0].ship == ("Witch", "Wind Nymph", "Treasurer")


def test_witch_copying_a_nymph_in_a_clash_discards_every_nymph() -> None:
    """R9: in a clash a Witch copying a Nymph discards every Wind Nymph; the Witch stays, nobody gains."""
    for first in ("Witch", "Wind Nymph"):
        g = position([{"hand": ["Treasurer", *FILLER], "ship": ["Witch", "Wind Nymph"]},
                      {"hand": ["Necromancer"], "ship": ["Wind Nymph"]}, BOSUN], [["chest", "amulet", "relic"]])
        g = answer(g, "Treasurer", "chest", "amulet")
        at(g, "order_abilities", 0)
        g = answer(g, first)
        if g.decision is not None and g.decision.kind == "order_abilities":
            g = answer(g, g.legal_keys()[0])
        at(g, "play_character", 0)
        assert coins(g) == [0, 0, 0]
        assert g.players[0].ship == ("Witch", "Treasurer") and g.players[0].graveyard == ("Wind Nymph",)
        assert g.players[1].ship == ("Necromancer",) and g.players[1].graveyard == ("Wind Nymph",)
