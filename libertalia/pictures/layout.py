"""The whole picture: the heading, what is happening, the reputation track, the island, the loot
and the seats, stacked top to bottom, each as tall as its contents (lists wrap, never cut).

The seats share the width: two or three columns (four seats as 2×2), so no seat sits alone
on a row while the others crowd another.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import attrs

from ..errors import RulesError
from ..tableview import Seen
from .happening import Marks, base_name, marks, question, ranking, says_more, winner_line
from .parts import MARK, Piece, box, card, flow, token, words
from .text import FONT, INK, STYLE, attr, label, width, wrap

if TYPE_CHECKING:
    from ..engine.specs import Rules
    from ..state import Decision, Event, PlayerState

WIDTH = 1000
SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")
"""One colour per seat (seat 0 first); the Automa's seat takes its seat's colour too."""
NEUTRAL = "#7f7f7f"
ACTIVE = "#f2a900"
_M = 20  # the picture's margin
_LOOT_FILLS = ("#f3e2a9", "#d9e8f5", "#e6d5ee", "#f6d2c7", "#d7eed3", "#efe6d0", "#f5d5e5", "#dde3e8")
Block = Callable[[float], tuple[list[str], float]]
"""A part of the picture: drawn from its top edge ``y``, it gives its drawing and its height."""
_MINI = 94  # a character card in a seat's zone
_ISLAND = 112  # a character card on the island


def seat_colour(seat: int | None) -> str:
    """The colour of ``seat`` (grey for no seat: a neutral character)."""
    return NEUTRAL if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def columns(seats: int) -> int:
    """Seat panels per row: 2 for 1, 2 and 4 seats (4 as 2×2), else 3."""
    return 2 if seats in (1, 2, 4) else 3


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
              _track(rules, seen.players, seen.automa, marked)]
    if seen.phase != "over":  # a finished game has no day: no island and no loot to come
        blocks += [_island(rules, seen, marked), _loot(rules, seen)]
    for block in blocks:
        drawn, h = block(y)
        parts += drawn
        y += h
    drawn, h = _seats(rules, seen, seat, picks, decision, marked, y)
    parts += drawn
    height = round(y + h + _M)
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
        heading = wrap(title or rules.board.title, WIDTH - 2 * _M - width(who, 14) - 20, 20)
        out = [label(_M, y + 28 + 24 * k, line, size=20, weight="bold", cls="title") for k, line in enumerate(heading)]
        base = y + 28 + 24 * (len(heading) - 1)
        out.append(label(_M, base + 22, where, size=15, cls="where"))
        out.append(label(WIDTH - _M, y + 28, who, size=14, anchor="end", cls="viewer"))
        return out, base + 34 - y

    return draw


_PHASE_WORDS = {"select": "choosing characters", "day": "day: abilities by rank", "dusk": "dusk: taking loot",
                "night": "night", "anchor": "at anchor", "voyage": "the voyage begins"}


def _status(rules: Rules, seen: Seen, decision: Decision | None, winners: Sequence[int], marked: Marks,
            last: Sequence[Event]) -> Block:
    """The band that says what is happening: the question and its seat, or the winner and the ranking;
    the legend of the marks holds the last step's events as its hover title (they are public)."""
    room = WIDTH - 2 * _M - 24

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
        inner, h = _stack(pieces, _M + 12, y + 8, room)
        band = box(_M, y, WIDTH - 2 * _M, h + 16, "status", inner, fill="#fffdf6", stroke=colour, stroke_width=3,
                   rx=8)
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


