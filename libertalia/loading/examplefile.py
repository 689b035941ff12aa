"""The ``examples:`` list of a character or loot file, read and checked for shape.

Each example is a declared position (``new_game``'s ``setup=``), the characters each seat
plays, further answers, and what every seat (and the game) should look like afterwards.
Reading them needs no game: ``check_files`` (``libertalia cards check``) checks their shape
here, and ``examples.run_examples`` plays them.  The format is documented in docs/modding.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from ..engine import rng
from ..errors import DataError, ExampleFailure
from .yamlfile import Field, read

_EXAMPLE_KEYS = {
    "it": True, "setup": False, "players": False, "play": False, "answers": False, "seed": False,
    "expect": True, "phase": False, "day": False, "voyage": False, "island": False, "legal": False,
    "over": False, "winners": False,
}
_SEAT_NUMBERS = ("doubloons", "score", "reputation")
_SEAT_LISTS = ("hand", "ship", "graveyard", "loot", "kept", "kept_loot", "removed")
_PHASES = ("select", "day", "dusk", "night", "anchor", "over")

Expected = int | bool | str | tuple[str, ...]


@attrs.frozen
class Example:
    """One parsed ``examples:`` entry; ``line``/``column`` are those of its ``- it:``."""

    path: str
    line: int
    column: int
    it: str
    setup: Mapping[str, Any] | None  # None: the game is dealt from ``seed`` (the only start a solo game has)
    players: int
    play: tuple[str, ...]
    answers: tuple[str, ...]
    seed: int
    seats: tuple[Mapping[str, Expected], ...]
    game: Mapping[str, Expected]
    offered: tuple[tuple[str, ...] | None, ...] = ()
    """Per answer, the keys the game must offer when it is given (None: not checked); an answer
    written ``{answer: KEY, offered: [KEYS]}`` states what the question offered, not only what was chosen."""

    def failure(self, problems: Iterable[str]) -> ExampleFailure:
        return ExampleFailure(self.it, list(problems), path=self.path, line=self.line, column=self.column)


def example_files(paths: Iterable[str | Path]) -> list[Path]:
    """The YAML files in the given files or folders, in order."""
    out = []
    for p in map(Path, paths):
        if not (p.is_file() or p.is_dir()):
            raise DataError("no such file or folder", path=str(p), expected="a YAML file or a folder of them")
        out.extend([p] if p.is_file() else sorted(f for f in p.rglob("*.yaml") if f.is_file()))
    return out


def read_examples(path: str | Path) -> tuple[list[Example], tuple[tuple[str, str], ...]]:
    """The examples of a file and, for a loot file, its ``((kind, side),)``."""
    doc = read(Path(path))
    root = dict(doc.root.items())
    loot: tuple[tuple[str, str], ...] = ()
    if "kind" in root and "side" in root:
        loot = ((root["kind"].as_str("kind"), root["side"].as_str("side")),)
    if "examples" not in root:
        return [], loot
    entries = root["examples"].as_list()
    if not entries:
        raise root["examples"].error("examples must list at least one example", "a list of '- it: ...' entries")
    return [_example(entry) for entry in entries], loot


# ---------------------------------------------------------------- reading
def _example(entry: Field) -> Example:
    f = entry.mapping(_EXAMPLE_KEYS, "an example")
    it = f["it"].as_str("it").strip()
    if not it:
        raise f["it"].error("it must say what the example shows", "a short sentence")
    setup: dict[str, Any] | None = None
    if "setup" in f:
        if not isinstance(f["setup"].value, dict):
            raise f["setup"].error("setup must be a mapping (a declared position)", "key: value lines, see docs/api.md")
        setup = f["setup"].value
    if "players" in f:
        players = f["players"].as_int("players", 1)
    elif setup is not None and isinstance(setup.get("players"), list) and setup["players"]:
        players = len(setup["players"])
    elif setup is None:
        raise entry.error("an example without setup is a game dealt from its seed: it needs a players count",
                          "players: N (1 for a solo game), or a setup")
    else:
        raise f["setup"].error("setup needs a players list (one entry per seat), or the example a players count",
                               "players: [{hand: [...]}, ...] in setup")
    play = _keys(f["play"], "play") if "play" in f else ()
    if play and len(play) != players:
        raise f["play"].error(f"play needs one character per seat ({players}), got {len(play)}",
                              f"{players} card names")
    answers, offered = _answers(f["answers"]) if "answers" in f else ((), ())
    seats = tuple(_seat(v, i) for i, v in enumerate(f["expect"].as_list()))
    seated = 2 if players == 1 else players  # a solo game seats Automa too (seat 1)
    if not 1 <= len(seats) <= seated:
        raise f["expect"].error(f"expect lists {len(seats)} seats, but the game has {seated}",
                                f"1 to {seated} entries, in seat order")
    return Example(
        path=entry.doc.path,
        line=entry.line,
        column=entry.column,
        it=it,
        setup=setup,
        players=players,
        play=play,
        answers=answers,
        offered=offered,
        seed=f["seed"].as_int("seed", 0, rng.SEED_LIMIT - 1) if "seed" in f else 0,
        seats=seats,
        game=_game_expectations(f),
    )


def _answers(field: Field) -> tuple[tuple[str, ...], tuple[tuple[str, ...] | None, ...]]:
    """The answer keys, and per answer the keys it must be offered among (None: not stated).

    An item is a key, or ``{answer: KEY, offered: [KEYS]}``: the question's whole set of options
    (order ignored), so an example pins what a card asks as well as what it was told.
    """
    keys: list[str] = []
    offered: list[tuple[str, ...] | None] = []
    for i, item in enumerate(field.as_list()):
        if item.node.kind != "mapping":
            keys.append(_key(item, "answers"))
            offered.append(None)
            continue
        f = item.mapping({"answer": True, "offered": True}, f"answers[{i}]")
        key = _key(f["answer"], f"answers[{i}].answer")
        options = _keys(f["offered"], f"answers[{i}].offered")
        if key not in options:
            raise f["offered"].error(f"answers[{i}] answers {key!r}, which its offered list does not hold",
                                     f"a list of the keys offered, {key!r} among them")
        keys.append(key)
        offered.append(options)
    return tuple(keys), tuple(offered) if any(o is not None for o in offered) else ()


def _key(item: Field, what: str) -> str:
    """One answer key; a bare yes/no (a YAML boolean) is the key "yes"/"no"."""
    value = item.value
    if isinstance(value, bool):
        value = "yes" if value else "no"
    if not isinstance(value, str):
        raise item.error(f"{what} must list keys (text), not {value!r}", "a key such as Cook or chest")
    return value


def _keys(field: Field, what: str) -> tuple[str, ...]:
    """Answer keys; a bare yes/no (a YAML boolean) is the key "yes"/"no"."""
    return tuple(_key(item, what) for item in field.as_list())


def _seat(field: Field, seat: int) -> dict[str, Expected]:
    f = field.mapping({k: False for k in (*_SEAT_NUMBERS, *_SEAT_LISTS)}, f"expect[{seat}]")
    out: dict[str, Expected] = {k: f[k].as_int(k, 0) for k in _SEAT_NUMBERS if k in f}
    for k in _SEAT_LISTS:
        if k in f:
            out[k] = _keys(f[k], k)
    return out


def _game_expectations(f: dict[str, Field]) -> dict[str, Expected]:
    out: dict[str, Expected] = {}
    if "phase" in f:
        phase = f["phase"].as_str("phase")
        if phase not in _PHASES:
            raise f["phase"].error(f"unknown phase {phase!r}", "one of " + ", ".join(_PHASES))
        out["phase"] = phase
    for k in ("day", "voyage"):
        if k in f:
            out[k] = f[k].as_int(k, 0)
    for k in ("island", "legal"):
        if k in f:
            out[k] = _keys(f[k], k)
    if "over" in f:
        if not isinstance(f["over"].value, bool):
            raise f["over"].error("over must be true or false", "true or false")
        out["over"] = f["over"].value
    if "winners" in f:  # the seats Game.winners() names once the game is over (R26), in any order
        seats = f["winners"].as_list()
        if not seats:
            raise f["winners"].error("winners must name at least one seat", "seat numbers, such as [1]")
        out["winners"] = tuple(str(s.as_int("a winning seat", 0)) for s in seats)
    return out
