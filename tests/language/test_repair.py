"""Card text that does not parse: the nearest wording that does, and every error of a line, each at its word."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

import libertalia as lt
from libertalia.errors import CardErrors
from libertalia.language import repair
from libertalia.language.lalr import shared_parser

# Every text these tests repair, with the line each should be rewritten to.
FIXES = {
    "missing word": ("dusk: gain 1 doubloon for character on the island.",
                     "dusk: gain 1 doubloon for each character on the island."),
    "missing article": ("moon: take a chest from bag.", "moon: take a chest from the bag."),
    "missing counting word": ("sun: lose 1 doubloon character in your hand.",
                              "sun: lose 1 doubloon per character in your hand."),  # "per": one word, a variant
    "extra word": ("moon: lose 2 golden doubloons.", "moon: lose 2 doubloons."),
    "near-synonym": ("anchor: earn 4 doubloons if you hold a map.", "anchor: gain 4 doubloons if you hold a map."),
    "synonym of a subject": ("dusk: any player loses 1 doubloon.", "dusk: each player loses 1 doubloon."),
    "misplaced mark": ("dusk; take a map from the bag.", "dusk: take a map from the bag."),
    "colon for a comma": ("sun: you may discard this: otherwise gain 1 doubloon.",
                          "sun: you may discard this, otherwise gain 1 doubloon."),
    "word order": ("moon: lose doubloons 3.", "moon: lose 3 doubloons."),
    "unknown unit": ("sun: gain 5 gold.", "sun: gain 5 doubloon."),
    "missing colon": ("anchor gain 2 doubloons if you hold a relic.", "anchor: gain 2 doubloons if you hold a relic."),
    # ("a saber or a hook" reads as "a saber or hook" now, issue 34: a keyword "each" stands where "a" did)
    "article in a kind list": ("sun: take a saber or each hook from today's loot.",
                               "sun: take a saber or hook from today's loot."),
    "two errors": ("sun: take a map from bag and gain 1 doubloon for character in your ship.",
                   "sun: take a map from the bag and gain 1 doubloon for each character in your ship."),
}


def errors(text: str) -> list[lt.CardError]:
    """Every error ``lt.parse`` raises for ``text``, in order."""
    with pytest.raises(lt.CardError) as info:
        lt.parse(text)
    err = info.value
    return list(err.errors) if isinstance(err, CardErrors) else [err]


@pytest.mark.parametrize("case", sorted(FIXES))
def test_the_fix_is_the_nearest_wording(case: str) -> None:
    """Each mistake's error carries the line rewritten with the fewest, likeliest edits (``CardError.fix``)."""
    text, fixed = FIXES[case]
    found = errors(text)
    assert {e.fix for e in found} == {fixed}


@pytest.mark.parametrize("case", sorted(FIXES))
def test_every_suggested_fix_parses(case: str) -> None:
    """A suggested line is never a guess the grammar refuses: ``lt.parse(fix)`` succeeds for every error."""
    for err in errors(FIXES[case][0]):
        assert err.fix is not None
        assert lt.parse(err.fix)


def test_a_missing_word_is_quoted_in_its_phrase() -> None:
    """The message quotes the rewritten words around the change, not the whole card."""
    (err,) = errors(FIXES["missing word"][0])
    assert err.message == ("unexpected word 'character' "
                           '(did you mean: "doubloon for each character on the island"?)')
    assert "dusk:" not in err.message
    assert err.expected == '"each" or "every"'


def test_a_wrong_mark_is_named_and_replaced() -> None:
    """A semicolon where the trigger's colon goes: 'unexpected mark', and the phrase with the colon."""
    (err,) = errors(FIXES["misplaced mark"][0])
    assert err.message.startswith("unexpected mark ';'")
    assert '"dusk: take a map from"' in err.message
    assert err.column == len("dusk") + 1


def test_a_near_synonym_the_grammar_does_not_know_is_replaced_by_its_word() -> None:
    """'earn' is no word of the language; the replacement spelt most like it that parses is 'gain'."""
    (err,) = errors(FIXES["near-synonym"][0])
    assert err.message.startswith("unexpected word 'earn' (did you mean: \"gain 4 doubloons if you")


def test_a_misspelt_word_keeps_the_short_did_you_mean() -> None:
    """A one-word respelling reads as before: (did you mean "every"?)."""
    (err,) = errors("moon: evry player loses 1 doubloon.")
    assert err.message == "unexpected word 'evry' (did you mean \"every\"?)"
    assert err.fix == "moon: every player loses 1 doubloon."


def test_two_errors_of_one_line_are_both_reported_each_at_its_word() -> None:
    """After the first error's repair the parse goes on, and the second error gets its own column and caret."""
    text = FIXES["two errors"][0]
    first, second = errors(text)
    assert (first.line, first.column) == (1, text.index("bag") + 1)
    assert (second.line, second.column) == (1, text.index("character") + 1)
    assert '"map from the bag and gain 1"' in first.message
    assert '"doubloon for each character in your ship"' in second.message
    for err in (first, second):
        caret = str(err).splitlines()[2]
        assert caret.index("^") - 4 == err.column - 1


def test_errors_on_several_lines_are_each_reported() -> None:
    """Each ability line is parsed afresh: a mistake on line 1 does not hide those of lines 2 and 3."""
    text = "sun: gain 2 doubloons.\nmoon: gain 1 doubloon for character in your ship.\nanchor: lose 2"
    found = errors(text)
    assert [(e.line, e.message.split(" (")[0]) for e in found] == [
        (2, "unexpected word 'character'"), (3, "the text ends too early")]
    assert found[0].fix == "moon: gain 1 doubloon for each character in your ship."
    assert found[1].fix == "anchor: lose 2 doubloon"


