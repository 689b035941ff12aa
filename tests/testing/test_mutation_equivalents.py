"""``cards mutate`` plays each survivor beside its card (issue 35, item 2): probably equivalent, or the example."""

from __future__ import annotations

from pathlib import Path

import pytest

from libertalia.loading.examples import run_examples
from libertalia.testing.mutation import Mutant, mutate, mutate_file

# Rank 41 is above every bundled character: "ranked below 42" and "below 41" or "below 43" differ only
# in the card itself, which is on the island, not in a ship, when its sun ability runs.
TALLY = """\
name: Tally Keeper
rank: 41
text: |
  sun: gain 2 doubloons for each character in your ship ranked below 42.
"""


def _tally(folder: Path, examples: str = "") -> Path:
    path = folder / "tally.yaml"
    path.write_text(TALLY + (f"examples:\n{examples}" if examples else ""), encoding="utf-8")
    return path


def _by_slip(mutants: tuple[Mutant, ...]) -> dict[str, Mutant]:
    return {m.slip: m for m in mutants}


def test_a_survivor_no_position_tells_apart_is_probably_equivalent_and_left_out_of_the_score(tmp_path: Path) -> None:
    """Item 2's rule: a survivor that plays as the card in every position tried is labelled probably
    equivalent with that number of positions, and the score is killed / (mutants - probably equivalent)."""
    result = mutate_file(_tally(tmp_path), operators=("number",), positions=12)
    mutants = _by_slip(result.mutants)
    assert set(mutants) == {"'2' → '3'", "'2' → '1'", "'42' → '43'", "'42' → '41'"}
    for slip in ("'42' → '43'", "'42' → '41'"):
        m = mutants[slip]
        assert m.survived and m.equivalent and m.positions == 12 and m.differs_in is None and m.example == ""
    assert result.killed == 0 and result.equivalent == 2 and result.score == 0.0


def test_a_survivor_that_plays_differently_carries_the_example_that_kills_it(tmp_path: Path) -> None:
    """Item 2's rule: a survivor that differs is reported with the first differing position, shrunk, as an
    examples: entry; pasted into the card's file it passes, and it kills the mutant."""
    path = _tally(tmp_path)
    result = mutate_file(path, operators=("number",), positions=12)
    differing = [m for m in result.survivors if not m.equivalent]
    assert [m.slip for m in differing] == ["'2' → '3'", "'2' → '1'"]
    for m in differing:
        assert m.differs_in and m.example.lstrip().startswith("# expect is the card's own play")
        assert f'- it: "tells the card from the slip {m.slip}' in m.example
    pasted = _tally(tmp_path, "".join(m.example for m in differing))
    assert all(r.passed for r in run_examples(pasted))
    again = mutate_file(pasted, operators=("number",), positions=12)
    assert again.killed == 2 and again.equivalent == 2 and again.score == 1.0


def test_killed_mutants_are_never_played_and_zero_positions_plays_no_survivor(tmp_path: Path) -> None:
    """The diff runs only on survivors (its cost stays bounded); --positions 0 leaves every survivor counted."""
    pasted = _tally(tmp_path)
    result = mutate_file(pasted, operators=("number",), positions=0)
    assert all(m.positions == 0 and not m.equivalent for m in result.mutants)
    assert result.equivalent == 0 and result.score == 0.0
    report = mutate([pasted], operators=("number",), positions=12)
    assert all(m.positions == 0 for c in report.cards for m in c.mutants if not m.survived)
    assert report.totals() == (0, 4) and report.equivalent() == 2 and report.score() == pytest.approx(0.0)


def test_the_json_report_holds_the_equivalents_and_the_example(tmp_path: Path) -> None:
    """Each survivor's JSON says whether it is probably equivalent, the positions tried and the example."""
    report = mutate([_tally(tmp_path)], operators=("number",), positions=12).to_json()
    assert report["total"] == {"killed": 0, "mutants": 4, "equivalent": 2, "score": 0.0}
    survivors = {s["slip"]: s for s in report["cards"][0]["survivors"]}
    assert survivors["'42' → '41'"]["probably_equivalent"] is True and survivors["'42' → '41'"]["positions"] == 12
    assert survivors["'2' → '3'"]["probably_equivalent"] is False and "- it:" in survivors["'2' → '3'"]["example"]
