"""Moments: each event of one answer with the game as it stood right after it (``libertalia.testing.moments``)."""

from __future__ import annotations

import random
import warnings
from collections import Counter

import pytest

import libertalia as lt
from libertalia import events as ev
from libertalia.state import loot_tally
from libertalia.testing import Moment, moments, opening, when
from libertalia.testing.focus import Feature, focused_position

from .helpers import galecrest, start

LINES = [("galecrest", 4, 3), ("galecrest", 1, 5), ("classic", 3, 7)]


def _line(edition: str, players: int, seed: int, steps: int = 400) -> list[tuple[lt.Game, str]]:
    """A seeded random line of play: each game with the key answered to it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the solo cards warn on purpose
        game = lt.new_game(lt.load_rules(edition), players, seed=seed)
    pick, out = random.Random(seed), list[tuple[lt.Game, str]]()
    while not game.is_over and len(out) < steps:
        key = pick.choice(game.legal_keys())
        out.append((game, key))
        game = game.choose(key)
    return out


@pytest.mark.parametrize(("edition", "players", "seed"), LINES, ids=[f"{e}-{n}p" for e, n, _ in LINES])
def test_moments_answer_as_choose_does_with_every_event(edition: str, players: int, seed: int) -> None:
    """The game returned is ``choose``'s, the moments' events ``events_since``'s, and the game asked is unchanged."""
    for game, key in _line(edition, players, seed):
        frozen = game.state
        after, seen = moments(game, key)
        assert after == game.choose(key)
        assert tuple(m.event for m in seen) == after.events_since(game)
        assert game.state == frozen and game.decision is not None


@pytest.mark.parametrize(("edition", "players", "seed"), LINES, ids=[f"{e}-{n}p" for e, n, _ in LINES])
def test_each_moment_shows_its_event_done(edition: str, players: int, seed: int) -> None:
    """After a discard the card is in its owner's graveyard, after a take the token held, after a reveal the
    island as revealed, after banking the score banked and the purse empty; loot is conserved at every moment."""
    checked: Counter[str] = Counter()
    for game, key in _line(edition, players, seed):
        tokens = loot_tally(game.state)
        for m in moments(game, key)[1]:
            e, seats = m.event, m.players
            assert loot_tally(m.state) == tokens, f"loot not conserved after {e}"
            if isinstance(e, ev.Discarded):
                assert e.target in seats[e.target_seat].graveyard, str(m)
            elif isinstance(e, ev.LootTaken):
                assert e.loot in seats[e.seat].loot, str(m)
            elif isinstance(e, ev.Revealed):
                assert m.island == e.island, str(m)
            elif isinstance(e, ev.Banked):
                assert (seats[e.seat].score, seats[e.seat].doubloons) == (e.score, 0), str(m)
            elif isinstance(e, ev.Moved) and e.card is not None and e.to_zone != "island":
                assert e.card in getattr(seats[e.seat], e.to_zone), str(m)
            else:
                continue
            checked[type(e).__name__] += 1
    assert {"Discarded", "LootTaken", "Revealed", "Banked"} <= set(checked), checked


def test_a_moment_sees_an_ability_half_done() -> None:
    """The Brute discards the rightmost card, then its owner gains 1 reputation: the discard's moment shows the
    card in the graveyard and the reputation not yet gained, mid-ability; the answer's game shows both."""
    game = start(3, seed=1, reputation=[0, 1, 2], loot=[["map", "chest", "relic"]], players=[
        {"hand": ["Gunner", "Cook"]}, {"hand": ["Brute", "Cook"]}, {"hand": ["Treasurer", "Cook"]}])
    game = game.choose("Gunner").choose("Brute")
    after, seen = moments(game, "Treasurer")
    (discard,) = when(seen, type=ev.Discarded, source="Brute")
    (gain,) = when(seen, kind="reputation", source="Brute")
    assert (discard.event.target_seat, discard.event.target) == (2, "Treasurer")
    assert discard.phase == "day" and discard.state.frames  # the Brute's text is still running
    assert "Treasurer" in discard.players[2].graveyard and discard.players[2].reputation == 2
    assert gain.players[2].reputation == after.players[2].reputation == 3
    assert seen.index(discard) < seen.index(gain)


