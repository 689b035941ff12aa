"""Binding every reference of an ability to the step that introduces it.

Words that point back ("it", "its owner", "it was …", "one returned", "space moved",
"you did") mean one earlier step each, decided here when the rules load rather than by
whatever happened to run last.  The rules, with their reasons, are in
docs/card-language.md ("References"):

- ``it`` / ``its owner`` / ``it is …`` name the character(s) of the nearest earlier
  action that names characters (discard, put, play, keep, ``the owner of …``), in the
  same line; that action must name **one** character: after ``every …`` or ``… in each
  opponent's ship`` the singular ``it`` is refused rather than silently meaning the last;
- ``one <verb>ed`` counts the nearest earlier action of that verb (``one returned``:
  a ``return``; ``one discarded``: a ``discard``; ``one taken``: a ``take``; ``one moved``:
  a ``put``, ``play`` or ``give``); ``space moved`` the nearest ``move your reputation``;
- ``you did`` says whether the previous sentence part (before the last ``then``) did
  anything; a part that does two things (``X and Y``) is refused, as it could mean either.
  After ``you may A; otherwise B`` it speaks of the question: "yes", and A did something
  (answering "no" did nothing, whatever ``B`` does);
- ``is`` reads a character now, ``was`` as it stood just before its binder acted (only
  ``it`` has such a moment);
- where the nearest binder lies in a branch (``if``, ``may``, ``choose one``), each arm's
  binder shares one slot: the word means whichever arm ran, and nothing if none named one;
- ``their`` (``their ship``), ``they hold`` and ``of their choice`` mean the player a clause
  is about (``every player who has a character in their ship``) or the player who acts
  (``each opponent discards a character from their hand``), from whose side those words are
  read (E32); anywhere else nobody is theirs, and they are refused (``their_problem``).

A binder gets a *slot* in its frame; union-find merges the slots of alternative arms.
"""

from __future__ import annotations

from collections.abc import Callable

from ...errors import CardError
from ...syntax import ast

Report = Callable[[str, int, int, str], CardError]

VERB_OF: dict[str, tuple[type, ...]] = {
    "returned": (ast.ReturnLoot,),
    "discarded": (ast.Discard,),
    "taken": (ast.Take,),
    "moved": (ast.Put, ast.Play, ast.Give),
}
"""Which actions ``one <verb>`` can count."""


MIXED: frozenset[str] = frozenset({"\0"})
"""A binder's ``kinds`` when its arms acted on different things: no named count ("each relic returned") fits it."""


class Binder:
    """An earlier step a word can point back to: its slot, whether it may name several, and its words."""

    __slots__ = ("slot", "plural", "words", "kinds")

    def __init__(self, slot: int, plural: bool, words: str, kinds: frozenset[str] | None = None) -> None:
        # ``kinds``: for a loot action, the kinds its phrase names (empty: any loot); None: characters
        self.slot, self.plural, self.words, self.kinds = slot, plural, words, kinds


def their_problem(word: str) -> tuple[str, str]:
    """The refusal of ``word`` ("their", "they hold", "of their choice") where no player is theirs."""
    return (f'"{word}" speaks of the player a clause or an action is about, and here there is none',
            'a player it is about, as in "every player who has a character in their ship" or "each opponent '
            'discards a character from their hand"; or "your" / "you hold" for your own')


class Scope:
    """What the words at one point of an ability can refer to."""

    __slots__ = ("chars", "verbs", "spaces", "part", "part_problem")

    def __init__(self) -> None:
        self.chars: Binder | None = None
        self.verbs: dict[str, Binder] = {}
        self.spaces: Binder | None = None
        self.part: int | None = None  # the previous sentence part's "did" slot
        self.part_problem = ""  # why "you did" cannot point at that part ("" if it can)

    def copy(self) -> Scope:
        s = Scope()
        s.chars, s.verbs, s.spaces, s.part, s.part_problem = (self.chars, dict(self.verbs), self.spaces, self.part,
                                                              self.part_problem)
        return s


class Slots:
    """Slot numbers handed out while compiling, the ones any word reads, and the arms' merged binders.

    A binder merged across the arms of a branching step ("it" after "choose one") is a group of
    the arms' slots.  Its members become one frame slot only when a word reads the group: joined
    eagerly, two groups that share a member would fold together slots one step writes with
    different records (a gift's tokens and the character that named its receiver).
    """

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.read: set[int] = set()
        self.groups: dict[int, list[int]] = {}

    def new(self) -> int:
        self.parent.append(len(self.parent))
        return len(self.parent) - 1

    def find(self, slot: int) -> int:
        while self.parent[slot] != slot:
            self.parent[slot] = self.parent[self.parent[slot]]
            slot = self.parent[slot]
        return slot

    def union(self, slots: list[int]) -> int:
        """A new slot that stands for ``slots`` together, joined to them once it is read."""
        group = self.new()
        self.groups[group] = list(slots)
        return group

    def note_read(self, slot: int) -> None:
        """A word reads ``slot``: it, and every member of a group it stands for, share one frame slot."""
        self.read.add(slot)
        members = self.groups.pop(slot, None)
        if members is None:
            return
        for m in members:
            self.note_read(m)
        roots = sorted({self.find(s) for s in (slot, *members)})
        for r in roots[1:]:
            self.parent[r] = roots[0]

    def final(self) -> tuple[dict[int, int], int]:
        """Each slot a word reads, as a compact frame index (unread binders get none: -1)."""
        used = sorted({self.find(s) for s in self.read})
        index = {root: i for i, root in enumerate(used)}
        return {s: index.get(self.find(s), -1) for s in range(len(self.parent))}, len(used)


def merge(slots: Slots, start: Scope, arms: list[Scope]) -> Scope:
    """The scope after a branching step: each kind of binder any arm introduced, merged."""
    out = start.copy()
    new_chars = [a.chars for a in arms if a.chars is not None and a.chars is not start.chars]
    if new_chars:
        out.chars = Binder(slots.union([b.slot for b in new_chars]), any(b.plural for b in new_chars),
                           " / ".join(dict.fromkeys(b.words for b in new_chars)))
    for verb in VERB_OF:
        new = [a.verbs[verb] for a in arms if verb in a.verbs and a.verbs[verb] is not start.verbs.get(verb)]
        if new:
            kinds = {b.kinds for b in new}
            out.verbs[verb] = Binder(slots.union([b.slot for b in new]), True, new[0].words,
                                     kinds.pop() if len(kinds) == 1 else MIXED)
    new_spaces = [a.spaces for a in arms if a.spaces is not None and a.spaces is not start.spaces]
    if new_spaces:
        out.spaces = Binder(slots.union([b.slot for b in new_spaces]), False, new_spaces[0].words)
    return out
