"""The game's timetable: voyages, days and phases, as a resumable machine.

Each step function does one unit of work and either moves ``w.step`` on,
pushes ability frames to run, or asks a question (``Work.question``: the step
returns and ``run`` stops).  All positions (which card is next, which sub-step)
live in the state, so a game can stop at any question and resume after a save
and load: the step runs again from its start and replays the answer.  The
working copy that stopped keeps a ``Resume`` instead, and finishes the step
where it asked (``driver.answer``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Final

from ..errors import StepBudgetExceeded
from ..state import CardRef, Decision, Option
from . import automa, journal
from .ordering import clashes
from .program.base import NOTHING_DONE, Unbound
from .specs import Rules, SoloCard
from .work import Frame, Queued, Resume, Suspend, Work, new_decision

STEP_BUDGET: Final = 100_000
"""Instructions and flow steps ``run`` may execute between two decisions.

Between two decisions the bundled cards run fewer than 300 (no random game of either
edition needed more), so going past this means a card text loops.
"""
RECENT_SOURCES: Final = 8
"""How many of the most recently finished abilities a ``StepBudgetExceeded`` names."""


def run(w: Work, steps: int = 0) -> None:
    """Advance until a question needs an answer or the game is over.

    ``steps`` counts a step already run since the last question (one resumed: ``driver.answer``).
    Raises ``StepBudgetExceeded`` (``w`` is then garbage: callers hold the frozen
    game they started from) past ``STEP_BUDGET`` steps without a question.
    """
    w.resume = None  # whatever stopped before runs again from its start, if it is still there
    answered = w.answered
    # Sources of the abilities that finished last: with the frames still on the
    # stack they name the cards of a loop, whether it recurses or repeats.  A plain list,
    # trimmed now and then (compiled, appending to it is native; to a deque, a generic call).
    recent: list[str] = []
    frames = w.frames  # the engine's hottest loop: the stack and the flow's answers, held locally
    flow = w.flow
    try:
        while True:
            steps += 1
            if steps > STEP_BUDGET:
                if w.answered != answered:  # live mode: the budget runs from the last answer
                    steps, answered = 0, w.answered
                    continue
                raise StepBudgetExceeded(
                    f"the game ran {STEP_BUDGET:,} steps without asking anything (voyage {w.voyage}, "
                    f"day {w.day}, {w.step})",
                    [*(f.source for f in reversed(frames)), *reversed(recent[-RECENT_SOURCES:])])
            if frames:
                f = frames[-1]
                pc = f.pc
                if pc >= len(f.code):
                    recent.append(frames.pop().source)
                    if len(recent) > 8 * RECENT_SOURCES:
                        del recent[:-RECENT_SOURCES]
                    continue
                f.pos = 0
                try:
                    f.pc = f.code[pc](w, f)
                except Unbound:  # it speaks of a character nobody named: the step does nothing
                    _skip(w, f)
                if f.answers:
                    f.answers.clear()
                continue
            step = w.step
            if step == "over":
                return
            flow.pos = 0
            _STEPS[step](w)
            if w.decision is not None:  # the step stopped at its question (``Work.question``)
                return
            if flow.answers:
                flow.answers.clear()
    except Suspend:
        return


def _skip(w: Work, f: Frame) -> None:
    """Move past a step whose reference is unbound, leaving the mark of a binder that did nothing."""
    step = w.tables.sources[f.source][f.index].steps[f.pc]
    slot: int = getattr(step, "mark", -1)
    if slot >= 0:
        f.marks[slot] = NOTHING_DONE
    f.pc += 1


def run_direct(w: Work, f: Frame) -> None:
    """Run a ``direct`` ability (one that neither asks nor starts another) start to end, unstacked."""
    code = f.code
    pc = 0
    while pc < len(code):
        f.pc = pc
        try:
            pc = code[pc](w, f)
        except Unbound:
            _skip(w, f)
            pc = f.pc


def run_coins(w: Work, seat: int, source: str, coins: tuple[int, ...]) -> None:
    """An ability that only gains or loses fixed doubloons, run without a frame (the commonest kind)."""
    for n in coins:
        if n > 0:
            w.gain(seat, n)
        else:
            w.lose(seat, -n)
        if n:
            w.log(journal.CHANGE_DOUBLOONS, seat, n, source[2:])


# ---------------------------------------------------------------- voyage start
def _voyage(w: Work) -> None:
    board = w.rules.board
    days = board.voyage_days[w.voyage - 1]
    per_day = board.loot_per_day_for(w.n)
    w.days = [w.draw_many_from_bag(per_day) for _ in range(days)]
    count = board.deal[w.voyage - 1]
    dealt = []
    if w.automa is not None:
        # Solo: Automa's hand is the top of the solo deck; you take the same characters.
        assert board.solo is not None
        dealt = w.solo_deck[:board.solo.hand]
        del w.solo_deck[:board.solo.hand]
        for name in dealt:
            if name in w.undealt:
                w.undealt.remove(name)
    else:
        for _ in range(min(count, len(w.undealt))):
            dealt.append(w.undealt.pop(w.random(len(w.undealt))))
    dealt.sort(key=w.tables.ranks.__getitem__)
    for p in w.seats:
        p.hand.extend(dealt)
        p.hand.sort(key=w.tables.ranks.__getitem__)
    w.log(journal.VOYAGE, w.voyage, days, tuple(dealt))
    for seat, p in enumerate(w.seats):
        if board.start_doubloons == "income":
            income = board.track_income[w.reputation(seat)]
            p.coins += income
            w.log(journal.INCOME, seat, income)
        else:
            # Added, not set: the anchor banked the last voyage's purse to 0, and a handicap given at the
            # start stays on top of voyage 1's doubloons (docs/rulings.md, E39).
            start = int(board.start_doubloons)
            p.coins += start
            w.log(journal.START_COINS, seat, start)
    w.day = 1
    _start_day(w)


def _start_day(w: Work) -> None:
    w.step = "select"
    w.commits = [None] * w.n
    w.just_took = {}
    w.log(journal.DAY, w.voyage, w.day, tuple(w.today()))


# ---------------------------------------------------------------- selection
SELECT_PROMPT: Final = "choose a character to send to the island"


def forced_commits(hands: Sequence[Sequence[str]], commits: Sequence[str | None], automa: int | None = None,
                   ) -> tuple[list[str | None], int | None]:
    """Commit every seat whose pick is forced (one card); the next seat that has a real choice.

    ``None`` for the seat means everyone has chosen (R19: an empty hand skips).  Automa is
    never asked: her card is picked at the reveal.  Pure, so that ``Game.choose`` can record
    a pick without thawing the game.
    """
    out = list(commits)
    for seat, hand in enumerate(hands):
        if out[seat] is None and hand and seat != automa:
            if len(hand) > 1:
                return out, seat
            out[seat] = hand[0]
    return out, None


def selection_question(rules: Rules, seat: int, hand: Sequence[str]) -> Decision:
    return new_decision(seat, "play_character", _play_options(rules.play_options, hand), SELECT_PROMPT, None)


def _play_options(play: dict[str, Option], hand: Sequence[str]) -> tuple[Option, ...]:
    """The options of a selection, from ``Rules.play_options``."""
    return tuple([play[name] for name in hand])


def _select(w: Work) -> None:
    """One seat's pick a call: a step asks at most once, so that a suspended one replays exactly.

    Live (``Work.answerer``) nothing is ever replayed, so every seat picks in one pass,
    seat by seat: what ``forced_commits`` would do one question at a time.
    """
    if w.answerer is not None:
        commits, seats, automa, flow = w.commits, w.seats, w.automa, w.flow
        for picker in range(w.n):
            if commits[picker] is None and picker != automa:
                cards = seats[picker].hand
                if len(cards) > 1:
                    options = _play_options(w.tables.play_options, cards)
                    commits[picker] = w.ask(flow, picker, "play_character", options, SELECT_PROMPT, None)
                elif cards:
                    commits[picker] = cards[0]
        w.step = "reveal"
        return
    w.commits, seat = forced_commits([p.hand for p in w.seats], w.commits, w.automa)
    if seat is None:
        w.step = "reveal"
        return
    hand = w.seats[seat].hand  # kept sorted by rank
    key = w.question(w.flow, seat, "play_character", _play_options(w.tables.play_options, hand), SELECT_PROMPT, None)
    if key is None:
        w.resume = _Picking(seat)
        return
    w.commits[seat] = key


class _Picking(Resume):
    """``_select`` stopped at ``seat``'s pick: it records it (the next call asks the next seat)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def answer(self, w: Work, key: str) -> None:
        w.commits[self.seat] = key


