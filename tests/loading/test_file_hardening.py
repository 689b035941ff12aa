"""Hostile card and board files get a DataError with the file (and line:col), never another exception or a hang.

Each case of issue 9 ("Card and board files: only library errors, never a hang") has a test here;
``CARD_CASES`` and ``BOARD_CASES`` are fed to the fuzz tests in ``test_file_fuzz.py`` as well.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import libertalia as lt
from libertalia import _paths
from libertalia.cli import main
from libertalia.loading import rules as rules_module
from libertalia.loading.rules import check_files
from libertalia.loading.yamlfile import MAX_BYTES
from tests import helpers

_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
TIME_LIMIT = 20.0  # seconds for one file; a bundled edition loads in about one


def time_limit(seconds: float = TIME_LIMIT) -> AbstractContextManager[None]:
    """The shared hang guard (tests/helpers.py), with this file's default limit."""
    return helpers.time_limit(seconds)


def build_mini_edition(folder: Path, edition: str) -> Path:
    """A copy of a bundled board whose characters are one-line stand-ins (same names and ranks) and
    whose loot is the default side only: it loads in a fraction of the time, so tests can try many files.
    """
    text = (_paths.boards_dir() / f"{edition}.yaml").read_text(encoding="utf-8")
    board = yaml.load(text, Loader=_FAST)
    chars, loot = folder / edition / "characters", folder / edition / "loot"
    chars.mkdir(parents=True)
    loot.mkdir()
    for path in sorted((_paths.cards_dir() / board["characters"]).glob("*.yaml")):
        card = yaml.load(path.read_text(encoding="utf-8"), Loader=_FAST)
        (chars / path.name).write_text(f"name: {json.dumps(card['name'])}\nrank: {card['rank']}\n"
                                       "text: |\n  sun: gain 1 doubloon.\n", encoding="utf-8")
    for path in sorted((_paths.cards_dir() / board["loot"]).rglob("*.yaml")):
        tile = yaml.load(path.read_text(encoding="utf-8"), Loader=_FAST)
        if tile["side"] == board["default_loot"]:
            shutil.copy(path, loot / f"{tile['kind']}.yaml")
    text = text.replace(f"characters: {board['characters']}", f"characters: {json.dumps(chars.as_posix())}")
    text = text.replace(f"loot: {board['loot']}", f"loot: {json.dumps(loot.as_posix())}")
    out = folder / f"{edition}.yaml"
    out.write_text(text, encoding="utf-8")
    return out


# ---------------------------------------------------------------- the hand-made cases
CARD = "name: Fuzzy Corsair\nrank: 41.5\ntext: |\n  sun: gain 3 doubloons.\n"


def _card(**fields: str) -> str:
    """The mod card ``CARD`` with some lines replaced, as ``rank="rank: .nan"``."""
    lines = dict(line.split(":", 1) for line in CARD.splitlines()[:3])
    body = "".join(f"{fields.get(k, f'{k}:{v}')}\n" for k, v in lines.items())
    return body + fields.get("text_body", "  sun: gain 3 doubloons.") + "\n"


def _laughs(levels: int = 9) -> str:
    """A "billion laughs" ladder: anchor ``l<levels>`` stands for 9**levels values."""
    out = "note:\n  - &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for i in range(1, levels + 1):
        out += f"  - &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n"
    return out


