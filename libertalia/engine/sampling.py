"""Sampling what one seat cannot see: a whole game that seat cannot tell from the real one.

Search bots (determinised Monte Carlo, information-set search) need many games that agree
with everything a seat knows and differ in everything it does not.  ``sample_state(rules,
state, seat, rng)`` draws one (``Observation.sample_game(rng)`` wraps it in a ``Game``):
the sample's observation for ``seat`` equals the real one, and the sample is an ordinary
game that plays on to its end.  ``rng`` is a ``random.Random``
owned by the caller (the engine itself never touches the global ``random``): the same
generator state gives the same sample.

What a seat knows, and is kept
------------------------------
- The table: the island, ships, loot held (Classic booty too: ruling E15 shows it), every
  day's loot of this voyage, the track, doubloons, scores, kept and removed cards, the
  event log, and any suspended ability, queue or question (plain public data).  The bag's
  counts are the board's tokens minus those in sight, and the undealt characters are the
  edition's minus those dealt, since every deal is public: all seats receive the same
  characters (cards.md section 3 "Hands"; C5 for Classic).
- Other seats' hands and graveyards wherever a player who remembers everything could work
  them out.  A hand starts as the public deal, and every later move into or out of a hand
  or graveyard names its card: the reveal, the Scout's and Recruiter's plays, the
  Innkeeper's and the Witch's returns, discards, the Necromancer.  Graveyards lie face down
  (cards.md 1.1) but each card is seen going there.  A seat whose hand and graveyard only
  ever changed that way keeps them exactly.

What a seat does not know, and is drawn again
---------------------------------------------
- The Surgeon's pick.  "Put a character from your graveyard into your hand" is done face
  down (cards.md 1.2 rank 31 and 5.3 rank 22: "secretly"); the log says only that a card
  moved (``GRAVEYARD_TO_HAND``).  For a seat that did so, the sampler follows the log and
  keeps every hand still possible: each secret pick could be any card then in the
  graveyard, and later public moves rule some out (a card played from hand was in it; a
  card the Necromancer raises was not; Classic's campaign end shows the graveyard, E14).
  A possible hand is drawn with the odds of each secret pick being uniform over the
  graveyard of its moment.  Cards known to be in the hand stay there; sizes never change.
- Other seats' unrevealed picks (commit, then reveal): each is drawn again, uniformly from
  that seat's (possibly resampled) hand.
- Other seats' answers held by the step waiting for a question.  A step asks all its
  questions before anything moves (E32: with "each other player discards a character from
  their hand" every player picks, then the cards go), so an answer given to a step still
  waiting has changed nothing anyone saw.  Each is drawn again, uniformly among the options
  that seat has in the sample (``_Replay``), never replayed from the real game: the sampled
  hand may not hold the card really picked.  The seat's own answers are kept.  Should a
  drawn answer change the question the seat itself is asked (no card does so yet), the real
  hands and answers are kept instead: a sample must show its seat what the game shows it.
- The seed, which decides every later draw (loot of later voyages, the Stowaway's token,
  the deals): a fresh one from ``rng``.  ``undealt`` keeps its order, which nothing reads:
  a deal draws a random position in it.
- Solo: the solo deck's order (the Pilferer's cards, Automa's later hands and so your own
  later deals).  Automa's hand lies open, so it is kept.  The back of the top solo card
  is in sight (Automa's pick is read from it, cards.md section 4), so the top card is drawn
  among the cards that share its back, and the rest are shuffled.

Where the log cannot tell (a game started from a declared position, whose first hands the
log does not list, or a mod card moving characters in a way the log does not pin down),
a seat that made a secret move gets any split of its hand and graveyard cards with the
right sizes.  A game played with ``log=False`` has no record of what was seen: its hands
are kept as they are, so a Surgeon's pick there is not hidden.

The sample has no past of its own: its ``history`` starts empty (the real answers would
replay another game from another seed, and name picks the seat never saw) and its ``seed``
is the drawn one.  It saves and loads like any game with ``sample.rules``; with Uncharted
loot the sides came from the real seed, so loading the save with the rules before
``for_game`` draws other sides and is refused (``SaveError``).
"""

