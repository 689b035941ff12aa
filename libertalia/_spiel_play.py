"""What an OpenSpiel state of Libertalia does at each step, as typed code that mypyc compiles.

``libertalia.spiel.LibertaliaState`` must subclass ``pyspiel.State``, a C++ class bound by
pybind11, and ships no type hints: mypyc makes native only classes over native or builtin
bases, so that class stays interpreted.  It is a thin shell that forwards each of OpenSpiel's
calls to a ``Play`` here, which the compiled build compiles (hatch_build.py).  This module imports
neither OpenSpiel nor numpy nor ``libertalia.env``, so the compiler needs none of them.

A step does only what a play-out needs: the answer, the next player, and where the event log
ends (``Game._log_mark``).  What the table was told at each step is written only when an
information state asks for it (``told``), then kept: writing it at every step froze the whole
game and read its log, which was most of a random play-out's time.
"""

from __future__ import annotations

from typing import Any, Final

from .engine.specs import Rules
from .errors import ArgumentError
from .game import Game, new_game
from .spiel_checks import DEAL_BASE, SHORT_NAME, action_id, deal_block, deal_outcomes

CHANCE: Final = -1
"""``pyspiel.PlayerId.CHANCE``: the chance node's player."""
TERMINAL: Final = -4
"""``pyspiel.PlayerId.TERMINAL``: nobody moves, the game is over."""


