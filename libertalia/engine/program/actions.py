"""Action steps: one class per kind of action, each with its contract beside it.

``act`` asks every question first and then changes the game, so a step suspended for an
answer re-runs from its start without repeating a change; it returns the next program
counter.  ``eligible`` says which characters the action can act on at all (selectors
offer only those), and ``can_change`` whether it could change anything now without
asking (an option that cannot is never offered, and ``you may`` is not asked).  A step's
``mark`` is the slot later words read it through (-1: nothing refers to it).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar, TypeVar

from ...state import CardRef
from .. import journal
from .amounts import Amount, ChosenPlayer, Counter, Fixed, OwnersOf, Players, You, asks
from .base import Contract, Unbound, leave_mark, seen_from, source_name
from .cards import ANYONE, Choose, Eligible, PerShip, Selector
from .loot import LootRef, RandomToken, TokenSelector, can_pick, place_token, remove_token
from .record import Record, declare

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..work import Frame, Work

_T = TypeVar("_T")

_PLACES = {"today": "today's loot", "tomorrow": "tomorrow's loot", "bag": "the bag"}
"""Where a token taken came from, as the log says it (a held token: "seat N")."""


def _place(ref: LootRef) -> str:
    return _PLACES.get(ref[0]) or f"seat {ref[1]}"


def _last_voyage(w: Work) -> bool:
    return w.voyage >= w.tables.voyages


def _preview(players: Players, w: Work, f: Frame, act: Eligible | None = None) -> list[int]:
    """The seats ``players`` could name now, without asking or leaving a mark (``act``: the action's
    eligibility, for a character its owner picks)."""
    if isinstance(players, OwnersOf):
        target = players.target
        if isinstance(target, Choose | PerShip):
            refs = target.phrase.cards(w, f)
            if act is not None and asks(target):
                refs = [r for r in refs if act.eligible(w, f, r)]
        else:
            try:
                refs = target.pick(w, f, ANYONE)
            except Unbound:
                return []
        return list(dict.fromkeys(r[0] for r in refs if r[0] is not None))
    if isinstance(players, ChosenPlayer):  # every seat the owner could choose: nobody is asked yet
        return players.candidates(w, f, ANYONE if act is None else act)
    try:
        return [seat for seat, _ in players.seats(w, f)]
    except Unbound:
        return []


_YOU = You()  # the subject of an action that names none


# ------------------------------------------------------------------ doubloons and reputation
class Change(Eligible):
    """Gain or lose doubloons or reputation, for each player ``subject`` names."""

    gain: bool
    reputation: bool
    amount: Amount
    subject: Players
    mark: int
    __node_fields__ = declare("gain", "reputation", "amount", subject=_YOU, mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"doubloons", "reputation"}), frozenset({"doubloons", "reputation"}),
        "each subject's doubloons (or reputation) move by the amount worked out for that subject, in the "
        "direction of the verb, floored at 0 (R2), netted at anchor (R3); reputation past the track's end "
        "turns into doubloons (R28); nothing else changes")

    def __init__(self, gain: bool, reputation: bool, amount: Amount, subject: Players = _YOU,
                 mark: int = -1) -> None:
        object.__setattr__(self, "gain", gain)
        object.__setattr__(self, "reputation", reputation)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "subject", subject)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        # E28: every subject's amount is worked out from the game as the action starts, before anyone's
        # changes (one player's move along the track must not change what the next one loses).
        if type(self.subject) is You:  # the ability's owner: by far the commonest subject
            amounts: Sequence[tuple[int, int]] = ((f.seat, self.amount.value(w, f, f.seat)),)
        else:
            amounts = [(seat, self.amount.value(w, f, seat)) for seat, _ in self.subject.seats(w, f, self)]
        sign = 1 if self.gain else -1
        marked = self.mark >= 0
        did = False
        name = f.source[2:]
        for seat, n in amounts:
            if not n:
                continue
            # "you did" asks whether it happened: a loss from an empty purse, or a move the track's
            # end stops with nothing to pay, did nothing.
            was = (w.seats[seat].coins, w.net[seat] if w.net is not None else 0, w.reputation(seat)) if marked \
                else None
            if self.reputation:
                w.change_reputation(seat, sign * n, name)
                w.log(journal.CHANGE, "reputation", seat, sign * n, name)
            else:
                if sign > 0:
                    w.gain(seat, n)
                else:
                    w.lose(seat, n)
                w.log(journal.CHANGE_DOUBLOONS, seat, sign * n, name)
            if marked and not did:
                did = was != (w.seats[seat].coins, w.net[seat] if w.net is not None else 0, w.reputation(seat))
        if marked:
            leave_mark(f, self.mark, (), (), 0, did)
        return f.pc + 1

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        """A character whose owner the owner of the ability may pick: one for whom the change would happen."""
        return ref[0] is not None and self._changes(w, ref[0], self.amount.value(w, f, ref[0]))

    def _changes(self, w: Work, seat: int, n: int) -> bool:
        if n <= 0:
            return False
        if self.reputation:
            return _reputation_changes(w, seat, n if self.gain else -n)
        return self.gain or w.net is not None or w.seats[seat].coins > 0

    def can_change(self, w: Work, f: Frame) -> bool:
        seats = _preview(self.subject, w, f, self)
        if self.reputation and len(seats) > 1 and not isinstance(self.subject, OwnersOf):
            # Several tokens move together: one may push another back where it was (two at the left
            # end trading places), so the moves are tried together on a copy of the track (E25).
            sign = 1 if self.gain else -1
            return _moves_change(w, [(seat, sign * _amount_now(self.amount, w, f, seat)) for seat in seats])
        return any(self._changes(w, seat, _amount_now(self.amount, w, f, seat)) for seat in seats)


def _amount_now(amount: Amount, w: Work, f: Frame, seat: int) -> int:
    """An action's amount for ``seat`` as it would be now, without asking.

    The amount is compiled before its subject, so no counter of it reads the mark "the owner of …"
    leaves: it is the same before and after the owner's pick (E25).
    """
    if isinstance(amount, Fixed) and amount.per is None:
        return amount.n
    return amount.value(w, f, seat)


def _reputation_changes(w: Work, seat: int, steps: int) -> bool:
    """Whether ``steps`` along the track change anything: the token moves, or runs off an end (R28)."""
    if not w.track or not steps:
        return False
    pos, last = w.reputation(seat), len(w.track) - 1
    if steps > 0:
        return pos < last or w.tables.overflow > 0
    # Past the left end each step costs a doubloon, which only a purse (or the anchor's netting) can pay.
    return pos > 0 or (w.tables.overflow > 0 and (w.net is not None or w.seats[seat].coins > 0))


def _moves_change(w: Work, moves: list[tuple[int, int]]) -> bool:
    """Whether these reputation moves, made one after another as ``Work.change_reputation`` makes them,
    leave the track or a purse otherwise than they found it (R28: steps past an end pay or cost)."""
    if not w.track:
        return False
    track, last, overflow = list(w.track), len(w.track) - 1, w.tables.overflow
    for seat, steps in moves:
        pos = track.index(seat)
        target = min(max(pos + steps, 0), last)
        over = pos + steps - target
        if target != pos:
            track.insert(target, track.pop(pos))
        if over > 0 and overflow > 0:
            return True
        if over < 0 and overflow > 0 and (w.net is not None or w.seats[seat].coins > 0):
            return True
    return track != w.track


class GainCoins(Record):
    """``gain N doubloons`` / ``lose N doubloons`` for the ability's owner: the commonest action, kept lean."""

    n: int  # signed
    mark: int
    __node_fields__ = declare("n", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"doubloons"}), frozenset({"doubloons"}),
        "the owner's doubloons move by exactly n (a loss floored at 0, R2; netted at anchor, R3); "
        "nothing else changes")

    def __init__(self, n: int, mark: int = -1) -> None:
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        n = self.n
        if self.mark >= 0:  # "you did": a loss from an empty purse (netting aside) did nothing
            leave_mark(f, self.mark, (), (), 0, n > 0 or (n < 0 and (w.net is not None or w.seats[f.seat].coins > 0)))
        if n > 0:
            w.gain(f.seat, n)
        else:
            w.lose(f.seat, -n)
        if n:
            w.log(journal.CHANGE_DOUBLOONS, f.seat, n, f.source[2:])
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return self.n > 0 or (self.n < 0 and (w.net is not None or w.seats[f.seat].coins > 0))


