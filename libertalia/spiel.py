"""Libertalia as an OpenSpiel game: ``pyspiel.load_game("python_libertalia", {...})``.

Importing this module registers the game with OpenSpiel (install the extra from a checkout:
``pip install ".[spiel]"``); ``import libertalia`` never imports it, nor OpenSpiel.

Parameters: ``players`` (1 to 6; 1 is the solo game against Automa, a one-player OpenSpiel game
whose Automa moves are part of the environment), ``edition`` (``"galecrest"`` or ``"classic"``),
``loot`` (a side name such as ``"calm"``, ``"stormy"``, ``"uncharted"``, ``"classic"``; empty:
the edition's default), ``deals`` and ``first_seed`` (the chance node's outcomes, see below).
``libertalia.spiel_checks`` checks them, action ids and serialised states, without OpenSpiel:
``first_seed`` is below ``2**31`` (an OpenSpiel game parameter is a C++ ``int``) and ``deals``
at most ``2**20``; an action id out of range raises ``ArgumentError``, never wraps round.

Why the game is modelled as it is:

- **Turn-based, not simultaneous.**  The engine already asks the seats one at a time for their
  secret pick of the day (``play_character``) and keeps a pick hidden until all are in, so the
  game is a sequential OpenSpiel game with imperfect information: a seat's information state
  and observation say *that* an earlier seat has picked (and which kind of question each seat
  answered), never *what*.  OpenSpiel's simultaneous-move dynamics would fit the picks alone but
  not the many ordinary turn-based questions (loot, abilities) in between, and its sequential
  algorithms (MCTS, ISMCTS, CFR on small trees) take this form directly.
- **Chance chooses the seed, digit by digit, at the start.**  The engine draws every random
  number from the game's seed (``libertalia.engine.rng``), so choosing the seed is the only
  chance event: uniformly among ``deals`` seeds (``first_seed`` .. ``first_seed + deals - 1``),
  and the game is deterministic from then on.  The choice is a short chain of explicit chance
  nodes, one base-256 digit of the deal's number each (``spiel_checks.deal_outcomes``): the
  default 65,536 deals are two nodes of 256 outcomes, where one node once listed all 65,536
  at every root (28% of a random play-out), and 256 deals or fewer are one node, outcome ``i``
  dealing seed ``first_seed + i``.  The chain keeps the game ``EXPLICIT_STOCHASTIC``: every
  node lists its whole distribution, so no algorithm is ruled out (exact expectations, best
  responses and CFR see every deal, weighted right).  OpenSpiel's ``SAMPLED_STOCHASTIC`` mode
  was the other way: it needs the game to keep its generator's state (``Game::GetRNGState``)
  for ``SerializeGameAndState``, which a game written in Python cannot provide (OpenSpiel's
  ``PyGame`` does not forward it), so ``random_sim_test`` with serialisation fails on it; and
  it would hide the distribution from exact algorithms.  The outcome is never shown to a seat: information states hold
  only what ``Game.observation`` lets the seat see (its own hand, the table), so neither the
  seed nor the cards and tokens it holds back (other hands, future deals and bag draws) leak.
- **Actions are the PettingZoo environment's.**  Action ``i`` answers the key
  ``libertalia.env.keys.action_keys(rules, players)[i]``, a fixed universe worked out from the
  rules, so ``num_distinct_actions`` is fixed per configuration and ids mean the same here and
  in ``libertalia.env``.  The observation tensor is ``libertalia.env.encoding``'s vector.
- **Information state.**  The string is the whole history as the seat lived it: what the
  table was told after the deal (the event log's sentences, the same for every seat, never
  naming a hidden card), then for each answer who answered which kind of question, the answer
  itself where it was the seat's own, and what the table was told next; then the table as the
  seat sees it now.  Others' answers show as their kind only (a pick is secret until revealed,
  and the events say what became public).  So two histories the seat could tell apart at any
  point give different strings (perfect recall).  The tensor is the observation vector, the
  count of each action the seat took, and the count of questions of each kind each seat
  answered: a fixed-size summary, not a perfect-recall encoding.  A step only marks where the
  event log ends (``Game._log_mark``); each step's sentences are written from the log when an
  information state first asks for them, then kept, so a play-out that never asks pays nothing.
  The observation string is the table alone, as plain lines (``table_text``); the tensors do
  not encode uncharted loot sides (they are ``libertalia.env``'s default vector, which leaves
  them out), the strings do.
- **Resampling** (``resample_from_infostate``, for information-set MCTS) draws what a seat
  cannot see again through ``Observation.sample_game``, keeping its information state.
- **Compiled where it can be.**  ``LibertaliaState`` must subclass ``pyspiel.State``, a C++ class
  bound by pybind11, which mypyc cannot compile a class over; so it is a thin shell, and the
  position and its steps (legal actions, applying one, the chance node, returns, the told lines)
  live in ``libertalia._spiel_play``, and the observation string's table in
  ``libertalia._spiel_text``, which the compiled build compiles.
- **Serialisation** is the game's record in JSON: its seed and the answer keys, by name, so a
  serialised state reads like a libertalia record and survives renumbered actions.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from ._spiel_play import TERMINAL, Play, Setup
from ._spiel_text import table_text
from .engine.specs import Rules
from .env.encoding import DECISION_KINDS, Encoder
from .env.keys import action_keys, seat_count
from .errors import ArgumentError, IllegalChoice, RecordError
from .game import Game
from .loading.rules import load_rules
from .spiel_checks import (
    DEAL_BASE,
    DEFAULTS,
    SHORT_NAME,
    check_params,
    deal_digits,
    read_state,
)

__all__ = ["DEFAULTS", "SHORT_NAME", "Config", "LibertaliaGame", "LibertaliaState", "Observer", "config", "table_text"]

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Libertalia",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


@cache
def _rules(edition: str, loot: str) -> Rules:
    """Loaded once per (edition, loot): every game and state of a configuration shares them."""
    return load_rules(edition, loot=loot or None)


def _max_length(rules: Rules, seats: int) -> int:
    """A safe bound on a game's length: the chance nodes, then at most 40 answers per seat and day."""
    return 3 + 40 * seats * sum(rules.board.voyage_days)


