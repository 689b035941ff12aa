"""Syntax tree nodes: frozen records with the behaviour the parser, checker, compiler and cache rely on."""

from __future__ import annotations

import copy
import pickle
from functools import singledispatch

import pytest

import libertalia as lt
from libertalia.syntax import ast
from libertalia.syntax.nodes import FrozenNodeError, Node, field
from tests.helpers import galecrest


def _np(**positions: int) -> ast.CharNP:
    return ast.CharNP(False, "character", (ast.Zone("in", "island"),), **positions)


def test_positional_keyword_and_default_arguments() -> None:
    """Fields take positional or keyword arguments, missing ones their defaults; kw_only fields only keywords."""
    zone = ast.Zone("in", place="your", pile="ship")
    assert (zone.prep, zone.place, zone.pile, zone.wording) == ("in", "your", "ship", "")
    draw = ast.Draw(2, line=3, column=7)
    assert (draw.n, draw.per, draw.line, draw.column) == (2, None, 3, 7)
    assert ast.This() == ast.This()


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((1, None, 3), {}, "takes 2 positional arguments but 3 were given"),
    ((), {}, "missing required argument 'n'"),
    ((1,), {"n": 2}, "multiple values for argument 'n'"),
    ((1,), {"colour": 2}, "unexpected keyword argument 'colour'"),
])
def test_bad_arguments_are_a_type_error(args: tuple[object, ...], kwargs: dict[str, object], message: str) -> None:
    """Too many, missing, repeated or unknown arguments raise TypeError naming the problem, as a signature would."""
    with pytest.raises(TypeError, match=message):
        ast.Draw(*args, **kwargs)


def test_equality_and_hash_ignore_positions() -> None:
    """Nodes equal by their eq fields: positions (eq=False) differ without breaking == or hash."""
    a, b = _np(line=1, column=2), _np(line=9, column=9)
    assert a == b and hash(a) == hash(b)
    assert a != ast.CharNP(True, "character", (ast.Zone("in", "island"),))
    assert len({a, b, ast.This(), ast.It()}) == 3


def test_a_node_equals_only_its_own_class() -> None:
    """Two classes with equal field values are not equal (This() is not It())."""
    assert ast.This() != ast.It()
    assert ast.RankedAbove(3) != ast.RankedBelow(3)
    assert ast.RankedAbove(3) != (3,)


def test_nodes_are_immutable() -> None:
    """Setting or deleting a field raises (an AttributeError), so cached trees can be shared."""
    node = ast.UpTo(3)
    with pytest.raises(FrozenNodeError):
        node.n = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del node.n  # type: ignore[misc]
    with pytest.raises(AttributeError):
        node.other = 1  # type: ignore[attr-defined]
    assert not hasattr(node, "__dict__")


def test_repr_shows_the_repr_fields() -> None:
    """repr reads as a constructor call, without the repr=False positions (as attrs showed it)."""
    assert repr(_np(line=4, column=5)) == (
        "CharNP(other=False, noun='character', filters=(Zone(prep='in', place='island', pile='', wording=''),), "
        "plural=False)")
    assert repr(ast.Half()) == "Half()"


def test_pickle_and_copy_keep_every_field() -> None:
    """Pickling (the tree cache) and copying keep positions too, though == ignores them."""
    rules = galecrest()
    abilities = tuple(a for c in rules.characters for a in c.abilities)
    for again in (pickle.loads(pickle.dumps(abilities, protocol=pickle.HIGHEST_PROTOCOL)), copy.deepcopy(abilities)):
        assert again == abilities
        assert [(a.line, a.column, [(s.line, s.column) for s in a.steps]) for a in again] == \
            [(a.line, a.column, [(s.line, s.column) for s in a.steps]) for a in abilities]


def test_fields_lists_the_declared_fields() -> None:
    """ast.fields gives each field's name and options in declaration order (``cards show`` walks it)."""
    names = [(f.name, f.eq, f.repr, f.kw_only) for f in ast.fields(ast.Draw)]
    assert names == [("n", True, True, False), ("per", True, True, False), ("line", False, False, True),
                     ("column", False, False, True)]
    assert ast.fields(ast.Draw(1)) == ast.fields(ast.Draw)
    assert ast.is_node(ast.Half()) and not ast.is_node((ast.Half(),)) and not ast.is_node("Half")


def test_singledispatch_and_match_by_class() -> None:
    """Dispatch and pattern matching see the node classes (render and compile dispatch on them)."""
    @singledispatch
    def kind(node: object) -> str:
        return "other"

    @kind.register(ast.Fixed)
    def _(node: ast.Fixed) -> str:
        return f"fixed {node.n}"

    assert kind(ast.Fixed(3, "doubloons")) == "fixed 3" and kind(ast.Half()) == "other"
    match ast.Fixed(3, "doubloons"):
        case ast.Fixed(n, unit):
            assert (n, unit) == (3, "doubloons")
        case _:  # pragma: no cover
            pytest.fail("no match")


def test_a_default_before_a_required_field_is_refused() -> None:
    """A class whose required positional field follows a defaulted one is an error when it is defined."""
    with pytest.raises(TypeError, match="'b' without a default follows 'a'"):
        class Bad(Node):
            a: int = 0
            b: int

    class Fine(Node):
        a: int = 0
        b: int = field(default=1, kw_only=True)

    assert Fine(b=2) == Fine(0, b=2)


def test_parsed_trees_are_shared_safely() -> None:
    """The same text parses to equal trees, in a process and across the render round trip."""
    text = "dusk: gain 2 doubloons if you hold a map."
    assert lt.parse(text) == lt.parse(lt.render(lt.parse(text)))


def test_constants_and_class_vars_stay_class_attributes() -> None:
    """A constant in capitals or a ``ClassVar`` is no field, annotated or not (mypyc annotates every assignment)."""
    from typing import ClassVar

    class Limited(Node):
        n: int
        LIMIT: int = 3
        kinds: ClassVar[tuple[str, ...]] = ("a",)
        label: str = "x"

    assert Limited.__node_names__ == ("n", "label")
    assert Limited.LIMIT == 3 and Limited.kinds == ("a",)
    step = Limited(1)
    assert step.LIMIT == 3 and repr(step).endswith("Limited(n=1, label='x')")
