"""The speed yardstick in ``benchmarks/`` runs: the toy is seeded and ``ratio.py`` prints its figures.

Speed itself is never asserted here; these tests only keep the benchmark scripts working.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tests.helpers import module_from_file

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def _toy() -> ModuleType:
    return module_from_file("benchmarks_toy", BENCHMARKS / "toy.py")


def test_toy_plays_a_seeded_game_deterministically() -> None:
    """The toy yardstick is seeded: the same seed and seats give the same scores, other seeds others."""
    toy = _toy()
    for players in (2, 4, 6):
        games = [toy.play_game(seed, players) for seed in range(20)]
        assert games == [toy.play_game(seed, players) for seed in range(20)]
        assert all(len(scores) == players for scores in games)
        assert len(set(games)) > 1


def test_ratio_script_runs_one_small_round() -> None:
    """ratio.py runs one round of one game and prints its engine-against-toy figures (no timing checked)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LIBERTALIA_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, str(BENCHMARKS / "ratio.py"), "--rounds", "1", "--games", "1",
                           "--players", "3"], env=env, text=True, capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("3 players, galecrest, 1 rounds of 1 games")
    for label in ("play/toy", "choose/toy", "env/play", "spiel/ttt"):
        assert any(text.startswith(label) for text in lines), done.stdout


def test_startup_script_runs_once() -> None:
    """Issue 36 item 5: startup.py times one fresh process and one worker per start method (no timing checked)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(BENCHMARKS / "startup.py"), "--runs", "1", "--players", "3"],
                          env=env, text=True, capture_output=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "to first env step" in done.stdout and "spawn" in done.stdout


def test_shrink_script_measures_one_seeded_run() -> None:
    """Issue 35 item 8: shrink.py finds its planted bug in a seeded run; finding and shrinking reported apart."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LIBERTALIA_CACHE_DIR": "off"}
    done = subprocess.run([sys.executable, str(BENCHMARKS / "shrink.py"), "--one", "games", "0", "500"],
                          env=env, text=True, capture_output=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout.splitlines()[-1])
    assert run["found"] and run["find_calls"] >= 1 and run["shrink_calls"] >= 1, run
    assert run["answers"] > 0, run
