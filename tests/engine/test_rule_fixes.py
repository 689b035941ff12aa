"""Scenario tests for the rules corrected in issue 9: each names its ruling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import libertalia as lt
from tests.engine.test_two_players import removals, seat, two
from tests.helpers import answer, at, galecrest, mod_rules, scores, write_cards


def test_midshipman_neighbour_is_read_at_dusk() -> None:
    """R13: the card directly left of the Midshipman *at dusk* loses a token, even if another was there at reveal."""
    # Island at reveal: Explorer (10, seat 0), Smuggler (13, seat 1), Midshipman (20.5).
    g = two(seat("Explorer"), seat("Smuggler"), loot=["chest", "map", "relic"])
    g = answer(g, "Explorer", "Smuggler")
    at(g, "choose_loot", 1)  # the Smuggler takes by day, then sails: it is gone from the island
    g = answer(g, "chest")
    assert g.phase == "dusk"
    # The Explorer is now directly left of the Midshipman: its opponent (seat 1) removes a token first.
    at(g, "choose_loot", 1)
    assert "remove" in g.decision.prompt  # type: ignore[union-attr]
    g = answer(g, "map")
    assert removals(g) == ["seat 1 removes a map from today's loot"]
    assert g.players[0].loot == ("relic",)


def test_midshipman_without_left_neighbour_removes_nothing() -> None:
    """R13: when the card left of the Midshipman at reveal leaves by day and none replaces it, nobody loses a token."""
    g = two(seat("Smuggler"), seat("Bosun"), loot=["chest", "map", "relic"])
    g = answer(g, "Smuggler", "Bosun")
    g = answer(g, "chest")  # the Smuggler's day take
    while g.phase == "dusk":
        g = g.choose(g.legal_keys()[0])
    assert removals(g) == []


def _nymph_clash(**extra: Any) -> lt.Game:
    seats = [{"hand": ["Cabin Boy", "Cook", "Governor"], "ship": ["Wind Nymph", "Topman"], "doubloons": 10},
             {"hand": ["Cabin Boy", "Cook", "Governor"], "ship": ["Wind Nymph", "Topman"], "doubloons": 10},
             {"hand": ["Cabin Boy", "Cook", "Governor"]}]
    g = lt.new_game(galecrest(), 3, seed=0, setup={"players": seats, "reputation": [0, 1, 2],
                                                    "loot": [["chest", "amulet", "relic"]], **extra})
    return answer(g, "Cabin Boy", "Cabin Boy", "Cabin Boy")


def test_wind_nymph_clash_each_discards_itself() -> None:
    """R9: in a clash each Nymph discards only itself, so a later owner still orders its night abilities."""
    g = _nymph_clash()
    assert g.phase == "night"
    at(g, "order_abilities", 0)
    g = answer(g, "Wind Nymph")  # seat 0's Nymph goes first: it discards itself only
    at(g, "order_abilities", 1)  # seat 1 still has both abilities to order
    assert set(g.legal_keys()) == {"Wind Nymph", "Topman"}
    g = answer(g, "Topman")  # Topman first: 4 - 3 aboard (Nymph, Topman, Cabin Boy) = +1
    assert g.players[1].doubloons == 11
    assert g.players[0].graveyard == ("Wind Nymph",) and g.players[1].graveyard == ("Wind Nymph",)


def test_witch_copying_a_clashing_nymph_discards_every_nymph() -> None:
    """R9: a Witch copying a Nymph in a clash discards every Wind Nymph (she is no Nymph herself)."""
    seats = [{"hand": ["Cabin Boy", "Cook", "Governor"], "ship": ["Witch", "Wind Nymph"]},
             {"hand": ["Cabin Boy", "Cook", "Governor"], "ship": ["Wind Nymph"]},
             {"hand": ["Cabin Boy", "Cook", "Governor"]}]
    g = lt.new_game(galecrest(), 3, seed=0, setup={"players": seats, "reputation": [0, 1, 2],
                                                    "loot": [["chest", "amulet", "relic"]]})
    # Seat 0 orders the Witch first; she copies her ship's Nymph (the only moon ability to copy): a clash.
    g = answer(g, "Cabin Boy", "Cabin Boy", "Cabin Boy", "Witch")
    assert any("uses the moon ability of Wind Nymph" in str(e) for e in g.events)
    assert g.players[0].graveyard == ("Wind Nymph",) and g.players[1].graveyard == ("Wind Nymph",)
    assert "Witch" in g.players[0].ship


def test_classic_campaign_end_characters_before_booty() -> None:
    """C4/E13: 0 doubloons, a Quartermaster (-8) and a chest bank 5: the loss floors at 0 before booty."""
    rules = lt.load_rules("classic")
    seats = [{"hand": ["Monkey"], "ship": ["Quartermaster"], "loot": ["chest"]},
             {"hand": ["French Officer"], "doubloons": 10}, {"hand": ["Voodoo Witch"], "doubloons": 10}]
    g = lt.new_game(rules, 3, seed=0, setup={"players": seats, "voyage": 1, "day": 6,
                                              "loot": [["goods", "goods", "goods"]]})
    # The Monkey gives away no relic; seat 0 takes a goods token (+1 at campaign end) at dusk.
    while g.voyage == 1 and g.decision is not None:
        g = g.choose(g.legal_keys()[0])
    assert scores(g)[0] == 5 + 1


def test_hook_keep_not_offered_on_the_last_voyage() -> None:
    """E25: on the last voyage the hook does not offer to keep a character; it pays its 2 doubloons."""
    seats = [{"hand": ["Explorer"], "ship": ["Bosun"], "loot": ["hook"]},
             {"hand": ["Cook"]}, {"hand": ["Treasurer"]}]
    g = lt.new_game(galecrest(), 3, seed=0, setup={"players": seats, "voyage": 3, "day": 6,
                                                    "reputation": [0, 1, 2], "loot": [["relic", "relic", "relic"]]})
    kinds = []
    while g.decision is not None:
        kinds.append((g.decision.kind, g.decision.source))
        g = g.choose(g.legal_keys()[0])
    assert ("may", "hook") not in kinds
    assert g.is_over


def test_there_was_no_character_at_nightfall_reads_every_ship_as_night_fell(tmp_path: Path) -> None:
    """ "there was no Topman at nightfall" with no place named reads every ship as night fell, not as a first
    moon ability has left them (found by the contract fuzzer's long run)."""
    rules = mod_rules(write_cards(tmp_path, {"Night Clerk": (
        41.5, "moon, first: discard every Topman in your ship.\n  moon: gain 2 doubloons if there was no Topman "
              "at nightfall.")}))
    game = lt.new_game(rules, 3, seed=0, setup={
        "voyage": 1, "day": 4, "reputation": [0, 2, 4], "loot": [["barrel", "barrel", "barrel"]],
        "players": [{"hand": [], "ship": ["Night Clerk", "Topman"]}, {"hand": []}, {"hand": []}]})
    assert "Topman" in game.players[0].graveyard
    assert scores(game)[0] == 0  # the Topman was in the ship as night fell: nothing gained (nor by it: gone)


def test_a_copy_from_another_seat_in_automas_hand_reads_as_its_types_solo_card() -> None:
    """S9: "Bosun#0" (seat 0's Bosun, held by Automa) has the Bosun's solo card; a name the solo deck
    lacks has none, so it shows no Automa symbol and keeps its printed rank."""
    from libertalia.engine.flow import _symbol

    solo = galecrest().board.solo
    assert solo is not None
    assert solo.find("Bosun#0") == solo.find("Bosun") == solo.card("Bosun")
    assert solo.find("Wind Nymph") is None and not _symbol(solo.find("Wind Nymph"))
    assert _symbol(solo.find("Bosun#0")) == solo.card("Bosun").symbol
