"""Sampling what a seat cannot see (``Observation.sample_game``, ``libertalia.engine.sampling``)."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import libertalia as lt
from libertalia import saves
from libertalia.bots.greedy import GreedyAgent
from libertalia.engine import flow, sampling
from libertalia.engine.work import Work
from libertalia.testing import check_invariants, games

CASES = [("galecrest", 1), ("galecrest", 2), ("galecrest", 3), ("galecrest", 4), ("galecrest", 6),
         ("classic", 2), ("classic", 4), ("classic", 5)]


def _saved_and_checked(sample: lt.Game) -> lt.Game:
    """The sample through a save, checked like any save but for the replay: a sample has no past to replay."""
    return lt.Game(*saves.load_game(sample.to_json(), sample.rules, replay=False))


@functools.cache
def _rules(edition: str, loot: str | None = None) -> lt.Rules:
    return lt.load_rules(edition, loot=loot)


def _public(obs: lt.Observation) -> tuple[Any, ...]:
    """Everything an observation shows its seat."""
    return (obs.seat, obs.players, obs.island, obs.loot_days, obs.day_loot, obs.decision, obs.committed,
            obs.voyage, obs.day, obs.phase, obs.events, obs.automa, obs.solo_deck_size)


def _seats(game: lt.Game) -> int:
    return len(game.players)


@st.composite
def _positions(draw: st.DrawFn, max_steps: int = 400) -> tuple[lt.Game, int, random.Random]:
    """A game of any edition and size (solo too), sometimes from a declared position, a seat and an rng."""
    edition, players = draw(st.sampled_from(CASES), label="case")
    declared = players > 1 and draw(st.booleans(), label="declared")
    game = draw(games(_rules(edition), players, max_steps=max_steps, from_position=declared))
    seat = draw(st.integers(0, _seats(game) - 1), label="seat")
    return game, seat, random.Random(draw(st.integers(0, 2**32), label="rng"))


@given(_positions())
def test_the_seat_sees_the_same_game(position: tuple[lt.Game, int, random.Random]) -> None:
    """Commit, then reveal (design section 2): a sample shows its seat exactly what the real game does, keys too."""
    game, seat, rng = position
    sample = game.observation(seat).sample_game(rng)
    assert _public(sample.observation(seat)) == _public(game.observation(seat))
    if game.decision is not None and game.decision.player == seat:
        assert sample.legal_keys() == game.legal_keys()
    assert sample.state.journal == game.state.journal
    check_invariants(sample)


@given(_positions(max_steps=250))
def test_a_sample_plays_to_the_end_and_saves(position: tuple[lt.Game, int, random.Random]) -> None:
    """A sample is a game the engine could have written (save check) and random play finishes it."""
    game, seat, rng = position
    sample = game.observation(seat).sample_game(rng)
    assert _saved_and_checked(sample) == sample
    final = sample.play_out([lt.agents.RandomAgent(i) for i in range(_seats(game))])
    assert final.is_over
    check_invariants(final)


@given(_positions(max_steps=250))
def test_sampling_is_pure_and_repeatable(position: tuple[lt.Game, int, random.Random]) -> None:
    """The same generator state gives the same sample, and the real game is left as it was."""
    game, seat, rng = position
    before = game.to_json()
    state = rng.getstate()
    first = game.observation(seat).sample_game(rng)
    rng.setstate(state)
    assert game.observation(seat).sample_game(rng) == first
    assert game.to_json() == before
    assert first.history == ()


@given(_positions())
def test_what_the_log_allows_includes_the_truth(position: tuple[lt.Game, int, random.Random]) -> None:
    """Only seats with a face-down graveyard-to-hand move (Surgeon) have unknown hands; the real one is allowed."""
    game, _, _ = position
    s = game.state
    secret = {e.seat for e in game.events if e.text.endswith("from their graveyard into their hand")}
    hidden = sampling.hidden_zones(game.rules, s)
    assert set(hidden) <= secret - {s.automa}
    for seat, zones in hidden.items():
        p = s.seats[seat]
        if zones.worlds:
            assert (p.hand, p.graveyard) in zones.worlds
            assert all(len(hand) == len(p.hand) for hand, _ in zones.worlds)
        else:
            assert sorted(zones.pool) == sorted(p.hand + p.graveyard)


def _four(seed: int = 4) -> lt.Game:
    return lt.new_game(_rules("galecrest"), 4, seed=seed)


def test_unrevealed_picks_are_drawn_again() -> None:
    """Commit, then reveal: another seat's pick is drawn again from its hand; the seat's own is kept."""
    game = _four()
    first, second = game.legal_keys()[0], game.choose(game.legal_keys()[0]).legal_keys()[-1]
    game = game.choose(first).choose(second)
    picks = {game.observation(1).sample_game(random.Random(i)).state.commits for i in range(40)}
    assert all(p[1] == second and p[0] in game.players[0].hand and p[2:] == (None, None) for p in picks)
    assert len({p[0] for p in picks}) > 1


def _to_next_voyage(game: lt.Game) -> lt.Game:
    while game.voyage == 1 and game.decision is not None:
        game = game.choose(game.legal_keys()[0])
    return game


def test_the_seed_and_later_draws_are_drawn_again() -> None:
    """The seed is hidden: a sample has its own, so the next voyage's loot and deal differ."""
    game = _four()
    real = _to_next_voyage(game)
    samples = [game.observation(0).sample_game(random.Random(i)) for i in range(10)]
    assert all(sample.seed != game.seed for sample in samples)
    later = [_to_next_voyage(sample) for sample in samples]
    assert any(s.loot_days != real.loot_days for s in later)
    assert any(s.players[0].hand != real.players[0].hand for s in later)


