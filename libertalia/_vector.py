"""The observation vector's fill, one value at a time: the part of ``libertalia.env``'s encoder that mypyc compiles.

``env.encoding.Encoder`` works out every flat index once per env and hands them here as plain
dicts and lists (``Fill``); ``Fill.fill`` then reads one seat's view and writes each count and
value into float32 bytes (a ``bytearray``, which numpy views without a copy).  Compiled, that
loop is a few microseconds; interpreted, numpy's batched ``bincount`` (``Encoder.encode``) is the
faster way, so the env calls this only where it is compiled (``NATIVE``).  Both give the same
bits: ``tests/test_env_vector_compiled.py`` compares them on many states, in either build.

No numpy here.  Two ways in: ``fill`` reads a ``_glance.Glance`` (typed lists of names, as the public
API shows them), copied from an ``Observation`` or read off a game; ``fill_work``, the env's step, reads
the working copy (``Work``) itself, the same fields ``_glance.glance`` reads, without building a view.
Both give the same bits (``tests/test_env_fast_observe.py``, ``tests/test_env_vector_golden.py``).
mypyc-friendly: typed attributes, no closures.
"""

from __future__ import annotations

import types
from typing import Any, Final

from ._glance import PHASES, Glance, viewed
from .engine.work import Work
from .state import CardRef, Decision

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
        # ``fill_work``'s caches, never pickled: the last public vector (what every seat sees alike), and per
        # seat what only it sees, as float32 bytes at fixed places (``_Private``).
        self.public: _Seat | None = None
        self.privates: dict[int, _Private] = {}
        # Where the parts that only one seat sees begin, and how long they are: the ``me`` one-hot and the
        # ``hand`` part lie side by side (``me`` first), and each seat's hand and graveyard parts.
        self.cards_length = sum(1 for at in hand.values() if at >= 0)
        self.me_length = min(at for at in hand.values() if at >= 0) - me
        self.zone_starts = [[min(at for at in zones[z].values() if at >= 0) for z in (0, 2)] for zones in cards]

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

    def fill_work(self, w: Work, d: Decision | None, me: int) -> bytearray:
        """``fill``'s vector of seat ``me``'s view of the game the working copy ``w`` stands at (``d`` its
        question), read off the copy: the env's observation at every step, as new float32 bytes.

        What every seat sees alike (all but a seat's own hand and graveyard, the ``me`` one-hot and
        ``decision_mine``) is kept in one vector, brought up to date here as ``fill_glance`` brings a seat's
        (only what changed since the last call, whichever seat asked: one decision's worth, at the env's
        step).  The result is a copy of it with the seat's own parts laid over it, each one contiguous run
        of bytes made once per change of that seat's hand or graveyard (``_Private``).
        """
        # Claimed for the call, as ``fill_glance`` claims a seat's: another thread finds none and starts afresh.
        c = self.public
        self.public = None
        if c is None:
            c = _Seat(self.size, len(self.values), self.segments)
        self._public(c, w, d)
        out = c.out[:]
        self.public = c
        p = self.privates.pop(me, None)
        if p is None:
            p = _Private()
        seat = w.seats[me]
        hand, graveyard = seat.hand, seat.graveyard
        starts = self.zone_starts[me]
        if hand != p.hand:
            # The counts of the hand's cards, the same run at the top (after the ``me`` one-hot) and in its part.
            p.hand_zone = _run(self.cards_length, self.cards[me][0], starts[0], hand)
            p.top = _flag_run(self.me_length, me) + p.hand_zone
            p.hand = list(hand)
        if graveyard != p.graveyard:
            p.graveyard_zone = _run(self.cards_length, self.cards[me][2], starts[1], graveyard)
            p.graveyard = list(graveyard)
        _lay(out, self.me * 4, p.top)
        _lay(out, starts[0] * 4, p.hand_zone)
        _lay(out, starts[1] * 4, p.graveyard_zone)
        if d is not None and d.player == me:
            _lay(out, self.decision_mine * 4, _ONE)
        self.privates[me] = p
        return out

    def _public(self, c: _Seat, w: Work, d: Decision | None) -> None:
        """Bring the kept public vector ``c`` to the game ``w`` stands at: every part ``fill_glance`` writes
        except a seat's own (the ``me`` one-hot, the top ``hand`` part, ``decision_mine``, and the hand and
        graveyard parts of every seat but Automa's, whose hand all see)."""
        x, boxed = c.view, self.boxed
        day = w.day
        days = w.days
        _segment(x, c, boxed, 1, self.day_loot, days[day - 1] if 0 < day <= len(days) else _NONE, False)
        k = 2
        for i, part in enumerate(self.loot_days):
            _segment(x, c, boxed, k, part, days[i] if i < len(days) else _NONE, False)
            k += 1
        cards, kinds = self.cards, self.kinds
        automa = w.automa
        seats = w.seats
        n = len(seats)
        track = w.track
        spaces = [0] * n  # as ``_glance.glance`` reads the track: each seat's token's (last) place, else 0
        for at, token in enumerate(track):
            if 0 <= token < n:
                spaces[token] = at
        for i in range(n):
            p = seats[i]
            zones = cards[i]
            shown = automa is not None and i == automa
            if shown or c.lists[k]:  # a hidden hand counts nowhere: nothing to do once its part is empty
                _segment(x, c, boxed, k, zones[0], p.hand if shown else _NONE, True)
            _segment(x, c, boxed, k + 1, zones[1], p.ship, True)
            if shown or c.lists[k + 2]:
                _segment(x, c, boxed, k + 2, zones[2], p.graveyard if shown else _NONE, True)
            _segment(x, c, boxed, k + 3, zones[3], p.kept, True)
            k += 4
            if len(zones) > 4:
                _segment(x, c, boxed, k, zones[4], p.removed, True)
                k += 1
            _segment(x, c, boxed, k, kinds[i][0], p.loot, False)
            _segment(x, c, boxed, k + 1, kinds[i][1], p.kept_loot, False)
            k += 2
        island = w.island
        if island != c.island:
            self._island(c, island)
        # The one-hot flags: the question's (new at almost every step) apart from the rest, each list rewritten
        # only when it changed.
        asked: list[int] = []
        if d is not None:
            asked.append(self.decision_kinds[d.kind])
            asked.append(self.decision_player + d.player)
            source: str | None = d.source
            if source is not None:
                shown_at = self.sources.get(source.partition("#")[0])
                if shown_at is not None:
                    asked.append(shown_at)
        if asked != c.asked:
            _flags(x, boxed, c.asked, asked)
            c.asked = asked
        flags: list[int] = [self.phases[PHASES[w.step]]]
        committed = self.committed
        for i, done in enumerate(w.commits):
            if done is not None:
                flags.append(committed + i)
        track_rows = self.track_rows
        for i in range(len(track_rows)):
            flags.append(track_rows[i] + spaces[i])
        if automa is not None:
            flags.append(self.automa[automa])
        if flags != c.flags:
            _flags(x, boxed, c.flags, flags)
            c.flags = flags
        # The plain values, listed as ``values`` places them, then written where they changed.
        now: list[int] = [w.voyage, day, len(island), len(w.solo_deck)]
        for i in range(n):
            p = seats[i]
            now.append(p.coins)
            now.append(p.score)
            if track_rows:
                now.append(spaces[i])
        for i in range(n):
            now.append(len(seats[i].hand))
        for i in range(n):
            now.append(len(seats[i].graveyard))
        if now != c.values:
            old, values = c.values, self.values
            for i in range(len(now)):
                v = now[i]
                if v != old[i]:
                    x[boxed[values[i]]] = _value(v)
            c.values = now

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
        self.asked: list[int] = []  # the question's flags, kept apart by ``Fill.fill_work`` (``fill_glance``: none)
        self.values: list[int] = [0] * values


