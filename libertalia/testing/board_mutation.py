"""Mutation testing of a board: do the flow examples catch the slips an editor of the board makes?

A board file is data, so its slips are read off the data, not off a grammar: every number one
higher or one lower (``number``: an income, the overflow, a voyage's days, a neutral's rank, a
printed tie-breaker...), every word the loader gives a choice of replaced by each other choice
(``word``: ``winner_ties: reputation`` → ``shared``), and every two neighbours of a list swapped
(``order``: the income table, the solo loot preference, a pattern's numbers).  Names, titles and
folders are left alone (a slip there is a file that does not load).

Each slip is spliced into the file's text and loaded as the board it would be (``load_rules``
with the mutated file's path), exactly as a modder's copy would load: a slip the loader refuses
is not a mutant, and one that loads to the same board (a count the board never reads) is none
either.  Every other slip is a *mutant*, and the board's ``examples:`` run against it; the first
that fails kills it.  ``testing.mutation.mutate_file`` sends a board file here, so ``cards mutate``
reports board mutants as it reports card mutants.

A survivor is played beside the board as a card's is (``differential.compare``, the engine of
``cards diff``): generated focused positions, each featuring a character drawn from the edition
under the law catalogue's variants (a tie of ranks, the last day, the last voyage...), one in four
to the end of the game, the same answers under both boards.  One that never plays differently is
*probably equivalent* (a tie-breaker number moved without passing another keeps every order) and
is left out of the score; one that does carries the first differing position, shrunk, as the
``examples:`` entry that kills it.
"""

from __future__ import annotations

import random
import tempfile
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

from ..engine.specs import BoardSpec, Rules
from ..errors import LibertaliaError, RulesWarning
from ..loading import cache
from ..loading.examplefile import Example, read_examples
from ..loading.examples import board_edition, run_example
from ..loading.rules import BOARD_CHOICES, load_rules
from ..loading.yamlfile import read
from ..loading.yamlnode import Node
from .differential import compare, shrink
from .focus import FocusedPosition, focused_position
from .laws import vary
from .laws.family import VARIANTS
from .repro import retitled

__all__ = ["BOARD_OPERATORS", "BoardMutant", "BoardMutation", "BoardSlip", "board_slips", "mutate_board"]

BOARD_OPERATORS: tuple[str, ...] = ("number", "word", "order")
"""The kinds of slip a board's data can take, in the order ``board_slips`` lists them."""

_LEFT_ALONE = frozenset({"edition", "title", "characters", "loot", "default_loot", "examples", "note", "deck",
                         "ranks"})
"""Keys whose values name things (files, folders, the edition) or are prose: no slip there is a rule.  A rank's
tie-breaker pattern (``tie_breakers.ranks``) is a card's printed fact (C1), as its rank is, which no slip of
``cards mutate`` changes either: an example per rank would only restate the table.  The patterns' numbers
(how a pattern orders the seats) are the flow's, and are mutated."""


@attrs.frozen
class BoardSlip:
    """One slip of a board: ``edits`` are (start, end, new text) in the file's text, left to right."""

    operator: str
    slip: str
    edits: tuple[tuple[int, int, str], ...]
    line: int
    column: int

    def apply(self, text: str) -> str:
        for start, end, new in sorted(self.edits, reverse=True):
            text = text[:start] + new + text[end:]
        return text


@attrs.frozen
class BoardMutant:
    """One slip of a board that loads to another board, and what became of it (as ``mutation.Mutant`` says)."""

    operator: str
    slip: str
    text: str  # the mutated line
    line: int
    column: int
    killed_by: str | None  # the ``it`` of the first example that failed, None: none did
    positions: int = 0
    differs_in: str | None = None
    example: str = ""

    @property
    def survived(self) -> bool:
        return self.killed_by is None


@attrs.frozen
class BoardMutation:
    """What mutation found for one board file."""

    path: str
    edition: str
    examples: int
    mutants: tuple[BoardMutant, ...]
    refused: int  # slips the loader refused
    same: int  # slips that load to the board itself, or to an earlier mutant's board


def board_slips(path: str | Path, operators: Sequence[str] = BOARD_OPERATORS) -> tuple[BoardSlip, ...]:
    """Every one-slip edit of the board file at ``path`` by the ``operators`` named: by operator, then in file order."""
    doc = read(Path(path))
    found = list(_walk(doc.root.node, (), doc.text))
    order = {op: i for i, op in enumerate(BOARD_OPERATORS)}
    return tuple(sorted((s for s in found if s.operator in operators), key=lambda s: order[s.operator]))


