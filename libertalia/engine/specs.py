"""What the data files describe, once loaded and checked.

These are definitions, not state: a game refers to cards by name and to loot
by kind, and looks the definitions up here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import attrs

from ..state import Option
from ..syntax import ast
from . import journal, rng

TIMINGS = ("sun", "dusk", "moon", "anchor")
"""When abilities act: a day's walk, dusk, night and the anchor at a voyage's end."""
UNCHARTED_COUNTER = 1 << 62
"""Where a game's uncharted side draws sit in its random stream: far beyond any game's own draws."""

Instruction = Callable[..., int]
"""One step of an ability, run: the ``act(work, frame)`` of a typed step (``engine.program``), returning the
next program counter.  Typed loosely here, like ``Compiled.steps``, so that these definitions stay below
the engine that runs them (no import of ``engine.work`` or ``engine.program`` from here: no cycle)."""


def unchecked(value: object) -> Any:
    """``value`` typed ``Any``, for an attrs field's default or factory in the compiled modules.

    The compiled build checks the value of a class attribute against its type, and
    ``attrs.field(default=0)`` (which type checkers read as an ``int``) is attrs' marker, not an int;
    typed ``Any`` it is stored as it is.
    """
    return value


@attrs.frozen
class Compiled:
    """An ability ready to run: its typed program, plus scheduling facts read from it.

    ``steps`` is the program (frozen step records, every reference resolved); ``code`` holds
    each step's ``act``, the form the engine's loop calls; ``slots`` is how many binder
    marks a frame of it keeps.  ``reads`` and ``writes`` name the parts of the game the
    ability may look at and change (``engine.program.footprint``): two abilities whose
    footprints do not meet give the same game in either order.
    """

    timing: str
    last: bool
    once: bool
    first: bool  # resolves before the other queued abilities (the 2012 Cook's two tokens together)
    early: bool  # only adjusts counts (the Explorer): resolve before the rest
    constant_gain: bool  # only gains a fixed number of doubloons: order cannot matter
    passive: bool  # a standing rule (``take no loot``) with nothing to run
    text: str
    steps: tuple[Any, ...] = attrs.field(eq=False, repr=False)  # ``engine.program.control.Step`` records
    code: tuple[Instruction, ...] = attrs.field(eq=False, repr=False)
    # Only changes its owner's doubloons or reputation: it can neither ask nor start another
    # ability, so the engine runs it on the spot instead of stacking a frame for it.
    direct: bool = False
    # Only gains or loses fixed numbers of doubloons, as these signed amounts: run frameless.
    coins: tuple[int, ...] | None = attrs.field(default=unchecked(None), eq=False, repr=False)
    slots: int = 0
    reads: frozenset[str] = attrs.field(default=unchecked(frozenset()), eq=False, repr=False)
    writes: frozenset[str] = attrs.field(default=unchecked(frozenset()), eq=False, repr=False)
    asks: bool = attrs.field(default=unchecked(False), eq=False, repr=False)


class Running:
    """What running an ability reads of its ``Compiled``, in a class the compiled build makes native.

    ``Compiled`` is an attrs class, so compiled code reads each of its fields by a generic look-up;
    the queue, the day's walk and every new frame read these at each ability they run.
    """

    __slots__ = ("code", "slots", "direct", "coins", "early", "constant_gain")

    def __init__(self, c: Compiled) -> None:
        self.code: tuple[Instruction, ...] = c.code
        self.slots: int = c.slots
        self.direct: bool = c.direct
        self.coins: tuple[int, ...] | None = c.coins
        self.early: bool = c.early
        self.constant_gain: bool = c.constant_gain


class Tables:
    """The lookups the engine makes at every step, held where compiled code reads them natively.

    ``Rules`` is an attrs class, which mypyc leaves a plain Python object: each field read on it
    from compiled code is a generic attribute lookup.  This class is native in the compiled build
    (a field read is a load from a struct), and one instance per ``Rules`` shares the very dicts
    the rules hold, so the two can never disagree.  Built once, with the rules' other memos.
    """

    __slots__ = ("sources", "timed", "acting", "card_sources", "timed_kinds", "kind_order", "loot_options",
                 "ranks", "rank_labels", "cards", "overflow", "voyages", "days", "play_options", "option_cache",
                 "all_direct", "no_loot", "tie_breakers", "ability_bits", "early_bits", "loot_movers", "card_entries",
                 "loot_entries", "running", "deck", "neutrals")

    def __init__(self, rules: Rules) -> None:
        self.sources: dict[str, tuple[Compiled, ...]] = rules.sources
        self.running: dict[str, tuple[Running, ...]] = _running(rules)
        self.timed: dict[tuple[str, str], tuple[tuple[int, Compiled], ...]] = rules.timed
        self.acting: dict[str, frozenset[str]] = rules.acting
        self.card_sources: dict[str, str] = rules.card_sources
        self.timed_kinds: dict[str, frozenset[str]] = rules.timed_kinds
        self.kind_order: dict[str, int] = rules.kind_order
        self.loot_options: dict[str, Option] = rules.loot_options
        self.ranks: dict[str, float] = rules.ranks
        self.rank_labels: dict[str, str] = {name: f"{rank:g}" for name, rank in rules.ranks.items()}  # as options show
        self.cards: dict[str, CharacterSpec] = rules._by_name  # marked names ("Cook#1") included
        self.overflow: int = rules.board.overflow
        self.voyages: int = len(rules.board.voyage_days)
        self.days: int = rules.board.days_in_game
        self.play_options: dict[str, Option] = rules.play_options
        self.option_cache: dict[tuple[Any, ...], Option] = rules.option_cache
        self.all_direct: frozenset[tuple[str, str]] = rules.all_direct
        self.ability_bits: dict[str, tuple[int, ...]] = rules.ability_bits
        self.early_bits: int = rules.early_bits
        self.loot_movers: int = rules.loot_movers
        # Facts read off the specs once, not at every card of every day.
        self.deck: tuple[str, ...] = tuple([c.name for c in rules.characters if not c.neutral])  # a seat's cards
        self.neutrals: dict[int, tuple[str, ...]] = {  # by player count: the neutral cards played each day
            n: tuple([x.name for x in rules.board.neutrals if n in x.players])
            for n in range(1, rules.board.players[1] + 1)}
        self.no_loot: frozenset[str] = frozenset(name for name, c in rules._by_name.items() if not c.takes_loot)
        board = rules.board
        self.tie_breakers: dict[float, tuple[int, ...]] | None = (
            board.tie_breakers if board.tie_break == "tie_breakers" else None)
        # What a phase queues, by timing, read off ``timed`` once (``flow._queue_ship``, ``_queue_held_loot``).
        self.card_entries: dict[str, dict[str, tuple[CardEntry, ...]]] = _card_entries(rules)
        self.loot_entries: dict[str, dict[str, tuple[LootEntry, ...]]] = {
            timing: _loot_entries(rules, timing) for timing in TIMINGS}


CardEntry = tuple[str, int, bool, bool]
"""A card's ability as a phase queues it: (source, index, last, first)."""
LootEntry = tuple[str, int, bool, bool, bool]
"""A loot kind's ability as a phase queues it: (source, index, last, first, once)."""


