"""Tools for property-testing rule interactions (docs/testing.md).

- ``check_invariants(game)`` raises ``AssertionError`` naming a broken invariant;
- ``moments(game, key)`` answers like ``choose`` and returns each event of the answer with the
  state right after it (``Moment``); ``when(moments, source=...)`` filters them like
  ``libertalia.events.select`` filters events;
- ``positions()`` and ``games()`` are hypothesis strategies for declared positions and for
  games at random points, ``featuring=`` cards where they act (``Feature``: each where it goes,
  in which seat); ``interactions()`` gives games stopped once the featured cards have all acted;
- ``GameMachine`` is a hypothesis state machine that plays games and checks every step;
- ``card_texts(rules)`` generates valid card texts, to fuzz a mod;
- ``reproduction(...)`` writes a failure as a script and as a card example to paste;
- ``traced(rules, Tracer())`` checks every step against its contract as it runs, and
  ``fuzz_contracts(rules)`` plays generated texts where they act with every step checked
  (``libertalia.testing.contracts``).

``GameMachine`` is imported when first used: it subclasses hypothesis' state machine; so is
``contracts``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .focus import Feature, FocusedPosition, Placement, acted, focused_position, interactions
from .invariants import cards_by_owner, check_invariants
from .moments import Moment, moments, opening, when  # the function ``moments`` hides its module's name here
from .repro import Reproduction, load_call, reproduction
from .strategies import games, positions
from .texts import card_texts, spelled_texts, text_problem, vocabulary

if TYPE_CHECKING:
    from .contracts import ContractReport, Tracer, fuzz_contracts, traced
    from .machine import PHASES, GameMachine

_LAZY = {"GameMachine": ".machine", "PHASES": ".machine", "ContractReport": ".contracts",
         "Tracer": ".contracts", "fuzz_contracts": ".contracts", "traced": ".contracts"}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'libertalia.testing' has no attribute {name!r}")
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "PHASES", "ContractReport", "Feature", "FocusedPosition", "GameMachine", "Moment", "Placement", "Reproduction",
    "Tracer", "acted", "card_texts", "cards_by_owner", "check_invariants", "focused_position", "fuzz_contracts",
    "games", "interactions", "load_call", "moments", "opening", "positions", "reproduction", "spelled_texts",
    "text_problem", "traced", "vocabulary", "when",
]
