"""``libertalia play``: one person against bots, in the terminal.

The command line never loses a game:

- the game record is written after every answer, atomically (a temporary file in the same
  folder, then ``os.replace``), to the record path: ``--record FILE``, else the ``--load``
  file being resumed, else ``libertalia-SEED.json`` in the current folder;
- Ctrl-C, at a prompt or while bots or the engine are thinking, saves the game as it stood
  after the last complete answer and exits with status 130;
- the record path and the ``--load`` file are checked before the game starts, and a bad
  ``save FILE`` typed at the prompt is reported and asked again.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import click
from click.core import ParameterSource
from rich.console import Console

from ..agents import Agent
from ..errors import LibertaliaError
from ..game import Game, new_game
from ..loading.specs import Rules
from ..records import GameRecord, write_atomic
from ..stats import BOTS
from . import console, friendly_errors, load, rules_args
from .display import decision_view, print_events, table_view

HELP = "Type an option's number or its key; 'save FILE' saves the game, 'quit' saves and stops."
INTERRUPTED = 130  # the shell's status for a program stopped by Ctrl-C (128 + SIGINT)


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


# ---------------------------------------------------------------- files
def path_problem(path: Path) -> str | None:
    """Why the game could not be saved to ``path``, or None if it can.

    Tries it for real: a temporary file is created in the folder and removed, which is
    what every save does (so permissions, read-only disks and missing folders all show).
    """
    if path.is_dir():
        return f"{path} is a folder, not a file"
    folder = path.parent
    if not folder.exists():
        return f"the folder {folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{path} is read-only"
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".libertalia-", suffix=".probe")
    except OSError as exc:
        return f"cannot write in the folder {folder}: {exc.strerror or exc}"
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return None


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _fail(message: str) -> NoReturn:
    click.echo(f"libertalia: {message}", err=True)
    sys.exit(2)


def _read_record(path: str) -> GameRecord:
    """The record in ``path``, or a one-line message and exit status 2."""
    try:
        return GameRecord.load(path)
    except (ValueError, OSError) as exc:  # the library's errors (RecordError, ...) and unreadable files
        _fail(f"{path}: {_one_line(exc)}")
    except (TypeError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        # Belt and braces: a damaged file is input, and input never earns a traceback.
        _fail(f"{path}: not a valid game record ({type(exc).__name__}: {_one_line(exc)})")


def _resume(record: GameRecord, path: str) -> tuple[Rules, Game]:
    try:
        rules = record.load_rules()
        return rules, record.replay(rules)
    except (ValueError, LibertaliaError, OSError) as exc:
        _fail(f"{path}: {_one_line(exc)}")
    except (TypeError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        _fail(f"{path}: cannot resume the game ({type(exc).__name__}: {_one_line(exc)})")


# ---------------------------------------------------------------- the game
class _Session:
    """One game in progress, the seat it is played from and where it is saved."""

    def __init__(self, out: Console, game: Game, seat: int, bots: str, seed: int, path: Path,
                 handicap: dict[int, int] | None = None) -> None:
        self.out = out
        self.game = game
        self.seat = seat
        self.seed = seed
        self.path = path
        self.handicap = handicap
        automa = game.state.automa
        if automa is None:
            self.agents, self.labels = _bots(bots, len(game.players), seat, seed)
        else:  # solo: Automa plays by her own rules, no bot needed
            self.agents, self.labels = {}, tuple("automa" if s == automa else "human" for s in range(2))
        self.saved_at = -1  # how many answers the file at ``path`` holds, as far as we know

    def write(self, target: Path) -> None:
        record = GameRecord.of(self.game, agents=self.labels, handicap=self.handicap)
        write_atomic(target, record.to_json() + "\n")

    def save_as(self, target: Path) -> bool:
        """``save FILE`` at the prompt: True if saved; a problem is reported, never raised."""
        problem = path_problem(target)
        if problem is None:
            try:
                self.write(target)
            except OSError as exc:
                problem = exc.strerror or str(exc)
        if problem is not None:
            click.echo(f"cannot save to {target}: {problem}; the game goes on, try another file.")
            return False
        click.echo(f"Saved to {target}.")
        return True

    def autosave(self) -> None:
        answers = len(self.game.history)
        if answers == self.saved_at:
            return
        try:
            self.write(self.path)
        except OSError as exc:
            click.echo(f"warning: autosave to {self.path} failed ({exc.strerror or exc}); "
                       "type 'save FILE' to save elsewhere.", err=True)
            return
        self.saved_at = answers

    def resume_hint(self) -> str:
        return f"libertalia play --load {shlex.quote(str(self.path))}"

    def run(self) -> bool:
        """Play until the game ends (True) or the person quits (False)."""
        shown = 0
        self.out.print(HELP)
        while (d := self.game.decision) is not None:
            if d.player != self.seat:
                agent = self.agents[d.player]
                self.game = self.game.choose(agent.choose(self.game.observation(d.player), d))
                continue
            self.autosave()  # the bots' answers since the last one
            print_events(self.out, self.game.events, shown)
            shown = len(self.game.events)
            self.out.print()
            self.out.print(table_view(self.game, self.seat))
            self.out.print(decision_view(d))
            key = _ask(self.game, self.save_as)
            if key is None:
                return False
            self.game = self.game.choose(key)
            self.autosave()
        print_events(self.out, self.game.events, shown)
        return True

    def play(self) -> None:
        """``run``, and whatever happens, the game is saved and the person told where."""
        try:
            finished = self.run()
            if finished:
                _final(self.game)
            self.write(self.path)
        except KeyboardInterrupt:
            self.out.print()
            self._save_and_exit("interrupted", INTERRUPTED)
        except (LibertaliaError, ValueError) as exc:  # a mod's card that loops, a bot's illegal answer...
            click.echo(f"libertalia: {_one_line(exc)}", err=True)
            self._save_and_exit("stopped by the error above", 2)
        except OSError as exc:
            _fail(f"the game could not be saved to {self.path} ({exc.strerror or exc}); "
                  "it holds the game up to the last autosave")
        if finished:
            click.echo(f"Saved to {self.path}.")
        else:
            click.echo(f"Stopped: game saved to {self.path}; resume with {self.resume_hint()}")

    def _save_and_exit(self, why: str, status: int) -> NoReturn:
        try:
            self.write(self.path)
        except (OSError, KeyboardInterrupt) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
            click.echo(f"{why.capitalize()}: the game could not be saved to {self.path} ({detail}); "
                       f"it holds the game up to the last autosave.", err=True)
        else:
            click.echo(f"{why.capitalize()}: game saved to {self.path}; resume with {self.resume_hint()}",
                       err=True)
        sys.exit(status)


@click.command()
@click.option("--players", default=4, show_default=True,
              help="Number of players: 1 is the solo game against Automa and the Pilferer.")
@click.option("--handicap", default=None, metavar="SEAT=N,...",
              help="Extra starting doubloons, e.g. 0=10 (easier solo) or 1=10 (Automa richer).")
@click.option("--seat", default=0, show_default=True, help="Your seat (0 = first).")
@click.option("--edition", default="galecrest", show_default=True, help="Edition name or board YAML.")
@click.option("--loot", default=None, help="Loot sides: calm, stormy, uncharted, automa or kind=side,...")
@click.option("--seed", default=1, show_default=True, help="Game seed.")
@click.option("--bots", default="random", show_default=True,
              help="Bots for the other seats, e.g. random,first (when resuming: the recorded ones).")
@click.option("--load", "load_path", type=click.Path(exists=True, dir_okay=False, readable=True),
              help="Resume a saved game (a record written by play or simulate).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False),
              help="Where the game is saved after every answer and at the end "
                   "(default: the --load file, else libertalia-SEED.json here).")
def play(players: int, handicap: str | None, seat: int, edition: str, loot: str | None, seed: int, bots: str,
         load_path: str | None, record_path: str | None) -> None:
    """Play one seat against bots.

    The game is saved after every answer; Ctrl-C saves it too (exit status 130), and
    ``libertalia play --load FILE`` resumes it.
    """
    out = console()
    try:
        session = _start(out, players, seat, edition, loot, seed, bots, load_path, record_path,
                         parse_handicap(handicap))
    except KeyboardInterrupt:
        click.echo("\nInterrupted before the game began: nothing to save.", err=True)
        sys.exit(INTERRUPTED)
    session.play()


def parse_handicap(spec: str | None) -> dict[int, int] | None:
    """``0=10,1=5`` as {seat: extra doubloons}; ``BadParameter`` naming the bad part."""
    if spec is None:
        return None
    out: dict[int, int] = {}
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        seat, sep, amount = part.partition("=")
        if not sep or not seat.strip().isdigit() or not amount.strip().isdigit():
            raise click.BadParameter(f"{part!r} is not SEAT=N, such as 0=10", param_hint="--handicap")
        out[int(seat)] = int(amount)
    return out


def _start(out: Console, players: int, seat: int, edition: str, loot: str | None, seed: int, bots: str,
           load_path: str | None, record_path: str | None, handicap: dict[int, int] | None = None) -> _Session:
    """Check every path and option, then set up or resume the game."""
    record = _read_record(load_path) if load_path is not None else None
    if record is not None:
        seed = record.seed
    path = Path(record_path or load_path or f"libertalia-{seed}.json")
    problem = path_problem(path)
    if problem is not None:
        raise click.BadParameter(f"cannot save the game to {path}: {problem}", param_hint="--record")
    if record is not None:
        rules, game = _resume(record, str(load_path))
        players = record.players
        handicap = dict(enumerate(record.handicap)) if record.handicap else None
        if "human" in record.agents:
            seat = record.agents.index("human")
        recorded = [a for i, a in enumerate(record.agents) if i != seat]
        source = click.get_current_context().get_parameter_source("bots")
        if (source is ParameterSource.DEFAULT and len(record.agents) == players
                and recorded and all(a in BOTS for a in recorded)):
            bots = ",".join(recorded)  # the same bots on the same seats as before
    else:
        with friendly_errors():
            rules = load(rules_args(edition, loot))
        lo, hi = rules.board.players
        solo = " (or 1: the solo game)" if rules.board.solo is not None else ""
        if not (lo <= players <= hi or (players == 1 and rules.board.solo is not None)):
            raise click.BadParameter(f"{rules.board.title} is for {lo} to {hi} players{solo}, not {players}",
                                     param_hint="--players")
    if not 0 <= seat < players:
        raise click.BadParameter(f"your seat must be 0 to {players - 1}, not {seat}", param_hint="--seat")
    if record is None:
        with friendly_errors():
            game = new_game(rules, players, seed, handicap=handicap)
    else:
        out.print(f"Resumed {load_path}: {len(record.answers)} answers replayed.")
    session = _Session(out, game, seat, bots, seed, path, handicap)
    out.print(f"The game is saved to {path} after every answer.")
    return session


def _read_answer() -> str:
    """One line typed by the person.

    ``click.prompt`` turns both Ctrl-C and the end of input into ``click.Abort``; they are
    told apart again here: Ctrl-C raises ``KeyboardInterrupt`` (save, exit 130), the end
    of input ``EOFError`` (the same as 'quit').
    """
    try:
        return str(click.prompt("your choice", prompt_suffix="> "))
    except click.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise EOFError from None


def _ask(game: Game, save: Callable[[Path], bool]) -> str | None:
    """An answer from the person: a key, or None to quit.  Bad input asks again."""
    d = game.decision
    assert d is not None
    keys = d.keys()  # noqa: SIM118 - Decision.keys() is a method returning a tuple
    while True:
        try:
            text = _read_answer().strip()
        except EOFError:
            return None
        if text in ("quit", "q", "exit"):
            return None
        if text in ("help", "?"):
            click.echo(HELP)
            continue
        if text == "save" or text.startswith("save "):
            target = text[4:].strip()
            if not target:
                click.echo("save needs a file name, e.g. save mygame.json")
                continue
            save(Path(target).expanduser())
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
