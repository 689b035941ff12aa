"""Fuzzed saves and records: only documented library errors come out, and nothing hangs.

Each example damages a real save or record once (a value of any JSON type in place of any
field, a deleted key or entry, a duplicated entry, truncation, deep nesting, huge numbers)
and loads it; a save that still loads is played on and must keep the invariants.  Every
example runs under a time limit, so a hang fails the test instead of stalling the suite.

CI runs a few hundred examples.  For a long run, set ``LIBERTALIA_FUZZ_EXAMPLES`` (examples
per property) and pass ``-s`` to see how many inputs each class received and how they ended::

    LIBERTALIA_FUZZ_EXAMPLES=1500 python -m pytest -s -p no:cacheprovider tests/test_saves_fuzz.py
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia import records as records_module
from libertalia.errors import LibertaliaError, RecordError, RulesError, SaveError
from libertalia.records import GameRecord
from libertalia.testing import check_invariants
from tests.helpers import time_limit

LONG_RUN = int(os.environ.get("LIBERTALIA_FUZZ_EXAMPLES", "0"))
TIME_LIMIT = 20.0  # seconds per example: far above the slowest (a few hundred ms), far below a hang


def _settings(ci_examples: int) -> settings:
    return settings(max_examples=LONG_RUN or ci_examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


OUTCOMES: dict[str, Counter[str]] = {"saves": Counter(), "records": Counter()}


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if LONG_RUN:
        for name, outcomes in OUTCOMES.items():
            print(f"\n{name}: {sum(outcomes.values())} fuzzed inputs: {dict(sorted(outcomes.items()))}")




# ---------------------------------------------------------------- what the fuzzer starts from
@functools.cache
def _rules(edition: str) -> lt.Rules:
    return lt.load_rules(edition)


@functools.cache
def _base_games() -> tuple[lt.Game, ...]:
    """Saves from several moments: mid-ability, dusk with a queue, anchor netting, night, the end, Classic."""
    picked: dict[tuple[Any, ...], lt.Game] = {}
    for edition, players, seed in (("galecrest", 4, 11), ("galecrest", 2, 5), ("classic", 3, 2)):
        game = lt.new_game(_rules(edition), players, seed=seed)
        rnd = random.Random(seed)
        while game.decision is not None:
            s = game.state
            key = (edition, s.step, bool(s.frames), bool(s.queue), s.census is not None, s.net is not None)
            if key not in picked and game.voyage > 1:
                picked[key] = game
            game = game.choose(rnd.choice(game.legal_keys()))
        picked[(edition, "over")] = game
    return tuple(picked.values())


_NAMES = ["Cook", "Cook#1", "Cook#9", "Cabin Boy", "Midshipman", "Parrot", "Cok", "map", "chest", "saber", "kraken",
          "", "c:Cook", "l:map", "c:Kraken", "select", "dusk", "night", "anchor", "over", "yes", "no", "?", "#",
          "Cook@1", "map*2", "\u0000", "\ud800"]
_HUGE = st.integers(10, 4200).map(lambda k: 10**k) | st.integers(10, 4200).map(lambda k: -(10**k))  # printable
_SCALARS = (st.none() | st.booleans() | st.integers(-3, 12) | st.integers() | _HUGE
            | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(_NAMES) | st.text(max_size=8))
_KEYS = st.sampled_from(["key", "label", "this", "seat", "x", "0"])
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
                       max_leaves=6)

Path = tuple[Any, ...]


def _paths(value: Any, skip_bulk: bool) -> list[Path]:
    """Every node's path (the log's bulk, events and history past the first few, left out)."""
    out: list[Path] = []

    def walk(node: Any, path: Path) -> None:
        out.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, (*path, k))
        elif isinstance(node, list):
            bulky = skip_bulk and path and path[-1] in ("events", "history", "answers")
            for i, v in enumerate(node[:4] if bulky else node):
                walk(v, (*path, i))

    walk(value, ())
    return out


def _get(value: Any, path: Path) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def _mutate(data: st.DataObject, text: str, skip_bulk: bool) -> tuple[str, str]:
    """One damaged copy of ``text`` and the name of the damage."""
    how = data.draw(st.sampled_from(["replace", "replace", "replace", "delete", "duplicate", "truncate", "nest",
                                     "huge", "deep text", "digits"]), label="how")
    if how == "truncate":
        return text[:data.draw(st.integers(0, len(text) - 1), label="cut")], how
    if how == "deep text":
        depth = data.draw(st.integers(1, 100_000), label="depth")
        return "[" * depth + "1" + "]" * data.draw(st.sampled_from([0, depth]), label="closed"), how
    value = json.loads(text)
    paths = _paths(value, skip_bulk)
    path = data.draw(st.sampled_from(paths), label="path")
    if how == "digits":  # a number too long for any parser: more than 4300 digits
        marker = "\u0001MARK\u0001"
        text = json.dumps(_set(value, path, marker))
        return text.replace(json.dumps(marker), "9" * data.draw(st.integers(4301, 6000), label="digits")), how
    if how == "replace":
        value = _set(value, path, data.draw(_VALUES, label="value"))
    elif how == "huge":
        value = _set(value, path, data.draw(_HUGE, label="huge"))
    elif how == "nest":
        inner = _get(value, path)
        for _ in range(data.draw(st.integers(1, 3000), label="levels")):
            inner = [inner]
        value = _set(value, path, inner)
    else:
        containers = [p for p in paths if p and isinstance(_get(value, p[:-1]), dict | list)]
        path = data.draw(st.sampled_from(containers), label="entry")
        parent = _get(value, path[:-1])
        if how == "delete":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
        else:
            parent[path[-1]] = copy.deepcopy(data.draw(st.sampled_from(list(parent.values())), label="copy"))
    try:
        return json.dumps(value), how
    except RecursionError:  # too deep for the encoder: write the nesting by hand
        return "[" * 5000 + json.dumps(_get(json.loads(text), ())) + "]" * 5000, how


# ---------------------------------------------------------------- saves
@_settings(200)
@given(data=st.data())
def test_damaged_saves_load_or_raise_save_error(data: st.DataObject) -> None:
    """Any single damage to a mid-game save gives SaveError naming a field, or a game that plays on soundly."""
    game = _base_games()[data.draw(st.integers(0, len(_base_games()) - 1), label="save")]
    text, how = _mutate(data, game.to_json(), skip_bulk=True)
    with time_limit(TIME_LIMIT):
        try:
            loaded = lt.Game.from_json(text, game.rules)
        except SaveError as exc:
            assert exc.__cause__ is None, f"a gap in the checks: {exc}"  # not the last-resort catch-all
            assert str(exc).startswith("cannot load the game: ")
            OUTCOMES["saves"][f"{how}: refused"] += 1
            return
        check_invariants(loaded)
        steps = data.draw(st.integers(0, 10), label="steps")
        for _ in range(steps):
            if loaded.decision is None:
                break
            try:
                loaded = loaded.choose(data.draw(st.sampled_from(loaded.legal_keys()), label="key"))
            except LibertaliaError:
                OUTCOMES["saves"][f"{how}: library error in play"] += 1
                return
            check_invariants(loaded)
        OUTCOMES["saves"][f"{how}: loaded and played"] += 1


# ---------------------------------------------------------------- records
@functools.cache
def _base_records() -> tuple[str, ...]:
    rules = _rules("galecrest")
    out = []
    for players, seed, steps in ((3, 4, 60), (2, 9, 25)):
        game = lt.new_game(rules, players, seed=seed)
        rnd = random.Random(seed)
        for _ in range(steps):
            game = game.choose(rnd.choice(game.legal_keys()))
        out.append(GameRecord.of(game, agents=tuple(f"random {i}" for i in range(players))).to_json())
    setup = {"voyage": 3, "day": 5, "players": [{"hand": ["Cook", "Treasurer"], "loot": ["map"]},
                                                 {"hand": ["Cook", "Collector"]}]}
    game = lt.new_game(rules, 2, seed=1, setup=setup).choose("Treasurer")
    out.append(GameRecord.of(game, setup=setup).to_json())
    return tuple(out)


def _cached_load_rules() -> Callable[..., lt.Rules]:
    """``load_rules`` with the base rules cached; other arguments load for real, except folders to scan."""
    real = records_module.load_rules
    base = json.dumps(_rules("galecrest").load_args, sort_keys=True)

    def load(**args: Any) -> lt.Rules:
        if json.dumps(args, sort_keys=True, default=str) == base:
            return _rules("galecrest")
        if any(os.path.exists(str(p)) for p in args.get("extra_cards", [])):
            raise RulesError("the fuzzer does not scan folders for cards")  # "/" or "." would scan the disk
        return real(**args)
    return load


@_settings(150)
@given(data=st.data())
def test_damaged_records_load_replay_or_raise_library_errors(data: st.DataObject) -> None:
    """Any single damage to a record gives RecordError (or another library error) on load or replay, nothing else."""
    base = _base_records()[data.draw(st.integers(0, len(_base_records()) - 1), label="record")]
    text, how = _mutate(data, base, skip_bulk=False)
    with pytest.MonkeyPatch.context() as patch, time_limit(TIME_LIMIT):
        patch.setattr(records_module, "load_rules", _cached_load_rules())
        try:
            record = GameRecord.from_json(text)
        except RecordError as exc:
            assert str(exc).startswith("cannot read the game record: ")
            OUTCOMES["records"][f"{how}: refused"] += 1
            return
        try:
            game = record.replay()
        except RecordError:
            OUTCOMES["records"][f"{how}: replay refused"] += 1
            return
        except LibertaliaError as exc:
            OUTCOMES["records"][f"{how}: {type(exc).__name__}"] += 1
            return
        check_invariants(game)
        OUTCOMES["records"][f"{how}: replayed"] += 1
