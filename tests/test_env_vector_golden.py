"""libertalia.env's dense vector stays bit for bit what it was: a digest over fixed games, taken before
the scaled observation and the loot-sides part were added (issue 36)."""

from __future__ import annotations

import hashlib

import pytest

import libertalia as lt

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from libertalia.env import raw_env  # noqa: E402

# (edition, loot, players, seeds) -> sha256 of every seat's dense vector at every step of those games.
DIGESTS = {
    ("galecrest", None, 4, (0, 1)):
        "56eba1963df588fb2172973fb6b79a62499dbe071b9b342b4757c304ba9d9ec9",
    ("galecrest", "uncharted", 3, (5,)):
        "e568fe37b5300d8a784e856b5f48438d89d898463431d9cd152198beaaf5ff9f",
    ("classic", None, 5, (2,)):
        "9f76f569e16fee8cb84fee5622a904d7e0ced8b6d19828e0edbeebd21d495de8",
    ("galecrest", None, 1, (7,)):
        "e7e8d05e44e459eb842d6c2af021ab13fa1b641d4957844a29c06ba31a2cebe2",
}


def _digest(edition: str, loot: str | None, players: int, seeds: tuple[int, ...]) -> str:
    rules = lt.load_rules(edition, loot=loot)
    env = raw_env(rules, players)
    h = hashlib.sha256()
    for seed in seeds:
        env.reset(seed=seed)
        agent = lt.agents.RandomAgent(seed)
        while not env.game.is_over:
            for a in env.possible_agents:
                h.update(env.observe(a)["observation"].tobytes())
                h.update(env.encoder.encode(env.game.observation(env._seat[a])).tobytes())
            d = env.game.decision
            env.step(env.action(agent.choose(env.game.observation(d.player), d)))
    return h.hexdigest()


@pytest.mark.parametrize("case", list(DIGESTS), ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_the_dense_vector_is_unchanged(case: tuple[str, str | None, int, tuple[int, ...]]) -> None:
    """The default (dense) observation is bit-identical to the vector before issue 36's options."""
    assert _digest(*case) == DIGESTS[case]
