"""Saved games, checked against the rules before they are trusted.

``Game.from_json`` hands the text to ``load_game``, which returns the rules and the state or
raises ``SaveError`` naming the field (``state.seats[2].hand[0]: unknown card 'Cok'``).
Nothing else comes out, whatever the text.  In order:

1. The text is JSON (nesting deeper than the parser's recursion limit is refused like any
   other damage; nothing after it recurses into the values).
2. The envelope: save format, random generator, and the rules the save was made with: their
   edition and loot sides, the fingerprint of their files and the library version.
3. Every field of the state: its JSON type, its range (seats, spaces, voyage and day within
   the board, step names, sources and abilities of running and queued abilities), and every
   card and loot name known to the rules.  Counts the engine loops over are bounded by the
   rules (cards and tokens in play), never by the save.
4. Conservation: each seat's characters (counted for their first owner, ``"Cook#1"`` is
   seat 1's Cook) plus the undealt ones are every character of the edition, and the loot in
   the bag, the days, the seats and set aside is the board's bag.
5. The engine resumes from the state to the very question the save says it waits for, and
   the state is unchanged by doing so: the save is one the engine could have written.
6. The game is played again from its seed, declared position and handicap with the saved
   answers (``history``), and must come out exactly as saved: a changed score, a moved card,
   another seed or a shortened history is refused, naming the first field that differs with
   the saved and the replayed value.  This costs about as much as playing the game once (a
   few milliseconds); ``load_game(..., replay=False)`` skips it, for states that have no past
   of their own (``Observation.sample_game``).

The JSON helpers here are shared with ``records``.
"""

from __future__ import annotations

import base64
import functools
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

import attrs

from . import _version
from .engine import flow, journal, rng
from .engine.driver import answer as _answer
from .engine.driver import begin as _begin
from .engine.driver import question_limit as _question_limit
from .engine.setup import initial_state
from .engine.specs import Rules
from .engine.work import Work, identity
from .errors import SaveError, SetupError
from .state import CardRef, Decision, FrameState, GameState, Mark, Option, PendingState, PlayerState, loot_tally

SAVE_FORMAT = 4
"""4: the state says how the game began (``setup``, ``handicap``) and always holds its answers, so that
the save is checked by replay; by day ``order`` is the day's walk (E26; ``cursor`` indexes it).  3: the
event log packed (``engine.journal``, base64).  2: events as objects.  2 to 4: the rules are identified
by edition and sides, file fingerprint and library version (1: the edition only)."""

_READABLE_FORMATS = (SAVE_FORMAT,)

_OLDER_FORMATS = {
    1: " (made by an older libertalia, without a rules fingerprint)",
    2: " (made by an older libertalia, with its events unpacked)",
    3: " (made by an older libertalia, without how the game began: it cannot be checked by replay)",
}

MAX_DEPTH = 20
"""How deeply a record may nest (a real one nests 5 levels)."""

MAX_AMOUNT = 10**9
"""Largest doubloons, score or amount a save may hold: far beyond any game, small enough to print."""

MAX_EXTRA = 10_000
"""Largest "counts as extra" tally a save may hold (scoring loops over it)."""

MAX_SETUP_TEXT = 100_000
"""Longest declared position a save may hold, as JSON text (a real one is a few hundred characters)."""

SEED_BOUND = 2**256
"""The largest size a record's whole-number field may have and still be read as a number (and then
checked against its own range); seeds have their own, narrower rule (``rng.seed_problem``: below 2**64)."""

