"""A bare toy of Libertalia: the yardstick that ``ratio.py`` sets the engine against.

The toy is deliberately simplified and has no rules engine, no immutable state, no decisions as
data and no log: plain lists mutated in place, the speed that plain Python allows for about as
much game as a random play-out of the real one.  Its rules:

- Every seat holds the same 30 ranked characters; a voyage deals the same ranks to every seat
  from one shuffled pile (9, then 6 and 6), and a seat keeps what it did not play.
- 3 voyages of 4, 5 and 6 days.  Each day every seat plays a card drawn at random from its hand;
  the island is sorted by rank, ties broken by fame (a distinct number per seat).
- Day, in ascending order: the character's effect (doubloons, fame, a toll on poorer seats, or
  a den discarded to its right); dusk, in descending order: each character takes the richest
  tile of the day's loot, a greedy one a second; then all go to the den, where a night watch
  earns a doubloon.
- Anchor: each den's anchor bonus, then doubloons plus loot values are banked and the voyage
  resets to 10 doubloons, an empty den and no loot.

``play_game(seed, players)`` returns the banked scores: the same seed, the same scores.
"""

from __future__ import annotations

import random

NOTHING, PAY, RISE, TOLL, SINK, GREEDY, WATCH, BONUS = range(8)
"""Character effects: none; day doubloons; day fame; day toll; day discard; dusk tile; night; anchor."""

RANKS = 30
DAYS = (4, 5, 6)
DEALT = (9, 6, 6)
_PATTERN = (PAY, RISE, NOTHING, TOLL, GREEDY, PAY, WATCH, SINK, BONUS, NOTHING)
EFFECT = [NOTHING] + [_PATTERN[(rank * 3) % len(_PATTERN)] for rank in range(1, RANKS + 1)]
"""EFFECT[rank]: a fixed spread of the effects over the ranks (index 0 unused)."""
AMOUNT = [0] + [1 + rank % 4 for rank in range(1, RANKS + 1)]
"""AMOUNT[rank]: how many doubloons a PAY, WATCH or BONUS character earns."""
LOOT = [6] * 6 + [4] * 12 + [3] * 12 + [2] * 12 + [1] * 10 + [-3] * 8
"""Loot tiles by value; a voyage draws each day's tiles from its own shuffled copy."""


def play_game(seed: int, players: int = 4) -> tuple[int, ...]:
    """Play one seeded game of the toy and return each seat's banked score."""
    rng = random.Random(seed)
    fame = list(range(players))
    rng.shuffle(fame)
    hands: list[list[int]] = [[] for _ in range(players)]
    score = [0] * players
    pile = list(range(1, RANKS + 1))
    rng.shuffle(pile)
    for voyage, days in enumerate(DAYS):
        dealt = pile[-DEALT[voyage]:]
        del pile[-DEALT[voyage]:]
        for hand in hands:
            hand.extend(dealt)
        purse = [10] * players
        dens: list[list[int]] = [[] for _ in range(players)]
        chests: list[list[int]] = [[] for _ in range(players)]
        bag = LOOT[:]
        rng.shuffle(bag)
        for _ in range(days):
            _day(rng, players, hands, fame, purse, dens, chests, bag)
        for seat in range(players):
            for rank in dens[seat]:
                if EFFECT[rank] == BONUS:
                    purse[seat] += AMOUNT[rank]
            score[seat] += purse[seat] + sum(chests[seat])
    return tuple(score)


def _day(rng: random.Random, players: int, hands: list[list[int]], fame: list[int], purse: list[int],
         dens: list[list[int]], chests: list[list[int]], bag: list[int]) -> None:
    """One day: every seat plays at random, then day, dusk and night run over the island."""
    island = []
    for seat in range(players):
        hand = hands[seat]
        island.append((hand.pop(rng.randrange(len(hand))), fame[seat], seat))
    island.sort()
    for rank, _, seat in island:
        effect = EFFECT[rank]
        if effect == PAY:
            purse[seat] += AMOUNT[rank]
        elif effect == RISE:
            above = fame[seat] + 1
            if above < players:
                fame[fame.index(above)] = above - 1
                fame[seat] = above
        elif effect == TOLL:
            for other in range(players):
                if purse[other] < purse[seat] and purse[other] > 0:
                    purse[other] -= 1
                    purse[seat] += 1
        elif effect == SINK:
            den = dens[(seat + 1) % players]
            if den:
                den.remove(max(den))
    tiles = sorted(bag[-players:])
    del bag[-players:]
    for rank, _, seat in reversed(island):
        for _ in range(2 if EFFECT[rank] == GREEDY else 1):
            if tiles:
                chests[seat].append(tiles.pop())
    for rank, _, seat in island:
        dens[seat].append(rank)
    for seat in range(players):
        for rank in dens[seat]:
            if EFFECT[rank] == WATCH:
                purse[seat] += AMOUNT[rank]
