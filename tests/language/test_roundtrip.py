"""The card language: every shipped card parses, renders and parses back to the same tree."""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from libertalia.language.parser import grammar_rule_count
from tests.helpers import galecrest

_RULES = galecrest()
_CLASSIC = lt.load_rules("classic")
_CHARACTERS = [c for rules in (_RULES, _CLASSIC) for c in rules.characters if not c.neutral]
_ALL_LOOT = [
    spec
    for side in ("calm", "stormy", "automa")
    for spec in lt.load_rules("galecrest", loot=side).loot
    if spec.side == side
] + list(_CLASSIC.loot)


@pytest.mark.parametrize("card", _CHARACTERS, ids=lambda c: f"{c.path.split('/')[-3]}-{c.name}")
def test_character_round_trip(card: lt.CharacterSpec) -> None:
    """parse(render(ast)) == ast for every character."""
    assert lt.parse(lt.render(card.abilities)) == card.abilities


@pytest.mark.parametrize("tile", _ALL_LOOT, ids=lambda t: f"{t.kind}-{t.side}")
def test_loot_round_trip(tile: lt.LootSpec) -> None:
    """parse(render(ast)) == ast for every loot tile."""
    assert lt.parse(lt.render(tile.abilities)) == tile.abilities


def test_every_character_has_an_ability() -> None:
    """No shipped character is blank: each says something the engine runs."""
    assert all(c.abilities for c in _RULES.characters if not c.neutral)
    assert len([c for c in _RULES.characters if not c.neutral]) == 40


def test_positions_point_into_the_file() -> None:
    """AST nodes keep the YAML line and column of the text they came from."""
    cabin = _RULES.card("Cabin Boy")
    lines = Path(cabin.path).read_text(encoding="utf-8").split("\n")
    dusk = cabin.abilities[1]
    assert lines[dusk.line - 1][dusk.column - 1:].startswith("dusk: take no loot.")


def test_synonym_forms_mean_the_same() -> None:
    """Prefix and postfix conditions differ only in wording, not in their actions."""
    post = lt.parse("sun: gain 2 doubloons if you did.")[0].steps[0]
    pre = lt.parse("sun: if you did, gain 2 doubloons.")[0].steps[0]
    assert post.actions == pre.actions and post.condition == pre.condition


def test_grammar_is_small() -> None:
    """The language stays a small general vocabulary (a size alarm, not a limit).

    The count is of lark's expanded productions: each optional word of a plain-English
    variant doubles its rule there, and the words about other players (E30-E32), the printed wordings
    (issue 34.1) and the new meanings of issue 34.2 (a rate, a cap, a reputation threshold, other
    graveyards) add their own, and so do the printed wordings of a seat, an owner's possessive, the passive, past
    possession and a worth (578 productions with them), and the second set of printed wordings (585: "do not
    take", "until you have", "rounded down", "the loot token you took", "at random", "any player's ship" and
    graveyard, with the Instead-of-taking rule's optional words shared to pay for part of it).
    """
    assert 50 < grammar_rule_count() < 600


def test_parse_error_in_plain_text_has_caret() -> None:
    """Text parsed on its own still reports line, column and expectations."""
    with pytest.raises(lt.CardError) as info:
        lt.parse("sun: gain 3")
    assert info.value.line == 1 and info.value.column == 12 and '"doubloons"' in info.value.expected
