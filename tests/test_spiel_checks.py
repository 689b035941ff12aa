"""libertalia.spiel_checks and records.parse_moves: the OpenSpiel game's parameters, action ids and serialised
states checked in plain Python (no OpenSpiel needed), raising only the library's own errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from libertalia.errors import ArgumentError, LibertaliaError, RecordError
from libertalia.records import parse_moves
from libertalia.spiel_checks import FIRST_SEED_LIMIT, MAX_DEALS, action_id, check_params, read_state

INDEX = {"Cook": 0, "Surgeon": 1, "yes": 2}


@pytest.mark.parametrize("first_seed", [0, 7, FIRST_SEED_LIMIT - 1])
def test_first_seeds_below_2_to_the_31_are_taken(first_seed: int) -> None:
    """first_seed is a whole number from 0 to 2**31 - 1 (what an OpenSpiel int parameter holds)."""
    assert check_params({"first_seed": first_seed})["first_seed"] == first_seed


@pytest.mark.parametrize("first_seed", [-1, FIRST_SEED_LIMIT, 2**63, 2**64 - 1, 2**64, 10**100])
def test_a_first_seed_out_of_range_is_an_argument_error(first_seed: int) -> None:
    """A first_seed OpenSpiel cannot hold (2**31 and up, 2**63 too) or a negative one: ArgumentError, no cast error."""
    with pytest.raises(ArgumentError, match=r"first_seed must be a whole number from 0 to 2147483647"):
        check_params({"first_seed": first_seed})


@pytest.mark.parametrize(("deals", "ok"), [(1, True), (MAX_DEALS, True), (0, False), (-3, False),
                                           (MAX_DEALS + 1, False), (2**40, False)])
def test_deals_run_from_1_to_2_to_the_20(deals: int, ok: bool) -> None:
    """deals is a whole number from 1 to 2**20 (chance_outcomes lists every one)."""
    if ok:
        assert check_params({"deals": deals})["deals"] == deals
    else:
        with pytest.raises(ArgumentError, match="deals must be a whole number from 1 to 1048576"):
            check_params({"deals": deals})


@pytest.mark.parametrize(("name", "value"), [("players", True), ("players", 2.0), ("players", "4"),
                                             ("deals", 1.5), ("first_seed", "3"), ("first_seed", False),
                                             ("edition", 5), ("loot", None)])
def test_a_parameter_of_the_wrong_type_says_which(name: str, value: Any) -> None:
    """A parameter of the wrong type is a TypeError naming it and its type; nothing is converted."""
    with pytest.raises(TypeError, match=f"python_libertalia: {name} must be"):
        check_params({name: value})


def test_an_unknown_parameter_is_named() -> None:
    """An unknown parameter is an ArgumentError listing the parameters there are."""
    with pytest.raises(ArgumentError, match=r"unknown parameters \['seed'\]; the parameters are players"):
        check_params({"seed": 3})


@pytest.mark.parametrize("action", [-1, -2, -210, 165, 166, 2**63, -(2**63)])
def test_an_action_id_out_of_range_is_refused_never_read_from_the_end(action: int) -> None:
    """Action ids run from 0 to count - 1: a negative id is refused, not read from the end of the keys."""
    with pytest.raises(ArgumentError, match=r"a whole number from 0 to 164, not "):
        action_id(action, 165, "actions")
    assert action_id(164, 165, "actions") == 164 and action_id(0, 165, "actions") == 0


def test_an_action_id_that_is_no_int_is_a_type_error() -> None:
    """True, 1.0 and "1" are no action ids (nothing is coerced)."""
    for action in (True, 1.0, "1", None):
        with pytest.raises(TypeError, match="action must be a whole number"):
            action_id(action, 165, "actions")


@pytest.mark.parametrize(("text", "field"), [
    ('{"seed": 1.9, "answers": []}', "seed"),
    ('{"seed": true, "answers": []}', "seed"),
    ('{"seed": "3", "answers": []}', "seed"),
    ('{"seed": null, "answers": []}', "seed"),
    ('{"seed": -1, "answers": []}', "seed"),
    ('{"seed": 1e999, "answers": []}', "seed"),
    ('{"seed": 18446744073709551616, "answers": []}', "seed"),
    ('{"seed": 1, "answers": "Cook"}', "answers"),
    ('{"seed": 1, "answers": {"0": "Cook"}}', "answers"),
    ('{"seed": 1, "answers": ["Cook", 5]}', "answers[1]"),
    ('{"seed": 1, "answers": [["Cook"]]}', "answers[0]"),
    ('{"seed": 1}', "answers"),
    ('{"answers": []}', "seed"),
    ('{"seed": 1, "answers": [], "more": 1}', "more"),
])
def test_a_wrong_field_of_the_moves_is_named(text: str, field: str) -> None:
    """parse_moves checks the seed and answers as a record's fields are checked: RecordError naming the field."""
    with pytest.raises(RecordError) as caught:
        parse_moves(text)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"cannot read the game record: {field}: ")


