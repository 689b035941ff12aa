"""Card text to tokens, one whole word at a time.

Lark's own lexers match the longest terminal the parser can take next, so in a
place that accepts "you" but not "your" they read "your" as "you" followed by
"r", and report a nonsense error.  This lexer reads whole words first (a card
name, a lower-case word, a number or a punctuation mark) and only then asks
which terminal the word is, preferring one the parser can take next.  A word
the parser cannot take is still passed on, typed as well as it can be, so
that the parser reports the whole word with what it expected instead.

Two words need the parser's help:

* a lower-case word that is no keyword is a loot kind (``KIND``), and so is
  a keyword where the parser takes a kind but not that keyword;
* "or" is ``OR_IF`` between two conditions, which the parser tells apart
  from the "or" of a list ("a saber or hook") by the word that follows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from lark import Token
from lark.lexer import Lexer, LexerState

from ..suggest import similarity
from .meaning import MISSPELT, PIECES

# A card name runs over several Capitalised Words ("Wind Nymph", "Governor's Daughter").
_SCAN = re.compile(
    r"(?P<nl>(?:\r?\n[\t ]*)+)"
    r"|(?P<ws>[ \t]+)"
    r"|(?P<comment>\#[^\n]*)"
    r"|(?P<name>[A-Z][A-Za-z'-]*(?: [A-Z][A-Za-z'-]*)*)"
    r"|(?P<word>[a-z][a-z'-]*[a-z]|[a-z])"
    r"|(?P<number>[0-9]+(?![A-Za-z'-]))"
    r"|(?P<junk>[0-9A-Za-z'-]+)"
    r"|(?P<punct>[:,.;()])"
)
_PUNCT = {":": "COLON", ",": "COMMA", ".": "DOT", ";": "SEMICOLON", "(": "LPAR", ")": "RPAR"}
_GENERIC = ("NAME", "NOUN", "KIND", "NUMBER")  # open classes: tried after every keyword


READ_AHEAD = 64
"""How many words after a word its reading may look at (the end of its clause; no clause is longer)."""

MAX_DIGITS = 6
"""The longest number a card may write: no rule needs more, and Python's int() has limits."""


class UnknownCharacter(Exception):
    """A character that starts no word of the language, or a number too long to be one."""

    def __init__(self, pos: int, line: int, column: int, char: str, why: str = "") -> None:
        super().__init__(char)
        self.pos, self.line, self.column, self.char, self.why = pos, line, column, char, why


