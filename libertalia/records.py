"""Game records: the few facts that reproduce a game exactly.

A record holds how the rules were loaded, the seat count, the seed, the
declared position (if any) and every answer.  Replaying it rebuilds the very
same game, which makes records small, diffable save files and bug reports.

A record also names the rules it was played with (edition and loot sides, a
fingerprint of every board, card, loot and grammar file, and the library
version) and refuses to replay when they now load differently.  Anything wrong
with a record raises ``RecordError``, naming the field.  ``parse_moves`` reads the seed and
answers alone with the same checks (``libertalia.spiel``'s serialised states).

A record read from a file or text names the mod folders (and board file) it was played with,
and replaying it reads them: only those under the record's folder or the current folder are
read, unless the caller names them again (``replay(cards=...)``, ``--cards``).  A record made
here (``GameRecord.of``) names the rules it was made with, and is trusted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .engine import rng
from .engine.driver import answer as _answer
from .engine.setup import MAX_START
from .engine.specs import Rules
from .errors import IllegalChoice, LibertaliaError, RecordError, SetupError
from .files import read_regular, write_atomic
from .game import Game, new_game
from .loading.rules import bundled_editions, load_rules
from .saves import MAX_DEPTH, SEED_BOUND, describe, field_key, library_version, parse_json, rules_mismatch

__all__ = ["MAX_RECORD_BYTES", "RECORD_FORMAT", "GameRecord", "parse_moves", "write_atomic"]

RECORD_FORMAT = 2
"""2: the record names its rules' file fingerprint (1: edition, sides and library version only)."""

MAX_RECORD_BYTES = 16 * 2**20
"""Largest record file ``load`` reads: a record of the longest game a board allows is far smaller."""


