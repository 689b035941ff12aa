"""Where each seat's doubloons came from, voyage by voyage, read from the game's events.

A pure fold over events, for the summaries ``libertalia play`` prints at each voyage's end and
at the game's end.  A seat's doubloons of a voyage are banked at its end (``Banked``); each event
that changed them names its source, so the sources add up to what was banked:

- income or the starting doubloons of the voyage (``income``, ``start``), a handicap (``handicap``);
- an ability's gain or loss (``DoubloonsChanged``): the card or loot kind that acted;
- a payment (``Paid``): the paying seat loses it to ``seat N's CARD``, the paid seat gains it from its card;
- reputation past an end of the track (``ReputationOverflowed``): the card or loot kind that moved it,
  else ``reputation track``.

Should the events not add up to what was banked (a log kept in part), the difference is ``other``,
so a summary never claims more than the events show.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

import attrs

from .engine.specs import Rules
from .events import (
    Banked,
    DoubloonsChanged,
    HandicapDoubloons,
    IncomeCollected,
    Paid,
    ReputationOverflowed,
    StartingDoubloons,
)
from .state import Event

OTHER = "other"
"""The source of doubloons the events do not account for."""
FLOOR = "none below 0"
"""What a seat was spared when the anchor's losses went past its doubloons: it has 0, never a debt."""
BASE = ("start", "income", "handicap")
"""The sources a voyage begins with, listed first; then gains, largest first, then losses."""


@attrs.frozen
class Earnings:
    """One seat's doubloons of a voyage (or a whole game): the total and each source's part."""

    seat: int
    total: int  # banked (the voyage's doubloons), or the sum of the sources while none is banked yet
    sources: tuple[tuple[str, int], ...]  # (source, doubloons: negative for a loss), in ``BASE`` order first


_MONEY: frozenset[type] = frozenset({IncomeCollected, StartingDoubloons, HandicapDoubloons, DoubloonsChanged, Paid,
                                     ReputationOverflowed, Banked})
"""The event classes that move or bank doubloons (``_moves``, and ``Banked``)."""


def _moves(e: Event) -> Iterable[tuple[int, str, int]]:
    """The doubloons one event moved: (seat, source, amount) for each seat it changed."""
    if isinstance(e, IncomeCollected):
        yield e.seat, "income", e.doubloons
    elif isinstance(e, StartingDoubloons):
        yield e.seat, "start", e.doubloons
    elif isinstance(e, HandicapDoubloons):
        yield e.seat, "handicap", e.doubloons
    elif isinstance(e, DoubloonsChanged):
        yield e.seat, e.source, e.amount
    elif isinstance(e, Paid):
        yield e.seat, e.source, e.amount
        yield e.payer, f"seat {e.seat}'s {e.source}", -e.amount
    elif isinstance(e, ReputationOverflowed):
        yield e.seat, e.source or "reputation track", e.doubloons


def voyage_earnings(events: Sequence[Event], voyage: int, players: int,
                    loot_last: Collection[str] | None = None) -> tuple[Earnings, ...]:
    """Each seat's doubloons of ``voyage`` by source, from the events of that voyage.

    Events before the first voyage (a handicap) count in it.  Doubloons never go below 0 (an event
    names the change its card asked for), as the engine applies them:

    - by day and night a loss counts what the seat had left to lose, as it happens (R2);
    - the anchor's changes add up first and apply once (R3); a seat they would leave below 0 has 0,
      and what it was spared is ``FLOOR``;
    - ``loot_last``: the loot kinds, on a board that nets the characters' anchor changes and applies
      them before the loot's (``characters_then_loot``, E13); the loot's then add up on their own.
    """
    found: list[dict[str, int]] = [{} for _ in range(players)]
    purse, net = [0] * players, [0] * players
    banked: dict[int, int] = {}
    loot_begun = False

    def settle(seat: int) -> None:
        total = purse[seat] + net[seat]
        if total < 0:
            found[seat][FLOOR] = found[seat].get(FLOOR, 0) - total
        purse[seat], net[seat] = max(0, total), 0

    for e in events:
        if type(e) not in _MONEY or max(e.voyage, 1) != voyage:  # most events move no doubloons
            continue
        if isinstance(e, Banked):
            settle(e.seat)
            banked[e.seat] = e.doubloons
            continue
        moves = [(seat, source, amount) for seat, source, amount in _moves(e) if 0 <= seat < players]
        anchor = e.phase == "anchor"
        if anchor and moves and loot_last is not None and not loot_begun and e.source in loot_last:
            loot_begun = True
            for seat in range(players):
                settle(seat)
        for seat, source, amount in moves:
            if anchor:
                net[seat] += amount
            else:
                amount = max(amount, -purse[seat])
                purse[seat] += amount
            if amount:
                found[seat][source] = found[seat].get(source, 0) + amount
    return tuple(_earnings(seat, found[seat], banked.get(seat)) for seat in range(players))


def game_earnings(events: Sequence[Event], players: int,
                  loot_last: Collection[str] | None = None) -> tuple[Earnings, ...]:
    """Each seat's doubloons over every voyage played, by source: what its score is made of."""
    by_voyage: dict[int, list[Event]] = {}
    for e in events:  # one pass: each voyage then reads only its own events
        by_voyage.setdefault(max(e.voyage, 1), []).append(e)
    voyages = sorted(v for v, happened in by_voyage.items() if any(isinstance(e, Banked) for e in happened))
    per_voyage = [voyage_earnings(by_voyage[v], v, players, loot_last) for v in voyages]
    out = []
    for seat in range(players):
        sources: dict[str, int] = {}
        for earnings in per_voyage:
            for source, amount in earnings[seat].sources:
                sources[source] = sources.get(source, 0) + amount
        out.append(_earnings(seat, sources, sum(e[seat].total for e in per_voyage)))
    return tuple(out)


def _earnings(seat: int, sources: dict[str, int], banked: int | None) -> Earnings:
    found = sum(sources.values())
    if banked is not None and banked != found:
        sources = {**sources, OTHER: sources.get(OTHER, 0) + banked - found}
    ordered = sorted(((s, n) for s, n in sources.items() if n),
                     key=lambda sn: (BASE.index(sn[0]) if sn[0] in BASE else len(BASE), -sn[1], sn[0]))
    return Earnings(seat, found if banked is None else banked, tuple(ordered))


def loot_last(rules: Rules) -> frozenset[str] | None:
    """The loot kinds whose anchor changes apply after the characters' (E13), or None where all are netted together."""
    return frozenset(rules.kinds) if rules.board.anchor_order == "characters_then_loot" else None
