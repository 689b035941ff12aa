"""Cards that test themselves: the ``examples:`` key, its errors and ``libertalia cards test``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import libertalia as lt
from libertalia.cli import main
from libertalia.errors import ExampleFailure
from libertalia.loading.examples import read_examples, run_examples
from libertalia.loading.rules import check_files

REPO = Path(__file__).resolve().parents[2]

CARD = """\
name: Pirate Queen
rank: 41
text: |
  sun: gain 2 doubloons for each character in your ship ranked above 30.
examples:
  - it: pays 2 for each character ranked above 30 in the ship
    setup:
      reputation: [0, 1, 2]
      loot: [[chest, amulet, relic]]
      players:
        - {hand: [Pirate Queen, Cook], ship: [Captain, Governor, Bosun]}
        - {hand: [Explorer, Cook, Collector]}
        - {hand: [Treasurer, Cook, Collector]}
    play: [Pirate Queen, Explorer, Treasurer]
    expect:
      - {doubloons: DOUBLOONS, ship: [Governor, Captain, Bosun]}
      - {doubloons: 0}
    island: [Explorer@1, Treasurer, Pirate Queen@0]
    phase: dusk
    legal: [relic, amulet, chest]
"""

SETUP = """\
    setup:
      reputation: [0, 1, 2]
      loot: [[chest, amulet, relic]]
      players:
        - {hand: [Pirate Queen, Cook, Collector]}
        - {hand: [Explorer, Cook, Collector]}
        - {hand: [Treasurer, Cook, Collector]}
"""


def card(tmp_path: Path, body: str, name: str = "queen.yaml") -> Path:
    """Write one mod card file and return its path."""
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


def queen(tmp_path: Path, example_lines: str, setup: str = SETUP) -> Path:
    """The Pirate Queen with one example (line 6) made of the setup plus the given lines (from line 14)."""
    head = CARD.split("examples:")[0]
    return card(tmp_path, head + "examples:\n  - it: an example\n" + setup + example_lines)


def failure(path: Path) -> ExampleFailure:
    (result,) = run_examples(path)
    assert result.failure is not None, "the example should fail"
    return result.failure


def test_a_true_example_passes(tmp_path: Path) -> None:
    """A mod card's correct example passes: seat fields, island (with and without @seat), phase, legal."""
    (result,) = run_examples(card(tmp_path, CARD.replace("DOUBLOONS", "4")))
    assert result.passed and result.failure is None
    assert result.example.it == "pays 2 for each character ranked above 30 in the ship"
    assert (result.example.line, result.example.column) == (6, 5)


def test_a_false_example_fails_with_position_and_differences(tmp_path: Path) -> None:
    """A wrong expectation fails with file:line:col of its '- it:', the it text, and expected against actual."""
    path = card(tmp_path, CARD.replace("DOUBLOONS", "6"))
    err = failure(path)
    assert isinstance(err, lt.DataError)
    assert (err.path, err.line, err.column) == (str(path), 6, 5)
    text = str(err)
    assert text.startswith(f"{path}:6:5: example 'pays 2 for each character ranked above 30 in the ship' failed")
    assert "seat 0 doubloons: expected 6, got 4" in text
    assert "seat 0 ship" not in text and "island" not in text  # only mismatches are listed
    assert err.problems[0] == "seat 0 doubloons: expected 6, got 4"


def test_lists_compare_as_multisets_and_game_fields_are_checked(tmp_path: Path) -> None:
    """Zone lists ignore order but not counts; phase, day, over and island mismatches are each reported."""
    path = queen(tmp_path, "    play: [Pirate Queen, Explorer, Treasurer]\n"
                           "    expect:\n      - {hand: [Cook, Cook]}\n"
                           "    phase: select\n    day: 2\n    over: true\n    island: [Explorer, Treasurer]\n")
    problems = failure(path).problems
    assert "seat 0 hand: expected [Cook, Cook], got [Cook, Collector]" in problems
    assert "phase: expected select, got dusk" in problems
    assert "day: expected 2, got 1" in problems
    assert "over: expected true, got false" in problems
    assert "island: expected [Explorer, Treasurer], got [Explorer@1, Treasurer@2, Pirate Queen@0]" in problems


