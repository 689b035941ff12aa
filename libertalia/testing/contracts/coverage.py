"""Coverage-driven generation: every production of the grammar, spelled where its choice matters.

The contract fuzzer samples whole texts, so a form no sampled text happens to use, or uses only
where it makes no difference, is never tested.  Here generation goes the other way round: for
each *production* (an alternative of a rule of ``grammar/libertalia.lark``, as ``testing.texts``
reads the file) a walk is steered toward that rule and made to take that alternative, the rest
of the ability drawn as ``card_texts`` draws it (the same walk, the same steering away from what
the checker refuses).  Then the same ability is spelled again with a *sibling* alternative in
that one slot, everything else kept (each node of the walk draws from its own seeded stream, and
the choices made before are replayed), and both texts are played, compiled as the loader
compiles them, from the same focused positions with the same answers (a question asked the same
way gets the same answer in both games).

A production counts as covered (``mattered``) once, in some position, the text with it and the
text with a sibling end the focus day in different states: the slot's choice changed the
result, so a step that misread that alternative would be seen by whatever compares results.
The positions are built to make choices bite: left and right neighbours that hold different
things, ties (equal doubloons, equal counts), empty hands, ships and graveyards, an empty bag,
the last day, the last voyage, 2 players (with the Midshipman where the edition has one), a
hoard (the owner holding many of every kind), and the owner broke (an empty purse).
A pair whose two texts have one canonical wording, or compile to one program, is a ``synonym``
(a plain-English variant: by itself it can never matter); it is covered as the proven synonym of
a sibling that mattered, or, when every sibling in its place reads as it, in a text that a slot
above it changed.  A production never spelled into an accepted text, or never seen to matter, is listed
with the reason; one the checker refuses (in this edition, or in every text for its own sake) has
a status of its own, with the checker's reason and an accepted text that shows it is to blame.

The walk reaches positions where a slot can matter: it backtracks out of dead ends, ends its
texts by varied shortest forms, tries the shortest road to the target last, lets the checker
judge forms its steering would skip, and plays a sibling that acts at another time from that
time's phase too.

Everything is seeded per production: the same ``seed`` and ``tries``, the same report, with any
number of ``jobs``.
"""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ...engine.program.record import Record
from ...engine.specs import CharacterSpec, LootSpec, Rules
from ...errors import CardError
from ...game import Game, new_game
from ...language import checker, lalr
from ...language.compile import compile_ability
from ...language.normalise import once_for_own_kind, own_token, singular_kinds, worths
from ...language.render import render
from ...state import Decision
from ..focus import FocusedPosition, bag_left, focused_position
from ..texts import (
    _COUNTED,
    _TIMINGS,
    _allowed,
    _Alt,
    _DeadEnd,
    _grammar,
    _join,
    _meaning,
    _reads_as_spelled,
    _Scope,
    _Speller,
    text_problem,
    trigger_words,
    vocabulary,
)
from .coverage_refusals import refusal_shown
from .fuzz import MOD, _args_json, _map, _seed, _tile_kinds, _vary, _with, _worker_rules

__all__ = ["CoverageReport", "Production", "ProductionCoverage", "coverage", "productions"]

MATTERED, SYNONYM, NO_EFFECT, NOT_SPELLED = "mattered", "synonym", "no effect seen", "not spelled"
SYNONYM_COVERED = "synonym of one that mattered"
WITHIN = "sole alternative, within one that mattered"
SPELLING = "one reading, in a text where it mattered"
UNREACHABLE = "not in this edition"
REFUSED = "refused by the checker"
REFUSED_SAID = "refused, with the wording to use"
"""A production's status (docs/testing.md has the table).  Covered: its choice changed a result
(``MATTERED``); its text parsed to the same canonical tree as the text with a sibling that itself
mattered (``SYNONYM_COVERED``); the only alternative of its rule, one of the symbols of a production
that mattered, in the text that mattered (``WITHIN``); a spelling with no sibling of another reading
(every sibling spelled in its place parsed to its tree, and played alike: ``_every``, ``_then``), the
only alternative of its rule, or the only one the checker accepts in its place (``they hold`` of a player
acting), in a text whose day changed when a slot above it (else the nearest beside or below it) took a
sibling, that slot named (``SPELLING``).  Not covered: every sibling spelled in its
place gave the same tree and none of them mattered (``SYNONYM``); spelled and played, never changing
a result (``NO_EFFECT``); not in this edition: refused here, accepted with the same cards on the reference
board and with a sibling in its place here (``UNREACHABLE``: not a gap, and not counted among the edition's
productions); every text spelled with it refused,
at least once for its own sake: a sibling in its place is accepted (``REFUSED``); never spelled into an
accepted text for another reason (``NOT_SPELLED``).  Covered as well: a production that is there to be refused
(``REFUSED_SAID``, as the bare "as many … as" of E30): every text spelled with it refused, for its own sake (a
sibling in its place is accepted), with the wording to use instead (the refusal's ``expected``), and it is one of the
productions the language keeps to be refused (``coverage_refusals.REFUSED_ON_PURPOSE``), whose refusal test holds
in this edition: refusing it, with the reason and the wording, is all it does, and the run has seen it do so."""
COVERED = (MATTERED, SYNONYM_COVERED, WITHIN, SPELLING, REFUSED_SAID)
_REPUTATION = "reputation"  # the word a board without a reputation track refuses
_REFERENCE = "galecrest"  # the edition a text refused elsewhere is checked against
VARIANTS = ("plain", "left != right", "ties", "empty", "no bag", "last day", "last voyage", "2 players", "hoard",
            "broke")
"""The positions each pair is played in, in turn, until the two texts' results differ."""
_HOARD = 5
"""Tokens of each kind the owner's seat is given in the "hoard" position (the bag keeping one of each): long
set-scoring tables and large counts need large holdings to tell their rows apart."""
SIBLINGS = 3
"""Sibling alternatives tried against each spelled text (drawn among those the walk allows there)."""
_WALKS = 4  # walks per attempt until one spells an accepted text
_EDITION_ATTEMPTS = 128  # walks/4 per try to spell, on the reference board, a production this edition refuses:
# printed paraphrases (refused in most places) are alternatives too, so an accepted text there is rarer
_DECISIONS = 400  # answers per game before it is taken as looping (the step budget stops real loops)
_ROOT = "ability"
_AFTER_SLOT = 3  # terminals drawn freely after the slot, before every choice takes its cheapest alternative
_BLAME = 4  # refusals checked per production against a sibling in the slot's place
_BACKTRACKS = 300  # alternatives a walk may undo before it gives up (a walk that cannot end is walked again)
_INSTEAD = ("postfix_if_instead", "unless_instead", "prefix_if_instead")
_ADJACENT = ("_adjacent_to", "_this_one")  # the words of "adjacent to this one", a filter of what an action acts on
_SMALL = ("1", "2", "3")  # the counts a choice of how many offers (see ``_Directed._terminal``)
_THIS_OR_NOT = ("article", "char_np", "other_than_this")
"""Slots whose alternatives differ in whether a character phrase can name this very card ("a" or "another",
"character" or "other character", "… other than this one"): their choice can matter only where this card is among
what the phrase names, so the phrase is spelled naming the place this card stands in (``_Directed._naming_this``)."""
_STANDS = {"sun": ("THE", "ISLAND"), "dusk": ("THE", "ISLAND"), "moon": ("YOUR", "PILE"), "anchor": ("YOUR", "PILE")}
"""Where a character whose ability acts stands at each timing: on the island by day and at dusk, in its owner's
ship at night and at the voyage's end (the words of the ``place`` alternative)."""
_WORTH = ("worth_this", "worth_token", "worth_kind")
"""A worth said with "is worth" ("this is worth 3 doubloons", "this relic is worth 2 doubloons"): what it pays at the
voyage's end, said of this card, of this token, or on a tile of its own kind ("each barrel you hold is worth 2
doubloons" on the barrel tile): spelled at anchor, of this card or of the tile's own kind (``_Directed._worth``)."""
_GUARDS = frozenset({"condition", "_did_not", "consequence"})
"""Rules that set a condition on the actions beside them: "if …"/"unless …", "if you did not", a consequence."""
_CONDITION_LISTS = ("condition", "conjunction")
"""Rules that join conditions ("… or …", "… and …"): a condition target is spelled alone in them."""
_TOOK = ("just_took", "took", "just_took_token")
"""Conditions on the loot the card took at dusk: false in an ability whose card takes none ("instead of taking
loot, …")."""
_ONCE = "once"  # the modifier of a tile's ability that fires once for all the tokens held, not once each
_REACHED = frozenset({"quantity", "hold_exactly", "there_exactly"})
"""Rules and forms whose NUMBER counts what the places hold: drawn small, as ``_SMALL`` (so are a table row's count,
its first NUMBER, and a rate's group, its second)."""
_AMOUNTS = frozenset({"amount", "cap", "_worth", "_set_worth", "_score_row", "action"})
"""Rules whose NUMBER counts what is given, taken, paid or scored: never 0 (which changes nothing) in the walk."""
_PHRASE_ENDS = frozenset({"step", "action", "cond", "effect", "ability", "consequence", "amount", "counter"})
"""Rules a character phrase never spans: looking up from a slot for its phrase stops there."""


# ------------------------------------------------------------------ productions
@attrs.frozen
class Production:
    """One alternative of one rule of the grammar: ``rule``'s ``index``-th alternative (cheapest first)."""

    rule: str
    index: int
    label: str

    @property
    def slot(self) -> bool:
        """Whether the rule has siblings to compare against (a rule of one alternative has none)."""
        return len(_grammar().alternatives[self.rule]) > 1


