"""Known intents the card language has no words for (``language/intents.py``): each is refused with the
nearest wording there is, before any "did you mean", and never matches a text the language accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given

import libertalia as lt
from libertalia.errors import CardErrors, UnsayableError
from libertalia.language import intents
from libertalia.loading.rules import bundled_card_docs, bundled_editions, check_cards
from libertalia.testing.texts import card_texts, text_problem
from tests.helpers import galecrest

REPO = Path(__file__).resolve().parents[2]
BY_NAME = {i.name: i for i in intents.INTENTS}


def _check(tmp_path: Path, text: str, edition: str = "galecrest") -> list[lt.DataError]:
    """What ``cards check`` says of a one-card mod whose text is ``text``."""
    folder = tmp_path / "mod"
    folder.mkdir(exist_ok=True)
    (folder / "probe.yaml").write_text(f"name: Probe Card\nrank: 41.5\ntext: {json.dumps(text)}\n", encoding="utf-8")
    errors, _ = check_cards([folder], edition)
    return errors


def _all(err: lt.DataError) -> list[lt.DataError]:
    return list(err.errors) if isinstance(err, CardErrors) else [err]


def test_the_table_names_each_intent_once() -> None:
    """The table is one place: every entry has its own name and example."""
    assert len(BY_NAME) == len(intents.INTENTS)
    assert len({i.example for i in intents.INTENTS}) == len(intents.INTENTS)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_every_nearest_wording_is_accepted_by_cards_check(tmp_path: Path, name: str) -> None:
    """An entry's nearest wording is sayable: ``cards check`` accepts it as it stands."""
    assert _check(tmp_path, BY_NAME[name].instead) == []


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_every_example_is_refused_for_its_intent(tmp_path: Path, name: str) -> None:
    """An entry's example is refused by that entry, with what is missing and the nearest wording; when the language
    learns the meaning, this fails: then take the entry out of the table."""
    intent = BY_NAME[name]
    errors = [e for err in _check(tmp_path, intent.example) for e in _all(err)]
    assert errors, f"{intent.example!r} is accepted now: remove the entry {name!r} from language/intents.py"
    first = errors[0]
    assert isinstance(first, UnsayableError), str(first)
    assert first.message.endswith(intent.lacks)
    assert intent.instead in first.expected and "did you mean" not in first.message