def test_known_hands_are_kept() -> None:
    """Every deal and play is public: with no face-down move, every hand and graveyard is kept."""
    game = _four(seed=3)
    rng = random.Random(3)
    for _ in range(70):
        game = game.choose(rng.choice(game.legal_keys()))
    assert not sampling.hidden_zones(game.rules, game.state)
    sample = game.observation(2).sample_game(random.Random(0))
    assert [(p.hand, p.graveyard) for p in sample.players] == [(p.hand, p.graveyard) for p in game.players]


@functools.cache
def _after_surgeon(asked: bool) -> tuple[lt.Game, int]:
    """The first position (random play, fixed seeds) hiding a seat's Surgeon pick, that seat choosing there or not."""
    rules = _rules("galecrest")
    for seed in range(100):
        game = lt.new_game(rules, 4, seed=seed)
        rng = random.Random(seed)
        while game.decision is not None:
            game = game.choose(rng.choice(game.legal_keys()))
            hidden = sampling.hidden_zones(rules, game.state)
            d = game.decision
            for seat, zones in hidden.items():
                choosing = d is not None and seat == d.player and d.kind == "play_character"
                if len(zones.worlds) > 1 and d is not None and choosing == asked:
                    return game, seat
    raise AssertionError("no game of the first 100 seeds hides a Surgeon pick")


def test_a_surgeon_pick_is_drawn_again() -> None:
    """Surgeon (rank 31, "secretly"): the sample draws among the hands the log allows; cards known in hand stay."""
    game, seat = _after_surgeon(False)
    observer = game.decision.player if game.decision is not None else (seat + 1) % 4
    p = game.players[seat]
    worlds = sampling.hidden_zones(game.rules, game.state)[seat].worlds
    sure = set.intersection(*(set(hand) for hand, _ in worlds))
    drawn = set()
    for i in range(60):
        q = game.observation(observer).sample_game(random.Random(i)).players[seat]
        assert (q.hand, q.graveyard) in worlds and sure <= set(q.hand)
        assert sorted(q.hand + q.graveyard) == sorted(p.hand + p.graveyard)
        drawn.add(q.hand)
    assert len(drawn) > 1
    own = game.observation(seat).sample_game(random.Random(0)).players[seat]
    assert (own.hand, own.graveyard) == (p.hand, p.graveyard)


def test_a_question_to_a_redrawn_seat_is_asked_again() -> None:
    """When the seat being asked had its hand drawn again, the sample asks it from the new hand."""
    game, seat = _after_surgeon(True)
    assert game.decision is not None
    observer = (seat + 1) % 4
    samples = [game.observation(observer).sample_game(random.Random(i)) for i in range(30)]
    for sample in samples:
        assert _public(sample.observation(observer)) == _public(game.observation(observer))
        assert _saved_and_checked(sample) == sample
    assert all(sample.legal_keys() == sample.players[seat].hand for sample in samples)
    assert len({sample.legal_keys() for sample in samples}) > 1


