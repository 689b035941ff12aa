"""The whole picture: the heading, what is happening, the reputation track, the island, the loot
and the seats, stacked top to bottom, each as tall as its contents (lists wrap, never cut).

The blocks are modules of their own: ``track``, ``island`` (and the loot), ``seats``; ``board``
holds what they share.  The seats share the width: two or three columns (four seats as 2×2),
so no seat sits alone on a row while the others crowd another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from ..tableview import Seen
from .board import MARGIN, WIDTH, Block, seat_colour
from .happening import Marks, base_name, marks, question, ranking, says_more, winner_line
from .island import island_block, loot_block
from .parts import MARK, Piece, box, flow, words
from .seats import seats_block
from .text import FONT, INK, STYLE, label, width, wrap
from .track import track_block

if TYPE_CHECKING:
    from ..engine.specs import Rules
    from ..state import Decision, Event


def table_svg(rules: Rules, seen: Seen, seat: int | None = None, *, title: str = "",
              picks: Sequence[str | bool | None] = (), decision: Decision | None = None,
              last: Sequence[Event] = (), winners: Sequence[int] = ()) -> str:
    """The picture of ``seen`` (a ``Game``, or a seat's ``Observation``) as a standalone SVG document.

    ``seat`` is the seat whose view this is, marked "you"; None for the whole table (every hand
    shown, as the game holds it).  Hidden cards are the observation's ``?`` and are drawn as a
    count, never guessed.  ``title`` replaces the heading's first part (the board's title).
    ``picks``, by seat, are today's secret picks before they are revealed: a character's name,
    True for "chosen, not shown", None or False for not yet chosen (an empty tuple: not shown).
    ``decision`` is the question the game waits for (its seat is ringed), ``last`` the events of
    the last step (what they touched is marked) and ``winners`` the winners of a finished game.
    """
    kinds = rules.kinds
    marked = _in_play(marks(last, kinds), seen)
    parts: list[str] = []
    y = 0.0
    blocks = [_heading(rules, seen, seat, title), _status(rules, seen, decision, winners, marked, last),
              track_block(rules, seen.players, seen.automa, marked)]
    if seen.phase != "over":  # a finished game has no day: no island and no loot to come
        blocks += [island_block(rules, seen, marked), loot_block(rules, seen)]
    for block in blocks:
        drawn, h = block(y)
        parts += drawn
        y += h
    drawn, h = seats_block(rules, seen, seat, picks, decision, marked, y)
    parts += drawn
    height = round(y + h + MARGIN)
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}" fill="{INK}" class="libertalia-table" '
            'style="max-width:100%;height:auto">', STYLE,
            f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#f7f3e8"/>']
    return "\n".join([*head, *parts, "</svg>"])


def _in_play(marked: Marks, seen: Seen) -> Marks:
    """The marks with "acted" kept to the cards that act, on the island and in the ships.

    An event names the seat it concerns, which is not always the seat whose card acted (a card that
    makes every other seat pay names each payer): a source no card of that seat stands for is
    matched to the cards of that name in play, whoever owns them."""
    present = {(owner, base_name(name)) for owner, name in seen.island}
    present |= {(p.seat, base_name(name)) for p in seen.players for name in p.ship}
    orphans = {name for seat, name in marked.acted if (seat, name) not in present}
    acted = {ref for ref in present if ref in marked.acted or ref[1] in orphans}
    return attrs.evolve(marked, acted=frozenset(acted))


def _heading(rules: Rules, seen: Seen, seat: int | None, title: str) -> Block:
    """The board, voyage and day (no day once the game is over), and whose view this is."""
    days = rules.board.voyage_days
    if seen.phase == "over":
        where = f"The game is over after voyage {seen.voyage} of {len(days)}"
    else:
        of_days = f" of {days[seen.voyage - 1]}" if 0 < seen.voyage <= len(days) else ""
        day = f", day {seen.day}{of_days}" if seen.day > 0 else ""
        where = f"Voyage {seen.voyage} of {len(days)}{day} ({_PHASE_WORDS.get(seen.phase, seen.phase)})"
    who = "the whole table" if seat is None else f"seen by seat {seat}"

    def draw(y: float) -> tuple[list[str], float]:
        heading = wrap(title or rules.board.title, WIDTH - 2 * MARGIN - width(who, 14) - 20, 20)
        out = [label(MARGIN, y + 28 + 24 * k, line, size=20, weight="bold", cls="title")
               for k, line in enumerate(heading)]
        base = y + 28 + 24 * (len(heading) - 1)
        out.append(label(MARGIN, base + 22, where, size=15, cls="where"))
        out.append(label(WIDTH - MARGIN, y + 28, who, size=14, anchor="end", cls="viewer"))
        return out, base + 34 - y

    return draw


_PHASE_WORDS = {"select": "choosing characters", "day": "day: abilities by rank", "dusk": "dusk: taking loot",
                "night": "night", "anchor": "at anchor", "voyage": "the voyage begins"}


def _status(rules: Rules, seen: Seen, decision: Decision | None, winners: Sequence[int], marked: Marks,
            last: Sequence[Event]) -> Block:
    """The band that says what is happening: the question and its seat, or the winner and the ranking;
    the legend of the marks holds the last step's events as its hover title (they are public)."""
    room = WIDTH - 2 * MARGIN - 24

    def draw(y: float) -> tuple[list[str], float]:
        pieces: list[Piece] = []
        colour = "#444"
        if seen.phase == "over":
            players = seen.players
            pieces.append(words(winner_line(players, winners, seen.automa), size=16, room=room, fill="#222",
                                weight="bold", cls="winner"))
            for place, p in ranking(players, winners):
                name = "Automa" if p.seat == seen.automa else f"seat {p.seat}"
                pieces.append(_chip(f"{place}. {name}: {p.score} points", seat_colour(p.seat),
                                    crown=p.seat in winners))
            colour = seat_colour(winners[0]) if winners else colour
        elif decision is not None:
            ships = [p.ship for p in seen.players]
            pieces.append(words(question(decision, seen.island, ships, rules.kinds), size=16, room=room,
                                fill="#222", weight="bold", cls="question"))
            if decision.prompt and decision.options and says_more(decision.prompt, pieces[-1].text):
                pieces.append(words(f"Asked: {decision.prompt}", size=12, room=room, fill="#333", cls="prompt"))
            if decision.options:
                pieces.append(words("Options: " + "; ".join(o.label for o in decision.options), size=11,
                                    room=room, fill="#555", cls="options"))
            colour = seat_colour(decision.player)
        else:
            pieces.append(words("No question is waiting", size=14, room=room, cls="question"))
        if not marked.empty:
            steps = len(last)
            pieces.append(_chip(f"marked: touched by the last step ({steps} event{'' if steps == 1 else 's'})", MARK,
                                outline=True, title="\n".join(str(e) for e in last)))
        inner, h = _stack(pieces, MARGIN + 12, y + 8, room)
        band = box(MARGIN, y, WIDTH - 2 * MARGIN, h + 16, "status", inner, fill="#fffdf6", stroke=colour,
                   stroke_width=3, rx=8)
        return band, h + 16 + 12

    return draw