class WordLexer(Lexer):
    """A contextual lexer that respects word boundaries (see the module docstring)."""

    __future_interface__ = 2  # lark passes the parser state, and the text as a slice

    def __init__(self, conf: Any) -> None:
        self._patterns: dict[str, re.Pattern[str]] = {}
        self._keywords: dict[str, list[str]] = {}
        for t in conf.terminals:
            if t.name in ("_NL", "COMMENT", "WS_INLINE"):
                continue
            if t.pattern.type == "str":
                self._keywords.setdefault(t.pattern.value, []).append(t.name)
            else:
                self._patterns[t.name] = re.compile(t.pattern.to_regexp())
        self._cache: dict[str, list[str]] = {}

    def candidates(self, word: str) -> list[str]:
        """Every terminal that spells ``word``: keywords first, then the open classes."""
        found = self._cache.get(word)
        if found is None:
            found = list(self._keywords.get(word, ()))
            found += [n for n, p in self._patterns.items() if n not in _GENERIC and p.fullmatch(word)]
            found += [n for n in _GENERIC if n in self._patterns and self._patterns[n].fullmatch(word)]
            self._cache[word] = found
        return found

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        text = getattr(lexer_state.text, "text", lexer_state.text)
        assert isinstance(text, str)
        words = list(_words(text))
        states = parser_state.parse_conf.parse_table.states
        for i, (kind, raw, pos, line, column) in enumerate(words):
            if raw.lower() in SKIPPED and i + 1 < len(words) and words[i + 1][1] in _SKIPPED_BEFORE \
                    and not set(self.candidates(raw.lower())) & set(states[parser_state.position]):
                continue
            # The words after it on the line, as far as any reading looks ahead (a clause's "instead").
            type_, value = self.type_of(kind, raw, states[parser_state.position], words[i + 1:i + 1 + READ_AHEAD])
            end_line = line + raw.count("\n")
            end_column = column + len(raw) if "\n" not in raw else len(raw) - raw.rfind("\n")
            token = Token(type_, value, pos, line, column, end_line, end_column, pos + len(raw))
            lexer_state.last_token = token
            yield token

    def type_of(self, kind: str, word: str, accepts: Any,
                following: Sequence[tuple[str, str] | tuple[str, str, int, int, int]] = ()) -> tuple[str, str]:
        """The terminal a word of ``kind`` (as ``_words`` reads it) is where the parser takes ``accepts``, and
        its text as the parser sees it; ``following`` are the words after it on its line, (kind, text) first.

        Public for the repair search (``repair``), which feeds edited words to the parser itself.
        """
        if kind == "nl":
            return "_NL", word
        if kind == "punct" and word == "," and len(following) > 1 and following[0][1] == "and" \
                and following[1][1].lower() != "then" and "_COMMA_AND" in accepts:
            return "_COMMA_AND", word  # "discard this, and gain 4 doubloons": a serial comma
        if kind == "punct" and word == "," and len(following) > 1 and following[0][1] == "other" \
                and following[1][1] == "than" and "_COMMA_OTHER" in accepts:
            return "_COMMA_OTHER", word  # "the highest-ranked character on the island, other than this one"
        if kind == "punct" and word == ";" and following and "_SEMI_ROW" in accepts and (
                following[0][1].lower() == "each" or following[0][1].isdigit() or following[0][1] in NUMBER_WORDS):
            return "_SEMI_ROW", word  # "each set of 2 maps is worth 6 doubloons; each set of 3 …"
        if kind == "punct" and word == "," and "COLON" in accepts and not (
                following and following[0][1].lower() in _MODIFIERS):
            return "COLON", ":"  # printed wordings (issue 34.1): "At dusk, gain 1 doubloon" is "dusk: …"
        if kind == "punct":
            return _joined(_PUNCT[word], following[0] if following else None, accepts, _instead_ahead(following)), word
        if kind == "junk":
            return "WORD", word  # no terminal: the parser reports it with what it expected
        return self._type(word, accepts, following[0][1] if following else "",
                          following[1][1] if len(following) > 1 else "")

    def _kind_follows(self, word: str, after: str) -> bool:
        """Whether ``word`` (or, after "each"/"every", ``after``) can only be a loot kind: no keyword."""
        if word in ("each", "every"):
            word = after
        return bool(word[:1].islower()) and not any(n not in _GENERIC for n in self.candidates(word))

    def _type(self, word: str, accepts: Any, next_word: str, after_next: str = "") -> tuple[str, str]:
        """The terminal ``word`` is read as here, and its text as the parser sees it."""
        names = self.candidates(word)
        if word == "or" and "OR_IF" in accepts and ("OR" not in accepts or _starts_condition(next_word, after_next)):
            return "OR_IF", word
        if word.lower() == "instead" and "_INSTEAD_LAST" in accepts and next_word.lower() not in ("if", "unless"):
            return "_INSTEAD_LAST", word  # "…; each set of 3 maps is worth 13 doubloons instead."
        if word.lower() == "instead" and next_word == "of" and "_INSTEAD_OF" in accepts:
            return "_INSTEAD_OF", word  # "discard this instead of placing it in your ship"
        if word.lower() == "one" and next_word == "of" and "_ONE_OF" in accepts:
            return "_ONE_OF", word  # "one of your relics" (issue 34.1); "one map" stays the number 1
        if word == "and" and next_word.lower() == "then" and "_AND_JOIN" in accepts:
            return "_AND_JOIN", word
        if word == "and" and "_AND_KIND" in accepts and self._kind_follows(next_word, after_next):
            return "_AND_KIND", word  # "for each hook and each saber you hold"
        if "KIND" in accepts and "NOUN" in accepts and _misspelt_piece(word):
            return "WORD", word  # "discard a charcter": no loot kind, though discarding loot is said (issue 34.1)
        if word in NOUN_WORDS and "NOUN" in accepts and not (word in NUMBER_WORDS and "NUMBER" in accepts) \
                and not any(n in accepts for n in names if n not in _GENERIC):
            return "NOUN", NOUN_WORDS[word]  # "every card in your hand", "the leftmost one": before the loot kinds
        for name in names:
            if name in accepts:
                return name, word
        if word[:1].isupper() and " " not in word and not {"NAME", "NOUN"} & set(accepts):
            # A sentence starts with a capital ("Gain 2 doubloons. Its owner ..."): where no card name
            # can stand, a capitalised keyword is that keyword.
            lower = word.lower()
            for name in self.candidates(lower):
                if name in accepts and name not in _GENERIC:
                    return name, lower
        if word in NUMBER_WORDS and "NUMBER" in accepts:  # "gain two doubloons": the number 2
            return "NUMBER", NUMBER_WORDS[word]
        if "KIND" in accepts and word[:1].islower() and "'" not in word:
            return "KIND", word
        return (names[0] if names else ("KIND" if word[:1].islower() else "NAME")), word


def _misspelt_piece(word: str) -> bool:
    """Whether ``word`` is a close misspelling of "character" ("charcter"), not one of the words themselves."""
    return word not in PIECES and any(similarity(word, noun) >= MISSPELT for noun in ("character", "characters"))


