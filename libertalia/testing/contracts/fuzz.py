"""The contract fuzzer: generated card texts, played where they act, every step checked.

``fuzz_contracts(rules, texts=N, seed=S)`` spells ``N`` distinct texts the checker accepts
(``testing.card_texts``, a quarter of them loot tiles'), loads each as a mod card (and, where
the checker takes it as one, as a loot tile) and plays it from focused positions
(``testing.focus``) in every context the rules allow: each of its timings; borrowed by a
Witch-like card (``use the T ability of ...``); as a loot tile; at 2 players and in solo; on
the last day of the last voyage; with empty hands, ships and graveyards; with an empty bag.
Seeded random agents answer (the focus day through ``choose``, so suspended steps re-run,
then ``play_out`` to the end), and every step any ability executes is checked against its
contract (``trace``).  A violation comes with the text, the context, the step, its contract,
what differed, and a script and a card example that replay it.

Texts load through ``load_rules`` itself, a batch of them at once (each under its own name),
so a text is fuzzed only if a modder's file with it would load; each text then plays with
rules holding its own card only.  Everything is seeded: the same ``seed`` and ``texts`` give
the same report on any machine and with any number of ``jobs``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import re
import tempfile
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import yaml

from ... import _lifeline
from ...agents import RandomAgent
from ...engine.flow import selection_question
from ...engine.program import actions as act
from ...engine.program import amounts as amt
from ...engine.program.record import Record, fields
from ...engine.specs import CharacterSpec, LootSpec, Rules
from ...errors import LibertaliaError, UnverifiedLootWarning, UnverifiedSoloWarning
from ...game import Game, Observation, new_game
from ...state import Decision
from ..focus import FocusedPosition, empty_bag, focused_position
from ..repro import reproduction
from ..texts import card_texts, text_problem
from .trace import StepViolation, Tracer, traced

MOD = "Fuzzed Corsair"
"""The name generated texts are spelled with (``card_texts(names=[MOD])``); each text is renamed to its slot."""
SLOTS = ("Corsair", "Buccaneer", "Privateer", "Marauder", "Freebooter", "Rover", "Raider", "Drifter",
         "Wrecker", "Lookout", "Harpooner", "Navigator", "Deckhand", "Swabbie", "Rigger", "Caulker")
"""The words of the names a batch's texts take: ``Fuzzed Corsair``, ``Fuzzed Buccaneer``, ..., and
their borrowers ``Corsair Mentor``, ...: names no edition has."""
BORROWER = "{slot} Mentor"
VARIANTS = ("2 players", "solo", "last day", "empty", "no bag")
"""The contexts besides each timing, borrowed and as loot (each at one of the text's timings, in turn)."""
TIMINGS = ("sun", "dusk", "moon", "anchor")
CHUNK = 200
"""Texts spelled per hypothesis run: each run starts from the simplest texts, so fewer runs repeat less."""
LOOT_SHARE = 4
"""One text in this many is spelled as a loot tile's."""
VIOLATIONS_PER_TEXT = 3
"""Violations of one text kept with their reproductions (all are counted)."""
CHARACTER, TILE = "character", "loot tile"
"""The roles a text is fuzzed in."""
_TILE_FILE = "-tile.yaml"


# ------------------------------------------------------------------ the report
@attrs.frozen
class Violation:
    """A step that broke its contract while a fuzzed text was in play."""

    text: str  # the fuzzed text, as its card file holds it (under the name ``card``)
    card: str  # the mod card's name, or the loot kind its tile replaced
    context: str  # where the text was placed ("sun", "borrowed moon", "solo dusk", "loot anchor", ...)
    source: str  # the card or loot kind whose step broke its contract (often, not always, the fuzzed one)
    ability: str  # that ability's text
    kind: str  # the step's class
    step: str
    contract: str
    problems: tuple[str, ...]
    python: str  # a script that replays the game to the step and shows the violation
    yaml: str  # the position as an ``examples:`` entry ("" for a solo game)

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def __str__(self) -> str:
        lines = [f"{self.kind} step of {self.source} (\"{self.ability}\") broke its contract, fuzzing {self.card} "
                 f"({self.context}):", f"  text: {self.text!r}", f"  step: {self.step}",
                 f"  contract: {self.contract}", *(f"  - {p}" for p in self.problems)]
        return "\n".join(lines)


@attrs.frozen
class Refusal:
    """A text the checker accepts that ``load_rules`` refused: the checker should refuse it too."""

    text: str
    role: str  # "character" or "loot tile"
    message: str

    @property
    def reason(self) -> str:
        """The refusal's message without its file and position, and with its counts as N: what it is about."""
        first = self.message.splitlines()[0] if self.message else ""
        words = first.split(": ", 1)[-1]
        return " ".join("N" if w.isdigit() else w for w in words.split())

    def to_json(self) -> dict[str, Any]:
        return {**attrs.asdict(self), "reason": self.reason}


@attrs.frozen
class FuzzError:
    """An exception while a fuzzed text was in play (a loop the step budget stopped, say)."""

    text: str
    card: str
    context: str
    message: str
    python: str

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class ContractReport:
    """What a fuzz run did and found.

    ``texts`` distinct texts were fuzzed (``loot_texts`` of them as loot tiles too), in
    ``positions`` games; ``steps`` counts the steps checked by kind (``suspended``: runs that
    stopped for an answer, checked to have changed nothing).  ``broken`` counts every step that
    broke its contract; ``violations`` holds the first few per text, with reproductions.
    """

    texts: int
    loot_texts: int
    positions: int
    steps: dict[str, int]
    suspended: int
    broken: int
    violations: tuple[Violation, ...]
    refused: tuple[Refusal, ...]
    errors: tuple[FuzzError, ...]
    skipped: int  # contexts that cannot be built for a text (no seat can take it, say)
    seconds: float
    seed: int

    @property
    def ok(self) -> bool:
        """Nothing broke a contract and no game failed (texts the rules refuse are reported, not failures)."""
        return not (self.broken or self.errors)

    def to_json(self) -> dict[str, Any]:
        return {"texts": self.texts, "loot_texts": self.loot_texts, "positions": self.positions,
                "steps": dict(sorted(self.steps.items())), "suspended": self.suspended, "broken": self.broken,
                "skipped": self.skipped, "seconds": round(self.seconds, 1), "seed": self.seed,
                "violations": [v.to_json() for v in self.violations],
                "refused": [r.to_json() for r in self.refused], "errors": [e.to_json() for e in self.errors]}

    def summary(self) -> str:
        """The figures in a few lines."""
        steps = ", ".join(f"{k} {n:,}" for k, n in sorted(self.steps.items(), key=lambda kv: -kv[1]))
        return "\n".join([
            f"{self.texts:,} texts ({self.loot_texts:,} also as loot tiles), {self.positions:,} positions, "
            f"{sum(self.steps.values()):,} steps checked in {self.seconds:.0f} s (seed {self.seed})",
            f"steps by kind: {steps}",
            f"{self.suspended:,} step runs stopped for an answer (each checked to have changed nothing); "
            f"{self.skipped:,} contexts could not be built",
            f"{self.broken:,} steps broke their contract; {len(self.errors)} games failed; "
            f"{len(self.refused)} texts refused at load{self._reasons()}",
        ])

    def _reasons(self) -> str:
        reasons = Counter(r.reason for r in self.refused)
        return "".join(f"\n  {n:,} x {reason}" for reason, n in reasons.most_common())


# ------------------------------------------------------------------ texts
@attrs.frozen
class FuzzText:
    """A text to fuzz: as a character (``character``) and/or as a loot tile (``tile``).

    ``kind``: the tile a loot text was spelled for (``card_texts(kind=...)``), which it is played on, since
    ``this chest`` names the chest tile's own token; None: any kind's tile (it says only ``this token``).
    """

    text: str
    character: bool
    tile: bool
    kind: str | None = None


def generate_texts(rules: Rules, count: int, seed: int = 0, *, jobs: int = 1) -> list[FuzzText]:
    """``count`` distinct texts the checker accepts, spelled by hypothesis from ``seed``.

    One text in ``LOOT_SHARE`` is a loot tile's; a character's text the checker also takes as a
    tile's is fuzzed as both.  Texts come in chunks of ``CHUNK``, each its own seeded hypothesis
    run, taken in order until ``count`` distinct ones are in: the same seed, the same texts.
    """
    out: dict[str, FuzzText] = {}
    chunk = 0
    args = _args_json(rules)
    with _WORKER_LOCK:
        _WORKER_RULES.setdefault(args, rules)
    size = min(CHUNK, -(-count * 3 // 2))  # a small run spells fewer texts a chunk: the same ones each time
    while len(out) < count:
        wave = max(1, min(jobs * 2, -(-(count - len(out)) * 3 // (2 * size))))
        tasks = [(args, _seed(seed, "texts", chunk + i), size) for i in range(wave)]
        chunk += wave
        for texts in _map(_chunk_texts, tasks, jobs):
            for t in texts:
                if len(out) < count and t.text not in out:
                    out[t.text] = t
    return list(out.values())


def _chunk_texts(task: tuple[str, int, int]) -> list[FuzzText]:
    args, chunk_seed, size = task
    return spell_texts(_worker_rules(args), size, chunk_seed)


def spell_texts(rules: Rules, examples: int, seed: int) -> list[FuzzText]:
    """One seeded hypothesis run of ``examples`` texts (repeats and all), in the order spelled."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    characters = card_texts(rules, names=[MOD])
    # A loot text is spelled for one kind's tile, as the loader reads a tile (``this relic`` on the relic
    # tile), and is played on that tile.
    kinds = _tile_kinds(rules)
    tiles = {k: card_texts(rules, loot=True, kind=k).map(functools.partial(_as_tile, k)) for k in kinds}
    drawn = st.integers(0, LOOT_SHARE - 1).flatmap(
        lambda i: st.sampled_from(kinds).flatmap(tiles.__getitem__) if i == 0 else characters.map(_as_character))
    out: list[FuzzText] = []

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate], derandomize=False,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(drawn)
    def spell(entry: tuple[str, bool, str | None]) -> None:
        text, loot, kind = entry
        if loot:
            out.append(FuzzText(text, False, True, kind))
        else:
            tile = text_problem(text, rules, loot=True, names=[MOD]) is None
            out.append(FuzzText(text, True, tile))

    spell()
    return out


def _as_tile(kind: str, text: str) -> tuple[str, bool, str | None]:
    return text, True, kind


def _as_character(text: str) -> tuple[str, bool, str | None]:
    return text, False, None


# ------------------------------------------------------------------ mod files
@attrs.frozen
class _Slot:
    """Where a text sits in a batch: its names, its card's rank, and the loot kind its tile replaces."""

    text: FuzzText
    index: int
    kind: str | None

    @property
    def card(self) -> str:
        return f"Fuzzed {SLOTS[self.index]}"

    @property
    def mentor(self) -> str:
        return BORROWER.format(slot=SLOTS[self.index])

    @property
    def spelled(self) -> str:
        """The text under this slot's name."""
        return self.text.text.replace(MOD, self.card)

    def files(self, rules: Rules, *, character: bool, tile: bool) -> dict[str, str]:
        """The mod files of this text: its card and the card that borrows from it, and its loot tile."""
        out = {}
        rank = (7 * self.index) % 40
        if character:
            out[f"{self.card.lower().replace(' ', '-')}.yaml"] = _card_file(self.card, rank + 0.25, self.spelled)
            where = {"sun": "on the island", "dusk": "on the island", "moon": "in your ship", "anchor": "in your ship"}
            borrows = "\n".join(f"{t}: use the {t} ability of a {self.card} {where[t]}." for t in TIMINGS)
            out[f"{self.mentor.lower().replace(' ', '-')}.yaml"] = _card_file(self.mentor, rank + 0.75, borrows)
        if tile:
            assert self.kind is not None
            head = f"kind: {self.kind}\nside: {rules.board.default_loot}\ncount: {dict(rules.board.bag)[self.kind]}\n"
            out[f"{self.kind}{_TILE_FILE}"] = head + _block(self.spelled)
        return out


def _card_file(name: str, rank: float, text: str) -> str:
    return f"name: {name}\nrank: {rank:g}\n" + _block(text)


def _block(text: str) -> str:
    return "text: |\n" + "".join(f"  {line}\n" for line in text.splitlines())


def _tile_kinds(rules: Rules) -> list[str]:
    """The kinds a batch's tiles replace: those the solo game keeps first (a tile of theirs plays solo too).

    Not a kind some ability counts extra of (``count 1 extra map``) that only its own tile scores in
    sets: replacing that tile would make the rules refuse the other card.
    """
    solo = rules.board.solo
    replaced = set(solo.replaced) if solo is not None else set()
    kinds = [k for k in rules.kinds if not _leans_on_tile(rules, k)]
    return sorted(kinds, key=lambda k: (k in replaced, rules.kinds.index(k)))


def _leans_on_tile(rules: Rules, kind: str) -> bool:
    """Whether some ability counts extra ``kind`` tokens and only the kind's own tile scores them in sets."""
    specs: list[CharacterSpec | LootSpec] = [*rules.characters, *rules.loot]
    counted = any(isinstance(n, act.CountExtra) and n.kind == kind for s in specs for c in s.compiled
                  for n in _nodes(c.steps))
    scored = any(isinstance(n, amt.InSets) and n.kind == kind for c in rules.characters for a in c.compiled
                 for n in _nodes(a.steps))
    return counted and not scored


def batches(rules: Rules, texts: Sequence[FuzzText], size: int = len(SLOTS)) -> list[list[_Slot]]:
    """Texts in batches that load together: ``size`` characters at most, one tile per loot kind.  A text
    spelled for a kind's tile (``FuzzText.kind``) is that tile; another takes the first kind free."""
    kinds = _tile_kinds(rules)
    out: list[list[_Slot]] = []
    current: list[_Slot] = []
    used: set[str] = set()
    for t in texts:
        full = len(current) >= min(size, len(SLOTS))
        if t.tile and not full:
            free = [k for k in kinds if k not in used]
            full = not free or (t.kind is not None and t.kind in used)
        if full and current:
            out.append(current)
            current, used = [], set()
        kind = None
        if t.tile:
            kind = t.kind if t.kind is not None else next(k for k in kinds if k not in used)
            used.add(kind)
        current.append(_Slot(t, len(current), kind))
    if current:
        out.append(current)
    return out


# ------------------------------------------------------------------ rules per text
@attrs.frozen
class _Roles:
    """One text's rules: as a character (with its borrower) and as a loot tile, each ``None`` if not fuzzed."""

    character: Rules | None
    tile: Rules | None
    refused: tuple[Refusal, ...] = ()


def _load(base: Rules, files: dict[str, str]) -> Rules:
    """``load_rules`` as the base rules were loaded, with these mod files beside them."""
    from ...loading.rules import load_rules

    with tempfile.TemporaryDirectory(prefix="contracts-") as folder, \
            tempfile.TemporaryDirectory(prefix="contracts-board-") as boards:
        for name, content in files.items():
            (Path(folder) / name).write_text(content, encoding="utf-8")
        args = dict(base.load_args)
        args["extra_cards"] = [*args.get("extra_cards", ()), folder]
        board = board_with_ranks(base, files)
        if board is not None:
            args["edition"] = str(Path(boards) / BOARD_FILE)
            (Path(boards) / BOARD_FILE).write_text(board, encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnverifiedLootWarning)
            return load_rules(**args)


BOARD_FILE = "board.yaml"
_RANK = re.compile(r"^rank: (\S+)$", re.MULTILINE)


def board_with_ranks(base: Rules, files: dict[str, str]) -> str | None:
    """The board file of an edition with printed tie-breakers (the 2012 one), with a pattern for each
    mod card's rank: the pattern of the nearest lower rank (None: the edition's ties go by reputation).

    A rank with no printed tie-breaker is refused by ``load_rules``; a fuzzed card's rank sits between
    two printed ones, so it borrows its lower neighbour's numbers, as a card of that rank would tie.
    """
    board = base.board
    if board.tie_break != "tie_breakers":
        return None
    from ...loading.rules import _board_path

    data = yaml.safe_load(_board_path(base.load_args.get("edition", "galecrest")).read_text(encoding="utf-8"))
    table = data["tie_breakers"]
    for name, content in sorted(files.items()):
        found = _RANK.search(content)
        if found is None or name.endswith(_TILE_FILE):
            continue
        rank = float(found.group(1))
        below = max((r for r in board.tie_breakers if r <= rank), default=min(board.tie_breakers))
        pattern = f"FUZZED_{len(table['patterns'])}"
        table["patterns"][pattern] = list(board.tie_breakers[below])
        table["ranks"][rank] = pattern
    return yaml.safe_dump(data, sort_keys=False)


def _roles(base: Rules, batch: list[_Slot]) -> list[_Roles]:
    """Each text's rules, from one load of the whole batch.

    A file the loader refuses is named by its error: that text's role (character or tile) is
    refused and the batch loads again without it.  A refusal that names no file of the batch, or
    another one besides (two texts that clash: one's tile no longer scores in sets what the other's card
    counts extra of), has each text loaded alone.
    """
    roles = {slot.index: {CHARACTER: slot.text.character, TILE: slot.text.tile} for slot in batch}
    refused: dict[int, list[Refusal]] = {slot.index: [] for slot in batch}
    together = None
    for _ in range(2 * len(batch) + 1):
        files: dict[str, str] = {}
        owners: dict[str, tuple[_Slot, str]] = {}
        for slot in batch:
            mine = slot.files(base, character=roles[slot.index][CHARACTER], tile=roles[slot.index][TILE])
            files.update(mine)
            owners.update({name: (slot, TILE if name.endswith(_TILE_FILE) else CHARACTER) for name in mine})
        try:
            together = _load(base, files)
            break
        except LibertaliaError as exc:
            named = Path(getattr(exc, "path", "")).name
            culprit = owners.get(named)
            if culprit is None or any(name != named and name in str(exc) for name in owners):
                return [_alone(base, slot) for slot in batch]  # two texts clash (a tile unscores a count)
            slot, role = culprit
            roles[slot.index][role] = False
            refused[slot.index].append(Refusal(slot.text.text, role, str(exc)))
    if together is None:  # pragma: no cover - each round drops a file, so the loop ends by loading
        return [_alone(base, slot) for slot in batch]
    out = []
    for slot in batch:
        derived = _derive(base, together, slot, character=roles[slot.index][CHARACTER],
                          loot_tile=roles[slot.index][TILE])
        if _counts_unscored(derived.character) or _counts_unscored(derived.tile):
            out.append(_alone(base, slot))  # its "count N extra" may lean on another text of the batch
        else:
            out.append(attrs.evolve(derived, refused=tuple(refused[slot.index])))
    return out


def _alone(base: Rules, slot: _Slot) -> _Roles:
    """A text's rules from loads of its own files: as a character, then as a tile (with its card, which it may name)."""
    refused = []
    loaded: dict[str, Rules | None] = {CHARACTER: None, TILE: None}
    for role, wanted in ((CHARACTER, slot.text.character), (TILE, slot.text.tile)):
        if not wanted:
            continue
        try:
            rules = _load(base, slot.files(base, character=slot.text.character, tile=role == TILE))
            mine = _derive(base, rules, slot, character=role == CHARACTER, loot_tile=role == TILE)
            loaded[role] = mine.character if role == CHARACTER else mine.tile
        except LibertaliaError as exc:
            refused.append(Refusal(slot.text.text, role, str(exc)))
    return _Roles(loaded[CHARACTER], loaded[TILE], tuple(refused))


def _derive(base: Rules, loaded: Rules, slot: _Slot, *, character: bool, loot_tile: bool) -> _Roles:
    """The rules of one text: the base rules with its own card and borrower, and (as a tile) its tile."""
    mine = [loaded.card(n) for n in (slot.card, slot.mentor) if loaded.has_card(n)]
    characters = _with(base.characters, mine)
    if base.board.tie_break == "tie_breakers":  # the printed tie-breakers, with the mod cards' ranks
        base = attrs.evolve(base, board=attrs.evolve(base.board, tie_breakers=loaded.board.tie_breakers))
    as_card = attrs.evolve(base, characters=characters) if character else None
    tile = None
    if loot_tile and slot.kind is not None:
        spec = loaded.loot_spec(slot.kind)
        tile = attrs.evolve(base, characters=characters,
                            loot=tuple(spec if s.kind == slot.kind else s for s in base.loot))
    return _Roles(as_card, tile)


def _with(characters: Sequence[CharacterSpec], more: Sequence[CharacterSpec]) -> tuple[CharacterSpec, ...]:
    """The characters in load order: by rank, the neutral cards last."""
    plain = sorted([c for c in characters if not c.neutral] + list(more), key=lambda c: c.rank)
    return (*plain, *(c for c in characters if c.neutral))


def _counts_unscored(rules: Rules | None) -> bool:
    """Whether some ``count N extra K`` counts a kind no ability of these rules scores in sets."""
    if rules is None:
        return False
    specs: list[CharacterSpec | LootSpec] = [*rules.characters, *rules.loot, *rules.solo_loot.values()]
    counted = {n.kind for s in specs for c in s.compiled for n in _nodes(c.steps) if isinstance(n, act.CountExtra)}
    if not counted:
        return False
    by_characters = {n.kind for c in rules.characters for a in c.compiled for n in _nodes(a.steps)
                     if isinstance(n, amt.InSets)}
    sides: dict[str, list[LootSpec]] = {}
    for s in (*rules.loot, *rules.solo_loot.values()):
        sides.setdefault(s.kind, []).append(s)

    def scores(s: LootSpec, kind: str) -> bool:
        return any(isinstance(n, amt.InSets) and n.kind == kind for c in s.compiled for n in _nodes(c.steps))

    return any(k not in by_characters and not (sides.get(k) and all(scores(s, k) for s in sides[k]))
               for k in counted)


def _nodes(value: object) -> Iterator[object]:
    """Every node in a program, steps and the phrases they hold."""
    if isinstance(value, tuple):
        for item in value:
            yield from _nodes(item)
    elif isinstance(value, Record):
        yield value
        for info in fields(value):
            yield from _nodes(getattr(value, info.name))


# ------------------------------------------------------------------ contexts
@attrs.frozen
class Context:
    """Where a text is placed: as a character or a tile, at which timing, and how the position is changed."""

    label: str
    role: str  # "character" or "loot tile"
    timing: str
    variant: str = ""  # "" or one of VARIANTS
    borrowed: bool = False


def contexts(text: FuzzText, character: Rules | None, tile: Rules | None, slot: _Slot) -> list[Context]:
    """Every context the checker allows for a text, given what its rules say it has."""
    out: list[Context] = []
    if character is not None:
        card = character.card(slot.card)
        timings = [t for t in TIMINGS if card.has(t)]
        out += [Context(t, CHARACTER, t) for t in timings]
        out += [Context(f"borrowed {t}", CHARACTER, t, borrowed=True) for t in timings if card.acts(t)]
        out += [Context(f"{v} {timings[i % len(timings)]}", CHARACTER, timings[i % len(timings)], v)
                for i, v in enumerate(VARIANTS)]
    if tile is not None and slot.kind is not None:
        timings = [t for t in TIMINGS if tile.loot_spec(slot.kind).has(t)]
        out += [Context(f"loot {t}", TILE, t) for t in timings]
        if character is None:
            out += [Context(f"loot {v} {timings[i % len(timings)]}", TILE, timings[i % len(timings)], v)
                    for i, v in enumerate(VARIANTS)]
    return out


# ------------------------------------------------------------------ positions
@attrs.frozen
class SoloStart:
    """A solo game from its start, with the fuzzed card or token put where it acts (solo games take no setup)."""

    seed: int
    card: str | None
    zone: str  # "hand" or "ship" for the card; "held" or "today" for the token
    kind: str | None

    def start(self, rules: Rules, keys: list[str]) -> Game:
        game = solo_game(rules, self.seed, card=self.card, zone=self.zone, kind=self.kind)
        if self.card is not None and self.zone == "hand" and game.decision is not None:
            keys.append(self.card)  # play it on the first day
            game = game.choose(self.card)
        return game


def solo_game(rules: Rules, seed: int, *, card: str | None = None, zone: str = "hand",
              kind: str | None = None) -> Game:
    """A solo game at its first question, with ``card`` added to your hand or ship (``zone``), or
    a ``kind`` token held by you (``zone="held"``) or laid in today's loot (``zone="today"``).

    Solo games start at the beginning (``setup=`` declares positions of 2 or more players), so
    the card or token is put into the dealt game, from the bag or else from a later day's loot: a
    ``ValueError`` if neither has one.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnverifiedSoloWarning)
        game = new_game(rules, 1, seed)
    s = game.state
    if s.decision is None or s.decision.kind != "play_character" or s.decision.player != 0:
        raise ValueError(f"the solo game of seed {seed} does not start with your pick")
    you = s.seats[0]
    bag = dict(s.bag)
    days = [list(d) for d in s.days]
    undealt = [n for n in s.undealt if n != card]
    if card is not None:
        if zone == "hand":
            you = attrs.evolve(you, hand=tuple(sorted((*you.hand, card), key=game.rules.rank)))
        elif zone == "ship":
            you = attrs.evolve(you, ship=(*you.ship, card))
        else:
            raise ValueError(f"a card goes into the hand or the ship, not {zone!r}")
    if kind is not None:
        if bag.get(kind, 0) <= 0:
            _from_a_later_day(kind, bag, days, s.day)
        bag[kind] -= 1
        if zone == "held":
            you = attrs.evolve(you, loot=(*you.loot, kind))
        elif zone == "today":
            today = days[s.day - 1]
            bag[today[0]] += 1
            today[0] = kind
        else:
            raise ValueError(f"a token is held or in today's loot, not {zone!r}")
    state = attrs.evolve(s, seats=(you, *s.seats[1:]), bag=tuple(bag.items()), days=tuple(tuple(d) for d in days),
                         undealt=tuple(undealt), decision=selection_question(game.rules, 0, you.hand))
    return Game(game.rules, state)


def _from_a_later_day(kind: str, bag: dict[str, int], days: list[list[str]], today: int) -> None:
    """Bring a ``kind`` token dealt to a later day back to the bag, the bag's first kind taking its place."""
    spare = next((k for k, n in bag.items() if n > 0), None)
    for day in days[today:]:
        if kind in day and spare is not None:
            day[day.index(kind)] = spare
            bag[spare] -= 1
            bag[kind] = bag.get(kind, 0) + 1
            return
    raise ValueError(f"no {kind} token is left in the bag or on a later day to put into the game")


Start = FocusedPosition | SoloStart


def _position(rules: Rules, slot: _Slot, ctx: Context, rng: random.Random) -> Start:
    """The position of one context (``ValueError`` if the rules cannot give one)."""
    board = rules.board
    if ctx.variant == "solo":
        if board.solo is None:
            raise ValueError(f"{board.title} has no solo game")
        if ctx.role == CHARACTER:
            return SoloStart(rng.randrange(2**32), slot.card, "hand" if ctx.timing in ("sun", "dusk") else "ship",
                             None)
        assert slot.kind is not None
        if slot.kind in board.solo.replaced:
            raise ValueError(f"the solo game replaces the {slot.kind} tile")
        return SoloStart(rng.randrange(2**32), None, "today" if ctx.timing == "dusk" else "held", slot.kind)
    players = 2 if ctx.variant == "2 players" else None
    if ctx.role == TILE:
        assert slot.kind is not None
        featuring: list[Any] = [slot.kind]
    elif ctx.borrowed:
        featuring = [(slot.mentor, 0), (slot.card, 0 if ctx.timing in ("moon", "anchor") else 1)]
    else:
        featuring = [slot.card]
    position = focused_position(rules, players, featuring, rng=rng, phase=ctx.timing)
    if ctx.variant in ("last day", "empty", "no bag"):
        position = attrs.evolve(position, setup=_vary(rules, position, ctx.variant, rng))
    return position


def _vary(rules: Rules, position: FocusedPosition, variant: str, rng: random.Random) -> dict[str, Any]:
    """The position's setup on the last day of the last voyage, with empty piles, or with an empty bag."""
    setup: dict[str, Any] = json.loads(json.dumps(position.setup))
    board = rules.board
    if variant == "last day":
        setup["voyage"] = len(board.voyage_days)
        setup["day"] = board.voyage_days[-1]
        return setup
    seats = setup["players"]
    if variant == "empty":
        for i, seat in enumerate(seats):
            mine = [p for p in position.featured if p.seat == i]
            seat["hand"] = [position.plays[i]]
            seat["ship"] = [p.name for p in mine if p.zone == "ship"]
            seat["graveyard"] = []
            seat["loot"] = [p.name for p in mine if p.zone == "loot"]
        return setup
    empty_bag(rules, setup, position.players, rng)
    return setup


# ------------------------------------------------------------------ playing
class _Recorder:
    """A seeded random agent that writes down its answers (for a failure's reproduction)."""

    answers_from_options = True

    def __init__(self, seed: int, keys: list[str]) -> None:
        self._bot = RandomAgent(seed)
        self._keys = keys

    def choose(self, observation: Observation, decision: Decision) -> str:
        key = self._bot.choose(observation, decision)
        self._keys.append(key)
        return key


def _play(rules: Rules, start: Start, seed: int, keys: list[str], to_end: bool) -> None:
    """The focus day (a solo game: its first voyage) through ``choose``, then the rest with ``play_out``."""
    game = start.start(rules, keys) if isinstance(start, SoloStart) else start.answer(
        new_game(rules, start.players, start.seed, setup=start.setup), keys)
    seats = len(game.players)
    agents = [_Recorder(seed + i, keys) for i in range(seats)]
    focus = (game.voyage, game.day)
    solo = isinstance(start, SoloStart)
    while (d := game.decision) is not None and (game.voyage if solo else (game.voyage, game.day)) == \
            (focus[0] if solo else focus):
        game = game.choose(agents[d.player].choose(game.observation(d.player), d))
    if to_end and game.decision is not None:
        game.play_out(agents)


@attrs.frozen
class _Result:
    """What one batch found (merged by ``fuzz_contracts`` in batch order)."""

    texts: int
    loot_texts: int
    positions: int
    steps: dict[str, int]
    suspended: int
    broken: int
    violations: tuple[Violation, ...]
    refused: tuple[Refusal, ...]
    errors: tuple[FuzzError, ...]
    skipped: int


def fuzz_batch(rules: Rules, batch: list[_Slot], *, seed: int = 0, every_context: bool = True,
               to_end: bool = True) -> _Result:
    """Load a batch of texts and play each where it acts, every step checked (see the module docstring)."""
    tracer = Tracer()
    checked: dict[int, Rules] = {}  # each role's rules, traced once
    positions = skipped = broken = 0
    violations: list[Violation] = []
    errors: list[FuzzError] = []
    refused: list[Refusal] = []
    texts = loot_texts = 0
    for slot, roles in zip(batch, _roles(rules, batch), strict=True):
        refused += roles.refused
        if roles.character is None and roles.tile is None:
            continue
        texts += 1
        loot_texts += roles.tile is not None
        found = contexts(slot.text, roles.character, roles.tile, slot)
        if not every_context and found:
            found = [found[int(_seed(seed, slot.text.text, "context")) % len(found)]]
        kept = 0
        for ctx in found:
            plain = roles.character if ctx.role == CHARACTER else roles.tile
            assert plain is not None
            rng = random.Random(_seed(seed, slot.text.text, ctx.label))
            try:
                start = _position(plain, slot, ctx, rng)
            except ValueError:
                skipped += 1
                continue
            tracer.reset()
            keys: list[str] = []
            positions += 1
            try:
                if id(plain) not in checked:
                    checked[id(plain)] = traced(plain, tracer)
                _play(checked[id(plain)], start, rng.randrange(2**32), keys, to_end)
            except Exception as exc:  # noqa: BLE001 - any failure of a fuzzed card is a finding, with its replay
                errors.append(FuzzError(slot.text.text, _name(slot, ctx), ctx.label, f"{type(exc).__name__}: {exc}",
                                        _script(rules, plain, slot, ctx, start, keys, "the game fails")[0]))
            broken += tracer.broken
            for v in tracer.violations:
                if kept >= VIOLATIONS_PER_TEXT:
                    break
                kept += 1
                violations.append(_violation(rules, plain, slot, ctx, start, v))
    return _Result(texts, loot_texts, positions, dict(tracer.counts), tracer.suspended, broken, tuple(violations),
                   tuple(refused), tuple(errors), skipped)


def _name(slot: _Slot, ctx: Context) -> str:
    return slot.card if ctx.role == CHARACTER else f"the {slot.kind} tile"


def _violation(base: Rules, rules: Rules, slot: _Slot, ctx: Context, start: Start, v: StepViolation) -> Violation:
    note = f"{v.kind} step of {v.source[2:]} broke its contract, fuzzing {_name(slot, ctx)} ({ctx.label})"
    python, example = _script(base, rules, slot, ctx, start, list(v.keys), note)
    return Violation(slot.spelled, _name(slot, ctx), ctx.label, v.source[2:], v.ability, v.kind, v.step, v.contract,
                     v.problems, python, example)


# ------------------------------------------------------------------ reproductions
_IMPORTS = "from libertalia.testing import check_invariants\n"
_CHECK = "assert not tracer.violations, \"\\n\\n\".join(map(str, tracer.violations))"


def _script(base: Rules, rules: Rules, slot: _Slot, ctx: Context, start: Start, keys: list[str],
            note: str) -> tuple[str, str]:
    """A script that writes the text's mod files, loads them traced and replays ``keys``; and the card example."""
    files = slot.files(base, character=slot.text.character, tile=ctx.role == TILE)
    prelude = ["import pathlib", "import tempfile", "", "from libertalia.testing.contracts import Tracer, traced",
               "", "MOD = pathlib.Path(tempfile.mkdtemp())"]
    prelude += [f"(MOD / {name!r}).write_text({content!r}, encoding=\"utf-8\")" for name, content in files.items()]
    board = board_with_ranks(base, files)
    if board is not None:  # printed tie-breakers: the board file again, with the mod cards' ranks
        prelude += [f"BOARD = pathlib.Path(tempfile.mkdtemp()) / {BOARD_FILE!r}",
                    f"BOARD.write_text({board!r}, encoding=\"utf-8\")"]
    prelude.append("tracer = Tracer()")
    call = f"traced({_load_call(base, board is not None)}, tracer)"
    if isinstance(start, SoloStart):
        lines = [f"# {line}" for line in note.splitlines()]
        lines += ["import libertalia as lt", *prelude, "from libertalia.testing.contracts import solo_game", "",
                  f"rules = {call}",
                  f"game = solo_game(rules, {start.seed}, card={start.card!r}, zone={start.zone!r}, "
                  f"kind={start.kind!r})"]
        lines += [f"game = game.choose({key!r})" for key in keys]
        return "\n".join([*lines, _CHECK]) + "\n", ""
    mod_args = dict(base.load_args)
    mod_args["extra_cards"] = [*mod_args.get("extra_cards", ()), "<the folder of the mod files above>"]
    shown = attrs.evolve(rules, load_args=mod_args)
    repro = reproduction(shown, start.players, start.seed, start.setup, keys, note=note, load_call=call,
                         check=_CHECK)
    python = repro.python.replace(_IMPORTS, _IMPORTS + "\n".join(prelude) + "\n", 1)
    return python, repro.yaml


def _load_call(rules: Rules, board: bool = False) -> str:
    """``lt.load_rules(...)`` as the base rules were loaded, with the mod folder ``MOD`` beside them
    (and with ``board``, the board file ``BOARD`` the script wrote)."""
    args = rules.load_args
    parts = ["str(BOARD)" if board else json.dumps(args.get("edition", "galecrest"))]
    if args.get("loot") is not None:
        parts.append(f"loot={args['loot']!r}")
    if args.get("seed") is not None:
        parts.append(f"seed={args['seed']!r}")
    parts.append(f"extra_cards=[{', '.join([*(repr(str(p)) for p in args.get('extra_cards') or ()), 'str(MOD)'])}]")
    return f"lt.load_rules({', '.join(parts)})"


# ------------------------------------------------------------------ the run
def fuzz_contracts(rules: Rules, texts: int = 200, *, seed: int = 0, jobs: int = 1, every_context: bool = True,
                   to_end: bool = True, progress: Callable[[int], None] | None = None) -> ContractReport:
    """Fuzz ``texts`` generated texts against the step contracts (see the module docstring).

    ``rules`` must come from ``load_rules`` (each batch of texts loads with the same arguments),
    with fixed loot sides.  ``every_context=False`` plays one context per text (chosen by the
    text, so all of them turn up across a run) and ``to_end=False`` stops each game when its
    focus day ends: a quick run.  ``progress(n)`` is called as ``n`` more texts are done.
    """
    started = time.perf_counter()
    found = generate_texts(rules, texts, seed, jobs=jobs)
    return fuzz_texts(rules, found, seed=seed, jobs=jobs, every_context=every_context, to_end=to_end,
                      progress=progress, started=started)


def fuzz_texts(rules: Rules, texts: Sequence[FuzzText], *, seed: int = 0, jobs: int = 1, every_context: bool = True,
               to_end: bool = True, progress: Callable[[int], None] | None = None,
               started: float | None = None) -> ContractReport:
    """``fuzz_contracts`` for given texts (``FuzzText``: as a character, as a tile, or both)."""
    if not rules.load_args:
        raise ValueError("fuzzing loads mod cards as the rules were loaded: give rules made by load_rules")
    if rules.uncharted:
        raise ValueError("fuzz with fixed loot sides (not loot='uncharted'): a tile replaces one side")
    started = time.perf_counter() if started is None else started
    args = _args_json(rules)
    with _WORKER_LOCK:
        _WORKER_RULES.setdefault(args, rules)  # this process plays with the rules it was given
    tasks = [(args, batch_, seed, every_context, to_end) for batch_ in batches(rules, texts)]
    results: list[_Result] = []
    for result in _map(_fuzz_task, tasks, jobs, progress=progress, sizes=[len(t[1]) for t in tasks]):
        results.append(result)
    steps: Counter[str] = Counter()
    for r in results:
        steps.update(r.steps)
    return ContractReport(
        texts=sum(r.texts for r in results), loot_texts=sum(r.loot_texts for r in results),
        positions=sum(r.positions for r in results), steps=dict(steps), suspended=sum(r.suspended for r in results),
        broken=sum(r.broken for r in results), violations=tuple(v for r in results for v in r.violations),
        refused=tuple(x for r in results for x in r.refused), errors=tuple(e for r in results for e in r.errors),
        skipped=sum(r.skipped for r in results), seconds=time.perf_counter() - started, seed=seed)


def _fuzz_task(task: tuple[str, list[_Slot], int, bool, bool]) -> _Result:
    args, batch, seed, every_context, to_end = task
    return fuzz_batch(_worker_rules(args), batch, seed=seed, every_context=every_context, to_end=to_end)


def _map(fn: Callable[[Any], Any], tasks: list[Any], jobs: int, *, progress: Callable[[int], None] | None = None,
         sizes: Sequence[int] | None = None) -> Iterator[Any]:
    """``fn`` over ``tasks``, in order: here, or in ``jobs`` worker processes."""
    if jobs <= 1 or len(tasks) <= 1:
        for i, task in enumerate(tasks):
            yield fn(task)
            if progress is not None and sizes is not None:
                progress(sizes[i])
        return
    with _lifeline.worker_pool(jobs) as pool:  # workers die with this process and leave no files
        futures = [pool.submit(fn, task) for task in tasks]
        for i, future in enumerate(futures):
            yield future.result()
            if progress is not None and sizes is not None:
                progress(sizes[i])


def _seed(*parts: object) -> int:
    """A seed from any parts: stable across runs, machines and Python's hash seed."""
    digest = hashlib.sha256("\0".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _args_json(rules: Rules) -> str:
    return json.dumps(rules.load_args, sort_keys=True)


_WORKER_RULES: dict[str, Rules] = {}
_WORKER_LOCK = threading.Lock()


def _worker_rules(args_json: str) -> Rules:
    """The base rules for these ``load_rules`` arguments, loaded once per process."""
    from ...loading.rules import load_rules

    with _WORKER_LOCK:
        rules = _WORKER_RULES.get(args_json)
        if rules is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UnverifiedLootWarning)
                rules = _WORKER_RULES[args_json] = load_rules(**json.loads(args_json))
        return rules
