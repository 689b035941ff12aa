"""A save is checked by replay: its state must be exactly what its seed, setup, handicap and answers lead to.

Every tampered save below passes the field-by-field checks (``load_game(..., replay=False)``
loads it) and is refused by the replay, with a ``SaveError`` naming the first field that
differs, the saved value and the replayed one.  Random single-field edits (hypothesis) are
all refused too, each naming a field of the save.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
import time
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia import saves
from libertalia.errors import SaveError
from tests.helpers import galecrest

Payload = dict[str, Any]
Edit = Callable[[Payload], None]


def _walk(game: lt.Game, rnd: random.Random, until: Callable[[lt.Game], bool], most: int = 2000) -> lt.Game:
    for _ in range(most):
        if until(game) or game.decision is None:
            break
        game = game.choose(rnd.choice(game.legal_keys()))
    return game


@functools.cache
def _bases() -> dict[str, lt.Game]:
    """Saves from many moments and kinds of game: mid-ability, dusk, anchor, the end, declared, solo, no log."""
    rules, rnd = galecrest(), random.Random(5)
    declared = {"voyage": 2, "day": 2, "players": [{"hand": ["Cook", "Treasurer", "Gunner"], "doubloons": 4},
                                                   {"hand": ["Collector", "Gunner", "Bosun"], "score": 9}]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        solo = lt.new_game(rules, 1, seed=3, handicap={0: 6})
    return {
        "mid-ability": _walk(lt.new_game(rules, 3, seed=7), rnd, lambda g: bool(g.state.frames) and g.voyage > 1),
        "dusk": _walk(lt.new_game(rules, 4, seed=11), rnd, lambda g: g.state.step == "dusk" and bool(g.state.island)),
        "anchor": _walk(lt.new_game(rules, 5, seed=2), rnd, lambda g: g.state.step == "anchor"),
        "finished": _walk(lt.new_game(rules, 2, seed=3), rnd, lambda g: False),
        "declared": _walk(lt.new_game(rules, 2, seed=1, setup=declared), rnd, lambda g: len(g.history) >= 5),
        "solo": _walk(solo, rnd, lambda g: len(g.history) >= 12),
        "no log": _walk(lt.new_game(rules, 3, seed=4, log=False), rnd, lambda g: len(g.history) >= 30),
        "classic": _walk(lt.new_game(lt.load_rules("classic"), 3, seed=9), rnd, lambda g: g.voyage == 2),
    }


def _seat(p: Payload, i: int = 0) -> dict[str, Any]:
    seat: dict[str, Any] = p["state"]["seats"][i]
    return seat


def _add(key: str, amount: int) -> Edit:
    def edit(p: Payload) -> None:
        _seat(p)[key] += amount
    return edit


def _loot_from_bag(p: Payload) -> None:
    """A loot token moved from the bag to seat 0 (every token still accounted for)."""
    bag = p["state"]["bag"]
    kind = next(pair for pair in bag if pair[1] > 0)
    kind[1] -= 1
    _seat(p)["loot"].append(kind[0])


def _card_to_graveyard(p: Payload) -> None:
    """A card moved from a hand to its graveyard (every card still accounted for)."""
    seat = next(s for s in p["state"]["seats"] if s["hand"] and not s["kept"])
    seat["graveyard"].append(seat["hand"].pop())


def _swap_reputation(p: Payload) -> None:
    """Two seats' reputation tokens swapped on the track, consistently."""
    state = p["state"]
    a, b = state["seats"][0], state["seats"][1]
    track = state["track"]
    track[a["reputation"]], track[b["reputation"]] = track[b["reputation"]], track[a["reputation"]]
    a["reputation"], b["reputation"] = b["reputation"], a["reputation"]


def _seed(p: Payload) -> None:
    p["state"]["seed"] += 1


def _shorten(n: int) -> Edit:
    def edit(p: Payload) -> None:
        history = p["state"]["history"]
        del history[max(0, len(history) - n):]
    return edit


def _counter(p: Payload) -> None:
    p["state"]["counter"] += 1


def _handicap(p: Payload) -> None:
    p["state"]["handicap"] = [3] + [0] * (len(p["state"]["seats"]) - 1)


