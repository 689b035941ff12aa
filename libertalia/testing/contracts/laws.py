"""Each step kind's law, checked against what one run of the step did.

``check(seen)`` compares the game before and after a step, and the events it logged, with the
step's contract (``CONTRACT`` on its class, ``engine.program``) and its fields.  Nothing here
calls a step's own code: what the step should have done is worked out from the rules by
``oracle``, and what it did is read from the two snapshots and the events.

Every step, whatever its kind, must change only the parts its contract names (a character that
leaves a ship, or a token that leaves its holder, loses its kept mark with it), log only event
kinds it names, write only its own mark, keep hands in rank order and, by day, keep the walk
right (R5, E26).  Then ``LAWS`` holds, per kind, what its contract's ``law`` says in words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import attrs

from ... import events as ev
from ...engine.program import actions as act
from ...engine.program import amounts as amt
from ...engine.program import control as ctl
from ...engine.program import loot as lootsel
from ...engine.program.base import NOTHING_DONE
from ...engine.program.kinds import of_kind
from ...engine.specs import Rules
from ...state import CardRef, Event, Mark
from . import oracle
from .oracle import Place, View
from .snapshot import Snap, changed_fields, changed_parts

Problems = list[str]


class Seen:
    """One run of one step: the step, where it ran, the game around it and what it logged.

    ``outcome`` is ``done`` (it returned ``next_pc``), ``suspended`` (it stopped for an answer)
    or ``unbound`` (it gave up: a word of it names nobody).
    """

    __slots__ = ("step", "pc", "next_pc", "outcome", "before", "after", "events", "rules", "seat", "this",
                 "source", "view", "changed", "asked", "_after_view")

    def __init__(self, step: Any, pc: int, next_pc: int | None, outcome: str, before: Snap, after: Snap,
                 events: tuple[Event, ...], rules: Rules, seat: int, this: CardRef | None, source: str,
                 asked: bool = False) -> None:
        self.step = step
        self.pc = pc
        self.next_pc = next_pc
        self.outcome = outcome
        self.before = before
        self.after = after
        self.events = events
        self.rules = rules
        self.seat = seat
        self.this = this
        self.source = source
        self.view = View(before, rules, seat, this, source)
        self.changed = changed_parts(before, after)  # the parts of the game the step changed
        self.asked = asked  # the run used an answer: some player was asked a question it put
        self._after_view: View | None = None

    @property
    def name(self) -> str:
        """The source as events name it: the card (as held, ``Cook#1``) or the loot kind."""
        return self.source[2:]

    @property
    def after_view(self) -> View:
        if self._after_view is None:
            self._after_view = View(self.after, self.rules, self.seat, self.this, self.source)
        return self._after_view


# ------------------------------------------------------------------ the generic checks
def check(s: Seen) -> Problems:
    """Every way this run of the step broke its contract (empty: it kept it)."""
    step = s.step
    contract = type(step).CONTRACT
    out: Problems = []
    changed = s.changed
    if s.outcome != "done":
        what = "stopped to ask a question" if s.outcome == "suspended" else "gave up (a word of it names nobody)"
        if changed:
            out.append(f"it {what} after changing {_parts(s, changed)}: a step asks first and changes after, "
                       "and one that gives up changes nothing")
        if s.events:
            out.append(f"it {what} after logging {_texts(s.events)}")
        own = {step_mark(step), *_subject_slots(step)}
        # Its own slots only: giving up, a binder says it named nobody; stopping, "the owner of …"
        # may have named its characters already, which the step names again when it re-runs.
        written = [i for i in _slots(s) if i not in own or (s.outcome == "unbound"
                                                            and s.after.marks[i] != NOTHING_DONE)]
        if written:
            out.append(f"it {what} after writing marks {written}")
        if s.outcome == "unbound" and not _unbound(step, s.view):
            out.append("it gave up as if a word of it named nobody, but every word it points back with is bound")
        return out
    law = LAWS.get(type(step))
    if law is None:
        return [f"there is no law for {type(step).__name__} steps in libertalia.testing.contracts.laws"]
    undeclared = changed - contract.changes - {"flow"}
    if "kept" in undeclared and _kept_follows(s.before, s.after):
        undeclared.discard("kept")  # a character leaving a ship, a token its holder: the mark goes with it
    if undeclared:
        out.append(f"it changed {_parts(s, undeclared)}, which its contract does not name "
                   f"(it may change: {', '.join(sorted(contract.changes)) or 'nothing'})")
    if "flow" in changed:
        out.append(f"it changed the game's flow ({', '.join(changed_fields(s.before, s.after, 'flow'))}), "
                   "which no step may")
    kinds = sorted({e.kind for e in s.events} - contract.events)
    if kinds:
        out.append(f"it logged events of kind {', '.join(kinds)}, which its contract does not name: "
                   + _texts([e for e in s.events if e.kind in kinds]))
    allowed = {step_mark(step), *_subject_slots(step)} - {-1}
    stray = [i for i, (a, b) in enumerate(zip(s.before.marks, s.after.marks, strict=True)) if a != b
             and i not in allowed]
    if stray:
        out.append(f"it wrote the marks of slots {stray}, which belong to other steps")
    if "cards" in changed:
        _hands_in_order(s, out)
        if s.after.step == "sun":
            _walk(s, out)
    _facts(s, out)
    try:
        law(step, s, out)
    except oracle.Unbound:
        out.append("it ran, but a word of it points back to a character nobody named: it should do nothing")
    return out


# ------------------------------------------------------------------ facts that hold whatever the words say
def _facts(s: Seen, out: Problems) -> None:
    """What holds of every step that ran, read from the game alone (no reading of its words).

    - cards and tokens only move: none appears, none vanishes;
    - "you did" (the step's mark) is whether the step changed the game;
    - a gain never lowers a purse, a loss never raises one, a payer never ends richer nor the payee poorer;
    - every seat an event names sits at the table;
    - E25: "the owner of a …" offers only characters whose owner the action changes something for,
      so a pick made there changed something;
    - E42: "a player of your choice" likewise offers only players the action changes something for (one
      is taken unasked, and with none nothing happens), so a step that asked its way through it changed
      something.
    """
    b, a, step = s.before, s.after, s.step
    if b.island != a.island or b.hand != a.hand or b.ship != a.ship or b.graveyard != a.graveyard:
        cards_was, cards_now = _every_card(b), _every_card(a)
        if cards_was != cards_now:
            out.append(f"cards appeared ({_listed(cards_now - cards_was)}) or vanished "
                       f"({_listed(cards_was - cards_now)}): cards only move")
    if b.loot != a.loot or b.days != a.days or b.bag != a.bag or b.aside != a.aside:
        was, now = _every_token(b), _every_token(a)
        if was != now:
            out.append(f"tokens appeared ({_listed(now - was)}) or vanished ({_listed(was - now)}): tokens only move")
    slot = step_mark(step)
    mark = a.marks[slot] if 0 <= slot < len(a.marks) else None
    if mark is not None:
        did, changed = mark[3], bool(s.changed - {"random"})
        if did != changed:
            out.append(f"its mark says it did {'something' if did else 'nothing'}, but it changed "
                       f"{'nothing' if not changed else _parts(s, s.changed - {'random'})}")
    sign = (step.n > 0) - (step.n < 0) if isinstance(step, act.GainCoins) else \
        (1 if step.gain else -1) if isinstance(step, act.Change) else 0
    for purse, was_, now_ in (("doubloons", b.coins, a.coins), ("net change", b.net, a.net)):
        for seat, (x, y) in enumerate(zip(was_ or (), now_ or (), strict=True)):
            if (y - x) * sign < 0 or (isinstance(step, act.PaysYou) and (y - x) * (1 if seat == s.seat else -1) < 0):
                out.append(f"seat {seat}'s {purse} went from {x} to {y}, against the way its words move them")
    for e in s.events:
        named = [getattr(e, f, None) for f in ("seat", "payer", "target_seat", "by_seat", "to_seat", "from_seat")]
        named += list(getattr(e, "from_seats", None) or ())
        if any(x is not None and not 0 <= x < s.view.n for x in named):
            out.append(f"the event '{e.text}' names a seat nobody sits in")
    subject = getattr(step, "subject", None)
    if isinstance(subject, amt.OwnersOf) and amt.asks(subject.target) and not s.changed - {"random"}:
        out.append("the owner picked a character for \"the owner of a …\", and the action then changed nothing "
                   "(E25: only a pick that changes something is offered)")
    chosen = [f for f in ("subject", "to") if isinstance(getattr(step, f, None), amt.ChosenPlayer)]
    if chosen and s.asked and not s.changed - {"random"}:
        out.append("a player was chosen for \"a player of your choice\" after a question, and the action then "
                   "changed nothing (E42: only a player the action changes something for is offered)")


def _every_card(snap: Snap) -> Counter[CardRef]:
    """Every character in the game, as itself (first owner, printed name), wherever it stands."""
    found: Counter[CardRef] = Counter(_identity(*r) for r in snap.island)
    for pile in _PILES:
        found.update(_identity(seat, name) for seat, names in enumerate(getattr(snap, pile)) for name in names)
    return found


def _every_token(snap: Snap) -> Counter[str]:
    """Every loot token in play: on each day of the voyage, in the bag, held, or set aside."""
    found: Counter[str] = Counter(dict(snap.bag))
    for tokens in (*snap.days, *snap.loot, snap.aside):
        found.update(tokens)
    return +found


def _listed(items: Counter[Any]) -> str:
    return ", ".join(f"{n} x {k}" for k, n in sorted(items.items(), key=str)) or "none"


def step_mark(step: Any) -> int:
    mark: int = getattr(step, "mark", -1)
    return mark


def _subject_slots(step: Any) -> list[int]:
    """The slots of "the owner of …" phrases of a step: they name characters, and leave marks."""
    out = []
    for field in ("subject", "to"):
        players = getattr(step, field, None)
        if isinstance(players, amt.OwnersOf):
            out.append(players.slot)
    return out


def _parts(s: Seen, parts: set[str]) -> str:
    return "; ".join(f"{p} ({', '.join(changed_fields(s.before, s.after, p))})" for p in sorted(parts))


def _texts(events: Sequence[Event]) -> str:
    return "[" + "; ".join(e.text for e in events) + "]" if events else "nothing"


def _slots(s: Seen) -> list[int]:
    return [i for i, (a, b) in enumerate(zip(s.before.marks, s.after.marks, strict=True)) if a != b]


def _kept_follows(before: Snap, after: Snap) -> bool:
    """Whether every kept mark that changed went with a character leaving its ship or a token its holder.

    Marks only go: a seat's kept characters are those it kept that are still aboard; its kept tokens
    are no more than it kept, no more than it holds, and fewer only where its loot changed.
    """
    for seat, kept in enumerate(before.kept):
        if after.kept[seat] != tuple(k for k in kept if k in after.ship[seat]):
            return False
    for seat, kept_loot in enumerate(before.kept_loot):
        was, now, held = Counter(kept_loot), Counter(after.kept_loot[seat]), Counter(after.loot[seat])
        if now - was or any(now[k] > held[k] for k in now):
            return False
        if now != was and before.loot[seat] == after.loot[seat]:
            return False
    return True


def _hands_in_order(s: Seen, out: Problems) -> None:
    rank = s.rules.rank
    for seat, hand in enumerate(s.after.hand):
        ranks = [rank(name) for name in hand]
        if ranks != sorted(ranks):
            out.append(f"seat {seat}'s hand is out of rank order: {list(hand)}")


def _walk(s: Seen, out: Problems) -> None:
    """By day every card on the island is in the day's walk, and every card still waiting is on the island."""
    a = s.after
    waiting = a.order[a.cursor:]
    for ref in waiting:
        if ref not in a.island:
            out.append(f"{_card(ref)} left the island but still waits for its sun turn (R5)")
    for ref in a.island:
        if ref not in a.order:
            out.append(f"{_card(ref)} is on the island by day but not in the day's walk: it never takes its sun "
                       "turn (E26)")


_card = oracle.card_name


def _unbound(step: Any, v: View) -> bool:
    """Whether a word the step points back with ("it", "its owner", "the owner of …") names nobody now.

    "The owner of a …" that the owner picks may name nobody the action can change (E25): which is
    the engine's reading of the action, not restated here, so giving up there is allowed.
    """
    try:
        target = getattr(step, "target", None)
        if target is not None:
            oracle.expect(target, v, lambda r: True)
        for field in ("subject", "to"):
            players = getattr(step, field, None)
            if isinstance(players, amt.OwnersOf) and amt.asks(players.target):
                return True
            if players is not None and field == "to" and oracle.subjects(players, v).exact == []:
                return True
            if players is not None:
                oracle.subjects(players, v)
    except oracle.Unbound:
        return True
    return False


# ------------------------------------------------------------------ shared parts of the laws
def _next(s: Seen, out: Problems) -> None:
    if s.next_pc != s.pc + 1:
        out.append(f"it went on to step {s.next_pc}, not to the next step ({s.pc + 1})")


def _events(s: Seen, want: Sequence[Event], out: Problems) -> None:
    """The step logged exactly ``want``, in order; a borrowed text's events name the character running it.

    ``borrower`` is compared apart: the laws restate what a step does, whoever's text it is, and an
    event's borrower, when there is one, must be the character whose frame ran the step (``this``).
    """
    runner = s.this[1] if s.this is not None else None
    wrong = [e for e in s.events if e.borrower is not None and e.borrower != runner]
    if wrong:
        out.append(f"it logged {_texts(wrong)} as borrowed by {wrong[0].borrower}, not by {runner}")
    logged = tuple(e if e.borrower is None else attrs.evolve(e, borrower=None) for e in s.events)
    if logged != tuple(want):
        out.append(f"it logged {_texts(s.events)}; what it did calls for {_texts(want)}")


def _mark(s: Seen, slot: int, mark: tuple[Any, ...], out: Problems) -> None:
    """The step's mark (what later words read) records what it named, as it stood, and how many it
    affected (whether it did anything is ``check``'s: whether it changed the game)."""
    if slot < 0:
        return
    got = s.after.marks[slot] if slot < len(s.after.marks) else None
    if got is None or got[:len(mark)] != mark:
        out.append(f"its mark (slot {slot}) reads {_show_mark(got)}, but it {_show_mark(mark)}")


def _show_mark(mark: tuple[Any, ...] | None) -> str:
    """A mark in words (``did`` only when it is there: the laws compare the rest)."""
    if mark is None:
        return "nothing"
    cards, before, count, *did = mark
    names = ", ".join(_card(r) for r in cards)
    was = ", ".join(f"{_card(r)} in {z}" for r, z in before)
    return (f"named [{names}]" + (f" (before: {was})" if was else "") + f", counted {count}"
            + "".join(f", did {'something' if d else 'nothing'}" for d in did))


def _doubloons(s: Seen, changes: Sequence[tuple[int, int]], out: Problems) -> None:
    """Each change ``(seat, signed n)`` applied in turn: floored at 0 (R2), or netted at anchor (R3)."""
    coins = list(s.before.coins)
    net = list(s.before.net) if s.before.net is not None else None
    for seat, n in changes:
        if net is not None:
            net[seat] += n
        else:
            coins[seat] = max(0, coins[seat] + n)
    if tuple(coins) != s.after.coins or (tuple(net) if net is not None else None) != s.after.net:
        held = "net change at anchor" if net is not None else "doubloons"
        got = s.after.net if net is not None else s.after.coins
        want = net if net is not None else coins
        out.append(f"the seats' {held} went from {list(s.before.net or s.before.coins)} to {list(got or ())}; "
                   f"{_show_changes(changes)} makes {list(want)}")


def _show_changes(changes: Sequence[tuple[int, int]]) -> str:
    if not changes:
        return "no change"
    return ", ".join(f"seat {seat} {'+' if n >= 0 else ''}{n}" for seat, n in changes)


def _owners(players: Any, s: Seen, out: Problems) -> tuple[list[int] | None, set[int]]:
    """The seats ``players`` names, in order, and every seat it could name.

    For "the owner of …" a choice the step made is read from the phrase's mark, and checked
    against its words; when nothing reads the mark (none is kept) the seats are ``None``: the
    law reads them from the events, and checks them against the seats it could name.  Which of
    the characters described the owner may pick (E25) is not restated: ``check`` asks that a
    pick changed something.
    """
    v = s.view
    if isinstance(players, amt.ChosenPlayer):  # E42: the owner's pick, read from the events, one seat of the pool
        return None, oracle.subjects(players, v).allowed
    if not isinstance(players, amt.OwnersOf):
        found = oracle.subjects(players, v)
        assert found.exact is not None  # only "the owner of …" and "a player of your choice" leave a choice
        return found.exact, found.allowed
    groups = oracle.expect(players.target, v, lambda r: True)
    if not any(groups):
        raise oracle.Unbound
    allowed = {r[0] for g in groups for r in g if r[0] is not None}
    mark = s.after.marks[players.slot] if 0 <= players.slot < len(s.after.marks) else None
    if mark is None:  # nothing reads it: the pick is known only if it was forced
        if any(len(g) > 1 for g in groups):
            return None, allowed
        picked = [g[0] for g in groups if g]
    else:
        picked = list(mark[0])
        problem = oracle.matches(groups, picked)
        if problem:
            out.append(f"\"the owner of …\" {problem}")
        want: Mark = (tuple(picked), tuple((r, v.zone_of(r)) for r in picked), len(picked), True)
        _mark(s, players.slot, want, out)
    return list(dict.fromkeys(r[0] for r in picked if r[0] is not None)), allowed


def _chosen(seats: list[int] | None, allowed: set[int], logged: Sequence[int], out: Problems) -> list[int]:
    """The seats an action was about: as the words fix them, or (a choice nobody reads back) as logged."""
    if seats is not None:
        return seats
    stray = sorted(set(logged) - allowed)
    if stray:
        out.append(f"it acted for seats {stray}, whom its words cannot name (they name one of {sorted(allowed)})")
    return list(dict.fromkeys(x for x in logged if x in allowed))


# ------------------------------------------------------------------ doubloons and reputation
def _gain_coins(step: act.GainCoins, s: Seen, out: Problems) -> None:
    n = step.n
    _doubloons(s, [(s.seat, n)] if n else [], out)
    _events(s, [ev.DoubloonsChanged(s.seat, n, s.name)] if n else [], out)
    _mark(s, step.mark, ((), (), 0), out)
    _next(s, out)


def _change(step: act.Change, s: Seen, out: Problems) -> None:
    v = s.view
    found, allowed = _owners(step.subject, s, out)
    seats = _chosen(found, allowed, [e.seat for e in s.events if isinstance(e, ev.DoubloonsChanged
                                                                          | ev.ReputationChanged)], out)
    sign = 1 if step.gain else -1
    want: list[Event] = []
    changes: list[tuple[int, int]] = []
    track = list(s.before.track)
    board = s.rules.board
    for seat in seats:
        n = oracle.amount(step.amount, v, seat)
        if not n:
            continue
        if not step.reputation:
            changes.append((seat, sign * n))
            want.append(ev.DoubloonsChanged(seat, sign * n, s.name))
            continue
        if not track:
            out.append(f"it changes reputation in an edition without a reputation track (seat {seat}, {sign * n})")
            continue
        pos = track.index(seat)
        target = min(max(pos + sign * n, 0), len(track) - 1)
        over = pos + sign * n - target
        if target != pos:
            want.extend(_slide(track, seat, target, v.n, s.name))
        if over and board.overflow:
            changes.append((seat, over * board.overflow))
            want.append(ev.ReputationOverflowed(seat, over * board.overflow, s.name))
        want.append(ev.ReputationChanged(seat, sign * n, s.name))
    if tuple(track) != s.after.track:
        out.append(f"the track went from {list(s.before.track)} to {list(s.after.track)}; the words make {track}")
    _doubloons(s, changes, out)
    _events(s, want, out)
    _mark(s, step.mark, ((), (), 0), out)
    _next(s, out)


def _slide(track: list[int], seat: int, target: int, players: int, source: str) -> list[Event]:
    """Move ``seat``'s token to ``target`` on ``track`` (in place); the tokens it passes go one space
    back, and each seat's token passed is a ``Pushed`` event, in the order of the spaces."""
    pos = track.index(seat)
    track.pop(pos)
    track.insert(target, seat)
    low, high = min(pos, target), max(pos, target)
    return [ev.Pushed(track[space], space, seat, source) for space in range(low, high + 1)
            if track[space] != seat and track[space] < players]


def _pays_you(step: act.PaysYou, s: Seen, out: Problems) -> None:
    v = s.view
    found, allowed = _owners(step.subject, s, out)
    seats = _chosen(found, allowed, [e.payer for e in s.events if isinstance(e, ev.Paid)], out)
    changes: list[tuple[int, int]] = []
    want: list[Event] = []
    for payer in seats:
        if payer == s.seat:
            continue
        n = min(oracle.amount(step.amount, v, payer), s.before.coins[payer])
        changes += [(payer, -n), (s.seat, n)]
        want.append(ev.Paid(payer, s.seat, n, s.name))
    _doubloons(s, changes, out)
    _events(s, want, out)
    _mark(s, step.mark, ((), (), 0), out)
    _next(s, out)


def _move_reputation(step: act.MoveReputation, s: Seen, out: Problems) -> None:
    track = list(s.before.track)
    want: list[Event] = []
    moved = 0
    if track:
        pos = track.index(s.seat)
        target = 0 if step.end == "leftmost" else len(track) - 1
        moved = abs(target - pos)
        if moved:
            want.extend(_slide(track, s.seat, target, s.view.n, s.name))
    if tuple(track) != s.after.track:
        out.append(f"the track went from {list(s.before.track)} to {list(s.after.track)}; moving seat {s.seat} "
                   f"to the {step.end} space makes {track}")
    want.append(ev.ReputationMovedTo(s.seat, step.end, s.name))
    _events(s, want, out)
    _mark(s, step.mark, ((), (), moved), out)
    _next(s, out)


# ------------------------------------------------------------------ characters
Loc = tuple["int | None", str, str]
"""Where a character is: (holding seat or None, zone, name as held)."""


class Move(NamedTuple):
    card: CardRef  # the card itself: (first owner, printed name)
    before: Loc | None
    after: Loc | None


def _identity(seat: int | None, name: str) -> CardRef:
    base, _, mark = name.partition("#")
    return (int(mark), base) if mark and seat is not None else (seat, name)


_PILES = ("hand", "ship", "graveyard")


def _locations(snap: Snap, where: Sequence[tuple[str, int]]) -> dict[CardRef, Loc]:
    """Where each character of the given piles (``("island", -1)`` for the island) is."""
    out: dict[CardRef, Loc] = {}
    for pile, seat in where:
        if pile == "island":
            out.update({_identity(*r): (r[0], "island", r[1]) for r in snap.island})
        else:
            for name in getattr(snap, pile)[seat]:
                out[_identity(seat, name)] = (seat, pile, name)
    return out


def _moves(s: Seen) -> list[Move]:
    """Every character whose place changed, in the order the step's events name them.

    A card no event names by its mark (one moved face down from a graveyard to a hand) takes its
    place in the order phrases list characters: the island left to right, then each seat's
    ship, hand and graveyard.
    """
    b, a = s.before, s.after
    where = [("island", -1)] if b.island != a.island else []
    where += [(pile, seat) for seat in range(s.view.n) for pile in _PILES
              if getattr(b, pile)[seat] != getattr(a, pile)[seat]]
    if not where:
        return []
    before, after = _locations(b, where), _locations(a, where)
    moves = [Move(card, before.get(card), after.get(card)) for card in {**before, **after}
             if before.get(card) != after.get(card)]
    order = {_event_card(e): i for i, e in reversed(list(enumerate(s.events))) if _event_card(e) is not None}
    listed = {_identity(*r): i for i, r in enumerate(b.island)}
    for seat in range(s.view.n):
        for pile in ("ship", "hand", "graveyard"):
            for name in getattr(b, pile)[seat]:
                listed.setdefault(_identity(seat, name), len(listed))
    return sorted(moves, key=lambda m: (order.get(m.card, len(order)), listed.get(m.card, len(listed))))


def _event_card(e: Event) -> CardRef | None:
    """The card a character event names, as itself (first owner, printed name); None where it cannot
    tell (a card taken over is named by its printed name, whichever seat's copy it is)."""
    if isinstance(e, ev.Discarded):
        return _identity(e.target_seat, e.target)
    if isinstance(e, ev.PutOnIsland | ev.KeptAboard):
        return _identity(e.seat, e.card)
    if isinstance(e, ev.Moved) and e.card is not None:
        return _identity(e.seat, e.card)
    return None


def _where(loc: Loc | None) -> str:
    if loc is None:
        return "nowhere"
    seat, zone, name = loc
    return f"{name} on the island" if zone == "island" else f"seat {seat}'s {name} in their {zone}"


def _acted(s: Seen, groups: list[oracle.Group], acted: Sequence[CardRef], out: Problems) -> None:
    problem = oracle.matches(groups, acted)
    if problem:
        out.append(f"its selector {problem}")


def _appended(s: Seen, pile: str, moves: Sequence[Move], added: dict[int, list[str]], out: Problems) -> None:
    """Each seat's ``pile`` after is its pile before, less the characters that left it, with ``added`` at the end."""
    for seat in range(s.view.n):
        gone = {m.before[2] for m in moves if m.before is not None and m.before[:2] == (seat, pile)}
        want = [n for n in getattr(s.before, pile)[seat] if n not in gone] + added.get(seat, [])
        got = list(getattr(s.after, pile)[seat])
        if pile == "hand" and sorted(got) != sorted(want):  # hands are kept in rank order: what is in them counts
            out.append(f"seat {seat}'s hand became {got}, not {sorted(want)}")
        elif pile != "hand" and got != want:
            out.append(f"seat {seat}'s {pile} became {got}, not {want}")


def _owned(moves: Sequence[Move], out: Problems) -> list[tuple[Move, int, str | None, str]]:
    """Each move of a character that has an owner, with where it was: R13, a neutral card never moves."""
    found: list[tuple[Move, int, str | None, str]] = []
    for m in moves:
        seat, zone, name = m.before if m.before is not None else (None, "", m.card[1])
        if seat is None:
            out.append(f"{name} appeared or moved without an owner ({_where(m.after)})")
        else:
            found.append((m, seat, zone, name))
    return found


def _discardable(v: View) -> Callable[[CardRef], bool]:
    """R13: a neutral card is nobody's to discard; one already in its graveyard cannot go there again."""
    return lambda r: r[0] is not None and v.zone_of(r) not in (None, "graveyard")


def _discard(step: act.Discard, s: Seen, out: Problems) -> None:
    v = s.view
    groups = oracle.expect(step.target, v, _discardable(v))
    acted: list[CardRef] = []
    before: list[tuple[CardRef, str | None]] = []
    want: list[Event] = []
    added: dict[int, list[str]] = {}
    moves = _moves(s)
    for m, seat, zone, name in _owned(moves, out):
        if m.after != (seat, "graveyard", name):
            out.append(f"{_where(m.before)} went to {_where(m.after)}, not to its owner's graveyard")
        acted.append((seat, name))
        before.append(((seat, name), zone))
        want.append(ev.Discarded(seat, name, zone, s.seat, s.name))
        added.setdefault(seat, []).append(name)
    _acted(s, groups, acted, out)
    _events(s, want, out)
    _appended(s, "graveyard", moves, added, out)
    _mark(s, step.mark, (tuple(acted), tuple(before), len(acted)), out)
    _next(s, out)


def _put(step: act.Put, s: Seen, out: Problems) -> None:
    v = s.view
    pile = step.pile

    def eligible(r: CardRef) -> bool:
        zone = v.zone_of(r)
        return r[0] is not None and zone is not None and not (r[0] == s.seat and zone == pile)

    groups = oracle.expect(step.target, v, eligible)
    acted: list[CardRef] = []
    new: list[CardRef] = []
    before: list[tuple[CardRef, str | None]] = []
    want: list[Event] = []
    added: dict[int, list[str]] = {}
    moves = _moves(s)
    for m, seat, zone, name in _owned(moves, out):
        first, printed = m.card
        held = printed if first == s.seat else f"{printed}#{first}"
        if m.after != (s.seat, pile, held):
            out.append(f"{_where(m.before)} went to {_where(m.after)}, not into seat {s.seat}'s {pile} as {held}")
        acted.append((seat, name))
        new.append((s.seat, held))
        before.append(((seat, name), zone))
        if seat != s.seat:
            want.append(ev.TakenOver(s.seat, seat, printed, zone, s.name))
        if zone == "graveyard" and pile == "hand":
            want.append(ev.Moved(s.seat, None, "graveyard", "hand", s.name))  # face down: the others see a card
        else:
            want.append(ev.Moved(s.seat, held, zone, pile, s.name))
        added.setdefault(s.seat, []).append(held)
    _acted(s, groups, acted, out)
    _events(s, want, out)
    _appended(s, pile, moves, added, out)
    _mark(s, step.mark, (tuple(new), tuple(before), len(new)), out)
    _next(s, out)


def _island_key(s: Seen, ref: CardRef) -> tuple[float, float]:
    """Where a character goes on the island: by rank, ties by reputation (R4) or printed tie-breakers (C1)."""
    seat, name = ref
    ranks = dict(s.before.ranks)
    rank = ranks.get(ref, s.rules.rank(name))
    if seat is None:
        return (rank, -1.0)  # a neutral card goes left of its equals (S1)
    board = s.rules.board
    if board.tie_break == "tie_breakers":
        return (rank, float(board.tie_breakers[s.rules.rank(name)][seat]))
    return (rank, float(s.before.track.index(seat)))


def _play(step: act.Play, s: Seen, out: Problems) -> None:
    v = s.view
    groups = oracle.expect(step.target, v, lambda r: r not in s.before.island and v.zone_of(r) is not None)
    acted: list[CardRef] = []
    before: list[tuple[CardRef, str | None]] = []
    want: list[Event] = []
    island = list(s.before.island)
    for m, seat, zone, name in _owned(_moves(s), out):
        ref = (seat, name)
        if m.after != (seat, "island", name):
            out.append(f"{_where(m.before)} went to {_where(m.after)}, not onto the island")
        acted.append(ref)
        before.append((ref, zone))
        want.append(ev.PutOnIsland(seat, name, zone, s.name))
        key = _island_key(s, ref)
        at = next((i for i, other in enumerate(island) if _island_key(s, other) > key), len(island))
        island.insert(at, ref)  # right of every card it does not outrank (R4)
    if tuple(island) != s.after.island:
        out.append(f"the island became {[_card(r) for r in s.after.island]}; by rank it is "
                   f"{[_card(r) for r in island]}")
    _acted(s, groups, acted, out)
    _events(s, want, out)
    _mark(s, step.mark, (tuple(acted), tuple(before), len(acted)), out)
    _next(s, out)


def _keep(step: act.Keep, s: Seen, out: Problems) -> None:
    v = s.view
    kept = s.before.kept[s.seat]

    def eligible(r: CardRef) -> bool:
        return r[0] == s.seat and v.zone_of(r) == "ship" and r[1] not in kept

    groups = oracle.expect(step.target, v, eligible)
    new = s.after.kept[s.seat][len(kept):]
    if s.after.kept[s.seat][:len(kept)] != kept or any(s.after.kept[x] != s.before.kept[x]
                                                       for x in range(v.n) if x != s.seat):
        out.append(f"kept marks changed beyond seat {s.seat}'s new ones: {list(s.before.kept)} became "
                   f"{list(s.after.kept)}")
    acted = [(s.seat, name) for name in new]
    _acted(s, groups, acted, out)
    _events(s, [ev.KeptAboard(s.seat, name, s.name) for name in new], out)
    _mark(s, step.mark, (tuple(acted), tuple((r, "ship") for r in acted), len(acted)), out)
    _next(s, out)


def _borrow(step: act.Borrow, s: Seen, out: Problems) -> None:
    v = s.view
    running = {frame[4] for frame in s.before.frames}
    character = s.source[0] == "c"

    def eligible(r: CardRef) -> bool:  # no ability runs inside itself, and a character never borrows from itself
        return v.acts(r[1], step.timing) and not (character and r == s.this) and r not in running

    groups = oracle.expect(step.target, v, eligible)
    frames = s.after.frames
    if frames[:len(s.before.frames)] != s.before.frames:
        out.append("it changed abilities already on the stack")
    pushed = frames[len(s.before.frames):]
    acted = list(dict.fromkeys(frame[4] for frame in pushed if frame[4] is not None))
    want_frames = []
    for ref in acted:
        compiled = s.rules.card(ref[1]).compiled
        want_frames += [(f"c:{ref[1]}", i, s.seat, s.this, ref) for i in reversed(range(len(compiled)))
                        if compiled[i].timing == step.timing and not compiled[i].passive]
    if list(pushed) != want_frames:
        out.append(f"it stacked {list(pushed)}; borrowing {[_card(r) for r in acted]} stacks {want_frames}")
    borrower = s.this[1].partition("#")[0] if character and s.this is not None else s.name  # a loot tile: its kind
    _acted(s, groups, acted, out)
    _events(s, [ev.Borrowed(s.seat, oracle.printed(r[1]), step.timing, borrower) for r in acted], out)
    _mark(s, step.mark, (tuple(acted), (), len(acted)), out)
    _next(s, out)


# ------------------------------------------------------------------ loot
TokenMove = tuple[Place, Place, str]
"""A token moved: (from, to, kind)."""


def _tokens(s: Seen, moves: Sequence[TokenMove], out: Problems) -> None:
    """Every place holds what it held, less the tokens that left it and with those that came."""
    want = oracle.places(s.view)
    for src, dst, kind in moves:
        want[src][kind] -= 1
        want[dst][kind] += 1
    got = oracle.places(s.after_view)
    for place in sorted(set(want) | set(got)):
        w = +want.get(place, Counter())
        g = +got.get(place, Counter())
        if w != g:
            out.append(f"{_place(place)} holds {dict(sorted(g.items()))}, not {dict(sorted(w.items()))}")
    if s.after.aside != s.before.aside:
        out.append(f"the loot set aside changed: {list(s.before.aside)} became {list(s.after.aside)}")


def _place(place: Place) -> str:
    return f"seat {place[1]}'s loot" if place[0] == "held" else {"today": "today's loot",
                                                                "tomorrow": "tomorrow's loot"}.get(place[0], "the bag")


def _zone(place: Place) -> tuple[str, int | None]:
    """A place as an event writes it: (zone, holder)."""
    if place[0] == "held":
        return "loot", place[1]
    return {"today": "today's loot", "tomorrow": "tomorrow's loot", "bag": "the bag"}[place[0]], None


def _picked(sel: Any, s: Seen, picked: Sequence[tuple[Place, str]], out: Problems, verb: str,
            view: View | None = None) -> None:
    """The tokens picked are the phrase's, as many as the selector takes (read from ``view``'s side: the owner's
    unless a player acts for themselves)."""
    avail = oracle.available(sel.phrase, view or s.view)
    rest = {place: Counter(c) for place, c in avail.items()}
    for place, kind in picked:
        if rest.get(place, Counter())[kind] <= 0:
            out.append(f"it {verb} a {kind} from {_place(place)}, which its words do not describe")
            return
        rest[place][kind] -= 1
    total = sum(sum(c.values()) for c in avail.values())
    n = len(picked)
    if isinstance(sel, lootsel.ChooseSet):
        sizes = {(place, kind): c for place, there in avail.items() for kind, c in there.items()}
        least = min((c for c in sel.counts if c > 0), default=0)  # a set of none takes nothing: no choice
        if n == 0:
            if least and any(c >= least for c in sizes.values()):
                out.append(f"it {verb} no set, though {least} tokens of one kind were there")
        elif len(set(picked)) != 1 or n not in sel.counts:
            out.append(f"it {verb} {n} tokens {sorted(set(picked))}, not one of {list(sel.counts)} of one kind")
        return
    if isinstance(sel, lootsel.ChooseToken | lootsel.ThisToken | lootsel.RandomToken):
        want = min(1, total)
    elif isinstance(sel, lootsel.EveryToken):
        want = total
    elif isinstance(sel, lootsel.EveryTokenBut):
        want = max(0, total - sel.keep)
    else:
        assert isinstance(sel, lootsel.ChooseTokens), f"no oracle for the loot selector {sel!r}"
        want = min(sel.n, total)
    if n != want:
        out.append(f"it {verb} {n} tokens of the {total} its words describe; {type(sel).__name__} takes {want}")


def _random(s: Seen, draws: int, out: Problems) -> None:
    if s.after.counter - s.before.counter != draws:
        out.append(f"it drew {s.after.counter - s.before.counter} random numbers; its picks need {draws}")


def _event_place(e: Any, zone: str | None, seat: int | None, out: Problems) -> Place:
    place = oracle.place_of_event(zone, seat)
    if place is None:
        out.append(f"the event '{e.text}' names no place a token can be ({zone!r}, seat {seat})")
        return ("bag", -1)
    return place


def _random_picks(sel: Any, s: Seen) -> int:
    """How many random numbers a selector draws: one per random pick, none when there is nothing to pick."""
    if isinstance(sel, lootsel.RandomToken):
        return 1 if any(sum(c.values()) for c in oracle.available(sel.phrase, s.view).values()) else 0
    return 0


def _take(step: act.Take, s: Seen, out: Problems) -> None:
    picked: list[tuple[Place, str]] = []
    want: list[Event] = []
    frames: list[Any] = []
    took = dict(s.before.just_took)
    for e in s.events:
        if isinstance(e, ev.LootTaken):
            place = _event_place(e, e.from_zone, e.from_seat, out)
            picked.append((place, e.loot))
            zone, holder = _zone(place)
            card = s.this[1] if s.this is not None else None  # the character it is taken for (issue 35, 8b)
            want.append(ev.LootTaken(s.seat, e.loot, zone, holder, card, s.name))
            if place[0] in ("today", "bag"):  # R6: a token taken from a day or the bag fires its dusk ability
                if s.this is not None and s.before.step == "dusk":  # "you just took": this dusk's only
                    took[s.this] = e.loot
                compiled = s.rules.loot_spec(e.loot).compiled
                frames += [(f"l:{e.loot}", i, s.seat, s.this, None) for i in reversed(range(len(compiled)))
                           if compiled[i].timing == "dusk"]
    _picked(step.loot, s, picked, out, "took")
    _tokens(s, [(src, ("held", s.seat), kind) for src, kind in picked], out)
    _held_end(s, s.seat, [kind for _, kind in picked], out)
    _events(s, want, out)
    if list(s.after.frames) != [*s.before.frames, *frames]:
        out.append(f"the stack became {list(s.after.frames)}; the tokens' dusk abilities make "
                   f"{[*s.before.frames, *frames]}")
    if dict(s.after.just_took) != took:
        out.append(f"what each character just took became {dict(s.after.just_took)}, not {took}")
    _random(s, _random_picks(step.loot, s), out)
    _mark(s, step.mark, ((), (), len(picked)), out)
    _next(s, out)


def _held_end(s: Seen, seat: int, kinds: Sequence[str], out: Problems) -> None:
    """Tokens a seat receives join the end of its loot, in the order received."""
    if kinds and list(s.after.loot[seat][len(s.after.loot[seat]) - len(kinds):]) != list(kinds):
        out.append(f"seat {seat}'s loot became {list(s.after.loot[seat])}, which does not end with {list(kinds)}")


def _return_loot(step: act.ReturnLoot, s: Seen, out: Problems) -> None:
    logged = [e for e in s.events if isinstance(e, ev.LootReturned)]
    picked = [t for e in logged for t in _held_tokens(e, out)]
    _picked(step.loot, s, picked, out, "returned")
    _tokens(s, [(src, ("bag", -1), kind) for src, kind in picked], out)
    want: list[Event] = []
    if picked:
        places = [_zone(p) for p, _ in picked]
        want.append(ev.LootReturned(s.seat, tuple(k for _, k in picked), tuple(z for z, _ in places),
                                    tuple(h for _, h in places), s.name))
    _events(s, want, out)
    _random(s, _random_picks(step.loot, s), out)
    _mark(s, step.mark, ((), (), len(picked)), out)
    _next(s, out)


def _keep_loot(step: act.KeepLoot, s: Seen, out: Problems) -> None:
    before = s.before.kept_loot[s.seat]
    after = s.after.kept_loot[s.seat]
    new = list(after[len(before):])
    if after[:len(before)] != before or any(s.after.kept_loot[x] != s.before.kept_loot[x]
                                            for x in range(s.view.n) if x != s.seat):
        out.append(f"kept loot changed beyond seat {s.seat}'s new marks: {list(s.before.kept_loot)} became "
                   f"{list(s.after.kept_loot)}")
    held = Counter(s.after.loot[s.seat])
    kept = Counter(after)
    over = sorted(k for k in kept if kept[k] > held[k])
    if over:
        out.append(f"seat {s.seat} keeps more {', '.join(over)} than it holds")
    phrase = step.loot.phrase
    stray = [k for k in new if phrase.place != "held" or not of_kind(k, phrase.kinds)]
    if stray:
        out.append(f"it kept {stray}, which its words do not describe")
    avail = oracle.available(phrase, s.view).get(("held", s.seat), Counter())
    keepable = sum(max(0, n - Counter(before)[k]) for k, n in avail.items())
    sel = step.loot
    if isinstance(sel, lootsel.EveryToken):
        most = least = keepable
    elif isinstance(sel, lootsel.ChooseToken | lootsel.ThisToken | lootsel.RandomToken):
        most, least = 1, 0  # a pick of a token already kept keeps nothing
    elif isinstance(sel, lootsel.ChooseTokens):
        most, least = sel.n, 0
    elif isinstance(sel, lootsel.ChooseSet):
        most, least = max(sel.counts), 0
    else:
        most, least = sum(avail.values()), 0
    if not least <= len(new) <= most:
        out.append(f"it kept {len(new)} tokens; {type(sel).__name__} keeps {least} to {most} of these")
    _events(s, [ev.LootKept(s.seat, tuple(new), s.name)] if new else [], out)
    _mark(s, step.mark, ((), (), len(new)), out)
    _next(s, out)


def _give(step: act.Give, s: Seen, out: Problems) -> None:
    logged = [e for e in s.events if isinstance(e, ev.LootGiven)]
    found, allowed = _owners(step.to, s, out)
    if found == []:
        raise oracle.Unbound  # "its owner" of a neutral card: nobody to give to
    seats = _chosen(found, allowed, [e.to_seat for e in logged], out)
    if not seats:  # a choice nobody reads back, and nothing given: nothing to check but that
        _picked_none(s, step.mark, out)
        return
    to = seats[0]
    picked: list[tuple[Place, str]] = []
    for e in logged:
        if e.to_seat != to:
            out.append(f"it gave loot to seat {e.to_seat}; its words name seat {to}")
        for kind, holder in zip(e.loot, e.from_seats or (), strict=False):
            picked.append((("held", holder if holder is not None else -1), kind))
    if to == s.seat:
        if picked:
            out.append("it gave loot to its own owner")
    else:
        _picked(step.loot, s, picked, out, "gave")
    _tokens(s, [(src, ("held", to), kind) for src, kind in picked], out)
    _held_end(s, to, [kind for _, kind in picked], out)
    want: list[Event] = []
    if picked:
        want.append(ev.LootGiven(s.seat, tuple(k for _, k in picked), to, tuple(p[1] for p, _ in picked), s.name))
    _events(s, want, out)
    _mark(s, step.mark, ((), (), len(picked)), out)
    _next(s, out)


# ------------------------------------------------------------------ players acting for themselves
def _in_turn(step: Any, s: Seen, out: Problems, logged: Sequence[int]) -> list[int]:
    """The players who act, in the order they act: from the owner's left, the owner last (E32)."""
    found, allowed = _owners(step.subject, s, out)
    seats = _chosen(found, allowed, logged, out)
    n = s.view.n
    return sorted(dict.fromkeys(seats), key=lambda x: (x - s.seat - 1) % n)


def _held_tokens(e: Any, out: Problems) -> list[tuple[Place, str]]:
    """The tokens an event says left their holders, with where each was."""
    zones = getattr(e, "from_zones", None) or ("loot",) * len(e.loot)
    seats = e.from_seats or ()
    return [(_event_place(e, zone, seat, out), kind) for kind, zone, seat in zip(e.loot, zones, seats, strict=False)]


def _they_return(step: act.TheyReturn, s: Seen, out: Problems) -> None:
    logged = [e for e in s.events if isinstance(e, ev.LootReturned)]
    want: list[Event] = []
    moves: list[TokenMove] = []
    for seat in _in_turn(step, s, out, [e.seat for e in logged]):
        picked = [t for e in logged if e.seat == seat for t in _held_tokens(e, out)]
        _picked(step.loot, s, picked, out, f"(for seat {seat}) returned", s.view.side(seat))
        moves += [(place, ("bag", -1), kind) for place, kind in picked]
        if picked:
            places = [_zone(p) for p, _ in picked]
            want.append(ev.LootReturned(seat, tuple(k for _, k in picked), tuple(z for z, _ in places),
                                        tuple(h for _, h in places), s.name))
    _tokens(s, moves, out)
    _events(s, want, out)
    _random(s, 0, out)
    _mark(s, step.mark, ((), (), len(moves)), out)
    _next(s, out)


def _they_discard(step: act.TheyDiscard, s: Seen, out: Problems) -> None:
    v = s.view
    logged = [e for e in s.events if isinstance(e, ev.Discarded)]
    moves = _moves(s)
    moved: dict[CardRef, Move] = {}
    for m, owner, _, name in _owned(moves, out):
        if m.after != (owner, "graveyard", name):
            out.append(f"{_where(m.before)} went to {_where(m.after)}, not to its owner's graveyard")
        else:
            moved[(owner, name)] = m
    acted: list[CardRef] = []
    before: list[tuple[CardRef, str | None]] = []
    want: list[Event] = []
    added: dict[int, list[str]] = {}
    for by in _in_turn(step, s, out, [e.by_seat for e in logged if e.by_seat is not None]):
        side = v.side(by)
        mine = [(e.target_seat, e.target) for e in logged if e.by_seat == by]
        problem = oracle.matches(oracle.expect(step.target, side, _discardable(side)), mine)
        if problem:
            out.append(f"seat {by}, discarding for themselves: {problem}")
        for seat, name in mine:
            gone = moved.pop((seat, name)) if (seat, name) in moved else None
            was = gone.before[1] if gone is not None and gone.before is not None else None
            acted.append((seat, name))
            before.append(((seat, name), was))
            want.append(ev.Discarded(seat, name, was, by, s.name))
            added.setdefault(seat, []).append(name)
    for ref in moved:
        out.append(f"{_card(ref)} went to its graveyard, though no player acting discarded it")
    _events(s, want, out)
    _appended(s, "graveyard", moves, added, out)
    _mark(s, step.mark, (tuple(acted), tuple(before), len(acted)), out)
    _next(s, out)


def _they_give(step: act.TheyGive, s: Seen, out: Problems) -> None:
    logged = [e for e in s.events if isinstance(e, ev.LootGiven)]
    givers = _in_turn(step, s, out, [e.seat for e in logged])
    found, allowed = _owners(step.to, s, out)
    if found == []:
        raise oracle.Unbound  # "its owner" of a neutral card: nobody to give to
    receivers = _chosen(found, allowed, [e.to_seat for e in logged], out)
    if not receivers:  # a receiver nobody reads back, and nothing given: nothing to check but that
        _picked_none(s, step.mark, out)
        return
    to = receivers[0]
    want: list[Event] = []
    moves: list[TokenMove] = []
    for seat in givers:
        picked = [t for e in logged if e.seat == seat for t in _held_tokens(e, out)]
        if seat == to:
            if picked:
                out.append(f"seat {seat} gave loot to itself")
            continue
        _picked(step.loot, s, picked, out, f"(for seat {seat}) gave", s.view.side(seat))
        moves += [(place, ("held", to), kind) for place, kind in picked]
        if picked:
            want.append(ev.LootGiven(seat, tuple(k for _, k in picked), to, tuple(p[1] for p, _ in picked), s.name))
    for e in logged:
        if e.to_seat != to:
            out.append(f"seat {e.seat} gave loot to seat {e.to_seat}; its words name seat {to}")
    _tokens(s, moves, out)
    _held_end(s, to, [kind for _, _, kind in moves], out)
    _events(s, want, out)
    _mark(s, step.mark, ((), (), len(moves)), out)
    _next(s, out)


def _picked_none(s: Seen, slot: int, out: Problems) -> None:
    _tokens(s, [], out)
    _events(s, [], out)
    _mark(s, slot, ((), (), 0), out)
    _next(s, out)


def _draw(step: act.Draw, s: Seen, out: Problems) -> None:
    per = oracle.count(step.per, s.view) if step.per is not None else 1
    in_bag = sum(n for _, n in s.before.bag)
    logged = [e for e in s.events if isinstance(e, ev.LootDrawn)]
    drawn = [k for e in logged for k in e.loot]
    if len(drawn) != min(step.n * per, in_bag):
        out.append(f"it drew {len(drawn)} tokens; {step.n} x {per} from a bag of {in_bag} is "
                   f"{min(step.n * per, in_bag)}")
    _tokens(s, [(("bag", -1), ("held", s.seat), kind) for kind in drawn], out)
    _held_end(s, s.seat, drawn, out)
    _events(s, [ev.LootDrawn(s.seat, tuple(drawn), s.name)] if drawn else [], out)
    _random(s, len(drawn), out)
    _mark(s, step.mark, ((), (), len(drawn)), out)
    _next(s, out)


def _swap(step: act.Swap, s: Seen, out: Problems) -> None:
    v = s.view
    first = oracle.available(step.first.phrase, v)
    second = oracle.available(step.second.phrase, v)
    # E22: a token trades for one of another kind (a map for a map would change nothing).
    one = {k for c in first.values() for k in c}
    other = {k for c in second.values() for k in c}
    possible = any(a != b for a in one for b in other)
    logged = [e for e in s.events if isinstance(e, ev.LootSwapped)]
    moves: list[TokenMove] = []
    want: list[Event] = []
    if logged:
        e = logged[0]
        a = _event_place(e, e.from_zone, e.from_seat, out)
        b = _event_place(e, e.to_zone, e.to_seat, out)
        if first.get(a, Counter())[e.loot] <= 0:
            out.append(f"it swapped away a {e.loot} from {_place(a)}, which its first phrase does not describe")
        if second.get(b, Counter())[e.swapped_for] <= 0:
            out.append(f"it swapped in a {e.swapped_for} from {_place(b)}, which its second phrase does not "
                       "describe")
        if e.loot == e.swapped_for:
            out.append(f"it swapped a {e.loot} for a {e.loot}, which changes nothing")
        moves = [(a, b, e.loot), (b, a, e.swapped_for)]
        want.append(ev.LootSwapped(s.seat, e.loot, e.swapped_for, *_zone(a), *_zone(b), s.name))
    drawn = isinstance(step.first, lootsel.RandomToken) or isinstance(step.second, lootsel.RandomToken)
    if possible and not logged and not drawn:  # a random draw of the other's kind trades nothing
        out.append("it swapped nothing, though both of its phrases describe a token")
    if not possible and logged:
        out.append("it swapped, though one of its phrases describes no token")
    _tokens(s, moves, out)
    _events(s, want, out)
    _random(s, (_random_picks(step.first, s) + _random_picks(step.second, s)) if possible else 0, out)
    _mark(s, step.mark, ((), (), len(logged[:1])), out)
    _next(s, out)


def _count_extra(step: act.CountExtra, s: Seen, out: Problems) -> None:
    want = dict(s.before.extra)
    key = (s.seat, step.kind)
    if step.n:
        want[key] = want.get(key, 0) + step.n
    if dict(s.after.extra) != want:
        out.append(f"the extra counts became {dict(s.after.extra)}, not {want}")
    _events(s, [], out)
    _mark(s, step.mark, ((), (), step.n), out)
    _next(s, out)


def _standing_rule(step: act.StandingRule, s: Seen, out: Problems) -> None:
    _events(s, [], out)
    _next(s, out)


# ------------------------------------------------------------------ control
def _jump(step: ctl.Jump, s: Seen, out: Problems) -> None:
    if s.next_pc != step.target:
        out.append(f"it went on to step {s.next_pc}, not to its target {step.target}")


def _branch(step: ctl.Branch, s: Seen, out: Problems) -> None:
    value = oracle.truth(step.condition, s.view)
    want = s.pc + 1 if value else (step.end_at if value is None else step.else_at)
    if s.next_pc != want:
        said = "speaks of a character nobody named" if value is None else "holds" if value else "does not hold"
        out.append(f"it went on to step {s.next_pc}; its condition {said}, so it goes to {want}")


def _may(step: ctl.May, s: Seen, out: Problems) -> None:
    if s.next_pc not in (s.pc + 1, step.else_at):
        out.append(f"it went on to step {s.next_pc}, neither yes ({s.pc + 1}) nor no ({step.else_at})")


def _choose_one(step: ctl.ChooseOne, s: Seen, out: Problems) -> None:
    if s.next_pc not in (*step.starts, step.end_at):
        out.append(f"it went on to step {s.next_pc}, which starts none of its options {list(step.starts)}")


LAWS: dict[type, Callable[[Any, Seen, Problems], None]] = {
    act.GainCoins: _gain_coins,
    act.Change: _change,
    act.PaysYou: _pays_you,
    act.MoveReputation: _move_reputation,
    act.Discard: _discard,
    act.Put: _put,
    act.Play: _play,
    act.Keep: _keep,
    act.Borrow: _borrow,
    act.Take: _take,
    act.ReturnLoot: _return_loot,
    act.KeepLoot: _keep_loot,
    act.Give: _give,
    act.Draw: _draw,
    act.Swap: _swap,
    act.TheyReturn: _they_return,
    act.TheyDiscard: _they_discard,
    act.TheyGive: _they_give,
    act.CountExtra: _count_extra,
    act.StandingRule: _standing_rule,
    ctl.Jump: _jump,
    ctl.Branch: _branch,
    ctl.May: _may,
    ctl.ChooseOne: _choose_one,
}
"""Each step kind's law, as its contract states it in words (``Contract.law``)."""
