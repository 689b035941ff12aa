"""Card names keep answer keys apart: no key characters, and no name that looks like another card's."""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from libertalia.loading import names
from libertalia.loading.rules import check_files


def _mod(tmp_path: Path, *cards: tuple[str, str], folder: str = "mod") -> Path:
    """A mod folder with one character file per (file name, card name), ranks from 41 up."""
    path = tmp_path / folder
    path.mkdir(exist_ok=True)
    for i, (file, name) in enumerate(cards):
        (path / file).write_text(f"name: {name}\nrank: {41 + i}\ntext: |\n  sun: gain 1 doubloon.\n", encoding="utf-8")
    return path


def _refused(folder: Path, edition: str = "galecrest") -> lt.CardError:
    with pytest.raises(lt.CardError) as caught:
        lt.load_rules(edition, extra_cards=[folder])
    return caught.value


@pytest.mark.parametrize(("name", "mark", "why"), [
    ("Pirate@Queen", "@", "another seat's card"),
    ("Pirate#Queen", "#", "changed hands"),
    ("Pirate*Queen", "*", "how many tokens"),
])
def test_a_key_character_in_a_name_is_refused_at_it(tmp_path: Path, name: str, mark: str, why: str) -> None:
    """A name holding @, # or * is refused, the caret on that character, saying what the engine marks with it."""
    err = _refused(_mod(tmp_path, ("queen.yaml", name)))
    assert err.path.endswith("queen.yaml") and (err.line, err.column) == (1, 7 + name.index(mark))
    assert f"holds {mark!r}, which the engine reserves" in err.message and why in err.message
    assert err.expected == "a name without @, # or *"


@pytest.mark.parametrize(("name", "spelt"), [
    ("COOK", ""),                       # case
    ("cook", ""),
    ("C\u043eok", "CYRILLIC SMALL LETTER O"),    # a Cyrillic о
    ("C\u03bfok", "GREEK SMALL LETTER OMICRON"),  # a Greek ο
    ("\uff23\uff4f\uff4f\uff4b", "FULLWIDTH LATIN CAPITAL LETTER C"),  # full-width letters
    ("C00k", ""),                       # digits for letters
])  # an invisible character or spaces around a name are refused before this (test_name_shapes.py)
def test_a_name_that_looks_like_a_bundled_one_is_refused(tmp_path: Path, name: str, spelt: str) -> None:
    """A mod name that equals the Cook once NFKC, case, invisibles and look-alike letters are set aside is refused."""
    err = _refused(_mod(tmp_path, ("cook2.yaml", f'"{name}"')))
    assert err.path.endswith("cook2.yaml") and err.line == 1
    assert "looks like the character 'Cook' (" in err.message and "26-cook.yaml:1)" in err.message
    assert "both read 'cook'" in err.message
    assert spelt in err.message
    if spelt:  # the caret sits on the first letter that is not plain ASCII
        assert err.source_line[err.column - 1] == next(ch for ch in name if not ch.isascii())


def test_a_name_like_a_neutral_card_or_a_loot_kind_is_refused(tmp_path: Path) -> None:
    """The Midshipman (a neutral card, named in the board file) and loot kinds count as names too."""
    err = _refused(_mod(tmp_path, ("mid.yaml", "MIDSHIPMAN")))
    assert "looks like the neutral card 'Midshipman'" in err.message and "galecrest.yaml" in err.message
    err = _refused(_mod(tmp_path, ("map.yaml", "Map"), folder="kind"))
    assert "looks like the loot kind 'map'" in err.message


def test_two_mod_names_alike_blame_the_later_file(tmp_path: Path) -> None:
    """Two new mod cards that look alike: the error is at the second file and names the first."""
    folder = _mod(tmp_path, ("a.yaml", "Kraken"), ("b.yaml", "KRAKEN"))
    err = _refused(folder)
    assert err.path.endswith("b.yaml") and "looks like the character 'Kraken'" in err.message
    assert str(folder / "a.yaml") in err.message


def test_replacing_a_card_by_its_own_name_and_distinct_names_still_load(tmp_path: Path) -> None:
    """A mod file named exactly like a bundled card replaces it (a mod feature); unlike names load as before."""
    folder = _mod(tmp_path, ("cook.yaml", "Cook"), ("q.yaml", "Pirate Queen"), ("c.yaml", "Caf\u00e9 Owner"),
                  ("k.yaml", "\u041a\u0440\u0430\u043a\u0435\u043d"))  # Кракен, like nothing loaded
    rules = lt.load_rules("galecrest", extra_cards=[folder])
    assert rules.card("Cook").rank == 41 and rules.has_card("Pirate Queen") and rules.has_card("Caf\u00e9 Owner")


def test_cards_check_lists_every_name_problem_and_only_the_modders(tmp_path: Path) -> None:
    """``libertalia cards check`` (``check_files``) reports each bad name of the checked files, none of the bundled."""
    folder = _mod(tmp_path, ("a.yaml", "Co@k"), ("b.yaml", "SCOUT"), ("c.yaml", "Pirate Queen"))
    messages = [e.message for e in check_files([folder])]
    assert any("'Co@k' holds '@'" in m for m in messages)
    assert any("'SCOUT' looks like the character 'Scout'" in m for m in messages)
    assert len([m for m in messages if "name" in m]) == 2
    assert check_files(["cards/galecrest"]) == [] and check_files(["cards/classic"], "classic") == []


def test_skeleton_sets_aside_width_case_invisibles_and_look_alikes() -> None:
    """``skeleton``: NFKC, case folding, no format characters, look-alike letters to ASCII, 0 and 1 as o and l."""
    assert names.skeleton("Wind Nymph") == "wind nymph"
    assert names.skeleton("W\u0456nd  Nymph") == "wind nymph"  # Cyrillic і, two spaces
    assert names.skeleton("\uff37ind\u00a0Nymph") == "wind nymph"  # full-width W, a no-break space
    assert names.skeleton("B0sun") == names.skeleton("Bosun") == "bosun"
    assert names.skeleton("Caf\u00e9") != names.skeleton("Cafe")  # an accent is a different letter
