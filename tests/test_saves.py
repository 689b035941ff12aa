"""Saved games: checked against the rules on load, refused with one error naming the field."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import libertalia as lt
from libertalia import saves
from libertalia.engine import rng
from libertalia.errors import SaveError
from tests.helpers import galecrest, time_limit

Edit = Callable[[dict[str, Any]], Any]


@functools.cache
def _mid_game() -> lt.Game:
    """Three seats, voyage 1, waiting inside a running ability (a frame on the stack)."""
    game = lt.new_game(galecrest(), 3, seed=7)
    rnd = random.Random(3)
    while not game.state.frames:
        game = game.choose(rnd.choice(game.legal_keys()))
    return game


def _load(text: str | bytes, rules: lt.Rules | None = None) -> lt.Game:
    return lt.Game.from_json(text, rules or galecrest())  # type: ignore[arg-type]


def _edited(edit: Edit, game: lt.Game | None = None) -> str:
    payload = json.loads((game or _mid_game()).to_json())
    edit(payload)
    return json.dumps(payload)


def _refused(text: str | bytes, rules: lt.Rules | None = None) -> SaveError:
    with pytest.raises(SaveError) as caught:
        _load(text, rules)
    assert str(caught.value).startswith("cannot load the game: ")
    return caught.value


def test_round_trip_carries_the_rules_stamp_and_the_seed() -> None:
    """A save names edition and sides, file fingerprint and library version; the game keeps its seed."""
    game = _mid_game()
    payload = json.loads(game.to_json())
    assert payload["format"] == saves.SAVE_FORMAT == 4
    assert payload["rules"] == {"identity": galecrest().identity, "fingerprint": galecrest().fingerprint,
                                "library": saves.library_version()}
    assert len(galecrest().fingerprint) == 16 and game.seed == 7
    assert _load(game.to_json()).state == game.state


@pytest.mark.parametrize("text", ["1", "null", "[]", "", "{", '"save"', "[" * 100_000, "{}", b"\xff\xfe{}", 12])
def test_text_that_is_no_save_is_refused(text: Any) -> None:
    """Non-JSON, other JSON values, deep nesting, bad bytes and non-text all give SaveError."""
    _refused(text)


_SEAT = ("state", "seats", 2)


def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(payload: dict[str, Any]) -> None:
        node = payload
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value(node[path[-1]]) if callable(value) else value
    return edit


def _hand(payload: dict[str, Any]) -> list[str]:
    hand: list[str] = payload["state"]["seats"][2]["hand"]
    return hand


CASES: list[tuple[str, Edit, str]] = [
    ("unknown card", _set((*_SEAT, "hand", 0), "Cok"), "state.seats[2].hand[0]: unknown card 'Cok'"),
    ("card twice", lambda p: _hand(p).append(_hand(p)[0]), "is also at state.seats[2].hand[0]"),
    ("card lost", lambda p: _hand(p).pop(), "state.seats[2]: seat 2's"),
    ("card also undealt", lambda p: p["state"]["undealt"].append(_hand(p)[0]), "is also undealt"),
    ("neutral card held", _set((*_SEAT, "hand", 0), "Midshipman"), "Midshipman is a neutral card"),
    ("own mark", lambda p: _hand(p).__setitem__(0, _hand(p)[0] + "#2"), "is seat 2's own card"),
    ("mark of no seat", lambda p: _hand(p).__setitem__(0, _hand(p)[0] + "#5"), "names seat 5 as its first owner"),
    ("loot kind", _set((*_SEAT, "loot"), ["kraken"]), "state.seats[2].loot[0]: unknown loot kind 'kraken'"),
    ("bag of 10**30", _set(("state", "bag", 2, 1), 10**30), "state.bag[2][1]: must be from 0 to"),
    ("token missing", _set(("state", "bag", 2, 1), lambda n: n - 1), "state: loot is not conserved"),
    ("bag kinds", _set(("state", "bag", 0, 0), "map"), "state.bag[0]: must be ['chest', count]"),
    ("seat count", _set(("state", "players"), 4), "state.seats: 4 players need 4 seats, not 3"),
    ("seats beyond the board", _set(("state", "players"), 9), "state.players: must be from 2 to 6, not 9"),
    ("voyage", _set(("state", "voyage"), 4), "state.voyage: must be from 1 to 3, not 4"),
    ("day", _set(("state", "day"), 9), "state.day: must be from 1 to"),
    ("step", _set(("state", "step"), "lunch"), "state.step: unknown step 'lunch'"),
    ("track", _set(("state", "track", 0), lambda t: (t + 1) % 6), "state.track: the track must hold each colour"),
    ("reputation", _set((*_SEAT, "reputation"), lambda r: (r + 1) % 6), "state.seats[2].reputation: the track"),
    ("doubloons", _set((*_SEAT, "doubloons"), -1), "state.seats[2].doubloons: must be from 0 to"),
    ("type", _set((*_SEAT, "score"), "12"), "state.seats[2].score: must be a whole number, not '12'"),
    ("float", _set(("state", "cursor"), 1.0), "state.cursor: must be a whole number, not 1.0"),
    ("bool", _set(("state", "sub"), True), "state.sub: must be a whole number, not true"),
    ("unknown field", _set((*_SEAT, "colour"), "red"), "state.seats[2].colour: unknown field"),
    ("missing field", lambda p: p["state"].pop("undealt"), "state.undealt: missing"),
    ("frame source", _set(("state", "frames", 0, "source"), "c:Kraken"), "state.frames[0].source: 'c:Kraken' is no"),
    ("frame ability", _set(("state", "frames", 0, "index"), 9), "state.frames[0].index: must be from 0 to"),
    ("frame marks", _set(("state", "frames", 0, "marks"), [None] * 50), "state.frames[0].marks: holds 50"),
    ("card in play", _set(("state", "frames", 0, "this"), [1]), "state.frames[0].this: a card in play is [seat, name]"),
    ("commit", _set(("state", "commits"), [None, None, None, None]), "state.commits: holds 4 entries"),
    ("decision", _set(("state", "decision", "player"), lambda s: (s + 1) % 3), "state.decision: does not match"),
    ("prompt", _set(("state", "decision", "prompt"), "pick"), "state.decision: does not match"),
    ("nesting", _set(("state", "track"), functools.reduce(lambda v, _: [v], range(500), 0)),
     "state.track[0]: must be a whole number, not a list of 1"),
    ("format 1", _set(("format",), 1), "format: unsupported save format 1 (made by an older libertalia"),
    ("generator", _set(("rng", "version"), 2), "rng: the save uses random generator 'splitmix64' v2"),
]


@pytest.mark.parametrize(("edit", "expected"), [pytest.param(e, x, id=name) for name, e, x in CASES])
def test_a_damaged_field_is_named(edit: Edit, expected: str) -> None:
    """Each kind of damage (types, ranges, names, conservation, engine state) is one SaveError naming the field."""
    error = _refused(_edited(edit))
    assert expected in str(error)
    assert error.field and str(error).startswith(f"cannot load the game: {error.field}: ")


def test_an_absurd_bag_is_refused_at_once() -> None:
    """A bag count of 10**30 (which once hung the next voyage) is refused at once: a hang guard in CPU time, which
    a loaded machine does not stretch (a hang here would take hours)."""
    with time_limit(5):
        _refused(_edited(_set(("state", "bag", 2, 1), 10**30)))


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("identity", "galecrest:chest=stormy", "rules.identity: the save is for 'galecrest:chest=stormy' (edition"),
    ("fingerprint", "0123456789abcdef", "rules.fingerprint: the board, card, loot or grammar files have changed"),
    ("library", "0.0.1", "rules.library: the save was made with libertalia 0.0.1, and this is libertalia"),
])
def test_rules_that_load_differently_are_named(key: str, value: str, expected: str) -> None:
    """A save for other sides, changed files or another library version says which."""
    assert expected in str(_refused(_edited(_set(("rules", key), value))))


def test_a_save_for_other_rules_is_refused() -> None:
    """A Galecrest save does not load under Classic rules."""
    error = _refused(_mid_game().to_json(), lt.load_rules("classic"))
    assert "rules.identity: the save is for 'galecrest:" in str(error)


def test_a_modded_save_refuses_unmodded_rules(tmp_path: Path) -> None:
    """A save made with a changed card names the changed files when loaded with the bundled ones."""
    (tmp_path / "cook.yaml").write_text("name: Cook\nrank: 26\ntext: |\n  sun: gain 9 doubloons.\n")
    modded = lt.load_rules("galecrest", extra_cards=[tmp_path])
    assert modded.fingerprint != galecrest().fingerprint and modded.identity == galecrest().identity
    save = lt.new_game(modded, 3, seed=1).to_json()
    assert _load(save, modded).rules is modded
    assert "rules.fingerprint: the board, card, loot or grammar files have changed" in str(_refused(save))


def test_finished_and_declared_games_round_trip() -> None:
    """A finished game and a declared position (seats with different cards) load as saved."""
    rules = galecrest()
    game = lt.new_game(rules, 2, seed=3)
    while game.decision is not None:
        game = game.choose(game.legal_keys()[-1])
    assert _load(game.to_json()).state == game.state
    setup = {"voyage": 2, "day": 3, "players": [{"hand": ["Cook", "Treasurer"], "loot": ["map"]},
                                                 {"hand": ["Collector", "Gunner"]}]}
    declared = lt.new_game(rules, 2, seed=1, setup=setup).choose("Cook")
    assert _load(declared.to_json()).state == declared.state


def test_every_saved_field_is_checked() -> None:
    """The checker knows exactly the fields of every class a save holds (a new field needs a check)."""
    for cls, checked in saves.CHECKED_FIELDS.items():
        assert set(checked) == {f.name for f in attrs.fields(cls)}, cls.__name__


def test_draw_is_bounded_and_unchanged() -> None:
    """rng.draw refuses n outside 1..2**64 at once (n > 2**64 once looped forever); its values are as before."""
    for n in (0, -1, 2**64 + 1, 10**30):
        with pytest.raises(ValueError, match="1 <= n <= 2\\*\\*64"):
            rng.draw(1, 0, n)
    cases = [(7, 0, 10), (7, 1, 10), (123456789, 42, 52), (-5, 3, 3), (2**70 + 3, 9, 1000003), (1, 2, 2**64),
             (3, 4, 2**63 + 1)]
    assert [rng.draw(*c) for c in cases] == [5, 1, 12, 0, 991559, 8714100217554564121, 5570974058474356617]


def _dusk_save() -> tuple[lt.Rules, dict[str, Any]]:
    """A 4-player game's save at dusk, with cards still on the island."""
    rules = lt.load_rules("galecrest")
    game = lt.new_game(rules, 4, seed=11)
    rnd = random.Random(11)
    while game.state.step != "dusk" or not game.state.island:
        game = game.choose(rnd.choice(game.legal_keys()))
    return rules, json.loads(game.to_json())


def test_a_dusk_order_missing_a_card_on_the_island_is_refused() -> None:
    """R6: at dusk each card on the island waits in the dusk order; a save that drops one would lose it."""
    rules, payload = _dusk_save()
    payload["state"]["order"] = []
    with pytest.raises(SaveError, match=r"state\.order: seat \d's .* is on the island but not in the rest"):
        lt.Game.from_json(json.dumps(payload), rules)


def test_a_players_card_left_on_the_island_after_dusk_is_refused() -> None:
    """R6: by night every player's card has boarded; one still on the island would vanish at the reveal."""
    rules, payload = _dusk_save()
    payload["state"]["step"] = "night"
    with pytest.raises(SaveError, match=r"state\.island: seat \d's .* is still on the island at night"):
        lt.Game.from_json(json.dumps(payload), rules)
