"""Card texts as hypothesis strategies, spelled from the grammar file and the rules' own words.

``card_texts(rules)`` yields texts a card file may hold: each parses, passes the checker and
compiles, so a property about *what cards do* never wastes an example on a refused text.
``spelled_texts(rules)`` yields whatever the grammar spells, with a stray name and loot kind
now and then, so that the checker's refusals get exercised too.  Both walk the rules of
``grammar/libertalia.lark`` as the file has them (a new word or form is picked up without a
change here); ``card_texts`` also steers the walk away from what the checker is known to
refuse at a timing (the island at night, ``it`` before anything was picked, ...) and keeps only
abilities that really check clean.  Choices shrink toward the cheapest alternative, so a
failing text shrinks toward a short one.

hypothesis is imported when a strategy is made or drawn from, not with this module, like
``strategies``: ``text_problem`` and ``vocabulary`` work without it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import attrs

from .. import _paths
from ..engine.specs import Rules
from ..errors import CardError, WordingError
from ..language import checker
from ..language.compile import compile_ability
from ..language.normalise import once_for_own_kind, own_token, singular_kinds, worths
from ..language.parser import parse
from ..language.query import extra_counts, kinds_scored_in_sets

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

__all__ = ["card_texts", "spelled_texts", "text_problem", "vocabulary"]

NUMBERS = ("1", "2", "3", "0", "4", "5", "6", "8", "10", "12", "20", "41")
"""The numbers texts use: small ones first (what a failing text shrinks to), and one above every rank."""
STRAY_NAME, STRAY_KIND = "Kraken", "goods"
"""A name and a loot kind no bundled edition has: ``spelled_texts`` mixes them in, for the checker to refuse."""
_OPEN_CLASSES = ("NOUN", "NAME", "KIND", "NUMBER")  # terminals whose words come from the rules
_BUDGET = 30  # terminals per ability before every choice takes its cheapest alternative
_TRIES = 25  # abilities spelled before ``card_texts`` gives up on an example (rare: see the tests)
_TIMINGS = ("sun", "dusk", "moon", "anchor")
_ISLAND = ("sun", "dusk")  # the timings at which characters stand on the island and today's loot is out


# ---------------------------------------------------------------- the grammar, read once
@attrs.frozen
class _Alt:
    """One alternative of a rule as lark compiles it: its symbols, alias and literal words."""

    symbols: tuple[tuple[str, bool], ...]  # (name, is a terminal)
    alias: str | None
    words: frozenset[str]


@attrs.frozen
class _Grammar:
    alternatives: dict[str, tuple[_Alt, ...]]  # by rule name, cheapest first (fewest terminals)
    words: dict[str, tuple[str, ...]]  # the fixed words of each terminal (open classes: their plain words)
    ignored: frozenset[str]


@functools.cache
def _grammar() -> _Grammar:
    """The grammar file's rules, compiled by lark: the same file the parser is built from."""
    from lark import Lark

    lark = Lark(_paths.grammar_path().read_text(encoding="utf-8"), parser="lalr")
    terminals, rules, ignored = lark.grammar.compile(["start"], ())
    words: dict[str, tuple[str, ...]] = {}
    for t in terminals:
        if t.pattern.type == "str":
            words[t.name] = (t.pattern.value,)
        else:
            words[t.name] = tuple(w for w in _alternatives(t.pattern.value) if w is not None)
            if len(words[t.name]) < len(_alternatives(t.pattern.value)) and t.name not in _OPEN_CLASSES \
                    and t.name not in ignored and t.name != "_NL":
                raise ValueError(f"the grammar's terminal {t.name} is a pattern, not a list of words: "
                                 "libertalia.testing.texts does not know what to spell for it")
    alternatives: dict[str, list[_Alt]] = {}
    for r in rules:
        symbols = tuple((s.name, s.is_term) for s in r.expansion)
        literal = frozenset(words[n][0] for n, term in symbols if term and len(words.get(n, ())) == 1)
        alternatives.setdefault(r.origin.name, []).append(_Alt(symbols, r.alias, literal))
    declared = {n for alts in alternatives.values() for a in alts for n, term in a.symbols if term} - set(words)
    for name in declared:  # terminals the word lexer makes (%declare): OR_IF is "or", _DOT_JOIN "."
        words[name] = (_DECLARED.get(name) or name.strip("_").split("_")[0].lower(),)
    cost = _costs(alternatives)
    ordered = {name: tuple(sorted(alts, key=lambda a: _alt_cost(a, cost))) for name, alts in alternatives.items()}
    return _Grammar(ordered, words, frozenset(ignored))


_DECLARED = {"_DOT_JOIN": ".", "_SEMI_JOIN": ";", "_AND_JOIN": "and", "_ELSE": ";", "_COMMA_OR": ",",
             "_AND_KIND": "and", "_COMMA_AND": ",", "_INSTEAD_OF": "instead", "_SEMI_ROW": ";",
             "_INSTEAD_LAST": "instead", "_COMMA_OTHER": ",", "_COMMA_UP": ",",
             "_COMMA_ROUND": ","}
"""How the word lexer's own terminals are written (``language.lexer``): a mark or a word it reads by context."""


