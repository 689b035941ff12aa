"""Every ``cards`` command works on the 2012 edition (issue 35, item 5): one quick run each, on classic.

A bundled file of ``cards/classic/`` runs under the 2012 board wherever a command takes files (check,
test, mutate, diff); the commands that take an edition take ``--edition classic``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from libertalia.cli import main

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "cards" / "classic"
BARKEEP = CLASSIC / "characters" / "07-barkeep.yaml"

# A 2012 mod card: a new rank gives its own tie-breakers (C1).
GULL = """\
name: Gull
rank: 31
tie_breakers: [1, 2, 3, 4, 5, 6]
text: |
  sun: gain 2 doubloons.
examples:
  - it: gains 2 doubloons by day
    setup:
      loot: [[goods, goods, goods]]
      players:
        - {hand: [Gull, Cook]}
        - {hand: [Barkeep, Cook]}
        - {hand: [Barkeep, Cook]}
    play: [Gull, Barkeep, Barkeep]
    expect: [{doubloons: 2}]
"""


def _run(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["cards", *args], catch_exceptions=False)
    return out.exit_code, out.output


@pytest.fixture
def gull(tmp_path: Path) -> Path:
    folder = tmp_path / "classic-mod"
    folder.mkdir()
    (folder / "gull.yaml").write_text(GULL, encoding="utf-8")
    return folder


def test_list_shows_the_classic_cards_and_booty() -> None:
    """cards list --edition classic: the 2012 characters and booty."""
    code, out = _run("list", "--edition", "classic")
    assert code == 0, out
    assert "Spanish Governor" in out and "officer" in out


def test_show_reads_a_classic_card() -> None:
    """cards show --edition classic: a 2012 card's text and tree."""
    code, out = _run("show", "Granny Wata", "--edition", "classic")
    assert code == 0, out
    assert "Granny Wata (rank 27)" in out


def test_words_lists_the_forms_the_classic_cards_use() -> None:
    """cards words --edition classic: the language's forms, with the 2012 cards that use them."""
    code, out = _run("words", "--edition", "classic", "--json")
    assert code == 0, out
    assert any("Spanish Spy" in names for names in json.loads(out)["forms"].values())


def test_check_takes_a_classic_folder_and_a_classic_mod(gull: Path) -> None:
    """cards check: the bundled 2012 files under their board, a mod with --edition classic."""
    code, out = _run("check", str(CLASSIC / "characters"))
    assert code == 0, out
    assert "classic" in out
    code, out = _run("check", "--edition", "classic", str(gull))
    assert code == 0, out


def test_test_runs_classic_examples_and_a_classic_mods(gull: Path) -> None:
    """cards test: a bundled 2012 card under its board, a mod with --edition classic."""
    code, out = _run("test", str(BARKEEP), "--edition", "classic", str(gull))
    assert code == 0, out
    assert "0 failed" in out


def test_test_runs_the_classic_boards_flow_examples() -> None:
    """cards test boards/classic.yaml: the 2012 flow (C1, C4, C5, R26 shared) under its own board."""
    code, out = _run("test", str(ROOT / "boards" / "classic.yaml"))
    assert code == 0, out
    assert " passed, 0 failed" in out


def test_mutate_scores_a_classic_card(gull: Path) -> None:
    """cards mutate: a bundled 2012 card mutated and scored under its board; a mod under --edition classic."""
    code, out = _run("mutate", str(BARKEEP), "--operator", "number", "--positions", "2")
    assert code == 0, out
    assert out.rstrip().splitlines()[-1].startswith("classic: ")
    code, out = _run("mutate", "--edition", "classic", str(gull / "gull.yaml"), "--operator", "number",
                     "--positions", "0", "--json")
    assert json.loads(out)["cards"][0]["edition"] == "classic"


def test_diff_plays_an_edited_classic_card_under_its_own_board(tmp_path: Path) -> None:
    """cards diff: a copy of a 2012 card, edited, is played under the 2012 board (the bundled file's edition),
    not refused by Galecrest's ranks."""
    edited = tmp_path / "barkeep.yaml"
    edited.write_text(BARKEEP.read_text(encoding="utf-8").replace("gain 1 doubloon", "gain 2 doubloons"),
                      encoding="utf-8")
    code, out = _run("diff", str(BARKEEP), str(edited), "--positions", "8", "--json")
    assert code == 1, out
    report = json.loads(out)
    assert report["differs"] and report["card"] == "Barkeep"


def test_interactions_pairs_classic_cards_and_a_classic_mods(gull: Path) -> None:
    """cards interactions --edition classic: 2012 cards paired, a 2012 mod's card among them."""
    code, out = _run("interactions", "--edition", "classic", "--with-mod", str(gull), "--games", "1",
                     "--players", "3", "Gull", "Granny Wata")
    assert code == 0, out
    assert "0 failures" in out


def test_contracts_fuzzes_texts_against_the_classic_board() -> None:
    """cards contracts --edition classic: generated texts played in 2012 positions, every step checked."""
    code, out = _run("contracts", "--edition", "classic", "--texts", "2", "--quick", "--json")
    assert code == 0, out
    assert json.loads(out)["broken"] == 0


def test_contracts_coverage_walks_the_grammar_on_the_classic_board() -> None:
    """cards contracts --coverage --edition classic: productions spelled and played on the 2012 board."""
    code, out = _run("contracts", "--coverage", "--edition", "classic", "--tries", "1", "--only", "amount")
    assert code == 0, out
    assert "coverage of the grammar (classic" in out
