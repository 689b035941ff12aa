"""Mutation testing of cards: do a card's examples catch the slips a modder makes?

For each card or loot file, every one-slip variant of its text (``testing.mutants``) is
loaded exactly as ``libertalia cards check`` loads a file, in place of the card, beside
the rest of its edition.  A variant the loader refuses is not a mutant (a modder would be
told at once); one whose syntax tree is the card's own says the same thing and is left out,
as is one whose tree an earlier mutant has (two wordings of one slip are one mutant).
Every other variant is a *mutant*, and the card's examples run against it: the first
example that fails kills it.  A mutant no example kills *survives*: some wrong text would
pass every example, so an example is missing (or the slip happens not to matter, which a
new example shows as well as anything).

Before a survivor is reported, the card and the mutant are played side by side from generated
focused positions with the same answers (``card_diff.diff_rules``, the engine of ``cards diff``).
A survivor no position tells from the card is *probably equivalent*: it says the card's meaning
in other words as far as any game reached shows, and it is reported with the number of positions
tried.  One that plays differently carries the first position where it did, shrunk, as the
``examples:`` entry that kills it: paste it, correct nothing (its ``expect`` is the card's own play).

The score of a card, an edition or a run is the share of its mutants killed, leaving the probably
equivalent ones out: ``killed / (mutants - equivalent)``.  ``libertalia cards mutate`` prints
survivors as ``file:line:column`` with the mutated text.
"""

from __future__ import annotations

import tempfile
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..engine.specs import CharacterSpec, LootSpec, Rules
from ..errors import LibertaliaError, RulesWarning
from ..loading import cache
from ..loading.canonical import rewrite_text_block, text_span
from ..loading.examplefile import Example, example_files, read_examples
from ..loading.examples import is_board, is_board_data, placement, run_example
from ..loading.rules import load_rules
from ..loading.yamlfile import Document, Field, read
from .card_diff import DEFAULT_POSITIONS, diff_rules
from .mutants import OPERATORS, Slip, slips
from .repro import retitled as _retitled

__all__ = ["CardMutation", "Mutant", "MutationReport", "mutate", "mutate_file"]


@attrs.frozen
class Mutant:
    """One accepted slip of a card's text, and the example that caught it (None: none did)."""

    operator: str
    slip: str  # as ``Slip.describe`` says it
    text: str  # the whole mutated text
    line: int  # where the slip is in the card's file, 1-based
    column: int
    killed_by: str | None
    positions: int = 0  # a survivor: positions it was played in beside the card (0: not played)
    differs_in: str | None = None  # a survivor that played differently: the first part of the state that did
    example: str = ""  # ... and the examples: entry, shrunk, that kills it

    @property
    def survived(self) -> bool:
        return self.killed_by is None

    @property
    def equivalent(self) -> bool:
        """A survivor that played as the card did in every position tried: probably the card in other words."""
        return self.survived and self.positions > 0 and self.differs_in is None

    def to_json(self) -> dict[str, Any]:
        return {"operator": self.operator, "slip": self.slip, "text": self.text, "line": self.line,
                "column": self.column, "killed_by": self.killed_by, "probably_equivalent": self.equivalent,
                "positions": self.positions, "differs_in": self.differs_in, "example": self.example}


@attrs.frozen
class CardMutation:
    """What mutation found for one file: its mutants, and the variants that were none."""

    path: str
    card: str  # the character's name, or "kind (side)" for a loot tile
    edition: str
    examples: int
    mutants: tuple[Mutant, ...]
    refused: int  # variants the loader refused
    same: int  # variants whose syntax tree is the card's own, or an earlier mutant's

    @property
    def killed(self) -> int:
        return sum(not m.survived for m in self.mutants)

    @property
    def survivors(self) -> tuple[Mutant, ...]:
        return tuple(m for m in self.mutants if m.survived)

    @property
    def equivalent(self) -> int:
        """Survivors no position told from the card (left out of the score)."""
        return sum(m.equivalent for m in self.mutants)

    @property
    def score(self) -> float | None:
        """The share of mutants killed, the probably equivalent left out; None when no mutant counts."""
        counted = len(self.mutants) - self.equivalent
        return self.killed / counted if counted else None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "card": self.card, "edition": self.edition, "examples": self.examples,
                "killed": self.killed, "mutants": len(self.mutants), "equivalent": self.equivalent,
                "refused": self.refused, "same": self.same, "score": self.score,
                "survivors": [m.to_json() for m in self.survivors]}