def _instead_ahead(words: Sequence[tuple[str, str] | tuple[str, str, int, int, int]]) -> bool:
    """Whether the clause ``words`` start, up to the next mark or line end, says "instead" (it replaces a step)."""
    for i, (kind, value, *_) in enumerate(words):
        if kind == "nl" or value in (".", ";"):
            return False
        if value.lower() == "instead" and (i + 1 >= len(words) or words[i + 1][1].lower() != "of"):
            return True  # but not "instead of placing it …", which replaces no step: a later "instead" may
    return False


def _joined(mark: str, after: tuple[str, str] | tuple[str, str, int, int, int] | None, accepts: Any,
            instead: bool = False) -> str:
    """A "." with a word after it ends a sentence inside the line (_DOT_JOIN); a ";" before "then" or
    "if" joins a step to the one before (_SEMI_JOIN), unlike the ";" of "; or"; either mark before
    "otherwise" brings in the otherwise (_ELSE); a "," before "or" offers a replacement (_COMMA_OR), and one
    before "up" a cap on the amount before it (_COMMA_UP)."""
    if after is None or after[0] == "nl":
        return mark
    word = after[1].lower()
    if mark in ("SEMICOLON", "COMMA", "DOT") and word == "otherwise" and "_ELSE" in accepts:
        return "_ELSE"  # first: "; otherwise, gain 2 doubloons instead if …" is the otherwise of what went before;
        # ". Otherwise, …" as printed cards end a sentence before it (issue 34) says the same
    if mark == "DOT" and after[0] in ("word", "name") and "_DOT_JOIN" in accepts:
        return "_DOT_JOIN"
    if mark == "SEMICOLON" and (word in ("then", "if") or instead) and "_SEMI_JOIN" in accepts:
        return "_SEMI_JOIN"
    if mark == "COMMA" and word == "or" and "_COMMA_OR" in accepts:
        return "_COMMA_OR"
    if mark == "COMMA" and word == "up" and "_COMMA_UP" in accepts:
        return "_COMMA_UP"  # "…, up to 6 doubloons": a cap on the amount before it
    if mark == "COMMA" and word == "rounded" and "_COMMA_ROUND" in accepts:
        return "_COMMA_ROUND"  # "lose half your doubloons, rounded down" (issue 34, printed wordings)
    return mark


_MODIFIERS = frozenset({"last", "once", "first"})
"""The modifiers a "," after a timing brings in; any other word after it starts the effect, as after ":"."""


NUMBER_WORDS = {word: str(n) for n, word in enumerate(
    ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"))}
"""Numbers a card may spell out, read as their digits wherever a number can stand and the word itself
cannot ("for each one returned" keeps its "one")."""


NOUN_WORDS = {"card": "character", "cards": "characters", "one": "character"}
"""Printed words for a character (issue 34), read as ``character`` wherever a character's noun stands and no
keyword can ("this card" and "other than this one" keep their own words; "for each one returned" its "one")."""

SKIPPED = {"directly", "straight", "immediately"}
"""Adverbs printed cards put before "into" or "onto" ("put a character from your hand directly into your ship"):
they say nothing the place does not, so where the parser cannot take them there they are left out (issue 34)."""
_SKIPPED_BEFORE = frozenset({"into", "onto"})


# The first words of the ``cond`` alternatives in the grammar; a test keeps
# this list equal to the grammar's (tests/language/test_lexer.py).
COND_STARTS = {"this", "it", "the", "you", "your", "no", "there"}


def _starts_condition(word: str, after: str) -> bool:
    """Whether ``word`` (then ``after``) can open a condition: "your" does only as "your ship is empty",
    so in "the player on your right or your left" the "or" joins the two sides of one place."""
    return word in COND_STARTS and not (word == "your" and after.lower() in ("left", "right"))


def _words(text: str) -> Iterator[tuple[str, str, int, int, int]]:
    """(kind, text, offset, line, column) for each word, newline and mark; spaces and comments dropped."""
    pos, line, line_start = 0, 1, 0
    while pos < len(text):
        m = _SCAN.match(text, pos)
        if m is None:
            raise UnknownCharacter(pos, line, pos - line_start + 1, text[pos])
        kind = m.lastgroup or ""
        value = m.group()
        if kind == "number" and len(value) > MAX_DIGITS:
            raise UnknownCharacter(pos, line, pos - line_start + 1, value[:12] + "…",
                                   f"a number of {len(value):,} digits: numbers have at most {MAX_DIGITS}")
        if kind not in ("ws", "comment"):
            yield kind, value, pos, line, pos - line_start + 1
        if "\n" in value:
            line += value.count("\n")
            line_start = pos + value.rfind("\n") + 1
        pos = m.end()