def _reveal(w: Work) -> None:
    w.left_of_neutral = None
    w.ranks = {}
    neutrals = w.tables.neutrals[w.n] if w.automa is None else ()  # solo: no Midshipman
    arriving: list[CardRef] = [(None, name) for name in neutrals]
    for seat, name in enumerate(w.commits):
        if name is not None:
            w.seats[seat].hand.remove(name)
            arriving.append((seat, name))
    if w.automa is not None:
        arriving.extend(_solo_picks(w))
    # As if placed one by one (``insert_on_island``): a stable sort keeps equal keys in arrival order.
    arriving.sort(key=w.sort_key)
    w.island = arriving
    w.moves += 1
    w.commits = [None] * w.n
    # The island names every card played: one record stands for the plays and the reveal.
    played: list[int | str] = []
    for owner, name in w.island:
        played += (-1 if owner is None else owner, name)
    island = tuple(played)
    if w.automa is None:
        w.log(journal.PLAYS_REVEALED, island)
    else:
        w.log(journal.SOLO_PLAYS_REVEALED, w.automa, island)
    # The day's walk (R5, E26): every card on the island, left to right; ``cursor`` is the next to act.
    w.step, w.order, w.cursor = "sun", list(w.island), 0


def _solo_picks(w: Work) -> list[CardRef]:
    """After your pick: the Pilferer's card, the top solo card; then Automa's, by the table
    on the back of the new top card (the board's ``solo:`` block)."""
    solo = w.rules.board.solo
    assert solo is not None and w.automa is not None
    out: list[CardRef] = []
    if w.solo_deck:
        name = w.solo_deck.pop(0)
        out.append((None, name))
    hand = w.seats[w.automa].hand
    if hand:
        at = automa.table_pick(solo, w.solo_deck[0] if w.solo_deck else None, w.today(), hand,
                               [_symbol(solo.find(name)) for name in hand])
        name = hand.pop(at)
        out.append((w.automa, name))
    return out