# Wordings of each intent, in words of our own: the patterns describe a family, not one sentence.
FAMILIES = {
    "multiplying": ["sun: triple the doubloons of the player on your left.",
                    "moon: gain 3 times as many doubloons as you hold maps.",
                    "Night: Double the reputation you gain."],
    "amount from a count": ["sun: gain doubloons equal to the number of hooks you hold.",
                            "moon: lose as many doubloons as there are characters in your hand."],
    "a worth said of a kind of loot": ["End of voyage: A relic is worth 1 doubloon.",
                                       "anchor: sabers you have are worth 4 doubloons each."],
    "looking into the bag": ["Day: Peek at the top two tokens of the bag.",
                             "sun: search through the bag and take a map."],
    "when a card is discarded": ["Whenever a character in your ship is discarded, gain 1 doubloon.",
                                 "sun: discard the rightmost character on the island. If it was discarded, gain 2 "
                                 "doubloons."],
    "sums": ["anchor: gain 5 doubloons minus 1 doubloon for each character in your ship."],
    "counting doubloons or reputation": ["moon: gain 1 reputation per 5 doubloons you have."],
    "loot in a pile": ["sun: return every saber in your hand to the bag.",
                       "dusk: take a barrel from another player's ship."],
    "another player's hand": ["sun: discard a character from the hand of the player on your left.",
                              "moon: gain 1 doubloon for each character in every other player's hand.",
                              "sun: look at each opponent's hand."],
    "another player's graveyard": ["anchor: lose 1 doubloon for each character in all graveyards.",
                                   "sun: put a character from each opponent's graveyard into your ship.",
                                   "moon: gain 1 doubloon for each character in the graveyard of every opponent."],
    "a threshold on reputation": ["sun: if your reputation is above 5, gain 2 doubloons.",
                                  "anchor: gain 3 doubloons if you have 4 or more reputation.",
                                  "moon: gain 1 doubloon if your reputation is 3."],
    "which voyage": ["dusk: gain 1 doubloon if this is the first voyage.",
                     "sun: lose 2 doubloons unless it is voyage 3."],
    "a cap on an amount": ["moon: gain 1 doubloon for each map you hold, up to 5.",
                           "anchor: gain 2 doubloons for each relic you hold (maximum 10)."],
    "up to a number of things": ["sun: return up to 3 loot you hold to the bag."],
    "a rate per group": ["anchor: gain 5 doubloons for each trio of characters in your ship.",
                         "moon: gain 1 doubloon per pair of sabers you hold."],
    "a player of your choice": ["sun: an opponent you choose loses 2 reputation.",
                                "sun: choose any player. That player gains 2 doubloons."],
    "counting players": ["anchor: gain 2 doubloons for each opponent who holds a map."],
    # printed wordings, second set (issue 34)
    "paying a cost": ["Day: Pay 2 doubloons. If you do, take a chest from today's loot.",
                      "Night: You may pay 1 doubloon to gain 1 reputation.",
                      "Day: Discard a character from your hand and pay 3 doubloons, then gain 2 reputation."],
    "looking at what lies open": ["Day: Look at today's loot, then take a chest from today's loot.",
                                  "Night: Peek at your graveyard and gain 1 doubloon."],
    "every character on one side": ["Day: Discard every character to the right of this.",
                                    "Day: Each other character left of this one loses its loot.",
                                    "Dusk: Gain 1 reputation for each character directly to the left of it."],
    "rounding up": ["Day: Lose half your doubloons, rounded up.",
                    "Day: Each other player loses half their doubloons (round up)."],
    # printed wordings, third set (issue 34)
    "you and another player together": ["Day: Choose an opponent. You and that player each lose 1 doubloon.",
                                        "Night: You and the player on your left both gain 1 doubloon."],
    "both seat neighbours as one group": ["Day: Each opponent next to you loses 2 doubloons.",
                                          "Day: Both of your neighbours pay you 1 doubloon.",
                                          "Night: Every adjacent opponent gains 1 doubloon."],
    "a condition said of a neighbour": ["Day: If the card to the right of this one is owned by you, gain 2 doubloons.",
                                        "Day: Gain 1 doubloon unless the character next to it is in your ship."],
}


@pytest.mark.parametrize(("name", "text"), [(n, t) for n, texts in sorted(FAMILIES.items()) for t in texts])
def test_each_wording_of_an_intent_finds_its_entry(tmp_path: Path, name: str, text: str) -> None:
    """Several wordings of one meaning find the same entry (a rule over words, not a sentence): ``cards check``
    refuses them for it, with no did-you-mean."""
    errors = [e for err in _check(tmp_path, text) for e in _all(err)]
    assert errors and isinstance(errors[0], UnsayableError), errors
    assert errors[0].message.endswith(BY_NAME[name].lacks)
    assert not any("did you mean" in str(e) for e in errors)


def test_every_intent_of_the_table_has_a_family() -> None:
    """Each entry is exercised by wordings besides its own example."""
    assert set(FAMILIES) == set(BY_NAME)


def test_the_caret_stands_on_the_intents_words_in_the_file(tmp_path: Path) -> None:
    """The error points into the card file at the first word of the intent's wording."""
    line = "sun: gain 2 doubloons for each hook you hold, up to a maximum of 6."
    (err,) = _check(tmp_path, line)
    assert (err.line, err.column) == (3, len("text: ") + 2 + line.index("up to"))
    assert err.message.startswith("'up to a maximum of 6':")