from __future__ import annotations

import contextlib
import random
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate
from types import MappingProxyType
from typing import Any

import attrs

from ..state import Decision, GameState, Option, PlayerState
from . import flow, journal
from .specs import BoardSpec, Rules, unchecked
from .work import Asker, Work

Zones = tuple[tuple[str, ...], tuple[str, ...]]
"""A seat's hand (sorted by rank) and graveyard."""

MAX_WORLDS = 20_000
"""Possible hands kept per seat before the sampler gives up following the log for it."""


def sample_state(rules: Rules, state: GameState, seat: int, rng: random.Random) -> GameState:
    """``sample_game`` on a frozen state: the state of the sampled game."""
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random (seeded by the caller), not {type(rng).__name__}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise ValueError(f"seat must be one of the game's seats, 0 to {state.players - 1}, not {seat!r}")
    s = state
    automa = s.automa
    seats: list[PlayerState] | None = None
    redrawn: list[int] = []
    for other, hidden in hidden_zones(rules, s).items():
        if other in (seat, automa):
            continue
        hand, graveyard = hidden.draw(rng)
        p = s.seats[other]
        if hand != p.hand or graveyard != p.graveyard:
            seats = seats if seats is not None else list(s.seats)
            seats[other] = attrs.evolve(p, hand=hand, graveyard=graveyard)
            redrawn.append(other)
    now = seats if seats is not None else s.seats
    commits = s.commits
    if any(pick is not None and other not in (seat, automa) for other, pick in enumerate(commits)):
        picks = list(commits)
        for other, pick in enumerate(commits):
            if pick is not None and other not in (seat, automa):
                hand = now[other].hand
                picks[other] = hand[rng.randrange(len(hand))]
        commits = tuple(picks)
    sampled = attrs.evolve(
        s,
        seats=tuple(now),
        commits=commits,
        seed=rng.getrandbits(64),
        solo_deck=_solo_deck(rules, s.solo_deck, rng),
        history=(),
    )
    if s.watching is not None:
        sampled = _watch_again(rules, s, sampled)
    if s.decision is None:
        return sampled
    if s.decision.player in redrawn or _replayed(sampled):
        # The question was put to a seat whose hand or graveyard was drawn again, or the step
        # waiting holds answers that it replays: run it again, others' answers drawn anew.
        again = _ask_again(rules, sampled, seat, rng)
        if _asked(again.decision, seat) == _asked(s.decision, seat):
            return again
        # Another's hidden answer changed what this seat is asked (no bundled card does that):
        # keep the real hands and answers rather than show the seat another question.
        return attrs.evolve(sampled, seats=s.seats, frames=s.frames, flow_answers=s.flow_answers,
                            commits=_picks(s, seat, rng), decision=s.decision)
    return sampled


def _picks(s: GameState, seat: int, rng: random.Random) -> tuple[str | None, ...]:
    """Other seats' unrevealed picks drawn again from their real hands."""
    automa = s.automa
    return tuple(pick if pick is None or other in (seat, automa) else
                 s.seats[other].hand[rng.randrange(len(s.seats[other].hand))]
                 for other, pick in enumerate(s.commits))


def _replayed(s: GameState) -> bool:
    """Whether the step waiting for an answer holds answers it was given before (``Work.question``)."""
    return bool(s.flow_answers) or any(f.answers for f in s.frames)


def _asked(d: Decision | None, seat: int) -> tuple[object, ...]:
    """What ``seat`` sees of a question (``Observation.decision``): all of its own, who and what of another's."""
    if d is None:
        return ()
    if d.player == seat:
        return (d.player, d.kind, d.options, d.prompt, d.source)
    return (d.player, d.kind, d.source)


