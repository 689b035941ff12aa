"""How a game looks in a terminal: the table, a decision, a day's events, a card.

Rich renders colour on a terminal and plain text when piped, so the same code serves people
and scripts.  Everything is laid out when it is printed, for the console's width (80 columns
when piped): a line breaks only between words, never inside one, and never inside a card's
name or a loot group ("map ×3").  Piped output holds no box-drawing characters, so it reads
the same in a log file, an e-mail or a test.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from ..engine.specs import Rules
from ..game import Game
from ..state import Decision, Event, PlayerState

RANK_LEGEND = ("The number after a character is its rank: by day the island acts from the lowest rank up, "
               "and at dusk the highest rank takes its loot first.")
NBSP = "\u00a0"  # joins the words of a name: textwrap breaks lines only at ASCII whitespace
GAP = "  "  # between the columns of the seats' table
Layout = Callable[[int, bool], list[Text]]  # (width, ascii only) -> the lines


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
def table_view(game: Game, seat: int) -> Laid:
    """What ``seat`` sees: the days' loot, the island, every seat's ship and loot, kept cards, hand."""
    return Laid(lambda width, ascii_only: table_lines(game, seat, width, ascii_only))


def table_lines(game: Game, seat: int, width: int = 80, ascii_only: bool = False) -> list[Text]:
    """``table_view``'s lines at ``width``: only what ``seat`` may see (its observation)."""
    obs = game.observation(seat)
    times = "x" if ascii_only else "×"
    order = game.rules.kind_order
    lines = [Text(_heading(game), style="bold")]
    lines += listing("Today's loot: ", grouped(obs.day_loot, order, times), width, empty="none")
    lines += _loot_to_come(obs.loot_days, obs.day, order, times, width)
    solo = obs.automa is not None
    lines += listing("Island: ", [_card(name, owner, solo) for owner, name in obs.island], width)
    lines += _seats(game, obs.players, seat, obs.automa, width, times)
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


def _heading(game: Game) -> str:
    """``Voyage 1 of 3, day 2 of 4 (dusk)``: where the game stands."""
    days = game.rules.board.voyage_days
    voyage = f"Voyage {game.voyage} of {len(days)}"
    of = f" of {days[game.voyage - 1]}" if 0 < game.voyage <= len(days) else ""
    return f"{voyage}, day {game.day}{of} ({game.phase})"


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


def _seats(game: Game, players: Sequence[PlayerState], seat: int, automa: int | None, width: int,
           times: str) -> list[Text]:
    """Every seat's doubloons, score, reputation, ship and loot, as a table that fits ``width``."""
    track = bool(game.rules.board.track_income)
    headers = ["seat", "doubloons", "score", *(["reputation"] if track else []), "ship", "loot"]
    rows = []
    for p in players:
        numbers = [str(p.doubloons), str(p.score), *([str(p.reputation)] if track else [])]
        rows.append([[_seat_name(p, seat, automa)], *([n] for n in numbers), list(p.ship),
                     grouped(p.loot, game.rules.kind_order, times)])
    return grid(headers, rows, width, numeric=frozenset(range(1, len(headers) - 2)))


def _kept(players: Sequence[PlayerState], seat: int, automa: int | None, order: Mapping[str, int], times: str,
          width: int) -> list[Text]:
    """Characters and loot that stay with a seat for the next voyage (public), when there are any."""
    parts = [f"{_seat_name(p, seat, automa)}: {', '.join([*p.kept, *grouped(p.kept_loot, order, times)])}"
             for p in players if p.kept or p.kept_loot]
    return listing("Kept for the next voyage: ", parts, width) if parts else []


# ---------------------------------------------------------------- decisions, events, cards
def decision_view(decision: Decision, legend: bool = False) -> Laid:
    """The question and its numbered options; with ``legend``, what the number after a name means."""
    return Laid(lambda width, _: decision_lines(decision, width, legend))


def decision_lines(decision: Decision, width: int = 80, legend: bool = False) -> list[Text]:
    """``decision_view``'s lines at ``width``: an option's key (a card's name) is never split."""
    lines = [Text(line, style="bold cyan") for line in wrap(decision.prompt, width)]
    if decision.source:
        source = f"  ({decision.source})"
        if len(lines[-1]) + len(source) <= width:
            lines[-1].append(source, style="dim")
        else:
            lines.append(Text(source, style="dim"))
    for i, option in enumerate(decision.options, 1):
        keyed = option.label.startswith(option.key)
        shown = (together(option.key) + option.label[len(option.key):] if keyed
                 else f"{option.label}  [{together(option.key)}]")
        number = f"  {i:2d}. "
        for n, line in enumerate(wrap(number.replace(" ", NBSP) + shown, width, indent=len(number))):
            text = Text(line)
            if n == 0 and keyed:
                text.stylize("bold", len(number), len(number) + len(option.key))
            lines.append(text)
    if legend:
        lines += [Text(line, style="dim") for line in wrap(RANK_LEGEND, width, first=2, indent=2)]
    return lines


def ranked(decision: Decision, rules: Rules) -> bool:
    """Whether the options are characters shown with their rank, as in ``Necromancer (19)``."""
    for option in decision.options:
        name = re.sub(r"[@#]\d+$", "", option.key)
        if rules.has_card(name) and f"({rules.card(name).rank:g}" in option.label:
            return True
    return False


def print_events(console: Console, events: tuple[Event, ...], start: int = 0, names: Iterable[str] = ()) -> None:
    """Events from ``start`` on, day headers in bold, each wrapped whole-word at the console's width.

    ``names``: card names of more than one word, kept on one line (``Wind Nymph``).
    """
    joined = sorted((n for n in names if " " in n), key=len, reverse=True)
    for e in events[start:]:
        text = re.sub(r"\bseats? (\d)", lambda m: together(m.group(0)), str(e))
        for name in joined:
            text = text.replace(name, together(name))
        header = e.kind in ("voyage", "day", "over", "rules")
        for line in wrap(text, console.width, first=0 if header else 2, indent=2 if header else 4):
            console.print(Text(line, style="bold" if header else ""), highlight=False)


def card_view(rules: Rules, name: str) -> Laid:
    """A character's or loot kind's name, rank or side, and text: ``show NAME`` at the prompt."""

    def layout(width: int, _: bool) -> list[Text]:
        if name in rules.kinds:
            spec = rules.loot_spec(name)
            title, text = f"{spec.kind} (loot, {spec.side} side, {spec.count} tokens)", spec.text
        else:
            card = rules.card(name)
            title, text = f"{card.name} (rank {card.rank:g})", card.text or "(neutral: no abilities)"
        lines = [Text(title, style="bold")]
        for paragraph in text.strip().splitlines():
            lines += [Text(line) for line in wrap(paragraph, width, first=2, indent=4)]
        return lines

    return Laid(layout)