class PaysYou(Eligible):
    """Each player ``subject`` names (but you) pays you the amount, as much as they have."""

    subject: Players
    amount: Amount
    mark: int
    __node_fields__ = declare("subject", "amount", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"doubloons"}), frozenset({"pay"}),
        "each payer's doubloons fall by min(amount, what they hold) and the owner's rise by the same; "
        "nothing else changes")

    def __init__(self, subject: Players, amount: Amount, mark: int = -1) -> None:
        object.__setattr__(self, "subject", subject)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        did = False
        owed = [(payer, self.amount.value(w, f, payer)) for payer, _ in self.subject.seats(w, f, self)
                if payer != f.seat]  # E28: worked out before anyone pays
        for payer, value in owed:
            n = min(value, w.seats[payer].coins)
            w.lose(payer, n)
            w.gain(f.seat, n)
            did = did or n > 0
            w.log(journal.PAY, payer, f.seat, n, source_name(f))
        leave_mark(f, self.mark, (), (), 0, did)
        return f.pc + 1

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        """A character whose owner the owner of the ability may pick: another player who would pay something."""
        payer = ref[0]
        return payer is not None and payer != f.seat and w.seats[payer].coins > 0 \
            and self.amount.value(w, f, payer) > 0

    def can_change(self, w: Work, f: Frame) -> bool:
        return any(s != f.seat and w.seats[s].coins > 0 and _amount_now(self.amount, w, f, s) > 0
                   for s in _preview(self.subject, w, f, self))


