"""Game records: refused with RecordError naming the field, refused when the rules changed, written atomically."""

from __future__ import annotations

import functools
import json
import os
import stat
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia import saves
from libertalia.cli import main
from libertalia.errors import RecordError
from libertalia.records import GameRecord, write_atomic

MERCHANT = "name: Merchant\nrank: 21\ntext: |\n  sun: gain {n} doubloons.\n"


@functools.cache
def _classic() -> lt.Rules:
    return lt.load_rules("classic")


def _played(rules: lt.Rules, steps: int = 30, seed: int = 4) -> lt.Game:
    game = lt.new_game(rules, 3, seed=seed)
    for i in range(steps):
        if game.decision is None:
            break
        keys = game.legal_keys()
        game = game.choose(keys[i % len(keys)])
    return game


@functools.cache
def _record_text() -> str:
    return GameRecord.of(_played(_classic()), agents=("human", "random", "first")).to_json()


def _edited(**fields: Any) -> str:
    payload = json.loads(_record_text())
    for key, value in fields.items():
        if value is KeyError:
            del payload[key]
        else:
            payload[key] = value
    return json.dumps(payload)


def test_a_record_needs_no_seed_and_replays_exactly() -> None:
    """GameRecord.of(game) takes the game's own seed; the record replays to the same state."""
    game = _played(_classic())
    record = GameRecord.of(game)
    assert record.seed == game.seed == 4 and record.rules_fingerprint == _classic().fingerprint
    assert record.library_version == saves.library_version()
    assert GameRecord.from_json(record.to_json()).replay().state == game.state
    assert GameRecord.of(game, seed=4) == record  # the old argument still works
    with pytest.raises(RecordError, match="seed: the game was started with seed 4, not 5"):
        GameRecord.of(game, seed=5)


def test_a_declared_position_is_carried_by_the_game() -> None:
    """A game from a declared position knows its setup, so its record carries it; a wrong setup is refused."""
    setup = {"players": [{"hand": ["Cook", "Merchant"]}, {"hand": ["Cook", "Surgeon"]}]}
    game = lt.new_game(_classic(), 2, seed=3, setup=setup).choose("Merchant")
    assert GameRecord.of(game, setup=setup).replay().state == game.state
    assert GameRecord.of(game).setup == setup and GameRecord.of(game).replay().state == game.state
    with pytest.raises(RecordError, match="answers: the game's answers do not lead to it"):
        GameRecord.of(game, setup={**setup, "day": 2})


@pytest.mark.parametrize("text", ["1", "null", "[1, 2]", "", "{", "[" * 50_000, "[[[" * 10 + "]]]" * 10, "{}",
                                  b"\xff\xfe", None])
def test_text_that_is_no_record_is_refused(text: Any) -> None:
    """Non-JSON, other JSON values, deep nesting and bad bytes raise RecordError, not AttributeError/RecursionError."""
    with pytest.raises(RecordError, match="^cannot read the game record: "):
        GameRecord.from_json(text)


WRONG_TYPES = [
    ("players", "3"), ("players", 3.5), ("players", True), ("players", None), ("seed", "4"), ("seed", [4]),
    ("answers", "Cook"), ("answers", [1, 2]), ("answers", {"0": "Cook"}), ("setup", []), ("setup", "x"),
    ("agents", 3), ("agents", [None]), ("rules_args", []), ("rules_args", {"edition": "classic"}),
    ("rules_identity", 5), ("library_version", None), ("rules_fingerprint", 1), ("rules_args", KeyError),
    ("answers", KeyError), ("format", 1), ("format", "2"), ("rng", None), ("colour", "red"),
]


@pytest.mark.parametrize(("field", "value"), WRONG_TYPES)
def test_a_wrong_field_is_named(field: str, value: Any) -> None:
    """A field of the wrong type (or missing, or unknown) is one RecordError naming it, before any replay."""
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(_edited(**{field: value}))
    assert caught.value.field.startswith(field if field != "rules_args" or value is KeyError else "rules_args")
    assert str(caught.value).startswith(f"cannot read the game record: {caught.value.field}: ")


