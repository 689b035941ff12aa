"""Mutation testing of the engine: do the language tests and the contract fuzzer catch a planted bug?

``testing.mutation`` asks whether a card's examples catch a slip in its *text*; this module asks
the same of the engine's *step code* (``libertalia/engine/program/``).  It plants one small bug
at a time (a *mutant*) in a temporary copy of the package and runs the kill check against it:

1. the examples of the bundled cards whose programs use the mutated code (picked from the real
   rules' step records, at most ``MAX_CARD_FILES``), then ``KILL_TESTS`` (``--tests`` adds more),
   with ``pytest -x``: the first failure kills;
2. the contract fuzzer's quick run, ``fuzz_contracts(galecrest, FUZZ_TEXTS, seed=FUZZ_SEED,
   every_context=False, to_end=False)`` (the suite's ``test_a_short_fuzz_run_finds_nothing``,
   deselected from step 1 so it runs once).

A mutant the check does not kill *survives*.  One that runs past the timeout counts as killed
(a hang is caught) and is reported apart.  One whose bytecode is the original's is *equivalent*
and not counted; so are the survivors ``EQUIVALENT`` lists, each with the reason no run could
tell it apart.  The score is killed / (mutants - equivalent).

Mutation sites are enumerated from the syntax tree by the operators of ``OPERATORS``, each generic
over the tree (no line of the engine is named): see ``_sites``.  Only function bodies are mutated
(never ``__init__``, a docstring, an annotation, an ``assert`` or an f-string), and a site's
mutant is spliced into the source text, so the rest of the module is byte for byte the original.

Run it from a source checkout (it needs ``tests/``)::

    python -m libertalia.testing.engine_mutants --mutants 64 --seed 1

Why not mutmut or cosmic-ray: their operators are generic Python ones (no "wrong seat", no
left/right, no before/now), and both rewrite the tree they run in place or through their own
runner; the check here is one pytest call plus one fuzz call in a throwaway copy.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import types
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

__all__ = [
    "EQUIVALENT", "FUZZ_SEED", "FUZZ_TEXTS", "KILL_TESTS", "MODULES", "OPERATORS", "Mutant", "Outcome", "Report",
    "apply", "card_files_for", "enumerate_mutants", "main", "run", "sample",
]

PACKAGE = Path(__file__).resolve().parents[1]
"""The package whose engine is mutated (the real files are only ever read)."""
PROGRAM = "engine/program"
MODULES: tuple[str, ...] = ("actions.py", "cards.py", "loot.py", "conditions.py", "amounts.py", "measures.py",
                            "control.py", "footprint.py")
"""The step implementations mutated, under ``libertalia/engine/program/``."""

OPERATORS: tuple[str, ...] = ("comparison", "arithmetic", "side", "tense", "boolean", "not", "condition",
                              "number", "seat", "quantifier", "extremum", "return")
"""The kinds of planted bug, in the order a sample takes them round-robin:

- ``comparison``: ``<``/``<=``, ``>``/``>=`` off by one; ``==``/``!=``, ``in``/``not in``, ``is``/``is not``;
- ``arithmetic``: ``+`` and ``-`` swapped;
- ``side``: left/right (top/bottom, lowest/highest) swapped in a string or a name in scope;
- ``tense``: what was read as it stood before read now (``past``, ``nightfall``, ``census``, ``fitted``);
- ``boolean``: ``and``/``or``; ``not``: a ``not`` dropped;
- ``condition``: an ``if`` (or conditional expression, or ``while``) forced true or false, a
  comprehension's ``if`` dropped;
- ``number``: an integer constant one more or one less;
- ``seat``: a seat read from another seat variable in scope, or from the owner's side (``seen_from``);
- ``quantifier``: ``any``/``all``; ``extremum``: ``min``/``max``;
- ``return``: a ``bool``, ``int`` or ``list`` function returning a constant.
"""

KILL_TESTS: tuple[str, ...] = ("tests/cards/test_flow_examples.py::test_the_flow_examples_pass",
                                "tests/test_contracts.py", "tests/language", "tests/test_laws.py",
                                "tests/testing/test_oracle.py")
"""What the check runs after the selected card examples, in this order (fastest killers first): the boards' flow
examples (seconds: the flow no card pins, such as the best split of maps), the contract tests, the language
tests, the law catalogue's short run (English equivalences) and the oracle's own tests."""
FUZZ_AFTER = 2
"""The fuzz run comes after this many of the test paths (it kills faster than ``tests/language``)."""
DESELECT: tuple[str, ...] = ("tests/test_contracts.py::test_a_short_fuzz_run_finds_nothing",)
"""Left out of the pytest step: the fuzz step is the same run."""
CARD_EXAMPLES = "tests/cards/test_card_examples.py::test_card_examples_pass"
MAX_CARD_FILES = 12
"""At most this many card files' examples per mutant (spread evenly over those that use the code)."""
FUZZ_TEXTS = 150
FUZZ_SEED = 1
FUZZ_EDITION = "galecrest"

