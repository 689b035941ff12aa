"""Scenario tests for the classic (2012) characters of rank 1 to 15 (Parrot .. Gunner).

Unless a test says otherwise, three seats play with 10 doubloons each: seat 0 plays the card
under test, seat 1 plays the Topman (16, anchor only) and seat 2 the Treasurer (23, anchor
only), so neither filler does anything by day, dusk or night. Today's booty is chest, goods,
relic. Dusk goes right to left: seat 2 chooses first, then seat 1, and seat 0 is left with
the last token (a single option answers itself).

Tie-breaker numbers (boards/classic.yaml, seat 0, 1, 2, ...; lower goes left):
P1 (Parrot, Gunner) = 2, 1, 4; P3 (Beggar, French Officer) = 4, 3, 6;
P6 (Brute) = 1, 6, 3; P2 (Monkey, Carpenter) = 3, 2, 5.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import libertalia as lt
from tests.helpers import answer, at, coins, scores, start

RULES = lt.load_rules("classic")

LOOT: tuple[str, ...] = ("chest", "goods", "relic")


def seat(hand: Sequence[str], doubloons: int = 10, **zones: Any) -> dict[str, Any]:
    return {"hand": list(hand), "doubloons": doubloons, **zones}


def s1(**zones: Any) -> dict[str, Any]:
    zones.setdefault("hand", ["Topman", "First Mate", "Governor's Daughter"])
    return seat(**zones)


def s2(**zones: Any) -> dict[str, Any]:
    zones.setdefault("hand", ["Treasurer", "First Mate", "Governor's Daughter"])
    return seat(**zones)


def new(
    p0: dict[str, Any],
    p1: dict[str, Any] | None = None,
    p2: dict[str, Any] | None = None,
    *,
    loot: Sequence[Sequence[str]] = (LOOT,),
    **setup: Any,
) -> lt.Game:
    """Three seats at the start of a day's character selection (voyage 1, day 1 by default)."""
    setup.setdefault("voyage", 1)
    setup.setdefault("day", 1)
    players = [p0, s1() if p1 is None else p1, s2() if p2 is None else p2]
    return start(3, rules=RULES, players=players, loot=[list(d) for d in loot], **setup)


def two(p0: dict[str, Any], p1: dict[str, Any], *, loot: Sequence[str] = ("chest", "relic"), **setup: Any) -> lt.Game:
    setup.setdefault("voyage", 1)
    setup.setdefault("day", 1)
    return start(2, rules=RULES, players=[p0, p1], loot=[list(loot)], **setup)


def play(game: lt.Game, card0: str, card1: str = "Topman", card2: str = "Treasurer") -> lt.Game:
    """Seats 0, 1, 2 send these cards to the island."""
    at(game, "play_character", 0)
    return answer(game, card0, card1, card2)


def bag_diff(after: lt.Game, before: lt.Game) -> dict[str, int]:
    diff = Counter(dict(after.bag))
    diff.subtract(Counter(dict(before.bag)))
    return {k: v for k, v in diff.items() if v}


def sel(game: lt.Game, day: int = 2) -> None:
    """The game has moved on to the given day's character selection."""
    assert game.phase == "select", (game.phase, game.decision)
    assert game.day == day
    at(game, "play_character", 0)


# --------------------------------------------------------------------------- 1 Parrot


def test_parrot_is_discarded_and_played_card_acts_by_day() -> None:
    """Parrot: it is discarded, the chosen hand card is placed by its rank and its sun ability acts."""
    g = play(new(seat(["Parrot", "Carpenter", "Barkeep", "Cook"])), "Parrot")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Carpenter", "Barkeep", "Cook"}
    g = answer(g, "Carpenter")
    assert g.island == ((0, "Carpenter"), (1, "Topman"), (2, "Treasurer"))
    assert g.players[0].graveyard == ("Parrot",)
    assert g.players[0].hand == ("Barkeep", "Cook")
    assert coins(g) == [5, 10, 10]  # Carpenter: lose half of 10
    assert g.phase == "dusk"
    g = answer(g, "chest", "goods")
    sel(g)
    assert g.players[0].ship == ("Carpenter",)
    assert g.players[0].loot == ("relic",)
    assert g.players[0].graveyard == ("Parrot",)


def test_parrot_played_card_lands_by_rank_right_of_others() -> None:
    """Parrot: a Quartermaster (26) played from hand lands right of the Treasurer (23) and acts."""
    g = play(new(seat(["Parrot", "Quartermaster", "Barkeep", "Cook"], loot=["goods", "goods"])), "Parrot")
    g = answer(g, "Quartermaster")
    assert g.island == ((1, "Topman"), (2, "Treasurer"), (0, "Quartermaster"))
    assert coins(g) == [12, 10, 10]  # +1 per booty token held (2)
    at(g, "choose_loot", 0)  # the Quartermaster is rightmost now: seat 0 chooses first at dusk
    g = answer(g, "chest", "relic")
    sel(g)
    assert sorted(g.players[0].loot) == ["chest", "goods", "goods"]
    assert g.players[0].ship == ("Quartermaster",)
    assert g.players[1].loot == ("goods",)
    assert g.players[2].loot == ("relic",)