def _setup(p: Payload) -> None:
    setup = json.loads(p["state"]["setup"] or '{"day": 1}')
    setup["day"] = 3 - setup.get("day", 1) % 2
    p["state"]["setup"] = json.dumps(setup, sort_keys=True, separators=(",", ":"))


def _undealt_order(p: Payload) -> None:
    undealt = p["state"]["undealt"]
    undealt[0], undealt[-1] = undealt[-1], undealt[0]


KINDS: dict[str, Edit] = {
    "score +1": _add("score", 1), "score -5": _add("score", -5), "doubloons +3": _add("doubloons", 3),
    "loot token moved": _loot_from_bag, "card moved": _card_to_graveyard, "reputation moved": _swap_reputation,
    "seed changed": _seed, "history shortened by 1": _shorten(1), "history shortened by 4": _shorten(4),
    "history emptied": _shorten(10**6), "draw counter": _counter, "handicap added": _handicap,
    "setup changed": _setup, "undealt reordered": _undealt_order,
}


def _applies(kind: str, game: lt.Game) -> bool:
    s = game.state
    if kind == "score -5":
        return s.seats[0].score >= 5
    if kind == "loot token moved":
        return any(n for _, n in s.bag)
    if kind == "card moved":
        return any(p.hand and not p.kept for p in s.seats)
    if kind == "reputation moved":
        return len(s.track) >= 2 and s.automa is None
    if kind.startswith("history"):
        return bool(s.history)
    if kind == "undealt reordered":
        return len(set(s.undealt)) > 1
    return True


TAMPERED = [pytest.param(base, kind, id=f"{base}: {kind}") for base in
            ("mid-ability", "dusk", "anchor", "finished", "declared", "solo", "no log", "classic") for kind in KINDS]


def _edited(game: lt.Game, edit: Edit) -> str:
    payload = json.loads(game.to_json())
    edit(payload)
    return json.dumps(payload)


@pytest.mark.parametrize(("base", "kind"), TAMPERED)
def test_a_tampered_save_is_refused_by_replay(base: str, kind: str) -> None:
    """Each kind of tampering (scores, doubloons, moved tokens and cards, seed, history, start) names a field."""
    game = _bases()[base]
    if not _applies(kind, game):
        pytest.skip(f"no {kind} edit for this save")
    text = _edited(game, KINDS[kind])
    try:
        saves.load_game(text, game.rules, replay=False)
    except SaveError as exc:  # a field check caught it first: refused all the same
        caught = exc
    else:
        with pytest.raises(SaveError) as raised:
            lt.Game.from_json(text, game.rules)
        caught = raised.value
        assert re.search(r"the save says .+, but its seed, setup and answers lead to |state\.history\[\d+\]: "
                         r"|state\.(setup|handicap): ", str(caught)), str(caught)
    assert caught.field.startswith("state") and str(caught).startswith(f"cannot load the game: {caught.field}: ")


def test_the_named_field_is_the_first_that_differs() -> None:
    """A changed score names that score, with the saved and the replayed value."""
    game = _bases()["finished"]
    text = _edited(game, _add("score", 7))
    with pytest.raises(SaveError) as caught:
        lt.Game.from_json(text, game.rules)
    score = game.players[0].score
    assert caught.value.field == "state.seats[0].score"
    expected = f"the save says {score + 7}, but its seed, setup and answers lead to {score} "
    assert caught.value.problem.startswith(expected)


def test_the_event_log_is_compared_event_by_event() -> None:
    """An event log from another game of the same shape is refused, naming the first event that differs."""
    game = _bases()["mid-ability"]
    other = lt.new_game(game.rules, 3, seed=8)
    payload = json.loads(game.to_json())
    payload["state"]["journal"] = json.loads(other.to_json())["state"]["journal"]
    with pytest.raises(SaveError, match=r"state\.journal \(event \d+\): the save says"):
        lt.Game.from_json(json.dumps(payload), game.rules)


def test_every_genuine_save_loads_as_it_was() -> None:
    """The saves the library writes all pass the replay, in every kind of game, and load equal."""
    for name, game in _bases().items():
        assert lt.Game.from_json(game.to_json(), game.rules) == game, name