EQUIVALENT: dict[str, str] = {
    "footprint.py:footprint+9:quantifier:any(isinstance(v, cards.Choose | cards.PerShip | loot.ChooseToken | "
    "loot.ChooseTokens | loot.ChooseSet | loot.EveryTokenBut) for v in _nodes(step)) -> all((isinstance(v, "
    "cards.Choose | cards.PerShip | loot.ChooseToken | loot.ChooseTokens | loot.ChooseSet | loot.EveryTokenBut) "
    "for v in _nodes(step)))":
        "footprint's third value becomes Compiled.asks, which nothing reads (anchor order goes by reads and writes)",
    "actions.py:GainCoins.act+4:number:0 -> 1":
        "n = 1 then goes to w.lose(seat, -1), which is w.gain(seat, 1): coins are never negative, so the floor "
        "never bites, and at anchor net -= -1 is net += 1",
    "actions.py:_tokens+1:condition:slot >= 0 -> True":
        "leave_mark tests slot >= 0 itself: the guard only saves building the mark",
    "amounts.py:best_sets+18:arithmetic:max(c for c, _ in sets) + 1 -> max((c for c, _ in sets)) - 1":
        "the lower bound c * (top - 1) is still past every split without a best set: in a best split, no c of its "
        "other sets and leftover items (c the best set's size) can include a group summing to a multiple of c (it "
        "would trade for best sets at no loss), so there are fewer than c of them, and none of size 0 mod c: they "
        "hold at most (c - 1) * top <= c * (top - 1) items (top >= c); past that, a best split holds a best set, so "
        "skipping one adds its worth (an exhaustive check of 1 to 3 sets of sizes 1 to 7 and worths 1 to 12, up "
        "to 50 items, agrees)",
    "loot.py:holders+3:condition:n < 2 -> False":
        "no game has fewer than 2 seats: new_game refuses 1 player unless the board has a solo game, which seats "
        "you and Automa (2 seats), so the guard never bites",
    "cards.py:Choose.any+1:number:0 -> -1":
        "r[-1] (the card's id) is never None, so the mutant drops the owner test; but every action's eligible "
        "refuses a card without an owner (a neutral: the Midshipman) itself, or cannot take one: Keep asks for "
        "the owner's seat, Play for a card off the island (a neutral is only ever on it), Borrow for an ability "
        "of the timing (a neutral has no text)",
    "actions.py:Draw.can_change+1:number:1 -> 2":
        "only whether the count is above 0 is read, and n * 2 is above 0 exactly when n * 1 is",
    'footprint.py:_place_zones+3:side:"top_ship" -> \'bottom_ship\'':
        "the branch is for a graveyard read by the track (the graveyard of the player with the highest or lowest "
        "reputation), which no text can say: the grammar's graveyards of other players are on your left or right, "
        "another player's or an opponent's, and any (language/lalr.py, others_graveyard), so place and pile never "
        "meet there",
    'footprint.py:_place_zones+3:side:"bottom_ship" -> \'top_ship\'':
        "as its twin: no text reads the graveyard of the player with the highest or lowest reputation",
}
"""Survivors no test can kill, by ``Mutant.key``, with the reason (from a reviewed run)."""

_SIDES = {"left": "right", "right": "left", "top": "bottom", "bottom": "top", "lowest": "highest",
          "highest": "lowest"}
_SIDE_WORD = re.compile("|".join(_SIDES))
_TENSE_NOW = {"past": "False", "nightfall": "False", "census": "None"}
"""Names (or attributes) that say "as it stood before", and what reads the same thing now."""
_SEAT_NAMES = frozenset({"seat", "s", "payer", "to", "owner"})
"""Variables that hold a seat's number (``seat = w.seats[...]``, a seat's state, is left out where it is one)."""
_CMP_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_PAIRS = {"any": "all", "all": "any", "min": "max", "max": "min"}


@attrs.frozen
class Mutant:
    """One planted bug: ``before`` (the source at ``line``:``column``) becomes ``after``."""

    module: str  # file name under engine/program
    line: int
    column: int
    end_line: int
    end_column: int
    operator: str
    function: str  # qualified name of the enclosing function
    cls: str  # the enclosing class ("" at module level)
    before: str
    after: str
    source_line: str  # the original line, stripped
    offset: int = 0  # lines below its function's ``def``

    @property
    def key(self) -> str:
        """What names the mutant across edits elsewhere in the module (``EQUIVALENT``'s keys)."""
        return f"{self.module}:{self.function}+{self.offset}:{self.operator}:{self.before} -> {self.after}"

    @property
    def where(self) -> str:
        return f"libertalia/{PROGRAM}/{self.module}:{self.line}:{self.column + 1}"

    def describe(self) -> str:
        return f"{self.where} [{self.operator}] in {self.function}: {self.before}  ->  {self.after}"