def test_a_classic_campaign_end_shows_the_surgeons_pick() -> None:
    """Classic (E14): the graveyard leaves the game face up at campaign end, settling earlier Surgeon picks."""
    rules = _rules("classic")
    for seed in range(100):
        game = lt.new_game(rules, 3, seed=seed)
        rng = random.Random(seed)
        unsure: set[int] = set()
        while game.decision is not None and game.voyage < 3:
            game = game.choose(rng.choice(game.legal_keys()))
            hidden = sampling.hidden_zones(rules, game.state)
            if game.voyage == 1:
                unsure = {seat for seat, zones in hidden.items() if len(zones.worlds) > 1}
            elif unsure:
                assert not unsure & set(hidden)
                return
    raise AssertionError("no Classic game of the first 100 seeds hides a Surgeon pick in its first campaign")


def test_an_unreadable_past_hides_the_whole_split() -> None:
    """A declared position's first hands are not logged: after a Surgeon pick, any split of the right sizes comes."""
    game = lt.new_game(_rules("galecrest"), 2, seed=1, setup={
        "reputation": [2, 3], "loot": [["chest", "map", "relic"]],
        "players": [{"hand": ["Cook", "Bosun", "Gambler"]},
                    {"hand": ["Surgeon", "Topman", "Aristocrat"], "graveyard": ["Scout", "Beggar"]}]})
    game = game.choose("Cook").choose("Surgeon").choose("Beggar")
    zones = sampling.hidden_zones(game.rules, game.state)[1]
    assert not zones.worlds and sorted(zones.pool) == sorted(game.players[1].hand + game.players[1].graveyard)
    hands = {game.observation(0).sample_game(random.Random(i)).players[1].hand for i in range(40)}
    assert len(hands) > 1 and all(len(hand) == len(game.players[1].hand) for hand in hands)


def _solo(seed: int = 2) -> lt.Game:
    return lt.new_game(_rules("galecrest"), 1, seed=seed)


def test_the_solo_deck_is_shuffled_under_its_visible_back() -> None:
    """Solo (S5): Automa's hand is open and the top card's back in sight; the rest of the deck is reshuffled."""
    game = _solo()
    solo = game.rules.board.solo
    assert solo is not None
    deck = game.state.solo_deck
    decks = [game.observation(0).sample_game(random.Random(i)).state.solo_deck for i in range(30)]
    assert all(sorted(d) == sorted(deck) for d in decks)
    assert all(solo.card(d[0]).picks == solo.card(deck[0]).picks for d in decks)
    assert len(set(decks)) > 1
    sample = game.observation(0).sample_game(random.Random(0))
    assert sample.players[1].hand == game.players[1].hand


def test_a_play_out_view_samples_mid_step() -> None:
    """An agent inside ``play_out`` samples from its live view, even mid-ability or mid-dusk."""
    rules = _rules("galecrest")

    class Checking:
        """Samples at every question, checks the sample, then answers at random."""

        def __init__(self, seat: int) -> None:
            self.seat, self.rng = seat, random.Random(seat)

        def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
            sample = observation.sample_game(self.rng)
            assert _public(sample.observation(self.seat)) == _public(observation)
            assert sample.legal_keys() == decision.keys()
            assert _saved_and_checked(sample) == sample  # the engine asks that question
            return self.rng.choice(decision.keys())

    for seed in range(2):
        assert lt.play(rules, [Checking(i) for i in range(4)], seed=seed).is_over
    assert _solo().play_out([Checking(0), Checking(1)]).is_over


def test_an_automa_watch_gets_the_samples_digest() -> None:
    """S2: a sample taken while an Automa sun ability is watched gets its own digest, so "no effect" still holds."""
    game = _solo()
    rules, s = game.rules, game.state
    ref = (1, s.seats[1].hand[0])
    unchanged = attrs.evolve(s, watching=(ref, flow.situation(Work(rules, s))))
    sampled = sampling.sample_state(rules, unchanged, 0, random.Random(1))
    assert sampled.solo_deck != s.solo_deck
    assert sampled.watching == (ref, flow.situation(Work(rules, sampled)))
    changed = attrs.evolve(s, watching=(ref, "0" * 24))
    assert sampling.sample_state(rules, changed, 0, random.Random(1)).watching == (ref, "0" * 24)


def test_an_uncharted_sample_saves_under_its_own_rules() -> None:
    """Uncharted sides come from the seed: a sample keeps the real game's sides and loads with them."""
    base = _rules("galecrest", "uncharted")
    game = lt.new_game(base, 3, seed=8)
    sample = game.observation(0).sample_game(random.Random(5))
    assert sample.rules.loot_sides == game.rules.loot_sides
    assert _saved_and_checked(sample) == sample


