"""``card_texts``: every text it spells loads as a card, and a mod card with one plays sound games."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, seed, settings
from hypothesis import strategies as st
from lark import Lark

import libertalia as lt
from libertalia import _paths
from libertalia.language import words
from libertalia.language.compile import compile_ability
from libertalia.language.normalise import worths
from libertalia.loading.rules import check_files
from libertalia.testing import check_invariants, positions
from libertalia.testing.texts import (
    _ReadByContext,
    _reads_as_spelled,
    card_texts,
    spelled_texts,
    text_problem,
    vocabulary,
)
from tests.helpers import galecrest

MOD = "Fuzzed Corsair"
MAX_DECISIONS = 3000


def _quick(examples: int) -> settings:
    """A fixed number of derandomized examples: the same texts every run, so a red run replays."""
    return settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _characters() -> st.SearchStrategy[str]:
    return st.deferred(lambda: card_texts(galecrest(), names=[MOD]))


def _loot() -> st.SearchStrategy[str]:
    return st.deferred(lambda: card_texts(galecrest(), loot=True))


def _card_file(text: str, loot: bool = False) -> str:
    head = "kind: chest\nside: calm\ncount: 4\n" if loot else f"name: {MOD}\nrank: 41.5\n"
    return head + "text: |\n" + "".join(f"  {line}\n" for line in text.splitlines())


@_quick(150)
@given(_characters())
def test_every_character_text_parses_checks_and_compiles(text: str) -> None:
    """A character text parses, passes the checker and compiles (the render round trip: test_fuzz.py)."""
    assert text_problem(text, galecrest(), names=[MOD]) is None
    assert all(compile_ability(a) for a in worths(lt.parse(text), None))  # as the loader settles "is worth"


@_quick(100)
@given(_loot())
def test_every_loot_text_checks_as_a_loot_tile(text: str) -> None:
    """A loot text passes the checker as a tile's (no daytime ability, no "this" for a character)."""
    assert text_problem(text, galecrest(), loot=True) is None
    assert not any(a.timing == "sun" for a in lt.parse(text))


@_quick(40)
@given(st.deferred(lambda: card_texts(galecrest(), loot=True, kind="barrel")))
def test_a_loot_text_for_one_tile_names_its_own_kind(text: str) -> None:
    """E34: a loot text spelled for the barrel tile loads as that tile, and "this KIND" in it is "this barrel"."""
    rules = galecrest()
    assert text_problem(text, rules, loot=True, kind="barrel") is None
    named = {w for w in re.findall(r"\bthis (\w+)", text) if w in rules.kinds}
    assert named <= {"barrel"}


def test_a_tile_kind_is_a_loot_kind_of_a_loot_text() -> None:
    """``card_texts(kind=)`` names a loot tile: a kind the rules have, with ``loot=True``."""
    with pytest.raises(ValueError, match="loot=True"):
        card_texts(galecrest(), kind="barrel")
    with pytest.raises(ValueError, match="unknown loot kind"):
        card_texts(galecrest(), loot=True, kind="anchor")


def test_texts_pass_libertalia_cards_check(tmp_path: Path) -> None:
    """Written to card files, generated texts pass ``check_files``, the logic of ``libertalia cards check``."""
    texts: list[tuple[str, bool]] = []

    @_quick(30)
    @given(st.one_of(_characters().map(lambda t: (t, False)), _loot().map(lambda t: (t, True))))
    def collect(entry: tuple[str, bool]) -> None:
        texts.append(entry)

    collect()
    for i, (text, loot) in enumerate(texts):
        folder = tmp_path / str(i)
        folder.mkdir()
        (folder / "card.yaml").write_text(_card_file(text, loot), encoding="utf-8")
        assert check_files([folder]) == [], text
    assert {loot for _, loot in texts} == {False, True}


@_quick(12)
@given(data=st.data(), players=st.integers(2, 5))
def test_a_mod_card_with_a_generated_text_plays_to_the_end(data: st.DataObject, players: int) -> None:
    """A generated text as a mod card in seat 0's hand: random answers play the game out, invariants holding."""
    text = data.draw(_characters(), label="text")
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "mod.yaml").write_text(_card_file(text), encoding="utf-8")
        rules = lt.load_rules("galecrest", extra_cards=[folder])
    setup = data.draw(positions(rules, players).map(_in_seat_0_hand), label="setup")
    game = lt.new_game(rules, players, data.draw(st.integers(0, 2**32 - 1), label="seed"), setup)
    check_invariants(game)
    for _ in range(MAX_DECISIONS):
        if game.decision is None:
            break
        keys = game.legal_keys()
        nxt = game.choose(keys[data.draw(st.integers(0, len(keys) - 1))])
        check_invariants(nxt, before=game)
        game = nxt
    assert game.is_over