# ------------------------------------------------------------------ enumerating sites
def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _skipped(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside an f-string, an annotation, an ``assert``, a docstring or ``f.pc + 1``: not step behaviour."""
    if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Attribute) and node.left.attr == "pc":
        return True
    child, up = node, parents.get(node)
    while up is not None:
        if isinstance(up, ast.JoinedStr | ast.Assert):
            return True
        if isinstance(up, ast.arg) and child is up.annotation:
            return True
        if isinstance(up, ast.AnnAssign) and child is up.annotation:
            return True
        if isinstance(up, ast.FunctionDef) and child is up.returns:
            return True
        if isinstance(up, ast.Expr) and isinstance(child, ast.Constant) and isinstance(child.value, str):
            return True
        if isinstance(up, ast.BinOp) and isinstance(up.left, ast.Attribute) and up.left.attr == "pc":
            return True  # the next step's index is the interpreter's, not what a step means
        if isinstance(up, ast.stmt):
            break
        child, up = up, parents.get(up)
    return False


def _int_value(node: ast.AST) -> int | None:
    """The integer a literal says (``-1`` included), or None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _bound(fn: ast.FunctionDef, site: ast.AST, parents: dict[ast.AST, ast.AST]) -> dict[str, bool]:
    """Names bound where ``site`` can see them in ``fn`` (params, assignments, loops, enclosing
    comprehensions), each with whether some binding makes it a seat's state rather than its number."""
    out: dict[str, bool] = {a.arg: False for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    enclosing = set()
    up = parents.get(site)
    while up is not None and up is not fn:
        if isinstance(up, ast.comprehension | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            enclosing.add(up)
        up = parents.get(up)

    def in_foreign_comprehension(node: ast.AST) -> bool:
        p = parents.get(node)
        while p is not None and p is not fn:
            if isinstance(p, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) and p not in enclosing:
                return True
            p = parents.get(p)
        return False

    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and not in_foreign_comprehension(node):
            state = False
            p = parents.get(node)
            if isinstance(p, ast.Assign) and isinstance(p.value, ast.Subscript) \
                    and isinstance(p.value.value, ast.Attribute) and p.value.value.attr == "seats":
                state = True
            out[node.id] = out.get(node.id, False) or state
    return out


def _seat_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in _SEAT_NAMES:
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr == "seat" \
            and isinstance(node.value, ast.Name):
        return ast.unparse(node)
    return None


def _replacements(node: ast.AST, fn: ast.FunctionDef, parents: dict[ast.AST, ast.AST],
                  names: frozenset[str]) -> Iterator[tuple[str, ast.expr]]:
    """(operator, replacement expression) for each mutant of one node; the node is replaced whole."""
    yield from _operators(node)
    yield from _words(node, names)
    yield from _forced(node, fn, parents)
    yield from _seats(node, fn, parents)


def _operators(node: ast.AST) -> Iterator[tuple[str, ast.expr]]:
    """``comparison``, ``arithmetic``, ``boolean``, ``not``, ``quantifier`` and ``extremum``."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            new = _CMP_SWAP.get(type(op))
            if new is not None:
                ops = [*node.ops]
                ops[i] = new()
                yield "comparison", ast.Compare(node.left, ops, node.comparators)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub) and not any(
            isinstance(x, ast.JoinedStr) or (isinstance(x, ast.Constant) and isinstance(x.value, str))
            for x in (node.left, node.right)):
        yield "arithmetic", ast.BinOp(node.left, ast.Sub() if isinstance(node.op, ast.Add) else ast.Add(), node.right)
    if isinstance(node, ast.BoolOp):
        yield "boolean", ast.BoolOp(ast.Or() if isinstance(node.op, ast.And) else ast.And(), node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "not", node.operand
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _PAIRS:
        pair = _PAIRS[node.func.id]
        yield "quantifier" if pair in ("any", "all") else "extremum", \
            ast.Call(ast.Name(pair, ast.Load()), node.args, node.keywords)


def _words(node: ast.AST, names: frozenset[str]) -> Iterator[tuple[str, ast.expr]]:
    """``side`` (in a string, or a name the module has) and ``tense``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and _SIDE_WORD.search(node.value):
        yield "side", ast.Constant(_SIDE_WORD.sub(lambda m: _SIDES[m.group()], node.value))
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and _SIDE_WORD.search(node.id):
        swapped = _SIDE_WORD.sub(lambda m: _SIDES[m.group()], node.id)
        if swapped in names:
            yield "side", ast.Name(swapped, ast.Load())
    word = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    if word in _TENSE_NOW and isinstance(getattr(node, "ctx", None), ast.Load):
        yield "tense", ast.parse(_TENSE_NOW[word], mode="eval").body
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fitted" \
            and len(node.args) == 4:
        yield "tense", ast.Call(ast.Attribute(node.func.value, "fits", ast.Load()), node.args[:3], [])


def _forced(node: ast.AST, fn: ast.FunctionDef, parents: dict[ast.AST, ast.AST]) -> Iterator[tuple[str, ast.expr]]:
    """``condition``, ``number`` and ``return``: a test, a literal or a returned value replaced by a constant."""
    parent = parents.get(node)
    if isinstance(parent, ast.If | ast.IfExp | ast.While) and node is parent.test:
        for truth in (True, False):
            if not (isinstance(node, ast.Constant) and node.value is truth):
                yield "condition", ast.Constant(truth)
    if isinstance(parent, ast.comprehension) and any(node is x for x in parent.ifs):
        yield "condition", ast.Constant(True)
    value = _int_value(node)
    if value is not None and not (isinstance(node, ast.Constant) and isinstance(parent, ast.UnaryOp)):
        for n in (value + 1, value - 1):
            yield "number", ast.Constant(n) if n >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-n))
    if isinstance(parent, ast.Return) and node is parent.value and fn.name != "act":
        for constant in _constants(fn.returns):
            if ast.dump(node) != ast.dump(constant):
                yield "return", constant


def _seats(node: ast.AST, fn: ast.FunctionDef, parents: dict[ast.AST, ast.AST]) -> Iterator[tuple[str, ast.expr]]:
    """``seat``: another seat number in scope, or the owner's side for another player's."""
    seat = _seat_text(node)
    if seat is not None:
        bound = _bound(fn, node, parents)
        if "." in seat or not bound.get(seat, False):  # a seat's state is no seat number
            choices = sorted(n for n, state in bound.items() if n in _SEAT_NAMES and not state)
            if "f" in bound:
                choices.append("f.seat")
            for other in choices:
                if other != seat:
                    yield "seat", ast.parse(other, mode="eval").body
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "seen_from" and node.args:
        yield "seat", node.args[0]


def _constants(returns: ast.expr | None) -> list[ast.expr]:
    """The constants a function of this return annotation may return instead ("act" returns a
    program counter: a constant there is a loop, not a misreading, and is left alone)."""
    text = ast.unparse(returns) if returns is not None else ""
    parts = {p.strip() for p in text.split("|")}
    out: list[ast.expr] = []
    if "bool" in parts:
        out += [ast.Constant(True), ast.Constant(False)]
    if "None" in parts and len(parts) > 1:
        out.append(ast.Constant(None))
    if "int" in parts:
        out.append(ast.Constant(0))
    if any(p.startswith("list[") for p in parts) or "Subjects" in parts:
        out.append(ast.List([], ast.Load()))
    return out


def _functions(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef, str, str]]:
    """Every function to mutate, with its qualified name and class (``__init__`` left out)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node, node.name, ""
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name != "__init__":
                    yield item, f"{node.name}.{item.name}", node.name


class _Text:
    """A module's source with its line offsets, to cut and splice nodes' spans quickly."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.offsets = [0]
        for line in self.lines:
            self.offsets.append(self.offsets[-1] + len(line))

    def at(self, line: int, col: int) -> int:  # ast columns count UTF-8 bytes
        return self.offsets[line - 1] + len(self.lines[line - 1].encode()[:col].decode())

    def span(self, node: ast.expr) -> tuple[int, int]:
        return self.at(node.lineno, node.col_offset), self.at(node.end_lineno or node.lineno, node.end_col_offset or 0)

    def segment(self, node: ast.expr) -> str:
        start, end = self.span(node)
        return self.source[start:end]

    def splice(self, node: ast.expr, text: str) -> str:
        """The source with ``node``'s span replaced by ``(text)``."""
        start, end = self.span(node)
        return self.source[:start] + f"({text})" + self.source[end:]