def _symbol(card: SoloCard | None) -> bool:
    """S9: a character in Automa's hand that the solo deck has no card for shows no Automa symbol."""
    return card is not None and card.symbol


# ---------------------------------------------------------------- daytime
def _sun(w: Work) -> None:
    """R5: each card takes its sun turn in the day's walk, ``order`` from ``cursor`` on.

    ``order[:cursor]`` have had their turn; the rest are on the island, waiting.  ``Work``
    keeps it so as cards move: one that leaves is dropped, one that arrives is put in
    line (E26), so the walk itself needs no check.

    Solo (S2): Automa's sun abilities are watched; a card whose abilities changed nothing
    takes its "No effect" rank when the walk ends, and the island is sorted again.
    """
    if w.watching is not None:  # Automa's abilities that were stacked have all run
        _watched(w, *w.watching)
    order = w.order
    while w.cursor < len(order):
        ref = order[w.cursor]
        w.cursor += 1
        if ref[0] is None:
            continue
        if ref[1] not in w.tables.acting["sun"]:
            continue
        source = w.tables.card_sources[ref[1]]
        abilities = w.tables.timed[(source, "sun")]
        if abilities:
            watch = ref[0] == w.automa
            before = situation(w) if watch else ""
            if (source, "sun") in w.tables.all_direct:  # nothing to stack: run them here, in order
                running = w.tables.running[source]
                for i, _ in abilities:
                    ability = running[i]
                    if ability.coins is not None:
                        run_coins(w, ref[0], source, ability.coins)
                    else:
                        run_direct(w, Frame(source, i, ref[0], ref, ability.code, ref, ability.slots))
                if watch:
                    _watched(w, ref, before)
                continue
            if watch:
                w.watching = (ref, before)
            for i, _ in reversed(abilities):
                w.push_frame(source, i, ref[0], ref)
            return
    if w.no_effect:
        _rerank(w)
    w.step, w.order, w.cursor, w.sub = "dusk", list(reversed(w.island)), 0, 0
    w.log(journal.DUSK)
    w.left_of_neutral = _left_of_neutral(w)


def situation(w: Work) -> str:
    """A digest of everything an ability can change: doubloons, reputation, cards and loot (S2)."""
    seats = [(p.coins, p.score, p.hand, p.ship, p.graveyard, p.loot, p.kept, p.kept_loot, p.removed)
             for p in w.seats]
    state = (seats, w.track, w.island, w.days, w.bag, w.aside, sorted(w.extra.items()), w.solo_deck,
             w.solo_discard)
    return hashlib.blake2b(repr(state).encode(), digest_size=12).hexdigest()


def _watched(w: Work, ref: CardRef, before: str) -> None:
    w.watching = None
    if situation(w) == before:
        w.no_effect.append(ref)


def _rerank(w: Work) -> None:
    """S2: each Automa card whose sun ability changed nothing takes its "No effect" rank."""
    solo = w.rules.board.solo
    assert solo is not None
    reranked = []
    for ref in w.no_effect:
        card = solo.find(ref[1])
        if ref in w.island and card is not None:  # S9: a card with no solo card keeps its printed rank
            w.ranks[ref] = card.no_effect
            reranked.append(ref)
    w.no_effect = []
    w.island = sorted(w.island, key=w.sort_key)
    w.moves += 1
    # Logged once the island stands in its new order, as every event is logged once it is done
    # (``testing.moments`` shows the game as it stands after each event).
    for ref in reranked:
        w.log(journal.NO_EFFECT, ref[0], ref[1], f"{w.ranks[ref]:g}")