@pytest.mark.parametrize(("fields", "expected"), [
    ({"players": 0}, "players: Libertalia (2012) is for 2 to 6 players, not 0"),
    ({"players": 10**40}, "players: "),
    ({"setup": {"voyage": 9}}, "setup: voyage must be a whole number in 1..3"),
    ({"setup": {"players": [[[[]]]]}}, "setup: players needs one entry per seat"),
    ({"answers": ["Kraken"]}, "answers[0]: choose a character to send to the island: 'Kraken' is not a legal choice"),
    ({"answers": ["x"] * 5000}, "is not a legal choice"),
    ({"rules_args": {"edition": "nope", "loot": None, "seed": None, "extra_cards": []}},
     "rules_args: the rules do not load: no edition or board file called 'nope'"),
    ({"rules_args": {"edition": "classic", "loot": "stormy", "seed": None, "extra_cards": []}},
     "rules_args: the rules do not load: there is no 'stormy' loot side"),
    ({"rules_args": {"edition": "classic", "loot": None, "seed": None, "extra_cards": ["no/such/mod"]}},
     "rules_args: the rules do not load: no/such/mod: no such file or folder"),
    ({"rules_args": {"edition": "classic", "loot": None, "seed": None, "extra_cards": ["/no/such/mod"]}},
     "rules_args.extra_cards[0]: '/no/such/mod' lies outside the current folder, so it is not read"),
    ({"rules_args": {"edition": "\x00", "loot": None, "seed": None, "extra_cards": []}},
     "rules_args.edition: '\\x00' cannot name a file"),
    ({"rules_args": {"edition": "\ud800", "loot": None, "seed": None, "extra_cards": []}},
     "rules_args.edition: '\\ud800' cannot name a file"),
    ({"rules_identity": "classic:chest=stormy"}, "rules_identity: the record is for 'classic:chest=stormy' (edition"),
    ({"rules_fingerprint": "0123456789abcdef"}, "rules_fingerprint: the board, card, loot or grammar files have "),
    ({"library_version": "0.0.1"}, "library_version: the record was made with libertalia 0.0.1, and this is"),
])
def test_replay_refuses_with_a_record_error(fields: dict[str, Any], expected: str) -> None:
    """Bad players, setups, answers and rules, and rules that load differently, make replay raise RecordError."""
    record = GameRecord.from_json(_edited(**fields))
    with pytest.raises(RecordError) as caught:
        record.replay()
    assert str(caught.value).startswith("cannot replay the game record: ")
    assert expected in str(caught.value)


def test_replay_of_a_hand_made_record_raises_only_library_errors() -> None:
    """Records built in Python with wrong types are checked like files: a RecordError, not a TypeError."""
    good = GameRecord.from_json(_record_text())
    for field, value in WRONG_TYPES:
        if field in ("format", "rng", "colour") or value is KeyError:
            continue
        with pytest.raises(RecordError):
            attrs.evolve(good, **{field: value}).replay(_classic())


def _mod(folder: Path, doubloons: int) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "merchant.yaml").write_text(MERCHANT.format(n=doubloons), encoding="utf-8")


def test_a_changed_card_makes_replay_refuse(tmp_path: Path) -> None:
    """Record a modded game, edit the mod's card, and replay (library and command line) refuses, naming the files."""
    _mod(tmp_path / "mod", 9)
    rules = lt.load_rules("classic", extra_cards=[tmp_path / "mod"])
    path = tmp_path / "game.json"
    GameRecord.of(_played(rules, 60)).save(path)
    assert GameRecord.load(path).replay().state == _played(rules, 60).state
    _mod(tmp_path / "mod", 1)
    with pytest.raises(RecordError, match="rules_fingerprint: the board, card, loot or grammar files have changed"):
        GameRecord.load(path).replay()
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith("libertalia: cannot replay the game record: rules_fingerprint: the board, card")