def _ask_again(rules: Rules, sampled: GameState, seat: int, rng: random.Random) -> GameState:
    """The waiting step run again on the sample, up to its question (see ``_Replay``)."""
    w = _Replay(rules, sampled, seat, rng)
    flow.run(w)
    return w.freeze()


class _Replay(Work):
    """A working copy that runs a waiting step again, drawing anew the answers it replays from other seats.

    A step asks all its questions before anything moves (it is run again from its start at each
    answer), so an answer it holds has changed nothing anyone saw: another seat's character to
    discard, say, picked before the next seat is asked.  The sampling seat cannot know it, so each
    is drawn again, uniformly among the options that seat has in the sample (a redrawn hand may
    no longer hold the card picked in the real game).  The seat's own answers are kept; one that
    is no longer an option is drawn again too, so that the step never replays an impossible answer.
    """

    __slots__ = ("viewer", "draws")

    def __init__(self, rules: Rules, s: GameState, viewer: int, draws: random.Random) -> None:
        super().__init__(rules, s)
        self.viewer = viewer
        self.draws = draws

    def question(self, asker: Asker, seat: int, kind: str, options: Sequence[Option], prompt: str,
                 source: str | None) -> str | None:
        pos = asker.pos
        if pos < len(asker.answers) and len(options) > 1 and seat != self.automa:
            answer = asker.answers[pos]
            if seat != self.viewer or all(o.key != answer for o in options):
                asker.answers[pos] = options[self.draws.randrange(len(options))].key
        return super().question(asker, seat, kind, options, prompt, source)


@attrs.frozen
class Hidden:
    """The hands (with graveyards) one seat may hold as the other seats see it.

    Either ``worlds`` with their cumulative odds, or, where the log could not be followed,
    ``pool``: the seat's hand and graveyard cards, of which any ``hand_size`` may be the hand.
    """

    worlds: tuple[Zones, ...] = ()
    odds: tuple[float, ...] = ()
    pool: tuple[str, ...] = ()
    hand_size: int = 0
    ranks: Mapping[str, float] = attrs.field(factory=unchecked(dict), eq=False, repr=False)

    def draw(self, rng: random.Random) -> Zones:
        if self.worlds:
            at = bisect_right(self.odds, rng.random() * self.odds[-1])
            return self.worlds[min(at, len(self.worlds) - 1)]
        hand = set(rng.sample(self.pool, self.hand_size))
        return _sorted(hand, self.ranks), tuple(name for name in self.pool if name not in hand)


def _sorted(hand: Iterable[str], ranks: Mapping[str, float]) -> tuple[str, ...]:
    """A hand in rank order, equal ranks (a card and another seat's copy of it) by name: the
    same order in every process, whatever the set's."""
    return tuple(sorted(hand, key=lambda name: (ranks[name], name)))


def hidden_zones(rules: Rules, state: GameState) -> Mapping[int, Hidden]:
    """Per seat whose hand others cannot work out from the log, what it may be (see the module).

    A seat left out has its hand and graveyard known to every other seat.  The answer
    depends only on the event log (and on the state it belongs to), so it is remembered
    per log: search bots sample one position thousands of times.
    """
    packed = state.journal
    if not packed:
        return {}
    key = id(packed)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is packed:
        return hit[1]
    found = MappingProxyType(_analyse(rules, state, packed))
    if len(_MEMO) >= _MEMO_SIZE:
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):  # another thread got there first
            del _MEMO[next(iter(_MEMO))]
    _MEMO[key] = (packed, found)  # holding ``packed`` keeps its id from being reused
    return found


_MEMO: dict[int, tuple[bytes, Mapping[int, Hidden]]] = {}
_MEMO_SIZE = 64


