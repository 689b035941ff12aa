"""Scenario tests for the two-player rules: the neutral Midshipman (R13), R12 and the set-up."""

from __future__ import annotations

from typing import Any

import libertalia as lt
from tests.helpers import answer, at, coins, galecrest, reps, start

Seat = dict[str, Any]

MID = (None, "Midshipman")
TODAY = ["chest", "map", "relic"]
FILLER = ("Gambler", "Aristocrat")


def seat(*hand: str, **zones: Any) -> Seat:
    """One seat's declared state; two spare cards keep day 2's selection a real decision."""
    return {"hand": [*hand, *FILLER], **zones}


def two(
    first: Seat,
    second: Seat,
    loot: list[str] | None = None,
    reputation: list[int] | None = None,
) -> lt.Game:
    """A two-player game at voyage 1, day 1 with declared loot; reputation 2, 3 unless told."""
    return start(
        2,
        voyage=1,
        day=1,
        players=[first, second],
        loot=[list(loot if loot is not None else TODAY)],
        reputation=reputation if reputation is not None else [2, 3],
    )


def removals(game: lt.Game) -> list[str]:
    """The event sentences reporting a Midshipman removal."""
    return [str(e) for e in game.events if "removes" in str(e)]


def midshipman_discarded(game: lt.Game) -> bool:
    """Whether any event reports the Midshipman being discarded."""
    return any("Midshipman" in str(e) and "discard" in str(e) for e in game.events)


def next_day(game: lt.Game) -> None:
    """Assert day 1 is over and seat 0 is choosing a card on day 2."""
    at(game, "play_character", 0)
    assert game.phase == "select" and game.day == 2


def bag_delta(after: lt.Game, before: lt.Game) -> dict[str, int]:
    """Per kind, how many more tokens the bag holds in ``after`` than in ``before`` (non-zero only)."""
    kinds = set(after.bag) | set(before.bag)
    delta = {k: after.bag.get(k, 0) - before.bag.get(k, 0) for k in kinds}
    return {k: v for k, v in delta.items() if v}


# --------------------------------------------------------------------------- set-up


def test_midshipman_is_a_neutral_card_at_rank_20_5() -> None:
    """R13: with 2 players the ownerless Midshipman sits between ranks 20 and 21."""
    g = two(seat("Freed Prisoner"), seat("Bosun"), reputation=[3, 2])
    g = answer(g, "Freed Prisoner", "Bosun")
    assert g.island == ((0, "Freed Prisoner"), MID, (1, "Bosun"))


def test_no_midshipman_with_three_players() -> None:
    """R13: the Midshipman is a two-player rule only; three players have no neutral card."""
    g = start(3, players=[seat("Explorer"), seat("Cook"), seat("Treasurer")],
              loot=[TODAY], reputation=[0, 1, 2])
    g = answer(g, "Explorer", "Cook", "Treasurer")
    assert g.island == ((0, "Explorer"), (1, "Cook"), (2, "Treasurer"))


def test_three_loot_per_day_with_two_players() -> None:
    """cards.md §3.1: two players draw 3 loot for every day of the voyage (voyage 1: 4 days)."""
    for s in range(3):
        g = start(2, seed=s)
        assert len(g.loot_days) == 4
        assert [len(day) for day in g.loot_days] == [3, 3, 3, 3]
        assert len(g.day_loot) == 3


def test_random_starting_reputation_on_spaces_2_and_3() -> None:
    """cards.md §3.1: undeclared, the two tokens start at random on spaces 2 and 3 (both orders occur)."""
    orders = set()
    for s in range(12):
        g = start(2, seed=s)
        assert {p.reputation for p in g.players} == {2, 3}
        income = {2: 10, 3: 9}
        assert coins(g) == [income[p.reputation] for p in g.players]
        orders.add(tuple(reps(g)))
    assert orders == {(2, 3), (3, 2)}


# --------------------------------------------------------------------------- dusk removal