def test_parrot_with_no_other_card_only_discards() -> None:
    """Parrot / R1: with an empty hand after playing it, the Parrot is only discarded."""
    g = new(seat(["Parrot"]))  # single card: played automatically
    g = answer(g, "Topman", "Treasurer")
    assert g.island == ((1, "Topman"), (2, "Treasurer"))
    assert g.players[0].graveyard == ("Parrot",)
    assert g.players[0].hand == ()
    assert g.phase == "dusk"
    before = g
    at(g, "choose_loot", 2)
    g = answer(g, "chest")
    at(g, "choose_loot", 1)
    g = answer(g, "goods")
    assert g.players[0].loot == () and g.players[0].ship == ()
    assert g.players[2].loot == ("chest",) and g.players[1].loot == ("goods",)
    # R7 Classic: the unclaimed relic is set aside, not returned to the bag
    assert bag_diff(g, before) == {}
    assert list(g.state.aside) == ["relic"]


def test_parrot_played_card_ties_by_tie_breaker_and_acts() -> None:
    """Parrot / C1: a Brute played from hand ties with seat 1's; tie-breaker 1 < 6 puts it left and it acts first."""
    g = play(new(seat(["Parrot", "Brute", "Barkeep", "Cook"]), s1(hand=["Brute", "Cook", "Bosun"])), "Parrot", "Brute")
    g = answer(g, "Brute")
    # seat 0's Brute (left) discards the Treasurer; then seat 1's Brute is rightmost and discards itself
    assert g.island == ((0, "Brute"),)
    assert g.players[0].graveyard == ("Parrot",)
    assert g.players[1].graveyard == ("Brute",)
    assert g.players[2].graveyard == ("Treasurer",)
    at(g, "choose_loot", 0)
    g = answer(g, "chest")
    sel(g)
    assert g.players[0].ship == ("Brute",) and g.players[0].loot == ("chest",)
    assert sorted(g.state.aside) == ["goods", "relic"]


def test_two_parrots_both_play_and_both_played_cards_act() -> None:
    """Parrot / C1 / R5: seat 1's Parrot (tie-breaker 1) acts before seat 0's (2); both played cards act."""
    g = new(
        seat(["Parrot", "Carpenter", "Barkeep"]),
        s1(hand=["Parrot", "French Officer", "Bosun"], doubloons=4),
    )
    g = play(g, "Parrot", "Parrot")
    assert "the island: Parrot (seat 1), Parrot (seat 0), Treasurer (seat 2)" in [str(e) for e in g.events]
    at(g, "choose_character", 1)  # seat 1's Parrot acts first: it is already discarded
    assert g.island == ((0, "Parrot"), (2, "Treasurer"))
    g = answer(g, "French Officer")
    at(g, "choose_character", 0)  # seat 0's Parrot still acts
    g = answer(g, "Carpenter")
    assert g.island == ((0, "Carpenter"), (1, "French Officer"), (2, "Treasurer"))
    assert coins(g) == [5, 9, 10]  # Carpenter 10 -> 5; French Officer 4 -> 9
    assert g.players[0].graveyard == ("Parrot",) and g.players[1].graveyard == ("Parrot",)


# --------------------------------------------------------------------------- 2 Monkey


def test_monkey_gives_every_relic_to_the_left() -> None:
    """Monkey: every relic seat 0 holds goes to the next seat (seat 1); other loot stays."""
    g = new(seat(["Monkey", "Barkeep", "Cook"], loot=["relic", "chest", "relic", "map"]), s1(loot=["goods"]))
    g = play(g, "Monkey")
    assert sorted(g.players[0].loot) == ["chest", "map"]
    assert sorted(g.players[1].loot) == ["goods", "relic", "relic"]
    assert g.players[2].loot == ()
    assert coins(g) == [10, 10, 10]


def test_monkey_of_last_seat_wraps_to_seat_0() -> None:
    """Monkey / R12: the player on seat 2's left is seat 0 (wrap-around)."""
    g = new(seat(["Barkeep", "Cook", "Bosun"]), s1(), s2(hand=["Monkey", "Cook", "Bosun"], loot=["relic"]))
    g = play(g, "Barkeep", "Topman", "Monkey")
    assert g.players[0].loot == ("relic",)
    assert g.players[1].loot == ()
    assert g.players[2].loot == ()


def test_monkey_two_players_gives_to_the_opponent() -> None:
    """Monkey / R12: with two players the relics go to the one opponent."""
    g = two(seat(["Monkey", "Barkeep", "Cook"], loot=["relic", "relic", "relic"]), seat(["Topman", "Cook", "Bosun"]))
    g = answer(g, "Monkey", "Topman")
    assert g.players[0].loot == ()
    assert g.players[1].loot == ("relic", "relic", "relic")


def test_monkey_with_no_relic_changes_nothing() -> None:
    """Monkey / R1: holding no relic, nothing moves."""
    g = play(new(seat(["Monkey", "Barkeep", "Cook"], loot=["chest", "map"])), "Monkey")
    assert sorted(g.players[0].loot) == ["chest", "map"]
    assert g.players[1].loot == ()


# --------------------------------------------------------------------------- 3 Beggar


def test_beggar_takes_3_from_owner_of_rightmost() -> None:
    """Beggar: the owner of the rightmost character (seat 2's Treasurer) pays 3."""
    g = play(new(seat(["Beggar", "Barkeep", "Cook"])), "Beggar")
    assert coins(g) == [13, 10, 7]


