"""Shared scenario helpers: declared positions and scripted answers."""

from __future__ import annotations

import functools
import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import libertalia as lt
from libertalia.engine import rng

ENGINE_COMPILED = rng._NATIVE
"""Whether the engine imported is the compiled build (``LIBERTALIA_COMPILE=1``, hatch_build.py)."""

patches_engine = pytest.mark.skipif(
    ENGINE_COMPILED, reason="it patches an engine function or method to watch or change it; compiled engine "
                            "code calls its own functions directly, so the patch is never seen there")
"""For a test that monkeypatches inside the engine: the pure build runs it, the compiled one cannot."""


@contextmanager
def fresh_pickle_registry() -> Iterator[None]:
    """No rules met by ``libertalia.pickling`` within the block, and the registry as it was after it.

    Unpickling gives the first equal rules a process met: a test module that pickles rules starts
    from none (earlier tests may have met other, equal ones) and leaves none behind (later ones,
    such as the docs' blocks, expect a process that met no rules).
    """
    from libertalia import pickling

    kept = dict(pickling._LOADED), dict(pickling._RECIPES)
    pickling._LOADED.clear()
    pickling._RECIPES.clear()
    try:
        yield
    finally:
        pickling._LOADED.clear()
        pickling._RECIPES.clear()
        pickling._LOADED.update(kept[0])
        pickling._RECIPES.update(kept[1])


def write_cards(folder: Path, cards: Mapping[str, tuple[float, str]]) -> Path:
    """One mod character file per entry, ``name: (rank, text)``, in ``folder`` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, (rank, text) in cards.items():
        (folder / f"{name.lower()}.yaml").write_text(f"name: {name}\nrank: {rank}\ntext: |\n  {text}\n",
                                                     encoding="utf-8")
    return folder


def mod_rules(*folders: Path, **options: Any) -> lt.Rules:
    """Galecrest with the mod folders, reconstructed loot's warning silenced (options: ``load_rules``'s)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        return lt.load_rules("galecrest", extra_cards=list(folders), **options)


@functools.cache
def galecrest() -> lt.Rules:
    return lt.load_rules("galecrest")


def start(n: int = 3, /, seed: int = 0, rules: lt.Rules | None = None, **setup: Any) -> lt.Game:
    """A game at a declared position (see api.md ``setup``).

    ``players`` in ``setup`` is the per-seat list; an int there is taken as the
    seat count, so both ``start(3, players=[...])`` and ``start(players=3)`` work.
    """
    if isinstance(setup.get("players"), int):
        n = setup.pop("players")
    return lt.new_game(rules or galecrest(), players=n, seed=seed, setup=setup)


def answer(game: lt.Game, *keys: str) -> lt.Game:
    """Apply keys in order, failing with the legal keys if one is not offered."""
    for key in keys:
        game = game.choose(key)
    return game


def answer_all(game: lt.Game, keys: Iterable[str]) -> lt.Game:
    return answer(game, *keys)


def seat(game: lt.Game, i: int) -> lt.PlayerState:
    return game.players[i]


def coins(game: lt.Game) -> list[int]:
    """Doubloons per seat."""
    return [p.doubloons for p in game.players]


def reps(game: lt.Game) -> list[int]:
    """Reputation track space per seat."""
    return [p.reputation for p in game.players]


def scores(game: lt.Game) -> list[int]:
    """Banked score per seat."""
    return [p.score for p in game.players]


def at(game: lt.Game, kind: str, player: int | None = None) -> None:
    """Fail unless the game waits on a decision of ``kind`` (and, if given, for ``player``)."""
    d = game.decision
    assert d is not None, "the game should be waiting on a decision"
    assert d.kind == kind, (d.kind, d.prompt, game.legal_keys())
    if player is not None:
        assert d.player == player, (d.player, d.prompt)


class Hang(BaseException):  # noqa: N818 - a BaseException, so that no ``except Exception`` can swallow it
    """A block ran past its time limit: what a fuzz test reports as a hang."""


@contextmanager
def time_limit(seconds: float = 20.0, *, wall: float | None = None) -> Iterator[None]:
    """Raise ``Hang`` if the block works for ``seconds`` of CPU time, or waits ``wall`` seconds (30 x ``seconds``).

    CPU time measures the work the block does, whatever else the machine runs: on a loaded
    machine wall time stretches many times over, and a wall-time guard of a few seconds per
    example made a fuzz test fail without a hang (issue 20, finding 14).  The wall limit only
    catches a block that waits without working (a read that never returns), and is far above
    any loaded run.  (SIGPROF and SIGALRM timers; a no-op without them.)
    """
    if not hasattr(signal, "setitimer"):  # pragma: no cover - not on Windows
        yield
        return
    wall = 30 * seconds if wall is None else wall

    def expire(signum: int, frame: object) -> None:
        if signum == signal.SIGPROF:
            raise Hang(f"more than {seconds:g} s of CPU time: a hang")
        raise Hang(f"no answer within {wall:g} s of waiting: a hang")

    previous = {sig: signal.signal(sig, expire) for sig in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, wall)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run_group(args: Sequence[str], *, timeout: float, **options: Any) -> subprocess.CompletedProcess[str]:
    """``subprocess.run`` in a session of its own, whose whole process group is killed in every outcome.

    ``subprocess.run`` kills only the process it started when ``timeout`` runs out, and waits for its
    output pipes to close: a shell's children (a ``simulate --jobs`` pool, a command left in the
    background) would run on, and hold the pipes open.  Here the output goes to files, the wait is
    for the process started, and then its group is killed.  ``timeout`` guards against a hang; it is
    never a measure of speed: give it minutes.
    """
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as out, \
            tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as err:
        process = subprocess.Popen(args, start_new_session=True, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                   **options)
        try:
            process.wait(timeout=timeout)
        finally:
            kill_group(process.pid)
            process.wait()
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(list(args), process.returncode, out.read(), err.read())


def kill_group(leader: int) -> None:
    """SIGKILL to the process group ``leader`` started (``start_new_session=True``), if any of it is left."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, signal.SIGKILL)


def module_from_file(name: str, path: Path) -> ModuleType:
    """A script of the checkout that is no package module (a benchmark, the build hook), imported from ``path``.

    It is registered under ``name`` first, as an import would, so that its dataclasses can find their module.
    """
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
