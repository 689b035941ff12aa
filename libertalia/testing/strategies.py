"""Hypothesis strategies for declared positions and games at random points."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import strategies as st

from ..game import Game, new_game
from ..loading.specs import Rules


@st.composite
def positions(draw: st.DrawFn, rules: Rules, players: int) -> dict[str, Any]:
    """A consistent declared position (``setup=``) for ``new_game``: any voyage and day,
    hands, ships, graveyards, loot, doubloons, scores and (where there is a track) reputation.
    """
    board = rules.board
    voyage = draw(st.integers(1, len(board.voyage_days)), label="voyage")
    day = draw(st.integers(1, board.voyage_days[voyage - 1]), label="day")
    names = [c.name for c in rules.characters if not c.neutral and "#" not in c.name]
    bag: Counter[str] = Counter(dict(board.bag))
    seats = []
    for _ in range(players):
        cards = draw(st.permutations(names))
        hand, ship, grave = draw(st.integers(1, 6)), draw(st.integers(0, 4)), draw(st.integers(0, 3))
        loot = []
        for kind in draw(st.lists(st.sampled_from([k for k, _ in board.bag]), max_size=4)):
            if bag[kind] > 0:
                bag[kind] -= 1
                loot.append(kind)
        seats.append({
            "hand": list(cards[:hand]),
            "ship": list(cards[hand:hand + ship]),
            "graveyard": list(cards[hand + ship:hand + ship + grave]),
            "loot": loot,
            "doubloons": draw(st.integers(0, 25)),
            "score": draw(st.integers(0, 80)),
        })
    setup: dict[str, Any] = {"voyage": voyage, "day": day, "players": seats}
    if board.track_income:
        spaces = draw(st.permutations(range(len(board.track_income))))
        setup["reputation"] = list(spaces[:players])
    return setup


@st.composite
def games(draw: st.DrawFn, rules: Rules, players: int, max_steps: int = 400, from_position: bool = False) -> Game:
    """A game after a random number of random legal answers, from the start or a random position."""
    setup = draw(positions(rules, players)) if from_position else None
    game = new_game(rules, players, seed=draw(st.integers(0, 2**32 - 1)), setup=setup)
    for _ in range(draw(st.integers(0, max_steps))):
        if game.decision is None:
            break
        game = game.choose(draw(st.sampled_from(game.legal_keys())))
    return game
