"""Tools for property-testing rule interactions: strategies and an invariant checker.

``check_invariants(game)`` raises ``AssertionError`` naming the broken
invariant; ``games()`` is a hypothesis strategy for games at random points.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import strategies as st

from .game import Game, new_game
from .loading.specs import Rules


def check_invariants(game: Game) -> None:
    """The conservation and sanity rules that hold after every step."""
    s = game.state
    rules = game.rules
    d = s.decision
    if s.step == "over":
        assert d is None, "a finished game asks nothing"
    else:
        assert d is not None, "a running game always waits for a decision"
        keys = d.keys()
        assert keys, "a decision must offer at least one option"
        assert len(set(keys)) == len(keys), f"duplicate option keys: {keys}"
        assert 0 <= d.player < s.players, f"decision for a seat that does not exist: {d.player}"
    for p in s.seats:
        assert p.doubloons >= 0, f"seat {p.seat} has negative doubloons ({p.doubloons})"
        on_island = [name for seat, name in s.island if seat == p.seat]
        cards = [*p.hand, *p.ship, *p.graveyard, *p.removed, *on_island]
        dupes = [c for c, n in Counter(cards).items() if n > 1]
        assert not dupes, f"seat {p.seat} holds {dupes} twice"
        assert not set(cards) & set(s.undealt), f"seat {p.seat} holds undealt cards"
        assert not Counter(p.kept_loot) - Counter(p.loot), f"seat {p.seat} keeps loot it does not hold"
        assert set(p.kept) <= set(p.ship), f"seat {p.seat} keeps characters that are not aboard"
    assert sorted(s.track) == list(range(len(rules.board.track_income))), f"track is no permutation: {s.track}"
    loot: Counter[str] = Counter(dict(s.bag))
    for day in s.days:
        loot.update(day)
    loot.update(s.aside)
    for p in s.seats:
        loot.update(p.loot)
    assert loot == Counter(dict(rules.board.bag)), f"loot not conserved: {dict(loot)}"


@st.composite
def positions(draw: st.DrawFn, rules: Rules, players: int) -> dict[str, Any]:
    """A consistent declared position (``setup=``) for ``new_game``: any voyage and day,
    hands, ships, graveyards, loot, doubloons, scores and (where there is a track) reputation.
    """
    board = rules.board
    voyage = draw(st.integers(1, len(board.voyage_days)), label="voyage")
    day = draw(st.integers(1, board.voyage_days[voyage - 1]), label="day")
    names = [c.name for c in rules.characters if not c.neutral]
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
