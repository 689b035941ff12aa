"""Bad data gets a clear error: file, line, column, the text with a caret, what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from tests.helpers import galecrest, start


def _card(tmp_path: Path, body: str, name: str = "card.yaml") -> Path:
    folder = tmp_path / "mod"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(body, encoding="utf-8")
    return folder


def test_grammar_error_points_into_the_yaml_file(tmp_path: Path) -> None:
    """A grammar error names the file, the YAML line and column, and the expected words."""
    folder = _card(tmp_path, "name: Pirate\nrank: 41\ntext: |\n  sun: gain many doubloons.\n")
    with pytest.raises(lt.CardError) as info:
        lt.load_rules("galecrest", extra_cards=[folder])
    err = info.value
    assert err.path.endswith("card.yaml")
    assert (err.line, err.column) == (4, 13)
    assert "a number in digits" in err.expected
    assert "^" in str(err) and "gain many doubloons" in str(err)


def test_unknown_key_is_rejected(tmp_path: Path) -> None:
    """A misspelt YAML key is an error, never silently ignored."""
    folder = _card(tmp_path, "name: Pirate\nrank: 41\ntxet: |\n  sun: gain 3 doubloons.\n")
    with pytest.raises(lt.DataError) as info:
        lt.load_rules("galecrest", extra_cards=[folder])
    assert "unknown key 'txet'" in str(info.value)
    assert (info.value.line, info.value.column) == (3, 1)


def test_malformed_yaml_is_reported_with_position(tmp_path: Path) -> None:
    """Broken YAML is reported with its line, not as a PyYAML traceback."""
    folder = _card(tmp_path, "name: Pirate\nrank: [41\ntext: x\n")
    with pytest.raises(lt.DataError) as info:
        lt.load_rules("galecrest", extra_cards=[folder])
    assert "not valid YAML" in str(info.value) and info.value.line >= 2


def test_unknown_card_name_in_text(tmp_path: Path) -> None:
    """A card naming a character that does not exist is rejected at load time."""
    folder = _card(tmp_path, "name: Pirate\nrank: 41\ntext: |\n  sun: discard a Kraken in your ship.\n")
    with pytest.raises(lt.CardError, match="unknown card name 'Kraken'"):
        lt.load_rules("galecrest", extra_cards=[folder])


def test_unknown_loot_kind_in_text(tmp_path: Path) -> None:
    """A loot word the board does not know is rejected with the known kinds listed."""
    folder = _card(tmp_path, "name: Pirate\nrank: 41\ntext: |\n  sun: gain 1 doubloon for each gem you hold.\n")
    with pytest.raises(lt.CardError, match="unknown loot kind 'gem'") as info:
        lt.load_rules("galecrest", extra_cards=[folder])
    assert "map" in info.value.expected


def test_dangling_it_is_rejected(tmp_path: Path) -> None:
    """``its owner`` with no earlier action naming a character binds nothing and is refused at load."""
    folder = _card(tmp_path, "name: Pirate\nrank: 41\ntext: |\n  sun: its owner gains 1 reputation.\n")
    with pytest.raises(lt.CardError, match='"its owner" points back to a character, but no earlier action names one'):
        lt.load_rules("galecrest", extra_cards=[folder])


def test_illegal_choice_lists_legal_keys_and_keeps_game() -> None:
    """An unknown key raises IllegalChoice listing the legal keys; the game is unchanged."""
    game = start(3, players=[{"hand": ["Cook", "Bosun"]}, {"hand": ["Bosun"]}, {"hand": ["Scout"]}])
    before = game.state
    with pytest.raises(lt.IllegalChoice) as info:
        game.choose("Captain")
    assert info.value.legal == ("Bosun", "Cook")
    assert "'Bosun', 'Cook'" in str(info.value)
    assert isinstance(info.value, ValueError)
    assert game.state == before


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"players": [{"hand": ["Kraken"]}, {}, {}]}, "unknown card 'Kraken'"),
        ({"players": [{"hand": ["Cook"], "ship": ["Cook"]}, {}, {}]}, "Cook is in both hand and ship"),
        ({"players": [{"loot": ["chest"] * 5}, {}, {}]}, "more chest tokens than the bag holds"),
        ({"reputation": [1, 1, 2]}, "reputation spaces must differ"),
        ({"reputation": [0, 1, 9]}, "reputation[2]"),
        ({"players": [{}, {}]}, "one entry per seat"),
        ({"voyage": 4}, "voyage must be"),
        ({"colour": "red"}, "unknown setup key 'colour'"),
        ({"loot": [["gem"]]}, "unknown loot kind 'gem'"),
    ],
)
def test_bad_setup_names_the_wrong_entry(setup: dict, message: str) -> None:  # type: ignore[type-arg]
    """An inconsistent declared position raises SetupError saying which entry is wrong."""
    with pytest.raises(lt.SetupError, match=message.replace("[", r"\[").replace("]", r"\]")):
        lt.new_game(galecrest(), 3, setup=setup)


def test_unknown_edition() -> None:
    """Asking for an edition that does not exist lists the bundled ones."""
    with pytest.raises(lt.RulesError, match="galecrest"):
        lt.load_rules("atlantis")


def test_player_count_out_of_range() -> None:
    """Galecrest seats 2 to 6 (two players with the Midshipman)."""
    with pytest.raises(lt.SetupError, match="2 to 6"):
        lt.new_game(galecrest(), 7)