def _alternatives(regex: str) -> list[str | None]:
    """The top-level alternatives of a terminal's regex: plain words, or None for a real pattern."""
    body = regex[3:-1] if regex.startswith("(?:") and regex.endswith(")") else regex
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch == "(" and (i == 0 or body[i - 1] != "\\"):
            depth += 1
        elif ch == ")" and body[i - 1] != "\\":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    out: list[str | None] = []
    for part in parts:
        word = part.replace("\\", "")
        out.append(word if re.fullmatch(r"[a-z][a-z' -]*", word) and not re.search(r"[\[\]*+?]", part) else None)
    return out


def _costs(alternatives: dict[str, list[_Alt]]) -> dict[str, int]:
    """The fewest terminals each rule can be spelled with (a fixed point over the rules)."""
    cost: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for name, alts in alternatives.items():
            best = min((_alt_cost(a, cost) for a in alts), default=10**9)
            if best < cost.get(name, 10**9):
                cost[name] = best
                changed = True
    return cost


def _alt_cost(alt: _Alt, cost: dict[str, int]) -> int:
    return sum(1 if term else cost.get(name, 10**9) for name, term in alt.symbols)


# ---------------------------------------------------------------- the words
def scored_kinds(rules: Rules) -> set[str]:
    """The kinds every game of ``rules`` scores in sets (its characters, or every side of the kind's tile)."""
    by_characters = kinds_scored_in_sets(a for c in rules.characters for a in c.abilities)
    sides: dict[str, list[bool]] = {}
    tiles = [*rules.loot, *(t for alts in rules.uncharted.values() for t in alts), *rules.solo_loot.values()]
    for tile in tiles:
        sides.setdefault(tile.kind, []).append(tile.kind in kinds_scored_in_sets(tile.abilities))
    return by_characters | {kind for kind, scored in sides.items() if all(scored)}


def vocabulary(rules: Rules, *, names: Iterable[str] = (), strays: bool = False) -> dict[str, tuple[str, ...]]:
    """The words each terminal of the grammar may take under ``rules``.

    Card names (``NOUN``, ``NAME``) are the rules' characters plus ``names`` (a mod card's own
    name, say), loot kinds the board's, numbers ``NUMBERS``; with ``strays``, a name and a
    kind that no edition has.
    """
    g = _grammar()
    known_names = tuple(dict.fromkeys([*(c.name for c in rules.characters if "#" not in c.name), *names]))
    kinds = tuple(rules.kinds)
    if strays:
        known_names, kinds = (*known_names, STRAY_NAME), (*kinds, STRAY_KIND)
    out: dict[str, tuple[str, ...]] = {}
    for name, fixed in g.words.items():
        if name in g.ignored:
            continue
        if name == "_NL":
            out[name] = ("\n",)
        elif name in ("NOUN", "NAME"):
            out[name] = (*fixed, *known_names)
        elif name == "KIND":
            out[name] = kinds
            out["SCORED_KIND"] = tuple(k for k in kinds if k in scored_kinds(rules)) or kinds
            out["PLURAL_KIND"] = tuple(k if k.endswith("s") else k + "s" for k in kinds)  # "more relics than"
        elif name == "NUMBER":
            out[name] = NUMBERS
        else:
            out[name] = fixed
    return out


def text_problem(text: str, rules: Rules, *, loot: bool = False, names: Iterable[str] = (),
                 kind: str = "") -> CardError | None:
    """Why ``text`` would be refused as a card's text under ``rules`` (None: it loads).

    The steps ``load_rules`` and ``libertalia cards check`` take for a text: parse, check
    against the rules' names (plus ``names``) and kinds, compile, and look for a loop with the
    rules' cards (``language.loops``; a loot text as a tile of every kind at once, or of ``kind``'s tile, where
    "this relic" must name the tile's own kind, when it is given).  Parsed without the parse
    cache, so that thousands of generated texts never reach the user's cache folder.
    """
    from ..language import lalr, loops

    names = tuple(names)
    vocab = checker.Vocabulary(frozenset([*(c.name for c in rules.characters if "#" not in c.name), *names]),
                               frozenset(rules.kinds), bool(rules.board.track_income),
                               len(rules.board.track_income))
    try:
        abilities = singular_kinds(lalr.parse(text, "<text>", 0, 0, 0, None), vocab.kinds)
        if not loot:
            abilities = worths(abilities, None)
        elif kind:  # as the loader reads a tile's text (E34; "this token" is the tile's own kind)
            abilities = own_token(once_for_own_kind(worths(abilities, kind), kind), kind)
        # else: a loot text is every kind's tile at once, so a worth of its own kind stays unsettled
        checker.check(abilities, vocab, _report, loot=loot, kind=kind)
        for ability in abilities:
            compile_ability(ability, _report, kinds=vocab.kinds)
        # A loot text may become any kind's tile, that kind's own included: then only the characters
        # and the text itself are sure to score a kind in sets.
        ground = kinds_scored_in_sets(a for c in rules.characters for a in c.abilities) if loot else \
            scored_kinds(rules)
        scored = ground | kinds_scored_in_sets(abilities)
        for extra in extra_counts(abilities):
            if extra.kind not in scored:
                raise _report(f'"count {extra.n} extra {extra.kind}": no ability scores {extra.kind} in sets',
                              extra.line, extra.column, "a kind scored in sets")
    except CardError as exc:
        return exc
    # A text that would close a loop with the rules' cards is refused when they load with it.
    tiles = [*rules.loot, *(t for alts in rules.uncharted.values() for t in alts), *rules.solo_loot.values()]
    return loops.text_problem(abilities, rules.characters, tiles, loot=loot, name=names[0] if names else "<text>")