def _in_seat_0_hand(setup: dict[str, Any]) -> dict[str, Any]:
    seat = setup["players"][0]
    for zone in ("hand", "ship", "graveyard"):
        seat[zone] = [c for c in seat[zone] if c != MOD]
    seat["hand"].append(MOD)
    return setup


def test_every_form_of_the_language_is_spelled() -> None:
    """Character and loot texts together use every form ``libertalia cards words`` lists."""
    seen: set[str] = set()
    for batch in range(8):  # fixed seeds: the same texts every run; most runs need two batches
        @settings(max_examples=500, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
        @seed(batch)
        @given(st.one_of(_characters(), _loot()))
        def collect(text: str) -> None:
            seen.update(words.used_forms(text))

        collect()
        if not set(words.forms()) - KIND_DEPENDENT - seen:
            break
    assert set(words.forms()) - KIND_DEPENDENT - seen == set()


KIND_DEPENDENT = frozenset({"worth_kind", "worth_token"})
"""Forms whose one reading depends on the loot tile's own kind (``normalise.worths``): the strategies here
draw loot texts for no particular tile, so they never spell them; tests/language/test_printed_wordings_more.py
pins each on its tile."""


def test_a_failing_text_shrinks_to_a_short_one() -> None:
    """Choices shrink toward the cheapest alternative: the simplest text with a discard is one short line."""
    text = find(_characters(), lambda t: "discard" in t, settings=settings(database=None, derandomize=True))
    assert text.count("\n") == 0 and len(text.split()) <= 4, text


def test_the_vocabulary_covers_every_terminal_of_the_grammar() -> None:
    """Every terminal the grammar file has (but spaces and comments) gets words, card names and kinds from the rules."""
    grammar = Lark(_paths.grammar_path().read_text(encoding="utf-8"), parser="lalr")
    vocab = vocabulary(galecrest(), names=[MOD])
    assert {t.name for t in grammar.terminals} - set(grammar.ignore_tokens) <= set(vocab)
    assert {c.name for c in galecrest().characters} | {MOD} <= set(vocab["NOUN"])
    assert set(vocab["KIND"]) == set(galecrest().kinds)
    assert "Kraken" in vocabulary(galecrest(), strays=True)["NOUN"]


@_quick(100)
@given(st.deferred(lambda: spelled_texts(galecrest())))
def test_spelled_texts_parse_and_the_checker_has_the_last_word(text: str) -> None:
    """Whatever the grammar spells the parser reads; refusals come from the checker, as CardErrors."""
    lt.parse(text)
    problem = text_problem(text, galecrest())
    assert problem is None or isinstance(problem, lt.CardError)


def test_the_last_sets_instead_is_never_spelled_before_if() -> None:
    """A last set's "instead" before "if" is read as a replaced step's "instead if": the walk never spells it there."""
    text = ("the end of voyage, first: each set of 1 chest is worth 1 reputation; each set of 1 chest is worth 1 "
            "reputation instead if you did; otherwise discard this if you did")
    with pytest.raises(lt.CardError, match="unexpected mark ';'"):
        lt.parse(text)
    spelled = ["worth", "1", "reputation", _ReadByContext("instead", "_INSTEAD_LAST")]
    assert not _reads_as_spelled([*spelled, "if", "you", "did"])
    assert not _reads_as_spelled([*spelled, "unless", "you", "did"])
    assert _reads_as_spelled([*spelled, "."])


@pytest.mark.parametrize("text", ["anchor: this is worth 2 doubloons.", "anchor: this was worth 1 reputation."])
def test_a_worth_of_this_on_a_tile_of_no_known_kind_is_refused_with_why(text: str) -> None:
    """Issue 34.1 (docs/card-language.md, worths): "this is worth N" is settled by its tile's kind, so a loot text
    checked for no kind in particular is refused saying so (never a crash of the checker); a character says it."""
    problem = text_problem(text, galecrest(), loot=True)
    assert problem is not None and "tile's kind" in str(problem)
    assert text_problem(text, galecrest(), names=[MOD]) is None