CARD_CASES: dict[str, bytes] = {
    "latin-1": _card(name="name: Corsaire Fran\xe7ais").encode("latin-1"),
    "utf-16 with BOM": CARD.encode("utf-16"),
    "utf-16-le without BOM": CARD.encode("utf-16-le"),
    "utf-16-be without BOM": CARD.encode("utf-16-be"),
    "utf-32 with BOM": CARD.encode("utf-32"),
    "deep flow list": (CARD + "note: " + "[" * 10_000 + "]" * 10_000 + "\n").encode(),
    "deep flow mapping": (CARD + "note: " + "{a: " * 10_000 + "b" + "}" * 10_000 + "\n").encode(),
    "deep block list": (CARD + "note:\n" + "".join("  " * i + "-\n" for i in range(200)) + "  " * 200
                        + "x\n").encode(),
    "5000-digit number in text": _card(text_body="  sun: gain " + "9" * 5000 + " doubloons.").encode(),
    "7-digit number in text": _card(text_body="  sun: gain 1234567 doubloons.").encode(),
    "5000-digit rank": _card(rank="rank: " + "9" * 5000).encode(),
    "7-digit rank": _card(rank="rank: 1234567").encode(),
    "20000-bit binary rank": _card(rank="rank: 0b" + "1" * 20_000).encode(),
    "bad !!float": _card(rank="rank: !!float abc").encode(),
    "bad !!int": _card(rank="rank: !!int abc").encode(),
    "bad !!timestamp": _card(rank="rank: !!timestamp abc").encode(),
    "bad date": _card(name="name: 2020-13-45").encode(),
    "bad !!bool": _card(rank="rank: !!bool maybe").encode(),
    "!!python/object": _card(rank="rank: !!python/object:os.system echo").encode(),
    "!!python/name": _card(rank="rank: !!python/name:os.system ''").encode(),
    ".nan rank": _card(rank="rank: .nan").encode(),
    ".inf rank": _card(rank="rank: .inf").encode(),
    "-.inf rank": _card(rank="rank: -.inf").encode(),
    "alias bomb as key": (_laughs() + "? *l9\n: 1\n" + CARD).encode(),
    "alias bomb as value": (_laughs() + CARD.replace("rank: 41.5", "rank: *l9")).encode(),
    "alias as key": (CARD + "note: &k name\n*k : x\n").encode(),
    "list as key": (CARD + "? [a, b]\n: x\n").encode(),
    "alias inside its anchor": (CARD + "note: &a [x, *a]\n").encode(),
    "file over the size limit": (CARD + "note: " + "x" * MAX_BYTES + "\n").encode(),
}
"""Hostile character files (each a DataError when checked as a mod of any edition)."""


def _board(edition: str, old: str, new: str) -> Callable[[str], bytes]:
    """A change of one line of a mini edition's board text (its folders are filled in later)."""
    def edit(text: str) -> bytes:
        assert old in text, old
        return text.replace(old, new, 1).encode("utf-8")
    edit.__qualname__ = f"{edition}: {new}"
    return edit


BOARD_CASES: dict[str, tuple[str, Callable[[str], bytes]]] = {
    "5000-digit bag count": ("galecrest", _board("galecrest", "chest: 4", "chest: " + "9" * 5000)),
    "7-digit players.max": ("galecrest", _board("galecrest", "max: 6}", "max: 1234567}")),
    ".nan neutral rank": ("galecrest", _board("galecrest", "rank: 20.5", "rank: .nan")),
    ".inf neutral rank": ("galecrest", _board("galecrest", "rank: 20.5", "rank: .inf")),
    "5000-digit neutral rank": ("galecrest", _board("galecrest", "rank: 20.5", "rank: " + "7" * 5000)),
    ".nan tie-breaker rank": ("classic", _board("classic", "    1: P1", "    .nan: P1")),
    "5000-digit tie-breaker rank": ("classic", _board("classic", "    1: P1", "    " + "1" * 5000 + ": P1")),
    "word as tie-breaker rank": ("classic", _board("classic", "    1: P1", "    one: P1")),
    "5000-digit start_doubloons": ("classic", _board("classic", "start_doubloons: 10",
                                                      "start_doubloons: " + "1" * 5000)),
    "superscript player count": ("galecrest", _board("galecrest", "    2: [2, 3]", "    \u00b2: [2, 3]")),
    "5000-digit player count": ("galecrest", _board("galecrest", "    2: [2, 3]", "    " + "2" * 5000 + ": [2, 3]")),
    "bad !!int deal": ("galecrest", _board("galecrest", "deal: [6, 6, 6]", "deal: [6, !!int six, 6]")),
    "!!python/object title": ("galecrest", _board("galecrest", "title:", "title: !!python/object:os.system x\nx:")),
    "utf-16 board": ("galecrest", lambda text: text.encode("utf-16")),
    "deep board": ("galecrest", _board("galecrest", "deal: [6, 6, 6]", "deal: " + "[" * 10_000 + "]" * 10_000)),
    "alias bomb board": ("galecrest", lambda text: (text.replace("neutrals:", _laughs().replace("note:", "x:")
                                                                   + "neutrals:", 1)).encode()),
}
"""Hostile edits of a mini edition's board (each a DataError when loaded)."""


# ---------------------------------------------------------------- fixtures and helpers
@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("editions")
    return {name: build_mini_edition(folder, name) for name in ("galecrest", "classic")}


def checked(tmp_path: Path, edition: Path, case: str) -> lt.DataError:
    """The one error ``check_files`` reports for the card case, within the time limit."""
    path = tmp_path / "card.yaml"
    path.write_bytes(CARD_CASES[case])
    with time_limit():
        errors = check_files([path], edition)
    assert len(errors) == 1, errors
    assert errors[0].path == str(path)
    return errors[0]


