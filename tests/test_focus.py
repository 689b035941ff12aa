"""Focused positions: featured cards sit where they act, and games reach their abilities together."""

from __future__ import annotations

import functools
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia.testing import check_invariants, games, positions
from libertalia.testing.focus import (
    TIMINGS,
    Feature,
    Featured,
    FocusedPosition,
    Placement,
    acted,
    focused_position,
    interactions,
)
from libertalia.testing.focus import positions as focused_positions


@functools.cache
def _rules(edition: str) -> lt.Rules:
    return lt.load_rules(edition)


def _characters(edition: str) -> list[str]:
    return [c.name for c in _rules(edition).characters if not c.neutral]


EVERY_CHARACTER = [(edition, name) for edition in ("galecrest", "classic") for name in _characters(edition)]


def _first_timing(rules: lt.Rules, name: str) -> str:
    return next(t for t in TIMINGS if rules.card(name).has(t))


def _revealed(game: lt.Game) -> str:
    return next(e.text for e in game.events if e.kind == "reveal")


@pytest.mark.parametrize(("edition", "card"), EVERY_CHARACTER)
@settings(max_examples=4)
@given(data=st.data())
def test_featuring_puts_every_character_where_it_acts(edition: str, card: str, data: st.DataObject) -> None:
    """A sun/dusk card is its seat's play and reaches the island; a moon/anchor card is aboard."""
    rules = _rules(edition)
    lo, hi = rules.board.players
    position = data.draw(positions(rules, data.draw(st.integers(lo, hi)), featuring=[card]))
    check_invariants(lt.new_game(rules, position.players, position.seed, setup=position.setup))
    (placed,) = position.featured
    seat = placed.seat
    assert seat is not None and placed.timing == _first_timing(rules, card)
    mine = position.setup["players"][seat]
    if placed.timing in ("sun", "dusk"):
        assert placed.zone == "play" and position.plays[seat] == card and card in mine["hand"]
        game = position.start(rules)
        assert f"{card} (seat {seat})" in _revealed(game)
        check_invariants(game)
    else:
        assert placed.zone == "ship" and card in mine["ship"]
        if placed.timing == "anchor":
            assert position.setup["day"] == rules.board.voyage_days[position.setup["voyage"] - 1]
    others = [p for i, p in enumerate(position.setup["players"]) if i != seat]
    assert not any(card in p["hand"] + p["ship"] + p["graveyard"] for p in others)


@pytest.mark.parametrize("kind", [kind for kind, _ in _rules("galecrest").board.bag])
@settings(max_examples=5)
@given(data=st.data())
def test_featuring_puts_loot_where_it_acts(kind: str, data: st.DataObject) -> None:
    """A dusk token lies in today's loot, any other is held; the bag still balances."""
    rules = _rules("galecrest")
    position = data.draw(focused_positions(rules, None, [kind]))
    (placed,) = position.featured
    if rules.loot_spec(kind).has("dusk"):
        assert placed.zone == "day loot" and placed.seat is None and kind in position.setup["loot"][0]
    else:
        assert placed.seat is not None and kind in position.setup["players"][placed.seat]["loot"]
    check_invariants(position.start(rules))


@given(data=st.data())
def test_two_day_cards_go_to_two_seats_and_both_are_played(data: st.DataObject) -> None:
    """Two sun cards never share a seat (a seat plays one card); both reach the island."""
    rules = _rules("galecrest")
    position = data.draw(focused_positions(rules, None, ["Gunner", "Captain"]))
    gunner, captain = position.featured
    assert gunner.seat != captain.seat
    island = _revealed(position.start(rules))
    assert f"Gunner (seat {gunner.seat})" in island and f"Captain (seat {captain.seat})" in island


@given(data=st.data())
def test_pinned_cards_share_a_ship(data: st.DataObject) -> None:
    """Pinning two moon cards to one seat puts both in that seat's ship."""
    rules = _rules("galecrest")
    position = data.draw(focused_positions(rules, 3, [("Witch", 2), ("Freed Prisoner", 2)]))
    assert {"Witch", "Freed Prisoner"} <= set(position.setup["players"][2]["ship"])


