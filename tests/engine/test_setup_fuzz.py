"""Any declared position is either played or refused with SetupError, never a crash."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import libertalia as lt
from tests.helpers import galecrest

_LEAVES = st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
    ["Cook", "map", "chest", "Kraken", "", "hand"])
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.sampled_from(["hand", "ship", "loot", "doubloons", "x"]), inner,
                                         max_size=3), max_leaves=12)
_SETUPS = st.dictionaries(st.sampled_from(["voyage", "day", "reputation", "players", "loot", "colour"]),
                          _VALUES, max_size=4)


@given(_SETUPS)
def test_any_setup_starts_a_game_or_raises_setup_error(setup: dict) -> None:  # type: ignore[type-arg]
    """Malformed setups of every shape are refused with a SetupError that says what is wrong."""
    try:
        game = lt.new_game(galecrest(), 3, seed=1, setup=setup)
    except lt.SetupError as exc:
        assert str(exc)
    else:
        assert game.decision is not None or game.is_over


@given(st.text(max_size=60))
def test_damaged_saves_raise_value_error(text: str) -> None:
    """Loading a damaged save raises ValueError with a message, never anything else."""
    try:
        lt.Game.from_json(text, galecrest())
    except ValueError as exc:
        assert "cannot load the game" in str(exc)
