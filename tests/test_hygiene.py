"""The suite's own promises: the quick run (``-m "not slow"``) still touches every test module and every
package module, and a test's child processes end with it (docs/testing.md, "Running the suite")."""

from __future__ import annotations

import ast
import functools
import importlib
import os
import pkgutil
import signal
import sys
import time
from pathlib import Path

import pytest

import libertalia
from tests import slow_tests
from tests.helpers import run_group

TEST_MODULES = sorted(p for p in slow_tests.TESTS.rglob("test_*.py"))


@functools.cache
def _tests_in(module: Path) -> frozenset[str]:
    """The tests a module defines, as ``name`` or ``Class::name`` (a class built at run time: ``Class::*``)."""
    found: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            found.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            found.update(f"{node.name}::{f.name}" for f in node.body
                         if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.name.startswith("test"))
        elif isinstance(node, ast.Assign):  # TestX = SomeMachine.TestCase
            found.update(f"{t.id}::*" for t in node.targets if isinstance(t, ast.Name) and t.id.startswith("Test"))
    return frozenset(found)


def _entry(line: str) -> tuple[Path, str]:
    """(module, test) of a line of the slow list, the test without its parametrization."""
    module, _, test = line.partition("::")
    return slow_tests.TESTS.parent / module, test.split("[", 1)[0]


def test_every_slow_entry_names_a_test_that_exists() -> None:
    """Quick-run rule: each line of tests/slow_tests.txt names a test module and (unless bare) a test in it."""
    for line in sorted(slow_tests.load()):
        module, test = _entry(line)
        assert module.is_file() and module.name.startswith("test_"), f"{line}: no such test module"
        tests = _tests_in(module)
        found = not test or test in tests or f"{test.split('::')[0]}::*" in tests
        assert found, f"{line}: {module.name} defines no {test}"


def test_every_test_module_keeps_a_quick_test() -> None:
    """Quick-run rule: a module is listed whole only by naming it alone (a few); each other keeps a quick test."""
    listed = slow_tests.load()
    whole_modules = {line for line in listed if "::" not in line}
    assert len(whole_modules) <= slow_tests.WHOLE_MODULES, sorted(whole_modules)
    whole = {_entry(line) for line in listed if "[" not in line}  # one parametrization leaves others
    for module in TEST_MODULES:
        tests = _tests_in(module)
        assert tests, f"{module}: no test found"
        if module.relative_to(slow_tests.TESTS.parent).as_posix() in whole_modules:
            continue
        quick = {t for t in tests if (module, t) not in whole}
        assert quick, f"{module.relative_to(slow_tests.TESTS.parent)}: every test is listed slow, each by name"


def test_a_listed_function_marks_each_of_its_parametrizations() -> None:
    """Quick-run rule: ``path::name`` lists each parametrization of name, ``path::name[id]`` one, ``path`` all."""
    listed = frozenset({"tests/test_a.py::test_f", "tests/test_a.py::test_g[2]", "tests/test_b.py"})
    assert slow_tests.is_listed("tests/test_a.py::test_f[1-x]", listed)
    assert slow_tests.is_listed("tests/test_a.py::test_g[2]", listed)
    assert not slow_tests.is_listed("tests/test_a.py::test_g[3]", listed)
    assert not slow_tests.is_listed("tests/test_a.py::test_ff", listed)
    assert slow_tests.is_listed("tests/test_b.py::TestX::test_h[1]", listed)
    here = Path(__file__)
    assert slow_tests.node_id(here, "x/y/test_hygiene.py::test_x[1]") == "tests/test_hygiene.py::test_x[1]"


def test_the_listed_tests_and_only_they_are_marked_slow(request: pytest.FixtureRequest) -> None:
    """Quick-run rule: conftest marks exactly the collected tests the list names; no test file marks its own."""
    listed = slow_tests.load()
    assert listed, "the slow list is empty"
    for item in request.session.items:  # the whole suite when it runs whole; this test alone when run alone
        test = slow_tests.node_id(item.path, item.nodeid)
        assert (item.get_closest_marker("slow") is not None) == slow_tests.is_listed(test, listed), test
    own_mark = "mark." + "slow"  # spelt in two so that this file does not match itself
    for module in TEST_MODULES:
        assert own_mark not in module.read_text(encoding="utf-8"), f"{module.name}: list it in slow_tests.txt instead"


def test_every_package_module_imports() -> None:
    """Quick-run rule: the quick run imports every module of the package, so none goes unloaded."""
    names = [m.name for m in pkgutil.walk_packages(libertalia.__path__, "libertalia.")
             if not m.name.endswith("__main__")]  # __main__ runs the command line when imported
    assert len(names) > 50
    for name in names:
        importlib.import_module(name)


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_a_shell_blocks_background_job_ends_with_it(tmp_path: Path) -> None:
    """Hygiene rule: run_group (the docs' shell blocks) kills what a block leaves running, not only the shell."""
    done = run_group(["bash", "-c", "sleep 600 & echo $!"], cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    pid = int(done.stdout)
    for _ in range(600):  # SIGKILL is sent when run_group returns; the guard waits for it to land
        if not _alive(pid):
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)  # the test's own cleanup, then its verdict
    raise AssertionError(f"the block's background job {pid} outlived it")


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped (by init, once its shell has gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return not sys.platform.startswith("linux")
    return state not in {"Z", "X"}
