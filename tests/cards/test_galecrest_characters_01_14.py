"""Scenario tests for the Galecrest characters of rank 1 to 14 (Scout .. Bodyguard).

Unless a test says otherwise, three seats play: seat 0 plays the card under test, seat 1 plays
the Explorer (10, dusk/anchor only) and seat 2 the Treasurer (32, anchor only). Reputation
starts at [0, 1, 2]; the three unused tokens sit on spaces 3, 4 and 5, so every move shifts
the tokens it passes by one space (the track always holds all six tokens).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import libertalia as lt
from tests.helpers import answer, coins, galecrest, reps, scores

SEAT1: dict[str, Any] = {"hand": ["Explorer", "Cook", "Collector"]}
SEAT2: dict[str, Any] = {"hand": ["Treasurer", "Cook", "Collector"]}
LOOT: list[str] = ["chest", "amulet", "relic"]


def new(
    seat0: dict[str, Any],
    seat1: dict[str, Any] | None = None,
    seat2: dict[str, Any] | None = None,
    *,
    loot: Sequence[str] = LOOT,
    reputation: Sequence[int] = (0, 1, 2),
    seed: int = 0,
    **setup: Any,
) -> lt.Game:
    """A three-seat game at the declared position, at the start of character selection."""
    players = [seat0, SEAT1 if seat1 is None else seat1, SEAT2 if seat2 is None else seat2]
    return lt.new_game(
        galecrest(),
        players=3,
        seed=seed,
        setup={"players": players, "loot": [list(loot)], "reputation": list(reputation), **setup},
    )


def reveal(game: lt.Game, card0: str, card1: str = "Explorer", card2: str = "Treasurer") -> lt.Game:
    """Seats 0, 1, 2 send these cards to the island (every hand holds two cards, so each is asked)."""
    return answer(game, card0, card1, card2)


def total(bag: Mapping[str, int]) -> int:
    return sum(bag.values())


def decision_kind(game: lt.Game) -> tuple[int, str, str | None] | None:
    d = game.decision
    return None if d is None else (d.player, d.kind, d.source)


# --------------------------------------------------------------------------- 1 Scout


def test_scout_inserted_card_acts_takes_loot_and_sails() -> None:
    """R31/R5: the Scout is discarded, the chosen hand card is inserted by rank and acts by day."""
    g = reveal(new({"hand": ["Scout", "Officer", "Cook", "Collector"]}), "Scout")
    assert decision_kind(g) == (0, "choose_character", "Scout")
    assert set(g.legal_keys()) == {"Officer", "Cook", "Collector"}
    g = answer(g, "Officer")
    # Officer (12) lands between Explorer (10) and Treasurer (32), then its sun tops seat 0 up to 12.
    assert g.island == ((1, "Explorer"), (0, "Officer"), (2, "Treasurer"))
    assert g.phase == "dusk"
    assert coins(g) == [12, 0, 0]
    assert g.players[0].graveyard == ("Scout",)
    assert g.players[0].hand == ("Cook", "Collector")
    g = answer(g, "chest", "relic")  # dusk right to left: seat 2, seat 0, then seat 1 gets the last token
    assert g.phase == "select" and g.day == 2
    assert g.players[0].ship == ("Officer",)
    assert g.players[0].loot == ("relic",)
    assert g.players[1].loot == ("amulet",)
    assert g.players[2].loot == ("chest",)
    assert g.players[0].graveyard == ("Scout",)


def test_scout_inserted_card_uses_reputation_tie_rule() -> None:
    """R31/R4: an inserted card ties against cards already there by reputation, and every one acts (R5)."""
    g = new(
        {"hand": ["Scout", "Officer"], "doubloons": 12},
        {"hand": ["Officer", "Cook"]},
        {"hand": ["Officer", "Cook"]},
        reputation=(1, 0, 2),
    )
    g = reveal(g, "Scout", "Officer", "Officer")  # the Scout's choice has one option: automatic
    assert g.island == ((1, "Officer"), (0, "Officer"), (2, "Officer"))
    # seat 1 tops up to 12; seat 0 already has 12 so gains 2 rep (1 -> 3); seat 2 tops up to 12.
    assert coins(g) == [12, 12, 12]
    assert reps(g) == [3, 0, 1]
    assert g.players[0].hand == ()
    assert g.players[0].graveyard == ("Scout",)


def test_scout_with_empty_hand_only_discards() -> None:
    """R31: with an empty hand the Scout is only discarded; seat 0 then has nothing on the island."""
    g = new({"hand": ["Scout"]})  # seat 0's single card is played automatically
    g = answer(g, "Explorer", "Treasurer")
    assert g.phase == "dusk"
    assert g.island == ((1, "Explorer"), (2, "Treasurer"))
    assert g.players[0].graveyard == ("Scout",)
    assert g.players[0].hand == ()
    bag = dict(g.bag)
    g = answer(g, "chest", "amulet")
    assert g.players[0].loot == () and g.players[0].ship == ()
    assert g.players[1].loot == ("amulet",) and g.players[2].loot == ("chest",)
    assert g.bag["relic"] == bag["relic"] + 1  # R7: the untaken relic goes back to the bag


def test_scout_inserted_cabin_boy_is_leftmost_once_scout_is_gone() -> None:
    """R31/R5: the Scout leaves first, so an inserted Cabin Boy is then leftmost and gains 3."""
    g = answer(reveal(new({"hand": ["Scout", "Cabin Boy", "Cook", "Collector"]}), "Scout"), "Cabin Boy")
    assert g.island == ((0, "Cabin Boy"), (1, "Explorer"), (2, "Treasurer"))
    assert coins(g) == [3, 0, 0]
    g = answer(g, "chest", "amulet")  # the Cabin Boy takes no loot at dusk
    assert g.players[0].loot == ()
    assert g.players[0].ship == ("Cabin Boy",)
    assert g.players[0].graveyard == ("Scout",)


# --------------------------------------------------------------------------- 2 Apprentice


def test_apprentice_copies_cabin_boy_while_leftmost() -> None:
    """R10: copying the Cabin Boy pays 3 when the Apprentice is leftmost; the Cabin Boy stays aboard."""
    g = reveal(new({"hand": ["Apprentice", "Cook", "Collector"], "ship": ["Cabin Boy", "Explorer"]}), "Apprentice")
    # Cabin Boy is the only ship card with a sun ability, so it is borrowed without a prompt.
    assert g.phase == "dusk"
    assert coins(g) == [3, 0, 0]
    assert sorted(g.players[0].ship) == ["Cabin Boy", "Explorer"]
    assert g.players[0].graveyard == ()
    g = answer(g, "chest", "amulet")  # the borrowed sun ability does not stop the Apprentice taking loot
    assert g.players[0].loot == ("relic",)
    assert sorted(g.players[0].ship) == ["Apprentice", "Cabin Boy", "Explorer"]


def test_apprentice_copying_cabin_boy_not_leftmost_pays_nothing() -> None:
    """R10: the Cabin Boy test looks at the Apprentice; an Apprentice with an empty ship does nothing."""
    g = new(
        {"hand": ["Apprentice", "Cook"], "ship": ["Cabin Boy"], "doubloons": 1},
        {"hand": ["Apprentice", "Cook"], "doubloons": 1},
        reputation=(1, 0, 2),
    )
    g = reveal(g, "Apprentice", "Apprentice")
    assert g.island == ((1, "Apprentice"), (0, "Apprentice"), (2, "Treasurer"))
    assert g.phase == "dusk"
    assert coins(g) == [1, 1, 0]
    assert g.players[0].ship == ("Cabin Boy",)


def test_apprentice_copies_smuggler_and_moves_itself_to_ship() -> None:
    """R10/R6: copying the Smuggler takes today's loot (its dusk ability fires) and ships the Apprentice."""
    g = reveal(
        new({"hand": ["Apprentice", "Cook", "Collector"], "ship": ["Smuggler"]}, loot=["chest", "amulet", "barrel"]),
        "Apprentice",
    )
    assert decision_kind(g) == (0, "choose_loot", "Smuggler")
    g = answer(g, "barrel")
    assert g.phase == "dusk"
    assert g.island == ((1, "Explorer"), (2, "Treasurer"))
    assert g.day_loot == ("chest", "amulet")
    assert g.players[0].loot == ("barrel",)
    assert sorted(g.players[0].ship) == ["Apprentice", "Smuggler"]
    assert reps(g) == [1, 0, 2]  # barrel: +1 rep
    g = answer(g, "chest")  # seat 2 picks, seat 1 gets the last token
    assert g.players[0].loot == ("barrel",)
    assert g.players[1].loot == ("amulet",)
    assert g.players[2].loot == ("chest",)
    assert sorted(g.players[0].ship) == ["Apprentice", "Smuggler"]


