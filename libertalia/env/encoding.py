"""A seat's observation as a fixed-length float32 vector, and the layout that decodes it.

The vector is built from ``Game.observation(seat)`` and nothing else, so it can hold no more
than the seat may see: other seats' hands and graveyards arrive as ``"?"`` and only their
sizes are encoded; another seat's pending question arrives without options.  Its length
depends on the rules (characters, loot kinds, voyage lengths, track) and the seat count only,
which is what a learner's fixed input layer needs.

Names in the layout: ``V`` characters (``rules.characters``, neutral cards included, in rank
order), ``K`` loot kinds (board order), ``n`` seats (Automa included in a solo game), ``D`` the
longest voyage in days, ``T`` the reputation track's spaces.  A card taken over from another
seat (``"Cook#1"``) counts as its plain card (``"Cook"``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from ..engine.specs import Rules
from ..game import Observation
from ..state import PlayerState
from .keys import seat_count

PHASES = ("select", "day", "dusk", "night", "anchor", "over")
"""``Game.phase`` values, in the order of the ``phase`` one-hot."""
DECISION_KINDS = ("play_character", "choose_character", "choose_loot", "may", "order_abilities", "choose_option")
"""Decision kinds, in the order of the ``decision_kind`` one-hot."""
HIGH = 1_000_000.0
"""The observation space's upper bound: above any count, score or position a game reaches."""


def _fields(rules: Rules, players: int) -> list[tuple[str, int]]:
    """The vector's parts in order, as (name, length)."""
    n = seat_count(rules, players)
    v, k = len(rules.characters), len(rules.kinds)
    d, t = max(rules.board.voyage_days), len(rules.board.track_income)
    removes = "removed" in (rules.board.ship_after_voyage, rules.board.graveyard_after_voyage)
    out = [
        ("me", n), ("hand", v), ("voyage", 1), ("day", 1), ("phase", len(PHASES)),
        ("decision_kind", len(DECISION_KINDS)), ("decision_mine", 1), ("decision_player", n),
        ("decision_source", v + k), ("committed", n),
    ]
    if t:
        out.append(("track", n * t))
    out += [("island_cards", (n + 1) * v), ("island_position", (n + 1) * v), ("island_size", 1),
            ("day_loot", k), ("loot_days", d * k), ("solo_deck_size", 1)]
    for seat in range(n):
        each = [("doubloons", 1), ("score", 1)] + ([("reputation", 1)] if t else [])
        each += [("automa", 1), ("hand_size", 1), ("hand", v), ("ship", v), ("graveyard_size", 1),
                 ("graveyard", v), ("kept", v)] + ([("removed", v)] if removes else [])
        each += [("loot", k), ("kept_loot", k)]
        out += [(f"seat_{seat}.{name}", size) for name, size in each]
    return out


def observation_layout(rules: Rules, players: int) -> dict[str, slice]:
    """Where each named part lies in the observation vector, in order (see docs/bots.md).

    Multi-row parts are flattened row by row: ``track`` is ``n`` rows (seats) of ``T`` spaces,
    ``island_cards`` and ``island_position`` ``n + 1`` rows (the seats, then "nobody": neutral
    and Pilferer cards) of ``V`` characters, ``loot_days`` ``D`` rows (days) of ``K`` kinds.
    """
    seat_count(rules, players, "observation_layout")
    layout: dict[str, slice] = {}
    at = 0
    for name, size in _fields(rules, players):
        layout[name] = slice(at, at + size)
        at += size
    return layout


