"""A failing game as text to paste: a Python script and an ``examples:`` entry for a card file.

A property test that finds a bad game knows everything that makes the game: the rules, the
player count, the seed, the declared position and the answers.  ``reproduction`` writes that
down twice: as a script that replays the game up to the failing check (to debug it), and as a
card example (to keep it as a regression test that ``libertalia cards test`` runs).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import attrs
import yaml

from ..engine.specs import Rules
from ..game import Game, new_game

__all__ = ["Reproduction", "load_call", "note_game", "note_position", "noting", "reproduction", "retitled", "unnoted"]

_LISTS = ("hand", "ship", "graveyard", "loot")  # always given in ``expect``; the others only when not empty
_MORE_LISTS = ("kept", "kept_loot", "removed")


@attrs.frozen
class Reproduction:
    """How to replay a failing game: ``python`` is a script, ``yaml`` an entry for a card's ``examples:``."""

    python: str
    yaml: str

    def __str__(self) -> str:
        return (f"Reproduce it with this script:\n\n```python\n{self.python}```\n\n"
                f"Or keep it as a card example, under a card file's examples: list:\n\n```yaml\n{self.yaml}```\n")


def reproduction(rules: Rules, players: int, seed: int, setup: Mapping[str, Any] | None, keys: Sequence[str], *,
                 note: str = "", load_call: str | None = None,
                 check: str = "check_invariants(game, before)") -> Reproduction:
    """Both forms of the game ``new_game(rules, players, seed, setup)`` after ``keys``.

    The script loads the rules as they were loaded (``load_call``, by default written from
    what ``load_rules`` recorded in the rules), starts the game, gives the answers one line
    each (``before`` is the game before the last answer) and ends with ``check``.  The
    example's ``expect`` is what each seat holds at the end, observed now: it passes as it
    stands and pins the position, and whoever fixes the bug corrects the values it got wrong.
    ``note`` (what failed) heads both.
    """
    call = load_call if load_call is not None else _load_call(rules)
    replay = _Replay.of(rules, players, seed, setup, keys)
    return Reproduction(_python(call, players, seed, setup, keys, replay, note, check),
                        _example(rules, players, seed, setup, keys, note))


def load_call(rules: Rules) -> str:
    """``lt.load_rules(...)`` with the arguments ``rules`` were loaded with: edition, loot sides, mod folders."""
    return _load_call(rules)


def _load_call(rules: Rules) -> str:
    args = rules.load_args
    if not args:
        raise ValueError("these rules do not say how they were loaded (they were not made by load_rules): "
                         "pass load_call='lt.load_rules(...)'")
    parts = [_literal(args["edition"])]
    if args.get("loot") is not None:
        parts.append(f"loot={args['loot']!r}")
    if args.get("seed") is not None:
        parts.append(f"seed={args['seed']!r}")
    if args.get("extra_cards"):
        parts.append(f"extra_cards={list(args['extra_cards'])!r}")
    return f"lt.load_rules({', '.join(parts)})"


def _literal(text: str) -> str:
    """A string as a double-quoted literal (JSON's escapes are Python's too)."""
    return json.dumps(text, ensure_ascii=False)


@attrs.frozen
class _Replay:
    """The game replayed: who was asked what at each answer, and where the replay stopped."""

    asked: tuple[str, ...]  # one comment per answer given without an error
    games: tuple[Game, ...]  # the game at the start and after each of those answers
    error: str = ""  # what the next answer (or the start) raised, if anything

    @classmethod
    def of(cls, rules: Rules, players: int, seed: int, setup: Mapping[str, Any] | None,
           keys: Sequence[str]) -> _Replay:
        try:
            game = new_game(rules, players, seed, setup)
        except Exception as exc:  # the failure may be the start itself
            return cls((), (), _describe(exc))
        asked: list[str] = []
        games = [game]
        for key in keys:
            d = game.decision
            if d is None or key not in d.keys():  # noqa: SIM118 - Decision.keys() returns a tuple
                return cls(tuple(asked), tuple(games), f"{key!r} is not offered here")
            try:
                game = game.choose(key)
            except Exception as exc:
                return cls(tuple(asked), tuple(games), _describe(exc))
            asked.append(f"seat {d.player}, {d.kind}" + (f" ({d.source})" if d.source else ""))
            games.append(game)
        return cls(tuple(asked), tuple(games))


