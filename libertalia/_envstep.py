"""The PettingZoo env's per-step glue, compiled by mypyc with the engine: an action to its answer, the mask.

``libertalia.env.aec.LibertaliaEnv`` steps a working copy (``Work``) directly while nobody reads its
``game``: an action index becomes its answer key (``Actions.answer``), checked against the question
as ``Game.choose`` checks it (``IllegalChoice``, and the per-game bound on questions), and the seats'
masks are set byte by byte (``Actions.mask``).  Interpreted, these few lines (and the ``Game`` that
``choose`` builds at every step) cost as much as the engine's own work on a step; compiled, little.

No numpy, no PettingZoo: the env wraps the bytes it gets here as arrays.  mypyc-friendly: typed
attributes, no closures.
"""

from __future__ import annotations

from typing import Any

from ._vector import Fill
from .engine import driver
from .engine.work import Work
from .state import Decision


class Actions:
    """One env's action universe (``keys``, from ``env.keys.action_keys``) and what it does with an index."""

    def __init__(self, keys: list[str]) -> None:
        self.keys: list[str] = keys
        self.index: dict[str, int] = {key: i for i, key in enumerate(keys)}

    def __reduce__(self) -> tuple[type[Actions], tuple[Any, ...]]:
        """Pickles as its keys (a compiled class has no ``__dict__`` to pickle): the env pickles in either build."""
        return Actions, (self.keys,)

    def mask(self, decision: Decision | None, seat: int) -> bytearray:
        """One byte per key: 1 for each key ``decision`` offers ``seat`` (all 0 when another seat is asked)."""
        out = bytearray(len(self.keys))
        if decision is not None and decision.player == seat:
            index = self.index
            for option in decision.options:
                key: str = option.key
                at = index.get(key)
                if at is None:
                    raise RuntimeError(f"the game offers {key!r}, which action_keys() lacks: a bug in "
                                       "libertalia.env.keys (please report it with the rules and seed)")
                out[at] = 1
        return out

    def view(self, w: Work, seat: int, fill: Fill) -> tuple[bytearray, bytearray]:
        """``seat``'s vector (``fill``'s float32 bytes) and mask at the game ``w`` stands at, in one call."""
        d = w.decision
        return fill.fill_work(w, d, seat), self.mask(d, seat)

    def answer(self, w: Work, action: int) -> None:
        """Answer ``w``'s question with the key ``action`` (an index in range) stands for, as ``Game.choose``
        does: an ``IllegalChoice`` for a key not offered (``w`` unchanged), the per-game bound on questions
        (``driver.check_question_budget``), then the engine runs on to its next question."""
        key = self.keys[action]
        d = driver.check_offered(w.decision, key)
        driver.check_question_budget(w.rules, w.n, len(w.history), d, w)
        driver.answer(w, key)
