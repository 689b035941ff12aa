"""The table as text: what ``Game.render`` prints and ``libertalia play`` shows, seen by one seat.

Rich renders colour on a terminal and plain text when piped, so the same code serves people
and scripts.  Everything is laid out when it is printed, for the console's width (80 columns
when piped): a line breaks only between words, never inside one, and never inside a card's
name or a loot group ("map ×3").  Piped output holds no box-drawing characters, so it reads
the same in a log file, an e-mail or a test.  The command line's other views
(``cli.display``) are laid out with the same pieces.

The table reads a game through ``Table`` and ``Seen``, the parts of ``Game`` and
``Observation`` it shows, so that ``Game.render`` can use it without this module importing
``libertalia.game``.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

if TYPE_CHECKING:
    from .engine.specs import Rules
    from .state import CardRef, PlayerState

NBSP = "\u00a0"  # joins the words of a name: textwrap breaks lines only at ASCII whitespace
GAP = "  "  # between the columns of the seats' table
Layout = Callable[[int, bool], list[Text]]  # (width, ascii only) -> the lines


class Seen(Protocol):
    """What the table shows of a game to one seat: the reading API of its ``game.Observation``."""

    @property
    def voyage(self) -> int: ...
    @property
    def day(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def day_loot(self) -> tuple[str, ...]: ...
    @property
    def loot_days(self) -> tuple[tuple[str, ...], ...]: ...
    @property
    def island(self) -> tuple[CardRef, ...]: ...
    @property
    def players(self) -> tuple[PlayerState, ...]: ...
    @property
    def automa(self) -> int | None: ...
    @property
    def solo_deck_size(self) -> int: ...


class Table(Protocol):
    """A game the table can show (a ``game.Game``): its rules, and what each seat may see of it."""

    @property
    def rules(self) -> Rules: ...
    def observation(self, seat: int) -> Seen: ...


class Laid:
    """A renderable laid out at print time, at the width of the console that prints it."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.layout(options.max_width, options.ascii_only)


# ---------------------------------------------------------------- wrapping
def together(name: str) -> str:
    """``name`` with its spaces made unbreakable, so that a wrapped line never splits it."""
    return name.replace(" ", NBSP)


def wrap(text: str, width: int, indent: int = 0, first: int = 0) -> list[str]:
    """``text`` in lines of at most ``width`` (a word longer than that stands alone, whole).

    ``first`` and ``indent`` are the first and the following lines' indents; spaces joined
    with ``together`` hold, and are plain spaces again in the result.
    """
    lines = textwrap.wrap(text, width=max(width, 1), initial_indent=" " * first, subsequent_indent=" " * indent,
                          break_long_words=False, break_on_hyphens=False)
    return [line.replace(NBSP, " ") for line in lines] or [" " * first]


