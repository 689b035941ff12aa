"""How much a position is worth to each seat: the greedy bot's yardstick (docs/bots.md).

A seat's worth is what it would have at the end of the game if play stopped paying now:

- its banked score plus its doubloons, with its loot and its ship's characters scored
  by the edition's own anchor texts (``engine.preview``: maps in sets, relics' losses,
  netting and the floor at 0, all as the rules say);
- the income its reputation space will pay at the start of each voyage still to come;
- the known effects of the characters still in its hand: each character's average
  doubloons per play, measured once per rules in random games (so a modded card is
  valued by what it does, not by a table), scaled by the share of the hand that can
  still be played this voyage.

Bots compare seats by margin: a seat's worth minus the mean of the others'.
"""

from __future__ import annotations

import threading
from collections import defaultdict

from ..engine.preview import voyage_end_scores
from ..engine.specs import Rules
from ..state import GameState

CALIBRATION_GAMES = 40
"""Random games played per rules to measure each character's doubloons per play."""

_VALUES: dict[tuple[str, str, int], dict[str, float]] = {}
_LOCK = threading.Lock()


def card_values(rules: Rules) -> dict[str, float]:
    """Each character's mean doubloons per play for its owner, over seeded random games (cached per rules)."""
    key = (rules.board.edition, rules.fingerprint, id(rules) if not rules.fingerprint else 0)
    with _LOCK:
        values = _VALUES.get(key)
    if values is not None:
        return values
    from ..agents import RandomAgent
    from ..game import new_game

    players = max(rules.board.players[0], min(4, rules.board.players[1]))
    gained: dict[str, float] = defaultdict(float)
    plays: dict[str, int] = defaultdict(int)
    for seed in range(CALIBRATION_GAMES):
        game = new_game(rules, players, seed).play_out([RandomAgent(seed * 8 + i) for i in range(players)])
        for e in game.events:
            if e.source is None or e.seat is None:
                continue
            if e.kind == "play":
                plays[e.source] += 1
            elif e.amount and rules.has_card(e.source):
                gained[e.source] += e.amount
    values = {c.name: gained[c.name] / plays[c.name] if plays[c.name] else 0.0 for c in rules.characters}
    with _LOCK:
        _VALUES[key] = values
    return values


def worths(rules: Rules, state: GameState) -> tuple[float, ...]:
    """Every seat's worth (see the module's docstring), in seat order."""
    scores = voyage_end_scores(rules, state)
    if state.step == "over":
        return tuple(float(s) for s in scores)
    board = rules.board
    voyages_left = len(board.voyage_days) - state.voyage
    income = board.track_income
    values = card_values(rules)
    days_left = max(0, len(state.days) - state.day + (1 if state.step in ("voyage", "select") else 0))
    out = []
    for p, score in zip(state.seats, scores, strict=True):
        worth = float(score)
        if income and voyages_left > 0:
            worth += income[min(p.reputation, len(income) - 1)] * voyages_left
        if p.hand and days_left:
            share = min(1.0, days_left / len(p.hand))
            worth += share * sum(values.get(name.partition("#")[0], 0.0) for name in p.hand)
        out.append(worth)
    return tuple(out)


def margins(rules: Rules, state: GameState) -> tuple[float, ...]:
    """Each seat's worth minus the mean worth of the other seats (0 for everyone in a one-seat game)."""
    w = worths(rules, state)
    if len(w) < 2:
        return tuple(0.0 for _ in w)
    total = sum(w)
    return tuple(x - (total - x) / (len(w) - 1) for x in w)