def _report(message: str, line: int, column: int, expected: str) -> CardError:
    return CardError(message, path="<text>", line=line, column=column, expected=expected)


# ---------------------------------------------------------------- the walk
class _DeadEnd(Exception):
    """Every alternative of a rule is refused where the walk stands: spell another ability."""


@attrs.define
class _Scope:
    """Where the walk stands, for steering it away from what the checker refuses."""

    timing: str
    loot: bool
    bound: bool = False  # an earlier action discarded, put, played or named a character: "it" means it
    step_bound: bool = False  # ... at the start of this step (the checker reads conditions there)
    action: str | None = None  # the innermost action's form
    cond: str | None = None  # the innermost condition's form
    zone_used: bool = False  # this character phrase already says where
    yours: bool = False  # "you have … characters": the phrase must say which of your piles, first
    random_loot: bool = False  # "a random loot ...": it comes from the bag
    losing: bool = False  # the amount is lost: a fixed amount or half, nothing else
    binds: bool = False  # this action's subject is "the owner of ...", which names a character
    recipient: bool = False  # spelling whom loot is given to: one player
    plural: bool = False  # a counted "there are 2 or more characters ...": the noun may be plural
    one_count: bool = False  # a loot count without "of one kind": one number
    swapped: frozenset[str] | None = None  # a swap's first place: the second must differ
    done: frozenset[str] = frozenset()  # the verbs "one <verb>" can count here ("returned", ...), "space" once moved
    spent: int = 0  # terminals spelled in this ability
    # Whose side phrases are read from: "" the owner's, "clause" a player a clause is about ("who has a
    # character in their ship"), "acting" a player acting for themselves ("discards a character from their hand").
    side: str = ""
    acted: bool = False  # the acting player is named: what follows is theirs ("their hand", "they hold")
    plural_kinds: bool = False  # a comparison's kinds: plurals ("relics")
    connective: str = ""  # the word a comparison's rivals follow: "than" (more, fewer) or "as" (at least as many)
    counting: bool = False  # inside a counter ("for each character …"): what is counted, not acted on
    argument: bool = False  # an action was just entered: a character phrase spelled now is what it acts on
    acted_on: bool = False  # this character phrase is what an action acts on ("discard a character …")
    filtered: str = ""  # this character phrase's filters so far: "adjacent" ("adjacent to this one"), "other"
    amount_after: bool = False  # the step's actions come before ", or AMOUNT if …": one gain or lose


