"""The productions the grammar keeps only so that the checker can refuse them, each with its refusal test.

A few wordings read two ways in English ("as many … as", "the character next to this one") or ask for what
no player can do (picking a card in a hidden hand).  The grammar reads them anyway, so that the checker can
refuse them where they stand, with the reason and the wording to use instead.  Refusing them is all they do:
coverage credits such a production (``coverage.REFUSED_SAID``) when the run saw every text spelled with it
refused, for its own sake (a sibling in its place is accepted), and its entry here holds: ``text`` is refused
with a reason and a wording to use (the error's ``expected``), and ``instead``, the same text in that wording,
is accepted.  Which productions are there to be refused is a decision of the language, not something a walk
can find out (a form refused at one timing may be right at another): it is made here, one entry each.
"""

from __future__ import annotations

import attrs

from ...engine.specs import Rules
from ..texts import text_problem

__all__ = ["REFUSED_ON_PURPOSE", "Refusal", "refusal_shown"]


@attrs.frozen
class Refusal:
    """A production there to be refused: a text with it (refused), and the text the checker says to write."""

    production: str  # its label (``coverage.Production.label``)
    text: str
    instead: str
    rule: str  # the ruling or language rule that refuses it


_HAND = "sun: take {a} character from {whose}."
REFUSED_ON_PURPOSE: tuple[Refusal, ...] = (
    Refusal("compared -> as many", "anchor: if you hold as many relics as each opponent, lose 2 doubloons.",
            "anchor: if you hold at least as many relics as each opponent, lose 2 doubloons.", "E30"),
    *(Refusal(f"action -> take <_a> NOUN from {said}  [take_from_hand]", _HAND.format(a="a", whose=whose),
              _HAND.format(a="a random", whose=whose), "E41")
      for said, whose in (("another player's hand", "another player's hand"),
                          ("an opponent's hand", "an opponent's hand"),
                          ("the hand of the player on your SIDE", "the hand of the player on your right"),
                          ("the hand of the player to your SIDE", "the hand of the player to your left"))),
    Refusal("char_sel -> the character <_adjacent_to> <_this_one>  [beside_either]",
            "dusk: discard the character beside this card.", "dusk: discard the character left of this.",
            "card-language: the character next to this one reads two ways"),
    Refusal("char_sel -> the character <_adjacent_to> <_this_one> PREP the island  [beside_either]",
            "sun: discard the character next to this character on the island.",
            "sun: discard the character right of this.",
            "card-language: the character next to this one reads two ways"),
    Refusal("cond -> you took <_a> <kinds> <_this_day>  [took]", "dusk: gain 2 doubloons if you took a chest today.",
            "dusk: gain 2 doubloons if you just took a chest.", "card-language: you took … this day reads two ways"),
    # The words of that day: the rule's every alternative, spelled only there, so refused wherever it stands.
    *(Refusal(f"_this_day -> {day}", f"dusk: gain 2 doubloons if you took a chest {day}.",
              "dusk: gain 2 doubloons if you just took a chest.", "card-language: you took … this day reads two ways")
      for day in ("today", "this day")),
    Refusal("player -> the player with the MOST <most>  [players_with_most]",
            "anchor: the player with the most doubloons loses 3 doubloons.",
            "anchor: each player with the most doubloons loses 3 doubloons.", "E31"),
)


def refusal_shown(rules: Rules, label: str, names: tuple[str, ...] = ()) -> str:
    """The refusal test of a production there to be refused, run under ``rules``: what the checker says of its
    text and what it says to write instead ("": the production is not one of them, or its test fails here)."""
    entry = next((r for r in REFUSED_ON_PURPOSE if r.production == label), None)
    if entry is None:
        return ""
    problem = text_problem(entry.text, rules, names=names)
    if problem is None or not problem.expected or text_problem(entry.instead, rules, names=names) is not None:
        return ""
    return (f"there to be refused ({entry.rule}): {entry.text!r} is refused ({str(problem).splitlines()[0]}; "
            f"expected {problem.expected}), and {entry.instead!r} is accepted")
