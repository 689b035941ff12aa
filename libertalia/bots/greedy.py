"""The greedy bot: one step of look-ahead on sampled games, judged by ``evaluation.margins``."""

from __future__ import annotations

import random

from ..game import Observation
from ..state import Decision
from .evaluation import margins
from .rollout import finish_day


class GreedyAgent:
    """Picks the option whose day ends best for it, on average over games consistent with what it sees.

    For each of ``samples`` games drawn by ``Observation.sample_game`` (other seats' secret
    picks, the bag and future deals re-dealt), every option is answered and the rest of the
    day is played at random (the same random answers for every option, so options are
    compared on equal terms); the option with the best mean margin wins, the first offered
    on a tie.  Seeded and deterministic.
    """

    answers_from_options = True

    def __init__(self, seed: int = 0, samples: int = 6) -> None:
        if samples < 1:
            raise ValueError(f"the greedy bot needs at least 1 sample per decision, not {samples}")
        self.seed = seed
        self.samples = samples
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, decision: Decision) -> str:
        keys = decision.keys()
        if len(keys) == 1:
            return keys[0]
        seat = decision.player
        totals = [0.0] * len(keys)
        for _ in range(self.samples):
            world = observation.sample_game(self._rng)
            stream = self._rng.getrandbits(62)
            for i, key in enumerate(keys):
                after = finish_day(world.choose(key), stream)
                totals[i] += margins(after.rules, after.state)[seat]
        best = max(range(len(keys)), key=lambda i: (totals[i], -i))
        return keys[best]
