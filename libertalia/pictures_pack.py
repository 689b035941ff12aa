"""The replay page's pictures packed small: every line drawn once, each step a diff of the step before.

A picture (``pictures.table_svg``) is SVG text, one element per line, and consecutive steps share
most of their lines.  Most lines that differ have only moved: a seat's panel grew, so everything
below it sits lower.  ``pack`` keeps one table of the lines it could not copy, in the order they
first appear, and writes each step as operations on the step before: ``[start, count]`` copies a
run of the previous step's lines, ``[start, count, dx, dy]`` copies them moved (``shift`` adds ``dx``
to every whole-number ``x``/``cx`` and ``dy`` to every whole-number ``y``/``cy``), ``-n`` takes the
table's next ``n`` new lines, and a plain number takes one line of the table again.  ``unpack`` (and
its twin in the page's script) rebuilds every picture exactly, character for character; ``pack``
only copies a moved line when ``shift`` gives it back exactly.

``encode`` deflates the packed JSON and writes it as base64, which holds no ``<``, ``>`` or ``&``:
no text from a mod can close the page's script block.  The page inflates it with the browser's own
``DecompressionStream``, so the file stays self-contained.
"""

from __future__ import annotations

import base64
import difflib
import json
import re
import zlib
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

Op = list[int] | int

#: a whole-number coordinate attribute; the page's script uses the same pattern (``MOVABLE`` there)
MOVABLE: Final = re.compile(r' (c?)([xy])="(0|-?[1-9][0-9]*)"')


def shift(line: str, dx: int, dy: int) -> str:
    """``line`` moved by ``(dx, dy)``: whole-number ``x``/``cx`` plus ``dx``, ``y``/``cy`` plus ``dy``."""
    if not dx and not dy:
        return line
    return MOVABLE.sub(lambda m: f' {m[1]}{m[2]}="{int(m[3]) + (dx if m[2] == "x" else dy)}"', line)


def _shape(line: str) -> str:
    """``line`` with its movable coordinates blanked: two lines of one shape may be one moved copy of the other."""
    return MOVABLE.sub(lambda m: f' {m[1]}{m[2]}=""', line)


def _offset(old: str, new: str) -> tuple[int | None, int | None] | None:
    """The move ``(dx, dy)`` that turns ``old`` into ``new`` (``None`` for an axis with no coordinate), or
    ``None`` when no move does."""
    if old == new:  # most lines: unmoved
        axes = {m[2] for m in MOVABLE.finditer(old)}
        return (0 if "x" in axes else None), (0 if "y" in axes else None)
    moved: dict[str, int] = {}
    for a, b in zip(MOVABLE.finditer(old), MOVABLE.finditer(new), strict=True):
        axis, step = a[2], int(b[3]) - int(a[3])
        if moved.setdefault(axis, step) != step:
            return None
    dx, dy = moved.get("x"), moved.get("y")
    return (dx, dy) if shift(old, dx or 0, dy or 0) == new else None


def _runs(prev: Sequence[str], seq: Sequence[str], i1: int, j1: int, n: int) -> list[tuple[int, int, int, int, int]]:
    """Lines ``seq[j1:j1+n]`` over ``prev[i1:i1+n]`` (the same shapes) as ``(i, j, count, dx, dy)`` runs of one
    move each; a line no move gives back has count 0 (taken from the table)."""
    runs: list[tuple[int, int, int, int, int]] = []
    start, dx, dy = 0, None, None
    for k in range(n + 1):
        move = _offset(prev[i1 + k], seq[j1 + k]) if k < n else None
        fits = move is not None and (move[0] is None or dx is None or move[0] == dx) and (
            move[1] is None or dy is None or move[1] == dy)
        if fits and move is not None:
            dx = move[0] if dx is None else dx
            dy = move[1] if dy is None else dy
            continue
        if k > start:
            runs.append((i1 + start, j1 + start, k - start, dx or 0, dy or 0))
        if k < n and move is None:
            runs.append((i1 + k, j1 + k, 0, 0, 0))
            start, dx, dy = k + 1, None, None
        else:
            start, dx, dy = k, move[0] if move else None, move[1] if move else None
    return runs