class MoveReputation(Record):
    end: str  # leftmost | rightmost
    mark: int
    __node_fields__ = declare("end", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"reputation"}), frozenset({"reputation"}),
        "the owner's token moves to that end of the track, the tokens it passes one space back; "
        "its mark counts the spaces moved")

    def __init__(self, end: str, mark: int = -1) -> None:
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        source = source_name(f)
        moved = w.move_reputation_to(f.seat, self.end, source)
        leave_mark(f, self.mark, (), (), moved, moved > 0)
        w.log(journal.MOVE_REPUTATION_BY, f.seat, self.end, source)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        if not w.track:
            return False
        return w.reputation(f.seat) != (0 if self.end == "leftmost" else len(w.track) - 1)


# ------------------------------------------------------------------ characters
def _moved(f: Frame, slot: int, after: list[CardRef], before: list[tuple[CardRef, str | None]]) -> None:
    if slot >= 0:
        leave_mark(f, slot, tuple(after), tuple(before), len(after), bool(after))


class Discard(Eligible):
    target: Selector
    mark: int
    __node_fields__ = declare("target", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"cards"}), frozenset({"discard"}),
        "each character picked moves from where it was to its owner's graveyard (a neutral card never); "
        "nothing else changes")

    def __init__(self, target: Selector, mark: int = -1) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "mark", mark)

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        # A neutral card is nobody's to discard; one already in its graveyard cannot be discarded again.
        return ref[0] is not None and not w.in_zone(ref, "graveyard")

    def act(self, w: Work, f: Frame) -> int:
        by = (f.seat, source_name(f))
        after: list[CardRef] = []
        before: list[tuple[CardRef, str | None]] = []
        for r in self.target.pick(w, f, self):
            zone = w.zone_of(r)
            if w.discard(r, by):
                after.append(r)
                before.append((r, zone))
        _moved(f, self.mark, after, before)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return self.target.any(w, f, self)


class Put(Eligible):
    """Into your pile: another player's character becomes yours where it stands (``Work.take_over``)."""

    target: Selector
    pile: str
    mark: int
    __node_fields__ = declare("target", "pile", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"cards", "random"}), frozenset({"move"}),
        "each character picked ends in the owner's named pile (another player's changes hands first; one taken "
        "from a hidden hand is drawn from the game's stream, E41); nothing else changes")

    def __init__(self, target: Selector, pile: str, mark: int = -1) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "pile", pile)
        object.__setattr__(self, "mark", mark)

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        return ref[0] is not None and not (ref[0] == f.seat and w.zone_of(ref) == self.pile)

    def act(self, w: Work, f: Frame) -> int:
        after: list[CardRef] = []
        before: list[tuple[CardRef, str | None]] = []
        source = source_name(f)
        for r in self.target.pick(w, f, self):
            zone = w.zone_of(r)
            new = w.take_over(r, f.seat, source)
            if new is not None and w.put(new, self.pile, source):
                after.append(new)
                before.append((r, zone))
        _moved(f, self.mark, after, before)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return self.target.any(w, f, self)


