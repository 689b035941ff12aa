"""The word lexer: whole words, and never two readings of one word in one parser state."""

from __future__ import annotations

import re

from libertalia.language import lexer
from libertalia.language.parser import grammar


def _spellings() -> dict[str, set[str]]:
    """Every fixed word of the grammar, with the terminals that spell it."""
    out: dict[str, set[str]] = {}
    for t in grammar().terminals:
        if t.pattern.type == "str":
            out.setdefault(t.pattern.value, set()).add(t.name)
        elif t.name not in ("NAME", "KIND", "NUMBER", "COMMENT", "_NL", "WS_INLINE"):
            for word in re.findall(r"[a-z][a-z'-]*", t.pattern.value):
                if re.fullmatch(t.pattern.to_regexp(), word):
                    out.setdefault(word, set()).add(t.name)
    return out


def test_no_state_reads_a_word_two_ways() -> None:
    """In every parser state a keyword names at most one acceptable terminal (the lexer's collision check)."""
    states = grammar().parser.parser.parser.parse_table.states
    clashes = []
    for state, actions in states.items():
        for word, names in _spellings().items():
            accepted = names & set(actions)
            if len(accepted) > 1:
                clashes.append((state, word, sorted(accepted)))
    assert not clashes, clashes[:5]


def test_condition_starts_match_the_grammar() -> None:
    """The words that make 'or' join two conditions are exactly the first words of a condition."""
    first = set()
    rules = grammar().rules
    by_origin: dict[str, list[list[str]]] = {}
    for r in rules:
        by_origin.setdefault(r.origin.name, []).append([s.name for s in r.expansion])
    spell = {t.name: t.pattern.value for t in grammar().terminals if t.pattern.type == "str"}

    def firsts(symbol: str, seen: frozenset[str] = frozenset()) -> set[str]:
        if symbol in spell:
            return {spell[symbol]}
        if symbol not in by_origin or symbol in seen:
            return set()
        return {w for exp in by_origin[symbol] if exp for w in firsts(exp[0], seen | {symbol})}

    first = firsts("cond")
    assert first == lexer.COND_STARTS


def test_words_are_read_whole() -> None:
    """'your' is one word, and a number glued to a word is no number."""
    words = [w[1] for w in lexer._words("gain 3 doubloons if your map\n  x 3doubloons.")]
    assert words == ["gain", "3", "doubloons", "if", "your", "map", "\n  ", "x", "3doubloons", "."]


def test_strict_uncached_build_and_the_cache_agree(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The grammar builds strictly without a cache (conflicts are caught), and a cached build parses the same."""
    from libertalia.language.parser import build_parser

    text = "dusk: gain 2 doubloons if you just took a chest or you hold a map."
    fresh = build_parser(cached=False).parse(text)
    monkeypatch.setenv("LIBERTALIA_CACHE_DIR", str(tmp_path))
    build_parser(cached=True)  # writes the cache
    assert list((tmp_path / "libertalia-cache").glob("parser-*"))
    assert build_parser(cached=True).parse(text) == fresh  # read back from it


def test_no_cache_folder_is_no_error(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With caching off (or no writable folder) the parser is simply built."""
    from libertalia import _paths
    from libertalia.language.parser import build_parser

    monkeypatch.setenv("LIBERTALIA_CACHE_DIR", "off")
    assert _paths.cache_dir() is None
    assert build_parser(cached=True).parse("sun: gain 1 doubloon.")


def test_or_before_your_and_a_side_joins_the_sides_of_one_place() -> None:
    """'or your left' names the other side of a place; 'or your hand is empty' starts a condition."""
    import libertalia as lt

    place = "sun: discard a character from the ship of the player on your right or {}."
    assert lt.parse(place.format("your left")) == lt.parse(place.format("left"))
    both = lt.parse("sun: gain 1 doubloon if you hold a map or your hand is empty.")
    assert len(both[0].steps[0].condition.groups) == 2  # type: ignore[attr-defined]


def test_a_mark_before_otherwise_is_the_otherwise_whatever_follows() -> None:
    """"; otherwise" brings in the otherwise even when its clause says "instead of placing it", and that
    "instead of" replaces no step, so it never makes the ";" before it a join (found by the long fuzz run)."""
    import libertalia as lt

    for text in ("anchor: you may discard this; otherwise, discard this instead of placing it into your ship",
                 "anchor: you may discard it, otherwise discard this instead of placing it into your ship"):
        (ability,) = lt.parse(text)
        assert ability.steps[0].form == "may" and ability.steps[0].otherwise
        assert lt.parse(lt.render((ability,))) == (ability,)
    assert not lexer._instead_ahead([("word", "discard"), ("word", "this"), ("word", "instead"), ("word", "of")])
    assert lexer._instead_ahead([("word", "gain"), ("word", "3"), ("word", "instead"), ("word", "if")])
