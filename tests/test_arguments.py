"""Arguments are checked at the public edges: a TypeError naming the argument, or a library error; never coerced."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import libertalia as lt
import libertalia.playing

FIRST = lt.agents.FirstOptionAgent()


@pytest.fixture(scope="module")
def rules() -> lt.Rules:
    return lt.load_rules("galecrest")


@pytest.fixture(scope="module")
def game(rules: lt.Rules) -> lt.Game:
    return lt.new_game(rules, 4, seed=1)


class _NoAgent:
    """Has no ``choose``: not an agent."""


# (call, exception, words the message must hold); each call gets the module's rules and game.
Case = tuple[Callable[[lt.Rules, lt.Game], Any], type[Exception], str]
CASES: dict[str, Case] = {
    # load_rules: the edition, loot and extra_cards by type (seeds: tests/test_seeds.py)
    "load_rules(None)": (lambda r, g: lt.load_rules(None), TypeError, "edition must be an edition name"),  # type: ignore[arg-type]
    "load_rules(5)": (lambda r, g: lt.load_rules(5), TypeError, "edition must be"),  # type: ignore[arg-type]
    "load_rules(loot=5)": (lambda r, g: lt.load_rules(loot=5), TypeError, "loot must be a side name"),  # type: ignore[arg-type]
    "loot kind 5": (lambda r, g: lt.load_rules(loot={5: "calm"}), TypeError, "loot must be a mapping"),  # type: ignore[dict-item]
    "loot side 5": (lambda r, g: lt.load_rules(loot={"map": 5}), TypeError, "loot['map'] must be a side"),  # type: ignore[dict-item]
    "extra_cards=5": (lambda r, g: lt.load_rules(extra_cards=5), TypeError, "extra_cards must be a path"),  # type: ignore[arg-type]
    "extra_cards=None": (lambda r, g: lt.load_rules(extra_cards=None), TypeError, "extra_cards must be"),  # type: ignore[arg-type]
    "extra_cards=[5]": (lambda r, g: lt.load_rules(extra_cards=[5]), TypeError, "extra_cards[0] must be"),  # type: ignore[list-item]
    # new_game and Game
    "new_game(None, 4)": (lambda r, g: lt.new_game(None, 4), TypeError, "new_game: rules must be"),  # type: ignore[arg-type]
    "new_game(log='no')": (lambda r, g: lt.new_game(r, 4, log="no"), TypeError, "log must be True or False"),  # type: ignore[arg-type]
    "new_game(players='4')": (lambda r, g: lt.new_game(r, "4"), lt.SetupError, "whole number"),  # type: ignore[arg-type]
    "Game(None, state)": (lambda r, g: lt.Game(None, g.state), TypeError, "Game: rules must be"),  # type: ignore[arg-type]
    "Game(rules, None)": (lambda r, g: lt.Game(r, None), TypeError, "Game: state must be a GameState"),  # type: ignore[arg-type]
    "from_json(text, None)": (lambda r, g: lt.Game.from_json(g.to_json(), None), TypeError,  # type: ignore[arg-type]
                              "from_json: rules must be"),
    "choose(1)": (lambda r, g: g.choose(1), lt.IllegalChoice, "1 is not a legal choice"),  # type: ignore[arg-type]
    "choose(None)": (lambda r, g: g.choose(None), lt.IllegalChoice, "None is not a legal choice"),  # type: ignore[arg-type]
    # observations
    "observation(100)": (lambda r, g: g.observation(100), lt.ArgumentError, "seat 100 is not a seat; 0 to 3"),
    "observation(-1)": (lambda r, g: g.observation(-1), lt.ArgumentError, "seat -1 is not a seat"),
    "observation(None)": (lambda r, g: g.observation(None), TypeError, "seat must be a whole number"),  # type: ignore[arg-type]
    "observation('0')": (lambda r, g: g.observation("0"), TypeError, "not '0' (str)"),  # type: ignore[arg-type]
    "observation(True)": (lambda r, g: g.observation(True), TypeError, "not True (bool)"),
    "observation(1.0)": (lambda r, g: g.observation(1.0), TypeError, "not 1.0 (float)"),  # type: ignore[arg-type]
    "Observation(g, 4)": (lambda r, g: lt.Observation(g, 4), lt.ArgumentError, "seat 4 is not a seat"),
    "Observation('g', 0)": (lambda r, g: lt.Observation("g", 0), TypeError, "source must be a Game"),  # type: ignore[arg-type]
    "sample_game(None)": (lambda r, g: g.observation(0).sample_game(None), TypeError,  # type: ignore[arg-type]
                          "rng must be a random.Random"),
    "render(9)": (lambda r, g: g.render(9), lt.ArgumentError, "seat 9 is not a seat"),
    "render('0')": (lambda r, g: g.render("0"), TypeError, "seat must be a whole number"),  # type: ignore[arg-type]
    "render(width='x')": (lambda r, g: g.render(0, width="x"), TypeError, "width must be"),  # type: ignore[arg-type]
    "render(width=0)": (lambda r, g: g.render(0, width=0), lt.ArgumentError, "1 or more, not 0"),
    # play and play_out
    "play_out(2 agents)": (lambda r, g: g.play_out([FIRST] * 2), lt.ArgumentError, "4 for this game, not 2"),
    "play_out(6 agents)": (lambda r, g: g.play_out([FIRST] * 6), lt.ArgumentError, "4 for this game, not 6"),
    "play_out(None)": (lambda r, g: g.play_out(None), TypeError, "agents must be a list or tuple"),  # type: ignore[arg-type]
    "play_out(generator)": (lambda r, g: g.play_out(FIRST for _ in range(4)), TypeError,  # type: ignore[arg-type]
                            "agents must be a list"),
    "play_out([1, ...])": (lambda r, g: g.play_out([FIRST, 1, FIRST, FIRST]), TypeError,  # type: ignore[list-item]
                           "agents[1] must be an agent"),
    "play_out(no choose)": (lambda r, g: g.play_out([FIRST, FIRST, _NoAgent(), FIRST]), TypeError,  # type: ignore[list-item]
                            "agents[2] must be an agent"),
    "lt.play(r, None)": (lambda r, g: lt.play(r, None), TypeError, "play: agents must be"),  # type: ignore[arg-type]
    "lt.play(r, [1, 2, 3])": (lambda r, g: lt.play(r, [1, 2, 3]), TypeError, "play: agents[0] must be"),  # type: ignore[list-item]
    "lt.play(log=1)": (lambda r, g: lt.play(r, [FIRST] * 3, log=1), TypeError, "log must be True or False"),  # type: ignore[arg-type]
    "playing.play_out(None)": (lambda r, g: libertalia.playing.play_out(None, [FIRST] * 4), TypeError,  # type: ignore[arg-type]
                               "play_out: game must be a Game"),
    # agents
    "RandomAgent('x')": (lambda r, g: lt.agents.RandomAgent("x"), TypeError, "seed must be a whole number"),  # type: ignore[arg-type]
    "RandomAgent(True)": (lambda r, g: lt.agents.RandomAgent(True), TypeError, "not True (bool)"),
    "RandomAgent(-1)": (lambda r, g: lt.agents.RandomAgent(-1), lt.ArgumentError, "from 0 up, not -1"),
    "ScriptedAgent('Cook')": (lambda r, g: lt.agents.ScriptedAgent("Cook"), TypeError, "keys must be a list"),
    "ScriptedAgent(5)": (lambda r, g: lt.agents.ScriptedAgent(5), TypeError, "keys must be a list"),  # type: ignore[arg-type]
    "ScriptedAgent([5])": (lambda r, g: lt.agents.ScriptedAgent([5]), TypeError, "keys[0] must be"),  # type: ignore[list-item]
    # rules, the card language, records
    "card('Cok')": (lambda r, g: r.card("Cok"), lt.RulesError, 'no character \'Cok\' (did you mean "Cook"?)'),
    "card(5)": (lambda r, g: r.card(5), TypeError, "Rules.card: a character is named by a string"),  # type: ignore[arg-type]
    "loot_spec('mapp')": (lambda r, g: r.loot_spec("mapp"), lt.RulesError, "no loot kind 'mapp'"),
    "parse(5)": (lambda r, g: lt.parse(5), TypeError, "parse: text must be card text"),  # type: ignore[arg-type]
    "render(5)": (lambda r, g: lt.render(5), TypeError, "render: abilities must be"),  # type: ignore[arg-type]
    "render([5])": (lambda r, g: lt.render([5]), TypeError, "render: abilities must be"),  # type: ignore[list-item]
    "GameRecord.of(5)": (lambda r, g: lt.GameRecord.of(5), TypeError, "GameRecord.of: game must be a Game"),  # type: ignore[arg-type]
    "record.replay(5)": (lambda r, g: lt.GameRecord.of(g).replay(5), TypeError,  # type: ignore[arg-type]
                         "replay: rules must be"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_bad_argument_is_named_in_a_clear_error(rules: lt.Rules, game: lt.Game, name: str) -> None:
    """Each bad argument raises its TypeError or library error, whose message names what was wrong."""
    call, error, words = CASES[name]
    with pytest.raises(Exception) as caught:  # noqa: PT011 - the exact class is checked below
        call(rules, game)
    assert type(caught.value) is error or (error is not TypeError and isinstance(caught.value, error)), \
        f"{type(caught.value).__name__}: {caught.value}"
    assert all(part in str(caught.value) for part in words.split("; ")), str(caught.value)
    assert not isinstance(caught.value, IndexError | KeyError | AttributeError)


def test_a_bad_argument_leaves_the_game_as_it_was(rules: lt.Rules) -> None:
    """A refused play_out (too few agents) neither moves nor spoils the newest game's working copy."""
    game = lt.new_game(rules, 4, seed=5)
    game = game.choose(game.legal_keys()[0])
    with pytest.raises(lt.ArgumentError):
        game.play_out([FIRST] * 3)
    assert game.play_out([FIRST] * 4) == lt.Game(game.rules, game.state).play_out([FIRST] * 4)