def _left_of_neutral(w: Work) -> CardRef | None:
    """R13: the card directly left of a loot-removing neutral card as dusk begins (not at reveal)."""
    players = w.n
    if w.automa is not None:
        return None  # solo: no Midshipman
    removing = {n.name for n in w.rules.board.neutrals if n.directly_left_removes_loot and players in n.players}
    for i, ref in enumerate(w.island):
        if ref[0] is None and ref[1] in removing:
            left = w.island[i - 1] if i > 0 else None
            return left if left is not None and left[0] is not None else None
    return None


# ---------------------------------------------------------------- dusk
def _dusk(w: Work) -> None:
    """R6, right to left: (remove,) take, resolve, board the ship."""
    flow = w.flow
    while w.cursor < len(w.order):
        ref = w.order[w.cursor]
        seat = ref[0]
        if seat is None or (w.sub == 0 and not w.on_island(ref)):
            if seat is None and w.automa is not None and w.on_island(ref):
                _pilferer_takes(w, ref)
            w.cursor, w.sub = w.cursor + 1, 0
            continue
        # Each sub-step moves ``sub`` on only after its question (if any) is
        # answered: a suspension re-runs the same sub-step with the answer.  A
        # call asks at most one question (``flow.pos`` counts them), so after
        # one it returns; a sub-step that asked nothing goes straight on, and
        # so does every one when playing live (nothing is ever re-run then).
        if w.sub == 0:
            if not _neutral_removal(w, ref, seat):
                return  # stopped at its question
            w.sub = 1
            if flow.pos and w.answerer is None:
                return
        if w.sub == 1:
            if not _dusk_take(w, ref, seat):
                return
            w.sub = 2
            if flow.pos and w.answerer is None:
                return
        if w.sub == 2:
            if not _drain(w, ordered=True, zone="island"):
                return
            w.sub = 3
        if w.leave_island(ref):  # it boards its owner's ship
            w.seats[seat].ship.append(ref[1])
        w.cursor, w.sub = w.cursor + 1, 0
    leftover = w.today()
    if leftover:
        if w.rules.board.leftover_loot == "bag":
            for kind in leftover:
                w.to_bag(kind)
        else:
            w.aside.extend(leftover)
        gone = tuple(leftover)
        leftover.clear()
        w.log(journal.LEFTOVER, gone)
    w.step, w.sub = "night", 0
    w.log(journal.NIGHT)


def _pilferer_takes(w: Work, ref: CardRef) -> None:
    """S3: the Pilferer takes the first token in the preference order; it goes back to the bag
    with no effect, and his card to the solo discard."""
    solo = w.rules.board.solo
    assert solo is not None
    today = w.today()
    if today:
        kind = min(today, key=solo.preference_of)
        today.remove(kind)
        w.to_bag(kind)
        w.log(journal.PILFERER_TAKES, kind)
    w.remove(ref)
    w.solo_discard.append(ref[1])


def _neutral_removal(w: Work, ref: CardRef, seat: int) -> bool:
    """R13: before the card left of a neutral at dusk takes loot, an opponent removes a token.

    ``False`` if it stopped at its question (``Work.question``).
    """
    if w.left_of_neutral != ref or not w.today():
        return True
    opponent = w.adjacent(seat)[0]
    options = _loot_options(w.tables.loot_options, w.today())
    kind = w.question(w.flow, opponent, "choose_loot", options,
                      f"remove a loot token before seat {seat}'s {ref[1]} takes one", None)
    if kind is None:
        w.resume = _Removing(opponent)
        return False
    _remove_loot(w, opponent, kind)
    return True


def _loot_options(loot_options: dict[str, Option], tokens: list[str]) -> list[Option]:
    """One option per kind among ``tokens``, in the order each kind first lies there.

    ``dict.fromkeys`` would do, but compiled it is a generic method call that builds a dict, at
    every dusk take: a day's loot is a handful of tokens, so a list of the kinds seen is cheaper.
    """
    seen: list[str] = []
    options: list[Option] = []
    for kind in tokens:
        if kind not in seen:
            seen.append(kind)
            options.append(loot_options[kind])
    return options


def _remove_loot(w: Work, opponent: int, kind: str) -> None:
    w.today().remove(kind)
    w.to_bag(kind)
    w.log(journal.REMOVE_LOOT, opponent, kind)