def test_when_filters_moments_as_select_filters_events() -> None:
    """``when`` takes ``select``'s filters and keeps the moments whose events ``select`` keeps."""
    game, key = _line("galecrest", 4, 3, steps=30)[-1]
    seen = moments(game, key)[1]
    events = tuple(m.event for m in seen)
    for filters in ({"kind": "doubloons"}, {"seat": 1}, {"phase": "sun", "target_seat": {0, 2}}, {"source": None}):
        assert tuple(m.event for m in when(seen, **filters)) == ev.select(events, **filters)
    with pytest.raises(TypeError, match="no filter colour"):
        when(seen, colour="red")


def test_a_moment_reads_like_a_game() -> None:
    """A moment has the game's reading API, is a frozen value, and says what it follows."""
    game = start(3, seed=1, reputation=[0, 1, 2], loot=[["map", "chest", "relic"]], players=[
        {"hand": ["Gunner", "Cook"]}, {"hand": ["Brute", "Cook"]}, {"hand": ["Treasurer", "Cook"]}])
    seen = moments(game.choose("Gunner").choose("Brute"), "Treasurer")[1]
    m = seen[0]
    assert isinstance(m, Moment) and m == Moment(m.event, m.state, galecrest())
    assert (m.voyage, m.day) == (1, 1) and sum(m.bag.values()) == sum(dict(m.state.bag).values())
    assert str(m).startswith(f"after {m.event}: voyage 1, day 1")
    with pytest.raises(AttributeError):
        m.event = seen[1].event  # type: ignore[misc]


def test_moments_refuse_what_choose_refuses() -> None:
    """A key not offered raises IllegalChoice; a game without its log, ValueError; anything but a game, TypeError."""
    game = lt.new_game(galecrest(), 3, seed=2)
    with pytest.raises(lt.IllegalChoice, match="not a legal choice"):
        moments(game, "Nobody")
    quiet = lt.new_game(galecrest(), 3, seed=2, log=False)
    with pytest.raises(ValueError, match="log=True"):
        moments(quiet, quiet.legal_keys()[0])
    with pytest.raises(TypeError, match="a Game"):
        moments(game.state, "Cook")  # type: ignore[arg-type]
    over = lt.play(galecrest(), [lt.agents.RandomAgent(i) for i in range(3)], seed=2)
    with pytest.raises(lt.IllegalChoice):
        moments(over, "Cook")


def test_opening_sees_what_new_game_ran_before_its_first_question() -> None:
    """Issue 35, item 8a: a position whose seats each hold one card plays its day, night and anchor inside
    ``new_game``; ``opening`` returns that game and a moment for every event of it, the night's discard included."""
    setup = {"voyage": 1, "day": 4, "reputation": [0, 1, 2], "loot": [["chest", "chest", "chest"]], "players": [
        {"hand": ["Collector"], "ship": ["Mutineer", "Scout"]}, {"hand": ["Collector"]}, {"hand": ["Treasurer"]}]}
    game, seen = opening(galecrest(), 3, 5, setup)
    assert game == lt.new_game(galecrest(), 3, 5, setup) and game.voyage == 2
    assert tuple(m.event for m in seen) == game.events
    (discard,) = when(seen, type=ev.Discarded, source="Mutineer")
    assert discard.phase == "night" and "Scout" in discard.players[0].graveyard  # the ship before the anchor emptied it
    assert any(isinstance(m.event, ev.Banked) for m in seen)
    with pytest.raises(ValueError, match="log=False"):
        opening(galecrest(), 3, 5, setup, log=False)


@pytest.mark.parametrize("seed", range(6))
def test_a_focused_positions_start_has_a_moment_for_every_event(seed: int) -> None:
    """Issue 35, item 8a: ``FocusedPosition.started`` is ``start`` with a moment for each event it logged, from the
    game's first event through the plays, the reveal and whatever ran before the next question."""
    rules = galecrest()
    position = focused_position(rules, 2 + seed % 3, [Feature("Mutineer"), Feature("Carpenter")],
                                rng=random.Random(seed))
    game, seen = position.started(rules)
    assert game == position.start(rules)
    assert tuple(m.event for m in seen) == game.events
    assert isinstance(seen[0].event, ev.GameStarted)
