"""Canonical wording of card texts, and the in-place edit of a card file's ``text:`` value.

The grammar's variant wordings are not written yet, so the texts here are wordings that
already read as the tree of another one: extra spaces, ``1 doubloons``, ``there is 2 or more``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import libertalia as lt
from libertalia.errors import DataError
from libertalia.loading.canonical import (
    Rewording,
    TextSpan,
    canonical_text,
    reword,
    rewrite_card,
    rewrite_text_block,
    text_span,
)
from libertalia.loading.yamlfile import Document, read

VARIANT = "sun:  gain 1 doubloons."
CANONICAL = "sun: gain 1 doubloon."


def doc(text: str) -> Document:
    """A card file's text, read as ``cards check`` reads it."""
    return Document("card.yaml", text)


def rewritten(file_text: str, new_text: str) -> str:
    """``file_text`` with its top-level ``text:`` value replaced by ``new_text``."""
    return rewrite_text_block(file_text, text_span(doc(file_text).root), new_text)


def test_the_variants_used_here_read_as_their_canonical_wording() -> None:
    """Each variant of these tests parses to the tree of its canonical wording, which renders otherwise."""
    for variant, canonical in [(VARIANT, CANONICAL), ("moon: gain 3 doubloon.", "moon: gain 3 doubloons."),
                               ("sun: gain 2 doubloons if there is 2 or more characters on the island.",
                                "sun: gain 2 doubloons if there are 2 or more characters on the island.")]:
        assert lt.parse(variant) == lt.parse(canonical)
        assert lt.render(lt.parse(variant)) == canonical != variant


def test_canonical_text_is_one_rendered_ability_per_line() -> None:
    """``canonical_text`` prints the abilities as ``render`` does, one per line."""
    abilities = lt.parse(f"{VARIANT}\nmoon: gain 3 doubloon.")
    assert canonical_text(abilities) == f"{CANONICAL}\nmoon: gain 3 doubloons."
    assert canonical_text(iter(abilities)) == lt.render(abilities)


def test_reword_leaves_a_canonical_text_alone() -> None:
    """A text already in canonical wording has no rewording, whatever its blank lines and comments."""
    text = f"# pays at sunrise\n{CANONICAL}  # one coin\n\nmoon: gain 3 doubloons."
    assert reword(text, lt.parse(text)) is None


def test_reword_changes_only_the_wording_of_the_lines_that_differ() -> None:
    """Only variant lines change, each named with its ability; comments and blank lines stay where they were."""
    text = f"# pays at sunrise\n{VARIANT}  # one coin\n\nmoon: gain 3 doubloons."
    abilities = lt.parse(text)
    found = reword(text, abilities)
    assert found == Rewording(f"# pays at sunrise\n{CANONICAL}  # one coin\n\nmoon: gain 3 doubloons.",
                              ((abilities[0], CANONICAL),))


def test_reword_drops_spaces_that_are_not_wording() -> None:
    """Spaces around a line and before its comment are kept or dropped, but never alone make a rewording."""
    text = f"  {CANONICAL}   "
    assert reword(text, lt.parse(text)) is None
    assert reword(f"  {VARIANT}  ", lt.parse(VARIANT)) == Rewording(CANONICAL, ((lt.parse(VARIANT)[0], CANONICAL),))


def test_reword_of_abilities_not_one_per_line_rewrites_the_whole_text_or_refuses() -> None:
    """Should abilities and lines not pair, the whole text becomes canonical; a comment there is never dropped."""
    two = lt.parse(f"{VARIANT}\nmoon: gain 3 doubloon.")
    found = reword(VARIANT, two)
    assert found is not None and found.text == f"{CANONICAL}\nmoon: gain 3 doubloons."
    assert [line for _, line in found.changed] == [CANONICAL, "moon: gain 3 doubloons."]
    with pytest.raises(ValueError, match="comments"):
        reword(f"{VARIANT}  # a note", two)


