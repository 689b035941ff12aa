"""The list of slow tests (``tests/slow_tests.txt``) and how a test is matched against it.

A line names one test as ``tests/path.py::name`` (every parametrization of it), or one
parametrization as ``tests/path.py::name[id]``; a method is ``tests/path.py::Class::name``.  A line
naming a module alone (``tests/path.py``) lists all its tests: only for a module whose every test
waits on one slow module fixture, so that no test of it can stay quick (at most ``WHOLE_MODULES``).
``#`` starts a comment.  ``tests/conftest.py`` marks the tests listed ``slow``, and
``tests/test_hygiene.py`` checks that every line names a test that exists and that every test
module keeps a test the quick run (``-m "not slow"``) runs.
"""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
LIST = TESTS / "slow_tests.txt"
WHOLE_MODULES = 2
"""At most this many modules are listed whole: leaving a module out is a decision, not a drift."""


def load(path: Path = LIST) -> frozenset[str]:
    """The ids the file lists, without comments and blank lines."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line)


def node_id(path: Path, nodeid: str) -> str:
    """``tests/...py::name[...]`` for a collected test, wherever pytest's root is (CI runs a copy)."""
    try:
        module = Path(path).resolve().relative_to(TESTS.parent).as_posix()
    except ValueError:  # not under tests/: never listed
        return nodeid
    return f"{module}::{nodeid.split('::', 1)[1]}" if "::" in nodeid else module


def is_listed(test: str, listed: frozenset[str]) -> bool:
    """Whether ``test`` is listed itself, as the function it is a parametrization of, or by its module."""
    return test in listed or test.split("[", 1)[0] in listed or test.split("::", 1)[0] in listed