def test_a_save_from_before_replay_checks_is_named_as_such() -> None:
    """Format 3 saves (no setup or handicap, history optional) cannot be checked: refused, saying why."""
    payload = json.loads(_bases()["dusk"].to_json())
    payload["format"] = 3
    with pytest.raises(SaveError, match="format: unsupported save format 3 .* cannot be checked by replay"):
        lt.Game.from_json(json.dumps(payload), galecrest())


def test_loading_stays_fast() -> None:
    """A finished six-seat game (the longest) loads, replay included, in well under a second; measured, printed."""
    rules = galecrest()
    game = lt.play(rules, [lt.agents.RandomAgent(i) for i in range(6)], seed=1)
    text = game.to_json()
    lt.Game.from_json(text, rules)
    begin = time.process_time()  # CPU time: a loaded machine stretches wall time, not the work done
    for _ in range(5):
        lt.Game.from_json(text, rules)
    each = (time.process_time() - begin) / 5
    print(f"\nload of a finished 6-seat save ({len(game.history)} answers): {each * 1000:.1f} ms of CPU")
    assert each < 2.0  # a hang guard far above any run (about 10 ms), not a benchmark


# ---------------------------------------------------------------- random single-field edits
_POOL = ["Cook", "Kraken", "map", "chest", "yes", "no", "x", "c:Cook", "l:map", "select", "over", "", "Cook#1"]
_PATH = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every value's path, lists included (they can lose or repeat an entry)."""
    out = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _leaves(v, (*path, i))
    return out


def _resolve(payload: Any, field: str) -> bool:
    """Whether ``field`` (``state.seats[2].hand[0]``, ``state.journal (event 4)``) names a value of the save."""
    field = re.sub(r" \(event \d+\)$", "", field)
    node = payload
    for name, index in _PATH.findall(field):
        try:
            node = node[name] if name else node[int(index)]
        except (KeyError, IndexError, TypeError):
            return False
    return True


@st.composite
def _single_edits(draw: st.DrawFn) -> tuple[str, str]:
    """A genuine save with one value changed (never to an equal one), and a word for the change."""
    name = draw(st.sampled_from(sorted(_bases())), label="save")
    game = _bases()[name]
    payload = json.loads(game.to_json())
    path = draw(st.sampled_from(_leaves(payload)), label="path")
    parent = functools.reduce(lambda node, key: node[key], path[:-1], payload)
    old = parent[path[-1]]
    if isinstance(old, bool):
        new: Any = not old
    elif isinstance(old, int):
        new = old + draw(st.sampled_from([-3, -1, 1, 2, 7, 100]), label="delta")
    elif isinstance(old, float):
        new = old + draw(st.sampled_from([-1.5, 0.25, 1.0]), label="delta")
    elif isinstance(old, str):
        new = draw(st.sampled_from([s for s in _POOL if s != old]), label="text")
    elif old is None:
        new = draw(st.sampled_from([0, 1, "Cook", [], [0, "Cook"]]), label="value")
    elif isinstance(old, list) and old:
        how = draw(st.sampled_from(["drop", "repeat", "reverse", "empty"]), label="list")
        i = draw(st.integers(0, len(old) - 1), label="entry")
        new = {"drop": old[:i] + old[i + 1:], "repeat": old[:i] + [copy.deepcopy(old[i])] + old[i:],
               "reverse": old[::-1], "empty": []}[how]
    else:  # an empty list or object: give it an entry
        new = [0] if isinstance(old, list) else {"x": 0}
    if json.dumps(new) == json.dumps(old):  # reversing a palindrome, say: no edit at all
        new = [*old, copy.deepcopy(old[0])] if isinstance(old, list) else "Kraken"
    parent[path[-1]] = new
    where = ".".join(str(k) for k in path)
    return f"{name}: {where}: {json.dumps(old)[:40]} -> {json.dumps(new)[:40]}", json.dumps(payload)


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(_single_edits())
def test_any_single_edit_is_refused_naming_a_field(case: tuple[str, str]) -> None:
    """Any one value of a save changed (scores, cards, seed, answers, log, envelope) is a SaveError naming it."""
    what, text = case
    with pytest.raises(SaveError) as caught:
        lt.Game.from_json(text, _bases()[what.partition(":")[0]].rules)
    error = caught.value
    assert error.field, (what, str(error))
    assert _resolve(json.loads(text), error.field), (what, str(error))
