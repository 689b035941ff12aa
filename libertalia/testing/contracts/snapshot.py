"""The parts of a running game a step may change, copied before and after it runs.

A contract names parts of the game (``doubloons``, ``cards``, ``loot``, ...); ``PARTS`` says
which fields of a ``Snap`` each part is, so the checker can tell which parts a step changed.
``FLOW`` are the fields no step may change at all: the timetable, scores, the undealt deck.
A snapshot copies plain values only (tuples of names and numbers), so comparing two is cheap
and never sees a later change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ...state import CardRef, Mark

if TYPE_CHECKING:
    from ...engine.work import Frame, Queued, Work

FrameFacts = tuple[str, int, int, "CardRef | None", "CardRef | None"]
"""A frame on the stack as a contract sees it: (source, ability index, seat, this, origin)."""


class Snap(NamedTuple):
    """A running game's parts, as plain values (one tuple per seat for the seats' piles)."""

    coins: tuple[int, ...]
    net: tuple[int, ...] | None
    hand: tuple[tuple[str, ...], ...]
    ship: tuple[tuple[str, ...], ...]
    graveyard: tuple[tuple[str, ...], ...]
    island: tuple[CardRef, ...]
    order: tuple[CardRef, ...]
    track: tuple[int, ...]
    loot: tuple[tuple[str, ...], ...]
    days: tuple[tuple[str, ...], ...]
    aside: tuple[str, ...]
    just_took: tuple[tuple[CardRef, str], ...]
    bag: tuple[tuple[str, int], ...]
    kept: tuple[tuple[str, ...], ...]
    kept_loot: tuple[tuple[str, ...], ...]
    extra: tuple[tuple[tuple[int, str], int], ...]
    frames: tuple[FrameFacts, ...]
    queue: tuple[Queued, ...]
    counter: int
    marks: tuple[Mark | None, ...]
    # The flow: read by the laws, changed by no step.
    voyage: int
    day: int
    step: str
    sub: int
    cursor: int
    commits: tuple[str | None, ...]
    census: tuple[tuple[str, ...], ...] | None
    score: tuple[int, ...]
    removed: tuple[tuple[str, ...], ...]
    undealt: tuple[str, ...]
    ranks: tuple[tuple[CardRef, float], ...]
    solo: tuple[Any, ...]


PARTS: dict[str, tuple[str, ...]] = {
    "doubloons": ("coins", "net"),
    "reputation": ("track",),
    "cards": ("hand", "ship", "graveyard", "island", "order"),
    "kept": ("kept", "kept_loot"),
    "loot": ("loot", "days", "aside", "just_took"),
    "bag": ("bag",),
    "extra": ("extra",),
    "stack": ("frames", "queue"),
    "random": ("counter",),
}
"""Each part a contract may name, as the ``Snap`` fields it covers (``order`` is the day's walk,
which follows the island; ``just_took`` what each character took, which follows the loot)."""

FLOW: tuple[str, ...] = ("voyage", "day", "step", "sub", "cursor", "commits", "census", "score", "removed",
                         "undealt", "ranks", "solo")
"""Fields that belong to the game's timetable and bookkeeping: a step never changes them."""


def snapshot(w: Work, f: Frame) -> Snap:
    """Everything a step could change, copied (``f`` is the running frame, for its marks)."""
    seats = w.seats
    return Snap(
        coins=tuple([p.coins for p in seats]),
        net=tuple(w.net) if w.net is not None else None,
        hand=tuple([tuple(p.hand) for p in seats]),
        ship=tuple([tuple(p.ship) for p in seats]),
        graveyard=tuple([tuple(p.graveyard) for p in seats]),
        island=tuple(w.island),
        order=tuple(w.order),
        track=tuple(w.track),
        loot=tuple([tuple(p.loot) for p in seats]),
        days=tuple([tuple(d) for d in w.days]),
        aside=tuple(w.aside),
        just_took=tuple(w.just_took.items()),
        bag=tuple(w.bag.items()),
        kept=tuple([tuple(p.kept) for p in seats]),
        kept_loot=tuple([tuple(p.kept_loot) for p in seats]),
        extra=tuple(sorted(item for item in w.extra.items() if item[1])),  # a zero count is no count
        frames=tuple([(x.source, x.index, x.seat, x.this, x.origin) for x in w.frames]),
        queue=tuple(w.queue),
        counter=w.counter,
        marks=tuple(f.marks),
        voyage=w.voyage,
        day=w.day,
        step=w.step,
        sub=w.sub,
        cursor=w.cursor,
        commits=tuple(w.commits),
        census=w.census,
        score=tuple([p.score for p in seats]),
        removed=tuple([tuple(p.removed) for p in seats]),
        undealt=tuple(w.undealt),
        ranks=tuple(w.ranks.items()),
        solo=(w.automa, tuple(w.solo_deck), tuple(w.solo_discard), w.watching, tuple(w.no_effect),
              w.left_of_neutral),
    )


_COMPARED = tuple((part, tuple(Snap._fields.index(n) for n in names))
                  for part, names in (*PARTS.items(), ("flow", FLOW)))
_MARKS = Snap._fields.index("marks")


def changed_parts(before: Snap, after: Snap) -> set[str]:
    """The parts (``PARTS`` names, and ``"flow"``) whose fields differ between two snapshots."""
    if before[:_MARKS] == after[:_MARKS] and before[_MARKS + 1:] == after[_MARKS + 1:]:  # most steps change nothing
        return set()
    return {part for part, at in _COMPARED if any(before[i] != after[i] for i in at)}


def changed_fields(before: Snap, after: Snap, part: str) -> list[str]:
    """The fields of ``part`` that differ (for a message)."""
    names = FLOW if part == "flow" else PARTS[part]
    return [n for n in names if getattr(before, n) != getattr(after, n)]