@given(game=interactions(_rules("galecrest"), [("Witch", 0), ("Wind Nymph", 0)]))
def test_interactions_stop_once_both_abilities_ran(game: lt.Game) -> None:
    """The Witch borrowed (a borrow event of seat 0) and the Wind Nymph logged an event of its own."""
    events = game.events
    assert any(e.kind == "borrow" and e.seat == 0 for e in events)
    assert any(e.source == "Wind Nymph" and e.kind != "play" for e in events)
    check_invariants(game)


@given(game=interactions(_rules("galecrest"), ["Scout", "Barkeep"]))
def test_interactions_across_seats(game: lt.Game) -> None:
    """A sun card and a moon card both logged events by the time the game is handed over."""
    sources = {e.source for e in game.events if e.kind != "play"}
    assert {"Scout", "Barkeep"} <= sources


@given(data=st.data(), players=st.integers(2, 6))
def test_witch_borrows_a_freed_prisoner_while_two_wind_nymphs_clash(data: st.DataObject, players: int) -> None:
    """Witch and Freed Prisoner aboard one ship, a Wind Nymph in two ships: every step keeps the invariants."""
    rules = _rules("galecrest")
    featuring = [("Witch", 0), ("Freed Prisoner", 0), ("Wind Nymph", 0), ("Wind Nymph", 1)]
    game = data.draw(games(rules, players, max_steps=0, featuring=featuring))
    start = game
    for _ in range(60):
        if game.decision is None:
            break
        game = game.choose(data.draw(st.sampled_from(game.legal_keys())))
        check_invariants(game, start)


def test_without_takes_one_card_out_of_the_same_position() -> None:
    """``without`` removes a ship card, and swaps a played card for a stand-in with no day ability."""
    rules = _rules("galecrest")
    position = focused_position(rules, 3, [("Captain", 0), ("Barkeep", 1)], rng=random.Random(4))
    no_barkeep = position.without(1, rules)
    assert "Barkeep" not in no_barkeep.setup["players"][1]["ship"]
    assert [p.name for p in no_barkeep.featured] == ["Captain"]
    no_captain = position.without(0, rules)
    stand_in = no_captain.plays[0]
    assert stand_in != "Captain" and stand_in in no_captain.setup["players"][0]["hand"]
    assert not rules.card(stand_in).has("sun") and not rules.card(stand_in).has("dusk")
    assert "Captain" in position.setup["players"][0]["hand"]  # the original is untouched
    for variant in (no_barkeep, no_captain):
        check_invariants(variant.start(rules))


def test_the_same_random_builds_the_same_position() -> None:
    """``focused_position`` depends on its ``Random`` only: the sweep's positions are reproducible."""
    rules = _rules("classic")
    one = focused_position(rules, None, ["Granny Wata", "Spanish Governor"], rng=random.Random(9))
    two = focused_position(rules, None, ["Granny Wata", "Spanish Governor"], rng=random.Random(9))
    assert one == two and isinstance(one, FocusedPosition)


def test_acted_credits_a_borrow_to_the_borrower_of_that_seat() -> None:
    """A borrowing names its borrower and seat: ``acted`` gives it to that seat's borrower only."""
    rules = _rules("galecrest")
    game = lt.new_game(rules, 2, setup={"players": [{"hand": ["Cook", "Scout"], "ship": ["Witch", "Barkeep"]},
                                                    {"hand": ["Cook", "Scout"]}]})
    game = game.play_out([lt.agents.RandomAgent(0), lt.agents.RandomAgent(1)])
    assert acted(game.events, Placement("Witch", False, "moon", "ship", 0), rules)
    assert not acted(game.events, Placement("Witch", False, "moon", "ship", 1), rules)