# ---------------------------------------------------------------- solo
def _solo_deck(rules: Rules, deck: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    """The solo deck shuffled, its top card drawn among those sharing the visible back."""
    if len(deck) < 2:
        return deck
    solo = rules.board.solo
    assert solo is not None
    back = solo.card(deck[0]).picks
    alike = [i for i, name in enumerate(deck) if solo.card(name).picks == back]
    top = alike[rng.randrange(len(alike))]
    rest = [name for i, name in enumerate(deck) if i != top]
    rng.shuffle(rest)
    return (deck[top], *rest)


def _watch_again(rules: Rules, real: GameState, sampled: GameState) -> GameState:
    """S2 compares a digest of the whole game before and after an Automa sun ability.

    The digest covers hidden parts too, so the sample gets its own: if the ability has
    changed nothing yet, the digest of the sample now; otherwise the real one, which the
    sample does not match (something did change).
    """
    assert real.watching is not None
    ref, before = real.watching
    if flow.situation(Work(rules, real)) == before:
        return attrs.evolve(sampled, watching=(ref, flow.situation(Work(rules, sampled))))
    return sampled


# ---------------------------------------------------------------- reading the log
_G2H = journal.GRAVEYARD_TO_HAND
_MOVES = frozenset({journal.VOYAGE, journal.OVER, journal.PLAY, journal.PUT_ON_ISLAND, journal.DISCARD,
                    journal.DISCARD_BY, journal.TAKE_OVER, _G2H, journal.PUT, journal.KEEP})
_SHAPES = tuple(t.shapes for t in journal.TEMPLATES)

Entry = tuple[int, tuple[Any, ...]]
"""A logged event: its template number and its arguments, as ``journal`` packed them."""


def _entries(data: bytes, words: Sequence[str]) -> list[Entry]:
    """The events that move characters, as (template, arguments); the others are read past.

    Numbers inside lists stay zigzag-coded: the moves read none of them.
    """
    out: list[Entry] = []
    pos, end = 0, len(data)
    moves, shapes, legacy, plays = _MOVES, _SHAPES, journal.LEGACY, journal.PLAYS
    while pos < end:
        template = data[pos]
        pos += 1
        values: list[object] = []
        for shape in shapes[template]:
            if shape == "n":
                z, pos = _varint(data, pos)
                values.append(z >> 1 if not z & 1 else -((z + 1) >> 1))
            elif shape in "wa":
                word, pos = _word(data, pos, words)
                values.append(word)
            else:
                count, pos = _varint(data, pos)
                items: list[object] = []
                for i in range(count):
                    if shape == "S" or (shape == "R" and not i % 2):
                        z, pos = _varint(data, pos)
                        items.append(z)
                    else:
                        word, pos = _word(data, pos, words)
                        items.append(word)
                values.append(tuple(items))
        if template in legacy:  # a newer template: read as the one it adds arguments to
            template, kept = legacy[template]
            values = [values[i] for i in kept]
        elif template in plays:  # a day's plays and its reveal: every seated card was played
            flat: Any = values[plays[template]]  # (seat, name) pairs, flat, the seats zigzag-coded
            out.extend((journal.PLAY, (flat[i] >> 1, flat[i + 1])) for i in range(0, len(flat), 2) if not flat[i] & 1)
            continue
        if template in moves:
            out.append((template, tuple(values)))
    return out


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    b = data[pos]
    if b < 0x80:
        return b, pos + 1
    n = shift = 0
    while True:
        b = data[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if b < 0x80:
            return n, pos
        shift += 7


def _word(data: bytes, pos: int, words: Sequence[str]) -> tuple[str, int]:
    i, pos = _varint(data, pos)
    if i:
        return words[i], pos
    size, pos = _varint(data, pos)
    return data[pos:pos + size].decode(), pos + size


# ---------------------------------------------------------------- following the log
class _Seat:
    """One seat's cards as the table saw them move: in play, in the graveyard, and the
    hands still possible (each with its odds)."""

    __slots__ = ("play", "kept", "grave", "worlds", "ok")

    def __init__(self) -> None:
        self.play: list[str] = []  # island and ship
        self.kept: set[str] = set()  # staying aboard at the voyage's end
        self.grave: list[str] = []  # every card seen going to the graveyard and not seen leaving it
        self.worlds: dict[frozenset[str], float] = {frozenset(): 1.0}
        self.ok = True

    def receive(self, names: Iterable[str]) -> None:
        new = frozenset(names)
        if any(hand & new for hand in self.worlds):
            self.ok = False
        self.worlds = {hand | new: odds for hand, odds in self.worlds.items()}

    def leave(self, name: str, zone: str) -> None:
        """``name`` leaves the hand, the graveyard, or (``""``) whichever of them holds it."""
        buried = name in self.grave
        worlds: dict[frozenset[str], float] = {}
        for hand, odds in self.worlds.items():
            if name in hand:
                if zone == "graveyard":
                    continue
                hand = hand - {name}
            elif zone == "hand" or not buried:
                continue
            worlds[hand] = worlds.get(hand, 0.0) + odds
        if buried:
            self.grave.remove(name)
        self._set(worlds)

    def leave_play(self, name: str) -> None:
        if name in self.play:
            self.play.remove(name)
            self.kept.discard(name)
        else:
            self.ok = False

    def secret(self) -> None:
        """A card went from the graveyard to the hand face down: any card then buried."""
        worlds: dict[frozenset[str], float] = {}
        for hand, odds in self.worlds.items():
            buried = [name for name in self.grave if name not in hand]
            for name in buried:
                picked = hand | {name}
                worlds[picked] = worlds.get(picked, 0.0) + odds / len(buried)
        self._set(worlds)

    def reveal_graveyard(self, removed: Sequence[str], start: int) -> int:
        """Classic's campaign end: the graveyard joins ``removed`` (from ``start`` on), face up
        (E14), so only the hands that leave exactly those cards buried remain; how many it was."""
        grave = frozenset(self.grave)
        worlds: dict[frozenset[str], float] = {}
        sizes = set()
        for hand, odds in self.worlds.items():
            buried = grave - hand
            if frozenset(removed[start:start + len(buried)]) == buried:
                worlds[hand] = odds
                sizes.add(len(buried))
        self._set(worlds)
        self.grave = []
        if len(sizes) != 1:
            self.ok = False
            return 0
        return sizes.pop()

    def _set(self, worlds: dict[frozenset[str], float]) -> None:
        if not worlds or len(worlds) > MAX_WORLDS:
            self.ok = False
        else:
            self.worlds = worlds


def _analyse(rules: Rules, s: GameState, packed: bytes) -> dict[int, Hidden]:
    try:
        entries = _entries(packed, rules.lexicon)
    except (IndexError, UnicodeDecodeError):  # not a log this engine wrote: nothing to follow
        return {}
    secret = {int(values[0]) for template, values in entries if template == _G2H}
    secret.discard(-1 if s.automa is None else s.automa)  # Automa's hand and graveyard lie open
    if not secret:
        return {}
    try:
        seats = _follow(rules.board, s, entries)
    except (IndexError, ValueError, TypeError):
        seats = None
    out: dict[int, Hidden] = {}
    for seat in sorted(secret):
        if 0 <= seat < s.players:
            hidden = _possible(rules, s, seat, seats[seat] if seats is not None else None)
            if hidden is not None:
                out[seat] = hidden
    return out


def _follow(board: BoardSpec, s: GameState, entries: list[Entry]) -> list[_Seat] | None:
    """Every seat's cards moved as the log says; ``None`` if the log does not begin with a deal."""
    seats = [_Seat() for _ in range(s.players)]
    shown = [0] * s.players  # cards of each seat's ``removed`` accounted for so far
    dealt = False
    for template, v in entries:
        if template == journal.VOYAGE:
            if dealt:
                _voyage_end(board, s, seats, shown)
            dealt = True
            for z in seats:
                z.receive(v[2])
            continue
        if template == journal.OVER:
            _voyage_end(board, s, seats, shown)
            continue
        if not dealt:
            return None  # a declared position: its first hands were never in the log
        _move(seats, template, v)
    return seats


def _move(seats: list[_Seat], template: int, v: tuple[Any, ...]) -> None:
    """One logged move of a character (``_MOVES``) applied to the seats it concerns."""
    if template == journal.PLAY:
        z, name = seats[v[0]], str(v[1])
        z.leave(name, "hand")
        z.play.append(name)
    elif template == journal.PUT_ON_ISLAND:
        z, name = seats[v[0]], str(v[1])
        if name not in z.play:  # from the ship it stays in play
            z.leave(name, "")
            z.play.append(name)
    elif template in (journal.DISCARD, journal.DISCARD_BY):
        seat, name = (v[0], str(v[1])) if template == journal.DISCARD else (v[2], str(v[3]))
        z = seats[seat]
        if name in z.play:
            z.leave_play(name)
        else:
            z.leave(name, "")
        z.grave.append(name)
    elif template == journal.PUT:
        z, name, came, went = seats[v[0]], str(v[1]), v[2], v[3]
        if came in ("ship", "island"):
            z.leave_play(name)
        elif came in ("hand", "graveyard"):
            z.leave(name, str(came))
        else:
            z.ok = False
        if went == "hand":
            z.receive((name,))
        elif went == "graveyard":
            z.grave.append(name)
        else:
            z.play.append(name)
    elif template == _G2H:
        seats[v[0]].secret()
    elif template == journal.KEEP:
        seats[v[0]].kept.add(str(v[1]))
    elif template == journal.TAKE_OVER:
        _take_over(seats, v[0], v[1], str(v[2]))


def _take_over(seats: list[_Seat], seat: int, owner: int, base: str) -> None:
    """A character in play changes hands, marked with its first owner (``Work.take_over``)."""
    giver, taker = seats[owner], seats[seat]
    held = [name for name in giver.play if name.partition("#")[0] == base]
    if len(held) != 1:  # not in play, or two copies the log cannot tell apart
        giver.ok = taker.ok = False
        return
    name = held[0]
    giver.leave_play(name)
    mark = name.partition("#")[2]
    taker.play.append(base if mark and int(mark) == seat else (name if mark else f"{name}#{owner}"))


def _voyage_end(board: BoardSpec, s: GameState, seats: list[_Seat], shown: list[int]) -> None:
    """``flow._voyage_end`` for what the table sees: ships (and, Classic, graveyards) move on."""
    for seat, z in enumerate(seats):
        if board.graveyard_after_voyage == "removed":
            shown[seat] += z.reveal_graveyard(s.seats[seat].removed, shown[seat])
        leaving = [name for name in z.play if name not in z.kept]
        if board.ship_after_voyage == "removed":
            shown[seat] += len(leaving)
        else:
            z.grave.extend(leaving)
        z.play = [name for name in z.play if name in z.kept]
        z.kept = set()


def _possible(rules: Rules, s: GameState, seat: int, z: _Seat | None) -> Hidden | None:
    """What ``seat``'s hand may be, checked against the real state; ``None`` if only one hand fits."""
    p = s.seats[seat]
    hand, grave = frozenset(p.hand), frozenset(p.graveyard)
    cards = hand | grave
    ranks = rules.ranks
    loose = Hidden(pool=(*p.hand, *p.graveyard), hand_size=len(p.hand), ranks=ranks)
    if len(cards) != len(p.hand) + len(p.graveyard):
        return loose
    if z is None or not z.ok:
        return loose
    in_play = {name for owner, name in s.island if owner == seat} | set(p.ship)
    buried = frozenset(z.grave)
    if set(z.play) != in_play or len(buried) != len(z.grave):
        return loose
    worlds = {h: odds for h, odds in z.worlds.items() if len(h) == len(hand) and h | buried == cards}
    if hand not in worlds:
        return loose  # the log and the state disagree: trust neither to hide the right cards
    if len(worlds) == 1:
        return None
    order = [*p.graveyard, *(name for name in z.grave if name not in grave)]
    zones = tuple(
        (p.hand if h == hand else _sorted(h, ranks), tuple(name for name in order if name not in h))
        for h in worlds
    )
    return Hidden(worlds=zones, odds=tuple(accumulate(worlds.values())), ranks=ranks)
