"""Variant wordings only the loaded rules can settle, rewritten to their canonical trees.

The grammar reads most variants itself (``grammar/libertalia.lark`` lists them), but a loot
kind is an open word: whether "relics" is the plural of the kind ``relic`` depends on the
board's kinds, so the parser keeps the word as written and the loader calls
``singular_kinds`` with the rules' kinds before checking.  A word that is a kind stays
itself; one that is a kind's plural (``maps``, ``boxes``, ``rubies``) becomes that kind;
anything else is left for the checker to refuse with a did-you-mean.  A comparison between
players counts tokens and keeps its plurals as written ("you hold more relics than …",
checked by ``checker``): they are its canonical words.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from ..syntax import ast
from ..syntax.nodes import fields, is_node

_T = TypeVar("_T")


def singular_kinds(abilities: tuple[ast.Ability, ...], kinds: Iterable[str]) -> tuple[ast.Ability, ...]:
    """``abilities`` with every plural loot kind written as its kind ("3 or more maps": ``map``)."""
    known = frozenset(kinds)

    def fix(node: Any) -> Any:
        if isinstance(node, ast.LootHeld):  # a comparison writes its kinds as plurals ("more relics than …")
            return node
        changes: dict[str, Any] = {}
        for f in fields(node):
            value = getattr(node, f.name)
            if f.name == "kind" and isinstance(value, str):
                singular = _singular(value, known)
                if singular != value:
                    changes[f.name] = singular
            elif f.name in ("kinds", "noun") and isinstance(value, tuple) and all(isinstance(v, str) for v in value):
                singular_all = tuple(_singular(v, known) for v in value)
                if singular_all != value:
                    changes[f.name] = singular_all
        return _evolve(node, changes) if changes else node

    return tuple(map_nodes(a, fix) for a in abilities)


def _singular(word: str, kinds: frozenset[str]) -> str:
    if word in kinds:
        return word
    candidates = {stem for stem in (word[:-1] if word.endswith("s") else "",
                                    word[:-2] if word.endswith("es") else "",
                                    word[:-3] + "y" if word.endswith("ies") else "") if stem in kinds}
    return candidates.pop() if len(candidates) == 1 else word


def map_nodes(value: _T, fn: Callable[[Any], Any]) -> _T:
    """``value`` rebuilt bottom-up with ``fn`` applied to every node (an unchanged subtree is kept as it is)."""
    if is_node(value):
        changes = {}
        for f in fields(value):  # type: ignore[arg-type]  # is_node: a Node
            old = getattr(value, f.name)
            new = map_nodes(old, fn)
            if new is not old:
                changes[f.name] = new
        node = _evolve(value, changes) if changes else value
        result: _T = fn(node)
        return result
    if isinstance(value, tuple):
        items = tuple(map_nodes(v, fn) for v in value)
        if any(a is not b for a, b in zip(items, value, strict=True)):
            return items  # type: ignore[return-value]
    return value


def _evolve(node: Any, changes: dict[str, Any]) -> Any:
    return type(node)(**{f.name: changes.get(f.name, getattr(node, f.name)) for f in fields(node)})


_EVERY_TOKEN_FIRES = ("moon", "anchor")
"""The timings at which every token a player holds runs its ability (at dusk only the one taken does)."""


def once_for_own_kind(abilities: tuple[ast.Ability, ...], kind: str) -> tuple[ast.Ability, ...]:
    """A loot tile's night or anchor abilities that score the holder's tokens of the tile's own kind as a
    collection, in sets or by a table of how many are held, made ``once`` (E34): "each set of 2 maps is
    worth 6 doubloons" on the map tile is the rule for all of them, and run by each map it would pay for
    the same sets again and again."""
    return tuple(ast.Ability(a.timing, (*a.modifiers, "once"), a.steps, line=a.line, column=a.column)
                 if a.timing in _EVERY_TOKEN_FIRES and not a.once and _scores_kind(a, kind) else a
                 for a in abilities)


def _scores_kind(node: Any, kind: str) -> bool:
    if isinstance(node, tuple):
        return any(_scores_kind(n, kind) for n in node)
    if not is_node(node):
        return False
    if isinstance(node, ast.InSets):
        return node.kind == kind
    if isinstance(node, ast.ByTable):
        c = node.counter
        return isinstance(c, ast.CountLoot | ast.CountKinds) and (not c.kinds or kind in c.kinds)
    return any(_scores_kind(getattr(node, f.name), kind) for f in fields(node))


def own_token(abilities: tuple[ast.Ability, ...], kind: str) -> tuple[ast.Ability, ...]:
    """A loot tile's ``this token`` written as its own kind (``this relic`` on the relic tile, issue 34.2): the
    canonical words name the kind, and the checker and compiler read one kind either way."""

    def fix(node: Any) -> Any:
        if isinstance(node, ast.ThisToken) and not node.np.kinds:
            return ast.ThisToken(_evolve(node.np, {"kinds": (kind,)}))
        return node

    return tuple(map_nodes(a, fix) for a in abilities)


def worths(abilities: tuple[ast.Ability, ...], kind: str | None) -> tuple[ast.Ability, ...]:
    """Each worth said with "is worth" (issue 34.1) that has one reading on this card, as the gain it is.

    ``kind`` is a loot tile's kind, or None on a character.  At the voyage's end (anchor) only: "this is worth 3
    doubloons" pays 3 (on a tile "this" is its token, so the two agree); "this relic is worth 3 doubloons" on the
    relic tile and "each relic you hold is worth 3 doubloons" there are each token's own worth (the tile runs its
    anchor ability for each token held); "each map you hold is worth 2 more doubloons" on a character pays 2 for
    each map held.  Anything else is left for the checker, which refuses it with why.
    """
    return tuple(map_nodes(a, functools.partial(_settled_worth, kind=kind, ability=a)) for a in abilities)


def _settled_worth(node: Any, *, kind: str | None, ability: ast.Ability) -> Any:
    if not isinstance(node, ast.Worth) or ability.timing != "anchor":
        return node
    own = kind is not None and node.kinds in ((), (kind,)) and node.of != "this"
    if (node.of == "this" or own) and not node.more and not ability.once:
        return ast.Change("gain", node.amount, line=node.line, column=node.column)
    if node.of == "kind" and node.more and kind is None and node.kinds:
        amount = ast.Fixed(node.amount.n, node.amount.unit, ast.CountLoot(node.kinds))
        return ast.Change("gain", amount, line=node.line, column=node.column)
    return node