def productions() -> list[Production]:
    """Every production of the grammar, rule by rule in the file's order as lark compiles it."""
    g = _grammar()
    out = []
    for rule, alts in g.alternatives.items():
        for i, alt in enumerate(alts):
            out.append(Production(str(rule), i, f"{rule} -> {_spelling(alt, g.words)}"))
    return out


def _spelling(alt: _Alt, words: dict[str, tuple[str, ...]]) -> str:
    parts = [words[n][0] if term and len(words.get(n, ())) == 1 else n if term else f"<{n}>" for n, term in alt.symbols]
    shown = " ".join(parts) or "(nothing)"
    return f"{shown}  [{alt.alias}]" if alt.alias else shown


@attrs.frozen
class ProductionCoverage:
    """What coverage found for one production."""

    production: str  # its label: "rule -> its symbols  [alias]"
    rule: str
    index: int
    status: str  # MATTERED, SYNONYM, NO_EFFECT or NOT_SPELLED
    texts: int  # accepted texts spelled with it
    pairs: int  # (text, sibling) pairs played
    why: str  # for MATTERED: the pair and the position; otherwise the reason it is not covered
    same_tree: tuple[tuple[int, str], ...] = ()  # siblings (index) whose text (shown) parsed to this one's tree

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self, filter=lambda a, _: a.name != "same_tree")


@attrs.frozen
class CoverageReport:
    """Coverage of the grammar's productions: per production, whether its choice was seen to matter."""

    edition: str
    seed: int
    tries: int
    entries: tuple[ProductionCoverage, ...]
    games: int
    seconds: float

    def count(self, status: str) -> int:
        return sum(e.status == status for e in self.entries)

    @property
    def covered(self) -> int:
        """Productions seen to matter, or proven synonyms of one that did (a bare synonym is not counted)."""
        return sum(e.status in COVERED for e in self.entries)

    @property
    def in_edition(self) -> int:
        """Productions this edition can say: a production whose words the edition refuses everywhere (reputation,
        on a board without a track) is not in it, and not a gap of coverage."""
        return len(self.entries) - self.count(UNREACHABLE)

    @property
    def uncovered(self) -> tuple[ProductionCoverage, ...]:
        return tuple(e for e in self.entries if e.status not in COVERED and e.status != UNREACHABLE)

    def rules(self) -> dict[str, tuple[int, int]]:
        """Per rule (a slot): its alternatives covered, and its alternatives in all."""
        out: dict[str, list[int]] = {}
        for e in self.entries:
            n = out.setdefault(e.rule, [0, 0])
            n[0] += e.status in COVERED
            n[1] += 1
        return {rule: (a, b) for rule, (a, b) in out.items()}

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "seed": self.seed, "tries": self.tries, "games": self.games,
                "seconds": round(self.seconds, 1), "productions": len(self.entries), "in_edition": self.in_edition,
                "covered": self.covered,
                "mattered": self.count(MATTERED), "synonyms_covered": self.count(SYNONYM_COVERED),
                "within": self.count(WITHIN), "spellings": self.count(SPELLING),
                "synonyms": self.count(SYNONYM), "no_effect": self.count(NO_EFFECT),
                "not_spelled": self.count(NOT_SPELLED), "unreachable": self.count(UNREACHABLE),
                "refused": self.count(REFUSED), "refused_said": self.count(REFUSED_SAID),
                "rules": {r: {"covered": a, "alternatives": b} for r, (a, b) in self.rules().items()},
                "entries": [e.to_json() for e in self.entries]}

    def summary(self) -> str:
        """The figures, then every production not covered with its reason."""
        rules = self.rules()
        full = sum(a == b for a, b in rules.values())
        outside = self.count(UNREACHABLE)
        of = f"{self.covered}/{self.in_edition} productions of this edition covered ({outside} of the grammar's " \
             f"{len(self.entries)} not in it)" if outside else f"{self.covered}/{len(self.entries)} productions covered"
        lines = [f"coverage of the grammar ({self.edition}, seed {self.seed}, {self.tries} tries a production): "
                 f"{of} ({self.count(MATTERED)} mattered, "
                 f"{self.count(SYNONYM_COVERED)} synonyms of one that mattered, {self.count(WITHIN)} sole "
                 f"alternatives within one that mattered, {self.count(SPELLING)} of one reading in a text where "
                 f"it mattered, {self.count(REFUSED_SAID)} refused with the wording to use); {full}/{len(rules)} "
                 f"rules with "
                 f"every alternative covered; {self.games:,} games in {self.seconds:.0f} s",
                 f"  {self.count(SYNONYM)} synonyms of none that mattered, {self.count(NO_EFFECT)} spelled but "
                 f"never seen to matter, {self.count(NOT_SPELLED)} never spelled, {self.count(REFUSED)} refused by the "
                 f"checker with no wording to use; {outside} not in this edition"]
        # Then the rest by status; the productions there to be refused are shown too (covered by their refusal).
        for status in (NO_EFFECT, SYNONYM, NOT_SPELLED, REFUSED, UNREACHABLE, REFUSED_SAID):
            shown = [e for e in self.entries if e.status == status]
            if shown:
                lines.append(f"{status}:")
                lines += [f"  {e.production}: {e.why}" for e in shown]
        return "\n".join(lines)


# ------------------------------------------------------------------ the directed walk
@functools.cache
def _reach() -> dict[str, frozenset[str]]:
    """The rules each rule can spell, directly or further down."""
    g = _grammar()
    direct = {r: {n for a in alts for n, term in a.symbols if not term} for r, alts in g.alternatives.items()}
    reach = {r: set(d) for r, d in direct.items()}
    changed = True
    while changed:
        changed = False
        for known in reach.values():
            more = set().union(*(reach.get(n, set()) for n in known)) - known
            if more:
                known |= more
                changed = True
    return {r: frozenset(k) for r, k in reach.items()}


_TRIGGER_ONLY: frozenset[str] = frozenset()  # filled on first use: the rules only a trigger spells


def _trigger_only() -> frozenset[str]:
    global _TRIGGER_ONLY
    if not _TRIGGER_ONLY:
        reach = _reach()
        _TRIGGER_ONLY = frozenset(({"trigger"} | reach["trigger"]) - reach["effect"] - {"effect"})
    return _TRIGGER_ONLY


_BEFORE = {"binder": ("discard", "put", "play"), "done": tuple(k for k in _COUNTED if k != "move_reputation"),
           "space": ("move_reputation",)}
"""The actions a first step takes for a target that speaks of it: "it" and "its owner" need a character
named ("binder"), "one discarded" something done, "space moved" a move of reputation."""


def _before(target: Production, wanted: _Alt) -> str:
    """What the target needs a step before it to have done ("": nothing; "step": just be there)."""
    w, rule = wanted.words, target.rule
    if (rule in ("char_sel", "char_ref") and "it" in w) or (rule == "player" and "its" in w):
        return "binder"
    if wanted.alias == "count_spaces" and "moved" in w:
        return "space"
    if wanted.alias == "count_named_affected" and ("char_np", False) in wanted.symbols:
        return "binder"  # "for each character discarded": an earlier action on characters
    if wanted.alias in ("count_affected", "count_named_affected"):
        return "done"
    if wanted.alias in (*_INSTEAD, "you_did", "if_you_did_not") or rule == "consequence" or rule.startswith("__effect"):
        return "step"
    return ""


def _start_only() -> frozenset[str]:
    """The rules only a whole text spells (more abilities, blank lines): from ``start``, not from ``ability``."""
    reach = _reach()
    return frozenset(({"start"} | reach["start"]) - reach["ability"] - {"ability"})