def test_text_span_covers_the_value_as_written() -> None:
    """The span of ``text:`` runs from its ``|`` past its lines, or over its quotes, at its key's column."""
    block = f"name: A\ntext: |\n  {VARIANT}\n\nrank: 1\n"
    span = text_span(doc(block).root)
    assert (block[span.start:span.end], span.style, span.indent) == (f"|\n  {VARIANT}\n\n", "|", 0)
    quoted = f"name: A\ntext: '{VARIANT}'  # c\n"
    span = text_span(doc(quoted).root)
    assert (quoted[span.start:span.end], span.style) == (f"'{VARIANT}'", "'")


def test_a_literal_block_keeps_its_header_indentation_and_blank_lines() -> None:
    """A ``|`` block keeps its chomping, comment and indentation, the blank lines after it and the rest of the file."""
    head, tail = "# top\nname: A\ntext: |-  # the card\n", "\n\n# end\nrank: 1\n"
    before = f"{head}    {VARIANT}\n    moon: gain 3 doubloon.\n{tail}"
    after = rewritten(before, f"{CANONICAL}\nmoon: gain 3 doubloons.")
    assert after == f"{head}    {CANONICAL}\n    moon: gain 3 doubloons.\n{tail}"


def test_a_block_with_an_indentation_indicator_keeps_it() -> None:
    """``|2`` sets the indentation: the new lines are written at it."""
    assert rewritten(f"text: |2\n  {VARIANT}\nrank: 1\n", CANONICAL) == f"text: |2\n  {CANONICAL}\nrank: 1\n"


def test_a_folded_block_of_several_lines_becomes_literal() -> None:
    """A ``>`` block would join the new lines into one, so a text of several lines is written ``|``."""
    before = f"text: >\n  {VARIANT}\n\n  moon: gain 3 doubloon.\nrank: 1\n"
    assert rewritten(before, f"{CANONICAL}\nmoon: gain 3 doubloons.") == \
        f"text: |\n  {CANONICAL}\n  moon: gain 3 doubloons.\nrank: 1\n"
    assert rewritten(f"text: >\n  {VARIANT}\n", CANONICAL) == f"text: >\n  {CANONICAL}\n"


@pytest.mark.parametrize(("written", "expected"), [
    (f"'{VARIANT}'", f"'{CANONICAL}'"),
    (f'"{VARIANT}"', f'"{CANONICAL}"'),
])
def test_a_one_line_quoted_text_stays_one_quoted_line(written: str, expected: str) -> None:
    """A quoted one-line text is written back on its line in its quotes, its comment after it."""
    assert rewritten(f"name: A\ntext: {written}   # c\nrank: 1\n", CANONICAL) == \
        f"name: A\ntext: {expected}   # c\nrank: 1\n"


def test_quotes_inside_the_text_are_escaped_in_its_own_quoting() -> None:
    """An apostrophe is doubled in single quotes; a double quote or backslash is escaped in double quotes."""
    text = "sun: take a map from today's loot."
    assert rewritten("text: 'x'\n", text) == "text: 'sun: take a map from today''s loot.'\n"
    assert rewritten('text: "x"\n', 'a "b" \\ c') == 'text: "a \\"b\\" \\\\ c"\n'


def test_a_one_line_text_of_several_lines_becomes_a_block() -> None:
    """A quoted text that gets several lines becomes a ``|`` block, its line's comment on the ``|`` line."""
    before = f'name: A\ntext: "{VARIANT}\\nmoon: gain 3 doubloon."  # two\nrank: 1\n'
    assert rewritten(before, f"{CANONICAL}\nmoon: gain 3 doubloons.") == \
        f"name: A\ntext: |  # two\n  {CANONICAL}\n  moon: gain 3 doubloons.\nrank: 1\n"


def test_a_plain_text_that_needs_quotes_becomes_a_block() -> None:
    """A plain scalar keeps a text that needs no quotes; one with a colon (every card text) becomes a ``|`` block."""
    assert rewritten("name: A\ntext: old words\n", "new words") == "name: A\ntext: new words\n"
    assert rewritten("name: A\ntext: old words\n", CANONICAL) == f"name: A\ntext: |\n  {CANONICAL}\n"