class _Removing(Resume):
    """``_dusk`` stopped at sub-step 0, ``opponent`` asked which token to remove (R13)."""

    __slots__ = ("opponent",)

    def __init__(self, opponent: int) -> None:
        self.opponent = opponent

    def answer(self, w: Work, key: str) -> None:
        _remove_loot(w, self.opponent, key)
        w.sub = 1


def _dusk_take(w: Work, ref: CardRef, seat: int) -> bool:
    """R6: the card takes a token of today's loot, and its and the token's dusk abilities wait in the queue.

    ``False`` if it stopped at its question (``Work.question``).
    """
    rules = w.tables
    name = ref[1]
    today = w.today()
    if today and name not in rules.no_loot:
        if today.count(today[0]) == len(today):  # one kind left: nothing to choose
            kind = today[0]
        else:
            options = _loot_options(rules.loot_options, today)
            asked = w.question(w.flow, seat, "choose_loot", options, f"choose loot for your {name}", name)
            if asked is None:
                w.resume = _Taking(ref, seat)
                return False
            kind = asked
        # As ``_Taking`` does, written out here: a call for every card at every dusk (with one per
        # queued ability in ``_drain``) cost 1% of a play-out's instructions.
        today.remove(kind)
        w.seats[seat].loot.append(kind)
        w.just_took[ref] = kind
        w.log(journal.TAKE_AT_DUSK, seat, name, kind)
        if kind in rules.timed_kinds["dusk"]:
            _queue_source(w, seat, "l:" + kind, "dusk", ref)
    _queue_card(w, seat, ref, "dusk")
    return True


class _Taking(Resume):
    """``_dusk`` stopped at sub-step 1, ``seat`` asked which token its ``ref`` takes (R6): it takes
    it, and the token's and the card's dusk abilities wait in the queue, as in ``_dusk_take``."""

    __slots__ = ("ref", "seat")

    def __init__(self, ref: CardRef, seat: int) -> None:
        self.ref = ref
        self.seat = seat

    def answer(self, w: Work, key: str) -> None:
        ref, seat, rules = self.ref, self.seat, w.tables
        w.today().remove(key)
        w.seats[seat].loot.append(key)
        w.just_took[ref] = key
        w.log(journal.TAKE_AT_DUSK, seat, ref[1], key)
        if key in rules.timed_kinds["dusk"]:
            _queue_source(w, seat, "l:" + key, "dusk", ref)
        _queue_card(w, seat, ref, "dusk")
        w.sub = 2


def _queue_source(w: Work, seat: int, source: str, timing: str, this: CardRef | None) -> None:
    for i, c in w.tables.timed.get((source, timing), ()):
        if not c.passive:
            w.queue.append((seat, source, i, this, c.last, c.first))


def _queue_card(w: Work, seat: int, ref: CardRef, timing: str) -> None:
    """Queue the ``timing`` abilities of ``seat``'s character ``ref``."""
    abilities = w.tables.card_entries[timing].get(ref[1])
    if abilities is not None:
        for source, i, last, first in abilities:
            w.queue.append((seat, source, i, ref, last, first))


def _queue_ship(w: Work, seat: int, timing: str) -> None:
    """Queue the ``timing`` abilities of every character aboard ``seat``'s ship."""
    entries = w.tables.card_entries[timing]
    queue = w.queue
    for name in w.seats[seat].ship:
        abilities = entries.get(name)
        if abilities is not None:
            ref = (seat, name)
            for source, i, last, first in abilities:
                queue.append((seat, source, i, ref, last, first))


# ---------------------------------------------------------------- night
def _night(w: Work) -> None:
    """R8: each player orders their own night abilities; R11 ``last`` ones after all."""
    if w.sub == 0:
        w.census = tuple([tuple(p.ship) for p in w.seats])
        for seat in range(w.n):
            _queue_ship(w, seat, "moon")
            _queue_held_loot(w, seat, "moon")
        _queued(w)
        w.sub = 1
    if not _drain(w, ordered=True, zone="ship"):
        return
    w.census = None
    if w.day < len(w.days):
        w.day += 1
        _start_day(w)
    else:
        w.step, w.sub = "anchor", 0
        w.log(journal.ANCHOR)