def test_beggar_takes_all_when_payer_has_fewer() -> None:
    """Beggar / R2: a payer with only 2 doubloons pays 2 and stays at 0."""
    g = play(new(seat(["Beggar", "Barkeep", "Cook"]), s1(), s2(doubloons=2)), "Beggar")
    assert coins(g) == [12, 10, 0]


def test_beggar_from_payer_with_nothing() -> None:
    """Beggar / R2: a payer with 0 pays nothing."""
    g = play(new(seat(["Beggar", "Barkeep", "Cook"]), s1(), s2(doubloons=0)), "Beggar")
    assert coins(g) == [10, 10, 0]


def test_beggar_tie_own_rightmost_gets_nothing() -> None:
    """Beggar / C1: tie-breakers seat 1 = 3 < seat 0 = 4; seat 1's Beggar takes 3, seat 0's (rightmost) nothing."""
    g = two(seat(["Beggar", "Barkeep", "Cook"]), seat(["Beggar", "Cook", "Bosun"]))
    g = answer(g, "Beggar", "Beggar")
    assert g.island == ((1, "Beggar"), (0, "Beggar"))
    assert coins(g) == [7, 13]


def test_beggar_rightmost_is_own_card_in_three_players() -> None:
    """Beggar: when your Beggar is itself rightmost, no doubloons move."""
    g = new(
        seat(["Beggar", "Barkeep", "Cook"]), s1(hand=["Parrot", "Monkey", "Cook"]), s2(hand=["Monkey", "Cook", "Bosun"])
    )
    g = answer(g, "Beggar", "Monkey", "Monkey")
    # Monkey ties: P2 seat 1 = 2 < seat 2 = 5
    assert g.island == ((1, "Monkey"), (2, "Monkey"), (0, "Beggar"))
    assert coins(g) == [10, 10, 10]


# --------------------------------------------------------------------------- 4 Recruiter


def test_recruiter_takes_ship_character_back_to_hand() -> None:
    """Recruiter: a character of your ship (your choice) goes back to your hand."""
    g = new(seat(["Recruiter", "Barkeep", "Cook"], ship=["Carpenter", "Brute"]))
    g = play(g, "Recruiter")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Carpenter", "Brute"}
    g = answer(g, "Brute")
    assert g.players[0].ship == ("Carpenter",)
    assert g.players[0].hand == ("Barkeep", "Brute", "Cook")
    assert g.players[0].graveyard == ()
    g = answer(g, "chest", "goods")
    sel(g)
    assert g.players[0].ship == ("Carpenter", "Recruiter")


def test_recruiter_with_empty_ship_does_nothing() -> None:
    """Recruiter / R1: an empty ship means nothing happens (no empty question)."""
    g = play(new(seat(["Recruiter", "Barkeep", "Cook"])), "Recruiter")
    at(g, "choose_loot", 2)
    assert g.players[0].hand == ("Barkeep", "Cook")
    assert g.players[0].ship == ()


# --------------------------------------------------------------------------- 5 Cabin Boy


def test_cabin_boy_takes_no_booty_and_leftover_is_set_aside() -> None:
    """Cabin Boy / R7 Classic: it takes no booty, still sails; the unclaimed token is set aside, not bagged."""
    g = play(new(seat(["Cabin Boy", "Barkeep", "Cook"])), "Cabin Boy")
    before = g
    g = answer(g, "chest", "goods")
    sel(g)
    assert g.players[0].loot == ()
    assert g.players[0].ship == ("Cabin Boy",)
    assert g.players[1].loot == ("goods",) and g.players[2].loot == ("chest",)
    assert list(g.state.aside) == ["relic"]
    assert bag_diff(g, before) == {}
    assert coins(g) == [10, 10, 10]


def test_cabin_boy_is_not_hit_by_an_officer_it_never_takes() -> None:
    """Cabin Boy / C2: with only an officer left, the Cabin Boy takes nothing and still enters the ship."""
    g = play(new(seat(["Cabin Boy", "Barkeep", "Cook"]), loot=[("chest", "goods", "officer")]), "Cabin Boy")
    g = answer(g, "chest", "goods")
    sel(g)
    assert g.players[0].ship == ("Cabin Boy",)
    assert g.players[0].graveyard == ()
    assert g.players[0].loot == ()
    assert list(g.state.aside) == ["officer"]


# --------------------------------------------------------------------------- 6 Preacher


def test_preacher_keeps_one_loot_of_choice() -> None:
    """Preacher: all your loot but one of your choice returns to the bag."""
    g = new(seat(["Preacher", "Barkeep", "Cook"], loot=["relic", "chest", "goods", "goods"]))
    before = g
    g = play(g, "Preacher")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"relic", "chest", "goods"}
    g = answer(g, "chest")
    assert g.players[0].loot == ("chest",)
    assert bag_diff(g, before) == {"relic": 1, "goods": 2}
    assert coins(g) == [10, 10, 10]


def test_preacher_with_one_loot_keeps_it() -> None:
    """Preacher / R1: holding a single token, nothing returns and nothing is asked."""
    g = new(seat(["Preacher", "Barkeep", "Cook"], loot=["relic"]))
    before = g
    g = play(g, "Preacher")
    at(g, "choose_loot", 2)
    assert g.players[0].loot == ("relic",)
    assert bag_diff(g, before) == {}


