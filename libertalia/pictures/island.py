"""Today's island as cards, and the loot at the ship and still to come as tokens."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import RulesError
from ..tableview import Seen
from .board import ISLAND, MARGIN, WIDTH, Block, ability_of, loot_piece, owner_colour, rank_of
from .happening import Marks, base_name
from .parts import Piece, card, flow, words
from .text import label, width

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
    """Today's loot at the ship, token by token with its value, and the later days' loot of the voyage.

    Today's column is as wide as its tokens (at most half the picture); the days to come share the rest,
    as many to a row as fit, so that a short day's loot leaves no empty column beside a long list."""

    def by_order(kinds: Sequence[str]) -> list[Piece]:
        return [loot_piece(rules, k) for k in sorted(kinds, key=lambda k: rules.kind_order.get(k, 99))]

    def draw(y: float) -> tuple[list[str], float]:
        heading = "Loot at the ship today"
        out = [label(MARGIN, y + 16, heading, size=14, weight="bold", cls="section")]
        half = (WIDTH - 2 * MARGIN) / 2 - 10
        today = by_order(seen.day_loot)
        if today:
            drawn, h1 = flow(today, MARGIN, y + 26, half)
            drawn = ['<g class="day-loot">', *drawn, "</g>"]
        else:
            drawn, h1 = [label(MARGIN, y + 40, "none", size=12, fill="#666")], 20.0
        out += drawn
        left = min(half, max(width(heading, 14), sum(t.w + 6 for t in today) - 6))
        x2 = round(MARGIN + left + 30)
        room = WIDTH - MARGIN - x2
        out.append(label(x2, y + 16, "Loot to come", size=14, weight="bold", cls="section"))
        later = [_day(d, by_order(loot), room) for d, loot in enumerate(seen.loot_days, 1) if d > seen.day and loot]
        if not later:
            out.append(label(x2, y + 40, "none", size=12, fill="#666"))
            h2 = 20.0
        else:
            drawn, h2 = flow(later, x2, y + 26, room, gap=_DAY_GAP, row_gap=6)
            out += ['<g class="loot-to-come">', *drawn, "</g>"]
        return out, 26 + max(h1, h2) + 14

    return draw


_DAY_LABEL = 50  # the room of "day 5" before that day's tokens
_DAY_GAP = 24  # between two days on a row


def _day(day: int, tokens: list[Piece], room: float) -> Piece:
    """One later day's loot: "day N" and its tokens, wrapped to ``room`` when they need more than a row."""
    tokens_room = room - _DAY_LABEL
    w = _DAY_LABEL + min(tokens_room, sum(t.w + 6 for t in tokens) - 6)
    _, h = flow(tokens, 0, 0, tokens_room)
    caption = words(f"day {day}", size=11, room=_DAY_LABEL - 2, fill="#333", weight="bold")

    def draw(x: float, y: float) -> list[str]:
        drawn, _ = flow(tokens, x + _DAY_LABEL, y, tokens_room)
        return [*caption.draw(x, y + 6), *drawn]

    return Piece(w, max(h, caption.h + 6), draw)