# ---------------------------------------------------------------- anchor
def _anchor(w: Work) -> None:
    """R3: every anchor change of a player is netted, then applied once, floored at 0.

    A board with ``voyage_end.anchor: characters_then_loot`` (C4) nets and applies the
    characters' changes first, then the loot's, so a loss cannot eat into the booty.
    """
    split = w.rules.board.anchor_order == "characters_then_loot"
    if w.sub == 0:
        w.net = [0] * w.n
        for seat in range(w.n):
            _queue_ship(w, seat, "anchor")
            if not split:
                _queue_held_loot(w, seat, "anchor")
        # Count adjustments (the Explorer) first: E2.  The queue's abilities as bits, read once for
        # the three questions asked of them (any early ones, any that may move loot, any that clash).
        mask = _bits(w, w.queue)
        if mask & w.tables.early_bits:
            w.queue.sort(key=lambda q: not w.tables.running[q[1]][q[2]].early)
        _queued(w, mask)
        w.contested = _contested(w, w.queue, mask)  # as the first drain would work it out: the same queue
        w.sub = 1
    if w.sub == 1:
        if not _drain(w, ordered=True, zone="ship", netted=True):
            return
        if split:
            _apply_net(w)
            w.net = [0] * w.n
            for seat in range(w.n):
                _queue_held_loot(w, seat, "anchor")
            mask = _bits(w, w.queue)
            _queued(w, mask)
            w.contested = _contested(w, w.queue, mask)
            w.sub = 2
    if w.sub == 2 and not _drain(w, ordered=True, zone="ship", netted=True):
        return
    _apply_net(w)
    for seat, p in enumerate(w.seats):
        banked, p.coins = p.coins, 0
        p.score += banked
        w.log(journal.BANK, seat, banked, p.score)
    w.net = None
    _voyage_end(w)


def _apply_net(w: Work) -> None:
    assert w.net is not None
    for seat, p in enumerate(w.seats):
        p.coins = max(0, p.coins + w.net[seat])


def _voyage_end(w: Work) -> None:
    board = w.rules.board
    for p in w.seats:
        stay, kept = list(p.kept_loot), []
        for kind in p.loot:
            if kind in stay:  # each keep holds back one token
                stay.remove(kind)
                kept.append(kind)
            else:
                w.to_bag(kind)
        p.loot, p.kept_loot = kept, []
        aboard = [n for n in p.ship if n in p.kept]
        leaving = [n for n in p.ship if n not in p.kept]
        if board.graveyard_after_voyage == "removed":
            p.removed.extend(p.graveyard)
            p.graveyard.clear()
        (p.removed if board.ship_after_voyage == "removed" else p.graveyard).extend(leaving)
        p.ship = aboard
        p.kept.clear()
    w.moves += 1
    for kind in w.aside:
        w.to_bag(kind)
    w.aside.clear()
    w.extra.clear()
    w.island.clear()
    w.days = []
    w.day = 0
    w.sub = 0
    if w.voyage >= w.tables.voyages:
        w.step = "over"
        w.log(journal.OVER, tuple(p.score for p in w.seats))
        scores = [p.score for p in w.seats]
        tied = [seat for seat, score in enumerate(scores) if score == max(scores)]
        if len(tied) > 1 and w.rules.board.winner_tie == "reputation":  # R26, said in the log
            w.log(journal.TIE_BROKEN, (max(tied, key=w.reputation), *tied))
    else:
        w.voyage += 1
        w.step = "voyage"


def _queue_held_loot(w: Work, seat: int, timing: str) -> None:
    """Queue the ``timing`` abilities of every token ``seat`` holds: one per token, ``once`` per kind.

    Loot goes in board order: a stormy chest that spends maps resolves before the maps score.
    """
    loot = w.seats[seat].loot
    if not loot:
        return
    entries = w.tables.loot_entries[timing]
    held = [kind for kind in loot if kind in entries]  # the tokens with an ability then
    if not held:
        return
    if len(held) > 1:
        held.sort(key=w.tables.kind_order.__getitem__)  # so tokens of a kind stand together
    queue = w.queue
    previous = ""
    for kind in held:
        again = kind == previous  # a second token of the kind: its ``once`` abilities are queued already
        for source, i, last, first, once in entries[kind]:
            if not (once and again):
                queue.append((seat, source, i, None, last, first))
        previous = kind


