"""The mutable working copy of a game, and the primitive moves on it.

``choose()`` thaws the frozen state into a ``Work``, runs the engine until the
next decision, and freezes the result.  Mutating plain lists between two
decisions is several times faster than rebuilding frozen objects at every
change (design.md §4), while callers still only ever see immutable games.

Every rule about *how* a zone changes lives here (coins floor at 0, netting at
anchor, reputation overflow, island order); every rule about *when* lives in
``flow``; every card's *what* lives in its compiled text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from .._mypyc import mypyc_attr
from ..state import (
    CardRef,
    Decision,
    FrameState,
    GameState,
    Mark,
    Option,
    PendingState,
    PlayerState,
)
from . import automa, journal, rng
from .journal import (
    BORROW_BY,
    DISCARDED,
    DISCARDED_BY,
    GRAVEYARD_TO_HAND_BY,
    MOVED,
    OVERFLOW_BY,
    PUSHED_BY,
    TAKEN_OVER,
    VIA,
)

if TYPE_CHECKING:
    from .specs import Instruction, Rules

PILES = ("hand", "ship", "graveyard")

# ``new_decision``'s tools, one setter per field of ``Decision`` (tests/engine/test_work.py holds them to
# attrs' list).  Final: compiled, each is a C static, not a look-up in this module's globals at every question.
_NEW: Final[Any] = object.__new__
_DECISION: Final = Decision
_SET_PLAYER: Final[Any] = Decision.__dict__["player"].__set__
_SET_KIND: Final[Any] = Decision.__dict__["kind"].__set__
_SET_OPTIONS: Final[Any] = Decision.__dict__["options"].__set__
_SET_PROMPT: Final[Any] = Decision.__dict__["prompt"].__set__
_SET_SOURCE: Final[Any] = Decision.__dict__["source"].__set__


def new_decision(player: int, kind: str, options: tuple[Option, ...], prompt: str, source: str | None) -> Decision:
    """``Decision(player, kind, options, prompt, source)``, the same value, built for half the cost.

    attrs' ``__init__`` of a frozen class is interpreted code that sets each field through
    ``object.__setattr__``: 0.44 µs, paid at every question (7% of a compiled play-out).  This
    writes the slots with their own setters instead, from compiled code when the build is.
    """
    d: Decision = _NEW(_DECISION)
    _SET_PLAYER(d, player)
    _SET_KIND(d, kind)
    _SET_OPTIONS(d, options)
    _SET_PROMPT(d, prompt)
    _SET_SOURCE(d, source)
    return d


def identity(ref: CardRef) -> CardRef:
    """The card itself, whoever holds it: ``(1, "Cook")`` for seat 1's Cook, held as ``"Cook#1"`` or not."""
    seat, name = ref
    if seat is None or "#" not in name:
        return ref
    base, _, mark = name.partition("#")
    return int(mark), base


class Suspend(Exception):
    """Raised when a step needs an answer that is not there yet."""


class Resume:
    """Where a flow step stopped at its question: what it does with the answer, as plain data.

    A flow step asks at most one question a call, so run again from its start with the answer
    it replays exactly what it did before asking, then goes on.  The working copy that asked
    keeps one of these (``Work.resume``) and finishes the step where it stopped instead
    (``driver.answer``): the same moves, without the work before the question done twice.  It
    is never frozen: a game thawed from its state runs the step again, with the same result.
    """

    __slots__ = ()

    def answer(self, w: Work, key: str) -> None:
        """Do what the step does with ``key`` once asked, to the end of the step's call."""
        raise NotImplementedError


class Seat:
    """One seat's zones; ``hand`` is kept sorted by rank."""

    __slots__ = ("hand", "ship", "graveyard", "loot", "coins", "score", "kept", "kept_loot", "removed")

    def __init__(self, p: PlayerState) -> None:
        self.hand = list(p.hand)
        self.ship = list(p.ship)
        self.graveyard = list(p.graveyard)
        self.loot = list(p.loot)
        self.coins = p.doubloons
        self.score = p.score
        self.kept = list(p.kept)
        self.kept_loot = list(p.kept_loot)
        self.removed = list(p.removed)

    def pile(self, name: str) -> list[str]:
        """The pile called ``name``: a branch each, so that compiled code reads the field from the struct."""
        if name == "hand":
            return self.hand
        if name == "ship":
            return self.ship
        if name == "graveyard":
            return self.graveyard
        pile: list[str] = getattr(self, name)
        return pile