def test_apprentice_chooses_which_ship_character_to_copy() -> None:
    """R10: with several sun abilities aboard the owner picks one; copying Officer tops up to 12, not Cabin Boy."""
    g = reveal(new({"hand": ["Apprentice", "Cook"], "ship": ["Cabin Boy", "Officer"], "doubloons": 5}), "Apprentice")
    assert decision_kind(g) == (0, "choose_character", "Apprentice")
    assert set(g.legal_keys()) == {"Cabin Boy", "Officer"}
    g = answer(g, "Officer")
    assert coins(g) == [12, 0, 0]
    assert reps(g) == [0, 1, 2]
    assert sorted(g.players[0].ship) == ["Cabin Boy", "Officer"]


def test_apprentice_copies_scout_discards_apprentice() -> None:
    """R10: copying the Scout discards the Apprentice (not the Scout) and plays a hand card that then acts."""
    g = reveal(new({"hand": ["Apprentice", "Officer", "Cook"], "ship": ["Scout"]}), "Apprentice")
    assert decision_kind(g) == (0, "choose_character", "Scout")
    g = answer(g, "Officer")
    assert g.island == ((1, "Explorer"), (0, "Officer"), (2, "Treasurer"))
    assert coins(g) == [12, 0, 0]
    assert g.players[0].graveyard == ("Apprentice",)
    assert g.players[0].ship == ("Scout",)
    assert g.players[0].hand == ("Cook",)