# ---------------------------------------------------------------- queues
def _drain(w: Work, *, ordered: bool, zone: str, netted: bool = False) -> bool:
    """Start the next queued ability; ``True`` once the queue is empty.

    Abilities whose card has left the zone they act from are dropped, and so are a
    held token's once it has left its holder.  The owner is asked for the order only
    when two or more differ and at least one is not a plain fixed gain; with ``netted``
    (anchor, R3) only when two of them could give a different game in the other order.
    """
    queue = w.queue
    if not queue:
        return True
    running = w.tables.running
    # Held tokens' night and anchor abilities wait for their tokens; abilities never queue more of them.
    # Checked once a call: between two calls a stacked ability may have moved loot, while the
    # abilities this loop runs on the spot (``direct``) change only doubloons and reputation.
    tokens = w.step in ("night", "anchor") and w.loot_may_move and any(q[1][0] == "l" for q in queue)
    contested: set[tuple[int, int]] = set()
    if netted and ordered:
        # Anchor (E8): a seat orders only its own abilities of one class (R11: first, plain, last), and
        # only where two of them could meet: the classes where that held when the queue was built (or
        # the game thawed).  As the queue drains a class only shrinks (nothing is queued meanwhile),
        # so one that commutes goes on commuting; one still listed is looked at again when its turn comes.
        if w.contested is None:  # thawed mid-anchor: worked out again from what is left (a class only shrinks)
            w.contested = _contested(w, queue, _bits(w, queue))
        contested = w.contested
        if not contested:
            ordered = False  # nothing queued can change another's game (the common case): the fixed order
    while queue:
        # Drop abilities whose card has left its zone first, so that nothing
        # changes before the question below (a resumed run must see the same group).
        # Unless no card moved and nothing was queued since the last check.
        if w.checked_moves != w.moves or w.checked_queue != len(queue):
            queue[:] = [q for q in queue if q[1][0] != "c" or w.in_zone((q[0], q[1][2:]), zone)]
        if tokens:
            queue[:] = _tokens_still_held(w, queue)
            tokens = False
        if not queue:
            break
        if len(queue) == 1:
            chosen = queue.pop()
        else:
            # R11: ``first`` abilities before the rest, ``last`` ones after; then by seat.
            at = _next_in_line(queue)
            chosen = queue[at]
            kin = _class_of(chosen) if ordered and netted else None
            # Anchor: counts first (E2), then ask only where the order can matter (E8).
            if ordered and not (netted and (kin not in contested or running[chosen[1]][chosen[2]].early)):
                owner = chosen[0]
                if chosen[5]:
                    group = [q for q in queue if q[0] == owner and q[5]]
                elif not chosen[4]:
                    group = [q for q in queue if q[0] == owner and not q[4]]
                else:
                    group = [q for q in queue if q[0] == owner]
                if netted:
                    group = [q for q in group if not running[q[1]][q[2]].early]
                    if not _order_matters(w, group):
                        contested.discard(kin)  # what is left of it commutes, and will
                        group = []
                if len(group) > 1:
                    ordered_next = _ask_order(w, chosen[0], group)
                    if ordered_next is None:
                        return False  # stopped at its question
                    chosen = ordered_next
                    at = queue.index(chosen)
            del queue[at]
        # ``_resolve``, written out: the queue's hottest path (see ``_dusk_take``).
        w.checked_moves, w.checked_queue = w.moves, len(queue)
        seat, source, index, this = chosen[0], chosen[1], chosen[2], chosen[3]
        ability = running[source][index]
        if not ability.direct:
            w.push_frame(source, index, seat, this)
            return False
        if ability.coins is not None:
            run_coins(w, seat, source, ability.coins)
        else:
            run_direct(w, Frame(source, index, seat, this, ability.code, this if source[0] == "c" else None,
                                ability.slots))
        if w.flow.pos and w.answerer is None:  # the order was asked: this call may ask nothing more
            return False
    return True


def _resolve(w: Work, chosen: Queued) -> bool:
    """Run the ability ``chosen``, just taken off the queue; ``True`` if it was stacked to run instead.

    As ``_drain`` does once it has chosen (the resumed ``_Ordering`` calls this).
    """
    w.checked_moves, w.checked_queue = w.moves, len(w.queue)
    seat, source, index, this = chosen[0], chosen[1], chosen[2], chosen[3]
    ability = w.tables.running[source][index]
    if not ability.direct:
        w.push_frame(source, index, seat, this)
        return True
    if ability.coins is not None:
        run_coins(w, seat, source, ability.coins)
    else:
        run_direct(w, Frame(source, index, seat, this, ability.code, this if source[0] == "c" else None,
                            ability.slots))
    return False


def _queued(w: Work, mask: int = -1) -> None:
    """Note whether any ability just queued may move held loot (its footprint writes loot, or anything).

    If none may, no token can leave its holder while this queue drains (every ability that runs
    is queued or started by a queued one), and ``_drain`` need not look at the tokens.  ``mask``:
    the queue's ``_bits`` when the caller has them (-1: read them here).
    """
    w.loot_may_move = bool((_bits(w, w.queue) if mask == -1 else mask) & w.tables.loot_movers)
    w.contested = None  # worked out by the first anchor drain of this queue (the anchor sets it at once)