@attrs.frozen
class GameRecord:
    """Everything needed to reproduce one game, and nothing else."""

    rules_args: dict[str, Any]
    rules_identity: str
    players: int
    seed: int
    answers: tuple[str, ...]
    setup: dict[str, Any] | None = None
    agents: tuple[str, ...] = ()  # who played each seat, for people reading the record
    handicap: tuple[int, ...] = ()  # extra starting doubloons per seat (``new_game(handicap=...)``)
    library_version: str = attrs.field(factory=library_version)
    rules_fingerprint: str = ""  # of the files the rules were loaded from (``Rules.fingerprint``)
    # Where the record was read from, for the mod paths it may name: None for a record made in
    # this process (trusted), else the folder of its file ("" for text: the current folder only).
    # Not part of the record: neither written nor compared.
    origin: str | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

    @classmethod
    def of(cls, game: Game, *, seed: int | None = None, setup: Mapping[str, Any] | None = None,
           agents: Sequence[str] = (), handicap: Mapping[int, int] | None = None) -> GameRecord:
        """The record of ``game``, as far as it has gone.

        The game knows its seed, declared position and handicap; ``seed``, ``setup`` and
        ``handicap``, if given, must be those (they are kept for callers written before games
        knew them).
        """
        if not isinstance(game, Game):
            raise TypeError(f"GameRecord.of: game must be a Game, not {game!r} ({type(game).__name__})")
        if seed is not None and rng.seed_problem(seed) is not None:
            raise RecordError(str(rng.seed_problem(seed)), "seed", action="make")
        if seed is not None and seed != game.seed:
            raise RecordError(f"the game was started with seed {game.seed}, not {seed}", "seed", action="make")
        state = game.state
        if setup is None and state.setup is not None:
            setup = json.loads(state.setup)
        if handicap is None and state.handicap:
            handicap = dict(enumerate(state.handicap))
        record = cls(
            rules_args=dict(game.rules.load_args),
            rules_identity=game.rules.identity,
            players=1 if game.state.automa is not None else len(game.players),
            seed=game.seed,
            answers=game.history,
            setup=dict(setup) if setup is not None else None,
            agents=tuple(agents),
            handicap=tuple((handicap or {}).get(i, 0) for i in range(len(game.players))) if handicap else (),
            rules_fingerprint=game.rules.fingerprint,
        )
        # A record is only worth keeping if it plays back to this very game: a game built some
        # other way (``Observation.sample_game``, a hand-made state) has no answers that lead to it.
        if not _leads_to(record, game):
            raise RecordError("the game's answers do not lead to it from its seed and setup (a game from "
                              "sample_game, or a state made by hand, cannot be recorded)", "answers", action="make")
        return record

    # ------------------------------------------------------------ replaying
    def load_rules(self, *, cards: Sequence[str | os.PathLike[str]] = ()) -> Rules:
        """The rules the game was played with; ``RecordError`` if they load differently now.

        A record read from a file or text reads only mod paths under its folder or the current
        one, and those named in ``cards`` (the user's say-so): any other is refused before any
        file is read.
        """
        _check_fields(_fields_of(self))
        self._check_paths(cards)
        try:
            rules = load_rules(**self.rules_args)
        except (ValueError, OSError) as exc:  # RulesError, DataError: the rules do not load at all
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise RecordError(f"the rules do not load: {first}", "rules_args", action="replay") from exc
        self._check_rules(rules)
        return rules

    def replay(self, rules: Rules | None = None, *, cards: Sequence[str | os.PathLike[str]] = ()) -> Game:
        """The game as it stood after the last recorded answer.

        Raises ``RecordError`` if the rules load differently from the ones the game was
        played with, a mod path lies where the record may not read (``load_rules``; ``cards``
        names paths to read anyway), or the setup or an answer does not fit the game; any
        other error is the library's own (``StepBudgetExceeded`` for a card text that loops).
        """
        if rules is None:
            rules = self.load_rules(cards=cards)
        elif not isinstance(rules, Rules):
            raise TypeError(f"GameRecord.replay: rules must be the Rules of lt.load_rules or None, "
                            f"not {rules!r} ({type(rules).__name__})")
        else:
            _check_fields(_fields_of(self))
            self._check_rules(rules)
        try:
            game = new_game(rules, self.players, self.seed, self.setup,
                            handicap=dict(enumerate(self.handicap)) if self.handicap else None)
        except SetupError as exc:
            raise RecordError(str(exc), "setup" if self.setup is not None else "players", action="replay") from None
        for _, _, after in self.answered(game):
            game = after
        return game

    def answered(self, game: Game) -> Iterator[tuple[Game, str, Game]]:
        """(before, key, after) for each recorded answer given to ``game``, its start: a replay step by step.

        Raises ``RecordError`` where an answer comes after the end or is not legal."""
        for i, key in enumerate(self.answers):
            if game.decision is None:
                raise RecordError(f"the game ended with the answer before; {len(self.answers) - i} answers are left",
                                  f"answers[{i}]", action="replay")
            try:
                after = game.choose(key)
            except IllegalChoice as exc:
                raise RecordError(str(exc), f"answers[{i}]", action="replay") from None
            yield game, key, after
            game = after

    def _check_paths(self, cards: Sequence[str | os.PathLike[str]]) -> None:
        """Refuse, before reading anything, mod paths outside the record's folder and the current one."""
        if self.origin is None:
            return
        roots = [os.path.realpath(os.getcwd())]
        if self.origin:
            roots.append(os.path.realpath(self.origin))
        given = [os.path.realpath(os.fspath(p)) for p in cards]
        for field, path in self._mod_fields():
            try:
                real = os.path.realpath(path)
            except (ValueError, UnicodeError):  # a NUL byte, or a lone surrogate no file system can name
                raise RecordError(f"{_path_text(path)} cannot name a file: it holds a character no path may "
                                  "hold", field, action="replay") from None
            if any(_within(real, root) for root in roots) or any(_within(real, g) for g in given):
                continue
            where = "the current folder" if not self.origin else "the record's folder and the current folder"
            raise RecordError(f"{_path_text(path)} lies outside {where}, so it is not read: a record's mod files "
                              "are read from there only, or when named again (--cards PATH; "
                              "GameRecord.replay(cards=[PATH]))", field, action="replay")

    def mod_paths(self) -> tuple[str, ...]:
        """The files and folders beyond the bundled ones that replaying reads: a board file, then the mods."""
        return tuple(path for _, path in self._mod_fields())

    def _mod_fields(self) -> list[tuple[str, str]]:
        named = [(f"rules_args.extra_cards[{i}]", p) for i, p in enumerate(self.rules_args["extra_cards"])]
        if self.rules_args["edition"] not in bundled_editions():  # a board file
            named.insert(0, ("rules_args.edition", self.rules_args["edition"]))
        return named

    def _check_rules(self, rules: Rules) -> None:
        stamp = {"identity": self.rules_identity, "fingerprint": self.rules_fingerprint,
                 "library": self.library_version}
        played = rules.for_game(self.seed)
        if self.players == 1 and played.board.solo is not None:
            played = played.for_solo()
        mismatch = rules_mismatch(stamp, played, "record")
        if mismatch is not None:
            field = {"identity": "rules_identity", "fingerprint": "rules_fingerprint"}.get(mismatch[0],
                                                                                            "library_version")
            raise RecordError(mismatch[1], field, action="replay")

    # ------------------------------------------------------------ files
    def to_json(self) -> str:
        payload = {
            "format": RECORD_FORMAT,
            "rng": {"name": rng.RNG_NAME, "version": rng.RNG_VERSION},
            **_fields_of(self),
        }
        return json.dumps(payload, indent=1)

    @classmethod
    def from_json(cls, text: str | bytes, *, origin: str | os.PathLike[str] = "") -> GameRecord:
        """A record from its JSON text; ``RecordError`` naming the field for anything wrong.

        ``origin`` is the folder the text came from: the mod paths it names are read only under
        it or the current folder (``load_rules``).
        """
        data = parse_json(text, RecordError, MAX_DEPTH)
        if not isinstance(data, dict):
            raise RecordError(f"a game record is a JSON object, not {describe(data)}")
        fmt = data.get("format")
        if type(fmt) is not int or fmt != RECORD_FORMAT:
            older = " (made by an older libertalia, without a rules fingerprint)" if fmt == 1 else ""
            raise RecordError(f"not a libertalia game record of format {RECORD_FORMAT}: the format is "
                              f"{describe(fmt)}{older}", "format")
        generator = data.get("rng")
        if not isinstance(generator, dict) or generator.get("name") != rng.RNG_NAME \
                or type(generator.get("version")) is not int or generator.get("version") != rng.RNG_VERSION:
            raise RecordError(f"the record needs another random-number generator than {rng.RNG_NAME} "
                              f"v{rng.RNG_VERSION}", "rng")
        fields = {k: v for k, v in data.items() if k not in ("format", "rng")}
        _check_fields(fields)
        return cls(**{**fields, "answers": tuple(fields["answers"]), "agents": tuple(fields.get("agents", ())),
                      "handicap": tuple(fields.get("handicap", ()))}, origin=os.fspath(origin))

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``, atomically and private to the user (``files.write_atomic``)."""
        write_atomic(path, self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """The record in the file ``path``: ``RecordError`` if it is not one, ``OSError`` if it cannot be read.

        Only a regular file of at most ``MAX_RECORD_BYTES`` is read: a FIFO, a device or a
        folder is refused without being opened for reading.
        """
        data = read_regular(path, limit=MAX_RECORD_BYTES, fail=RecordError)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        return cls.from_json(text, origin=Path(path).parent)


# ---------------------------------------------------------------- the moves alone
_MOVES = ("seed", "answers")


def parse_moves(text: str | bytes) -> tuple[int, tuple[str, ...]]:
    """The seed and answers of ``{"seed": ..., "answers": [...]}``, the moves of a game without its rules.

    What ``libertalia.spiel`` serialises a state to (the OpenSpiel game knows its rules and
    players): read by the same JSON reader and the same field checks as a whole record, so that
    both refuse the same things with the same ``RecordError``.
    """
    data = parse_json(text, RecordError, MAX_DEPTH)
    if not isinstance(data, dict):
        raise RecordError(f"the moves of a game are a JSON object with 'seed' and 'answers', not {describe(data)}")
    unknown = sorted(str(k) for k in data if k not in _MOVES)
    if unknown:
        raise RecordError("unknown field (the moves are 'seed' and 'answers')", field_key(unknown[0]))
    for key in _MOVES:
        if key not in data:
            raise RecordError("missing", key)
    _seed(data["seed"], "seed")
    _texts(data["answers"], "answers")
    return data["seed"], tuple(data["answers"])


# ---------------------------------------------------------------- checks
_REQUIRED = ("rules_args", "rules_identity", "players", "seed", "answers", "library_version", "rules_fingerprint")
_OPTIONAL = ("setup", "agents", "handicap")
_RULES_ARGS = ("edition", "loot", "seed", "extra_cards")


def _fields_of(record: GameRecord) -> dict[str, Any]:
    """The record's own fields, as written (not ``origin``)."""
    return {f.name: _plain(getattr(record, f.name)) for f in attrs.fields(GameRecord) if f.name != "origin"}


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _path_text(path: str) -> str:
    text = repr(path)
    return text if len(text) <= 200 else text[:197] + "..."