class _Speller:
    """Spells a rule of the grammar with hypothesis' ``draw``; ``strict`` steers toward checkable texts."""

    budget = _BUDGET
    boost_rare = True  # draw the character only a loot tile at dusk names more often (a directed walk aims itself)

    def __init__(self, words: dict[str, tuple[str, ...]], strict: bool, own_kind: str = "") -> None:
        self.g = _grammar()
        self.words = words
        self.strict = strict
        # The loot tile's own kind, when the walk knows which tile it spells for: "this relic" names the
        # tile's own token, so "this KIND" is spelled with that kind; with no kind known, "this token" only.
        self.own_kind = own_kind
        names = tuple(w for w in words["NOUN"] if w[:1].isupper())
        plain = tuple(w for w in words["NOUN"] if not w[:1].isupper())
        singular = tuple(w for w in plain if w != "characters") or plain
        # The nouns and names to draw from: a list, then a word of it ("names" alone when no name is known).
        self.lists: dict[str, tuple[tuple[str, ...], ...]] = {
            "nouns": (plain, names) if names else (plain,),
            "singular": (singular, names) if names else (singular,),
            "names": (names or plain,)}

    @functools.cached_property
    def nouns(self) -> SearchStrategy[str]:
        return self._drawn("nouns")

    @functools.cached_property
    def singular(self) -> SearchStrategy[str]:
        return self._drawn("singular")

    @functools.cached_property
    def names(self) -> SearchStrategy[str]:
        return self._drawn("names")

    def _drawn(self, which: str) -> SearchStrategy[str]:
        from hypothesis import strategies as st

        lists = self.lists[which]
        return st.one_of(*(st.sampled_from(ws) for ws in lists)) if len(lists) > 1 else st.sampled_from(lists[0])

    # The draws, one method each, so that a speller driven by something other than hypothesis
    # (``contracts.coverage``: a seeded ``random.Random``) can spell through the same walk.
    def _index(self, draw: DrawFn, n: int) -> int:
        from hypothesis import strategies as st

        return draw(st.integers(0, n - 1))

    def _coin(self, draw: DrawFn) -> bool:
        from hypothesis import strategies as st

        return draw(st.booleans())

    def _one(self, draw: DrawFn, words: Sequence[str]) -> str:
        from hypothesis import strategies as st

        return draw(st.sampled_from(words))

    def _strategy(self, draw: DrawFn, which: str) -> str:
        """A noun or a name: ``which`` is ``"nouns"``, ``"singular"`` or ``"names"`` (see ``lists``)."""
        word: str = draw(getattr(self, which))
        return word

    def _trigger(self, draw: DrawFn, timing: str, loot: bool) -> list[str]:
        return draw(_triggers(timing, loot))

    def _choose(self, draw: DrawFn, rule: str, alts: tuple[_Alt, ...], scope: _Scope) -> _Alt:
        """The alternative of ``rule`` to spell, among those the walk allows here."""
        # Past the budget every rule takes its cheapest alternative (the first), so the text ends.
        alt = alts[0] if scope.spent >= self.budget or len(alts) == 1 else alts[self._index(draw, len(alts))]
        if self.strict and rule == "counter" and alt.alias != "count_affected" and scope.done - {"space"} \
                and self._coin(draw):
            # As on printed cards, a count after an action that moved things most often counts those.
            alt = next(a for a in alts if a.alias == "count_affected")
        timed = _TIMED_CONDITIONS.get(scope.timing)
        if self.strict and rule == "cond" and scope.spent < self.budget and alt.alias != timed \
                and self._index(draw, 6) == 0:
            # A condition only one timing has is drawn at that timing as often as the others are in all.
            alt = next((a for a in alts if a.alias == timed), alt)
        if self.strict and self.boost_rare and rule == "char_sel" and scope.loot and scope.timing == "dusk" \
                and alt.alias != "taker" and scope.spent < self.budget and self._index(draw, 6) == 0:
            # Likewise the character only a loot tile at dusk has, among many ways to name a character.
            alt = next((a for a in alts if a.alias == "taker"), alt)
        timed_action = _TIMED_ACTIONS.get(scope.timing)
        if self.strict and self.boost_rare and rule == "action" and timed_action is not None \
                and alt.alias != timed_action and scope.spent < self.budget and self._index(draw, 12) == 0:
            # Likewise an action only one timing may say (a worth, paid at the voyage's end), among many actions.
            alt = next((a for a in alts if a.alias == timed_action), alt)
        return alt

    def _own_kind_fits(self, alt: _Alt) -> bool:
        """``this KIND`` names the tile's own kind: spelled only where the walk knows that kind."""
        return bool(self.own_kind) or alt.alias != "this_token" or ("KIND", True) not in alt.symbols

    def spell(self, draw: DrawFn, rule: str, scope: _Scope, out: list[str]) -> None:
        alts = self.g.alternatives[rule]
        if self.strict:
            alts = tuple(a for a in alts if _allowed(rule, a, scope) and self._own_kind_fits(a))
            if not alts:
                raise _DeadEnd(rule)
        alt = self._choose(draw, rule, alts, scope)
        self._spell_alt(draw, rule, alt, scope, out)

    def _spell_alt(self, draw: DrawFn, rule: str, alt: _Alt, scope: _Scope, out: list[str]) -> None:
        saved = attrs.evolve(scope)
        self._enter(rule, alt, scope)
        symbols = alt.symbols
        if self.strict and symbols and symbols[0][0] == "PREP" and len(symbols) > 1:
            # The preposition depends on the place after it ("on the island", "from the bag").
            rest: list[str] = []
            self._symbols(draw, symbols[1:], rule, alt, scope, rest)
            out.append(self._one(draw, _prepositions(rest, self.words["PREP"])))
            out.extend(rest)
        else:
            self._symbols(draw, symbols, rule, alt, scope, out)
        self._leave(rule, alt, scope, saved)

    def _symbols(self, draw: DrawFn, symbols: Sequence[tuple[str, bool]], rule: str, alt: _Alt, scope: _Scope,
                 out: list[str]) -> None:
        for name, term in symbols:
            if term:
                word = self._terminal(draw, name, rule, alt, scope)
                out.append(_ReadByContext(word, name) if name in _NOT_BEFORE else word)
                scope.spent += 1
            elif name == "trigger" and self.strict:
                out.extend(self._trigger(draw, scope.timing, scope.loot))
            else:
                self.spell(draw, name, scope, out)

    def _terminal(self, draw: DrawFn, name: str, rule: str, alt: _Alt, scope: _Scope) -> str:
        words = self.words[name]
        if name == "NOUN":
            if self.strict and alt.alias == "take_from_hand":
                return "character"  # a card drawn from a hand unseen: any character
            if self.strict and scope.cond == "is_a":
                return self._strategy(draw, "names")
            return self._strategy(draw, "nouns" if not self.strict or scope.plural else "singular")
        if self.strict and name == "TIMING" and (rule == "trigger" or alt.alias == "use_ability"):
            return scope.timing
        if self.strict and name == "KIND" and alt.alias == "this_token" and self.own_kind:
            return self.own_kind  # "this relic" on the relic tile: its own token
        if self.strict and name == "POSITION" and alt.alias == "move_reputation":
            words = ("leftmost", "rightmost")
        if self.strict and name == "KIND" and alt.alias == "count_extra":
            words = self.words.get("SCORED_KIND", words)  # a count adds only to kinds scored in sets
        if self.strict and name == "KIND" and scope.plural_kinds:
            words = self.words.get("PLURAL_KIND", words)  # "more relics than ..."
        if self.strict and name == "PAST":
            words = tuple(x for x in words if x in scope.done) or words
        return words[0] if len(words) == 1 else self._one(draw, words)

    @staticmethod
    def _enter(rule: str, alt: _Alt, s: _Scope) -> None:
        if rule == "char_sel":  # "a character adjacent to this one" is said only of what an action acts on
            s.acted_on, s.argument = s.argument and alt.alias in ("choose_one", "every"), False
        else:
            s.argument = rule == "action"
        if rule == "step":
            s.step_bound = s.bound
            s.amount_after = alt.alias == "or_if" and ("amount", False) in alt.symbols
        elif rule == "action":
            s.action, s.binds, s.losing = _meaning(alt), False, alt.alias == "lose"
        elif rule == "cond":
            s.cond, s.plural = alt.alias, False
            s.yours = alt.alias == "you_have_characters"
        elif rule == "place":
            s.yours = False  # said ("in your ship"): nested phrases are free
        elif rule == "quantity":
            s.plural = (s.cond == "there_is" or s.side == "clause") and "or" in alt.words
        elif rule == "char_np":
            s.zone_used, s.filtered = False, ""
        elif rule == "char_filter" and alt.symbols == (("zone", False),):
            s.zone_used = True
        if rule == "char_filter" and alt.symbols != (("zone", False),):
            s.filtered = "adjacent" if alt.alias == "adjacent" else s.filtered or "other"
        elif rule == "loot_sel":
            s.random_loot = "random" in alt.words
            s.one_count = alt.alias == "choose_loot" and "counts" in _names(alt) and "kind" not in alt.words
        elif rule == "loot_place" and s.action == "swap" and s.swapped is None:
            s.swapped = alt.words
        elif rule == "player_verb" and "loses" in alt.words:
            s.losing = True
        elif rule == "player":
            s.binds = s.binds or ("owner" in alt.words and "of" in alt.words and s.action == "player_acts")
            # In "... gives a loot they hold to PLAYER" the second player is read from the owner's side.
            s.recipient = s.action == "give" or (s.action in _GIVING and s.acted)
            if s.recipient:
                s.side = ""
        elif rule == "clause":
            s.side = "clause"
        elif rule == "compared":
            s.connective = "as" if "least" in alt.words else "than"
        elif rule == "counter":
            s.counting = True
        elif rule in ("mine", "most"):
            s.plural_kinds = alt.alias in ("mine_loot", "most_loot")
        if rule == "_comparison":
            s.plural_kinds = "hold" in alt.words

    @staticmethod
    def _leave(rule: str, alt: _Alt, s: _Scope, saved: _Scope) -> None:
        if rule == "char_sel":
            s.acted_on = saved.acted_on
        elif rule in ("actions", "step"):
            s.amount_after = False  # said: the amount after ", or" repeats the one before it
        if rule == "action":
            bound = s.bound or alt.alias in ("discard", "put", "play") or s.binds
            s.action, s.binds, s.losing, s.bound = saved.action, saved.binds, saved.losing, bound
            counted = _COUNTED.get(_meaning(alt) or "")
            if counted:
                s.done = s.done | {counted}
            s.swapped = saved.swapped
            s.side, s.acted = saved.side, saved.acted
        elif rule == "cond":
            s.cond, s.plural, s.plural_kinds = saved.cond, saved.plural, saved.plural_kinds
            s.yours = saved.yours
        elif rule in ("player", "all_players", "_chosen"):
            s.recipient, s.side = saved.recipient, saved.side
            if s.action in _ACTING and not s.acted:  # the acting player is named: the rest is theirs
                s.acted, s.side = True, "acting"
        elif rule == "counter":
            s.counting = saved.counting
        elif rule == "clause":
            s.side = saved.side
        elif rule in ("mine", "most"):
            s.plural_kinds = saved.plural_kinds
        elif rule == "char_np":
            s.zone_used, s.filtered = saved.zone_used, saved.filtered
        elif rule == "loot_sel":
            s.random_loot, s.one_count = saved.random_loot, saved.one_count
        elif rule == "player_verb":
            s.losing = saved.losing