def _describe(exc: BaseException) -> str:
    first = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def _python(call: str, players: int, seed: int, setup: Mapping[str, Any] | None, keys: Sequence[str],
            replay: _Replay, note: str, check: str) -> str:
    lines = [f"# {line}" for line in note.splitlines()]
    lines += ["import libertalia as lt", "from libertalia.testing import check_invariants", "",
              f"rules = {call}"]
    if setup is not None:
        lines.append("setup = " + _setup_literal(_plain(setup)))
        lines.append(f"game = lt.new_game(rules, {players}, seed={seed}, setup=setup)")
    else:
        lines.append(f"game = lt.new_game(rules, {players}, seed={seed})")
    if not keys:
        lines.append("before = None")
    width = max((len(_literal(k)) for k in keys), default=0)
    for i, key in enumerate(keys):
        if i == len(keys) - 1:
            lines.append("before = game")
        code = f"game = game.choose({_literal(key)})"
        if i < len(replay.asked):
            code = f"{code.ljust(width + 20)}  # {replay.asked[i]}"
        elif i == len(replay.asked) and replay.error:
            code = f"{code.ljust(width + 20)}  # raises {replay.error}"
        lines.append(code)
    lines += check.splitlines()
    return "\n".join(lines) + "\n"


def _setup_literal(setup: dict[str, Any]) -> str:
    """The setup as a Python literal laid out like the example: one line per key, one per seat."""
    lines = ["{"]
    for key, value in setup.items():
        if key == "players" and isinstance(value, list):
            lines.append(f"    {key!r}: [")
            lines += [f"        {seat!r}," for seat in value]
            lines.append("    ],")
        else:
            lines.append(f"    {key!r}: {value!r},")
    return "\n".join([*lines, "}"])


