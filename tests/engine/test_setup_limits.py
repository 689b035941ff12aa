"""Every game ``new_game`` starts can be saved, loaded and recorded: starts beyond what saves hold are refused."""

from __future__ import annotations

import functools
import random
import warnings
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia import saves
from libertalia.engine.setup import MAX_START
from libertalia.records import GameRecord
from libertalia.testing import positions
from tests.helpers import galecrest


@functools.cache
def _rules(edition: str) -> lt.Rules:
    return lt.load_rules(edition)


def test_the_start_limit_leaves_a_save_room() -> None:
    """MAX_START is far below what a save holds, so a game's own gains cannot push it past the save's bound."""
    assert MAX_START * 1000 <= saves.MAX_AMOUNT


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"handicap": {0: 10**20}}, r"handicap\[0\] must be a whole number in 0\.\.1,000,000, not 100000000000000000000"),
    ({"handicap": {1: MAX_START + 1}}, r"handicap\[1\] must be a whole number in 0\.\.1,000,000, not 1000001"),
    ({"handicap": {0: 10**5000}}, r"handicap\[0\] .* not a number of 16610 bits"),
    ({"setup": {"players": [{"doubloons": 10**30}, {}]}},
     r"players\[0\]\.doubloons must be .* not 10{30}: a seat starts with at most"),
    ({"setup": {"players": [{}, {"score": MAX_START + 1}]}}, r"players\[1\]\.score must be a whole number in 0\.\."),
    ({"setup": {"players": [{"doubloons": -1}, {}]}}, r"players\[0\]\.doubloons must be a whole number in 0\.\."),
    ({"setup": {"day": 2}, "handicap": {0: 5}}, "handicap: a declared position gives each seat its own doubloons"),
])
def test_a_start_a_save_could_not_hold_is_refused(kwargs: dict[str, Any], expected: str) -> None:
    """Handicaps and declared doubloons or scores past MAX_START (10**20, 10**30) are SetupErrors naming the limit."""
    with pytest.raises(lt.SetupError, match=expected) as caught:
        lt.new_game(galecrest(), 2, seed=1, **kwargs)
    assert "MAX_START" in str(caught.value) or "handicap:" in str(caught.value) or "-1" in str(caught.value)


def test_the_largest_start_saves_and_records() -> None:
    """A start of exactly MAX_START doubloons and points saves, loads and records, and plays on."""
    setup = {"players": [{"doubloons": MAX_START, "score": MAX_START}, {}]}
    for game in (lt.new_game(galecrest(), 2, seed=3, setup=setup),
                 lt.new_game(galecrest(), 3, seed=3, handicap={2: MAX_START})):
        game = game.play_out([lt.agents.RandomAgent(i) for i in range(len(game.players))])
        assert lt.Game.from_json(game.to_json(), game.rules) == game
        assert GameRecord.of(game).replay() == game


def _saved_loaded_and_recorded(game: lt.Game) -> None:
    assert lt.Game.from_json(game.to_json(), game.rules) == game
    record = GameRecord.of(game)
    replayed = GameRecord.from_json(record.to_json()).replay(game.rules).state
    if game.state.journal is None:  # a record replays with the event log on
        replayed = attrs.evolve(replayed, journal=None)
    assert replayed == game.state


_AMOUNTS = st.one_of(st.integers(0, 30), st.integers(MAX_START - 2, MAX_START + 2),
                     st.sampled_from([-1, 10**20, 10**30]), st.integers())


@st.composite
def _starts(draw: st.DrawFn) -> tuple[str, int, int, dict[str, Any] | None, dict[int, Any] | None, bool]:
    """Arguments for new_game, many of them at or past the limits: a declared position or a handicap."""
    edition = draw(st.sampled_from(["galecrest", "classic"]), label="edition")
    rules = _rules(edition)
    lo, hi = rules.board.players
    solo = rules.board.solo is not None
    players = draw(st.integers(1 if solo else lo, hi), label="players")
    seed = draw(st.integers(0, 2**64 - 1), label="seed")
    setup = None
    if players > 1 and draw(st.booleans(), label="declared"):
        setup = draw(positions(rules, players), label="position")
        for seat in setup["players"]:
            seat["doubloons"] = draw(_AMOUNTS, label="doubloons")
            seat["score"] = draw(_AMOUNTS, label="score")
    handicap = None
    if draw(st.booleans(), label="handicapped"):
        seats = 2 if players == 1 else players
        handicap = draw(st.dictionaries(st.integers(0, seats - 1), _AMOUNTS, max_size=seats), label="handicap")
    return edition, players, seed, setup, handicap, draw(st.booleans(), label="log")


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(_starts(), st.integers(0, 2**32), st.integers(0, 60))
def test_any_game_new_game_accepts_saves_loads_and_records(
        start: tuple[str, int, int, dict[str, Any] | None, dict[int, Any] | None, bool], rng: int, steps: int) -> None:
    """Any game new_game starts (declared, handicapped, solo, no log) saves, loads and records, then and later."""
    edition, players, seed, setup, handicap, log = start
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            game = lt.new_game(_rules(edition), players, seed, setup, handicap=handicap, log=log)
    except lt.SetupError as exc:
        event(f"refused: {str(exc).partition(' must ')[0].partition(':')[0]}")
        return
    event("started")
    _saved_loaded_and_recorded(game)
    rnd = random.Random(rng)
    for _ in range(steps):
        if game.decision is None:
            break
        game = game.choose(rnd.choice(game.legal_keys()))
    _saved_loaded_and_recorded(game)


@pytest.mark.parametrize("edition", ["galecrest", "classic"])
def test_a_handicap_stays_on_top_of_the_first_voyages_doubloons(edition: str) -> None:
    """E39: a handicap's extra doubloons are still in the purse once voyage 1 begins, in both editions."""
    rules = lt.load_rules(edition)
    plain = lt.new_game(rules, 3, seed=4)
    helped = lt.new_game(rules, 3, seed=4, handicap={1: 5})
    assert [p.doubloons for p in helped.state.seats] == [
        p.doubloons + (5 if p.seat == 1 else 0) for p in plain.state.seats]


def test_a_classic_handicap_is_banked_with_the_first_campaign() -> None:
    """E39, C5: in the 2012 game the handicap is banked with campaign 1; later campaigns start from 10 alike."""
    rules = lt.load_rules("classic")
    agents = [lt.agents.FirstOptionAgent() for _ in range(3)]
    plain = lt.new_game(rules, 3, seed=4).play_out(agents)
    helped = lt.new_game(rules, 3, seed=4, handicap={0: 7}).play_out(agents)
    assert helped.final_scores()[0] >= plain.final_scores()[0]
    starts = [e for e in helped.events if type(e).__name__ == "StartingDoubloons"]
    assert {e.doubloons for e in starts} == {10}