def test_opponent_removes_a_token_before_the_card_left_of_the_midshipman() -> None:
    """R13: just before the card directly left takes loot, its owner's opponent returns one token to the bag."""
    g = two(seat("Treasurer"), seat("Explorer"))
    g = answer(g, "Treasurer", "Explorer")
    assert g.island == ((1, "Explorer"), MID, (0, "Treasurer"))
    before = g
    at(g, "choose_loot", 0)
    g = answer(g, "chest")  # Treasurer (right of the Midshipman) takes loot normally
    at(g, "choose_loot", 0)  # seat 0 removes before seat 1's Explorer
    assert set(g.legal_keys()) == {"map", "relic"}
    assert g.players[0].loot == ("chest",) and g.players[1].loot == ()
    g = answer(g, "map")
    # the Explorer is left with the relic (one option: automatic); no map, so no reputation
    next_day(g)
    assert g.players[0].loot == ("chest",)
    assert g.players[1].loot == ("relic",)
    assert reps(g) == [2, 3] and coins(g) == [0, 0]
    assert g.players[0].ship == ("Treasurer",) and g.players[1].ship == ("Explorer",)
    assert bag_delta(g, before) == {"map": 1}
    assert removals(g) == ["seat 0 removes a map from today's loot"]


def test_removed_token_has_no_effect() -> None:
    """R13: the removed token goes to the bag with no effect (a barrel gives nobody reputation)."""
    g = two(seat("Explorer"), seat("Treasurer"), loot=["barrel", "chest", "amulet"])
    g = answer(g, "Explorer", "Treasurer")
    assert g.island == ((0, "Explorer"), MID, (1, "Treasurer"))
    before = g
    g = answer(g, "chest")  # seat 1's Treasurer takes first
    at(g, "choose_loot", 1)  # seat 1 removes before seat 0's Explorer
    assert set(g.legal_keys()) == {"barrel", "amulet"}
    g = answer(g, "barrel")
    next_day(g)
    assert g.players[0].loot == ("amulet",) and g.players[1].loot == ("chest",)
    assert reps(g) == [2, 3]
    assert bag_delta(g, before) == {"barrel": 1}


def test_removed_saber_discards_nothing() -> None:
    """R13: a removed saber has no dusk effect; both cards reach their ships."""
    g = two(seat("Explorer"), seat("Treasurer"), loot=["saber", "chest", "amulet"])
    g = answer(g, "Explorer", "Treasurer", "chest", "saber")
    next_day(g)
    assert g.players[0].ship == ("Explorer",) and g.players[1].ship == ("Treasurer",)
    assert g.players[0].graveyard == () and g.players[1].graveyard == ()
    assert g.players[0].loot == ("amulet",) and g.players[1].loot == ("chest",)


def test_removal_can_leave_the_card_left_of_the_midshipman_empty_handed() -> None:
    """R13: after a Cook takes two tokens, the removal takes the last one and the card left gets none."""
    g = two(seat("Explorer"), seat("Cook"), loot=["chest", "map", "relic"])
    g = answer(g, "Explorer", "Cook")
    assert g.island == ((0, "Explorer"), MID, (1, "Cook"))
    before = g
    g = answer(g, "chest", "map")  # Cook: first token, then its second (dusk, last)
    # the relic is the only token left: seat 1's removal takes it automatically
    next_day(g)
    assert g.players[1].loot == ("chest", "map")
    assert g.players[0].loot == ()
    assert g.players[0].ship == ("Explorer",)
    assert reps(g) == [2, 3]
    assert bag_delta(g, before) == {"relic": 1}
    assert removals(g) == ["seat 1 removes a relic from today's loot"]


def test_no_removal_when_nothing_is_left_of_the_midshipman() -> None:
    """R13: with both cards ranked above 20.5 no card is directly left, so nothing is removed."""
    g = two(seat("Treasurer"), seat("Collector"))
    g = answer(g, "Treasurer", "Collector")
    assert g.island == (MID, (0, "Treasurer"), (1, "Collector"))
    before = g
    at(g, "choose_loot", 1)
    g = answer(g, "chest")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"map", "relic"}
    g = answer(g, "map")
    next_day(g)
    assert g.players[0].loot == ("map",) and g.players[1].loot == ("chest",)
    assert bag_delta(g, before) == {"relic": 1}  # leftover only (R7)
    assert removals(g) == []


# --------------------------------------------------------------------------- placement


