"""Bots that play Libertalia: ``random``, ``first``, ``greedy`` and ``ismcts`` (docs/bots.md).

``make_agent("ismcts:200", seed)`` builds one from the names the command line takes.
"""

from __future__ import annotations

from .registry import BOT_HELP, make_agent, parse_bot

__all__ = ["BOT_HELP", "make_agent", "parse_bot"]
