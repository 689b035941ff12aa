"""The bundled cards' examples kill at least 90% of the slips ``cards mutate`` makes, in each edition."""

from __future__ import annotations

import pytest

from libertalia import _paths
from libertalia.testing.mutation import MutationReport, mutate

THRESHOLD = 0.90
"""The share of accepted mutants each edition's examples must kill (docs/modding.md promises it)."""


@pytest.fixture(scope="module")
def report() -> MutationReport:
    cards = _paths.cards_dir()
    return mutate([cards / "galecrest", cards / "classic"])


@pytest.mark.parametrize("edition", ["galecrest", "classic"])
def test_each_editions_examples_kill_nine_mutants_in_ten(report: MutationReport, edition: str) -> None:
    """A slip in a bundled card (a number one off, a wrong side or owner, another timing) fails its examples."""
    killed, mutants = report.totals(edition)
    survivors = [f"{c.path}:{m.line}:{m.column}: {m.slip}" for c in report.cards if c.edition == edition
                 for m in c.survivors]
    assert mutants > 200, "the slips of an edition's cards were not all tried"
    assert killed / mutants >= THRESHOLD, f"{killed} of {mutants} killed; survivors:\n" + "\n".join(survivors)


def test_every_bundled_card_with_mutants_has_examples(report: MutationReport) -> None:
    """No bundled card leaves its slips to chance: each file that has mutants has examples."""
    assert [c.path for c in report.cards if c.mutants and not c.examples] == []