def _running(rules: Rules) -> dict[str, tuple[Running, ...]]:
    """By source: its abilities' ``Running``; a card held under another seat's mark shares its card's."""
    made: dict[int, tuple[Running, ...]] = {}  # by the abilities' tuple, which the marked names share
    out: dict[str, tuple[Running, ...]] = {}
    for source, abilities in rules.sources.items():
        running = made.get(id(abilities))
        if running is None:
            running = made[id(abilities)] = tuple([Running(c) for c in abilities])
        out[source] = running
    return out


def _card_entries(rules: Rules) -> dict[str, dict[str, tuple[CardEntry, ...]]]:
    """By timing, then card name: its abilities then that act (not a standing rule); cards with none left out."""
    out: dict[str, dict[str, tuple[CardEntry, ...]]] = {timing: {} for timing in TIMINGS}
    acting: dict[tuple[int, str], list[tuple[int, bool, bool]]] = {}  # a card's, shared by its marked names
    for (source, timing), abilities in rules.timed.items():
        if source[0] == "c":
            key = (id(rules.sources[source]), timing)
            found = acting.get(key)
            if found is None:
                found = acting[key] = [(i, c.last, c.first) for i, c in abilities if not c.passive]
            if found:
                out[timing][source[2:]] = tuple([(source, i, last, first) for i, last, first in found])
    return out


