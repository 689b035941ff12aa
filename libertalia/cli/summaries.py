"""What ``libertalia play`` says at a voyage's end and at the game's end: where each seat's doubloons came from.

A voyage's payouts scroll past as one line per token and card; the summary under them says, for each
seat, what it banked and from what (``libertalia.earnings``), in one wrapped line a seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..earnings import Earnings, game_earnings, loot_last, voyage_earnings
from ..events import Banked
from ..game import Game
from ..state import Event
from .display import Laid, together, wrap
from .terminal import safe_text


def seat_name(seat: int, labels: Sequence[str], you: int | None = None) -> str:
    """``seat 2 (greedy)``; ``seat 0 (you)`` for the person playing."""
    if seat == you:
        return f"seat {seat} (you)"
    label = labels[seat] if seat < len(labels) else ""
    return f"seat {seat} ({label})" if label and label != "human" else f"seat {seat}"


def sources_text(earnings: Earnings) -> str:
    """``income 8, chest +15, relic -3``: each source's part, signed, income and starting doubloons unsigned."""
    parts = []
    for source, amount in earnings.sources:
        shown = str(amount) if source in ("income", "start") and amount > 0 else f"{amount:+d}"
        parts.append(together(f"{source} {shown}"))
    return ", ".join(parts) or "nothing"


def _seat_lines(head: str, earnings: Earnings, width: int) -> list[Text]:
    line = f"{together(head)}: {earnings.total} = {sources_text(earnings)}" if earnings.sources \
        else f"{together(head)}: {earnings.total}"
    return [safe_text(text) for text in wrap(line, width, first=2, indent=6)]


def voyage_summary(earnings: Sequence[Earnings], voyage: int, labels: Sequence[str], you: int | None) -> Laid:
    """A voyage's end: each seat's banked doubloons and their sources, a seat a (wrapped) line."""

    def layout(width: int, _: bool) -> list[Text]:
        lines = [safe_text(f"Voyage {voyage} ends: the doubloons each seat banked, and from what", style="bold")]
        for e in earnings:
            lines += _seat_lines(seat_name(e.seat, labels, you), e, width)
        return lines

    return Laid(layout)


def final_summary(game: Game, labels: Sequence[str], you: int | None) -> Laid:
    """The game's end: each seat's final score, the winners marked, and where its doubloons came from."""
    winners = set(game.winners())
    earnings = game_earnings(game.events, len(game.players), loot_last(game.rules))

    def layout(width: int, _: bool) -> list[Text]:
        lines = [safe_text("Final scores:", style="bold")]
        for p in game.players:
            who = seat_name(p.seat, labels, you)[len(f"seat {p.seat}"):]  # " (greedy)", or ""
            head = f"seat {p.seat}: {p.score}{who}" + ("  <- winner" if p.seat in winners else "")
            lines.append(safe_text(f"  {head}", style="bold" if p.seat in winners else ""))
            if p.seat < len(earnings) and earnings[p.seat].sources:
                lines += [safe_text(text) for text in
                          wrap(f"doubloons from {sources_text(earnings[p.seat])}", width, first=4, indent=6)]
        return lines

    return Laid(layout)


def voyage_ends(events: Sequence[Event], start: int = 0) -> list[tuple[int, int]]:
    """Where voyages end among ``events[start:]``: (index just past a voyage's last bank, voyage number)."""
    ends = []
    for i in range(start, len(events)):
        e = events[i]
        if isinstance(e, Banked) and (i + 1 == len(events) or not isinstance(events[i + 1], Banked)):
            ends.append((i + 1, max(e.voyage, 1)))
    return ends


def summaries_for(game: Game, start: int, labels: Sequence[str], you: int | None) -> list[tuple[int, Laid]]:
    """The voyage summaries to print among the game's ``events[start:]``, each with the index it follows."""
    events, players, last = game.events, len(game.players), loot_last(game.rules)
    return [(end, voyage_summary(voyage_earnings(events, voyage, players, last), voyage, labels, you))
            for end, voyage in voyage_ends(events, start)]
