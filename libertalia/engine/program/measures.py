"""What players are compared by (E30, E31): one number per seat, read as the game stands.

Kept apart from ``amounts`` (the players selectors that pick by them) and ``conditions``
(the comparison that tests by them), which both use them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .kinds import count_of
from .record import Record, declare

if TYPE_CHECKING:
    from ..work import Work


class Doubloons(Record):
    """What players are compared by: their doubloons (at anchor, as the voyage left them: R3)."""

    def of(self, w: Work, seat: int) -> int:
        return w.seats[seat].coins


class Reputation(Record):
    """What players are compared by: their space on the reputation track (one token a space: no ties)."""

    def of(self, w: Work, seat: int) -> int:
        return w.reputation(seat)


class LootHeld(Record):
    """What players are compared by: the tokens of ``kinds`` they hold (``ANY_KIND``: every token)."""

    kinds: frozenset[str]
    __node_fields__ = declare("kinds")

    def __init__(self, kinds: frozenset[str]) -> None:
        object.__setattr__(self, "kinds", kinds)

    def of(self, w: Work, seat: int) -> int:
        return count_of(w.seats[seat].loot, self.kinds)


class PileSize(Record):
    """What players are compared by: the characters in their ``pile``."""

    pile: str
    __node_fields__ = declare("pile")

    def __init__(self, pile: str) -> None:
        object.__setattr__(self, "pile", pile)

    def of(self, w: Work, seat: int) -> int:
        return len(w.seats[seat].pile(self.pile))


Measure = Doubloons | Reputation | LootHeld | PileSize
