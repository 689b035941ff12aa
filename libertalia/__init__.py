"""libertalia: the card game Libertalia, played exactly by the rules.

Cards are data (YAML in a small card language); this package loads them,
checks and compiles their text, and plays immutable games.
"""

from __future__ import annotations

from . import agents
from .errors import (
    CardError,
    DataError,
    IllegalChoice,
    LibertaliaError,
    RulesError,
    SetupError,
    StepBudgetExceeded,
    UnverifiedLootWarning,
)
from .game import Game, Observation, new_game
from .language.parser import parse
from .language.render import render
from .loading.rules import load_rules
from .loading.specs import BoardSpec, CharacterSpec, LootSpec, Rules
from .play import play
from .state import Decision, Event, Option, PlayerState

__version__ = "0.1.0"

__all__ = [
    "BoardSpec", "CardError", "CharacterSpec", "DataError", "Decision", "Event", "Game",
    "IllegalChoice", "LibertaliaError", "LootSpec", "Observation", "Option", "PlayerState",
    "Rules", "RulesError", "SetupError", "StepBudgetExceeded", "agents", "load_rules", "new_game", "parse", "play",
    "render", "UnverifiedLootWarning",
]
