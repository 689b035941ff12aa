"""The slips ``cards mutate`` makes: each operator edits one place, and only the text it names."""

from __future__ import annotations

import pytest

from libertalia.testing.mutants import OPERATORS, Slip, slips


def _made(text: str, operator: str) -> list[str]:
    return [s.apply(text) for s in slips(text, (operator,))]


def test_numbers_go_one_up_and_one_down_but_never_below_zero() -> None:
    """A number slips to its neighbours; 0 has no lower one."""
    assert _made("sun: gain 3 doubloons.", "number") == ["sun: gain 4 doubloons.", "sun: gain 2 doubloons."]
    assert _made("sun: gain 0 doubloons.", "number") == ["sun: gain 1 doubloons."]


def test_a_number_in_a_card_name_is_not_a_slip() -> None:
    """``Cook#1`` names a taken-over card: its digit is not part of the effect."""
    assert _made("sun: discard Cook#1.", "number") == []


def test_comparisons_turn_round_and_keep_a_capital() -> None:
    """more and fewer, most and fewest, highest and lowest trade places; a sentence's capital stays."""
    assert _made("sun: gain 1 doubloon if you have more doubloons than every other player.", "comparison") == [
        "sun: gain 1 doubloon if you have fewer doubloons than every other player."]
    assert _made("sun: Most.", "comparison") == ["sun: Fewest."]
    assert _made("sun: discard the lowest-ranked character in your ship.", "comparison") == [
        "sun: discard the highest-ranked character in your ship."]


def test_owner_quantifier_and_side_swap_their_words() -> None:
    """your and an opponent's, every and a, left and right are each other's slips."""
    assert _made("sun: discard a character in your ship.", "owner") == [
        "sun: discard a character in an opponent's ship."]
    assert _made("sun: discard a character in an opponent's ship.", "owner") == [
        "sun: discard a character in your ship."]
    assert _made("sun: discard every character in your ship.", "quantifier") == [
        "sun: discard a character in your ship."]
    assert _made("sun: gain 1 doubloon if the player on your left has a map.", "side") == [
        "sun: gain 1 doubloon if the player on your right has a map."]


def test_may_is_dropped_or_added_at_each_abilitys_start() -> None:
    """A "you may" goes; an ability without one gets one before its first step."""
    assert _made("sun: you may discard this.", "may") == ["sun: discard this."]
    assert _made("sun: gain 1 doubloon.\nanchor, once: lose 1 doubloon.", "may") == [
        "sun: you may gain 1 doubloon.\nanchor, once: lose 1 doubloon.",
        "sun: gain 1 doubloon.\nanchor, once: you may lose 1 doubloon."]


def test_each_trigger_takes_every_other_timing() -> None:
    """sun slips to dusk, moon and anchor; the printed words for a timing count as it."""
    assert _made("sun: gain 1 doubloon.", "timing") == ["dusk: gain 1 doubloon.", "moon: gain 1 doubloon.",
                                                          "anchor: gain 1 doubloon."]
    assert _made("at night: gain 1 doubloon.", "timing") == ["sun: gain 1 doubloon.", "dusk: gain 1 doubloon.",
                                                               "anchor: gain 1 doubloon."]
    assert len(_made("the end of the voyage, once: gain 1 doubloon.", "timing")) == 3


def test_slips_come_in_operator_order_and_unknown_operators_are_refused() -> None:
    """Every operator is tried by default; a name that is none says which there are."""
    found = slips("sun: you may gain 3 doubloons for every map in your ship.")
    assert [s.operator for s in found] == sorted((s.operator for s in found), key=OPERATORS.index)
    assert {s.operator for s in found} == {"number", "owner", "quantifier", "may", "timing"}
    with pytest.raises(ValueError, match="expected one of number, comparison"):
        slips("sun: gain 1 doubloon.", ("typo",))


def test_a_slip_describes_itself() -> None:
    """A reader sees what changed: a word for a word, or what was added or dropped."""
    assert Slip("number", 10, 11, "3", "4").describe() == "'3' → '4'"
    assert Slip("may", 5, 5, "", "you may ").describe() == "added 'you may '"
    assert Slip("may", 5, 13, "you may ", "").describe() == "dropped 'you may '"
