"""libertalia: the card game Libertalia, played exactly by the rules.

Cards are data (YAML in a small card language); this package loads them,
checks and compiles their text, and plays immutable games.

The names below are imported when first used, so that ``import libertalia``
stays quick for tools that only need a part (a command line's ``--help``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    ArgumentError,
    CacheWarning,
    CardError,
    DataError,
    GameNotOver,
    IllegalChoice,
    InertCardWarning,
    LibertaliaError,
    RecordError,
    RulesError,
    RulesWarning,
    SaveError,
    SetupError,
    StepBudgetExceeded,
    UnverifiedLootWarning,
    UnverifiedSoloWarning,
)

if TYPE_CHECKING:
    from . import agents, events, records
    from .engine.specs import BoardSpec, CharacterSpec, LootSpec, Rules
    from .game import Game, Observation, new_game
    from .language.parser import parse
    from .language.render import render
    from .loading.rules import load_rules
    from .playing import play
    from .records import GameRecord
    from .state import Decision, Event, Option, PlayerState

__version__: str  # from the package metadata (pyproject.toml), read when first asked: see _version

# Where each public name lives; the submodules in _MODULES are the module itself.
_MODULES = {"agents", "events", "records"}
_LAZY = {
    "agents": ".agents", "events": ".events", "records": ".records", "GameRecord": ".records",
    "Game": ".game", "Observation": ".game", "new_game": ".game",
    "parse": ".language.parser", "render": ".language.render",
    "load_rules": ".loading.rules",
    "BoardSpec": ".engine.specs", "CharacterSpec": ".engine.specs", "LootSpec": ".engine.specs",
    "Rules": ".engine.specs",
    "play": ".playing",
    "Decision": ".state", "Event": ".state", "Option": ".state", "PlayerState": ".state",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from ._version import library_version

        globals()[name] = version = library_version()
        return version
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'libertalia' has no attribute {name!r}")
    module = importlib.import_module(where, __name__)
    value = module if name in _MODULES else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "__version__"})


__all__ = [
    "ArgumentError", "BoardSpec", "CacheWarning", "CardError", "CharacterSpec", "DataError", "Decision", "Event",
    "Game", "GameNotOver", "GameRecord", "IllegalChoice", "InertCardWarning", "LibertaliaError", "LootSpec",
    "Observation", "Option", "PlayerState",
    "RecordError", "Rules", "RulesError", "RulesWarning", "SaveError", "SetupError", "StepBudgetExceeded",
    "UnverifiedLootWarning", "UnverifiedSoloWarning", "agents", "events", "load_rules", "new_game", "parse", "play",
    "records", "render",
]
