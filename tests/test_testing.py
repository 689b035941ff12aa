"""``check_invariants`` catches every kind of broken state, and passes legal ones."""

from __future__ import annotations

import functools
from typing import Any

import attrs
import pytest

import libertalia as lt
from libertalia.agents import RandomAgent
from libertalia.state import PlayerState
from libertalia.testing import cards_by_owner, check_invariants
from tests.helpers import galecrest


@functools.cache
def _midgame() -> lt.Game:
    """A 3-player game in voyage 2 with cards in hands, ships and graveyards, and loot held."""
    rules = galecrest()
    game = lt.new_game(rules, 3, seed=11)
    bots = [RandomAgent(i) for i in range(3)]
    while game.voyage < 2 or game.day < 3 or not all(p.ship and p.loot for p in game.players):
        d = game.decision
        assert d is not None
        game = game.choose(bots[d.player].choose(game.observation(d.player), d))
    assert any(p.graveyard for p in game.players)
    return game


def _with_seat(game: lt.Game, seat: int, **changes: Any) -> lt.Game:
    seats = list(game.state.seats)
    seats[seat] = attrs.evolve(seats[seat], **changes)
    return lt.Game(game.rules, attrs.evolve(game.state, seats=tuple(seats)))


def _with(game: lt.Game, **changes: Any) -> lt.Game:
    return lt.Game(game.rules, attrs.evolve(game.state, **changes))


def _broken(game: lt.Game, match: str) -> None:
    with pytest.raises(AssertionError, match=match):
        check_invariants(game)


def _p(game: lt.Game, seat: int) -> PlayerState:
    return game.state.seats[seat]


def test_a_legal_midgame_passes() -> None:
    """A real game mid-voyage keeps every invariant, and each seat owns exactly the cards dealt."""
    game = _midgame()
    check_invariants(game)
    dealt = {c.name for c in game.rules.characters if not c.neutral} - set(game.state.undealt)
    assert all(set(cards) == dealt for cards in cards_by_owner(game))


def test_a_card_dropped_from_a_hand_is_caught() -> None:
    """A dealt character that is in no zone of its seat is reported lost."""
    game = _midgame()
    hand = _p(game, 0).hand
    _broken(_with_seat(game, 0, hand=hand[1:]), rf"seat 0's \['{hand[0]}'\] were dealt but are nowhere")


def test_a_card_dropped_from_a_ship_is_caught() -> None:
    """Losing a character from a ship breaks conservation."""
    game = _midgame()
    ship = _p(game, 1).ship
    _broken(_with_seat(game, 1, ship=ship[1:], kept=()), "were dealt but are nowhere")


def test_a_card_in_two_places_is_caught() -> None:
    """A character both in hand and in the graveyard is reported twice."""
    game = _midgame()
    p = _p(game, 2)
    _broken(_with_seat(game, 2, graveyard=(*p.graveyard, p.hand[0])), "in two places at once")


def test_a_card_on_the_island_and_in_a_hand_is_caught() -> None:
    """The island counts: a character there and in its owner's hand is there twice."""
    game = _midgame()
    card = _p(game, 0).hand[0]
    _broken(_with(game, island=((0, card),)), "in two places at once")


def test_an_undealt_card_held_is_caught() -> None:
    """A seat may not hold a character that is still undealt."""
    game = _midgame()
    card = game.state.undealt[0]
    _broken(_with_seat(game, 0, removed=(card,)), "undealt cards")


def test_an_unknown_card_is_caught() -> None:
    """A name that is no character of the edition is reported."""
    game = _midgame()
    _broken(_with_seat(game, 0, graveyard=(*_p(game, 0).graveyard, "Kraken")), "no characters of the edition")


def test_a_card_moved_to_another_seat_counts_for_its_owner() -> None:
    """``Name#k`` in another seat's ship (or ``(holder, Name#k)`` on the island) is still seat k's card."""
    game = _midgame()
    card = _p(game, 1).hand[0]
    rest = tuple(c for c in _p(game, 1).hand if c != card)
    moved = _with_seat(_with_seat(game, 1, hand=rest), 0, ship=(*_p(game, 0).ship, f"{card}#1"))
    check_invariants(moved)
    on_island = _with(_with_seat(game, 1, hand=rest), island=((0, f"{card}#1"),))
    check_invariants(on_island)
    kept = _with_seat(moved, 0, kept=(f"{card}#1",))
    check_invariants(kept)


