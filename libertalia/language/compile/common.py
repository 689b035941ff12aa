"""Shared types of the compiled card language, and pushing abilities onto the stack."""

from __future__ import annotations

from collections.abc import Callable

from ...engine.work import Frame, Work
from ...state import CardRef

CharFn = Callable[[Work, Frame], list[CardRef]]
IntFn = Callable[[Work, Frame], int]
CondFn = Callable[[Work, Frame], "bool | None"]
LootRef = tuple[str, int, str]  # (place, seat or -1, kind); place: today/tomorrow/bag/held
ActionFn = Callable[[Work, Frame], None]


class Unbound(Exception):
    """``it`` or an owner was needed but nothing is bound: skip the step."""


def source_name(f: Frame) -> str:
    return f.source[2:]


def push_frame(w: Work, source: str, index: int, seat: int, this: CardRef | None,
               origin: CardRef | None = None) -> None:
    """Start an ability; ``origin`` is the card whose text runs, when another card borrows it."""
    w.frames.append(Frame(source, index, seat, this, w.rules.sources[source][index].code,
                          this if origin is None else origin))


def push_loot_abilities(w: Work, seat: int, kind: str, timing: str, taker: CardRef | None) -> None:
    """Resolve a token's ``timing`` abilities now (R6: only when taken from a day or the bag)."""
    spec = w.rules.loot_spec(kind)
    for i in reversed(range(len(spec.compiled))):
        if spec.compiled[i].timing == timing:
            push_frame(w, f"l:{kind}", i, seat, taker)