class _Directed(_Speller):
    """``testing.texts``' walk drawn from seeded streams, one per node, steered toward a target production.

    Each node of the walk (a rule spelled at a path: ``/0/2/1``) draws its choice and its words
    from streams seeded by the path, and ``force`` replays chosen alternatives by path: so the
    same ability with one slot changed keeps everything else it can.
    """

    budget = 16  # terminals before every choice takes its cheapest alternative: short texts, fewer refusals
    boost_rare = False  # steered toward its target instead

    def __init__(self, words: dict[str, tuple[str, ...]], seed: int, target: Production | None,
                 force: dict[str, _Alt] | None = None, grammar_trigger: bool = False, pin: str | None = None,
                 relax: bool = False, own_kind: str = "") -> None:
        super().__init__(words, strict=True, own_kind=own_kind)
        self.pin = pin
        self.relax = relax
        self.seed = seed
        self.target = target
        self.force = dict(force or {})
        self.grammar_trigger = grammar_trigger
        self.reach = _reach()
        self.chosen: dict[str, _Alt] = {}
        self.allowed: dict[str, tuple[_Alt, ...]] = {}
        self.rules: dict[str, str] = {}
        self.hit: str | None = None  # the path where the target was spelled
        self._path = ""
        self._children = [0]
        self._rng = random.Random(seed)
        self._steps = 0  # steps spelled so far in this ability: "you did" speaks of an earlier one
        self._step = ""  # the form of the step before (an "instead" replaces a plain one)
        self._current = ""  # the form of the step being spelled
        self._modifiers: list[str] = []  # a trigger's modifiers so far (none twice)
        self._scored = ""  # the kind a scoring table counts (one kind in every row)
        self.spelled = ""  # the text, when the checker refused it
        self.instead = ""  # and the wording it says to use instead
        self.reputation = True  # the board has a reputation track (the checker is told so; else it refuses the word)
        self.backtracks = 0  # alternatives undone because their words dead-ended further down
        self._then_other = False  # a filter list takes "other than this" last: its first filter says where
        self._numbers: dict[str, int] = {}  # NUMBERs spelled so far at each path (a row's count is its second)

    # draws: from the current node's stream
    def _index(self, draw: Any, n: int) -> int:
        return self._rng.randrange(n)

    def _coin(self, draw: Any) -> bool:
        return self._rng.random() < 0.5

    def _one(self, draw: Any, words: Sequence[str]) -> str:
        return words[self._rng.randrange(len(words))]

    def _strategy(self, draw: Any, which: str) -> str:
        lists = self.lists[which]
        return self._one(draw, lists[self._rng.randrange(len(lists))])

    def _trigger(self, draw: Any, timing: str, loot: bool) -> list[str]:
        if not self.grammar_trigger:
            options = trigger_words(timing, loot)
            chosen = options[self._rng.randrange(len(options))]
            self._modifiers = list(chosen[2::2])
            return chosen
        out: list[str] = []
        self.spell(draw, "trigger", _Scope(timing, loot), out)
        return out

    def _terminal(self, draw: Any, name: str, rule: str, alt: _Alt, scope: _Scope) -> str:
        # What the checker asks of words the base walk draws freely (it retries until one passes).
        if name == "TIMING" and rule == "timing":  # a trigger spelled by the grammar: the walk's timing
            return scope.timing
        if name == "MODIFIER":  # one the checker takes with those before it (no repeat, no "first, last")
            combos = [set(ws[2::2]) for ws in trigger_words(scope.timing, scope.loot)]
            allowed = {w for c in combos for w in c if w not in self._modifiers and {*self._modifiers, w} <= c}
            if _ONCE in allowed and self._modifying():
                allowed = {_ONCE}  # the modifier that changes what a tile does at night: once for all its tokens
            word = self._one(draw, sorted(allowed) or self.words[name])
            self._modifiers.append(word)
            return word
        if name == "NUMBER" and (rule == "counts" or rule.startswith("__counts")):
            # How many the owner picks among several counts: small ones, which the places hold enough loot
            # for (a choice of "8 or 12" maps changes nothing where no one holds 8).
            return self._one(draw, _SMALL)
        if name == "NUMBER":
            nth = self._numbers.get(self._path, 0)
            self._numbers[self._path] = nth + 1
            if rule in _REACHED or alt.alias in _REACHED or (rule == "row" and nth == 0) \
                    or (alt.alias == "fixed_every" and nth == 1):
                # A count the places must reach ("2 or more characters", a table's "2 for 7", "1 doubloon for
                # every 2 maps"): small ones.
                return self._one(draw, _SMALL)
        if name == "NUMBER" and (rule in _AMOUNTS or rule == "row"):
            # Nothing given, taken, paid or scored ("gain 0 doubloons") hides whatever guards or names it.
            return self._one(draw, [w for w in self.words[name] if w != "0"] or self.words[name])
        if name == "KIND" and self.own_kind and (alt.alias in _WORTH or rule == "_worth_kind"):
            return self.own_kind  # a worth on a tile is its own token's, or its own kind's
        if name == "NOUN" and self._counts_named():
            return "character"  # "for each character discarded": what the earlier action acted on, all of it
        if name == "NOUN" and scope.acted_on and self._aiming(_ADJACENT):
            return "character"  # "a character adjacent to this one": the plain noun (the checker takes no name)
        if name in ("NOUN", "PILE") and self._naming_this(scope):
            # A phrase that may or may not name this card names it where it can: "character" (a name would
            # leave it out), and at night "your ship", where it stands.
            return "character" if name == "NOUN" else "ship"
        if name == "PREP" and alt.alias == "steal":
            return "from"
        if name == "UNIT" and rule in ("_set_worth", "_score_row"):
            return "doubloons"
        if name == "KIND" and rule in ("_set_worth", "_score_row"):
            self._scored = self._scored or super()._terminal(draw, name, rule, alt, scope)
            return self._scored
        return super()._terminal(draw, name, rule, alt, scope)

    def _modifying(self) -> bool:
        """Whether the walk spells a trigger's modifiers as its target, or as the sibling pinned in its slot."""
        if self.target is not None:
            return _modifying(self.target)
        alt = self.force.get(self.pin) if self.pin is not None else None
        rule = self.rules.get(self.pin or "")
        return alt is not None and rule is not None and alt in self.g.alternatives[rule] and _modifying(
            Production(rule, self.g.alternatives[rule].index(alt), ""))

    def _counts_named(self) -> bool:
        """Whether the walk spells the phrase of "for each character discarded", which the checker takes only as
        the plain noun (it counts all the earlier action acted on)."""
        parent = self.chosen.get(self._path.rpartition("/")[0]) if self._path else None
        return parent is not None and parent.alias == "count_named_affected" and self.rules.get(self._path) == "char_np"

    def _aiming(self, rules: tuple[str, ...]) -> bool:
        """Whether the walk is still on its way to a target of one of ``rules`` (or of a printed filter's)."""
        t = self.target
        return t is not None and self.hit is None and (t.rule in rules or (
            t.rule == "char_filter" and self.g.alternatives[t.rule][t.index].alias == "adjacent"))

    def _fits(self, rule: str, alt: _Alt) -> bool:
        """What the checker refuses that the base walk leaves to its retries: "you did" with nothing
        done before, "instead" after a step that is not plain."""
        if (rule == "cond" and alt.alias == "you_did") or alt.alias == "if_you_did_not":
            return self._steps > 0 and self._current not in _INSTEAD  # a replacing step has no "did" of its own
        if alt.alias in _INSTEAD:
            return self._step == "plain"
        return True

    def _choose(self, draw: Any, rule: str, alts: tuple[_Alt, ...], scope: _Scope) -> _Alt:
        target = self.target
        aimed = target is not None and (target.rule == "trigger" or target.rule.startswith("__trigger"))
        if rule == "trigger" and not aimed:
            # No modifier unless one is the target: a repeated one is refused, and they are words, not forms.
            alts = tuple(a for a in alts if not any(n.startswith("__trigger") for n, _ in a.symbols)) or alts
        if rule == "timing" and (target is None or target.rule != "timing" or self.hit is not None):
            # "use the sun ability of ...": the checker takes only the walk's own timing, which TIMING spells.
            alts = tuple(a for a in alts if a.symbols == (("TIMING", True),)) or alts
        if target is not None and self.hit is None:
            wanted = self.g.alternatives[target.rule][target.index]
            if rule == target.rule and wanted in alts:
                return wanted
            if self._aiming(_ADJACENT):
                # "adjacent to this one" filters what an action acts on, by day: steer to an action on a
                # character ("discard", "put", "play") and to "every character …" (a choice of one must
                # stand alone as its step, which the walk cannot promise).
                fitting = [a for a in alts if (rule == "action" and a.alias in ("discard", "put", "play"))
                           or (rule == "char_sel" and scope.argument and a.alias == "every")
                           or (rule == "step" and a.alias == "plain")]
                if fitting:
                    return fitting[self._rng.randrange(len(fitting))]
            if target.rule in ("char_np", "other_than_this"):
                steered = self._toward_this(rule, alts, scope)
                if steered is not None:
                    return steered
            if rule == "compared" and target.rule == "rival":
                # The rival's word agrees with the comparison's: "than" after more or fewer, "as" after
                # "at least as many" (the checker refuses the other).
                agreeing = [a for a in alts if ("least" in a.words) == ("as" in wanted.words)]
                if agreeing:
                    return agreeing[self._rng.randrange(len(agreeing))]
            before = _before(target, wanted)
            if before:  # a first step to speak of ("if you did", "... instead", "it", "one discarded")
                if rule == "effect":
                    alts = tuple(a for a in alts if len(a.symbols) > 1) or alts
                elif rule == "step" and self._steps == 0:
                    return next((a for a in alts if a.alias == "plain"), alts[0])
                elif rule == "action" and self._steps == 0 and before != "step":
                    fitting = [a for a in alts if _meaning(a) in _BEFORE[before]]
                    if fitting:
                        return fitting[self._rng.randrange(len(fitting))]
            toward = [a for a in alts if any(not term and (n == target.rule or target.rule in self.reach.get(n, ()))
                                             for n, term in a.symbols)]
            toward = self._unguarded(rule, toward, target)
            if rule == "action" and self._more_aimed():  # "each map you hold is worth 2 more doubloons"
                toward = [a for a in toward if a.alias == "worth_kind"] or toward
            if toward and self.budget == 0:  # the shortest walk: the shortest road toward the target
                toward = [a for a in toward if len(a.symbols) == min(len(b.symbols) for b in toward)]
                return toward[self._rng.randrange(len(toward))]
            if toward and self._rng.random() < 0.9:
                return toward[self._rng.randrange(len(toward))]
        worth = self._worth_choice(rule, alts, scope)
        if worth is not None:
            return worth
        if target is not None and self.hit is not None and self._naming_this(scope):
            steered = self._toward_this(rule, alts, scope)  # the rest of the phrase of an "a" or "another"
            if steered is not None:
                return steered
        if scope.spent >= self.budget and len(alts) > 1:
            # Past the budget the text must end, but not always the same way: among the shortest
            # alternatives (none spelling the rule again) the node's stream picks one, so the two arms of
            # an "if …; otherwise …" are not both "discard this", which would hide what the condition says.
            size = len(alts[0].symbols)
            short = [a for a in alts if len(a.symbols) == size and (rule, False) not in a.symbols]
            if len(short) > 1:
                return short[self._rng.randrange(len(short))]
        return super()._choose(draw, rule, alts, scope)

    def _unguarded(self, rule: str, toward: list[_Alt], target: Production) -> list[_Alt]:
        """The roads toward the target that set no condition of their own on it: a step guarded by "if …",
        "unless …" or "if you did not", or a consequence (each one is guarded), acts only where its guard holds,
        which the few focused positions may all fail, and then no sibling in the slot can change the day.  A
        target a condition spells stands alone in its condition (another one joined by "and" or "or" may decide
        it), and an ability whose card takes no loot at dusk never says what it took; a target that needs a
        step before it ("instead", "you did") keeps the guarded roads, and so does a walk with no other road."""
        wanted = self.g.alternatives[target.rule][target.index]
        if target.rule in _GUARDS or _before(target, wanted) == "step":
            return toward
        if rule in _CONDITION_LISTS:
            return [a for a in toward if len(a.symbols) == 1] or toward
        if target.rule not in self.reach["actions"]:  # only a condition spells it ("you just took a map")
            if rule == "ability" and wanted.alias in _TOOK:
                return [a for a in toward if a.alias != "instead_of_loot"] or toward
            return toward
        # An action can spell it (a place, a kind, a character phrase): the road with no guard of its own.
        bare = [a for a in toward if not any(not term and n in _GUARDS for n, term in a.symbols)]
        return bare or toward

    def _worth_choice(self, rule: str, alts: tuple[_Alt, ...], scope: _Scope) -> _Alt | None:
        """Inside a worth: "… is worth 3 doubloons" pays at the voyage's end for this card ("this is worth …"),
        and the worth of this card or token is what it pays, with none of its own to add "more" to (a walk on its
        way to a worth's "more" says it of a kind)."""
        fitting: list[_Alt] = []
        parent = self.chosen.get(self._path)
        if rule == "char_np" and parent is not None and parent.alias == "count_named_affected":
            fitting = [a for a in alts if a.symbols == (("NOUN", True),)]  # not a worth: "for each character discarded"
        elif rule == "char_sel" and scope.action == "worth_this":
            fitting = [a for a in alts if a.alias == "this"]
        elif rule == "_worth" and scope.action in ("worth_this", "worth_token"):
            fitting = [a for a in alts if ("_more", False) not in a.symbols]
        return fitting[self._rng.randrange(len(fitting))] if fitting else None

    def _worth(self, alt: _Alt, scope: _Scope) -> bool:
        """A worth of this token or of its kind, which the base walk never spells (whether it has one reading
        depends on the tile's kind): spelled at anchor on a tile whose kind the walk knows (it names that kind),
        or, of a kind and adding "more" (one reading: so much for each token held), on a character; by a walk
        on its way to it or replaying it (the other walks draw as they always did)."""
        if alt.alias not in ("worth_token", "worth_kind") or scope.timing != "anchor":
            return False
        on_tile = scope.loot and bool(self.own_kind)
        more = not scope.loot and alt.alias == "worth_kind" and (self._more_aimed() or self.pin is not None)
        return (on_tile or more) and (self._on_road(alt) or alt in self.force.values())

    def _more_aimed(self) -> bool:
        """Whether the walk is on its way to a worth's "more" ("… is worth 2 more doubloons")."""
        t = self.target
        return t is not None and self.hit is None and (
            t.rule == "_more" or ("_more", False) in self.g.alternatives[t.rule][t.index].symbols)

    def _on_road(self, alt: _Alt) -> bool:
        """Whether the walk is still on its way to its target and ``alt`` is it or spells its rule further down."""
        t = self.target
        if t is None or self.hit is not None:
            return False
        return alt is self.g.alternatives[t.rule][t.index] or any(
            not term and (n == t.rule or t.rule in self.reach.get(n, ())) for n, term in alt.symbols)

    def _this_phrase(self) -> str | None:
        """The path of the character phrase a this-or-not slot stands in (the target's, once spelled, or the
        pinned sibling's): its ``char_sel``, else the nearest ``char_np`` (None: no such slot)."""
        slot = self.pin if self.pin is not None else self.hit
        if slot is None:
            return None
        alt = self.chosen.get(slot) or self.force.get(slot)
        if alt is None or not any(alt in self.g.alternatives[r] for r in _THIS_OR_NOT):
            return None
        np, path = None, slot
        while path:
            rule = self.rules.get(path)
            if rule == "char_sel":
                return path
            if rule in _PHRASE_ENDS:
                break
            if rule == "char_np" and np is None:
                np = path
            path = path.rpartition("/")[0]
        return np

    def _naming_this(self, scope: _Scope) -> bool:
        """Whether the walk spells (or is on its way to) a character phrase whose slot says whether it can name
        this card: a character's text only (on a loot tile "this" is the token)."""
        if scope.loot:
            return False
        t = self.target
        if t is not None and self.hit is None and t.rule in ("char_np", "other_than_this"):
            return True  # the phrase's noun and first filter come before the slot
        phrase = self._this_phrase()
        return phrase is not None and (self._path == phrase or self._path.startswith(phrase + "/"))

    def _toward_this(self, rule: str, alts: tuple[_Alt, ...], scope: _Scope) -> _Alt | None:
        """The alternative that makes a character phrase name the place this card stands in at the text's
        timing (a filter list whose first filter is that place, "other than this" after it when that is the
        target), or None to choose as usual."""
        t = self.target
        assert t is not None
        wanted: list[_Alt] = []
        if rule == "char_np" and not scope.zone_used:
            wanted = [a for a in alts if ("__char_sel_star_12", False) in a.symbols
                      and (("OTHER", True) not in a.symbols or t.rule == "char_np")]
        elif rule == "__char_sel_star_12" and not scope.zone_used:
            if t.rule == "other_than_this" and self.hit is None and not self._then_other:
                wanted = [a for a in alts if a.symbols == (("__char_sel_star_12", False), ("other_than_this", False))]
                self._then_other = bool(wanted)
            else:
                wanted = [a for a in alts if a.symbols == (("char_filter", False),)]
                self._then_other = False
        elif rule == "char_filter" and not scope.zone_used:
            wanted = [a for a in alts if a.symbols == (("zone", False),)]
        elif rule == "place":
            stands = _STANDS.get(scope.timing)
            wanted = [a for a in alts if tuple(n for n, _ in a.symbols) == stands]
        return wanted[0] if wanted else None

    def spell(self, draw: Any, rule: str, scope: _Scope, out: list[str]) -> None:
        """Spell ``rule`` here; an alternative whose words dead-end further down is undone and another
        drawn (backtracking), so a walk that stood where nothing fits takes a road that does."""
        parent_rng, parent_path = self._rng, self._path
        path = f"{parent_path}/{self._children[-1]}"
        self._children[-1] += 1
        t = self.target
        aim = self.g.alternatives[rule][t.index] if t is not None and self.hit is None and rule == t.rule else None
        forced = self.force.get(path)
        alts = tuple(a for a in self.g.alternatives[rule] if (_allowed(rule, a, scope) or self._worth(a, scope))
                     and self._fits(rule, a)
                     and self._own_kind_fits(a) and (self.reputation or _REPUTATION not in a.words or a is aim)
                     and (a.alias != "this_token" or "once" not in self._modifiers))  # "once": no one token
        if forced is not None and forced not in alts and self.pin is not None and (
                path == self.pin or (self.pin.startswith(path + "/") and forced in self.g.alternatives[rule])):
            alts += (forced,)  # the slot's sibling, and the road to it the walk took (a relaxed one too)
        elif self.relax and t is not None and self.hit is None and rule == t.rule:
            wanted = self.g.alternatives[rule][t.index]
            if wanted not in alts and self._fits(rule, wanted):
                alts += (wanted,)
        elif self.relax and t is not None and self.hit is None and not any(self._on_road(a) for a in alts):
            # No road the steering allows here leads to the target (a printed variant the walk spells in its
            # canonical words, "don't take a loot"): the roads it would skip, for the checker to judge.
            alts += tuple(a for a in self.g.alternatives[rule] if a not in alts and self._on_road(a)
                          and self._fits(rule, a) and self._own_kind_fits(a))
        if not alts:
            raise _DeadEnd(rule)
        if rule == "action":
            self._scored = ""
        elif rule == "trigger":
            self._modifiers = []
        self._rng = random.Random(f"{self.seed}|{path}|choice")
        dead: _DeadEnd | None = None
        allowed = alts
        saved = (len(out), attrs.evolve(scope), self._steps, self._step, self._current, list(self._modifiers),
                 self._scored, self.hit, self.budget)
        while alts:
            alt = forced if forced is not None and forced in alts else self._choose(draw, rule, alts, scope)
            try:
                self._spell_at(draw, rule, alt, allowed, scope, out, path)
            except _DeadEnd as exc:
                self.backtracks += 1
                if self.backtracks > _BACKTRACKS:
                    raise
                dead = exc
                self._undo(path, saved, scope, out)
                alts = tuple(a for a in alts if a is not alt)
                self._rng = random.Random(f"{self.seed}|{path}|choice|{len(alts)}")
                continue
            finally:
                self._rng, self._path = parent_rng, parent_path
            break
        else:
            raise dead or _DeadEnd(rule)
        if rule in ("step", "consequence"):
            self._steps += 1
            self._step = "plain" if alt.alias == "plain" and rule == "step" else alt.alias or ""
        elif rule == "ability":
            self._steps, self._step = 0, ""

    def _spell_at(self, draw: Any, rule: str, alt: _Alt, allowed: tuple[_Alt, ...], scope: _Scope, out: list[str],
                  path: str) -> None:
        self.chosen[path], self.allowed[path], self.rules[path] = alt, allowed, rule
        t = self.target
        if t is not None and self.hit is None and rule == t.rule and alt is self.g.alternatives[t.rule][t.index]:
            self.hit = path
        slot = path in (self.hit, self.pin)
        entered = scope.spent
        if slot:
            # What follows the slot is drawn freely for a while: past the budget every choice is the
            # cheapest, and an ability whose arms are all "discard this" hides what the slot decides.
            self.budget = max(self.budget, scope.spent + _AFTER_SLOT)
        if rule in ("step", "consequence"):
            self._current = alt.alias or ""
        self._rng = random.Random(f"{self.seed}|{path}|words")
        self._path = path
        self._children.append(0)
        try:
            self._spell_alt(draw, rule, alt, scope, out)
        finally:
            self._children.pop()
        if slot:
            # The slot's own words are not counted against the budget: a sibling of more or fewer words
            # ("than each opponent" for "than every other player") leaves the rest of the text as it was,
            # so the pair differs in the slot alone.
            scope.spent = entered

    def _undo(self, path: str, saved: tuple[Any, ...], scope: _Scope, out: list[str]) -> None:
        """Forget an alternative that dead-ended: its words, its choices below ``path``, the walk's state."""
        n, old, self._steps, self._step, self._current, modifiers, self._scored, self.hit, self.budget = saved
        self._modifiers = list(modifiers)
        del out[n:]
        for f in attrs.fields(_Scope):
            setattr(scope, f.name, getattr(old, f.name))
        for known in (self.chosen, self.allowed, self.rules, self._numbers):
            for key in [k for k in known if k == path or k.startswith(path + "/")]:
                del known[key]


