"""Tools for property-testing rule interactions: strategies and an invariant checker.

``check_invariants(game)`` raises ``AssertionError`` naming the broken
invariant; ``games()`` is a hypothesis strategy for games at random points.
"""

from __future__ import annotations

from .invariants import cards_by_owner, check_invariants
from .strategies import games, positions

__all__ = ["cards_by_owner", "check_invariants", "games", "positions"]