def test_lone_card_ranked_20_or_less_is_directly_left() -> None:
    """R13: the only card ranked <= 20 lands directly left of the Midshipman and suffers the removal."""
    g = two(seat("Freed Prisoner"), seat("Collector"))
    g = answer(g, "Freed Prisoner", "Collector")
    assert g.island == ((0, "Freed Prisoner"), MID, (1, "Collector"))
    g = answer(g, "chest")
    at(g, "choose_loot", 1)
    assert "Freed Prisoner" in g.decision.prompt


def test_higher_of_two_low_cards_is_directly_left() -> None:
    """R13: both cards <= 20: the higher-ranked one is directly left; the lower one is not affected."""
    g = two(seat("Explorer"), seat("Freed Prisoner"))
    g = answer(g, "Explorer", "Freed Prisoner")
    assert g.island == ((0, "Explorer"), (1, "Freed Prisoner"), MID)
    before = g
    at(g, "choose_loot", 0)  # seat 0 removes before seat 1's Freed Prisoner
    assert set(g.legal_keys()) == {"chest", "map", "relic"}
    assert g.players[0].loot == () and g.players[1].loot == ()
    g = answer(g, "chest")
    at(g, "choose_loot", 1)  # Freed Prisoner takes
    assert set(g.legal_keys()) == {"map", "relic"}
    g = answer(g, "map")
    # Explorer takes the relic automatically, with no second removal
    next_day(g)
    assert g.players[0].loot == ("relic",) and g.players[1].loot == ("map",)
    assert reps(g) == [2, 3]
    assert bag_delta(g, before) == {"chest": 1}
    assert removals(g) == ["seat 0 removes a chest from today's loot"]


def test_equal_low_ranks_higher_reputation_is_directly_left() -> None:
    """R4, R13: two Explorers: the higher-reputation one goes right, so it is directly left and loses a token."""
    g = two(seat("Explorer"), seat("Explorer"), reputation=[3, 2])
    g = answer(g, "Explorer", "Explorer")
    assert g.island == ((1, "Explorer"), (0, "Explorer"), MID)
    at(g, "choose_loot", 1)  # seat 1 removes before seat 0's Explorer
    g = answer(g, "relic")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"chest", "map"}
    g = answer(g, "map")  # Explorer: map -> +2 reputation (3 -> 5)
    next_day(g)
    assert g.players[0].loot == ("map",) and g.players[1].loot == ("chest",)
    assert reps(g) == [5, 2]
    assert removals(g) == ["seat 1 removes a relic from today's loot"]


# --------------------------------------------------------------------------- cards leaving / entering


def test_card_left_of_midshipman_discarded_by_saber_means_no_removal() -> None:
    """R13, R23: a saber discards the card directly left; nobody is then directly left, so nothing is removed."""
    g = two(seat("Treasurer"), seat("Explorer"), loot=["saber", "chest", "amulet"])
    g = answer(g, "Treasurer", "Explorer")
    assert g.island == ((1, "Explorer"), MID, (0, "Treasurer"))
    before = g
    g = answer(g, "saber")  # the only target is seat 1's Explorer (never the Midshipman)
    next_day(g)
    assert g.players[0].loot == ("saber",) and g.players[0].ship == ("Treasurer",)
    assert g.players[1].graveyard == ("Explorer",)
    assert g.players[1].ship == () and g.players[1].loot == ()
    assert bag_delta(g, before) == {"chest": 1, "amulet": 1}
    assert removals(g) == []


def test_smuggler_leaving_the_island_means_no_removal() -> None:
    """R13: a Smuggler directly left goes to its ship by day, so at dusk nobody removes a token."""
    g = two(seat("Smuggler"), seat("Treasurer"))
    g = answer(g, "Smuggler", "Treasurer")
    at(g, "choose_loot", 0)  # Smuggler's sun ability
    g = answer(g, "chest")
    assert g.island == (MID, (1, "Treasurer"))
    before = g
    at(g, "choose_loot", 1)
    assert set(g.legal_keys()) == {"map", "relic"}
    g = answer(g, "map")
    next_day(g)
    assert g.players[0].loot == ("chest",) and g.players[0].ship == ("Smuggler",)
    assert g.players[1].loot == ("map",)
    assert bag_delta(g, before) == {"relic": 1}
    assert removals(g) == []