@attrs.frozen
class _Spelled:
    """An accepted ability, with the walk's choices (for spelling a sibling) and its role."""

    text: str
    loot: bool
    timing: str
    seed: int
    chosen: dict[str, _Alt] = attrs.field(hash=False)
    path: str  # where the target production was spelled
    allowed: tuple[_Alt, ...]  # the alternatives the walk allowed there
    grammar_trigger: bool


def _spell(rules: Rules, target: Production | None, seed: int, timing: str, loot: bool,
           force: dict[str, _Alt] | None = None, grammar_trigger: bool = False,
           root: str = _ROOT, pin: str | None = None, relax: bool = False,
           short: bool = False) -> tuple[str | None, _Directed, str]:
    """One ability (a whole text from ``root="start"``): its text if the checker accepts it (else
    None), the walk, and why not.  ``pin``: the path of the slot a sibling is spelled in (the walk
    after it is drawn as freely as after the target's, and its alternative is spelled even where the
    steering would not take it); ``relax``: the target likewise; ``short``: every choice not steered
    toward the target is the cheapest (a replay keeps it: its choices are forced)."""
    kind = _tile_kind(rules) if loot else ""  # the tile a loot text is played on: "this KIND" names its kind
    speller = _Directed(_words(rules, loot), seed, target, force, grammar_trigger, pin, relax, kind)
    speller.reputation = bool(rules.board.track_income)
    if short:
        speller.budget = 0
    out: list[str] = []
    try:
        speller.spell(None, root, _Scope(timing, loot), out)
    except _DeadEnd as exc:
        return None, speller, f"every alternative of {exc.args[0]} refused where the walk stood"
    if target is not None and speller.hit is None:
        return None, speller, "the walk did not reach it"
    if not _reads_as_spelled(out):
        return None, speller, "the lexer reads a word otherwise"
    text = _join(out).strip("\n")
    problem = text_problem(text, rules, loot=loot, names=() if loot else (MOD,), kind=kind)
    if problem is not None:
        speller.spelled = text
        speller.instead = problem.expected  # what the checker says to write instead ("": nothing)
        return None, speller, f"refused: {str(problem).splitlines()[0]}"
    return text, speller, ""


