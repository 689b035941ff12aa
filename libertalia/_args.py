"""Checks of the arguments that reach the public API, with messages that name the argument.

A value of the wrong type is a ``TypeError`` saying which argument and what type it takes; a
value of the right type that the call cannot take (a seat the game does not have) is an
``ArgumentError``.  Nothing is coerced: ``"0"``, ``1.0`` and ``True`` are not seat 0 or 1.
"""

from __future__ import annotations

import reprlib
from typing import Any

from .errors import ArgumentError

_repr = reprlib.Repr()
_repr.maxstring = 60
_repr.maxother = 60


def shown(value: object) -> str:
    """A short repr and the type, for messages: ``'0' (str)``."""
    return f"{_repr.repr(value)} ({type(value).__name__})"


def wrong_type(where: str, name: str, expected: str, value: object) -> TypeError:
    return TypeError(f"{where}: {name} must be {expected}, not {shown(value)}")


def whole(value: object, where: str, name: str) -> int:
    """An ``int`` (``True`` is one to Python, never a number here; an ``IntEnum`` is)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise wrong_type(where, name, "a whole number (int)", value)
    return int(value)  # an int subclass (an IntEnum) becomes a plain int


def seat(value: object, seats: int, where: str, name: str = "seat") -> int:
    """A seat of a game with ``seats`` seats: a whole number from 0 to ``seats - 1``."""
    n = whole(value, where, name)
    if not 0 <= n < seats:
        raise ArgumentError(f"{where}: {name} {n} is not a seat of this game; its seats are 0 to {seats - 1}")
    return n


def flag(value: object, where: str, name: str) -> bool:
    if not isinstance(value, bool):
        raise wrong_type(where, name, "True or False", value)
    return value


def instance(value: Any, cls: type[Any], where: str, name: str, expected: str) -> Any:
    if not isinstance(value, cls):
        raise wrong_type(where, name, expected, value)
    return value
