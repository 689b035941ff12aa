"""``libertalia cards`` as a newcomer meets it: names in any case, mixed folders, mod cards, rank clashes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from libertalia import _paths
from libertalia.cli import main

REPO_CARDS = Path(__file__).resolve().parents[2] / "cards"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def card(folder: Path, file: str, name: str, rank: float, text: str = "sun: gain 2 doubloons.") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(f"name: {name}\nrank: {rank:g}\ntext: |\n  {text}\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------- show
@pytest.mark.parametrize("name", ["wind nymph", "WIND NYMPH", "windnymph", "Wind-Nymph"])
def test_show_finds_a_card_whatever_its_case_or_spacing(name: str) -> None:
    """``cards show "wind nymph"`` shows the Wind Nymph: case, spaces and hyphens do not matter."""
    code, out = run("cards", "show", name)
    assert code == 0, out
    assert out.startswith("Wind Nymph (rank 37)")


def test_show_suggests_the_name_meant() -> None:
    """A misspelt card name fails with a did-you-mean naming the card."""
    code, out = run("cards", "show", "wind nimph")
    assert code != 0
    assert 'no card or loot kind called \'wind nimph\'' in out and '(did you mean "Wind Nymph"?)' in out


def test_show_takes_edition_and_loot_names_in_any_case() -> None:
    """``--edition Classic`` and ``--loot Stormy`` are the classic edition and the stormy side."""
    code, out = run("cards", "show", "officer", "--edition", "Classic")
    assert code == 0, out
    assert out.startswith("officer (classic side")
    code, out = run("cards", "show", "Map", "--loot", "Stormy")
    assert code == 0, out
    assert "map (stormy side" in out


def test_show_and_list_read_a_mod_folder(tmp_path: Path) -> None:
    """``cards show --cards DIR`` and ``cards list --cards DIR`` see a mod's card."""
    card(tmp_path / "mod", "queen.yaml", "Pirate Queen", 41)
    code, out = run("cards", "show", "pirate queen", "--cards", str(tmp_path / "mod"))
    assert code == 0, out
    assert out.startswith("Pirate Queen (rank 41)") and "sun: gain 2 doubloons." in out
    code, out = run("cards", "list", "--cards", str(tmp_path / "mod"))
    assert code == 0 and "Pirate Queen" in out


def test_show_prints_the_canonical_form_only_when_it_differs(tmp_path: Path) -> None:
    """The canonical form is printed for a loosely written text and left out when it equals the text."""
    card(tmp_path, "loose.yaml", "Loose Pirate", 41, "sun:   gain 2 doubloons .  # a comment")
    code, out = run("cards", "show", "Loose Pirate", "--cards", str(tmp_path))
    assert code == 0, out
    assert out.split("Canonical", 1)[1].splitlines()[1] == "sun: gain 2 doubloons."
    card(tmp_path, "loose.yaml", "Loose Pirate", 41, "sun: gain 2 doubloons.")
    code, out = run("cards", "show", "Loose Pirate", "--cards", str(tmp_path))
    assert code == 0 and "Canonical" not in out and "Tree" in out


def test_show_a_neutral_card_has_no_empty_sections() -> None:
    """The Midshipman (a board's neutral card) shows its rank and that it has no abilities."""
    code, out = run("cards", "show", "midshipman")
    assert code == 0, out
    assert "Midshipman (rank 20.5)" in out and "no abilities" in out and "Tree" not in out


# ---------------------------------------------------------------- check
def test_check_of_the_whole_cards_folder_checks_each_edition_against_its_own_board() -> None:
    """``cards check cards/`` passes: the classic files (officer loot and all) are checked as classic."""
    code, out = run("cards", "check", str(REPO_CARDS))
    assert code == 0, out
    assert "all cards are valid" in out and "classic" in out and "galecrest" in out


def test_check_without_a_path_checks_every_bundled_card() -> None:
    """``cards check`` with no path checks every bundled file of every edition."""
    code, out = run("cards", "check")
    assert code == 0, out
    bundled = len(list(_paths.cards_dir().rglob("*.yaml")))
    assert f"all cards are valid ({bundled} files: classic, galecrest)" in out


def test_check_of_a_copy_of_the_card_folders_infers_each_edition(tmp_path: Path) -> None:
    """Files under another ``cards/classic/...`` (a checkout, a copy) are checked against classic."""
    officer = next((_paths.cards_dir() / "classic" / "loot").rglob("officer.yaml"))
    copy = tmp_path / "cards" / "classic" / "loot" / "officer.yaml"
    copy.parent.mkdir(parents=True)
    copy.write_bytes(officer.read_bytes())
    card(tmp_path / "cards" / "galecrest" / "characters", "queen.yaml", "Pirate Queen", 41)
    code, out = run("cards", "check", str(tmp_path / "cards"))
    assert code == 0, out
    assert "(2 files: classic, galecrest)" in out


def test_check_of_a_mod_follows_edition_in_any_case(tmp_path: Path) -> None:
    """A mod outside the bundled folders is checked against ``--edition``, spelt in any case."""
    path = card(tmp_path, "spy.yaml", "Spy Master", 31, "sun: gain 1 doubloon for each officer you hold.")
    assert run("cards", "check", str(tmp_path))[0] == 1  # galecrest has no officer
    # rank 31 is new to the 2012 board: the card gives its own tie-breakers (docs/modding.md)
    path.write_text(path.read_text(encoding="utf-8") + "tie_breakers: P1\n", encoding="utf-8")
    code, out = run("cards", "check", "--edition", "Classic", str(tmp_path))
    assert code == 0, out


def test_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    """``cards check`` and ``cards test`` of a folder without YAML files fail with a message (exit 2)."""
    (tmp_path / "notes.txt").write_text("no cards here", encoding="utf-8")
    for command in ("check", "test"):
        code, out = run("cards", command, str(tmp_path))
        assert code == 2, (command, out)
        assert f"libertalia: {tmp_path}: no card files (*.yaml) in this folder" in out


def test_check_reports_a_rank_another_character_has(tmp_path: Path) -> None:
    """A mod card with a bundled card's rank (or a neutral card's) is an error at its rank, naming the other."""
    card(tmp_path, "queen.yaml", "Pirate Queen", 12)
    card(tmp_path, "king.yaml", "Pirate King", 20.5)
    code, out = run("cards", "check", str(tmp_path))
    assert code == 1
    assert f"{tmp_path / 'queen.yaml'}:2:7: rank 12 is already Officer's" in out
    assert f"{tmp_path / 'king.yaml'}:2:7: rank 20.5 is already Midshipman's (a neutral card)" in out
    assert "2 errors" in out


def test_check_reports_two_mod_cards_with_one_rank_once(tmp_path: Path) -> None:
    """Two mod cards sharing a new rank are one error, at the second, naming the first file."""
    first = card(tmp_path, "a.yaml", "Pirate Queen", 41)
    card(tmp_path, "b.yaml", "Pirate King", 41)
    code, out = run("cards", "check", str(tmp_path))
    assert code == 1
    assert f"b.yaml:2:7: rank 41 is already Pirate Queen's ({first})" in out and "1 error" in out


def test_a_card_that_replaces_a_bundled_one_keeps_its_rank(tmp_path: Path) -> None:
    """A mod file named like a bundled card replaces it: its rank is no clash."""
    card(tmp_path, "officer.yaml", "Officer", 12)
    code, out = run("cards", "check", str(tmp_path))
    assert code == 0, out