_CACHE: dict[tuple[Any, ...], Any] = {}
"""Per process, what each rules' texts are spelled and compiled with (by fingerprint): their words, the tile's kind."""


def _words(rules: Rules, loot: bool) -> dict[str, tuple[str, ...]]:
    """The words the walk draws from: the vocabulary, less reputation as a unit on a board without a track
    (the checker refuses it there; a production that names reputation is still spelled when it is the target)."""
    track = bool(rules.board.track_income)
    key = (rules.fingerprint, "words", loot, track)
    if key not in _CACHE:
        drawn = vocabulary(rules, names=() if loot else (MOD,))
        if not track:
            drawn = {**drawn, "UNIT": tuple(w for w in drawn["UNIT"] if w != _REPUTATION) or drawn["UNIT"]}
        _CACHE[key] = drawn
    words: dict[str, tuple[str, ...]] = _CACHE[key]
    return words


def _tile_kind(rules: Rules) -> str:
    """The loot kind a fuzzed tile replaces (the contract fuzzer's first choice)."""
    key = (rules.fingerprint, "kind", True)
    if key not in _CACHE:
        _CACHE[key] = _tile_kinds(rules)[0]
    kind: str = _CACHE[key]
    return kind


# ------------------------------------------------------------------ the text as a card or tile
@attrs.frozen
class _Card:
    """A spelled text compiled as the loader compiles it, and the rules that hold it."""

    text: str
    canonical: str
    rules: Rules
    feature: str  # the character's name or the tile's kind
    timing: str  # the first timing it has, in day order
    program: tuple[Any, ...] = attrs.field(eq=False, repr=False)  # what the engine runs: steps and scheduling

    def same_reading(self, other: _Card) -> bool:
        """One canonical wording, or one program (``than every other player`` and ``than any other player``
        keep their words in the tree, and compile alike): the engine cannot tell the two apart."""
        return self.canonical == other.canonical or self.program == other.program


def _card(base: Rules, text: str, loot: bool) -> _Card | None:
    names = frozenset([*(c.name for c in base.characters if "#" not in c.name), *(() if loot else (MOD,))])
    vocab = checker.Vocabulary(names, frozenset(base.kinds), bool(base.board.track_income),
                               len(base.board.track_income))
    kind = _tile_kind(base) if loot else ""
    try:
        abilities = singular_kinds(lalr.parse(text, "<text>", 0, 0, 0, None), vocab.kinds)
        abilities = worths(abilities, kind if loot else None)
        if loot:
            abilities = own_token(once_for_own_kind(abilities, kind), kind)
        checker.check(abilities, vocab, _report, loot=loot, kind=kind)
        compiled = tuple(compile_ability(a, _report, kinds=vocab.kinds) for a in abilities)
    except CardError:
        return None
    timing = next((t for t in _TIMINGS if any(c.timing == t for c in compiled)), "sun")
    program = _unworded(tuple((c.timing, c.last, c.once, c.first, c.early, c.passive, c.slots, c.steps)
                              for c in compiled))
    if loot:
        old = next(s for s in base.loot if s.kind == kind)
        tile = LootSpec(kind=kind, side=old.side, count=old.count, text=text, abilities=abilities, compiled=compiled)
        rules = attrs.evolve(base, loot=tuple(tile if s.kind == kind else s for s in base.loot))
        return _Card(text, render(abilities), rules, kind, timing, program)
    rank = _rank(base)
    spec = CharacterSpec(name=MOD, rank=rank, text=text, abilities=abilities, compiled=compiled,
                         takes_loot=not any(c.passive and c.timing == "dusk" for c in compiled))
    board = base.board
    if board.tie_break == "tie_breakers":  # printed tie-breakers: the mod card borrows its neighbour rank's
        below = max(r for r in board.tie_breakers if r < rank)
        board = attrs.evolve(board, tie_breakers={**board.tie_breakers, rank: board.tie_breakers[below]})
    rules = attrs.evolve(base, board=board, characters=_with(base.characters, [spec]))
    return _Card(text, render(abilities), rules, MOD, timing, program)


_WORDING = frozenset({"text", "labels"})
"""The fields of step records that carry words to show (the question a ``may`` asks, the options of a ``choose
one``), not what the step does."""


def _blank(words: Any) -> Any:
    if isinstance(words, str):
        return ""
    return tuple("" for _ in words) if isinstance(words, tuple) else words


def _unworded(value: Any) -> Any:
    """A program with the words it shows blanked: two spellings of one reading ask their ``may`` in their own
    words ("than each opponent", "than any other player"), and still do the same."""
    if isinstance(value, Record):
        return type(value)(*(_blank(getattr(value, name)) if name in _WORDING else _unworded(getattr(value, name))
                             for name in value.__node_names__))
    if isinstance(value, tuple):
        return tuple(_unworded(v) for v in value)
    if isinstance(value, frozenset):
        return frozenset(_unworded(v) for v in value)
    return value