def test_preacher_anchor_gains_5_at_campaign_end() -> None:
    """Preacher / C4 / R3: at campaign end the Preacher in the ship gains 5, booty scores, doubloons bank."""
    g = new(
        seat(["Barkeep", "Cook", "Bosun"], ship=["Preacher"], loot=["chest"]),
        s1(),
        s2(ship=["Bosun"]),
        voyage=1,
        day=6,
    )
    g = play(g, "Barkeep")
    g = answer(g, "goods", "relic")  # seat 0 is left with the chest
    # night: Barkeep +1 -> 11; anchor: Preacher 5 + 2 chests 10 -> score 26
    assert g.voyage == 2 and g.day == 1
    assert scores(g)[0] == 26
    # seat 1: Topman (fewest ship characters: 1 vs 2 and 2) +5, relic -3 -> 12
    # seat 2: Treasurer +1 per goods, goods scores 1 -> 12
    assert scores(g) == [26, 12, 12]
    assert coins(g) == [10, 10, 10]
    assert sorted(g.players[0].removed) == ["Barkeep", "Preacher"]
    assert g.players[0].ship == () and g.players[0].loot == ()


# --------------------------------------------------------------------------- 7 Barkeep


def test_barkeep_gains_1_the_night_it_sails() -> None:
    """Barkeep: it enters the ship at dusk and gains 1 that night."""
    g = play(new(seat(["Barkeep", "Cook", "Bosun"])), "Barkeep")
    assert coins(g) == [10, 10, 10]
    g = answer(g, "chest", "goods")
    sel(g)
    assert coins(g) == [11, 10, 10]
    assert g.players[0].ship == ("Barkeep",)


def test_barkeep_in_ship_gains_each_night() -> None:
    """Barkeep: each night it stays in the ship it gains 1 (two nights: +2)."""
    g = new(
        seat(["Cabin Boy", "Cook", "Bosun", "Topman"], ship=["Barkeep"]),
        s1(hand=["Topman", "First Mate", "Governor's Daughter", "Cook"]),
        s2(hand=["Treasurer", "First Mate", "Governor's Daughter", "Cook"]),
    )
    g = play(g, "Cabin Boy")
    g = answer(g, "chest", "goods")
    sel(g)
    assert coins(g)[0] == 11
    g = answer(g, "Topman", "First Mate", "First Mate")
    # day 2 loot is drawn from the seed; finish dusk whatever it is
    while g.phase == "dusk":
        g = g.choose(g.legal_keys()[0])
    sel(g, 3)
    assert coins(g)[0] == 12


# --------------------------------------------------------------------------- 8 Waitress


def test_waitress_may_return_a_map_for_3_yes() -> None:
    """Waitress: at night she may return one map to the bag for 3 doubloons (yes)."""
    g = new(seat(["Cabin Boy", "Cook", "Bosun"], ship=["Waitress"], loot=["map", "map"]))
    g = play(g, "Cabin Boy")
    g = answer(g, "chest", "goods")
    before = g
    at(g, "may", 0)
    g = answer(g, "yes")
    sel(g)
    assert coins(g) == [13, 10, 10]
    assert g.players[0].loot == ("map",)  # only one map per night
    assert bag_diff(g, before) == {"map": 1}


def test_waitress_may_decline() -> None:
    """Waitress: saying no keeps the map and gains nothing."""
    g = new(seat(["Cabin Boy", "Cook", "Bosun"], ship=["Waitress"], loot=["map"]))
    g = play(g, "Cabin Boy")
    g = answer(g, "chest", "goods")
    at(g, "may", 0)
    g = answer(g, "no")
    sel(g)
    assert coins(g) == [10, 10, 10]
    assert g.players[0].loot == ("map",)


def test_waitress_without_map_is_not_asked() -> None:
    """Waitress / R1: with no map there is no question and no gain."""
    g = new(seat(["Cabin Boy", "Cook", "Bosun"], ship=["Waitress"], loot=["chest"]))
    g = play(g, "Cabin Boy")
    g = answer(g, "chest", "goods")
    sel(g)
    assert coins(g) == [10, 10, 10]
    assert g.players[0].loot == ("chest",)


def test_waitress_map_taken_today_can_be_returned_tonight() -> None:
    """Waitress: played today, she takes a map at dusk and may return it that same night."""
    g = play(new(seat(["Waitress", "Cook", "Bosun"]), loot=[("chest", "goods", "map")]), "Waitress")
    g = answer(g, "chest", "goods")  # seat 0's Waitress is left with the map
    at(g, "may", 0)
    g = answer(g, "yes")
    sel(g)
    assert coins(g) == [13, 10, 10]
    assert g.players[0].loot == ()
    assert g.players[0].ship == ("Waitress",)


# --------------------------------------------------------------------------- 9 Carpenter


def test_carpenter_loses_half_rounded_down_odd() -> None:
    """Carpenter / R33: with 11 she loses 5 (half rounded down), keeping 6."""
    g = play(new(seat(["Carpenter", "Cook", "Bosun"], doubloons=11)), "Carpenter")
    assert coins(g) == [6, 10, 10]


