"""Hypothesis strategies for declared positions and games at random points.

hypothesis (the ``test`` extra) is imported when a strategy is made, not with this module:
``libertalia.testing`` stays importable without it (``check_invariants``, ``testing.sweep``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, overload

from ..engine.specs import Rules
from ..game import Game, new_game
from . import focus
from .repro import note_game, note_position, unnoted

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy


@overload
def positions(rules: Rules, players: int, featuring: None = None,
              phase: None = None) -> SearchStrategy[dict[str, Any]]: ...


@overload
def positions(rules: Rules, players: int, featuring: Sequence[focus.Featured],
              phase: str | None = None) -> SearchStrategy[focus.FocusedPosition]: ...


def positions(rules: Rules, players: int, featuring: Sequence[focus.Featured] | None = None,
              phase: str | None = None) -> SearchStrategy[dict[str, Any]] | SearchStrategy[focus.FocusedPosition]:
    """A consistent declared position (``setup=``) for ``new_game``: any voyage and day,
    hands, ships, graveyards, loot, doubloons, scores and (where there is a track) reputation.

    With ``featuring`` (card names or loot kinds, each alone or with where it goes and a seat:
    ``focus.Feature``), a ``focus.FocusedPosition`` instead: those cards where they act, the
    rest random (``focus.positions``; ``phase`` picks the timing of the entries that name none).
    A test that fails on a drawn position prints a script that rebuilds it (``repro.note_position``).
    """
    if featuring is not None:
        return focus.positions(rules, players, featuring, phase)
    if phase is not None:
        raise ValueError("phase picks the timing of featured cards: give featuring= too")
    from hypothesis import strategies as st

    @st.composite
    def declared(draw: DrawFn) -> dict[str, Any]:
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
        note_position(rules, players, setup)
        return setup

    return declared()


def games(rules: Rules, players: int, max_steps: int = 400, from_position: bool = False,
          featuring: Sequence[focus.Featured] | None = None, phase: str | None = None) -> SearchStrategy[Game]:
    """A game after a random number of random legal answers, from the start or a random position.

    With ``featuring``, from a focused position (``positions``): the random answers begin once
    the fixed plays are made, so the featured cards have just been played or are aboard.
    """
    from hypothesis import strategies as st

    focused = None if featuring is None else focus.positions(rules, players, featuring, phase)
    if focused is None and phase is not None:
        raise ValueError("phase picks the timing of featured cards: give featuring= too")

    @st.composite
    def played(draw: DrawFn) -> Game:
        setup: dict[str, Any] | None
        if focused is not None:
            with unnoted():  # the game's reproduction below says it all
                position = draw(focused)
            game = position.start(rules)
            seed, setup = position.seed, position.setup
        else:
            with unnoted():
                setup = draw(positions(rules, players)) if from_position else None
            seed = draw(focus.integers(0, 2**32 - 1))
            game = new_game(rules, players, seed=seed, setup=setup)
        for _ in range(draw(focus.integers(0, max_steps))):
            if game.decision is None:
                break
            keys = game.legal_keys()
            game = game.choose(keys[draw(focus.index(len(keys)))])  # a cached strategy: shrinks to the first
        note_game(rules, players, seed, setup, game)  # printed with the minimal failing example
        return game

    return played()
