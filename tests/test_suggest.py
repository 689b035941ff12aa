"""Did-you-mean suggestions: close spellings, case and spacing, nothing for far-off words."""

from __future__ import annotations

import pytest

from libertalia.suggest import closest, did_you_mean, similarity

TIMINGS = ("sun", "dusk", "moon", "anchor")
CARD_KEYS = ("name", "rank", "text", "note")
KINDS = ("chest", "hook", "map", "saber", "amulet", "barrel", "relic")


@pytest.mark.parametrize(("word", "choices", "best"), [
    ("Wind Nimph", ("Wind Nymph", "Cook", "Cabin Boy"), "Wind Nymph"),
    ("charcter", ("character", "Cook"), "character"),
    ("sunrise", TIMINGS, "sun"),
    ("nmae", CARD_KEYS, "name"),
    ("txt", CARD_KEYS, "text"),
    ("Classic", ("classic", "galecrest"), "classic"),
    ("stromy", ("calm", "stormy", "automa"), "stormy"),
    ("sabre", KINDS, "saber"),
])
def test_did_you_mean_finds_the_intended_word(word: str, choices: tuple[str, ...], best: str) -> None:
    """A misspelling, a case slip or a longer form gets the intended word as a quoted suffix."""
    assert did_you_mean(word, choices) == f' (did you mean "{best}"?)'


@pytest.mark.parametrize("word", ["windnymph", "WIND NYMPH", "wind-nymph", "Wind_Nymph"])
def test_case_and_spacing_alone_rank_first(word: str) -> None:
    """A word that differs only in case, spaces, hyphens or underscores finds its card before near names."""
    assert closest(word, ["Wind Nymph", "Wind Nymphs", "Windy"])[0] == "Wind Nymph"


def test_nothing_close_gives_no_suffix() -> None:
    """A word far from every choice, or an empty word, gets an empty suffix rather than a wild guess."""
    assert did_you_mean("gem", KINDS) == ""
    assert did_you_mean("Kraken", ("Cook", "Captain", "Cabin Boy")) == ""
    assert did_you_mean("", KINDS) == ""
    assert did_you_mean("map", ()) == ""


def test_the_word_itself_is_never_suggested() -> None:
    """A choice identical to the word is skipped; only another spelling is offered."""
    assert closest("map", ["map"]) == []
    assert closest("Map", ["map"]) == ["map"]


def test_closest_is_best_first_limited_and_deterministic() -> None:
    """``closest`` returns at most ``n`` matches, best first, ties in alphabetical order, whatever the input order."""
    choices = ["hooks", "hook", "book", "look"]
    assert closest("hok", choices, n=2) == closest("hok", list(reversed(choices)), n=2)
    assert closest("hok", choices, n=2)[0] == "hook"
    assert len(closest("hok", choices, n=2)) == 2
    assert closest("hok", choices, n=0) == []
    assert closest("ook", ["look", "book"]) == ["book", "look"]


def test_similarity_ranks_a_misspelling_above_a_different_word() -> None:
    """``similarity`` is 1 for a case or spacing slip, high for a misspelling and low for another word."""
    assert similarity("Wind nymph", "windnymph") == 1.0
    assert similarity("charcter", "character") > 0.8
    assert similarity("earn", "gain") > similarity("earn", "lose")
    assert similarity("each", "every") < 0.6 <= similarity("sunrise", "sun")