def _track(rules: Rules, players: Sequence[PlayerState], automa: int | None, marked: Marks) -> Block:
    """The reputation track as a track: one space per box, left to right, each with the income it pays
    at a voyage's start, and each seat's token on its space.  Classic's board has none: nothing drawn."""
    income = rules.board.track_income

    def draw(y: float) -> tuple[list[str], float]:
        if not income:
            return [], 0.0
        spaces = len(income)
        out = [label(_M, y + 16, "Reputation track", size=14, weight="bold", cls="section"),
               label(_M + 150, y + 16, "income paid at each voyage's start; further right is more reputation "
                                       "(it wins ties)", size=11, fill="#555")]
        box_w = min(130.0, (WIDTH - 2 * _M - (spaces - 1) * 6) / spaces)
        by_space: dict[int, list[PlayerState]] = {}
        for p in players:
            by_space.setdefault(min(p.reputation, spaces - 1), []).append(p)
        for i, pay in enumerate(income):
            x = _M + i * (box_w + 6)
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
        out.append(f'<path d="M {_M} {y + 80} H {WIDTH - _M - 8}" stroke="#8a7a55" stroke-width="1.5"/>'
                   f'<path d="M {WIDTH - _M - 8} {y + 76} L {WIDTH - _M} {y + 80} L {WIDTH - _M - 8} {y + 84} Z" '
                   'fill="#8a7a55"/>')
        return out, 92.0

    return draw


def _rank(rules: Rules, name: str) -> str:
    try:
        return f"{rules.card(base_name(name)).rank:g}"
    except RulesError:  # a card the rules cannot name (hidden or foreign): no rank shown
        return ""


def _ability(rules: Rules, name: str) -> str:
    try:
        return rules.card(base_name(name)).text.strip().replace("\n", " ")
    except RulesError:
        return ""


def _owner_colour(seat: int | None, name: str) -> str:
    """A card held by another seat (``Cook#1``) keeps its first owner's colour."""
    _, _, first = name.partition("#")
    return seat_colour(int(first)) if first.isdigit() else seat_colour(seat)


def _island(rules: Rules, seen: Seen, marked: Marks) -> Block:
    """Today's characters, in the order they resolve by day (lowest rank first), each a card in its
    owner's colour; cards of equal rank say how the tie was broken."""
    solo = seen.automa is not None

    def draw(y: float) -> tuple[list[str], float]:
        out = [label(_M, y + 16, "Island", size=14, weight="bold", cls="section")]
        cards = seen.island
        if not cards:
            out.append(label(_M + 70, y + 16, "no characters today", size=12, fill="#666"))
            return out, 30.0
        out.append(label(_M + 70, y + 16, "by day they act left to right; at dusk they take loot right to left",
                         size=11, fill="#555"))
        ranks = Counter(_rank(rules, name) for _, name in cards)
        pieces = []
        for owner, name in cards:
            rank = _rank(rules, name)
            who = (f"seat {owner}" if owner is not None else "Pilferer" if solo else "neutral")
            tie = _tie(rules, seen, owner, name) if rank and ranks[rank] > 1 else ""
            mark = "played" if (owner, name) in marked.played else "acted" if (owner, base_name(name)) in \
                marked.acted else ""
            pieces.append(card(name, rank, _owner_colour(owner, name), _ability(rules, name), w=_ISLAND, size=12,
                               owner=who, note=tie, mark=mark))
        drawn, h = flow(pieces, _M, y + 26, WIDTH - 2 * _M, gap=8)
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


def _loot_piece(rules: Rules, kind: str, mark: str = "") -> Piece:
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
    fill = _LOOT_FILLS[rules.kind_order.get(kind, 0) % len(_LOOT_FILLS)]
    about = f"{kind} ({spec.side} side): {spec.text.strip()}".replace("\n", " ")
    return token(kind, ", ".join(values), about, fill, mark=mark)


