"""Game records: the few facts that reproduce a game exactly.

A record holds how the rules were loaded, the seat count, the seed, the
declared position (if any) and every answer.  Replaying it rebuilds the very
same game, which makes records small, diffable save files and bug reports.

A record also names the rules it was played with (edition and loot sides, a
fingerprint of every board, card, loot and grammar file, and the library
version) and refuses to replay when they now load differently.  Anything wrong
with a record raises ``RecordError``, naming the field.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .engine import journal, rng
from .engine.specs import Rules
from .errors import IllegalChoice, LibertaliaError, RecordError, SetupError
from .game import Game, _answer, new_game
from .loading.rules import load_rules
from .saves import MAX_DEPTH, SEED_BOUND, describe, field_key, library_version, parse_json, rules_mismatch

RECORD_FORMAT = 2
"""2: the record names its rules' file fingerprint (1: edition, sides and library version only)."""



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

    @classmethod
    def of(cls, game: Game, *, seed: int | None = None, setup: Mapping[str, Any] | None = None,
           agents: Sequence[str] = (), handicap: Mapping[int, int] | None = None) -> GameRecord:
        """The record of ``game`` (started from ``setup``, if any), as far as it has gone.

        The game knows its seed; ``seed``, if given, must be that one (it is kept for callers
        written before games knew it).  A game from a declared position needs its ``setup``.
        """
        if not isinstance(game, Game):
            raise TypeError(f"GameRecord.of: game must be a Game, not {game!r} ({type(game).__name__})")
        if seed is not None and seed != game.seed:
            raise RecordError(f"the game was started with seed {game.seed}, not {seed}", "seed", action="make")
        dealt = journal.began_with_deal(game.state.journal, game.rules.lexicon)
        if setup is None and not dealt:
            raise RecordError("the game began at a declared position: pass its setup", "setup", action="make")
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
    def load_rules(self) -> Rules:
        """The rules the game was played with; ``RecordError`` if they load differently now."""
        _check_fields(_fields_of(self))
        try:
            rules = load_rules(**self.rules_args)
        except (ValueError, OSError) as exc:  # RulesError, DataError: the rules do not load at all
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise RecordError(f"the rules do not load: {first}", "rules_args", action="replay") from exc
        self._check_rules(rules)
        return rules

    def replay(self, rules: Rules | None = None) -> Game:
        """The game as it stood after the last recorded answer.

        Raises ``RecordError`` if the rules load differently from the ones the game was
        played with, or the setup or an answer does not fit the game; any other error is the
        library's own (``StepBudgetExceeded`` for a card text that loops).
        """
        if rules is None:
            rules = self.load_rules()
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
        for i, key in enumerate(self.answers):
            if game.decision is None:
                raise RecordError(f"the game ended with the answer before; {len(self.answers) - i} answers are left",
                                  f"answers[{i}]", action="replay")
            try:
                game = game.choose(key)
            except IllegalChoice as exc:
                raise RecordError(str(exc), f"answers[{i}]", action="replay") from None
        return game

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
            **attrs.asdict(self),
        }
        return json.dumps(payload, indent=1)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """A record from its JSON text; ``RecordError`` naming the field for anything wrong."""
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
                      "handicap": tuple(fields.get("handicap", ()))})

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``, atomically (see ``write_atomic``)."""
        write_atomic(path, self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """The record in the file ``path``: ``RecordError`` if it is not one, ``OSError`` if it cannot be read."""
        data = Path(path).read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        return cls.from_json(text)


# ---------------------------------------------------------------- checks
_REQUIRED = ("rules_args", "rules_identity", "players", "seed", "answers", "library_version", "rules_fingerprint")
_OPTIONAL = ("setup", "agents", "handicap")
_RULES_ARGS = ("edition", "loot", "seed", "extra_cards")


def _fields_of(record: GameRecord) -> dict[str, Any]:
    return {f.name: getattr(record, f.name) for f in attrs.fields(GameRecord)}


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
        items = data.get(key, ())
        if not isinstance(items, list | tuple):
            raise RecordError(f"must be a list, not {describe(items)}", key)
        for i, item in enumerate(items):
            _text(item, f"{key}[{i}]")
    handicap = data.get("handicap", ())
    if not isinstance(handicap, list | tuple):
        raise RecordError(f"must be a list, not {describe(handicap)}", "handicap")
    for i, extra in enumerate(handicap):
        _whole(extra, f"handicap[{i}]")
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


# ---------------------------------------------------------------- writing files
def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _umask()


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that the file holds either the old or the new text, never a part.

    The text goes to a temporary file in the same folder, is flushed to disk, then renamed over
    ``path`` (``os.replace``); an error or Ctrl-C on the way removes the temporary file and
    leaves ``path`` as it was.  A new file gets the usual permissions, a replaced one keeps its own.
    """
    target = Path(path)
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _leads_to(record: GameRecord, game: Game) -> bool:
    """Whether ``record``'s seed, setup and answers rebuild ``game`` exactly.

    Played on one working copy, as ``play_out`` does (no snapshot per answer and no
    ``Game.choose``), so that checking a record costs about as much as playing the game once.
    """
    try:
        start = new_game(game.rules, record.players, record.seed, record.setup,
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