def _loot_entries(rules: Rules, timing: str) -> dict[str, tuple[LootEntry, ...]]:
    """By loot kind: its abilities of ``timing``; kinds with none left out."""
    out: dict[str, tuple[LootEntry, ...]] = {}
    for kind in rules.kinds:
        source = f"l:{kind}"
        entries = tuple((source, i, c.last, c.first, c.once) for i, c in rules.timed.get((source, timing), ()))
        if entries:
            out[kind] = entries
    return out


def _may_move_loot(writes: frozenset[str]) -> bool:
    """Whether a footprint's writes may move a held token (any loot, or anything at all)."""
    return "*" in writes or any(x.startswith("loot:") for x in writes)


@attrs.frozen
class CharacterSpec:
    name: str
    rank: float
    text: str
    abilities: tuple[ast.Ability, ...]
    compiled: tuple[Compiled, ...] = attrs.field(eq=False, repr=False)
    takes_loot: bool = True
    neutral: bool = False
    path: str = ""

    def has(self, timing: str) -> bool:
        return any(c.timing == timing for c in self.compiled)

    def acts(self, timing: str) -> bool:
        """Whether it has an ability of ``timing`` that does something (not a standing rule)."""
        return any(c.timing == timing and not c.passive for c in self.compiled)


@attrs.frozen
class LootSpec:
    kind: str
    side: str
    count: int
    text: str
    abilities: tuple[ast.Ability, ...]
    compiled: tuple[Compiled, ...] = attrs.field(eq=False, repr=False)
    verified: bool = True
    note: str = ""
    path: str = ""

    def has(self, timing: str) -> bool:
        return any(c.timing == timing for c in self.compiled)


@attrs.frozen
class NeutralSpec:
    """A card on the island that belongs to nobody (the Midshipman)."""

    name: str
    rank: float
    players: tuple[int, ...]
    directly_left_removes_loot: bool = True


@attrs.frozen
class SoloCard:
    """One card of the solo deck: the character on its face, and what its face and back add."""

    name: str
    no_effect: float  # its rank once Automa's sun ability changed nothing (S2)
    symbol: bool  # shows the Automa symbol under its rank
    picks: tuple[tuple[str, int], ...]  # its back, a pick per table row: ("left" | "right" | "symbol", n)
    verified: bool = False  # the printed values; False: a documented construction (docs/solo.md)


@attrs.frozen
class SoloRow:
    """A row of the table on the solo cards' backs: the first that today's loot matches is read."""

    all_alike: bool = False  # every token of today in one category
    at_least: tuple[tuple[str, int], ...] = ()  # (category, how many) that today must hold

    def matches(self, categories: list[str]) -> bool:
        if self.all_alike and len(set(categories)) != 1:
            return False
        return all(categories.count(category) >= n for category, n in self.at_least)


@attrs.frozen
class SoloSpec:
    """The solo mode of a board: you against Automa (a full player) and the Pilferer (not one)."""

    start_spaces: tuple[int, ...]  # track spaces your token and Automa's are shuffled onto
    loot_side: str  # the side that ``replaced`` kinds take in a solo game ("automa")
    replaced: tuple[str, ...]
    preference: tuple[str, ...]  # the loot Automa and the Pilferer take first (S3)
    categories: dict[str, str]  # loot kind -> its category for the table rows
    rows: tuple[SoloRow, ...]
    hand: int  # solo cards Automa's hand gets at each voyage start
    without: tuple[str, ...]  # characters not used in a solo game (the Wind Nymph, S4)
    deck: tuple[SoloCard, ...]

    def card(self, name: str) -> SoloCard:
        """The solo card of a deck name (the deck itself, its top card)."""
        found = self.find(name)
        assert found is not None, f"{name} is no card of the solo deck"
        return found

    def find(self, name: str) -> SoloCard | None:
        """The solo card of a character's type: a copy from another seat (``"Bosun#0"``) shares its
        type's card; a character the solo deck has no card for (a mod's) has none (S9)."""
        base = name.partition("#")[0]
        return next((c for c in self.deck if c.name == base), None)

    def preference_of(self, kind: str) -> int:
        """Where ``kind`` stands in the preference order (S3): lower is taken first."""
        return self.preference.index(kind) if kind in self.preference else len(self.preference)


