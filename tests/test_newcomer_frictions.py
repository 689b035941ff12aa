"""Issue 24's newcomer frictions that live in the library: unfinished scores and a readable rules repr."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import libertalia as lt
from libertalia.agents import RandomAgent
from libertalia.errors import GameNotOver


@pytest.fixture(scope="module")
def rules() -> lt.Rules:
    return lt.load_rules("galecrest")


@pytest.mark.parametrize("method", ["final_scores", "winners"])
def test_scores_of_an_unfinished_game_say_where_it_stands(rules: lt.Rules, method: str) -> None:
    """R26 scores are final only at the end: before it, a library error names the phase and how to finish."""
    game = lt.new_game(rules, 3, seed=1)
    with pytest.raises(GameNotOver) as caught:
        getattr(game, method)()
    text = str(caught.value)
    assert f"{method}()" in text and "voyage 1, day 1" in text and "'select'" in text
    assert "play_out" in text and "is_over" in text
    assert isinstance(caught.value, lt.LibertaliaError) and isinstance(caught.value, ValueError)


def test_mid_game_error_leaves_the_game_playable(rules: lt.Rules) -> None:
    """R26: asking too early changes nothing; the played-out game then answers."""
    game = lt.new_game(rules, 3, seed=2)
    game = game.choose(game.legal_keys()[0])
    with pytest.raises(GameNotOver, match="seat 1 is to answer"):
        game.winners()
    final = game.play_out([RandomAgent(seat) for seat in range(3)])
    assert final.is_over and len(final.final_scores()) == 3 and final.winners()


def test_rules_repr_is_one_short_line(rules: lt.Rules) -> None:
    """A rules repr names edition, counts, loot sides and fingerprint on one line, not 40,000 characters."""
    text = repr(rules)
    assert len(text) < 200 and "\n" not in text
    assert text.startswith("<Rules galecrest: ") and text.endswith(">")
    assert f"{len(rules.characters)} characters" in text and f"{len(rules.loot)} loot tiles" in text
    assert "loot calm" in text and rules.fingerprint[:8] in text


def test_rules_repr_names_mixed_uncharted_and_solo_sides(rules: lt.Rules) -> None:
    """The repr tells apart uncharted, per-kind and solo rules."""
    with pytest.warns(lt.UnverifiedLootWarning):
        uncharted = lt.load_rules("galecrest", loot="uncharted")
    assert "loot uncharted" in repr(uncharted)
    solo = repr(rules.for_solo())
    assert "solo" in solo and "=" in solo and len(solo) < 300


def test_rules_repr_names_mods(tmp_path: Path) -> None:
    """Rules loaded with extra cards say so, by folder name."""
    mod = tmp_path / "my-cards"
    mod.mkdir()
    assert "mods my-cards" in repr(lt.load_rules("galecrest", extra_cards=[mod]))


def test_short_repr_keeps_equality_hashing_and_pickling(rules: lt.Rules) -> None:
    """The custom repr is only a repr: equal rules still compare equal and round-trip through pickle."""
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and repr(again) == repr(rules)