class Asker:
    """Whoever asks a question: the answers it has been given, and ``pos``, how many its current step used.

    A base class rather than a union of the two kinds, so that the compiled build reads both fields
    from the object's struct at every question.
    """

    __slots__ = ("answers", "pos")

    answers: list[str]
    pos: int


class Frame(Asker):
    """A running ability; ``pos`` counts the answers used by the current step.

    ``marks`` holds one slot per binder step of the program (``engine.program.base``):
    what "it", "one returned" or "you did" will read.
    """

    __slots__ = ("source", "index", "seat", "this", "pc", "marks", "code", "origin")

    def __init__(self, source: str, index: int, seat: int, this: CardRef | None, code: tuple[Instruction, ...],
                 origin: CardRef | None, slots: int = 0) -> None:
        """A fresh start of the ability (``thaw`` resumes a suspended one)."""
        self.code = code
        self.source = source
        self.index = index
        self.seat = seat
        self.this = this
        self.pc = 0
        self.answers: list[str] = []
        self.pos = 0
        self.marks: list[Mark | None] = [None] * slots if slots else _NO_MARKS
        self.origin = origin

    @classmethod
    def thaw(cls, fs: FrameState, code: tuple[Instruction, ...]) -> Frame:
        f = cls(fs.source, fs.index, fs.seat, fs.this, code, fs.origin)
        f.pc = fs.pc
        f.answers = list(fs.answers)
        f.marks = list(fs.marks) if fs.marks else _NO_MARKS
        return f

    def freeze(self) -> FrameState:
        return FrameState(self.source, self.index, self.seat, self.this, self.pc, tuple(self.answers),
                          tuple(self.marks), self.origin)


_NO_MARKS: Final[list[Mark | None]] = []
"""The marks of a program without binders: shared, never written (no slot to write)."""


class FlowAnswers(Asker):
    """The answers the game flow itself (not an ability) has been given."""

    __slots__ = ()

    def __init__(self, answers: tuple[str, ...]) -> None:
        self.answers = list(answers)
        self.pos = 0


class Answerer:
    """Whoever answers a working copy's questions where they are asked (live play: ``Work.answerer``).

    A native base class rather than a callable, so that the compiled build calls ``ask`` through its
    vtable at every question, and an answerer that needs no ``Decision`` (``driver.LiveAnswers`` with
    the library's bots) builds none.
    """

    __slots__ = ()

    def ask(self, w: Work, seat: int, kind: str, options: Sequence[Option], prompt: str, source: str | None) -> str:
        """The answer; by default ``decide`` is given it as a ``Decision`` (``w.decision`` meanwhile)."""
        d = w.decision = new_decision(seat, kind, tuple(options), prompt, source)
        key = self.decide(d)
        w.decision = None
        return key

    def decide(self, d: Decision) -> str:
        raise NotImplementedError


Queued = tuple[int, str, int, CardRef | None, bool, bool]
"""A ``PendingState`` while the engine runs, as a plain tuple: (seat, source, index, this, late, first)."""


