"""The ``libertalia`` command: play, simulate, check cards, replay games."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.console import Console

from ..errors import LibertaliaError, UnverifiedLootWarning
from ..loading.rules import load_rules
from ..loading.specs import Rules


def console() -> Console:
    """A console that colours only real terminals (no escape codes when piped)."""
    return Console(highlight=False, soft_wrap=True)


def parse_loot(value: str | None) -> str | dict[str, str] | None:
    """``--loot stormy`` or ``--loot map=stormy,hook=calm``."""
    if value is None or "=" not in value:
        return value
    out = {}
    for part in value.split(","):
        kind, _, side = part.partition("=")
        out[kind.strip()] = side.strip()
    return out


def rules_args(edition: str, loot: str | None, seed: int, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"edition": edition, "loot": parse_loot(loot), "seed": seed, "extra_cards": list(extra)}


def load(args: dict[str, Any]) -> Rules:
    """Load rules, showing reconstruction warnings as one-line notes."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UnverifiedLootWarning)
        rules = load_rules(**args)
    for w in caught:
        click.echo(f"note: {w.message}", err=True)
    return rules


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Library errors become a message and exit status 2, never a traceback."""
    try:
        yield
    except (LibertaliaError, ValueError, OSError) as exc:
        click.echo(f"libertalia: {exc}", err=True)
        sys.exit(2)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="libertalia")
def main() -> None:
    """Libertalia, played exactly by the rules: play against bots, simulate, check cards, replay."""


def _register() -> None:
    from .cards_cmd import cards
    from .play_cmd import play
    from .replay_cmd import replay
    from .simulate_cmd import simulate

    for command in (play, simulate, cards, replay):
        main.add_command(command)


_register()