def test_carpenter_loses_half_even() -> None:
    """Carpenter / R33: with 10 she loses 5."""
    g = play(new(seat(["Carpenter", "Cook", "Bosun"])), "Carpenter")
    assert coins(g) == [5, 10, 10]


def test_carpenter_with_1_keeps_it() -> None:
    """Carpenter / R33: with 1 doubloon, half rounded down is 0, so 1 stays."""
    g = play(new(seat(["Carpenter", "Cook", "Bosun"], doubloons=1)), "Carpenter")
    assert coins(g) == [1, 10, 10]


def test_carpenter_anchor_gains_10() -> None:
    """Carpenter / R3: at campaign end the Carpenter in the ship gains 10 before banking."""
    g = new(seat(["Carpenter", "Cook", "Bosun"], doubloons=7), s1(ship=["Bosun"]), s2(ship=["Bosun"]), voyage=1, day=6)
    g = play(g, "Carpenter")  # 7 -> 4 (loses 3)
    assert coins(g)[0] == 4
    g = answer(g, "chest", "relic")  # seat 0 is left with goods
    assert g.voyage == 2
    # seat 0: 4 + 10 (Carpenter) + 1 (goods) = 15
    assert scores(g)[0] == 15
    assert "Carpenter" in g.players[0].removed


# --------------------------------------------------------------------------- 10 French Officer


def test_french_officer_at_8_gains_5() -> None:
    """French Officer: with 8 doubloons (fewer than 9) gain 5."""
    g = play(new(seat(["French Officer", "Cook", "Bosun"], doubloons=8)), "French Officer")
    assert coins(g) == [13, 10, 10]


def test_french_officer_at_9_gains_nothing() -> None:
    """French Officer: with 9 doubloons, nothing."""
    g = play(new(seat(["French Officer", "Cook", "Bosun"], doubloons=9)), "French Officer")
    assert coins(g) == [9, 10, 10]


def test_french_officer_at_0_gains_5() -> None:
    """French Officer: with 0 doubloons gain 5 (not a top-up)."""
    g = play(new(seat(["French Officer", "Cook", "Bosun"], doubloons=0)), "French Officer")
    assert coins(g) == [5, 10, 10]


def test_french_officer_checks_coins_when_it_acts() -> None:
    """French Officer / R5: a Beggar acting earlier takes 3 from 11 -> 8, so the Officer then gains 5."""
    g = new(
        seat(["Beggar", "Cook", "Bosun"]),
        s1(hand=["Monkey", "Cook", "Bosun"]),
        s2(hand=["French Officer", "Cook", "Bosun"], doubloons=11),
    )
    g = answer(g, "Beggar", "Monkey", "French Officer")
    # island: Monkey (2), Beggar (3), French Officer (10): seat 2 owns the rightmost and pays 11 -> 8
    assert g.island == ((1, "Monkey"), (0, "Beggar"), (2, "French Officer"))
    assert coins(g) == [13, 10, 13]


def test_french_officer_tie_breaker_order() -> None:
    """French Officer / C1: three French Officers sort by tie-breakers 4, 3, 6: seat 1, seat 0, seat 2."""
    g = new(
        seat(["French Officer", "Cook", "Bosun"], doubloons=8),
        s1(hand=["French Officer", "Cook", "Bosun"], doubloons=9),
        s2(hand=["French Officer", "Cook", "Bosun"], doubloons=2),
    )
    g = answer(g, "French Officer", "French Officer", "French Officer")
    assert g.island == ((1, "French Officer"), (0, "French Officer"), (2, "French Officer"))
    assert coins(g) == [13, 9, 7]
    # dusk right to left: seat 2 first
    at(g, "choose_loot", 2)


# --------------------------------------------------------------------------- 11 Voodoo Witch


def test_voodoo_witch_gains_2_per_graveyard_character() -> None:
    """Voodoo Witch: gain 2 per character in your discard pile (3 -> +6)."""
    g = new(seat(["Voodoo Witch", "Cook", "Bosun"], graveyard=["Barkeep", "Brute", "Parrot"]))
    g = play(g, "Voodoo Witch")
    assert coins(g) == [16, 10, 10]


def test_voodoo_witch_counts_parrot_discarded_today() -> None:
    """Voodoo Witch: a Parrot discarded earlier the same day counts (+2)."""
    g = play(new(seat(["Parrot", "Voodoo Witch", "Cook"])), "Parrot")
    g = answer(g, "Voodoo Witch")
    assert coins(g) == [12, 10, 10]


def test_voodoo_witch_empty_graveyard_gains_nothing() -> None:
    """Voodoo Witch: an empty discard pile gives nothing."""
    g = play(new(seat(["Voodoo Witch", "Cook", "Bosun"])), "Voodoo Witch")
    assert coins(g) == [10, 10, 10]