def _blocks(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int, int]]:
    """Runs ``(i, j, n)`` with ``a[i:i+n] == b[j:j+n]``, in order in both: a patience diff (the lines found once in
    each, kept in the longest order both agree on, anchor the match; difflib matches the short gaps between them).
    difflib alone takes seconds on a picture's thousand lines, where ``</g>`` comes hundreds of times."""
    in_a, in_b = Counter(a), Counter(b)
    where_a = {x: i for i, x in enumerate(a) if in_a[x] == 1}
    pairs = [(where_a[x], j) for j, x in enumerate(b) if in_b[x] == 1 and x in where_a]
    tails: list[int] = []  # longest increasing run of i over pairs (in j's order), by patience sorting
    tail_at: list[int] = []
    before: list[int] = []
    for k, (i, _) in enumerate(pairs):
        pile = bisect_left(tails, i)
        before.append(tail_at[pile - 1] if pile else -1)
        if pile == len(tails):
            tails.append(i)
            tail_at.append(k)
        else:
            tails[pile], tail_at[pile] = i, k
    chain: list[tuple[int, int]] = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        chain.append(pairs[k])
        k = before[k]
    chain.reverse()
    found: list[tuple[int, int, int]] = []
    pi = pj = 0
    for i, j in [*chain, (len(a), len(b))]:
        gap = difflib.SequenceMatcher(None, a[pi:i], b[pj:j], autojunk=False)
        found += [(pi + bi, pj + bj, n) for bi, bj, n in gap.get_matching_blocks() if n]
        if i < len(a):
            found.append((i, j, 1))
        pi, pj = i + 1, j + 1
    merged: list[tuple[int, int, int]] = []
    for i, j, n in found:
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + n)
        else:
            merged.append((i, j, n))
    return merged


def pack(svgs: Sequence[str]) -> dict[str, Any]:
    """``{"lines": [...], "steps": [[op, ...], ...]}`` for the pictures ``svgs``, in order."""
    table: dict[str, int] = {}
    ops_of: list[list[Op]] = []
    prev: list[str] = []
    shapes: dict[str, int] = {}  # a shape's number
    shape_of: dict[str, int] = {}  # a line's shape's number (most lines come back step after step)

    def take(ops: list[Op], line: str) -> None:
        if line not in table:
            table[line] = len(table)
            if ops and isinstance(ops[-1], int) and ops[-1] < 0:
                ops[-1] -= 1
            else:
                ops.append(-1)
        else:
            ops.append(table[line])

    prev_shapes: list[int] = []
    for svg in svgs:
        seq = svg.split("\n")
        seq_shapes = [shape_of[line] if line in shape_of else
                      shape_of.setdefault(line, shapes.setdefault(_shape(line), len(shapes))) for line in seq]
        ops: list[Op] = []
        done = 0  # lines of this step written so far
        for i1, j1, n in _blocks(prev_shapes, seq_shapes):
            for line in seq[done:j1]:
                take(ops, line)
            for i, j, count, dx, dy in _runs(prev, seq, i1, j1, n):
                if count == 0:
                    take(ops, seq[j])
                else:
                    ops.append([i, count, dx, dy] if dx or dy else [i, count])
            done = j1 + n
        for line in seq[done:]:
            take(ops, line)
        ops_of.append(ops)
        prev, prev_shapes = seq, seq_shapes
    return {"lines": list(table), "steps": ops_of}


def unpack(packed: dict[str, Any]) -> list[str]:
    """The pictures ``pack`` packed, exactly (the page's script does the same)."""
    lines: list[str] = packed["lines"]
    fresh = 0
    prev: list[str] = []
    out: list[str] = []
    for ops in packed["steps"]:
        seq: list[str] = []
        for op in ops:
            if isinstance(op, list):
                dx, dy = (op[2], op[3]) if len(op) > 2 else (0, 0)
                seq += [shift(line, dx, dy) for line in prev[op[0]:op[0] + op[1]]]
            elif op < 0:
                seq += lines[fresh:fresh - op]
                fresh -= op
            else:
                seq.append(lines[op])
        out.append("\n".join(seq))
        prev = seq
    return out


def encode(svgs: Sequence[str]) -> str:
    """The packed pictures, deflated (zlib format) and written as base64: safe inside any HTML element."""
    data = json.dumps(pack(svgs), ensure_ascii=True, separators=(",", ":")).encode("ascii")
    return base64.b64encode(zlib.compress(data, 9)).decode("ascii")


def decode(text: str) -> list[str]:
    """The pictures ``encode`` wrote (the tests read the page back with it)."""
    return unpack(json.loads(zlib.decompress(base64.b64decode(text))))
