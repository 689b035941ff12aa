"""Errors a modder can act on: did-you-mean hints, carets on the offending word, duplicates naming both files."""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from libertalia import _paths
from libertalia.loading.rules import check_files

PIRATE = "name: Pirate\nrank: 41\ntext: |\n  {}\n"


def card(folder: Path, name: str, body: str) -> Path:
    """Write ``body`` to ``folder/name`` (creating the folder) and return the file."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(body, encoding="utf-8")
    return path


def card_error(tmp_path: Path, text: str) -> lt.CardError:
    """The CardError of a rank-41 mod character whose one-line text is ``text``."""
    path = card(tmp_path / "mod", "pirate.yaml", PIRATE.format(text))
    with pytest.raises(lt.CardError) as info:
        lt.load_rules("galecrest", extra_cards=[path])
    return info.value


def column_of(err: lt.DataError, word: str) -> int:
    """1-based column of ``word`` in the line the error quotes."""
    return err.source_line.index(word) + 1


def test_misspelt_yaml_key_suggests_the_key(tmp_path: Path) -> None:
    """``nmae:`` and ``txt:`` are rejected with a did-you-mean naming ``name`` and ``text``."""
    folder = tmp_path / "mod"
    card(folder, "a.yaml", "nmae: Pirate\nrank: 41\ntext: |\n  sun: gain 1 doubloon.\n")
    with pytest.raises(lt.DataError, match='unknown key \'nmae\' in a character file \\(did you mean "name"\\?\\)'):
        lt.load_rules("galecrest", extra_cards=[folder])
    card(folder, "a.yaml", "name: Pirate\nrank: 41\ntxt: |\n  sun: gain 1 doubloon.\n")
    with pytest.raises(lt.DataError, match='did you mean "text"'):
        lt.load_rules("galecrest", extra_cards=[folder])


def test_misspelt_card_name_suggests_the_card_and_points_at_it(tmp_path: Path) -> None:
    """``Wind Nimph`` suggests ``Wind Nymph`` and the caret sits on the name, not on ``another``."""
    err = card_error(tmp_path, "sun: discard another Wind Nimph in your ship.")
    assert "unknown card name 'Wind Nimph'" in err.message
    assert err.message.endswith('(did you mean "Wind Nymph"?)')
    assert err.column == column_of(err, "Wind Nimph")


def test_unknown_card_name_far_from_every_card_has_no_hint(tmp_path: Path) -> None:
    """A name close to no card gets no did-you-mean, only the error."""
    err = card_error(tmp_path, "sun: discard a Kraken in your ship.")
    assert err.message == "unknown card name 'Kraken'"


@pytest.mark.parametrize(("text", "word", "best"), [
    ("sun: gain 1 doubloon for each sabre you hold.", "sabre", "saber"),
    ("sun: take a relic or mapp from today's loot.", "mapp", "map"),
    ("dusk: gain 2 doubloons if you hold a chestt.", "chestt", "chest"),
    ("sun: count 1 extra relik.", "relik", "relic"),
])
def test_unknown_loot_kind_suggests_the_kind_and_points_at_the_word(
        tmp_path: Path, text: str, word: str, best: str) -> None:
    """An unknown loot kind gets a did-you-mean and its caret on the kind word itself, wherever it is."""
    err = card_error(tmp_path, text)
    assert err.message == f'unknown loot kind {word!r} (did you mean "{best}"?)'
    assert err.column == column_of(err, word)
    assert str(err).splitlines()[2].index("^") == str(err).splitlines()[1].index(word)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: lt.load_rules("Clasic"), 'no edition or board file called \'Clasic\' (did you mean "classic"?)'),
    (lambda: lt.load_rules("galecrest", loot="stromy"), 'no \'stromy\' loot side (did you mean "stormy"?)'),
    (lambda: lt.load_rules("galecrest", loot={"sabre": "calm"}), 'unknown loot kind \'sabre\' (did you mean "saber"?)'),
    (lambda: lt.load_rules("galecrest", loot={"map": "stromy"}), 'no \'stromy\' side for map (did you mean "stormy"?)'),
])
def test_load_rules_arguments_get_a_suggestion(call: object, message: str) -> None:
    """A misspelt edition, loot side or loot kind is a RulesError that suggests the name meant, and is not accepted."""
    with pytest.raises(lt.RulesError) as info:
        call()  # type: ignore[operator]
    assert message in str(info.value)


PIRATE_A = "name: Pirate Queen\nrank: 41\ntext: |\n  sun: gain 1 doubloon.\n"
PIRATE_B = "name: Pirate Queen\nrank: 42\ntext: |\n  sun: gain 2 doubloons.\n"
CHEST = "kind: chest\nside: calm\ncount: 4\ntext: |\n  anchor: gain {} doubloons.\n"


def test_two_mod_files_with_one_name_are_an_error_naming_both(tmp_path: Path) -> None:
    """Two mod files defining the same character: a DataError at the second file's name that names the first file."""
    first = card(tmp_path / "mod", "a.yaml", PIRATE_A)
    second = card(tmp_path / "mod", "b.yaml", PIRATE_B)
    with pytest.raises(lt.DataError) as info:
        lt.load_rules("galecrest", extra_cards=[tmp_path / "mod"])
    err = info.value
    assert (err.path, err.line, err.column) == (str(second), 1, 7)
    assert f"the character 'Pirate Queen' is defined twice: here and in {first}" in err.message


