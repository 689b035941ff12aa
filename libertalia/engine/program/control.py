"""Control steps: tests, questions and jumps between the actions of one ability.

Conditions and ``may`` are forward jumps, so a suspended ability is a program counter,
the answers so far and its marks: plain data (design.md §2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.nodes import Node
from ...state import Option
from .actions import Action
from .base import Contract, source_name
from .conditions import Condition

if TYPE_CHECKING:
    from ..work import Frame, Work

_NO_CHANGE = Contract(frozenset(), frozenset(), "changes nothing: it only decides which step runs next")


class Jump(Node):
    target: int
    CONTRACT = _NO_CHANGE

    def act(self, w: Work, f: Frame) -> int:
        return self.target


class Branch(Node):
    """Go on if the condition holds, else to ``else_at``; to ``end_at`` if it speaks of nobody."""

    condition: Condition
    else_at: int
    end_at: int
    CONTRACT = _NO_CHANGE

    def act(self, w: Work, f: Frame) -> int:
        v = self.condition.test(w, f)
        if v is None:
            return self.end_at
        return f.pc + 1 if v else self.else_at


def _possible(actions: tuple[Action, ...], w: Work, f: Frame) -> bool:
    """An option can be taken only when every one of its actions could change something now."""
    return all(a.can_change(w, f) for a in actions)


class May(Node):
    """``you may …``: asked only when the actions could all change something; ``no`` goes to ``else_at``."""

    actions: tuple[Action, ...]
    else_at: int
    text: str
    # A question is no change of the game: the answer only picks the step that runs next.
    CONTRACT = Contract(frozenset(), frozenset(), "asks yes or no (only if the actions could all change something), "
                        "and changes nothing")

    def act(self, w: Work, f: Frame) -> int:
        if not _possible(self.actions, w, f):
            return self.else_at
        options = [Option("yes", "yes"), Option("no", "no")]
        key = w.ask(f, f.seat, "may", options, f"{self.text} Do you want to?", source_name(f))
        return f.pc + 1 if key == "yes" else self.else_at


class ChooseOne(Node):
    """Which option to carry out; keys are "1", "2", … in the order the card lists them.

    An option that could not change anything now is not offered; with none left, nothing
    is asked and nothing happens.
    """

    options: tuple[tuple[Action, ...], ...]
    starts: tuple[int, ...]
    labels: tuple[str, ...]
    end_at: int
    text: str
    CONTRACT = Contract(frozenset(), frozenset(), "asks which option (offering only those that could change "
                        "something), and changes nothing")

    def act(self, w: Work, f: Frame) -> int:
        offered = [Option(str(i + 1), label) for i, (label, actions) in enumerate(zip(self.labels, self.options,
                                                                                      strict=True))
                   if _possible(actions, w, f)]
        if not offered:
            return self.end_at
        key = w.ask(f, f.seat, "choose_option", offered, f"{self.text} Which one?", source_name(f))
        return self.starts[int(key) - 1]


Control = Jump | Branch | May | ChooseOne
Step = Action | Control
