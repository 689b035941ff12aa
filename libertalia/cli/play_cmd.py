"""``libertalia play``: one person against bots, in the terminal.

The command line never loses a game:

- the game record is written after every answer, atomically (a temporary file in the same
  folder, then ``os.replace``), to the record path: ``--record FILE``, else the ``--load``
  file being resumed, else ``libertalia-SEED.json`` in the current folder;
- no record is ever written over without asking: an existing ``--record`` file is refused
  (unless it is the ``--load`` file being resumed), the default file is numbered
  (``libertalia-SEED-2.json``, ...) when it exists, a record of bots only that is loaded is
  left as it is, and ``save FILE`` asks before replacing a file;
- Ctrl-C, at a prompt or while bots or the engine are thinking, saves the game as it stood
  after the last complete answer and exits with status 130;
- the record path and the ``--load`` file are checked before the game starts, and a bad
  ``save FILE`` typed at the prompt is reported and asked again;
- one session per file: the session holds an ``fcntl`` lock on its record for as long as it
  runs (``files.SessionLock``, a ``.NAME.lock`` file beside it naming the process), so a
  second ``play`` on the same file is refused with the first one's process id, and ``save
  FILE`` will not write a file another session holds; the lock of a session killed outright
  dies with it, and the next session takes it over.  Temporary files left in the record's
  folder by a session killed mid-write are removed when the next one starts.

Without ``--seed`` a seed is drawn at random (outside the engine, which draws nothing that
its seed does not decide) and printed, so that the deal can be played again.
"""

from __future__ import annotations

import difflib
import enum
import os
import re
import secrets
import shlex
import sys
import textwrap
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import attrs
import click
from click.core import ParameterSource
from rich.console import Console
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from ..agents import Agent
from ..bots.registry import BOT_HELP
from ..engine import rng
from ..engine.specs import Rules
from ..errors import FileInUse, LibertaliaError, RulesWarning
from ..files import SessionLock, clean_temporary, probe_folder
from ..game import Game, new_game
from ..records import GameRecord, write_atomic
from ..stats import bot_factory
from . import console, echo, friendly_errors, load, notes, rules_args
from .display import RANK_LEGEND, card_view, decision_view, option_texts, print_events, ranked, table_view
from .replay_cmd import check_cards
from .summaries import final_summary, seat_name, summaries_for
from .terminal import safe_text

INTRO = "Type an option's number or its key; 'help' lists show, log, undo, save and quit."
HELP = f"""Answer with an option's number or its key (in any case). At any prompt you may also type:
  show NAME, ? NAME   the text of a character or loot kind, e.g. show Cook
  log, log N          the last 20 (or N) things that happened; 'log all' for the whole game
  undo                go back to your previous decision (the record is rewritten to it)
  save FILE           save a copy of the game to FILE
  quit                save and stop; 'libertalia play --load FILE' resumes
  help                this list
{textwrap.fill(RANK_LEGEND, 78)}"""
INTERRUPTED = 130  # the shell's status for a program stopped by Ctrl-C (128 + SIGINT)
RANDOM_SEEDS = 1_000_000  # a drawn seed is below this: short enough to read out and type again
LOG_LINES = 20
FIXED_BY_RECORD = ("players", "seed", "edition", "loot", "handicap")  # a --load record decides these


class _Stop(enum.Enum):
    """Answers at the prompt that are not a key of the decision."""

    QUIT = "quit"
    UNDO = "undo"


def _bots(spec: str, players: int, human: int, seed: int) -> tuple[dict[int, Agent], tuple[str, ...]]:
    kinds = [b.strip().casefold() for b in spec.split(",") if b.strip()]
    if not kinds:
        raise click.BadParameter(f"name at least one bot: {BOT_HELP}", param_hint="--bots")
    try:
        factories = [bot_factory(kind) for kind in kinds]
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from None
    seats: dict[int, Agent] = {}
    labels = []
    others = [s for s in range(players) if s != human]
    for i, s in enumerate(others):
        seats[s] = factories[i % len(kinds)](seed * 16 + s)
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
    problem = probe_folder(folder)
    return None if problem is None else f"cannot write in the folder {folder}: {problem}"


