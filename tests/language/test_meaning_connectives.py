"""Connectives and questions mean what their English says (issue 32, docs/card-language.md "Meaning rules").

Each rule is pinned by texts that English says mean the same (or differ only by the order of their
parts), run in one focused position where a part names nobody, a price cannot be paid or an answer
is "no".  The fan cards are written for these tests; none is a bundled card's text.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

import libertalia as lt

from .test_soundness import character, mod, refusal


def _sun(tmp_path: Path, text: str, answers: tuple[str, ...] = (), mine: dict[str, Any] | None = None,
         theirs: dict[str, Any] | None = None) -> tuple[lt.Game, list[str]]:
    """Seat 0's fan card (rank 41.5, so it acts last by day) runs ``text``; the answers go to its questions.

    Returns the game once the answers are spent, and the kinds of the questions that were asked.
    Seat 0 starts on the leftmost reputation space.  Seat 1 plays the Explorer and seat 2 the
    Treasurer: neither acts by day.
    """
    rules = lt.load_rules("galecrest", extra_cards=[mod(tmp_path, fan=character("Fan", 41.5, text))])
    seats = [{"hand": ["Fan", "Cook", "Governor"], "doubloons": 5, **(mine or {})},
             {"hand": ["Explorer", "Cook"], "doubloons": 5, **(theirs or {})},
             {"hand": ["Treasurer", "Cook"], "doubloons": 5}]
    setup = {"players": seats, "loot": [["amulet", "amulet", "relic"]], "reputation": [0, 1, 2]}
    game = lt.new_game(rules, 3, seed=0, setup=setup)
    for key in ("Fan", "Explorer", "Treasurer"):
        game = game.choose(key)
    asked = []
    for answer in answers:
        assert game.decision is not None
        asked.append(game.decision.kind)
        game = game.choose(answer)
    return game, asked


def _purse(tmp_path: Path, text: str, **kw: Any) -> tuple[int, int]:
    """Seat 0's doubloons and reputation once its fan card has run by day (no question answered)."""
    game, _ = _sun(tmp_path, text, **kw)
    return game.players[0].doubloons, game.players[0].reputation


def _next_kind(game: lt.Game) -> str:
    assert game.decision is not None
    return game.decision.kind


# ------------------------------------------------------------------ 1. and / or are order-free
UNKNOWN = "it was ranked above 20"  # "it" binds the discard below, which finds no Brawler: unknown
FALSE = "you hold a map"  # seat 0 holds none
TRUE = "you have 1 or more doubloons"
DISCARD = "sun: discard a Brawler in an opponent's ship, then "


@pytest.mark.parametrize("order", list(itertools.permutations((UNKNOWN, FALSE, TRUE))))
def test_and_is_order_free(tmp_path: Path, order: tuple[str, ...]) -> None:
    """Meaning rule "and": a false part makes the whole false, wherever the part about nobody stands."""
    text = DISCARD + f"if {' and '.join(order)}, gain 3 doubloons; otherwise gain 1 doubloon."
    assert _purse(tmp_path, text)[0] == 6  # unknown and false and true: false, so the "otherwise"


@pytest.mark.parametrize("order", list(itertools.permutations((UNKNOWN, FALSE, TRUE))))
def test_or_is_order_free(tmp_path: Path, order: tuple[str, ...]) -> None:
    """Meaning rule "or": a true part makes the whole true, wherever the part about nobody stands."""
    text = DISCARD + f"if {' or '.join(order)}, gain 3 doubloons; otherwise gain 1 doubloon."
    assert _purse(tmp_path, text)[0] == 8


@pytest.mark.parametrize("order", [(UNKNOWN, TRUE), (TRUE, UNKNOWN)])
def test_unknown_and_true_skips_the_step_and_its_otherwise(tmp_path: Path, order: tuple[str, str]) -> None:
    """Meaning rule: an unknown condition runs neither the step nor its "otherwise", in either order."""
    text = DISCARD + f"if {' and '.join(order)}, gain 3 doubloons; otherwise gain 1 doubloon."
    assert _purse(tmp_path, text)[0] == 5


@pytest.mark.parametrize("order", [(UNKNOWN, FALSE), (FALSE, UNKNOWN)])
def test_unknown_or_false_is_unknown(tmp_path: Path, order: tuple[str, str]) -> None:
    """Meaning rule "or": unknown or false is unknown, so neither arm runs."""
    text = DISCARD + f"if {' or '.join(order)}, gain 3 doubloons; otherwise gain 1 doubloon."
    assert _purse(tmp_path, text)[0] == 5


def test_grouping_does_not_change_the_outcome(tmp_path: Path) -> None:
    """Meaning rule: "A and B or C" groups as (A and B) or C, and each order of the group's parts agrees."""
    first = DISCARD + f"gain 3 doubloons if {UNKNOWN} and {FALSE} or {TRUE}."
    second = DISCARD + f"gain 3 doubloons if {TRUE} or {FALSE} and {UNKNOWN}."
    assert _purse(tmp_path, first)[0] == _purse(tmp_path, second)[0] == 8


