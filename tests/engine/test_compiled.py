"""The compiled build (``LIBERTALIA_COMPILE=1``, see hatch_build.py) plays exactly the games the pure one does.

``DIGESTS`` (data/compiled_digests.json) holds a digest of each of many seeded games, written by
the pure build with

    PYTHONPATH=. python tests/engine/test_compiled.py

(it refuses to run on a compiled build).  The test recomputes them with whichever build is
imported, so the same file checks the pure build against itself and the compiled build against
the pure one.  Play-outs cover both editions, 1 to 6 seats, solo and every loot side; the
``choose()`` lines are those of test_resume (which saves and branches along the way) on other
seeds.  Run the script again only on purpose, as for ``golden_events``.

``test_the_engine_modules_are_compiled`` runs only where the compiled build is imported (or where
``LIBERTALIA_EXPECT_COMPILED=1`` says it must be, as in CI's compiled step, so that a build that
silently fell back to pure Python fails).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

if __package__ in (None, ""):  # run as a script: the checkout's root on the path, for tests.engine
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.engine.test_resume import _saved, play_line  # noqa: E402
from tests.helpers import module_from_file

PATH = Path(__file__).with_name("data") / "compiled_digests.json"
ROOT = Path(__file__).resolve().parents[2]

_SIDES = {"galecrest": (None, "stormy", "uncharted"), "classic": (None,)}

# (edition, loot, players, seed): 200 play-outs between random agents, both editions, every loot
# side, 1 to 6 seats (the classic game has no solo).
PLAYOUTS: tuple[tuple[str, str | None, int, int], ...] = tuple(
    (edition, _SIDES[edition][(seed // 2) % len(_SIDES[edition])],
     2 + (seed // 3) % 5 if edition == "classic" else 1 + (seed // 3) % 6, 100 + seed)
    for seed in range(200) for edition in ("galecrest" if seed % 3 else "classic",))

# (edition, loot, players, seed): choose() lines, saved and branched along the way (test_resume's).
LINES: tuple[tuple[str, str | None, int, int], ...] = (
    *(("galecrest", None, n, 300 + n * 7 + k) for n in (1, 2, 3, 4, 5, 6) for k in range(3)),
    *(("classic", None, n, 400 + n * 7 + k) for n in (2, 3, 4, 5, 6) for k in range(2)),
    ("galecrest", "stormy", 3, 501), ("galecrest", "stormy", 1, 502), ("galecrest", "uncharted", 5, 503),
    ("galecrest", "uncharted", 1, 504),
)


def _rules(edition: str, loot: str | None) -> Any:
    import libertalia as lt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reconstructed loot and solo cards warn on purpose
        return lt.load_rules(edition, loot=loot) if loot else lt.load_rules(edition)


def play_out(edition: str, loot: str | None, players: int, seed: int) -> str:
    """A seeded play-out between random agents: the digest of its save, events, history and scores."""
    import libertalia as lt

    rules = _rules(edition, loot)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game = lt.play(rules, [lt.agents.RandomAgent(seed * 10 + i) for i in range(players)], seed=seed)
    digest = hashlib.blake2b(digest_size=16)
    digest.update(_saved(game).encode())
    digest.update(repr(game.events).encode())
    digest.update("\n".join(map(str, game.events)).encode())
    digest.update(repr((game.history, game.final_scores(), game.winners())).encode())
    return digest.hexdigest()


def _name(kind: str, edition: str, loot: str | None, players: int, seed: int) -> str:
    return f"{kind}-{edition}{'-' + loot if loot else ''}-{players}p-seed{seed}"


def record() -> dict[str, str]:
    out = {_name("play", *g): play_out(*g) for g in PLAYOUTS}
    for edition, loot, players, seed in LINES:
        out[_name("choose", edition, loot, players, seed)] = play_line(edition, loot, players, seed, None, True)[0]
    return out


LEARNING_GLUE = ("_vector", "_glance", "_envstep", "_spiel_play", "_spiel_text")
"""The learning path's compiled modules (hatch_build.py's): the vector's fill, the view it reads, the env's
per-step glue, and the OpenSpiel state's steps and table text."""


def _engine_modules() -> list[str]:
    """The modules the compiled build compiles (hatch_build.py's: the engine, the library's agents and the
    env's per-step modules, ``LEARNING_GLUE``), read from the package's files."""
    import libertalia

    package = Path(libertalia.__file__).parent
    sources = [*sorted((package / "engine").rglob("*.py")), package / "agents.py",
               *(package / f"{name}.py" for name in LEARNING_GLUE)]
    names = [".".join(("libertalia", *p.relative_to(package).with_suffix("").parts)) for p in sources]
    return [n.removesuffix(".__init__") for n in names]


def _compiled(module: str) -> bool:
    origin = importlib.import_module(module).__file__ or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


