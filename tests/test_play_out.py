"""``Game.play_out`` / ``lt.play``: one private working copy, the same final game as a ``choose`` loop."""

from __future__ import annotations

import warnings

import pytest

import libertalia as lt
from libertalia.agents import RandomAgent


def _rules(edition: str, loot: str | None) -> lt.Rules:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        return lt.load_rules(edition, loot=loot)


@pytest.mark.parametrize(("edition", "loot", "players"), [
    ("galecrest", None, 4), ("galecrest", "stormy", 2), ("galecrest", "uncharted", 3), ("galecrest", None, 6),
    ("classic", None, 5),
])
def test_play_out_equals_the_choose_loop(edition: str, loot: str | None, players: int) -> None:
    """Bit for bit: the same agents give the same final state through play_out and through choose()."""
    rules = _rules(edition, loot)
    for seed in range(3):
        fast = lt.play(rules, [RandomAgent(seed * 10 + i) for i in range(players)], seed=seed)
        agents = [RandomAgent(seed * 10 + i) for i in range(players)]
        slow = lt.new_game(rules, players, seed=seed)
        while slow.decision is not None:
            d = slow.decision
            slow = slow.choose(agents[d.player].choose(slow.observation(d.player), d))
        assert fast.state == slow.state
        assert fast.to_json() == slow.to_json()


def test_play_out_from_the_middle_leaves_the_game_alone() -> None:
    """play_out continues any game and never changes the game it started from."""
    rules = _rules("galecrest", None)
    game = lt.new_game(rules, 3, seed=5)
    for _ in range(20):
        game = game.choose(game.legal_keys()[0])
    before = game.state
    final = game.play_out([lt.agents.FirstOptionAgent()] * 3)
    assert final.is_over and game.state is before


class _Peeking:
    """An agent that reads its observation: what a real bot does."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int, int]] = []

    def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
        me = observation.players[observation.seat]
        others = [p.hand for p in observation.players if p.seat != observation.seat]
        assert all(set(h) <= {"?"} for h in others), "other hands stay hidden"
        self.seen.append((observation.voyage, observation.day, len(me.hand)))
        return decision.options[-1].key


def test_agents_see_a_live_observation() -> None:
    """During play_out an agent's observation reads the game as it stands, with hidden hands hidden."""
    rules = _rules("galecrest", None)
    peek = _Peeking()
    final = lt.play(rules, [peek, RandomAgent(1), RandomAgent(2)], seed=9)
    assert final.is_over and peek.seen[0] == (1, 1, 6)
    assert len({v for v, _, _ in peek.seen}) == 3


class _Cheat:
    def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
        return "not a key"


def test_an_illegal_agent_answer_names_its_seat() -> None:
    """An agent's illegal key raises IllegalChoice naming the seat and listing the legal keys."""
    rules = _rules("galecrest", None)
    with pytest.raises(lt.IllegalChoice, match="seat 1's agent"):
        lt.play(rules, [RandomAgent(0), _Cheat(), RandomAgent(2)], seed=1)


def test_a_played_out_game_is_frozen_when_read_and_then_lets_its_working_copy_go() -> None:
    """play_out's result defers its snapshot like any newest game; reading it freezes it once and for all."""
    rules = _rules("galecrest", None)
    final = lt.play(rules, [RandomAgent(i) for i in range(3)], seed=4)
    assert final._live and final._state is None  # deferred: nobody has looked yet
    scores, winners = final.final_scores(), final.winners()
    assert final._state is None  # scores and winners read the finished working copy: still no snapshot
    assert final.state.seats == final.players and final._state is not None and not final._live  # frozen, released
    assert (final.final_scores(), final.winners()) == (scores, winners)
    assert lt.Game.from_json(final.to_json(), rules).final_scores() == scores


class _LastOption(RandomAgent):
    """A subclass that changes ``choose`` and does not restate ``picks_from_options``."""

    def choose(self, observation: object, decision: lt.Decision) -> str:
        return decision.options[-1].key


class _Counting(RandomAgent):
    """A subclass that restates the flag: live play asks its ``pick``, never its ``choose``."""

    picks_from_options = True
    answers_from_options = True

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.chosen = 0

    def choose(self, observation: object, decision: lt.Decision) -> str:
        self.chosen += 1
        return super().choose(observation, decision)  # type: ignore[arg-type]


def test_a_subclass_that_changes_choose_is_asked_choose() -> None:
    """Live play asks ``pick`` only of a class whose own body says ``picks_from_options``: a subclass of
    RandomAgent with its own ``choose`` plays exactly the game of its ``choose`` answers."""
    rules = _rules("galecrest", None)
    played = lt.play(rules, [_LastOption(i) for i in range(3)], seed=5)
    game = lt.new_game(rules, 3, seed=5)
    while game.decision is not None:
        game = game.choose(game.decision.options[-1].key)
    assert played.state == game.state


def test_a_picker_is_asked_pick_with_no_decision_built() -> None:
    """A class that restates ``picks_from_options`` is asked ``pick``: its ``choose`` is never called, and the
    game is the one its ``choose`` would have played (``pick`` and ``choose`` answer alike)."""
    rules = _rules("galecrest", None)
    agents = [_Counting(i) for i in range(4)]
    played = lt.play(rules, agents, seed=8)
    assert sum(a.chosen for a in agents) == 1  # the question the game stood at, asked before play goes live
    assert played.state == lt.play(rules, [RandomAgent(i) for i in range(4)], seed=8).state
