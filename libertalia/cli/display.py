"""How a game looks in a terminal: the table, a decision, a day's events.

Rich renders colour on a terminal and plain text when piped, so the same
code serves people and scripts.
"""

from __future__ import annotations

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..game import Game
from ..state import Decision, Event


def table_view(game: Game, seat: int) -> Group:
    """The island, every seat's ship, loot, doubloons and reputation, today's loot and your hand."""
    obs = game.observation(seat)
    solo = obs.automa is not None
    island = Text("Island: ", style="bold")
    island.append(", ".join(_card(name, owner, solo) for owner, name in obs.island) or "empty")
    loot = Text(f"Voyage {obs.voyage}, day {obs.day} ({obs.phase}). Today's loot: ", style="bold")
    loot.append(", ".join(obs.day_loot) or "none")
    seats = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    seats.add_column("seat")
    seats.add_column("doubloons", justify="right")
    seats.add_column("score", justify="right")
    if game.rules.board.track_income:
        seats.add_column("reputation", justify="right")
    seats.add_column("ship")
    seats.add_column("loot")
    for p in obs.players:
        name = f"{p.seat} (you)" if p.seat == seat else f"{p.seat} (Automa)" if p.seat == obs.automa else str(p.seat)
        row = [name, str(p.doubloons), str(p.score)]
        if game.rules.board.track_income:
            row.append(str(p.reputation))
        row += [", ".join(p.ship) or "-", ", ".join(p.loot) or "-"]
        seats.add_row(*row)
    me = obs.players[seat]
    hand = Text("Your hand: ", style="bold")
    hand.append(", ".join(me.hand) or "empty")
    if not solo:
        return Group(loot, island, seats, hand)
    assert obs.automa is not None
    automa = Text("Automa's open hand: ", style="bold")
    automa.append(", ".join(obs.players[obs.automa].hand) or "empty")
    automa.append(f"   (solo deck: {obs.solo_deck_size} cards)")
    return Group(loot, island, seats, automa, hand)


def _card(name: str, owner: int | None, solo: bool) -> str:
    """A card on the island: ``Cook@1`` for seat 1's; ``Cook (Pilferer)`` in a solo game, else neutral."""
    if owner is not None:
        return f"{name}@{owner}"
    return f"{name} (Pilferer)" if solo else name


def decision_view(decision: Decision) -> Group:
    title = Text(decision.prompt, style="bold cyan")
    if decision.source:
        title.append(f"  ({decision.source})", style="dim")
    lines = [title]
    for i, option in enumerate(decision.options, 1):
        line = Text(f"  {i:2d}. ")
        if option.label.startswith(option.key):
            line.append(option.key, style="bold")
            line.append(option.label[len(option.key):])
        else:
            line.append(option.label)
            line.append(f"  [{option.key}]", style="dim")
        lines.append(line)
    return Group(*lines)


def print_events(console: Console, events: tuple[Event, ...], start: int = 0) -> None:
    """Events from ``start`` on, day headers in bold."""
    for e in events[start:]:
        if e.kind in ("voyage", "day", "over", "rules"):
            console.print(Text(str(e), style="bold"))
        else:
            console.print("  " + str(e), highlight=False)
