"""Every bundled card and loot file proves itself: its ``examples:`` run and pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from libertalia.loading.examples import run_examples

CARDS = Path(__file__).resolve().parents[2] / "cards"
FILES = sorted(CARDS.rglob("*.yaml"))


def test_the_bundled_files_are_found() -> None:
    """The parametrization below sees both editions' characters and loot (a wrong path would test nothing)."""
    folders = {p.parent.relative_to(CARDS).as_posix() for p in FILES}
    assert {"galecrest/characters", "galecrest/loot/calm", "classic/characters", "classic/loot"} <= folders
    assert len(FILES) >= 90


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(CARDS).as_posix() for p in FILES])
def test_card_examples_pass(path: Path) -> None:
    """The file has examples, and they all pass under its own edition."""
    results = run_examples(path)
    assert results, f"{path} has no examples: every bundled card proves its effect"
    failures = [str(r.failure) for r in results if r.failure is not None]
    assert not failures, "\n\n".join(failures)
