"""Questions about ability trees that the loader, the checker's helpers and the text generator share."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..syntax import ast


def actions_of(abilities: Iterable[ast.Ability]) -> Iterator[ast.Action]:
    """Every action of the abilities, in every branch (``otherwise``, ``choose one``, each ``if``)."""
    for ability in abilities:
        for step in ability.steps:
            yield from step.actions
            yield from step.otherwise or ()
            for choice in step.choices:
                yield from choice
            for _, acts in step.elifs:
                yield from acts


def kinds_scored_in_sets(abilities: Iterable[ast.Ability]) -> set[str]:
    """The loot kinds some ability scores ``in sets`` (what ``count N extra KIND`` can add to)."""
    return {a.amount.kind for a in actions_of(abilities)
            if isinstance(a, ast.Change | ast.PaysYou) and isinstance(a.amount, ast.InSets)}


def extra_counts(abilities: Iterable[ast.Ability]) -> Iterator[ast.CountExtra]:
    return (a for a in actions_of(abilities) if isinstance(a, ast.CountExtra))
