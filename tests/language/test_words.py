"""`libertalia cards words`: every form with the cards that use it, and few forms only one card needs."""

from __future__ import annotations

import json

from click.testing import CliRunner

from libertalia.cli import main
from libertalia.language.words import bundled_cards, forms, single_card_forms, usage, used_forms


def test_words_json_lists_every_form() -> None:
    """--json gives {"forms": {FORM: [card names]}} covering every form of the grammar."""
    result = CliRunner().invoke(main, ["cards", "words", "--json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)["forms"]
    assert set(table) == set(forms())
    assert "Cabin Boy" in table["is_positioned"]
    assert "Merchant" in table["choose_loot"]


def test_at_most_five_single_card_forms() -> None:
    """Across both editions at most 5 forms are used by a single card name (issue 21's target; 10 before)."""
    table = usage(card for edition in ("galecrest", "classic") for card in bundled_cards(edition))
    single = single_card_forms(table)
    assert len(single) <= 5, single


def test_a_name_counts_once_across_editions() -> None:
    """The same card name in both editions is one user of a form, not two."""
    table = usage([("Carpenter", "sun: lose half your doubloons."), ("Carpenter", "sun: lose half your doubloons.")])
    assert table["purse"] == ["Carpenter"]


def test_used_forms_reads_the_tree() -> None:
    """A text's forms are the aliases and word slots its parse tree uses."""
    used = used_forms("moon: gain 3 doubloons unless there is a Cook in your ship.")
    assert {"unless", "gain", "fixed", "there_is", "quantity", "place"} <= used


def test_words_table_for_one_edition() -> None:
    """The table form names the edition and counts the single-card forms."""
    result = CliRunner().invoke(main, ["cards", "words", "--edition", "classic"])
    assert result.exit_code == 0, result.output
    assert "used by a single card" in result.output
