"""The step classes of a card program are frozen records (``engine/program/record.py``) in both builds.

They behave as the ``Node`` classes they replaced: equal, hashed and shown by their fields, immutable,
picklable and walked by ``fields()``; compiled, they are native mypyc classes.
"""

from __future__ import annotations

import copy
import inspect
import pickle
import types

import pytest

from libertalia.engine.program import actions as act
from libertalia.engine.program import amounts, base, cards, conditions, control, loot, measures
from libertalia.engine.program.record import Record, declare, fields
from libertalia.syntax import nodes
from libertalia.syntax.nodes import NOTHING, FrozenNodeError
from tests.helpers import ENGINE_COMPILED

_MODULES = (act, amounts, base, cards, conditions, control, loot, measures)
STEP_CLASSES = sorted({c for m in _MODULES for c in vars(m).values()
                       if isinstance(c, type) and issubclass(c, Record) and c is not Record}, key=lambda c: c.__name__)


def _change() -> act.Change:
    target = cards.Choose(cards.Phrase("your", "hand", False, "", (cards.RankedAbove(3),)), "discard")
    return act.Change(True, False, amounts.Fixed(2, amounts.CountMarked(0)), amounts.OwnersOf(target, 1), 2)


def test_every_step_class_is_a_record() -> None:
    """All 91 record classes of the card programs (steps, phrases, Eligible) derive from Record, none from Node
    (88 with ReputationAt, 89 with loot.ThisToken, issue 34.2; 90 with RandomInHand, E41; 91 with ChosenPlayer, E42)."""
    assert len(STEP_CLASSES) == 91
    assert not [c for m in _MODULES for c in vars(m).values()
                if isinstance(c, type) and issubclass(c, nodes.Node)]


@pytest.mark.skipif(ENGINE_COMPILED, reason="a compiled __init__ shows no signature (the same source is checked pure)")
@pytest.mark.parametrize("cls", STEP_CLASSES, ids=lambda c: c.__name__)
def test_declared_fields_match_the_init_signature(cls: type[Record]) -> None:
    """Each class's declared fields are its __init__'s parameters, in order, with the same defaults."""
    signature = inspect.signature(cls.__init__) if "__init__" in vars(cls) else None
    params = [p for p in signature.parameters.values() if p.name != "self"] if signature else []
    assert [(p.name, p.default, p.kind) for p in params] == [
        (info.name, inspect.Parameter.empty if info.default is NOTHING else info.default,
         inspect.Parameter.POSITIONAL_OR_KEYWORD) for info in fields(cls)]
    assert cls.__node_names__ == cls.__match_args__ == tuple(i.name for i in fields(cls))


def test_equal_and_hashed_by_fields_a_class_equal_only_to_itself() -> None:
    """Steps are values: equal (and hashed alike) when their fields are; never equal to another class's."""
    assert _change() == _change() and hash(_change()) == hash(_change())
    assert _change() != act.Change(True, False, amounts.Fixed(2, amounts.CountMarked(0)))
    assert amounts.UpTo(3) != act.GainCoins(3) and amounts.UpTo(3) != 3
    assert hash(amounts.UpTo(3)) == hash(("UpTo", 3))  # the formula Node used
    assert len({amounts.You(), amounts.You(), measures.Doubloons()}) == 2


def test_repr_shows_every_field_by_name() -> None:
    """repr names the class and each field, as the Node classes did."""
    assert repr(act.GainCoins(-2)) == "GainCoins(n=-2, mark=-1)"
    assert repr(amounts.Fixed(1, amounts.CountHeld(frozenset({"map"})))) == \
        "Fixed(n=1, per=CountHeld(kinds=frozenset({'map'})), every=1, cap=None)"
    assert repr(amounts.Half()) == "Half()"


def test_steps_are_immutable() -> None:
    """A step cannot be changed: setting, adding or deleting an attribute raises FrozenNodeError."""
    step = act.GainCoins(2)
    for change in (lambda: setattr(step, "n", 5), lambda: setattr(step, "extra", 1), lambda: delattr(step, "n")):
        with pytest.raises(FrozenNodeError):
            change()
    assert step.n == 2


def test_steps_pickle_and_copy_to_equal_steps() -> None:
    """A pickled (or deep-copied) step tree comes back equal, of the same classes."""
    step = _change()
    for again in (pickle.loads(pickle.dumps(step)), copy.deepcopy(step), copy.copy(step)):
        assert again == step and type(again.subject) is amounts.OwnersOf and repr(again) == repr(step)


def test_fields_and_match_read_the_declared_fields() -> None:
    """nodes.fields (as the tree walkers use it) and match patterns see each step's fields in order."""
    step = _change()
    assert [(i.name, i.default) for i in nodes.fields(step)] == [
        ("gain", NOTHING), ("reputation", NOTHING), ("amount", NOTHING), ("subject", act._YOU), ("mark", -1)]
    assert nodes.fields(step) is fields(act.Change)
    match step:
        case act.Change(gain, _, amounts.Fixed(n), amounts.OwnersOf(_, slot)):
            assert (gain, n, slot) == (True, 2, 1)
        case _:
            pytest.fail("the pattern did not match")


def test_declare_lists_fields_without_defaults_first() -> None:
    """declare keeps __init__'s order: the fields without a default, then those with one."""
    assert [(i.name, i.default) for i in declare("n", per=None, mark=-1)] == [("n", NOTHING), ("per", None),
                                                                              ("mark", -1)]


@pytest.mark.skipif(not ENGINE_COMPILED, reason="only the compiled build has native classes")
def test_compiled_step_classes_are_native() -> None:
    """Compiled, a step's methods are native code, not Python functions (mypyc made the class native)."""
    for cls in (act.Change, amounts.Fixed, cards.Phrase, control.Branch, conditions.Condition):
        method = next(v for k, v in vars(cls).items() if k in ("act", "value", "cards", "test"))
        assert not isinstance(method, types.FunctionType), cls
