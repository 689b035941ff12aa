"""What is happening, in words and marks: the question asked, what the last step touched, who won.

Everything is read from data, not from the engine's internal names: the question from the
decision's kind, source and prompt, the marks from the last step's typed events
(``libertalia.events``), the ranking from the seats' scores and the winners the game names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from .. import events as ev

if TYPE_CHECKING:
    from ..state import CardRef, Decision, Event, PlayerState

_ASKS: dict[str, tuple[str, str]] = {
    "play_character": ("picks a character to play today, in secret", "picks a character to play for {src}"),
    "choose_loot": ("chooses loot", "chooses loot for {src}"),
    "choose_character": ("chooses a character", "chooses a character for {src}"),
    "choose_option": ("chooses an option", "chooses an option of {src}"),
    "may": ("decides whether to use an ability", "decides whether to use {src}"),
    "order_abilities": ("chooses which ability resolves next", "chooses which ability of {src} resolves next"),
}
"""What a seat does when asked a decision of each kind, as a verb phrase, without and with the source
that asks ("seat 2 chooses loot", "seat 2 chooses loot for its Cook")."""
_ANSWERS = ("answers a question", "answers a question of {src}")


def base_name(name: str) -> str:
    """A card's printed name: ``Cook#1`` (seat 1's Cook, held by another seat) is a Cook."""
    return name.partition("#")[0]


def question(d: Decision, island: Sequence[CardRef], ships: Sequence[Sequence[str]], kinds: Iterable[str]) -> str:
    """The decision as a sentence about its seat: "Seat 2 chooses loot for its Cook".

    The source (the card or loot whose ability asks) is named as the asked seat's own ("its Cook")
    when that seat has it on the island or in its ship, or is a loot kind; as another seat's when
    another has it there ("seat 1's Cook"), and as "the Cook" otherwise."""
    plain, sourced = _ASKS.get(d.kind, _ANSWERS)
    who = f"Seat {d.player}"
    source = d.source
    if not source:
        return f"{who} {plain}"
    owners = [seat for seat, name in island if seat is not None and base_name(name) == source]
    owners += [seat for seat, ship in enumerate(ships) if any(base_name(name) == source for name in ship)]
    mine = source in set(kinds) or d.player in owners
    whose = "its" if mine else f"seat {owners[0]}'s" if owners else "the"
    return f"{who} {sourced.format(src=f'{whose} {source}')}"


def _stems(sentence: str) -> set[str]:
    words = "".join(ch if ch.isalnum() else " " for ch in sentence.lower()).split()
    return {word.removesuffix("s") for word in words}


def says_more(prompt: str, headline: str) -> bool:
    """Whether the decision's own prompt ("choose loot for your Cook") adds words to the headline built
    from it ("Seat 2 chooses loot for its Cook"): only then is it shown beneath, so nothing is said twice."""
    return not _stems(prompt) <= _stems(headline) | {"your", "you"}


@attrs.frozen
class Marks:
    """What the last step touched, each as (seat, name): the cards that acted or were played, the
    tokens that joined a seat's loot, the cards discarded or moved, and the seats whose reputation
    token moved.  Counted, so that two tokens of a kind taken mark two."""

    acted: frozenset[tuple[int | None, str]] = frozenset()
    played: frozenset[tuple[int | None, str]] = frozenset()
    taken: Counter[tuple[int, str]] = attrs.field(factory=Counter)
    discarded: Counter[tuple[int, str]] = attrs.field(factory=Counter)
    moved: Counter[tuple[int, str]] = attrs.field(factory=Counter)
    reputation: frozenset[int] = frozenset()
    loot_acted: frozenset[tuple[int, str]] = frozenset()  # a held token whose ability acted (a saber's discard)

    @property
    def empty(self) -> bool:
        return not (self.acted or self.played or self.taken or self.discarded or self.moved or self.reputation
                    or self.loot_acted)


def marks(events: Iterable[Event], kinds: Iterable[str]) -> Marks:
    """The marks of ``events`` (the last step's): read from their typed fields."""
    loot = set(kinds)
    acted: set[tuple[int | None, str]] = set()
    played: set[tuple[int | None, str]] = set()
    taken: Counter[tuple[int, str]] = Counter()
    discarded: Counter[tuple[int, str]] = Counter()
    moved: Counter[tuple[int, str]] = Counter()
    reputation: set[int] = set()
    loot_acted: set[tuple[int, str]] = set()
    for e in events:
        actor = e.by_seat if isinstance(e, ev.Discarded) else e.seat
        if isinstance(e, ev.PutOnIsland):
            played.add((e.seat, e.card))
            if e.cause and e.cause not in loot:
                acted.add((e.seat, e.cause))
        elif isinstance(e, ev.Played | ev.PilfererPlayed):
            played.add((e.seat, e.card))
        elif e.source and actor is not None:
            (loot_acted if e.source in loot else acted).add((actor, e.source))
        if isinstance(e, ev.LootTaken):
            taken[(e.seat, e.loot)] += 1
            if e.card:
                acted.add((e.seat, e.card))
        elif isinstance(e, ev.LootGiven):
            taken.update((e.to_seat, kind) for kind in e.loot)
        elif isinstance(e, ev.LootDrawn):
            taken.update((e.seat, kind) for kind in e.loot)
        elif isinstance(e, ev.LootSwapped) and e.to_seat is not None:
            taken[(e.to_seat, e.loot)] += 1
        elif isinstance(e, ev.Discarded):
            discarded[(e.target_seat, e.target)] += 1
        elif isinstance(e, ev.Moved | ev.KeptAboard) and e.card is not None:
            moved[(e.seat, e.card)] += 1
        elif isinstance(e, ev.TakenOver):
            moved[(e.seat, f"{e.target}#{e.target_seat}")] += 1
        elif isinstance(e, ev.ReputationChanged | ev.ReputationMovedTo | ev.Pushed | ev.ReputationOverflowed):
            reputation.add(e.seat)
    return Marks(frozenset(acted), frozenset(played), taken, discarded, moved, frozenset(reputation),
                 frozenset(loot_acted))


def ranking(players: Sequence[PlayerState], winners: Sequence[int]) -> list[tuple[int, PlayerState]]:
    """The seats by final score, best first, the winners first among equals; each with its place
    (equal scores share a place, except that a winner on the tie-break places above the others)."""
    order = sorted(players, key=lambda p: (-p.score, p.seat not in winners, p.seat))
    out: list[tuple[int, PlayerState]] = []
    for i, p in enumerate(order):
        prev = order[i - 1] if i else None
        same = prev is not None and prev.score == p.score and (prev.seat in winners) == (p.seat in winners)
        out.append((out[-1][0] if same else i + 1, p))
    return out


def winner_line(players: Sequence[PlayerState], winners: Sequence[int], automa: int | None) -> str:
    """"Seat 2 wins with 54 points"; a shared win names every winner, a win on the tie-break says so."""
    if not winners:
        return "The game is over"
    best = players[winners[0]].score
    names = [("Automa" if w == automa else f"Seat {w}") for w in winners]
    if len(winners) > 1:
        return f"{', '.join(names[:-1])} and {names[-1]} share the win with {best} points"
    tied = [p.seat for p in players if p.score == best]
    tie = f" (tied with {', '.join(f'seat {t}' for t in tied if t != winners[0])}; wins on reputation)" \
        if len(tied) > 1 else ""
    return f"{names[0]} wins with {best} points{tie}"