def _sites(module: str, source: str) -> Iterator[tuple[Mutant, str]]:
    """Every mutant of one module with its whole mutated text, in a fixed order (tree order, then operator)."""
    tree = ast.parse(source)
    parents = _parents(tree)
    names = frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name)) | frozenset(
        n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef))
    lines, cut = source.splitlines(), _Text(source)
    for fn, qualname, cls in _functions(tree):
        body = fn.body[1:] if fn.body and isinstance(fn.body[0], ast.Expr) and isinstance(
            fn.body[0].value, ast.Constant) else fn.body
        for stmt in body:
            for node in ast.walk(stmt):
                if not isinstance(node, ast.expr) or _skipped(node, parents):
                    continue
                for operator, new in _replacements(node, fn, parents, names):
                    after = ast.unparse(new)
                    before = cut.segment(node)
                    if after == ast.unparse(node):
                        continue
                    mutated = cut.splice(node, after)
                    yield Mutant(module, node.lineno, node.col_offset, node.end_lineno or node.lineno,
                                 node.end_col_offset or 0, operator, qualname, cls, " ".join(before.split()),
                                 after, lines[node.lineno - 1].strip(), node.lineno - fn.lineno), mutated


def _code_key(code: types.CodeType) -> tuple[Any, ...]:
    """A code object as what it does: its bytecode, names and constants, not where its lines are."""
    consts = tuple(_code_key(c) if isinstance(c, types.CodeType) else (type(c).__name__, repr(c))
                   for c in code.co_consts)
    return code.co_code, consts, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars


