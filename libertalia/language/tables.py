"""The built LALR parser kept in the cache as plain data, so that a later process need not build it.

Building the parser (its LALR tables, and the strict check of its terminals, which
lark runs with interegular when that is installed) takes most of a cold ``load_rules``.
lark can save a built parser, but only as a pickle (``Lark.save``, ``cache=``), and a
pickle is code to whoever loads it.  Under the pickle, though, is lark's own
serialisation (``memo_serialize``): dicts, lists and numbers, plus the two places that
name the lexer class.  That data goes into the cache as JSON (``loading.codec``), the
lexer named by a word; reading it back, lark's ``_load_from_dict`` makes only its own
parser classes (``Rule``, ``TerminalDef`` and the pattern and table classes, by
lark's whitelist), and the lexer is put back as this library's ``WordLexer``.

The entry is keyed by the grammar's text and the code and versions (library, lark,
Python) that build and read it, so another lark reads no tables it did not write.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from ..loading import cache
from ..loading.codec import Codec
from .lexer import WordLexer

_LEXER = "libertalia.WordLexer"
"""What stands for the lexer class in a stored parser (a class is not data)."""
_CODEC = Codec(())


def _lexer_slots(data: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """The places in lark's serialised parser that hold the lexer class."""
    return [(data["options"], "lexer"), (data["parser"]["lexer_conf"], "lexer_type")]


def load_or_build(grammar: str, build: Callable[[], Lark]) -> Lark:
    """The parser of ``grammar`` from the cache, or ``build()`` (then stored for the next process)."""
    full_key = cache.key(grammar.encode("utf-8"), *_sources())
    stored = cache.load("parser", full_key, _CODEC)
    if stored is not None:
        parser = _restore(stored)
        if parser is not None:
            return parser
        cache.discard("parser", full_key)
    parser = build()
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = dict(data["options"])  # lark serialises its live options: change only a copy
    for holder, name in _lexer_slots(data):
        if holder[name] is not WordLexer:  # pragma: no cover - the parser is always built with it
            return parser
        holder[name] = _LEXER
    cache.save("parser", full_key, {"data": data, "memo": memo}, _CODEC)
    return parser


def _restore(stored: Any) -> Lark | None:
    """The parser lark makes of stored data, or None when the data is not a parser it could have saved."""
    try:
        data, memo = stored["data"], stored["memo"]
        for holder, name in _lexer_slots(data):
            if holder[name] != _LEXER:
                return None
            holder[name] = WordLexer
        parser: Lark = Lark._load_from_dict(data, memo)  # type: ignore[no-untyped-call]
    except Exception:  # any shape lark cannot read: build the parser instead
        return None
    return parser


@functools.cache
def _sources() -> tuple[Path, ...]:
    """The code whose change makes stored tables stale: this module, the parser's options and the lexer."""
    here = Path(__file__).parent
    return (here / "tables.py", here / "lalr.py", here / "lexer.py")