def _meaning(alt: _Alt) -> str | None:
    """The action an alternative spells, where one form has several (its words say which)."""
    if alt.alias in ("send_loot", "send_loot_held"):
        return "return_loot" if "bag" in alt.words else "give"
    if alt.alias == "take" and "draw" in alt.words:
        return "draw"
    return alt.alias


_COUNTED = {"return_loot": "returned", "discard": "discarded", "take": "taken", "put": "moved", "play": "moved",
            "give": "moved", "move_reputation": "space", "they_return": "returned", "they_discard": "discarded",
            "they_give": "moved", "all_players_discard": "discarded", "all_players_return": "returned",
            "chosen_player_discard": "discarded"}
_GIVING = ("they_give",)
"""Players who give for themselves: the second player named is the receiver, read from the owner's side."""
_TIMED_CONDITIONS = {"moon": "none_at_nightfall", "dusk": "just_took"}
"""The conditions only one timing has (the checker refuses them at any other)."""
_TIMED_ACTIONS = {"anchor": "worth_this"}
"""The actions only one timing has (the checker refuses them at any other)."""
_ACTING = ("they_return", "they_discard", "they_give", "all_players_discard", "all_players_return",
           "chosen_player_discard")
"""The actions other players carry out for themselves (their choices, their things): one player named
("… discards …"), or several in the plural ("all opponents discard …")."""
"""What each action lets a later counter count: ``one returned`` needs a ``return`` before it, and so on."""