class Play(Eligible):
    """Onto the island by day: the card lands by rank and takes its sun turn that day."""

    target: Selector
    mark: int
    __node_fields__ = declare("target", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"cards"}), frozenset({"play"}),
        "each character picked leaves its pile and lands on the island by rank (R4 ties); nothing else changes")

    def __init__(self, target: Selector, mark: int = -1) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "mark", mark)

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        # A card already on the island cannot be played onto it again (it would act again, for ever).
        return ref not in w.island

    def act(self, w: Work, f: Frame) -> int:
        refs = self.target.pick(w, f, self)
        before = [(r, w.zone_of(r)) for r in refs]
        source = source_name(f)
        for r in refs:
            zone = w.remove(r)
            w.insert_on_island(r)
            w.log(journal.PUT_ON_ISLAND_FROM, r[0], r[1], zone or "", source)
        _moved(f, self.mark, refs, before)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return self.target.any(w, f, self)


class Keep(Eligible):
    """A character aboard your ship stays for the next voyage (R20), once."""

    target: Selector
    mark: int
    __node_fields__ = declare("target", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"kept"}), frozenset({"keep"}),
        "each character picked, aboard the owner's ship and not yet kept, is marked kept; nothing else changes")

    def __init__(self, target: Selector, mark: int = -1) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "mark", mark)

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        return ref[0] == f.seat and w.in_zone(ref, "ship") and ref[1] not in w.seats[f.seat].kept

    def act(self, w: Work, f: Frame) -> int:
        refs = [r for r in self.target.pick(w, f, self) if r[0] == f.seat]
        for r in refs:
            w.seats[f.seat].kept.append(r[1])
            w.log(journal.KEEP_BY, f.seat, r[1], source_name(f))
        _moved(f, self.mark, refs, [(r, "ship") for r in refs])
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return not _last_voyage(w) and self.target.any(w, f, self)


class Borrow(Eligible):
    """Use another character's ability of this timing: its text runs for you, ``this`` still you (R10)."""

    timing: str
    target: Selector
    mark: int
    __node_fields__ = declare("timing", "target", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"stack"}), frozenset({"borrow"}),
        "the borrowed character's abilities of this timing are stacked to run next, as the owner's; "
        "nothing else changes by this step")

    def __init__(self, timing: str, target: Selector, mark: int = -1) -> None:
        object.__setattr__(self, "timing", timing)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "mark", mark)

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        if not w.tables.cards[ref[1]].acts(self.timing):
            return False  # a standing rule ("take no loot") is nothing to use
        if f.source[0] == "c" and ref == f.this:
            return False  # a character never borrows from itself
        # No ability runs inside itself: a card whose text is already running,
        # natively or borrowed, anywhere down the chain, cannot be borrowed.
        return all(fr.origin != ref for fr in w.frames)

    def act(self, w: Work, f: Frame) -> int:
        refs = self.target.pick(w, f, self)
        leave_mark(f, self.mark, tuple(refs), (), len(refs), bool(refs))
        # Logged under the borrower: the character whose text borrows, or a loot tile's kind (it
        # borrows through the character that took it, which is not what acts).
        borrower = f.this[1].partition("#")[0] if f.source[0] == "c" and f.this is not None else source_name(f)
        for r in refs:
            spec = w.tables.cards[r[1]]
            for i in reversed(range(len(spec.compiled))):
                if spec.compiled[i].timing == self.timing and not spec.compiled[i].passive:
                    w.push_frame(f"c:{r[1]}", i, f.seat, f.this, origin=r)
            w.log(journal.BORROW_BY, f.seat, borrower, self.timing, spec.name)  # once its text is stacked
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return self.target.any(w, f, self)


# ------------------------------------------------------------------ loot
def _tokens(f: Frame, slot: int, refs: list[LootRef]) -> None:
    if slot >= 0:
        leave_mark(f, slot, (), (), len(refs), bool(refs))


class Take(Record):
    """Into your loot; a token from today's loot or the bag fires its dusk ability (R6)."""

    loot: TokenSelector
    mark: int
    __node_fields__ = declare("loot", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"loot", "bag", "stack", "random"}), frozenset({"loot"}),
        "each token picked (a random one drawn from the game's stream) leaves its place (today's loot, "
        "tomorrow's, the bag or a player) and joins the owner's loot; one from today's loot or the bag stacks its "
        "dusk abilities; nothing else changes")

    def __init__(self, loot: TokenSelector, mark: int = -1) -> None:
        object.__setattr__(self, "loot", loot)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        refs = self.loot.pick(w, f)
        for ref in refs:
            remove_token(w, ref)
            w.seats[f.seat].loot.append(ref[2])
            if f.this is None:
                w.log(journal.TAKE_LOOT_FROM, f.seat, ref[2], _place(ref), source_name(f))
            else:  # the character whose ability takes it (a loot tile's: its taker; a borrowed one: the borrower)
                w.log(journal.TAKE_LOOT_BY_CARD, f.seat, ref[2], _place(ref), source_name(f), f.this[1])
            if ref[0] in ("today", "bag"):
                if f.this is not None and w.step == "dusk":  # "you just took" speaks of this dusk only
                    w.just_took[f.this] = ref[2]
                w.push_loot_abilities(f.seat, ref[2], "dusk", f.this)
        _tokens(f, self.mark, refs)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return can_pick(self.loot, w, f)


