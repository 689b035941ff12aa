"""Slips read off the card grammar (issue 35, item 1): a slot's other wordings, a dropped part, another word."""

from __future__ import annotations

from libertalia.language.parser import grammar
from libertalia.testing.grammar_slips import grammar_slips
from libertalia.testing.mutants import OPERATORS, slips

TEXT = ("moon: gain 1 doubloon for each other character in an adjacent player's ship.\n"
        "dusk, first: take a relic or goods from today's loot if this is in your ship.\n"
        "anchor: discard another character in your hand.\n")


def _edits(operator: str, kinds: tuple[str, ...] = ()) -> set[str]:
    return {s.apply(TEXT) for s in grammar_slips(TEXT, (operator,), kinds=kinds)}


def _has(edits: set[str], line: str) -> bool:
    return any(line in e.splitlines() for e in edits)


def test_a_slot_takes_every_other_wording_its_rule_has() -> None:
    """Item 1's slot operator: a target set made wider or narrower is another alternative of the place slot,
    and "another" becomes "a" by the article slot, read off the grammar's own alternatives."""
    edits = _edits("slot")
    assert _has(edits, "moon: gain 1 doubloon for each other character in another player's ship.")
    assert _has(edits, "moon: gain 1 doubloon for each other character in every player's ship.")
    assert _has(edits, "anchor: discard a character in your hand.")
    place = [r for r in grammar().rules if r.origin.name == "place" and r.alias is None]
    offered = {s.after for s in grammar_slips(TEXT, ("slot",)) if s.before == "an adjacent player's ship"}
    assert len(offered) >= len({tuple(x.name for x in r.expansion) for r in place}) - 6  # open words filled


def test_a_part_the_grammar_lets_go_is_dropped_with_its_keyword() -> None:
    """Item 1's drop operator: "other", a clause with its "if", one kind of a list go; a needed word never."""
    edits = _edits("drop")
    assert _has(edits, "moon: gain 1 doubloon for each character in an adjacent player's ship.")
    assert _has(edits, "dusk, first: take a relic or goods from today's loot.")
    assert _has(edits, "dusk, first: take a goods from today's loot if this is in your ship.")
    assert _has(edits, "dusk, first: take a relic from today's loot if this is in your ship.")
    assert _has(edits, "dusk: take a relic or goods from today's loot if this is in your ship.")
    assert not _has(edits, "moon: gain 1 for each other character in an adjacent player's ship.")


def test_a_word_of_a_terminal_takes_the_terminals_other_words() -> None:
    """Item 1's word operator: "first" becomes "last" (the MODIFIER terminal's words), "in" becomes "on"."""
    edits = _edits("word")
    assert _has(edits, "dusk, last: take a relic or goods from today's loot if this is in your ship.")
    assert _has(edits, "dusk, first: take a relic or goods from today's loot if this is on your ship.")


def test_a_kind_list_is_widened_or_changed_from_the_rules_kinds() -> None:
    """Item 1's kind operator: a kind list gains one more kind, or one kind becomes another, of the rules."""
    edits = _edits("kind", kinds=("relic", "goods", "barrel"))
    assert _has(edits, "dusk, first: take a relic or goods or barrel from today's loot if this is in your ship.")
    assert _has(edits, "dusk, first: take a barrel or goods from today's loot if this is in your ship.")
    assert _edits("kind") == set()


def test_the_grammar_operators_are_among_the_defaults_and_a_refused_text_has_none() -> None:
    """cards mutate runs them by default; a text the grammar refuses gives no grammar slip."""
    assert {"slot", "drop", "word", "kind"} <= set(OPERATORS)
    assert {s.operator for s in slips(TEXT)} >= {"slot", "drop", "word"}
    assert grammar_slips("sun: frobnicate the island.") == []