def _rank(rules: Rules) -> float:
    """A rank in the middle of the deck that no card has (the island order around it then matters)."""
    ranks = sorted(c.rank for c in rules.characters if not c.neutral)
    taken = {c.rank for c in rules.characters}
    middle = ranks[len(ranks) // 2] + 0.5
    while middle in taken:
        middle += 0.25
    return middle


def _report(message: str, line: int, column: int, expected: str) -> CardError:
    return CardError(message, path="<text>", line=line, column=column, expected=expected)


# ------------------------------------------------------------------ positions and results
def _positions(card: _Card, seed: int, timing: str = "") -> list[tuple[str, FocusedPosition]]:
    """The focused positions a pair is played in (those the rules can build), one per variant, from the
    phase ``timing`` (the card's own by default)."""
    rules = card.rules
    out = []
    for variant in VARIANTS:
        rng = random.Random(_seed(seed, variant))
        players = 2 if variant == "2 players" else None
        try:
            position = focused_position(rules, players, [card.feature], rng=rng, phase=timing or card.timing)
            setup = _setup(rules, position, variant, rng)
        except ValueError:
            continue
        shown = variant if not timing or timing == card.timing else f"{variant}, from {timing}"
        out.append((shown, attrs.evolve(position, setup=setup)))
    return out


def _setup(rules: Rules, position: FocusedPosition, variant: str, rng: random.Random) -> dict[str, Any]:
    if variant in ("empty", "no bag", "last day"):
        return _vary(rules, position, variant, rng)
    setup: dict[str, Any] = _copy(position.setup)
    seats = setup["players"]
    board = rules.board
    if variant == "last voyage":
        setup["voyage"] = len(board.voyage_days)
        setup["day"] = min(setup["day"], board.voyage_days[-1])
    elif variant == "ties":
        coins = max(s.get("doubloons", 0) for s in seats)
        keep = min(len(s["loot"]) for s in seats)
        for s in seats:
            s["doubloons"] = coins
            s["loot"] = s["loot"][:keep]
    elif variant == "hoard":
        left = bag_left(rules, setup)
        you = seats[position.featured[0].seat or 0]  # a token of today's loot is nobody's yet: the first seat's
        you["loot"] = [*you.get("loot", ()), *(k for k in rules.kinds for _ in range(min(_HOARD, left[k] - 1)))]
    elif variant == "broke":  # the owner's purse empty ("if you have no doubloons", "fewer than 1 doubloon")
        seats[position.featured[0].seat or 0]["doubloons"] = 0
    elif variant == "left != right":
        you = position.featured[0].seat or 0  # a token of today's loot is nobody's yet
        n = len(seats)
        if n > 2:  # one neighbour rich, the other with nothing but its play
            rich, poor = seats[(you + 1) % n], seats[(you - 1) % n]
            rich["doubloons"] = rich.get("doubloons", 0) + 7
            poor["doubloons"] = 0
            poor["loot"], poor["ship"], poor["graveyard"] = [], [], []
    return setup


def _copy(value: Any) -> Any:
    import json

    return json.loads(json.dumps(value))


def _answer(seed: int, d: Decision) -> str:
    """The same answer to the same question: drawn from the question (who, what kind, which keys), not the game."""
    keys = d.keys()
    return keys[_seed(seed, d.player, d.kind, *keys) % len(keys)]


def _outcome(rules: Rules, position: FocusedPosition, seed: int) -> tuple[Any, ...] | None:
    """The state when the focus day ends (None: the game failed)."""
    try:
        game: Game = position.answer(new_game(rules, position.players, position.seed, setup=position.setup,
                                              log=False))
        day = (position.setup["voyage"], position.setup["day"])
        for _ in range(_DECISIONS):
            d = game.decision
            if d is None or (game.voyage, game.day) != day:
                break
            game = game.choose(_answer(seed, d))
        s = game.state
        return (game.voyage, game.day, s.seats, s.track, s.days, s.bag, s.island, s.aside, s.extra)
    except Exception:  # noqa: BLE001 - a failing game is the contract fuzzer's finding; here it compares nothing
        return None


# ------------------------------------------------------------------ one production
@attrs.frozen
class _Found:
    entry: ProductionCoverage
    credits: tuple[tuple[str, int, str], ...]  # (rule, index, why): siblings that mattered against it
    games: int
    within: tuple[tuple[str, int, str, str], ...] = ()  # (rule, index, label, why): spelled inside the slot


def _cover(rules: Rules, production: Production, seed: int, tries: int) -> _Found:
    """Spell ``production`` up to ``tries`` times and play each text against its siblings."""
    g = _grammar()
    alts = g.alternatives[production.rule]
    trigger = production.rule in _trigger_only()
    root = "start" if production.rule in _start_only() else _ROOT
    roles = [(t, loot) for loot in (False, True) for t in _TIMINGS if not (loot and t == "sun")]
    random.Random(_seed(seed, production.label, "roles")).shuffle(roles)
    reasons: Counter[str] = Counter()
    texts = pairs = games = 0
    synonyms = 0
    same_tree: dict[int, str] = {}  # sibling index -> two texts read alike (one tree or program)
    credits: list[tuple[str, int, str]] = []
    compared = 0  # texts played against a sibling: a text with none to compare is not a try
    blamed: dict[str, tuple[str, str]] = {}  # a refusal -> texts that show it is the production's (a sibling is
    # accepted), and the wording the checker says to use instead
    kept: list[tuple[_Directed, int, str, bool, _Card, int]] = []  # texts with it: walk, seed, timing, loot, card
    alike = 0  # synonym pairs played in every position and seen to end alike
    took = 0  # siblings spelled in its place that the checker accepted
    for attempt in range(tries * 8):
        if compared >= tries:
            break
        rng = random.Random(_seed(seed, production.label, attempt))
        timing, loot = roles[attempt % len(roles)]  # every timing, as a character and as a tile, in turn
        timing, loot = _role(production, timing, loot)
        for walk in range(_WALKS):  # a walk that ends where every alternative is refused is cheap: walk again
            walk_seed = rng.randrange(2**32)
            # The later walks may take the target where the walk's steering says the checker would refuse
            # it: the checker has the last word, and its reason is reported if it refuses.
            # The last walk is the shortest that reaches the target (no budget: every other choice its
            # cheapest), for forms the checker takes only standing alone ("take no loot").
            text, speller, why = _spell(rules, production, walk_seed, timing, loot, grammar_trigger=trigger,
                                        root=root, relax=walk >= _WALKS // 2, short=walk == _WALKS - 1)
            if text is not None:
                break
            reasons[why] += 1
            if why.startswith("refused: ") and speller.hit is not None and len(blamed) < _BLAME \
                    and why not in blamed:
                # Is the refusal the production's? The same walk with a sibling in its place is accepted.
                accepted = _sibling_accepted(rules, speller, walk_seed, timing, loot, trigger, root)
                if accepted:
                    blamed[why] = (f"{speller.spelled!r} is refused while {accepted!r} is accepted",
                                   speller.instead)
        if text is None:
            continue
        text = _pinned(rules, production, text, speller, walk_seed, timing, loot, trigger, root)
        card = _card(rules, text, loot)
        if card is None:
            reasons["refused when compiled"] += 1
            continue
        texts += 1
        if len(kept) < tries:
            kept.append((speller, walk_seed, timing, loot, card, attempt))
        assert speller.hit is not None
        path = speller.hit
        siblings = [a for a in speller.allowed[path] if a is not alts[production.index]]
        rng.shuffle(siblings)
        # Then the alternatives the walk's steering would not take there: the checker decides on each.
        rest = [a for a in alts if a not in speller.allowed[path]]
        rng.shuffle(rest)
        siblings += rest
        others: list[tuple[int, _Card]] = []
        for alt in siblings:
            if len(others) >= SIBLINGS:
                break
            force = {**speller.chosen, path: alt}
            other_text, replay, _ = _spell(rules, None, walk_seed, timing, loot, force, trigger, root, pin=path)
            if replay.chosen.get(path) is not alt:  # the sibling dead-ended there: the walk took another road
                continue
            other = _card(rules, other_text, loot) if other_text is not None and other_text != text else None
            if other is None:
                continue
            took += 1
            if other.same_reading(card):
                # Proof by play (a few pairs): one reading, one game.  Two games are not synonyms but a pair.
                proof = _first_difference(seed, production.label, attempt, card, [(alts.index(alt), other)]) \
                    if alike < tries else (None, "", 0, 0)
                games += proof[2]
                if proof[0] is None:
                    alike += proof[3] > 0
                    synonyms += 1
                    same_tree.setdefault(alts.index(alt), f"{card.text!r} and {other.text!r}")
                    continue
            others.append((alts.index(alt), other))
        if not others:
            reasons["no sibling spelled differently here"] += 1
            continue
        compared += 1
        # Played from the phase the text acts in, then from each sibling's own if it acts at another
        # ("at night" against "at the end of the voyage": each acts only from its own phase on).
        timings = [card.timing, *dict.fromkeys(o.timing for _, o in others if o.timing != card.timing)]
        for variant, position in [vp for t in timings for vp in _positions(card, _seed(
                seed, production.label, attempt, "position", *([t] if t != card.timing else [])), t)]:
            answers = _seed(seed, production.label, attempt, variant, "answers")
            mine = _outcome(card.rules, position, answers)
            games += 1
            if mine is None:
                continue
            for index, other in list(others):
                pairs += 1
                games += 1
                theirs = _outcome(other.rules, position, answers)
                if theirs is not None and theirs != mine:
                    why = f"{card.text!r} against {other.text!r} ({variant}, {position.players} players)"
                    credits.append((production.rule, index, why))
                    entry = ProductionCoverage(production.label, production.rule, production.index, MATTERED,
                                               texts, pairs, why, tuple(sorted(same_tree.items())))
                    # The slot's own parts (its alternative's symbols, one level down) were in what changed.
                    within = tuple((speller.rules[k], g.alternatives[speller.rules[k]].index(a), production.label, why)
                                   for k, a in speller.chosen.items() if k.rpartition("/")[0] == path)
                    return _Found(entry, tuple(credits), games, within)
        reasons["the siblings tried gave the same results"] += 1
    if texts == 0:
        status, why = _never_spelled(rules, production, seed, tries, roles, trigger, root, reasons, blamed)
        return _Found(ProductionCoverage(production.label, production.rule, production.index, status, 0, 0, why),
                      (), games)
    trees = tuple(sorted(same_tree.items()))
    # Every sibling spelled in its place refused: the only alternative there.
    alone = production.slot and pairs == 0 and synonyms == 0 and took == 0
    if (pairs == 0 and synonyms and alike) or (not production.slot and texts) or alone:
        # One reading whatever the spelling (or no sibling at all): covered where the text it is in mattered.
        why, n = _one_reading(rules, production, kept, trigger, root, seed, trees, alone)
        games += n
        if why:
            return _Found(ProductionCoverage(production.label, production.rule, production.index, SPELLING,
                                             texts, pairs, why, trees), (), games)
    return _Found(_not_seen(production, texts, pairs, synonyms, trees), tuple(credits), games)


def _pinned(rules: Rules, production: Production, text: str, speller: _Directed, walk_seed: int, timing: str,
            loot: bool, trigger: bool, root: str) -> str:
    """The text as its siblings are spelled: replayed pinned at the slot.  Only for a slot that may or may not name
    this card, whose phrase alone is steered to name this card's place, so the pair differs in the slot alone."""
    if production.rule not in _THIS_OR_NOT or loot:
        return text
    again, _, _ = _spell(rules, None, walk_seed, timing, loot, speller.chosen, trigger, root, pin=speller.hit)
    return again or text


def _one_reading(rules: Rules, production: Production, kept: list[tuple[_Directed, int, str, bool, _Card, int]],
                 trigger: bool, root: str, seed: int, trees: tuple[tuple[int, str], ...],
                 alone: bool = False) -> tuple[str, int]:
    """Why a spelling of one reading (or the only alternative of its rule) is covered ("": it is not seen to
    be): a text spelled with it whose day a slot above it changes (``_above``); and games played."""
    alts, games = _grammar().alternatives[production.rule], 0
    for speller, walk_seed, timing, loot, card, attempt in kept:
        why, n = _above(rules, production, speller, walk_seed, timing, loot, card, trigger, root, seed, attempt)
        games += n
        if why:
            shown = ", ".join(f"<{_spelling(alts[i], _grammar().words)}>" for i, _ in trees)
            what = ("the only alternative the checker accepts in its place (every sibling spelled there was "
                    "refused)" if alone else
                    f"every sibling spelled in its place ({shown}) read as it (one tree or one program) and "
                    "played alike"
                    if production.slot else "the only alternative of its rule")
            return f"{what}; {why}", games
    return "", games


def _not_seen(production: Production, texts: int, pairs: int, synonyms: int,
              trees: tuple[tuple[int, str], ...]) -> ProductionCoverage:
    """A production spelled but never seen to matter: a synonym of its siblings, or no effect seen."""
    if pairs == 0 and synonyms:
        return ProductionCoverage(production.label, production.rule, production.index, SYNONYM, texts, 0,
                                  "every sibling spelled here reads the same (one canonical wording or one program)",
                                  trees)
    if not production.slot:
        why = "a rule of one alternative: no sibling to compare with"
    elif pairs:
        why = f"{pairs} pairs played, {texts} texts: the day ended the same with each sibling tried"
    else:
        why = "no sibling spelled differently where it stood"
    return ProductionCoverage(production.label, production.rule, production.index, NO_EFFECT, texts, pairs, why,
                              trees)


def _first_difference(seed: int, label: str, attempt: int, card: _Card,
                      others: list[tuple[int, _Card]]) -> tuple[int | None, str, int, int]:
    """The first sibling whose day ends otherwise than ``card``'s in the pair's positions: (its index or None,
    the pair and position, games played, positions where both games ended)."""
    timings = [card.timing, *dict.fromkeys(o.timing for _, o in others if o.timing != card.timing)]
    games = played = 0
    for variant, position in [vp for t in timings for vp in _positions(card, _seed(
            seed, label, attempt, "position", *([t] if t != card.timing else [])), t)]:
        answers = _seed(seed, label, attempt, variant, "answers")
        mine = _outcome(card.rules, position, answers)
        games += 1
        if mine is None:
            continue
        for index, other in others:
            games += 1
            theirs = _outcome(other.rules, position, answers)
            if theirs is None:
                continue
            played += 1
            if theirs != mine:
                return index, f"{card.text!r} against {other.text!r} ({variant}, {position.players} players)", \
                    games, played
    return None, "", games, played


_ABOVE = 4
"""Slots above a spelling tried, nearest first, for one whose choice changes the text's day (a list's nested
items count once); then as many other slots of the text, nearest in the tree first."""


def _slots_near(speller: _Directed, production: Production) -> list[tuple[str, bool]]:
    """The slots of the text to try for a spelling: (path, above it), the slots above it nearest first, then
    the text's other slots by their distance in the tree (a spelling at the root, or inside a rule whose
    siblings read alike, as ``each`` in ``each night``, has its nearest slots beside or below it)."""
    g = _grammar()
    here, out, tried = speller.hit or "", [], [production.rule]
    path = here
    while path and len(tried) <= _ABOVE:
        path = path.rpartition("/")[0]
        rule = speller.rules.get(path)
        if rule is None or len(g.alternatives[rule]) < 2 or rule == tried[-1]:
            continue  # a list's items nest one in another: its nearest item stands for the list
        tried.append(rule)
        out.append((path, True))
    mine = here.split("/")

    def distance(p: str) -> int:
        theirs = p.split("/")
        common = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
                      min(len(mine), len(theirs)))
        return len(mine) + len(theirs) - 2 * common

    taken = {p for p, _ in out} | {here}
    others = sorted((p for p, rule in speller.rules.items()
                     if p not in taken and len(g.alternatives[rule]) > 1 and not here.startswith(p + "/")),
                    key=lambda p: (distance(p), p))
    return out + [(p, False) for p in others[:_ABOVE]]


def _above(rules: Rules, production: Production, speller: _Directed, walk_seed: int, timing: str, loot: bool,
           card: _Card, trigger: bool, root: str, seed: int, attempt: int) -> tuple[str, int]:
    """Whether the text spelled with ``production`` mattered: the nearest slot of the text (above it first, then
    beside or below it) that, given a sibling (of another reading), ends the day otherwise in some position.
    The pair and the slot ("": none), and games played."""
    g = _grammar()
    games = 0
    for path, above in _slots_near(speller, production):
        rule = speller.rules[path]
        chosen = speller.chosen[path]
        siblings = [a for a in g.alternatives[rule] if a is not chosen]
        random.Random(_seed(seed, production.label, attempt, "above", path)).shuffle(siblings)
        others: list[tuple[int, _Card]] = []
        for alt in siblings:
            if len(others) >= SIBLINGS:
                break
            text, replay, _ = _spell(rules, None, walk_seed, timing, loot, {**speller.chosen, path: alt}, trigger,
                                     root, pin=path)
            if text is None or replay.chosen.get(path) is not alt or text == card.text:
                continue
            if not _kept(speller, replay, path):
                continue  # the sibling's text lost the spelling: it proves nothing about it
            other = _card(rules, text, loot)
            if other is not None and not other.same_reading(card):
                others.append((g.alternatives[rule].index(alt), other))
        if not others:
            continue
        index, why, n, _ = _first_difference(seed, f"{production.label}|{path}", attempt, card, others)
        games += n
        if index is not None:
            where = "above it" if above else "beside it in its text"
            return f"the slot {where}, {rule} -> {_spelling(chosen, g.words)}, mattered in a text with it: {why}", \
                games
    return "", games


def _kept(speller: _Directed, replay: _Directed, path: str) -> bool:
    """Whether a text with another alternative at ``path`` still spells the production where ``speller`` did
    (always, for a slot above it: the sibling replaces the spelling's own text; a slot elsewhere keeps it)."""
    here = speller.hit or ""
    if here.startswith(path + "/"):
        return True
    return replay.chosen.get(here) is speller.chosen.get(here)


def _within(e: ProductionCoverage, inside: dict[tuple[str, int], tuple[str, str]]) -> ProductionCoverage:
    """The only alternative of its rule, spelled as a part of a slot that mattered, is covered by that slot;
    a synonym found there says so (but stays a synonym: only a sibling that mattered proves one)."""
    found = inside.get((e.rule, e.index))
    if found is None or e.status in COVERED:
        return e
    label, why = found
    if e.status == NO_EFFECT and not _grammar().alternatives[e.rule][1:]:
        return attrs.evolve(e, status=WITHIN, why=f"the only alternative of {e.rule}, spelled as a part of "
                                                  f"{label}, which mattered: {why}")
    if e.status == SYNONYM:
        return attrs.evolve(e, why=f"{e.why}; spelled as a part of {label}, which mattered")
    return e


def _proven_synonyms(entries: list[ProductionCoverage]) -> list[ProductionCoverage]:
    """A production not seen to matter whose text parsed to the same tree as the text with a sibling that
    mattered is that sibling's synonym: covered, with the two texts that prove it."""
    labels = {(e.rule, e.index): e.production for e in entries}
    mattered = {(e.rule, e.index) for e in entries if e.status == MATTERED}
    out = []
    for e in entries:
        proof = next(((i, texts) for i, texts in e.same_tree if (e.rule, i) in mattered), None)
        if e.status != MATTERED and proof is not None:
            sibling = labels.get((e.rule, proof[0]), f"{e.rule} alternative {proof[0]}")
            e = attrs.evolve(e, status=SYNONYM_COVERED,
                             why=f"synonym of {sibling}, which mattered: {proof[1]} read alike (one tree or "
                                 "one program)")
        out.append(e)
    return out


def _never_spelled(rules: Rules, production: Production, seed: int, tries: int, roles: list[tuple[str, bool]],
                   trigger: bool, root: str, reasons: Counter[str],
                   blamed: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """The status and reason of a production never spelled into an accepted text."""
    refusal = _edition_refusal(rules, production, seed, tries, roles, trigger, root)
    if refusal:
        return UNREACHABLE, refusal
    refusals = Counter({r: n for r, n in reasons.items() if r in blamed})
    if refusals:  # every text spelled with it was refused, and for its own sake at least once
        # The most common refusal that says what to write instead, else the most common: a production kept so
        # that the checker can refuse it is covered by that refusal when it gives the wording to use.
        said = [r for r, _ in refusals.most_common() if blamed[r][1]]
        reason = said[0] if said else refusals.most_common(1)[0][0]
        proof, instead = blamed[reason]
        why = (f"the checker refused every text spelled with it ({sum(reasons.values())} walks), for something in "
               f"its words: {reason.removeprefix('refused: ')} ({proof})")
        # A production there to be refused (coverage_refusals) is covered by that refusal: its own test holds here.
        shown = refusal_shown(rules, production.label, (MOD,)) if instead else ""
        if shown:
            return REFUSED_SAID, f"{why}; it says to write instead: {instead}; {shown}"
        if instead:
            return REFUSED, f"{why}; it says to write instead: {instead}, but it is not a production there to be " \
                            "refused (coverage_refusals): a form right elsewhere, which no accepted text spelled"
        return REFUSED, f"{why}; it gives no wording to use instead"
    return NOT_SPELLED, reasons.most_common(1)[0][0] if reasons else "not tried"


def _sibling_accepted(rules: Rules, speller: _Directed, seed: int, timing: str, loot: bool, trigger: bool,
                      root: str) -> str:
    """A text the checker accepts: the refused walk with another alternative in the target's place ("": none).
    Where every sibling spelled there is refused too (words kept only for the checker to refuse, as "today" in
    "you took a map today"), the nearest slot above it with another alternative: what refuses the text is
    then the target's rule itself."""
    g = _grammar()
    path = speller.hit
    assert path is not None
    refused = 0
    for alt in [a for a in g.alternatives[speller.rules[path]] if a is not speller.chosen[path]][:SIBLINGS]:
        text, replay, _ = _spell(rules, None, seed, timing, loot, {**speller.chosen, path: alt}, trigger, root,
                                 pin=path)
        if replay.chosen.get(path) is not alt:
            continue
        if text is not None:
            return text
        refused += 1
    above = path.rpartition("/")[0]
    while refused and above and len(g.alternatives[speller.rules.get(above, "start")]) < 2:
        above = above.rpartition("/")[0]
    if not refused or above not in speller.rules:
        return ""
    for alt in [a for a in g.alternatives[speller.rules[above]] if a is not speller.chosen[above]][:SIBLINGS]:
        text, replay, _ = _spell(rules, None, seed, timing, loot, {**speller.chosen, above: alt}, trigger, root,
                                 pin=above)
        if text is not None and replay.chosen.get(above) is alt:
            return text
    return ""


def _edition_refusal(rules: Rules, production: Production, seed: int, tries: int, roles: list[tuple[str, bool]],
                     trigger: bool, root: str) -> str:
    """Why this edition refuses a production never spelled in it ("": it does not, or it is not known):
    a text spelled with it that the checker accepts with the same cards and kinds on the reference
    edition's board, and refuses on this one's (the 2012 board has no reputation track)."""
    import json

    if rules.load_args.get("edition", _REFERENCE) == _REFERENCE:
        return ""
    board = _worker_rules(json.dumps({**rules.load_args, "edition": _REFERENCE}, sort_keys=True)).board
    elsewhere = attrs.evolve(rules, board=board)
    for attempt in range(tries * _EDITION_ATTEMPTS):
        rng = random.Random(_seed(seed, production.label, attempt, _REFERENCE))
        timing, loot = roles[attempt % len(roles)]
        for _ in range(_WALKS):
            walk_seed = rng.randrange(2**32)
            text, speller, _ = _spell(elsewhere, production, walk_seed, timing, loot, grammar_trigger=trigger,
                                      root=root)
            if text is None:
                continue
            problem = text_problem(text, rules, loot=loot, names=() if loot else (MOD,),
                                   kind=_tile_kind(rules) if loot else "")
            if problem is None:
                return ""  # this edition takes it too: not spelled here by chance, not refused
            accepted = _sibling_accepted(rules, speller, walk_seed, timing, loot, trigger, root)
            if not accepted:
                continue  # refused here for another part of the text: not evidence about this production
            return (f"the checker refuses {text!r} in this edition ({str(problem).splitlines()[0]}), and accepts it "
                    f"with the same cards and kinds on the {_REFERENCE} board, and {accepted!r} (a sibling in its "
                    f"place) in this edition")
    return ""


def _role(production: Production, timing: str, loot: bool) -> tuple[str, bool]:
    """The timing and role (a tile or not) a production is spelled in, given the attempt's turn of them."""
    alt = _grammar().alternatives[production.rule][production.index]
    if production.rule == "timing":  # the effect is spelled for the timing the trigger's words name
        return _named_timing(alt, timing, loot), loot
    if alt.alias in _WORTH:
        # A worth is paid at the voyage's end: of this card on a character, of this token or its kind on a tile.
        return "anchor", alt.alias != "worth_this"
    if _modifying(production):
        return "moon", True  # a tile fires each night once per token held, and once for all of them with "once"
    if production.rule in _worth_only():
        # The words only a worth says ("more", "each map you hold") are paid at anchor: a worth that adds "more"
        # on a character (on a tile it would be paid again for each token), the others on the tile of the kind.
        return "anchor", not (production.rule == "_more" or ("_more", False) in alt.symbols)
    return timing, loot


def _modifying(production: Production) -> bool:
    """Whether a production spells a trigger's modifiers (``, once``, ``, last``): they change what an ability
    does only where it fires more than once or others wait with it, so its text is a tile's night ability, whose
    first modifier is ``once`` (it fires once per token held, and once in all with it)."""
    g = _grammar()
    star = {r for r, alts in g.alternatives.items() if any(("MODIFIER", True) in a.symbols for a in alts)}
    alt = g.alternatives[production.rule][production.index]
    return production.rule in star or any(not term and n in star for n, term in alt.symbols)


@functools.cache
def _worth_only() -> frozenset[str]:
    """The rules only a worth spells ("is worth 2 more doubloons", "each map you hold"): those a text reaches
    through a ``_WORTH`` alternative and through no other road."""
    g = _grammar()

    def reached(worths: bool) -> set[str]:
        seen, todo = {"start"}, ["start"]
        while todo:
            for alt in g.alternatives.get(todo.pop(), ()):
                if alt.alias in _WORTH and not worths:
                    continue
                for n, term in alt.symbols:
                    if not term and n not in seen:
                        seen.add(n)
                        todo.append(n)
        return seen

    return frozenset(reached(True) - reached(False))


def _named_timing(alt: _Alt, timing: str, loot: bool) -> str:
    """The timing a ``timing`` alternative's words name ("day": sun, "night": moon, "... voyage": anchor)."""
    words = alt.words
    named = "sun" if "day" in words else "moon" if "night" in words else "anchor" if "voyage" in words else timing
    return "dusk" if loot and named == "sun" else named


def _cover_task(task: tuple[str, list[Production], int, int]) -> list[_Found]:
    args, chunk, seed, tries = task
    rules = _worker_rules(args)
    return [_cover(rules, p, seed, tries) for p in chunk]


# ------------------------------------------------------------------ the run
def coverage(rules: Rules, *, seed: int = 0, tries: int = 3, jobs: int = 1, only: Sequence[str] = (),
             progress: Callable[[int], None] | None = None) -> CoverageReport:
    """Which productions of the grammar were seen to matter (see the module docstring).

    Each production is spelled into up to ``tries`` accepted texts, each played against up to
    ``SIBLINGS`` siblings in every position of ``VARIANTS`` until a pair differs.  A sibling that
    mattered against a production is covered by the same pair.  ``only`` limits the run to the
    productions of these rules.  ``rules`` come from ``load_rules``.
    """
    if not rules.load_args:
        raise ValueError("coverage plays texts in the rules as loaded: give rules made by load_rules")
    if rules.uncharted:
        raise ValueError("run coverage with fixed loot sides (not loot='uncharted'): a tile replaces one side")
    started = time.perf_counter()
    wanted = [p for p in productions() if not only or p.rule in only]
    args = _args_json(rules)
    from .fuzz import _WORKER_LOCK, _WORKER_RULES

    with _WORKER_LOCK:
        _WORKER_RULES.setdefault(args, rules)
    size = 8
    tasks = [(args, wanted[i:i + size], seed, tries) for i in range(0, len(wanted), size)]
    found: list[_Found] = []
    for chunk in _map(_cover_task, tasks, jobs, progress=progress, sizes=[len(t[1]) for t in tasks]):
        found += chunk
    credited = {(rule, index): why for f in found for rule, index, why in f.credits}
    entries = []
    for f in found:
        e = f.entry
        if e.status != MATTERED and (e.rule, e.index) in credited:
            e = attrs.evolve(e, status=MATTERED, why=f"as the sibling in {credited[e.rule, e.index]}")
        entries.append(e)
    edition = str(rules.load_args.get("edition", rules.board.title))
    inside: dict[tuple[str, int], tuple[str, str]] = {}
    for f in found:
        for rule, index, label, why in f.within:
            inside.setdefault((rule, index), (label, why))
    entries = _proven_synonyms([_within(e, inside) for e in entries])
    return CoverageReport(edition, seed, tries, tuple(entries), sum(f.games for f in found),
                          time.perf_counter() - started)
