"""The PettingZoo env's render modes (issue 24): "ansi" returns the table's text, "human" prints it."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import render_test  # noqa: E402 - only once the extra is known to be installed

import libertalia as lt  # noqa: E402
from libertalia.env import LibertaliaEnv, env, raw_env  # noqa: E402

RULES = lt.load_rules("galecrest")


def test_render_modes_are_declared() -> None:
    """PettingZoo reads the modes from metadata: both text modes are offered."""
    assert LibertaliaEnv.metadata["render_modes"] == ["human", "ansi"]


def test_pettingzoo_render_test_passes() -> None:
    """PettingZoo's render_test: ansi gives a string and human None, at every step of a game."""
    def make(render_mode: str | None = None) -> Any:
        return env(RULES, 3, render_mode=render_mode)

    render_test(make)


def test_ansi_returns_the_table_of_the_selected_seat() -> None:
    """ansi's text is the table as libertalia play lays it out, for the seat to move."""
    e = raw_env(RULES, 3, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert isinstance(text, str) and text == e.game.render(int(e.agent_selection[-1]))
    assert "Island" in text and "Your hand" in text


def test_human_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """human prints the same text to standard output and returns None."""
    e = raw_env(RULES, 3, render_mode="human")
    e.reset(seed=4)
    assert e.render() is None
    printed = capsys.readouterr().out
    assert printed.rstrip("\n") == e.game.render(int(e.agent_selection[-1]))


def test_unknown_render_mode_names_the_modes() -> None:
    """A mode the env has not (rgb_array) is refused, naming the ones it has."""
    with pytest.raises(lt.ArgumentError, match="'human' or 'ansi'"):
        raw_env(RULES, 3, render_mode="rgb_array")
