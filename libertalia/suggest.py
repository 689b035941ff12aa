"""Did-you-mean suggestions for misspelt names, keys and words.

Pure functions over strings, shared by the checker and the loaders: a word
that is not known gets the nearest known ones, compared case-insensitively
and ignoring spaces, hyphens and underscores, so that ``Wind Nimph`` finds
``Wind Nymph``, ``windnymph`` finds ``Wind Nymph`` and ``charcter`` finds
``character``.
"""

from __future__ import annotations

from collections.abc import Iterable

CUTOFF = 0.6
"""The least similarity (0 to 1, as :mod:`difflib` measures it) worth suggesting."""


def _key(word: str) -> str:
    """The form words are compared in: case-folded, without spaces, hyphens or underscores."""
    return "".join(ch for ch in word.casefold() if ch not in " \t-_")


def _score(word: str, choice: str) -> float:
    """How alike two comparison keys are, from 0 to 1.

    Equal keys score 1.  A key that begins with the other (``sunrise`` and
    ``sun``) scores at least the cutoff when the shorter one has three or more
    letters, so that a longer spelling of a known word is still offered.
    """
    if word == choice:
        return 1.0
    from difflib import SequenceMatcher  # imported here: only a misspelling needs it

    ratio = SequenceMatcher(None, word, choice, autojunk=False).ratio()
    short, long = sorted((word, choice), key=len)
    if len(short) >= 3 and long.startswith(short):
        ratio = max(ratio, CUTOFF)
    return ratio


def similarity(word: str, choice: str) -> float:
    """How alike two words are, from 0 to 1, compared as ``closest`` compares them (case and spacing aside)."""
    return _score(_key(word), _key(choice))


def closest(word: str, choices: Iterable[str], n: int = 3, cutoff: float = CUTOFF) -> list[str]:
    """Up to ``n`` of ``choices`` nearest to ``word``, best first (ties alphabetical).

    The word itself is never offered, only other spellings; a choice that
    differs only in case or spacing ranks first.
    """
    key = _key(word)
    if not key or n <= 0:
        return []
    scored = []
    for choice in set(choices):
        if choice == word:
            continue
        score = _score(key, _key(choice))
        if score >= cutoff:
            scored.append((-score, choice))
    return [choice for _, choice in sorted(scored)[:n]]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A message suffix such as `` (did you mean "Wind Nymph"?)``, or ``""`` when nothing is close."""
    best = closest(word, choices, n=1)
    return f' (did you mean "{best[0]}"?)' if best else ""


def lookup(word: str, choices: Iterable[str]) -> str | None:
    """The one of ``choices`` that is ``word`` spelt differently only in case or spacing, else ``None``.

    ``wind nymph`` and ``windnymph`` find ``Wind Nymph``; an exact match wins, and a word
    that two choices share (``a-b`` against ``A B`` and ``AB``) finds none.
    """
    choices = list(choices)
    if word in choices:
        return word
    key = _key(word)
    same = {choice for choice in choices if _key(choice) == key}
    return same.pop() if key and len(same) == 1 else None
