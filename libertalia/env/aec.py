"""``LibertaliaEnv``: a game of Libertalia as a PettingZoo AEC environment.

The engine already is turn-based with explicit decisions, so the env is a thin adapter: the
seat the engine asks (``game.decision.player``) is ``agent_selection``, an action is an index
into the fixed key universe of ``keys.action_keys``, and an observation is ``encoding``'s
vector of what that seat may see plus a mask of the keys offered now.  Only the newest
``Game`` is kept (each ``choose`` returns a new one), which keeps the engine on its cheap path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from .. import _args, _vector
from .._envstep import Actions
from .._glance import glance
from .._terminal import visible
from ..engine import rng
from ..engine.specs import Rules
from ..engine.work import Work
from ..errors import ArgumentError, SetupError
from ..game import Game, Observation, _LiveState, new_game
from ..loading.rules import LootOption, load_rules
from ..state import Decision, GameState
from .encoding import HIGH, OBSERVATIONS, Encoder
from .keys import action_keys, seat_count
from .spaces import MaskedDiscrete

_FLOATS = np.dtype(np.float32)
_BYTES = np.dtype(np.int8)
"""The dtypes ``observe`` views its buffers as, made once (``np.frombuffer`` given a type works one out per call)."""

Reward = Literal["win", "margin"]
Obs = dict[str, Any]
"""A seat's observation: ``"observation"`` (a vector, or ``"compact"``'s dict of arrays) and ``"action_mask"``."""


def vector_space(encoder: Encoder, observation: str) -> gymnasium.spaces.Space[Any]:
    """The space of a seat's observation of the kind ``observation`` (``OBSERVATIONS``) under ``encoder``'s layout."""
    if observation == "compact":
        length = encoder.compact_length
        return gymnasium.spaces.Dict({"index": gymnasium.spaces.Box(0, encoder.size, (length,), np.int32),
                                      "value": gymnasium.spaces.Box(0.0, HIGH, (length,), np.float32)})
    return gymnasium.spaces.Box(0.0, 1.0 if observation == "scaled" else HIGH, (encoder.size,), np.float32)


def final_rewards(game: Game, reward: Reward) -> tuple[float, ...]:
    """Each seat's reward for a finished game (Automa's too, in a solo game).

    ``"win"``: 1 shared equally among the winners (``game.winners()``), 0 for the others.
    ``"margin"``: the seat's score minus the best score among the other seats, unscaled
    (one unit is one point of score).
    """
    _args.instance(game, Game, "final_rewards", "game", "a Game")
    if not game.is_over:
        raise ArgumentError("final_rewards: the game is not over yet; rewards come when it ends")
    if reward not in ("win", "margin"):
        raise ArgumentError(f"final_rewards: reward must be 'win' or 'margin', not {reward!r}")
    scores = game.final_scores()
    if reward == "win":
        winners = game.winners()
        return tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(len(scores)))
    return tuple(float(score - max(s for i, s in enumerate(scores) if i != seat))
                 for seat, score in enumerate(scores))


class LibertaliaEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """A Libertalia game for ``players`` agents, ``"seat_0"``..; see docs/bots.md.

    ``rules`` is loaded ``Rules``, or an edition name (``"galecrest"``, ``"classic"``) or board
    file loaded with ``loot`` (a side name, ``"uncharted"``, or a mapping of kind to side, as
    ``load_rules`` takes it).  ``players=1`` is the solo game: ``"seat_0"`` plays against
    Automa (seat 1), whose choices the engine makes.  Rewards come once, when the game ends
    (``reward`` is ``"win"`` or ``"margin"``, see ``final_rewards``).  ``log=True`` keeps the
    game's event log (``env.game.events``), at some cost per step.  ``observation`` is
    ``"dense"`` (the plain vector), ``"scaled"`` (each value over its bound, in ``[0, 1]``:
    ``observation_bounds``) or ``"compact"`` (the plain vector's non-zero entries as a dict of
    ``"index"`` and ``"value"`` arrays, ``Encoder.compact``); ``loot_sides=True`` appends the
    uncharted sides the game drew (the layout's ``loot_sides`` part).  Both change nothing else.
    """

    agent_selection: str
    metadata: dict[str, Any] = {"name": "libertalia_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, rules: Rules | str | Path = "galecrest", players: int = 4, *, loot: LootOption = None,
                 reward: Reward = "win", render_mode: str | None = None, log: bool = False,
                 observation: str = "dense", loot_sides: bool = False) -> None:
        super().__init__()
        if not isinstance(rules, Rules | str | Path):
            raise _args.wrong_type("LibertaliaEnv", "rules", "Rules, an edition name or a board file", rules)
        if not isinstance(rules, Rules):
            rules = load_rules(rules, loot=loot)
        elif loot is not None:
            raise ArgumentError("loot applies to an edition name; these rules are loaded already "
                                "(pass loot to load_rules instead)")
        if reward not in ("win", "margin"):
            raise ArgumentError(f"reward must be 'win' or 'margin', not {reward!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ArgumentError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        _args.flag(log, "LibertaliaEnv", "log")
        _args.flag(loot_sides, "LibertaliaEnv", "loot_sides")
        if observation not in OBSERVATIONS:
            raise ArgumentError(f"observation must be 'dense', 'scaled' or 'compact', not {observation!r}")
        self.observation_kind = observation
        self.scaled = observation == "scaled"
        self.compact = observation == "compact"
        self.loot_sides = loot_sides
        self.seats = seat_count(rules, players, "LibertaliaEnv")
        self.rules = rules
        self.players = players
        self.reward_kind: Reward = reward
        self.render_mode = render_mode
        self.log = log
        self.keys = action_keys(rules, players)
        self.index = {key: i for i, key in enumerate(self.keys)}
        self._actions = Actions(list(self.keys))  # the compiled step: an index to its answer, the masks
        self.encoder = Encoder(rules, players, loot_sides=loot_sides)
        # Compiled and the plain vector (nothing marked, scaled or compacted): ``observe``'s one-call path.
        self._plain = _vector.NATIVE and observation == "dense" and not loot_sides
        real = 1 if players == 1 else players  # Automa (seat 1 of a solo game) is no agent
        self.possible_agents = [f"seat_{seat}" for seat in range(real)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.action_spaces = {a: MaskedDiscrete(len(self.keys)) for a in self.possible_agents}
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": vector_space(self.encoder, observation),
            "action_mask": gymnasium.spaces.Box(0, 1, (len(self.keys),), np.int8),
        }) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        # The game as it stands is either ``_game`` (once someone reads ``game``) or, while nobody has,
        # the working copy ``_work`` with the frozen state it was begun from (``_base``): stepping that
        # copy straight through the compiled glue builds no ``Game`` per step.  Never both.
        self._game: Game | None = None
        self._work: Work | None = None
        self._base: GameState | None = None

    # ------------------------------------------------------------ spaces and reading
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[self._agent(agent, "observation_space")]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[self._agent(agent, "action_space")]

    def _agent(self, agent: object, where: str) -> str:
        """``agent``, one of ``possible_agents``; ``ArgumentError`` naming them otherwise."""
        if not isinstance(agent, str):
            raise _args.wrong_type(where, "agent", "an agent name such as 'seat_0'", agent)
        if agent not in self.action_spaces:
            raise ArgumentError(f"{where}: there is no agent {agent!r}; the agents are "
                                + ", ".join(repr(a) for a in self.possible_agents))
        return agent

    def _action(self, action: object, where: str) -> int:
        """``action`` as an index into ``keys``: an integer (what ``Discrete.contains`` takes as one:
        an int, a numpy integer or a 0-d integer array), never a float, a bool or a string."""
        if type(action) is int and 0 <= action < len(self.keys):  # the usual case, first (a bool is no int here)
            return action
        if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise _args.wrong_type(where, "action", f"an integer from 0 to {len(self.keys) - 1}", action)
        index = int(action)
        if not 0 <= index < len(self.keys):
            raise ArgumentError(f"{where}: the action must be an integer from 0 to {len(self.keys) - 1}, not {index}")
        return index

    @property
    def game(self) -> Game:
        """The game as it stands (an immutable ``Game``: read it, branch from it, save it)."""
        game = self._game
        if game is None:
            w = self._work
            if w is None:
                raise RuntimeError("call reset() first")
            # The game owns the working copy from now on, as ``new_game`` and ``choose`` leave it: the next
            # step answers through it (``_claim``), so a game once read stays the game it was.
            game = self._game = Game._owning(w.rules, w, None, self._base)
            self._work = self._base = None
        return game

    def __getstate__(self) -> dict[str, Any]:
        """A pickle or copy holds the ``Game`` (which pickles as its rules and frozen state), never the working
        copy: reading ``game`` hands the copy to it first, which changes nothing a caller can see."""
        self.game  # noqa: B018 - read for its effect
        return self.__dict__.copy()

    def _decision(self) -> Decision | None:
        """The question now asked (None once the game is over), without building a ``Game``."""
        w = self._work
        return w.decision if w is not None else self.game.decision

    def _view(self, seat: int) -> Observation:
        """``seat``'s observation for one bot's ``choose`` call (``single_agent_env``'s opponents): while the env
        steps the working copy, a view read off it, as ``lt.play`` hands its agents (valid during that call;
        copied, it becomes a view of the game as it stands), so that no ``Game`` is built per opponent step."""
        w, base = self._work, self._base
        if w is not None and base is not None:
            return Observation(_LiveState(w, base), seat)
        return self.game.observation(seat)

    def _claim(self) -> None:
        """Take the working copy back from ``_game``, if it still stands there, and forget the game: it keeps
        what it was (it rebuilds itself from its earlier state and answers, as any game whose copy moved on)."""
        game = self._game
        if game is not None:
            w = game._claim()
            if w is not None:
                self._work, self._base = w, game._state if game._state is not None else game._base
                self._game = None

    def key(self, action: int) -> str:
        """The answer key an action stands for."""
        return self.keys[self._action(action, "key")]

    def action(self, key: str) -> int:
        """The action that answers ``key``."""
        if not isinstance(key, str):
            raise _args.wrong_type("action", "key", "an answer key (a string)", key)
        at = self.index.get(key)
        if at is None:
            raise ArgumentError(f"action: {key!r} is no answer key of these rules (env.keys lists them)")
        return at

    def observe(self, agent: str) -> Obs:
        """``agent``'s view: its vector, and a mask of the keys it is offered now (all 0 when not asked)."""
        seat = self._seat.get(agent) if type(agent) is str else None
        if seat is None:
            seat = self._seat[self._agent(agent, "observe")]
        w = self._work
        if w is not None and self._plain:  # the usual step, compiled: the vector and mask in one call
            vector, mask = self._actions.view(w, seat, self.encoder.fill)
            return {"observation": np.frombuffer(vector, _FLOATS), "action_mask": np.frombuffer(mask, _BYTES)}
        if w is not None:  # stepping the working copy: read it straight (``glance``), nothing frozen
            rules = w.rules
            if _vector.NATIVE:  # the vector and the mask in one compiled call
                vector, mask = self._actions.view(w, seat, self.encoder.fill)
                x = np.frombuffer(vector, np.float32)
            else:
                d = w.decision
                x = self.encoder.encode(glance(w, d, seat))
                mask = self._actions.mask(d, seat)
        else:
            game = self.game
            rules = game.rules
            # Read off the working copy when the game still holds it (no frozen state built for one
            # seat's vector); else from the observation, as the vector is defined.
            fast = game._glance(seat, self.encoder.encode)
            x = fast if fast is not None else self.encoder.encode(game.observation(seat))
            # Set byte by byte, then viewed as numpy: far cheaper than numpy's own indexing.
            mask = self._actions.mask(game.decision, seat)
        if self.loot_sides:
            self.encoder.mark_sides(x, rules)
        if self.scaled:
            self.encoder.scale(x)
        elif self.compact:
            return {"observation": self.encoder.compact(x), "action_mask": np.frombuffer(mask, dtype=np.int8)}
        return {"observation": x, "action_mask": np.frombuffer(mask, dtype=np.int8)}

    # ------------------------------------------------------------ playing
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with ``seed``, exactly ``lt.new_game(rules, players, seed)``.

        Without one, the game's seed is drawn from a generator that the last ``seed`` given
        started (or the operating system's entropy, if none was ever given), so a run of
        resets after ``reset(seed=s)`` is reproducible too.  A seed outside ``[0, 2**64)``
        raises ``lt.SetupError``, as ``new_game`` does.
        """
        if seed is not None:
            problem = rng.seed_problem(seed)
            if problem is not None:
                raise SetupError(problem)
        if options is not None and not isinstance(options, dict):
            raise _args.wrong_type("reset", "options", "a dict or None", options)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._seeds.integers(2**31))
        self._game = new_game(self.rules, self.players, game_seed, log=self.log)
        self._work = self._base = None
        self._claim()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Answer the selected agent's decision with the key ``action`` stands for.

        An action whose key is not offered now raises ``lt.IllegalChoice`` (a ``ValueError``);
        use the action mask.  Once the game is over every agent is terminated, and each
        must be stepped with ``None``, as PettingZoo requires.  An action that is no integer
        (a float, a bool, a string: none is rounded or converted) raises ``TypeError``; one
        outside ``0 .. len(keys) - 1``, ``lt.ArgumentError`` (a ``ValueError``).
        """
        if self._game is None and self._work is None:
            raise RuntimeError("call reset() before step(): there is no game yet")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = self._action(action, f"step ({agent})")
        self._cumulative_rewards[agent] = 0.0
        w = self._work
        if w is not None:
            self._actions.answer(w, index)  # compiled: checked as Game.choose checks, then the engine runs
        else:  # someone read ``game``: answer through it, then step the working copy again
            self._game = self.game.choose(self.keys[index])
            self._claim()
            w = self._work
        d = w.decision if w is not None else self.game.decision
        if d is None:  # over: the rewards, once
            self._clear_rewards()
            earned = final_rewards(self.game, self.reward_kind)
            for a in self.agents:
                self.rewards[a] = earned[self._seat[a]]
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            # Rewards come only at the end, so every seat's is still 0 here: clearing and adding them
            # (PettingZoo's ``_clear_rewards``, ``_accumulate_rewards``) would change nothing.
            assert d.player < len(self.possible_agents), "only real seats are asked (Automa never)"
            self.agent_selection = self.possible_agents[d.player]

    def _select(self) -> None:
        d = self._decision()
        assert d is not None and d.player < len(self.possible_agents), "only real seats are asked (Automa never)"
        self.agent_selection = self.possible_agents[d.player]

    def render(self) -> str | None:
        """The table as the selected agent sees it, as ``Game.render`` (and ``libertalia play``) draws it.

        ``render_mode="ansi"`` returns that text; ``"human"`` prints it and returns None, as
        PettingZoo's convention has it.
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='human' or 'ansi'")
            return None
        text = self.game.render(int(self.agent_selection.rpartition("_")[2]))
        if self.render_mode == "human":
            print(visible(text, "\n"))  # a mod's names never act on the terminal (``_terminal``)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: a game is a plain value."""


def raw_env(rules: Rules | str | Path = "galecrest", players: int = 4, **kwargs: Any) -> LibertaliaEnv:
    """The bare env (PettingZoo's ``raw_env``); see ``LibertaliaEnv`` for the arguments."""
    return LibertaliaEnv(rules, players, **kwargs)


def env(rules: Rules | str | Path = "galecrest", players: int = 4, **kwargs: Any) -> AECEnv:
    """The env with PettingZoo's usual checks around it: actions in range, calls in order.

    The wrappers are PettingZoo's own (``OrderEnforcingWrapper`` around ``AssertOutOfBoundsWrapper``),
    subclassed only to make their checks cheap (``_InOrder``, ``_InRange``): they check, allow and
    refuse exactly what PettingZoo's do.
    """
    return _InOrder(_InRange(raw_env(rules, players, **kwargs)))


class _InRange(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]  # pettingzoo ships no type hints
    """PettingZoo's ``AssertOutOfBoundsWrapper`` with a shortcut for the usual action, a plain int in range.

    The stock check asks ``action_space(agent).contains(action)`` through two ``__getattr__`` look-ups
    and numpy's integer casts, a few microseconds a step; ``Discrete(n).contains`` admits every such
    int, so it is passed straight on.  Anything else (``None``, numpy integers, out of range, a bool)
    takes the stock check.
    """

    def __init__(self, inner: LibertaliaEnv) -> None:
        super().__init__(inner)
        self._inner = inner
        self._count = len(inner.keys)

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < self._count:
            self._inner.step(action)
        else:
            super().step(action)


class _Through:
    """An attribute of the bare env that ``_InOrder`` reads straight from it, as PettingZoo's wrappers read
    it through their ``__getattr__`` chain (one Python call per wrapper, several times a step).

    ``gated``: refused before ``reset`` as ``OrderEnforcingWrapper`` refuses it, by letting its
    ``__getattr__`` answer.  A non-data descriptor, so an attribute set on the wrapper itself still
    shadows it, as it would shadow the forwarded one.
    """

    def __init__(self, gated: bool = True) -> None:
        self.gated = gated
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, wrapper: _InOrder | None, owner: type | None = None) -> Any:
        if wrapper is None:
            return self
        if wrapper._has_reset or not self.gated:
            return getattr(wrapper._inner, self.name)
        return wrapper.__getattr__(self.name)


class _InOrder(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # pettingzoo ships no type hints
    """PettingZoo's ``OrderEnforcingWrapper`` reading the env's bookkeeping (``agent_selection``, ``agents``,
    the reward and termination dicts) and observations straight from the bare env once reset.

    Same checks, same errors, same warnings: only the per-step look-ups through each wrapper's
    ``__getattr__`` are gone (``last``, ``agent_iter`` and ``step`` make about ten a step).
    """

    agent_selection = _Through()
    agents = _Through()
    rewards = _Through()
    terminations = _Through()
    truncations = _Through()
    infos = _Through()
    _cumulative_rewards = _Through(gated=False)

    def __init__(self, inner: _InRange) -> None:
        super().__init__(inner)
        self._inner = inner._inner
        self._count = len(self._inner.keys)

    def step(self, action: Any) -> None:
        inner = self._inner
        # The usual step, straight to the bare env: what ``OrderEnforcingWrapper.step`` and ``_InRange`` do with it.
        if type(action) is int and 0 <= action < self._count and self._has_reset and inner.agents:
            self._has_updated = True
            inner.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """PettingZoo's order-checking ``agent_iter``, its iterator reading the bare env's agents straight."""
        if self._has_reset:
            return _InOrderAgents(self, max_iter)
        return super().agent_iter(max_iter)

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        if self._has_reset:  # ``AECEnv.last`` of the bare env: the same fields, read without the wrappers between
            inner = self._inner
            agent = inner.agent_selection
            assert agent is not None
            return (inner.observe(agent) if observe else None, inner._cumulative_rewards[agent],
                    inner.terminations[agent], inner.truncations[agent], inner.infos[agent])
        return super().last(observe)  # type: ignore[no-any-return]  # pettingzoo ships no type hints

    def observe(self, agent: str) -> Obs | None:
        if self._has_reset:  # _InRange adds nothing to observe
            return self._inner.observe(agent)
        return super().observe(agent)  # type: ignore[no-any-return]  # pettingzoo ships no type hints

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own OrderEnforcingWrapper shows: the env's name


class _InOrderAgents(AECOrderEnforcingIterable):  # type: ignore[misc]  # pettingzoo ships no type hints
    """``_InOrder.agent_iter``: PettingZoo's order-checking iterable, iterated by ``_InOrderAgent``."""

    def __iter__(self) -> AECOrderEnforcingIterator:
        return _InOrderAgent(self.env, self.max_iter)


class _InOrderAgent(AECOrderEnforcingIterator):  # type: ignore[misc]  # pettingzoo ships no type hints
    """PettingZoo's ``AECOrderEnforcingIterator``, reading ``agents`` and ``agent_selection`` off the bare env
    (once reset, what the wrapper's forwarding returns) rather than through the wrapper: the same checks."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper._inner
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return inner.agent_selection  # type: ignore[no-any-return]  # the bare env's, a str
