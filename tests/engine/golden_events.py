"""The sentences of seeded games as the string-template decoder wrote them, kept as golden data.

``test_events`` checks the typed events against them: the same games played by today's engine
read exactly as they did, and the packed logs the old engine wrote (kept here with the words
they were packed with) still decode to the same events.  The data was written once by the
engine before events were typed, with the code below (it uses only what that engine had):

    PYTHONPATH=/work/base python tests/engine/golden_events.py

Run it again only on purpose: when a change of the rules makes these games play differently,
run it on the tree before that change (its sentences are the reference).
"""

from __future__ import annotations

import base64
import gzip
import json
import sys
import warnings
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("data") / "events_golden.json.gz"

# (edition, loot, players, seed, declared position): both editions, 2 to 6 players, solo,
# stormy and uncharted loot, and a declared position (a game that starts mid-voyage).
GAMES: tuple[tuple[str, str | None, int, int, dict[str, Any] | None], ...] = (
    ("galecrest", None, 2, 11, None),
    ("galecrest", None, 3, 12, None),
    ("galecrest", None, 4, 13, None),
    ("galecrest", None, 5, 14, None),
    ("galecrest", None, 6, 15, None),
    ("galecrest", "stormy", 4, 16, None),
    ("galecrest", "stormy", 6, 17, None),
    ("galecrest", "uncharted", 3, 18, None),
    ("galecrest", "uncharted", 5, 19, None),
    ("galecrest", None, 1, 20, None),
    ("galecrest", "stormy", 1, 21, None),
    ("classic", None, 2, 22, None),
    ("classic", None, 4, 23, None),
    ("classic", None, 6, 24, None),
    ("galecrest", None, 3, 25, {"voyage": 2, "day": 2, "reputation": [0, 3, 5],
                                "loot": [["map", "chest", "relic"]]}),
)


def play(edition: str, loot: str | None, players: int, seed: int, setup: dict[str, Any] | None) -> Any:
    """One seeded game between random agents, played to the end."""
    import libertalia as lt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reconstructed loot and solo cards warn on purpose
        rules = lt.load_rules(edition, loot=loot) if loot else lt.load_rules(edition)
        agents = [_FixedAnchorOrder(lt.agents.RandomAgent(seed * 8 + i)) for i in range(players)]
        return lt.play(rules, agents, seed=seed, setup=setup)


class _FixedAnchorOrder:
    """A random agent that answers anchor-order questions with the first ability offered.

    The engine these sentences come from resolved anchor abilities in a fixed order without
    asking; the engine now asks where the order matters (E8), offering the abilities in that
    same fixed order.  Answering with the first, without drawing from the agent's random
    stream, replays the reference game exactly (the old engine never asks, so it never comes here).
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def choose(self, observation: Any, decision: Any) -> str:
        if decision.kind == "order_abilities" and observation.phase == "anchor":
            return str(decision.options[0].key)
        return str(self.inner.choose(observation, decision))


def record() -> list[dict[str, Any]]:
    """Every game's words, packed log and events (kind, sentence, seat, source, amount)."""
    out = []
    for edition, loot, players, seed, setup in GAMES:
        game = play(edition, loot, players, seed, setup)
        out.append({
            "game": [edition, loot, players, seed, setup],
            "words": list(game.rules.lexicon),
            "packed": base64.b64encode(game.state.journal).decode(),
            "events": [[e.kind, e.text, e.seat, e.source, e.amount] for e in game.events],
        })
    return out


def load() -> list[dict[str, Any]]:
    with gzip.open(PATH, "rt", encoding="utf-8") as f:
        data: list[dict[str, Any]] = json.load(f)
    return data


if __name__ == "__main__":
    PATH.parent.mkdir(exist_ok=True)
    with gzip.GzipFile(PATH, "wb", mtime=0) as f:
        f.write(json.dumps(record(), separators=(",", ":")).encode())
    print(f"wrote {len(GAMES)} games to {PATH} ({PATH.stat().st_size} bytes)", file=sys.stderr)