@attrs.frozen
class BoardSpec:
    """Edition-level facts: everything the engine must not hard-code."""

    edition: str
    title: str
    players: tuple[int, int]
    voyage_days: tuple[int, ...]
    deal: tuple[int, ...]  # new cards dealt at the start of each voyage
    track_income: tuple[int, ...]  # doubloons per track space, left to right
    start_spaces: dict[int, tuple[int, ...]]  # by player count: where the seats' tokens start
    overflow: int  # doubloons per step off either end of the track
    bag: tuple[tuple[str, int], ...]  # loot kinds in board order with counts
    loot_per_day: dict[int, int] | None  # by player count; None = one per player
    tie_break: str  # how equal ranks sort on the island: "reputation" or "tie_breakers"
    winner_tie: str  # "reputation" or "shared"
    leftover_loot: str  # "bag": back after each dusk; "aside": until voyage end
    start_doubloons: str | int  # "income" (from the track) or a fixed number
    neutrals: tuple[NeutralSpec, ...]
    default_loot: str = "calm"
    characters_dir: str = ""  # under cards/
    loot_dir: str = ""
    tie_breakers: dict[float, tuple[int, ...]] = attrs.field(factory=unchecked(dict))  # rank -> number per seat
    ship_after_voyage: str = "graveyard"  # or "removed" (out of the game)
    graveyard_after_voyage: str = "keep"  # or "removed"
    # "netted" (R3): every anchor change of a player summed, applied once, floored at 0.
    # "characters_then_loot" (C4): the characters' changes first, floored at 0; then the loot's.
    anchor_order: str = "netted"
    path: str = ""
    solo: SoloSpec | None = None  # the board's solo mode, if it has one

    @property
    def days_in_game(self) -> int:
        return sum(self.voyage_days)

    def loot_per_day_for(self, players: int) -> int:
        if self.loot_per_day and players in self.loot_per_day:
            return self.loot_per_day[players]
        return players


def _put(obj: object, name: str, value: object) -> None:
    """Set a derived field of a frozen instance (a module-level function: mypyc cannot compile a closure in a
    method of an attrs class)."""
    object.__setattr__(obj, name, value)


