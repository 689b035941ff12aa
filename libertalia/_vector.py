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
        self.seats: dict[int, _Seat] = {}  # per seat, its last vector (``fill_glance``): a cache, never pickled

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

        Each count and value is summed into the seat's ``_Seat.acc`` (a list of ints, which compiled code
        writes natively); then only the entries that differ from the seat's last vector (``_Seat.state``)
        reach its float buffer, whose writes are generic calls: a step changes a few of the hundred or so
        non-zero entries.  The result is a copy of that buffer, so a caller may keep or change it.
        """
        me = obs.seat
        # Claimed for the call (one atomic pop), as ``Game._glance`` claims its working copy: another thread
        # filling the same seat meanwhile finds none and starts a fresh one, so no two write one buffer.
        seat_cache: _Seat | None = self.seats.pop(me, None)
        if seat_cache is None:
            seat_cache = _Seat(self.size)
        acc = seat_cache.acc
        touched: list[int] = []
        players = obs.players
        _add(acc, touched, self.me + me, 1)
        _add(acc, touched, self.phases[obs.phase], 1)
        _count_cards(acc, touched, self.hand, players[me].hand)
        d = obs.decision
        if d is not None:
            player: int = d.player
            _add(acc, touched, self.decision_kinds[d.kind], 1)
            _add(acc, touched, self.decision_player + player, 1)
            if player == me:
                _add(acc, touched, self.decision_mine, 1)
            source: str | None = d.source
            if source is not None:
                at = self.sources.get(source.partition("#")[0])
                if at is not None:
                    _add(acc, touched, at, 1)
        committed = self.committed
        for seat, done in enumerate(obs.committed):
            if done:
                _add(acc, touched, committed + seat, 1)
        track_rows = self.track_rows
        for seat in range(len(track_rows)):
            _add(acc, touched, track_rows[seat] + players[seat].reputation, 1)
        island = obs.island
        cells = self.cells
        nobody = len(cells) - 1
        shift = self.to_position
        for position, (owner, name) in enumerate(island, 1):
            cell = _card(cells[nobody if owner is None else owner], name)
            _add(acc, touched, cell, 1)
            if acc[cell + shift] == 0:  # the cell's leftmost position on the island, 1-based
                _add(acc, touched, cell + shift, position)
        _count_kinds(acc, touched, self.day_loot, obs.day_loot)
        loot_days = self.loot_days
        for day, tokens in enumerate(obs.loot_days):
            _count_kinds(acc, touched, loot_days[day], tokens)
        cards, kinds = self.cards, self.kinds
        n = len(players)
        for seat in range(n):
            p = players[seat]
            zones = cards[seat]
            _count_cards(acc, touched, zones[0], p.hand)
            _count_cards(acc, touched, zones[1], p.ship)
            _count_cards(acc, touched, zones[2], p.graveyard)
            _count_cards(acc, touched, zones[3], p.kept)
            if len(zones) > 4:
                _count_cards(acc, touched, zones[4], p.removed)
            _count_kinds(acc, touched, kinds[seat][0], p.loot)
            _count_kinds(acc, touched, kinds[seat][1], p.kept_loot)
        automa = obs.automa
        if automa is not None:
            _add(acc, touched, self.automa[automa], 1)
        values = self.values
        _add(acc, touched, values[0], obs.voyage)
        _add(acc, touched, values[1], obs.day)
        _add(acc, touched, values[2], len(island))
        _add(acc, touched, values[3], obs.solo_deck_size)
        numbers = 3 if track_rows else 2
        for seat in range(n):
            p = players[seat]
            at = 4 + seat * numbers
            _add(acc, touched, values[at], p.doubloons)
            _add(acc, touched, values[at + 1], p.score)
            if track_rows:
                _add(acc, touched, values[at + 2], p.reputation)
            _add(acc, touched, values[4 + n * numbers + seat], len(p.hand))
            _add(acc, touched, values[4 + n * (numbers + 1) + seat], len(p.graveyard))
        # The buffer holds ``state``, which is non-zero only at the last vector's ``touched``: every entry that
        # may differ is there or in this one's.  Its writes are generic calls (no compiled memoryview), so their
        # index and value go in as Python objects made once (``boxed``, ``_COUNTS``).
        state = seat_cache.state
        x = seat_cache.view
        boxed = self.boxed
        for at in seat_cache.touched:
            v = acc[at]
            if state[at] != v:
                x[boxed[at]] = _value(v)
                state[at] = v
        for at in touched:
            v = acc[at]
            if state[at] != v:
                x[boxed[at]] = _value(v)
                state[at] = v
        for at in touched:  # apart: an entry listed twice (a sum back to 0, then not) is still written right
            acc[at] = 0
        seat_cache.touched = touched
        out = bytearray(seat_cache.out)
        self.seats[me] = seat_cache
        return out


class _Seat:
    """One seat's last vector, kept by ``Fill`` so that the next one writes only what changed.

    ``out`` (float32 bytes, viewed as ``view``) holds ``state``'s values, which are non-zero only at
    ``touched`` (the last vector's counted and valued entries); ``acc`` is all zeros between calls.
    """

    def __init__(self, size: int) -> None:
        self.out = bytearray(4 * size)
        self.view: Any = memoryview(self.out).cast("f")
        self.state: list[int] = [0] * size
        self.acc: list[int] = [0] * size
        self.touched: list[int] = []


def _add(acc: list[int], touched: list[int], at: int, v: int) -> None:
    """``v`` more at ``at`` (nothing for 0); ``at`` is listed in ``touched`` when it first becomes non-zero."""
    if v:
        old = acc[at]
        if old == 0:
            touched.append(at)
        acc[at] = old + v


_COUNTS: Final[list[Any]] = [float(k) for k in range(256)]
"""Small whole values as Python floats, made once: almost every value of the vector is one."""


def _value(v: int) -> Any:
    """``float(v)`` as a Python object, from ``_COUNTS`` when it is there (a count, a size, most scores)."""
    return _COUNTS[v] if 0 <= v < 256 else float(v)


def _count_cards(acc: list[int], touched: list[int], part: dict[str, int], names: list[str]) -> None:
    """One more at each card's index in ``part``; a hidden card (``"?"``) counts nowhere."""
    for name in names:
        if name != "?":
            at = _card(part, name)
            if at != HIDDEN:
                _add(acc, touched, at, 1)


def _count_kinds(acc: list[int], touched: list[int], part: dict[str, int], kinds: list[str]) -> None:
    """One more at each loot token's index in ``part`` (KeyError for a kind the layout lacks)."""
    for kind in kinds:
        _add(acc, touched, part[kind], 1)


def _probe() -> None:
    """A function of this module: a plain Python function here unless the module is compiled."""


NATIVE: Final = not isinstance(_probe, types.FunctionType)
"""Whether this module runs compiled (mypyc); ``env.encoding.Encoder`` uses ``Fill`` only then."""