def test_illegal_answer_names_its_index_and_the_legal_keys(tmp_path: Path) -> None:
    """An answer the game does not offer fails, naming answers[i], who is asked what, and the legal keys."""
    path = queen(tmp_path, "    play: [Pirate Queen, Explorer, Treasurer]\n    answers: [chest, map]\n"
                           "    expect:\n      - {}\n")
    err = failure(path)
    assert (err.line, err.column) == (6, 5)
    assert "answers[1] 'map' is not offered: seat 2 is asked choose_loot (from Treasurer); " \
           "the legal keys are 'amulet', 'relic'" in str(err)


def test_an_answer_can_state_what_its_question_offered(tmp_path: Path) -> None:
    """An answer written {answer: K, offered: [...]} passes when the question offered exactly those keys
    (order ignored) and fails, naming answers[i] and what was offered, when it offered otherwise."""
    plays = "    play: [Pirate Queen, Explorer, Treasurer]\n"
    right = queen(tmp_path, plays + "    answers: [{answer: chest, offered: [relic, chest, amulet]}, amulet]\n"
                                    "    expect:\n      - {loot: [chest]}\n      - {loot: [relic]}\n")
    (result,) = run_examples(right)
    assert result.passed, result.failure
    assert result.example.answers == ("chest", "amulet")
    assert result.example.offered == (("relic", "chest", "amulet"), None)
    wrong = queen(tmp_path, plays + "    answers: [{answer: chest, offered: [chest, amulet]}]\n"
                                    "    expect:\n      - {}\n")
    assert "answers[0] 'chest': the question should offer [chest, amulet], but seat 0 is asked choose_loot" \
           in str(failure(wrong))


@pytest.mark.parametrize(
    ("answers", "words"),
    [
        ("[{answer: chest}]", "lacks the required key 'offered'"),
        ("[{answer: map, offered: [chest, amulet]}]", "answers[0] answers 'map', which its offered list does not hold"),
        ("[{answer: chest, offered: [chest], asked: 2}]", "unknown key 'asked' in answers[0]"),
    ],
)
def test_a_malformed_offered_answer_is_a_data_error(tmp_path: Path, answers: str, words: str) -> None:
    """An offered answer needs both keys, no other, and its answer among the keys offered."""
    with pytest.raises(lt.DataError) as info:
        read_examples(queen(tmp_path, f"    answers: {answers}\n    expect:\n      - {{}}\n"))
    assert words in str(info.value)


def test_illegal_play_names_the_seat(tmp_path: Path) -> None:
    """A play entry that is not in the seat's hand fails, naming play[seat] and the legal keys."""
    path = queen(tmp_path, "    play: [Pirate Queen, Captain, Treasurer]\n    expect:\n      - {}\n")
    assert "play[1] 'Captain' is not offered: seat 1 is asked play_character; the legal keys are " \
           "'Explorer', 'Cook', 'Collector'" in str(failure(path))


def test_bad_setup_is_reported_at_the_example(tmp_path: Path) -> None:
    """A SetupError from the declared position becomes a failure at the example's line."""
    path = queen(tmp_path, "    expect:\n      - {}\n", SETUP.replace("reputation: [0, 1, 2]", "voyage: 9"))
    err = failure(path)
    assert (err.line, err.column) == (6, 5)
    assert "bad setup: voyage must be a whole number in 1..3, not 9" in str(err)


