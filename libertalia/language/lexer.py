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
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

from lark import Token
from lark.lexer import Lexer, LexerState

from ..suggest import similarity
from .meaning import MISSPELT, PIECES
from .printed_words import (
    ACTION_VERBS,
    HOLDING,
    KIND_WORDS,
    MARK_READINGS,
    NUMBER_WORDS,
    PAST_WORDS,
    PAYING,
    PHRASES,
    PLURAL_VERBS,
    SAID_BY_PLAYERS,
    SINGULAR_VERBS,
    TAKING,
    UNITS,
    LexWord,
    after_quantity,
    after_you_hold,
    amount_follows,
    amount_verb,
    if_follows,
    in_choice,
    own_loot_pick,
    printed_phrases,
)

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
        words = printed_phrases(list(_words(text)))
        states = parser_state.parse_conf.parse_table.states
        i = 0
        while i < len(words):
            reading = self.read(words, i, lambda: states[parser_state.position])
            while True:
                try:
                    token = next(reading)
                except StopIteration as done:
                    i += done.value
                    break
                lexer_state.last_token = token
                yield token

    def read(self, words: Sequence[LexWord], i: int, accepts: Callable[[], Any]) -> Generator[Token, None, int]:
        """Yield the tokens the word at ``i`` is read as, where the parser takes ``accepts()`` (asked again after
        each token, which the caller feeds before it asks for the next); return how many words they stand for.

        Most words are one token.  A printed phrase of ``PHRASES`` is one token for several words; a word that
        says nothing there is none; a few readings add words before or in place of a mark (``_inserted``), and when
        they stand for no word (0) the word is read again where they left the parser.  The repair search
        (``repair``) reads a line through this too, so that an error is found where the parser really stops.
        """
        kind, raw, *_ = words[i]
        now = accepts()
        if raw.lower() in SKIPPED and i + 1 < len(words) and words[i + 1][1] in _SKIPPED_BEFORE \
                and not set(self.candidates(raw.lower())) & set(now):
            return 1
        skipped = self._skipped_phrase(words, i, now)
        if skipped:
            return skipped
        phrase = self._phrase(words, i, now)
        if phrase is not None:
            length, type_, value = phrase
            yield self._token(type_, value, words[i], words[i + length - 1])
            return length
        inserted, consumed = self._inserted(words, i, now)
        if inserted or consumed:
            for n, word in enumerate(inserted):  # each typed where the parser stands after the one before
                following = (words[i + 1:i + 3] if consumed else words[i:i + 2]) if n == len(inserted) - 1 \
                    else [("word", inserted[n + 1])]
                type_, value = MARK_READINGS.get(word) or self._type(
                    word, accepts(), following[0][1] if following else "",
                    following[1][1] if len(following) > 1 else "")
                yield self._token(type_, value, words[i], words[i])
            return consumed
        respelt = self._respelt(words, i, now)
        if respelt is not None:
            kind, raw = "word", respelt
        # The words after it on the line, as far as any reading looks ahead (a clause's "instead").
        type_, value = self.type_of(kind, raw, now, words[i + 1:i + 1 + READ_AHEAD])
        yield self._token(type_, value, words[i], words[i])
        return 1

    @staticmethod
    def _token(type_: str, value: str, first: LexWord, last: LexWord) -> Token:
        """A token of ``type_`` that spans the words ``first`` to ``last`` (the same word, or a phrase)."""
        _kind, _raw, pos, line, column = first
        _kind, raw, end_pos, end_line, end_column = last
        end_line += raw.count("\n")
        end_column = end_column + len(raw) if "\n" not in raw else len(raw) - raw.rfind("\n")
        return Token(type_, value, pos, line, column, end_line, end_column, end_pos + len(raw))

    def _accepted(self, word: str, accepts: Any) -> bool:
        """Whether the parser can take ``word`` as one of its keywords here."""
        return any(n in accepts for n in self.candidates(word) if n not in _GENERIC)

    def _phrase(self, words: Sequence[tuple[str, str, int, int, int]], i: int,
                accepts: Any) -> tuple[int, str, str] | None:
        """(length, terminal, canonical word) of a printed phrase of ``PHRASES`` at ``i``, where the parser can take
        its canonical word and not the phrase's own first word; or None."""
        first = words[i][1].lower()
        if self._accepted(first, accepts):
            return None
        for phrase, canonical in PHRASES.items():
            if phrase[0] != first or tuple(w[1].lower() for w in words[i:i + len(phrase)]) != phrase:
                continue
            after = words[i + len(phrase):i + len(phrase) + 2]
            type_, value = self._type(canonical, accepts, after[0][1] if after else "",
                                      after[1][1] if len(after) > 1 else "")
            if type_ in accepts:
                return len(phrase), type_, value
        return None

    def _skipped_phrase(self, words: Sequence[tuple[str, str, int, int, int]], i: int, accepts: Any) -> int:
        """How many words at ``i`` are left out as saying nothing there (0: none), where the parser cannot take the
        first: "this way" after "returned" (the step before is the only way), and "up to" before an amount taken
        from a purse ("steal up to 2 doubloons", "lose up to 3 doubloons": a payment or loss takes what there is,
        R2, so "up to 2" is the 2 it already is)."""
        word = words[i][1].lower()
        before = words[i - 1][1].lower() if i else ""
        if word == "of" and [w[1].lower() for w in words[i + 1:i + 3]] == ["your", "choice"] \
                and (before in ("loot", "token", "tokens") or self._loot_follows(["a", before])) \
                and own_loot_pick(words, i):
            return 3  # "take a loot token of your choice from today's loot": you pick it, as "a" says
        after = [w[1].lower() for w in words[i + 1:i + 4]]
        if word == "choose" and after[:1] == ["to"] and len(after) > 1 and after[1] in ACTION_VERBS:
            return 2  # "you may choose to lose 2 doubloons": "you may lose 2 doubloons"
        if self._accepted(word, accepts):
            return 0
        if word == "this" and after[:1] == ["way"] and before in PAST_WORDS:
            return 2
        if word == "either" and after[:1] and after[0] in ACTION_VERBS:
            return 1  # "Either gain 3 doubloons or lose 1 reputation": the "or" makes the choice
        if word == "," and before == "then":
            return 1  # "Gain 1 doubloon. Then, gain 1 reputation."
        if word == "must" and after[:1] and (after[0] in ACTION_VERBS or after[0] in SAID_BY_PLAYERS):
            return 1  # "each other player must discard a character": every ability must be done as far as it can (R1)
        if word in ("a", "an") and before == "or" and self._loot_follows([word, *after[:1]]):
            return 1  # "a saber or a hook": "a saber or hook"
        if word == "still" and after[:1] and after[0] in ("on", "in"):
            return 1  # "if this card is still on the island": where it is now
        if word == "set" and after[:1] == ["of"] and len(after) > 1 and (after[1].isdigit() or after[1] in
                                                                         NUMBER_WORDS) and before in ("each", "every"):
            return 2  # "for each set of 2 maps you hold": "for every 2 maps …" (whole groups)
        if word == "up" and after[:1] == ["to"] and len(after) == 3 and (after[1].isdigit() or after[1] in
                                                                        NUMBER_WORDS) and after[2] in UNITS:
            payer = words[i - 2][1].lower() if i > 1 else ""
            if before in TAKING or (before == "you" and payer in PAYING):
                return 2
        return 0

    def _inserted(self, words: Sequence[tuple[str, str, int, int, int]], i: int,
                  accepts: Any) -> tuple[tuple[str, ...], int]:
        """Words read at ``i`` where the word there cannot stand as written, and how many of the line's words they
        stand for (0: they come before the word, which is then read as usual):

        * "A or B", two actions: "A, or B" (a choice), where the "or" cannot join what is before it and no "if" or
          "unless" follows in the sentence (", or B if C" is the replacement, which a missing comma leaves open);
          inside "choose one: …" the choices are parted by ";": "choose one: A, or B" and "… A or B" are "A; or B";
        * "if you have an amulet, a barrel and a chest": each loot named after "you have" (or "hold") is a condition
          of its own, "… and you hold a barrel and you hold a chest" ("," "and" or "or" before "a", "an", "no" or a
          number and a kind of loot, where a condition ends); "if you have a chest or a map" is "… or you hold a
          map".
        """
        word = words[i][1].lower()
        following = [w[1].lower() for w in words[i + 1:i + 1 + READ_AHEAD]]
        choice = in_choice(words, i)
        amount = amount_follows(following) and not if_follows(following)
        verb = amount_verb(words, i) if amount else ""
        if word == "or" and not self._accepted("or", accepts) and following and not if_follows(following) \
                and (following[0] in ACTION_VERBS or verb):
            mark = ";" if choice and "SEMICOLON" in accepts else "," if not choice and "_COMMA_OR" in accepts else ""
            if mark and verb:
                return (mark, "or", verb), 1  # "gain 3 doubloons or 1 reputation": "…, or gain 1 reputation"
            if mark:
                return (mark,), 0
        if word == "or" and verb and self._accepted("or", accepts) and i and words[i - 1][1] in (",", ";"):
            return ("or", verb), 1  # "gain 3 doubloons, or 1 reputation"
        if word == "," and choice and following[:1] == ["or"] and "SEMICOLON" in accepts \
                and len(following) > 1 and (following[1] in ACTION_VERBS or amount_verb(words, i)):
            return (";",), 1
        if word in (",", "and", "or") and "OR_IF" in accepts and after_you_hold(words, i):
            if word == "," and following[:1] in (["and"], ["or"]) and self._loot_follows(following[1:]):
                return (), 1  # a serial comma: "a chest, a map, and a relic"
            joiner = self._loot_list(following, word)
            if joiner is not None:
                return (joiner, "you", "hold"), 1
        return (), 0

    def _loot_list(self, following: Sequence[str], word: str) -> str | None:
        """How the rest of a list of loot after "you have" joins its items ("and" or "or", its last word), when
        ``following`` goes on with one; None when it does not, or when it joins with both (which of the two binds
        first, the list leaves open) or with none ("you have a chest, a map, …")."""
        joiners = {word} - {","}
        j = 0
        while self._loot_follows(following[j:]):
            j += 2 + (following[j + 2:j + 3] in (["token"], ["tokens"]))
            if following[j:j + 1] == [","]:
                j += 1
            if following[j:j + 1] in (["and"], ["or"]):
                joiners.add(following[j])
                j += 1
            elif following[j - 1:j] != [","]:
                break
        if j == 0 or len(joiners) != 1:
            return None
        return joiners.pop()

    def _respelt(self, words: Sequence[tuple[str, str, int, int, int]], i: int, accepts: Any) -> str | None:
        """The canonical word a printed one at ``i`` is read as here, or None (it is read as written):

        * "steal" is "take" ("steal a loot token from the player on your right"; "steal 2 doubloons from …" was
          already "take 2 doubloons from …", the same tree);
        * a verb in the singular where only the plural stands ("choose an opponent. That player loses 2
          doubloons": "they lose"), of ``SINGULAR_VERBS``, and the other way ("each player must discard");
        * "has" before loot is "holds" ("each other player who has a relic": "who holds a relic"), as "have" is
          "hold" where you are the subject.
        """
        word = words[i][1].lower() if words[i][0] in ("word", "name", "number") else ""
        following = [w[1].lower() for w in words[i + 1:i + 6]]
        if word == "steal" and self._accepted("take", accepts):
            return "take"
        if word in SINGULAR_VERBS and not self._accepted(word, accepts) \
                and self._accepted(SINGULAR_VERBS[word], accepts):
            return SINGULAR_VERBS[word]
        if word in PLURAL_VERBS and not self._accepted(word, accepts) and self._accepted(PLURAL_VERBS[word], accepts):
            return PLURAL_VERBS[word]  # "each other player must discard": "discards"
        if word == "has" and self._accepted("holds", accepts) and self._loot_follows(after_quantity(following)):
            return "holds"
        if word in HOLDING and not self._accepted(word, accepts) and self._accepted(HOLDING[word], accepts):
            return HOLDING[word]  # "for each relic they have", "each relic you own": "they hold", "you hold"
        if word in KIND_WORDS and not self._accepted(word, accepts) and self._accepted(KIND_WORDS[word], accepts):
            return KIND_WORDS[word]  # "each different type of loot": "kind"
        if word == "any" and not self._accepted(word, accepts) and self._accepted("a", accepts) and following \
                and (following[0] in ("character", "card") or self._loot_follows(["a", *following[:1]])):
            return "a"  # "take any loot token from today's loot", "discard any character": the one you pick
        if word in ("one", "1") and following[:1] in (["character"], ["card"]) and self._accepted("a", accepts):
            return "a"  # "discard one character from your ship": a character
        return None

    def _loot_follows(self, following: Sequence[str]) -> bool:
        """Whether ``following`` starts with a quantity ("a", "an", "no", a number) and then a kind of loot."""
        if len(following) < 2 or not (following[0] in ("a", "an", "no") or following[0].isdigit()
                                      or following[0] in NUMBER_WORDS):
            return False
        noun = following[1]
        return noun == "loot" or (noun[:1].islower() and "'" not in noun and not any(
            n not in _GENERIC for n in self.candidates(noun)))

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