def test_a_modded_record_replays_from_another_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mod paths are stored absolute: a record beside its mod, or one whose mod is named again, replays anywhere."""
    _mod(tmp_path / "mod", 9)
    monkeypatch.chdir(tmp_path)
    rules = lt.load_rules("classic", extra_cards=["mod"])
    assert rules.load_args["extra_cards"] == [str((tmp_path / "mod").resolve())]
    record = GameRecord.of(_played(rules, 20))
    record.save(tmp_path / "game.json")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert GameRecord.load(tmp_path / "game.json").replay().state == _played(rules, 20).state
    with pytest.raises(RecordError, match=r"extra_cards\[0\]: '.*mod' lies outside the current folder"):
        GameRecord.from_json(record.to_json()).replay()
    again = GameRecord.from_json(record.to_json()).replay(cards=[tmp_path / "mod"])
    assert again.state == _played(rules, 20).state


def test_a_record_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    """A record file of other bytes is a RecordError naming the file, not a UnicodeDecodeError."""
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{\x00}\x00")
    with pytest.raises(RecordError, match="game.json is not UTF-8 text"):
        GameRecord.load(path)


def test_the_replay_command_reports_a_damaged_record_in_one_line(tmp_path: Path) -> None:
    """``libertalia replay`` of a corrupted record prints one line and exits 2, with no traceback."""
    for text in ("null", "[" * 10_000, _edited(answers=[1])):
        path = tmp_path / "bad.json"
        path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(main, ["replay", str(path)])
        assert result.exit_code == 2 and result.output.startswith("libertalia: cannot read the game record: ")
        assert result.output.count("\n") == 1 and "Traceback" not in result.output


def test_writes_are_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write replaces the whole file or nothing: no temporary file is left and a failed rename keeps the old text."""
    path = tmp_path / "game.json"
    write_atomic(path, "old\n")
    os.chmod(path, 0o640)
    GameRecord.from_json(_record_text()).save(path)
    assert GameRecord.load(path) == GameRecord.from_json(_record_text())
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # a replaced file keeps its permissions
    before = path.read_text(encoding="utf-8")

    def broken(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(path, "new\n")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(tmp_path / "other.json", "\ud800")
    assert path.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_game_its_answers_do_not_lead_to_is_not_recorded() -> None:
    """A sampled game (new seed, no answers) cannot be recorded: the record would replay another game."""
    import random

    rules = lt.load_rules("galecrest")
    game = lt.new_game(rules, 3, 5)
    for _ in range(9):
        game = game.choose(game.legal_keys()[-1])
    lt.GameRecord.of(game)  # the real game records fine
    sample = game.observation(0).sample_game(random.Random(1))
    with pytest.raises(lt.RecordError, match="do not lead to it"):
        lt.GameRecord.of(sample)


@pytest.mark.parametrize("handicap", [[5], [5, 0], [0, 0, 0, 5], [1, 2, 3, 4, 5, 6, 7]])
def test_a_handicap_needs_one_entry_per_seat(handicap: list[int]) -> None:
    """A record's handicap has one entry per seat, or none: a list cut short (or too long) replays no game played."""
    with pytest.raises(RecordError, match=rf"^cannot read the game record: handicap: has {len(handicap)} entries "
                                          "for 3 seats: a handicap gives every seat its extra doubloons"):
        GameRecord.from_json(_edited(handicap=handicap))


@pytest.mark.parametrize(("value", "shown"), [(-1, "-1"), (10**6 + 1, "1000001"), (10**100, "a number of 333 bits"),
                                              (2.5, "2.5"), (True, "true")])
def test_a_handicap_entry_out_of_range_is_named(value: Any, shown: str) -> None:
    """Each handicap entry is a whole number of extra doubloons in 0..MAX_START, refused at reading, not at replay."""
    with pytest.raises(RecordError, match=r"^cannot read the game record: handicap\[1\]: must be a whole number") \
            as caught:
        GameRecord.from_json(_edited(handicap=[0, value, 0]))
    assert shown in str(caught.value)


def test_a_handicap_for_every_seat_replays_to_its_game() -> None:
    """A handicapped game's record (solo: you and Automa, 2 entries) reads back and replays to that very game."""
    game = lt.new_game(_classic(), 3, seed=4, handicap={1: 4})
    game = game.choose(game.legal_keys()[0])
    record = GameRecord.of(game)
    assert record.handicap == (0, 4, 0)
    assert GameRecord.from_json(record.to_json()).replay().state == game.state
    solo = lt.new_game(lt.load_rules("galecrest"), 1, seed=2, handicap={0: 10})
    solo = solo.choose(solo.legal_keys()[0])
    text = GameRecord.of(solo).to_json()
    assert json.loads(text)["handicap"] == [10, 0]
    assert GameRecord.from_json(text).replay().state == solo.state
    with pytest.raises(RecordError, match="handicap: has 1 entries for 2 seats"):
        GameRecord.from_json(text.replace('"handicap": [\n  10,\n  0\n ]', '"handicap": [10]'))


def test_a_hand_made_record_with_a_short_handicap_does_not_replay() -> None:
    """A GameRecord built in Python is checked as a file is: a short handicap raises RecordError on replay."""
    record = attrs.evolve(GameRecord.from_json(_record_text()), handicap=(3,))
    with pytest.raises(RecordError, match="handicap: has 1 entries for 3 seats"):
        record.replay(_classic())


@pytest.mark.parametrize("seed", [True, 4.0, "4", -1, 2**64])
def test_record_of_refuses_a_seed_that_is_no_seed(seed: Any) -> None:
    """GameRecord.of(seed=...) takes a seed as new_game does: True or 4.0 is no seed 4 (RecordError naming seed)."""
    with pytest.raises(RecordError, match="^cannot make the game record: seed: a seed is a whole number"):
        GameRecord.of(_played(_classic()), seed=seed)



@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 20), max_size=7))
def test_a_record_taken_states_every_seats_handicap(handicap: list[int]) -> None:
    """Any handicap list: a 3-seat record is taken only with 0 or 3 entries, and each seat then starts with its own."""
    text = _edited(handicap=handicap)
    if len(handicap) not in (0, 3):
        with pytest.raises(RecordError, match="handicap: has"):
            GameRecord.from_json(text)
        return
    record = GameRecord.from_json(text)
    start = lt.new_game(_classic(), 3, record.seed, handicap=dict(enumerate(record.handicap)))
    assert record.handicap == tuple(handicap) and start.state.handicap == (tuple(handicap) if any(handicap) else ())
