"""Cards that test themselves: the ``examples:`` list of a character or loot file.

``examplefile`` reads them (each a declared position, the plays and answers, and what every
seat should look like afterwards); this module plays them.  ``load_rules`` accepts and ignores
the key; ``libertalia cards test`` and the test suite run the examples through ``run_examples``.
The format is documented in docs/modding.md.
"""

from __future__ import annotations

import functools
import warnings
from collections import Counter
from pathlib import Path

import attrs

from .. import _paths
from ..engine.specs import Rules
from ..errors import ExampleFailure, IllegalChoice, LibertaliaError, SetupError, UnverifiedLootWarning
from ..game import Game, new_game
from .examplefile import Example as Example
from .examplefile import Expected
from .examplefile import example_files as example_files
from .examplefile import read_examples as read_examples
from .rules import load_rules
from .yamlfile import read


@attrs.frozen
class ExampleResult:
    """The outcome of one example: ``failure`` is None when it passed."""

    example: Example
    failure: ExampleFailure | None = None

    @property
    def passed(self) -> bool:
        return self.failure is None


def run_examples(path: str | Path, edition: str | None = None) -> list[ExampleResult]:
    """Run every example of one card or loot file.

    A bundled file (one under a ``cards/<edition folder>``) runs under its own edition;
    any other file is a mod, loaded beside ``edition`` (default galecrest).  A loot file's
    side is made the active one.  Malformed examples raise ``DataError``; failures are
    returned in the results.
    """
    path = Path(path)
    examples, loot = read_examples(path)
    if not examples:
        return []
    own_edition, extra = placement(path, edition)
    rules = _rules(own_edition, loot, extra, hash(path.read_bytes()) if extra else 0)
    return [run_example(example, rules) for example in examples]


def run_example(example: Example, rules: Rules) -> ExampleResult:
    """Play one example from its position and compare the outcome."""
    try:
        game = _play(example, rules)
    except SetupError as exc:
        return ExampleResult(example, example.failure([f"bad setup: {exc}"]))
    except _Refused as exc:
        return ExampleResult(example, example.failure([str(exc)]))
    except LibertaliaError as exc:  # e.g. a card text that loops: the engine gives up
        return ExampleResult(example, example.failure([f"the game stopped: {exc}"]))
    problems = _compare(example, game)
    if problems:
        problems.append(f"(now {_waiting(game)})")
        return ExampleResult(example, example.failure(problems))
    return ExampleResult(example)


class _Refused(Exception):
    """An example's play or answer that the game did not offer."""


def _play(example: Example, rules: Rules) -> Game:
    """The game after the example's plays (first selection only) and answers."""
    game = new_game(rules, example.players, seed=example.seed, setup=example.setup)
    asked: set[int] = set()
    first = game.state.voyage, game.state.day
    # Only the first selection takes ``play``: a seat whose one card played itself is never
    # asked, and its entry must not answer a later day's selection.
    while example.play and game.decision is not None and game.decision.kind == "play_character" \
            and game.decision.player not in asked and game.state.step == "select" \
            and (game.state.voyage, game.state.day) == first:
        seat = game.decision.player
        asked.add(seat)
        game = _answer(game, f"play[{seat}]", example.play[seat])
    for i, key in enumerate(example.answers):
        game = _answer(game, f"answers[{i}]", key)
    return game


def _answer(game: Game, what: str, key: str) -> Game:
    try:
        return game.choose(key)
    except IllegalChoice:
        raise _Refused(f"{what} {key!r} is not offered: {_waiting(game)}") from None


