"""Fresh games and declared positions (``setup=``).

A declared position starts at the beginning of a day, before characters are
chosen.  Anything it leaves out is dealt or drawn from the seed, out of what
the position has not used.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

import attrs

from ..errors import SetupError
from ..state import GameState, PlayerState
from . import rng
from .specs import Rules

_SETUP_KEYS = {"voyage", "day", "reputation", "players", "loot"}
_PLAYER_KEYS = {"hand", "ship", "graveyard", "loot", "doubloons", "score"}

MAX_START = 10**6
"""The most doubloons (or points) a seat may start with, by handicap or declared position.

Far beyond any real game, and a thousandth of what a save holds (``saves.MAX_AMOUNT``): what
a game gains on top of it still fits a save, so every game ``new_game`` starts can be saved."""


def initial_state(rules: Rules, players: int, seed: int, setup: Mapping[str, Any] | None,
                  handicap: Mapping[int, int] | None = None) -> GameState:
    """The game before its first voyage; ``players=1`` is the solo game (seat 1 is Automa).

    ``handicap`` gives seats extra doubloons at the start (the solo difficulty setting), up to
    ``MAX_START`` each.  The state keeps the handicap and the declared position (as canonical
    JSON): with the seed and the answers, they are what a save is checked against by replay.
    """
    board = rules.board
    lo, hi = board.players
    solo = board.solo
    also = " (or 1: the solo game)" if solo is not None else ""
    # bool is an int subclass and 3.0 compares like 3: both are refused by type, not left
    # to fail later as a TypeError deep in the set-up.
    if not isinstance(players, int) or isinstance(players, bool):
        raise SetupError(f"the player count must be a whole number from {lo} to {hi}{also}, "
                         f"not {players!r} ({type(players).__name__})")
    if not (lo <= players <= hi or (players == 1 and solo is not None)):
        raise SetupError(f"{board.title} is for {lo} to {hi} players{also}, not {players}")
    problem = rng.seed_problem(seed)
    if problem is not None:
        raise SetupError(problem)
    seats = players
    solo_deck: tuple[str, ...] = ()
    left_out: frozenset[str] = frozenset()
    if players == 1:
        assert solo is not None
        if setup is not None:
            raise SetupError("a solo game starts at the beginning: setup= declares positions of 2 or more players")
        seats = 2  # you, and Automa
        track, counter = _shuffled_track(rules, seats, seed, solo.start_spaces)
        deck, counter = _shuffle(seed, counter, [card.name for card in solo.deck])
        solo_deck = tuple(deck)
        left_out = frozenset(solo.without)
    else:
        track, counter = _shuffled_track(rules, players, seed, board.start_spaces.get(players))
    bonus = _handicap(handicap, seats)
    if setup is not None and any(bonus):
        raise SetupError("handicap: a declared position gives each seat its own doubloons (players[i].doubloons); "
                         "a handicap is for a game from the start")
    state = GameState(
        players=seats,
        seats=tuple(PlayerState(i, bonus[i], 0, 0, (), (), (), ()) for i in range(seats)),
        track=tuple(track),
        days=(),
        bag=board.bag,
        undealt=rules.tables.deck if not left_out else tuple(n for n in rules.tables.deck if n not in left_out),
        voyage=1,
        day=0,
        step="voyage",
        commits=(None,) * seats,
        seed=seed,
        counter=counter,
        automa=1 if players == 1 else None,
        solo_deck=solo_deck,
        handicap=tuple(bonus) if any(bonus) else (),
    )
    if setup is None:
        return state
    return attrs.evolve(_declared(rules, state, setup), setup=canonical_setup(setup))


def canonical_setup(setup: Mapping[str, Any]) -> str:
    """A declared position (already checked) as the one JSON text the state keeps: keys sorted, no spaces."""
    return json.dumps(_plain(setup, "setup"), sort_keys=True, separators=(",", ":"))


def _plain(value: Any, what: str) -> Any:
    """``value`` as plain JSON values: mappings become dicts, tuples lists, subclasses their base types."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v, f"{what}.{k}") for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v, f"{what}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    raise SetupError(f"{what} must be a name, a whole number, a list or a mapping, not {_shown(value)}")


