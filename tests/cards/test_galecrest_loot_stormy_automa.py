"""Scenario tests: the seven stormy loot tiles and the four automa loot tiles (Galecrest).

Every scenario is a declared position with three seats.  Seat 0 holds the tile under test;
seats 1 and 2 play one quiet card each (Necromancer 19 without a relic, Bosun 21 with an
empty ship), so the numbers stay easy to follow.  Reputation tokens start on spaces 0, 2
and 4 so a one-step move never swaps two players' tokens.  A one-card hand and a one-option
decision resolve on their own, so only real choices are answered.  Stormy tiles are
reconstructions (``verified: false``); these tests pin the text as implemented in
cards/galecrest/loot/stormy/*.yaml.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import libertalia as lt
from tests.helpers import answer, at, coins, reps, scores

Seat = dict[str, Any]

with warnings.catch_warnings():
    warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
    STORMY = lt.load_rules("galecrest", loot="stormy")
    AUTOMA = lt.load_rules("galecrest", loot="automa")

STORMY_KINDS = ("chest", "hook", "map", "saber", "amulet", "barrel", "relic")

# Quiet opponents: no ability of theirs fires in these positions.
NECRO: Seat = {"hand": ["Necromancer"]}  # 19: needs a relic to act
BOSUN: Seat = {"hand": ["Bosun"]}  # 21: pays only for low ranks in its (empty) ship
# Two spare cards kept in seat 0's hand, so the next day waits on seat 0's choice.
FILLER = ["Smuggler", "Watchman"]


def position(
    rules: lt.Rules,
    seats: list[Seat],
    loot: list[list[str]] | None = None,
    reputation: tuple[int, ...] = (0, 2, 4),
    **extra: Any,
) -> lt.Game:
    """A game at a declared position (seat list, today's loot first, track spaces)."""
    setup: dict[str, Any] = {"players": seats, "reputation": list(reputation), **extra}
    if loot is not None:
        setup["loot"] = loot
    return lt.new_game(rules, len(seats), seed=0, setup=setup)


def last_day(rules: lt.Rules, seats: list[Seat], loot: list[str],
             reputation: tuple[int, ...] = (0, 2, 4)) -> lt.Game:
    """The final day of the game (voyage 3, day 6): after its night come anchor and the end."""
    return position(rules, seats, [loot], reputation, voyage=3, day=6)


def maps_outside(game: lt.Game) -> int:
    """Map tokens in the bag or in the voyage's loot days (i.e. not held by any player)."""
    return game.bag["map"] + sum(day.count("map") for day in game.loot_days)


def unverified_messages(rules_loot: Any) -> list[str]:
    """The UnverifiedLootWarning messages raised while loading Galecrest with ``loot=rules_loot``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lt.load_rules("galecrest", loot=rules_loot)
    return [str(w.message) for w in caught if issubclass(w.category, lt.UnverifiedLootWarning)]


# ====================================================================== warnings
def test_stormy_rules_warn_naming_every_reconstructed_tile() -> None:
    """Loading the stormy side warns once (UnverifiedLootWarning) and names all seven tiles."""
    with pytest.warns(lt.UnverifiedLootWarning) as record:
        lt.load_rules("galecrest", loot="stormy")
    messages = [str(w.message) for w in record if issubclass(w.category, lt.UnverifiedLootWarning)]
    assert len(messages) == 1
    for kind in STORMY_KINDS:
        assert f"{kind} (stormy)" in messages[0]


def test_one_stormy_kind_warns_naming_only_that_tile() -> None:
    """A single stormy kind (map) warns about that tile only; the calm ones are not named."""
    with pytest.warns(lt.UnverifiedLootWarning, match=r"map \(stormy\)") as record:
        lt.load_rules("galecrest", loot={"map": "stormy"})
    text = " ".join(str(w.message) for w in record)
    for kind in STORMY_KINDS:
        if kind != "map":
            assert kind not in text


@pytest.mark.parametrize("side", [None, "calm"])
def test_calm_rules_emit_no_unverified_warning(side: str | None) -> None:
    """Calm-only rules (default or explicit) emit no UnverifiedLootWarning."""
    assert unverified_messages(side) == []


def test_automa_rules_emit_no_unverified_warning() -> None:
    """The automa tiles are printed solo tiles (verified): loading them emits no warning."""
    assert unverified_messages("automa") == []


def test_rules_report_the_chosen_sides() -> None:
    """loot="stormy" puts every kind on its stormy side; "automa" replaces only four tiles (rest calm)."""
    assert STORMY.loot_sides == dict.fromkeys(STORMY_KINDS, "stormy")
    assert AUTOMA.loot_sides == {"chest": "calm", "hook": "automa", "map": "calm", "saber": "automa",
                                 "amulet": "automa", "barrel": "automa", "relic": "calm"}


# ====================================================================== stormy hook
def test_stormy_hook_discards_the_cook_which_takes_no_second_token() -> None:
    """R24: a Cook (26) taking the stormy hook is discarded by it, so it takes no second token."""
    g = position(STORMY, [{"hand": ["Cook", *FILLER]}, NECRO, {"hand": ["Explorer"]}],
                 [["hook", "amulet", "chest"]])
    g = answer(g, "Cook")
    assert g.island == ((2, "Explorer"), (1, "Necromancer"), (0, "Cook"))
    at(g, "choose_loot", 0)  # the Cook is rightmost and picks first
    g = answer(g, "hook")
    # the Cook is gone: no second pick, the Necromancer picks next from both remaining tokens
    at(g, "choose_loot", 1)
    assert g.day_loot == ("amulet", "chest")
    assert g.island == ((2, "Explorer"), (1, "Necromancer"))
    assert g.players[0].graveyard == ("Cook",) and g.players[0].ship == ()
    assert g.players[0].loot == ("hook",)
    g = answer(g, "amulet")
    at(g, "play_character", 0)
    assert g.players[0].loot == ("hook",) and g.players[0].ship == ()
    assert g.players[1].loot == ("amulet",) and g.players[1].ship == ("Necromancer",)
    assert g.players[2].loot == ("chest",) and g.players[2].ship == ("Explorer",)
    assert coins(g) == [0, 0, 0] and reps(g) == [0, 2, 4]


def test_cook_taking_the_stormy_hook_second_keeps_both_tokens_but_is_discarded() -> None:
    """R24: a Cook's second token is a stormy hook: its dusk fires, the Cook (26) is discarded, tokens stay."""
    g = position(STORMY, [{"hand": ["Cook", *FILLER]}, NECRO, BOSUN], [["chest", "hook", "amulet"]])
    g = answer(g, "Cook", "chest", "hook")
    at(g, "play_character", 0)  # Bosun and Necromancer: one token for two, the Bosun took it
    assert g.players[0].loot == ("chest", "hook")
    assert g.players[0].graveyard == ("Cook",) and g.players[0].ship == ()
    assert g.players[2].loot == ("amulet",) and g.players[2].ship == ("Bosun",)
    assert g.players[1].loot == () and g.players[1].ship == ("Necromancer",)


@pytest.mark.parametrize(("taker", "discarded"), [
    ("Explorer", False),  # 10
    ("Necromancer", False),  # 19
    ("Freed Prisoner", False),  # 20: not "ranked above 20"
    ("Bosun", True),  # 21
])
def test_stormy_hook_discards_only_a_taker_ranked_above_20(taker: str, discarded: bool) -> None:
    """Stormy hook dusk: the taker is discarded only if ranked above 20 (20 and below go to the ship)."""
    g = position(STORMY, [{"hand": [taker, *FILLER]}, {"hand": ["Preacher"]}, {"hand": ["Barkeep"]}],
                 [["hook", "amulet", "chest"]])
    g = answer(g, taker)
    assert g.island[-1] == (0, taker)
    g = answer(g, "hook")
    if g.decision is not None and g.decision.kind == "order_abilities":
        g = answer(g, "hook")
    at(g, "choose_loot", 2)  # the Barkeep (8) picks next
    g = answer(g, "amulet")
    at(g, "play_character", 0)
    assert g.players[0].loot == ("hook",)
    if discarded:
        assert g.players[0].ship == () and g.players[0].graveyard == (taker,)
    else:
        assert g.players[0].ship == (taker,) and g.players[0].graveyard == ()
    assert g.players[1].loot == ("chest",) and g.players[2].loot == ("amulet",)
    assert reps(g) == [0, 2, 4]


def stormy_hook_anchor(rules: lt.Rules) -> lt.Game:
    """Voyage 1's last day: seat 0 holds a hook, sits out (no hand) with Treasurer and Bosun aboard."""
    g = position(rules, [{"ship": ["Treasurer", "Bosun"], "loot": ["hook"]}, NECRO, BOSUN],
                 [["map", "map", "map"]], voyage=1, day=4)
    at(g, "may", 0)  # anchor: the hook's keep question
    return g


def test_stormy_hook_declined_gains_three() -> None:
    """Stormy hook anchor: declining the keep gains 3; the whole ship goes to the graveyard."""
    g = answer(stormy_hook_anchor(STORMY), "no")
    at(g, "play_character", 0)
    assert (g.voyage, g.day) == (2, 1)
    assert scores(g) == [3, 0, 0]
    assert g.players[0].ship == ()
    assert sorted(g.players[0].graveyard) == ["Bosun", "Treasurer"]
    assert g.players[0].loot == ()


def test_stormy_hook_keeps_a_character_for_the_next_voyage() -> None:
    """Stormy hook anchor: keeping a ship character gains nothing; it stays aboard for voyage 2."""
    g = answer(stormy_hook_anchor(STORMY), "yes")
    at(g, "choose_character", 0)
    assert sorted(g.legal_keys()) == ["Bosun", "Treasurer"]
    g = answer(g, "Treasurer")
    at(g, "play_character", 0)
    assert (g.voyage, g.day) == (2, 1)
    assert scores(g) == [0, 0, 0]
    assert g.players[0].ship == ("Treasurer",)
    assert g.players[0].graveyard == ("Bosun",)


# ====================================================================== stormy map
@pytest.mark.parametrize("voyage", [1, 2])
def test_stormy_maps_stay_with_their_owner_between_voyages(voyage: int) -> None:
    """Stormy map anchor (not last voyage): maps stay in the owner's loot, unscored; the bag does not get them."""
    day = (4, 5)[voyage - 1]
    g = position(STORMY, [{"ship": ["Bosun"], "loot": ["map"] * 4}, NECRO, BOSUN],
                 [["amulet", "amulet", "amulet"]], voyage=voyage, day=day)
    assert maps_outside(g) == 6
    at(g, "play_character", 0)
    assert (g.voyage, g.day) == (voyage + 1, 1)
    assert g.players[0].loot == ("map",) * 4
    assert maps_outside(g) == 6  # the four maps never went back to the bag
    assert scores(g) == [0, 4, 2]  # maps score nothing yet; amulets pay 1 per space right of the token, +1
    assert g.players[0].graveyard == ("Bosun",) and g.players[0].ship == ()


@pytest.mark.parametrize(("maps", "expected"), [(1, 0), (2, 7), (3, 12), (4, 14), (5, 19)])
def test_stormy_maps_score_in_sets_after_the_last_voyage(maps: int, expected: int) -> None:
    """Stormy map anchor, last voyage: maps score in calm-sized sets (2 for 7, 3 for 12): 4 maps 14."""
    g = last_day(STORMY, [{"ship": ["Bosun"], "loot": ["map"] * maps}, NECRO, BOSUN],
                 ["amulet", "amulet", "amulet"], reputation=(0, 2, 4))
    assert g.is_over
    # the others each hold one amulet: 1 per space right of their token, plus 1
    assert scores(g) == [expected, 4, 2]


# ====================================================================== stormy chest
def chest_last_day(maps: int) -> lt.Game:
    """The final day: seat 0 (no hand) holds a stormy chest and ``maps`` maps."""
    return last_day(STORMY, [{"ship": ["Bosun"], "loot": ["chest", *["map"] * maps]}, NECRO, BOSUN],
                    ["barrel", "barrel", "barrel"])


def test_stormy_chest_trades_a_map_for_eight_before_maps_score() -> None:
    """E8: ordered before the maps, the chest's "may" yes returns a map for 8: 8 + 2 maps 7."""
    g = chest_last_day(3)
    at(g, "order_abilities", 0)
    g = answer(g, "chest")
    at(g, "may", 0)
    g = answer(g, "yes")
    assert g.is_over
    assert scores(g)[0] == 15
    assert g.players[0].score == 15


def test_stormy_chest_after_the_maps_trades_a_map_already_scored() -> None:
    """E8: the holder may score the 3 maps first (12) and then trade one of them for 8: 20."""
    g = answer(chest_last_day(3), "map", "yes")
    assert g.is_over
    assert scores(g)[0] == 20


def test_stormy_chest_declined_gains_four_and_keeps_the_map() -> None:
    """Stormy chest "may" no: gain 4, and all 3 maps score 12, in either order (E8)."""
    for first in ("chest", "map"):
        g = answer(chest_last_day(3), first)
        at(g, "may", 0)
        g = answer(g, "no")
        assert g.is_over
        assert scores(g)[0] == 16


def test_stormy_chest_without_a_map_gains_four_without_asking() -> None:
    """R1: with no map to return the chest asks nothing (nothing to act on) and gains 4."""
    g = chest_last_day(0)
    assert g.is_over, (g.decision, g.legal_keys() if g.decision else ())
    assert scores(g)[0] == 4


def test_stormy_chest_ignores_another_players_maps() -> None:
    """R1: the chest looks only at maps its holder holds: another seat's maps bring no question, just +4."""
    g = last_day(STORMY, [{"ship": ["Bosun"], "loot": ["chest"]}, {"hand": ["Necromancer"], "loot": ["map", "map"]},
                          BOSUN], ["barrel", "barrel", "barrel"])
    assert g.is_over, (g.decision, g.legal_keys() if g.decision else ())
    assert scores(g) == [4, 7, 0]


def test_stormy_chest_trade_returns_the_map_to_the_bag_mid_game() -> None:
    """Stormy chest ordered before a non-last voyage's map keep: the traded map goes to the bag, the other stays."""
    g = position(STORMY, [{"ship": ["Bosun"], "loot": ["chest", "map", "map"]}, NECRO, BOSUN],
                 [["barrel", "barrel", "barrel"]], voyage=1, day=4)
    assert maps_outside(g) == 8
    g = answer(g, "chest")  # before the maps' keep (E8)
    at(g, "may", 0)
    g = answer(g, "yes")
    at(g, "play_character", 0)
    assert (g.voyage, g.day) == (2, 1)
    assert scores(g)[0] == 8
    assert g.players[0].loot == ("map",)
    assert maps_outside(g) == 9


# ====================================================================== stormy amulet
@pytest.mark.parametrize(("reputation", "expected"), [
    ((0, 2, 4), 6),
    ((2, 0, 4), 4),
    ((5, 0, 2), 1),
])
def test_stormy_amulet_pays_one_per_space_right_of_your_token_plus_one(
        reputation: tuple[int, ...], expected: int) -> None:
    """Stormy amulet anchor: 1 per space right of your reputation, then 1 (space 0: 6, space 5: 1)."""
    g = last_day(STORMY, [{"ship": ["Bosun"], "loot": ["amulet"]}, NECRO, BOSUN], ["map", "map", "map"],
                 reputation=reputation)
    assert g.is_over
    assert reps(g) == list(reputation)
    assert scores(g) == [expected, 0, 0]


def test_two_stormy_amulets_each_pay() -> None:
    """Stormy amulet anchor: each amulet pays on its own (space 3: 2 + 1 each, so 6 for two)."""
    g = last_day(STORMY, [{"ship": ["Bosun"], "loot": ["amulet", "amulet"]}, NECRO, BOSUN],
                 ["map", "map", "map"], reputation=(3, 0, 1))
    assert g.is_over
    assert scores(g)[0] == 6


# ====================================================================== stormy saber
def test_stormy_saber_discards_a_victim_whose_owner_loses_one_reputation() -> None:
    """Stormy saber dusk: discard another player's island character, then its owner loses 1 reputation."""
    g = position(STORMY, [{"hand": ["Collector", *FILLER]}, NECRO, BOSUN], [["saber", "amulet", "chest"]])
    g = answer(g, "Collector")
    assert g.island == ((1, "Necromancer"), (2, "Bosun"), (0, "Collector"))
    g = answer(g, "saber")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Necromancer@1", "Bosun@2"}
    g = answer(g, "Bosun@2")
    at(g, "choose_loot", 1)  # the Bosun is gone: the Necromancer picks next
    assert reps(g) == [0, 2, 3]
    assert g.players[2].graveyard == ("Bosun",) and g.players[2].ship == ()
    g = answer(g, "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [0, 2, 3]
    assert coins(g) == [0, 0, 0]
    assert g.players[0].loot == ("saber",) and g.players[0].ship == ("Collector",)
    assert g.players[1].loot == ("amulet",) and g.players[1].ship == ("Necromancer",)
    assert g.players[2].loot == () and g.players[2].graveyard == ("Bosun",)


def test_stormy_saber_victim_at_leftmost_space_pays_one_doubloon() -> None:
    """R28: the saber victim's owner at space 0 cannot lose reputation, so loses 1 doubloon instead."""
    g = position(STORMY, [{"hand": ["Collector", *FILLER]}, NECRO, {"hand": ["Bosun"], "doubloons": 3}],
                 [["saber", "amulet", "chest"]], reputation=(2, 4, 0))
    g = answer(g, "Collector", "saber", "Bosun@2", "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [2, 4, 0]
    assert coins(g) == [0, 0, 2]
    assert g.players[2].graveyard == ("Bosun",)


# ====================================================================== stormy barrel
def test_stormy_barrel_gains_one_reputation_when_taken() -> None:
    """Stormy barrel dusk: +1 reputation when taken."""
    g = position(STORMY, [{"hand": ["Collector", *FILLER]}, NECRO, BOSUN], [["barrel", "amulet", "chest"]])
    g = answer(g, "Collector", "barrel", "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [1, 2, 4]
    assert coins(g) == [0, 0, 0]
    assert g.players[0].loot == ("barrel",)


def test_stormy_barrel_at_rightmost_space_gains_one_doubloon() -> None:
    """R28: taking a stormy barrel at the rightmost space gains 1 doubloon instead of reputation."""
    g = position(STORMY, [{"hand": ["Collector", *FILLER]}, NECRO, BOSUN], [["barrel", "amulet", "chest"]],
                 reputation=(5, 0, 2))
    g = answer(g, "Collector", "barrel", "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [5, 0, 2]
    assert coins(g) == [1, 0, 0]


@pytest.mark.parametrize(("barrels", "start", "expected"), [
    (1, 0, 0),  # -1 + 1, netted (R3)
    (1, 5, 5),
    (2, 0, 2),  # each pays 1
    (3, 0, 6),  # each pays 2
    (4, 1, 13),  # each pays 3
])
def test_stormy_barrel_anchor_each_pays_barrels_held_minus_one(barrels: int, start: int, expected: int) -> None:
    """R3: stormy barrel anchor: each loses 1 then gains 1 per barrel held, so n barrels pay n-1 each."""
    g = last_day(STORMY, [{"ship": ["Bosun"], "loot": ["barrel"] * barrels, "doubloons": start}, NECRO, BOSUN],
                 ["map", "map", "map"])
    assert g.is_over
    assert scores(g)[0] == expected


# ====================================================================== stormy relic
def test_stormy_relic_loses_one_reputation_when_taken() -> None:
    """Stormy relic dusk: -1 reputation when taken; coins unchanged."""
    g = position(STORMY, [{"hand": ["Collector", *FILLER], "doubloons": 3}, NECRO, BOSUN],
                 [["relic", "amulet", "chest"]], reputation=(3, 0, 1))
    g = answer(g, "Collector", "relic", "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [2, 0, 1]
    assert coins(g) == [3, 0, 0]
    assert g.players[0].loot == ("relic",)


@pytest.mark.parametrize(("start", "after"), [(3, 2), (0, 0)])
def test_stormy_relic_at_leftmost_space_costs_one_doubloon(start: int, after: int) -> None:
    """R28/R2: taking a stormy relic at space 0 costs 1 doubloon instead (floored at 0)."""
    g = position(STORMY, [{"hand": ["Collector", *FILLER], "doubloons": start}, NECRO, BOSUN],
                 [["relic", "amulet", "chest"]])
    g = answer(g, "Collector", "relic", "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [0, 2, 4]
    assert coins(g) == [after, 0, 0]


def test_stormy_relic_anchor_loses_three_each() -> None:
    """Stormy relic anchor: -3 per relic (10 coins, two relics: 4)."""
    g = last_day(STORMY, [{"ship": ["Bosun"], "loot": ["relic", "relic"], "doubloons": 10}, NECRO, BOSUN],
                 ["map", "map", "map"])
    assert g.is_over
    assert scores(g)[0] == 4


def test_stormy_relic_nets_with_chest_from_zero_coins() -> None:
    """R3: at 0 coins a stormy relic (-3) and a map-less chest (+4) net +1."""
    g = last_day(STORMY, [{"ship": ["Bosun"], "loot": ["relic", "chest"]}, NECRO, BOSUN], ["map", "map", "map"])
    assert g.is_over, (g.decision, g.legal_keys() if g.decision else ())
    assert scores(g)[0] == 1


# ====================================================================== automa saber
def test_automa_saber_discards_the_lowest_ranked_character_in_an_opponents_ship() -> None:
    """Automa saber dusk: discard the lowest-ranked character in any opponent's ship (never your own)."""
    g = position(AUTOMA, [{"hand": ["Collector", *FILLER], "ship": ["Cabin Boy"]},
                          {"hand": ["Necromancer"], "ship": ["Treasurer"]},
                          {"hand": ["Bosun"], "ship": ["Gambler", "Explorer"]}],
                 [["saber", "amulet", "chest"]])
    g = answer(g, "Collector", "saber")
    if g.decision is not None and g.decision.kind == "choose_character":
        assert g.legal_keys() == ("Explorer@2",)
        g = answer(g, "Explorer@2")
    at(g, "choose_loot", 2)  # nobody on the island was touched: the Bosun picks next
    assert g.island == ((1, "Necromancer"), (2, "Bosun"))
    assert g.players[2].ship == ("Gambler",) and g.players[2].graveyard == ("Explorer",)
    g = answer(g, "amulet")
    at(g, "play_character", 0)
    assert g.players[0].ship == ("Cabin Boy", "Collector") and g.players[0].graveyard == ()
    assert g.players[1].ship == ("Treasurer", "Necromancer") and g.players[1].graveyard == ()
    assert g.players[2].ship == ("Gambler", "Bosun") and g.players[2].graveyard == ("Explorer",)
    assert coins(g) == [0, 0, 2] and reps(g) == [0, 2, 4]  # seat 2's Bosun was paid 2 for the Explorer by day


def test_automa_saber_picks_the_lowest_across_both_opponents() -> None:
    """Automa saber: the lowest rank over all opponents' ships (seat 1's Treasurer 32 below seat 2's 35)."""
    g = position(AUTOMA, [{"hand": ["Collector", *FILLER]},
                          {"hand": ["Necromancer"], "ship": ["Treasurer", "Quartermaster"]},
                          {"hand": ["Bosun"], "ship": ["Aristocrat"]}],
                 [["saber", "amulet", "chest"]])
    g = answer(g, "Collector", "saber")
    if g.decision is not None and g.decision.kind == "choose_character":
        assert g.legal_keys() == ("Treasurer@1",)
        g = answer(g, "Treasurer@1")
    at(g, "choose_loot", 2)
    assert g.players[1].ship == ("Quartermaster",) and g.players[1].graveyard == ("Treasurer",)
    assert g.players[2].ship == ("Aristocrat",) and g.players[2].graveyard == ()
    assert coins(g) == [0, 0, 0]


def test_automa_saber_gains_three_when_no_opponent_has_a_ship_card() -> None:
    """Automa saber: no character in an opponent's ship (own ship ignored) gains 3; nothing discarded."""
    g = position(AUTOMA, [{"hand": ["Collector", *FILLER], "ship": ["Cabin Boy"]}, NECRO, BOSUN],
                 [["saber", "amulet", "chest"]])
    g = answer(g, "Collector", "saber")
    at(g, "choose_loot", 2)  # no victim chosen on the island either
    assert g.island == ((1, "Necromancer"), (2, "Bosun"))
    assert coins(g) == [3, 0, 0]
    g = answer(g, "amulet")
    at(g, "play_character", 0)
    assert coins(g) == [3, 0, 0]
    assert g.players[0].ship == ("Cabin Boy", "Collector")
    assert all(p.graveyard == () for p in g.players)
    assert g.players[1].ship == ("Necromancer",) and g.players[2].ship == ("Bosun",)


# ====================================================================== automa hook, amulet, barrel
def test_automa_hook_declined_gains_four() -> None:
    """Automa hook anchor: declining the keep gains 4; the ship empties to the graveyard."""
    g = answer(stormy_hook_anchor(AUTOMA), "no")
    at(g, "play_character", 0)
    assert (g.voyage, g.day) == (2, 1)
    assert scores(g) == [4, 0, 0]
    assert g.players[0].ship == ()
    assert sorted(g.players[0].graveyard) == ["Bosun", "Treasurer"]


def test_automa_hook_keeps_a_character_for_the_next_voyage() -> None:
    """Automa hook anchor: keeping a ship character gains nothing; it stays aboard for voyage 2."""
    g = answer(stormy_hook_anchor(AUTOMA), "yes")
    at(g, "choose_character", 0)
    g = answer(g, "Bosun")
    at(g, "play_character", 0)
    assert scores(g) == [0, 0, 0]
    assert g.players[0].ship == ("Bosun",) and g.players[0].graveyard == ("Treasurer",)


def test_automa_hook_has_no_dusk_effect() -> None:
    """Automa hook: no dusk ability, so a Cook (26) taking it stays and takes its second token (S4)."""
    g = position(AUTOMA, [{"hand": ["Cook", *FILLER]}, NECRO, BOSUN], [["hook", "amulet", "chest"]])
    g = answer(g, "Cook", "hook")
    at(g, "choose_loot", 0)  # the Cook's second token
    g = answer(g, "amulet")
    at(g, "play_character", 0)
    assert g.players[0].loot == ("hook", "amulet") and g.players[0].ship == ("Cook",)
    assert g.players[2].loot == ("chest",) and g.players[1].loot == ()


@pytest.mark.parametrize(("loot", "start", "expected"), [
    (["amulet"], 0, 3),
    (["amulet", "amulet"], 0, 6),
    (["barrel"], 0, 1),
    (["barrel", "barrel", "barrel"], 0, 3),
    (["chest"], 0, 5),  # calm chest under automa rules
    (["relic"], 4, 1),  # calm relic under automa rules
])
def test_automa_loot_anchor_values(loot: list[str], start: int, expected: int) -> None:
    """Automa amulet +3 and barrel +1 at anchor (fixed, whatever your reputation); other kinds stay calm."""
    g = last_day(AUTOMA, [{"ship": ["Bosun"], "loot": loot, "doubloons": start}, NECRO, BOSUN],
                 ["map", "map", "map"], reputation=(5, 0, 2))
    assert g.is_over
    assert scores(g)[0] == expected


def test_automa_barrel_gains_one_reputation_when_taken() -> None:
    """Automa barrel dusk: +1 reputation when taken."""
    g = position(AUTOMA, [{"hand": ["Collector", *FILLER]}, NECRO, BOSUN], [["barrel", "amulet", "chest"]])
    g = answer(g, "Collector", "barrel", "amulet")
    at(g, "play_character", 0)
    assert reps(g) == [1, 2, 4]
    assert coins(g) == [0, 0, 0]
    assert g.players[0].loot == ("barrel",)
