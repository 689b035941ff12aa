import os

import pytest
from hypothesis import HealthCheck, settings

from tests import slow_tests

settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# A long run for the fuzz properties that use the profile's example count (the setup fuzzing):
# HYPOTHESIS_PROFILE=long, with LIBERTALIA_FUZZ_EXAMPLES examples (2,000 unless told).
settings.register_profile("long", max_examples=int(os.environ.get("LIBERTALIA_FUZZ_EXAMPLES") or 2000),
                          deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# ---------------------------------------------------------------- the quick run: -m "not slow"
# tests/slow_tests.txt names the tests that take seconds each (measured directory by directory, with
# --junitxml); they are marked ``slow`` here, in one place, so that test files need no marks.
# `python -m pytest -q -m "not slow"` is the quick run (docs/testing.md); CI runs everything.
def pytest_configure(config: pytest.Config) -> None:
    # Also registered in pyproject.toml; here too for CI's copy of tests/, which runs without it.
    config.addinivalue_line("markers", "slow: takes seconds; listed in tests/slow_tests.txt")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = slow_tests.load()
    for item in items:
        if slow_tests.is_listed(slow_tests.node_id(item.path, item.nodeid), slow):
            item.add_marker(pytest.mark.slow)
