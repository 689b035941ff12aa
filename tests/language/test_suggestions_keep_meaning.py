"""A "did you mean" never changes what a line says (``language/meaning.py``): a word that names a place, a
piece, a kind, an action or an amount is never swapped for another word nor dropped, only respelt into its own
forms; glue words and words the language does not know may be replaced."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import libertalia as lt
from libertalia.errors import CardErrors
from libertalia.language.meaning import CONTENT_WORDS, carries_meaning, lemma, may_replace, same_word
from libertalia.testing.texts import vocabulary
from tests.helpers import galecrest


def errors(text: str) -> list[lt.CardError]:
    """Every error ``lt.parse`` raises for ``text``."""
    with pytest.raises(lt.CardError) as info:
        lt.parse(text)
    err = info.value
    return list(err.errors) if isinstance(err, CardErrors) else [err]


def _meaning_words(line: str) -> set[str]:
    return {lemma(w) for w in re.findall(r"[A-Za-z'-]+|\d+", line) if carries_meaning(w)}


def _respelt(message: str) -> tuple[str, str] | None:
    """The word and the one a one-word did-you-mean offers for it, if the message has one."""
    m = re.match(r"unexpected word '([^']+)' \(did you mean \"([^\"]+)\"\?\)", message)
    return (m.group(1), m.group(2)) if m else None


def _keeps_meaning(text: str) -> None:
    for err in errors(text):
        if err.fix is not None:
            line = text.splitlines()[err.line - 1]
            lost = _meaning_words(line) - _meaning_words(err.fix)
            assert not lost, (text, err.fix, lost)
        pair = _respelt(err.message)
        if pair is not None and carries_meaning(pair[0]):
            assert same_word(*pair), (text, err.message)


@pytest.mark.parametrize("text", [
    "moon: discard the rightmost character in the bag.",  # a pile where a place of characters goes
    "sun: put a barrel into your hand.",  # a loot kind where a character goes
    "dusk: take a character from today's loot.",  # a character where loot goes
    "anchor: gain 3 doubloons if you hold the most maps.",  # a comparison word out of place
    "moon: gain 1 doubloon for each hook in your graveyard.",  # loot in a pile
    "sun: move your doubloons to the rightmost space.",  # the purse where the track goes
    "sun: play a saber you hold onto the island.",  # playing loot
])
def test_a_correctly_spelt_word_that_names_something_is_never_traded(text: str) -> None:
    """No fix loses a word that carries meaning, and no one-word did-you-mean offers another word for it."""
    _keeps_meaning(text)


def test_a_pile_is_not_corrected_into_another_place() -> None:
    """'the bag' is no misspelling of 'the island': the error offers no fix rather than another place."""
    (err,) = errors("moon: discard the rightmost character in the bag.")
    assert err.message == "unexpected word 'bag'" and err.fix is None


def test_a_loot_kind_is_not_corrected_into_a_character() -> None:
    """An unknown lower-case word where a piece goes is most likely a loot kind: never offered as 'character'."""
    for err in errors("sun: put a barrel into your hand."):
        assert "character" not in err.message and (err.fix is None or "barrel" in err.fix)


def test_a_keyword_is_never_read_as_a_loot_kind_to_make_a_fix() -> None:
    """'take a random character' would parse only by reading 'character' as a loot kind: no such fix is offered."""
    for err in errors("dusk: take a character from today's loot."):
        assert err.fix is None and "random" not in err.message


def test_a_word_is_still_respelt_into_its_own_forms() -> None:
    """A misspelling, and a short form of a compound word, keep their did-you-mean."""
    (err,) = errors("moon: lose 2 dubloons.")
    assert err.message.startswith("unexpected word 'dubloons' (did you mean \"doubloon")
    (err,) = errors("sun: gain 2 doubloons unless this is the highest character on the island.")
    # "the highest ranked character" is a printed wording (issue 34.1), so the error stands at "character"
    assert err.message.startswith("unexpected word 'character' (did you mean") and "highest-ranked" in err.message


def test_glue_and_unknown_words_may_still_be_replaced() -> None:
    """Prepositions, articles and words the language does not know are no meaning of the line: they may change."""
    assert may_replace("on", "in") and may_replace("any", "each") and may_replace("earn", "gain")
    assert not may_replace("graveyard", "ship") and not may_replace("hand", "and")
    assert not may_replace("relic", "character", "KIND") and not may_replace("chest", "characters")
    assert may_replace("charcter", "character") and not may_replace("crate", "character")
    assert may_replace("doubloons", "doubloon") and may_replace("gains", "gain")


def test_every_meaning_word_is_a_word_of_the_grammar() -> None:
    """The list of meaning words follows the grammar: none is a word the language does not have."""
    words = {w for spelt in vocabulary(galecrest()).values() for w in spelt}
    assert words >= CONTENT_WORDS, sorted(CONTENT_WORDS - words)


@given(st.lists(st.sampled_from(sorted({w for spelt in vocabulary(galecrest(), strays=True).values()
                                         for w in spelt} - {"\n"})), min_size=3, max_size=14))
def test_no_fix_of_any_line_loses_a_meaning_word(words: list[str]) -> None:
    """Any line of the language's words: every fix keeps each word that carries meaning (in some form)."""
    text = "sun: " + " ".join(words) + "."
    try:
        lt.parse(text)
    except lt.CardError:
        _keeps_meaning(text)
