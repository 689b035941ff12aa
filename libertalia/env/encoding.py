"""A seat's observation as a fixed-length float32 vector, and the layout that decodes it.

The vector is built from ``Game.observation(seat)`` and nothing else (the env reads the same
fields off the running game without freezing it, ``Game._glance``), so it can hold no more
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

from collections.abc import Sequence
from itertools import chain
from operator import attrgetter
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from .. import _args, _vector
from ..engine.specs import Rules
from ..state import CardRef, Decision
from .keys import seat_count

PHASES = ("select", "day", "dusk", "night", "anchor", "over")
"""``Game.phase`` values, in the order of the ``phase`` one-hot."""
DECISION_KINDS = ("play_character", "choose_character", "choose_loot", "may", "order_abilities", "choose_option")
"""Decision kinds, in the order of the ``decision_kind`` one-hot."""
HIGH = 1_000_000.0
"""The observation space's upper bound: above any count, score or position a game reaches."""
OBSERVATIONS = ("dense", "scaled", "compact")
"""The observation kinds: the plain counts and values, each scaled to ``[0, 1]`` (``observation_bounds``), or the
plain vector's non-zero entries alone, as (index, value) pairs (``compact_length``)."""
POINTS_BOUND = 100.0
"""The scaled vector's bound for doubloons and score: a value above it is clipped to 1 (games rarely reach it)."""

# Parts whose values are 0 or 1 (one-hots and flags); scaled, they are left as they are.
_FLAGS = frozenset({"me", "phase", "decision_kind", "decision_mine", "decision_player", "decision_source",
                    "committed", "track", "automa", "loot_sides"})
_CARD_COUNTS = frozenset({"hand", "ship", "graveyard", "kept", "removed", "island_cards"})
_TOKEN_COUNTS = frozenset({"day_loot", "loot_days", "loot", "kept_loot"})


def _side_names(rules: Rules) -> list[tuple[str, str]]:
    """(kind, side) for each side an uncharted kind may take, in the rules' order: the ``loot_sides`` part."""
    return [(kind, spec.side) for kind, specs in rules.uncharted.items() for spec in specs]


def _fields(rules: Rules, players: int, loot_sides: bool = False) -> list[tuple[str, int]]:
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
    if loot_sides:
        out.append(("loot_sides", len(_side_names(rules))))
    return out


def observation_layout(rules: Rules, players: int, *, loot_sides: bool = False) -> dict[str, slice]:
    """Where each named part lies in the observation vector, in order (see docs/bots.md).

    Multi-row parts are flattened row by row: ``track`` is ``n`` rows (seats) of ``T`` spaces,
    ``island_cards`` and ``island_position`` ``n + 1`` rows (the seats, then "nobody": neutral
    and Pilferer cards) of ``V`` characters, ``loot_days`` ``D`` rows (days) of ``K`` kinds.
    ``loot_sides`` (only when asked for) is, per uncharted kind in turn, one flag per side it may take.
    """
    seat_count(rules, players, "observation_layout")
    _args.flag(loot_sides, "observation_layout", "loot_sides")
    layout: dict[str, slice] = {}
    at = 0
    for name, size in _fields(rules, players, loot_sides):
        layout[name] = slice(at, at + size)
        at += size
    return layout