class Setup:
    """One configuration as the steps read it: shared by every state of a game, never copied."""

    def __init__(self, rules: Rules, players: int, keys: tuple[str, ...], kinds: tuple[str, ...], deals: int,
                 first_seed: int, real: int) -> None:
        self.rules = rules
        self.players = players
        self.keys = keys
        """Action ``i`` answers ``keys[i]`` (``libertalia.env.keys.action_keys``)."""
        self.index: dict[str, int] = {key: i for i, key in enumerate(keys)}
        self.kinds = kinds
        """The decision kinds, in the order the information state tensor counts them."""
        self.kind_index: dict[str, int] = {kind: i for i, kind in enumerate(kinds)}
        self.deals = deals
        self.first_seed = first_seed
        self.real = real
        """OpenSpiel's players: the seats less Automa in a solo game."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return Setup, (self.rules, self.players, self.keys, self.kinds, self.deals, self.first_seed, self.real)


class Play:
    """A position as OpenSpiel walks it: the deal's digits chosen so far, then the engine's ``Game``
    and, for every answer, who gave it, its kind and its id, and where the event log stood after it."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.game: Game | None = None
        self.low = 0
        self.high = setup.deals
        self.block = deal_block(setup.deals)
        """Before the deal: the deals still possible (``low`` to ``high - 1``) and how many each outcome stands for."""
        self.player = CHANCE
        """OpenSpiel's current player, kept up to date: OpenSpiel asks for it several times a step."""
        self.resampled = False
        """Whether ``game`` was drawn by ``resample`` (no replayable deal then)."""
        self.trail: list[tuple[int, int, int]] = []
        """(seat, decision kind index, action) for every answer so far."""
        self.marks: list[int] = []
        """Where the event log ended after the deal and after each answer (``Game._log_mark``)."""
        self.told: list[str] = []
        """What the table was told after the deal and after each answer, written as far as asked (``told_all``)."""

    def copy(self) -> Play:
        """An independent copy (OpenSpiel's ``clone``): the lists copied, the immutable game shared."""
        other = Play(self.setup)
        other.game, other.low, other.high, other.block = self.game, self.low, self.high, self.block
        other.player, other.resampled = self.player, self.resampled
        other.trail, other.marks, other.told = self.trail.copy(), self.marks.copy(), self.told.copy()
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Play:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled field by field (``pyspiel.serialize_game_and_state`` pickles a Python state)."""
        return _unpickled, (self.setup, self.game, self.low, self.high, self.block, self.player, self.resampled,
                            self.trail, self.marks, self.told)

    # ------------------------------------------------------------ what is legal
    def legal_actions(self) -> list[int]:
        """The ids of the current decision's options, ascending (``[]`` at the chance node or the end)."""
        game = self.game
        if game is None:
            return []
        d = game.decision
        if d is None:
            return []
        index = self.setup.index
        ids = [index[option.key] for option in d.options]
        ids.sort()
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next digit of the deal: at most ``DEAL_BASE`` outcomes, each as likely as the deals it leaves."""
        if self.game is not None:
            return []
        return deal_outcomes(self.low, self.high, self.block)

    def digit(self, action: int) -> tuple[int, int, int]:
        """The deals left after chance outcome ``action`` (low, high, block); ``ArgumentError`` for no outcome."""
        low, high, block = self.low, self.high, self.block
        digit = action_id(action, -(-(high - low) // block), "deals" if block == 1 else "groups of deals")
        low += digit * block
        return low, min(low + block, high), block // DEAL_BASE

    # ------------------------------------------------------------ stepping
    def apply(self, action: int) -> None:
        """Deal (the chance node) or answer; an id out of range, or any after the end, raises ``ArgumentError``."""
        setup = self.setup
        game = self.game
        if game is None:
            self.low, self.high, self.block = self.digit(action)
            if self.block:  # more digits to come
                return
            # The event log costs little and lets ``resample`` hide what a seat could not follow.
            game = new_game(setup.rules, setup.players, setup.first_seed + self.low, log=True)
        else:
            d = game.decision
            if d is None:
                raise ArgumentError(f"{SHORT_NAME}: the game is over; no action can be applied")
            keys = setup.keys
            # OpenSpiel hands over a plain int: checked here, and by ``action_id`` (its message) only when wrong.
            n = action if type(action) is int and 0 <= action < len(keys) else action_id(action, len(keys), "actions")
            game = game.choose(keys[n])
            self.trail.append((d.player, setup.kind_index[d.kind], n))
        self.game = game
        self.marks.append(game._log_mark())
        d = game.decision
        self.player = TERMINAL if d is None else d.player

    def action_text(self, player: int, action: int) -> str:
        """An action as text: a chance outcome as the deals it leaves, an answer as its key."""
        if player == CHANCE:
            low, high, _ = self.digit(action)
            first = self.setup.first_seed
            return f"Deal:{first + low}" if high - low == 1 else f"Deals:{first + low}-{first + high - 1}"
        keys = self.setup.keys
        return keys[action_id(action, len(keys), "actions")]

    def resample(self, game: Game) -> Play:
        """A copy standing at ``game``, a world drawn for one seat: what the table was told so far is kept
        (written now, from this game's log), and the log is read from ``game``'s end on."""
        told = self.told_all()
        other = self.copy()
        other.game, other.resampled, other.told = game, True, told.copy()
        other.marks[-1] = game._log_mark()
        return other

    # ------------------------------------------------------------ ending
    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for the others, once the game is over (Automa left out)."""
        n = self.setup.real
        game = self.game
        if game is None or game.decision is not None:
            return [0.0] * n
        winners = game.winners()
        share = 1 / len(winners)
        return [share if seat in winners else 0.0 for seat in range(n)]

    # ------------------------------------------------------------ what seats were told
    def told_all(self) -> list[str]:
        """What the table was told after the deal and after each answer, written now where not yet.

        A step's events are read off the current game's log between its two marks: the log of a
        later point of a game begins with the log of every earlier one."""
        told, marks, game = self.told, self.marks, self.game
        if len(told) < len(marks) and game is not None:
            for i in range(len(told), len(marks)):
                start = marks[i - 1] if i else 0
                told.append("; ".join([str(event) for event in game._logged(start, marks[i])]))
        return told

    def recall_lines(self, player: int) -> list[str]:
        """``player``'s history as lines: what the table was told, then for each answer who answered which
        kind of question (the answer too where it was ``player``'s own) and what the table was told next."""
        told = self.told_all()
        keys, kinds = self.setup.keys, self.setup.kinds
        lines = [f"seat {player}", f"told: {told[0]}"]
        for i, (seat, kind, action) in enumerate(self.trail):
            mine = f"={keys[action]}" if seat == player else ""
            lines.append(f"{seat}:{kinds[kind]}{mine} | told: {told[i + 1]}")
        return lines


def _unpickled(setup: Setup, game: Game | None, low: int, high: int, block: int, player: int, resampled: bool,
               trail: list[tuple[int, int, int]], marks: list[int], told: list[str]) -> Play:
    play = Play(setup)
    play.game, play.low, play.high, play.block, play.player = game, low, high, block, player
    play.resampled, play.trail, play.marks, play.told = resampled, trail, marks, told
    return play