def _within(path: str, root: str) -> bool:
    """Whether the real path ``path`` is ``root`` or lies under it."""
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # different drives
        return False


def _check_fields(data: Mapping[str, Any]) -> None:
    """Every field's JSON type (and the shape of ``rules_args``), or ``RecordError`` naming it."""
    unknown = sorted(str(k) for k in data if k not in _REQUIRED and k not in _OPTIONAL)
    if unknown:
        raise RecordError("unknown field", field_key(unknown[0]))
    for key in _REQUIRED:
        if key not in data:
            raise RecordError("missing", key)
    for key in ("rules_identity", "library_version", "rules_fingerprint"):
        _text(data[key], key)
    for key in ("players", "seed"):
        _whole(data[key], key)
    _seed(data["seed"], "seed")
    for key in ("answers", "agents"):
        _texts(data.get(key, ()), key)
    _handicap(data.get("handicap", ()), data["players"])
    setup = data.get("setup")
    if setup is not None and not isinstance(setup, dict):
        raise RecordError(f"a declared position is an object (or null), not {describe(setup)}", "setup")
    args = data["rules_args"]
    if not isinstance(args, dict):
        raise RecordError(f"must be an object, not {describe(args)}", "rules_args")
    for key in sorted(str(k) for k in args):
        if key not in _RULES_ARGS:
            raise RecordError("unknown field", f"rules_args.{field_key(key)}")
    for key in _RULES_ARGS:
        if key not in args:
            raise RecordError("missing", f"rules_args.{key}")
    _text(args["edition"], "rules_args.edition")
    loot = args["loot"]
    if isinstance(loot, dict):
        for kind, side in loot.items():
            _text(side, f"rules_args.loot.{field_key(kind)}")
    elif loot is not None:
        _text(loot, "rules_args.loot")
    if args["seed"] is not None:
        _seed(args["seed"], "rules_args.seed")
    cards = args["extra_cards"]
    if not isinstance(cards, list | tuple):
        raise RecordError(f"must be a list of paths, not {describe(cards)}", "rules_args.extra_cards")
    for i, card in enumerate(cards):
        _text(card, f"rules_args.extra_cards[{i}]")


