"""A character's own printed tie-breakers (``tie_breakers:`` in its file), for boards that order equal ranks by them.

Rule (docs/modding.md "New ranks in the 2012 edition", docs/editions.md): on a board with
``island_ties: tie_breakers`` every character needs numbers for its rank, from its own file
(a list, one number per seat colour, or a pattern's name of the board) or from the board's
table; a card's own stand before the table's.  Every mistake is reported at the card file's
line and column, by ``load_rules`` and ``cards check`` alike; a modder is never sent to the
bundled board.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import libertalia as lt
from libertalia.cli import main
from libertalia.loading.rules import check_files

WITCH = "name: Sea Witch\nrank: 31\n{extra}text: |\n  sun: gain 2 doubloons.\n"


def mod(tmp_path: Path, extra: str = "") -> Path:
    """A mod folder with the rank-31 Sea Witch (the 2012 table stops at 30), ``extra`` lines after its rank."""
    folder = tmp_path / "mod"
    folder.mkdir(exist_ok=True)
    (folder / "witch.yaml").write_text(WITCH.format(extra=extra), encoding="utf-8")
    return folder


def island_after_both_play(rules: lt.Rules) -> tuple[int, ...]:
    """The seats of the island's cards, left to right, after both seats of a 2-player game play the Sea Witch."""
    hand = {"hand": ["Sea Witch", "Parrot", "Monkey"]}
    game = lt.new_game(rules, 2, setup={"players": [hand, hand]})
    game = game.choose("Sea Witch").choose("Sea Witch")
    return tuple(seat for seat, name in game.island if name == "Sea Witch")


@pytest.mark.parametrize(("numbers", "order"), [("[1, 2, 3, 4, 5, 6]", (0, 1)), ("[6, 5, 4, 3, 2, 1]", (1, 0))])
def test_a_cards_own_numbers_order_its_equal_ranks(tmp_path: Path, numbers: str, order: tuple[int, ...]) -> None:
    """C1 with a mod's rank: two seats playing the same new card sit by its printed numbers, lower left."""
    rules = lt.load_rules("classic", extra_cards=[mod(tmp_path, f"tie_breakers: {numbers}\n")])
    assert island_after_both_play(rules) == order


def test_a_pattern_of_the_board_may_be_named(tmp_path: Path) -> None:
    """A card may name one of the board's patterns instead of listing its numbers; it gets that pattern's numbers."""
    rules = lt.load_rules("classic", extra_cards=[mod(tmp_path, "tie_breakers: P6\n")])
    assert rules.board.tie_breakers[31] == rules.board.tie_breakers[6]  # rank 6 is a P6 rank


def test_a_cards_own_numbers_stand_before_the_boards_for_its_rank(tmp_path: Path) -> None:
    """A card replacing a bundled one at a rank of the table, with numbers of its own, is ordered by its own."""
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "parrot.yaml").write_text(
        "name: Parrot\nrank: 1\ntie_breakers: [9, 8, 7, 6, 5, 4]\ntext: |\n  sun: gain 1 doubloon.\n", encoding="utf-8")
    rules = lt.load_rules("classic", extra_cards=[folder])
    assert rules.board.tie_breakers[1] == (9, 8, 7, 6, 5, 4)
    assert lt.load_rules("classic").board.tie_breakers[1] != (9, 8, 7, 6, 5, 4)


@pytest.mark.parametrize(("line", "message", "expected"), [
    ("tie_breakers: P7", "unknown tie-breaker pattern 'P7'", "one of P1, P2, P3, P4, P5, P6"),
    ("tie_breakers: [1, 2, 3]", "tie_breakers has 3 numbers, but Libertalia (2012) seats up to 6 players",
     "at least 6 numbers"),
    ("tie_breakers: [1, 2, 3, 4, 5, 1]", "tie_breakers gives 1 to two seat colours", "6 different numbers"),
    ("tie_breakers: 4", "tie_breakers must be a list of numbers or a pattern's name", "a number per seat colour"),
    ("tie_breakers: [1, 2, x, 4, 5, 6]", "a tie-breaker", ""),
])
def test_a_malformed_tie_breakers_is_an_error_at_its_line(tmp_path: Path, line: str, message: str,
                                                          expected: str) -> None:
    """Every tie_breakers mistake names the card file, line and column, in load_rules and cards check alike."""
    folder = mod(tmp_path, line + "\n")
    with pytest.raises(lt.DataError) as info:
        lt.load_rules("classic", extra_cards=[folder])
    error = info.value
    assert error.path == str(folder / "witch.yaml") and error.line == 3 and error.column >= 15
    assert message in error.message and expected in error.expected
    assert error.source_line == line
    checked = check_files([folder], "classic")
    assert [str(e) for e in checked] == [str(error)]


def test_a_board_that_orders_ties_by_reputation_refuses_the_key(tmp_path: Path) -> None:
    """A key no game of the edition would read is refused (unknown keys are errors), at its line, naming the edition."""
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "witch.yaml").write_text(
        "name: Sea Witch\nrank: 41.5\ntie_breakers: P1\ntext: |\n  sun: gain 2 doubloons.\n", encoding="utf-8")
    with pytest.raises(lt.DataError, match="orders equal ranks by reputation") as info:
        lt.load_rules("galecrest", extra_cards=[folder])
    assert (info.value.line, info.value.column) == (3, 15)
    assert "island_ties: tie_breakers" in info.value.expected and "classic" in info.value.expected
    assert [str(e) for e in check_files([folder], "galecrest")] == [str(info.value)]


def test_cards_check_and_test_send_the_modder_to_their_own_rank_line(tmp_path: Path) -> None:
    """Issue 34: the 2012 rank error points at the mod's own file and line and says how to give the numbers there."""
    folder = mod(tmp_path)
    (folder / "witch.yaml").write_text(
        WITCH.format(extra="") + "examples:\n  - it: pays 2\n    setup:\n      players:\n"
        "        - {hand: [Sea Witch, Parrot, Monkey]}\n        - {hand: [Cook, Parrot, Monkey]}\n"
        "    play: [Sea Witch, Cook]\n    expect:\n      - {doubloons: 2}\n", encoding="utf-8")
    for command in ("check", "test"):
        result = CliRunner().invoke(main, ["cards", command, "--edition", "classic", str(folder)])
        assert result.exit_code == 1, result.output
        assert f"{folder / 'witch.yaml'}:2:7: Sea Witch has rank 31" in result.output
        assert "rank: 31\n" in result.output and "tie_breakers: [2, 1, 4, 3, 5, 6]" in result.output
        assert "boards" not in result.output
    with (folder / "witch.yaml").open("a", encoding="utf-8") as fh:
        fh.write("tie_breakers: [1, 2, 3, 4, 5, 6]\n")
    for command in ("check", "test"):
        result = CliRunner().invoke(main, ["cards", command, "--edition", "classic", str(folder)])
        assert result.exit_code == 0, result.output