def test_apprentice_with_nothing_to_borrow_does_nothing() -> None:
    """R10/R1: a ship with no sun ability gives the Apprentice nothing and asks nothing."""
    g = reveal(new({"hand": ["Apprentice", "Cook"], "ship": ["Explorer", "Treasurer"], "doubloons": 2}), "Apprentice")
    assert decision_kind(g) == (2, "choose_loot", "Treasurer")
    assert coins(g) == [2, 0, 0]
    assert reps(g) == [0, 1, 2]
    assert sorted(g.players[0].ship) == ["Explorer", "Treasurer"]
    assert g.day_loot == ("chest", "amulet", "relic")


# --------------------------------------------------------------------------- 3 Beggar


def test_beggar_takes_two_from_rightmost_owner_who_gains_rep() -> None:
    """R15: the owner of the rightmost card pays 2, then gains 1 reputation."""
    g = reveal(new({"hand": ["Beggar", "Cook"]}, None, {"hand": ["Treasurer", "Cook"], "doubloons": 5}), "Beggar")
    assert g.phase == "dusk"
    assert coins(g) == [2, 0, 3]
    assert reps(g) == [0, 1, 3]


def test_beggar_payer_pays_only_what_they_have() -> None:
    """R15/R2: a payer holding 1 pays 1 and still gains the reputation."""
    g = reveal(new({"hand": ["Beggar", "Cook"]}, None, {"hand": ["Treasurer", "Cook"], "doubloons": 1}), "Beggar")
    assert coins(g) == [1, 0, 0]
    assert reps(g) == [0, 1, 3]