def _class_of(q: Queued) -> tuple[int, int]:
    """The seat and R11 class (0 first, 1 plain, 2 last) of a queued ability: who orders it with what."""
    return q[0], 0 if q[5] else 1 if not q[4] else 2


def _contested(w: Work, queue: list[Queued], mask: int) -> set[tuple[int, int]]:
    """The classes (``_class_of``) of ``queue`` in which two abilities could meet at anchor (E8).

    ``mask`` is the queue's ``_bits``.  Count adjustments (E2) resolve before the rest and are never
    ordered: they are left out.  Only abilities that clash with some other (``Clashes.clashy``) can
    make a class matter, so a queue with fewer than two of them (nearly every anchor) is settled
    by two ANDs, without grouping it or working out a verdict for a mask never seen before.
    """
    table = clashes(w.rules)
    clashy = table.clashy(mask & ~w.tables.early_bits)
    if not clashy & (clashy - 1):  # fewer than two abilities that could meet anything
        return set()
    bits = w.tables.ability_bits
    classes: dict[tuple[int, int], int] = {}
    for q in queue:
        bit = bits[q[1]][q[2]] & clashy
        if bit:
            kin = _class_of(q)
            classes[kin] = classes.get(kin, 0) | bit
    return {kin for kin, kin_mask in classes.items() if table.matter(kin_mask)}


def _bits(w: Work, group: list[Queued]) -> int:
    """The group's abilities as one int, a bit each (``Rules.ability_bits``): repeats count once."""
    bits = w.tables.ability_bits
    mask = 0
    for q in group:
        mask |= bits[q[1]][q[2]]
    return mask


def _order_matters(w: Work, group: list[Queued]) -> bool:
    """Whether two different abilities of ``group`` could give another game in the other order (E8)."""
    return clashes(w.rules).matter(_bits(w, group))


def _next_in_line(queue: list[Queued]) -> int:
    """Where the next ability to resolve stands: the first ``first`` one, else the first not ``last``."""
    not_late = -1
    for i, q in enumerate(queue):
        if q[5]:
            return i
        if not_late < 0 and not q[4]:
            not_late = i
    return max(not_late, 0)


def _tokens_still_held(w: Work, queue: list[Queued]) -> list[Queued]:
    """A held token's night ability waits for its token: one that left its holder is dropped."""
    left: dict[tuple[int, str, int], int] = {}
    out = []
    for q in queue:
        seat, source, index = q[0], q[1], q[2]
        if source[0] == "l":
            key = (seat, source, index)
            if key not in left:
                left[key] = w.seats[seat].loot.count(source[2:])
            if left[key] <= 0:
                continue
            left[key] -= 1
        out.append(q)
    return out


def _ask_order(w: Work, seat: int, group: list[Queued]) -> Queued | None:
    """The ability of ``group`` that ``seat`` resolves next; ``None`` if it stopped at its question."""
    running = w.tables.running
    if all(running[q[1]][q[2]].constant_gain for q in group):
        return group[0]
    by_key: dict[str, Queued] = {}
    for q in group:
        by_key.setdefault(q[1][2:], q)
    if len(by_key) == 1:
        return group[0]
    options = [_order_option(w, q) for q in by_key.values()]
    answer = w.question(w.flow, seat, "order_abilities", options, "choose which ability resolves next", None)
    if answer is None:
        w.resume = _Ordering(by_key)
        return None
    return by_key[answer]


def _order_option(w: Work, q: Queued) -> Option:
    """The option naming a queued ability in an order question: its card or loot kind, and its text."""
    cache = w.tables.option_cache  # made once per ability, as ``cards.character_option`` makes its options
    option = cache.get(("order", q[1], q[2]))
    if option is None:
        key = q[1][2:]
        option = cache[("order", q[1], q[2])] = Option(key, f"{key}: {w.tables.sources[q[1]][q[2]].text}")
    return option


class _Ordering(Resume):
    """``_drain`` stopped at an order question: the ability named resolves, and the step's call
    ends there, as it does after every question (dusk, night and anchor all return on it)."""

    __slots__ = ("by_key",)

    def __init__(self, by_key: dict[str, Queued]) -> None:
        self.by_key = by_key

    def answer(self, w: Work, key: str) -> None:
        chosen = self.by_key[key]
        w.queue.remove(chosen)
        _resolve(w, chosen)


_STEPS: Final[dict[str, Callable[[Work], None]]] = {
    "voyage": _voyage,
    "select": _select,
    "reveal": _reveal,
    "sun": _sun,
    "dusk": _dusk,
    "night": _night,
    "anchor": _anchor,
}