def test_scout_inserting_a_card_directly_left_moves_the_removal() -> None:
    """R13, R31: a card the Scout inserts just before the Midshipman becomes the one that suffers the removal."""
    g = two(seat("Scout", "Freed Prisoner"), seat("Explorer"))
    g = answer(g, "Scout", "Explorer")
    # revealed as Scout, Explorer, Midshipman: the Scout has already discarded itself
    assert any(str(e) == "the island: Scout (seat 0), Explorer (seat 1), Midshipman" for e in g.events)
    assert g.island == ((1, "Explorer"), MID)
    at(g, "choose_character", 0)
    g = answer(g, "Freed Prisoner")  # the Scout plays it (the hand still has the fillers)
    assert g.island[-2:] == ((0, "Freed Prisoner"), MID)
    at(g, "choose_loot", 1)  # seat 1 removes before seat 0's Freed Prisoner
    assert "Freed Prisoner" in g.decision.prompt
    before = g
    g = answer(g, "chest")
    at(g, "choose_loot", 0)
    g = answer(g, "map")
    # seat 1's Explorer (no longer directly left) takes the relic with no removal
    next_day(g)
    assert g.players[0].graveyard == ("Scout",)
    assert g.players[0].ship == ("Freed Prisoner",) and g.players[0].loot == ("map",)
    assert g.players[1].ship == ("Explorer",) and g.players[1].loot == ("relic",)
    assert bag_delta(g, before) == {"chest": 1}
    assert removals(g) == ["seat 1 removes a chest from today's loot"]


def test_scout_directly_left_replaced_by_a_high_card_means_no_removal() -> None:
    """R13, R31: the Scout (lone card left of the Midshipman) leaves and plays a card ranked above 20.5: no removal."""
    g = two(seat("Scout", "Collector"), seat("Treasurer"))
    g = answer(g, "Scout", "Treasurer")
    assert any(str(e) == "the island: Scout (seat 0), Midshipman, Treasurer (seat 1)" for e in g.events)
    assert g.island == (MID, (1, "Treasurer"))
    at(g, "choose_character", 0)
    g = answer(g, "Collector")
    assert g.island == (MID, (1, "Treasurer"), (0, "Collector"))
    before = g
    at(g, "choose_loot", 0)
    g = answer(g, "chest")
    at(g, "choose_loot", 1)
    assert set(g.legal_keys()) == {"map", "relic"}
    g = answer(g, "map")
    next_day(g)
    assert g.players[0].loot == ("chest",) and g.players[1].loot == ("map",)
    assert g.players[0].graveyard == ("Scout",)
    assert bag_delta(g, before) == {"relic": 1}
    assert removals(g) == []


# --------------------------------------------------------------------------- the Midshipman is inert


def test_brute_with_midshipman_rightmost_does_nothing() -> None:
    """R13: the Brute cannot discard the rightmost Midshipman and nobody gains reputation."""
    g = two(seat("Brute"), seat("Explorer"))
    g = answer(g, "Brute", "Explorer")
    assert g.island == ((1, "Explorer"), (0, "Brute"), MID)
    at(g, "choose_loot", 1)  # dusk: seat 1 removes before the Brute (still directly left)
    assert g.island == ((1, "Explorer"), (0, "Brute"), MID)
    assert reps(g) == [2, 3] and coins(g) == [0, 0]
    g = answer(g, "relic", "chest")
    next_day(g)
    assert g.players[0].ship == ("Brute",) and g.players[0].loot == ("chest",)
    assert g.players[1].ship == ("Explorer",) and g.players[1].loot == ("map",)
    assert g.players[0].graveyard == () and g.players[1].graveyard == ()
    assert reps(g) == [2, 5]  # only the Explorer's map (+2)
    assert not midshipman_discarded(g)


def test_brute_discards_a_players_rightmost_card_in_two_player() -> None:
    """Control for R13: with a player's card rightmost the Brute discards it and its owner gains 1 reputation."""
    g = two(seat("Brute"), seat("Collector"))
    g = answer(g, "Brute", "Collector")
    assert any(str(e) == "the island: Brute (seat 0), Midshipman, Collector (seat 1)" for e in g.events)
    at(g, "choose_loot", 1)  # removal before the Brute; the Collector is gone
    assert g.island == ((0, "Brute"), MID)
    assert reps(g) == [2, 4]
    assert g.players[1].graveyard == ("Collector",)