def test_voodoo_witch_counts_only_this_campaign() -> None:
    """Voodoo Witch: the discard pile leaves the game at campaign end, so last campaign's discards don't count."""
    g = new(
        seat(["Cabin Boy", "Voodoo Witch", "Cook", "Bosun"], graveyard=["Barkeep", "Brute"]),
        s1(ship=["Bosun"]),
        s2(ship=["Bosun"]),
        voyage=1,
        day=6,
    )
    g = play(g, "Cabin Boy")
    g = answer(g, "chest", "goods")
    assert g.voyage == 2 and g.day == 1
    assert sorted(g.players[0].removed) == ["Barkeep", "Brute", "Cabin Boy"]
    assert g.players[0].graveyard == ()
    assert "Voodoo Witch" in g.players[0].hand
    assert coins(g)[0] == 10
    # voyage 2 deals Spanish Governor (30) to every seat: with empty ships it does nothing
    g = answer(g, "Voodoo Witch", "Spanish Governor", "Spanish Governor")
    assert g.island == ((0, "Voodoo Witch"), (1, "Spanish Governor"), (2, "Spanish Governor"))
    assert g.phase == "dusk"
    assert coins(g) == [10, 10, 10]


# --------------------------------------------------------------------------- 12 Freed Slave


def test_freed_slave_counts_ship_characters_above_12() -> None:
    """Freed Slave: at night +1 per character in your ship ranked above 12 (not itself, not 9)."""
    g = new(seat(["Freed Slave", "Cook", "Bosun"], ship=["Carpenter", "Brute", "Topman", "Captain"]))
    g = play(g, "Freed Slave")
    g = answer(g, "chest", "goods")
    sel(g)
    assert coins(g) == [13, 10, 10]
    assert g.players[0].ship == ("Carpenter", "Brute", "Topman", "Captain", "Freed Slave")


def test_freed_slave_alone_gains_nothing() -> None:
    """Freed Slave: with no other character above 12 it gains nothing."""
    g = play(new(seat(["Freed Slave", "Cook", "Bosun"], ship=["Carpenter"])), "Freed Slave")
    g = answer(g, "chest", "goods")
    sel(g)
    assert coins(g) == [10, 10, 10]


# --------------------------------------------------------------------------- 13 Mutineer


def test_mutineer_discards_lowest_other_and_gains_2() -> None:
    """Mutineer / R16 Classic: discard the lowest-ranked other ship character, then gain 2."""
    g = new(seat(["Mutineer", "Cook", "Bosun"], ship=["Topman", "Recruiter", "Brute"]))
    g = play(g, "Mutineer")
    g = answer(g, "chest", "goods")
    sel(g)
    assert coins(g) == [12, 10, 10]
    assert g.players[0].graveyard == ("Recruiter",)
    assert sorted(g.players[0].ship) == ["Brute", "Mutineer", "Topman"]


def test_mutineer_never_discards_itself_when_lowest() -> None:
    """Mutineer / R16 Classic: when the Mutineer is the lowest it discards the next lowest (Brute 14)."""
    g = new(seat(["Mutineer", "Cook", "Bosun"], ship=["Gunner", "Brute"]))
    g = play(g, "Mutineer")
    g = answer(g, "chest", "goods")
    sel(g)
    assert coins(g) == [12, 10, 10]
    assert g.players[0].graveyard == ("Brute",)
    assert sorted(g.players[0].ship) == ["Gunner", "Mutineer"]


def test_mutineer_alone_still_gains_2() -> None:
    """Mutineer / R16 Classic / R1: with no other character it discards nothing and still gains 2."""
    g = play(new(seat(["Mutineer", "Cook", "Bosun"])), "Mutineer")
    g = answer(g, "chest", "goods")
    sel(g)
    assert coins(g) == [12, 10, 10]
    assert g.players[0].graveyard == ()
    assert g.players[0].ship == ("Mutineer",)


def test_mutineer_in_ship_each_night() -> None:
    """Mutineer: from the ship it acts every night (two nights: two discards, +4)."""
    g = new(
        seat(["Cabin Boy", "Topman", "Cook", "Bosun"], ship=["Mutineer", "Parrot", "Beggar"]),
        s1(hand=["Topman", "First Mate", "Governor's Daughter", "Cook"]),
        s2(hand=["Treasurer", "First Mate", "Governor's Daughter", "Cook"]),
    )
    g = play(g, "Cabin Boy")
    g = answer(g, "chest", "goods")
    sel(g)
    assert coins(g)[0] == 12
    assert g.players[0].graveyard == ("Parrot",)
    g = answer(g, "Topman", "First Mate", "First Mate")
    while g.phase == "dusk":
        g = g.choose(g.legal_keys()[0])
    sel(g, 3)
    assert coins(g)[0] == 14
    assert g.players[0].graveyard == ("Parrot", "Beggar")


# --------------------------------------------------------------------------- 14 Brute


def test_brute_discards_rightmost_before_it_acts() -> None:
    """Brute / R5: the rightmost Quartermaster (26) is discarded before its turn, so it gains nothing."""
    g = new(
        seat(["Brute", "Cook", "Bosun"]), s1(), s2(hand=["Quartermaster", "Cook", "Bosun"], loot=["goods", "goods"])
    )
    g = answer(g, "Brute", "Topman", "Quartermaster")
    assert g.island == ((0, "Brute"), (1, "Topman"))
    assert g.players[2].graveyard == ("Quartermaster",)
    assert coins(g) == [10, 10, 10]
    before = g
    at(g, "choose_loot", 1)
    g = answer(g, "chest")
    at(g, "choose_loot", 0)
    g = answer(g, "relic")
    sel(g)
    assert g.players[1].loot == ("chest",) and g.players[0].loot == ("relic",)
    assert g.players[2].loot == ("goods", "goods") and g.players[2].ship == ()
    assert list(g.state.aside) == ["goods"]
    assert bag_diff(g, before) == {}