@attrs.frozen
class MutationReport:
    """Every file's mutation, with scores by edition and in all."""

    cards: tuple[CardMutation, ...]

    def totals(self, edition: str | None = None) -> tuple[int, int]:
        """(killed, mutants) of ``edition``'s files, or of every file (the probably equivalent among the mutants)."""
        chosen = self._chosen(edition)
        return sum(c.killed for c in chosen), sum(len(c.mutants) for c in chosen)

    def equivalent(self, edition: str | None = None) -> int:
        """The probably equivalent mutants of ``edition``'s files, or of every file."""
        return sum(c.equivalent for c in self._chosen(edition))

    def score(self, edition: str | None = None) -> float | None:
        """killed / (mutants - probably equivalent); None when no mutant counts."""
        killed, mutants = self.totals(edition)
        counted = mutants - self.equivalent(edition)
        return killed / counted if counted else None

    def _chosen(self, edition: str | None) -> list[CardMutation]:
        return [c for c in self.cards if edition is None or c.edition == edition]

    @property
    def editions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.edition for c in self.cards))

    def to_json(self) -> dict[str, Any]:
        def summary(edition: str | None) -> dict[str, Any]:
            killed, mutants = self.totals(edition)
            return {"killed": killed, "mutants": mutants, "equivalent": self.equivalent(edition),
                    "score": self.score(edition)}

        return {"cards": [c.to_json() for c in self.cards],
                "editions": {e: summary(e) for e in self.editions}, "total": summary(None)}


def mutate(paths: Iterable[str | Path], edition: str | None = None, *, operators: Sequence[str] = OPERATORS,
           positions: int = DEFAULT_POSITIONS,
           progress: Callable[[CardMutation], None] | None = None) -> MutationReport:
    """Mutation-test every card and loot file in ``paths`` (files or folders).

    ``edition`` is the one a mod's files load beside (default galecrest); a bundled file
    runs under its own, as with ``cards test``.  Each survivor is played beside its card in up to
    ``positions`` positions (0: none, and every survivor counts).  ``progress`` is told of each
    file as it is done.
    Nothing is written to the user's cache (``cache.writes_held``).
    """
    done = []
    with cache.writes_held():
        files = [f for f in example_files(paths) if is_board(f) or not is_board_data(f)]
    for path in files:
        result = mutate_file(path, edition, operators=operators, siblings=files, positions=positions)
        if progress is not None:
            progress(result)
        done.append(result)
    return MutationReport(tuple(done))


def mutate_file(path: str | Path, edition: str | None = None, *, operators: Sequence[str] = OPERATORS,
                siblings: Sequence[str | Path] = (), positions: int = DEFAULT_POSITIONS,
                run: bool = True) -> CardMutation:
    """Mutation-test one card or loot file (see the module's docstring); a DataError if it does not load.

    ``siblings`` are the other files given with it: those of its edition load beside it, as
    ``cards test`` loads them, so its text and examples may name their cards.  ``run=False`` only
    lists the mutants (``cards mutate --list``): no example runs, and ``killed_by`` is None.
    """
    path = Path(path)
    with cache.writes_held():
        board = is_board(path)
    if board:  # the flow's own examples against slips of the board's data
        return _board_mutation(path, operators, positions, run)
    with cache.writes_held(), warnings.catch_warnings():
        warnings.simplefilter("ignore", RulesWarning)
        doc = read(path)
        root = dict(doc.root.items())
        examples, loot = read_examples(path)
        own_edition, extra = placement(path, edition, siblings)
        base = load_rules(own_edition, loot=dict(loot) or None, extra_cards=extra)
        card = _spec(base, root, loot)
        text_field = root["text"]
        text = text_field.as_str("text")
        mutants: list[Mutant] = []
        refused = same = 0
        seen = {text}
        meanings: set[tuple[Any, ...]] = set()
        with tempfile.TemporaryDirectory(prefix="libertalia-mutants-") as folder:
            target = Path(folder) / path.name
            for slip in slips(text, tuple(operators), kinds=tuple(sorted(base.kinds))):
                mutated = slip.apply(text)
                if mutated in seen:
                    continue
                seen.add(mutated)
                rules = _load_mutant(doc, root, mutated, target, own_edition, loot, extra, path)
                if rules is None:
                    refused += 1
                    continue
                variant = _spec(rules, root, loot)
                if variant.abilities == card.abilities or variant.abilities in meanings:
                    same += 1  # the card's own tree, or an earlier mutant's ("sun" → "anchor", "the end of the voyage")
                    continue
                meanings.add(variant.abilities)
                line, column = _place(text_field, text, slip)
                mutant = Mutant(slip.operator, slip.describe(), mutated, line, column,
                                _killer(examples, rules) if run else None)
                if run and mutant.survived and positions:
                    mutant = _played_beside(mutant, base, rules, (card, variant), positions)
                mutants.append(mutant)
    return CardMutation(str(path), _label(root, loot), own_edition, len(examples), tuple(mutants), refused, same)