def equivalent(original: str, mutated: str) -> bool:
    """Whether the two module texts compile to the same bytecode (a mutant no run can tell apart)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # "None[s]": the mutant fails when run, not here
        return _code_key(compile(original, "m.py", "exec")) == _code_key(compile(mutated, "m.py", "exec"))


def enumerate_mutants(package: Path = PACKAGE, modules: Sequence[str] = MODULES) -> list[tuple[Mutant, str]]:
    """Every distinct mutant of ``modules`` with its mutated text: a text made twice is kept once."""
    out: list[tuple[Mutant, str]] = []
    seen: set[str] = set()
    for module in modules:
        source = (package / PROGRAM / module).read_text(encoding="utf-8")
        for mutant, text in _sites(module, source):
            digest = hashlib.sha256(text.encode()).hexdigest()
            if digest not in seen:
                seen.add(digest)
                out.append((mutant, text))
    return out


def sample(mutants: Sequence[tuple[Mutant, str]], n: int, seed: int) -> list[tuple[Mutant, str]]:
    """``n`` mutants, the same for the same seed and code: each operator's shuffled, taken round-robin."""
    rng = random.Random(seed)
    pools = {op: [m for m in mutants if m[0].operator == op] for op in OPERATORS}
    for pool in pools.values():
        rng.shuffle(pool)
    out: list[tuple[Mutant, str]] = []
    while len(out) < n and any(pools.values()):
        for op in OPERATORS:
            if pools[op] and len(out) < n:
                out.append(pools[op].pop())
    return out


def apply(mutant: Mutant, package: Path = PACKAGE) -> str:
    """The text of ``mutant``'s module with it planted (found again by its place and operator)."""
    source = (package / PROGRAM / mutant.module).read_text(encoding="utf-8")
    for m, text in _sites(mutant.module, source):
        if m == mutant:
            return text
    raise LookupError(f"no such mutant now: {mutant.describe()}")


# ------------------------------------------------------------------ which card examples to run
def _records(value: object, out: set[type]) -> None:
    from ..engine.program.record import Record, fields

    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, tuple):
            stack.extend(v)
        elif isinstance(v, Record):
            out.add(type(v))
            stack.extend(getattr(v, info.name) for info in fields(v))


def _card_uses(root: Path) -> dict[str, set[tuple[str, str]]]:
    """Each bundled card or loot file (relative to ``cards/``) with the (module, class) of every record
    in its programs, read from the real rules of both editions and every loot side."""
    from ..errors import UnverifiedLootWarning
    from ..loading.rules import load_rules

    uses: dict[str, set[tuple[str, str]]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnverifiedLootWarning)  # the stormy sides are reconstructions: known
        editions = (load_rules("galecrest"), load_rules("galecrest", loot="stormy"), load_rules("classic"))
    for rules in editions:
        specs: list[Any] = [*rules.characters, *rules.loot, *rules.solo_loot.values()]
        for sides in rules.uncharted.values():
            specs.extend(sides)
        for spec in specs:
            if not spec.path:
                continue
            kinds: set[type] = set()
            for compiled in spec.compiled:
                _records(compiled.steps, kinds)
            path = Path(spec.path).resolve()
            with contextlib.suppress(ValueError):
                uses.setdefault(path.relative_to(root).as_posix(), set()).update(
                    (k.__module__.rpartition(".")[2] + ".py", k.__name__) for k in kinds)
    return uses


def _users(module: str, source: str, name: str) -> set[str]:
    """The classes of a module whose code reaches the module-level function ``name`` (through others)."""
    tree = ast.parse(source)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

    def mentions(node: ast.AST) -> set[str]:
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}

    reaching, frontier = {name}, [name]
    while frontier:
        target = frontier.pop()
        for fname, fn in functions.items():
            if fname not in reaching and target in mentions(fn):
                reaching.add(fname)
                frontier.append(fname)
    return {c.name for c in tree.body if isinstance(c, ast.ClassDef) and mentions(c) & reaching}


def card_files_for(mutant: Mutant, uses: dict[str, set[tuple[str, str]]], package: Path = PACKAGE,
                   limit: int = MAX_CARD_FILES) -> list[str]:
    """The card files whose examples exercise the mutated code: those whose programs hold the enclosing
    class, or (a module-level function) a class of the module that reaches it; every file for
    ``footprint`` (every program has one).  At most ``limit``, spread evenly over them."""
    if mutant.module == "footprint.py":
        chosen = sorted(uses)
    else:
        classes = {mutant.cls} if mutant.cls else _users(
            mutant.module, (package / PROGRAM / mutant.module).read_text(encoding="utf-8"),
            mutant.function) or {"*"}
        chosen = sorted(p for p, kinds in uses.items()
                        if any(m == mutant.module and (c in classes or "*" in classes) for m, c in kinds))
    if len(chosen) > limit:
        step = len(chosen) / limit
        chosen = [chosen[int(i * step)] for i in range(limit)]
    return chosen


# ------------------------------------------------------------------ the kill check (in the mutant's copy)
def _check(args: argparse.Namespace) -> int:
    """Run the kill check here, in a copy of the package that holds one mutant; print the verdict."""
    import libertalia

    root = Path(args.root).resolve()
    if not Path(libertalia.__file__).resolve().is_relative_to(root):
        print(f"MUTANT-CHECK {json.dumps({'error': f'libertalia imported from {libertalia.__file__}'})}")
        return 3
    if args.parent:  # dies with the run that started it, taking the copy and whatever it started along
        from libertalia import _lifeline

        _lifeline.guard(args.parent, root)
    verdict = _check_stages(args)
    print(f"MUTANT-CHECK {json.dumps(verdict)}", flush=True)
    return 0


