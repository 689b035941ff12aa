"""Tools for property-testing rule interactions: strategies and an invariant checker.

``check_invariants(game)`` raises ``AssertionError`` naming the broken
invariant; ``games()`` is a hypothesis strategy for games at random points.
"""

from __future__ import annotations

from collections import Counter

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
def games(draw: st.DrawFn, rules: Rules, players: int, max_steps: int = 400) -> Game:
    """A game after a random number of random legal answers."""
    game = new_game(rules, players, seed=draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, max_steps))):
        if game.decision is None:
            break
        game = game.choose(draw(st.sampled_from(game.legal_keys())))
    return game
