"""The game's own flow proves itself: each bundled board's ``examples:`` run and pass, and catch planted engine bugs.

A card's examples pin what its text says; a board's pin what no card says (R3, R4, R13, R14,
R26, R28, S1-S3, C1, C4, C5).  Each bug below is planted in the engine for one test
(monkeypatch, so only the pure build runs them) and must fail at least one flow example.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from libertalia import _paths
from libertalia import game as game_module
from libertalia.engine import automa, work
from libertalia.engine.program import amounts
from libertalia.engine.specs import SoloRow
from libertalia.loading import examples as examples_module
from libertalia.loading.examples import is_board, run_examples
from tests.helpers import patches_engine

BOARDS = _paths.boards_dir()  # the installed package's boards (CI runs a copy of the tests beside a compiled install)
EDITIONS = ("galecrest", "classic")


def _failed(edition: str) -> list[str]:
    """The ``it`` of each flow example of ``edition``'s board that fails now (the rules loaded afresh)."""
    examples_module._rules.cache_clear()
    try:
        return [r.example.it for r in run_examples(BOARDS / f"{edition}.yaml") if r.failure is not None]
    finally:
        examples_module._rules.cache_clear()


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_flow_examples_pass(edition: str) -> None:
    """Each bundled board carries examples of the flow, and every one passes under its own board."""
    path = BOARDS / f"{edition}.yaml"
    assert is_board(path)
    results = run_examples(path)
    assert len(results) >= 7, f"{path} pins too little of the flow"
    failures = [str(r.failure) for r in results if r.failure is not None]
    assert not failures, "\n\n".join(failures)


def test_a_card_file_is_no_board() -> None:
    """Only a file with the board's own keys (edition and bag) is read as a board."""
    cards = _paths.cards_dir()
    assert not is_board(cards / "galecrest" / "characters" / "26-cook.yaml")
    assert not is_board(BOARDS / "galecrest" / "solo-deck.yaml")


def _reversed_ties(original: Callable[..., tuple[float, float]]) -> Callable[..., tuple[float, float]]:
    def sort_key(self: Any, ref: Any) -> tuple[float, float]:
        rank, tie = original(self, ref)
        return (rank, -tie if ref[0] is not None else tie)
    return sort_key


def _greedy_sets(n: int, rows: tuple[amounts.Row, ...]) -> int:
    """A plausible wrong split: as many of the largest set as fit, then the next largest."""
    total = 0
    for row in sorted((r for r in rows if r.count > 0), key=lambda r: -r.count):
        total += (n // row.count) * row.value
        n %= row.count
    return total


def _lower_reputation_wins(self: Any) -> tuple[int, ...]:
    seats = self.players
    best = max(p.score for p in seats)
    tied = [p.seat for p in seats if p.score == best]
    return (min(tied, key=lambda i: seats[i].reputation),)


@patches_engine
@pytest.mark.parametrize("edition", EDITIONS)
def test_a_reversed_reveal_order_of_equal_ranks_is_caught(edition: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """R4 and C1: equal ranks revealed the wrong way round (lower reputation, higher number, right) fail the flow."""
    monkeypatch.setattr(work.Work, "sort_key", _reversed_ties(work.Work.sort_key))
    failed = _failed(edition)
    wanted = "R4" if edition == "galecrest" else "C1"
    assert any(it.startswith(wanted) for it in failed), failed


@patches_engine
def test_the_lower_reputation_winning_a_tie_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R26: a tie of final scores given to the lower reputation fails the flow."""
    monkeypatch.setattr(game_module.Game, "winners", _lower_reputation_wins)
    assert any(it.startswith("R26") for it in _failed("galecrest"))


@patches_engine
def test_a_tie_broken_in_the_classic_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R26 (Classic): a tie broken instead of shared fails the flow."""
    monkeypatch.setattr(game_module.Game, "winners", _lower_reputation_wins)
    assert any(it.startswith("R26") for it in _failed("classic"))


@patches_engine
def test_a_greedy_split_of_maps_into_sets_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """R14: the largest sets first (4 maps: 12, not 14; 7 maps: 24, not 26) fails the flow."""
    monkeypatch.setattr(amounts, "best_sets", _greedy_sets)
    failed = _failed("galecrest")
    assert sum(it.startswith("R14") for it in failed) >= 2, failed


def _pilferer_right_on_ties(original: Callable[..., tuple[float, float]]) -> Callable[..., tuple[float, float]]:
    def sort_key(self: Any, ref: Any) -> tuple[float, float]:
        rank, tie = original(self, ref)
        return (rank, float("inf")) if ref[0] is None else (rank, tie)
    return sort_key


@patches_engine
def test_the_pilferer_going_right_on_a_rank_tie_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """S1: the Pilferer's card put right of an equal rank (Automa's "no effect" rank) fails the flow."""
    monkeypatch.setattr(work.Work, "sort_key", _pilferer_right_on_ties(work.Work.sort_key))
    assert any(it.startswith("S1: the Pilferer's card goes left") for it in _failed("galecrest"))


_NEVER = SoloRow(at_least=(("no such category", 9),))
_ROWS = ("first", "second", "third", "fourth", "fifth")


@patches_engine
@pytest.mark.parametrize(("row", "replaced"), [(0, _NEVER), (1, _NEVER), (2, _NEVER), (3, _NEVER),
                                              (3, SoloRow(at_least=(("average", 1),)))])
def test_a_solo_table_row_read_wrong_is_caught(row: int, replaced: SoloRow, monkeypatch: pytest.MonkeyPatch) -> None:
    """S3: each row of the solo table is pinned: a row that never applies, or a fourth row that takes the fifth's
    loot (one bad and two average tokens), fails that row's flow example."""
    original = automa.table_pick

    def table_pick(solo: Any, top: Any, today: Any, hand: Any, symbols: Any) -> int:
        rows = tuple(replaced if i == row else r for i, r in enumerate(solo.rows))
        return original(attrs.evolve(solo, rows=rows), top, today, hand, symbols)

    monkeypatch.setattr(automa, "table_pick", table_pick)
    pinned = _ROWS[row] if replaced is _NEVER else "fifth"
    failed = _failed("galecrest")
    assert any(f"the solo table's {pinned} row" in it for it in failed), failed
