"""``libertalia play``: one person against bots, in the terminal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from ..agents import Agent
from ..game import Game, new_game
from ..records import GameRecord
from ..stats import BOTS
from . import console, friendly_errors, load, rules_args
from .display import decision_view, print_events, table_view

HELP = "Type an option's number or its key; 'save FILE' saves the game, 'quit' saves and stops."


def _bots(spec: str, players: int, human: int, seed: int) -> tuple[dict[int, Agent], tuple[str, ...]]:
    kinds = [b.strip() for b in spec.split(",") if b.strip()]
    unknown = [b for b in kinds if b not in BOTS]
    if unknown or not kinds:
        raise click.BadParameter(f"unknown bot {unknown[0] if unknown else spec!r}; the bots are {', '.join(BOTS)}",
                                 param_hint="--bots")
    seats: dict[int, Agent] = {}
    labels = []
    others = [s for s in range(players) if s != human]
    for i, s in enumerate(others):
        seats[s] = BOTS[kinds[i % len(kinds)]](seed * 16 + s)
    for s in range(players):
        labels.append("human" if s == human else kinds[others.index(s) % len(kinds)])
    return seats, tuple(labels)


@click.command()
@click.option("--players", default=4, show_default=True, help="Number of seats.")
@click.option("--seat", default=0, show_default=True, help="Your seat (0 = first).")
@click.option("--edition", default="galecrest", show_default=True, help="Edition name or board YAML.")
@click.option("--loot", default=None, help="Loot sides: calm, stormy, uncharted, automa or kind=side,...")
@click.option("--seed", default=1, show_default=True, help="Game seed.")
@click.option("--bots", default="random", show_default=True, help="Bots for the other seats, e.g. random,first.")
@click.option("--load", "load_path", type=click.Path(exists=True, dir_okay=False), help="Resume a saved game.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False),
              help="Where the game record goes (default: libertalia-SEED.json here).")
def play(players: int, seat: int, edition: str, loot: str | None, seed: int, bots: str,
         load_path: str | None, record_path: str | None) -> None:
    """Play one seat against bots."""
    out = console()
    with friendly_errors():
        if load_path is not None:
            record = GameRecord.load(load_path)
            rules = record.load_rules()
            game = record.replay(rules)
            players, seed = record.players, record.seed
            seat = record.agents.index("human") if "human" in record.agents else seat
            record_path = record_path or load_path
            out.print(f"Resumed {load_path}: {len(record.answers)} answers replayed.")
        else:
            if not 0 <= seat < players:
                raise click.BadParameter(f"seat must be 0 to {players - 1}", param_hint="--seat")
            rules = load(rules_args(edition, loot, seed))
            game = new_game(rules, players, seed)
        path = Path(record_path or f"libertalia-{seed}.json")
        agents, labels = _bots(bots, players, seat, seed)

        def save(target: Path) -> None:
            GameRecord.of(game, seed=seed, agents=labels).save(target)
            out.print(f"Saved to {target}.")

        shown = 0
        out.print(HELP)
        while game.decision is not None:
            d = game.decision
            if d.player != seat:
                agent = agents[d.player]
                game = game.choose(agent.choose(game.observation(d.player), d))
                continue
            print_events(out, game.events, shown)
            shown = len(game.events)
            out.print()
            out.print(table_view(game, seat))
            out.print(decision_view(d))
            key = _ask(game, save)
            if key is None:
                save(path)
                out.print("Stopped. Resume with: libertalia play --load " + str(path))
                return
            game = game.choose(key)
        print_events(out, game.events, shown)
        _final(game)
        save(path)


def _ask(game: Game, save: Callable[[Path], None]) -> str | None:
    """An answer from the person: a key, or None to quit.  Bad input asks again."""
    d = game.decision
    assert d is not None
    keys = d.keys()  # noqa: SIM118 - Decision.keys() is a method returning a tuple
    while True:
        try:
            text = str(click.prompt("your choice", prompt_suffix="> ")).strip()
        except click.Abort:
            return None
        if text in ("quit", "q", "exit"):
            return None
        if text in ("help", "?"):
            click.echo(HELP)
            continue
        if text.startswith("save"):
            target = text[4:].strip()
            if not target:
                click.echo("save needs a file name, e.g. save mygame.json")
                continue
            save(Path(target))
            continue
        if text.isdigit() and 1 <= int(text) <= len(keys):
            return str(keys[int(text) - 1])
        if text in keys:
            return text
        click.echo(f"{text!r} is not an option: type 1 to {len(keys)}, one of {', '.join(keys)}, "
                   "'save FILE' or 'quit'.")


def _final(game: Game) -> None:
    winners = set(game.winners())
    click.echo("")
    click.echo("Final scores:")
    for p in game.players:
        click.echo(f"  seat {p.seat}: {p.score}{'  <- winner' if p.seat in winners else ''}")
