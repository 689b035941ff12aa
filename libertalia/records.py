"""Game records: the few facts that reproduce a game exactly.

A record holds how the rules were loaded, the seat count, the seed, the
declared position (if any) and every answer.  Replaying it rebuilds the very
same game, which makes records small, diffable save files and bug reports.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from . import __version__
from .engine import rng
from .game import Game, new_game
from .loading.rules import load_rules
from .loading.specs import Rules

RECORD_FORMAT = 1


@attrs.frozen
class GameRecord:
    """Everything needed to reproduce one game, and nothing else."""

    rules_args: dict[str, Any]
    rules_identity: str
    players: int
    seed: int
    answers: tuple[str, ...]
    setup: dict[str, Any] | None = None
    agents: tuple[str, ...] = ()  # who played each seat, for people reading the record
    library_version: str = __version__

    @classmethod
    def of(cls, game: Game, *, seed: int, setup: Mapping[str, Any] | None = None,
           agents: tuple[str, ...] = ()) -> GameRecord:
        """The record of ``game`` (started with ``seed`` and ``setup``), as far as it has gone."""
        return cls(
            rules_args=dict(game.rules.load_args),
            rules_identity=game.rules.identity,
            players=len(game.players),
            seed=seed,
            answers=game.history,
            setup=dict(setup) if setup is not None else None,
            agents=agents,
        )

    def load_rules(self) -> Rules:
        """The rules the game was played with; an error if they have changed since."""
        rules = load_rules(**self.rules_args)
        if rules.identity != self.rules_identity:
            raise ValueError(f"the record was played with rules {self.rules_identity!r}, "
                             f"but they load as {rules.identity!r} now")
        return rules

    def replay(self, rules: Rules | None = None) -> Game:
        """The game as it stood after the last recorded answer."""
        game = new_game(rules or self.load_rules(), self.players, self.seed, self.setup)
        for i, key in enumerate(self.answers):
            if game.decision is None:
                raise ValueError(f"the record has {len(self.answers) - i} answers left after the game ended")
            game = game.choose(key)
        return game

    def to_json(self) -> str:
        payload = {
            "format": RECORD_FORMAT,
            "rng": {"name": rng.RNG_NAME, "version": rng.RNG_VERSION},
            **attrs.asdict(self),
        }
        return json.dumps(payload, indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
            if data.pop("format", None) != RECORD_FORMAT:
                raise ValueError("not a libertalia game record (unknown format)")
            if data.pop("rng", None) != {"name": rng.RNG_NAME, "version": rng.RNG_VERSION}:
                raise ValueError("the record was made with another random-number generator version")
            data["answers"] = tuple(data["answers"])
            data["agents"] = tuple(data.get("agents", ()))
            return cls(**data)
        except (KeyError, TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"not a valid game record: {exc}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(Path(path).read_text(encoding="utf-8"))
