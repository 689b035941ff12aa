"""``cards diff`` (issue 35, item 3): two versions of a card side by side, and the example telling them apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from libertalia.cli import main
from libertalia.errors import ArgumentError, DataError
from libertalia.loading.examples import run_examples
from libertalia.testing.card_diff import diff_cards

NAME = "Tide Reckoner"


def _card(folder: Path, file: str, text: str, *, name: str = NAME, rank: str = "18.5") -> Path:
    path = folder / file
    path.write_text(f"name: {name}\nrank: {rank}\ntext: |\n  {text}\n", encoding="utf-8")
    return path


def test_two_wordings_of_one_meaning_play_alike(tmp_path: Path) -> None:
    """Canonical forms: "each" and "every", "hold" and "have" say the same; no position tells them apart."""
    a = _card(tmp_path, "a.yaml", "dusk: gain 1 doubloon for each saber you hold.")
    b = _card(tmp_path, "b.yaml", "dusk: gain 1 doubloon for every saber you have.")
    report = diff_cards(a, b, positions=16)
    assert not report.differs and report.positions == 16 and report.timings == ("dusk",)
    assert "probably the same card" in str(report)


def test_a_changed_threshold_is_found_and_its_example_pins_it(tmp_path: Path) -> None:
    """The examples entry written for each version passes in its own file and fails in the other's: it is the
    example that tells the versions apart (what a modder adds to catch the slip)."""
    text = "moon: gain 3 doubloons if you have {} or more characters in your ship."
    a = _card(tmp_path, "a.yaml", text.format(2))
    b = _card(tmp_path, "b.yaml", text.format(3))
    report = diff_cards(a, b, positions=40, seed=1)
    assert report.differs and report.difference is not None
    first, second = report.difference.examples
    assert first.lstrip().startswith("#") and "- it:" in first and "- it:" in second
    assert "mod cards from" not in first  # each version was loaded alone: its example runs in its own file
    for own, entry, other in ((a, first, b), (b, second, a)):
        pinned = own.read_text(encoding="utf-8") + "examples:\n" + entry
        for target, passes in ((own, True), (other, False)):
            probe = tmp_path / f"probe-{target.stem}.yaml"
            probe.write_text(pinned.replace(own.read_text(encoding="utf-8"), target.read_text(encoding="utf-8")),
                             encoding="utf-8")
            (result,) = run_examples(probe)
            assert result.passed is passes, (target, result.failure)


def test_a_loot_tile_is_diffed_as_a_tile(tmp_path: Path) -> None:
    """A loot tile's versions are featured where a token's ability runs, with that side in play."""
    head = "kind: barrel\nside: calm\ncount: 8\ntext: |\n  anchor: gain {} doubloons.\n"
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(head.format(1), encoding="utf-8")
    b.write_text(head.format(2), encoding="utf-8")
    report = diff_cards(a, b, positions=24)
    assert report.card == "barrel (calm)" and report.differs


def test_files_of_two_different_cards_are_refused(tmp_path: Path) -> None:
    """A diff compares two versions of one card: other names are an error that says so."""
    a = _card(tmp_path, "a.yaml", "sun: gain 1 doubloon.")
    b = _card(tmp_path, "b.yaml", "sun: gain 1 doubloon.", name="Other Reckoner")
    with pytest.raises(ArgumentError, match="two versions of one card"):
        diff_cards(a, b)


def test_a_file_the_checker_refuses_raises_its_error(tmp_path: Path) -> None:
    """The checker's own error, with file, line and column, not a crash in the player."""
    a = _card(tmp_path, "a.yaml", "sun: gain 1 doubloon.")
    b = _card(tmp_path, "b.yaml", "sun: gain 1 dubloon.")
    with pytest.raises(DataError, match=r"b\.yaml:4:"):
        diff_cards(a, b)


def test_an_error_only_loading_finds_names_the_users_file(tmp_path: Path) -> None:
    """A tile whose count disagrees with the board is refused at load, naming the user's file, never a copy."""
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("kind: barrel\nside: calm\ncount: 8\ntext: |\n  anchor: gain 1 doubloon.\n", encoding="utf-8")
    b.write_text("kind: barrel\nside: calm\ncount: 6\ntext: |\n  anchor: gain 1 doubloon.\n", encoding="utf-8")
    with pytest.raises(DataError, match=str(b).replace(".", r"\.") + ":3:"):
        diff_cards(a, b)


def test_the_command_exits_1_on_a_difference_0_without_and_2_on_bad_files(tmp_path: Path) -> None:
    """Exit status as diff(1): 1 when the versions differ, 0 when they play alike, 2 when a file does not load."""
    a = _card(tmp_path, "a.yaml", "sun: gain 2 doubloons.")
    same = _card(tmp_path, "same.yaml", "sun: you gain 2 doubloons.")
    more = _card(tmp_path, "more.yaml", "sun: gain 4 doubloons.")
    bad = _card(tmp_path, "bad.yaml", "sun: gain 2 dubloons.")
    runner = CliRunner()
    alike = runner.invoke(main, ["cards", "diff", str(a), str(same), "--positions", "8"])
    assert alike.exit_code == 0 and "played alike in 8 positions" in alike.output
    differ = runner.invoke(main, ["cards", "diff", str(a), str(more), "--positions", "8", "--json"])
    assert differ.exit_code == 1
    data = json.loads(differ.output)
    assert data["differs"] and data["difference"]["field"] and len(data["difference"]["examples"]) == 2
    refused = runner.invoke(main, ["cards", "diff", str(a), str(bad)])
    assert refused.exit_code == 2 and "bad.yaml:4:" in refused.output
