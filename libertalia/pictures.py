"""The table as a picture: an SVG string of what one seat sees, or of the whole table.

``Game.svg`` / ``Observation.svg`` and their notebook hooks draw through ``table_svg``; the
replay page (``libertalia.pictures_page``) shows one per answer.  The layout is fixed (the
same things always in the same places, so two pictures compare at a glance), every seat has
its own colour, and everything is labelled in words, not only in colour.

Plain string building, no drawing library: every piece of text goes through ``_text``, which
escapes it for XML and drops the characters XML cannot hold, since card names and texts come
from mods (user data).  The picture reads the game through ``tableview.Seen``, the same
reading API the text table uses, so it shows exactly what the text view shows to that seat.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from .tableview import Seen, grouped

if TYPE_CHECKING:
    from .engine.specs import Rules
    from .state import PlayerState

WIDTH = 960
SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")
"""One colour per seat (seat 0 first); the Automa's seat takes its seat's colour too."""
NEUTRAL = "#7f7f7f"
_COLUMNS = 3  # seat panels per row
_PANEL_W = (WIDTH - 40 - (_COLUMNS - 1) * 10) // _COLUMNS
_LINE = 16  # between a seat panel's lines
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def seat_colour(seat: int | None) -> str:
    """The colour of ``seat`` (grey for no seat: a neutral character)."""
    return NEUTRAL if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _text(value: object) -> str:
    """``value`` as XML character data: escaped, and without characters XML cannot hold."""
    return escape(_NOT_XML.sub("\ufffd", str(value)))


def _attr(value: object) -> str:
    """``value`` as a quoted XML attribute value."""
    return quoteattr(_NOT_XML.sub("\ufffd", str(value)))


def _label(x: float, y: float, text: str, *, size: int = 13, weight: str = "normal", fill: str = "#222",
           anchor: str = "start", cls: str = "") -> str:
    klass = f" class={_attr(cls)}" if cls else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
            f'text-anchor="{anchor}"{klass}>{_text(text)}</text>')


def _clip(text: str, room: int) -> str:
    """``text`` cut to ``room`` characters with an ellipsis: a long mod name stays inside its box."""
    return text if len(text) <= room else text[: max(room - 1, 1)] + "…"


def table_svg(rules: Rules, seen: Seen, seat: int | None = None, *, title: str = "",
              picks: Sequence[str | bool | None] = ()) -> str:
    """The picture of ``seen`` (a ``Game``, or a seat's ``Observation``) as a standalone SVG document.

    ``seat`` is the seat whose view this is, marked "you"; None for the whole table (every hand
    shown, as the game holds it).  Hidden cards are the observation's ``?`` and are drawn as a
    count, never guessed.  ``title`` replaces the heading's first part (the board's title).
    ``picks``, by seat, are today's secret picks before they are revealed: a character's name,
    True for "chosen, not shown", None or False for not yet chosen (an empty tuple: not shown).
    """
    players = seen.players
    rows = (len(players) + _COLUMNS - 1) // _COLUMNS
    y_seats = 275
    panels = [_seat_lines(rules, p, seen.automa, seen.solo_deck_size, picks[p.seat] if picks else None)
              for p in players]
    panel_h = 34 + _LINE * max(len(lines) for lines in panels)  # one height for all: the layout stays fixed
    height = y_seats + rows * (panel_h + 10) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" class="libertalia-table">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#f7f3e8"/>']
    parts += _heading(rules, seen, seat, title)
    parts += _track(rules, players, seen.automa)
    parts += _island(rules, seen)
    parts += _ship_loot(rules, seen)
    for i, (p, lines) in enumerate(zip(players, panels, strict=True)):
        x = 20 + (i % _COLUMNS) * (_PANEL_W + 10)
        y = y_seats + (i // _COLUMNS) * (panel_h + 10)
        parts += _seat_panel(p, lines, x, y, panel_h, seat, seen.automa)
    parts.append("</svg>")
    return "\n".join(parts)


def _heading(rules: Rules, seen: Seen, seat: int | None, title: str) -> list[str]:
    """The board, voyage and day, and whose view this is."""
    days = rules.board.voyage_days
    of_days = f" of {days[seen.voyage - 1]}" if 0 < seen.voyage <= len(days) else ""
    where = f"Voyage {seen.voyage} of {len(days)}, day {seen.day}{of_days} ({seen.phase})"
    if seen.phase == "over":
        where = f"The game is over after voyage {seen.voyage} of {len(days)}"
    who = "the whole table" if seat is None else f"seen by seat {seat}"
    return [_label(20, 30, title or rules.board.title, size=20, weight="bold", cls="title"),
            _label(20, 52, where, size=15, cls="where"),
            _label(WIDTH - 20, 30, who, size=14, anchor="end", cls="viewer")]


def _track(rules: Rules, players: Sequence[PlayerState], automa: int | None) -> list[str]:
    """The reputation track: one box per space with its income, each seat's token on it.

    An edition whose board has no track (Classic breaks ties otherwise) shows none, as the text view."""
    income = rules.board.track_income
    if not income:
        return []
    spaces = len(income)
    box = min(60, (WIDTH - 160) // spaces)
    out = [_label(20, 88, "Reputation", weight="bold")]
    for i in range(spaces):
        x = 120 + i * box
        out.append(f'<rect x="{x}" y="70" width="{box - 2}" height="28" fill="#fff" stroke="#999"/>')
        out.append(_label(x + 3, 80, f"{income[i]:+d}", size=9, fill="#666"))
        here = [p for p in players if min(p.reputation, spaces - 1) == i]
        for k, p in enumerate(here):
            cx = x + 9 + k * ((box - 18) / max(len(here) - 1, 1) if len(here) > 1 else 0)
            out.append(f'<g class="token"><circle cx="{cx:g}" cy="89" r="7" fill="{seat_colour(p.seat)}" '
                       f'stroke="#000" stroke-width="0.5"><title>{_text(_seat_name(p.seat, None, automa))}</title>'
                       f'</circle>{_label(cx, 93, str(p.seat), size=10, weight="bold", fill="#fff", anchor="middle")}'
                       "</g>")
    return out


def _island(rules: Rules, seen: Seen) -> list[str]:
    """Today's characters on the island, lowest rank first as they resolve by day, each in its owner's colour."""
    out = [_label(20, 130, "Island", weight="bold")]
    cards = seen.island
    if not cards:
        out.append(_label(120, 130, "no characters", fill="#666"))
        return out
    room = min(120, (WIDTH - 140) // len(cards))
    for i, (owner, name) in enumerate(cards):
        x = 120 + i * room
        rank = _rank(rules, name)
        who = f"seat {owner}" if owner is not None else ("Pilferer" if seen.automa is not None else "neutral")
        out.append(f'<g class="island-card"><rect x="{x}" y="112" width="{room - 6}" height="58" rx="5" '
                   f'fill="#fff" stroke="{seat_colour(owner)}" stroke-width="3"/>')
        out.append(_label(x + 5, 130, _clip(name, (room - 12) // 7), size=12, weight="bold"))
        out.append(_label(x + 5, 146, f"rank {rank}" if rank else "", size=11, fill="#555"))
        out.append(_label(x + 5, 162, who, size=11, fill=seat_colour(owner)) + "</g>")
    return out


def _rank(rules: Rules, name: str) -> str:
    try:
        return f"{rules.card(name).rank:g}"
    except Exception:  # a card the rules cannot name (hidden or foreign): no rank shown
        return ""


def _ship_loot(rules: Rules, seen: Seen) -> list[str]:
    """The loot tiles of the day at the ship, and the later days' loot of this voyage (laid out in the open)."""
    out = [_label(20, 210, "Loot at the ship", weight="bold")]
    tiles = grouped(seen.day_loot, rules.kind_order)
    if not tiles:
        out.append(_label(160, 210, "none", fill="#666"))
    for i, tile in enumerate(tiles[:10]):
        x = 160 + i * 78
        out.append(f'<g class="loot"><rect x="{x}" y="192" width="72" height="28" rx="4" fill="#e8d9a8" '
                   f'stroke="#8a6d1f"/>{_label(x + 36, 211, _clip(tile, 11), size=11, anchor="middle")}</g>')
    later = [f"day {d}: " + ", ".join(grouped(loot, rules.kind_order))
             for d, loot in enumerate(seen.loot_days, 1) if d > seen.day and loot]
    out.append(_label(20, 250, "Loot to come", weight="bold"))
    out.append(_label(160, 250, _clip("; ".join(later) or "none", 110), size=12, fill="#444", cls="loot-to-come"))
    return out