def _loot(rules: Rules, seen: Seen) -> Block:
    """Today's loot at the ship, token by token with its value, and the later days' loot of the voyage."""

    def draw(y: float) -> tuple[list[str], float]:
        out = [label(_M, y + 16, "Loot at the ship today", size=14, weight="bold", cls="section")]
        half = (WIDTH - 2 * _M) / 2 - 10
        today = [_loot_piece(rules, k) for k in sorted(seen.day_loot, key=lambda k: rules.kind_order.get(k, 99))]
        if today:
            drawn, h1 = flow(today, _M, y + 26, half)
            drawn = ['<g class="day-loot">', *drawn, "</g>"]
        else:
            drawn, h1 = [label(_M, y + 40, "none", size=12, fill="#666")], 20.0
        out += drawn
        x2 = _M + half + 20
        out.append(label(x2, y + 16, "Loot to come", size=14, weight="bold", cls="section"))
        later = [(d, loot) for d, loot in enumerate(seen.loot_days, 1) if d > seen.day and loot]
        cy = y + 26
        if not later:
            out.append(label(x2, y + 40, "none", size=12, fill="#666"))
            cy += 20
        for d, loot in later:
            out += words(f"day {d}", size=11, room=48, fill="#333", weight="bold").draw(x2, cy + 6)
            pieces = [_loot_piece(rules, k) for k in sorted(loot, key=lambda k: rules.kind_order.get(k, 99))]
            drawn, h = flow(pieces, x2 + 50, cy, half - 50)
            out += drawn
            cy += h + 6
        return out, max(26 + h1, cy - y) + 14

    return draw


def _seats(rules: Rules, seen: Seen, seat: int | None, picks: Sequence[str | bool | None],
           decision: Decision | None, marked: Marks, y: float) -> tuple[list[str], float]:
    """Every seat's panel, in rows of ``columns`` that use the whole width; a row is as tall as its tallest."""
    players = seen.players
    cols = columns(len(players))
    gap = 14
    panel_w = (WIDTH - 2 * _M - (cols - 1) * gap) / cols
    acting = decision.player if decision is not None and seen.phase != "over" else None
    out: list[str] = []
    cy = y
    for row in range(0, len(players), cols):
        drawn_row = []
        for i, p in enumerate(players[row:row + cols]):
            pick = picks[p.seat] if picks and p.seat < len(picks) else None
            zones = _zones(rules, seen, p, pick, marked, panel_w - 16)
            left = (cols - len(players[row:row + cols])) * (panel_w + gap) / 2  # a short last row is centred
            drawn_row.append((_M + left + i * (panel_w + gap), p, zones))
        panel_h = max(_header_h(p, seat, seen.automa, panel_w, bool(rules.board.track_income))
                      + sum(h for _, _, h in zones) + 10 for _, p, zones in drawn_row)
        for x, p, zones in drawn_row:
            out += _panel(rules, p, x, cy + 6, panel_w, panel_h, zones, seat, seen.automa, p.seat == acting,
                          len(rules.board.track_income))
        cy += panel_h + gap + 6
    return out, cy - y


def _zones(rules: Rules, seen: Seen, p: PlayerState, pick: str | bool | None, marked: Marks,
           room: float) -> list[tuple[str, list[Piece], float]]:
    """A seat's zones, each a label and its pieces, with their heights once wrapped to ``room``."""
    order = rules.kind_order
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
            pieces.append(card(n, _rank(rules, n), _owner_colour(p.seat, n), _ability(rules, n), w=_MINI, size=10,
                               mark=mark))
        if hidden:
            pieces.append(card("", "", "", "", w=_MINI, size=10, hidden=hidden))
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
            pieces.append(_loot_piece(rules, k, mark))
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
            zones.append(("Today's pick (secret)", [card(str(pick), _rank(rules, str(pick)), seat_colour(p.seat),
                                                         _ability(rules, str(pick)), w=_MINI, size=10,
                                                         dashed=True)]))
    out = []
    for name, pieces in zones:
        if not pieces:
            pieces = [words("none", size=11, room=room, fill="#888")]
        _, h = flow(pieces, 0, 0, room)
        key = name.split()[0].lower()
        out.append((key, [words(name, size=11, room=room, fill="#333", weight="bold", cls=f"zone-{key}"), *pieces],
                    h + 18))
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
           zones: list[tuple[str, list[Piece], float]], seat: int | None, automa: int | None, acting: bool,
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
    for zone, pieces, zh in zones:
        head, rest = pieces[0], pieces[1:]
        inner.append(f'<g class="zone" data-zone={attr(zone)}>')
        inner += head.draw(x + 8, cy + 2)
        drawn, _ = flow(rest, x + 8, cy + 18, w - 16)
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
