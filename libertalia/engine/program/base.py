"""What every step of a card program shares: marks, contracts and the unbound signal.

A compiled ability is a tuple of frozen step objects (``actions``, ``control``), each a
typed record of what it does, with every reference already resolved to the step that
introduces it (``language/compile``).  At run time a step that some later word refers to
leaves a *mark* in its frame's slot: the characters it named, where they stood before,
how many things it affected and whether it did anything.  "it", "its owner", "one
returned", "space moved" and "you did" read the mark of their own binder, never of
whatever ran last.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...state import CardRef, Mark
from .record import Record, declare

if TYPE_CHECKING:
    from ..work import Frame

Before = tuple[tuple[CardRef, str | None], ...]
"""Each character a step named, as it stood just before the step: (reference, zone)."""

NOTHING_DONE: Mark = ((), (), 0, False)
"""The mark of a binder that ran and found nothing to act on."""


class Unbound(Exception):
    """A reference ("it", "its owner") whose binder did not run or named nobody: the step does nothing."""


def leave_mark(f: Frame, slot: int, cards: tuple[CardRef, ...], before: Before, count: int, did: bool) -> None:
    if slot >= 0:
        f.marks[slot] = (cards, before, count, did)


def mark_of(f: Frame, slot: int) -> Mark | None:
    return f.marks[slot] if slot < len(f.marks) else None


def bound_card(f: Frame, slot: int) -> CardRef:
    """The one character a singular binder named (the resolver guarantees it names at most one)."""
    mark = mark_of(f, slot)
    if mark is None or not mark[0]:
        raise Unbound
    return mark[0][0]


def bound_before(f: Frame, slot: int) -> tuple[CardRef, str | None]:
    """That character as it stood just before its binder acted (for ``was``)."""
    mark = mark_of(f, slot)
    if mark is None or not mark[1]:
        raise Unbound
    return mark[1][0]


def source_name(f: Frame) -> str:
    return f.source[2:]


def seen_from(f: Frame, seat: int) -> Frame:
    """The running ability as the player at ``seat`` sees it: "you", "your" and "you hold" are theirs.

    Words about another player are read through it, from their side (E32): "who holds a saber",
    "with a character in their ship", "discards a character from their hand"; and a choice asked
    through it is asked of them.  It shares the marks and the answers of ``f``; whoever asks through
    it copies ``pos`` (the answers used) back to ``f``.
    """
    side = type(f)(f.source, f.index, seat, f.this, f.code, f.origin)
    side.pc, side.answers, side.pos, side.marks = f.pc, f.answers, f.pos, f.marks
    return side


class Contract(Record):
    """What one kind of step may change, stated apart from the code that runs it.

    ``changes`` names parts of the game (``doubloons``, ``reputation``, ``cards``,
    ``loot``, ``bag``, ``kept``, ``extra``, ``stack``); ``events`` the kinds of event the
    step may log; ``law`` says in words how its events relate to its inputs.  The
    contract fuzzer (``libertalia.testing.contracts``) checks each executed step against it.
    """

    changes: frozenset[str]
    events: frozenset[str]
    law: str
    __node_fields__ = declare("changes", "events", "law")

    def __init__(self, changes: frozenset[str], events: frozenset[str], law: str) -> None:
        object.__setattr__(self, "changes", changes)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "law", law)