def _board_mutation(path: Path, operators: Sequence[str], positions: int, run: bool) -> CardMutation:
    """A board file's mutation (``testing.board_mutation``) as a card's is reported: ``card`` is ``board (EDITION)``."""
    from .board_mutation import BOARD_OPERATORS, mutate_board

    every = set(OPERATORS) <= set(operators)  # no operator named: every board slip too
    chosen = BOARD_OPERATORS if every else tuple(op for op in operators if op in BOARD_OPERATORS)
    found = mutate_board(path, operators=chosen, positions=positions, run=run)
    mutants = tuple(Mutant(m.operator, m.slip, m.text, m.line, m.column, m.killed_by, m.positions, m.differs_in,
                           m.example) for m in found.mutants)
    return CardMutation(str(path), f"board ({found.edition})", found.edition, found.examples, mutants, found.refused,
                        found.same)


def _load_mutant(doc: Document, root: dict[str, Field], mutated: str, target: Path, edition: str,
                 loot: tuple[tuple[str, str], ...], extra: tuple[str, ...], path: Path) -> Rules | None:
    """The rules with the file's text replaced by ``mutated``; None when the loader refuses it."""
    try:
        content = rewrite_text_block(doc.text, text_span(doc.root), mutated)
    except ValueError:
        return None
    target.write_text(content, encoding="utf-8")
    others = [p for p in extra if Path(p).resolve() != path.resolve()]
    try:
        return load_rules(edition, loot=dict(loot) or None, extra_cards=[*others, str(target)])
    except LibertaliaError:
        return None


def _spec(rules: Rules, root: dict[str, Field], loot: tuple[tuple[str, str], ...]) -> CharacterSpec | LootSpec:
    """The file's card or tile as the rules hold it."""
    if loot:
        kind, side = loot[0]
        tiles = [*rules.loot, *(t for alts in rules.uncharted.values() for t in alts), *rules.solo_loot.values()]
        return next(t for t in tiles if t.kind == kind and t.side == side)
    name = root["name"].as_str("name")
    return next(c for c in rules.characters if c.name == name)


def _played_beside(mutant: Mutant, card: Rules, rules: Rules,
                   specs: tuple[CharacterSpec | LootSpec, CharacterSpec | LootSpec], positions: int) -> Mutant:
    """The survivor after playing it beside the card: how many positions, and the first that told them apart."""
    report = diff_rules(card, rules, specs, labels=("the card", "the mutant"), positions=positions)
    found = report.difference
    if found is None:
        return attrs.evolve(mutant, positions=report.positions)
    it = f"tells the card from the slip {mutant.slip} ({found.field})"
    return attrs.evolve(mutant, positions=report.positions, differs_in=found.field,
                        example=_retitled(found.examples[0], it, f"expect is the card's own play; the mutant's "
                                                                 f"differs in {found.field}"))


def _killer(examples: Sequence[Example], rules: Rules) -> str | None:
    """The first example that fails under ``rules``, by its ``it``; None when all pass."""
    for example in examples:
        if not run_example(example, rules).passed:
            return example.it
    return None


def _place(field: Field, text: str, slip: Slip) -> tuple[int, int]:
    """The file line and column of the slip inside the text value at ``field``."""
    line0, column0 = field.text_origin()
    before = text[:slip.start]
    k = before.count("\n")
    if k == 0:
        return line0 + 1, column0 + len(before) + 1
    return line0 + k + 1, (column0 if field.is_block() else 0) + len(before) - before.rfind("\n")


def _label(root: dict[str, Field], loot: tuple[tuple[str, str], ...]) -> str:
    if loot:
        return f"{loot[0][0]} ({loot[0][1]})"
    return root["name"].as_str("name")
