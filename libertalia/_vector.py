"""The observation vector's fill, one value at a time: the part of ``libertalia.env``'s encoder that mypyc compiles.

``env.encoding.Encoder`` works out every flat index once per env and hands them here as plain
dicts and lists (``Fill``); ``Fill.fill`` then reads one seat's view and writes each count and
value into float32 bytes (a ``bytearray``, which numpy views without a copy).  Compiled, that
loop is a few microseconds; interpreted, numpy's batched ``bincount`` (``Encoder.encode``) is the
faster way, so the env calls this only where it is compiled (``NATIVE``).  Both give the same
bits: ``tests/test_env_vector_compiled.py`` compares them on many states, in either build.

No numpy here, and nothing of the engine's working state: the view read is a ``_glance.Glance``
(typed lists of names, as the public API shows them, which compiled code reads natively), read off
the running game or copied from an ``Observation``, so the fill keeps working whatever the engine's
internals become.  mypyc-friendly: typed attributes, no closures.
"""

from __future__ import annotations

import types
from typing import Any, Final

from ._glance import Glance, viewed

HIDDEN: Final = -1
"""A card part's index for ``"?"`` (another seat's hidden card): not counted (its zone's size is)."""


def _card(part: dict[str, int], name: str) -> int:
    """``name``'s index in a card part; a card taken over (``"Cook#1"``) is its plain card.  KeyError if unknown."""
    at = part.get(name)
    if at is not None:
        return at
    plain = name.partition("#")[0]
    if plain == name:
        raise KeyError(name)
    return part[plain]