@settings(max_examples=30)
@given(data=st.data())
def test_an_apprentice_is_played_while_a_carpenter_is_in_the_same_ship(data: st.DataObject) -> None:
    """Per-card zones and one seat label: the Apprentice is its seat's play, the Carpenter is aboard there."""
    rules = _rules("galecrest")
    position = data.draw(positions(rules, None, featuring=[("Apprentice", "play", "a"), ("Carpenter", "ship", "a")]))
    apprentice, carpenter = position.featured
    seat = apprentice.seat
    assert seat is not None and carpenter.seat == seat
    assert (apprentice.zone, carpenter.zone, apprentice.timing, carpenter.timing) == ("play", "ship", None, None)
    mine = position.setup["players"][seat]
    assert position.plays[seat] == "Apprentice" and "Apprentice" in mine["hand"] and "Carpenter" in mine["ship"]
    game = position.start(rules)
    assert f"Apprentice (seat {seat})" in _revealed(game)
    while game.decision is not None and game.phase in ("select", "day"):  # on to the end of the sun
        game = game.choose(game.legal_keys()[0])
    check_invariants(game)
    borrowed = [e for e in game.events if e.kind == "borrow" and e.source == "Apprentice"]
    assert [e.seat for e in borrowed] == [seat]  # the Carpenter is always there to borrow from


@given(position=focused_positions(_rules("galecrest"), 4, [("Wind Nymph", "ship", "x"), ("Witch", "ship", "x"),
                                                            ("Cook", "play", "y")]))
def test_different_labels_are_different_seats(position: FocusedPosition) -> None:
    """Features of one label share a drawn seat, and two labels never share one."""
    nymph, witch, cook = position.featured
    assert nymph.seat == witch.seat != cook.seat


def test_labelled_seats_are_drawn_not_fixed() -> None:
    """A label is a seat drawn per position: over a few seeds it lands on more than one seat."""
    rules = _rules("galecrest")
    drawn = {focused_position(rules, 4, [("Apprentice", "play", "a"), ("Carpenter", "ship", "a")],
                              rng=random.Random(i)).featured[0].seat for i in range(20)}
    assert len(drawn) > 1


@given(data=st.data())
def test_a_card_featured_in_the_hand_is_not_played(data: st.DataObject) -> None:
    """``hand``: the card is held, its seat plays another, so it stays out of the island."""
    rules = _rules("galecrest")
    position = data.draw(focused_positions(rules, 3, [("Wind Nymph", "hand", 1), ("Captain", "island", 1)]))
    nymph, captain = position.featured
    assert (nymph.zone, captain.zone) == ("hand", "play")  # "island" is said "play"
    assert "Wind Nymph" in position.setup["players"][1]["hand"] and position.plays[1] == "Captain"
    assert "Wind Nymph (seat" not in _revealed(position.start(rules))


@given(data=st.data())
def test_each_entry_may_name_its_own_timing(data: st.DataObject) -> None:
    """A timing per card: the Carpenter's anchor (aboard, on the last day) beside a Witch for the moon."""
    rules = _rules("galecrest")
    position = data.draw(focused_positions(rules, 3, [("Carpenter", "anchor"), ("Witch", "moon")]))
    carpenter, witch = position.featured
    assert (carpenter.timing, carpenter.zone, witch.timing, witch.zone) == ("anchor", "ship", "moon", "ship")
    assert position.setup["day"] == rules.board.voyage_days[position.setup["voyage"] - 1]


def test_a_zone_with_a_timing_counts_only_that_ability() -> None:
    """``Feature(..., timing=)``: aboard for its sun ability, so only a borrowed sun counts as it acting."""
    rules = _rules("galecrest")
    feature = Feature("Carpenter", "ship", seat=0, timing="sun")
    position = focused_position(rules, 2, [feature], rng=random.Random(1))
    (placed,) = position.featured
    assert (placed.zone, placed.timing, placed.seat) == ("ship", "sun", 0)
    game = lt.new_game(rules, 2, setup={"voyage": 1, "day": 4, "players": [
        {"hand": ["Apprentice", "Cook"], "ship": ["Carpenter"], "doubloons": 9}, {"hand": ["Scout", "Cook"]}]})
    game = game.play_out([lt.agents.FirstOptionAgent(), lt.agents.FirstOptionAgent()])
    anchor = [e for e in game.events if e.source == "Carpenter" and e.timing == "anchor"]
    assert anchor and not acted(anchor, placed, rules)  # its own anchor is not the sun ability featured
    assert acted(game.events, placed, rules)  # the Apprentice's borrowed sun is
    assert acted(anchor, attrs.evolve(placed, timing=None), rules)


