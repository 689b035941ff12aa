"""Which loot kinds a phrase names: the one place where "any loot" is spelt.

A phrase names either some kinds (``saber or hook``) or every kind (``loot``).  Every kind is
the empty set, ``ANY_KIND``, and only ``of_kind`` and ``every_kind`` below read a set of kinds: a
test written anywhere else could take the empty set for "no kind" (issue 32: "you just took a
loot" never held), and ``tests/language/test_meaning_loot.py`` fails if one is written elsewhere.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Final

ANY_KIND: Final[frozenset[str]] = frozenset()
"""The kinds of ``loot`` (any kind): the empty set, so that it needs no list of the rules' kinds."""


def names_kinds(words: Iterable[str], every: frozenset[str] = ANY_KIND) -> frozenset[str]:
    """The kinds a phrase's words name: ``ANY_KIND`` for ``loot`` (no kind written), and for a list of
    every kind of the rules (``every``), which says the same in English and so is spelt the same."""
    named = frozenset(words)
    return ANY_KIND if not named or (every and named >= every) else named


def of_kind(kind: str, kinds: frozenset[str]) -> bool:
    """Whether a token of ``kind`` is one that ``kinds`` names (``ANY_KIND`` names every token)."""
    return not kinds or kind in kinds


def every_kind(kinds: frozenset[str]) -> bool:
    """Whether ``kinds`` names every kind: a filter by it keeps every token, so callers may skip it."""
    return not kinds


def count_of(loot: Collection[str], kinds: frozenset[str]) -> int:
    """How many of the tokens ``loot`` are of ``kinds``."""
    return len(loot) if every_kind(kinds) else sum(1 for k in loot if of_kind(k, kinds))
