"""Whatever text a modder writes, the library answers with its own error, never a traceback.

The language's words come from ``libertalia.testing.texts.vocabulary`` (the grammar file's
terminals with the rules' names and kinds), the same words ``card_texts`` spells cards with.
"""

from __future__ import annotations

import contextlib
import functools
import re

from hypothesis import given
from hypothesis import strategies as st

import libertalia as lt
from libertalia.syntax import ast
from libertalia.testing.texts import spelled_texts, vocabulary
from tests.helpers import galecrest


@functools.cache
def _words() -> list[str]:
    """Every word of the language, a stray name and kind included, and a line break."""
    return sorted({w for words in vocabulary(galecrest(), strays=True).values() for w in words})


@given(st.deferred(lambda: st.lists(st.sampled_from(_words()), max_size=25).map(" ".join)))
def test_word_salad_parses_or_raises_card_error(text: str) -> None:
    """Random sequences of the language's own words either parse or raise CardError with a position."""
    try:
        abilities = lt.parse(text)
    except lt.CardError as exc:
        assert exc.line >= 1 and exc.column >= 1 and exc.expected
    else:
        assert lt.parse(lt.render(abilities)) == abilities


def _drops_kinds(abilities: tuple[ast.Ability, ...]) -> bool:
    """Whether a text holds "N KIND of one kind", which render spells "N loot of one kind" (see below)."""
    return re.search(r"ChooseLootSet\(counts=\([^)]*\), np=LootNP\(kinds=\('", repr(abilities)) is not None


@given(st.deferred(lambda: spelled_texts(galecrest())))
def test_texts_the_grammar_spells_render_back_to_the_same_tree(text: str) -> None:
    """Every text the grammar spells (checked or not) parses, and its canonical text parses to the same tree."""
    abilities = lt.parse(text)
    if _drops_kinds(abilities):
        return  # the known render bug below
    assert lt.parse(lt.render(abilities)) == abilities


def test_render_keeps_the_kinds_of_a_loot_count_of_one_kind() -> None:
    """The canonical text of "take 1 or 2 map or chest of one kind from the bag" names map or chest."""
    abilities = lt.parse("sun: take 1 or 2 map or chest of one kind from the bag.")
    assert lt.parse(lt.render(abilities)) == abilities


@given(st.text(max_size=80))
def test_any_text_parses_or_raises_card_error(text: str) -> None:
    """Arbitrary unicode never escapes as a Lark or Python exception."""
    with contextlib.suppress(lt.CardError):
        lt.parse(text)


@given(st.text(max_size=200))
def test_any_yaml_file_loads_or_raises_data_error(tmp_path_factory: object, text: str) -> None:
    """Any card file content is either accepted or reported as a DataError."""
    folder = tmp_path_factory.mktemp("mod")  # type: ignore[attr-defined]
    (folder / "card.yaml").write_text(text, encoding="utf-8")
    with contextlib.suppress(lt.DataError):
        lt.load_rules("galecrest", extra_cards=[folder])
