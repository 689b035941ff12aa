"""The pieces of the table: character cards, loot tokens and boxes of words, laid out in rows.

Every piece is a ``<g class="box ...">`` whose first child is its ``<rect>``, and all of its text
lies inside that rect (the browser tests measure it so).  A piece knows its size before it is
placed, so rows wrap to the room they have and every list is drawn whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from .text import attr, label, text, width, wrap

MARK = "#f2a900"
"""The colour of a mark: a piece the last step touched."""
SMALLEST = 10
"""The smallest print (a card's rank, owner and marks): the picture shrunk to three quarters (an 800 px
window, or the replay page at 1100 px beside its events) still shows it at 7 px or more, as the browser
tests measure."""


@attrs.frozen
class Piece:
    """Something of a known size that draws itself at (x, y)."""

    w: float
    h: float
    draw: Callable[[float, float], list[str]]
    inline: bool = False  # flows along a row with others (a chip), rather than standing on a line of its own
    text: str = ""  # the words it shows, when it is words


def box(x: float, y: float, w: float, h: float, cls: str, lines: list[str], *, fill: str = "#fff",
        stroke: str = "#999", stroke_width: float = 1, rx: float = 4, title: str = "", mark: str = "",
        dashed: bool = False, extra: str = "") -> list[str]:
    """A ``<g class="box">``: its rect, an optional hover title, a mark ring, then its ``lines``."""
    marked = f" data-mark={attr(mark)}" if mark else ""
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    look = (f'fill="{fill}" stroke="{stroke}" stroke-width="{stroke_width:g}"' if stroke != "none"
            else 'fill="none"')  # an invisible box (words): only measured
    out = [f'<g class="box {cls}{" marked" if mark else ""}"{marked}{extra}>',
           f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx:g}" {look}{dash}/>'
           .replace(".0\"", "\"")]
    if title:
        out.append(f"<title>{text(title)}</title>")
    if mark:
        out.append(f'<rect x="{x - 3:g}" y="{y - 3:g}" width="{w + 6:g}" height="{h + 6:g}" rx="{rx + 2:g}" '
                   f'fill="none" stroke="{MARK}" stroke-width="3" class="mark-ring"/>')
    out += lines
    out.append("</g>")
    return out


def flow(pieces: Sequence[Piece], x: float, y: float, room: float, gap: float = 6,
         row_gap: float | None = None) -> tuple[list[str], float]:
    """``pieces`` left to right from (x, y), wrapping to new rows within ``room``: the drawing and its height.
    ``gap`` is between two pieces of a row, ``row_gap`` between rows (``gap`` unless given)."""
    out: list[str] = []
    cx, cy, row_h = x, y, 0.0
    for piece in pieces:
        if cx > x and cx + piece.w > x + room:
            cx, cy, row_h = x, cy + row_h + (gap if row_gap is None else row_gap), 0.0
        out += piece.draw(cx, cy)
        cx += piece.w + gap
        row_h = max(row_h, piece.h)
    return out, (cy - y + row_h) if pieces else 0.0


def words(value: str, *, size: float = 11, room: float = 200, fill: str = "#555", cls: str = "words",
          weight: str = "normal") -> Piece:
    """Plain words wrapped to ``room``, in an invisible box (so that they are measured too)."""
    lines = wrap(value, room - 4, size)
    w = max(width(line, size) for line in lines) + 4
    h = len(lines) * (size + 3) + 4

    def draw(x: float, y: float) -> list[str]:
        body = [label(x + 2, y + 2 + (k + 1) * (size + 3) - 3, line, size=size, fill=fill, weight=weight)
                for k, line in enumerate(lines)]
        return box(x, y, w, h, cls, body, fill="none", stroke="none", stroke_width=0)

    return Piece(w, h, draw, text=value)


def card(name: str, rank: str, colour: str, ability: str, *, w: float = 96, size: float = 11,
         mark: str = "", owner: str = "", note: str = "", hidden: int = 0, dashed: bool = False) -> Piece:
    """A character as a card: a band in its owner's colour holding its rank, its name wrapped below,
    then its owner and a note (a tie-break) in small print.  The ability text is its hover title.

    ``hidden`` draws the back of that many cards nobody may name here (a count, never a guess)."""
    if hidden:
        caption = f"{hidden} hidden" if hidden > 1 else "1 hidden"
        lines = wrap(caption, w - 10, size)
        h = 12 + len(lines) * (size + 3) + 10

        def back(x: float, y: float) -> list[str]:
            body = [label(x + w / 2, y + 12 + (k + 1) * (size + 3) - 3, line, size=size, fill="#fff",
                          anchor="middle", weight="bold") for k, line in enumerate(lines)]
            return box(x, y, w, h, "card card-back", body, fill="#6b5a3e", stroke="#3d3323",
                       title=f"{caption}: cards this seat may not see")

        return Piece(w, h, back)
    band = 16
    name_lines = wrap(name, w - 10, size)
    small = max(size - 2, SMALLEST)
    extra_lines = [line for part in (owner, note) if part for line in wrap(part, w - 10, small)]
    mark_lines = wrap(f"\u25c6 {mark}", w - 10, small) if mark else []
    h = band + 4 + len(name_lines) * (size + 3) + (len(extra_lines) + len(mark_lines)) * (small + 3) + 5
    rank_text = f"rank {rank}" if rank else ""
    title = f"{name}" + (f" (rank {rank})" if rank else "") + (f": {ability}" if ability else "")

    def draw(x: float, y: float) -> list[str]:
        body = [f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{band}" rx="4" fill="{colour}"/>']
        if rank_text:
            body.append(label(x + 5, y + band - 4, rank_text, size=small, weight="bold", fill="#fff", cls="rank"))
        ty = y + band + 4
        for line in name_lines:
            ty += size + 3
            body.append(label(x + 5, ty - 3, line, size=size, weight="bold", cls="name"))
        for line in extra_lines:
            ty += small + 3
            body.append(label(x + 5, ty - 3, line, size=small, fill="#555"))
        for line in mark_lines:
            ty += small + 3
            body.append(label(x + 5, ty - 3, line, size=small, weight="bold", fill="#9a6a00", cls="mark-word"))
        return box(x, y, w, h, "card", body, stroke=colour, stroke_width=2, title=title, mark=mark, dashed=dashed,
                   extra=f" data-card={attr(name)}")

    return Piece(w, h, draw)


def token(kind: str, value: str, about: str, fill: str, *, w: float = 62, mark: str = "") -> Piece:
    """A loot token: its kind, and below it its value on the side in play; its text is the hover title."""
    size, small = 11.0, 10.0
    lines = wrap(kind, w - 8, size)
    value_lines = wrap(value, w - 8, small) if value else []
    mark_lines = wrap(f"\u25c6 {mark}", w - 8, small) if mark else []
    h = 6 + len(lines) * (size + 3) + (len(value_lines) + len(mark_lines)) * (small + 3) + 4

    def draw(x: float, y: float) -> list[str]:
        body = []
        ty = y + 4
        for line in lines:
            ty += size + 3
            body.append(label(x + w / 2, ty - 3, line, size=size, weight="bold", anchor="middle", cls="kind"))
        for line in value_lines:
            ty += small + 3
            body.append(label(x + w / 2, ty - 3, line, size=small, anchor="middle", fill="#333", cls="value"))
        for line in mark_lines:
            ty += small + 3
            body.append(label(x + w / 2, ty - 3, line, size=small, weight="bold", anchor="middle", fill="#7a5400",
                              cls="mark-word"))
        return box(x, y, w, h, "token", body, fill=fill, stroke="#6d5418", rx=9, title=about, mark=mark,
                   extra=f" data-loot={attr(kind)}")

    return Piece(w, h, draw)
