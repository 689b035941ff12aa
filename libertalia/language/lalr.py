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
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .. import _paths
from ..errors import CardError, CardErrors
from . import ast
from .lexer import MAX_DIGITS, UnknownCharacter, WordLexer
from .suggest import did_you_mean

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
_PUNCT_WORDS = {"COLON": '":"', "COMMA": '","', "DOT": '"."', "SEMICOLON": '";"', "LPAR": '"("', "RPAR": '")"'}


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
    choices = [w for n in names if n not in _CLASS_WORDS and n not in _PUNCT_WORDS
               for w in _spellings().get(n, ())]
    if "NOUN" in names:
        choices += ["character", "characters"]
    return did_you_mean(word, choices)


class _Place(NamedTuple):
    """Where a card text sits in its file (``parser.parse`` gives the fields' meaning)."""

    path: str
    line0: int
    col0: int
    indent: int
    file_lines: list[str] | None


def _errors(exc: Exception, text: str, place: _Place) -> CardError:
    """Every error of the text, each with the nearest wording that parses (``repair``), else lark's one.

    The search runs only here, after a parse failed: a text that parses never imports it.
    """
    if isinstance(exc, UnexpectedToken):  # a word out of place (a bad character stops the words themselves)
        from .repair import diagnose

        found = diagnose(text, shared_parser())
        if found:
            return CardErrors.of([_problem_error(p, text, place) for p in found])
    return _error(exc, text, place)


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
    abilities: tuple[ast.Ability, ...] = ToAst(line, column, indent).transform(tree)
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
        return tuple(i for i in items if isinstance(i, ast.Ability))

    @v_args(meta=True)
    def ability(self, meta: Any, items: list[Any]) -> ast.Ability:
        (timing, modifiers), steps = items
        return ast.Ability(timing, modifiers, steps, **self._at(meta))

    def trigger(self, items: list[Any]) -> tuple[str, tuple[str, ...]]:
        return str(items[0]), tuple(str(i) for i in items[1:])

    def effect(self, items: list[Any]) -> tuple[ast.Step, ...]:
        return tuple(items)

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

    def actions(self, items: list[Any]) -> tuple[Any, ...]:
        return tuple(items)

    # actions
    @v_args(meta=True)
    def gain(self, meta: Any, items: list[Any]) -> ast.Change:
        return ast.Change("gain", items[0], None, **self._at(meta))

    @v_args(meta=True)
    def lose(self, meta: Any, items: list[Any]) -> ast.Change:
        return ast.Change("lose", items[0], None, **self._at(meta))

    @v_args(meta=True)
    def player_acts(self, meta: Any, items: list[Any]) -> Any:
        subject, (verb, amount) = items
        if verb == "pays":
            return ast.PaysYou(subject, amount, **self._at(meta))
        return ast.Change(verb, amount, subject, **self._at(meta))

    def player_verb(self, items: list[Any]) -> tuple[str, Any]:
        word = str(items[0])
        return {"gains": "gain", "loses": "lose", "pays": "pays"}[word], items[-1]

    def player(self, items: list[Any]) -> ast.PlayerRef:
        words = [str(i) for i in items if isinstance(i, Token)]
        if words[:2] == ["its", "owner"]:
            return ast.ItsOwner()
        if words[:3] == ["the", "owner", "of"]:
            return ast.OwnerOf(items[3])
        if words[0] == "every":
            return ast.EveryPlayer(items[1] is not None)
        return ast.PlayerOnSide(words[-1])

    @v_args(meta=True)
    def give(self, meta: Any, items: list[Any]) -> ast.Give:
        return ast.Give(items[0], items[1], **self._at(meta))

    @v_args(meta=True)
    def draw(self, meta: Any, items: list[Any]) -> ast.Draw:
        n, _random, per = items
        return ast.Draw(int(n), per, **self._at(meta))

    @v_args(meta=True)
    def move_reputation(self, meta: Any, items: list[Any]) -> ast.MoveReputation:
        return ast.MoveReputation(str(items[0]), **self._at(meta))

    @v_args(meta=True)
    def discard(self, meta: Any, items: list[Any]) -> ast.Discard:
        return ast.Discard(items[0], **self._at(meta))

    @v_args(meta=True)
    def put(self, meta: Any, items: list[Any]) -> ast.Put:
        return ast.Put(items[0], str(items[1]), **self._at(meta))

    @v_args(meta=True)
    def play(self, meta: Any, items: list[Any]) -> ast.Play:
        return ast.Play(items[0], **self._at(meta))

    @v_args(meta=True)
    def take(self, meta: Any, items: list[Any]) -> ast.Take | ast.TakeNoLoot:
        what = items[0]
        if what is None:
            return ast.TakeNoLoot(**self._at(meta))
        return ast.Take(what, **self._at(meta))

    def take_what(self, items: list[Any]) -> Any:
        return items[0] if items else None  # "no loot" keeps no item

    @v_args(meta=True)
    def return_loot(self, meta: Any, items: list[Any]) -> ast.ReturnLoot:
        return ast.ReturnLoot(items[0], **self._at(meta))

    @v_args(meta=True)
    def keep(self, meta: Any, items: list[Any]) -> ast.Keep | ast.KeepLoot:
        what = items[0]
        if isinstance(what, ast.ChooseLoot | ast.RandomLoot | ast.EveryLoot | ast.EveryLootBut | ast.ChooseLootN
                      | ast.ChooseLootSet):
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
        n, unit, per = items
        unit = "reputation" if str(unit) == "reputation" else "doubloons"
        return ast.Fixed(int(n), unit, per)

    def half(self, items: list[Any]) -> ast.Half:
        return ast.Half()

    def up_to(self, items: list[Any]) -> ast.UpTo:
        return ast.UpTo(int(items[0]))

    def by_table(self, items: list[Any]) -> ast.ByTable:
        return ast.ByTable(items[0], items[1])

    def in_sets(self, items: list[Any]) -> ast.InSets:
        return ast.InSets(str(items[0]), items[1])

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

    def count_affected(self, items: list[Any]) -> ast.CountAffected:
        return ast.CountAffected(str(items[0]))

    # characters
    def this(self, items: list[Any]) -> ast.This:
        return ast.This()

    def it(self, items: list[Any]) -> ast.It:
        return ast.It()

    def taker(self, items: list[Any]) -> ast.Taker:
        return ast.Taker()

    def beside(self, items: list[Any]) -> ast.Beside:
        return ast.Beside(str(items[0]))

    def char_ref(self, items: list[Any]) -> str:
        words = [str(i) for i in items]
        return "taker" if len(words) > 1 else words[0]

    def article(self, items: list[Any]) -> str:
        return str(items[0])

    def choose_one(self, items: list[Any]) -> ast.ChooseChar:
        article, np = items
        if str(article) == "another":
            return ast.ChooseChar(ast.CharNP(True, np.noun, np.filters, plural=np.plural, line=np.line,
                                             column=np.column), True)
        return ast.ChooseChar(np)

    def every(self, items: list[Any]) -> ast.EveryChar:
        return ast.EveryChar(items[0])

    def positional(self, items: list[Any]) -> ast.Positional:
        return ast.Positional(str(items[0]), items[1])

    @v_args(meta=True)
    def char_np(self, meta: Any, items: list[Any]) -> ast.CharNP:
        other, noun, *filters = items
        word = str(noun)
        plural = word == "characters"
        return ast.CharNP(other is not None, "character" if plural else word, tuple(filters), plural=plural,
                          **self._at(meta))

    def ranked(self, items: list[Any]) -> ast.RankedAbove | ast.RankedBelow:
        _ranked, direction, n = (str(i) for i in items)
        return ast.RankedAbove(int(n)) if direction == "above" else ast.RankedBelow(int(n))

    def with_ability(self, items: list[Any]) -> ast.WithAbility:
        return ast.WithAbility(str(items[0]))

    def owned_by(self, items: list[Any]) -> ast.OwnedBy:
        words = [str(i) for i in items]
        if words[2] == "you":
            return ast.OwnedBy("you")
        if words[2] == "another":
            return ast.OwnedBy("other")
        return ast.OwnedBy("player", ast.PlayerOnSide(words[-1]))

    def zone(self, items: list[Any]) -> ast.Zone:
        prep, (place, pile, wording) = items
        return ast.Zone(str(prep), place, pile, wording)

    def place(self, items: list[Any]) -> tuple[str, str, str]:
        words = [str(i) for i in items]
        if words == ["the", "island"]:
            return ("island", "", "")
        if words[0] == "your":
            return ("your", words[1], "")
        return _SHIP_PLACES[" ".join(words)]

    # loot
    def choose_loot(self, items: list[Any]) -> ast.ChooseLoot | ast.RandomLoot:
        random, np = items
        return ast.ChooseLoot(np) if random is None else ast.RandomLoot(np)

    def every_loot(self, items: list[Any]) -> ast.EveryLoot | ast.EveryLootBut:
        np, keep = items
        return ast.EveryLoot(np) if keep is None else ast.EveryLootBut(np, int(keep))

    @v_args(meta=True)
    def counted_loot(self, meta: Any, items: list[Any]) -> ast.ChooseLootN | ast.ChooseLootSet:
        counts, kinds, one_kind, (place, prep) = items
        np = ast.LootNP(kinds, place, prep, **self._at(meta))
        return ast.ChooseLootN(counts, np) if one_kind is None else ast.ChooseLootSet(counts, np)

    @v_args(meta=True)
    def loot_np(self, meta: Any, items: list[Any]) -> ast.LootNP:
        kinds, (place, prep) = items
        return ast.LootNP(kinds, place, prep, **self._at(meta))

    def any_kind(self, items: list[Any]) -> tuple[str, ...]:
        return ()

    def some_kinds(self, items: list[Any]) -> tuple[str, ...]:
        return tuple(str(i) for i in items)

    def loot_place(self, items: list[Any]) -> tuple[str, str]:
        words = [str(i) for i in items]
        if words == ["you", "hold"]:
            return "held", ""
        return _LOOT_PLACES[" ".join(words[1:])], words[0]

    # conditions
    def condition(self, items: list[Any]) -> ast.Condition:
        return ast.Condition(tuple(i for i in items if isinstance(i, tuple)))

    def conjunction(self, items: list[Any]) -> tuple[ast.Cond, ...]:
        return tuple(items)

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
        return ast.HaveDoubloons(int(items[0]), str(items[1]) == "fewer")

    def no_other_has(self, items: list[Any]) -> ast.NoOtherHas:
        _other, cmp, pile = items
        return ast.NoOtherHas(str(cmp), str(pile))

    def quantity(self, items: list[Any]) -> tuple[str, ...]:
        return tuple(str(i) for i in items)

    def hold(self, items: list[Any]) -> ast.Hold | ast.HoldCount:
        quantity, kinds = items
        if quantity[0] in ("a", "no"):
            return ast.Hold(kinds, quantity[0] == "no")
        return ast.HoldCount(int(quantity[0]), quantity[2], kinds)

    def just_took(self, items: list[Any]) -> ast.JustTook:
        return ast.JustTook(items[0])

    def there_is(self, items: list[Any]) -> ast.Exists | ast.CountExists:
        quantity, np = items
        if quantity[0] in ("a", "no"):
            return ast.Exists(np, quantity[0] == "no")
        return ast.CountExists(int(quantity[0]), quantity[2], np)

    def none_at_nightfall(self, items: list[Any]) -> ast.Exists:
        return ast.Exists(items[0], True, True)

    def you_did(self, items: list[Any]) -> ast.YouDid:
        return ast.YouDid()


_SHIP_PLACES = {
    "any ship": ("any_ship", "", "any"),
    "every ship": ("any_ship", "", "every"),
    "another player's ship": ("other_ship", "", "another player's"),
    "an opponent's ship": ("other_ship", "", "an opponent's"),
    "an adjacent player's ship": ("adjacent_ship", "", ""),
    "each player's ship": ("each_ship", "", ""),
    "each opponent's ship": ("each_opponent_ship", "", ""),
    "each adjacent player's ship": ("each_adjacent_ship", "", ""),
}
_LOOT_PLACES = {"today's loot": "today", "tomorrow's loot": "tomorrow", "the bag": "bag",
                "an adjacent player": "adjacent_player"}
