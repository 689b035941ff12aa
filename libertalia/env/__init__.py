"""Libertalia as a PettingZoo AEC environment, for reinforcement learning (the ``rl`` extra).

``pip install ".[rl]"`` in a checkout of the repository, then::

    from libertalia.env import env
    e = env("galecrest", players=4)

Importing this package imports numpy, gymnasium and pettingzoo; ``import libertalia`` does
not import it, so the core library stays quick to load and free of those dependencies.
The parts, one job each: ``keys`` (the action universe, plain Python), ``encoding`` (the
observation vector and its layout), ``aec`` (the env) and ``single`` (one learning seat against
fixed opponents, a ``gymnasium.Env``, and many such games in one process).  See docs/bots.md.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ModuleNotFoundError as exc:  # say what to install, not only what is missing
    from .._paths import install_hint

    raise ModuleNotFoundError(
        f"libertalia.env needs the rl extra ({exc.name} is not installed): {install_hint('rl')}",
        name=exc.name) from exc

from .aec import LibertaliaEnv, env, final_rewards, raw_env
from .encoding import DECISION_KINDS, OBSERVATIONS, PHASES, compact_length, observation_bounds, observation_layout
from .keys import action_keys
from .single import MaskedVectorEnv, SingleAgentEnv, single_agent_env, vector_env

__all__ = ["DECISION_KINDS", "OBSERVATIONS", "PHASES", "LibertaliaEnv", "MaskedVectorEnv", "SingleAgentEnv",
           "action_keys", "compact_length", "env", "final_rewards", "observation_bounds", "observation_layout",
           "raw_env", "single_agent_env", "vector_env"]