def listing(label: str, items: Sequence[str], width: int, empty: str = "empty",
            indent: int | None = None) -> list[Text]:
    """``label`` and the comma-separated ``items``, broken only between items, the label in bold."""
    body = ", ".join(together(item) for item in items) or empty
    hang = len(label) if indent is None else indent
    lines = wrap(together(label) + body, width, indent=hang if hang <= width // 2 else 2)
    texts = [Text(line) for line in lines]
    texts[0].stylize("bold", 0, len(label.rstrip()))
    return texts


def grouped(kinds: Iterable[str], order: Mapping[str, int] | None = None, times: str = "×") -> list[str]:
    """Loot tokens as groups, in board order: ``map ×3``, ``saber``."""
    counts = Counter(kinds)
    names = sorted(counts, key=lambda k: order.get(k, len(order))) if order else list(counts)
    return [kind if counts[kind] == 1 else f"{kind} {times}{counts[kind]}" for kind in names]


def grid(headers: Sequence[str], rows: Sequence[Sequence[Sequence[str]]], width: int,
         numeric: frozenset[int] = frozenset()) -> list[Text]:
    """A plain-text table; each cell is a list of items, wrapped only between items.

    The list columns give up width (down to their longest item) until the table fits;
    the ``numeric`` columns are right-aligned.  No box characters, so it pipes cleanly.
    """
    cells = [[", ".join(cell) or "-" for cell in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    least = [max([len(h), *(_least(row[i]) for row in rows)]) for i, h in enumerate(headers)]
    while sum(widths) + len(GAP) * (len(widths) - 1) > width:
        slack = [(w - m, i) for i, (w, m) in enumerate(zip(widths, least, strict=True)) if w > m]
        if not slack:
            break  # a terminal narrower than the longest names: the lines run on, the names stay whole
        widths[max(slack)[1]] -= 1
    out = [Text(_row([[h] for h in headers], widths, numeric)[0], style="bold")]
    for row in rows:
        wrapped = [wrap(", ".join(together(item) for item in cell) or "-", w)
                   for cell, w in zip(row, widths, strict=True)]
        out += [Text(line) for line in _row(wrapped, widths, numeric)]
    return out


def _least(cell: Sequence[str]) -> int:
    """The narrowest a cell can be: its longest item, and the comma after it when it wraps."""
    return max((len(item) + (len(cell) > 1) for item in cell), default=1)


def _row(cells: Sequence[Sequence[str]], widths: Sequence[int], numeric: frozenset[int]) -> list[str]:
    """The lines of one table row whose cells are already wrapped."""
    height = max(len(c) for c in cells)
    lines = []
    for n in range(height):
        parts = [(c[n] if n < len(c) else "") for c in cells]
        padded = [p.rjust(w) if i in numeric else p.ljust(w)
                  for i, (p, w) in enumerate(zip(parts, widths, strict=True))]
        lines.append(GAP.join(padded).rstrip())
    return lines


# ---------------------------------------------------------------- the table
def table_view(game: Table, seat: int) -> Laid:
    """What ``seat`` sees: the days' loot, the island, every seat's ship and loot, kept cards, hand."""
    return Laid(lambda width, ascii_only: table_lines(game, seat, width, ascii_only))


def table_lines(game: Table, seat: int, width: int = 80, ascii_only: bool = False) -> list[Text]:
    """``table_view``'s lines at ``width``: only what ``seat`` may see (its observation)."""
    obs = game.observation(seat)
    rules = game.rules
    times = "x" if ascii_only else "×"
    order = rules.kind_order
    lines = [Text(_heading(obs, rules), style="bold")]
    lines += listing("Today's loot: ", grouped(obs.day_loot, order, times), width, empty="none")
    lines += _loot_to_come(obs.loot_days, obs.day, order, times, width)
    solo = obs.automa is not None
    lines += listing("Island: ", [_card(name, owner, solo) for owner, name in obs.island], width)
    lines += _seats(rules, obs.players, seat, obs.automa, width, times)
    lines += _kept(obs.players, seat, obs.automa, order, times, width)
    me = obs.players[seat]
    lines += listing("Your graveyard: ", me.graveyard, width)
    if obs.automa is not None:
        automa = listing("Automa's open hand: ", obs.players[obs.automa].hand, width)
        lines += _append(automa, f"  (solo deck: {obs.solo_deck_size} cards)", width)
    lines += listing("Your hand: ", me.hand, width)
    return lines


def _append(lines: list[Text], note: str, width: int) -> list[Text]:
    """``note`` at the end of the last line if it fits there, else on a line of its own."""
    if len(lines[-1]) + len(note) <= width:
        lines[-1].append(note)
        return lines
    return [*lines, Text(note.strip().rjust(len(note)))]


def _heading(obs: Seen, rules: Rules) -> str:
    """``Voyage 1 of 3, day 2 of 4 (dusk)``: where the game stands."""
    days = rules.board.voyage_days
    voyage = f"Voyage {obs.voyage} of {len(days)}"
    of = f" of {days[obs.voyage - 1]}" if 0 < obs.voyage <= len(days) else ""
    return f"{voyage}, day {obs.day}{of} ({obs.phase})"


def _loot_to_come(days: Sequence[Sequence[str]], today: int, order: Mapping[str, int], times: str,
                  width: int) -> list[Text]:
    """The loot of every later day of this voyage: it is laid out in the open at the voyage's start."""
    label = "Loot to come: "
    lines: list[Text] = []
    for day, loot in enumerate(days, 1):
        if day > today and loot:
            lead = label if not lines else " " * len(label)
            lines += listing(f"{lead}day {day}: ", grouped(loot, order, times), width, indent=len(label) + 2)
    return lines


def _card(name: str, owner: int | None, solo: bool) -> str:
    """A card on the island: ``Cook (seat 1)``; ``Cook (Pilferer)`` in a solo game, else neutral."""
    if owner is not None:
        return f"{name} (seat {owner})"
    return f"{name} (Pilferer)" if solo else name


def _seat_name(p: PlayerState, seat: int, automa: int | None) -> str:
    return f"{p.seat} (you)" if p.seat == seat else f"{p.seat} (Automa)" if p.seat == automa else str(p.seat)


def _seats(rules: Rules, players: Sequence[PlayerState], seat: int, automa: int | None, width: int,
           times: str) -> list[Text]:
    """Every seat's doubloons, score, reputation, ship and loot, as a table that fits ``width``."""
    track = bool(rules.board.track_income)
    headers = ["seat", "doubloons", "score", *(["reputation"] if track else []), "ship", "loot"]
    rows = []
    for p in players:
        numbers = [str(p.doubloons), str(p.score), *([str(p.reputation)] if track else [])]
        rows.append([[_seat_name(p, seat, automa)], *([n] for n in numbers), list(p.ship),
                     grouped(p.loot, rules.kind_order, times)])
    return grid(headers, rows, width, numeric=frozenset(range(1, len(headers) - 2)))


def _kept(players: Sequence[PlayerState], seat: int, automa: int | None, order: Mapping[str, int], times: str,
          width: int) -> list[Text]:
    """Characters and loot that stay with a seat for the next voyage (public), when there are any."""
    parts = [f"{_seat_name(p, seat, automa)}: {', '.join([*p.kept, *grouped(p.kept_loot, order, times)])}"
             for p in players if p.kept or p.kept_loot]
    return listing("Kept for the next voyage: ", parts, width) if parts else []
