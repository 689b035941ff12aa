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
from .state import CardRef

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
        self.segments = 2 + len(loot_days) + sum(len(zones) + 2 for zones in cards)  # ``fill_glance``'s lists

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

        The vector falls into segments that each depend on one list of the view (a zone's cards, a day's loot,
        the island) or on the few plain numbers and one-hot flags.  Each seat's last vector is kept
        (``_Seat``), with what each segment was made from; a segment whose list is unchanged (most of them,
        from one step to the next) is skipped, and a changed one rewrites only its old and new entries.
        The float buffer's writes are generic calls (no compiled memoryview), so their index and value go in
        as Python objects made once (``boxed``, ``_COUNTS``).  The result is a copy, a caller's to keep.
        """
        me = obs.seat
        # Claimed for the call (one atomic pop), as ``Game._glance`` claims its working copy: another thread
        # filling the same seat meanwhile finds none and starts a fresh one, so no two write one buffer.
        c: _Seat | None = self.seats.pop(me, None)
        if c is None:
            c = _Seat(self.size, len(self.values), self.segments)
        x, boxed = c.view, self.boxed
        players = obs.players
        _segment(x, c, boxed, 0, self.hand, players[me].hand, True)
        _segment(x, c, boxed, 1, self.day_loot, obs.day_loot, False)
        k = 2
        days = obs.loot_days
        for day, part in enumerate(self.loot_days):
            _segment(x, c, boxed, k, part, days[day] if day < len(days) else _NONE, False)
            k += 1
        cards, kinds = self.cards, self.kinds
        n = len(players)
        for seat in range(n):
            p = players[seat]
            zones = cards[seat]
            _segment(x, c, boxed, k, zones[0], p.hand, True)
            _segment(x, c, boxed, k + 1, zones[1], p.ship, True)
            _segment(x, c, boxed, k + 2, zones[2], p.graveyard, True)
            _segment(x, c, boxed, k + 3, zones[3], p.kept, True)
            k += 4
            if len(zones) > 4:
                _segment(x, c, boxed, k, zones[4], p.removed, True)
                k += 1
            _segment(x, c, boxed, k, kinds[seat][0], p.loot, False)
            _segment(x, c, boxed, k + 1, kinds[seat][1], p.kept_loot, False)
            k += 2
        island = obs.island
        if island != c.island:
            self._island(c, island)
        # The one-hot flags, each in a part of its own (so each is 0 or 1).
        flags: list[int] = [self.me + me, self.phases[obs.phase]]
        d = obs.decision
        if d is not None:
            player: int = d.player
            flags.append(self.decision_kinds[d.kind])
            flags.append(self.decision_player + player)
            if player == me:
                flags.append(self.decision_mine)
            source: str | None = d.source
            if source is not None:
                at = self.sources.get(source.partition("#")[0])
                if at is not None:
                    flags.append(at)
        committed = self.committed
        for seat, done in enumerate(obs.committed):
            if done:
                flags.append(committed + seat)
        track_rows = self.track_rows
        for seat in range(len(track_rows)):
            flags.append(track_rows[seat] + players[seat].reputation)
        automa = obs.automa
        if automa is not None:
            flags.append(self.automa[automa])
        if flags != c.flags:
            for at in c.flags:  # off first, then on: a flag in both ends on
                x[boxed[at]] = _COUNTS[0]
            for at in flags:
                x[boxed[at]] = _COUNTS[1]
            c.flags = flags
        # The plain values, at the fixed indices ``values``.
        values, now = self.values, c.values
        numbers = 3 if track_rows else 2
        _number(x, now, boxed, values, 0, obs.voyage)
        _number(x, now, boxed, values, 1, obs.day)
        _number(x, now, boxed, values, 2, len(island))
        _number(x, now, boxed, values, 3, obs.solo_deck_size)
        for seat in range(n):
            p = players[seat]
            at = 4 + seat * numbers
            _number(x, now, boxed, values, at, p.doubloons)
            _number(x, now, boxed, values, at + 1, p.score)
            if track_rows:
                _number(x, now, boxed, values, at + 2, p.reputation)
            _number(x, now, boxed, values, 4 + n * numbers + seat, len(p.hand))
            _number(x, now, boxed, values, 4 + n * (numbers + 1) + seat, len(p.graveyard))
        out = bytearray(c.out)
        self.seats[me] = c
        return out

    def _island(self, c: _Seat, island: list[CardRef]) -> None:
        """Rewrite the island's two parts in ``c``: each cell's count, and its leftmost position (1-based)."""
        x, state, boxed = c.view, c.state, self.boxed
        cells = self.cells
        nobody = len(cells) - 1
        shift = self.to_position
        new: list[int] = []
        for owner, name in island:
            new.append(_card(cells[nobody if owner is None else owner], name))
        old = c.cells
        for at in old:
            state[at] = 0
            state[at + shift] = 0
        for position, at in enumerate(new, 1):
            state[at] = state[at] + 1
            if state[at + shift] == 0:
                state[at + shift] = position
        for at in old:
            if state[at] == 0:  # gone: its two entries to 0 (one still there is written below)
                x[boxed[at]] = _COUNTS[0]
                x[boxed[at + shift]] = _COUNTS[0]
        for at in new:
            x[boxed[at]] = _value(state[at])
            x[boxed[at + shift]] = _value(state[at + shift])
        c.island = list(island)
        c.cells = new


class _Seat:
    """One seat's last vector, kept by ``Fill`` so that the next one rewrites only what changed.

    ``out`` (float32 bytes, viewed as ``view``) always holds what the rest says: each counted segment's
    entries are the counts (``state``) of its list in ``lists`` (a copy of the view's, whose names stand
    at ``indices``), the island's two parts those of ``island`` (its cards at ``cells``), the one-hot
    ``flags`` are 1, and the plain values are ``values``.  A new one is all zeros and says so: empty
    lists, no flags, values 0.
    """

    def __init__(self, size: int, values: int, segments: int) -> None:
        self.out = bytearray(4 * size)
        self.view: Any = memoryview(self.out).cast("f")
        self.state: list[int] = [0] * size
        self.delta: list[int] = [0] * size  # all zeros between calls (``_segment``)
        self.lists: list[list[str]] = [[] for _ in range(segments)]
        self.indices: list[list[int]] = [[] for _ in range(segments)]  # each list's names as their indices
        self.island: list[CardRef] = []
        self.cells: list[int] = []
        self.flags: list[int] = []
        self.values: list[int] = [0] * values


_NONE: Final[list[str]] = []
"""A day the view does not list: no loot."""


def _segment(x: Any, c: _Seat, boxed: list[Any], k: int, part: dict[str, int], names: list[str], cards: bool) -> None:
    """Bring segment ``k`` (its counts in ``part``, from ``c.lists[k]``) to ``names``: nothing when unchanged,
    else each entry whose count changed is rewritten.  ``cards``: names are cards (``_card``; a hidden ``"?"``
    counts nowhere), else loot kinds (``part[kind]``: KeyError for a kind the layout lacks)."""
    if names == c.lists[k]:
        return
    new: list[int] = []
    for name in names:
        if not cards:
            new.append(part[name])
        elif name != "?":
            new.append(_card(part, name))
    old = c.indices[k]
    state, delta = c.state, c.delta
    for at in old:
        delta[at] = delta[at] - 1
    for at in new:
        delta[at] = delta[at] + 1
    _apply(x, state, delta, boxed, old)
    _apply(x, state, delta, boxed, new)
    c.lists[k] = list(names)
    c.indices[k] = new


def _apply(x: Any, state: list[int], delta: list[int], boxed: list[Any], indices: list[int]) -> None:
    """Add each of ``indices``' pending ``delta`` to its count, writing the counts that changed; the delta is then 0
    (an index listed twice is applied once)."""
    for at in indices:
        change = delta[at]
        if change:
            v = state[at] + change
            state[at] = v
            delta[at] = 0
            x[boxed[at]] = _value(v)


def _number(x: Any, now: list[int], boxed: list[Any], values: list[int], i: int, v: int) -> None:
    """The ``i``-th plain value (at index ``values[i]``) set to ``v`` when it was not."""
    if now[i] != v:
        now[i] = v
        x[boxed[values[i]]] = _value(v)


_COUNTS: Final[list[Any]] = [float(k) for k in range(256)]
"""Small whole values as Python floats, made once: almost every value of the vector is one."""


def _value(v: int) -> Any:
    """``float(v)`` as a Python object, from ``_COUNTS`` when it is there (a count, a size, most scores)."""
    return _COUNTS[v] if 0 <= v < 256 else float(v)


def _probe() -> None:
    """A function of this module: a plain Python function here unless the module is compiled."""


NATIVE: Final = not isinstance(_probe, types.FunctionType)
"""Whether this module runs compiled (mypyc); ``env.encoding.Encoder`` uses ``Fill`` only then."""