def test_old_entries_and_phase_still_work() -> None:
    """Names, (name, seat) pairs and ``phase=`` build the same positions as before per-card placement."""
    rules = _rules("galecrest")
    position = focused_position(rules, 3, ["Barkeep", ("Witch", 2)], rng=random.Random(3), phase="moon")
    assert [(p.name, p.zone, p.timing) for p in position.featured] == [("Barkeep", "ship", "moon"),
                                                                      ("Witch", "ship", "moon")]
    assert position.featured[1].seat == 2
    same = focused_position(rules, 3, [Feature("Barkeep"), Feature("Witch", seat=2)], rng=random.Random(3),
                            phase="moon")
    assert same == position


def test_without_takes_a_hand_card_out() -> None:
    """``without`` on a hand feature removes the card from the hand and keeps the seat's play."""
    rules = _rules("galecrest")
    position = focused_position(rules, 3, [("Wind Nymph", "hand", 0)], rng=random.Random(2))
    alone = position.without(0, rules)
    assert "Wind Nymph" not in alone.setup["players"][0]["hand"] and alone.plays == position.plays
    check_invariants(alone.start(rules))


@pytest.mark.parametrize(("featuring", "players", "phase", "message"), [
    (["Midshipman"], 2, None, "neutral card"),
    (["Kraken"], 3, None, "neither a character nor a loot kind"),
    (["Wind Nimph"], 3, None, "did you mean"),
    (["Wind Nymph"], 1, None, "solo"),
    (["Scout"], 3, "moon", "Scout has no moon ability"),
    ([("Scout", 0), ("Captain", 0)], 3, None, "both played today by seat 0"),
    ([("Scout", 5)], 3, None, "not a seat"),
    ([("saber", 1)], 3, None, "today's loot"),
    (["Cook", "Explorer", "Gunner"], 2, None, "no seating"),
    ([], 3, None, "names no card"),
    ([("Apprentice", "play", "a"), ("Carpenter", "play", "a")], 3, None, "both played today by seat 'a'"),
    ([("Wind Nymph", "ship", "a"), ("Wind Nymph", "ship", "a")], 3, None, "2 times in seat 'a'"),
    ([("Cook", "play", "a"), ("Scout", "hand", "b"), ("Witch", "ship", "c")], 2, None, "3 seat labels"),
    ([("Apprentice", "a")], 3, None, "a seat label comes third"),
    ([("Apprentice", "shp")], 3, None, 'did you mean "ship"'),
    ([("Apprentice", "loot")], 3, None, "it goes to 'play', 'hand', 'ship'"),
    ([("map", "ship")], 3, None, "held \\('loot'\\) or lies in today's loot"),
    ([("saber", "day loot", "a")], 3, None, "no seat's"),
    ([("Carpenter", "ship", -1)], 3, None, "seat number"),
    ([Feature("Carpenter", "ship", timing="moon")], 3, None, "Carpenter has no moon ability"),
    ([("Carpenter", "ship", 0, 1)], 3, None, "a feature is a card name"),
])
def test_features_that_cannot_act_are_refused(featuring: list[Featured], players: int,
                                              phase: str | None, message: str) -> None:
    """A feature that cannot be put where it acts is a ValueError naming it, when the strategy is made."""
    with pytest.raises(ValueError, match=message):
        focused_positions(_rules("galecrest"), players, featuring, phase)


def test_phase_without_featuring_is_refused() -> None:
    """``phase`` only picks the timing of featured cards."""
    with pytest.raises(ValueError, match="featuring"):
        positions(_rules("galecrest"), 3, phase="moon")  # type: ignore[call-overload]
