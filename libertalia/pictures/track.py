"""The reputation track, drawn as a track: a box per space with the income it pays, the seats' tokens."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .board import MARGIN, WIDTH, Block, seat_colour
from .happening import Marks
from .parts import MARK, box
from .text import label

if TYPE_CHECKING:
    from ..engine.specs import Rules
    from ..state import PlayerState


def track_block(rules: Rules, players: Sequence[PlayerState], automa: int | None, marked: Marks) -> Block:
    """The reputation track as a track: one space per box, left to right, each with the income it pays
    at a voyage's start, and each seat's token on its space.  Classic's board has none: nothing drawn."""
    income = rules.board.track_income

    def draw(y: float) -> tuple[list[str], float]:
        if not income:
            return [], 0.0
        spaces = len(income)
        out = [label(MARGIN, y + 16, "Reputation track", size=14, weight="bold", cls="section"),
               label(MARGIN + 150, y + 16, "income paid at each voyage's start; further right is more reputation "
                                       "(it wins ties)", size=11, fill="#555")]
        box_w = (WIDTH - 2 * MARGIN - (spaces - 1) * 6) / spaces  # the track spans the picture, as its arrow
        by_space: dict[int, list[PlayerState]] = {}
        for p in players:
            by_space.setdefault(min(p.reputation, spaces - 1), []).append(p)
        for i, pay in enumerate(income):
            x = MARGIN + i * (box_w + 6)
            here = by_space.get(i, [])
            inner = [label(x + 6, y + 40, f"space {i + 1}", size=10, fill="#666"),
                     label(x + box_w - 6, y + 40, f"income {pay:+d}", size=11, weight="bold", fill="#333",
                           anchor="end")]
            for k, p in enumerate(here):
                cx = x + 16 + k * 26
                ring = f' stroke="{MARK}" stroke-width="3"' if p.seat in marked.reputation else \
                    ' stroke="#000" stroke-width="0.5"'
                name = "Automa" if p.seat == automa else f"seat {p.seat}"
                inner.append(f'<g class="rep-token" data-seat="{p.seat}"><circle cx="{cx:g}" cy="{y + 58:g}" r="10" '
                             f'fill="{seat_colour(p.seat)}"{ring}><title>{name} on space {i + 1} '
                             f'(income {pay:+d})</title></circle>'
                             f'{label(cx, y + 62, str(p.seat), size=11, weight="bold", fill="#fff", anchor="middle")}'
                             "</g>")
            out += box(x, y + 24, box_w, 50, "track-space", inner, fill="#fff", stroke="#8a7a55", rx=3)
        # an arrow under the track: the direction of more reputation
        end = WIDTH - MARGIN
        out.append(f'<path d="M {MARGIN} {y + 80} H {end - 8}" stroke="#8a7a55" stroke-width="1.5"/>'
                   f'<path d="M {end - 8} {y + 76} L {end} {y + 80} L {end - 8} {y + 84} Z" fill="#8a7a55"/>')
        return out, 92.0

    return draw