class Config:
    """One configuration's rules, action keys and encoder, shared by its games, states and observers.

    Kept outside the ``pyspiel.Game`` object on purpose: OpenSpiel may hand a state a fresh
    wrapper of its game that lacks the Python attributes, so everything is looked up from the
    game's parameters instead (``config``).
    """

    def __init__(self, params: dict[str, Any]) -> None:
        params = check_params(params)  # before OpenSpiel sees them: it would refuse some with a bare cast error
        self.rules = rules = _rules(params["edition"], params["loot"])
        self.players = players = params["players"]
        self.seats = seat_count(rules, players, SHORT_NAME)
        self.deals, self.first_seed = params["deals"], params["first_seed"]
        self.keys = action_keys(rules, players)
        self.index = {key: i for i, key in enumerate(self.keys)}
        self.encoder = Encoder(rules, players)
        self.real = 1 if players == 1 else players  # Automa (seat 1 of a solo game) is no OpenSpiel player
        self.setup = Setup(rules, players, self.keys, DECISION_KINDS, self.deals, self.first_seed, self.real)

    def __deepcopy__(self, memo: dict[int, Any]) -> Config:
        """Shared, never copied: a state's clone (a deep copy) keeps its configuration."""
        return self


_CONFIGS: dict[tuple[tuple[str, Any], ...], Config] = {}


def config(game: Any) -> Config:
    """The ``Config`` of a ``pyspiel.Game`` of Libertalia (built once per set of parameters)."""
    params = {**DEFAULTS, **game.get_parameters()}
    key = tuple(sorted(params.items()))
    found = _CONFIGS.get(key)
    if found is None:
        found = _CONFIGS[key] = Config(params)
    return found


class LibertaliaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """One configuration (edition, loot, players) of Libertalia, for OpenSpiel's algorithms."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        c = Config(params or {})
        params = {**DEFAULTS, **(params or {})}
        _CONFIGS[tuple(sorted(params.items()))] = c
        info = pyspiel.GameInfo(
            num_distinct_actions=len(c.keys),
            max_chance_outcomes=min(c.deals, DEAL_BASE),
            num_players=c.real,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=_max_length(c.rules, c.seats),
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> LibertaliaState:
        """The state before the deal: a chance node choosing the seed."""
        return LibertaliaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Observer:
        """An observer of observations (the default) or of information states (``perfect_recall``)."""
        if params:
            raise ArgumentError(f"{SHORT_NAME}: the observer takes no parameters, not {params}")
        recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return Observer(config(self), recall)

    def deserialize_state(self, text: str) -> LibertaliaState:
        """The state ``LibertaliaState.serialize`` wrote: replayed from its seed and answer keys.

        Read by the game records' own reader (``records.parse_moves``): anything wrong with the
        text, a seed that is not one of this game's deals, or an answer that is unknown, not
        offered where it stands or after the end raises ``RecordError`` naming the field.
        """
        c = config(self)
        outcome, actions = read_state(text, c.first_seed, c.deals, c.index)
        state = self.new_initial_state()
        for digit in deal_digits(outcome, c.deals):
            state.apply_action(digit)
        for i, action in enumerate(actions):
            if state.is_terminal():
                raise RecordError(f"the game ended with the answer before; {len(actions) - i} answers are left",
                                  f"answers[{i}]", action="replay")
            try:
                state.apply_action(action)
            except IllegalChoice as exc:
                raise RecordError(str(exc), f"answers[{i}]", action="replay") from None
        return state


class LibertaliaState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type hints
    """A position: a thin shell over ``_spiel_play.Play``, which does each step's work.

    This class must subclass ``pyspiel.State``, a C++ class bound by pybind11, so mypyc cannot
    compile it (a native class has native or builtin bases only); ``Play`` holds the position and
    its steps in a module that the compiled build compiles, and each method here only forwards.
    """

    def __init__(self, game: LibertaliaGame) -> None:
        super().__init__(game)
        self.config = c = config(game)
        self.play = Play(c.setup)

    @property
    def game(self) -> Game | None:
        """The position as an ``lt.Game``: ``None`` before the deal."""
        return self.play.game

    # ------------------------------------------------------------ whose turn, what is legal
    def current_player(self) -> int:
        return self.play.player

    def _legal_actions(self, player: int) -> list[int]:
        return self.play.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next digit of the deal: at most ``DEAL_BASE`` outcomes, each as likely as the deals it leaves."""
        return self.play.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Deal (the chance node) or answer; an id out of range, or any after the end, raises ``ArgumentError``."""
        self.play.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.play.action_text(player, action)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LibertaliaState:
        """A state ``player_id`` cannot tell from this one, its hidden parts drawn again (for ISMCTS).

        ``Observation.sample_game`` draws others' unrevealed picks, what the seat cannot know of
        their hands, and a new seed (so later deals too); ``probability_sampler`` (OpenSpiel's
        uniform sampler) seeds that draw.  The sample keeps this state's OpenSpiel history and
        answers, so the seat's information state is unchanged, but it is no replay of a real deal:
        it does not ``serialize``.  Games keep their event log, so the draw also covers what the
        log cannot pin down (a Surgeon's face-down return, see docs/bots.md).
        """
        game = self.play.game
        if game is None:
            raise ArgumentError(f"{SHORT_NAME}: there is nothing hidden to resample before the deal")
        sample: LibertaliaState = self.clone()
        drawn = game.observation(player_id).sample_game(random.Random(int(probability_sampler() * 2**53)))
        sample.play = self.play.resample(drawn)
        return sample

    # ------------------------------------------------------------ ending
    def is_terminal(self) -> bool:
        return self.play.player == TERMINAL

    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for the others, once the game is over (Automa left out)."""
        return self.play.returns()

    # ------------------------------------------------------------ saving and showing
    def serialize(self) -> str:
        """The seed and the answer keys as JSON (``LibertaliaGame.deserialize_state`` reads it)."""
        game = self.play.game
        if game is None:
            raise ArgumentError(f"{SHORT_NAME}: a state before the deal has nothing to serialise; "
                                "serialise after the chance node")
        if self.play.resampled:
            raise ArgumentError(f"{SHORT_NAME}: a resampled state is no real deal and has no record to serialise")
        return json.dumps({"seed": game.seed, "answers": list(game.history)})

    def __str__(self) -> str:
        """The whole table, hidden parts included (a debugging view, not any seat's): the answers so far."""
        game = self.play.game
        if game is None:
            return "before the deal"
        return f"seed {game.seed}: " + " ".join(game.history)


class Observer:
    """OpenSpiel's Python observer: ``tensor`` and ``dict`` filled by ``set_from``, and ``string_from``."""

    def __init__(self, config: Config, recall: bool) -> None:
        self.config, self.recall = config, recall
        size = config.encoder.size
        pieces = [("observation", size)]
        if recall:
            pieces += [("my_actions", len(config.keys)), ("answered", config.seats * len(DECISION_KINDS))]
        self.tensor: npt.NDArray[np.float32] = np.zeros(sum(n for _, n in pieces), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, n in pieces:
            self.dict[name] = self.tensor[at:at + n]
            at += n
        if recall:
            self.dict["answered"] = self.dict["answered"].reshape(config.seats, len(DECISION_KINDS))

    def set_from(self, state: LibertaliaState, player: int) -> None:
        """What ``player`` sees of ``state`` (and, for information states, has seen)."""
        self.tensor.fill(0)
        play = state.play
        game = play.game
        if game is None:
            return
        encode = self.config.encoder.encode
        x = game._glance(player, encode)  # off the running game, as the env reads it (no frozen state)
        self.dict["observation"][:] = x if x is not None else encode(game.observation(player))
        if self.recall:
            mine, answered = self.dict["my_actions"], self.dict["answered"]
            for seat, kind, action in play.trail:
                answered[seat, kind] += 1
                if seat == player:
                    mine[action] += 1

    def string_from(self, state: LibertaliaState, player: int) -> str:
        """The table as ``player`` sees it; for information states, the answers seen before it."""
        play = state.play
        game = play.game
        if game is None:
            return f"seat {player}: before the deal"
        table = table_text(game.observation(player), game.rules)
        if not self.recall:
            return f"seat {player}\n{table}"
        return "\n".join((*play.recall_lines(player), "now:", table))


pyspiel.register_game(_GAME_TYPE, LibertaliaGame)
