"""A seat's view as plain typed lists, read straight off a working copy: what the env's vector is defined from.

Compiled by mypyc with the engine.  ``glance`` reads one off the working copy (``Work``), nothing frozen: the
pure build's env encodes it at every step, and ``Game._glance`` hands it to a reader; the compiled env's
step reads the same fields off the copy itself (``_vector.Fill.fill_work``).  ``viewed`` copies one from an
``Observation`` (the vector is defined from the observation: both give the same fields, which
``tests/test_env_fast_observe.py`` holds to).  Its fields are typed lists and numbers so that the compiled
fill (``libertalia._vector``) reads them natively.  Names stay the ones the public API shows; mypyc-friendly:
typed attributes, no closures.
"""

from __future__ import annotations

from typing import Any, Final

from .engine.work import Work
from .state import CardRef, Decision

PHASES: Final = {
    "voyage": "select", "select": "select", "reveal": "select", "sun": "day",
    "dusk": "dusk", "night": "night", "anchor": "anchor", "over": "over",
}
"""The engine's step to the phase a reader sees (``Game.phase``)."""
HIDDEN: Final = "?"
"""A card another seat may not see, as ``Observation.players`` shows it."""


class SeatGlance:
    """One seat as ``Observation.players`` shows it (another seat's hand and graveyard as ``"?"``)."""

    __slots__ = ("doubloons", "score", "reputation", "hand", "ship", "graveyard", "loot", "kept", "kept_loot",
                 "removed")

    def __init__(self, doubloons: int, score: int, reputation: int, hand: list[str], ship: list[str],
                 graveyard: list[str], loot: list[str], kept: list[str], kept_loot: list[str],
                 removed: list[str]) -> None:
        self.doubloons = doubloons
        self.score = score
        self.reputation = reputation
        self.hand = hand
        self.ship = ship
        self.graveyard = graveyard
        self.loot = loot
        self.kept = kept
        self.kept_loot = kept_loot
        self.removed = removed


class Glance:
    """What ``Observation(game, seat)`` shows of the fields ``libertalia.env`` encodes.

    Read off a working copy (``glance``), it shares the copy's lists: valid while the copy stands still
    only, since the game changes them once it is answered.
    """

    __slots__ = ("seat", "voyage", "day", "phase", "island", "loot_days", "day_loot", "automa", "solo_deck_size",
                 "players", "decision", "committed")

    def __init__(self, seat: int, voyage: int, day: int, phase: str, island: list[CardRef],
                 loot_days: list[list[str]], day_loot: list[str], automa: int | None, solo_deck_size: int,
                 players: list[SeatGlance], decision: Decision | None, committed: list[bool]) -> None:
        self.seat = seat
        self.voyage = voyage
        self.day = day
        self.phase = phase
        self.island = island
        self.loot_days = loot_days
        self.day_loot = day_loot
        self.automa = automa
        self.solo_deck_size = solo_deck_size
        self.players = players
        self.decision = decision
        self.committed = committed


def glance(w: Work, decision: Decision | None, seat: int) -> Glance:
    """``seat``'s view of the game the working copy ``w`` stands at (``decision`` its question): the copy's
    own lists, shared, where the seat may see them, so that nothing is frozen or copied."""
    day = w.day
    days = w.days
    automa = w.automa
    track = w.track
    seats = w.seats
    spaces = [0] * len(seats)  # as ``Work.freeze_seats`` reads the track: each seat's token's (last) place, else 0
    for at, token in enumerate(track):
        if 0 <= token < len(spaces):
            spaces[token] = at
    players: list[SeatGlance] = []
    for i, p in enumerate(seats):
        open_hand = i in (seat, automa)
        players.append(SeatGlance(p.coins, p.score, spaces[i], p.hand if open_hand else [HIDDEN] * len(p.hand),
                                  p.ship, p.graveyard if open_hand else [HIDDEN] * len(p.graveyard), p.loot,
                                  p.kept, p.kept_loot, p.removed))
    if decision is not None and decision.player != seat:  # as ``Observation.decision`` hides it
        decision = Decision(decision.player, decision.kind, (), f"waiting for seat {decision.player}",
                            decision.source)
    return Glance(seat, w.voyage, day, PHASES[w.step], w.island, days,
                  days[day - 1] if 0 < day <= len(days) else [], automa, len(w.solo_deck), players, decision,
                  [c is not None for c in w.commits])


def viewed(obs: Any) -> Glance:
    """The same fields copied from anything that shows them as ``Observation`` does (an ``Observation``)."""
    players = [SeatGlance(p.doubloons, p.score, p.reputation, list(p.hand), list(p.ship), list(p.graveyard),
                          list(p.loot), list(p.kept), list(p.kept_loot), list(p.removed)) for p in obs.players]
    return Glance(obs.seat, obs.voyage, obs.day, obs.phase, list(obs.island), [list(d) for d in obs.loot_days],
                  list(obs.day_loot), obs.automa, obs.solo_deck_size, players, obs.decision, list(obs.committed))
