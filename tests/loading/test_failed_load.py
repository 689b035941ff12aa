"""A failed load leaves nothing behind: the next load is as if it never happened (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt


def test_failed_mod_load_leaves_no_state(tmp_path: Path) -> None:
    """After a mod that fails to load, the same edition loads exactly as before, and a game plays the same."""
    before = lt.load_rules("galecrest")
    game_before = lt.play(before, [lt.agents.RandomAgent(i) for i in range(3)], seed=4)
    (tmp_path / "bad.yaml").write_text("name: Fan\nrank: 41.5\ntext: |\n  sun: gain 1 doubloon if youhold a map.\n",
                                       encoding="utf-8")
    with pytest.raises(lt.CardError):
        lt.load_rules("galecrest", extra_cards=[tmp_path])
    (tmp_path / "bad.yaml").write_text("name: Cook\nrank: 26\ntext: |\n  dusk: gain 9 doubloons.\n", encoding="utf-8")
    modded = lt.load_rules("galecrest", extra_cards=[tmp_path])
    assert modded.card("Cook").text == "dusk: gain 9 doubloons."
    after = lt.load_rules("galecrest")
    assert after.card("Cook").text == before.card("Cook").text
    assert after.identity == before.identity and after.fingerprint == before.fingerprint
    game_after = lt.play(after, [lt.agents.RandomAgent(i) for i in range(3)], seed=4)
    assert game_after.state == game_before.state


def test_failed_choice_leaves_the_game_unchanged() -> None:
    """An illegal choice raises IllegalChoice listing the legal keys; the game it was applied to is untouched."""
    game = lt.new_game(lt.load_rules("galecrest"), 3, seed=2)
    state = game.state
    with pytest.raises(lt.IllegalChoice) as info:
        game.choose("Nobody")
    assert set(info.value.legal) == set(game.legal_keys())
    assert game.state == state and game.state is state