@pytest.mark.parametrize(
    ("lines", "where", "words"),
    [
        ("    expect:\n      - {}\n    phse: select\n", (16, 5), "unknown key 'phse' in an example"),
        ("    expect:\n      - {coins: 3}\n", (15, 10), "unknown key 'coins' in expect[0]"),
        ("    expect:\n      - {doubloons: three}\n", (15, 21), "doubloons must be a whole number"),
        ("    seed: x\n    expect:\n      - {}\n", (14, 11), "seed must be a whole number"),
        ("    seed: 18446744073709551616\n    expect:\n      - {}\n", (14, 11),
         "seed must be a whole number of at most 18446744073709551615"),
        ("    expect: {doubloons: 3}\n", (14, 13), "expected a list"),
        ("    expect:\n      - {}\n      - {}\n      - {}\n      - {}\n", (15, 7), "expect lists 4 seats"),
        ("    play: [Pirate Queen]\n    expect:\n      - {}\n", (14, 11), "play needs one character per seat (3)"),
        ("    answers: [3]\n    expect:\n      - {}\n", (14, 15), "answers must list keys"),
        ("    expect:\n      - {}\n    phase: sunset\n", (16, 12), "unknown phase 'sunset'"),
        ("    expect:\n      - {}\n    over: 1\n", (16, 11), "over must be true or false"),
        ("    play: [Pirate Queen, Explorer, Treasurer]\n", (6, 5), "an example lacks the required key 'expect'"),
    ],
)
def test_malformed_examples_are_data_errors_with_positions(
    tmp_path: Path, lines: str, where: tuple[int, int], words: str
) -> None:
    """Unknown keys and wrong types in an example raise DataError at the offending line and column."""
    path = queen(tmp_path, lines)
    with pytest.raises(lt.DataError) as info:
        read_examples(path)
    assert (info.value.line, info.value.column) == where, str(info.value)
    assert words in str(info.value)
    assert str(info.value).startswith(f"{path}:{where[0]}:{where[1]}:")


def test_setup_without_players_needs_a_count(tmp_path: Path) -> None:
    """With no setup.players the example must give players: N; then hands are dealt from the seed."""
    head = CARD.split("examples:")[0]
    body = head + "examples:\n  - it: dealt\n    setup: {day: 2}\n    expect:\n      - {}\n"
    with pytest.raises(lt.DataError) as info:
        read_examples(card(tmp_path, body))
    assert (info.value.line, info.value.column) == (7, 12)
    assert "players" in str(info.value)
    path = card(tmp_path, body.replace("    expect:", "    players: 4\n    expect:"))
    (result,) = run_examples(path)
    assert result.passed and result.example.players == 4


def test_load_rules_ignores_examples(tmp_path: Path) -> None:
    """load_rules accepts the examples key and never runs them, even a failing one."""
    path = card(tmp_path, CARD.replace("DOUBLOONS", "99"))
    rules = lt.load_rules("galecrest", extra_cards=[path])
    assert rules.has_card("Pirate Queen")


def test_a_mod_loot_tile_runs_with_its_own_side_active(tmp_path: Path) -> None:
    """A loot file's examples run with that tile's side chosen for its kind (here a new 'rich' chest side)."""
    rich = card(tmp_path, """\
kind: chest
side: rich
count: 4
text: |
  anchor: gain 9 doubloons.
examples:
  - it: scores 9 at anchor
    setup:
      voyage: 1
      day: 4
      reputation: [0, 1, 2]
      loot: [[amulet, amulet, amulet]]
      players:
        - {hand: [Explorer], loot: [chest]}
        - {hand: [Explorer]}
        - {hand: [Explorer]}
    expect:
      - {score: 12}
      - {score: 3}
    voyage: 2
""", "chest.yaml")
    (result,) = run_examples(rich)
    assert result.passed, result.failure