def test_the_seat_range_follows_the_game(rules: lt.Rules) -> None:
    """Seats go up to the game's own count: a solo game has seats 0 and 1 (Automa), and one or two agents."""
    solo = lt.new_game(rules, 1, seed=2)
    assert solo.observation(1).seat == 1
    with pytest.raises(lt.ArgumentError, match="seats are 0 to 1"):
        solo.observation(2)
    assert solo.play_out([FIRST]).is_over and solo.play_out([FIRST, FIRST]).is_over
    with pytest.raises(lt.ArgumentError, match=r"1 \(you; Automa plays by her own rules\) for this game, not 3"):
        solo.play_out([FIRST] * 3)


def test_good_arguments_still_work(rules: lt.Rules, game: lt.Game) -> None:
    """The checks refuse nothing right: an int subclass is a seat, a tuple of agents plays, a Path is an edition."""
    import enum
    from pathlib import Path

    class Seat(enum.IntEnum):
        TWO = 2

    assert game.observation(Seat.TWO).seat == 2 and type(game.observation(Seat.TWO).seat) is int
    assert lt.play(rules, (FIRST, FIRST, FIRST), seed=3).is_over
    board = Path(lt.__file__).resolve().parent.parent / "boards" / "galecrest.yaml"
    if board.is_file():
        assert lt.load_rules(board).board.edition == "galecrest"
    assert lt.agents.RandomAgent(2**70).choose(game.observation(0), game.decision) in game.legal_keys()
    assert game.observation(0).sample_game(random.Random(1)).decision is not None