def _allowed(rule: str, alt: _Alt, s: _Scope) -> bool:
    """Whether the checker could accept ``alt`` of ``rule`` where the walk stands (it has the last word)."""
    a, w, t = alt.alias, alt.words, s.timing
    island = t in _ISLAND
    keep_here = s.action == "keep" and island  # by day and at dusk "this" is on the island, not aboard
    if not _printed_allowed(rule, alt, s) or not _form_allowed(rule, alt, s) \
            or (s.side and not _side_allowed(rule, alt, s)) or (s.yours and not _yours_allowed(rule, alt, s.zone_used)):
        return False
    if rule == "action":
        return {"play": t == "sun", "use_ability": not s.loot or t == "dusk",
                "discard_not_shipped": not s.loot and island,
                # a hand is hidden (E41): the card is drawn from it at random
                "take_from_hand": "RANDOM" in _names(alt)}.get(a or "", True)
    if rule == "take_what":
        return "no" not in w  # "take no loot" must stand alone: ``_texts`` spells that ability whole
    if rule == "char_sel":
        if s.recipient and a == "every":
            return False
        return {
            "this": not s.loot and s.action != "play" and not keep_here,
            "it": s.bound,
            "taker": s.loot and t == "dusk" and s.action != "play" and not keep_here,
            "beside": not s.loot and island and s.action != "keep",
        }.get(a or "", True)
    if rule == "char_ref":
        if "took" in w:
            return s.loot and t == "dusk" and s.cond != "last_voyage"
        if "it" in w:
            return s.step_bound and s.cond != "last_voyage"
        return not s.loot or s.cond == "last_voyage"
    if rule == "cond":
        return {"none_at_nightfall": t == "moon", "just_took": t == "dusk"}.get(a or "", True)
    if rule == "counter":
        if a == "count_affected":
            return bool(s.done - {"space"})
        if a == "count_spaces" and "moved" in w:
            return "space" in s.done
    if rule == "place":
        return (island or "island" not in w) and (a != "their_place" or bool(s.side))
    if rule == "char_filter" and alt.symbols == (("zone", False),):
        return not s.zone_used
    if rule == "loot_place":
        return _loot_place_allowed(w, s) and (a != "their_loot" or s.side == "acting")
    if rule == "loot_sel" and s.action == "swap":
        return a == "choose_loot" and "counts" not in _names(alt)
    if rule == "loot_sel" and s.action in ("keep", "give"):
        return "random" not in w and a != "every_loot_theirs"
    if rule == "loot_sel" and a == "every_loot_theirs":
        return s.side == "acting"
    if rule == "counts" and s.one_count:
        return alt.symbols == (("NUMBER", True),)
    if rule == "amount" and s.losing:
        return a == "fixed" or (a == "purse" and "half" in w)
    if rule == "player":
        # Whom loot goes to (one player): ``_enter`` marks it only once the player is entered, so the
        # steering reads the action here ("give … to", or the second player of "… gives … to").
        recipient = s.recipient or s.action == "give" or (s.action in _GIVING and s.acted)
        if (a == "players_with_most" and "each" not in w and "every" not in w and "group" not in _names(alt)) \
                or (recipient and a in ("players_who", "players_with_most", "players_than_you")) \
                or (recipient and a == "chosen_player" and s.action in _GIVING):
            return False  # ambiguous on ties (E31); loot goes to one player; E42: givers are settled first
        return ("every" not in w or not recipient) and ("its" not in w or s.bound)
    if rule == "compared":
        return "many" not in w or "least" in w  # a bare "as many ... as" could be read two ways (E30)
    if rule == "rival":
        return s.connective in w
    return True


def _form_allowed(rule: str, alt: _Alt, s: _Scope) -> bool:
    """False where the checker refuses a form for what stands around it: "this relic" on a character, the
    actions before ", or 7 doubloons if …" other than one gain or loss."""
    if rule == "loot_sel" and alt.alias == "this_token":
        return s.loot and s.side != "acting"  # the token a loot tile's ability runs for, held by its own holder
    if s.amount_after and rule == "actions":
        return alt.symbols == (("action", False),)  # ", or 7 doubloons if …" repeats one gain or loss
    if s.amount_after and rule == "action":
        return alt.alias in ("gain", "lose")
    return True


