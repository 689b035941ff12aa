"""The replay page's pictures packed small: every line drawn once, each step a diff of the step before.

A picture (``pictures.table_svg``) is SVG text, one element per line, and consecutive steps share
most of their lines (the same cards with the same hover texts).  ``pack`` keeps one table of the
distinct lines, in the order they first appear, and writes each step as operations on the step
before: ``[start, count]`` copies a run of the previous step's lines, ``-n`` takes the table's next
``n`` new lines, and a plain number takes one line of the table again.  ``unpack`` (and its twin in
the page's script) rebuilds every picture exactly, character for character.

``encode`` deflates the packed JSON and writes it as base64, which holds no ``<``, ``>`` or ``&``:
no text from a mod can close the page's script block.  The page inflates it with the browser's own
``DecompressionStream``, so the file stays self-contained.
"""

from __future__ import annotations

import base64
import difflib
import json
import zlib
from collections.abc import Sequence
from typing import Any

Op = list[int] | int


def pack(svgs: Sequence[str]) -> dict[str, Any]:
    """``{"lines": [...], "steps": [[op, ...], ...]}`` for the pictures ``svgs``, in order."""
    table: dict[str, int] = {}
    fresh = 0  # the next table line no step has taken yet
    prev: list[int] = []
    steps: list[list[Op]] = []
    for svg in svgs:
        seq = [table.setdefault(line, len(table)) for line in svg.split("\n")]
        ops: list[Op] = []
        matcher = difflib.SequenceMatcher(None, prev, seq, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                ops.append([i1, i2 - i1])
                continue
            for index in seq[j1:j2]:
                if index == fresh:
                    fresh += 1
                    if ops and isinstance(ops[-1], int) and ops[-1] < 0:
                        ops[-1] -= 1
                    else:
                        ops.append(-1)
                else:
                    ops.append(index)
        steps.append(ops)
        prev = seq
    return {"lines": list(table), "steps": steps}


def unpack(packed: dict[str, Any]) -> list[str]:
    """The pictures ``pack`` packed, exactly (the page's script does the same)."""
    lines: list[str] = packed["lines"]
    fresh = 0
    prev: list[int] = []
    out: list[str] = []
    for ops in packed["steps"]:
        seq: list[int] = []
        for op in ops:
            if isinstance(op, list):
                seq += prev[op[0]:op[0] + op[1]]
            elif op < 0:
                seq += range(fresh, fresh - op)
                fresh -= op
            else:
                seq.append(op)
        out.append("\n".join(lines[i] for i in seq))
        prev = seq
    return out


def encode(svgs: Sequence[str]) -> str:
    """The packed pictures, deflated (zlib format) and written as base64: safe inside any HTML element."""
    data = json.dumps(pack(svgs), ensure_ascii=True, separators=(",", ":")).encode("ascii")
    return base64.b64encode(zlib.compress(data, 9)).decode("ascii")


def decode(text: str) -> list[str]:
    """The pictures ``encode`` wrote (the tests read the page back with it)."""
    return unpack(json.loads(zlib.decompress(base64.b64decode(text))))
