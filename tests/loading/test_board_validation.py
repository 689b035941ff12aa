"""A board that no game could run with is a DataError at the offending field when it loads."""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from libertalia import _paths

GALECREST = (_paths.boards_dir() / "galecrest.yaml").read_text(encoding="utf-8")
CLASSIC = (_paths.boards_dir() / "classic.yaml").read_text(encoding="utf-8")


def variant(tmp_path: Path, *edits: tuple[str, str], base: str = GALECREST) -> Path:
    """A copy of a bundled board with each ``(old, new)`` text replaced once, written into ``tmp_path``."""
    text = base
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def position(path: Path, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based line and column of ``needle`` (its ``nth`` occurrence past the first) in the file."""
    text = path.read_text(encoding="utf-8")
    offset = -1
    for _ in range(nth + 1):
        offset = text.index(needle, offset + 1)
    before = text[:offset]
    return before.count("\n") + 1, offset - before.rfind("\n")


def load_error(path: Path, match: str) -> lt.DataError:
    """The DataError that loading the board raises, checked to name the board file and to match ``match``."""
    with pytest.raises(lt.DataError, match=match) as info:
        lt.load_rules(path)
    assert info.value.path == str(path)
    assert "^" in str(info.value)
    return info.value


def test_the_bundled_boards_pass_every_check() -> None:
    """Galecrest and the 2012 game load as shipped: the checks reject nothing real."""
    assert lt.load_rules("galecrest").board.players == (2, 6)
    assert lt.load_rules("classic").board.players == (2, 6)


def test_reputation_track_shorter_than_the_most_players(tmp_path: Path) -> None:
    """A 5-space track on a 6-player board is an error at ``income`` (it used to crash a 6-player game)."""
    path = variant(tmp_path, ("income: [12, 11, 10, 9, 8, 7]", "income: [12, 11, 10, 9, 8]"))
    err = load_error(path, "the reputation track has 5 spaces, but the board seats up to 6 players")
    assert (err.line, err.column) == position(path, "[12, 11")
    assert "at least 6 income numbers" in err.expected


def test_a_track_as_long_as_the_most_players_is_accepted(tmp_path: Path) -> None:
    """A 5-space track on a board for at most 5 players loads, and a 5-player game starts on it."""
    path = variant(tmp_path, ("income: [12, 11, 10, 9, 8, 7]", "income: [12, 11, 10, 9, 8]"),
                   ("{min: 2, max: 6}", "{min: 2, max: 5}"))
    game = lt.new_game(lt.load_rules(path), 5, seed=3)
    assert sorted(game.state.track) == [0, 1, 2, 3, 4]


def test_players_min_above_max(tmp_path: Path) -> None:
    """``players: {min: 4, max: 3}`` is an error at ``max``."""
    path = variant(tmp_path, ("{min: 2, max: 6}", "{min: 4, max: 3}"))
    err = load_error(path, r"players.max \(3\) is less than players.min \(4\)")
    assert (err.line, err.column) == position(path, "3}")


def test_players_min_below_one(tmp_path: Path) -> None:
    """``players.min`` of 0 is an error at ``min``."""
    path = variant(tmp_path, ("{min: 2, max: 6}", "{min: 0, max: 6}"))
    err = load_error(path, "players.min must be a whole number of at least 1, not 0")
    assert (err.line, err.column) == position(path, "0, max")


def test_negative_deal(tmp_path: Path) -> None:
    """A voyage dealing -1 cards is an error at that entry of ``deal``."""
    path = variant(tmp_path, ("deal: [6, 6, 6]", "deal: [6, -1, 6]"))
    err = load_error(path, "a deal size must be a whole number of at least 0, not -1")
    assert (err.line, err.column) == position(path, "-1")


def test_deal_larger_than_the_characters(tmp_path: Path) -> None:
    """Dealing 60 cards from Galecrest's 40 characters is an error at ``deal``."""
    path = variant(tmp_path, ("deal: [6, 6, 6]", "deal: [20, 20, 20]"))
    err = load_error(path, "the deal hands out 60 characters over the game, but only 40 are loaded")
    assert (err.line, err.column) == position(path, "[20, 20, 20]")


def test_no_voyages(tmp_path: Path) -> None:
    """``voyages: []`` is an error at ``voyages``."""
    path = variant(tmp_path, ("voyages: [4, 5, 6]", "voyages: []"), ("deal: [6, 6, 6]", "deal: []"))
    err = load_error(path, "voyages must list at least one voyage")
    assert (err.line, err.column) == position(path, "[]")


def test_loot_per_day_for_a_player_count_the_board_does_not_seat(tmp_path: Path) -> None:
    """A ``loot_per_day`` entry for 7 players on a 2-6 board is an error at the key 7."""
    path = variant(tmp_path, ("loot_per_day: {2: 3}", "loot_per_day: {7: 3}"))
    err = load_error(path, "a player count in loot_per_day is 7, but the board seats 2 to 6 players")
    assert (err.line, err.column) == position(path, "7: 3")


def test_loot_per_day_key_that_is_not_a_number(tmp_path: Path) -> None:
    """A ``loot_per_day`` key that is not a number is a DataError at the key, not a ValueError from int()."""
    path = variant(tmp_path, ("loot_per_day: {2: 3}", "loot_per_day: {two: 3}"))
    err = load_error(path, "a player count in loot_per_day must be a whole number")
    assert (err.line, err.column) == position(path, "two")


def test_negative_loot_per_day(tmp_path: Path) -> None:
    """A negative number of tokens per day is an error at that value."""
    path = variant(tmp_path, ("loot_per_day: {2: 3}", "loot_per_day: {2: -1}"))
    err = load_error(path, "loot per day must be a whole number of at least 0, not -1")
    assert (err.line, err.column) == position(path, "-1")


def test_bag_too_small_for_the_longest_voyage(tmp_path: Path) -> None:
    """A 9-day voyage at 6 players lays out 54 tokens; a 48-token bag is an error at ``bag``."""
    path = variant(tmp_path, ("voyages: [4, 5, 6]", "voyages: [4, 5, 9]"))
    err = load_error(path, "the bag holds 48 tokens, but a 9-day voyage with 6 players lays out 54")
    assert (err.line, err.column) == position(path, "chest: 4")
    assert "at least 54 tokens" in err.expected


def test_bag_check_counts_loot_per_day(tmp_path: Path) -> None:
    """Two players laying out 9 tokens a day over 6 days need 54 tokens: ``loot_per_day`` counts."""
    path = variant(tmp_path, ("loot_per_day: {2: 3}", "loot_per_day: {2: 9}"))
    load_error(path, "the bag holds 48 tokens, but a 6-day voyage with 2 players lays out 54")


def test_start_spaces_must_differ(tmp_path: Path) -> None:
    """Two seats starting on the same track space is an error at that start list."""
    path = variant(tmp_path, ("2: [2, 3]", "2: [2, 2]"))
    err = load_error(path, "start spaces for 2 players must differ, but 2 is listed twice")
    assert (err.line, err.column) == position(path, "[2, 2]")


def test_start_spaces_for_a_player_count_the_board_does_not_seat(tmp_path: Path) -> None:
    """Start spaces for 1 player on a 2-6 board are an error at that start list."""
    path = variant(tmp_path, ("2: [2, 3]", "1: [2]"))
    err = load_error(path, "start spaces are given for 1 players, but the board seats 2 to 6")
    assert (err.line, err.column) == position(path, "[2]")


def test_neutral_card_for_a_player_count_the_board_does_not_seat(tmp_path: Path) -> None:
    """A neutral card in 7-player games on a 2-6 board is an error at the 7."""
    path = variant(tmp_path, ("players: [2]", "players: [7]"))
    err = load_error(path, "a neutral card's player count is 7, but the board seats 2 to 6 players")
    line, column = position(path, "players: [7]")
    assert (err.line, err.column) == (line, column + len("players: ["))


def test_neutral_card_rank_of_a_character(tmp_path: Path) -> None:
    """A neutral card at rank 5 collides with the Cabin Boy: an error at the neutral's rank, in the board file."""
    path = variant(tmp_path, ("rank: 20.5", "rank: 5"))
    err = load_error(path, "the neutral card Midshipman has rank 5, like Cabin Boy")
    line, column = position(path, "rank: 5")
    assert (err.line, err.column) == (line, column + len("rank: "))


def test_neutral_card_name_of_a_character(tmp_path: Path) -> None:
    """A neutral card named like a character is an error at the neutral's name."""
    path = variant(tmp_path, ("name: Midshipman", "name: Scout"))
    err = load_error(path, "the neutral card 'Scout' has the name of a character")
    assert (err.line, err.column) == position(path, "Scout")


def test_tie_breaker_rows_shorter_than_the_most_players(tmp_path: Path) -> None:
    """A tie-breaker pattern with 4 numbers on a 6-player board is an error at that pattern."""
    path = variant(tmp_path, ("P1: [2, 1, 4, 3, 5, 6]", "P1: [2, 1, 4, 3]"), base=CLASSIC)
    err = load_error(path, "tie-breaker pattern 'P1' has 4 numbers, but the board seats up to 6 players")
    assert (err.line, err.column) == position(path, "[2, 1, 4, 3]")


def test_every_character_rank_needs_a_tie_breaker_pattern(tmp_path: Path) -> None:
    """A rank-41 mod card on the 2012 board (tie-breakers up to 30) fails at load, at the mod's own rank line
    (issue 34: a modder cannot edit the bundled board), saying how the card gives its own numbers."""
    mod = tmp_path / "mod"
    mod.mkdir()
    queen = "name: Pirate Queen\nrank: 41\ntext: |\n  sun: gain 1 doubloon.\n"
    (mod / "queen.yaml").write_text(queen, encoding="utf-8")
    with pytest.raises(lt.DataError, match="Pirate Queen has rank 41, .* no numbers are given for rank 41") as info:
        lt.load_rules("classic", extra_cards=[mod])
    assert (info.value.path, info.value.line, info.value.column) == (str(mod / "queen.yaml"), 2, 7)
    assert info.value.source_line == "rank: 41"
    assert "a tie_breakers key in this file" in info.value.expected
    assert "boards" not in str(info.value)  # nothing the modder cannot edit