@attrs.frozen
class Rules:
    """An edition with its options, loaded, checked and compiled once.

    Lookups the engine makes on every step (ranks, abilities by source, option
    objects) are precomputed here, so the game loop never rebuilds them.
    """

    board: BoardSpec
    characters: tuple[CharacterSpec, ...]
    loot: tuple[LootSpec, ...]
    loot_sides: dict[str, str]
    identity: str
    load_args: dict[str, Any] = attrs.field(factory=unchecked(dict), eq=False, repr=False)  # how to load them again
    # A short sha256 of every board, card, loot and grammar file the rules were loaded from
    # (``load_rules``): saves and records carry it and refuse rules whose files have changed.
    fingerprint: str = attrs.field(default=unchecked(""), eq=False, repr=False)
    # Uncharted loot drawn per game: for each such kind, every side it may take (in a stable
    # order).  ``loot`` then holds the board's default sides until ``for_game`` draws them.
    uncharted: dict[str, tuple[LootSpec, ...]] = attrs.field(factory=unchecked(dict), eq=False, repr=False)
    # The solo mode's side of each kind it replaces (the board's ``solo.loot_side``): ``for_solo``.
    solo_loot: dict[str, LootSpec] = attrs.field(factory=unchecked(dict), eq=False, repr=False)
    _per_game: dict[tuple[str, ...], Rules] = attrs.field(factory=unchecked(dict), init=False, eq=False, repr=False)
    _by_name: dict[str, CharacterSpec] = attrs.field(init=False, eq=False, repr=False)
    _by_kind: dict[str, LootSpec] = attrs.field(init=False, eq=False, repr=False)
    kinds: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False)
    ranks: dict[str, float] = attrs.field(init=False, eq=False, repr=False)
    sources: dict[str, tuple[Compiled, ...]] = attrs.field(init=False, eq=False, repr=False)
    play_options: dict[str, Option] = attrs.field(init=False, eq=False, repr=False)
    loot_options: dict[str, Option] = attrs.field(init=False, eq=False, repr=False)
    # Each source's abilities by timing, as (index, ability): what the engine queues at each phase.
    timed: dict[tuple[str, str], tuple[tuple[int, Compiled], ...]] = attrs.field(init=False, eq=False, repr=False)
    kind_order: dict[str, int] = attrs.field(init=False, eq=False, repr=False)  # board order of loot kinds
    timed_kinds: dict[str, frozenset[str]] = attrs.field(init=False, eq=False, repr=False)  # timing -> kinds
    card_sources: dict[str, str] = attrs.field(init=False, eq=False, repr=False)  # name -> "c:name"
    # Per timing, the card names with an ability then, and the sources whose abilities then are all direct.
    acting: dict[str, frozenset[str]] = attrs.field(init=False, eq=False, repr=False)
    all_direct: frozenset[tuple[str, str]] = attrs.field(init=False, eq=False, repr=False)
    # Options the engine makes as games ask, made once each: a character named to a seat, by (owner, card,
    # asker, zone); a loot kind, by ("loot", key); an ability in an order question, by ("order", source, index).
    option_cache: dict[tuple[Any, ...], Option] = attrs.field(init=False, factory=unchecked(dict), eq=False, repr=False)
    # Which abilities may not commute with which (``engine.ordering.Clashes``): made when first needed.
    clashes: Any = attrs.field(init=False, default=unchecked(None), eq=False, repr=False)
    # One bit per ability, by source and index: a queued group is the OR of its bits, a cheap key for the
    # clash table.  ``bit_abilities`` maps a bit's position back; ``loot_movers`` has the bits of the
    # abilities whose footprint may move held loot, ``early_bits`` those that only adjust counts (E2).
    ability_bits: dict[str, tuple[int, ...]] = attrs.field(init=False, eq=False, repr=False)
    bit_abilities: tuple[tuple[str, int], ...] = attrs.field(init=False, eq=False, repr=False)
    loot_movers: int = attrs.field(init=False, eq=False, repr=False)
    early_bits: int = attrs.field(init=False, eq=False, repr=False)
    # The words events are packed with (``engine.journal``): the same for every game of these rules.
    lexicon: tuple[str, ...] = attrs.field(init=False, eq=False, repr=False)
    lexicon_ids: dict[str, int] = attrs.field(init=False, eq=False, repr=False)
    # The hot lookups above, as one object that compiled code reads natively (``Tables``).
    tables: Tables = attrs.field(init=False, eq=False, repr=False)
    event_cache: dict[Any, bytes] = attrs.field(init=False, factory=unchecked(dict), eq=False,
                                                repr=False)  # journal memo
    # For ``for_game`` and ``for_solo``'s rules: the rules they came from, and their key in its ``_per_game``
    # (the uncharted kinds' sides, or ``("solo",)``).  What they pickle as.
    _derived: tuple[Rules, tuple[str, ...]] | None = attrs.field(init=False, default=unchecked(None), eq=False,
                                                                 repr=False)

    def __attrs_post_init__(self) -> None:
        put = partial(_put, self)

        # A character that changed hands keeps its first owner's mark ("Cook#1", see
        # Work.take_over); every lookup by name knows the marked names too.
        by_name = {c.name: c for c in self.characters}
        marked = {f"{c.name}#{seat}": c for c in self.characters if not c.neutral
                  for seat in range(self.board.players[1])}
        put("_by_name", {**by_name, **marked})
        put("_by_kind", {spec.kind: spec for spec in self.loot})
        put("kinds", tuple(k for k, _ in self.board.bag))
        put("ranks", {name: c.rank for name, c in self._by_name.items()})
        sources: dict[str, tuple[Compiled, ...]] = {f"c:{name}": c.compiled for name, c in self._by_name.items()}
        sources.update({f"l:{spec.kind}": spec.compiled for spec in self.loot})
        put("sources", sources)
        put("timed", {(source, timing): tuple((i, c) for i, c in enumerate(abilities) if c.timing == timing)
                      for source, abilities in sources.items() for timing in {c.timing for c in abilities}})
        owners = tuple((source, i) for source, abilities in sources.items() for i in range(len(abilities)))
        bit_of = {owner: 1 << n for n, owner in enumerate(owners)}
        put("bit_abilities", owners)
        put("ability_bits", {source: tuple(bit_of[source, i] for i in range(len(abilities)))
                             for source, abilities in sources.items()})
        put("loot_movers", sum(bit_of[source, i] for source, i in owners
                               if _may_move_loot(sources[source][i].writes)))
        put("early_bits", sum(bit_of[source, i] for source, i in owners if sources[source][i].early))
        put("kind_order", {kind: i for i, kind in enumerate(self.kinds)})
        put("card_sources", {name: f"c:{name}" for name in self._by_name})
        put("acting", {timing: frozenset(name for name, c in self._by_name.items() if c.has(timing))
                       for timing in TIMINGS})
        put("all_direct", frozenset(key for key, abilities in self.timed.items()
                                    if all(c.direct for _, c in abilities)))
        put("timed_kinds", {timing: frozenset(s.kind for s in self.loot if any(c.timing == timing for c in s.compiled))
                            for timing in TIMINGS})
        options = {c.name: Option(c.name, f"{c.name} ({c.rank:g})") for c in self.characters}
        options.update({name: Option(name, f"{c.name} ({c.rank:g}, seat {name.partition('#')[2]}'s card)")
                        for name, c in marked.items()})
        put("play_options", options)
        put("loot_options", {k: Option(k, k) for k in self.kinds})
        words = journal.lexicon([self.board.title, *self.kinds, *self._by_name])
        put("lexicon", words)
        put("lexicon_ids", {word: i for i, word in enumerate(words) if i})
        put("tables", Tables(self))

    def for_game(self, seed: int) -> Rules:
        """The rules of one game: uncharted loot sides drawn from the game's own seed.

        The draws use counters far from the game's own, so they never shift its other
        random events.  Rules without uncharted kinds are returned as they are.
        """
        if not self.uncharted:
            return self
        return self._with_sides(tuple(specs[rng.draw(seed, UNCHARTED_COUNTER + i, len(specs))].side
                                      for i, specs in enumerate(self.uncharted.values())))

    def _with_sides(self, key: tuple[str, ...]) -> Rules:
        """The rules of the games whose uncharted kinds (in order) took the sides ``key``."""
        found = self._per_game.get(key)
        if found is None:
            chosen = {kind: next(spec for spec in specs if spec.side == side)
                      for (kind, specs), side in zip(self.uncharted.items(), key, strict=True)}
            loot = tuple(chosen.get(spec.kind, spec) for spec in self.loot)
            sides = {spec.kind: spec.side for spec in loot}
            identity = f"{self.board.edition}:" + ",".join(f"{k}={sides[k]}" for k in sides)
            found = self._per_game[key] = self._derive(key, loot=loot, loot_sides=sides, identity=identity)
        return found

    def for_solo(self) -> Rules:
        """The rules of a solo game: the replaced kinds take the solo side (the board's ``solo:``).

        Call it on the rules of one game (after ``for_game``): the other kinds keep their sides.
        """
        solo = self.board.solo
        if solo is None:
            raise ValueError(f"{self.board.title} has no solo mode")
        key = ("solo",)
        if key not in self._per_game:
            loot = tuple(self.solo_loot[spec.kind] if spec.kind in solo.replaced else spec for spec in self.loot)
            sides = {spec.kind: spec.side for spec in loot}
            identity = f"{self.board.edition}:" + ",".join(f"{k}={sides[k]}" for k in sides)
            self._per_game[key] = self._derive(key, loot=loot, loot_sides=sides, identity=identity)
        return self._per_game[key]

    def _derive(self, key: tuple[str, ...], **changes: Any) -> Rules:
        """These rules with ``changes`` and no uncharted kinds left, kept under ``key``: what they pickle as."""
        derived = attrs.evolve(self, uncharted={}, **changes)
        object.__setattr__(derived, "_derived", (self, key))
        return derived

    def __repr__(self) -> str:
        """One line a person can read (the fields' own repr runs to tens of thousands of characters)."""
        sides = list(self.loot_sides.values())
        if self.uncharted:
            loot = "loot uncharted (drawn per game)"
        elif sides and len(set(sides)) == 1:
            loot = f"loot {sides[0]}"
        else:
            loot = "loot " + ",".join(f"{k}={v}" for k, v in self.loot_sides.items())
        parts = [f"{len(self.characters)} characters", f"{len(self.loot)} loot tiles", loot]
        if self._derived is not None and self._derived[1] == ("solo",):
            parts.append("solo")
        extra = self.load_args.get("extra_cards") or ()
        if extra:
            parts.append("mods " + ", ".join(str(p).replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] for p in extra))
        if self.fingerprint:
            parts.append(f"fingerprint {self.fingerprint[:8]}")
        return f"<Rules {self.board.edition}: {', '.join(parts)}>"

    # ------------------------------------------------------------ copies and pickles
    def __copy__(self) -> Rules:
        """The rules themselves: they are immutable (their mutable parts are memos of what never changes)."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        """The rules themselves, like ``copy.copy``: a copy would repeat the compiled programs, and games of
        one set of rules rely on sharing it (its memos, and ``is`` checks that skip comparing rules)."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """How rules pickle when ``libertalia.pickling`` does not pickle them as their load arguments.

        The rules of one game (``for_game``, ``for_solo``) pickle as the rules they came from and the
        sides drawn (or the solo step), which unpickles to the very object ``for_game`` or ``for_solo``
        returns there; any other rules, field by field, with the memos left out (built again when used).
        """
        if self._derived is not None:
            return _derived_again, self._derived
        return _rules_again, ({f.alias: getattr(self, f.name) for f in attrs.fields(Rules) if f.init},)

    def card(self, name: str) -> CharacterSpec:
        """The character called ``name``; ``RulesError`` (with the nearest names) if there is none."""
        try:
            return self._by_name[name]
        except (KeyError, TypeError):  # TypeError: an unhashable name
            raise self._unknown("Rules.card", "character", name, [c.name for c in self.characters]) from None

    def has_card(self, name: str) -> bool:
        """Whether ``name`` is a character of these rules (a card name, not a marked one)."""
        return name in self._by_name and self._by_name[name].name == name

    def loot_spec(self, kind: str) -> LootSpec:
        """The loot tile of ``kind``; ``RulesError`` (with the nearest kinds) if there is none."""
        try:
            return self._by_kind[kind]
        except (KeyError, TypeError):
            raise self._unknown("Rules.loot_spec", "loot kind", kind, list(self._by_kind)) from None

    def _unknown(self, where: str, what: str, name: object, names: list[str]) -> Exception:
        from ..errors import RulesError
        from ..suggest import did_you_mean

        if not isinstance(name, str):
            return TypeError(f"{where}: a {what} is named by a string, not {name!r:.60} ({type(name).__name__})")
        return RulesError(f"{self.board.title} has no {what} {name!r}{did_you_mean(name, names)}")

    def rank(self, name: str) -> float:
        return self.ranks[name]

    def ability(self, source: str, index: int) -> Compiled:
        return self.sources[source][index]


def _derived_again(parent: Rules, key: tuple[str, ...]) -> Rules:
    """Unpickling the rules of one game: what the parent's ``for_solo()`` or ``for_game`` with these sides returns."""
    found = parent._per_game.get(key)
    if found is not None:
        return found
    return parent.for_solo() if key == ("solo",) else parent._with_sides(key)


def _rules_again(fields: dict[str, Any]) -> Rules:
    """Unpickling rules pickled field by field: built again, the lookups and memos with them."""
    return Rules(**fields)