def test_beggar_rightmost_is_own_card_only_gains_rep() -> None:
    """R15: when the rightmost card is the Beggar's owner's, coins do not change but the rep is gained."""
    g = new(
        {"hand": ["Beggar", "Cook"], "doubloons": 5},
        {"hand": ["Apprentice", "Cook"], "doubloons": 4},
        {"hand": ["Apprentice", "Cook"], "doubloons": 3},
        reputation=(2, 0, 1),
    )
    g = reveal(g, "Beggar", "Apprentice", "Apprentice")
    assert g.island == ((1, "Apprentice"), (2, "Apprentice"), (0, "Beggar"))
    assert g.phase == "dusk"
    assert coins(g) == [5, 4, 3]
    assert reps(g) == [3, 0, 1]


def test_beggar_payer_on_last_space_overflows_into_a_coin() -> None:
    """R15/R28: the payer pays 2 first, then its rep step past the right end gains 1 doubloon."""
    g = reveal(
        new({"hand": ["Beggar", "Cook"]}, None, {"hand": ["Treasurer", "Cook"], "doubloons": 2}, reputation=(0, 1, 5)),
        "Beggar",
    )
    assert coins(g) == [2, 0, 1]
    assert reps(g) == [0, 1, 5]


# --------------------------------------------------------------------------- 4 Innkeeper


def test_innkeeper_returns_chosen_ship_character_to_hand() -> None:
    """Innkeeper: the owner picks a ship character and it goes back into the hand."""
    g = reveal(new({"hand": ["Innkeeper", "Cook", "Collector"], "ship": ["Cabin Boy", "Officer"]}), "Innkeeper")
    assert decision_kind(g) == (0, "choose_character", "Innkeeper")
    assert set(g.legal_keys()) == {"Cabin Boy", "Officer"}
    g = answer(g, "Officer")
    assert g.phase == "dusk"
    assert g.players[0].hand == ("Officer", "Cook", "Collector")
    assert g.players[0].ship == ("Cabin Boy",)
    assert coins(g) == [0, 0, 0]
    g = answer(g, "chest", "amulet")
    assert g.players[0].loot == ("relic",)
    assert sorted(g.players[0].ship) == ["Cabin Boy", "Innkeeper"]
    assert g.players[0].hand == ("Officer", "Cook", "Collector")


def test_innkeeper_with_empty_ship_does_nothing() -> None:
    """R1: an Innkeeper with an empty ship asks nothing and changes nothing."""
    g = reveal(new({"hand": ["Innkeeper", "Cook"]}), "Innkeeper")
    assert decision_kind(g) == (2, "choose_loot", "Treasurer")
    assert g.players[0].hand == ("Cook",)
    assert g.players[0].ship == ()


# --------------------------------------------------------------------------- 5 Cabin Boy


def test_cabin_boy_leftmost_gains_three_and_takes_no_loot() -> None:
    """Cabin Boy: leftmost gains 3; at dusk it takes no loot, so the spare token returns to the bag (R7)."""
    g = reveal(new({"hand": ["Cabin Boy", "Cook", "Collector"]}), "Cabin Boy")
    assert g.phase == "dusk"
    assert coins(g) == [3, 0, 0]
    bag = dict(g.bag)
    g = answer(g, "chest", "amulet")
    assert g.phase == "select" and g.day == 2
    assert g.players[0].loot == ()
    assert g.players[0].ship == ("Cabin Boy",)
    assert g.players[1].loot == ("amulet",)
    assert g.players[2].loot == ("chest",)
    assert g.bag["relic"] == bag["relic"] + 1
    assert total(g.bag) == total(bag) + 1


def test_cabin_boy_not_leftmost_gains_nothing() -> None:
    """Cabin Boy: only the leftmost Cabin Boy pays; neither takes loot."""
    g = new(
        {"hand": ["Cabin Boy", "Cook", "Collector"]}, {"hand": ["Cabin Boy", "Cook", "Collector"]}, reputation=(1, 0, 2)
    )
    g = reveal(g, "Cabin Boy", "Cabin Boy")
    assert g.island == ((1, "Cabin Boy"), (0, "Cabin Boy"), (2, "Treasurer"))
    assert coins(g) == [0, 3, 0]
    bag = dict(g.bag)
    g = answer(g, "chest")
    assert g.phase == "select"
    assert [p.loot for p in g.players] == [(), (), ("chest",)]
    assert total(g.bag) == total(bag) + 2


