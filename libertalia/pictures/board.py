"""What the picture's blocks share: its width and margin, the seats' colours, and how a card or a
loot kind of the rules is drawn (its rank, ability text and value on the side in play)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import RulesError
from .happening import base_name
from .parts import Piece, token

if TYPE_CHECKING:
    from ..engine.specs import Rules

WIDTH = 1000
SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")
"""One colour per seat (seat 0 first); the Automa's seat takes its seat's colour too."""
NEUTRAL = "#7f7f7f"
ACTIVE = "#f2a900"
MARGIN = 20  # the picture's margin
LOOT_FILLS = ("#f3e2a9", "#d9e8f5", "#e6d5ee", "#f6d2c7", "#d7eed3", "#efe6d0", "#f5d5e5", "#dde3e8")
Block = Callable[[float], tuple[list[str], float]]
"""A part of the picture: drawn from its top edge ``y``, it gives its drawing and its height."""
MINI = 94  # a character card in a seat's zone
ISLAND = 112  # a character card on the island


def seat_colour(seat: int | None) -> str:
    """The colour of ``seat`` (grey for no seat: a neutral character)."""
    return NEUTRAL if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def rank_of(rules: Rules, name: str) -> str:
    """A card's printed rank as shown ("20.5"), or "" for a name the rules do not know."""
    try:
        return f"{rules.card(base_name(name)).rank:g}"
    except RulesError:  # a card the rules cannot name (hidden or foreign): no rank shown
        return ""


def ability_of(rules: Rules, name: str) -> str:
    """A card's ability text on one line (its hover title), or "" for a name the rules do not know."""
    try:
        return rules.card(base_name(name)).text.strip().replace("\n", " ")
    except RulesError:
        return ""


def owner_colour(seat: int | None, name: str) -> str:
    """A card held by another seat (``Cook#1``) keeps its first owner's colour."""
    _, _, first = name.partition("#")
    return seat_colour(int(first)) if first.isdigit() else seat_colour(seat)


def loot_piece(rules: Rules, kind: str, mark: str = "") -> Piece:
    """A token of ``kind``: its fixed doubloons where an ability only gains or loses them, else the
    timing of each ability, and its side's whole text as the hover title."""
    try:
        spec = rules.loot_spec(kind)
    except RulesError:
        return token(kind, "", kind, "#eee", mark=mark)
    values = []
    for ability in spec.compiled:
        if ability.coins:
            values.append(", ".join(f"{c:+d}" for c in ability.coins))
        elif not ability.passive:
            values.append(ability.timing)
    fill = LOOT_FILLS[rules.kind_order.get(kind, 0) % len(LOOT_FILLS)]
    about = f"{kind} ({spec.side} side): {spec.text.strip()}".replace("\n", " ")
    return token(kind, ", ".join(values), about, fill, mark=mark)