def _texts(items: Any, field: str) -> None:
    """A list of strings (``answers``, ``agents``): a string is no list of its letters."""
    if not isinstance(items, list | tuple):
        raise RecordError(f"must be a list, not {describe(items)}", field)
    for i, item in enumerate(items):
        _text(item, f"{field}[{i}]")


def _handicap(handicap: Any, players: int) -> None:
    """Empty (no handicap), or one whole number of extra doubloons for every seat, from 0 to ``MAX_START``.

    A shorter list would leave the missing seats to be read as 0, so a record cut short (or written
    for fewer seats) would replay a game other than the one played: it is refused instead.
    """
    if not isinstance(handicap, list | tuple):
        raise RecordError(f"must be a list, not {describe(handicap)}", "handicap")
    for i, extra in enumerate(handicap):
        _whole(extra, f"handicap[{i}]")
        if not 0 <= extra <= MAX_START:
            raise RecordError(f"must be a whole number in 0..{MAX_START:,} (extra doubloons), not {describe(extra)}",
                              f"handicap[{i}]")
    seats = 2 if players == 1 else players  # the solo game: you and Automa
    if handicap and len(handicap) != seats:
        raise RecordError(f"has {len(handicap)} entries for {describe(seats)} seats: a handicap gives every seat "
                          "its extra doubloons (0 for none), or is left out", "handicap")


def _text(value: Any, field: str) -> None:
    if not isinstance(value, str):
        raise RecordError(f"must be a string, not {describe(value)}", field)


def _seed(value: Any, field: str) -> None:
    problem = rng.seed_problem(value)
    if problem is not None:
        raise RecordError(problem, field)


def _whole(value: Any, field: str) -> None:
    if type(value) is not int or not -SEED_BOUND <= value <= SEED_BOUND:
        raise RecordError(f"must be a whole number, not {describe(value)}", field)


def _leads_to(record: GameRecord, game: Game) -> bool:
    """Whether ``record``'s seed, setup and answers rebuild ``game`` exactly (its event log too, if it keeps one:
    a record replays with the log on, so the record of a game played without one replays to it plus its log).

    Played on one working copy, as ``play_out`` does (no snapshot per answer and no
    ``Game.choose``), so that checking a record costs about as much as playing the game once.
    """
    try:
        start = new_game(game.rules, record.players, record.seed, record.setup, log=game.state.journal is not None,
                         handicap=dict(enumerate(record.handicap)) if record.handicap else None)
        w, _ = start._work()
        for key in record.answers:
            d = w.decision
            if d is None or key not in d.keys():  # noqa: SIM118 - Decision.keys() is a method
                return False
            _answer(w, key)
        return w.freeze() == game.state
    except LibertaliaError:
        return False