class _Private:
    """What one seat alone sees, kept by ``Fill.fill_work`` as float32 bytes laid over the public vector.

    ``top``: the ``me`` one-hot and the top ``hand`` part, side by side; ``hand_zone`` and ``graveyard_zone``:
    the seat's own hand and graveyard parts; each made from the copy of the seat's list beside it.
    """

    def __init__(self) -> None:
        self.hand: list[str] = ["?"]  # never a seat's hand: the first call makes every run
        self.graveyard: list[str] = ["?"]
        self.top = bytearray()
        self.hand_zone = bytearray()
        self.graveyard_zone = bytearray()


def _run(length: int, part: dict[str, int], first: int, names: list[str]) -> bytearray:
    """``length`` float32 values as bytes, for the part of the vector from index ``first``: each card of ``names``
    counted at its place in ``part`` (``_card``).  The usual list (plain names, each once) writes each 1.0 as one
    slice of bytes; a marked name or a name twice counts first (``_counted``)."""
    raw = bytearray(4 * length)
    one = _FLOATS[1]
    for name in names:
        at = part.get(name)
        if at is None or at < 0:  # marked ("Cook#1") or hidden ("?"): counted the long way
            return _counted(length, part, first, names)
        at = 4 * (at - first)
        raw[at:at + 4] = one
    if len(set(names)) != len(names):  # a name twice counts 2
        return _counted(length, part, first, names)
    return raw


def _counted(length: int, part: dict[str, int], first: int, names: list[str]) -> bytearray:
    """``_run`` for any list: counted per place, then each count written as its float32 bytes."""
    counts = [0] * length
    for name in names:
        if name != "?":
            at = _card(part, name) - first
            counts[at] = counts[at] + 1
    raw = bytearray(4 * length)
    for at in range(length):
        k = counts[at]
        if k:
            raw[4 * at:4 * at + 4] = _FLOATS[k] if k < len(_FLOATS) else bytearray(_float_bytes(float(k)))
    return raw


def _flag_run(length: int, at: int) -> bytearray:
    """``length`` float32 values as bytes, all 0 but a 1 at ``at``: a one-hot part."""
    raw = bytearray(4 * length)
    raw[4 * at:4 * at + 4] = _FLOATS[1]
    return raw


def _lay(out: bytearray, start: int, run: bytearray) -> None:
    """Write ``run`` over ``out`` from byte ``start`` (a bytearray: a ``bytes`` would be copied first)."""
    out[start:start + len(run)] = run


def _float_bytes(v: float) -> bytes:
    """``v`` as float32 bytes in the machine's order, as the vector's buffer holds it."""
    raw = bytearray(4)
    x: Any = memoryview(raw).cast("f")
    x[0] = v
    return bytes(raw)


_FLOATS: Final = [bytearray(_float_bytes(float(k))) for k in range(256)]
"""Small whole values as float32 bytes, made once (``_run``): bytearrays, which a bytearray's slice takes uncopied."""

_ONE: Final = bytearray(_float_bytes(1.0))
"""1.0 as float32 bytes: a one-hot flag laid over a copy (``Fill.fill_work``)."""

def _flags(x: Any, boxed: list[Any], old: list[int], new: list[int]) -> None:
    """Turn the one-hot flags at ``old`` off and those at ``new`` on: off first, so a flag in both ends on."""
    for at in old:
        x[boxed[at]] = _COUNTS[0]
    for at in new:
        x[boxed[at]] = _COUNTS[1]


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