def test_a_text_inside_a_flow_mapping_stays_on_its_line() -> None:
    """In ``{...}`` a text of several lines is one double-quoted line with ``\\n``; a plain one cannot be rewritten."""
    before = f"{{name: A, rank: 41, text: '{VARIANT}'}}\n"
    assert rewritten(before, f"{CANONICAL}\nmoon: gain 3 doubloons.") == \
        f'{{name: A, rank: 41, text: "{CANONICAL}\\nmoon: gain 3 doubloons."}}\n'
    with pytest.raises(ValueError, match="something else follows"):
        rewrite_text_block("{text: a b, rank: 1}\n", TextSpan(7, 10, None, 1), "a: b")


def test_line_breaks_and_a_missing_last_line_break_are_kept() -> None:
    """A CRLF file gets CRLF lines; a file that ends on its text without a line break still does."""
    assert rewritten(f"name: A\r\ntext: |\r\n  {VARIANT}\r\nrank: 1\r\n", CANONICAL) == \
        f"name: A\r\ntext: |\r\n  {CANONICAL}\r\nrank: 1\r\n"
    assert rewritten(f"name: A\ntext: |\n  {VARIANT}", CANONICAL) == f"name: A\ntext: |\n  {CANONICAL}"
    assert rewritten(f"name: A\ntext: '{VARIANT}'", f"{CANONICAL}\nmoon: gain 3 doubloons.") == \
        f"name: A\ntext: |\n  {CANONICAL}\n  moon: gain 3 doubloons."


def test_anchors_and_tags_before_the_value_are_kept() -> None:
    """An anchor or tag written before the value stays before the new one, whatever the value's style."""
    assert rewritten(f"text: !!str &t |\n  {VARIANT}\n", CANONICAL) == f"text: !!str &t |\n  {CANONICAL}\n"
    assert rewritten(f"text: &t '{VARIANT}'\n", CANONICAL) == f"text: &t '{CANONICAL}'\n"
    assert rewritten(f"text: &t '{VARIANT}'\n", f"{CANONICAL}\n{CANONICAL}") == \
        f"text: &t |\n  {CANONICAL}\n  {CANONICAL}\n"


def test_a_block_whose_header_does_not_read_is_refused() -> None:
    """A block span that does not start with a block header is a ValueError, not a guess."""
    with pytest.raises(ValueError, match="block header"):
        rewrite_text_block("text: x\n  y\n", TextSpan(6, 12, "|", 0), CANONICAL)


def test_rewrite_card_keeps_every_other_value_and_the_abilities(tmp_path: Path) -> None:
    """The rewritten file reads back with the same keys and values, its text canonical and parsing the same."""
    path = tmp_path / "a.yaml"
    path.write_text(f"name: Pirate\nrank: 41  # late\ntext: |\n  {VARIANT}\nnote: keep me\n", encoding="utf-8")
    card = read(path)
    abilities = lt.parse(VARIANT)
    found = reword(VARIANT, abilities)
    assert found is not None
    new = rewrite_card(card, found, abilities)
    assert new == f"name: Pirate\nrank: 41  # late\ntext: |\n  {CANONICAL}\nnote: keep me\n"


def test_rewrite_card_refuses_a_text_shared_through_an_alias() -> None:
    """A text that is an alias of another value would change that value too: a DataError where the value is written."""
    card = doc(f"name: Pirate\nrank: 41\nnote: &t '{VARIANT}'\ntext: *t\n")
    abilities = lt.parse(VARIANT)
    found = reword(VARIANT, abilities)
    assert found is not None
    with pytest.raises(DataError, match="would change its 'note' value") as caught:
        rewrite_card(card, found, abilities)
    assert (caught.value.path, caught.value.line, caught.value.column) == ("card.yaml", 3, 7)


def test_rewrite_card_refuses_a_text_that_reads_as_other_abilities() -> None:
    """A canonical text must parse to the kept abilities: a rewording that does not is refused."""
    card = doc(f"name: Pirate\nrank: 41\ntext: |\n  {VARIANT}\n")
    wrong = Rewording("moon: gain 3 doubloons.", ())
    with pytest.raises(DataError, match="would not read as the same abilities"):
        rewrite_card(card, wrong, lt.parse(VARIANT))