# Interpreted code may subclass the working copy (libertalia.testing.moments watches its log).
@mypyc_attr(allow_interpreted_subclasses=True)
class Work:
    """A game in progress, mutable, owned by one ``choose()`` call."""

    __slots__ = (
        "rules", "tables", "n", "seats", "track", "island", "days", "aside", "bag", "undealt", "voyage", "day", "step",
        "cursor", "sub", "order", "commits", "frames", "queue", "flow", "seed", "counter", "census", "net",
        "extra", "just_took", "left_of_neutral", "decision", "old_journal", "journal", "history", "answerer",
        "answered", "moves", "checked_moves", "checked_queue", "automa", "solo_deck", "solo_discard", "ranks",
        "watching", "no_effect", "setup", "handicap", "loot_may_move", "contested", "resume",
    )

    def __init__(self, rules: Rules, s: GameState) -> None:
        self.rules = rules
        self.tables = rules.tables  # what the hot paths read (``specs.Tables``)
        self.n = s.players
        self.seats = [Seat(p) for p in s.seats]
        self.track = list(s.track)
        self.island: list[CardRef] = list(s.island)
        self.days = [list(d) for d in s.days]
        self.aside = list(s.aside)
        self.bag = dict(s.bag)  # every kind, in board order, zeros included
        self.undealt = list(s.undealt)
        self.voyage = s.voyage
        self.day = s.day
        self.step = s.step
        self.cursor = s.cursor
        self.sub = s.sub
        self.order = list(s.order)
        self.commits = list(s.commits)
        self.frames = [Frame.thaw(f, rules.sources[f.source][f.index].code) for f in s.frames]
        self.queue: list[Queued] = [(q.seat, q.source, q.index, q.this, q.late, q.first) for q in s.queue]
        self.flow = FlowAnswers(s.flow_answers)
        self.seed = s.seed
        self.counter = s.counter
        self.census = s.census
        self.net = list(s.net) if s.net is not None else None
        self.extra = {(seat, kind): n for seat, kind, n in s.extra}
        self.just_took = dict(s.just_took)
        self.left_of_neutral = s.left_of_neutral
        self.decision: Decision | None = None
        self.old_journal = s.journal
        # Events since the thaw, packed only when frozen (``journal_bytes``); None: no log.
        self.journal: list[journal.Entry] | None = [] if s.journal is not None else None
        self.history = list(s.history)
        # Live mode (``Game.play_out``): questions are answered on the spot by this ``Answerer``,
        # so no step is suspended and re-run.  ``answered`` counts its answers.
        self.answerer: Answerer | None = None
        self.answered = 0
        # Counts changes of the island or of any seat's piles, so that a queue checked
        # since the last one (``flow._drain``) is not checked again.
        self.moves = 0
        self.checked_moves = -1  # ``moves`` and the queue's length at that check (-1: not checked)
        self.checked_queue = -1
        self.automa = s.automa
        self.solo_deck = list(s.solo_deck)
        self.solo_discard = list(s.solo_discard)
        self.ranks = dict(s.ranks)  # island rank overrides (S2), by card
        self.watching = s.watching
        self.no_effect = list(s.no_effect)
        # Whether an ability now queued may move held loot (``flow._queued``): unknown after a thaw, so True.
        self.loot_may_move = True
        # The anchor classes whose order may matter (``flow._contested``): unknown (None) after a thaw.
        self.contested: set[tuple[int, int]] | None = None
        # The flow step that stopped at the question now asked, if it was one (``Resume``):
        # set when it suspends, cleared when it resumes and whenever ``flow.run`` starts.
        self.resume: Resume | None = None
        self.setup = s.setup  # how the game began: carried, never changed
        self.handicap = s.handicap

    def freeze_seats(self) -> tuple[PlayerState, ...]:
        space = {token: i for i, token in enumerate(self.track)}
        return tuple(
            PlayerState(
                i, p.coins, p.score, space.get(i, 0),
                tuple(p.hand), tuple(p.ship), tuple(p.graveyard),
                tuple(p.loot), tuple(p.kept), tuple(p.kept_loot), tuple(p.removed),
            )
            for i, p in enumerate(self.seats)
        )

    def freeze(self) -> GameState:
        seats = self.freeze_seats()
        return GameState(
            players=self.n,
            seats=seats,
            track=tuple(self.track),
            island=tuple(self.island),
            days=tuple(tuple(d) for d in self.days),
            aside=tuple(self.aside),
            bag=tuple(self.bag.items()),
            undealt=tuple(self.undealt),
            voyage=self.voyage,
            day=self.day,
            step=self.step,
            cursor=self.cursor,
            sub=self.sub,
            order=tuple(self.order),
            commits=tuple(self.commits),
            frames=tuple(f.freeze() for f in self.frames),
            queue=tuple(PendingState(*q) for q in self.queue),
            flow_answers=tuple(self.flow.answers),
            seed=self.seed,
            counter=self.counter,
            census=self.census,
            net=tuple(self.net) if self.net is not None else None,
            extra=tuple(sorted((s, k, n) for (s, k), n in self.extra.items() if n)) if self.extra else (),
            just_took=tuple(self.just_took.items()),
            left_of_neutral=self.left_of_neutral,
            decision=self.decision,
            journal=self.journal_bytes(),
            automa=self.automa,
            solo_deck=tuple(self.solo_deck),
            solo_discard=tuple(self.solo_discard),
            ranks=tuple(self.ranks.items()),
            watching=self.watching,
            no_effect=tuple(self.no_effect),
            history=tuple(self.history),
            setup=self.setup,
            handicap=self.handicap,
        )

    # ------------------------------------------------------------ questions
    def ask(self, asker: Asker, seat: int, kind: str, options: Sequence[Option], prompt: str,
            source: str | None) -> str:
        """The answer to a question, or suspend the game until it is given.

        A question with one option answers itself; callers never ask with
        none (R1: a choice with no legal option is skipped).
        """
        key = self.question(asker, seat, kind, options, prompt, source)
        if key is None:
            raise Suspend
        return key

    def question(self, asker: Asker, seat: int, kind: str, options: Sequence[Option], prompt: str,
                 source: str | None) -> str | None:
        """``ask`` for the game flow's own questions: ``None`` where ``ask`` would raise ``Suspend``.

        The question is then ``self.decision``, and the flow step that asked returns at once, as
        an exception would have made it, and ``flow.run`` stops there.  Compiled, an exception
        costs a traceback entry (a code object and a frame) for each function it leaves, at
        every question of a ``choose()`` line; a return costs nothing.
        """
        if len(options) == 1:
            return options[0].key
        if seat == self.automa:  # Automa's choices follow fixed rules; nobody is asked (solo)
            return automa.choose(self, kind, options)
        pos = asker.pos
        asker.pos += 1
        if pos < len(asker.answers):
            return asker.answers[pos]
        answerer = self.answerer
        if answerer is None:
            self.decision = new_decision(seat, kind, tuple(options), prompt, source)
            return None
        key = answerer.ask(self, seat, kind, options, prompt, source)  # checked, and recorded in ``history``
        self.answered += 1
        return key

    def push_frame(self, source: str, index: int, seat: int, this: CardRef | None,
                   origin: CardRef | None = None) -> None:
        """Start an ability; ``origin`` is the card whose text runs, when another card borrows it.

        A loot tile's ability runs no card's text: its origin is None, so that it may borrow
        the ability of the character that took it.
        """
        ability = self.tables.running[source][index]
        if origin is None and source[0] == "c":
            origin = this
        self.frames.append(Frame(source, index, seat, this, ability.code, origin, ability.slots))

    def push_loot_abilities(self, seat: int, kind: str, timing: str, taker: CardRef | None) -> None:
        """Resolve a token's ``timing`` abilities now (R6: only when taken from a day or the bag)."""
        spec = self.rules.loot_spec(kind)
        for i in reversed(range(len(spec.compiled))):
            if spec.compiled[i].timing == timing:
                self.push_frame(f"l:{kind}", i, seat, taker)

    def journal_bytes(self) -> bytes | None:
        """The whole log, packed (``None`` for a game without one)."""
        if self.journal is None or self.old_journal is None:
            return None
        if self.journal:
            out = bytearray(self.old_journal)
            journal.encode_cached(out, self.rules.lexicon_ids, self.journal, self.rules.event_cache)
            self.old_journal = bytes(out)
            self.journal.clear()
        return self.old_journal

    def log(self, template: int, *args: object) -> None:
        """Record an event: a ``journal`` template number and its arguments (its sentence is written when read)."""
        if self.journal is not None:
            frames = self.frames
            if frames and template != BORROW_BY:
                f = frames[-1]
                this = f.this
                if this is not None and f.origin is not None and f.origin != this and f.source[0] == "c":
                    self.journal.append((VIA, (this[1],)))  # a borrowed text's event: name who ran it
            self.journal.append((template, args))

    def random(self, n: int) -> int:
        value = rng.draw(self.seed, self.counter, n)
        self.counter += 1
        return value

    # ------------------------------------------------------------ lookups
    def reputation(self, seat: int) -> int:
        """Track space (0 = leftmost); 0 for everyone in an edition without a track."""
        return self.track.index(seat) if self.track else 0

    def key_for(self, ref: CardRef, asker_seat: int) -> str:
        seat, name = ref
        return name if seat == asker_seat else f"{name}@{seat}"

    def on_island(self, ref: CardRef) -> bool:
        """``ref in self.island``, compared field by field.

        Compiled, a ``CardRef`` argument is held unboxed: ``in`` would box it into a new tuple at every
        call and compare it with each card's tuple in generic code; this compares names (strings)
        first and the seat only when the name matches.
        """
        seat, name = ref
        for r in self.island:  # noqa: SIM110 - a plain loop, as the compiled build runs it
            if r[1] == name and r[0] == seat:
                return True
        return False

    def zone_of(self, ref: CardRef) -> str | None:
        if self.on_island(ref):
            return "island"
        seat, name = ref
        if seat is None:
            return None
        p = self.seats[seat]
        if name in p.hand:
            return "hand"
        if name in p.ship:
            return "ship"
        if name in p.graveyard:
            return "graveyard"
        return None

    def in_zone(self, ref: CardRef, zone: str) -> bool:
        """Whether the card is in ``zone`` ("island" or a pile): ``zone_of(ref) == zone``, cheaper."""
        if zone == "island":
            return self.on_island(ref)
        seat, name = ref
        if seat is None:
            return False
        p = self.seats[seat]
        pile = p.ship if zone == "ship" else p.pile(zone)
        return name in pile and not self.on_island(ref)

    def adjacent(self, seat: int) -> list[int]:
        """R12: seat neighbours, wrapping; one opponent counts once."""
        if self.n < 2:
            return []
        left, right = (seat - 1) % self.n, (seat + 1) % self.n
        return [left] if left == right else sorted({left, right})

    def today(self) -> list[str]:
        return self.days[self.day - 1] if 0 < self.day <= len(self.days) else []

    def tomorrow(self) -> list[str] | None:
        return self.days[self.day] if self.day < len(self.days) else None

    def bag_tokens(self) -> list[str]:
        return [k for k, n in self.bag.items() for _ in range(n)]

    # ------------------------------------------------------------ doubloons and reputation
    def gain(self, seat: int, n: int) -> None:
        if self.net is not None:
            self.net[seat] += n
        else:
            self.seats[seat].coins += n

    def lose(self, seat: int, n: int) -> None:
        """R2: coins floor at 0; at anchor losses are netted instead (R3)."""
        if self.net is not None:
            self.net[seat] -= n
        else:
            p = self.seats[seat]
            p.coins = max(0, p.coins - n)

    def change_reputation(self, seat: int, steps: int, source: str = "") -> None:
        """Move right (positive) or left, sliding passed tokens; R28 overflow.

        ``source`` is the card or loot kind whose ability moves it, for the log ("": none).
        """
        if not self.track:
            return
        pos = self.track.index(seat)
        target = pos + steps
        last = len(self.track) - 1
        over = 0
        if target > last:
            over, target = target - last, last
        elif target < 0:
            over, target = target, 0
        if target != pos:
            self._move_token(seat, pos, target, source)
        overflow = self.tables.overflow * over
        if overflow > 0:
            self.gain(seat, overflow)
        elif overflow < 0:
            self.lose(seat, -overflow)
        if overflow:
            self.log(OVERFLOW_BY, seat, overflow, source)

    def _move_token(self, seat: int, pos: int, target: int, source: str) -> None:
        """Move a token, sliding those it passes one space back; seats pushed are logged."""
        self.track.pop(pos)
        self.track.insert(target, seat)
        low, high = min(pos, target), max(pos, target)
        for space in range(low, high + 1):
            token = self.track[space]
            if token != seat and token < self.n:
                self.log(PUSHED_BY, token, space, seat, source)

    def move_reputation_to(self, seat: int, end: str, source: str = "") -> int:
        if not self.track:
            return 0
        pos = self.track.index(seat)
        target = 0 if end == "leftmost" else len(self.track) - 1
        if target != pos:
            self._move_token(seat, pos, target, source)
        return abs(target - pos)

    # ------------------------------------------------------------ characters
    def sort_key(self, ref: CardRef) -> tuple[float, float]:
        """Rank, then the board's tie rule: reputation (R4) or printed tie-breakers (C1)."""
        seat, name = ref
        rank = self.ranks[ref] if self.ranks and ref in self.ranks else self.tables.ranks[name]
        if seat is None:
            return (rank, -1.0)  # a neutral card goes left on ties (S1)
        tie_breakers = self.tables.tie_breakers
        if tie_breakers is not None:
            return (rank, float(tie_breakers[self.tables.ranks[name]][seat]))
        return (rank, float(self.track.index(seat)))

    def rank_order(self, ref: CardRef) -> tuple[float, float]:
        """Where ``ref`` stands among cards ranked by "highest-" and "lowest-ranked": rank, then R4's tie rule.

        On the island both are read from the island as it lies: its rank there (S2's "no effect" rank
        included, which re-sorts it) and its place (the order is fixed at reveal).  Elsewhere the printed
        rank, and the board's tie rule now.
        """
        island = self.island
        if ref in island:
            return (self.sort_key(ref)[0], float(island.index(ref)))
        return (self.tables.ranks[ref[1]], self.sort_key(ref)[1])

    def insert_on_island(self, ref: CardRef) -> None:
        """Place by rank; R4's tie rule against the cards already there.  By day it joins the walk (E26)."""
        key = self.sort_key(ref)
        island = self.island
        i = 0
        while i < len(island) and self.sort_key(island[i]) <= key:
            i += 1
        island.insert(i, ref)
        self.moves += 1
        if self.step == "sun":
            self._join_walk(ref, i)

    def _join_walk(self, ref: CardRef, at: int) -> None:
        """E26: a card arriving by day waits just before the first waiting card right of it (``island[at]``).

        So it acts when the walk reaches its place, or, landing left of every waiting card,
        as soon as the running ability is done; cards arriving together act left to right,
        whatever order they came in.  A card that has had its turn today (it left and came
        back) gets no second one: it only takes its new name in the walk.
        """
        order, cursor = self.order, self.cursor
        me = identity(ref)
        for j in range(cursor):
            if identity(order[j]) == me:
                order[j] = ref
                return
        right = self.island[at + 1:]
        j = cursor
        while j < len(order) and order[j] not in right:
            j += 1
        order.insert(j, ref)

    def _leave_walk(self, ref: CardRef) -> None:
        """R5: a card that leaves the island before its sun turn loses it (one that had it stays, as done)."""
        order = self.order
        for j in range(self.cursor, len(order)):
            if order[j] == ref:
                del order[j]
                return

    def leave_island(self, ref: CardRef) -> bool:
        """``remove`` for a card that is on the island, if it is (``False``, and nothing done, if not).

        The island is a handful of cards: one look there, instead of ``remove``'s look at every zone.
        """
        if not self.on_island(ref):
            return False
        self.moves += 1
        self._off_island(ref)
        return True

    def _off_island(self, ref: CardRef) -> None:
        self.island.remove(ref)
        if self.step == "sun":
            self._leave_walk(ref)

    def remove(self, ref: CardRef) -> str | None:
        """Take a character out of wherever it is; returns the zone it left."""
        zone = self.zone_of(ref)
        self.moves += 1
        if zone == "island":
            self._off_island(ref)
        elif zone is not None:
            seat, name = ref
            assert seat is not None
            p = self.seats[seat]
            p.pile(zone).remove(name)
            if zone == "ship" and name in p.kept:
                p.kept.remove(name)  # a kept character that leaves the ship is no longer kept
        return zone

    def discard(self, ref: CardRef, by: tuple[int, str] | None = None) -> bool:
        """To its owner's graveyard; a neutral card can never be discarded.

        ``by`` is who discards it and with what (a seat and a card or loot kind), for the log.
        """
        seat, name = ref
        if seat is None or self.zone_of(ref) is None:
            return False
        zone = self.remove(ref)
        self.seats[seat].graveyard.append(name)
        if by is None:
            self.log(DISCARDED, seat, name, zone or "")
        else:
            self.log(DISCARDED_BY, by[0], by[1], seat, name, zone or "")
        return True

    def take_over(self, ref: CardRef, seat: int, source: str = "") -> CardRef | None:
        """Make another player's character ``seat``'s, where it stands; its new reference.

        Every seat plays from the same deck, so a card that changes hands keeps
        its first owner's mark: seat 1's Cook held by seat 0 is ``"Cook#1"``
        (and becomes plain ``"Cook"`` again if it goes home).  Ranks, texts and
        keys all follow the mark (``Rules`` knows every marked name).  ``source`` is the card
        or loot kind whose ability takes it, for the log ("": none).
        """
        owner, name = ref
        if owner is None or self.zone_of(ref) is None:
            return None
        if owner == seat:
            return ref
        base, _, mark = name.partition("#")
        new_name = base if (mark and int(mark) == seat) else (name if mark else f"{name}#{owner}")
        zone = self.zone_of(ref)
        new = (seat, new_name)
        if zone == "island":
            i = self.island.index(ref)
            self.island[i] = new
            self.moves += 1
            if self.step == "sun" and ref in self.order:  # the day's walk follows the card (E26)
                self.order[self.order.index(ref)] = new
        else:
            assert zone is not None
            self.remove(ref)
            self.seats[seat].pile(zone).append(new_name)
        self.log(TAKEN_OVER, seat, owner, base, zone, source)
        return new

    def put(self, ref: CardRef, pile: str, source: str = "") -> bool:
        """Into another of its owner's piles; ``source`` as for ``take_over``."""
        seat, name = ref
        if seat is None or self.zone_of(ref) is None:
            return False
        came_from = self.remove(ref)
        self.seats[seat].pile(pile).append(name)
        if pile == "hand":
            self.seats[seat].hand.sort(key=self.tables.ranks.__getitem__)  # hands stay sorted by rank
        if pile == "hand" and came_from == "graveyard":
            # Face-down cards: others learn that a card moved, not which (Surgeon).
            self.log(GRAVEYARD_TO_HAND_BY, seat, source)
        else:
            self.log(MOVED, seat, name, came_from or "", pile, source)
        return True

    # ------------------------------------------------------------ loot
    def draw_from_bag(self) -> str | None:
        """A uniformly random token: index into the tokens laid out in board order."""
        total = sum(self.bag.values())
        if not total:
            return None
        r = self.random(total)
        for kind, n in self.bag.items():
            if r < n:
                self.bag[kind] = n - 1
                return kind
            r -= n
        raise AssertionError("unreachable: r < total")

    def draw_many_from_bag(self, n: int) -> list[str]:
        """Up to ``n`` tokens, each drawn as ``draw_from_bag`` would (a day's loot at voyage start)."""
        bag = self.bag
        total = sum(bag.values())
        drawn = []
        for _ in range(min(n, total)):
            r = self.random(total)
            for kind, left in bag.items():
                if r < left:
                    bag[kind] = left - 1
                    drawn.append(kind)
                    break
                r -= left
            total -= 1
        return drawn

    def to_bag(self, kind: str) -> None:
        self.bag[kind] += 1