def _printed_allowed(rule: str, alt: _Alt, s: _Scope) -> bool:
    """False where the checker refuses a printed paraphrase that its canonical form would not need."""
    t, a = s.timing, alt.alias
    if rule == "ability" and a == "instead_of_loot":
        return t == "dusk" and not s.loot  # a character's own dusk: "take no loot" stands alone there
    if rule == "char_filter" and a == "adjacent":
        # Said of what an action acts on, on the island by day (at dusk the right neighbours have left), as the
        # phrase's only filter but its place: the character left of this, or right of it.
        return not s.loot and t == "sun" and s.cond is None and s.action not in (None, "keep") and not s.binds \
            and not s.counting and s.acted_on and not s.filtered and not s.zone_used
    if rule == "char_filter" and s.filtered == "adjacent":
        return alt.symbols == (("zone", False),)  # "every character adjacent to this one on the island"
    if rule == "place" and s.filtered == "adjacent":
        return "island" in alt.words
    if (rule, a) in (("char_sel", "ordinal"), ("cond", "is_ordinal")):
        return t != "dusk"  # "the last character" reads two ways at dusk, which runs right to left
    if rule == "action" and a == "worth_this":
        return t == "anchor"  # a worth is paid at the voyage's end
    if rule == "action" and a in ("worth_token", "worth_kind"):
        return False  # whether a kind's worth has one reading depends on the tile's kind (normalise.worths)
    if rule == "cond" and a == "took":
        return t == "dusk"  # "you took a map" is the token taken at dusk
    if rule == "cond" and a == "just_took_token":
        return t == "dusk"  # "the loot token you took is a map": the token taken at dusk
    # "do not take a loot token" is "take no loot", a standing rule that stands alone; "1 … at random" is one
    # token from the bag only: variants of forms the walk spells in their canonical words
    return (rule, a) not in (("action", "take_not"), ("loot_sel", "at_random"))


def _names(alt: _Alt) -> set[str]:
    return {name for name, _ in alt.symbols}


def _is_filters(rule: str) -> bool:
    """Whether ``rule`` is the grammar's own rule for a character phrase's filters (``(char_filter | …)*``),
    whatever name Lark gives it (it is shared by every phrase that repeats those filters)."""
    alternatives = _grammar().alternatives.get(rule, ())  # a terminal ("__ANON_4") has none
    return rule.startswith("__") and any(("char_filter", False) in a.symbols for a in alternatives)


def _yours_allowed(rule: str, alt: _Alt, zone_used: bool) -> bool:
    """"you have … characters" says which of your piles, or the checker refuses it: the phrase's first
    filter is "in your …" (a phrase with no filter, or only "other than this" before it, cannot say it)."""
    if rule == "place":
        return "your" in alt.words
    if zone_used:
        return True
    if rule == "char_np":
        return any(_is_filters(name) for name, _ in alt.symbols)
    if _is_filters(rule):
        return alt.symbols != (("other_than_this", False),)
    if rule == "char_filter":
        return alt.symbols == (("zone", False),)
    return True


def _side_allowed(rule: str, alt: _Alt, s: _Scope) -> bool:
    """What the checker takes in words read from another player's side (E32): their own things."""
    a, w = alt.alias, alt.words
    if rule == "char_filter":
        if alt.symbols == (("owned_by", False),):
            return False  # whose it is, the clause or the acting player says already
        # A player acting picks from their own pile: the phrase says which, first.
        return s.side != "acting" or s.zone_used or alt.symbols == (("zone", False),)
    if rule == "place":
        return a == "their_place" or (s.side == "clause" and "island" in w)
    if s.side != "acting":
        return True
    if rule == "char_sel":
        return a in ("choose_one", "every", "positional")
    if rule == "char_np":  # with a place (their pile), so with filters
        return any(_is_filters(name) for name, _ in alt.symbols)
    if rule == "loot_sel":
        return "random" not in w and "your" not in w
    if rule == "loot_place":
        return a == "their_loot"
    return True


def _loot_place_allowed(w: frozenset[str], s: _Scope) -> bool:
    held = "hold" in w
    if s.swapped is not None and s.swapped == w:
        return False
    if s.random_loot:
        return "bag" in w
    if s.action in ("keep", "give"):
        return held
    if held:
        return s.action != "take"
    if "today's" in w:
        return s.timing in _ISLAND
    if "tomorrow's" in w:
        return s.timing != "anchor"
    return True


def _prepositions(rest: list[str], words: tuple[str, ...]) -> tuple[str, ...]:
    """The prepositions the checker takes before a place: "on the island", "from the bag", "in your ship"."""
    place = " ".join(rest[:2])
    if place == "the island":
        wanted: tuple[str, ...] = ("on",)
    elif place in ("the bag", "an adjacent", "another player", "the player"):
        wanted = ("from",)
    else:
        wanted = ("in", "from")
    return tuple(p for p in words if p in wanted) or words


def trigger_words(timing: str, loot: bool) -> list[list[str]]:
    """The triggers the checker accepts: no repeated modifier, "once" only on loot, first/last not by day."""
    combos: list[tuple[str, ...]] = [()]
    if timing != "sun":
        combos += [("last",), ("first",)]
    if loot:
        combos += [("once",), ("once", "last"), ("first", "once")] if timing != "sun" else [("once",)]
    return [[timing, *(x for m in c for x in (",", m))] for c in combos]


@functools.cache
def _triggers(timing: str, loot: bool) -> SearchStrategy[list[str]]:
    """``trigger_words`` as a strategy."""
    from hypothesis import strategies as st

    return st.sampled_from(trigger_words(timing, loot))