def loaded(tmp_path: Path, edition: Path, case: str) -> lt.DataError:
    """The DataError ``load_rules`` raises for the card case loaded as a mod, within the time limit."""
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "card.yaml").write_bytes(CARD_CASES[case])
    with time_limit(), pytest.raises(lt.DataError) as info:
        lt.load_rules(edition, extra_cards=[folder])
    assert info.value.path == str(folder / "card.yaml")
    return info.value


def board_error(tmp_path: Path, editions: dict[str, Path], case: str, load: bool = False) -> lt.DataError:
    """The DataError ``check_files`` (or ``load_rules``) raises for the board case, within the time limit."""
    edition, edit = BOARD_CASES[case]
    path = tmp_path / "board.yaml"
    path.write_bytes(edit(editions[edition].read_text(encoding="utf-8")))
    with time_limit(), pytest.raises(lt.DataError) as info:
        if load:
            lt.load_rules(path)
        else:
            check_files([], path)
    assert info.value.path == str(path)
    return info.value


def where(err: lt.DataError) -> tuple[int, int]:
    return err.line, err.column


# ---------------------------------------------------------------- encodings
def test_latin1_file_names_the_byte_and_utf8(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A Latin-1 file is a DataError at the first byte that is not UTF-8, saying UTF-8 is expected."""
    err = loaded(tmp_path, editions["galecrest"], "latin-1")
    assert where(err) == (1, 20)
    assert "not UTF-8" in err.message and "0xe7" in err.message and "UTF-8" in err.expected


def test_utf16_file_with_bom(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A UTF-16 file with a byte-order mark is a DataError naming UTF-16 and expecting UTF-8."""
    err = checked(tmp_path, editions["galecrest"], "utf-16 with BOM")
    assert where(err) == (1, 1) and "UTF-16" in err.message and "UTF-8" in err.expected


@pytest.mark.parametrize("case", ["utf-16-le without BOM", "utf-16-be without BOM"])
def test_utf16_file_without_bom(tmp_path: Path, editions: dict[str, Path], case: str) -> None:
    """A UTF-16 file without a byte-order mark is recognised by its NUL bytes and refused for UTF-8."""
    err = checked(tmp_path, editions["galecrest"], case)
    assert err.line == 1 and "UTF-16" in err.message and "UTF-8" in err.expected


def test_utf32_file(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A UTF-32 file is a DataError naming UTF-32."""
    err = checked(tmp_path, editions["galecrest"], "utf-32 with BOM")
    assert "UTF-32" in err.message


def test_utf8_bom_is_accepted(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A UTF-8 byte-order mark is fine (editors write one) and positions stay right."""
    path = tmp_path / "card.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + CARD.replace("rank: 41.5", "rank: x").encode())
    errors = check_files([path], editions["galecrest"])
    assert [where(e) for e in errors] == [(2, 7)]


# ---------------------------------------------------------------- nesting
@pytest.mark.parametrize("case, position", [("deep flow list", (5, 70)), ("deep flow mapping", (5, 259)),
                                            ("deep block list", (69, 127))])
def test_deep_nesting_is_refused(tmp_path: Path, editions: dict[str, Path], case: str,
                                 position: tuple[int, int]) -> None:
    """Nesting 10,000 deep (PyYAML's composer would raise RecursionError) is refused at its 65th level."""
    err = checked(tmp_path, editions["galecrest"], case)
    assert where(err) == position and "nested more than 64 deep" in err.message


# ---------------------------------------------------------------- long numbers
def test_5000_digit_number_in_card_text(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A 5000-digit number in card text is a CardError at the number, not a lark VisitError."""
    err = loaded(tmp_path, editions["galecrest"], "5000-digit number in text")
    assert isinstance(err, lt.CardError)
    assert where(err) == (4, 13) and "5,000 digits" in err.message and "at most 6" in err.message
    assert err.source_line.startswith("  sun: gain 9999")


def test_7_digit_number_in_card_text(tmp_path: Path, editions: dict[str, Path]) -> None:
    """Numbers in card text have at most 6 digits; 999999 still loads."""
    err = checked(tmp_path, editions["galecrest"], "7-digit number in text")
    assert isinstance(err, lt.CardError) and where(err) == (4, 13)
    path = tmp_path / "ok.yaml"
    path.write_text(_card(text_body="  sun: gain 999999 doubloons.  # 12345678 in a comment is fine"),
                    encoding="utf-8")
    assert check_files([path], editions["galecrest"]) == []


def test_5000_digit_rank(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A 5000-digit rank is a DataError at the rank, not Python's int() ValueError."""
    err = loaded(tmp_path, editions["galecrest"], "5000-digit rank")
    assert where(err) == (2, 7) and "5,000 digits" in err.message


def test_7_digit_rank(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A rank beyond 6 digits is refused with the range ranks must be in."""
    err = checked(tmp_path, editions["galecrest"], "7-digit rank")
    assert where(err) == (2, 7) and "from -999999 to 999999" in err.message


def test_huge_binary_rank(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A 20,000-bit ``0b`` rank (no int() limit, but too big for a float) is a DataError at the rank."""
    err = checked(tmp_path, editions["galecrest"], "20000-bit binary rank")
    assert where(err) == (2, 7) and "digits" in err.message


# ---------------------------------------------------------------- tags
@pytest.mark.parametrize("case, words", [
    ("bad !!float", "'abc' is not a valid number"),
    ("bad !!int", "'abc' is not a valid whole number"),
    ("bad !!timestamp", "'abc' is not a valid date"),
    ("bad !!bool", "'maybe' is not a valid true or false"),
    ("!!python/object", "the tag !!python/object:os.system is not allowed"),
    ("!!python/name", "the tag !!python/name:os.system is not allowed"),
])
def test_bad_tags_are_data_errors_at_the_value(tmp_path: Path, editions: dict[str, Path], case: str,
                                               words: str) -> None:
    """Bad ``!!float``/``!!int``/``!!timestamp``/``!!bool`` values and Python tags are DataErrors at the value."""
    err = checked(tmp_path, editions["galecrest"], case)
    assert where(err) == (2, 7) and words in err.message


def test_impossible_date_is_a_data_error(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A plain 2020-13-45 (read as a date by YAML) is a DataError at it, not datetime's ValueError."""
    err = checked(tmp_path, editions["galecrest"], "bad date")
    assert where(err) == (1, 7) and "'2020-13-45' is not a valid date" in err.message
    assert "quotes" in err.expected


# ---------------------------------------------------------------- ranks must be finite
@pytest.mark.parametrize("case", [".nan rank", ".inf rank", "-.inf rank"])
def test_nan_and_inf_ranks_are_refused(tmp_path: Path, editions: dict[str, Path], case: str) -> None:
    """``.nan`` and ``.inf`` ranks were accepted; a rank must be a finite number (as a mod, and when checked)."""
    err = loaded(tmp_path, editions["galecrest"], case) if case == ".nan rank" else checked(
        tmp_path, editions["galecrest"], case)
    assert where(err) == (2, 7) and "rank must be a finite number" in err.message


@pytest.mark.parametrize("case", [".nan neutral rank", ".inf neutral rank", ".nan tie-breaker rank"])
def test_nan_and_inf_board_ranks_are_refused(tmp_path: Path, editions: dict[str, Path], case: str) -> None:
    """A neutral card's rank and a tie-breaker table's rank must be finite too."""
    err = board_error(tmp_path, editions, case, load=case == ".nan neutral rank")
    assert "must be a finite number" in err.message and err.line > 0


# ---------------------------------------------------------------- aliases
def test_alias_bomb_as_key_is_refused_quickly(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A billion-laughs alias ladder (used as a key) is refused where it passes 10,000 values."""
    err = loaded(tmp_path, editions["galecrest"], "alias bomb as key")
    assert where(err) == (6, 10) and "more than 10,000 values" in err.message


def test_alias_bomb_as_value_is_refused_quickly(tmp_path: Path, editions: dict[str, Path]) -> None:
    """The same ladder used as a rank is refused in the same place, long before anything expands it."""
    err = checked(tmp_path, editions["galecrest"], "alias bomb as value")
    assert where(err) == (6, 10) and "more than 10,000 values" in err.message


def test_small_aliases_still_work(tmp_path: Path, editions: dict[str, Path]) -> None:
    """Aliases of values below the limit are plain YAML and still load."""
    path = tmp_path / "card.yaml"
    path.write_text("name: &n Fuzzy Corsair\nrank: &r 41.5\nnote: [*n, *r]\ntext: |\n  sun: gain 3 doubloons.\n",
                    encoding="utf-8")
    assert check_files([path], editions["galecrest"]) == []


@pytest.mark.parametrize("case, position, words", [
    ("alias as key", (6, 1), "not an alias"),
    ("list as key", (5, 3), "not a list or mapping"),
    ("alias inside its anchor", (5, 14), "inside the value it names"),
])
def test_aliases_and_lists_as_keys_are_refused(tmp_path: Path, editions: dict[str, Path], case: str,
                                               position: tuple[int, int], words: str) -> None:
    """An alias or a list as a mapping key, and an alias inside its own anchor, are refused at the mark."""
    err = checked(tmp_path, editions["galecrest"], case)
    assert where(err) == position and words in err.message


# ---------------------------------------------------------------- size and board numbers
def test_file_over_the_size_limit(tmp_path: Path, editions: dict[str, Path]) -> None:
    """A file over 250 kB (100 times the largest bundled one) is refused before it is parsed."""
    err = checked(tmp_path, editions["galecrest"], "file over the size limit")
    assert f"larger than {MAX_BYTES:,} bytes" in err.message and err.line == 0


@pytest.mark.parametrize("case", ["5000-digit bag count", "7-digit players.max", "5000-digit neutral rank",
                                  "5000-digit tie-breaker rank", "word as tie-breaker rank",
                                  "5000-digit start_doubloons", "superscript player count",
                                  "5000-digit player count"])
def test_board_numbers_are_bounded(tmp_path: Path, editions: dict[str, Path], case: str) -> None:
    """Counts, player counts and ranks on a board are numbers of at most 6 digits, or a DataError at them."""
    err = board_error(tmp_path, editions, case)
    assert err.line > 0 and err.column > 0


@pytest.mark.parametrize("case", ["bad !!int deal", "!!python/object title", "utf-16 board", "deep board",
                                  "alias bomb board"])
def test_hostile_boards(tmp_path: Path, editions: dict[str, Path], case: str) -> None:
    """A board with a bad tag, in UTF-16, nested too deep or with an alias bomb is a DataError."""
    err = board_error(tmp_path, editions, case)
    assert err.line > 0


# ---------------------------------------------------------------- cards check
def test_cards_check_reports_every_hostile_file_without_a_traceback(tmp_path: Path,
                                                                    editions: dict[str, Path]) -> None:
    """``cards check`` over a folder of every hostile card prints one error per file and no traceback."""
    for i, body in enumerate(CARD_CASES.values()):
        (tmp_path / f"case{i:02}.yaml").write_bytes(body)
    with time_limit(60):
        result = CliRunner().invoke(main, ["cards", "check", "--edition", str(editions["galecrest"]),
                                           str(tmp_path)])
    assert result.exit_code == 1 and result.exception is not None and isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    for i in range(len(CARD_CASES)):  # some files also repeat the name of an earlier one
        assert f"case{i:02}.yaml" in result.output
    assert int(result.output.splitlines()[-1].removesuffix(" errors")) >= len(CARD_CASES)


@pytest.mark.parametrize("error", [RuntimeError, ValueError, RecursionError])
def test_cards_check_shows_an_internal_error_in_one_line(tmp_path: Path, editions: dict[str, Path],
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         error: type[Exception]) -> None:
    """A bug while checking a file is one 'internal error' line naming the file, not a traceback."""
    def broken(*args: object) -> None:
        raise error("boom\nsecond line")

    monkeypatch.setattr(rules_module, "_character", broken)
    path = tmp_path / "card.yaml"
    path.write_text(CARD, encoding="utf-8")
    result = CliRunner().invoke(main, ["cards", "check", "--edition", str(editions["galecrest"]), str(path)])
    assert result.exit_code == 70 and isinstance(result.exception, SystemExit)
    assert result.output.strip() == (f"libertalia: internal error while checking {path}: {error.__name__}: boom "
                                     "(please report this)")


def test_cards_check_of_an_unknown_edition_is_one_line(tmp_path: Path) -> None:
    """An edition that does not load is still the library's one-line message with exit status 2."""
    path = tmp_path / "card.yaml"
    path.write_text(CARD, encoding="utf-8")
    result = CliRunner().invoke(main, ["cards", "check", "--edition", "galecrets", str(path)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert result.output.startswith("libertalia: no edition or board file called 'galecrets'")
    assert len(result.output.strip().splitlines()) == 1


def test_load_rules_skips_examples_but_keeps_positions(tmp_path: Path) -> None:
    """load_rules leaves a card's examples unread (blanked), and every later position stays exact."""
    from libertalia.loading.yamlfile import read

    body = ("name: Fan\nrank: 41.5\nexamples:\n  - it: [unclosed\n    setup: {}\n"
            "text: |\n  sun: gain 1 doubloon if youhold a map.\n")
    path = tmp_path / "fan.yaml"
    path.write_text(body, encoding="utf-8")
    doc = read(path, skip="examples")
    assert "examples" not in dict(doc.root.items())
    with pytest.raises(lt.CardError) as info:
        lt.load_rules("galecrest", extra_cards=[path])
    assert info.value.line == 7 and "youhold" in str(info.value)
    with pytest.raises(lt.DataError):
        read(path)  # read whole, the broken example is a YAML error (cards check reports it)