def test_two_mod_loot_tiles_of_one_kind_and_side_are_an_error(tmp_path: Path) -> None:
    """Two mod files for the calm chest: a DataError at the second file's kind naming the first file."""
    first = card(tmp_path / "mod", "a.yaml", CHEST.format(6))
    second = card(tmp_path / "mod", "b.yaml", CHEST.format(7))
    with pytest.raises(lt.DataError, match="the calm side of the chest tile is defined twice") as info:
        lt.load_rules("galecrest", extra_cards=[tmp_path / "mod"])
    assert (info.value.path, info.value.line, info.value.column) == (str(second), 1, 7)
    assert str(first) in info.value.message


def test_mods_in_separate_folders_also_clash(tmp_path: Path) -> None:
    """Two mod folders that both define a character clash too: the mods are one set."""
    card(tmp_path / "one", "a.yaml", PIRATE_A)
    card(tmp_path / "two", "a.yaml", PIRATE_B)
    with pytest.raises(lt.DataError, match="is defined twice"):
        lt.load_rules("galecrest", extra_cards=[tmp_path / "one", tmp_path / "two"])


def test_a_mod_still_replaces_a_bundled_card_and_a_repeated_path_is_read_once(tmp_path: Path) -> None:
    """A mod file replaces the bundled Cook; naming its folder and the file itself is no clash."""
    cook = card(tmp_path / "mod", "cook.yaml", "name: Cook\nrank: 41\ntext: |\n  sun: gain 1 doubloon.\n")
    rules = lt.load_rules("galecrest", extra_cards=[tmp_path / "mod", cook])
    assert rules.rank("Cook") == 41 and rules.card("Cook").path == str(cook)


def test_two_bundled_files_with_one_name_are_an_error(tmp_path: Path) -> None:
    """A board whose own card folder holds two files for one character fails, naming both files."""
    chars = tmp_path / "chars"
    for src in sorted((_paths.cards_dir() / "galecrest" / "characters").glob("*.yaml")):
        card(chars, src.name, src.read_text(encoding="utf-8"))
    copy = card(chars, "99-scout-again.yaml", (chars / "01-scout.yaml").read_text(encoding="utf-8"))
    board = tmp_path / "board.yaml"
    text = (_paths.boards_dir() / "galecrest.yaml").read_text(encoding="utf-8")
    board.write_text(text.replace("characters: galecrest/characters", f"characters: {chars}"), encoding="utf-8")
    with pytest.raises(lt.DataError) as info:
        lt.load_rules(board)
    assert (info.value.path, info.value.line) == (str(copy), 1)
    assert f"the character 'Scout' is defined twice: here and in {chars / '01-scout.yaml'}" in info.value.message


def test_check_files_reports_a_duplicate_with_the_other_errors(tmp_path: Path) -> None:
    """``check_files`` lists a duplicate name (naming both files) beside the other mistakes, not instead of them."""
    folder = tmp_path / "mod"
    first = card(folder, "a.yaml", PIRATE_A)
    card(folder, "b.yaml", PIRATE_B)
    card(folder, "c.yaml", PIRATE.format("sun: gain 1 doubloon for each sabre you hold."))
    messages = [e.message for e in check_files([folder])]
    assert any("'Pirate Queen' is defined twice" in m and str(first) in m for m in messages)
    assert any("unknown loot kind 'sabre'" in m for m in messages)
    assert len(messages) == 2