def _seat_name(p: int, seat: int | None, automa: int | None) -> str:
    return f"Seat {p}" + (" (you)" if p == seat else " (Automa)" if p == automa else "")


def _cards(cards: Sequence[str]) -> str:
    """A hand or pile: its names, or a count when the viewer may not see them (``?``)."""
    if not cards:
        return "none"
    hidden = sum(1 for c in cards if c == "?")
    shown = [c for c in cards if c != "?"]
    return ", ".join([*shown, *([f"{hidden} hidden"] if hidden else [])])


def _seat_lines(rules: Rules, p: PlayerState, automa: int | None, solo_deck: int,
                pick: str | bool | None) -> list[tuple[str, str]]:
    """A seat panel's lines as (field, text): reputation, den (the ship), loot, what it keeps for the
    next voyage, graveyard, hand (and the Automa's deck), each wrapped to the panel (cut after three lines)."""
    track = [("Reputation", str(p.reputation))] if rules.board.track_income else []
    fields = [*track, ("Den (ship)", ", ".join(p.ship) or "none"),
              ("Loot", ", ".join(grouped(p.loot, rules.kind_order)) or "none"),
              ("Kept", ", ".join([*p.kept, *grouped(p.kept_loot, rules.kind_order)]) or "none"),
              ("Graveyard", _cards(p.graveyard)), ("Hand", _cards(p.hand)),
              *([("Solo deck", f"{solo_deck} cards")] if p.seat == automa else []),
              *([("Pick", "chosen, secret" if pick is True else f"{pick} (secret)")] if pick else [])]
    room = (_PANEL_W - 16) // 7
    out = []
    for what, value in fields:
        lines = textwrap.wrap(f"{what}: {value}", room, subsequent_indent="    ", break_on_hyphens=False) or [what]
        if len(lines) > 3:
            lines = [*lines[:2], _clip(lines[2] + " " + lines[3], room)]
        out += [(what.split()[0].lower(), line) for line in lines]
    return out


def _seat_panel(p: PlayerState, lines: Sequence[tuple[str, str]], x: int, y: int, h: int, seat: int | None,
                automa: int | None) -> list[str]:
    """One seat's panel in its colour: its name, doubloons and score in the band, then ``lines``."""
    colour = seat_colour(p.seat)
    out = [f'<g class="seat" data-seat="{p.seat}">',
           f'<rect x="{x}" y="{y}" width="{_PANEL_W}" height="{h}" rx="6" fill="#fff" stroke="{colour}" '
           f'stroke-width="{4 if p.seat == seat else 2}"/>',
           f'<rect x="{x}" y="{y}" width="{_PANEL_W}" height="24" rx="6" fill="{colour}"/>',
           _label(x + 8, y + 17, _seat_name(p.seat, seat, automa), weight="bold", fill="#fff"),
           _label(x + _PANEL_W - 8, y + 17, f"{p.doubloons} doubloons · score {p.score}", size=12, fill="#fff",
                  anchor="end")]
    for k, (what, line) in enumerate(lines):
        out.append(_label(x + 8, y + 41 + k * _LINE, line, size=12, cls=f"seat-{what}"))
    out.append("</g>")
    return out