def _walk(node: Node, keys: tuple[str, ...], text: str) -> Iterator[BoardSlip]:
    if node.kind == "mapping":
        for key, value in node.pairs:
            if key.text not in _LEFT_ALONE:
                yield from _walk(value, (*keys, key.text), text)
        return
    if node.kind == "sequence":
        for child in node.children:
            yield from _walk(child, keys, text)
        scalars = [c for c in node.children if c.kind == "scalar"]
        if len(scalars) == len(node.children):
            for a, b in zip(scalars, scalars[1:], strict=False):
                if a.data != b.data:
                    yield BoardSlip("order", f"{_show(a, text)}, {_show(b, text)} swapped",
                                    ((a.offset, a.end, _show(b, text)), (b.offset, b.end, _show(a, text))),
                                    a.line, a.column)
        return
    value = node.data
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        for delta in (1, -1):
            new = value + delta
            if new >= 0:
                shown = f"{new:g}" if isinstance(new, float) else str(new)
                yield BoardSlip("number", f"{_show(node, text)!r} → {shown!r}", ((node.offset, node.end, shown),),
                                node.line, node.column)
    elif isinstance(value, str):
        for other in _words(keys):
            if other != value:
                yield BoardSlip("word", f"{value!r} → {other!r}", ((node.offset, node.end, other),),
                                node.line, node.column)


def _words(keys: tuple[str, ...]) -> tuple[str, ...]:
    """The words the loader accepts where ``keys`` lead: a setting's choices (``BOARD_CHOICES``)."""
    dotted = ".".join(keys)
    return BOARD_CHOICES.get(dotted, ())


def _show(node: Node, text: str) -> str:
    return text[node.offset:node.end]


def mutate_board(path: str | Path, *, operators: Sequence[str] = BOARD_OPERATORS, positions: int = 60,
                 run: bool = True) -> BoardMutation:
    """Mutation-test one board file (``cards mutate`` reports it as a card's: ``board (EDITION)``).

    Each survivor is played beside the board in up to ``positions`` positions (0: none).  ``run=False``
    only lists the mutants (``cards mutate --list``).  A DataError if the board does not load.
    """
    path = Path(path)
    with cache.writes_held(), warnings.catch_warnings():
        warnings.simplefilter("ignore", RulesWarning)
        doc = read(path)
        examples, _ = read_examples(path)
        edition = board_edition(path)
        base = load_rules(edition)
        mutants: list[BoardMutant] = []
        refused = same = 0
        seen: list[BoardSpec] = [_plain(base.board)]  # a board holds dicts: compared, not hashed
        with tempfile.TemporaryDirectory(prefix="libertalia-board-mutants-") as folder:
            target = Path(folder) / path.name
            for slip in board_slips(path, operators):
                mutated = slip.apply(doc.text)
                target.write_text(mutated, encoding="utf-8")
                try:
                    rules = load_rules(str(target))
                except LibertaliaError:
                    refused += 1
                    continue
                board = _plain(rules.board)
                if board in seen:
                    same += 1
                    continue
                seen.append(board)
                line = mutated.split("\n")[slip.line - 1].strip()
                mutant = BoardMutant(slip.operator, slip.slip, line, slip.line, slip.column,
                                     _killer(examples, rules) if run else None)
                if run and mutant.survived and positions:
                    mutant = _played_beside(mutant, base, rules, positions)
                mutants.append(mutant)
    return BoardMutation(str(path), base.board.edition, len(examples), tuple(mutants), refused, same)


def _killer(examples: Sequence[Example], rules: Rules) -> str | None:
    """The first example that fails under ``rules``, by its ``it``; None when all pass."""
    return next((e.it for e in examples if not run_example(e, rules).passed), None)


def _plain(board: BoardSpec) -> BoardSpec:
    """The board without where it was read from, to tell a slip that changes nothing."""
    return attrs.evolve(board, path="")


TO_END_EVERY = 4
"""One position in this many is played to the end of the game (the winner and the last anchor are read there)."""


def _played_beside(mutant: BoardMutant, board: Rules, rules: Rules, positions: int) -> BoardMutant:
    """The survivor after playing it beside the board: how many positions, and the first that told them apart."""
    rng = random.Random(f"board-mutant/{mutant.line}/{mutant.column}/{mutant.slip}")
    names = [c.name for c in board.characters if c.compiled]
    versions = [board, rules]
    for index in range(positions):
        try:
            position = focused_position(board, None, [rng.choice(names)], rng=rng)
        except ValueError:  # a card this board cannot feature
            continue
        position = vary(board, position, VARIANTS[index % len(VARIANTS)], rng)
        answers = rng.randrange(2**32)
        end = index % TO_END_EVERY == TO_END_EVERY - 1
        try:
            if compare(versions, position, answers, to_end=end, examples=False) is None:
                continue
        except LibertaliaError:  # the position does not run under the mutant (a voyage too short for its day)
            return attrs.evolve(mutant, positions=index + 1, differs_in="a position that does not run")

        def differs(p: FocusedPosition, answers: int = answers, end: bool = end) -> bool:
            try:
                return compare(versions, p, answers, to_end=end, examples=False) is not None
            except LibertaliaError:
                return True

        small = shrink(position, differs, rules=board)
        found = compare(versions, small, answers, labels=("the board", "the mutant"), to_end=end)
        if found is None:
            return attrs.evolve(mutant, positions=index + 1, differs_in="a position")
        it = f"tells the board from the slip {mutant.slip} ({found.field})"
        return attrs.evolve(mutant, positions=index + 1, differs_in=found.field,
                            example=retitled(found.examples[0], it, "expect is the board's own play; the "
                                                                     f"mutant's differs in {found.field}"))
    return attrs.evolve(mutant, positions=positions)
