"""The checker's unknown words: every unknown loot kind and card name of a text, each at its own word."""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from libertalia.errors import CardError, CardErrors
from libertalia.language import checker
from libertalia.loading.rules import check_files

VOCAB = checker.Vocabulary(frozenset({"Cook", "Bosun"}), frozenset({"map", "chest", "saber"}))


def refusals(text: str, *, loot: bool = False) -> list[CardError]:
    """Every error the checker raises for ``text``, in order, with the text's lines as the quoted source."""
    lines = text.split("\n")

    def report(message: str, line: int, column: int, expected: str) -> CardError:
        return CardError(message, line=line, column=column, source_line=lines[line - 1], expected=expected)

    with pytest.raises(CardError) as info:
        checker.check(lt.parse(text), VOCAB, report, loot=loot)
    err = info.value
    return list(err.errors) if isinstance(err, CardErrors) else [err]


def _columns(text: str, *words: str) -> list[int]:
    """The 1-based column of each word's first whole occurrence, each looked for after the one before."""
    out, at = [], 0
    for w in words:
        at = text.index(f" {w}", at) + 1
        out.append(at + 1)
        at += len(w)
    return out


def test_three_unknown_kinds_of_one_line_are_all_reported() -> None:
    """'pearl', 'gem' and 'ruby' are each refused, each with its caret on its own word."""
    text = "dusk: take a pearl or gem from the bag, then gain 1 doubloon for each ruby you hold."
    found = refusals(text)
    assert [e.message.split(" (")[0] for e in found] == [
        "unknown loot kind 'pearl'", "unknown loot kind 'gem'", "unknown loot kind 'ruby'"]
    assert [e.column for e in found] == _columns(text, "pearl", "gem", "ruby")


def test_a_kind_named_twice_in_one_list_is_pointed_at_each_time() -> None:
    """Two unknown kinds in one list are found one after the other, never both at the first."""
    text = "sun: take a gem or chest or gem from today's loot."
    columns = [e.column for e in refusals(text)]
    assert columns == [text.index("gem") + 1, text.rindex("gem") + 1]


def test_every_unknown_card_name_is_reported() -> None:
    """Two unknown names of one line are two errors, each suggesting the card meant."""
    text = "sun: discard a Cok in your ship, then discard a Bosunn in your hand."
    found = refusals(text)
    assert [e.message for e in found] == ["unknown card name 'Cok' (did you mean \"Cook\"?)",
                                          "unknown card name 'Bosunn' (did you mean \"Bosun\"?)"]
    assert [e.column for e in found] == [text.index("Cok") + 1, text.index("Bosunn") + 1]


def test_unknown_words_of_several_lines_and_another_problem_are_reported_together() -> None:
    """Each ability is checked on: unknown words of later lines, and a line's first other problem, all come out."""
    text = "sun: gain 1 doubloon for each pearl you hold.\nmoon: discard a character on the island.\n" \
           "anchor: lose 1 doubloon if you hold a ruby."
    found = refusals(text)
    assert [(e.line, e.message.split(" (")[0]) for e in found] == [
        (1, "unknown loot kind 'pearl'"),
        (2, "at night and at anchor every character is in a ship: the island is empty"),
        (3, "unknown loot kind 'ruby'")]


def test_one_problem_is_raised_alone() -> None:
    """A single refusal is a plain CardError, as before, not a group of one."""
    (err,) = refusals("sun: gain 1 doubloon for each pearl you hold.")
    assert type(err) is CardError


def test_check_files_lists_each_unknown_kind(tmp_path: Path) -> None:
    """``check_files`` (and so ``cards check``) lists each unknown kind of a card as its own error."""
    (tmp_path / "diver.yaml").write_text(
        "name: Diver\nrank: 41.5\ntext: |\n  moon: take a pearl or coral or amber from the bag.\n", encoding="utf-8")
    found = check_files([tmp_path])
    assert [e.message.split(" (")[0] for e in found] == [
        "unknown loot kind 'pearl'", "unknown loot kind 'coral'", "unknown loot kind 'amber'"]
    assert all(e.line == 4 for e in found)
