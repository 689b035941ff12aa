"""Focused positions: featured cards sit where they act, and games reach their abilities together."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia.testing import check_invariants, games, positions
from libertalia.testing.focus import (
    TIMINGS,
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


@pytest.mark.parametrize(("featuring", "players", "phase", "message"), [
    (["Midshipman"], 2, None, "neutral card"),
    (["Kraken"], 3, None, "neither a character nor a loot kind"),
    (["Wind Nimph"], 3, None, "did you mean"),
    (["Wind Nymph"], 1, None, "solo"),
    (["Scout"], 3, "moon", "Scout has no moon ability"),
    ([("Scout", 0), ("Captain", 0)], 3, None, "no seating"),
    ([("Scout", 5)], 3, None, "not a seat"),
    ([("saber", 1)], 3, None, "today's loot"),
    (["Cook", "Explorer", "Gunner"], 2, None, "no seating"),
    ([], 3, None, "names no card"),
])
def test_features_that_cannot_act_are_refused(featuring: list[str | tuple[str, int]], players: int,
                                              phase: str | None, message: str) -> None:
    """A feature that cannot be put where it acts is a ValueError naming it, when the strategy is made."""
    with pytest.raises(ValueError, match=message):
        focused_positions(_rules("galecrest"), players, featuring, phase)


def test_phase_without_featuring_is_refused() -> None:
    """``phase`` only picks the timing of featured cards."""
    with pytest.raises(ValueError, match="featuring"):
        positions(_rules("galecrest"), 3, phase="moon")  # type: ignore[call-overload]