def test_a_file_under_an_edition_folder_runs_in_that_edition(tmp_path: Path) -> None:
    """A copy of a Classic card under cards/classic/characters/ runs under Classic, whatever --edition says."""
    folder = tmp_path / "cards" / "classic" / "characters"
    folder.mkdir(parents=True)
    text = (REPO / "cards" / "classic" / "characters" / "10-french-officer.yaml").read_text(encoding="utf-8")
    path = card(folder, text.split("examples:")[0] + """\
examples:
  - it: gains 5 with 8 or fewer doubloons
    setup:
      players:
        - {hand: [French Officer, Parrot, Monkey], doubloons: 8}
        - {hand: [Cook, Parrot, Monkey]}
    play: [French Officer, Cook]
    expect:
      - {doubloons: 13}
""", "10-french-officer.yaml")
    (result,) = run_examples(path, edition="galecrest")
    assert result.passed, result.failure


def test_the_modding_guide_example_passes(tmp_path: Path) -> None:
    """The card-with-examples shown in docs/modding.md runs and passes."""
    guide = (REPO / "docs" / "modding.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", guide, re.S) if "examples:" in b]
    assert blocks, "docs/modding.md should show a card with examples"
    for i, block in enumerate(blocks):
        results = run_examples(card(tmp_path, block, f"guide{i}.yaml"))
        assert results and all(r.passed for r in results), [str(r.failure) for r in results]


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_cli_runs_examples_and_summarises(tmp_path: Path) -> None:
    """`libertalia cards test` prints each failure with file:line:col, a summary, and exits 1 on any failure."""
    card(tmp_path, CARD.replace("DOUBLOONS", "4"), "good.yaml")
    code, out = run_cli("cards", "test", str(tmp_path))
    assert code == 0, out
    assert "1 example passed, 0 failed" in out
    # The folder loads together, as `cards check` checks it: the second card has a name of its own.
    king = CARD.replace("Pirate Queen", "Pirate King").replace("rank: 41", "rank: 43")
    card(tmp_path, king.replace("DOUBLOONS", "5"), "bad.yaml")
    card(tmp_path, "name: Plain\nrank: 42\ntext: |\n  sun: gain 1 doubloon.\n", "plain.yaml")
    code, out = run_cli("cards", "test", str(tmp_path))
    assert code == 1
    assert f"{tmp_path / 'bad.yaml'}:6:5: example 'pays 2" in out
    assert "seat 0 doubloons: expected 5, got 4" in out
    assert "1 example passed, 1 failed (1 file without examples)" in out
    assert "Traceback" not in out


def test_cli_reports_malformed_examples_without_a_traceback(tmp_path: Path) -> None:
    """A malformed example is printed as a DataError and counted as a failure; no traceback."""
    card(tmp_path, CARD.replace("DOUBLOONS", "4").replace("    phase: dusk", "    phaze: dusk"))
    code, out = run_cli("cards", "test", str(tmp_path / "queen.yaml"))
    assert code == 1
    assert "queen.yaml:19:5: unknown key 'phaze' in an example" in out
    assert "0 examples passed, 1 failed" in out and "Traceback" not in out


def test_cli_unknown_edition_is_a_friendly_error(tmp_path: Path) -> None:
    """An unknown --edition for a mod file exits 2 with a message, not a traceback."""
    code, out = run_cli("cards", "test", "--edition", "atlantis", str(card(tmp_path, CARD.replace("DOUBLOONS", "4"))))
    assert code == 2
    assert "no edition or board file called 'atlantis'" in out and "Traceback" not in out


def test_cards_check_reports_a_malformed_example(tmp_path: Path) -> None:
    """`cards check` validates the shape of examples too, with file:line:col and a suggestion."""
    (tmp_path / "fan.yaml").write_text(
        "name: Fan\nrank: 41.5\ntext: |\n  sun: gain 1 doubloon.\nexamples:\n  - it: x\n    setpu: {}\n",
        encoding="utf-8")
    errors = check_files([tmp_path])
    assert len(errors) == 1 and "fan.yaml:7:5: unknown key 'setpu'" in str(errors[0])
    assert 'did you mean "setup"' in str(errors[0])