class _ReadByContext(str):
    """A word spelled for a terminal the lexer reads by the word after it (``_NOT_BEFORE``)."""

    terminal: str

    def __new__(cls, word: str, terminal: str) -> _ReadByContext:
        self = super().__new__(cls, word)
        self.terminal = terminal
        return self


_NOT_BEFORE = {"_INSTEAD_LAST": ("if", "unless")}
"""The lexer's terminals that the grammar may spell before a word which makes the lexer read another
(``language.lexer``): "…; each set of 3 maps is worth 13 doubloons instead if …" is the "instead if"
of a replaced step, so a text spelled with the last set's "instead" there would say something else."""


def _reads_as_spelled(tokens: list[str]) -> bool:
    """Whether the lexer reads each word the way the walk spelled it (see ``_NOT_BEFORE``)."""
    return not any(isinstance(tok, _ReadByContext) and i + 1 < len(tokens)
                   and tokens[i + 1].lower() in _NOT_BEFORE[tok.terminal] for i, tok in enumerate(tokens))


def _join(tokens: list[str]) -> str:
    """Words with single spaces; none before punctuation or after "(", none around line breaks."""
    out = ""
    for tok in tokens:
        if tok == "\n" or not out or out.endswith(("\n", "(")) or tok in (",", ".", ":", ";", ")"):
            out += tok
        else:
            out += " " + tok
    return out


# ---------------------------------------------------------------- the strategies
def card_texts(rules: Rules, *, loot: bool = False, names: Iterable[str] = (),
               max_abilities: int = 3, kind: str = "") -> SearchStrategy[str]:
    """Texts of 1 to ``max_abilities`` abilities that load as a character's text (``loot``: a loot tile's).

    Each text parses, passes the checker and compiles under ``rules`` (``text_problem`` is
    None), with ``names`` (say, the mod card's own name) known besides the rules' characters.
    Spelled from the grammar file with the rules' card names and loot kinds.  ``kind`` (with
    ``loot``): the tile the texts are for, so that they may name its own token as ``this KIND``
    (``this chest`` on the chest tile) and are checked as that tile; without it a loot text is
    any kind's tile, and says only ``this token``.
    """
    if kind and not loot:
        raise ValueError("kind= names the loot tile a text is for: give loot=True with it")
    if kind and kind not in rules.kinds:
        raise ValueError(f"unknown loot kind {kind!r} (the rules' kinds: {', '.join(rules.kinds)})")
    return _texts(rules, loot, tuple(names), max_abilities, kind)


def _texts(rules: Rules, loot: bool, names: tuple[str, ...], max_abilities: int,
           kind: str = "") -> SearchStrategy[str]:
    from hypothesis import reject
    from hypothesis import strategies as st

    speller = _Speller(vocabulary(rules, names=names), strict=True, own_kind=kind)
    timings = tuple(t for t in _TIMINGS if not (loot and t == "sun"))

    @st.composite
    def ability(draw: DrawFn) -> str:
        timing = draw(st.sampled_from(timings))
        if timing == "dusk" and not loot and draw(st.integers(0, 11)) == 11:
            return "dusk: take no loot."  # a standing rule, which must stand alone
        for _ in range(_TRIES):
            out: list[str] = []
            try:
                speller.spell(draw, "ability", _Scope(timing, loot), out)
            except _DeadEnd:
                continue
            if not _reads_as_spelled(out):
                continue
            text = _join(out)
            if text_problem(text, rules, loot=loot, names=names, kind=kind) is None:
                return text
        reject()  # pragma: no cover - the tests pin that this stays rare

    # Abilities that load one by one may still close a loop together (language.loops).
    return st.lists(ability(), min_size=1, max_size=max_abilities).map("\n".join).filter(
        lambda text: text_problem(text, rules, loot=loot, names=names, kind=kind) is None)


def spelled_texts(rules: Rules, *, names: Iterable[str] = (), strays: bool = True) -> SearchStrategy[str]:
    """Whatever the grammar spells from its start rule: texts that parse, many of which the checker refuses.

    For fuzzing the loader: every such text must load or be refused with a ``CardError``.
    With ``strays``, ``STRAY_NAME`` and ``STRAY_KIND`` stand among the rules' words.
    """
    return _spelled(rules, tuple(names), strays)


def _spelled(rules: Rules, names: tuple[str, ...], strays: bool) -> SearchStrategy[str]:
    from hypothesis import reject
    from hypothesis import strategies as st

    speller = _Speller(vocabulary(rules, names=names, strays=strays), strict=False)

    @st.composite
    def text(draw: DrawFn) -> str:
        out: list[str] = []
        speller.spell(draw, "start", _Scope("sun", False), out)
        if not _reads_as_spelled(out):
            reject()
        return _join(out).strip("\n")

    # Rules the grammar cannot say ("… instead" replaces a plain step just before it; "you have 3
    # characters" says where): the parser refuses the rest (WordingError), so those are not spelled.
    return text().filter(_no_wording_error)


def _no_wording_error(text: str) -> bool:
    try:
        parse(text)
    except WordingError:
        return False
    except CardError:
        pass
    return True