@pytest.mark.parametrize(("held", "brawler", "gained"), [
    ((), False, 0),  # nobody discarded: unknown either way, so nothing
    (("map",), False, 0),
    ((), True, 0),  # a Brawler (rank 22) discarded: "ranked above 20" holds
])
def test_unless_is_if_not(tmp_path: Path, held: tuple[str, ...], brawler: bool, gained: int) -> None:
    """Meaning rule "unless": "unless X" runs exactly when "if not X" would (De Morgan, unknown kept unknown)."""
    theirs = {"ship": ["Brawler"]} if brawler else {}
    unless = DISCARD + f"gain 3 doubloons unless {UNKNOWN} or {FALSE}."
    negated = DISCARD + "gain 3 doubloons if it was ranked below 21 and you hold no map."
    mine = {"loot": list(held)}
    results = {_purse(tmp_path, t, mine=mine, theirs=theirs)[0] for t in (unless, negated)}
    assert results == {5 + gained}


def test_unless_runs_when_its_condition_is_known_false(tmp_path: Path) -> None:
    """Meaning rule "unless": a condition that is false whatever "it" is (a false "and" part) lets the step run."""
    for order in ((UNKNOWN, FALSE), (FALSE, UNKNOWN)):
        assert _purse(tmp_path, DISCARD + f"gain 3 doubloons unless {' and '.join(order)}.")[0] == 8


# ------------------------------------------------------------------ 2. an option is offered if it can change something
@pytest.mark.parametrize("text", [
    "sun: you may gain 3 doubloons and take a chest from the bag.",
    "sun: you may take a chest from the bag and gain 3 doubloons.",
])
def test_may_does_what_it_can(tmp_path: Path, text: str) -> None:
    """Meaning rule "options": "you may" is asked when any action could change something, and does what it can."""
    every_chest = {"loot": ["chest"] * 4}  # the bag holds no chest
    game, asked = _sun(tmp_path, text, ("yes",), theirs=every_chest)
    assert asked == ["may"]
    assert game.players[0].doubloons == 8 and "chest" not in game.players[0].loot


def test_choose_one_offers_an_arm_that_can_change_something(tmp_path: Path) -> None:
    """Meaning rule "options": an arm of "choose one" is offered when any of its actions could change something."""
    text = "sun: choose one: take a chest from the bag and gain 2 reputation; or gain 1 doubloon."
    game, asked = _sun(tmp_path, text, ("1",), theirs={"loot": ["chest"] * 4})
    assert asked == ["choose_option"]
    assert game.players[0].reputation == 2 and game.players[0].doubloons == 5


@pytest.mark.parametrize("text", [
    "sun: you may return a map you hold to the bag and gain 3 doubloons.",
    "sun: you may gain 3 doubloons and return a map you hold to the bag.",
    "sun: you may give a map you hold to the player on your left and gain 3 doubloons.",
])
def test_a_price_you_cannot_pay_is_not_offered(tmp_path: Path, text: str) -> None:
    """Meaning rule "prices": an option that gives up what you do not have is not offered, whatever its order."""
    game, _ = _sun(tmp_path, text)
    assert _next_kind(game) != "may" and game.players[0].doubloons == 5


@pytest.mark.parametrize("text", [
    "sun: you may return a map you hold to the bag and gain 3 doubloons.",
    "sun: you may gain 3 doubloons and return a map you hold to the bag.",
])
def test_a_price_you_can_pay_is_offered(tmp_path: Path, text: str) -> None:
    """Meaning rule "prices": with the price in hand, the option is asked, and "yes" pays it and gains."""
    game, asked = _sun(tmp_path, text, ("yes",), mine={"loot": ["map"]})
    assert asked == ["may"]
    assert game.players[0].doubloons == 8 and game.players[0].loot == ()


def test_a_price_with_nothing_to_buy_is_not_offered(tmp_path: Path) -> None:
    """Meaning rule "prices": paying must buy something: with no chest left, "lose 2 and take a chest" is not asked."""
    text = "sun: you may lose 2 doubloons and take a chest from the bag."
    game, _ = _sun(tmp_path, text, theirs={"loot": ["chest"] * 4})
    assert _next_kind(game) != "may" and game.players[0].doubloons == 5


def test_a_loss_from_an_empty_purse_is_no_price(tmp_path: Path) -> None:
    """Meaning rule "prices": "lose" from an empty purse cannot be paid, so the option is not asked."""
    text = "sun: you may lose 2 doubloons and gain 1 reputation."
    game, _ = _sun(tmp_path, text, mine={"doubloons": 0})
    assert _next_kind(game) != "may" and game.players[0].reputation == 0