def _handicap(handicap: Mapping[int, int] | None, seats: int) -> list[int]:
    bonus = [0] * seats
    if handicap is None:
        return bonus
    if not isinstance(handicap, Mapping):
        raise SetupError(f"handicap maps seats to extra doubloons, not {_shown(handicap)}")
    for seat, extra in handicap.items():
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            raise SetupError(f"handicap: {_shown(seat)} is not a seat (0 to {seats - 1})")
        bonus[seat] = _amount(extra, f"handicap[{seat}]")
    return bonus


def _shuffle(seed: int, counter: int, items: list[Any]) -> tuple[list[Any], int]:
    """``items`` in random order, drawn from ``seed`` from draw number ``counter`` on."""
    out = []
    while items:
        out.append(items.pop(rng.draw(seed, counter, len(items))))
        counter += 1
    return out, counter


def _shuffled_track(rules: Rules, players: int, seed: int, spaces: tuple[int, ...] | None,
                    ) -> tuple[list[int], int]:
    """Every colour's token on the track in random order (E7).

    Where the board fixes start spaces for this player count (two players:
    spaces 2 and 3), the seats' tokens are shuffled onto those spaces and the
    unused colours onto the rest.
    """
    size = len(rules.board.track_income)
    if spaces is None:
        return _shuffle(seed, 0, list(range(size)))
    seats, counter = _shuffle(seed, 0, list(range(players)))
    track = [-1] * size
    for space, seat in zip(spaces, seats, strict=True):
        track[space] = seat
    rest, counter = _shuffle(seed, counter, list(range(players, size)))
    others = iter(rest)
    return [t if t >= 0 else next(others) for t in track], counter


def _declared(rules: Rules, state: GameState, setup: Mapping[str, Any]) -> GameState:
    """Apply a declared position, validating every entry."""
    setup = _mapping(setup, "setup")
    unknown = sorted(str(k) for k in set(setup) - _SETUP_KEYS)
    if unknown:
        raise SetupError(f"unknown setup key {unknown[0]!r}; the keys are {', '.join(sorted(_SETUP_KEYS))}")
    board = rules.board
    n = state.players
    voyage = _int(setup.get("voyage", 1), "voyage", 1, len(board.voyage_days))
    days_in_voyage = board.voyage_days[voyage - 1]
    day = _int(setup.get("day", 1), "day", 1, days_in_voyage)
    track = _declared_track(rules, list(state.track), n, setup["reputation"]) if "reputation" in setup \
        else list(state.track)

    seats_spec = _seq(setup.get("players", [{}] * n), "players")
    if len(seats_spec) != n:
        raise SetupError(f"players needs one entry per seat ({n}), got {len(seats_spec)}")
    bag = Counter(dict(board.bag))
    seats = [_declared_seat(rules, i, spec, bag) for i, spec in enumerate(seats_spec)]
    used_names = {name for p in seats for name in (*p.hand, *p.ship, *p.graveyard)}

    days: list[tuple[str, ...]] = [()] * days_in_voyage
    declared = _seq(setup.get("loot", []), "loot")
    if len(declared) > days_in_voyage - day + 1:
        raise SetupError(f"loot lists {len(declared)} days, but voyage {voyage} has only "
                         f"{days_in_voyage - day + 1} left from day {day}")
    for j, kinds in enumerate(declared):
        day_loot = _strings(kinds, f"loot[{j}]")
        for kind in day_loot:
            _take_from_bag(bag, kind, f"loot[{j}]")
        days[day - 1 + j] = day_loot
    counter = state.counter
    for d in range(day - 1 + len(declared), days_in_voyage):
        drawn = []
        for _ in range(board.loot_per_day_for(n)):
            tokens = [k for k, _ in board.bag for _ in range(bag[k])]
            if not tokens:
                break
            kind = tokens[rng.draw(state.seed, counter, len(tokens))]
            counter += 1
            bag[kind] -= 1
            drawn.append(kind)
        days[d] = tuple(drawn)

    undealt_list = [nm for nm in state.undealt if nm not in used_names]
    if "players" not in setup:
        # Nothing declared about the seats: deal and pay income as a voyage start would.
        dealt = []
        for _ in range(min(board.deal[voyage - 1], len(undealt_list))):
            dealt.append(undealt_list.pop(rng.draw(state.seed, counter, len(undealt_list))))
            counter += 1
        hand = tuple(sorted(dealt, key=rules.rank))
        seats = [PlayerState(i, _income(rules, track, i), 0, 0, hand, (), (), ()) for i in range(n)]
    return attrs.evolve(
        state,
        seats=tuple(seats),
        track=tuple(track),
        days=tuple(days),
        bag=tuple((k, bag[k]) for k, _ in board.bag),
        undealt=tuple(undealt_list),
        voyage=voyage,
        day=day,
        step="select",
        counter=counter,
    )


