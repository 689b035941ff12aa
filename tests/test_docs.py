"""Every ```python block of README.md and docs/*.md runs as written.

Each block runs on its own, in a fresh namespace and a fresh empty working folder, so it
may use only what it imports, the files it writes itself and the bundled data.  Blocks run
as a module named ``docs``, not ``__main__``: examples guarded by
``if __name__ == "__main__":`` (process pools, a cluster) define what they show without
starting it.  A block that is not meant to run is not marked ``python`` (``sh``, ``text``).
Blocks run under hypothesis' own default settings, not the suite's profile (which suppresses
health checks): a reader who copies a property gets what the block itself says, nothing more.
"""

from __future__ import annotations

import ast
import re
import textwrap
import warnings
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A fence may be indented, inside a list item; the block is dedented by the fence's indent.
FENCE = re.compile(r"^(?P<indent>[ \t]*)```python[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.S | re.M)


def python_blocks() -> list[tuple[str, int, str]]:
    """(file name, line of the fence, code) for every ```python block."""
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append((path.relative_to(ROOT).as_posix(), line, textwrap.dedent(m.group("body"))))
    return out


BLOCKS = python_blocks()


def test_the_docs_have_python_blocks() -> None:
    """The README and the guides hold python blocks, including an indented one (modding.md's, in a list)."""
    files = {name for name, _, _ in BLOCKS}
    assert {"README.md", "docs/api.md", "docs/solo.md", "docs/modding.md", "docs/editions.md"} <= files


@pytest.mark.parametrize(("name", "line", "code"), BLOCKS, ids=[f"{n}:{line}" for n, line, _ in BLOCKS])
def test_python_block_runs(name: str, line: int, code: str, tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The block runs without an error in an empty folder, with nothing defined beforehand."""
    monkeypatch.chdir(tmp_path)
    settings.register_profile("libertalia-suite", settings())  # the suite's profile, to go back to
    settings.load_profile("default")  # what a reader's copy runs under
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # unverified loot and solo cards warn on purpose
            exec(compile(code, f"{name}:{line}", "exec"), {"__name__": "docs"})  # noqa: S102 - the point of the test
    finally:
        settings.load_profile("libertalia-suite")


def test_no_doc_names_a_command_that_does_not_exist() -> None:
    """No doc tells people to run ``python -m libertalia --loot ...`` (the options belong to a subcommand)."""
    for path in DOCS:
        assert "python -m libertalia --" not in path.read_text(encoding="utf-8"), path.name


# Strategies that build and play games: slow to draw on a loaded machine, and (the second set) filtering.
_GAME_STRATEGIES = ("positions(", "interactions(", "games(", "GameMachine", "card_texts(")
_FILTERING = ("interactions(", "card_texts(")


def _health_checks(call: ast.Call) -> set[str]:
    """The ``HealthCheck.X`` names a ``settings(...)`` call suppresses."""
    found = next((k.value for k in call.keywords if k.arg == "suppress_health_check"), None)
    return {n.attr for n in ast.walk(found) if isinstance(n, ast.Attribute)} if found is not None else set()


def test_doc_properties_on_games_survive_a_busy_machine() -> None:
    """Docs rule (testing.md): a property drawing games says deadline=None and suppresses too_slow (and filter_too_much
    for a filtering strategy), so that a copy passes on a loaded machine as on a quiet one."""
    checked = 0
    for name, line, code in BLOCKS:
        if "hypothesis" not in code or not any(s in code for s in _GAME_STRATEGIES):
            continue
        tree = ast.parse(code)
        filtering = {}  # settings(...) decorating a property whose @given draws from a filtering strategy
        for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            decorators = [ast.unparse(d) for d in fn.decorator_list]
            if any(d.startswith("given(") for d in decorators):
                assert any(d.startswith("settings(") for d in decorators), f"{name}:{line}: {fn.name} has no @settings"
                drawn = next(d for d in decorators if d.startswith("given("))
                filtering.update({id(d): any(f in drawn for f in _FILTERING) for d in fn.decorator_list})
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id == "settings"]
        assert calls, f"{name}:{line}: a hypothesis block with no settings(...)"
        for call in calls:
            where = f"{name}:{line + call.lineno}: {ast.unparse(call)}"
            deadline = next((k.value for k in call.keywords if k.arg == "deadline"), None)
            assert isinstance(deadline, ast.Constant) and deadline.value is None, f"{where}: no deadline=None"
            wanted = {"too_slow", "filter_too_much"} if filtering.get(id(call)) else {"too_slow"}
            assert wanted <= _health_checks(call), f"{where}: suppresses {_health_checks(call) or 'nothing'}"
            checked += 1
    assert checked >= 10  # testing.md's properties, its machine and its fuzzing of a mod