class ReturnLoot(Record):
    loot: TokenSelector
    mark: int
    __node_fields__ = declare("loot", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"loot", "bag", "random"}), frozenset({"loot"}),
        "each token picked (a random one drawn from the game's stream) leaves its place and goes into the bag; "
        "nothing else changes")

    def __init__(self, loot: TokenSelector, mark: int = -1) -> None:
        object.__setattr__(self, "loot", loot)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        refs = self.loot.pick(w, f)
        for ref in refs:
            remove_token(w, ref)
            w.to_bag(ref[2])
        if refs:
            w.log(journal.RETURN_LOOT_FROM, f.seat, tuple(x for r in refs for x in (_place(r), r[2])), source_name(f))
        _tokens(f, self.mark, refs)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        # A token returned from the bag to the bag changes nothing: such an option is never offered.
        return self.loot.phrase.place != "bag" and can_pick(self.loot, w, f)


class KeepLoot(Record):
    """Held loot that stays with its holder at the voyage's end instead of returning to the bag."""

    loot: TokenSelector
    mark: int
    __node_fields__ = declare("loot", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"kept"}), frozenset({"keep"}),
        "each token picked, held by the owner and not yet kept, is marked kept; nothing else changes")

    def __init__(self, loot: TokenSelector, mark: int = -1) -> None:
        object.__setattr__(self, "loot", loot)
        object.__setattr__(self, "mark", mark)

    def _keepable(self, w: Work, f: Frame) -> list[LootRef]:
        """The tokens of the phrase the owner can still keep: a kind's tokens held, less those already kept."""
        seat = w.seats[f.seat]
        spare = {k: seat.loot.count(k) - seat.kept_loot.count(k) for k in set(seat.loot)}
        out = []
        for ref in self.loot.phrase.tokens(w, f):
            if ref[0] == "held" and ref[1] == f.seat and spare.get(ref[2], 0) > 0:
                spare[ref[2]] -= 1
                out.append(ref)
        return out

    def act(self, w: Work, f: Frame) -> int:
        seat = w.seats[f.seat]
        refs = []
        # Only tokens that can still be kept are offered: keeping "a map" and then "every map" keeps each once.
        for ref in self.loot.pick(w, f, self._keepable(w, f)):
            seat.kept_loot.append(ref[2])
            refs.append(ref)
        if refs:
            w.log(journal.KEEP_LOOT_BY, f.seat, tuple(r[2] for r in refs), source_name(f))
        _tokens(f, self.mark, refs)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return not _last_voyage(w) and can_pick(self.loot, w, f, self._keepable(w, f))


class Give(Eligible):
    """Hand loot you hold to one other player; it fires nothing (E3)."""

    loot: TokenSelector
    to: Players
    mark: int
    __node_fields__ = declare("loot", "to", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"loot"}), frozenset({"loot"}),
        "each token picked moves from the owner's loot to the receiver's; nothing else changes")

    def __init__(self, loot: TokenSelector, to: Players, mark: int = -1) -> None:
        object.__setattr__(self, "loot", loot)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        found = self.to.seats(w, f, self)  # the checker allows only phrases naming one player
        if not found and isinstance(self.to, ChosenPlayer):  # E42: no receiver the gift changes: nothing happens
            _tokens(f, self.mark, [])
            return f.pc + 1
        if not found:  # "the owner of" a neutral card: nobody to give to, so the step names nobody
            if isinstance(self.to, OwnersOf):
                leave_mark(f, self.to.slot, (), (), 0, False)
            raise Unbound
        to = found[0][0]
        refs = [r for r in self.loot.pick(w, f) if r[0] == "held"] if to != f.seat else []
        for ref in refs:
            remove_token(w, ref)
            w.seats[to].loot.append(ref[2])
        if refs:
            w.log(journal.GIVE_LOOT_FROM, f.seat, tuple(x for r in refs for x in (f"seat {r[1]}", r[2])), to,
                  source_name(f))
        _tokens(f, self.mark, refs)
        return f.pc + 1

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        """A character whose owner the owner of the ability may pick: another player (a gift to yourself is none),
        when there is loot to give (with none, no receiver is changed: nobody is offered, E25, E42)."""
        return ref[0] is not None and ref[0] != f.seat and can_pick(self.loot, w, f)

    def can_change(self, w: Work, f: Frame) -> bool:
        return any(s != f.seat for s in _preview(self.to, w, f, self)) and can_pick(self.loot, w, f)