def test_a_moved_card_still_held_by_its_owner_is_caught() -> None:
    """``Name#k`` in another seat's zones while seat k still holds Name is one card in two places."""
    game = _midgame()
    card = _p(game, 1).hand[0]
    _broken(_with_seat(game, 0, ship=(*_p(game, 0).ship, f"{card}#1")), r"seat 1's .* in two places")


def test_a_mark_naming_no_seat_is_caught() -> None:
    """``Name#9`` in a 3-player game names no owner."""
    game = _midgame()
    card = _p(game, 1).hand[0]
    _broken(_with_seat(game, 0, ship=(f"{card}#9",)), "names no seat")


def test_kept_characters_must_be_aboard() -> None:
    """A kept character that is not in the ship is caught."""
    game = _midgame()
    _broken(_with_seat(game, 0, kept=(_p(game, 0).hand[0],)), "keeps characters that are not aboard")


def test_a_duplicated_loot_token_is_caught() -> None:
    """An extra token in a seat's loot breaks loot conservation."""
    game = _midgame()
    p = _p(game, 0)
    _broken(_with_seat(game, 0, loot=(*p.loot, p.loot[0])), "loot not conserved")


def test_a_lost_loot_token_is_caught() -> None:
    """A token that vanishes from a seat's loot breaks loot conservation."""
    game = _midgame()
    _broken(_with_seat(game, 1, loot=_p(game, 1).loot[1:], kept_loot=()), "loot not conserved")


def test_a_token_duplicated_into_a_day_is_caught() -> None:
    """Today's loot counts: an extra token there is caught."""
    game = _midgame()
    days = list(game.state.days)
    days[-1] = (*days[-1], "chest")
    _broken(_with(game, days=tuple(days)), "loot not conserved")


def test_a_token_set_aside_twice_is_caught() -> None:
    """Tokens set aside count: one added there without leaving the bag is caught."""
    game = _midgame()
    _broken(_with(game, aside=("map",)), "loot not conserved")


def test_a_negative_bag_count_is_caught_even_when_the_sum_balances() -> None:
    """A bag count below zero is caught even if a token elsewhere makes the totals match."""
    game = _midgame()
    bag = dict(game.state.bag)
    held = sum(1 for p in game.players for k in p.loot if k == "relic") + sum(
        1 for d in game.state.days for k in d if k == "relic")
    bag["relic"] = -1
    extra = ("relic",) * (8 - held + 1)
    broken = _with(game, bag=tuple(bag.items()), aside=(*game.state.aside, *extra))
    _broken(broken, "negative count")


def test_kept_loot_must_be_held() -> None:
    """Loot kept for the next voyage must be loot the seat holds."""
    game = _midgame()
    missing = next(k for k, _ in game.state.bag if k not in _p(game, 0).loot)
    _broken(_with_seat(game, 0, kept_loot=(missing,)), "keeps loot it does not hold")


def test_a_pick_must_be_in_hand() -> None:
    """A secretly chosen character that is not in its seat's hand is caught."""
    game = _midgame()
    commits = list(game.state.commits)
    commits[0] = game.state.undealt[0]
    _broken(_with(game, commits=tuple(commits)), "not in its hand")


def test_a_declared_position_may_give_seats_different_cards() -> None:
    """Declared seats hold different characters; conservation against the position itself still holds."""
    rules = galecrest()
    setup = {"players": [{"hand": ["Cook", "Scout"]}, {"hand": ["Brute", "Thief"], "ship": ["Bandit"]}]}
    game = lt.new_game(rules, 2, seed=3, setup=setup)
    check_invariants(game)
    nxt = game.choose(game.legal_keys()[0])
    check_invariants(nxt, before=game)
    lost = _with_seat(nxt, 1, ship=())
    check_invariants(lost)  # alone, a declared seat's cards cannot be known...
    with pytest.raises(AssertionError, match="seat 1's characters changed"):
        check_invariants(lost, before=game)  # ...but against an earlier state they can