DIGESTS: dict[str, str] = json.loads(PATH.read_text()) if PATH.exists() else {}


# ---------------------------------------------------------------- the tests
def test_the_digests_cover_every_edition_side_and_seat_count() -> None:
    """The digest file holds every game listed: both editions, each loot side, 1 to 6 seats, choose() lines."""
    names = {_name("play", *g) for g in PLAYOUTS} | {_name("choose", *g) for g in LINES}
    assert set(DIGESTS) == names and len(DIGESTS) == len(PLAYOUTS) + len(LINES)
    assert {(e, loot) for e, loot, _, _ in PLAYOUTS} == {(e, s) for e in _SIDES for s in _SIDES[e]}
    assert {n for e, _, n, _ in PLAYOUTS if e == "galecrest"} == set(range(1, 7))


@pytest.mark.parametrize("chunk", range(10))
def test_seeded_play_outs_give_the_pure_builds_games(chunk: int) -> None:
    """Determinism across builds: each seeded play-out ends in the same save, events and scores."""
    games = PLAYOUTS[chunk::10]
    got = {_name("play", *g): play_out(*g) for g in games}
    assert got == {name: DIGESTS[name] for name in got}


@pytest.mark.parametrize("line", LINES, ids=lambda line: _name("choose", *line))
def test_choose_lines_give_the_pure_builds_decisions_saves_and_branches(
        line: tuple[str, str | None, int, int]) -> None:
    """Determinism across builds: every decision, mid-question save, branch and end of a choose() line."""
    edition, loot, players, seed = line
    assert play_line(edition, loot, players, seed, None, True)[0] == DIGESTS[_name("choose", *line)]


def test_the_engine_modules_are_compiled() -> None:
    """A compiled build really runs compiled: each engine module, card programs, agents, the vector fill and the
    OpenSpiel state's steps and strings included, is an extension."""
    modules = _engine_modules()
    compiled = [m for m in modules if _compiled(m)]
    if not compiled and os.environ.get("LIBERTALIA_EXPECT_COMPILED") != "1":
        pytest.skip("the pure build is imported (LIBERTALIA_COMPILE=1 builds the compiled one)")
    assert {"libertalia.engine.flow", "libertalia.engine.program.actions"} <= set(modules)
    assert compiled == modules, f"interpreted: {sorted(set(modules) - set(compiled))}"
    assert not _compiled("libertalia.state")  # its attrs classes stay Python (see hatch_build.py)



def _hook() -> Any:
    """hatch_build.py, the build hook at the checkout's root."""
    return module_from_file("hatch_build", ROOT / "hatch_build.py")


@pytest.mark.skipif(not (ROOT / "hatch_build.py").exists(),
                    reason="a copy of the tests, away from the checkout")
def test_the_compiler_is_asked_for_only_when_the_build_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pure stays the default: without LIBERTALIA_COMPILE=1 the hook needs nothing and compiles nothing."""
    hook = _hook()
    project = SimpleNamespace(metadata=SimpleNamespace(core=SimpleNamespace(dependencies=["attrs>=23.1", "lark"])))
    monkeypatch.delenv("LIBERTALIA_COMPILE", raising=False)
    assert hook.CompileHook.dependencies(project) == [] and not hook.compile_wanted()
    monkeypatch.setenv("LIBERTALIA_COMPILE", "1")
    assert any(d.startswith("mypy") for d in hook.CompileHook.dependencies(project)) and hook.compile_wanted()
    sources = hook.compiled_sources(ROOT)
    assert "libertalia/engine/program/actions.py" in sources and "libertalia/state.py" not in sources
    assert all(p.startswith("libertalia/engine/") or p == "libertalia/agents.py"
               or p in (f"libertalia/{name}.py" for name in LEARNING_GLUE) for p in sources)


@pytest.mark.skipif(not (ROOT / "hatch_build.py").exists(),
                    reason="a copy of the tests, away from the checkout")
def test_a_compiled_build_brings_what_mypyc_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: mypyc type-checks the engine in pip's bare build environment, so the hook asks for the runtime
    dependencies and PyYAML's stubs too (without them a fresh venv's compiled install stopped at its first import)."""
    hook = _hook()
    project = SimpleNamespace(metadata=SimpleNamespace(core=SimpleNamespace(dependencies=["attrs>=23.1", "lark"])))
    monkeypatch.setenv("LIBERTALIA_COMPILE", "1")
    wanted = hook.CompileHook.dependencies(project)
    assert {"attrs>=23.1", "lark", "types-PyYAML"} <= set(wanted)


if __name__ == "__main__":
    if _compiled("libertalia.engine.flow"):
        sys.exit("write the digests with the pure build (the compiled one is imported)")
    PATH.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(PLAYOUTS) + len(LINES)} digests to {PATH}")