class Draw(Record):
    """Random tokens from the bag into your loot, firing nothing (unlike ``take``)."""

    n: int
    per: Counter | None
    mark: int
    __node_fields__ = declare("n", per=None, mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"loot", "bag", "random"}), frozenset({"loot"}),
        "n (times the counter) tokens, or as many as the bag holds, leave the bag at random and join the "
        "owner's loot; nothing else changes")

    def __init__(self, n: int, per: Counter | None = None, mark: int = -1) -> None:
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "per", per)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        # Bounded by what exists: past the bag's last token a draw finds nothing (and draws no number).
        count = min(self.n * (self.per.count(w, f) if self.per is not None else 1), sum(w.bag.values()))
        drawn = [k for k in (w.draw_from_bag() for _ in range(count)) if k is not None]
        w.seats[f.seat].loot.extend(drawn)
        if drawn:
            w.log(journal.DRAW_LOOT_BY, f.seat, tuple(drawn), source_name(f))
        if self.mark >= 0:
            leave_mark(f, self.mark, (), (), len(drawn), bool(drawn))
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        count = self.n * (self.per.count(w, f) if self.per is not None else 1)
        return count > 0 and any(w.bag.values())


class Swap(Record):
    """One token for one token between two places."""

    first: TokenSelector
    second: TokenSelector
    mark: int
    __node_fields__ = declare("first", "second", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"loot", "bag", "random"}), frozenset({"loot"}),
        "the two tokens picked trade places (a random one drawn from the game's stream); nothing else changes")

    def __init__(self, first: TokenSelector, second: TokenSelector, mark: int = -1) -> None:
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "second", second)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        # R1/R22: with nothing on either side (the last day has no tomorrow) ask nothing.  A token
        # trades only for one of another kind (a map for a map changes nothing: E22), so a side the
        # owner chooses offers only tokens the other side has a different kind for.  A random side
        # draws from every token its phrase names, so each is as likely as the phrase says; a draw
        # of the other token's kind then trades nothing (the no-change rule is read on the outcome).
        every_first, every_second = self.first.phrase.tokens(w, f), self.second.phrase.tokens(w, f)
        firsts, seconds = _tradable(every_first, every_second), _tradable(every_second, every_first)
        if not (firsts and seconds):
            leave_mark(f, self.mark, (), (), 0, False)
            return f.pc + 1
        random_first, random_second = isinstance(self.first, RandomToken), isinstance(self.second, RandomToken)
        if random_first and not random_second:
            # Ask first, then draw: a step suspended for an answer re-runs, and must not draw twice.
            b_refs = self.second.pick(w, f, seconds)
            a_refs = self.first.pick(w, f, every_first) if b_refs else []
        else:
            a_refs = self.first.pick(w, f, every_first if random_first else firsts)
            b_refs = (self.second.pick(w, f, every_second if random_second else
                                       [r for r in seconds if r[2] != a_refs[0][2]]) if a_refs else [])
        if not a_refs or not b_refs or a_refs[0][2] == b_refs[0][2]:
            leave_mark(f, self.mark, (), (), 0, False)
            return f.pc + 1
        ra, rb = a_refs[0], b_refs[0]
        remove_token(w, ra)
        remove_token(w, rb)
        place_token(w, ra, rb[2])
        place_token(w, rb, ra[2])
        leave_mark(f, self.mark, (), (), 1, True)
        w.log(journal.SWAP_LOOT_FROM, f.seat, ra[2], _place(ra), rb[2], _place(rb), source_name(f))
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return bool(_tradable(self.first.phrase.tokens(w, f), self.second.phrase.tokens(w, f)))


def _tradable(mine: list[LootRef], theirs: list[LootRef]) -> list[LootRef]:
    """The tokens of ``mine`` that ``theirs`` holds a token of another kind for."""
    kinds = {r[2] for r in theirs}
    return [r for r in mine if kinds - {r[2]}]


