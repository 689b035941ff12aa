"""Issue 24's newcomer frictions in the command line: Ctrl-C in simulate, solo's data note, card texts in choices."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import libertalia as lt
from libertalia import stats
from libertalia.cli import main
from libertalia.cli.display import card_text, decision_lines, option_texts
from tests.helpers import time_limit


def _cli(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The installed command as a user runs it, in its own process (so warnings print as they would)."""
    env = {**os.environ, "LIBERTALIA_CACHE_DIR": "off"}
    return subprocess.run([sys.executable, "-m", "libertalia", *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120, check=False)


def test_simulate_interrupted_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during simulate: status 130 and one line, as play does, not click's 'Aborted!' and 1."""
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt
        yield  # pragma: no cover - a generator, as stats.simulate is

    monkeypatch.setattr(stats, "simulate", interrupted)
    result = CliRunner().invoke(main, ["simulate", "--games", "2", "--players", "3"])
    assert result.exit_code == 130
    assert "Interrupted" in result.output and "Aborted" not in result.output


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_simulate_sigint_exits_130(tmp_path: Path) -> None:
    """A real SIGINT to a running simulate ends it with status 130 and no traceback, wherever the suite runs.

    The child gets SIGINT's default disposition back (a background shell ignores it, and a child would
    inherit that), runs unbuffered with ``--csv`` so that its first game's rows say start-up is over, and is
    killed in every outcome: no ``--games 100000`` run outlives the test.
    """
    env = {**os.environ, "LIBERTALIA_CACHE_DIR": "off", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "libertalia", "simulate", "--games", "100000", "--players", "3",
                             "--csv"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        with time_limit(300, wall=300):  # a guard: a child that never writes fails the test, never hangs it
            assert proc.stdout is not None and proc.stdout.readline().startswith("seed,"), "no CSV header"
            assert proc.stdout.readline(), "no game came back"  # the games are under way
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=300)  # a guard against a hang, not a measure
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Interrupted" in err


def test_solo_data_warning_is_one_plain_line(tmp_path: Path) -> None:
    """S1: solo's constructed-cards warning shows once as a 'note:' line, never Python's path-and-line form."""
    done = _cli("play", "--players", "1", "--seed", "3", cwd=tmp_path, stdin="1\nquit\n")
    everything = done.stdout + done.stderr
    notes = [line for line in everything.splitlines() if "constructions" in line]
    assert len(notes) == 1 and notes[0].startswith("note: "), everything
    assert "Warning:" not in everything and ".py:" not in everything


def test_choice_list_shows_each_cards_text() -> None:
    """A choice of characters shows, under each, what the card does (its whole text), with no 'show NAME'."""
    rules = lt.load_rules("galecrest")
    game = lt.new_game(rules, 3, seed=3)
    decision = game.decision
    assert decision is not None
    texts = option_texts(decision, rules)
    assert set(texts) == {o.key for o in decision.options if rules.card(o.key).text.strip()}
    assert all(t == card_text(rules.card(k).text) for k, t in texts.items())
    shown = "\n".join(line.plain for line in decision_lines(decision, 80, texts=texts))
    assert "…" not in shown
    for option in decision.options:
        assert " ".join(rules.card(option.key).text.split()) in " ".join(shown.split()), option.key


def test_card_text_keeps_one_ability_a_line() -> None:
    """A card text under an option keeps its abilities on lines of their own, spaces made single, nothing cut."""
    assert card_text("sun:  gain 1\n\n  moon: lose   2 doubloons.  ") == "sun: gain 1\nmoon: lose 2 doubloons."
    long = "dusk: " + " ".join(["word"] * 80) + "."
    assert card_text(long) == long


def test_play_prompt_shows_card_texts(tmp_path: Path) -> None:
    """The play command's first choice list carries the cards' texts."""
    done = _cli("play", "--players", "3", "--seed", "3", cwd=tmp_path, stdin="quit\n")
    rules = lt.load_rules("galecrest")
    hand = lt.new_game(rules, 3, seed=3).decision
    assert hand is not None
    first = hand.options[0].key
    assert " ".join(rules.card(first).text.split()[:4]) in done.stdout
