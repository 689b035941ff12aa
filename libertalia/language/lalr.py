"""The card language's LALR parser proper: lark, its tree to the AST, its errors to CardErrors.

The grammar file is the single source of truth; this module only turns Lark's
tree into the frozen AST and Lark's exceptions into :class:`CardError` with
plain-word expectations: every error of the text, each with the nearest wording
that parses, which ``repair`` searches for once a parse has failed.

Kept apart from ``parser`` (the front door, which serves parses from the cache)
because it needs lark, which takes longer to import than a warm ``load_rules``
takes in all: a process whose card texts are all in the cache never imports it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypedDict

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from .. import _paths
from ..errors import CardError, CardErrors, UnsayableError, WordingError
from ..suggest import did_you_mean
from ..syntax import ast
from . import printed
from .lexer import MAX_DIGITS, UnknownCharacter, WordLexer
from .meaning import may_replace

if TYPE_CHECKING:
    from .repair import Problem

# What each open class of words means to a person writing a card.
_CLASS_WORDS = {
    "NUMBER": "a number in digits",
    "NOUN": '"character", "characters" or a card name',
    "KIND": "a loot kind such as map",
    "OR_IF": '"or" and another condition',
    "_NL": "a new line",
    "$END": "the end of the text",
}
_PUNCT_WORDS = {"COLON": '":"', "COMMA": '","', "DOT": '"."', "SEMICOLON": '";"', "LPAR": '"("', "RPAR": '")"',
                # the lexer's readings of a mark or word by what follows it (grammar: %declare)
                "_DOT_JOIN": '"." and another sentence', "_SEMI_JOIN": '"; then" or "; if"',
                "_AND_JOIN": '"and then"', "_ELSE": '"; otherwise"', "_COMMA_OR": '", or"', "_AND_KIND": '"and"',
                "_COMMA_AND": '", and"', "_INSTEAD_OF": '"instead of"', "_SEMI_ROW": '"; " and the next set or row',
                "_INSTEAD_LAST": '"instead"', "_COMMA_OTHER": '", other than"',
                "_COMMA_UP": '", up to"', "_COMMA_ROUND": '", rounded down"'}


@functools.cache
def shared_parser() -> Lark:
    """The parser, built once per process (from the cached tables when there are some)."""
    return build_parser(cached=True)


def build_parser(*, cached: bool) -> Lark:
    """The LALR parser of the grammar file, built strictly (any shift/reduce conflict is an error).

    Building the tables takes most of a cold ``load_rules``; ``cached`` keeps them in the
    user's cache folder as plain data (``tables``: never a pickle), keyed by the grammar
    and the versions that build them, so a later process loads them instead.  Without a
    usable cache folder the parser is simply built.  The test suite also builds it uncached.
    """
    text = _paths.grammar_path().read_text(encoding="utf-8")

    def build() -> Lark:
        return Lark(text, parser="lalr", lexer=WordLexer, strict=True, propagate_positions=True,
                    maybe_placeholders=True)

    if not cached:
        return build()
    from .tables import load_or_build

    return load_or_build(text, build)


@functools.cache
def _spellings() -> dict[str, tuple[str, ...]]:
    """The words each terminal stands for, read from the grammar."""
    from .repair import spellings

    return {name: words for name, words in spellings(shared_parser()).items() if words}


def _expected_words(names: Iterable[str]) -> list[str]:
    """The words the parser could take, spelled out: keywords first, then the open classes."""
    words: set[str] = set()
    classes: list[str] = []
    for name in names:
        if name in _CLASS_WORDS:
            classes.append(_CLASS_WORDS[name])
        elif name in _PUNCT_WORDS:
            classes.append(_PUNCT_WORDS[name])
        else:
            words.update(_spellings().get(name, (name.lower(),)))
    return sorted(f'"{w}"' for w in words) + sorted(set(classes))


def _expected(names: Iterable[str]) -> str:
    items = _expected_words(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _suggestion(word: str, names: Iterable[str]) -> str:
    """A respelling of ``word`` among the words the parser could take, never one that says something else
    (``meaning``: "hand" is no misspelling of "and")."""
    choices = [w for n in names if n not in _CLASS_WORDS and n not in _PUNCT_WORDS
               for w in _spellings().get(n, ())]
    if "NOUN" in names:
        choices += ["character", "characters"]
    return did_you_mean(word, [c for c in choices if may_replace(word, c)])


class _Place(NamedTuple):
    """Where a card text sits in its file (``parser.parse`` gives the fields' meaning)."""

    path: str
    line0: int
    col0: int
    indent: int
    file_lines: list[str] | None


def _errors(exc: Exception, text: str, place: _Place) -> CardError:
    """Every error of the text, each with the nearest wording that parses (``repair``), else lark's one.

    The search runs only here, after a parse failed: a text that parses never imports it.  A line
    holding a meaning the language has no words for (``intents``) is refused for that, with the
    nearest wording there is, and gets no "did you mean": any parse of it would mean something else.
    """
    unsayable = _intent_errors(text, place)
    if isinstance(exc, UnexpectedToken):  # a word out of place (a bad character stops the words themselves)
        from .repair import diagnose

        found = [p for p in diagnose(text, shared_parser()) if p.line not in unsayable]
        if found or unsayable:
            errors = [*unsayable.values(), *(_problem_error(p, text, place) for p in found)]
            return CardErrors.of(sorted(errors, key=lambda e: (e.line, e.column)))
    error = _error(exc, text, place)
    if unsayable:  # lark's one error stands beside them when it is on another line
        errors = [*unsayable.values(), *([] if error.line - place.line0 in unsayable else [error])]
        return CardErrors.of(sorted(errors, key=lambda e: (e.line, e.column)))
    return error


def _intent_errors(text: str, place: _Place) -> dict[int, CardError]:
    """For each line of ``text`` (1-based) that holds a known intent the language lacks, its error."""
    from . import intents

    out: dict[int, CardError] = {}
    for number, line in enumerate(text.split("\n"), 1):
        found = intents.find(line)
        if found is not None:
            message, expected = intents.message(found)
            located = _located(message, number, found.column, expected, text, place, None)
            out[number] = UnsayableError(located.message, path=located.path, line=located.line,
                                         column=located.column, source_line=located.source_line,
                                         expected=located.expected)
    return out


def _problem_error(p: Problem, text: str, place: _Place) -> CardError:
    """One error the repair search found, in the words lark's own would use, with its suggestion."""
    if not p.word:
        message = f"the {'line' if p.more_lines else 'text'} ends too early"
    else:
        message = f"unexpected {'word' if p.word[:1].isalnum() else 'mark'} {p.word!r}"
    if p.fix is not None:
        message += f' (did you mean "{p.respelt}"?)' if p.respelt else f' (did you mean: "{p.window}"?)'
    elif p.word:
        message += _suggestion(p.word, p.accepts)
    return _located(message, p.line, p.column, _expected(p.accepts), text, place, p.fix)


def _error(exc: Exception, text: str, place: _Place) -> CardError:
    lines = text.split("\n")
    suggestion = ""
    if isinstance(exc, UnknownCharacter):
        line, column = exc.line, exc.column
        if exc.why:
            message, expected = exc.why, f"a number of at most {MAX_DIGITS} digits"
        else:
            message = f"unexpected character {exc.char!r}: card text uses words, numbers and , . : ; ( )"
            expected = "a word"
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        line = tok.line if tok.line is not None else len(lines)
        column = tok.column if tok.column is not None else len(lines[-1]) + 1
        if tok.type == "$END":
            message = "the text ends too early"
        elif tok.type == "_NL":
            message = "the line ends too early"
        else:
            message = f"unexpected {'word' if str(tok)[:1].isalnum() else 'mark'} {str(tok)!r}"
            suggestion = _suggestion(str(tok), exc.accepts or exc.expected)
        expected = _expected(exc.accepts or exc.expected)
    elif isinstance(exc, UnexpectedEOF):
        line = len(lines)
        column = len(lines[-1]) + 1 if lines else 1
        message = "the text ends too early"
        expected = _expected(set(exc.expected))
    else:  # pragma: no cover - lark raises no other kinds here
        line, column, message, expected = 1, 1, str(exc), ""
    return _located(message + suggestion, line, column, expected, text, place, None)


def _located(message: str, line: int, column: int, expected: str, text: str, place: _Place,
             fix: str | None) -> CardError:
    """The error at ``line`` and ``column`` of the text, moved to where the text sits in its file."""
    lines = text.split("\n")
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    file_line = line + place.line0
    if place.file_lines is not None and 0 < file_line <= len(place.file_lines):
        source = place.file_lines[file_line - 1]
    return CardError(
        message,
        path=place.path,
        line=file_line,
        column=column + (place.col0 if line == 1 else place.indent),
        source_line=source,
        expected=expected,
        fix=fix,
    )


def parse(text: str, path: str, line: int, column: int, indent: int,
          file_lines: list[str] | None) -> tuple[ast.Ability, ...]:
    """Parse card text with lark (``parser.parse`` gives the arguments' meaning)."""
    try:
        tree = shared_parser().parse(text)
    except (UnexpectedInput, UnknownCharacter) as exc:
        raise _errors(exc, text, _Place(path, line, column, indent, file_lines)) from None
    try:
        abilities: tuple[ast.Ability, ...] = ToAst(line, column, indent).transform(tree)
    except VisitError as exc:
        if not isinstance(exc.orig_exc, VariantError):
            raise
        v = exc.orig_exc
        lines = text.split("\n")
        source = lines[v.line - line - 1] if 0 < v.line - line <= len(lines) else ""
        if file_lines is not None and 0 < v.line <= len(file_lines):
            source = file_lines[v.line - 1]
        raise WordingError(v.message, path=path, line=v.line, column=v.column, source_line=source,
                           expected=v.expected) from None
    return abilities


class _Pos(TypedDict):
    line: int
    column: int


class ToAst(Transformer[Token, Any]):
    """Builds AST nodes; positions are shifted into the enclosing file."""

    def __init__(self, line0: int, col0: int, indent: int) -> None:
        super().__init__()
        self._line0 = line0
        self._col0 = col0
        self._indent = indent

    def _at(self, meta: Any) -> _Pos:
        if getattr(meta, "empty", True):
            return {"line": 0, "column": 0}
        col = meta.column + (self._col0 if meta.line == 1 else self._indent)
        return {"line": meta.line + self._line0, "column": col}

    # structure
    def start(self, items: list[Any]) -> tuple[ast.Ability, ...]:
        # a printed "instead of taking a loot token, …" line is two abilities (a tuple)
        return tuple(a for i in items for a in (i if isinstance(i, tuple) else (i,)) if isinstance(a, ast.Ability))

    @v_args(meta=True)
    def ability(self, meta: Any, items: list[Any]) -> ast.Ability:
        (timing, modifiers), steps = items[0], items[1]
        return self._printed(ast.Ability(timing, modifiers, steps, **self._at(meta)))

    def trigger(self, items: list[Any]) -> tuple[str, tuple[str, ...]]:
        timing, *modifiers = (i for i in items if i is not None)
        return str(timing), tuple(str(i) for i in modifiers)

    def timing(self, items: list[Any]) -> str:
        words = [str(i) for i in items if i is not None]
        word = words[1] if words[0] == "the" else words[0]  # "the end of the voyage"
        return _TIMINGS.get(word, word)

    def effect(self, items: list[Any]) -> tuple[ast.Step, ...]:
        steps: list[ast.Step] = []
        starts = [0]  # where each sentence begins among ``steps`` ("A, then B. C": 0 and 2)
        for step in items:
            if step is _BREAK:
                starts.append(len(steps))
            elif isinstance(step, _Replacing):
                # "instead" replaces what a reader sees as one sentence: every step since the last sentence
                # boundary before it (the previous sentence, or its own sentence's steps so far).
                begin = max((s for s in starts if s < len(steps)), default=0)
                replaced = _instead(steps[begin:], step)
                del steps[begin:]
                starts = [s for s in starts if s <= begin]
                steps.append(replaced)
            else:
                steps.append(step)
        return tuple(steps)

    def sentence_break(self, items: list[Any]) -> object:
        return _BREAK

    @v_args(meta=True)
    def plain(self, meta: Any, items: list[Any]) -> ast.Step:
        return ast.Step("plain", items[0], None, None, **self._at(meta))

    @v_args(meta=True)
    def postfix_if(self, meta: Any, items: list[Any]) -> ast.Step:
        actions, cond, *chain, other = items
        elifs = tuple((chain[i + 1], chain[i]) for i in range(0, len(chain), 2))
        return ast.Step("postfix_if", actions, cond, other, elifs=elifs, **self._at(meta))

    @v_args(meta=True)
    def prefix_if(self, meta: Any, items: list[Any]) -> ast.Step:
        cond, actions, other = items
        return ast.Step("prefix_if", actions, cond, other, **self._at(meta))

    @v_args(meta=True)
    def if_you_did_not(self, meta: Any, items: list[Any]) -> ast.Step:
        """"if you cannot, …", "if you did not, …": the canonical "… unless you did"."""
        actions = items[0]
        condition = ast.Condition(((ast.YouDid(),),))
        return ast.Step("unless", actions, condition, None, **self._at(meta))

    # a choice inside a branch (issue 34.2)
    @v_args(meta=True)
    def prefix_if_may(self, meta: Any, items: list[Any]) -> ast.Step:
        """"if C, you may A; otherwise B": the question is asked only when C holds."""
        cond, actions, other = items
        return ast.Step("prefix_if", actions, cond, other, optional="then", **self._at(meta))

    @v_args(meta=True)
    def prefix_if_may_else(self, meta: Any, items: list[Any]) -> ast.Step:
        """"if C, A; otherwise you may B": the question is asked only when C does not hold."""
        cond, actions, other = (i for i in items if i is not None)
        return ast.Step("prefix_if", actions, cond, other, optional="otherwise", **self._at(meta))

    @v_args(meta=True)
    def postfix_if_may_else(self, meta: Any, items: list[Any]) -> ast.Step:
        """"A if C; otherwise you may B"."""
        actions, cond, other = (i for i in items if i is not None)
        return ast.Step("postfix_if", actions, cond, other, optional="otherwise", **self._at(meta))

    @v_args(meta=True)
    def unless(self, meta: Any, items: list[Any]) -> ast.Step:
        actions, cond = items
        return ast.Step("unless", actions, cond, None, **self._at(meta))

    @v_args(meta=True)
    def may(self, meta: Any, items: list[Any]) -> ast.Step:
        actions, other = items
        return ast.Step("may", actions, None, other, **self._at(meta))

    @v_args(meta=True)
    def choose_action(self, meta: Any, items: list[Any]) -> ast.Step:
        first, *rest = items
        return ast.Step("choose_one", first, None, None, choices=tuple(rest), **self._at(meta))

    @v_args(meta=True)
    def choose_either(self, meta: Any, items: list[Any]) -> ast.Step:
        """"A, or B": the canonical "choose one: A; or B"."""
        first, second = items
        return ast.Step("choose_one", first, None, None, choices=(second,), **self._at(meta))

    def actions(self, items: list[Any]) -> tuple[Any, ...]:
        return tuple(items)

    @v_args(meta=True)
    def or_if(self, meta: Any, items: list[Any]) -> ast.Step:
        """"gain 5 doubloons, or 7 doubloons if …": the canonical "gain 7 doubloons if …; otherwise gain 5 …"."""
        first, second, cond = items
        if not isinstance(second, tuple):  # an amount alone: the verb of the one action before it
            (only,) = first if len(first) == 1 and isinstance(first[0], ast.Change) else (None,)
            if only is None:
                raise VariantError('", or AMOUNT if …" repeats the amount of one "gain" or "lose": write the verb '
                                   'again ("…, or gain 7 doubloons if …")', _Where(**self._at(meta)),
                                   "an action after \", or\"")
            second = (ast.Change(only.verb, second, only.subject, line=only.line, column=only.column),)
        return ast.Step("postfix_if", second, cond, first, **self._at(meta))

    @v_args(meta=True)
    def prefix_if_instead(self, meta: Any, items: list[Any]) -> _Replacing:
        cond, actions, _instead = items
        return _Replacing(ast.Step("prefix_if", actions, cond, None, **self._at(meta)))

    @v_args(meta=True)
    def postfix_if_instead(self, meta: Any, items: list[Any]) -> _Replacing:
        actions, _instead, cond = items
        return _Replacing(ast.Step("postfix_if", actions, cond, None, **self._at(meta)))

    @v_args(meta=True)
    def unless_instead(self, meta: Any, items: list[Any]) -> _Replacing:
        actions, _instead, cond = items
        return _Replacing(ast.Step("unless", actions, cond, None, **self._at(meta)))

    # actions
    @v_args(meta=True)
    def gain(self, meta: Any, items: list[Any]) -> ast.Change:
        return ast.Change("gain", _present(items)[0], None, **self._at(meta))  # "gain", "you gain"

    @v_args(meta=True)
    def lose(self, meta: Any, items: list[Any]) -> ast.Change:
        return ast.Change("lose", _present(items)[0], None, **self._at(meta))

    @v_args(meta=True)
    def move_up(self, meta: Any, items: list[Any]) -> ast.Change:
        """"move up 2 reputation": "gain 2 reputation" (a track is moved in reputation only)."""
        return ast.Change("gain", self._track(meta, items[0], "up"), None, **self._at(meta))

    @v_args(meta=True)
    def move_down(self, meta: Any, items: list[Any]) -> ast.Change:
        """"move down 2 reputation": "lose 2 reputation"."""
        return ast.Change("lose", self._track(meta, items[0], "down"), None, **self._at(meta))

    def _track(self, meta: Any, amount: Any, way: str) -> Any:
        """The amount of a move on the reputation track, refused unless it counts reputation."""
        if not (isinstance(amount, ast.Fixed) and amount.unit == "reputation"):
            raise VariantError(f'one moves {way} on the reputation track only: write "move {way} 1 reputation", '
                               f'or "{"gain" if way == "up" else "lose"}" for doubloons',
                               _Where(**self._at(meta)), '"reputation"')
        return amount

    @v_args(meta=True)
    def steal(self, meta: Any, items: list[Any]) -> ast.PaysYou:
        """"steal 2 doubloons from the player on your left": that player pays you 2 doubloons."""
        n, *rest = _present(items)
        unit, prep, subject = (i for i in rest if not (isinstance(i, Token) and i.value == "more"))
        if str(prep) != "from":
            raise VariantError(f'one steals from a player, not {prep} one', _Where(**self._at(meta)),
                               '"from"')
        return ast.PaysYou(subject, self.fixed([n, unit, None]), **self._at(meta))

    @v_args(meta=True)
    def player_acts(self, meta: Any, items: list[Any]) -> Any:
        subject, (verb, amount) = items
        if verb.startswith("moves "):
            way = verb.split()[1]
            verb = "gain" if way == "up" else "lose"
            amount = self._track(meta, amount, way)
        if verb == "pays":
            return ast.PaysYou(subject, amount, **self._at(meta))
        return ast.Change(verb, amount, subject, **self._at(meta))

    def player_verb(self, items: list[Any]) -> tuple[str, Any]:
        word = str(items[0])
        if word == "moves":  # "moves up 1 reputation": "gains 1 reputation" (checked in player_acts)
            return f"moves {items[1]}", items[-1]
        return {"gains": "gain", "loses": "lose", "pays": "pays", "gives": "pays"}[word], items[-1]

    def player(self, items: list[Any]) -> ast.PlayerRef:
        words = [str(i) for i in items if isinstance(i, Token)]
        if words[:2] == ["its", "owner"]:
            return ast.ItsOwner()
        if words[:3] == ["the", "owner", "of"]:
            return ast.OwnerOf(items[3])
        if words[0] in ("every", "each"):  # "each player", "every other player", "each opponent"
            return ast.EveryPlayer(words[-1] == "opponent" or items[-2] is not None)
        return ast.PlayerOnSide(words[-1])

    @v_args(meta=True)
    def send_loot(self, meta: Any, items: list[Any]) -> ast.Give | ast.ReturnLoot:
        """"return …" or "give …": where to decides.  To the bag the tokens go back (``ReturnLoot``,
        canonically "return"), to a player they are a gift (``Give``, canonically "give")."""
        what, *to = items
        return ast.Give(what, to[0], **self._at(meta)) if to else ast.ReturnLoot(what, **self._at(meta))

    @v_args(meta=True)
    def move_reputation(self, meta: Any, items: list[Any]) -> ast.MoveReputation:
        return ast.MoveReputation(str(items[-1]), **self._at(meta))  # "your reputation [token] to the …"

    @v_args(meta=True)
    def discard(self, meta: Any, items: list[Any]) -> ast.Discard:
        return ast.Discard(items[0], **self._at(meta))

    @v_args(meta=True)
    def discard_not_shipped(self, meta: Any, items: list[Any]) -> ast.Discard:
        """"Discard this instead of placing it in your ship" is "discard this" (the checker keeps it to the
        day and dusk, before the card reaches a ship)."""
        prep = next((i for i in items if isinstance(i, Token) and i.type == "PREP"), None)
        if prep is not None and str(prep) != "in":
            raise VariantError(f'a character is placed in a ship, not {prep} one', _Where(**self._at(meta)),
                               '"in your ship" or "into your ship"')
        return ast.Discard(ast.This(), not_shipped=True, **self._at(meta))

    @v_args(meta=True)
    def put(self, meta: Any, items: list[Any]) -> ast.Put:
        return ast.Put(items[0], str(items[1]), **self._at(meta))

    @v_args(meta=True)
    def play(self, meta: Any, items: list[Any]) -> ast.Play:
        return ast.Play(items[0], **self._at(meta))

    @v_args(meta=True)
    def take(self, meta: Any, items: list[Any]) -> ast.Take | ast.TakeNoLoot | ast.Draw:
        if len(items) != 1:  # "draw N random loot from the bag [for each …]" ("draw a loot from the bag": 1)
            count, *_, per = items
            n = int(count) if isinstance(count, Token) and count.type == "NUMBER" else 1
            return ast.Draw(n, per, **self._at(meta))
        what = items[0]
        if what is None:
            return ast.TakeNoLoot(**self._at(meta))
        return ast.Take(what, **self._at(meta))

    @v_args(meta=True)
    def take_from_hand(self, meta: Any, items: list[Any]) -> ast.TakeFromHand:
        """"take a random character from another player's hand" (issue 34.2, E41); without "random", refused:
        a hand is hidden, so its cards are drawn at random, never picked."""
        random, noun, *side = items
        hand = f"the hand of the player on your {side[0]}" if side else "another player's hand"
        if str(noun) != "character":
            raise VariantError(f"a card drawn from a hidden hand is any character, not {noun}",
                               _Where(**self._at(meta)), f'"take a random character from {hand}"')
        if random is None:
            raise VariantError("a hand is hidden: the taker cannot choose a card in it", _Where(**self._at(meta)),
                               f'"take a random character from {hand}"')
        return ast.TakeFromHand(f"{side[0]}_ship" if side else "other_ship", **self._at(meta))

    def take_what(self, items: list[Any]) -> Any:
        return items[0] if items else None  # "no loot" keeps no item

    @v_args(meta=True)
    def keep(self, meta: Any, items: list[Any]) -> ast.Keep | ast.KeepLoot:
        what = items[0]
        if isinstance(what, ast.ChooseLoot | ast.RandomLoot | ast.EveryLoot | ast.EveryLootBut | ast.ChooseLootN
                      | ast.ChooseLootSet | ast.ThisToken):
            return ast.KeepLoot(what, **self._at(meta))
        return ast.Keep(what, **self._at(meta))

    @v_args(meta=True)
    def swap(self, meta: Any, items: list[Any]) -> ast.Swap:
        return ast.Swap(items[0], items[1], **self._at(meta))

    @v_args(meta=True)
    def use_ability(self, meta: Any, items: list[Any]) -> ast.UseAbility:
        return ast.UseAbility(str(items[0]), items[1], **self._at(meta))

    @v_args(meta=True)
    def count_extra(self, meta: Any, items: list[Any]) -> ast.CountExtra:
        return ast.CountExtra(int(items[0]), str(items[1]), **self._at(meta))

    def counts(self, items: list[Any]) -> tuple[int, ...]:
        return tuple(int(i) for i in items if i is not None)

    # amounts
    def fixed(self, items: list[Any]) -> ast.Fixed:
        n, unit, per = (i for i in items if not (isinstance(i, Token) and i.value == "more"))  # "2 more doubloons"
        unit = "reputation" if str(unit) == "reputation" else "doubloons"
        return ast.Fixed(int(n), unit, per)

    # new meanings (issue 34.2): a rate per group, a cap
    @v_args(meta=True)
    def fixed_every(self, meta: Any, items: list[Any]) -> ast.Fixed:
        """"1 doubloon for every 2 maps you hold": 1 for each whole group of 2 (rounded down), capped or not."""
        n, unit, every, per, cap = (i for i in items if not (isinstance(i, Token) and i.value == "more"))
        if int(every) < 1:
            raise VariantError("a group counted has 1 or more things", _Where(**self._at(meta)),
                               'a number of 1 or more after "for every"')
        return self._capped(meta, ast.Fixed(int(n), _unit(unit), per, every=int(every)), cap)

    @v_args(meta=True)
    def fixed_capped(self, meta: Any, items: list[Any]) -> ast.Fixed:
        """"1 doubloon for each relic you hold, up to 6 doubloons": never more than 6."""
        n, unit, per, cap = (i for i in items if not (isinstance(i, Token) and i.value == "more"))
        return self._capped(meta, ast.Fixed(int(n), _unit(unit), per), cap)

    def cap(self, items: list[Any]) -> tuple[int, str]:
        return int(items[0]), _unit(items[1])

    def _capped(self, meta: Any, amount: ast.Fixed, cap: tuple[int, str] | None) -> ast.Fixed:
        """``amount`` with its cap, refused unless the cap counts what the amount does."""
        if cap is None:
            return amount
        if cap[1] != amount.unit:
            raise VariantError(f"a cap counts what its amount does: {amount.unit}, not {cap[1]}",
                               _Where(**self._at(meta)), f'"up to N {amount.unit}"')
        return ast.Fixed(amount.n, amount.unit, amount.per, every=amount.every, cap=cap[0])

    def purse(self, items: list[Any]) -> ast.Half | ast.UpTo:
        return ast.UpTo(int(items[0])) if items else ast.Half()

    def by_table(self, items: list[Any]) -> ast.ByTable:
        return ast.ByTable(items[0], items[1])

    def in_sets(self, items: list[Any]) -> ast.InSets:
        return ast.InSets(str(items[0]), items[1])

    @v_args(meta=True)
    def sets_worth(self, meta: Any, items: list[Any]) -> ast.Change:
        """"Each set of 2 maps is worth 6 doubloons; each set of 3 maps is worth 13 doubloons instead" is
        "gain doubloons for your map in sets (2 for 6, 3 for 13)": the best split into sets pays."""
        words = [i for i in items if isinstance(i, Token)]
        sets = [words[i:i + 4] for i in range(0, len(words), 4)]  # NUMBER KIND NUMBER UNIT each
        kind = _one_kind([str(s[1]) for s in sets], self._at(meta))
        _doubloons_only([str(s[3]) for s in sets], self._at(meta))
        rows = tuple(ast.Row(int(s[0]), "", int(s[2])) for s in sets)
        return ast.Change("gain", ast.InSets(kind, rows), None, **self._at(meta))

    @v_args(meta=True)
    def score_table(self, meta: Any, items: list[Any]) -> ast.Change:
        """"Score your maps: 1 map, 1 doubloon; 2 maps, 4 doubloons; 3 or more maps, 9 doubloons" is
        "gain doubloons by map you hold (1 for 1, 2 for 4, 3 or more for 9)"."""
        tokens = [i for i in items if isinstance(i, Token)]
        kinds, units, rows = [str(tokens[0])], [], []
        i = 1
        while i < len(tokens):
            count, cmp = tokens[i], None
            if tokens[i + 1].type == "CMP":
                cmp, i = tokens[i + 1], i + 1
            kinds.append(str(tokens[i + 1]))
            rows.append(ast.Row(int(count), "" if cmp is None else str(cmp), int(tokens[i + 2])))
            units.append(str(tokens[i + 3]))
            i += 4
        kind = _one_kind(kinds, self._at(meta))
        _doubloons_only(units, self._at(meta))
        return ast.Change("gain", ast.ByTable(ast.CountLoot((kind,)), tuple(rows)), None, **self._at(meta))

    def table(self, items: list[Any]) -> tuple[ast.Row, ...]:
        return tuple(items)

    def row(self, items: list[Any]) -> ast.Row:
        count, cmp, value = items
        return ast.Row(int(count), "" if cmp is None else str(cmp), int(value))

    def count_characters(self, items: list[Any]) -> ast.CountCharacters:
        return ast.CountCharacters(items[0])

    def count_loot(self, items: list[Any]) -> ast.CountLoot | ast.CountKinds:
        kind_of, kinds = items
        if kind_of is not None:
            return ast.CountKinds(kinds, plural=str(kind_of) == "kinds")
        return ast.CountLoot(kinds)

    def count_spaces(self, items: list[Any]) -> ast.CountSpaces | ast.CountMoved:
        return ast.CountSpaces(str(items[0])) if items else ast.CountMoved()

    def count_loot_each(self, items: list[Any]) -> ast.CountLoot:
        """"for each hook and each saber you hold": every token of those kinds, as "hook or saber"."""
        return ast.CountLoot(tuple(str(i) for i in items if isinstance(i, Token) and i.type == "KIND"))

    def count_affected(self, items: list[Any]) -> ast.CountAffected:
        return ast.CountAffected(str(items[0]))

    @v_args(meta=True)
    def count_named_affected(self, meta: Any, items: list[Any]) -> ast.CountAffected:
        """"each relic returned", "each character discarded": "one returned", naming what it counts."""
        noun, past = items
        return ast.CountAffected(str(past), noun=noun, **self._at(meta))

    # characters
    def this(self, items: list[Any]) -> ast.This:
        return ast.This()

    def it(self, items: list[Any]) -> ast.It:
        return ast.It()

    def taker(self, items: list[Any]) -> ast.Taker:
        return ast.Taker()

    def beside(self, items: list[Any]) -> ast.Beside:
        return ast.Beside(str(next(i for i in items if i is not None)))

    def char_ref(self, items: list[Any]) -> str:
        words = [str(i) for i in items if i is not None]
        return "taker" if words[0] == "the" else words[0]  # "this card" is "this"

    def article(self, items: list[Any]) -> str:
        word = str(items[0])
        return "a" if word in ("an", "target") else word  # "target character" (issue 34.1): "a character"

    def choose_one(self, items: list[Any]) -> ast.ChooseChar:
        article, np = items
        if str(article) == "another":
            return ast.ChooseChar(ast.CharNP(True, np.noun, np.filters, plural=np.plural, line=np.line,
                                             column=np.column), True)
        return ast.ChooseChar(np)

    def every(self, items: list[Any]) -> ast.EveryChar:
        np = items[-1]
        if len(items) > 1:  # "all other characters": "every other character", the noun in the singular
            np = ast.CharNP(np.other, np.noun, np.filters, line=np.line, column=np.column)
        return ast.EveryChar(np)

    def positional(self, items: list[Any]) -> ast.Positional:
        return ast.Positional(str(items[0]), items[1])

    @v_args(meta=True)
    def ranked_by_attribute(self, meta: Any, items: list[Any]) -> ast.Positional:
        """"the character with the highest rank …": "the highest-ranked character …"."""
        other, ranking, *filters = items
        than_this = any(f is _OTHER_THAN_THIS for f in filters)
        kept = tuple(f for f in filters if f is not _OTHER_THAN_THIS)
        np = ast.CharNP(other is not None or than_this, "character", kept, plural=False, **self._at(meta))
        return ast.Positional(f"{ranking}-ranked", np)

    @v_args(meta=True)
    def char_np(self, meta: Any, items: list[Any]) -> ast.CharNP:
        other, noun, *filters = items
        word = str(noun)
        plural = word == "characters"
        # "… other than this" is the canonical "other …"
        than_this = any(f is _OTHER_THAN_THIS for f in filters)
        kept = tuple(f for f in filters if f is not _OTHER_THAN_THIS)
        return ast.CharNP(other is not None or than_this, "character" if plural else word, kept, plural=plural,
                          **self._at(meta))

    def other_than_this(self, items: list[Any]) -> object:
        return _OTHER_THAN_THIS

    def ranked(self, items: list[Any]) -> ast.RankedAbove | ast.RankedBelow | ast.RankedThanThis:
        words = [str(i) for i in items if i is not None and str(i) != "than"]
        above = words[1] in ("above", "higher")  # "ranked higher than 30": "ranked above 30"
        if len(words) < 3 or not words[2].isdigit():
            return ast.RankedThanThis(above)
        return ast.RankedAbove(int(words[2])) if above else ast.RankedBelow(int(words[2]))

    def with_ability(self, items: list[Any]) -> ast.WithAbility:
        return ast.WithAbility(str(items[0]))

    def owned_by(self, items: list[Any]) -> ast.OwnedBy:
        # "that belongs to …" and "belonging to …" are "owned by …": only the owner's words are kept
        words = [str(i) for i in items if str(i) not in _OWNED_BY_WORDS]
        if words[0] == "you":
            return ast.OwnedBy("you")
        if words[0] in ("another", "an"):  # "another player", "an opponent"
            return ast.OwnedBy("other")
        return ast.OwnedBy("player", ast.PlayerOnSide(words[-1]))

    def zone(self, items: list[Any]) -> ast.Zone:
        prep, (place, pile, wording) = items
        return ast.Zone(str(prep), place, pile, wording)

    @v_args(meta=True)
    def place(self, meta: Any, items: list[Any]) -> tuple[str, str, str]:
        words = [str(i) for i in items]
        if words == ["the", "island"]:
            return ("island", "", "")
        if words[0] == "your":
            return ("your", words[1], "")
        if words[:3] == ["the", "ship", "of"]:  # "the ship of the player on your left", "… left or right"
            sides = [w for w in words if w in ("left", "right")]
            if len(sides) == 2:
                if sides[0] == sides[1]:
                    raise VariantError(f"the player on your {sides[0]} is one player", _Where(**self._at(meta)),
                                       '"the ship of the player on your left or right"')
                return _SHIP_PLACES["an adjacent player's ship"]
            if sides:
                return (f"{sides[0]}_ship", "", "")
            return ("top_ship" if words[-2] in ("highest", "most") else "bottom_ship", "", "")
        return _SHIP_PLACES[" ".join(words)]

    def others_graveyard(self, items: list[Any]) -> tuple[str, str, str]:
        """Other players' graveyards, the places their ships are with the pile "graveyard" (issue 34.2)."""
        words = [str(i) for i in items]
        if words[0] == "the":  # "the graveyard of the player on your left"
            return (f"{words[-1]}_ship", "graveyard", "")
        if words[0] in ("any", "every"):  # "any player's graveyard" (issue 34) is "any graveyard"
            return ("any_ship", "graveyard", words[0])
        return ("other_ship", "graveyard", " ".join(words[:2]))

    # loot
    @v_args(meta=True)
    def choose_loot(self, meta: Any, items: list[Any]) -> ast.ChooseLoot | ast.RandomLoot | ast.ChooseLootN \
            | ast.ChooseLootSet:
        if len(items) == 2:  # "a [random] KINDS PLACE"
            random, np = items
            return ast.ChooseLoot(np) if random is None else ast.RandomLoot(np)
        counts, kinds, one_kind, (place, prep) = items
        np = ast.LootNP(kinds, place, prep, **self._at(meta))
        return ast.ChooseLootN(counts, np) if one_kind is None else ast.ChooseLootSet(counts, np)

    def every_loot(self, items: list[Any]) -> ast.EveryLoot | ast.EveryLootBut:
        np, keep = items
        return ast.EveryLoot(np) if keep is None else ast.EveryLootBut(np, int(keep))

    @v_args(meta=True)
    def every_loot_yours(self, meta: Any, items: list[Any]) -> ast.EveryLoot:
        """"all your relics": "every relic you hold"."""
        return ast.EveryLoot(ast.LootNP(items[0], "held", "", **self._at(meta)))

    @v_args(meta=True)
    def loot_np(self, meta: Any, items: list[Any]) -> ast.LootNP:
        kinds, (place, prep) = items
        return ast.LootNP(kinds, place, prep, **self._at(meta))

    def any_kind(self, items: list[Any]) -> tuple[str, ...]:
        return ()

    def some_kinds(self, items: list[Any]) -> tuple[str, ...]:
        return tuple(str(i) for i in items if isinstance(i, Token) and i.type == "KIND")  # "map token": map

    def loot_place(self, items: list[Any]) -> tuple[str, str]:
        words = [str(i) for i in items]
        if words in (["you", "hold"], ["you", "have"]):
            return "held", ""
        return _LOOT_PLACES[" ".join(words[1:])], words[0]

    # conditions
    def condition(self, items: list[Any]) -> ast.Condition:
        return ast.Condition(tuple(i for i in items if isinstance(i, tuple)))

    def conjunction(self, items: list[Any]) -> tuple[ast.Cond, ...]:
        return tuple(c for item in items for c in (item if isinstance(item, list) else (item,)))

    def is_the_only(self, items: list[Any]) -> list[ast.Cond]:
        """"this is the only character in your ship": "this is in your ship and there is no other character in
        your ship", each part of the phrase said of this (a list: ``conjunction`` joins it to its neighbours)."""
        ref, verb, np = items
        parts: list[ast.Cond] = [ast.IsLike(ref, f, verb=str(verb)) for f in np.filters]
        if np.noun != "character":
            parts.insert(0, ast.IsA(ref, np.noun, verb=str(verb)))
        other = ast.CharNP(True, np.noun, np.filters, line=np.line, column=np.column)
        return [*parts, ast.Exists(other, True)]

    def is_positioned(self, items: list[Any]) -> ast.IsPositioned:
        ref, verb, position, np = items
        return ast.IsPositioned(ref, str(position), np, verb=str(verb))

    def is_like(self, items: list[Any]) -> ast.IsLike:
        ref, verb, flt = items
        return ast.IsLike(ref, flt, verb=str(verb))

    def is_a(self, items: list[Any]) -> ast.IsA:
        ref, verb, noun = items
        return ast.IsA(ref, str(noun), verb=str(verb))

    def last_voyage(self, items: list[Any]) -> ast.LastVoyage:
        return ast.LastVoyage(items[0])

    def have_doubloons(self, items: list[Any]) -> ast.HaveDoubloons:
        # "at least N" (no comparison word) is "N or more"
        return ast.HaveDoubloons(int(items[0]), len(items) > 1 and str(items[1]) == "fewer")

    def reputation_is(self, items: list[Any]) -> ast.ReputationIs:
        """"your reputation is 4 or more" ("at least 4" too): new meanings (issue 34.2)."""
        return ast.ReputationIs(int(items[0]), len(items) > 1 and str(items[1]) == "fewer")

    def have_no_doubloons(self, items: list[Any]) -> ast.HaveDoubloons:
        return ast.HaveDoubloons(0, True)

    def no_other_has(self, items: list[Any]) -> ast.NoOtherHas:
        _other, cmp, pile = items
        return ast.NoOtherHas(str(cmp), str(pile))

    def quantity(self, items: list[Any]) -> tuple[str, ...]:
        words = tuple(str(i) for i in items)
        if words[:2] == ("at", "least"):  # "at least 3": "3 or more"
            return (words[2], "or", "more")
        return ("a",) if words == ("an",) else words

    def hold(self, items: list[Any]) -> ast.Hold | ast.HoldCount:
        quantity, kinds = items
        if quantity[0] in ("a", "no"):
            return ast.Hold(kinds, quantity[0] == "no")
        return ast.HoldCount(int(quantity[0]), quantity[2], kinds)

    def just_took(self, items: list[Any]) -> ast.JustTook:
        return ast.JustTook(_present(items)[0])  # also "the loot you took is a chest"

    @v_args(meta=True)
    def you_have_characters(self, meta: Any, items: list[Any]) -> ast.Exists | ast.CountExists:
        """"you have 3 or more characters in your ship": the canonical "there are …"."""
        np = items[1]
        if not any(isinstance(f, ast.Zone) and f.place == "your" for f in np.filters):
            raise VariantError('say where your characters are ("you have a character in your ship"), or use '
                               '"there is"', _Where(**self._at(meta)),
                               '"in your ship", "in your hand" or "in your graveyard"')
        return self.there_is(items)

    def pile_empty(self, items: list[Any]) -> ast.Exists:
        """"your graveyard is empty": the canonical "there is no character in your graveyard"."""
        pile = str(items[0])
        return ast.Exists(ast.CharNP(False, "character", (ast.Zone("in", "your", pile, ""),)), True)

    def there_is(self, items: list[Any]) -> ast.Exists | ast.CountExists:
        quantity, np = items
        if quantity[0] == "no" and np.plural:  # "there are no other characters …" (issue 34.1): "no other character"
            np = ast.CharNP(np.other, np.noun, np.filters, line=np.line, column=np.column)
        if quantity[0] in ("a", "no"):
            return ast.Exists(np, quantity[0] == "no")
        return ast.CountExists(int(quantity[0]), quantity[2], np)

    def none_at_nightfall(self, items: list[Any]) -> ast.Exists:
        return ast.Exists(items[0], True, True)

    def you_did(self, items: list[Any]) -> ast.YouDid:
        return ast.YouDid()

    # comparisons between players
    def compare(self, items: list[Any]) -> ast.Compare:
        cmp, measure, (than, rivals) = items
        if isinstance(measure, tuple):  # "you hold more relics ...": the kinds themselves
            measure = ast.LootHeld(measure)
        return ast.Compare(cmp, measure, than=than, rivals=rivals)

    def compared(self, items: list[Any]) -> str:
        words = " ".join(str(i) for i in items)
        return "at least" if words == "at least as many" else words

    def rival(self, items: list[Any]) -> tuple[str, str]:
        return str(items[0]), str(items[1])

    def mine_doubloons(self, items: list[Any]) -> ast.Doubloons:
        return ast.Doubloons()

    def mine_loot(self, items: list[Any]) -> ast.LootHeld:
        return ast.LootHeld(items[0])

    def mine_pile(self, items: list[Any]) -> ast.CharactersIn:
        return ast.CharactersIn(str(items[0]))

    def mine_reputation(self, items: list[Any]) -> ast.Reputation:
        return ast.Reputation()

    most_doubloons, most_reputation, most_loot, most_pile = mine_doubloons, mine_reputation, mine_loot, mine_pile

    def highest_reputation(self, items: list[Any]) -> ast.Compare:
        """"You have the highest reputation" is "you have more reputation than every other player"."""
        return ast.Compare("more" if str(items[-1]) == "highest" else "fewer", ast.Reputation())

    def player_ranked_by_reputation(self, items: list[Any]) -> ast.PlayersWithMost:
        """"The player with the highest reputation" is "each player with the most reputation": one player."""
        ranking = next(i for i in items if isinstance(i, Token) and i.type == "RANKING")
        return ast.PlayersWithMost(False, str(ranking) == "highest", ast.Reputation(), wording="each player")

    # players chosen by a comparison or a clause, and acting for themselves
    def group(self, items: list[Any]) -> tuple[str, ...]:
        return tuple(str(i) for i in items if i is not None)

    @staticmethod
    def _group(items: list[Any]) -> tuple[bool, str, list[Any]]:
        """(other, wording, the items after the group's words) of a group of players."""
        if isinstance(items[0], tuple):
            words = tuple(w for w in items[0] if w != "None")
            return words[-1] == "opponent" or "other" in words, " ".join(words), items[1:]
        other = items[1] is not None
        return other, "every other player" if other else "every player", items[3:]

    def players_who(self, items: list[Any]) -> ast.PlayersWho | ast.EveryPlayer:
        other, wording, rest = self._group(items)
        clause = rest[0] if rest else None
        if clause is None:  # "each player", "each opponent": the canonical "every [other] player"
            return ast.EveryPlayer(other)
        word, where = clause
        return ast.PlayersWho(other, where, wording=wording, clause=word)

    def players_than_you(self, items: list[Any]) -> ast.PlayersThanYou:
        cmp, measure = next(i for i in items if isinstance(i, Token) and i.type == "CMP"), items[-1]
        other, wording, _rest = self._group(items)
        return ast.PlayersThanYou(other, str(cmp) == "more", measure, wording=wording)

    def players_with_most(self, items: list[Any]) -> ast.PlayersWithMost:
        *_, most, measure = items
        if str(items[0]) == "the":  # "the player with the most ...": refused by the checker (E31) but
            # for reputation, where nobody ties
            each = isinstance(measure, ast.Reputation)
            return ast.PlayersWithMost(False, str(most) == "most", measure, each,
                                       wording="each player" if each else "the player")
        other, wording, _rest = self._group(items)
        return ast.PlayersWithMost(other, str(most) == "most", measure, wording=wording)

    def they_have_doubloons(self, items: list[Any]) -> tuple[str, ast.HaveDoubloons]:
        words = [str(i) for i in items]
        if words[-4:-2] == ["at", "least"]:  # "with at least 3 doubloons": "with 3 or more doubloons"
            return words[0], ast.HaveDoubloons(int(words[-2]), False)
        n, cmp = words[-4], words[-2]
        return words[0], ast.HaveDoubloons(int(n), cmp == "fewer")

    def they_have_characters(self, items: list[Any]) -> tuple[str, ast.Exists | ast.CountExists]:
        quantity, np = items[-2:]
        if quantity[0] == "no" and np.plural:  # "each player with no characters in their ship": "no character"
            np = ast.CharNP(np.other, np.noun, np.filters, line=np.line, column=np.column)
        if quantity[0] in ("a", "no"):
            return str(items[0]), ast.Exists(np, quantity[0] == "no")
        return str(items[0]), ast.CountExists(int(quantity[0]), quantity[2], np)

    def they_hold(self, items: list[Any]) -> tuple[str, ast.Hold | ast.HoldCount]:
        return "who", self.hold(items[-2:])

    @v_args(meta=True)
    def they_return(self, meta: Any, items: list[Any]) -> ast.ReturnLoot:
        by, what = items
        return ast.ReturnLoot(what, by=by, **self._at(meta))

    @v_args(meta=True)
    def they_discard(self, meta: Any, items: list[Any]) -> ast.Discard:
        by, target = items
        return ast.Discard(target, by=by, **self._at(meta))

    @v_args(meta=True)
    def they_give(self, meta: Any, items: list[Any]) -> ast.Give:
        by, what, *to = items
        return ast.Give(what, to[0] if to else ast.You(), by=by, **self._at(meta))

    def their_place(self, items: list[Any]) -> tuple[str, str, str]:
        return "their", str(items[-1]), ""

    def their_loot(self, items: list[Any]) -> tuple[str, str]:
        return "theirs", ""

    def every_loot_theirs(self, items: list[Any]) -> ast.EveryLootBut:
        np, keep = items
        return ast.EveryLootBut(np, int(keep), "their")


    # ------------------------------------------------------------ printed wordings (issue 34.1)
    def _printed(self, ability: ast.Ability) -> ast.Ability:
        """The ability with the printed wordings only a whole ability settles in canonical words (``printed``)."""
        try:
            return printed.resolve(ability)
        except printed.Unreadable as exc:
            raise VariantError(exc.message, _Where(ability.line, ability.column), exc.expected) from None

    def ordinal(self, items: list[Any]) -> ast.Positional:
        """"the last character on the island": a position ``printed`` reads by the ability's timing."""
        return ast.Positional(str(items[0]), items[1])

    def is_ordinal(self, items: list[Any]) -> ast.IsPositioned:
        ref, verb, word, np = items
        return ast.IsPositioned(ref, str(word), np, verb=str(verb))

    def adjacent(self, items: list[Any]) -> ast.Zone:
        """"adjacent to this one": a mark ``printed`` rewrites with "left of this" and "right of this"."""
        return printed.ADJACENT

    @v_args(meta=True)
    def beside_either(self, meta: Any, items: list[Any]) -> ast.Beside:
        """"the character next to this one": this has two neighbours, so the wording reads two ways."""
        raise VariantError('"the character next to this one" reads two ways: the character left of this, or the '
                           'character right of this', _Where(**self._at(meta)),
                           '"the character left of this", "the character right of this", or "a character adjacent '
                           'to this one" (the owner chooses)')

    @v_args(meta=True)
    def discard_loot(self, meta: Any, items: list[Any]) -> ast.ReturnLoot:
        """"discard a relic you hold": a discarded token goes back to the bag, so "return … to the bag"."""
        return ast.ReturnLoot(items[0], **self._at(meta))

    @v_args(meta=True)
    def discard_loot_held(self, meta: Any, items: list[Any]) -> ast.ReturnLoot:
        """"discard a barrel": one you hold, back to the bag."""
        return ast.ReturnLoot(self.one_of_yours(meta, items), **self._at(meta))

    @v_args(meta=True)
    def one_of_yours(self, meta: Any, items: list[Any]) -> ast.ChooseLoot:
        """"one of your relics": "a relic you hold"."""
        return ast.ChooseLoot(ast.LootNP(items[-1], "held", "", **self._at(meta)))

    @v_args(meta=True)
    def this_token(self, meta: Any, items: list[Any]) -> ast.ThisToken:
        """"this relic" (or "this token") on a loot tile: the token the ability runs for, one you hold."""
        kinds = tuple(str(i) for i in items if isinstance(i, Token) and i.type == "KIND")
        return ast.ThisToken(ast.LootNP(kinds, "held", "", **self._at(meta)))

    def all_players(self, items: list[Any]) -> ast.EveryPlayer:
        """"all players" is every player; "all opponents", "your opponents", "other players" every other one."""
        return ast.EveryPlayer(str(items[-1]) != "players" or any(str(i) == "other" for i in items if i is not None))

    def plural_verb(self, items: list[Any]) -> tuple[str, Any]:
        word = str(items[0])
        if word == "move":
            return self.player_verb([Token("MOVES", "moves"), *items[1:]])
        return {"gain": "gain", "lose": "lose", "pay": "pays", "give": "pays"}[word], items[-1]

    @v_args(meta=True)
    def all_players_act(self, meta: Any, items: list[Any]) -> Any:
        """"all opponents lose 1 doubloon": "every other player loses 1 doubloon"."""
        return self.player_acts(meta, [items[0], items[-1]])

    def chosen_player(self, items: list[Any]) -> ast.ChosenPlayer:
        """"a player of your choice" (you included); "another player", "an opponent" of your choice leave you out."""
        return ast.ChosenPlayer(any(str(i) in ("another", "opponent") for i in items if isinstance(i, Token)))

    @v_args(meta=True)
    def chosen_player_acts(self, meta: Any, items: list[Any]) -> Any:
        """"choose an opponent: they lose 2 doubloons": "another player of your choice loses 2 doubloons"."""
        return self.player_acts(meta, [self.chosen_player(items), items[-1]])

    @v_args(meta=True)
    def chosen_player_discard(self, meta: Any, items: list[Any]) -> ast.Discard:
        return ast.Discard(items[-1], by=self.chosen_player(items), **self._at(meta))

    @v_args(meta=True)
    def all_players_discard(self, meta: Any, items: list[Any]) -> ast.Discard:
        return ast.Discard(items[-1], by=items[0], **self._at(meta))

    @v_args(meta=True)
    def all_players_return(self, meta: Any, items: list[Any]) -> ast.ReturnLoot:
        return ast.ReturnLoot(items[-1], by=items[0], **self._at(meta))

    @v_args(meta=True)
    def have_the_most(self, meta: Any, items: list[Any]) -> ast.Compare:
        """"you have the most reputation" is "the highest reputation"; of anything else, it reads two ways."""
        most, measure = str(items[0]), items[1]
        if isinstance(measure, ast.Reputation):
            return ast.Compare("more" if most == "most" else "fewer", measure)
        cmp, tie = ("more", "at least as many as") if most == "most" else ("fewer", "no more than")
        raise VariantError(f'"the {most} …" reads two ways on a tie: {cmp} than every other player (a tie is not the '
                           f'{most}), or {tie} any other player (a tie counts)', _Where(**self._at(meta)),
                           f'"you have {cmp} … than every other player"'
                           + (' or "you have at least as many … as every other player"' if most == "most" else ""))

    def count_loot_yours(self, items: list[Any]) -> ast.CountLoot:
        """"for each of your maps": "for each map you hold"."""
        return ast.CountLoot(items[-1])

    @v_args(meta=True)
    def draw_from_bag(self, meta: Any, items: list[Any]) -> ast.Draw:
        """"draw two loot tokens": "draw 2 random loot from the bag" (one draws from the bag only)."""
        count, per = items[0], items[-1]
        n = int(count) if isinstance(count, Token) and count.type == "NUMBER" else 1
        return ast.Draw(n, per, **self._at(meta))

    @v_args(meta=True)
    def send_loot_held(self, meta: Any, items: list[Any]) -> ast.Give | ast.ReturnLoot:
        """"return a map to the bag", "give a relic to …": a token you hold."""
        kinds, *to = items
        sent: ast.Give | ast.ReturnLoot = self.send_loot(meta, [self.one_of_yours(meta, [kinds]), *to])
        return sent

    def ranked_unhyphenated(self, items: list[Any]) -> ast.Positional:
        """"the highest ranked character": "the highest-ranked character"."""
        return ast.Positional(f"{items[0]}-ranked", items[-1])

    def is_ranked_unhyphenated(self, items: list[Any]) -> ast.IsPositioned:
        ref, verb, ranking, np = items
        return ast.IsPositioned(ref, f"{ranking}-ranked", np, verb=str(verb))

    def rival_printed(self, items: list[Any]) -> tuple[str, str]:
        """"than each opponent", "than all other players": "than every other player"."""
        return str(items[0]), "every"

    def _than(self, meta: Any, cmp: Any, number: Any) -> tuple[int, str]:
        """"more than 3": (4, "more"); "fewer than 3": (2, "fewer"); "fewer than 0" counts nothing and is refused."""
        n = int(number) + (1 if str(cmp) == "more" else -1)
        if n < 0:
            raise VariantError(f'nothing is "fewer than {number}"', _Where(**self._at(meta)), "a number of 1 or more")
        return n, str(cmp)

    @v_args(meta=True)
    def quantity_than(self, meta: Any, items: list[Any]) -> tuple[str, ...]:
        """"more than 3 maps": "4 or more maps"."""
        n, cmp = self._than(meta, items[0], items[-1])
        return (str(n), "or", cmp)

    @v_args(meta=True)
    def have_doubloons_than(self, meta: Any, items: list[Any]) -> ast.HaveDoubloons:
        """"you have fewer than 5 doubloons": "you have 4 or fewer doubloons"."""
        n, cmp = self._than(meta, items[0], items[1])
        return ast.HaveDoubloons(n, cmp == "fewer")

    @v_args(meta=True)
    def they_have_doubloons_than(self, meta: Any, items: list[Any]) -> tuple[str, ast.HaveDoubloons]:
        """"with more than 9 doubloons": "with 10 or more doubloons"."""
        words = [i for i in items if isinstance(i, Token)]
        n, cmp = self._than(meta, words[-4], words[-2])  # CMP "than" NUMBER "doubloons"
        return str(words[0]), ast.HaveDoubloons(n, cmp == "fewer")

    def hold_exactly(self, items: list[Any]) -> list[ast.Cond]:
        """"you hold exactly 2 maps": "you hold 2 or more map and you hold 2 or fewer map"."""
        n, kinds = int(items[0]), items[1]
        return [ast.HoldCount(n, "more", kinds), ast.HoldCount(n, "fewer", kinds)]

    def there_exactly(self, items: list[Any]) -> list[ast.Cond]:
        """"there are exactly 2 characters in your ship": "… 2 or more … and … 2 or fewer …"."""
        n, np = int(items[0]), items[1]
        return [ast.CountExists(n, "more", np), ast.CountExists(n, "fewer", np)]

    def have_exactly(self, items: list[Any]) -> list[ast.Cond]:
        """"you have exactly 5 doubloons": "you have 5 or more doubloons and you have 5 or fewer doubloons"."""
        n = int(items[0])
        return [ast.HaveDoubloons(n, False), ast.HaveDoubloons(n, True)]

    def seat_opponent(self, items: list[Any]) -> ast.PlayerOnSide:
        """"your opponent on the left", "the opponent to your right": "the player on your left" (or right)."""
        return ast.PlayerOnSide(str(next(i for i in items if isinstance(i, Token) and i.type == "SIDE")))

    def others_np(self, items: list[Any]) -> ast.CharNP:
        """"each opponent's character …": the character phrase with "owned by another player" after it."""
        np: ast.CharNP = items[-1]
        return np

    @v_args(meta=True)
    def char_np_owned(self, meta: Any, items: list[Any]) -> ast.CharNP:
        np = self.char_np(meta, [None, *items])
        zone = np.zone
        if zone is not None and zone.place == "their":
            # "an opponent's character in their ship": English reads "their" as that opponent, and a possessive
            # names no one player for it to stand for; the opponent's pile is a place of its own.
            raise VariantError(f'"their {zone.pile}" after an opponent\'s possessive ("an opponent\'s character …") '
                               "speaks of that opponent; the language reads \"their\" only of a player an action or "
                               f"a clause is about, so name the opponents' {zone.pile} as the place",
                               _Where(**self._at(meta)),
                               _THEIR_AFTER_POSSESSIVE[zone.pile])
        return ast.CharNP(np.other, np.noun, (*np.filters, ast.OwnedBy("other")), plural=np.plural,
                          line=np.line, column=np.column)

    def another_players(self, items: list[Any]) -> ast.ChooseChar:
        """"another player's character": "a character owned by another player"."""
        return ast.ChooseChar(items[-1])

    @v_args(meta=True)
    def discarded(self, meta: Any, items: list[Any]) -> ast.Discard:
        """"each character next to this one is discarded": "discard …".  The passive names no one who picks, so a
        character to be picked reads two ways and is refused naming both."""
        target = items[0]
        if isinstance(target, ast.ChooseChar):
            raise VariantError('"… is discarded" names no one who picks the character: you (as in "discard a '
                               'character …"), or its owner (as in "its owner discards …")', _Where(**self._at(meta)),
                               '"discard a character …" (you pick it), or name one: "the rightmost character …", '
                               '"every character …"')
        return ast.Discard(target, **self._at(meta))

    @v_args(meta=True)
    def took(self, meta: Any, items: list[Any]) -> ast.JustTook:
        """"you took a map": "you just took a map" (the token taken at dusk); "… this day" reads two ways."""
        kinds, *day = [i for i in items if i is not None]
        if day:
            said = " ".join(str(t) for t in day)
            raise VariantError(f'"you took … {said}" reads two ways: the token you took at dusk ("you just took"), or '
                               f'any token you took {said}, a day ability\'s too, which the card language does not '
                               f'record', _Where(**self._at(meta)), '"if you just took a map" in a dusk ability')
        return ast.JustTook(kinds)

    @v_args(meta=True)
    def worth_this(self, meta: Any, items: list[Any]) -> ast.Worth:
        """"this card is worth 3 doubloons": what it pays at the voyage's end (``normalise.worths``)."""
        if not isinstance(items[0], ast.This):
            raise VariantError('"is worth" is said of this card or its token: another character has no worth of its '
                               'own', _Where(**self._at(meta)), '"this is worth N doubloons" in an anchor ability')
        return self._worth(meta, "this", (), items[1:])

    @v_args(meta=True)
    def worth_token(self, meta: Any, items: list[Any]) -> ast.Worth:
        kinds = tuple(str(i) for i in items if isinstance(i, Token) and i.type == "KIND")
        return self._worth(meta, "token", kinds, items)

    @v_args(meta=True)
    def worth_kind(self, meta: Any, items: list[Any]) -> ast.Worth:
        kinds = tuple(str(i) for i in items if isinstance(i, Token) and i.type == "KIND")
        return self._worth(meta, "kind", kinds, items)

    def _worth(self, meta: Any, of: str, kinds: tuple[str, ...], items: list[Any]) -> ast.Worth:
        tokens = [i for i in items if isinstance(i, Token)]
        n = next(int(t) for t in tokens if t.type == "NUMBER")
        unit = _unit(next(t for t in tokens if t.type == "UNIT"))
        more = any(str(t) in ("more", "extra") for t in tokens)
        return ast.Worth(of, kinds, ast.Fixed(n, unit), more, **self._at(meta))

    @v_args(meta=True)
    def instead_of_loot(self, meta: Any, items: list[Any]) -> tuple[ast.Ability, ast.Ability]:
        """"Instead of taking a loot token, gain 3 doubloons" is two abilities: "take no loot." and the effect."""
        (timing, modifiers), steps = items[0], items[-1]
        at = self._at(meta)
        no_loot = ast.Step("plain", (ast.TakeNoLoot(**at),), None, None, **at)
        return (ast.Ability(timing, (), (no_loot,), **at), self._printed(ast.Ability(timing, modifiers, steps, **at)))

    # printed wordings, second set (issue 34; docs/card-language.md, "Printed wordings, second set")
    @v_args(meta=True)
    def take_not(self, meta: Any, items: list[Any]) -> ast.TakeNoLoot:
        """"do not take a loot token": the standing rule "take no loot"."""
        return ast.TakeNoLoot(**self._at(meta))

    def just_took_token(self, items: list[Any]) -> ast.JustTook:
        """"the loot token you took is a map": "you just took a map"."""
        return ast.JustTook(items[-1])

    @v_args(meta=True)
    def at_random(self, meta: Any, items: list[Any]) -> ast.RandomLoot:
        """"take a loot token at random from the bag" ("1 loot token"): "take a random loot from the bag"."""
        *counts, kinds, (place, prep) = items
        if counts and counts[0] != (1,):
            said = " or ".join(str(n) for n in counts[0])
            raise VariantError(f'"{said} … at random": a random token is taken one at a time, and its ability runs',
                               _Where(**self._at(meta)),
                               '"take a random loot from the bag" once for each token (each runs its ability), or '
                               '"draw N random loot from the bag" (no ability runs)')
        return ast.RandomLoot(ast.LootNP(kinds, place, prep, **self._at(meta)))


_OWNED_BY_WORDS = frozenset({"owned", "by", "that", "belongs", "belong", "belonging", "to"})
"""The words before the owner in ``owned_by`` (the owner's own words are never one of them)."""


_THEIR_AFTER_POSSESSIVE: Final = {
    "ship": "\"a character in an opponent's ship\" (\"every character in an opponent's ship\" for all of them, \"the "
            "lowest-ranked character in each opponent's ship\" for one in each)",
    "graveyard": "\"a character in another player's graveyard\" (\"every character in another player's graveyard\" for "
                 "all of them)",
    "hand": "\"take a random character from another player's hand\" (a hand is hidden: E41), or let them act: \"each "
            "opponent discards a character from their hand\"",
}
"""The nearest sayable wording of "an opponent's character in their PILE", by pile: the opponents' pile as a place."""


class _Where(NamedTuple):
    """Where a wording stands, for an error about a phrase that builds no step of its own."""

    line: int
    column: int


class VariantError(Exception):
    """A variant wording that cannot be given one meaning, at the step (or phrase) it stands in."""

    def __init__(self, message: str, where: ast.Step | _Where, expected: str) -> None:
        super().__init__(message)
        self.message, self.line, self.column, self.expected = message, where.line, where.column, expected


def _one_kind(words: list[str], at: _Pos) -> str:
    """The one loot kind a scoring names, in every set or row ("map" and "maps" are one)."""
    if len({w.removesuffix("s") for w in words}) != 1:
        raise VariantError("a scoring counts one kind of loot, and names " + ", ".join(dict.fromkeys(words)),
                           _Where(**at), "one kind in every set or row")
    return min(words, key=len)


def _doubloons_only(units: list[str], at: _Pos) -> None:
    if any(u not in ("doubloons", "doubloon") for u in units):
        raise VariantError("a scoring pays doubloons", _Where(**at), '"… doubloons" in every set or row')


class _Replacing:
    """A conditional step written with "instead", before ``effect`` folds it into the step it replaces."""

    __slots__ = ("step",)

    def __init__(self, step: ast.Step) -> None:
        self.step = step


_BREAK = object()
"""What ``sentence_break`` leaves among an effect's steps: a new sentence begins there."""


def _instead(sentence: list[ast.Step], replacing: _Replacing) -> ast.Step:
    """"A. If C, B instead." is the canonical "B if C; otherwise A" ("A. B instead unless C": "A if C; …").

    ``sentence`` is every step the reader sees "instead" replace: one plain step, or it is refused
    (a step's ``otherwise`` holds one step's actions, so "A, then B. If C, D instead." has no tree).
    """
    step = replacing.step
    if len(sentence) > 1:
        raise VariantError('"instead" replaces the sentence it follows (every step since the last full stop), and '
                           f'here that is {len(sentence)} steps joined by "then": one "otherwise" cannot hold them',
                           step,
                           'one step before "instead", its actions joined by "and": "A and B. If C, D instead." '
                           '(that is "D if C; otherwise A and B")')
    previous = sentence[0] if sentence else None
    if previous is None or previous.form != "plain":
        raise VariantError('"instead" replaces the step just before it, which must be a plain one (no '
                           '"if", "unless" or "you may" of its own)', step, 'a plain step, then the '
                           '"if …, … instead" that replaces it')
    assert step.condition is not None
    if step.form == "unless":
        return ast.Step("postfix_if", previous.actions, step.condition, step.actions, line=previous.line,
                        column=previous.column)
    return ast.Step("postfix_if", step.actions, step.condition, previous.actions, line=previous.line,
                    column=previous.column)


def _unit(word: object) -> str:
    """An amount's unit: "doubloon" is "doubloons"."""
    return "reputation" if str(word) == "reputation" else "doubloons"


def _present(items: list[Any]) -> list[Any]:
    """The items an optional word left as ``None`` dropped ("you gain" and "gain" alike)."""
    return [i for i in items if i is not None]


_OTHER_THAN_THIS = object()
"""The mark "other than this" leaves among a noun phrase's filters, for ``char_np`` to read as "other"."""


_TIMINGS = {"day": "sun", "night": "moon", "end": "anchor"}
"""Timings as printed cards say them, and the library's names for them ("end of voyage": anchor)."""


_SHIP_PLACES = {
    "any ship": ("any_ship", "", "any"),
    "any player's ship": ("any_ship", "", "any"),  # printed wordings (issue 34): yours included, as "any ship"
    "every ship": ("any_ship", "", "every"),
    "another player's ship": ("other_ship", "", "another player's"),
    "an opponent's ship": ("other_ship", "", "an opponent's"),
    "an adjacent player's ship": ("adjacent_ship", "", ""),
    "each player's ship": ("each_ship", "", ""),
    "every player's ship": ("each_ship", "", ""),
    "each other player's ship": ("each_opponent_ship", "", ""),
    "every other player's ship": ("each_opponent_ship", "", ""),
    "each opponent's ship": ("each_opponent_ship", "", ""),
    "each adjacent player's ship": ("each_adjacent_ship", "", ""),
}
_LOOT_PLACES = {"today's loot": "today", "tomorrow's loot": "tomorrow", "the bag": "bag",
                "an adjacent player": "adjacent_player", "another player": "other_player",
                "the player on your left": "left_player", "the player on your right": "right_player"}
