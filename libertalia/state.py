"""The frozen game state and the values a caller sees.

Everything here is an immutable attrs class or a tuple, so a ``Game`` can be
hashed, compared, shared between search branches and serialised without
copying.  The engine works on a private mutable copy (``engine.work``) and
freezes it again before handing it back.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

import attrs

CardRef = tuple[int | None, str]
"""A character in play: (owning seat or None for a neutral card, name)."""


class _Value:
    """A frozen value that pickles and copies as its class and its field values, in order.

    Unpickling builds it with its constructor, several times faster than attrs' own way (a
    field set by name at a time), which a game's state would pay for each of its parts.
    Every field of such a class is positional in the constructor, in field order.
    """

    __slots__ = ()
    __attrs_attrs__: ClassVar[tuple[attrs.Attribute[Any], ...]]  # each subclass's fields (attrs makes them)

    def __reduce__(self) -> tuple[Any, ...]:
        return self.__class__, tuple([getattr(self, f.name) for f in self.__attrs_attrs__])


@attrs.frozen
class Option(_Value):
    """One answer to a decision: a stable key and a label for people."""

    key: str
    label: str


@attrs.frozen
class Decision(_Value):
    """What the game waits for: who must answer, and with which keys."""

    player: int
    kind: str
    options: tuple[Option, ...]
    prompt: str
    source: str | None = None

    def keys(self) -> tuple[str, ...]:
        return tuple([o.key for o in self.options])

    def _repr_html_(self) -> str:
        """The decision in a notebook: who answers what, and each option's key and label, numbered.

        Short, where the repr is a wall of fields; every part is escaped, as names and labels come
        from card files (mods)."""
        from html import escape  # here: the state module stays the package's light bottom

        source = f" ({escape(self.source)})" if self.source else ""
        head = f"<p><b>seat {self.player}</b>: {escape(self.prompt)}{source} <code>{escape(self.kind)}</code></p>"
        if not self.options:
            return head
        items = "".join(  # a label that starts with its key ("Cook (26)") shows the key once
            f"<li><code>{escape(o.key)}</code>{escape(o.label[len(o.key):])}</li>" if o.label.startswith(o.key)
            else f"<li><code>{escape(o.key)}</code> {escape(o.label)}</li>"
            for o in self.options)
        return f"{head}<ol>{items}</ol>"


@attrs.frozen(slots=True)
class Event:
    """A record of something that happened; ``str()`` reads as a sentence.

    Each kind of event is a subclass in ``libertalia.events`` with typed fields (seats,
    cards, loot, amounts, zones); this base gives every one of them when it happened
    (``voyage``, ``day`` and ``phase``: ``None`` where an older log cannot tell) and the
    fields every event has always had, so code that reads only those works on any event:

    - ``kind``: the family, such as ``"discard"``, ``"loot"`` or ``"doubloons"``;
    - ``text``: the sentence (written when read, from the typed fields);
    - ``seat``: the seat the event concerns (``None``: nobody's, or the whole table);
    - ``source``: the card or loot kind whose ability caused it (for a ``play`` event, the card);
    - ``amount``: doubloons that ability gained (+) or lost (-) for ``seat``, else 0;
    - ``timing``: that ability's timing (``sun``, ``dusk``, ``moon``, ``anchor``), if one acted;
    - ``targets``: the cards or loot kinds the event acts on (moves, discards, borrows, takes,
      returns, keeps), in the order it names them; ``target`` is the one of them when there is
      exactly one, else ``None``;
    - ``target_seats``: the seats it acts on: whose card or token it was (or, given, whose it
      becomes), whose doubloons or reputation changed, who paid; ``target_seat`` likewise;
    - ``borrower``: for an event of a borrowed text (a Witch running the Wind Nymph's), the
      character that borrowed it, as held; the ``source`` stays the card lent.  ``None`` otherwise.

    ``target`` and ``target_seat`` are fields of their own in the classes that always have one
    (a discard's); every class answers all four, so a filter over any events can use them.
    """

    kind: ClassVar[str] = ""
    voyage: int = attrs.field(default=0, kw_only=True)
    day: int = attrs.field(default=0, kw_only=True)  # 0 before a voyage's first day; its last day at the anchor
    phase: str | None = attrs.field(default=None, kw_only=True)
    # The character that ran a borrowed text (as held: ``Witch``, ``Apprentice#2``) when this event is
    # of that text, whose card stays the ``source``; ``None`` for a card's own text, and in an older log.
    borrower: str | None = attrs.field(default=None, kw_only=True)

    @property
    def seat(self) -> int | None:
        return None

    @property
    def source(self) -> str | None:
        return None

    @property
    def amount(self) -> int:
        return 0

    @property
    def timing(self) -> str | None:
        return None

    @property
    def targets(self) -> tuple[str, ...]:
        return ()

    @property
    def target_seats(self) -> tuple[int, ...]:
        return ()

    @property
    def target(self) -> str | None:
        found = self.targets
        return found[0] if len(found) == 1 else None

    @property
    def target_seat(self) -> int | None:
        found = self.target_seats
        return found[0] if len(found) == 1 else None

    @property
    def text(self) -> str:
        return self.sentence()

    def sentence(self) -> str:
        """The event in words: each kind writes its own."""
        raise NotImplementedError(f"{type(self).__name__} has no sentence")

    def __str__(self) -> str:
        return self.sentence()


@attrs.frozen
class PlayerState(_Value):
    """One seat's public-API view.  ``reputation`` is the track space, 0 = leftmost."""

    seat: int
    doubloons: int
    score: int
    reputation: int
    hand: tuple[str, ...]
    ship: tuple[str, ...]
    graveyard: tuple[str, ...]
    loot: tuple[str, ...]
    kept: tuple[str, ...] = ()  # characters staying aboard for the next voyage
    kept_loot: tuple[str, ...] = ()  # loot staying with this seat for the next voyage
    removed: tuple[str, ...] = ()  # characters out of the game (Classic: after each campaign)


Mark = tuple[tuple[CardRef, ...], tuple[tuple[CardRef, str | None], ...], int, bool]
"""What a binder step left for later words (``engine.program.base``): the characters it named, each as it
stood before (reference, zone), how many things it affected, and whether it did anything."""


@attrs.frozen
class FrameState(_Value):
    """A suspended ability: which one, how far it ran and what its binder steps left for later words."""

    source: str  # "c:<card name>" or "l:<loot kind>"
    index: int  # which ability of the source
    seat: int
    this: CardRef | None
    pc: int = 0
    answers: tuple[str, ...] = ()
    # One per binder slot of the program (``engine.program.base.Mark``), None where the binder has not run:
    # (characters now, (character, zone) as they were, count, did anything).
    marks: tuple[Mark | None, ...] = ()
    origin: CardRef | None = None  # the card whose text runs: ``this``, or the card it borrows from; None on loot


@attrs.frozen
class PendingState(_Value):
    """An ability waiting in a queue for its owner to order it."""

    seat: int
    source: str
    index: int
    this: CardRef | None
    late: bool = False
    first: bool = False


@attrs.frozen
class GameState(_Value):
    """Everything that changes during a game, and nothing that does not.

    The fields with defaults are the engine's bookmarks within a day (whose
    turn, which ability, what it has bound); a game between days has them empty.
    """

    players: int
    seats: tuple[PlayerState, ...]
    track: tuple[int, ...]
    days: tuple[tuple[str, ...], ...]
    bag: tuple[tuple[str, int], ...]
    undealt: tuple[str, ...]
    voyage: int
    day: int
    step: str
    commits: tuple[str | None, ...]
    seed: int
    counter: int
    island: tuple[CardRef, ...] = ()
    aside: tuple[str, ...] = ()
    cursor: int = 0
    sub: int = 0
    order: tuple[CardRef, ...] = ()
    frames: tuple[FrameState, ...] = ()
    queue: tuple[PendingState, ...] = ()
    flow_answers: tuple[str, ...] = ()
    census: tuple[tuple[str, ...], ...] | None = None
    net: tuple[int, ...] | None = None
    extra: tuple[tuple[int, str, int], ...] = ()
    just_took: tuple[tuple[CardRef, str], ...] = ()
    left_of_neutral: CardRef | None = None
    decision: Decision | None = None
    # Every event so far, packed (``engine.journal``; ``Game.events`` reads it); ``None`` when
    # the game was started with its log turned off.
    journal: bytes | None = b""
    # Solo games (``players=1``): Automa's seat, the solo deck (top first) and its discard, the
    # island ranks that changed (S2), the Automa card whose sun ability is being watched with a
    # digest of the game before it, and the cards found to have changed nothing.
    automa: int | None = None
    solo_deck: tuple[str, ...] = ()
    solo_discard: tuple[str, ...] = ()
    ranks: tuple[tuple[CardRef, float], ...] = ()
    watching: tuple[CardRef, str] | None = None
    no_effect: tuple[CardRef, ...] = ()
    history: tuple[str, ...] = ()  # every answer given so far, in order
    # How the game began, beside its seed: the declared position (``new_game(setup=...)``) as
    # canonical JSON, None for a dealt game, and each seat's handicap (extra starting doubloons;
    # empty for none).  With the seed and ``history`` they replay the game: a save is checked so.
    setup: str | None = None
    handicap: tuple[int, ...] = ()


def loot_tally(s: GameState) -> Counter[str]:
    """Every loot token the state accounts for, by kind: bag, days, set aside and held.

    Conservation (saves, the invariant checker) compares it with the board's bag.
    """
    tally: Counter[str] = Counter(dict(s.bag))
    for day in s.days:
        tally.update(day)
    tally.update(s.aside)
    for p in s.seats:
        tally.update(p.loot)
    return tally
