"""Today's island as cards, and the loot at the ship and still to come as tokens."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..errors import RulesError
from ..tableview import Seen
from .board import ISLAND, MARGIN, WIDTH, Block, ability_of, loot_piece, owner_colour, rank_of
from .happening import Marks, base_name
from .parts import card, flow, words
from .text import label

if TYPE_CHECKING:
    from ..engine.specs import Rules


def island_block(rules: Rules, seen: Seen, marked: Marks) -> Block:
    """Today's characters, in the order they resolve by day (lowest rank first), each a card in its
    owner's colour; cards of equal rank say how the tie was broken."""
    solo = seen.automa is not None

    def draw(y: float) -> tuple[list[str], float]:
        out = [label(MARGIN, y + 16, "Island", size=14, weight="bold", cls="section")]
        cards = seen.island
        if not cards:
            out.append(label(MARGIN + 70, y + 16, "no characters today", size=12, fill="#666"))
            return out, 30.0
        out.append(label(MARGIN + 70, y + 16, "by day they act left to right; at dusk they take loot right to left",
                         size=11, fill="#555"))
        ranks = Counter(rank_of(rules, name) for _, name in cards)
        pieces = []
        for owner, name in cards:
            rank = rank_of(rules, name)
            who = (f"seat {owner}" if owner is not None else "Pilferer" if solo else "neutral")
            tie = _tie(rules, seen, owner, name) if rank and ranks[rank] > 1 else ""
            mark = "played" if (owner, name) in marked.played else "acted" if (owner, base_name(name)) in \
                marked.acted else ""
            pieces.append(card(name, rank, owner_colour(owner, name), ability_of(rules, name), w=ISLAND, size=12,
                               owner=who, note=tie, mark=mark))
        drawn, h = flow(pieces, MARGIN, y + 26, WIDTH - 2 * MARGIN, gap=8)
        return [*out, '<g class="island">', *drawn, "</g>"], 26 + h + 14

    return draw


def _tie(rules: Rules, seen: Seen, owner: int | None, name: str) -> str:
    """How a card of tied rank was placed (R4): neutral cards go left; else the seat's reputation space
    (further right goes right), or in Classic the card's printed tie-breaker for that seat."""
    if owner is None:
        return "tie: neutral goes left"
    board = rules.board
    if board.tie_break == "tie_breakers":
        try:
            number = board.tie_breakers[rules.card(base_name(name)).rank][owner]
        except (KeyError, IndexError, RulesError):  # a mod's rank or a seat the board prints no number for
            return ""
        return f"tie-breaker {number}"
    return f"tie: reputation space {seen.players[owner].reputation + 1}"


def loot_block(rules: Rules, seen: Seen) -> Block:
    """Today's loot at the ship, token by token with its value, and the later days' loot of the voyage."""

    def draw(y: float) -> tuple[list[str], float]:
        out = [label(MARGIN, y + 16, "Loot at the ship today", size=14, weight="bold", cls="section")]
        half = (WIDTH - 2 * MARGIN) / 2 - 10
        today = [loot_piece(rules, k) for k in sorted(seen.day_loot, key=lambda k: rules.kind_order.get(k, 99))]
        if today:
            drawn, h1 = flow(today, MARGIN, y + 26, half)
            drawn = ['<g class="day-loot">', *drawn, "</g>"]
        else:
            drawn, h1 = [label(MARGIN, y + 40, "none", size=12, fill="#666")], 20.0
        out += drawn
        x2 = MARGIN + half + 20
        out.append(label(x2, y + 16, "Loot to come", size=14, weight="bold", cls="section"))
        later = [(d, loot) for d, loot in enumerate(seen.loot_days, 1) if d > seen.day and loot]
        cy = y + 26
        if not later:
            out.append(label(x2, y + 40, "none", size=12, fill="#666"))
            cy += 20
        for d, loot in later:
            out += words(f"day {d}", size=11, room=48, fill="#333", weight="bold").draw(x2, cy + 6)
            pieces = [loot_piece(rules, k) for k in sorted(loot, key=lambda k: rules.kind_order.get(k, 99))]
            drawn, h = flow(pieces, x2 + 50, cy, half - 50)
            out += drawn
            cy += h + 6
        return out, max(26 + h1, cy - y) + 14

    return draw