# ------------------------------------------------------------------ players acting for themselves
def in_turn(seats: Sequence[int], owner: int, n: int) -> list[int]:
    """Players acting for themselves, one after another from the ability's owner's left (E32): the
    next seat first, the owner (if among them) last; each once."""
    return sorted(dict.fromkeys(seats), key=lambda s: (s - owner - 1) % n)


class _Subject(Eligible):
    """Which characters may name the player who acts ("the owner of a ... discards ..."): one whose owner
    would act on something (E25)."""

    action: TheyReturn | TheyDiscard | TheyGive
    __node_fields__ = declare("action")

    def __init__(self, action: TheyReturn | TheyDiscard | TheyGive) -> None:
        object.__setattr__(self, "action", action)

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        return ref[0] is not None and self.action.acts_for(w, f, ref[0])


def _acting(subject: Players, action: TheyReturn | TheyDiscard | TheyGive, w: Work, f: Frame) -> list[int]:
    """The seats ``subject`` names, in the order they act (E32)."""
    return in_turn([seat for seat, _ in subject.seats(w, f, _Subject(action))], f.seat, w.n)


def _each_side(w: Work, f: Frame, seats: list[int], pick: Callable[[Frame], list[_T]]) -> list[tuple[int, list[_T]]]:
    """What each seat picks, from its own side (its answers): every question before anything moves."""
    out = []
    for seat in seats:
        side = seen_from(f, seat)
        picked = pick(side)
        f.pos = side.pos
        out.append((seat, picked))
    return out


# Module-level pickers, bound with partial: mypyc cannot compile a lambda in a method of these classes.
def _pick_tokens(loot: TokenSelector, w: Work, side: Frame) -> list[LootRef]:
    return loot.pick(w, side)


def _pick_cards(target: Selector, w: Work, eligible: Eligible, side: Frame) -> list[CardRef]:
    return target.pick(w, side, eligible)


class TheyReturn(Record):
    """Each player ``subject`` names returns tokens they hold, which they pick, to the bag (E32)."""

    subject: Players
    loot: TokenSelector  # read from each player's side: "they hold" is their loot
    mark: int
    __node_fields__ = declare("subject", "loot", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"loot", "bag"}), frozenset({"loot"}),
        "each player named, in turn from the owner's left, picks the tokens the phrase describes on their own side "
        "(they answer every question, all before any token moves) and those tokens go into the bag; nothing else "
        "changes")

    def __init__(self, subject: Players, loot: TokenSelector, mark: int = -1) -> None:
        object.__setattr__(self, "subject", subject)
        object.__setattr__(self, "loot", loot)
        object.__setattr__(self, "mark", mark)

    def acts_for(self, w: Work, f: Frame, seat: int) -> bool:
        return can_pick(self.loot, w, seen_from(f, seat))

    def act(self, w: Work, f: Frame) -> int:
        picks = _each_side(w, f, _acting(self.subject, self, w, f), partial(_pick_tokens, self.loot, w))
        source = source_name(f)
        count = 0
        for seat, refs in picks:
            for ref in refs:
                remove_token(w, ref)
                w.to_bag(ref[2])
            if refs:
                w.log(journal.RETURN_LOOT_FROM, seat, tuple(x for r in refs for x in (_place(r), r[2])), source)
            count += len(refs)
        if self.mark >= 0:
            leave_mark(f, self.mark, (), (), count, count > 0)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return any(self.acts_for(w, f, seat) for seat in _preview(self.subject, w, f))


class TheyDiscard(Eligible):
    """Each player ``subject`` names discards characters of their own piles, which they pick (E32)."""

    subject: Players
    target: Selector  # read from each player's side: "their hand" is their hand
    mark: int
    __node_fields__ = declare("subject", "target", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"cards"}), frozenset({"discard"}),
        "each player named, in turn from the owner's left, picks the characters the phrase describes on their own "
        "side (they answer, all before any card moves), and each goes from where it was to its owner's graveyard; "
        "nothing else changes")

    def __init__(self, subject: Players, target: Selector, mark: int = -1) -> None:
        object.__setattr__(self, "subject", subject)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "mark", mark)

    def eligible(self, w: Work, f: Frame, ref: CardRef) -> bool:
        return ref[0] is not None and not w.in_zone(ref, "graveyard")

    def acts_for(self, w: Work, f: Frame, seat: int) -> bool:
        return self.target.any(w, seen_from(f, seat), self)

    def act(self, w: Work, f: Frame) -> int:
        picks = _each_side(w, f, _acting(self.subject, self, w, f), partial(_pick_cards, self.target, w, self))
        source = source_name(f)
        after: list[CardRef] = []
        before: list[tuple[CardRef, str | None]] = []
        for seat, refs in picks:
            for r in refs:
                zone = w.zone_of(r)
                if w.discard(r, (seat, source)):
                    after.append(r)
                    before.append((r, zone))
        _moved(f, self.mark, after, before)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return any(self.acts_for(w, f, seat) for seat in _preview(self.subject, w, f))


