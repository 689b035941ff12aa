"""One learning seat against fixed opponents, as a ``gymnasium.Env`` (``single_agent_env``), and many
such games stepped together in one process (``vector_env``).

Single-agent libraries (Stable-Baselines3, sb3-contrib's ``MaskablePPO``, most PPO and DQN code)
step one agent.  ``SingleAgentEnv`` runs the PettingZoo env (``aec.LibertaliaEnv``) underneath
and answers every other seat's questions itself, so a ``step`` returns at the learner's next
decision, or at the end.  Everything random in an episode (the learner's seat when ``seat`` is
None, the game's seed, the opponents' seeds) is drawn from the env's ``np_random``, which
``reset(seed=...)`` starts: the same seed and actions give the same episodes, bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt

from .. import _args
from .._terminal import visible
from ..agents import Agent
from ..bots import parse_bot
from ..engine.specs import Rules
from ..errors import ArgumentError
from ..loading.rules import LootOption
from .aec import LibertaliaEnv, Reward, vector_space
from .spaces import MaskedDiscrete

Vector = npt.NDArray[np.float32]
Seen = Vector | dict[str, npt.NDArray[Any]]
"""What a seat observes: the vector, or with ``observation="compact"`` its ``"index"`` and ``"value"`` arrays."""
Mask = npt.NDArray[np.int8]
Policy = Callable[[Seen, Mask], int]
"""An opponent as a function: (its observation vector, its action mask) -> an action id."""
Opponent = str | Agent | Policy
"""A bot name as the command line takes it (``"first"``, ``"greedy"``, ``"ismcts:200"``), an agent
(``choose(observation, decision) -> key``), or a ``Policy``."""
Illegal = Literal["end", "raise"]


class SingleAgentEnv(gymnasium.Env):
    """Libertalia for one learner: see ``single_agent_env`` for the arguments, docs/bots.md for a run."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, rules: Rules | str | Path = "galecrest", players: int = 4, seat: int | None = None,
                 opponents: Opponent | Sequence[Opponent] = "random", *, loot: LootOption = None,
                 reward: Reward = "win", observation: str = "dense", loot_sides: bool = True,
                 illegal: Illegal = "end", render_mode: str | None = None) -> None:
        self.aec = aec = LibertaliaEnv(rules, players, loot=loot, reward=reward, observation=observation,
                                       loot_sides=loot_sides, render_mode=render_mode)
        real = len(aec.possible_agents)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < real):
            raise ArgumentError(f"single_agent_env: seat must be None (drawn each episode) or a seat from 0 to "
                                f"{real - 1}, not {seat!r}")
        if illegal not in ("end", "raise"):
            raise ArgumentError(f"single_agent_env: illegal must be 'end' or 'raise', not {illegal!r}")
        self.fixed_seat, self.illegal, self.render_mode = seat, illegal, render_mode
        self.opponents = _opponents(opponents, real - 1)
        self.action_space = MaskedDiscrete(len(aec.keys))
        self.observation_space = vector_space(aec.encoder, observation)
        self.seat = 0 if seat is None else seat
        self._players: list[Agent | Policy | None] = []
        self._mask: Mask = np.zeros(len(aec.keys), np.int8)
        self._done = True

    @property
    def game(self) -> Any:
        """The game as it stands (an immutable ``lt.Game``)."""
        return self.aec.game

    def action_masks(self) -> Mask:
        """Which actions the learner is offered now (1) and which not (0): what ``MaskablePPO`` asks for."""
        return self._mask.copy()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Seen, dict[str, Any]]:
        """A new game; its seat (when drawn), seed and opponents' seeds all come from ``np_random``."""
        super().reset(seed=seed)
        draw = self.np_random
        real = len(self.aec.possible_agents)
        self.seat = int(draw.integers(real)) if self.fixed_seat is None else self.fixed_seat
        self.aec.reset(seed=int(draw.integers(2**31)), options=options)
        others = iter(self.opponents)
        self._players = [None if s == self.seat else _instance(next(others), int(draw.integers(2**31)))
                         for s in range(real)]
        self._done = False
        self._play_others()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Seen, float, bool, bool, dict[str, Any]]:
        """Answer the learner's question with ``action``, then let the opponents play to its next one.

        An action not offered now ends the episode with reward -1 (``illegal="end"``, PettingZoo's
        ``TerminateIllegalWrapper`` convention; ``info["illegal_action"]`` is True), or raises
        ``lt.IllegalChoice`` (``illegal="raise"``).  Mask it out instead (``action_masks``).
        """
        aec = self.aec
        index = aec._action(action, "step")
        if self._done:
            raise RuntimeError("the episode is over (or was never started); call reset()")
        if not self._mask[index] and self.illegal == "end":
            self._mask[:] = 0
            self._done = True
            return self._observe(), -1.0, True, False, {**self._info(), "illegal_action": True}
        aec.step(index)  # an action not offered raises IllegalChoice here (illegal="raise")
        self._play_others()
        self._done = over = aec._decision() is None
        reward = aec.rewards[aec.possible_agents[self.seat]] if over else 0.0
        return self._observe(), float(reward), over, False, self._info()

    def _play_others(self) -> None:
        """The opponents answer until the learner is asked or the game ends; then the learner's mask."""
        aec = self.aec
        # The question and a bot's view read off the env's working copy (``_decision``, ``_view``): no ``Game``
        # is built per opponent step.
        while (d := aec._decision()) is not None and d.player != self.seat:
            player = self._players[d.player]
            if hasattr(player, "choose"):
                aec.step(aec.action(player.choose(aec._view(d.player), d)))  # type: ignore[union-attr]
            else:
                assert player is not None
                seen = aec.observe(aec.agent_selection)
                aec.step(aec._action(player(seen["observation"], seen["action_mask"]), "opponent"))
        self._mask = aec.observe(aec.possible_agents[self.seat])["action_mask"].copy()

    def _observe(self) -> Seen:
        seen: Seen = self.aec.observe(self.aec.possible_agents[self.seat])["observation"]
        return seen

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "action_mask": self._mask.copy()}

    def render(self) -> str | None:
        """The table as the learner sees it (``Game.render``): returned (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='human' or 'ansi'")
            return None
        text: str = self.game.render(self.seat)
        if self.render_mode == "human":
            print(visible(text, "\n"))  # a mod's names never act on the terminal (``_terminal``)
            return None
        return text


def _opponents(given: object, count: int) -> list[Opponent]:
    """``given`` as one opponent per other seat (a single one stands for them all), each checked."""
    many = given if isinstance(given, list | tuple) else [given] * count
    if len(many) != count:
        raise ArgumentError(f"single_agent_env: {count} opponents are needed (one per other seat), "
                            f"not {len(many)}")
    for i, one in enumerate(many):
        if isinstance(one, str):
            try:
                parse_bot(one)
            except ValueError as exc:
                raise ArgumentError(f"single_agent_env: opponents[{i}]: {exc}") from None
        elif not (hasattr(one, "choose") or callable(one)):
            raise _args.wrong_type("single_agent_env", f"opponents[{i}]",
                                   "a bot name, an agent or a function (observation, mask) -> action", one)
    return list(many)


def _instance(opponent: Opponent, seed: int) -> Agent | Policy:
    """The opponent for one episode: a named bot is built afresh with ``seed``, anything else is used as given."""
    return parse_bot(opponent)(seed) if isinstance(opponent, str) else opponent


def single_agent_env(rules: Rules | str | Path = "galecrest", players: int = 4, seat: int | None = None,
                     opponents: Opponent | Sequence[Opponent] = "random", **kwargs: Any) -> SingleAgentEnv:
    """A ``gymnasium.Env`` in which one seat learns and the others are ``opponents``.

    ``seat``: the learner's seat, or None to draw it each episode.  ``opponents``: one for all the
    other seats or one per other seat in seat order, each a bot name (``"random"``, ``"first"``,
    ``"greedy"``, ``"ismcts:200"``: built afresh each episode, seeded from ``np_random``), an agent
    object (``choose(observation, decision) -> key``) or a function (observation vector, action
    mask) -> action id.  A solo game (``players=1``) has no opponents but Automa: pass ``[]``.
    Keywords: ``loot``, ``reward`` (``"win"``, ``"margin"``), ``observation`` (``"dense"``, ``"scaled"``,
    ``"compact"``: a dict of ``"index"`` and ``"value"`` arrays), ``loot_sides`` (default True here: the
    uncharted sides drawn, an empty part for fixed sides),
    ``illegal`` (``"end"``, ``"raise"``) and ``render_mode``.  The observation is
    the vector (or the compact dict) alone; ``action_masks()`` (and ``info["action_mask"]``) gives the mask.
    """
    return SingleAgentEnv(rules, players, seat, opponents, **kwargs)


class MaskedVectorEnv(gymnasium.vector.SyncVectorEnv):
    """Gymnasium's ``SyncVectorEnv`` (games stepped one after another in this process, reset as each ends)
    with ``action_masks()``: one row per game, for maskable learners that read it off the env."""

    def action_masks(self) -> Mask:
        return np.stack(self.call("action_masks"))


def vector_env(num_envs: int, rules: Rules | str | Path = "galecrest", players: int = 4, seat: int | None = None,
               opponents: Opponent | Sequence[Opponent] = "random", **kwargs: Any) -> MaskedVectorEnv:
    """``num_envs`` games of ``single_agent_env`` stepped together in one process (``MaskedVectorEnv``).

    ``reset(seed=s)`` seeds game ``i`` with ``s + i``, as gymnasium's vector envs do.  A game that
    ends is reset in the same step (gymnasium's ``AutoresetMode.SAME_STEP``, from gymnasium 1.1):
    the observation and ``action_masks()`` row are then the new game's first, and
    ``info["final_obs"]`` holds the last of the old.  Rules are loaded once and shared.  For
    Stable-Baselines3, use its own ``make_vec_env`` over
    ``single_agent_env`` instead (docs/bots.md).
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ArgumentError(f"vector_env: num_envs must be a whole number from 1 up, not {num_envs!r}")
    if not isinstance(rules, Rules):
        from ..loading.rules import load_rules

        rules = load_rules(rules, loot=kwargs.pop("loot", None))
    made = rules
    makers = [lambda: single_agent_env(made, players, seat, opponents, **kwargs)] * num_envs
    same_step = getattr(gymnasium.vector, "AutoresetMode", None)  # gymnasium 1.1 and later
    if same_step is None:
        return MaskedVectorEnv(makers)
    return MaskedVectorEnv(makers, autoreset_mode=same_step.SAME_STEP)