def test_brute_discards_itself_when_rightmost() -> None:
    """Brute: when the Brute itself is rightmost it discards itself."""
    g = two(seat(["Brute", "Cook", "Bosun"]), seat(["Recruiter", "Cook", "Bosun"]))
    g = answer(g, "Brute", "Recruiter")
    assert g.island == ((1, "Recruiter"),)
    assert g.players[0].graveyard == ("Brute",)
    at(g, "choose_loot", 1)
    g = answer(g, "chest")
    sel(g)
    assert g.players[0].loot == () and g.players[0].ship == ()
    assert g.players[1].ship == ("Recruiter",)
    assert list(g.state.aside) == ["relic"]


def test_brute_tie_breaker_decides_rightmost() -> None:
    """Brute / C1: tie-breakers seat 0 = 1 < seat 2 = 3, so seat 0's Brute discards seat 2's, which never acts."""
    g = new(seat(["Brute", "Cook", "Bosun"]), s1(hand=["Beggar", "Cook", "Bosun"]), s2(hand=["Brute", "Cook", "Bosun"]))
    g = answer(g, "Brute", "Beggar", "Brute")
    # Beggar (seat 1) takes 3 from seat 2 (rightmost at that time); then seat 0's Brute discards seat 2's Brute
    assert g.island == ((1, "Beggar"), (0, "Brute"))
    assert g.players[2].graveyard == ("Brute",)
    assert g.players[0].graveyard == ()
    assert coins(g) == [10, 13, 7]


# --------------------------------------------------------------------------- 15 Gunner


def test_gunner_pays_3_and_discards_from_another_ship() -> None:
    """Gunner: pay 3, then discard a character of your choice from any ship (another seat's here)."""
    g = new(seat(["Gunner", "Cook", "Bosun"], ship=["Carpenter"]), s1(ship=["Barkeep", "Brute"]), s2())
    g = play(g, "Gunner")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Carpenter", "Barkeep@1", "Brute@1"}
    assert coins(g) == [7, 10, 10]
    g = answer(g, "Barkeep@1")
    assert g.players[1].graveyard == ("Barkeep",)
    assert g.players[1].ship == ("Brute",)
    assert g.players[0].ship == ("Carpenter",)
    assert coins(g) == [7, 10, 10]


def test_gunner_can_discard_from_own_ship() -> None:
    """Gunner: the target may be in the Gunner owner's own ship."""
    g = new(seat(["Gunner", "Cook", "Bosun"], ship=["Carpenter"]), s1(ship=["Barkeep"]), s2())
    g = play(g, "Gunner")
    g = answer(g, "Carpenter")
    assert g.players[0].graveyard == ("Carpenter",)
    assert g.players[0].ship == ()
    assert g.players[1].ship == ("Barkeep",)
    assert coins(g) == [7, 10, 10]


def test_gunner_pays_3_with_no_target() -> None:
    """Gunner / R1: with every ship empty it still pays 3, and nothing is asked."""
    g = play(new(seat(["Gunner", "Cook", "Bosun"])), "Gunner")
    assert coins(g) == [7, 10, 10]
    at(g, "choose_loot", 2)
    assert all(p.graveyard == () for p in g.players)


def test_gunner_with_2_doubloons_pays_2_and_still_discards() -> None:
    """Gunner / R2: with 2 doubloons it pays what it has (0 left) and still discards the only target."""
    g = new(seat(["Gunner", "Cook", "Bosun"], doubloons=2), s1(), s2(ship=["Captain"]))
    g = play(g, "Gunner")  # single target: chosen automatically
    assert coins(g) == [0, 10, 10]
    assert g.players[2].graveyard == ("Captain",)
    assert g.players[2].ship == ()


def test_gunner_tie_breaker_order() -> None:
    """Gunner / C1: tie-breakers seat 1 = 1 < seat 0 = 2: seat 1's Gunner acts first; seat 0's then has no target."""
    g = new(
        seat(["Gunner", "Cook", "Bosun"], ship=["Barkeep"]),
        s1(hand=["Gunner", "Cook", "Bosun"]),
        s2(),
    )
    g = answer(g, "Gunner", "Gunner", "Treasurer")
    assert g.island == ((1, "Gunner"), (0, "Gunner"), (2, "Treasurer"))
    # seat 1's Gunner: the only target is seat 0's Barkeep (automatic); seat 0's Gunner then has none
    assert g.players[0].graveyard == ("Barkeep",)
    assert coins(g) == [7, 7, 10]
    at(g, "choose_loot", 2)


# --------------------------------------------------------------------------- more edge cases


def test_beggar_pays_from_card_a_parrot_inserted_rightmost() -> None:
    """Beggar / R5: seat 1's Parrot puts a Quartermaster rightmost first, so seat 1 pays the Beggar."""
    g = new(seat(["Beggar", "Cook", "Bosun"]), s1(hand=["Parrot", "Quartermaster", "Cook", "Bosun"]))
    g = answer(g, "Beggar", "Parrot", "Treasurer")
    at(g, "choose_character", 1)
    g = answer(g, "Quartermaster")
    assert g.island == ((0, "Beggar"), (2, "Treasurer"), (1, "Quartermaster"))
    assert coins(g) == [13, 7, 10]  # Quartermaster then gains 0 (seat 1 holds no booty)