def _exists(path: Path) -> bool:
    """Whether anything, even a dangling link, is at ``path``: a save would replace it."""
    return path.exists() or path.is_symlink()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def free_record_path(seed: int, folder: Path = Path(), taken: frozenset[Path] = frozenset()) -> Path:
    """``libertalia-SEED.json``, or ``libertalia-SEED-2.json``, ``-3``, ... if it is taken: never a record in use.

    ``taken`` are paths another session holds, though nothing is written there yet.
    """
    path, n = folder / f"libertalia-{seed}.json", 2
    while _exists(path) or path in taken:
        path, n = folder / f"libertalia-{seed}-{n}.json", n + 1
    return path


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _fail(message: str) -> NoReturn:
    echo(f"libertalia: {message}", err=True)
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


def _resume(record: GameRecord, path: str, cards: Sequence[str] = ()) -> tuple[Rules, Game, Game]:
    """The rules, the game as recorded, and the same game at its start (where 'undo' replays from)."""
    try:
        rules = record.load_rules(cards=cards)
        return rules, record.replay(rules), attrs.evolve(record, answers=()).replay(rules)
    except (ValueError, LibertaliaError, OSError) as exc:
        _fail(f"{path}: {_one_line(exc)}")
    except (TypeError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        _fail(f"{path}: cannot resume the game ({type(exc).__name__}: {_one_line(exc)})")


def _bots_only(record: GameRecord) -> bool:
    """A record of a game between bots (``simulate --record``): nobody's game to go on with in place."""
    return bool(record.agents) and "human" not in record.agents


# ---------------------------------------------------------------- answers
def match_answer(text: str, keys: Sequence[str]) -> str | None:
    """The key ``text`` picks: an option's number, its key, or its key in another case."""
    number = _number(text)
    if number is not None:
        return keys[number - 1] if 1 <= number <= len(keys) else None
    if text in keys:
        return text
    folded = [k for k in keys if k.casefold() == text.casefold()]
    return folded[0] if len(folded) == 1 else None


def _number(text: str) -> int | None:
    """``text`` as a whole number if it is one written in ASCII digits (``int`` would take '٣', not '²')."""
    return int(text) if text.isascii() and text.isdigit() else None


def closest(text: str, names: Sequence[str]) -> str | None:
    """The name ``text`` most likely misspells, if one is close enough."""
    by_fold = {n.casefold(): n for n in names}
    found = difflib.get_close_matches(text.casefold(), list(by_fold), n=1, cutoff=0.6)
    return by_fold[found[0]] if found else None


def find_card(rules: Rules, text: str) -> str | None:
    """The character or loot kind ``text`` names, in any case; a seat mark (``Cook@2``, ``Cook#1``) is ignored."""
    wanted = re.sub(r"[@#]\d+$", "", text.strip()).casefold()
    names = [c.name for c in rules.characters] + list(rules.kinds)
    return next((n for n in names if n.casefold() == wanted), None)


# ---------------------------------------------------------------- the game
class _Session:
    """One game in progress, the seat it is played from and where it is saved."""

    def __init__(self, out: Console, game: Game, seat: int, bots: str, seed: int, path: Path,
                 handicap: dict[int, int] | None = None, start: Game | None = None,
                 lock: SessionLock | None = None) -> None:
        self.out = out
        self.game = game
        self.seat = seat
        self.seed = seed
        self.path = path
        self.lock = lock  # held on ``path`` for the whole session
        self.handicap = handicap
        automa = game.state.automa
        if automa is None:
            self.agents, self.labels = _bots(bots, len(game.players), seat, seed)
        else:  # solo: Automa plays by her own rules, no bot needed
            self.agents, self.labels = {}, tuple("automa" if s == automa else "human" for s in range(2))
        self.saved: tuple[str, ...] | None = None  # the answers the file at ``path`` holds, as far as we know
        self.written: set[Path] = set()  # files 'save FILE' wrote: saved again without asking
        self.earlier: list[Game] = []  # the game at each decision of ours answered so far: 'undo' pops
        self.start = start  # a resumed game at its start: 'undo' rebuilds ``earlier`` from it
        self.shown = 0  # events printed so far
        self.legend = True  # explain the number in 'Necromancer (19)' the first time it shows

    # ------------------------------------------------------------ saving
    def write(self, target: Path) -> None:
        record = GameRecord.of(self.game, agents=self.labels, handicap=self.handicap)
        write_atomic(target, record.to_json() + "\n")
        if target == self.path:
            self.saved = self.game.history

    def save_as(self, target: Path) -> bool:
        """``save FILE`` at the prompt: True if saved; a problem is reported, never raised."""
        if not self._may_replace(target):
            echo(f"Not saved: {target} is left as it is.")
            return False
        problem = path_problem(target)
        if problem is None:
            try:
                if _same_file(target, self.path):
                    self.write(target)
                else:
                    with SessionLock(target):  # not over a game another session is playing
                        self.write(target)
            except FileInUse as exc:
                problem = f"another libertalia play session ({_process(exc)}) is playing the game in it"
            except OSError as exc:
                problem = exc.strerror or str(exc)
        if problem is not None:
            echo(f"cannot save to {target}: {problem}; the game goes on, try another file.")
            return False
        self.written.add(target)
        echo(f"Saved to {target}.")
        return True

    def _may_replace(self, target: Path) -> bool:
        """Whether ``save FILE`` may write ``target``: a new file, this game's own, or the person says so."""
        if not _exists(target) or target.is_dir() or target in self.written or _same_file(target, self.path):
            return True
        return _confirm(f"{target} exists: replace it with this game?")

    def autosave(self) -> None:
        if self.game.history == self.saved:
            return
        try:
            self.write(self.path)
        except OSError as exc:
            echo(f"warning: autosave to {self.path} failed ({exc.strerror or exc}); "
                 "type 'save FILE' to save elsewhere.", err=True)

    def resume_hint(self) -> str:
        return f"libertalia play --load {shlex.quote(str(self.path))}"

    # ------------------------------------------------------------ playing
    def run(self) -> bool:
        """Play until the game ends (True) or the person quits (False)."""
        self.out.print(INTRO)
        while (d := self.game.decision) is not None:
            if d.player != self.seat:
                self.bots_play()
                continue
            self.autosave()  # the bots' answers since the last one
            self.show_table()
            reply = self.ask()
            if reply is _Stop.QUIT:
                return False
            if reply is _Stop.UNDO:
                self.undo()
                continue
            self.earlier.append(self.game)
            self.game = self.game.choose(reply)
            self.autosave()
        self.print_events()
        return True

    def bots_play(self) -> None:
        """The bots answer until the person is asked or the game ends; a terminal shows a line while each thinks.

        The line (rich's live display, which a pipe does not show) names the seat and its bot, and goes when
        the person is asked: a slow bot no longer thinks in silence."""
        spinner = Spinner("dots", style="dim")
        with Live(spinner, console=self.out, transient=True, refresh_per_second=8) as live:
            while (d := self.game.decision) is not None and d.player != self.seat:
                spinner.update(text=self.thinking(d.player))
                live.refresh()  # drawn now, not at the next tick: the bot may take long
                agent = self.agents[d.player]
                self.game = self.game.choose(agent.choose(self.game.observation(d.player), d))

    def thinking(self, seat: int) -> Text:
        return safe_text(f"{seat_name(seat, self.labels)} is thinking…", style="dim")

    def print_events(self) -> None:
        """The events since the last ones shown, each voyage's end followed by its summary of doubloons."""
        events, names = self.game.events, self.names()
        for end, summary in summaries_for(self.game, self.shown, self.labels, self.seat):
            print_events(self.out, events[:end], self.shown, names)
            self.out.print()
            self.out.print(summary)
            self.out.print()
            self.shown = end
        print_events(self.out, events, self.shown, names)
        self.shown = len(events)

    def names(self) -> list[str]:
        return [c.name for c in self.game.rules.characters]

    def show_table(self) -> None:
        d = self.game.decision
        assert d is not None
        self.print_events()
        self.out.print()
        self.out.print(table_view(self.game, self.seat))
        legend = self.legend and ranked(d, self.game.rules)
        self.legend = self.legend and not legend
        self.out.print(decision_view(d, legend=legend, texts=option_texts(d, self.game.rules)))

    def ask(self) -> str | _Stop:
        """An answer from the person: a key, QUIT or UNDO; commands are carried out, bad input asks again."""
        d = self.game.decision
        assert d is not None
        keys = d.keys()  # noqa: SIM118 - Decision.keys() is a method returning a tuple
        while True:
            try:
                text = _read_answer().strip()
            except EOFError:
                return _Stop.QUIT
            key = match_answer(text, keys)
            if key is not None:
                return key
            reply = self.command(text)
            if reply is not None:
                return reply
            if not _is_command(text):
                self.not_an_option(text, keys)

    def command(self, text: str) -> _Stop | None:
        """Carry out a command typed at the prompt; QUIT or UNDO end the question, the others ask again."""
        word, _, rest = text.partition(" ")
        word, rest = word.casefold(), rest.strip()
        if word.startswith("?") and len(word) > 1:  # ?Cook
            word, rest = "?", (word[1:] + " " + rest).strip()
        if word in ("quit", "q", "exit") and not rest:
            return _Stop.QUIT
        if word == "undo" and not rest:
            return _Stop.UNDO if self.can_undo() else None
        if word == "help" or (word == "?" and not rest):
            echo(HELP)
        elif word in ("show", "?"):
            self.show_card(rest)
        elif word == "log":
            self.log(rest)
        elif word == "save":
            self.save_command(text[4:].strip())
        return None

    def not_an_option(self, text: str, keys: Sequence[str]) -> None:
        guess = closest(text, keys)
        hint = f" Did you mean {guess}?" if guess is not None else ""
        echo(f"{text!r} is not an option: type 1 to {len(keys)}, one of {', '.join(keys)}, "
             f"or 'help'.{hint}")

    def save_command(self, target: str) -> None:
        if not target:
            echo("save needs a file name, e.g. save mygame.json")
            return
        self.save_as(Path(target).expanduser())

    def show_card(self, text: str) -> None:
        """``show NAME``: a card's text, or the closest name when it is misspelt."""
        rules = self.game.rules
        if not text:
            echo("show needs a card's name, e.g. show Cook")
            return
        name = find_card(rules, text)
        if name is not None:
            self.out.print(card_view(rules, name))
            return
        guess = closest(text, [*self.names(), *rules.kinds])
        hint = f"; did you mean {guess}?" if guess is not None else "; 'libertalia cards list' lists them."
        echo(f"no character or loot kind called {text!r}{hint}")

    def log(self, text: str) -> None:
        """``log``: the last 20 events, ``log N`` the last N, ``log all`` every one."""
        events, number = self.game.events, _number(text)
        if text.casefold() == "all":
            count = len(events)
        elif not text:
            count = LOG_LINES
        elif number is not None:
            count = number
        else:
            echo("log takes a number of events or 'all', e.g. log 40")
            return
        if not events:
            echo("Nothing has happened yet.")
            return
        print_events(self.out, events, max(0, len(events) - count), self.names())

    # ------------------------------------------------------------ undo
    def can_undo(self) -> bool:
        if self.start is not None:
            self.earlier = self._rebuild_earlier(self.start)
            self.start = None
        if not self.earlier:
            echo("Nothing to undo: this is your first decision.")
        return bool(self.earlier)

    def _rebuild_earlier(self, start: Game) -> list[Game]:
        """A resumed game's decisions of ours, rebuilt by replaying it from its start (games are values)."""
        game, mine = start, []
        for key in self.game.history:
            if game.decision is not None and game.decision.player == self.seat:
                mine.append(game)
            game = game.choose(key)
        return mine

    def undo(self) -> None:
        """Back to the previous decision of ours; the record is rewritten to that shorter game."""
        self.game = self.earlier.pop()
        self.shown = len(self.game.events)
        self.autosave()
        self.out.print(f"Undone: back to your decision of voyage {self.game.voyage}, day {self.game.day}; "
                       f"{self.path} holds the game from there.")

    # ------------------------------------------------------------ the whole game
    def play(self) -> None:
        """``run``, and whatever happens, the game is saved and the person told where; then the lock is let go."""
        try:
            self._play()
        finally:
            if self.lock is not None:
                self.lock.release()

    def _play(self) -> None:
        try:
            finished = self.run()
            if finished:
                _final(self.out, self.game, self.labels, self.seat)
            self.write(self.path)
        except KeyboardInterrupt:
            self.out.print()
            self._save_and_exit("interrupted", INTERRUPTED)
        except (LibertaliaError, ValueError) as exc:  # a mod's card that loops, a bot's illegal answer...
            echo(f"libertalia: {_one_line(exc)}", err=True)
            self._save_and_exit("stopped by the error above", 2)
        except OSError as exc:
            _fail(f"the game could not be saved to {self.path} ({exc.strerror or exc}); "
                  "it holds the game up to the last autosave")
        if finished:
            echo(f"Saved to {self.path}.")
        else:
            echo(f"Stopped: game saved to {self.path}; resume with {self.resume_hint()}")

    def _save_and_exit(self, why: str, status: int) -> NoReturn:
        try:
            self.write(self.path)
        except (OSError, KeyboardInterrupt) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
            echo(f"{why.capitalize()}: the game could not be saved to {self.path} ({detail}); "
                 f"it holds the game up to the last autosave.", err=True)
        else:
            echo(f"{why.capitalize()}: game saved to {self.path}; resume with {self.resume_hint()}",
                 err=True)
        sys.exit(status)


def _is_command(text: str) -> bool:
    """Whether ``text`` was a command (carried out, or answered with its own message), not a wrong answer."""
    word = text.partition(" ")[0].casefold()
    return word.startswith("?") or word in ("quit", "q", "exit", "undo", "help", "show", "log", "save")


def _check_seed(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--seed``: the library's one rule for seeds (``rng.seed_problem``), checked before the game."""
    problem = None if value is None else rng.seed_problem(value)
    if problem is not None:
        raise click.BadParameter(problem)
    return value


@click.command()
@click.option("--players", default=4, show_default=True,
              help="Number of players: 1 is the solo game against Automa and the Pilferer.")
@click.option("--handicap", default=None, metavar="SEAT=N,...",
              help="Extra starting doubloons, e.g. 0=10 (easier solo) or 1=10 (Automa richer).")
@click.option("--seat", default=0, show_default=True, help="Your seat (0 = first).")
@click.option("--edition", default="galecrest", show_default=True, help="Edition name or board YAML.")
@click.option("--loot", default=None, help="Loot sides: calm, stormy, uncharted, automa or kind=side,...")
@click.option("--seed", type=int, default=None, callback=_check_seed,
              help="Game seed, 0 to 2**64 - 1 (default: drawn at random and printed, to play the deal again).")
@click.option("--bots", default="random", show_default=True,
              help=f"Bots for the other seats, e.g. greedy,ismcts:200 (when resuming: the recorded ones). "
                   f"The bots: {BOT_HELP}.")
@click.option("--load", "load_path", type=click.Path(exists=True, dir_okay=False, readable=True),
              help="Resume a saved game (a record written by play or simulate); it decides the players, "
                   "seed, edition, loot and handicap.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False),
              help="A new file where the game is saved after every answer and at the end "
                   "(default: the --load file, else libertalia-SEED.json here, numbered if it exists).")
@click.option("--cards", "extra", multiple=True, type=click.Path(exists=True),
              help="Extra card files or folders (a mod). With --load: the record's own mod paths that lie "
                   "outside its folder and this one, to read them anyway.")
def play(players: int, handicap: str | None, seat: int, edition: str, loot: str | None, seed: int | None,
         bots: str, load_path: str | None, record_path: str | None, extra: tuple[str, ...]) -> None:
    """Play one seat against bots.

    The game is saved after every answer; Ctrl-C saves it too (exit status 130), and
    ``libertalia play --load FILE`` resumes it.  One session per file: while a game is
    played, a second ``play`` on its file is refused, naming the first one's process id
    (a session killed outright leaves no lock behind).  At the prompt, 'help' lists the
    commands.
    """
    out = console()
    try:
        session = _start(out, players, seat, edition, loot, seed, bots, load_path, record_path,
                         parse_handicap(handicap), extra)
    except KeyboardInterrupt:
        echo("\nInterrupted before the game began: nothing to save.", err=True)
        sys.exit(INTERRUPTED)
    if session is not None:
        # The start printed the data warnings as one 'note:' line each; saving and checking records
        # sets the game up again, which must not repeat them as Python warnings mid-game.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RulesWarning)
            session.play()


def parse_handicap(spec: str | None) -> dict[int, int] | None:
    """``0=10,1=5`` as {seat: extra doubloons}; ``BadParameter`` naming the bad part."""
    if spec is None:
        return None
    out: dict[int, int] = {}
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        seat, sep, amount = part.partition("=")
        number, extra = _number(seat.strip()), _number(amount.strip())
        if not sep or number is None or extra is None:
            raise click.BadParameter(f"{part!r} is not SEAT=N, such as 0=10", param_hint="--handicap")
        out[number] = extra
    return out


def _given(name: str) -> bool:
    """Whether the option ``name`` was typed (or set in the environment), not left at its default."""
    source = click.get_current_context().get_parameter_source(name)
    return source not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


def _refuse_fixed_options() -> None:
    """``--load`` with an option the record decides is a usage error, not an option silently ignored."""
    given = [f"--{name}" for name in FIXED_BY_RECORD if _given(name)]
    if given:
        raise click.UsageError(f"--load resumes the game its record describes: {', '.join(given)} cannot be "
                               "given with it.")


def _record_path(record_path: str | None, load_path: str | None, record: GameRecord | None,
                 seed: int, taken: frozenset[Path] = frozenset()) -> tuple[Path, str]:
    """Where the game is saved, and a note on why there: never over a record that is not this game's.

    ``taken`` are default paths found locked by other sessions: the next free number is used.
    """
    resumable = record is not None and not _bots_only(record)
    if record_path is not None:
        path = Path(record_path)
        if not _exists(path) or path.is_dir():  # a folder: path_problem says why it will not do
            return path, ""
        if load_path is None or not _same_file(path, Path(load_path)):
            raise click.BadParameter(f"{path} already exists: give a new file, as a game is never written over "
                                     f"another (to go on with the game in it: --load {shlex.quote(str(path))})",
                                     param_hint="--record")
        if not resumable:
            raise click.BadParameter(f"{path} records a game between bots and is left as it is: give a new file",
                                     param_hint="--record")
        return path, ""
    if load_path is not None and resumable:
        return Path(load_path), ""
    path = free_record_path(seed, taken=taken)
    notes = []
    if load_path is not None:
        notes.append(f"{load_path} records a game between bots: it is left as it is.")
    if path.name != f"libertalia-{seed}.json":
        notes.append(f"libertalia-{seed}.json exists: it is left as it is.")
    return path, " ".join(notes)


def _start(out: Console, players: int, seat: int, edition: str, loot: str | None, seed: int | None, bots: str,
           load_path: str | None, record_path: str | None,
           handicap: dict[int, int] | None = None, extra: tuple[str, ...] = ()) -> _Session | None:
    """Check every path and option, take the record's lock, then set up or resume the game.

    None: a finished game, shown (and the lock let go again).
    """
    if load_path is not None:
        _refuse_fixed_options()
    record = _read_record(load_path) if load_path is not None else None
    drawn = seed is None and record is None
    if record is not None:
        seed = record.seed
    elif seed is None:
        seed = secrets.randbelow(RANDOM_SEEDS)
    path, note, lock = _claim(record_path, load_path, record, seed)
    try:
        session = _begin_session(out, players, seat, edition, loot, seed, bots, load_path, record, path, note, lock,
                                 drawn, handicap, extra)
    except BaseException:
        lock.release()
        raise
    if session is None:
        lock.release()
    return session


def _claim(record_path: str | None, load_path: str | None, record: GameRecord | None,
           seed: int) -> tuple[Path, str, SessionLock]:
    """The record path, its note and the session's lock on it; a file another session holds is refused.

    A default path another session holds (it has not written there yet) is passed over for the next number.
    """
    taken: set[Path] = set()
    while True:
        path, note = _record_path(record_path, load_path, record, seed, frozenset(taken))
        problem = path_problem(path)
        if problem is not None:
            raise click.BadParameter(f"cannot save the game to {path}: {problem}", param_hint="--record")
        lock = SessionLock(path)
        try:
            lock.acquire()
        except FileInUse as exc:
            if record_path is None and (load_path is None or not _same_file(path, Path(load_path))):
                taken.add(path)
                continue
            _fail(f"{path} is in use: another libertalia play session ({_process(exc)}) is playing it; go on "
                  "there, or quit that session first")
        except OSError as exc:
            _fail(f"cannot lock {path} for this session ({exc.strerror or exc})")
        if lock.stale is not None:
            echo(f"note: the last session on {path} (process {lock.stale}) ended without letting go of "
                 "it; its lock is taken over.", err=True)
        clean_temporary(path.parent)  # what a session killed mid-write left
        return path, note, lock


def _process(exc: FileInUse) -> str:
    return f"process {exc.pid}" if exc.pid is not None else "its process id unknown"


def _begin_session(out: Console, players: int, seat: int, edition: str, loot: str | None, seed: int, bots: str,
                   load_path: str | None, record: GameRecord | None, path: Path, note: str, lock: SessionLock,
                   drawn: bool, handicap: dict[int, int] | None, extra: tuple[str, ...]) -> _Session | None:
    """The game of a session that holds its record's lock: resumed from the record, or a new one."""
    if record is not None and load_path is not None and _same_file(path, Path(load_path)):
        record = _read_record(load_path)  # again, under the lock: as the last session left it
    start: Game | None = None
    if record is not None:
        check_cards(record, extra)
        with notes():
            rules, game, start = _resume(record, str(load_path), extra)
        if game.is_over:
            _show_finished(out, game, str(load_path), record.agents)
            return None
        players = record.players
        handicap = dict(enumerate(record.handicap)) if record.handicap else None
        seat, bots = _resumed_seats(record, seat, bots)
    else:
        rules = _new_rules(edition, loot, players, extra)
    if not 0 <= seat < players:
        raise click.BadParameter(f"your seat must be 0 to {players - 1}, not {seat}", param_hint="--seat")
    if record is None:
        with friendly_errors(), notes():
            game = new_game(rules, players, seed, handicap=handicap)
        out.print(f"Seed {seed} (drawn at random: --seed {seed} deals this game again)." if drawn else f"Seed {seed}.")
    else:
        out.print(f"Resumed {load_path}: {len(record.answers)} answers replayed.")
    session = _Session(out, game, seat, bots, seed, path, handicap, start, lock)
    if note:
        out.print(note)
    out.print(f"The game is saved to {path} after every answer.")
    return session


def _new_rules(edition: str, loot: str | None, players: int, extra: tuple[str, ...] = ()) -> Rules:
    """The rules of a new game, and a usage error for a player count they are not for."""
    with friendly_errors():
        rules = load(rules_args(edition, loot, extra))
    lo, hi = rules.board.players
    solo = " (or 1: the solo game)" if rules.board.solo is not None else ""
    if not (lo <= players <= hi or (players == 1 and rules.board.solo is not None)):
        raise click.BadParameter(f"{rules.board.title} is for {lo} to {hi} players{solo}, not {players}",
                                 param_hint="--players")
    return rules


def _resumed_seats(record: GameRecord, seat: int, bots: str) -> tuple[int, str]:
    """Your seat and the bots of a resumed game: the recorded ones, unless --seat or --bots say otherwise."""
    if "human" in record.agents:
        recorded_seat = record.agents.index("human")
        if _given("seat") and seat != recorded_seat:
            raise click.BadParameter(f"the record has you in seat {recorded_seat}, not {seat}", param_hint="--seat")
        seat = recorded_seat
    recorded = [a for i, a in enumerate(record.agents) if i != seat]
    if (not _given("bots") and len(record.agents) == record.players
            and recorded and all(_is_bot(a) for a in recorded)):
        bots = ",".join(recorded)  # the same bots on the same seats as before
    return seat, bots


def _is_bot(name: str) -> bool:
    try:
        bot_factory(name)
    except ValueError:
        return False
    return True


def _show_finished(out: Console, game: Game, path: str, agents: Sequence[str] = ()) -> None:
    """A record of a game already over: its end and scores, and no file written."""
    out.print(f"{path} holds a finished game: nothing is left to play, and no file is written.")
    events = game.events
    print_events(out, events, max(0, len(events) - LOG_LINES), [c.name for c in game.rules.characters])
    you = agents.index("human") if "human" in agents else None
    _final(out, game, agents, you)


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


def _confirm(question: str) -> bool:
    """A yes or no from the person (no by default); the end of input is a no, Ctrl-C saves and exits."""
    try:
        return click.confirm(question, default=False)
    except click.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        return False


def _final(out: Console, game: Game, labels: Sequence[str], you: int | None) -> None:
    """The final screen: each seat's score, the winners, and where each seat's doubloons came from."""
    out.print()
    out.print(final_summary(game, labels, you))
