"""Bots by name, as ``libertalia simulate --bots`` and ``libertalia play --bots`` take them.

A name is ``random``, ``first``, ``greedy`` (``greedy:N``: N sampled games per decision),
or ``ismcts:N`` (N iterations per decision) / ``ismcts:Xs`` (X seconds per decision).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..agents import Agent, FirstOptionAgent, RandomAgent

BOT_HELP = "random, first, greedy[:SAMPLES], ismcts:ITERATIONS or ismcts:SECONDSs (e.g. ismcts:200, ismcts:0.2s)"

_SPEC = re.compile(r"^(?P<name>[a-z]+)(?::(?P<budget>\d+(?:\.\d+)?s?))?$")


def parse_bot(spec: str) -> Callable[[int], Agent]:
    """A factory ``seed -> agent`` for ``spec``; ``ValueError`` saying what is accepted otherwise."""
    m = _SPEC.match(spec.strip())
    if m is None:
        raise ValueError(f"unknown bot {spec!r}; the bots are {BOT_HELP}")
    name, budget = m["name"], m["budget"]
    if name in ("random", "first") and budget is None:
        return RandomAgent if name == "random" else (lambda seed: FirstOptionAgent())
    if name == "greedy" and (budget is None or budget.isdigit()):
        samples = int(budget) if budget else 6
        if samples < 1:
            raise ValueError(f"greedy needs at least 1 sample per decision: {spec!r}")
        from .greedy import GreedyAgent

        return lambda seed: GreedyAgent(seed, samples)
    if name == "ismcts" and budget is not None:
        from .ismcts import ISMCTSAgent

        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if seconds <= 0:
                raise ValueError(f"ismcts needs a positive time per decision: {spec!r}")
            return lambda seed: ISMCTSAgent(seed, iterations=None, seconds=seconds)
        if not budget.isdigit() or int(budget) < 1:
            raise ValueError(f"ismcts needs a whole number of iterations of at least 1: {spec!r}")
        iterations = int(budget)
        return lambda seed: ISMCTSAgent(seed, iterations=iterations)
    raise ValueError(f"unknown bot {spec!r}; the bots are {BOT_HELP}")


def make_agent(spec: str, seed: int = 0) -> Agent:
    """The bot ``spec`` names, seeded with ``seed``."""
    return parse_bot(spec)(seed)