def _pytest(targets: Sequence[str], started: float) -> dict[str, Any] | None:
    """``pytest -x`` over ``targets``: a kill verdict, an error, or None when everything passed."""
    import io

    import pytest

    if not targets:
        return None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        # A fixed hypothesis seed: a property that fails only on some seeds would kill mutants at random.
        code = pytest.main(["-x", "-q", "-rfE", "-p", "no:cacheprovider", "--no-header", "--hypothesis-seed=0",
                            *(f"--deselect={d}" for d in DESELECT), *targets])
    if code == 0:
        return None
    if code not in (1, 2):  # 5: no tests collected, 3 and 4: pytest itself
        return {"error": f"pytest exit {int(code)}: {out.getvalue()[-1000:]}"}
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in out.getvalue().splitlines()
              if line.startswith(("FAILED ", "ERROR "))]
    return {"killed": True, "stage": "tests", "by": failed[0] if failed else f"pytest exit {int(code)}",
            "seconds": time.perf_counter() - started}


def _fuzz(texts_file: str, seed: int, started: float) -> dict[str, Any] | None:
    """The contract fuzzer's quick run over the texts in ``texts_file``, batch by batch as
    ``fuzz_contracts(..., every_context=False, to_end=False)`` plays them, stopping at the first
    broken contract or failed game."""
    from ..loading.rules import load_rules
    from .contracts import FuzzText
    from .contracts.fuzz import batches, fuzz_batch

    texts = [FuzzText(t["text"], t["character"], t["tile"], t.get("kind"))
             for t in json.loads(Path(texts_file).read_text(encoding="utf-8"))]
    if not texts:
        return None
    try:
        rules = load_rules(FUZZ_EDITION)
        for batch in batches(rules, texts):
            result = fuzz_batch(rules, batch, seed=seed, every_context=False, to_end=False)
            if result.violations or result.errors or result.broken:
                first = result.violations[0] if result.violations else None
                by = (f"{first.text!r} ({first.context}): {first.step}: {first.problems[0] if first.problems else ''}"
                      if first is not None else result.errors[0].message if result.errors else "a broken contract")
                return {"killed": True, "stage": "fuzz", "by": " ".join(str(by).split())[:300],
                        "seconds": time.perf_counter() - started}
    except Exception as exc:  # the mutant broke the fuzzer's own run: caught all the same
        return {"killed": True, "stage": "fuzz", "by": f"{type(exc).__name__}: {exc}"[:300],
                "seconds": time.perf_counter() - started}
    return None


def _check_stages(args: argparse.Namespace) -> dict[str, Any]:
    """Selected card examples and the first ``FUZZ_AFTER`` test paths, the fuzz run, the other paths."""
    started = time.perf_counter()
    first = [f"{CARD_EXAMPLES}[{c}]" for c in args.cards] + list(args.tests[:args.fuzz_after])
    verdict = _pytest(first, started) or _fuzz(args.texts, args.fuzz_seed, started) \
        or _pytest(args.tests[args.fuzz_after:], started)
    return verdict or {"killed": False, "seconds": time.perf_counter() - started}


def fuzz_texts_file(path: Path, texts: int = FUZZ_TEXTS, seed: int = FUZZ_SEED) -> Path:
    """Write the fuzz run's texts (spelled once, by the real engine's checker) for every check to read."""
    from ..loading.rules import load_rules
    from .contracts import generate_texts

    found = generate_texts(load_rules(FUZZ_EDITION), texts, seed) if texts > 0 else []
    path.write_text(json.dumps([{"text": t.text, "character": t.character, "tile": t.tile, "kind": t.kind}
                                for t in found]), encoding="utf-8")
    return path


# ------------------------------------------------------------------ running mutants
@attrs.frozen
class Outcome:
    """What the check did to one mutant: ``killed``, ``survived``, ``timeout``, ``equivalent`` or ``error``."""

    mutant: Mutant
    status: str
    by: str = ""  # the failing test, or the fuzzer's first violation
    stage: str = ""
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {**attrs.asdict(self.mutant), "key": self.mutant.key, "status": self.status, "by": self.by,
                "stage": self.stage, "seconds": round(self.seconds, 1)}