def test_beggar_with_midshipman_rightmost_does_nothing() -> None:
    """R13, R15: the rightmost Midshipman has no owner: no payment and no reputation."""
    g = two(seat("Beggar", doubloons=5), seat("Explorer", doubloons=5))
    g = answer(g, "Beggar", "Explorer")
    assert g.island == ((0, "Beggar"), (1, "Explorer"), MID)
    at(g, "choose_loot", 0)  # dusk reached: the removal before seat 1's Explorer
    assert coins(g) == [5, 5]
    assert reps(g) == [2, 3]


def test_infantry_pays_when_rightmost_in_two_player() -> None:
    """Control for R13: the Infantry right of the Midshipman is rightmost and gains 5."""
    g = two(seat("Infantry"), seat("Explorer"))
    g = answer(g, "Infantry", "Explorer")
    assert g.island == ((1, "Explorer"), MID, (0, "Infantry"))
    at(g, "choose_loot", 0)
    assert coins(g) == [5, 0]


def test_borrowed_infantry_does_not_pay_when_midshipman_is_rightmost() -> None:
    """R10, R13: the Midshipman is rightmost, so an Apprentice copying the Infantry gains 0."""
    g = two(seat("Apprentice", ship=["Infantry"]), seat("Explorer"))
    g = answer(g, "Apprentice", "Explorer")
    assert g.island == ((0, "Apprentice"), (1, "Explorer"), MID)
    at(g, "choose_loot", 0)  # dusk: seat 0 removes before seat 1's Explorer
    assert coins(g) == [0, 0]
    assert g.players[0].ship == ("Infantry",)


def test_saber_never_targets_the_midshipman() -> None:
    """R13, R23: a saber with only the Midshipman left on the island discards nothing."""
    g = two(seat("Freed Prisoner"), seat("Treasurer"), loot=["saber", "chest", "amulet"])
    g = answer(g, "Freed Prisoner", "Treasurer", "chest", "amulet")
    # Treasurer took the chest, seat 1 removed the amulet; the Freed Prisoner takes the saber
    next_day(g)
    assert g.players[0].loot == ("saber",) and g.players[0].ship == ("Freed Prisoner",)
    assert g.players[1].loot == ("chest",) and g.players[1].ship == ("Treasurer",)
    assert g.players[0].graveyard == () and g.players[1].graveyard == ()
    assert not midshipman_discarded(g)


def test_midshipman_takes_no_loot_and_joins_no_ship() -> None:
    """R13: the Midshipman takes no loot and never reaches a ship or graveyard."""
    g = two(seat("Treasurer"), seat("Collector"))
    g = answer(g, "Treasurer", "Collector", "chest", "map")
    next_day(g)
    zones = [z for p in g.players for z in (*p.ship, *p.graveyard, *p.hand)]
    assert "Midshipman" not in zones
    assert sum(len(p.loot) for p in g.players) == 2
    g = answer(g, "Gambler", "Aristocrat")
    assert MID in g.island  # back on the island the next day


# --------------------------------------------------------------------------- R12


def test_thief_takes_from_the_one_opponent() -> None:
    """R12, R25: with two players the Thief's adjacent player is the one opponent, offered once."""
    g = two(seat("Thief", doubloons=0), seat("Explorer", loot=["chest", "map"]))
    g = answer(g, "Thief", "Explorer")
    assert g.island == ((1, "Explorer"), MID, (0, "Thief"))
    at(g, "choose_loot", 0)
    assert sorted(g.legal_keys()) == ["chest@1", "map@1"]
    g = answer(g, "chest@1")
    at(g, "choose_loot", 0)  # dusk: the Thief takes from today's loot
    assert g.players[0].loot == ("chest",) and g.players[1].loot == ("map",)
    assert reps(g) == [0, 3]


# --------------------------------------------------------------------------- sanity


def test_rules_declare_the_midshipman_for_two_players_only() -> None:
    """The Midshipman is board data: a neutral of rank 20.5 for two players."""
    neutrals = galecrest().board.neutrals
    mid = [n for n in neutrals if n.name == "Midshipman"]
    assert len(mid) == 1
    assert mid[0].rank == 20.5
    assert tuple(mid[0].players) == (2,)
