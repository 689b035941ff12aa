"""The table as a seat sees it, as plain lines: OpenSpiel's observation string, compiled by mypyc.

Searches key their nodes on observation and information state strings, so they are written at
every node; this module, with ``_spiel_play``, is in the compiled set (hatch_build.py) and imports
neither OpenSpiel nor numpy.
"""

from __future__ import annotations

from .engine.specs import Rules
from .game import Observation
from .state import PlayerState


def _seat_line(p: PlayerState) -> str:
    """One seat's line: its counts, then its non-empty zones (others' hidden cards as the observation hides them)."""
    cards = " ".join(f"{name}=[{', '.join(zone)}]" for name, zone in
                     (("hand", p.hand), ("ship", p.ship), ("graveyard", p.graveyard), ("loot", p.loot),
                      ("kept", p.kept), ("kept_loot", p.kept_loot), ("removed", p.removed)) if zone)
    return (f"seat {p.seat}: doubloons {p.doubloons}, score {p.score}, reputation {p.reputation}"
            + (f"; {cards}" if cards else ""))


def table_text(obs: Observation, rules: Rules) -> str:
    """What ``obs`` shows, as plain lines: cheap, because searches key their nodes on it.

    Built from the ``Observation`` and the game's loot sides alone (public: with ``"uncharted"``
    each game draws them, face up), so it holds nothing the seat may not see.  ``Game.render``
    draws much the same through rich, at some hundred times the cost.
    """
    d = obs.decision
    asked = "nobody" if d is None else (
        f"seat {d.player}: {d.kind}" + (f" from {d.source}" if d.source else "")
        + (f" [{', '.join(o.key for o in d.options)}]" if d.player == obs.seat else ""))
    lines = [f"voyage {obs.voyage}, day {obs.day} ({obs.phase}); asked: {asked}",
             "loot sides: " + ", ".join(f"{kind} {side}" for kind, side in rules.loot_sides.items()),
             f"island: {', '.join(map(str, obs.island)) or '-'}",
             f"today's loot: {', '.join(obs.day_loot) or '-'}",
             "loot to come: " + " | ".join(", ".join(day) for day in obs.loot_days),
             "picked: " + "".join("x" if done else "." for done in obs.committed)]
    if obs.automa is not None:
        lines.append(f"automa: seat {obs.automa}, solo deck {obs.solo_deck_size}, top {obs.solo_top_picks}")
    lines += map(_seat_line, obs.players)
    return "\n".join(lines)