# --------------------------------------------------------------------------- 6 Bandit


def test_bandit_moves_to_leftmost_space_and_gains_per_space() -> None:
    """Bandit: from space 3 to space 0 gains 3; the tokens passed shift one space right."""
    g = reveal(new({"hand": ["Bandit", "Cook"]}, reputation=(3, 1, 2)), "Bandit")
    assert g.phase == "dusk"
    assert coins(g) == [3, 0, 0]
    assert reps(g) == [0, 2, 3]


def test_bandit_already_leftmost_gains_nothing() -> None:
    """Bandit: on space 0 it moves no space and gains nothing (no overflow, R28)."""
    g = reveal(new({"hand": ["Bandit", "Cook"], "doubloons": 4}), "Bandit")
    assert coins(g) == [4, 0, 0]
    assert reps(g) == [0, 1, 2]


# --------------------------------------------------------------------------- 7 Preacher


def test_preacher_keeps_one_token_and_gains_rep_per_returned() -> None:
    """R32: keep one loot of your choice, return the rest to the bag, gain 1 rep per token returned."""
    g = reveal(new({"hand": ["Preacher", "Cook"], "loot": ["map", "map", "relic"]}), "Preacher")
    assert decision_kind(g) == (0, "choose_loot", "Preacher")
    assert set(g.legal_keys()) == {"map", "relic"}
    bag = dict(g.bag)
    g = answer(g, "map")
    assert g.phase == "dusk"
    assert g.players[0].loot == ("map",)
    assert g.bag["map"] == bag["map"] + 1
    assert g.bag["relic"] == bag["relic"] + 1
    assert total(g.bag) == total(bag) + 2
    assert reps(g) == [2, 0, 1]
    assert coins(g) == [0, 0, 0]


def test_preacher_without_loot_does_nothing() -> None:
    """R1/R32: a Preacher holding no loot returns nothing and gains no reputation."""
    g = reveal(new({"hand": ["Preacher", "Cook"]}), "Preacher")
    assert decision_kind(g) == (2, "choose_loot", "Treasurer")
    assert reps(g) == [0, 1, 2]
    assert g.players[0].loot == ()


def test_preacher_anchor_gains_six() -> None:
    """Preacher anchor: +6, banked with the barrel's +1 at the end of the voyage (R3)."""
    g = reveal(new({"hand": ["Preacher", "Cook"]}, loot=["chest", "amulet", "barrel"], voyage=1, day=4), "Preacher")
    g = answer(g, "chest", "amulet")  # seat 2 chest, seat 1 amulet, seat 0 the barrel (+1 rep)
    assert g.voyage == 2 and g.day == 1 and g.phase == "select"
    # seat 0: Preacher 6 + barrel 1; seat 1: amulet 3; seat 2: chest 5 + Treasurer 1.
    assert scores(g) == [7, 3, 6]
    assert reps(g) == [1, 0, 2]
    assert coins(g) == [11, 12, 10]  # voyage 2 income by space
    assert g.players[0].ship == ()
    assert "Preacher" in g.players[0].graveyard
    assert g.players[0].loot == ()


# --------------------------------------------------------------------------- 8 Barkeep


def test_barkeep_gains_one_at_night() -> None:
    """Barkeep moon: +1 each night in the ship."""
    g = reveal(new({"hand": ["Barkeep", "Cook", "Collector"], "doubloons": 2}), "Barkeep")
    assert coins(g) == [2, 0, 0]
    g = answer(g, "chest", "amulet")
    assert g.phase == "select" and g.day == 2
    assert g.players[0].ship == ("Barkeep",)
    assert g.players[0].loot == ("relic",)
    assert coins(g) == [3, 0, 0]