def test_choose_one_leaves_out_an_arm_whose_price_cannot_be_paid(tmp_path: Path) -> None:
    """Meaning rule "prices": an unpayable arm of "choose one" is left out, and with one arm left nothing is asked."""
    text = "sun: choose one: discard a character in your ship and gain 4 doubloons; or gain 1 doubloon."
    game, _ = _sun(tmp_path, text)
    assert _next_kind(game) != "choose_option" and game.players[0].doubloons == 6


# ------------------------------------------------------------------ 3. "you did" after "you may …; otherwise …"
@pytest.mark.parametrize(("answer", "doubloons", "reputation"), [("yes", 5 + 2 + 3, 0), ("no", 5, 1)])
def test_you_did_after_may_reads_the_question(tmp_path: Path, answer: str, doubloons: int,
                                              reputation: int) -> None:
    """Meaning rule "you did": after "you may A; otherwise B", it is "yes" and A did something, never B."""
    text = "sun: you may gain 2 doubloons; otherwise gain 1 reputation, then gain 3 doubloons if you did."
    game, asked = _sun(tmp_path, text, (answer,))
    assert asked == ["may"]
    assert (game.players[0].doubloons, game.players[0].reputation) == (doubloons, reputation)


def test_if_you_do_after_may_with_otherwise(tmp_path: Path) -> None:
    """Meaning rule "you did": the printed "If you do, …" after a "no" grants nothing, the "otherwise" still runs."""
    text = "sun: you may return a relic you hold to the bag; otherwise lose 1 doubloon. If you do, gain 4 doubloons."
    game, _ = _sun(tmp_path, text, ("no",), mine={"loot": ["relic"]})
    assert game.players[0].doubloons == 4 and game.players[0].loot == ("relic",)
    game, _ = _sun(tmp_path, text, ("yes",), mine={"loot": ["relic"]})
    assert game.players[0].doubloons == 9 and game.players[0].loot == ()


def test_you_did_when_may_is_not_asked(tmp_path: Path) -> None:
    """Meaning rule "you did": a question never asked (nothing to return) was no "yes", though "otherwise" ran."""
    text = ("sun: you may return a relic you hold to the bag; otherwise gain 1 doubloon, then gain 3 doubloons if you "
            "did.")
    game, _ = _sun(tmp_path, text)
    assert game.players[0].doubloons == 6


def test_you_did_after_a_may_of_two_actions_is_refused(tmp_path: Path) -> None:
    """Meaning rule "you did": a "yes" arm of two actions could mean either; the refusal says to split it."""
    err = refusal(tmp_path, "sun: you may gain 2 doubloons and gain 1 reputation; otherwise lose 1 doubloon, "
                            "then gain 3 doubloons if you did.")
    assert '"you did" could mean any of' in err.message and "then" in err.expected


# ------------------------------------------------------------------ 4. "instead" replaces one sentence
def test_instead_replaces_the_sentence_before_it(tmp_path: Path) -> None:
    """Meaning rule "instead": "A. If C, B instead." is "B if C; otherwise A", A being the whole sentence."""
    replaced = "sun: gain 1 doubloon and gain 1 reputation. If you hold a map, gain 4 doubloons instead."
    canonical = "sun: gain 4 doubloons if you hold a map; otherwise gain 1 doubloon and gain 1 reputation."
    for mine in ({}, {"loot": ["map"]}):
        assert _purse(tmp_path, replaced, mine=mine) == _purse(tmp_path, canonical, mine=mine)
    assert _purse(tmp_path, replaced, mine={"loot": ["map"]}) == (9, 0)


def test_instead_after_two_sentences_replaces_the_last(tmp_path: Path) -> None:
    """Meaning rule "instead": the sentence before it is the one replaced; an earlier sentence still runs."""
    text = "sun: gain 1 reputation. Gain 1 doubloon. If you hold a map, gain 4 doubloons instead."
    assert _purse(tmp_path, text, mine={"loot": ["map"]}) == (9, 1)
    assert _purse(tmp_path, text) == (6, 1)


@pytest.mark.parametrize("text", [
    "sun: gain 1 doubloon, then gain 1 reputation. If you hold a map, gain 4 doubloons instead.",
    "sun: gain 1 doubloon, then gain 1 reputation; gain 4 doubloons instead if you hold a map.",
    "sun: gain 1 reputation. Gain 1 doubloon, then lose 1 reputation. Gain 4 doubloons instead unless you hold a map.",
])
def test_instead_after_a_sentence_of_two_steps_is_refused(tmp_path: Path, text: str) -> None:
    """Meaning rule "instead": a sentence of two steps has no one "otherwise" to stand in; refused with the wording."""
    err = refusal(tmp_path, text)
    assert '"instead" replaces the sentence it follows' in err.message
    assert '"A and B. If C, D instead."' in err.expected
