"""Players that answer decisions: bots for simulations, a script for tests.

An agent is anything with ``choose(observation, decision) -> key``; it sees
only its own seat's observation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from . import _args
from ._mypyc import mypyc_attr
from .engine import rng
from .engine.driver import Picker
from .errors import ArgumentError, IllegalChoice
from .game import Agent as Agent  # the protocol lives beside the Observation it is given and play_out
from .game import Observation
from .state import Decision, Option


# The compiled build compiles this module (hatch_build.py): an agent's ``choose`` runs at every
# decision of a play-out.  Its classes stay open to subclasses written in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class FirstOptionAgent(Picker):
    """Always the first option offered: a cheap, fully predictable opponent."""

    # Returns an offered key by construction (``play_out`` need not check it), read off the options
    # alone (``play_out`` asks ``pick``, with no Decision built).  Each is read from the class's own
    # body: a subclass that changes ``choose`` says them again, or is checked and asked ``choose``.
    answers_from_options: ClassVar[bool] = True
    picks_from_options: ClassVar[bool] = True

    def pick(self, options: Sequence[Option]) -> str:
        return options[0].key

    def choose(self, observation: Observation, decision: Decision) -> str:
        return decision.options[0].key


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent(Picker):
    """A uniformly random legal option, from its own seeded counter-based stream."""

    answers_from_options: ClassVar[bool] = True
    picks_from_options: ClassVar[bool] = True

    def __init__(self, seed: int = 0) -> None:
        """``seed``: a whole number from 0 up (the stream uses its low 64 bits, so that a seed
        derived from a game's, such as ``game_seed * 16 + seat``, is always one)."""
        if _args.whole(seed, "RandomAgent", "seed") < 0:
            raise ArgumentError(f"RandomAgent: seed is a whole number from 0 up, not {seed}")
        self.seed = seed
        self.counter = 0

    def pick(self, options: Sequence[Option]) -> str:
        i = rng.draw(self.seed, self.counter, len(options))
        self.counter += 1
        return options[i].key

    def choose(self, observation: Observation, decision: Decision) -> str:
        return self.pick(decision.options)


@mypyc_attr(allow_interpreted_subclasses=True)
class ScriptedAgent:
    """Plays a fixed list of keys in order and fails loudly on anything else.

    Tests use it to pin a scenario: an unexpected decision, or running out of
    keys, is an error rather than a silent guess.
    """

    def __init__(self, keys: Iterable[str]) -> None:
        if isinstance(keys, str) or not isinstance(keys, Iterable):  # a string would be its letters
            raise _args.wrong_type("ScriptedAgent", "keys", "a list of answer keys (strings)", keys)
        self.keys = list(keys)
        for i, key in enumerate(self.keys):
            if not isinstance(key, str):
                raise _args.wrong_type("ScriptedAgent", f"keys[{i}]", "an answer key (a string)", key)
        self.position = 0

    def choose(self, observation: Observation, decision: Decision) -> str:
        if self.position >= len(self.keys):
            raise IllegalChoice("<script exhausted>", decision.keys(),
                                f"the script has no answer left for {decision.kind!r} ({decision.prompt})")
        key = self.keys[self.position]
        self.position += 1
        if key not in decision.keys():  # noqa: SIM118 - Decision.keys() is a method, not a dict view
            raise IllegalChoice(key, decision.keys(), f"scripted answer #{self.position} to {decision.prompt!r}")
        return key
