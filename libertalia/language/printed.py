"""Printed wordings (issue 34.1) that the grammar reads but only a whole ability can settle.

The grammar builds most printed wordings straight into their canonical trees.  Two need what a
phrase cannot see, and leave a mark the tree builder resolves here, once the ability is whole:

* ``the last character on the island`` and ``the first …`` need the timing.  By day the row and
  the order of play agree (left to right), so the last is the rightmost and the first the
  leftmost.  At dusk the order of play runs right to left, so "the last" is both the rightmost
  (in the row) and the leftmost (the last to resolve): the wording is refused, naming both.
* ``a character adjacent to this one`` needs its step.  The language names a neighbour as ``the
  character left of this`` or ``… right of this``, so "a character adjacent to this one" is the
  choice between the two (an arm that could change nothing is not offered, so with one
  neighbour it is that one), and "every character adjacent to this one" is both.  The choice is
  a step of its own (``choose one``), so the action must be its step's only one; anywhere else
  (a count, a condition, ``the owner of …``) there is no canonical form and it is refused.

A refusal is raised as :class:`Unreadable`, which the tree builder reports at the ability.
"""

from __future__ import annotations

from typing import Any

from ..syntax import ast
from ..syntax.nodes import fields, is_node
from .normalise import map_nodes


class Unreadable(Exception):
    """A printed wording with no one canonical reading in its ability: what is wrong, and what to write."""

    def __init__(self, message: str, expected: str) -> None:
        super().__init__(message)
        self.message, self.expected = message, expected


ADJACENT = ast.Zone("next to", "adjacent", "", "")
"""The filter "adjacent to this one" leaves in a character phrase, until ``resolve`` rewrites its step."""

_BY_DAY = {"last": "rightmost", "first": "leftmost"}
_AT_DUSK_TOO = {"last": "leftmost", "first": "rightmost"}  # the order of play at dusk, right to left


def resolve(ability: ast.Ability) -> ast.Ability:
    """``ability`` with its ordinal positions and adjacent characters in canonical words."""
    steps = tuple(map_nodes(ability.steps, lambda node: _ordinal(node, ability.timing)))
    if _mentions(steps, ADJACENT):
        steps = tuple(s for step in steps for s in _adjacent_step(step, ability.timing))
    return ast.Ability(ability.timing, ability.modifiers, steps, line=ability.line, column=ability.column)


def _ordinal(node: Any, timing: str) -> Any:
    if not isinstance(node, ast.Positional | ast.IsPositioned) or node.position not in _BY_DAY:
        return node
    word = node.position
    zone = node.np.zone
    if zone is not None and zone.place != "island":
        raise Unreadable(f'"the {word} character" needs a row, and only the island has one',
                         f'"the {word} character on the island", or "the lowest-ranked …" / "the highest-ranked …"')
    if timing == "dusk":
        raise Unreadable(f'"the {word} character on the island" reads two ways at dusk: the {_BY_DAY[word]} one (the '
                         f'{word} in the row), or the {_AT_DUSK_TOO[word]} one (the {word} to resolve, since dusk '
                         'runs right to left)',
                         f'"the {_BY_DAY[word]} …" or "the {_AT_DUSK_TOO[word]} …"')
    position = _BY_DAY[word]
    if isinstance(node, ast.Positional):
        return ast.Positional(position, node.np)
    return ast.IsPositioned(node.ref, position, node.np, verb=node.verb)


def _mentions(value: Any, target: Any) -> bool:
    if value is target:
        return True
    if isinstance(value, tuple):
        return any(_mentions(v, target) for v in value)
    return is_node(value) and any(_mentions(getattr(value, f.name), target) for f in fields(value))


_WHERE = ('"a character adjacent to this one" as what one action acts on, its step\'s only action: "discard a '
          'character adjacent to this one", or "… the character left of this" / "… right of this"')


def _adjacent_step(step: ast.Step, timing: str) -> tuple[ast.Step, ...]:
    """The step with "adjacent to this one" said with "left of this" and "right of this"."""
    if not _mentions(step, ADJACENT):
        return (step,)
    if timing == "dusk":
        raise Unreadable('at dusk the characters right of this one have left the island, so "adjacent to this one" '
                         'names one neighbour only', '"the character left of this"')
    if _mentions((step.condition, tuple(c for c, _ in step.elifs)), ADJACENT):
        raise Unreadable('"adjacent to this one" is said of what an action acts on, not in a condition', _WHERE)
    if step.form == "plain" and len(step.actions) == 1 and isinstance(_target(step.actions[0]), ast.ChooseChar):
        left, right = _sides(step.actions[0])
        return (ast.Step("choose_one", (left,), None, None, choices=((right,),), line=step.line, column=step.column),)
    groups = {"actions": step.actions, "otherwise": step.otherwise}
    changes = {name: _both_sides(group) for name, group in groups.items() if group is not None}
    choices = tuple(_both_sides(c) for c in step.choices)
    elifs = tuple((c, _both_sides(a)) for c, a in step.elifs)
    return (ast.Step(step.form, changes["actions"], step.condition, changes.get("otherwise"), choices=choices,
                     elifs=elifs, line=step.line, column=step.column),)


def _target(action: Any) -> Any:
    """The character selector ``action`` acts on, when it names characters adjacent to this one."""
    for f in fields(action):
        value = getattr(action, f.name)
        if isinstance(value, ast.ChooseChar | ast.EveryChar) and ADJACENT in value.np.filters:
            return value
    return None


def _both_sides(actions: tuple[Any, ...]) -> tuple[Any, ...]:
    """Each action on "every character adjacent to this one" twice, on the left and the right neighbour."""
    out: list[Any] = []
    for action in actions:
        target = _target(action)
        if not _mentions(action, ADJACENT):
            out.append(action)
        elif target is None:
            raise Unreadable('"adjacent to this one" is said of the characters an action acts on, not in a count or '
                             'of an owner', _WHERE)
        elif isinstance(target, ast.EveryChar):
            out.extend(_sides(action))
        else:
            raise Unreadable('"a character adjacent to this one" is a choice between two neighbours, a step of its '
                             'own: it cannot stand beside other actions or in a branch', _WHERE)
    return tuple(out)


def _sides(action: Any) -> tuple[Any, Any]:
    """``action`` on the character left of this, and on the one right of it."""
    selector = _target(action)
    np = selector.np
    rest = [f for f in np.filters if f is not ADJACENT]
    if np.noun != "character" or _mentions(rest, ADJACENT) or any(
            not (isinstance(f, ast.Zone) and f.place == "island") for f in rest):
        raise Unreadable('a character adjacent to this one is named as "the character left of this" or "… right of '
                         'this", with no name or filter of its own', _WHERE)
    name = next(f.name for f in fields(action) if getattr(action, f.name) is selector)
    return tuple(_with(action, name, ast.Beside(side)) for side in ("left", "right"))


def _with(node: Any, name: str, value: Any) -> Any:
    return type(node)(**{f.name: value if f.name == name else getattr(node, f.name) for f in fields(node)})
