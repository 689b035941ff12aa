"""Mutation testing of cards: do a card's examples catch the slips a modder makes?

For each card or loot file, every one-slip variant of its text (``testing.mutants``) is
loaded exactly as ``libertalia cards check`` loads a file, in place of the card, beside
the rest of its edition.  A variant the loader refuses is not a mutant (a modder would be
told at once); one whose syntax tree is the card's own says the same thing and is left out.
Every other variant is a *mutant*, and the card's examples run against it: the first
example that fails kills it.  A mutant no example kills *survives*: some wrong text would
pass every example, so an example is missing (or the slip happens not to matter, which a
new example shows as well as anything).

The score of a card, an edition or a run is the share of its mutants killed.
``libertalia cards mutate`` prints survivors as ``file:line:column`` with the mutated text.
"""

from __future__ import annotations

import tempfile
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..engine.specs import Rules
from ..errors import LibertaliaError, RulesWarning
from ..loading import cache
from ..loading.canonical import rewrite_text_block, text_span
from ..loading.examplefile import Example, example_files, read_examples
from ..loading.examples import placement, run_example
from ..loading.rules import load_rules
from ..loading.yamlfile import Document, Field, read
from ..syntax import ast
from .mutants import OPERATORS, Slip, slips

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

    @property
    def survived(self) -> bool:
        return self.killed_by is None

    def to_json(self) -> dict[str, Any]:
        return {"operator": self.operator, "slip": self.slip, "text": self.text, "line": self.line,
                "column": self.column, "killed_by": self.killed_by}


@attrs.frozen
class CardMutation:
    """What mutation found for one file: its mutants, and the variants that were none."""

    path: str
    card: str  # the character's name, or "kind (side)" for a loot tile
    edition: str
    examples: int
    mutants: tuple[Mutant, ...]
    refused: int  # variants the loader refused
    same: int  # variants whose syntax tree is the card's own

    @property
    def killed(self) -> int:
        return sum(not m.survived for m in self.mutants)

    @property
    def survivors(self) -> tuple[Mutant, ...]:
        return tuple(m for m in self.mutants if m.survived)

    @property
    def score(self) -> float | None:
        """The share of mutants killed; None for a text no slip changes."""
        return self.killed / len(self.mutants) if self.mutants else None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "card": self.card, "edition": self.edition, "examples": self.examples,
                "killed": self.killed, "mutants": len(self.mutants), "refused": self.refused, "same": self.same,
                "score": self.score, "survivors": [m.to_json() for m in self.survivors]}


@attrs.frozen
class MutationReport:
    """Every file's mutation, with scores by edition and in all."""

    cards: tuple[CardMutation, ...]

    def totals(self, edition: str | None = None) -> tuple[int, int]:
        """(killed, mutants) of ``edition``'s files, or of every file."""
        chosen = [c for c in self.cards if edition is None or c.edition == edition]
        return sum(c.killed for c in chosen), sum(len(c.mutants) for c in chosen)

    def score(self, edition: str | None = None) -> float | None:
        killed, mutants = self.totals(edition)
        return killed / mutants if mutants else None

    @property
    def editions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.edition for c in self.cards))

    def to_json(self) -> dict[str, Any]:
        def summary(edition: str | None) -> dict[str, Any]:
            killed, mutants = self.totals(edition)
            return {"killed": killed, "mutants": mutants, "score": self.score(edition)}

        return {"cards": [c.to_json() for c in self.cards],
                "editions": {e: summary(e) for e in self.editions}, "total": summary(None)}


def mutate(paths: Iterable[str | Path], edition: str | None = None, *, operators: Sequence[str] = OPERATORS,
           progress: Callable[[CardMutation], None] | None = None) -> MutationReport:
    """Mutation-test every card and loot file in ``paths`` (files or folders).

    ``edition`` is the one a mod's files load beside (default galecrest); a bundled file
    runs under its own, as with ``cards test``.  ``progress`` is told of each file as it is done.
    Nothing is written to the user's cache (``cache.writes_held``).
    """
    done = []
    files = example_files(paths)
    for path in files:
        result = mutate_file(path, edition, operators=operators, siblings=files)
        if progress is not None:
            progress(result)
        done.append(result)
    return MutationReport(tuple(done))


def mutate_file(path: str | Path, edition: str | None = None, *, operators: Sequence[str] = OPERATORS,
                siblings: Sequence[str | Path] = ()) -> CardMutation:
    """Mutation-test one card or loot file (see the module's docstring); a DataError if it does not load.

    ``siblings`` are the other files given with it: those of its edition load beside it, as
    ``cards test`` loads them, so its text and examples may name their cards.
    """
    path = Path(path)
    with cache.writes_held(), warnings.catch_warnings():
        warnings.simplefilter("ignore", RulesWarning)
        doc = read(path)
        root = dict(doc.root.items())
        examples, loot = read_examples(path)
        own_edition, extra = placement(path, edition, siblings)
        original = _abilities(load_rules(own_edition, loot=dict(loot) or None, extra_cards=extra), root, loot)
        text_field = root["text"]
        text = text_field.as_str("text")
        mutants: list[Mutant] = []
        refused = same = 0
        seen = {text}
        with tempfile.TemporaryDirectory(prefix="libertalia-mutants-") as folder:
            target = Path(folder) / path.name
            for slip in slips(text, tuple(operators)):
                mutated = slip.apply(text)
                if mutated in seen:
                    continue
                seen.add(mutated)
                rules = _load_mutant(doc, root, mutated, target, own_edition, loot, extra, path)
                if rules is None:
                    refused += 1
                    continue
                if _abilities(rules, root, loot) == original:
                    same += 1
                    continue
                line, column = _place(text_field, text, slip)
                mutants.append(Mutant(slip.operator, slip.describe(), mutated, line, column,
                                      _killer(examples, rules)))
    return CardMutation(str(path), _label(root, loot), own_edition, len(examples), tuple(mutants), refused, same)


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


def _abilities(rules: Rules, root: dict[str, Field], loot: tuple[tuple[str, str], ...]) -> tuple[ast.Ability, ...]:
    """The abilities the rules give the file's card or tile."""
    if loot:
        kind, side = loot[0]
        tiles = [*rules.loot, *(t for alts in rules.uncharted.values() for t in alts), *rules.solo_loot.values()]
        return next(t.abilities for t in tiles if t.kind == kind and t.side == side)
    name = root["name"].as_str("name")
    return next(c.abilities for c in rules.characters if c.name == name)


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