# ---------------------------------------------------------------- comparing
def _compare(example: Example, game: Game) -> list[str]:
    problems = []
    for seat, wanted in enumerate(example.seats):
        p = game.players[seat]
        for k, v in wanted.items():
            actual = getattr(p, k)
            same = Counter(v) == Counter(actual) if isinstance(v, tuple) else v == actual
            if not same:
                problems.append(f"seat {seat} {k}: expected {_show(v)}, got {_show(actual)}")
    island = tuple(name if seat is None else f"{name}@{seat}" for seat, name in game.island)
    actual_game: dict[str, Expected] = {
        "phase": game.phase, "day": game.day, "voyage": game.voyage, "island": island,
        "legal": game.legal_keys(), "over": game.is_over,
    }
    for k, v in example.game.items():
        if k == "island":
            same = _island_matches(v, island)
        elif isinstance(v, tuple):
            same = Counter(v) == Counter(game.legal_keys())
        else:
            same = v == actual_game[k]
        if not same:
            problems.append(f"{k}: expected {_show(v)}, got {_show(actual_game[k])}")
    return problems


def _island_matches(expected: Expected, actual: tuple[str, ...]) -> bool:
    """Left to right; ``Name`` matches that card of any seat, ``Name@seat`` only that seat's."""
    assert isinstance(expected, tuple)
    return len(expected) == len(actual) and all(
        e == a or ("@" not in e and a.split("@")[0] == e) for e, a in zip(expected, actual, strict=True))


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _waiting(game: Game) -> str:
    d = game.decision
    if d is None:
        return "the game is over, nothing is asked"
    source = f" (from {d.source})" if d.source else ""
    return f"seat {d.player} is asked {d.kind}{source}; the legal keys are " + ", ".join(
        repr(k) for k in game.legal_keys())


# ---------------------------------------------------------------- which rules
@functools.cache
def _bundled_folders() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(edition, folder parts under cards/) for each bundled board's character and loot folders."""
    out = []
    for board_file in sorted(_paths.boards_dir().glob("*.yaml")):
        board = dict(read(board_file).root.items())
        for key in ("characters", "loot"):
            out.append((board_file.stem, Path(board[key].as_str(key)).parts))
    return tuple(out)


def edition_of(path: str | Path) -> str | None:
    """The bundled edition whose card folders hold ``path``, else ``None`` (a mod's file).

    A file or folder under ``cards/<an edition's folder>/`` belongs to that edition, also in a
    copy of those folders, as in a source checkout beside an installed copy.
    """
    rel = _under_cards(Path(path).resolve())
    if rel is not None:
        for name, folder in _bundled_folders():
            if rel[:len(folder)] == folder:
                return name
    return None


def _under_cards(resolved: Path) -> tuple[str, ...] | None:
    """The parts of ``resolved`` under the bundled ``cards/`` (or the last folder called cards), else None."""
    cards = _paths.cards_dir().resolve()
    if resolved.is_relative_to(cards):
        return resolved.relative_to(cards).parts
    idx = [i for i, part in enumerate(resolved.parts[:-1]) if part == "cards"]
    return resolved.parts[idx[-1] + 1:] if idx else None


def placement(path: Path, edition: str | None) -> tuple[str, tuple[str, ...]]:
    """The edition a file runs under, and the extra card files to load (none for a bundled file).

    A file of a bundled edition (``edition_of``) runs under that edition; unless it is byte for
    byte the bundled file, it is loaded as an extra card so that what runs is the file on disk.
    """
    resolved = path.resolve()
    name = edition_of(resolved)
    if name is not None:
        rel = _under_cards(resolved)
        assert rel is not None
        bundled = _paths.cards_dir().resolve().joinpath(*rel)
        same = bundled.is_file() and bundled.read_bytes() == resolved.read_bytes()
        return name, () if same else (str(path),)
    return edition or "galecrest", (str(path),)


@functools.cache
def _rules(edition: str, loot: tuple[tuple[str, str], ...], extra: tuple[str, ...], stamp: int) -> Rules:
    """Rules per (edition, loot sides, extra file and its contents), loaded once: many files stay quick."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnverifiedLootWarning)
        return load_rules(edition, loot=dict(loot) or None, extra_cards=extra)