def test_the_end_of_a_line_is_pointed_at_just_past_its_last_word() -> None:
    """'the line ends too early' puts its caret after the last word, and says which line."""
    first, second = errors("sun: gain 3\nmoon: gain 1")
    assert first.message.startswith("the line ends too early")
    assert first.column == len("sun: gain 3") + 1
    assert second.message.startswith("the text ends too early")


def test_a_line_that_stops_short_is_one_error_not_one_per_missing_word() -> None:
    """Words added at a line's end count only when the line then parses: "sun:" is one error, not a chain."""
    (err,) = errors("sun:")
    assert err.message.startswith("the text ends too early")


def test_a_keyword_is_not_offered_as_a_loot_kind() -> None:
    """'or each hook' reads 'each' as a kind only by the lexer's leave: the fix drops it instead of keeping it."""
    (err,) = errors(FIXES["article in a kind list"][0])
    assert err.message.endswith('(did you mean: "saber or hook from today\'s loot"?)')


def test_several_errors_read_as_the_first() -> None:
    """A CardErrors is a CardError whose line, column, message and fix are its first error's; str shows all."""
    with pytest.raises(CardErrors) as info:
        lt.parse(FIXES["two errors"][0])
    err = info.value
    first = err.errors[0]
    assert (err.line, err.column, err.message, err.fix) == (first.line, first.column, first.message, first.fix)
    assert str(err) == "\n".join(str(e) for e in err.errors)


def test_several_errors_survive_pickling() -> None:
    """A CardErrors sent from a worker process comes back with each of its errors (not rebuilt from its text)."""
    with pytest.raises(CardErrors) as info:
        lt.parse(FIXES["two errors"][0])
    back = pickle.loads(pickle.dumps(info.value))  # noqa: S301 - our own object, made just above
    assert [(e.line, e.column, e.fix) for e in back.errors] == [(e.line, e.column, e.fix) for e in info.value.errors]


def test_the_fix_keeps_the_line_s_own_spacing_and_comment() -> None:
    """Only the changed words move: spaces between untouched words and a trailing comment stay as written."""
    (err,) = errors("sun:  gain 2 doubloons   for character in your ship.  # the captain's share")
    assert err.fix == "sun:  gain 2 doubloons   for each character in your ship.  # the captain's share"


def test_a_line_the_search_cannot_mend_gets_no_fix() -> None:
    """Where no small edit makes the line parse, the error stands without a phrase or a fix (no wild guess)."""
    found = errors("sun: gain 2 doubloons if your reputation is very high today.")
    assert found[0].message.startswith("unexpected word 'very'")  # "your reputation is N or more" reads up to it
    assert all(e.fix is None and "did you mean:" not in e.message for e in found)


def _garbage(n: int) -> str:
    """A long line of the language's own words in a scrambled (fixed) order."""
    words = sorted({w for spelt in repair.spellings(shared_parser()).values() for w in spelt})
    return "sun: " + " ".join(words[(i * 37) % len(words)] for i in range(n))


def test_a_long_garbage_line_stays_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search tries at most BUDGET candidate parses per error and reports at most MAX_LINE_ERRORS."""
    tried = []
    original = repair._Line._try

    def counting(self: repair._Line, edit: repair.Edit, error: int) -> object:
        tried.append(edit)
        return original(self, edit, error)

    monkeypatch.setattr(repair._Line, "_try", counting)
    problems = repair.diagnose(_garbage(400), shared_parser())
    assert 1 <= len(problems) <= repair.MAX_LINE_ERRORS
    assert all(p.parses <= repair.BUDGET for p in problems)
    assert len(tried) <= repair.BUDGET * len(problems)


def test_a_long_line_with_one_error_is_mended_within_the_budget() -> None:
    """An early mistake in a long line is still repaired, the candidates reading the whole line only a few times."""
    text = "sun: gain 2 doubloons for character in your ship" + ", then gain 1 doubloon" * 150 + "."
    (problem,) = repair.diagnose(text, shared_parser())
    assert problem.parses <= repair.BUDGET
    assert problem.fix is not None and problem.fix.startswith("sun: gain 2 doubloons for each character")
    assert lt.parse(problem.fix)


def test_many_bad_lines_report_a_bounded_number_of_errors() -> None:
    """A text of hundreds of broken lines stops at MAX_TEXT_ERRORS errors."""
    text = "\n".join(["sun: gain 2 doubloons for character in your ship."] * 300)
    assert len(repair.diagnose(text, shared_parser())) == repair.MAX_TEXT_ERRORS


def test_the_search_is_deterministic() -> None:
    """The same text always gets the same errors and the same fix."""
    text = FIXES["two errors"][0] + "\n" + _garbage(60)
    assert repair.diagnose(text, shared_parser()) == repair.diagnose(text, shared_parser())


def test_the_success_path_never_imports_the_search() -> None:
    """A text that parses leaves the repair module unimported; only a failed parse loads it."""
    code = ("import sys, libertalia as lt\n"
            "lt.parse('sun: gain 2 doubloons if you hold 2 or more relic.')\n"
            "print('libertalia.language.repair' in sys.modules)\n"
            "try:\n    lt.parse('sun: gain 2 doubloonz.')\nexcept lt.CardError:\n    pass\n"
            "print('libertalia.language.repair' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_an_error_inside_words_a_repair_settled_ends_the_line_search() -> None:
    """Issue 34: a repair next to a printed phrase ("you have" read with its neighbours) can leave the next
    failure inside words it settled; the line's errors stop there instead of the search crashing."""
    text = ("moon: choose one: draw a loot for each of your loot; or discard a amulet; then count 10 extra map, "
            "and move down doubloons by loot tokens you have (6 for 12), or discard target character.")
    found = repair.diagnose(text, shared_parser())
    assert found and found[0].line == 1