def _stack(pieces: Sequence[Piece], x: float, y: float, room: float) -> tuple[list[str], float]:
    """Full-width pieces one under the other; chips (narrow ones) flow along a row."""
    out: list[str] = []
    cy = y
    row: list[Piece] = []

    def flush() -> None:
        nonlocal cy
        if row:
            drawn, h = flow(row, x, cy, room)
            out.extend(drawn)
            cy += h + 4
            row.clear()

    for piece in pieces:
        if not piece.inline:
            flush()
            out.extend(piece.draw(x, cy))
            cy += piece.h + 2
        else:
            row.append(piece)
    flush()
    return out, cy - y


def _chip(value: str, colour: str, *, crown: bool = False, outline: bool = False, title: str = "") -> Piece:
    """A small rounded label: a place in the ranking, or the legend of the marks."""
    shown = ("\u2605 " if crown else "") + value
    w = width(shown, 12) + 16
    h = 22.0

    def draw(x: float, y: float) -> list[str]:
        fill = "#fff" if outline else colour
        ink = "#222" if outline else "#fff"
        return box(x, y, w, h, "chip", [label(x + 8, y + 15, shown, size=12, weight="bold", fill=ink)],
                   fill=fill, stroke=colour, stroke_width=2 if outline else 1, rx=11, title=title)

    return Piece(w, h, draw, inline=True)