_FIELD_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# ---------------------------------------------------------------- JSON text
# A JSON string (possessive, so that it matches from every quote: the scan stays linear even
# for an unterminated string), and runs of anything but brackets.
_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON ``text`` nests arrays and objects more than ``limit`` deep.

    Strings and scalars are dropped, then innermost bracket pairs removed ``limit`` times:
    brackets left that still nest mean deeper nesting.  Linear in ``limit`` passes over the
    text, and no recursion.  Unbalanced brackets are left to the parser to report.
    """
    skeleton = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(limit):
        if not skeleton:
            return False
        skeleton, removed = _INNERMOST.subn("", skeleton)
        if not removed:
            return False
    return _INNERMOST.search(skeleton) is not None


def parse_json(text: object, fail: Callable[[str], Exception], max_depth: int | None = None) -> Any:
    """The JSON value of ``text``, or ``fail(problem)`` raised for anything that is not JSON.

    Nesting deeper than ``max_depth`` is refused before parsing.  Without it (a save: large,
    and checked field by field without recursion) the parser's own recursion limit is the
    bound, and running into it is reported like any other damage.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise fail(f"the text is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    if not isinstance(text, str):
        raise fail(f"expected JSON text, not {type(text).__name__}")
    if max_depth is not None and too_deep(text, max_depth):
        raise fail(f"the JSON nests deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise fail(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise fail("the JSON nests too deeply") from None
    except ValueError as exc:  # a number of more than 4300 digits
        raise fail(f"not valid JSON: {describe_error(exc)}") from None


def describe(value: Any) -> str:
    """A short, safe description of a JSON value for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        bits = value.bit_length()
        return repr(value) if bits <= 64 else f"a {'negative ' if value < 0 else ''}number of {bits} bits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37]) + "..."
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def describe_error(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    text = text if len(text) <= 120 else text[:117] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# ---------------------------------------------------------------- rules identity
def library_version() -> str:
    """The libertalia version from its package metadata (pyproject.toml in an uninstalled checkout)."""
    return _version.library_version()


def rules_stamp(rules: Rules) -> dict[str, str]:
    """What a save or record says about its rules: edition and sides, file fingerprint, library version."""
    return {"identity": rules.identity, "fingerprint": rules.fingerprint, "library": library_version()}


RULES_STAMP_KEYS = ("identity", "fingerprint", "library")


def rules_mismatch(stamp: Mapping[str, str], rules: Rules, what: str) -> tuple[str, str] | None:
    """(field, problem) if ``rules`` now load differently from the ``stamp`` that ``what`` was made with."""
    now = rules_stamp(rules)
    if stamp["identity"] != now["identity"]:
        return "identity", (f"the {what} is for {stamp['identity']!r} (edition and loot sides), "
                            f"but the rules are {now['identity']!r}")
    if stamp["fingerprint"] != now["fingerprint"]:
        return "fingerprint", (f"the board, card, loot or grammar files have changed since the {what} was made "
                               f"(fingerprint {stamp['fingerprint']!r} then, {now['fingerprint']!r} now)")
    if stamp["library"] != now["library"]:
        return "library", (f"the {what} was made with libertalia {stamp['library']}, "
                           f"and this is libertalia {now['library']}")
    return None


# ---------------------------------------------------------------- loading a save
def load_game(text: object, rules: Rules, *, replay: bool = True) -> tuple[Rules, GameState]:
    """The rules of the saved game and its state, checked against ``rules``; ``SaveError`` for anything wrong.

    The rules returned are ``rules`` with the game's own uncharted loot sides (``Rules.for_game``).
    ``replay=False`` leaves out the last check, the replay from the seed (see the module's notes).
    """
    payload = parse_json(text, SaveError)
    check = _Check(rules)
    try:
        state = check.payload(payload)
        if replay:
            check.replays(state)
        return check.rules, state
    except SaveError:
        raise
    except Exception as exc:  # pragma: no cover - a gap in the checks below: still one error type
        raise SaveError(f"the save is damaged ({describe_error(exc)})") from exc


class _Check:
    """One save checked against one set of rules; each method returns the value it checked."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        board = rules.board
        self.kinds = tuple(k for k, _ in board.bag)
        self.printed = frozenset(c.name for c in rules.characters if not c.neutral)
        self.solo_names: frozenset[str] = frozenset()  # the solo deck's, in a solo game (the Pilferer's cards)
        self.neutrals = frozenset(c.name for c in rules.characters if c.neutral)
        self.players = 0
        self.format = SAVE_FORMAT
        self.things = 0  # every card and token a game can hold: the bound of any count

    # ------------------------------------------------------------ primitives
    def fail(self, where: str, problem: str) -> NoReturn:
        raise SaveError(problem, where)

    def obj(self, value: Any, where: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(where, f"must be an object, not {describe(value)}" if where
                      else f"a save is a JSON object, not {describe(value)}")
        if len(value) == len(keys) and all(k in value for k in keys):
            return value
        unknown = sorted(str(k) for k in value if k not in keys and k not in optional)
        if unknown:
            self.fail(_join(where, field_key(unknown[0])), "unknown field")
        missing = [k for k in keys if k not in value]
        if missing:
            self.fail(_join(where, missing[0]), "missing")
        return value

    def number(self, value: Any, where: str, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(where, f"must be a whole number, not {describe(value)}")
        if not lo <= value <= hi:
            self.fail(where, f"must be from {lo} to {hi}, not {describe(value)}")
        return value

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            self.fail(where, f"must be true or false, not {describe(value)}")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            self.fail(where, f"must be a string, not {describe(value)}")
        return value

    def opt_str(self, value: Any, where: str) -> str | None:
        return None if value is None else self.text(value, where)

    def items(self, value: Any, where: str, most: int | None = None) -> list[Any]:
        if not isinstance(value, list):
            self.fail(where, f"must be a list, not {describe(value)}")
        if most is not None and len(value) > most:
            self.fail(where, f"holds {len(value)} entries, at most {most} are possible")
        return value

    def strs(self, value: Any, where: str) -> tuple[str, ...]:
        items = self.items(value, where)
        if all(type(v) is str for v in items):
            return tuple(items)
        return tuple(self.text(v, f"{where}[{i}]") for i, v in enumerate(items))

    def seat(self, value: Any, where: str) -> int:
        return self.number(value, where, 0, self.players - 1)

    def opt_seat(self, value: Any, where: str) -> int | None:
        return None if value is None else self.seat(value, where)

    # ------------------------------------------------------------ names
    def kind(self, value: Any, where: str) -> str:
        kind = self.text(value, where)
        if kind not in self.kinds:
            self.fail(where, f"unknown loot kind {describe(kind)}; the kinds are {', '.join(self.kinds)}")
        return kind

    def kinds_list(self, value: Any, where: str) -> tuple[str, ...]:
        return tuple(self.kind(v, f"{where}[{i}]") for i, v in enumerate(self.items(value, where, self.things)))

    def card(self, value: Any, where: str, holder: int) -> tuple[str, int, str]:
        """A character held by seat ``holder``: (name as written, first owner, printed name)."""
        name = self.text(value, where)
        if name not in self.rules.ranks:
            self.fail(where, f"unknown card {describe(name)}")
        base = self.rules.card(name).name
        if base in self.neutrals:
            self.fail(where, f"{base} is a neutral card: no seat holds it")
        if name == base:
            return name, holder, base
        mark = name[len(base) + 1:]
        owner = int(mark) if mark.isdigit() else -1
        if not 0 <= owner < self.players:
            self.fail(where, f"{describe(name)} names seat {mark} as its first owner, but the seats are 0 to "
                             f"{self.players - 1}")
        if owner == holder:
            self.fail(where, f"{describe(name)} is seat {holder}'s own card: it holds it unmarked, as {base!r}")
        return name, owner, base

    def cards(self, value: Any, where: str, holder: int) -> tuple[str, ...]:
        items = self.items(value, where, len(self.printed) * self.players)
        return tuple(self.card(v, f"{where}[{i}]", holder)[0] for i, v in enumerate(items))

    def ref(self, value: Any, where: str) -> CardRef:
        """A character in play: ``[seat, name]``, or ``[null, name]`` for a neutral card."""
        pair = self.items(value, where)
        if len(pair) != 2:
            self.fail(where, f"a card in play is [seat, name], not a list of {len(pair)}")
        if pair[0] is None:
            name = self.text(pair[1], f"{where}[1]")
            if name not in self.neutrals and name not in self.solo_names:
                self.fail(f"{where}[1]", f"{describe(name)} is no neutral card, so it needs a seat")
            return None, name
        seat = self.seat(pair[0], f"{where}[0]")
        return seat, self.card(pair[1], f"{where}[1]", seat)[0]

    def opt_ref(self, value: Any, where: str) -> CardRef | None:
        return None if value is None else self.ref(value, where)

    def refs(self, value: Any, where: str) -> tuple[CardRef, ...]:
        items = self.items(value, where, self.things)
        return tuple(self.ref(v, f"{where}[{i}]") for i, v in enumerate(items))

    def source(self, value: Any, where: str) -> str:
        source = self.text(value, where)
        if source not in self.rules.sources:
            self.fail(where, f"{describe(source)} is no card ('c:Name') or loot kind ('l:kind') of these rules")
        return source

    # ------------------------------------------------------------ the save
    def payload(self, value: Any) -> GameState:
        payload = self.obj(value, "", ("format", "rules", "rng", "state"))
        fmt = payload["format"]
        if type(fmt) is not int or fmt not in _READABLE_FORMATS:
            older = _OLDER_FORMATS.get(fmt, "") if type(fmt) is int else ""
            formats = "format" + ("s" if len(_READABLE_FORMATS) > 1 else "")
            self.fail("format", f"unsupported save format {describe(fmt)}{older}; this library reads {formats} "
                                f"{' and '.join(map(str, _READABLE_FORMATS))}")
        self.format = fmt
        generator = self.obj(payload["rng"], "rng", ("name", "version"))
        if generator["name"] != rng.RNG_NAME or type(generator["version"]) is not int \
                or generator["version"] != rng.RNG_VERSION:
            self.fail("rng", f"the save uses random generator {describe(generator.get('name'))} "
                             f"v{describe(generator.get('version'))}, this library {rng.RNG_NAME} v{rng.RNG_VERSION}")
        stamp = self.obj(payload["rules"], "rules", RULES_STAMP_KEYS)
        for key in RULES_STAMP_KEYS:
            self.text(stamp[key], f"rules.{key}")
        # Uncharted loot sides are drawn from the game's seed: the save is for those sides.
        fields = self.obj(payload["state"], "state", STATE_FIELDS)
        self.rules = self.rules.for_game(self.number(fields["seed"], "state.seed", 0, rng.SEED_LIMIT - 1))
        if fields["automa"] is not None:  # a solo game: the board's solo tiles
            if self.rules.board.solo is None:
                self.fail("state.automa", f"{self.rules.board.title} has no solo mode")
            self.rules = self.rules.for_solo()
        mismatch = rules_mismatch(stamp, self.rules, "save")
        if mismatch:
            self.fail(f"rules.{mismatch[0]}", mismatch[1])
        state = self.state(payload["state"], "state")
        self.resumes(state)
        return state

    def state(self, value: Any, where: str) -> GameState:
        d = self.obj(value, where, STATE_FIELDS)
        board = self.rules.board
        at = functools.partial(_join, where)
        lo, hi = board.players
        self.players = n = self.number(d["players"], at("players"), lo, hi)
        automa = None if d["automa"] is None else self.seat(d["automa"], at("automa"))
        if automa is not None:
            if board.solo is None or n != 2 or automa != 1:
                self.fail(at("automa"), "only a solo game (two seats, Automa the second) has Automa")
            self.solo_names = frozenset(card.name for card in board.solo.deck)
        self.things = n * len(self.printed) + len(self.neutrals) + sum(c for _, c in board.bag)
        most_abilities = max((len(a) for a in self.rules.sources.values()), default=1)
        voyage = self.number(d["voyage"], at("voyage"), 1, len(board.voyage_days))
        days_now = board.voyage_days[voyage - 1]
        step = self.text(d["step"], at("step"))
        if step not in _STEPS:
            self.fail(at("step"), f"unknown step {describe(step)}; the steps are {', '.join(_STEPS)}")
        track = self.track(d["track"], at("track"))
        seats_found = self.items(d["seats"], at("seats"))
        if len(seats_found) != n:
            self.fail(at("seats"), f"{n} players need {n} seats, not {len(seats_found)}")
        seats = tuple(self.player(p, at(f"seats[{i}]"), i, track) for i, p in enumerate(seats_found))
        days = tuple(self.kinds_list(day, at(f"days[{i}]"))
                     for i, day in enumerate(self.items(d["days"], at("days"), days_now)))
        if days and len(days) != days_now:
            self.fail(at("days"), f"voyage {voyage} has {days_now} days, not {len(days)}")
        day = self.number(d["day"], at("day"), 1 if days else 0, len(days))
        island = self.refs(d["island"], at("island"))
        order = self.refs(d["order"], at("order"))
        sub = self.number(d["sub"], at("sub"), 0, 3)
        census = None if d["census"] is None else tuple(
            self.cards(ship, at(f"census[{i}]"), i) for i, ship in enumerate(self.items(d["census"], at("census"), n)))
        if census is not None and len(census) != n:
            self.fail(at("census"), f"needs one ship per seat ({n}), not {len(census)}")
        net = None if d["net"] is None else tuple(self.number(v, at(f"net[{i}]"), -MAX_AMOUNT, MAX_AMOUNT)
                                                  for i, v in enumerate(self.items(d["net"], at("net"), n)))
        if net is not None and len(net) != n:
            self.fail(at("net"), f"needs one amount per seat ({n}), not {len(net)}")
        if (net is not None) != (step == "anchor" and sub != 0):  # the engine applies it at the end of anchor
            self.fail(at("net"), "anchor changes are netted exactly while anchor abilities resolve")
        commits = tuple(None if c is None else self.text(c, at(f"commits[{i}]"))
                        for i, c in enumerate(self.items(d["commits"], at("commits"), n)))
        if len(commits) != n:
            self.fail(at("commits"), f"needs one entry per seat ({n}), not {len(commits)}")
        for i, pick in enumerate(commits):
            if pick is not None and pick not in seats[i].hand:
                self.fail(at(f"commits[{i}]"), f"seat {i} picked {describe(pick)}, which is not in its hand")
        state = GameState(
            players=n,
            seats=seats,
            track=track,
            island=island,
            days=days,
            aside=self.kinds_list(d["aside"], at("aside")),
            bag=self.bag(d["bag"], at("bag")),
            undealt=self.undealt(d["undealt"], at("undealt")),
            voyage=voyage,
            day=day,
            step=step,
            cursor=self.number(d["cursor"], at("cursor"), 0, max(len(island), len(order))),
            sub=sub,
            order=order,
            commits=commits,
            frames=tuple(self.frame(f, at(f"frames[{i}]"))
                         for i, f in enumerate(self.items(d["frames"], at("frames"), len(self.rules.sources)))),
            queue=tuple(self.pending(p, at(f"queue[{i}]"))
                        for i, p in enumerate(self.items(d["queue"], at("queue"), self.things * most_abilities))),
            flow_answers=self.strs(d["flow_answers"], at("flow_answers")),
            seed=self.number(d["seed"], at("seed"), 0, rng.SEED_LIMIT - 1),
            counter=self.number(d["counter"], at("counter"), 0, 2**64 - 1),
            census=census,
            net=net,
            extra=self.extra(d["extra"], at("extra")),
            just_took=self.just_took(d["just_took"], at("just_took")),
            left_of_neutral=self.opt_ref(d["left_of_neutral"], at("left_of_neutral")),
            decision=None if d["decision"] is None else self.decision(d["decision"], at("decision")),
            journal=self.journal(d["journal"], at("journal"), n),
            automa=automa,
            solo_deck=self.solo_cards(d["solo_deck"], at("solo_deck")),
            solo_discard=self.solo_cards(d["solo_discard"], at("solo_discard")),
            ranks=tuple((self.ref(pair[0], at(f"ranks[{i}][0]")), self.rank(pair[1], at(f"ranks[{i}][1]")))
                        for i, pair in enumerate(self.pairs(d["ranks"], at("ranks")))),
            watching=None if d["watching"] is None else self.watching(d["watching"], at("watching")),
            no_effect=self.refs(d["no_effect"], at("no_effect")),
            history=self.strs(d["history"], at("history")),
            setup=self.setup(d["setup"], at("setup")),
            handicap=tuple(self.number(v, at(f"handicap[{i}]"), 0, MAX_AMOUNT)
                           for i, v in enumerate(self.items(d["handicap"], at("handicap"), n))),
        )
        self.conserved(state, where)
        if state.step == "sun":
            self.sun_order(state, where)
        elif state.step == "dusk":
            self.dusk_order(state, at("order"))
        else:
            for seat, name in state.island:
                if seat is not None:  # it would be swept away at the next reveal, in no zone at all
                    self.fail(at("island"), f"seat {seat}'s {name} is still on the island at {state.step}: "
                                            "players' cards board their ships at dusk")
        return state

    def sun_order(self, s: GameState, where: str) -> None:
        """By day ``order`` is the day's walk (R5, E26): ``order[:cursor]`` had their turn, every other card
        on the island waits in the rest, and no card is listed twice (it would act twice)."""
        if s.cursor > len(s.order):
            self.fail(_join(where, "cursor"), f"{s.cursor} is past the end of the day's walk (order, "
                                              f"{len(s.order)} long)")
        where = _join(where, "order")
        seen: dict[CardRef, int] = {}
        for i, ref in enumerate(s.order):
            me = identity(ref)
            if me in seen:
                self.fail(f"{where}[{i}]", f"{_whose(ref)} is in the day's walk twice (also at order[{seen[me]}]): "
                                           "a card takes one sun turn a day")
            seen[me] = i
        done, waiting = s.order[:s.cursor], s.order[s.cursor:]
        for i, ref in enumerate(waiting, s.cursor):
            if ref not in s.island:
                self.fail(f"{where}[{i}]", f"{_whose(ref)} waits for its sun turn but is not on the island")
        for ref in s.island:
            if ref not in waiting and ref not in done:
                self.fail(where, f"{_whose(ref)} is on the island but not in the day's walk: it would never act")

    def setup(self, value: Any, where: str) -> str | None:
        """A declared position: JSON text of an object (``new_game`` checks its entries again on replay)."""
        if value is None:
            return None
        text = self.text(value, where)
        if len(text) > MAX_SETUP_TEXT:
            self.fail(where, f"holds {len(text):,} characters, more than the {MAX_SETUP_TEXT:,} a declared "
                             "position may")
        if not isinstance(parse_json(text, lambda problem: SaveError(problem, where), MAX_DEPTH), dict):
            self.fail(where, "a declared position is a JSON object")
        return text

    def dusk_order(self, s: GameState, where: str) -> None:
        """At dusk every player's card still on the island waits its turn in ``order`` (R6):
        one missing would never board a ship and would be lost at the voyage's end."""
        waiting = s.order[s.cursor:]
        for seat, name in s.island:
            if seat is not None and (seat, name) not in waiting:
                self.fail(where, f"seat {seat}'s {name} is on the island but not in the rest of the dusk order")

    def track(self, value: Any, where: str) -> tuple[int, ...]:
        size = len(self.rules.board.track_income)
        items = self.items(value, where, size)
        track = tuple(self.number(v, f"{where}[{i}]", 0, size - 1) for i, v in enumerate(items))
        if sorted(track) != list(range(size)):
            self.fail(where, f"the track must hold each colour 0 to {size - 1} once" if size
                      else "this edition has no reputation track")
        return track

    def player(self, value: Any, where: str, i: int, track: tuple[int, ...]) -> PlayerState:
        p = self.obj(value, where, _PLAYER_FIELDS)
        at = functools.partial(_join, where)
        if self.seat(p["seat"], at("seat")) != i:
            self.fail(at("seat"), f"the seat at index {i} must say {i}, not {p['seat']}")
        space = track.index(i) if track else 0
        if self.number(p["reputation"], at("reputation"), 0, max(len(track) - 1, 0)) != space:
            self.fail(at("reputation"), f"the track puts seat {i} on space {space}, not {p['reputation']}")
        ship = self.cards(p["ship"], at("ship"), i)
        loot = self.kinds_list(p["loot"], at("loot"))
        kept = self.cards(p["kept"], at("kept"), i)
        kept_loot = self.kinds_list(p["kept_loot"], at("kept_loot"))
        if Counter(kept) - Counter(ship):
            self.fail(at("kept"), f"keeps {sorted(Counter(kept) - Counter(ship))[0]}, which is not in its ship")
        if Counter(kept_loot) - Counter(loot):
            self.fail(at("kept_loot"), f"keeps {sorted(Counter(kept_loot) - Counter(loot))[0]}, which it does not hold")
        return PlayerState(
            seat=i,
            doubloons=self.number(p["doubloons"], at("doubloons"), 0, MAX_AMOUNT),
            score=self.number(p["score"], at("score"), -MAX_AMOUNT, MAX_AMOUNT),
            reputation=space,
            hand=self.cards(p["hand"], at("hand"), i),
            ship=ship,
            graveyard=self.cards(p["graveyard"], at("graveyard"), i),
            loot=loot,
            kept=kept,
            kept_loot=kept_loot,
            removed=self.cards(p["removed"], at("removed"), i),
        )

    def bag(self, value: Any, where: str) -> tuple[tuple[str, int], ...]:
        board_bag = self.rules.board.bag
        items = self.items(value, where, len(board_bag))
        if len(items) != len(board_bag):
            self.fail(where, f"must list the board's {len(board_bag)} loot kinds ({', '.join(self.kinds)}), "
                             f"not {len(items)}")
        out = []
        for i, ((kind, most), item) in enumerate(zip(board_bag, items, strict=True)):
            pair = self.items(item, f"{where}[{i}]")
            if len(pair) != 2 or pair[0] != kind:
                self.fail(f"{where}[{i}]", f"must be [{kind!r}, count] (the board's kinds in order)")
            count = self.number(pair[1], f"{where}[{i}][1]", 0, most)
            out.append((kind, count))
        return tuple(out)

    def solo_cards(self, value: Any, where: str) -> tuple[str, ...]:
        names = self.strs(self.items(value, where, len(self.solo_names)), where)
        for i, name in enumerate(names):
            if name not in self.solo_names:
                self.fail(f"{where}[{i}]", f"{describe(name)} is no card of this game's solo deck")
        return names

    def rank(self, value: Any, where: str) -> float:
        if type(value) not in (int, float) or not -MAX_AMOUNT <= value <= MAX_AMOUNT:
            self.fail(where, f"a rank is a number, not {describe(value)}")
        return float(value)

    def watching(self, value: Any, where: str) -> tuple[CardRef, str]:
        pair = self.items(value, where)
        if len(pair) != 2:
            self.fail(where, f"a watched card is [card, digest], not a list of {len(pair)}")
        return self.ref(pair[0], f"{where}[0]"), self.text(pair[1], f"{where}[1]")

    def pairs(self, value: Any, where: str) -> list[list[Any]]:
        items = self.items(value, where, self.things)
        for i, pair in enumerate(items):
            if type(pair) is not list or len(pair) != 2:
                self.fail(f"{where}[{i}]", "expected a pair [a, b]")
        return items

    def undealt(self, value: Any, where: str) -> tuple[str, ...]:
        names = self.strs(self.items(value, where, len(self.printed)), where)
        seen: set[str] = set()
        for i, name in enumerate(names):
            if name not in self.printed:
                self.fail(f"{where}[{i}]", f"unknown card {describe(name)}")
            if name in seen:
                self.fail(f"{where}[{i}]", f"{name} is listed twice")
            seen.add(name)
        return names

    def extra(self, value: Any, where: str) -> tuple[tuple[int, str, int], ...]:
        out = []
        for i, item in enumerate(self.items(value, where, self.players * len(self.kinds))):
            triple = self.items(item, f"{where}[{i}]")
            if len(triple) != 3:
                self.fail(f"{where}[{i}]", f"an extra count is [seat, kind, count], not a list of {len(triple)}")
            out.append((self.seat(triple[0], f"{where}[{i}][0]"), self.kind(triple[1], f"{where}[{i}][1]"),
                        self.number(triple[2], f"{where}[{i}][2]", -MAX_EXTRA, MAX_EXTRA)))
        return tuple(out)

    def just_took(self, value: Any, where: str) -> tuple[tuple[CardRef, str], ...]:
        out = []
        for i, item in enumerate(self.items(value, where, self.things)):
            pair = self.items(item, f"{where}[{i}]")
            if len(pair) != 2:
                self.fail(f"{where}[{i}]", f"must be [card, loot kind], not a list of {len(pair)}")
            out.append((self.ref(pair[0], f"{where}[{i}][0]"), self.kind(pair[1], f"{where}[{i}][1]")))
        return tuple(out)

    def frame(self, value: Any, where: str) -> FrameState:
        f = self.obj(value, where, _FRAME_FIELDS[:-1], optional=("origin",))
        at = functools.partial(_join, where)
        source = self.source(f["source"], at("source"))
        abilities = self.rules.sources[source]
        index = self.number(f["index"], at("index"), 0, len(abilities) - 1)
        marks = self.items(f["marks"], at("marks"), abilities[index].slots)
        if len(marks) != abilities[index].slots:
            self.fail(at("marks"), f"holds {len(marks)} marks, but this ability keeps {abilities[index].slots}")
        return FrameState(
            source=source,
            index=index,
            seat=self.seat(f["seat"], at("seat")),
            this=self.opt_ref(f["this"], at("this")),
            pc=self.number(f["pc"], at("pc"), 0, len(abilities[index].code)),
            answers=self.strs(f["answers"], at("answers")),
            marks=tuple(self.mark(m, f"{at('marks')}[{i}]") for i, m in enumerate(marks)),
            origin=self.opt_ref(f.get("origin"), at("origin")),
        )

    def mark(self, value: Any, where: str) -> Mark | None:
        """What a binder step left: ``[characters, [[character, zone], ...], count, did]``, or null."""
        if value is None:
            return None
        parts = self.items(value, where)
        if len(parts) != 4:
            self.fail(where, f"a mark is [characters, before, count, did], not a list of {len(parts)}")
        before = []
        for i, pair in enumerate(self.items(parts[1], f"{where}[1]", self.things)):
            item = self.items(pair, f"{where}[1][{i}]")
            if len(item) != 2:
                self.fail(f"{where}[1][{i}]", f"must be [character, zone], not a list of {len(item)}")
            zone = item[1]
            if zone is not None and zone not in _ZONES:
                self.fail(f"{where}[1][{i}][1]", f"unknown zone {describe(zone)}; the zones are {', '.join(_ZONES)}")
            before.append((self.ref(item[0], f"{where}[1][{i}][0]"), zone))
        return (self.refs(parts[0], f"{where}[0]"), tuple(before),
                self.number(parts[2], f"{where}[2]", 0, self.things), self.flag(parts[3], f"{where}[3]"))

    def pending(self, value: Any, where: str) -> PendingState:
        p = self.obj(value, where, _PENDING_FIELDS)
        at = functools.partial(_join, where)
        source = self.source(p["source"], at("source"))
        return PendingState(
            seat=self.seat(p["seat"], at("seat")),
            source=source,
            index=self.number(p["index"], at("index"), 0, len(self.rules.sources[source]) - 1),
            this=self.opt_ref(p["this"], at("this")),
            late=self.flag(p["late"], at("late")),
            first=self.flag(p["first"], at("first")),
        )

    def decision(self, value: Any, where: str) -> Decision:
        d = self.obj(value, where, _DECISION_FIELDS)
        at = functools.partial(_join, where)
        options = []
        for i, o in enumerate(self.items(d["options"], at("options"))):
            opt = self.obj(o, at(f"options[{i}]"), ("key", "label"))
            options.append(Option(self.text(opt["key"], at(f"options[{i}].key")),
                                  self.text(opt["label"], at(f"options[{i}].label"))))
        keys = [o.key for o in options]
        if not keys or len(set(keys)) != len(keys):
            self.fail(at("options"), "a decision offers at least one option, each key once")
        return Decision(
            player=self.seat(d["player"], at("player")),
            kind=self.text(d["kind"], at("kind")),
            options=tuple(options),
            prompt=self.text(d["prompt"], at("prompt")),
            source=self.opt_str(d["source"], at("source")),
        )

    def journal(self, value: Any, where: str, players: int) -> bytes | None:
        """The packed event log (base64), or null for a game played without one: it must decode."""
        if value is None:
            return None
        text = self.text(value, where)
        try:
            packed = base64.b64decode(text.encode("ascii"), validate=True)
            journal.decode(packed, self.rules.lexicon, players)
        except (ValueError, UnicodeEncodeError) as e:  # binascii.Error and JournalError are ValueErrors
            self.fail(where, f"the event log is damaged: {e}")
        return packed

    # ------------------------------------------------------------ the state as a whole
    def conserved(self, s: GameState, where: str) -> None:
        """Every character where exactly one seat's zones (or the island, or undealt) hold it; all the loot."""
        held: dict[tuple[int, str], str] = {}
        if s.automa is not None:
            self.solo_conserved(s, where)
        for p in s.seats:
            if p.seat == s.automa:
                continue  # Automa plays solo cards, not a deck of her own
            for zone in ("hand", "ship", "graveyard", "removed"):
                for j, name in enumerate(getattr(p, zone)):
                    self.hold(held, p.seat, name, _join(where, f"seats[{p.seat}].{zone}[{j}]"))
        for j, (seat, name) in enumerate(s.island):
            if seat is not None and seat != s.automa:
                self.hold(held, seat, name, _join(where, f"island[{j}]"))
        undealt = set(s.undealt)
        for (owner, base), at in held.items():
            if base in undealt:
                self.fail(at, f"seat {owner}'s {base} is also undealt")
        # A dealt game deals every seat the same cards; a declared position may give the seats
        # different ones, but each card is either undealt or some seat's.
        began_with_deal = journal.began_with_deal(s.journal, self.rules.lexicon)
        owned = [{base for owner, base in held if owner == seat} for seat in range(s.players)]
        everyone = set().union(*owned)
        solo = self.rules.board.solo
        unused = frozenset(solo.without) if s.automa is not None and solo is not None else frozenset()
        for seat in range(s.players):
            if seat == s.automa:
                continue
            missing = sorted(self.printed - undealt - unused - (owned[seat] if began_with_deal else everyone))
            if missing:
                whose = f"seat {seat}'s" if began_with_deal else "the"
                self.fail(_join(where, f"seats[{seat}]"),
                          f"{whose} {missing[0]} is nowhere (not held, not on the island, not undealt)")
        loot = loot_tally(s)
        for kind, count in self.rules.board.bag:
            if loot[kind] != count:
                self.fail(where, f"loot is not conserved: the bag, days, seats and aside hold {loot[kind]} {kind} "
                                 f"tokens, the board's bag {count}")

    def solo_conserved(self, s: GameState, where: str) -> None:
        """Each solo card once: in Automa's zones, the solo deck or discard, or the Pilferer's on the island."""
        places: list[tuple[str, str]] = []
        automa = s.seats[s.automa or 0]
        for zone in ("hand", "ship", "graveyard", "removed"):
            places += [(name, f"seats[{automa.seat}].{zone}[{j}]") for j, name in enumerate(getattr(automa, zone))]
        places += [(name, f"island[{j}]") for j, (seat, name) in enumerate(s.island) if seat in (None, s.automa)]
        places += [(name, f"solo_deck[{j}]") for j, name in enumerate(s.solo_deck)]
        places += [(name, f"solo_discard[{j}]") for j, name in enumerate(s.solo_discard)]
        seen: dict[str, str] = {}
        for name, at in places:
            if name not in self.solo_names:
                self.fail(_join(where, at), f"{describe(name)} is no card of the solo deck")
            if name in seen:
                self.fail(_join(where, at), f"the solo card {name} is also at {seen[name]}")
            seen[name] = at
        missing = sorted(self.solo_names - set(seen))
        if missing:
            self.fail(where, f"the solo card {missing[0]} is nowhere")

    def hold(self, held: dict[tuple[int, str], str], holder: int, name: str, where: str) -> None:
        _, owner, base = self.card(name, where, holder)
        if (owner, base) in held:
            self.fail(where, f"seat {owner}'s {base} is also at {held[(owner, base)]}")
        held[(owner, base)] = where

    def resumes(self, s: GameState) -> None:
        """The engine, resumed from ``s``, asks exactly the saved question and changes nothing else."""
        try:
            w = Work(self.rules, s)
            if s.step != "over":
                flow.run(w)
            again = w.freeze()
        except Exception as exc:  # any failure of the engine: the state is not one it could have written
            self.fail("state", f"the game cannot resume from this state ({describe_error(exc)})")
        if again != s:
            field = next((f.name for f in attrs.fields(GameState) if getattr(again, f.name) != getattr(s, f.name)),
                         "decision")
            self.fail(f"state.{field}", "does not match the rest of the state: resuming the game from it "
                                        "changes it (a save the engine could not have written)")

    def replays(self, s: GameState) -> None:
        """The game played again from its seed, setup and handicap with its answers is exactly ``s``."""

        players = 1 if s.automa is not None else s.players
        most = _question_limit(self.rules, s.players)
        if len(s.history) > most:
            self.fail("state.history", f"holds {len(s.history):,} answers, more than the {most:,} a game may ask")
        try:
            start = initial_state(self.rules, players, s.seed, None if s.setup is None else json.loads(s.setup),
                                  dict(enumerate(s.handicap)) or None)
        except SetupError as exc:
            self.fail("state.handicap" if str(exc).startswith("handicap") else "state.setup", str(exc))
        try:
            w = _begin(self.rules, start if s.journal is not None else attrs.evolve(start, journal=None))
            for i, key in enumerate(s.history):
                d = w.decision
                if d is None:
                    self.fail(f"state.history[{i}]", f"the game is over before this answer, with "
                                                     f"{len(s.history) - i} answers left")
                if key not in d.keys():  # noqa: SIM118 - Decision.keys() is a method
                    keys = d.keys()
                    shown = ", ".join(keys[:12]) + (f", ... ({len(keys)} in all)" if len(keys) > 12 else "")
                    self.fail(f"state.history[{i}]", f"{describe(key)} is no answer to {describe(d.prompt)}; the "
                                                     f"keys were {shown}")
                _answer(w, key)
            again = w.freeze()
        except SaveError:
            raise
        except Exception as exc:  # a card text that loops on replay, say: still one error type
            self.fail("state.history", f"the game cannot be played again from its answers ({describe_error(exc)})")
        found = first_difference(s, again, "state", self.rules, s.players)
        if found is not None:
            where, saved, replayed = found
            self.fail(where, f"the save says {saved}, but its seed, setup and answers lead to {replayed} "
                             "(the save was changed, or not made by this game)")


def first_difference(saved: Any, replayed: Any, where: str, rules: Rules, players: int) -> tuple[str, str, str] | None:
    """The first place where two states differ: (field path, saved value, replayed value), in words.

    Fields are compared in the order of their classes, lists entry by entry, and the event logs
    event by event; None when the states are equal.
    """
    if saved == replayed:
        return None
    if isinstance(saved, bytes) or isinstance(replayed, bytes):  # the packed event log
        return _log_difference(saved, replayed, where, rules, players)
    if attrs.has(type(saved)) and type(saved) is type(replayed):
        for f in attrs.fields(type(saved)):
            found = first_difference(getattr(saved, f.name), getattr(replayed, f.name), _join(where, f.name),
                                     rules, players)
            if found is not None:
                return found
    if isinstance(saved, tuple) and isinstance(replayed, tuple):
        for i, (a, b) in enumerate(zip(saved, replayed, strict=False)):
            found = first_difference(a, b, f"{where}[{i}]", rules, players)
            if found is not None:
                return found
        return where, _shown(saved), _shown(replayed)
    return where, _shown(saved), _shown(replayed)


def _shown(value: Any) -> str:
    """A state's value as the save writes it, described short."""
    if attrs.has(type(value)):
        return "an object"
    if isinstance(value, tuple):
        return f"a list of {len(value)}" if value else "an empty list"
    return describe(value)


def _log_difference(saved: bytes | None, replayed: bytes | None, where: str, rules: Rules,
                    players: int) -> tuple[str, str, str]:
    if saved is None or replayed is None:
        return where, describe(saved) if saved is None else "an event log", \
            describe(replayed) if replayed is None else "an event log"
    ours = journal.decode(saved, rules.lexicon, players)
    theirs = journal.decode(replayed, rules.lexicon, players)
    for i, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            return f"{where} (event {i})", describe(a.text), describe(b.text)
    return where, f"{len(ours)} events", f"{len(theirs)} events"


def _whose(ref: CardRef) -> str:
    seat, name = ref
    return f"the neutral {name}" if seat is None else f"seat {seat}'s {name}"


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def field_key(key: str) -> str:
    """A key of the save as it may appear in a field path: quoted unless it is a plain name."""
    return key if _FIELD_KEY.fullmatch(key) else describe(key)


_STEPS = tuple(s for s in ("voyage", "select", "reveal", "sun", "dusk", "night", "anchor", "over")
               if s == "over" or s in flow._STEPS)
STATE_FIELDS = (
    "players", "seats", "track", "days", "bag", "undealt", "voyage", "day", "step", "commits", "seed", "counter",
    "island", "aside", "cursor", "sub", "order", "frames", "queue", "flow_answers", "census", "net", "extra",
    "just_took", "left_of_neutral", "decision", "journal", "automa", "solo_deck", "solo_discard", "ranks",
    "watching", "no_effect", "history", "setup", "handicap",
)
"""Every field of ``GameState``."""
_PLAYER_FIELDS = ("seat", "doubloons", "score", "reputation", "hand", "ship", "graveyard", "loot", "kept",
                  "kept_loot", "removed")
_FRAME_FIELDS = ("source", "index", "seat", "this", "pc", "answers", "marks", "origin")
_ZONES = ("island", "hand", "ship", "graveyard")
_PENDING_FIELDS = ("seat", "source", "index", "this", "late", "first")
_DECISION_FIELDS = ("player", "kind", "options", "prompt", "source")
CHECKED_FIELDS: dict[type, tuple[str, ...]] = {
    GameState: STATE_FIELDS, PlayerState: _PLAYER_FIELDS, FrameState: _FRAME_FIELDS, PendingState: _PENDING_FIELDS,
    Decision: _DECISION_FIELDS, Option: ("key", "label"),
}
"""The fields checked for each saved class: a test keeps them equal to the classes' own."""
