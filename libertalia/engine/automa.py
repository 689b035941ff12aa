"""Automa, the solo opponent: how she picks her character, and every choice she makes.

Automa is a full player (S1), but nobody answers for her: each question her abilities or
tiles ask her is settled here by a fixed rule (docs/rulings.md, S5 to S8), and never becomes
a ``Decision``.  Her character each day comes from the table on the back of the top solo
card.  Everything she needs is data (the board's ``solo:`` block); no rule names a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ..state import Option

if TYPE_CHECKING:
    from .specs import Rules, SoloSpec


class Table(Protocol):
    """What Automa's choices read of the game they are made in (a ``work.Work``): only its rules.

    Her choices are fixed by the rules alone, so this module needs nothing of the working
    copy that asks her, and the working copy can import it.
    """

    @property
    def rules(self) -> Rules: ...


def choose(w: Table, kind: str, options: Sequence[Option]) -> str:
    """Automa's answer to a question with two or more options."""
    if kind == "may":
        return "no"  # S6: she declines, and takes the "otherwise" where there is one
    if kind == "choose_loot":
        return _loot_choice(w, options)
    if kind == "choose_character":
        return _character_choice(w, options)
    if kind == "order_abilities":
        return _order_choice(w, options)
    return options[0].key  # "choose one": the first option the card offers (S8)


def _loot_choice(w: Table, options: Sequence[Option]) -> str:
    """S3: the kind first in the preference order; of equal kinds, the fewest, her own first."""
    solo = w.rules.board.solo
    assert solo is not None

    def key(o: Option) -> tuple[int, int, int]:
        kind, _, count = o.key.partition("*")
        kind, _, seat = kind.partition("@")
        return (solo.preference_of(kind), int(count or 1), 1 if seat else 0)
    return min(options, key=key).key


def _character_choice(w: Table, options: Sequence[Option]) -> str:
    """S7: the lowest-ranked character, another player's before her own."""
    def key(o: Option) -> tuple[int, float]:
        name, _, seat = o.key.rpartition("@") if "@" in o.key else (o.key, "", "")
        return (0 if seat else 1, w.rules.ranks[name])
    return min(options, key=key).key


def _order_choice(w: Table, options: Sequence[Option]) -> str:
    """S3: her characters' abilities from low rank to high, then her tokens' in board order."""
    ranks = w.rules.ranks
    kinds = w.rules.kind_order

    def key(o: Option) -> tuple[int, float]:
        if o.key in ranks:
            return (0, ranks[o.key])
        return (1, float(kinds.get(o.key, len(kinds))))
    return min(options, key=key).key


def table_pick(solo: SoloSpec, top: str | None, today: Sequence[str], hand: Sequence[str],
               symbols: Sequence[bool]) -> int:
    """Which card of Automa's hand (sorted by rank) she plays: the index the solo table gives.

    ``top`` is the solo card whose back is read (``None``: the deck is empty, she plays her
    rightmost card); ``symbols`` says which hand cards show the Automa symbol.
    """
    if top is None:
        return len(hand) - 1
    categories = [solo.categories.get(kind, "") for kind in today]
    row = next((i for i, r in enumerate(solo.rows) if r.matches(categories)), len(solo.rows) - 1)
    how, n = solo.card(top).picks[row]
    last = len(hand) - 1
    if how == "left":
        return min(n, len(hand)) - 1
    if how == "right":
        return last - (min(n, len(hand)) - 1)
    marked = [i for i, has in enumerate(symbols) if has]
    if not marked:
        return last  # no card shows the symbol: her rightmost card
    return marked[min(n, len(marked)) - 1]