def test_other_lines_keep_their_own_errors() -> None:
    """A line with an intent is refused for it; a misspelling on another line still gets its did-you-mean."""
    with pytest.raises(lt.CardError) as info:
        lt.parse("sun: gain 2 doubloonz.\nmoon: double your doubloons.")
    first, second = _all(info.value)
    assert (first.line, second.line) == (1, 2)
    assert 'did you mean "doubloon' in first.message and not isinstance(first, UnsayableError)
    assert isinstance(second, UnsayableError)


def test_a_bad_character_on_another_line_is_still_reported() -> None:
    """The intent's line is refused for it, and the lexer's error of another line stands beside it."""
    with pytest.raises(lt.CardError) as info:
        lt.parse("sun: gain 2 doubloons \u00a7.\nmoon: gain 1 doubloon for each hook you hold, plus 2.")
    first, second = _all(info.value)
    assert "unexpected character" in first.message and first.line == 1
    assert isinstance(second, UnsayableError) and second.line == 2


def test_a_card_name_and_a_comment_are_not_read_as_intent_words() -> None:
    """Patterns read the words of the text: a Capitalised card name inside a sentence and a comment are left out."""
    assert intents.find("sun: discard a Double Agent in your ship.") is None
    assert intents.find("sun: gain 2 doubloons.  # twice what the Cook gets") is None
    assert intents.find("Day: Double your doubloons.") is not None


def test_a_word_read_as_a_loot_kind_is_refused_for_the_intent(tmp_path: Path) -> None:
    """The checker's unknown-kind error gives way to the intent when the word stands in its wording."""
    (err,) = _check(tmp_path, "moon: gain 1 reputation for each doubloon you hold.")
    assert isinstance(err, UnsayableError)
    assert err.message.startswith("'for each doubloon':")
    (err,) = _check(tmp_path, "moon: gain 1 reputation for each doubloom you hold.")
    assert not isinstance(err, UnsayableError) and "unknown loot kind 'doubloom'" in err.message


def _shipped_lines() -> tuple[list[str], list[str]]:
    """The ability lines we ship (bundled cards, all accepted) and those we write elsewhere (the fan set, the
    docs), some of them refused on purpose."""
    bundled = [line for edition in bundled_editions() for doc in bundled_card_docs(edition)
               for line in str(doc.root.value["text"]).splitlines()]
    written: list[str] = []
    for path in sorted((REPO / "tests" / "fan_set").glob("*/*.yaml")):
        written += [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if re.match(r"\s+\w", ln)]
    for path in sorted((REPO / "docs").glob("*.md")):
        written += re.findall(r"`((?:sun|dusk|moon|anchor)[^`]*)`", path.read_text(encoding="utf-8"))
    return bundled, written


def test_no_accepted_line_we_ship_or_document_matches_an_intent() -> None:
    """An entry never describes a wording the language has: no bundled line finds one, nor any fan-set or docs
    line the Galecrest rules accept (as a character's or a loot tile's text)."""
    bundled, written = _shipped_lines()
    assert len(bundled) > 100 and len(written) > 200
    assert [ln for ln in bundled if intents.find(ln) is not None] == []
    rules = galecrest()
    matched = [ln for ln in written if intents.find(ln) is not None]
    assert [ln for ln in matched if any(text_problem(ln, rules, loot=loot) is None for loot in (False, True))] == []


@given(card_texts(galecrest()))
def test_no_text_the_grammar_spells_matches_an_intent(text: str) -> None:
    """Generated accepted texts, every form in every place, never match an entry of the table."""
    assert [ln for ln in text.splitlines() if intents.find(ln) is not None] == []


def test_the_docs_table_lists_every_entry() -> None:
    """docs/card-language.md ("Meanings the language has no words for") shows each entry, its example and its
    nearest line, as the table holds them."""
    doc = (REPO / "docs" / "card-language.md").read_text(encoding="utf-8")
    for i in intents.INTENTS:
        assert f"| {i.name} | `{i.example}` | `{i.instead}` |" in doc, i.name