@attrs.frozen
class Report:
    outcomes: tuple[Outcome, ...]
    baseline_seconds: float
    seconds: float
    interrupted: bool = False  # Ctrl-C stopped the run: the outcomes are those done before

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def counted(self) -> int:
        """Mutants that count: all but the equivalent ones (and any the harness could not run)."""
        return len(self.outcomes) - self.count("equivalent") - self.count("error")

    @property
    def score(self) -> float:
        killed = self.count("killed") + self.count("timeout")
        return killed / self.counted if self.counted else 1.0

    def summary(self) -> str:
        lines = [f"engine mutants: {len(self.outcomes)} planted{' (interrupted)' if self.interrupted else ''}, "
                 f"{self.counted} counted "
                 f"({self.count('equivalent')} equivalent, {self.count('error')} not run)",
                 f"killed {self.count('killed')}, timed out {self.count('timeout')} (counted as killed), "
                 f"survived {self.count('survived')}",
                 f"score {self.score:.1%}  (baseline check {self.baseline_seconds:.0f} s, "
                 f"run {self.seconds / 60:.1f} min)"]
        by_op: dict[str, list[int]] = {}
        for o in self.outcomes:
            if o.status in ("killed", "timeout", "survived"):
                tally = by_op.setdefault(o.mutant.operator, [0, 0])
                tally[0] += o.status != "survived"
                tally[1] += 1
        lines.append("by operator: " + ", ".join(f"{op} {k}/{n}" for op, (k, n) in sorted(by_op.items())))
        for title, status in (("survivors", "survived"), ("equivalent", "equivalent"), ("timed out", "timeout"),
                              ("not run", "error")):
            chosen = [o for o in self.outcomes if o.status == status]
            if chosen:
                lines.append(f"{title}:")
                for o in chosen:
                    lines.append(f"  {o.mutant.describe()}")
                    lines.append(f"      {o.mutant.source_line}")
                    if o.by:
                        lines.append(f"      {o.by}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "counted": self.counted, "interrupted": self.interrupted,
                "killed": self.count("killed"),
                "timeout": self.count("timeout"), "survived": self.count("survived"),
                "equivalent": self.count("equivalent"), "error": self.count("error"),
                "baseline_seconds": self.baseline_seconds, "seconds": self.seconds,
                "mutants": [o.to_json() for o in self.outcomes]}


