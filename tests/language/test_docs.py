"""The card-language reference cannot drift from the grammar."""

from __future__ import annotations

import re


def test_every_grammar_word_is_documented() -> None:
    """Each keyword of grammar/libertalia.lark appears in docs/card-language.md."""
    import pathlib

    repo = pathlib.Path(__file__).resolve().parents[2]
    grammar = (repo / "grammar" / "libertalia.lark").read_text(encoding="utf-8")
    doc = (repo / "docs" / "card-language.md").read_text(encoding="utf-8")
    words = {w for w in re.findall(r'"([^"]+)"', grammar) if re.match(r"[a-z]", w)}
    missing = sorted(w for w in words if not re.search(rf"(?<![A-Za-z']){re.escape(w)}(?![A-Za-z'])", doc))
    assert not missing, f"document these words in docs/card-language.md: {missing}"
