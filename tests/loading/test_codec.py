"""The cache's JSON format: values come back as they were, and nothing but the named classes can come out."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest

from libertalia.loading.codec import Codec
from libertalia.syntax import ast


class _Point:
    __slots__ = ("x", "y")

    def __init__(self, x: Any, y: Any) -> None:
        raise AssertionError("a stored record is rebuilt without running __init__")


def _point(x: Any, y: Any) -> _Point:
    p = object.__new__(_Point)
    p.x, p.y = x, y
    return p


_CODEC = Codec([(_Point, ("x", "y")), (ast.Fixed, ast.Fixed.__node_names__)])


def test_every_kind_of_value_comes_back_equal_and_shared_where_it_was() -> None:
    """Scalars, containers, bytes, dates and records round-trip; an object held twice is one object again."""
    shared = [1, 2]
    when = datetime.datetime(2024, 5, 1, 12, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))
    value = {"a": (None, True, 3, -0.5, float("inf"), "\udc80 text"), 7: {1, 2}, (1, "k"): frozenset({"x"}),
             "b": b"\x00\xff", "d": datetime.date(2024, 5, 1), "t": when, "s": shared, "again": shared,
             "p": _point(shared, ast.Fixed(2, "doubloons", None))}
    back = _CODEC.loads(_CODEC.dumps(value))
    assert {k: v for k, v in back.items() if k != "p"} == {k: v for k, v in value.items() if k != "p"}
    assert back["s"] is back["again"] and back["p"].x is back["s"]
    assert back["p"].y == ast.Fixed(2, "doubloons", None) and type(back["p"]) is _Point


def test_values_it_cannot_give_back_are_refused_when_stored() -> None:
    """A class not named (a str subclass such as lark's Token too) cannot be stored: no entry would read as it was."""
    class Word(str):
        pass

    for value in (object(), Word("sun"), [ast.This()]):
        with pytest.raises(TypeError):
            _CODEC.dumps(value)


@pytest.mark.parametrize("text", [
    '[0, [["os.system", "echo"]]]',              # a tag that names no allowed class
    '[[0], [["_Point", 1]]]',                    # a record short of a field
    '[[0], [["l", [0]]]]',                       # an object that holds itself
    '[[1], [["l", [1]], ["l"]]]',                # a reference ahead
    '[[0], [["l", {"__reduce__": 1}]]]',         # a JSON object
    '[[0], [["d", 1]]]',                         # a key without a value
    '{"root": 1}',                               # not a stored value at all
    '[[0], [["b", "not base64!"]]]',
])
def test_anything_else_is_an_error_not_an_object(text: str) -> None:
    """Unknown tags, cycles, references ahead, JSON objects and odd shapes raise instead of making anything."""
    with pytest.raises((ValueError, TypeError, IndexError)):
        _CODEC.loads(text.encode())


def test_the_text_is_plain_json() -> None:
    """What is stored is JSON a person can read: the root, then the table of objects."""
    root, table = json.loads(_CODEC.dumps(("sun", 2)))
    assert root == [0] and table == [["t", "sun", 2]]