def test_barkeep_anchor_gains_one_per_barrel() -> None:
    """Barkeep anchor: +1 per barrel held, on top of each barrel's own +1 and the night's +1."""
    g = reveal(
        new(
            {"hand": ["Barkeep", "Cook"], "loot": ["barrel", "barrel"]},
            loot=["chest", "amulet", "map"],
            voyage=1,
            day=4,
        ),
        "Barkeep",
    )
    g = answer(g, "chest", "amulet")  # seat 0 takes the map (a single map scores 0)
    assert g.voyage == 2 and g.phase == "select"
    # seat 0: night 1 + barrels 2 + Barkeep 2 = 5.
    assert scores(g) == [5, 3, 6]


# --------------------------------------------------------------------------- 9 Stowaway


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_stowaway_draws_one_token_from_bag_and_is_discarded(seed: int) -> None:
    """R21: one token leaves the bag into the owner's loot; the Stowaway is discarded and takes no dusk loot."""
    g = answer(new({"hand": ["Stowaway", "Cook"]}, seed=seed), "Stowaway", "Explorer")
    before = dict(g.bag)
    g = answer(g, "Treasurer")
    assert g.phase == "dusk"
    assert decision_kind(g) == (2, "choose_loot", "Treasurer")
    assert len(g.players[0].loot) == 1
    (kind,) = g.players[0].loot
    assert total(g.bag) == total(before) - 1
    assert g.bag[kind] == before[kind] - 1
    assert g.players[0].graveyard == ("Stowaway",)
    assert g.players[0].ship == ()
    assert g.island == ((1, "Explorer"), (2, "Treasurer"))
    assert g.day_loot == ("chest", "amulet", "relic")
    g = answer(g, "chest", "amulet")
    assert g.players[0].loot == (kind,)
    assert g.players[0].ship == ()
    assert g.players[0].graveyard == ("Stowaway",)


# --------------------------------------------------------------------------- 10 Explorer


def test_explorer_gains_two_rep_when_taking_a_map() -> None:
    """R34: taking a map at dusk gains 2 reputation."""
    g = new(
        {"hand": ["Explorer", "Cook", "Collector"]},
        {"hand": ["Treasurer", "Cook", "Collector"]},
        {"hand": ["Collector", "Cook", "Treasurer"]},
        loot=["map", "chest", "amulet"],
    )
    g = answer(reveal(g, "Explorer", "Treasurer", "Collector"), "chest", "amulet")
    assert g.phase == "select"
    assert g.players[0].loot == ("map",)
    assert reps(g) == [2, 0, 1]


def test_explorer_no_rep_for_other_tokens() -> None:
    """R34: taking a token that is not a map gains nothing."""
    g = new(
        {"hand": ["Explorer", "Cook", "Collector"]},
        {"hand": ["Treasurer", "Cook", "Collector"]},
        {"hand": ["Collector", "Cook", "Treasurer"]},
        loot=["map", "chest", "amulet"],
    )
    g = answer(reveal(g, "Explorer", "Treasurer", "Collector"), "map", "chest")
    assert g.players[0].loot == ("amulet",)
    assert reps(g) == [0, 1, 2]


def test_explorer_anchor_counts_one_extra_map() -> None:
    """R34/R14: two maps plus the Explorer's extra map score as a set of three (12)."""
    g = new(
        {"hand": ["Explorer", "Cook"], "loot": ["map"]},
        {"hand": ["Treasurer", "Cook"]},
        {"hand": ["Collector", "Cook"]},
        loot=["map", "chest", "amulet"],
        voyage=1,
        day=4,
    )
    g = answer(reveal(g, "Explorer", "Treasurer", "Collector"), "chest", "amulet")
    assert g.voyage == 2 and g.phase == "select"
    # seat 0: maps 12; seat 1 (Treasurer): amulet 3 + 1; seat 2 (Collector): chest 5, one kind scores 0.
    assert scores(g) == [12, 4, 5]


# --------------------------------------------------------------------------- 11 Carpenter


@pytest.mark.parametrize(("before", "after"), [(7, 4), (10, 5), (1, 1), (0, 0)])
def test_carpenter_loses_half_rounded_down(before: int, after: int) -> None:
    """R33: the Carpenter loses half the coins rounded down, keeping the larger half."""
    g = reveal(new({"hand": ["Carpenter", "Cook"], "doubloons": before}), "Carpenter")
    assert g.phase == "dusk"
    assert coins(g) == [after, 0, 0]