class TheyGive(Record):
    """Each player ``subject`` names gives tokens they hold, which they pick, to the player ``to`` names,
    read from the owner's side ("to you"); a player never gives to themselves (E32)."""

    subject: Players
    loot: TokenSelector  # read from each giver's side: "they hold" is their loot
    to: Players  # read from the owner's side
    mark: int
    __node_fields__ = declare("subject", "loot", "to", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"loot"}), frozenset({"loot"}),
        "each player named but the receiver, in turn from the owner's left, picks the tokens the phrase describes "
        "on their own side (they answer, all before any token moves) and those tokens join the receiver's loot; "
        "nothing else changes")

    def __init__(self, subject: Players, loot: TokenSelector, to: Players, mark: int = -1) -> None:
        object.__setattr__(self, "subject", subject)
        object.__setattr__(self, "loot", loot)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "mark", mark)

    def acts_for(self, w: Work, f: Frame, seat: int) -> bool:
        receiver = _preview(self.to, w, f)
        return bool(receiver) and receiver[0] != seat and can_pick(self.loot, w, seen_from(f, seat))

    def act(self, w: Work, f: Frame) -> int:
        try:
            givers = _acting(self.subject, self, w, f)
            found = self.to.seats(w, f, ANYONE)  # the checker allows only phrases naming one player
            if not found:
                raise Unbound
        except Unbound:  # the step names nobody: neither of its phrases named anyone
            for players in (self.subject, self.to):
                if isinstance(players, OwnersOf):
                    leave_mark(f, players.slot, (), (), 0, False)
            raise
        to = found[0][0]
        picks = _each_side(w, f, [s for s in givers if s != to], partial(_pick_tokens, self.loot, w))
        source = source_name(f)
        count = 0
        for seat, refs in picks:
            for ref in refs:
                remove_token(w, ref)
                w.seats[to].loot.append(ref[2])
            if refs:
                w.log(journal.GIVE_LOOT_FROM, seat, tuple(x for r in refs for x in (f"seat {r[1]}", r[2])), to,
                      source)
            count += len(refs)
        if self.mark >= 0:
            leave_mark(f, self.mark, (), (), count, count > 0)
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return any(self.acts_for(w, f, seat) for seat in _preview(self.subject, w, f))


class CountExtra(Record):
    """Count ``n`` extra tokens of ``kind`` in this voyage's set scoring (E2: before other anchors)."""

    n: int
    kind: str
    mark: int
    __node_fields__ = declare("n", "kind", mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset({"extra"}), frozenset(),
        "the owner's extra count of the kind rises by n for this voyage's set scoring; nothing else changes")

    def __init__(self, n: int, kind: str, mark: int = -1) -> None:
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        w.extra[(f.seat, self.kind)] = w.extra.get((f.seat, self.kind), 0) + self.n
        leave_mark(f, self.mark, (), (), self.n, self.n > 0)  # "count 0 extra" did nothing
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return self.n > 0


class StandingRule(Record):
    """``take no loot``: read when the rules load (the card takes no dusk loot); nothing runs."""

    mark: int
    __node_fields__ = declare(mark=-1)
    CONTRACT: ClassVar[Contract] = Contract(frozenset(), frozenset(), "nothing changes")

    def __init__(self, mark: int = -1) -> None:
        object.__setattr__(self, "mark", mark)

    def act(self, w: Work, f: Frame) -> int:
        return f.pc + 1

    def can_change(self, w: Work, f: Frame) -> bool:
        return False


Action = (Change | GainCoins | PaysYou | MoveReputation | Discard | Put | Play | Keep | Borrow | Take | ReturnLoot
          | KeepLoot | Give | Draw | Swap | TheyReturn | TheyDiscard | TheyGive | CountExtra | StandingRule)
