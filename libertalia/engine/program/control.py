"""Control steps: tests, questions and jumps between the actions of one ability.

Conditions and ``may`` are forward jumps, so a suspended ability is a program counter,
the answers so far and its marks: plain data (design.md §2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from ...state import Option
from .actions import Action
from .base import Contract, source_name
from .conditions import Condition
from .record import Record, declare

if TYPE_CHECKING:
    from ..work import Frame, Work

_NO_CHANGE = Contract(frozenset(), frozenset(), "changes nothing: it only decides which step runs next")


class Jump(Record):
    target: int
    __node_fields__ = declare("target")
    CONTRACT: ClassVar[Contract] = _NO_CHANGE

    def __init__(self, target: int) -> None:
        object.__setattr__(self, "target", target)

    def act(self, w: Work, f: Frame) -> int:
        return self.target


class Branch(Record):
    """Go on if the condition holds, else to ``else_at``; to ``end_at`` (past any ``otherwise``) if it is unknown.

    A condition is unknown when what decides it speaks of a character nobody named (``Condition``):
    neither the step nor its ``otherwise`` runs.
    """

    condition: Condition
    else_at: int
    end_at: int
    __node_fields__ = declare("condition", "else_at", "end_at")
    CONTRACT: ClassVar[Contract] = _NO_CHANGE

    def __init__(self, condition: Condition, else_at: int, end_at: int) -> None:
        object.__setattr__(self, "condition", condition)
        object.__setattr__(self, "else_at", else_at)
        object.__setattr__(self, "end_at", end_at)

    def act(self, w: Work, f: Frame) -> int:
        v = self.condition.test(w, f)
        if v is None:
            return self.end_at
        return f.pc + 1 if v else self.else_at


def _possible(actions: tuple[Action, ...], costs: tuple[int, ...], w: Work, f: Frame) -> bool:
    """An option is offered when taking it can change something (docs/card-language.md, "Meaning rules").

    ``costs`` index its prices among ``actions`` (what it gives up of yours): each must be payable,
    and something else must come of paying, if the option says anything else.  The rest does as
    much as it can (R1): "you may gain 3 doubloons and take a chest from the bag" with no chest in
    the bag still pays the 3; "you may return a map you hold to the bag and gain 3 doubloons" with
    no map is not asked, since the map is the price of the doubloons.
    """
    for i in costs:
        if not actions[i].can_change(w, f):
            return False
    if len(costs) == len(actions):
        return bool(costs)
    return any(a.can_change(w, f) for i, a in enumerate(actions) if i not in costs)


YES_NO: Final = (Option("yes", "yes"), Option("no", "no"))
"""The options of a ``may`` question."""


class May(Record):
    """``you may …``: asked only when taking it can change something (``_possible``); ``no`` goes to ``else_at``."""

    actions: tuple[Action, ...]
    else_at: int
    text: str
    costs: tuple[int, ...]  # the prices among ``actions``, by index
    __node_fields__ = declare("actions", "else_at", "text", costs=())
    # A question is no change of the game: the answer only picks the step that runs next.
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset(), frozenset(), "asks yes or no (only if an action could change something and every price can "
        "be paid), and changes nothing")

    def __init__(self, actions: tuple[Action, ...], else_at: int, text: str, costs: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "actions", actions)
        object.__setattr__(self, "else_at", else_at)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "costs", costs)

    def act(self, w: Work, f: Frame) -> int:
        if not _possible(self.actions, self.costs, w, f):
            return self.else_at
        key = w.ask(f, f.seat, "may", YES_NO, f"{self.text} Do you want to?", source_name(f))
        return f.pc + 1 if key == "yes" else self.else_at


class ChooseOne(Record):
    """Which option to carry out; keys are "1", "2", … in the order the card lists them.

    An option is offered when taking it can change something (``_possible``); with none left,
    nothing is asked and nothing happens.  ``costs`` indexes each option's prices among its actions.
    """

    options: tuple[tuple[Action, ...], ...]
    starts: tuple[int, ...]
    labels: tuple[str, ...]
    end_at: int
    text: str
    costs: tuple[tuple[int, ...], ...]
    __node_fields__ = declare("options", "starts", "labels", "end_at", "text", costs=())
    CONTRACT: ClassVar[Contract] = Contract(
        frozenset(), frozenset(), "asks which option (offering only those that could change something and whose "
        "prices can be paid), and changes nothing")

    def __init__(self, options: tuple[tuple[Action, ...], ...], starts: tuple[int, ...], labels: tuple[str, ...],
                 end_at: int, text: str, costs: tuple[tuple[int, ...], ...] = ()) -> None:
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "starts", starts)
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "end_at", end_at)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "costs", costs or tuple(() for _ in options))

    def act(self, w: Work, f: Frame) -> int:
        offered = [Option(str(i + 1), label) for i, (label, actions, costs)
                   in enumerate(zip(self.labels, self.options, self.costs, strict=True))
                   if _possible(actions, costs, w, f)]
        if not offered:
            return self.end_at
        key = w.ask(f, f.seat, "choose_option", offered, f"{self.text} Which one?", source_name(f))
        return self.starts[int(key) - 1]


Control = Jump | Branch | May | ChooseOne
Step = Action | Control