def _declared_track(rules: Rules, track: list[int], n: int, value: Any) -> list[int]:
    """The track with each seat on its declared space and the unused colours on the rest."""
    if not track:
        raise SetupError(f"{rules.board.title} has no reputation track; drop the reputation entry")
    rep = _seq(value, "reputation")
    if len(rep) != n:
        raise SetupError(f"reputation needs one track space per seat ({n}), got {len(rep)}")
    for i, space in enumerate(rep):
        _int(space, f"reputation[{i}]", 0, len(track) - 1)
    if len(set(rep)) != len(rep):
        raise SetupError(f"reputation spaces must differ (the track holds one token a space): {rep}")
    out = [-1] * len(track)
    for seat, space in enumerate(rep):
        out[space] = seat
    free = iter(t for t in track if t >= n)
    return [t if t >= 0 else next(free) for t in out]


def _declared_seat(rules: Rules, i: int, value: Any, bag: Counter[str]) -> PlayerState:
    spec = _mapping(value, f"players[{i}]")
    bad = sorted(str(k) for k in set(spec) - _PLAYER_KEYS)
    if bad:
        raise SetupError(f"players[{i}]: unknown key {bad[0]!r}; the keys are {', '.join(sorted(_PLAYER_KEYS))}")
    zones = {z: _strings(spec.get(z, ()), f"players[{i}].{z}") for z in ("hand", "ship", "graveyard")}
    seen: dict[str, str] = {}
    for zone, cards in zones.items():
        for name in cards:
            if not rules.has_card(name) or rules.card(name).neutral:
                raise SetupError(f"players[{i}].{zone}: unknown card {name!r}")
            if name in seen:
                raise SetupError(f"players[{i}]: {name} is in both {seen[name]} and {zone}")
            seen[name] = zone
    loot = _strings(spec.get("loot", ()), f"players[{i}].loot")
    for kind in loot:
        _take_from_bag(bag, kind, f"players[{i}].loot")
    return PlayerState(
        i,
        _amount(spec.get("doubloons", 0), f"players[{i}].doubloons"),
        _amount(spec.get("score", 0), f"players[{i}].score"),
        0,
        tuple(sorted(zones["hand"], key=rules.rank)),
        zones["ship"],
        zones["graveyard"],
        loot,
    )


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SetupError(f"{what} must be a mapping of keys to values, not {_shown(value)}")
    return value


def _seq(value: Any, what: str) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise SetupError(f"{what} must be a list, not {_shown(value)}")
    return list(value)


def _strings(value: Any, what: str) -> tuple[str, ...]:
    items = _seq(value, what)
    for item in items:
        if not isinstance(item, str):
            raise SetupError(f"{what} must list names, not {_shown(item)}")
    return tuple(items)


def _income(rules: Rules, track: list[int], seat: int) -> int:
    start = rules.board.start_doubloons
    return rules.board.track_income[track.index(seat)] if start == "income" else int(start)


def _take_from_bag(bag: Counter[str], kind: str, where: str) -> None:
    if kind not in bag:
        raise SetupError(f"{where}: unknown loot kind {kind!r}; the kinds are {', '.join(bag)}")
    if bag[kind] <= 0:
        raise SetupError(f"{where}: more {kind} tokens than the bag holds")
    bag[kind] -= 1


def _int(value: Any, what: str, lo: int, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or (hi is not None and value > hi):
        span = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise SetupError(f"{what} must be a whole number in {span}, not {_shown(value)}")
    return value


def _amount(value: Any, what: str) -> int:
    """Doubloons or points a seat starts with: 0 to ``MAX_START``, the bound that keeps every game saveable."""
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_START:
        raise SetupError(f"{what} must be a whole number in 0..{MAX_START:,}, not {_shown(value)}: a seat starts "
                         f"with at most {MAX_START:,} (MAX_START), so that the game still fits a save")
    return _int(value, what, 0, MAX_START)


def _shown(value: Any) -> str:
    """``repr(value)``, short: a huge number by its size (its digits may be too many to print at all)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a number of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