def test_voodoo_witch_counts_only_own_graveyard() -> None:
    """Voodoo Witch: only your own discard pile counts, not the other players'."""
    g = new(
        seat(["Voodoo Witch", "Cook", "Bosun"], graveyard=["Barkeep"]),
        s1(graveyard=["Brute", "Parrot", "Cook"]),
        s2(graveyard=["Gunner"]),
    )
    g = play(g, "Voodoo Witch")
    assert coins(g) == [12, 10, 10]


def test_carpenter_with_0_stays_at_0() -> None:
    """Carpenter / R33 / R2: with no doubloons nothing is lost."""
    g = play(new(seat(["Carpenter", "Cook", "Bosun"], doubloons=0)), "Carpenter")
    assert coins(g) == [0, 10, 10]


def test_preacher_anchor_is_netted_with_relics() -> None:
    """Preacher / R3 / C4: at 0 doubloons, Preacher +5 and three relics -9 net to -4, so 0 is banked."""
    g = new(
        seat(["Cabin Boy", "Cook", "Bosun"], doubloons=0, ship=["Preacher"], loot=["relic", "relic", "relic"]),
        s1(ship=["Bosun"]),
        s2(ship=["Bosun"]),
        voyage=1,
        day=6,
    )
    g = play(g, "Cabin Boy")
    g = answer(g, "chest", "goods")
    assert g.voyage == 2 and g.day == 1
    assert scores(g)[0] == 0
    assert coins(g)[0] == 10
    assert sorted(g.players[0].removed) == ["Cabin Boy", "Preacher"]


def test_carpenter_anchor_netted_with_relics() -> None:
    """Carpenter / R3 / C4: 0 doubloons, Carpenter +10 and two relics -6 bank 4."""
    g = new(
        seat(["Cabin Boy", "Cook", "Bosun"], doubloons=0, ship=["Carpenter"], loot=["relic", "relic"]),
        s1(ship=["Bosun"]),
        s2(ship=["Bosun"]),
        voyage=1,
        day=6,
    )
    g = play(g, "Cabin Boy")
    g = answer(g, "chest", "goods")
    assert scores(g)[0] == 4


def test_night_order_freed_slave_before_mutineer() -> None:
    """Freed Slave + Mutineer / R8: Freed Slave first counts 13, 14, 16 (+3), then the Mutineer discards it (+2)."""
    g = new(seat(["Topman", "Cook", "Bosun"], ship=["Mutineer", "Freed Slave", "Brute"]))
    g = play(g, "Topman")
    # Topman tie (P2): seat 1 = 2 goes left of seat 0 = 3
    assert g.island == ((1, "Topman"), (0, "Topman"), (2, "Treasurer"))
    g = answer(g, "chest", "goods")  # seat 2, then seat 0; seat 1 gets the relic
    at(g, "order_abilities", 0)
    assert set(g.legal_keys()) == {"Mutineer", "Freed Slave"}
    g = answer(g, "Freed Slave")
    sel(g)
    assert coins(g) == [15, 10, 10]
    assert g.players[0].graveyard == ("Freed Slave",)
    assert sorted(g.players[0].ship) == ["Brute", "Mutineer", "Topman"]
    assert g.players[0].loot == ("goods",) and g.players[1].loot == ("relic",)


def test_night_order_mutineer_before_freed_slave() -> None:
    """Mutineer + Freed Slave / R8: the Mutineer first discards the Freed Slave (lowest other), which never acts."""
    g = new(seat(["Topman", "Cook", "Bosun"], ship=["Mutineer", "Freed Slave", "Brute"]))
    g = play(g, "Topman")
    g = answer(g, "chest", "goods")
    at(g, "order_abilities", 0)
    g = answer(g, "Mutineer")
    sel(g)
    assert coins(g) == [12, 10, 10]
    assert g.players[0].graveyard == ("Freed Slave",)


def test_gunner_with_0_doubloons_still_discards() -> None:
    """Gunner / R1 / R2: at 0 doubloons it pays nothing more and still discards."""
    g = new(seat(["Gunner", "Cook", "Bosun"], doubloons=0), s1(ship=["Captain"]), s2())
    g = play(g, "Gunner")
    assert coins(g) == [0, 10, 10]
    assert g.players[1].graveyard == ("Captain",)
    assert g.players[1].ship == ()


def test_gunner_target_in_third_seat_ship() -> None:
    """Gunner: every other seat's ship offers targets (keyed Name@seat); seat 2's Waitress is chosen."""
    g = new(seat(["Gunner", "Cook", "Bosun"]), s1(ship=["Barkeep"]), s2(ship=["Captain", "Waitress"]))
    g = play(g, "Gunner")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Barkeep@1", "Captain@2", "Waitress@2"}
    g = answer(g, "Waitress@2")
    assert g.players[2].graveyard == ("Waitress",)
    assert g.players[2].ship == ("Captain",)
    assert g.players[1].ship == ("Barkeep",)
    assert coins(g) == [7, 10, 10]