class Fill:
    """The flat indices of one env's layout, and the loop that writes a seat's view at them (``fill``).

    ``cards``: per seat and zone in the layout's order (hand, ship, graveyard, kept, [removed]), that
    part's card dict; ``kinds``: per seat, its ``loot`` then ``kept_loot`` kind dicts.  ``cells``: per
    island row (the seats, then "nobody"), card name to index in ``island_cards``.  ``values``: the
    indices of voyage, day, island size, solo deck size, then per seat its numbers (doubloons, score
    and, with a track, reputation), then per seat its hand size, then per seat its graveyard size.
    """

    def __init__(self, size: int, me: int, phases: dict[str, int], decision_kinds: dict[str, int],
                 decision_player: int, decision_mine: int, sources: dict[str, int], committed: int,
                 track_rows: list[int], cells: list[dict[str, int]], to_position: int, day_loot: dict[str, int],
                 loot_days: list[dict[str, int]], hand: dict[str, int], cards: list[list[dict[str, int]]],
                 kinds: list[list[dict[str, int]]], automa: list[int], values: list[int]) -> None:
        self.size = size
        self.me = me
        self.phases = phases
        self.decision_kinds = decision_kinds
        self.decision_player = decision_player
        self.decision_mine = decision_mine
        self.sources = sources
        self.committed = committed
        self.track_rows = track_rows
        self.cells = cells
        self.to_position = to_position
        self.day_loot = day_loot
        self.loot_days = loot_days
        self.hand = hand
        self.cards = cards
        self.kinds = kinds
        self.automa = automa
        self.values = values
        self.boxed: list[Any] = list(range(size))  # each index as a Python int, made once (``fill_glance``)

    def __reduce__(self) -> tuple[type[Fill], tuple[Any, ...]]:
        """Pickles as its constructor's arguments (a compiled class has no ``__dict__`` to pickle): an env,
        which holds one, pickles and copies in either build."""
        return Fill, (self.size, self.me, self.phases, self.decision_kinds, self.decision_player, self.decision_mine,
                      self.sources, self.committed, self.track_rows, self.cells, self.to_position, self.day_loot,
                      self.loot_days, self.hand, self.cards, self.kinds, self.automa, self.values)

    def fill(self, obs: Any) -> bytearray:
        """The vector for ``obs`` (an ``Observation``, or the ``Glance`` the env reads off a running game), as
        new float32 bytes.  An observation is first copied into a ``Glance``, whose typed lists compiled code
        reads natively (``fill_glance``)."""
        return self.fill_glance(obs if isinstance(obs, Glance) else viewed(obs))

    def fill_glance(self, obs: Glance) -> bytearray:
        """``fill``'s vector for a ``Glance``.

        The indices that count one are listed first (cheap to append when compiled), then sorted, so
        that each reaches the float buffer once, with its count; the plain values are written straight in.
        """
        size = self.size
        ones: list[int] = []
        me = obs.seat
        players = obs.players
        ones.append(self.me + me)
        ones.append(self.phases[obs.phase])
        _count_cards(ones, self.hand, players[me].hand)
        d = obs.decision
        if d is not None:
            player: int = d.player
            ones.append(self.decision_kinds[d.kind])
            ones.append(self.decision_player + player)
            if player == me:
                ones.append(self.decision_mine)
            source: str | None = d.source
            if source is not None:
                at = self.sources.get(source.partition("#")[0])
                if at is not None:
                    ones.append(at)
        committed = self.committed
        for seat, done in enumerate(obs.committed):
            if done:
                ones.append(committed + seat)
        track_rows = self.track_rows
        for seat in range(len(track_rows)):
            ones.append(track_rows[seat] + players[seat].reputation)
        island = obs.island
        cells = self.cells
        nobody = len(cells) - 1
        firsts: dict[int, int] = {}  # cell -> its leftmost position on the island, 1-based
        for position, (owner, name) in enumerate(island, 1):
            cell = _card(cells[nobody if owner is None else owner], name)
            ones.append(cell)
            if cell not in firsts:
                firsts[cell] = position
        _count_kinds(ones, self.day_loot, obs.day_loot)
        loot_days = self.loot_days
        for day, tokens in enumerate(obs.loot_days):
            _count_kinds(ones, loot_days[day], tokens)
        cards, kinds = self.cards, self.kinds
        n = len(players)
        for seat in range(n):
            p = players[seat]
            zones = cards[seat]
            _count_cards(ones, zones[0], p.hand)
            _count_cards(ones, zones[1], p.ship)
            _count_cards(ones, zones[2], p.graveyard)
            _count_cards(ones, zones[3], p.kept)
            if len(zones) > 4:
                _count_cards(ones, zones[4], p.removed)
            _count_kinds(ones, kinds[seat][0], p.loot)
            _count_kinds(ones, kinds[seat][1], p.kept_loot)
        automa = obs.automa
        if automa is not None:
            ones.append(self.automa[automa])
        # Sorted (cheaper than counting in a list here), so that each index reaches the float buffer once, with
        # its count.  The buffer's writes are generic calls (no compiled memoryview), so their index and value go
        # in as Python objects made once (``boxed``, ``_COUNTS``): nothing is allocated per write, at a third of
        # the cost.
        ones.sort()
        out = bytearray(4 * size)
        x = memoryview(out).cast("f")
        boxed = self.boxed
        last, count = -1, 0
        for at in ones:
            if at == last:
                count += 1
            else:
                if count:
                    x[boxed[last]] = _value(count)
                last, count = at, 1
        if count:
            x[boxed[last]] = _value(count)
        shift = self.to_position
        for cell, first in firsts.items():
            x[boxed[cell + shift]] = _value(first)
        values = self.values
        x[boxed[values[0]]] = _value(obs.voyage)
        x[boxed[values[1]]] = _value(obs.day)
        x[boxed[values[2]]] = _value(len(island))
        x[boxed[values[3]]] = _value(obs.solo_deck_size)
        numbers = 3 if track_rows else 2
        for seat in range(n):
            p = players[seat]
            at = 4 + seat * numbers
            x[boxed[values[at]]] = _value(p.doubloons)
            x[boxed[values[at + 1]]] = _value(p.score)
            if track_rows:
                x[boxed[values[at + 2]]] = _value(p.reputation)
            x[boxed[values[4 + n * numbers + seat]]] = _value(len(p.hand))
            x[boxed[values[4 + n * (numbers + 1) + seat]]] = _value(len(p.graveyard))
        x.release()
        return out


_COUNTS: Final[list[Any]] = [float(k) for k in range(256)]
"""Small whole values as Python floats, made once: almost every value of the vector is one."""


def _value(v: int) -> Any:
    """``float(v)`` as a Python object, from ``_COUNTS`` when it is there (a count, a size, most scores)."""
    return _COUNTS[v] if 0 <= v < 256 else float(v)


def _count_cards(ones: list[int], part: dict[str, int], names: list[str]) -> None:
    """One more at each card's index in ``part``; a hidden card (``HIDDEN``) counts nowhere."""
    for name in names:
        at = _card(part, name)
        if at != HIDDEN:
            ones.append(at)


def _count_kinds(ones: list[int], part: dict[str, int], kinds: list[str]) -> None:
    """One more at each loot token's index in ``part`` (KeyError for a kind the layout lacks)."""
    for kind in kinds:
        ones.append(part[kind])


def _probe() -> None:
    """A function of this module: a plain Python function here unless the module is compiled."""


NATIVE: Final = not isinstance(_probe, types.FunctionType)
"""Whether this module runs compiled (mypyc); ``env.encoding.Encoder`` uses ``Fill`` only then."""