def observation_bounds(rules: Rules, players: int, *, loot_sides: bool = False) -> npt.NDArray[np.float32]:
    """What ``observation="scaled"`` divides each value of the vector by (a value above it is clipped to 1).

    Flags and one-hots: 1.  A card's count in a zone (and on the island): the seat count ``n``,
    one copy of a character per seat.  A loot kind's count: its tokens in the bag.  ``voyage``:
    the voyages; ``day``: the longest voyage's days; a reputation: the track's last space;
    ``island_size``, ``island_position``: ``n * V``; ``hand_size``, ``graveyard_size``,
    ``solo_deck_size``: ``V``; doubloons and score: ``POINTS_BOUND``.  Every bound is at least 1.
    """
    layout = observation_layout(rules, players, loot_sides=loot_sides)
    n, v = seat_count(rules, players), len(rules.characters)
    bag = dict(rules.board.bag)
    tokens = [float(bag.get(kind, 1)) for kind in rules.kinds]
    plain = {"voyage": len(rules.board.voyage_days), "day": max(rules.board.voyage_days), "island_size": n * v,
             "island_position": n * v, "hand_size": v, "graveyard_size": v, "solo_deck_size": v,
             "doubloons": POINTS_BOUND, "score": POINTS_BOUND, "reputation": len(rules.board.track_income) - 1}
    out = np.ones(max((s.stop for s in layout.values()), default=0), np.float32)
    for name, where in layout.items():
        part = name.rpartition(".")[2]
        if part in _FLAGS:
            continue
        if part in _CARD_COUNTS:
            out[where] = n
        elif part in _TOKEN_COUNTS:
            out[where] = np.tile(tokens, (where.stop - where.start) // len(tokens))
        else:
            out[where] = plain[part]
    return np.maximum(out, 1.0)


def compact_length(rules: Rules, players: int, *, loot_sides: bool = False) -> int:
    """How many (index, value) pairs ``observation="compact"`` holds: a bound on the dense vector's non-zero
    entries that no game passes, worked out from the rules.

    Each one-hot part holds at most one 1; ``committed`` and ``track`` one per seat; plain values
    (sizes, coins, scores) one each; loot parts and ``loot_sides`` are counted whole (they are
    short).  The card parts (hands, ships, graveyards, kept, removed, the island's two) are the
    bulk: every character in a game (at most one copy per seat and one nobody's: ``(n + 1) * V``)
    counts in at most two of them (a zone and ``kept``, the island's cell and its position, your
    hand in ``hand`` and in your seat's block), and that bound is taken when it is the smaller.
    """
    layout = observation_layout(rules, players, loot_sides=loot_sides)
    n, v = seat_count(rules, players), len(rules.characters)
    one_hot = {"me", "phase", "decision_kind", "decision_player", "decision_source"}
    per_seat = {"committed", "track"}
    cards = 0
    total = 0
    for name, where in layout.items():
        part, length = name.rpartition(".")[2], where.stop - where.start
        if name in one_hot:
            total += min(1, length)
        elif name in per_seat:
            total += min(n, length)
        elif part in _CARD_COUNTS or name == "island_position":
            cards += length
        elif part == "automa":
            total += 1 if name == "seat_0.automa" else 0  # one seat at most is Automa's
        else:
            total += length
    return total + min(cards, 2 * (n + 1) * v + v)


class _Cards(dict[str, int]):
    """Card name -> flat index in one part; a taken-over card (``"Cook#1"``) is its plain card."""

    def __missing__(self, name: str) -> int:
        plain = name.partition("#")[0]
        if plain == name:
            raise KeyError(name)
        return self[plain]


class _Cells(dict[tuple[int | None, str], int]):
    """Island card (owner, name) -> flat index in ``island_cards``; a taken-over card is its plain card."""

    def __missing__(self, ref: tuple[int | None, str]) -> int:
        owner, name = ref
        plain = name.partition("#")[0]
        if plain == name:
            raise KeyError(ref)
        return self[owner, plain]


_HAND, _GRAVEYARD = attrgetter("hand"), attrgetter("graveyard")


class _SeatSeen(Protocol):
    """What ``Encoder.encode`` reads of one seat: a ``PlayerState`` (``Observation.players``) has it all."""

    @property
    def doubloons(self) -> int: ...
    @property
    def score(self) -> int: ...
    @property
    def reputation(self) -> int: ...
    @property
    def hand(self) -> Sequence[str]: ...
    @property
    def ship(self) -> Sequence[str]: ...
    @property
    def graveyard(self) -> Sequence[str]: ...
    @property
    def loot(self) -> Sequence[str]: ...
    @property
    def kept(self) -> Sequence[str]: ...
    @property
    def kept_loot(self) -> Sequence[str]: ...
    @property
    def removed(self) -> Sequence[str]: ...


class _Seen(Protocol):
    """What ``Encoder.encode`` reads of a seat's view: an ``Observation`` has it all (so has the env's
    unfrozen view of a game, ``Game._glance``, which is why this is no ``Observation`` only)."""

    @property
    def seat(self) -> int: ...
    @property
    def voyage(self) -> int: ...
    @property
    def day(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def island(self) -> Sequence[CardRef]: ...
    @property
    def loot_days(self) -> Sequence[Sequence[str]]: ...
    @property
    def day_loot(self) -> Sequence[str]: ...
    @property
    def automa(self) -> int | None: ...
    @property
    def solo_deck_size(self) -> int: ...
    @property
    def players(self) -> Sequence[_SeatSeen]: ...
    @property
    def decision(self) -> Decision | None: ...
    @property
    def committed(self) -> Sequence[bool]: ...


class Encoder:
    """Turns one seat's ``Observation`` into the vector of ``observation_layout``; built once per env.

    Speed matters here (a learner encodes every step), and numpy is slow one element at a time,
    so every flat index is worked out once, in ``__init__``.  ``encode`` then makes the list of
    indices that count one (each card or token looked up in its part's dict, in C through
    ``map``), counts them with one ``np.bincount``, and writes the plain values (coins, scores,
    sizes) with one assignment at indices fixed in advance.  A hidden card (``"?"``) counts in a
    spare bin past the end, which is cut off, so no card needs a test.
    """

    def __init__(self, rules: Rules, players: int, *, loot_sides: bool = False) -> None:
        self.seats = n = seat_count(rules, players)
        self.layout = observation_layout(rules, players, loot_sides=loot_sides)
        self.size = spare = max(s.stop for s in self.layout.values())
        self.at = at = {name: s.start for name, s in self.layout.items()}
        v = len(rules.characters)
        cards = _Cards({c.name: i for i, c in enumerate(rules.characters)})
        kinds = {kind: i for i, kind in enumerate(rules.kinds)}
        track = len(rules.board.track_income)

        def card_part(start: int) -> _Cards:
            part = _Cards({name: start + i for name, i in cards.items()})
            part["?"] = spare
            return part

        def kind_part(start: int) -> dict[str, int]:
            return {kind: start + i for kind, i in kinds.items()}

        self.phases = {p: at["phase"] + i for i, p in enumerate(PHASES)}
        self.decision_kinds = {kind: at["decision_kind"] + i for i, kind in enumerate(DECISION_KINDS)}
        # Cards after kinds, so that a name that is both counts as the card (the first part).
        self.sources = {**kind_part(at["decision_source"] + v),
                        **{name: at["decision_source"] + i for name, i in cards.items()}}
        self.hand = card_part(at["hand"]).__getitem__
        self.track_rows = [at["track"] + seat * track for seat in range(n)] if track else []
        self.cells = _Cells({(owner, name): at["island_cards"] + (n if owner is None else owner) * v + i
                             for owner in [*range(n), None] for name, i in cards.items()}).__getitem__
        self.to_position = at["island_position"] - at["island_cards"]
        self.day_loot = kind_part(at["day_loot"]).__getitem__
        self.loot_days = [kind_part(at["loot_days"] + day * len(kinds)).__getitem__
                          for day in range(max(rules.board.voyage_days))]
        # Each seat's zones, read in one go (``zones``), and the part each one counts in.
        card_zones = [z for z in ("hand", "ship", "graveyard", "kept", "removed") if f"seat_0.{z}" in at]
        self.zones = attrgetter(*card_zones, "loot", "kept_loot")
        self.zone_parts = [part.__getitem__ for seat in range(n) for part in
                           [*(card_part(at[f"seat_{seat}.{z}"]) for z in card_zones),
                            kind_part(at[f"seat_{seat}.loot"]), kind_part(at[f"seat_{seat}.kept_loot"])]]
        self.automa = [at[f"seat_{seat}.automa"] for seat in range(n)]
        # The plain values, in the order ``encode`` lists them.
        numbers = ("doubloons", "score", "reputation") if track else ("doubloons", "score")
        self.numbers = attrgetter(*numbers)
        self.value_at = np.array([at["voyage"], at["day"], at["island_size"], at["solo_deck_size"],
                                  *(at[f"seat_{seat}.{name}"] for seat in range(n) for name in numbers),
                                  *(at[f"seat_{seat}.hand_size"] for seat in range(n)),
                                  *(at[f"seat_{seat}.graveyard_size"] for seat in range(n))], dtype=np.intp)
        # Each uncharted (kind, side) to its flag; a game's rules name the sides it drew.
        self.sides = ({pair: at["loot_sides"] + i for i, pair in enumerate(_side_names(rules))}
                      if loot_sides else {})
        self.bounds = observation_bounds(rules, players, loot_sides=loot_sides)
        self.compact_length = compact_length(rules, players, loot_sides=loot_sides)
        # The same indices for the compiled fill (``libertalia._vector``): a hidden card counts nowhere there.
        def plain_cards(start: int) -> dict[str, int]:
            return {**{name: start + i for name, i in cards.items()}, "?": _vector.HIDDEN}

        self.fill = _vector.Fill(
            self.size, at["me"], dict(self.phases), dict(self.decision_kinds), at["decision_player"],
            at["decision_mine"], dict(self.sources), at["committed"], list(self.track_rows),
            [{name: at["island_cards"] + row * v + i for name, i in cards.items()} for row in range(n + 1)],
            self.to_position, kind_part(at["day_loot"]),
            [kind_part(at["loot_days"] + day * len(kinds)) for day in range(max(rules.board.voyage_days))],
            plain_cards(at["hand"]),
            [[plain_cards(at[f"seat_{seat}.{z}"]) for z in card_zones] for seat in range(n)],
            [[kind_part(at[f"seat_{seat}.loot"]), kind_part(at[f"seat_{seat}.kept_loot"])] for seat in range(n)],
            list(self.automa), [int(i) for i in self.value_at])
        if _vector.NATIVE:
            self.encode = self.encode_compiled  # type: ignore[method-assign]  # the same bits, faster

    def encode_compiled(self, obs: _Seen) -> npt.NDArray[np.float32]:
        """``encode``'s vector from the compiled fill (``libertalia._vector``): what ``encode`` is where that
        module is compiled.  Interpreted it is slower than ``encode``'s numpy, but gives the same bits."""
        return np.frombuffer(self.fill.fill(obs), np.float32)

    def mark_sides(self, x: npt.NDArray[np.float32], game_rules: Rules) -> None:
        """Set ``x``'s ``loot_sides`` flags from the sides a game drew (``game.rules``); nothing without that part."""
        sides = self.sides
        if sides:
            for pair in game_rules.loot_sides.items():
                at = sides.get(pair)
                if at is not None:
                    x[at] = 1.0

    def compact(self, x: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[Any]]:
        """``x``'s non-zero entries in index order: ``{"index": int32, "value": float32}``, each ``compact_length``
        long, padded with the index ``size`` (one past the vector) and the value 0."""
        at = np.flatnonzero(x)
        k, length = len(at), self.compact_length
        if k > length:
            raise RuntimeError(f"{k} non-zero values pass compact_length ({length}): a bug in libertalia.env."
                               "encoding (please report it with the rules and seed)")
        index = np.full(length, self.size, np.int32)
        index[:k] = at
        value = np.zeros(length, np.float32)
        value[:k] = x[at]
        return {"index": index, "value": value}

    def scale(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``x`` scaled in place to ``[0, 1]``: each value over its bound (``observation_bounds``), clipped to 1."""
        np.divide(x, self.bounds, out=x)
        np.minimum(x, 1.0, out=x)
        return x

    def encode(self, obs: _Seen) -> npt.NDArray[np.float32]:
        """The vector for ``obs``, an ``Observation`` (a new array each call: callers may keep it)."""
        at, me = self.at, obs.seat
        players = obs.players  # in seat order
        island = obs.island
        ones = [at["me"] + me, self.phases[obs.phase]]
        ones += map(self.hand, players[me].hand)
        d = obs.decision
        if d is not None:
            ones += (self.decision_kinds[d.kind], at["decision_player"] + d.player)
            if d.player == me:
                ones.append(at["decision_mine"])
            if d.source is not None:
                source = self.sources.get(d.source.partition("#")[0])
                if source is not None:
                    ones.append(source)
        ones += [at["committed"] + seat for seat, done in enumerate(obs.committed) if done]
        ones += [row + p.reputation for row, p in zip(self.track_rows, players, strict=False)]
        cells = list(map(self.cells, island))
        ones += cells
        ones += map(self.day_loot, obs.day_loot)
        ones += chain.from_iterable(map(map, self.loot_days, obs.loot_days))
        ones += chain.from_iterable(map(map, self.zone_parts, chain.from_iterable(map(self.zones, players))))
        automa = obs.automa
        if automa is not None:
            ones.append(self.automa[automa])
        x = np.bincount(ones, minlength=self.size + 1)[:self.size].astype(np.float32)
        x[self.value_at] = [obs.voyage, obs.day, len(island), obs.solo_deck_size,
                            *chain.from_iterable(map(self.numbers, players)),
                            *map(len, map(_HAND, players)), *map(len, map(_GRAVEYARD, players))]
        # Each cell's position on the island, 1-based: the leftmost of two alike (reversed, it is
        # written last).  A handful of cards: set one by one, cheaper than numpy's index lists.
        shift = self.to_position
        for cell, position in dict(zip(reversed(cells), range(len(cells), 0, -1), strict=True)).items():
            x[cell + shift] = position
        return x