def test_carpenter_anchor_gains_ten() -> None:
    """Carpenter anchor: +10 after the day's halving (9 -> 5), banked with the amulet."""
    g = reveal(
        new({"hand": ["Carpenter", "Cook"], "doubloons": 9}, loot=["chest", "amulet", "relic"], voyage=1, day=4),
        "Carpenter",
    )
    assert coins(g) == [5, 0, 0]
    g = answer(g, "chest", "amulet")  # seat 2 chest, seat 0 amulet, seat 1 relic
    assert g.voyage == 2 and g.phase == "select"
    assert scores(g) == [18, 0, 6]  # seat 1: relic -3 floored at 0 (R3)


# --------------------------------------------------------------------------- 12 Officer


@pytest.mark.parametrize(
    ("before", "after", "reputation"),
    [(12, 12, [2, 0, 1]), (20, 20, [2, 0, 1]), (11, 12, [0, 1, 2]), (0, 12, [0, 1, 2])],
)
def test_officer_branches(before: int, after: int, reputation: list[int]) -> None:
    """R29: with 12+ coins gain 2 reputation; otherwise gain coins up to exactly 12."""
    g = reveal(new({"hand": ["Officer", "Cook"], "doubloons": before}), "Officer")
    assert g.phase == "dusk"
    assert coins(g) == [after, 0, 0]
    assert reps(g) == reputation


# --------------------------------------------------------------------------- 13 Smuggler


def test_smuggler_takes_loot_by_day_and_goes_straight_to_ship() -> None:
    """Smuggler/R6: the day token's dusk ability fires; the Smuggler skips dusk and takes no more loot."""
    g = reveal(new({"hand": ["Smuggler", "Cook", "Collector"]}, loot=["chest", "amulet", "barrel"]), "Smuggler")
    assert decision_kind(g) == (0, "choose_loot", "Smuggler")
    assert set(g.legal_keys()) == {"chest", "amulet", "barrel"}
    g = answer(g, "barrel")
    assert g.phase == "dusk"
    assert g.island == ((1, "Explorer"), (2, "Treasurer"))
    assert g.day_loot == ("chest", "amulet")
    assert g.players[0].ship == ("Smuggler",)
    assert g.players[0].loot == ("barrel",)
    assert reps(g) == [1, 0, 2]
    bag = dict(g.bag)
    g = answer(g, "amulet")  # seat 2 amulet, seat 1 the chest
    assert g.phase == "select"
    assert [p.loot for p in g.players] == [("barrel",), ("chest",), ("amulet",)]
    assert g.players[0].ship == ("Smuggler",)
    assert g.bag == bag


# --------------------------------------------------------------------------- 14 Bodyguard


def test_bodyguard_returns_sabers_and_hooks_for_two_each() -> None:
    """Bodyguard: every saber and hook of today's loot goes back to the bag, +2 per token; others go without."""
    g = new({"hand": ["Bodyguard", "Cook", "Collector"]}, loot=["saber", "hook", "chest"])
    bag = dict(g.bag)
    # Only the chest is left for dusk: the Treasurer takes it without a prompt, the rest get nothing.
    g = reveal(g, "Bodyguard")
    assert g.phase == "select" and g.day == 2
    assert coins(g) == [4, 0, 0]
    assert [p.loot for p in g.players] == [(), (), ("chest",)]
    assert g.players[0].ship == ("Bodyguard",)
    assert g.bag["saber"] == bag["saber"] + 1
    assert g.bag["hook"] == bag["hook"] + 1
    assert total(g.bag) == total(bag) + 2


def test_bodyguard_without_sabers_or_hooks_gains_nothing() -> None:
    """Bodyguard: with no saber or hook today nothing is returned and nothing gained."""
    g = reveal(new({"hand": ["Bodyguard", "Cook"], "doubloons": 1}), "Bodyguard")
    assert decision_kind(g) == (2, "choose_loot", "Treasurer")
    assert coins(g) == [1, 0, 0]
    assert g.day_loot == ("chest", "amulet", "relic")
