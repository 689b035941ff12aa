"""The seats' panels, two or three to a row: each seat's numbers, reputation and zones as cards and tokens."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..tableview import Seen
from .board import ACTIVE, MARGIN, MINI, WIDTH, ability_of, loot_piece, owner_colour, rank_of, seat_colour
from .happening import Marks, base_name
from .parts import Piece, box, card, flow, words
from .text import attr, label, width

if TYPE_CHECKING:
    from ..engine.specs import Rules
    from ..state import Decision, PlayerState


def columns(seats: int) -> int:
    """Seat panels per row: 2 for 1, 2 and 4 seats (4 as 2×2), else 3."""
    return 2 if seats in (1, 2, 4) else 3


_BELOW_LABEL = 24.0
_AFTER = 4
"""A zone's pieces start this far below its label's top, and the next zone's label this far below them:
both clear of the ring a marked piece wears (3 px out, 3 px wide)."""


def card_width(room: float, gap: float = 6) -> float:
    """A seat's cards as wide as fill its rows: as many ``MINI`` cards as ``room`` holds, widened to share
    what is left over (a row of four in a half-width panel would otherwise leave a ninth of it empty)."""
    per_row = max(1, int((room + gap) // (MINI + gap)))
    return max(MINI, (room - (per_row - 1) * gap) // per_row)  # whole: the replay page packs whole moves best


def seats_block(rules: Rules, seen: Seen, seat: int | None, picks: Sequence[str | bool | None],
           decision: Decision | None, marked: Marks, y: float) -> tuple[list[str], float]:
    """Every seat's panel, in rows of ``columns`` that use the whole width; a row is as tall as its tallest."""
    players = seen.players
    cols = columns(len(players))
    gap = 14
    panel_w = (WIDTH - 2 * MARGIN - (cols - 1) * gap) / cols
    acting = decision.player if decision is not None and seen.phase != "over" else None
    out: list[str] = []
    cy = y
    for row in range(0, len(players), cols):
        drawn_row = []
        for i, p in enumerate(players[row:row + cols]):
            pick = picks[p.seat] if picks and p.seat < len(picks) else None
            zones = _zones(rules, seen, p, pick, marked, panel_w - 16)
            left = (cols - len(players[row:row + cols])) * (panel_w + gap) / 2  # a short last row is centred
            drawn_row.append((MARGIN + left + i * (panel_w + gap), p, zones))
        panel_h = max(_header_h(p, seat, seen.automa, panel_w, bool(rules.board.track_income))
                      + sum(h for _, _, _, h in zones) + 10 for _, p, zones in drawn_row)
        for x, p, zones in drawn_row:
            out += _panel(rules, p, x, cy + 6, panel_w, panel_h, zones, seat, seen.automa, p.seat == acting,
                          len(rules.board.track_income))
        cy += panel_h + gap + 6
    return out, cy - y


def _zones(rules: Rules, seen: Seen, p: PlayerState, pick: str | bool | None, marked: Marks,
           room: float) -> list[tuple[str, list[Piece], float, float]]:
    """A seat's zones, each a label and its pieces, how far below the label the pieces start, and the zone's
    height once wrapped to ``room``."""
    order = rules.kind_order
    w = card_width(room)
    taken = Counter({k: n for (s, k), n in marked.taken.items() if s == p.seat})
    moved = Counter({k: n for (s, k), n in marked.moved.items() if s == p.seat})
    buried = Counter({k: n for (s, k), n in marked.discarded.items() if s == p.seat})

    def chars(names: Sequence[str], marks_left: Counter[str] | None = None, what: str = "",
              ship: bool = False) -> list[Piece]:
        shown = [n for n in names if n != "?"]
        hidden = len(names) - len(shown)
        pieces = []
        for n in shown:
            mark = ""
            if marks_left is not None and marks_left[n] > 0:
                marks_left[n] -= 1
                mark = what
            elif ship and (p.seat, base_name(n)) in marked.acted:
                mark = "acted"
            pieces.append(card(n, rank_of(rules, n), owner_colour(p.seat, n), ability_of(rules, n), w=w, size=10,
                               mark=mark))
        if hidden:
            pieces.append(card("", "", "", "", w=w, size=10, hidden=hidden))
        return pieces

    acted_tokens: set[str] = set()

    def tokens(kinds: Sequence[str], marks_left: Counter[str] | None = None) -> list[Piece]:
        pieces = []
        for k in sorted(kinds, key=lambda k: order.get(k, 99)):
            mark = ""
            if marks_left is not None and marks_left[k] > 0:
                marks_left[k] -= 1
                mark = "taken"
            elif marks_left is not None and (p.seat, k) in marked.loot_acted and k not in acted_tokens:
                acted_tokens.add(k)  # one token of the kind is marked: the log does not say which acted
                mark = "acted"
            pieces.append(loot_piece(rules, k, mark))
        return pieces

    zones: list[tuple[str, list[Piece]]] = [
        ("Ship", chars(p.ship, moved, "moved", ship=True)),
        ("Loot", tokens(p.loot, taken)),
    ]
    if p.kept or p.kept_loot:
        zones.append(("Kept for the next voyage", [*chars(p.kept, moved, "moved"), *tokens(p.kept_loot)]))
    zones.append(("Hand", chars(p.hand, moved, "moved")))
    zones.append(("Graveyard", chars(p.graveyard, buried, "discarded")))
    if p.seat == seen.automa:
        zones.append(("Solo deck", [words(f"{seen.solo_deck_size} cards", size=11, room=room)]))
    if pick:
        if pick is True:
            zones.append(("Today's pick", [words("chosen, secret", size=11, room=room, cls="pick")]))
        else:
            zones.append(("Today's pick (secret)", [card(str(pick), rank_of(rules, str(pick)), seat_colour(p.seat),
                                                         ability_of(rules, str(pick)), w=w, size=10,
                                                         dashed=True)]))
    out = []
    for name, pieces in zones:
        if not pieces:
            pieces = [words("none", size=11, room=room, fill="#888")]
        _, h = flow(pieces, 0, 0, room)
        key = name.split()[0].lower()
        below = 18.0 if all(piece.text for piece in pieces) else _BELOW_LABEL  # words wear no ring: no room kept
        out.append((key, [words(name, size=11, room=room, fill="#333", weight="bold", cls=f"zone-{key}"), *pieces],
                    below, h + below + (0 if below < _BELOW_LABEL else _AFTER)))
    return out


