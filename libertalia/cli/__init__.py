"""The ``libertalia`` command: play, simulate, check cards, replay games."""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from .._terminal import visible, visible_json
from ..errors import InertCardWarning, LibertaliaError, RulesWarning

if TYPE_CHECKING:
    from rich.console import Console

    from ..engine.specs import Rules


def console() -> Console:
    """A console that colours only real terminals (no escape codes when piped) and shows data's controls spelt out."""
    from .terminal import visible_console

    return visible_console()


def echo(message: object = "", *, err: bool = False, nl: bool = True) -> None:
    """``click.echo`` for everything the CLI prints without rich: a character from the data that a terminal
    would act on (ESC, BEL, a bidi override) is spelt out (``\\x1b``); line breaks and tabs are kept, and so is a
    file's CRLF line end (a diff of a Windows file), where a carriage return alone could overwrite a line."""
    click.echo("\r\n".join(visible(part, "\n\t") for part in str(message).split("\r\n")), err=err, nl=nl)


def echo_json(text: str) -> None:
    """JSON text on stdout, any control or format character in its strings as JSON's own ``\\uXXXX``."""
    click.echo(visible_json(text))


def parse_loot(value: str | None) -> str | dict[str, str] | None:
    """``--loot stormy`` or ``--loot map=stormy,hook=calm``."""
    if value is None or "=" not in value:
        return value
    out = {}
    for part in value.split(","):
        kind, _, side = part.partition("=")
        out[kind.strip()] = side.strip()
    return out


def rules_args(edition: str, loot: str | None, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """``load_rules`` arguments; uncharted loot sides are drawn per game, from each game's seed."""
    return {"edition": edition, "loot": parse_loot(loot), "extra_cards": list(extra)}


def load(args: dict[str, Any]) -> Rules:
    """Load rules, showing reconstruction warnings as one-line notes."""
    from ..loading.rules import load_rules

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RulesWarning)
        rules = load_rules(**args)
    for w in caught:
        echo(_note(w.message), err=True)
    return rules


def _note(message: Warning | str) -> str:
    """A library warning as one diagnostic: one that names its file and line (a card a mod left inert) as it is,
    any other as a 'note:' line."""
    return str(message) if isinstance(message, InertCardWarning) else f"note: {message}"


@contextmanager
def notes() -> Iterator[None]:
    """The library's warnings (a solo deck of constructed cards) as one 'note:' line each, not Python's form."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RulesWarning)
        try:
            yield
        finally:
            for w in caught:
                echo(_note(w.message), err=True)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Library errors become a message and exit status 2, never a traceback."""
    try:
        yield
    except (LibertaliaError, ValueError, OSError) as exc:
        echo(f"libertalia: {exc}", err=True)
        sys.exit(2)


@contextmanager
def _visible_click_errors() -> Iterator[None]:
    """A ``click.ClickException``'s message (it may quote a path or a name) spelt out before click shows it."""
    try:
        yield
    except click.ClickException as exc:
        exc.message = visible(exc.message, "\n\t")  # type: ignore[misc]  # click's Final; shown once, after this
        raise


# Each subcommand's module, object and one-line help: a module is imported only when its
# command runs, so that ``libertalia --help`` answers at once.
_COMMANDS = {
    "play": ("play_cmd", "play", "Play a game against bots in the terminal."),
    "simulate": ("simulate_cmd", "simulate", "Play many seeded games between bots and report statistics."),
    "cards": ("cards_cmd", "cards", "List, show, check and test cards; list the card language's forms."),
    "replay": ("replay_cmd", "replay", "Print a recorded game, replayed exactly."),
}


class _LazyGroup(click.Group):
    """Subcommands imported when they run; click's own errors (a bad option value) shown like ``echo``."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        with _visible_click_errors():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with _visible_click_errors():
            return super().invoke(ctx)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in _COMMANDS:
            return None
        module, name, _ = _COMMANDS[cmd_name]
        command: click.Command = getattr(importlib.import_module(f".{module}", __name__), name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, short) for name, (_, _, short) in _COMMANDS.items()])


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="libertalia")
def main() -> None:
    """Libertalia, played exactly by the rules: play against bots, simulate, check cards, replay."""
