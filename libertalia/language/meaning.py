"""Which words of card text carry its meaning, so that no "did you mean" trades one for another.

A suggestion may respell a word, supply a missing one or change the glue between words
("in" for "on", "each" for "any"), but a word that names something, says whose it is, what
happens or how much is never replaced by another word nor dropped: "graveyard" is not a
misspelling of "ship", nor "relic" (read as a loot kind) of "character", nor "leftmost" of
"rightmost".  Only its own forms stand for it ("doubloon" for "doubloons", "highest-ranked" for "highest").
A word the language does not know at all ("earn", "gold") has no meaning a fix could change,
so the nearest word that parses may stand for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..suggest import similarity

NAMED: Final = frozenset({"KIND", "NAME", "NOUN"})
"""The parser's open classes of words: a word read as one of them names a loot kind or a card."""

CONTENT_WORDS: Final = frozenset({
    # places and things
    "ship", "hand", "graveyard", "island", "bag", "loot", "doubloons", "doubloon", "reputation", "character",
    "characters", "card", "token", "tokens", "kind", "kinds", "space", "player", "opponent", "voyage",
    "ability", "set", "sets", "owner", "player's", "opponent's", "today's", "tomorrow's", "nightfall",
    # whose, and which one
    "you", "your", "they", "their", "it", "its", "this",
    # what happens
    "gain", "gains", "lose", "loses", "pays", "gives", "discard", "discards", "put", "play", "take", "took",
    "draw", "return", "returns", "give", "keep", "swap", "use", "count", "steal", "move", "score",
    # when, where and how much, each against its opposite
    "sun", "dusk", "moon", "anchor", "day", "night", "first", "last", "once", "next", "left", "right",
    "leftmost", "rightmost", "lowest-ranked", "highest-ranked", "highest", "lowest", "most", "fewest", "more",
    "fewer", "above", "below", "higher", "lower", "returned", "discarded", "moved", "taken", "random", "half",
    "extra", "other", "only", "no", "if", "unless", "adjacent",
})
"""Words of the grammar that carry meaning; every other keyword is glue (articles, prepositions, "and" …)."""


def lemma(word: str) -> str:
    """The word without its plural, possessive or third-person ending: "doubloons", "gains", "player's"."""
    w = word.lower().removesuffix("'s").removesuffix("'")
    return w[:-1] if w.endswith("s") and not w.endswith("ss") and len(w) > 3 else w


def same_word(old: str, new: str) -> bool:
    """Whether two words are forms of one: "doubloon" and "doubloons", "highest" and "highest-ranked"."""
    a, b = lemma(old), lemma(new)
    return a == b or b.startswith(a + "-") or a.startswith(b + "-")


def carries_meaning(word: str, read_as: str | None = None) -> bool:
    """Whether ``word`` (read by the parser as the terminal ``read_as``, if it was read) carries meaning."""
    return read_as in NAMED or word.isdigit() or word.lower() in CONTENT_WORDS


PIECES: Final = frozenset({"character", "characters", "card", "loot", "token", "tokens"})
"""The words for the pieces themselves: only their own forms and close misspellings are read as one of them."""
MISSPELT: Final = 0.8
"""How alike (``suggest.similarity``) an unknown word must be to a piece to be its misspelling: "charcter" is
(0.94), "crate" is not (0.71)."""


def may_replace(old: str, new: str, read_as: str | None = None) -> bool:
    """Whether a suggestion may put ``new`` where ``old`` stands: glue or an unknown word, or a form of the same word.

    A piece (``PIECES``) stands only for its own forms and close misspellings ("charcter"): any
    other lower-case word the language does not know, where a piece could be, is most likely a
    loot kind of the rules ("put a crate …"), and "character" in its place would say something else.
    """
    if same_word(old, new):
        return True
    if carries_meaning(old, read_as):
        return False
    return new.lower() not in PIECES or similarity(old, new) >= MISSPELT


def may_delete(words: Sequence[str], at: int, read_as: str | None = None) -> bool:
    """Whether a suggestion may drop ``words[at]``: glue or an unknown word, or a word said twice in a row."""
    word = words[at]
    doubled = (at > 0 and words[at - 1] == word) or (at + 1 < len(words) and words[at + 1] == word)
    return doubled or not carries_meaning(word, read_as)
