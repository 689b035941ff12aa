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
from collections.abc import Iterable, Iterator
from pathlib import Path

import attrs

from .. import _paths
from ..engine.specs import Rules
from ..errors import (
    DataError,
    ExampleFailure,
    IllegalChoice,
    InertCardWarning,
    LibertaliaError,
    RulesWarning,
    SetupError,
)
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
    """Run every example of one card or loot file, loaded alone (``run_together`` loads a folder's files together).

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
    rules, _ = _rules(own_edition, loot, extra, _stamp(extra))
    return [run_example(example, rules) for example in examples]


@attrs.frozen
class FileExamples:
    """One file's examples as ``run_together`` ran them: their results, or why none could run.

    ``error`` is the file's malformed examples, or the load of the rules it runs under, which
    fails for every file of its folder when the fault is not in a file of the folder (the board,
    a bundled card).  ``notes`` are the warnings of that load (a bundled card a mod's tile leaves
    inert), as diagnostics.
    """

    path: Path
    results: tuple[ExampleResult, ...] = ()
    error: DataError | None = None
    notes: tuple[str, ...] = ()


def run_together(paths: Iterable[str | Path], edition: str | None = None) -> Iterator[FileExamples]:
    """Run the examples of every card and loot file in ``paths`` (files or folders), file by file.

    The files of one edition (each bundled file's own, any other ``edition``, default
    galecrest) load together, as ``cards check`` checks them and ``simulate --cards`` plays
    them: a card's text and its examples' setup may name the other cards given.  A file whose
    card or tile does not load is left out of its folder's load (its error is its own), so the
    others still run; a loot file's examples run with its side chosen for its kind.
    """
    groups: dict[str, list[Path]] = {}
    files = [f for f in example_files(paths) if is_board(f) or not is_board_data(f)]  # a solo deck has no examples
    default = default_edition(files, edition)
    for path in files:
        groups.setdefault(own_edition(path, default), []).append(path)
    for own, members in groups.items():
        yield from _run_group(own, members)


# ---------------------------------------------------------------- board files
def is_board(path: str | Path) -> bool:
    """Whether ``path`` is a board file (its top level has ``edition:`` and ``bag:``), not a card or loot file.

    A board's ``examples:`` pin the game's own flow (the reveal order of equal ranks, income,
    the winner's tie-break, set scoring...): ``cards test`` and ``cards mutate`` take it like a card file.
    """
    try:
        root = dict(read(Path(path), skip="examples").root.items())
    except (DataError, AttributeError):  # not a mapping, or not YAML: a card file's own error says so
        return False
    return "edition" in root and "bag" in root


def is_board_data(path: str | Path) -> bool:
    """Whether ``path`` is a board or a file a board names (a solo deck: ``cards:`` and no ``name:``), not a card."""
    if is_board(path):
        return True
    try:
        root = dict(read(Path(path), skip="examples").root.items())
    except (DataError, AttributeError):
        return False
    return "cards" in root and "name" not in root and "kind" not in root


def board_edition(path: str | Path) -> str:
    """What ``load_rules`` is given for a board file: a bundled edition's name when ``path`` is that board, byte
    for byte (in a copy of the data too), else the path, so that what runs is the file on disk."""
    path = Path(path)
    bundled = _paths.boards_dir() / path.name
    if path.suffix == ".yaml" and bundled.is_file() and bundled.read_bytes() == path.read_bytes():
        return path.stem
    return str(path)


def default_edition(files: Iterable[str | Path], edition: str | None) -> str | None:
    """The edition a mod's card files run under: ``edition`` if given, else the one board among ``files`` that is
    not a bundled board (a mod that ships its own board), else None (galecrest)."""
    if edition is not None:
        return edition
    own = [f for f in files if is_board(f) and board_edition(f) == str(f)]
    return str(own[0]) if len(own) == 1 else None


def own_edition(path: Path, edition: str | None) -> str:
    """The edition ``path`` runs under: a board its own, a bundled card its edition's, any other ``edition``."""
    if is_board(path):
        return board_edition(path)
    return edition_of(path) or edition or "galecrest"


def _run_group(edition: str, files: list[Path]) -> Iterator[FileExamples]:
    """The files of one edition, loaded together (see ``run_together``)."""
    read: dict[Path, tuple[list[Example], tuple[tuple[str, str], ...]]] = {}
    broken: dict[Path, DataError] = {}
    for path in files:
        try:
            read[path] = read_examples(path)
        except DataError as exc:
            broken[path] = exc
    extra = [f for f in _distinct(files) if not is_board(f) and _differs_from_bundled(f, edition)]
    base: tuple[Rules, tuple[str, ...]] | DataError | None = None
    if any(examples for examples, _ in read.values()):
        base, failed = _load_together(edition, extra)
        broken.update((p, e) for p, e in failed.items() if p not in broken)
        extra = [f for f in extra if f not in failed]
    for path in files:
        if path in broken:
            yield FileExamples(path, error=broken[path])
            continue
        examples, loot = read[path]
        if not examples:
            yield FileExamples(path)
            continue
        loaded = base
        if loot and not isinstance(base, DataError):
            try:
                loaded = _rules(edition, loot, tuple(map(str, extra)), _stamp(extra))
            except DataError as exc:
                loaded = exc
        if isinstance(loaded, DataError):
            yield FileExamples(path, error=loaded)
            continue
        assert loaded is not None
        rules, notes = loaded
        yield FileExamples(path, tuple(run_example(example, rules) for example in examples), notes=notes)


def load_together(files: Iterable[str | Path], edition: str) -> tuple[Rules, tuple[str, ...]]:
    """The rules of ``edition`` with every file of ``files`` that is not its bundled self, and the load's warnings.

    What ``cards check`` runs after its own checks, so that it never accepts files that
    ``cards test`` and ``simulate --cards`` could not load.  A ``DataError`` if they do not load.
    """
    extra = [f for f in _distinct(list(map(Path, files))) if not is_board(f) and _differs_from_bundled(f, edition)]
    return _rules(edition, (), tuple(map(str, extra)), _stamp(extra))


def _load_together(edition: str, extra: list[Path]) -> tuple[tuple[Rules, tuple[str, ...]] | DataError,
                                                              dict[Path, DataError]]:
    """The rules with every file of ``extra`` that loads; the files left out, with their errors.

    A load that fails at a file of ``extra`` is tried again without it; a failure elsewhere
    (the board, a bundled card) is the result.
    """
    failed: dict[Path, DataError] = {}
    while True:
        kept = [f for f in extra if f not in failed]
        try:
            return _rules(edition, (), tuple(map(str, kept)), _stamp(kept)), failed
        except DataError as exc:
            blamed = {p.resolve() for p in map(Path, _error_paths(exc))}
            own = [f for f in kept if f.resolve() in blamed]
            if not own:
                return exc, failed
            failed.update((f, exc) for f in own)


def _error_paths(error: DataError) -> list[str]:
    """The files an error blames (a group of errors blames each of its own)."""
    inner = getattr(error, "errors", None)
    return [p for e in inner for p in _error_paths(e)] if isinstance(inner, tuple) else [error.path]


def _distinct(paths: list[Path]) -> list[Path]:
    """``paths`` without a second path to a file already listed."""
    seen: set[Path] = set()
    out = []
    for path in paths:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            out.append(path)
    return out


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
    with warnings.catch_warnings():  # a solo game's constructed cards are the board's to note, not each example's
        warnings.simplefilter("ignore", RulesWarning)
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
        options = example.offered[i] if i < len(example.offered) else None
        if options is not None and Counter(options) != Counter(game.legal_keys()):
            raise _Refused(f"answers[{i}] {key!r}: the question should offer {_show(options)}, but "
                           f"{_waiting(game)}")
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
        if k == "winners":
            problems += _winners(v, game)
            continue
        if k == "island":
            same = _island_matches(v, island)
        elif isinstance(v, tuple):
            same = Counter(v) == Counter(game.legal_keys())
        else:
            same = v == actual_game[k]
        if not same:
            problems.append(f"{k}: expected {_show(v)}, got {_show(actual_game[k])}")
    return problems


def _winners(expected: Expected, game: Game) -> list[str]:
    """``winners``: the seats ``Game.winners()`` names (R26), once the game is over."""
    assert isinstance(expected, tuple)
    if not game.is_over:
        return [f"winners: expected {_show(expected)}, but the game is not over"]
    actual = tuple(str(s) for s in game.winners())
    return [] if Counter(expected) == Counter(actual) else [f"winners: expected {_show(expected)}, got {_show(actual)}"]


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


def placement(path: Path, edition: str | None, siblings: Iterable[str | Path] = ()) -> tuple[str, tuple[str, ...]]:
    """The edition a file runs under, and the extra card files to load (none for a bundled file alone).

    A file of a bundled edition (``edition_of``) runs under that edition; unless it is byte for
    byte the bundled file, it is loaded as an extra card so that what runs is the file on disk.
    ``siblings`` (the other files given with it) of the same edition load beside it, as in
    ``run_together``.
    """
    given = [path, *map(Path, siblings)]
    edition = default_edition(given, edition)
    own = own_edition(path, edition)
    together = [f for f in _distinct(given) if not is_board(f) and own_edition(f, edition) == own]
    return own, tuple(str(f) for f in together if _differs_from_bundled(f, own))


def _differs_from_bundled(path: Path, edition: str) -> bool:
    """Whether ``path`` must be loaded as an extra card: a mod's file, or a copy of a bundled one that differs."""
    resolved = path.resolve()
    if edition_of(resolved) != edition:
        return True
    rel = _under_cards(resolved)
    assert rel is not None
    bundled = _paths.cards_dir().resolve().joinpath(*rel)
    return not (bundled.is_file() and bundled.read_bytes() == resolved.read_bytes())


def _stamp(files: Iterable[str | Path]) -> int:
    """What the files hold, for the cache of ``_rules``: a file edited between two loads is read again."""
    return hash(tuple(Path(f).read_bytes() for f in files))


@functools.cache
def _rules(edition: str, loot: tuple[tuple[str, str], ...], extra: tuple[str, ...],
           stamp: int) -> tuple[Rules, tuple[str, ...]]:
    """Rules per (edition, loot sides, extra files and their contents), loaded once: many files stay quick.

    With them, the warnings of the load (a bundled card a mod's tile leaves inert) as diagnostics;
    the note about reconstructed loot tiles is left out, as every bundled stormy tile would repeat it.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore", RulesWarning)
        warnings.simplefilter("always", InertCardWarning)
        rules = load_rules(edition, loot=dict(loot) or None, extra_cards=extra)
    return rules, tuple(dict.fromkeys(str(w.message) for w in caught))
