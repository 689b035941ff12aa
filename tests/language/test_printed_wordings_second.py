"""Printed-card wordings, second set (issue 34; docs/card-language.md, "Printed wordings, second set"): a card's
noun said as ``card`` or ``one``, an adverb before ``into``, ``. Otherwise,``, ``until you have N``, ``rounded
down``, ``do not take a loot token``, ``the loot token you took``, ``at random`` and ``any player's ship``.

Each is read as exactly the tree of its canonical form, which ``cards check`` shows; what would change the
meaning is refused with what to write.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

import pytest
import yaml

import libertalia as lt
from libertalia.errors import UnsayableError
from libertalia.language.parser import parse
from libertalia.language.render import render_ability


def _load(text: str) -> str:
    """``text`` loaded as a character's, beside Galecrest: its canonical text."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "characters"
        folder.mkdir()
        header = {"name": "Wording Tester", "rank": 78}
        (folder / "card.yaml").write_text(yaml.safe_dump(header) + "text: |\n  " + text + "\n", encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rules = lt.load_rules("galecrest", extra_cards=[tmp])
    card = next(c for c in rules.characters if c.name == "Wording Tester")
    return "\n".join(render_ability(a) for a in card.abilities)


def _refused(text: str) -> lt.CardError:
    with pytest.raises(lt.CardError) as info:
        _load(text)
    return info.value


PAIRS = [
    # "card" and "one" as a character's noun
    ("Night: Discard the lowest-ranked card in your ship.", "moon: discard the lowest-ranked character in your ship."),
    ("Day: Gain 1 doubloon for each card in your hand.", "sun: gain 1 doubloon for each character in your hand."),
    ("Day: If this is the leftmost one on the island, lose 2 doubloons.",
     "sun: if this is the leftmost character on the island, lose 2 doubloons."),
    ("Day: Discard all cards in your graveyard.", "sun: discard every character in your graveyard."),
    # an adverb before "into"
    ("Day: Put a character from your graveyard straight into your hand.",
     "sun: put a character from your graveyard into your hand."),
    ("Day: Put this card immediately into your hand.", "sun: put this into your hand."),
    # ". Otherwise," after a sentence with a condition
    ("Day: If you hold a chest, gain 4 doubloons. Otherwise, lose 1 doubloon.",
     "sun: if you hold a chest, gain 4 doubloons; otherwise lose 1 doubloon."),
    ("Night: Lose 2 doubloons if there is no character in your hand. Otherwise, gain 1 doubloon.",
     "moon: lose 2 doubloons if there is no character in your hand; otherwise gain 1 doubloon."),
    # a purse topped up, a half rounded down
    ("Day: Gain doubloons until you have 9.", "sun: gain doubloons up to 9."),
    ("Night: Lose half your doubloons, rounded down.", "moon: lose half your doubloons."),
    # the standing rule of taking no loot
    ("Dusk: Don't take any loot.", "dusk: take no loot."),
    ("Dusk: Do not take a loot.", "dusk: take no loot."),
    # the token just taken
    ("Dusk: If the loot token you just took is a barrel, gain 3 doubloons.",
     "dusk: if you just took a barrel, gain 3 doubloons."),
    # one token at random
    ("Day: Take a loot token at random from the bag.", "sun: take a random loot from the bag."),
    ("Day: Take 1 relic at random from the bag.", "sun: take a random relic from the bag."),
    # "this one" for this, "your reputation token" for your reputation
    ("Day: Discard every character in your ship ranked below this one.",
     "sun: discard every character in your ship ranked below this."),
    ("Day: Move your reputation token to the rightmost space.", "sun: move your reputation to the rightmost space."),
    # any player's ship or graveyard, yours included
    ("Day: Discard the highest-ranked character in any player's ship.",
     "sun: discard the highest-ranked character in any ship."),
    ("Day: Gain 1 doubloon for each character in any player's graveyard.",
     "sun: gain 1 doubloon for each character in any graveyard."),
]


@pytest.mark.parametrize(("printed", "canonical"), PAIRS)
def test_a_printed_wording_is_its_canonical_tree(printed: str, canonical: str) -> None:
    """Printed wordings, second set: each is read as exactly the canonical form's tree."""
    assert _load(printed) == canonical
    assert parse(printed) == parse(canonical)


@pytest.mark.parametrize(("text", "words"), [
    ("Day: Lose doubloons until you have 4.", "only a fixed amount or half your doubloons can be lost"),
    ("Day: Take 2 loot tokens at random from the bag.", "taken one at a time"),
    ("Day: Take 1 or 2 maps at random from the bag.", "taken one at a time"),
])
def test_a_wording_that_would_change_the_meaning_is_refused(text: str, words: str) -> None:
    """Printed wordings, second set: "lose … until you have N" is no loss of a fixed amount, and "2 … at random"
    is refused naming both the repeated take (its ability runs) and the draw (it does not)."""
    error = _refused(text)
    assert words in str(error)
    assert "did you mean" not in str(error)


def test_two_random_tokens_name_both_ways() -> None:
    """Printed wordings, second set: "take 2 loot tokens at random" names "take a random loot" and "draw"."""
    message = str(_refused("Day: Take 2 loot tokens at random from the bag."))
    assert "take a random loot from the bag" in message and "draw N random loot from the bag" in message


@pytest.mark.parametrize(("text", "intent"), [
    ("Day: Look at tomorrow's loot, then take a map from today's loot.", "looking at what lies open"),
    ("Day: Gain 1 doubloon for each character to the right of this card.", "every character on one side"),
    ("Day: Lose half your doubloons, rounding up.", "rounding up"),
    ("Night: You may pay 2 doubloons. If you do, gain 1 reputation.", "paying a cost"),
])
def test_unsayable_printed_wordings_get_their_entry(text: str, intent: str) -> None:
    """Printed wordings, second set: looking, every character on one side, rounding up and a cost are refused by their
    known-intents entry, with the nearest line, before any "did you mean"."""
    from libertalia.language.intents import INTENTS

    error = _refused(text)
    errors = getattr(error, "errors", None) or [error]
    first = errors[0]
    assert isinstance(first, UnsayableError), first
    assert str(first.message).endswith(next(i for i in INTENTS if i.name == intent).lacks)


def test_this_card_and_for_each_one_keep_their_own_words() -> None:
    """Printed wordings, second set: "card" and "one" are a noun only where no keyword stands."""
    assert _load("Day: Discard this card.") == "sun: discard this."
    assert _load("Day: Return every relic you hold to the bag, then gain 2 doubloons for each one returned.") == \
        "sun: return every relic you hold to the bag, then gain 2 doubloons for each one returned."
    assert _load("Day: Draw one loot token.") == "sun: draw 1 random loot from the bag."
