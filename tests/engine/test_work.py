"""The working copy's own helpers (``engine.work``): what they build is what the public classes build."""

from __future__ import annotations

import attrs
import pytest

from libertalia.engine.options import new_option
from libertalia.engine.work import new_decision
from libertalia.state import Decision, Option


def test_new_decision_fills_every_field_of_decision() -> None:
    """new_decision writes Decision's slots by name: a field added to Decision must be added there too."""
    assert tuple(f.name for f in attrs.fields(Decision)) == ("player", "kind", "options", "prompt", "source")


@pytest.mark.parametrize("source", [None, "Cook"])
def test_new_decision_is_the_value_the_constructor_builds(source: str | None) -> None:
    """Equal, of the same class, hashing alike and as frozen as Decision(...) itself."""
    options = (Option("a", "A"), Option("b", "B"))
    built = new_decision(2, "choose_loot", options, "choose loot", source)
    expected = Decision(2, "choose_loot", options, "choose loot", source)
    assert type(built) is Decision
    assert built == expected and hash(built) == hash(expected) and repr(built) == repr(expected)
    assert built.keys() == ("a", "b")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.player = 0  # type: ignore[misc]


def test_new_option_is_the_value_the_constructor_builds() -> None:
    """new_option writes Option's two slots: equal, of the same class, hashing alike and frozen, as Option(...)."""
    assert tuple(f.name for f in attrs.fields(Option)) == ("key", "label")
    built, expected = new_option("Cook", "your Cook (5, ship)"), Option("Cook", "your Cook (5, ship)")
    assert type(built) is Option
    assert built == expected and hash(built) == hash(expected) and repr(built) == repr(expected)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.key = "Monkey"  # type: ignore[misc]
