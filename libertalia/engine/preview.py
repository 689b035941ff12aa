"""What each seat would bank if the voyage ended now: the edition's own scoring, run on a copy.

Bots need the worth of a position, and the worth of loot and of ships' characters is
whatever the cards' ``anchor`` texts say (maps in sets, a relic's loss, R3's netting),
so the preview runs the real anchor step on a scratch working copy instead of
re-implementing any of it.  Questions asked there (a hook's "you may keep") get the
first option offered; nothing after the anchor runs.
"""

from __future__ import annotations

import attrs

from ..errors import LibertaliaError
from ..state import Decision, GameState
from . import flow
from .specs import Rules
from .work import Answerer, Work


class _VoyageOver(Exception):
    """Raised by the preview's answerer once the anchor is behind: the next voyage is not its business."""


class _FirstOption(Answerer):
    """The preview's answerer: the first option offered, until the anchor is behind."""

    __slots__ = ("w",)

    def __init__(self, w: Work) -> None:
        self.w = w

    def decide(self, d: Decision) -> str:
        if self.w.step != "anchor":
            raise _VoyageOver
        return d.options[0].key


def voyage_end_scores(rules: Rules, state: GameState) -> tuple[int, ...]:
    """Each seat's score once the current voyage's anchor has run on today's holdings.

    Whatever is still on the island, queued or suspended is left out: the preview asks
    what the seats hold now is worth, not how today ends.  A finished game returns its
    scores; a card text the engine gives up on (a mod's loop) leaves the seat's banked
    score plus its doubloons.
    """
    if state.step == "over":
        return tuple(p.score for p in state.seats)
    if state.step == "voyage" or state.day == 0:  # between voyages: nothing held is worth anything yet
        return tuple(p.score + p.doubloons for p in state.seats)
    scratch = attrs.evolve(
        state, step="anchor", sub=0, cursor=0, island=(), order=(), frames=(), queue=(), flow_answers=(),
        census=None, net=None, extra=(), just_took=(), left_of_neutral=None, decision=None, journal=None,
        watching=None, history=(),
    )
    w = Work(rules, scratch)
    w.answerer = _FirstOption(w)
    try:
        flow.run(w)
    except _VoyageOver:
        pass
    except LibertaliaError:
        return tuple(p.score + p.doubloons for p in state.seats)
    return tuple(s.score for s in w.seats)