@contextlib.contextmanager
def package_copy(package: Path = PACKAGE) -> Iterator[Path]:
    """A throwaway project folder: a copy of the package (no bytecode, no compiled modules) beside links
    to the checkout's other top-level entries (tests, cards, grammar, ...).  Removed whatever happens."""
    root = Path(tempfile.mkdtemp(prefix="libertalia-mutants-"))
    try:
        shutil.copytree(package, root / package.name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd", "_data"))
        for entry in package.parent.iterdir():
            if entry.name != package.name and not entry.name.startswith("."):
                (root / entry.name).symlink_to(entry)
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _run_check(root: Path, cards: Sequence[str], tests: Sequence[str], texts: Path, fuzz_seed: int,
               timeout: float, fuzz_after: int = FUZZ_AFTER) -> dict[str, Any]:
    """The kill check in a subprocess on the copy at ``root``; a timeout kills its whole process group.

    The check ties itself to this process (``_lifeline.guard``): killed outright, this process takes the
    check, whatever it started and the copy with it."""
    # Hypothesis keeps failing examples in .hypothesis/ under the working folder and replays them first: one
    # mutant's failure would kill every later one.  Each check starts without it.
    shutil.rmtree(root / ".hypothesis", ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, "-m", "libertalia.testing.engine_mutants", "--check", "--root", str(root),
           "--parent", str(os.getpid()),
           "--texts", str(texts), "--fuzz-seed", str(fuzz_seed), "--fuzz-after", str(fuzz_after),
           "--cards", *cards, "--", *tests]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        return {"timeout": True, "seconds": time.perf_counter() - started}
    except BaseException:
        _kill(proc)
        raise
    for line in reversed(out.splitlines()):
        if line.startswith("MUTANT-CHECK "):
            verdict: dict[str, Any] = json.loads(line[len("MUTANT-CHECK "):])
            verdict.setdefault("seconds", time.perf_counter() - started)
            return verdict
    # No verdict: the process died (a crash at import is a kill the suite would see as well).
    return {"killed": True, "stage": "crash", "by": " ".join(out.splitlines()[-3:])[:300],
            "seconds": time.perf_counter() - started}


def _kill(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def run(mutants: Sequence[tuple[Mutant, str]], *, tests: Sequence[str] = KILL_TESTS, fuzz_texts: int = FUZZ_TEXTS,
        fuzz_seed: int = FUZZ_SEED, timeout: float | None = None, package: Path = PACKAGE,
        max_card_files: int = MAX_CARD_FILES, fuzz_after: int = FUZZ_AFTER, log: Any = None) -> Report:
    """Plant each mutant in turn in one copy of the package and run the kill check on it.

    The unmutated copy runs the check first: it must pass (else nothing could be measured), and
    its time sets the timeout (twice it, at least two minutes) unless one is given.
    """
    def say(text: str) -> None:
        if log is not None:
            print(text, file=log, flush=True)

    started = time.perf_counter()
    uses = _card_uses(package.parent / "cards")
    with package_copy(package) as root:
        texts = fuzz_texts_file(root / "fuzz-texts.json", fuzz_texts, fuzz_seed)
        every = sorted(uses)[::max(1, len(uses) // max_card_files)][:max_card_files]
        base = _run_check(root, every, tests, texts, fuzz_seed, timeout or 3600, fuzz_after)
        if base.get("killed") or base.get("timeout") or "error" in base:
            raise RuntimeError(f"the kill check fails on the unmutated engine: {base}")
        baseline = float(base["seconds"])
        limit = timeout or max(120.0, 2 * baseline)
        say(f"baseline check passed in {baseline:.0f} s; timeout {limit:.0f} s per mutant")
        outcomes: list[Outcome] = []
        interrupted = False
        for i, (mutant, text) in enumerate(mutants, 1):
            target = root / package.name / PROGRAM / mutant.module
            original = (package / PROGRAM / mutant.module).read_text(encoding="utf-8")
            if mutant.key in EQUIVALENT or equivalent(original, text):
                outcome = Outcome(mutant, "equivalent", EQUIVALENT.get(mutant.key, "same bytecode"))
            else:
                target.write_text(text, encoding="utf-8")
                try:
                    verdict = _run_check(root, card_files_for(mutant, uses, package, max_card_files), tests,
                                         texts, fuzz_seed, limit, fuzz_after)
                except KeyboardInterrupt:  # stop here: the mutants done so far still make a report
                    say(f"interrupted at mutant {i}: the report holds the {len(outcomes)} before it")
                    interrupted = True
                    break
                finally:
                    target.write_text(original, encoding="utf-8")
                if verdict.get("timeout"):
                    outcome = Outcome(mutant, "timeout", seconds=verdict["seconds"])
                elif "error" in verdict:
                    outcome = Outcome(mutant, "error", str(verdict["error"])[:300], seconds=verdict.get("seconds", 0))
                else:
                    outcome = Outcome(mutant, "killed" if verdict["killed"] else "survived", verdict.get("by", ""),
                                      verdict.get("stage", ""), verdict["seconds"])
            outcomes.append(outcome)
            say(f"[{i}/{len(mutants)}] {outcome.status:10} {outcome.seconds:5.0f} s  {mutant.describe()}"
                + (f"\n      by {outcome.by}" if outcome.by and outcome.status == "killed" else ""))
    return Report(tuple(outcomes), baseline, time.perf_counter() - started, interrupted)


# ------------------------------------------------------------------ command line
def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m libertalia.testing.engine_mutants",
                                description="Plant bugs in the engine's step code and see whether the language "
                                            "tests and the contract fuzzer catch them (docs/testing.md).")
    p.add_argument("--mutants", type=int, default=64, help="how many mutants to sample (default 64)")
    p.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    p.add_argument("--pick", default="", help="only these of the sample, by number (1-based, comma-separated)")
    p.add_argument("--skip", type=int, default=0,
                   help="leave out the sample's first N mutants (to share a sample between runs)")
    p.add_argument("--tests", nargs="*", default=[], help="more test paths for the kill check, after KILL_TESTS")
    p.add_argument("--only-tests", nargs="*", default=None, help="these test paths instead of KILL_TESTS")
    p.add_argument("--fuzz-texts", type=int, default=FUZZ_TEXTS, help=f"the fuzz run's texts (default {FUZZ_TEXTS})")
    p.add_argument("--fuzz-seed", type=int, default=FUZZ_SEED)
    p.add_argument("--timeout", type=float, default=None, help="seconds per mutant (default: 3 x the baseline)")
    p.add_argument("--list", action="store_true", help="list the sampled mutants (or every one, --mutants 0)")
    p.add_argument("--json", default=None, help="also write the report as JSON to this file")
    # The check itself, as the parent runs it in the mutant's copy.
    p.add_argument("--check", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--texts", default="", help=argparse.SUPPRESS)
    p.add_argument("--fuzz-after", type=int, default=FUZZ_AFTER, help=argparse.SUPPRESS)
    p.add_argument("--root", default="", help=argparse.SUPPRESS)
    p.add_argument("--parent", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--cards", nargs="*", default=[], help=argparse.SUPPRESS)
    p.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.check:
        args.tests = args.rest
        return _check(args)
    every = enumerate_mutants()
    chosen = every if args.list and args.mutants == 0 else sample(every, args.mutants, args.seed)
    if args.pick:
        chosen = [chosen[int(i) - 1] for i in args.pick.split(",")]
    chosen = chosen[args.skip:]
    if args.list:
        counts: dict[str, int] = {}
        for m, _ in every:
            counts[m.operator] = counts.get(m.operator, 0) + 1
        print(f"{len(every)} mutants: " + ", ".join(f"{op} {counts.get(op, 0)}" for op in OPERATORS))
        for m, _ in chosen:
            print(m.describe())
        return 0
    tests = [*(KILL_TESTS if args.only_tests is None else args.only_tests), *args.tests]
    try:
        report = run(chosen, tests=tests, fuzz_texts=args.fuzz_texts, fuzz_seed=args.fuzz_seed,
                     timeout=args.timeout, log=sys.stdout)
    except KeyboardInterrupt:  # before the first mutant (the baseline or the texts)
        print("interrupted: the temporary copy is removed", file=sys.stderr)
        return 130
    print(report.summary())
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_json(), indent=1), encoding="utf-8")
    return 130 if report.interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
