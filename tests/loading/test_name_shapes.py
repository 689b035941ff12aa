"""Names are shown and typed as written (loading/names.py, docs/modding.md "Names"): load and check agree."""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from libertalia.loading import names
from libertalia.loading.rules import check_files

EXPECTED = f"a name of {names.SHAPE}"

# (the name as a YAML double-quoted scalar, what the error says of it)
BAD = [
    ('""', "is empty"),
    ('"   "', "is blank"),
    ('"Sea\\eWolf"', "holds the control character \\x1b"),              # ESC
    ('"Sea\\aWolf"', "holds the control character \\x07"),              # BEL
    ('"Sea\\x9bWolf"', "holds the control character \\x9b"),            # a C1 control (CSI)
    ('"Sea\\u202eWolf"', "holds the format character \\u202e (RIGHT-TO-LEFT OVERRIDE)"),
    ('"Sea\\u200bWolf"', "holds the format character \\u200b (ZERO WIDTH SPACE)"),
    ('"Sea\\u2028Wolf"', "holds the separator character \\u2028 (LINE SEPARATOR)"),
    ('"Sea\\udc80Wolf"', "holds the lone surrogate character \\udc80"),
    ('"?"', "holds '?' (QUESTION MARK, what an observation shows for a hidden card)"),
    ('"Sea Wolf?"', "holds '?'"),
    ('"[red]Sea Wolf"', "holds '[' (LEFT SQUARE BRACKET)"),
    ('" Sea Wolf"', "starts or ends with a space"),
    ('"Sea Wolf "', "starts or ends with a space"),
    ('"Sea  Wolf"', "holds two spaces in a row"),
    ('"Sea\\u00a0Wolf"', "holds '\\xa0' (NO-BREAK SPACE)"),
    ('"Sea\\tWolf"', "holds the control character \\t"),
    ('"--"', "has no letter"),
]


def _mod(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "mod"
    folder.mkdir(exist_ok=True)
    (folder / "wolf.yaml").write_text(f"name: {name}\nrank: 41\ntext: |\n  sun: gain 1 doubloon.\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize(("name", "said"), BAD)
def test_a_name_that_cannot_be_shown_or_typed_is_refused_alike_by_load_and_check(
        tmp_path: Path, name: str, said: str) -> None:
    """Each kind of unshowable name: a CardError at the file's name line, the same from load_rules and cards check."""
    folder = _mod(tmp_path, name)
    with pytest.raises(lt.CardError) as caught:
        lt.load_rules("galecrest", extra_cards=[folder])
    err = caught.value
    assert err.path.endswith("wolf.yaml") and err.line == 1 and err.column >= 7
    assert said in err.message and err.expected == EXPECTED
    assert all(c == "\n" or c.isprintable() for c in str(err))  # the name is spelt out in the message
    checked = check_files([folder])
    assert [str(e) for e in checked] == [str(err)]


def test_an_unshowable_name_never_reaches_an_encoding_error(tmp_path: Path) -> None:
    """A lone surrogate in a name is a CardError naming the file, never a raw UnicodeEncodeError (issue 33)."""
    folder = _mod(tmp_path, '"Ghost\\udc80"')
    with pytest.raises(lt.CardError, match=r"wolf\.yaml:1:7: .*lone surrogate"):
        lt.load_rules("galecrest", extra_cards=[folder])


@pytest.mark.parametrize("name", ["Sea Wolf", "Governor's Mate", "O\u2019Neil", "Half-Moon", "Agent 47",
                                  "Caf\u00e9 Owner", "\u041a\u0440\u0430\u043a\u0435\u043d"])
def test_names_of_letters_digits_apostrophes_and_hyphens_load(tmp_path: Path, name: str) -> None:
    """Words of letters (any script), digits, apostrophes and hyphens, one space apart, load and check clean."""
    folder = _mod(tmp_path, f'"{name}"')
    assert lt.load_rules("galecrest", extra_cards=[folder]).has_card(name)
    assert check_files([folder]) == []


def test_every_bundled_name_has_the_shape() -> None:
    """The rule refuses no bundled character, neutral card or loot kind of either edition."""
    for edition in ("galecrest", "classic"):
        rules = lt.load_rules(edition)
        for name in [*(c.name for c in rules.characters), *rules.kinds]:
            assert names.shape_problem(name) is None, name


@pytest.mark.parametrize(("kind", "said"), [("\\u202eamulet", "format character \\u202e"), ("?", "holds '?'")])
def test_a_loot_kind_that_cannot_be_shown_is_refused_by_load_and_check(tmp_path: Path, kind: str, said: str) -> None:
    """A board's loot kind follows the same rule: its board file, line and column, from load_rules and cards check."""
    board = Path("boards/galecrest.yaml").read_text(encoding="utf-8")
    assert "\n  amulet:" in board
    path = tmp_path / "odd.yaml"
    path.write_text(board.replace("\n  amulet:", f'\n  "{kind}":', 1), encoding="utf-8")
    with pytest.raises(lt.CardError) as loaded:
        lt.load_rules(path)
    assert loaded.value.path == str(path) and loaded.value.line > 1 and said in loaded.value.message
    assert "loot kind" in loaded.value.message and loaded.value.expected == EXPECTED
    with pytest.raises(lt.CardError) as checked:
        check_files([_mod(tmp_path, "Sea Wolf")], path)
    assert str(checked.value) == str(loaded.value)