@pytest.mark.parametrize("text", ["", "{", "[]", "3", "null", "[" * 100_000, "[" * 30 + "]" * 30, b"\xff",
                                  '{"seed": ' + "9" * 5000 + ', "answers": []}'])
def test_text_that_is_no_moves_is_a_record_error(text: str | bytes) -> None:
    """No JSON, other JSON values, deep nesting (no RecursionError), huge numbers (no ValueError): RecordError."""
    with pytest.raises(RecordError, match="^cannot read the game record: "):
        parse_moves(text)


def test_read_state_maps_seed_and_keys_to_ids_within_the_deals() -> None:
    """A seed among the deals becomes its chance outcome and each answer key its action id."""
    assert read_state('{"seed": 12, "answers": ["yes", "Cook"]}', 10, 5, INDEX) == (2, (2, 0))
    assert read_state(b'{"seed": 10, "answers": []}', 10, 5, INDEX) == (0, ())


@pytest.mark.parametrize(("text", "message"), [
    ('{"seed": 9, "answers": []}', "seed: seed 9 is not one of this game's deals, 10 to 14"),
    ('{"seed": 15, "answers": []}', "seed: seed 15 is not one of this game's deals"),
    ('{"seed": 10, "answers": ["Cook", "Kraken"]}', "answers[1]: 'Kraken' is no answer key of these rules"),
])
def test_a_seed_outside_the_deals_or_an_unknown_key_is_refused(text: str, message: str) -> None:
    """A seed the chance node cannot deal, or an answer no action stands for: RecordError naming it."""
    with pytest.raises(RecordError, match="^cannot replay the game record: " + message.replace("[", r"\[")
                       .replace("]", r"\]")):
        read_state(text, 10, 5, INDEX)


def test_read_state_takes_only_text() -> None:
    """A serialised state is a string (or bytes); anything else is a TypeError saying so."""
    with pytest.raises(TypeError, match="text must be a string"):
        read_state({"seed": 1, "answers": []}, 0, 5, INDEX)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
_MOVES = st.fixed_dictionaries({}, optional={"seed": _JSON | st.integers(-5, 20), "answers": _JSON
                                             | st.lists(st.sampled_from([*INDEX, "x"]) | _JSON, max_size=4)})


def _only_library_errors_or_valid(text: str) -> None:
    try:
        outcome, ids = read_state(text, 3, 10, INDEX)
    except LibertaliaError:
        return
    assert 0 <= outcome < 10 and all(i in INDEX.values() for i in ids)
    seed, answers = parse_moves(text)
    assert type(seed) is int and all(type(a) is str for a in answers)


@given(st.text(max_size=60))
def test_arbitrary_text_gives_a_record_error_or_valid_moves(text: str) -> None:
    """Any string into deserialisation gives the library's own error or moves within the game's ranges."""
    _only_library_errors_or_valid(text)


@given(_JSON | _MOVES)
def test_arbitrary_json_gives_a_record_error_or_valid_moves(value: Any) -> None:
    """Any JSON value (seeds of every type, answers of every shape) gives a RecordError or valid moves."""
    _only_library_errors_or_valid(json.dumps(value))  # NaN and Infinity too: Python's json reads them


def test_the_checks_import_neither_open_spiel_nor_pettingzoo() -> None:
    """spiel_checks is plain Python: it runs (and is tested) where the spiel and rl extras are not installed."""
    root = Path(__file__).resolve().parents[1]
    code = ("import sys, libertalia.spiel_checks; "
            "print(sorted(m for m in ('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(root), "LIBERTALIA_CACHE_DIR": "off"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd=root)
    assert out.stdout.strip() == "[]"