def _plain(value: Any) -> Any:
    """Tuples as lists, mappings as dicts: a literal that reads like the setup it was."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# ---------------------------------------------------------------- the card example
def _example(rules: Rules, players: int, seed: int, setup: Mapping[str, Any] | None, keys: Sequence[str],
             note: str) -> str:
    head = [f"  # {line}" for line in note.splitlines()]
    if players == 1:
        return "\n".join([*head, "  # A solo game cannot be a card example: examples start from a declared "
                                 "position, and solo games start at the beginning."]) + "\n"
    position: Mapping[str, Any] | None = setup
    if position is None:
        position = _dealt_position(rules, players, seed)
        if position is None:
            return "\n".join([*head, "  # This game's first question comes before any declared position could "
                                     "stand, so it cannot be a card example."]) + "\n"
        head.append("  # The game began with a deal; the example starts from the dealt position instead (same")
        head.append("  # hands, track and loot), so draws after it may differ from the original game.")
    head += _rules_warnings(rules)
    replay = _Replay.of(rules, players, seed, position, keys)
    if not replay.games:
        return "\n".join([*head, f"  # The position is refused: {replay.error}"]) + "\n"
    answers = list(keys[:len(replay.asked)])
    if replay.error and len(answers) < len(keys):
        answers.append(keys[len(answers)])
        head.append(f"  # The last answer raises {replay.error}: this example fails until that is fixed;")
        head.append("  # expect is the state just before it.")
    else:
        head.append("  # expect is the state each seat was in when this was written, so the example passes as it")
        head.append("  # stands and pins the position: correct the values the bug got wrong.")
    game = replay.games[-1]
    it = note.splitlines()[0] if note.strip() else "replays a game found by property testing"
    lines = [*head, f"  - it: {_literal(it)}", f"    players: {players}", f"    seed: {seed}", "    setup:"]
    for key, value in _plain(position).items():
        if key == "players":
            lines.append("      players:")
            lines += [f"        - {_flow(seat)}" for seat in value]
        else:
            lines.append(f"      {key}: {_flow(value)}")
    if answers:
        lines.append(f"    answers: {_flow(answers)}")
    lines.append("    expect:")
    track = bool(rules.board.track_income)
    lines += [f"      - {_flow(_seat(p, track))}" for p in game.players]
    lines += [f"    phase: {game.phase}", f"    voyage: {game.voyage}", f"    day: {game.day}"]
    if game.is_over:
        lines.append("    over: true")
    else:
        lines.append(f"    legal: {_flow(list(game.legal_keys()))}")
    return "\n".join(lines) + "\n"


def _seat(p: Any, track: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"doubloons": p.doubloons, "score": p.score}
    if track:
        out["reputation"] = p.reputation
    out.update({k: list(getattr(p, k)) for k in _LISTS})
    out.update({k: list(getattr(p, k)) for k in _MORE_LISTS if getattr(p, k)})
    return out


def _flow(value: Any) -> str:
    """A value as one line of flow YAML (``{hand: [Cook], doubloons: 3}``)."""
    text = str(yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10**6))
    return text.removesuffix("\n").removesuffix("\n...").strip()


def _rules_warnings(rules: Rules) -> list[str]:
    """What a card example cannot say about the rules: it runs with the board's default loot sides
    (a loot file: its own side) and with its own file as the only mod file."""
    out = []
    board = rules.board
    odd = sorted(f"{k}={side}" for k, side in rules.loot_sides.items() if side != board.default_loot)
    if odd:
        out.append(f"  # The game used {', '.join(odd)}: an example runs with the board's default sides unless it")
        out.append("  # sits in a loot file (which makes its own side the one in play).")
    extra = rules.load_args.get("extra_cards") or []
    if extra:
        out.append("  # The rules had mod cards from " + ", ".join(str(e) for e in extra) + ": an example loads")
        out.append("  # only its own file beside the edition, so paste it into the mod file the game needs.")
    return out


def _dealt_position(rules: Rules, players: int, seed: int) -> dict[str, Any] | None:
    """The declared position a dealt game stands at when it first asks (None if it is not a fresh day)."""
    s = new_game(rules, players, seed).state
    if s.step != "select" or s.frames or s.island or any(c is not None for c in s.commits):
        return None
    seats = []
    for p in s.seats:
        seat: dict[str, Any] = {"hand": list(p.hand), "doubloons": p.doubloons}
        seat.update({k: list(getattr(p, k)) for k in ("ship", "graveyard", "loot") if getattr(p, k)})
        if p.score:
            seat["score"] = p.score
        seats.append(seat)
    out: dict[str, Any] = {"voyage": s.voyage, "day": s.day}
    if rules.board.track_income:
        out["reputation"] = [p.reputation for p in s.seats]
    out["players"] = seats
    out["loot"] = [list(day) for day in s.days[s.day - 1:]]
    return out


_QUIET: ContextVar[bool] = ContextVar("libertalia_testing_unnoted", default=False)


@contextmanager
def unnoted() -> Iterator[None]:
    """Strategies drawn inside note no reproduction: for a caller that notes its own (``games``
    notes the game it plays from a drawn position; ``GameMachine`` its whole run)."""
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)


class _Deferred:
    """A reproduction written only if hypothesis prints it (for the minimal failing example)."""

    def __init__(self, rules: Rules, players: int, seed: int, setup: Mapping[str, Any] | None,
                 keys: Sequence[str] | Callable[[], Sequence[str]], *, what: str, note: str, check: str) -> None:
        self.args = (rules, players, seed, setup, keys)
        self.what, self.note, self.check = what, note, check

    def __repr__(self) -> str:
        rules, players, seed, setup, keys = self.args
        try:
            answers = keys() if callable(keys) else keys
            text = str(reproduction(rules, players, seed, setup, answers, note=self.note, check=self.check))
        except Exception as exc:  # a reproduction must never hide the failure it explains
            return f"(no reproduction: {type(exc).__name__}: {exc})"
        return f"Reproduction of the drawn {self.what}:\n" + text


def noting() -> bool:
    """Whether ``note_game`` and ``note_position`` would note anything here: inside a hypothesis
    test, outside ``unnoted()`` (a caller can then skip preparing what they would write)."""
    from hypothesis import currently_in_test_context

    return currently_in_test_context() and not _QUIET.get()


def _note(deferred: _Deferred) -> None:
    from hypothesis import note

    if noting():
        note(deferred)


def note_game(rules: Rules, players: int, seed: int, setup: Mapping[str, Any] | None, game: Game) -> None:
    """Attach ``game``'s reproduction to the running hypothesis test case.

    Hypothesis prints notes for the minimal failing example only, and the reproduction is
    written then, so strategies can call this for every game they draw at no real cost.
    Outside a hypothesis test (``strategy.example()``), or inside ``unnoted()``, it does nothing.
    """
    _note(_Deferred(rules, players, seed, setup, game.history, what="game",
                    note="the game this strategy drew (with your test's check)",
                    check="game  # your test's assertions on game"))


def note_position(rules: Rules, players: int, setup: Mapping[str, Any], *, seed: int = 0,
                  keys: Sequence[str] | Callable[[], Sequence[str]] = (), check: str = "") -> None:
    """Attach a drawn position's reproduction to the running hypothesis test case, as ``note_game``.

    The script starts ``new_game(rules, players, seed, setup)`` and gives ``keys`` (a callable
    is called only when the reproduction is written: a focused position's plays), then runs
    ``check``: by default a line naming ``setup`` for the test's own assertions.  The setup is
    copied now: a test that changes the drawn one still gets the position as it was drawn.
    """
    if not noting():
        return
    check = check or "setup  # your test's assertions on setup (and on a game from it: your seed may differ)"
    _note(_Deferred(rules, players, seed, copy.deepcopy(setup), keys, what="position",
                    note="the position this strategy drew (with your test's check)", check=check))


def retitled(example: str, it: str, note: str) -> str:
    """The examples: entry with its ``it`` saying which slip it kills, and ``note`` for its comment.

    The diff's comment asks the reader to correct a bug's values; here ``expect`` is the card's own
    play, which is right as it stands, so the comment says that instead.
    """
    lines = example.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.lstrip().startswith("- it:"):
            indent = line[:line.index("- it:")]
            return "".join([f"{indent}# {note}\n", f"{indent}- it: {json.dumps(it, ensure_ascii=False)}\n",
                            *lines[i + 1:]])
    return example