def _seat_name(p: PlayerState, seat: int | None, automa: int | None) -> str:
    return f"Seat {p.seat}" + (" (you)" if p.seat == seat else " (Automa)" if p.seat == automa else "")


def _numbers(p: PlayerState) -> str:
    return f"{p.doubloons} doubloon{'' if p.doubloons == 1 else 's'} · score {p.score}"


def _header_h(p: PlayerState, seat: int | None, automa: int | None, w: float, track: bool) -> float:
    """The height of a panel's band (and of the numbers' own line when the band has no room for them)."""
    one_line = width(_seat_name(p, seat, automa), 13) + width(_numbers(p), 12) + 30 <= w
    return (30.0 if one_line else 48.0) + (18.0 if track else 0.0)


def _panel(rules: Rules, p: PlayerState, x: float, y: float, w: float, h: float,
           zones: list[tuple[str, list[Piece], float, float]], seat: int | None, automa: int | None, acting: bool,
           spaces: int) -> list[str]:
    """One seat's panel in its colour: its name, doubloons and score in the band, its reputation space
    and income, then its zones; ringed when the seat is the one to act."""
    colour = seat_colour(p.seat)
    name = _seat_name(p, seat, automa)
    numbers = _numbers(p)
    inner = [f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="26" rx="6" fill="{colour}"/>',
             label(x + 8, y + 18, name, size=13, weight="bold", fill="#fff", cls="seat-name")]
    right = x + w - 8
    if width(name, 13) + width(numbers, 12) + 30 <= w:
        inner.append(label(right, y + 18, numbers, size=12, fill="#fff", anchor="end", cls="seat-numbers"))
        cy = y + 30
    else:
        inner.append(label(x + 8, y + 44, numbers, size=12, fill="#222", cls="seat-numbers"))
        cy = y + 48
    if spaces:
        income = rules.board.track_income[min(p.reputation, spaces - 1)]
        inner.append(label(x + 8, cy + 14, f"Reputation: space {p.reputation + 1} of {spaces} (income {income:+d})",
                           size=11, fill="#333", cls="seat-reputation"))
        cy += 18
    for zone, pieces, below, zh in zones:
        head, rest = pieces[0], pieces[1:]
        inner.append(f'<g class="zone" data-zone={attr(zone)}>')
        inner += head.draw(x + 8, cy + 2)
        drawn, _ = flow(rest, x + 8, cy + below, w - 16)
        inner += drawn
        inner.append("</g>")
        cy += zh
    if acting:
        inner.append(f'<rect x="{x - 5:g}" y="{y - 5:g}" width="{w + 10:g}" height="{h + 10:g}" rx="10" fill="none" '
                     f'stroke="{ACTIVE}" stroke-width="5" class="to-act"/>')
        tag = "to act"
        tw = width(tag, 11) + 12
        inner += box(x + w - tw - 6, y - 12, tw, 18, "to-act-tag", [label(x + w - tw, y + 1, tag, size=11,
                                                                       weight="bold", fill="#222")],
                     fill=ACTIVE, stroke=ACTIVE, rx=9)
    body = box(x, y, w, h, f"seat{' acting' if acting else ''}", inner, stroke=colour,
               stroke_width=4 if p.seat == seat else 2, rx=6, extra=f' data-seat="{p.seat}"')
    return body