def test_bad_arguments_are_refused() -> None:
    """The rng must be a ``random.Random`` and the seat one of the game's."""
    observation = _four().observation(0)
    with pytest.raises(TypeError, match="random.Random"):
        observation.sample_game(7)  # type: ignore[arg-type]
    game = _four()
    with pytest.raises(ValueError, match="0 to 3"):
        sampling.sample_state(game.rules, game.state, 4, random.Random(0))


def test_a_live_view_samples_exactly_as_the_choose_path() -> None:
    """Sampling inside ``play_out`` starts from the very state ``choose`` reaches: equal rngs give equal samples."""
    rules = _rules("galecrest")

    class Recording:
        """Samples at every question and keeps the sample's save, then answers at random."""

        def __init__(self, seat: int) -> None:
            self.rng, self.answers = random.Random(seat), random.Random(100 + seat)
            self.samples: list[str] = []

        def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
            self.samples.append(observation.sample_game(self.rng).to_json())
            return self.answers.choice(decision.keys())

    live = [Recording(i) for i in range(3)]
    lt.play(rules, live, seed=4)
    stepped = [Recording(i) for i in range(3)]
    game = lt.new_game(rules, 3, 4)
    while game.decision is not None:
        d = game.decision
        game = game.choose(stepped[d.player].choose(game.observation(d.player), d))
    assert [r.samples for r in live] == [r.samples for r in stepped]


def test_the_top_solo_cards_back_is_seen_and_kept() -> None:
    """S5: the back of the top solo card lies in view; the observation shows its picks and every sample keeps them."""
    game = _solo()
    seen = game.observation(0).solo_top_picks
    assert seen and seen == game.rules.board.solo.card(game.state.solo_deck[0]).picks  # type: ignore[union-attr]
    for i in range(20):
        assert game.observation(0).sample_game(random.Random(i)).observation(0).solo_top_picks == seen
    assert lt.new_game(_rules("galecrest"), 3, 1).observation(0).solo_top_picks == ()


DRILL = """\
name: Drill Sergeant
rank: 43
text: |
  sun: each other player discards a character from their hand.
"""


def _mid_discard(folder: Path) -> lt.Game:
    """Seat 1 made a Surgeon pick from a declared position (its hand is drawn again), then answered the Drill
    Sergeant's "each other player discards" with Topman; seat 2 is asked next, nothing discarded yet (E32)."""
    (folder / "drill.yaml").write_text(DRILL)
    rules = lt.load_rules("galecrest", extra_cards=[folder])
    game = lt.new_game(rules, 3, seed=1, setup={
        "reputation": [1, 2, 3], "loot": [["chest", "map", "relic"], ["chest", "map", "relic"]],
        "players": [{"hand": ["Cook", "Drill Sergeant", "Gambler"]},
                    {"hand": ["Surgeon", "Topman", "Aristocrat", "Bosun"], "graveyard": ["Scout", "Beggar"]},
                    {"hand": ["Watchman", "Treasurer", "Merchant", "Carpenter"]}]})
    for key in ("Cook", "Surgeon", "Watchman", "chest", "map", "Scout", "map", "relic",
                "Drill Sergeant", "Bosun", "Merchant", "Topman"):
        game = game.choose(key)
    assert game.decision is not None and (game.decision.player, game.decision.source) == (2, "Drill Sergeant")
    assert 1 in sampling.hidden_zones(game.rules, game.state)
    return game


def test_another_seats_answer_held_by_a_waiting_step_is_drawn_again(tmp_path: Path) -> None:
    """An answer a step holds moved nothing yet: others' samples draw it anew from the seat's sampled options."""
    game = _mid_discard(tmp_path)
    held = set()
    for i in range(40):
        for observer in (0, 2):
            sample = game.observation(observer).sample_game(random.Random(i))
            assert _public(sample.observation(observer)) == _public(game.observation(observer))
            (answer,) = sample.state.frames[-1].answers
            assert answer in sample.players[1].hand
            held.add(answer)
            for key in sample.legal_keys():  # the step replays the drawn answer: the discard happens
                after = sample.choose(key)
                assert answer in after.players[1].graveyard and answer not in after.players[1].hand
    assert len(held) > 1
    own = game.observation(1).sample_game(random.Random(0))
    assert own.state.frames[-1].answers == ("Topman",)  # a seat's own answer is kept


def test_greedy_bots_look_ahead_past_a_hidden_discard(tmp_path: Path) -> None:
    """The greedy bot's look-ahead from that position (issue 33) plays on, whatever its seed."""
    game = _mid_discard(tmp_path)
    for seed in range(4):
        assert game.play_out([GreedyAgent(seed * 3 + i, samples=2) for i in range(3)]).is_over