class Encoder:
    """Turns one seat's ``Observation`` into the vector of ``observation_layout``; built once per env."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.seats = seat_count(rules, players)
        self.layout = observation_layout(rules, players)
        self.size = max(s.stop for s in self.layout.values())
        self.cards = {c.name: i for i, c in enumerate(rules.characters)}
        self.kinds = {kind: i for i, kind in enumerate(rules.kinds)}
        self.track = len(rules.board.track_income)
        self.phases = {p: i for i, p in enumerate(PHASES)}
        self.decision_kinds = {kind: i for i, kind in enumerate(DECISION_KINDS)}
        self.at = {name: s.start for name, s in self.layout.items()}

    def card(self, name: str) -> int:
        """A card's index: a taken-over card (``"Cook#1"``) is its plain card."""
        return self.cards[name.partition("#")[0]]

    def encode(self, obs: Observation) -> npt.NDArray[np.float32]:
        """The vector for ``obs`` (a new array each call: callers may keep it)."""
        x = np.zeros(self.size, dtype=np.float32)
        at, n, v = self.at, self.seats, len(self.cards)
        me = obs.seat
        x[at["me"] + me] = 1
        players = obs.players
        self._count(x, at["hand"], players[me].hand)
        x[at["voyage"]] = obs.voyage
        x[at["day"]] = obs.day
        x[at["phase"] + self.phases[obs.phase]] = 1
        d = obs.decision
        if d is not None:
            x[at["decision_kind"] + self.decision_kinds[d.kind]] = 1
            x[at["decision_mine"]] = d.player == me
            x[at["decision_player"] + d.player] = 1
            if d.source is not None:
                source = d.source.partition("#")[0]
                if source in self.cards:
                    x[at["decision_source"] + self.cards[source]] = 1
                elif source in self.kinds:
                    x[at["decision_source"] + v + self.kinds[source]] = 1
        for seat, done in enumerate(obs.committed):
            x[at["committed"] + seat] = done
        if self.track:
            for p in players:
                x[at["track"] + p.seat * self.track + p.reputation] = 1
        island = obs.island
        x[at["island_size"]] = len(island)
        for position, (owner, name) in enumerate(island, 1):
            cell = (n if owner is None else owner) * v + self.card(name)
            x[at["island_cards"] + cell] += 1
            if not x[at["island_position"] + cell]:  # the leftmost of two alike
                x[at["island_position"] + cell] = position
        self._loot(x, at["day_loot"], obs.day_loot)
        for day, tokens in enumerate(obs.loot_days):
            self._loot(x, at["loot_days"] + day * len(self.kinds), tokens)
        x[at["solo_deck_size"]] = obs.solo_deck_size
        for p in players:
            self._seat(x, f"seat_{p.seat}.", p, obs.automa)
        return x

    def _seat(self, x: npt.NDArray[np.float32], prefix: str, p: PlayerState, automa: int | None) -> None:
        at = self.at
        x[at[prefix + "doubloons"]] = p.doubloons
        x[at[prefix + "score"]] = p.score
        if self.track:
            x[at[prefix + "reputation"]] = p.reputation
        x[at[prefix + "automa"]] = p.seat == automa
        x[at[prefix + "hand_size"]] = len(p.hand)
        self._count(x, at[prefix + "hand"], p.hand)
        self._count(x, at[prefix + "ship"], p.ship)
        x[at[prefix + "graveyard_size"]] = len(p.graveyard)
        self._count(x, at[prefix + "graveyard"], p.graveyard)
        self._count(x, at[prefix + "kept"], p.kept)
        if prefix + "removed" in at:
            self._count(x, at[prefix + "removed"], p.removed)
        self._loot(x, at[prefix + "loot"], p.loot)
        self._loot(x, at[prefix + "kept_loot"], p.kept_loot)

    def _count(self, x: npt.NDArray[np.float32], start: int, names: Iterable[str]) -> None:
        """Add one per card at its index; hidden cards (``"?"``) add nothing."""
        for name in names:
            if name != "?":
                x[start + self.card(name)] += 1

    def _loot(self, x: npt.NDArray[np.float32], start: int, tokens: Iterable[str]) -> None:
        kinds = self.kinds
        for kind in tokens:
            x[start + kinds[kind]] += 1
