"""Card text to syntax tree.

The grammar file is the single source of truth; this module only turns Lark's
tree into the frozen AST and Lark's exceptions into :class:`CardError` with
plain-word expectations.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any, TypedDict

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .. import _paths
from ..errors import CardError
from . import ast
from .lexer import UnknownCharacter, WordLexer
from .suggest import did_you_mean

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
def _lark() -> Lark:
    return Lark(
        _paths.grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        lexer=WordLexer,
        strict=True,
        propagate_positions=True,
        maybe_placeholders=True,
    )


def grammar() -> Lark:
    """The built parser (for tools that read the grammar, such as ``cards words``)."""
    return _lark()


def grammar_rule_count() -> int:
    """Number of grammar productions: a size measure for the language."""
    return len(_lark().rules)


@functools.cache
def _spellings() -> dict[str, tuple[str, ...]]:
    """The words each terminal stands for, read from the grammar."""
    out: dict[str, tuple[str, ...]] = {}
    for t in _lark().terminals:
        if t.pattern.type == "str":
            out[t.name] = (t.pattern.value,)
        else:
            body = t.pattern.value
            words = re.fullmatch(r"\(\?:([a-z'\- |]+)\)", body)
            if words:
                out[t.name] = tuple(words.group(1).split("|"))
    return out


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


def _error(exc: Exception, text: str, path: str, line0: int, col0: int, indent: int,
           file_lines: list[str] | None) -> CardError:
    lines = text.split("\n")
    suggestion = ""
    if isinstance(exc, UnknownCharacter):
        line, column = exc.line, exc.column
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
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    file_line = line + line0
    if file_lines is not None and 0 < file_line <= len(file_lines):
        source = file_lines[file_line - 1]
    return CardError(
        message + suggestion,
        path=path,
        line=file_line,
        column=column + (col0 if line == 1 else indent),
        source_line=source,
        expected=expected,
    )


def parse(text: str, *, path: str = "<text>", line: int = 0, column: int = 0, indent: int = 0,
          file_lines: list[str] | None = None) -> tuple[ast.Ability, ...]:
    """Parse card text (one ability per line) into abilities.

    ``line`` and ``column`` shift reported positions of the text's first line,
    ``indent`` those of later lines, so that errors and AST positions point
    into the file the text came from; ``file_lines`` lets an error quote the
    file's own line under its caret.
    """
    try:
        tree = _lark().parse(text)
    except (UnexpectedInput, UnknownCharacter) as exc:
        raise _error(exc, text, path, line, column, indent, file_lines) from None
    abilities: tuple[ast.Ability, ...] = _ToAst(line, column, indent).transform(tree)
    return abilities


def _tok(t: Any) -> str:
    return str(t)


class _Pos(TypedDict):
    line: int
    column: int


class _ToAst(Transformer[Token, Any]):
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
        actions, cond, other = items
        return ast.Step("postfix_if", actions, cond, other, **self._at(meta))

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

    def player_gains(self, items: list[Any]) -> tuple[str, Any]:
        return "gain", items[0]

    def player_loses(self, items: list[Any]) -> tuple[str, Any]:
        return "lose", items[0]

    def pays_you(self, items: list[Any]) -> tuple[str, Any]:
        return "pays", items[0]

    def owner_of(self, items: list[Any]) -> ast.OwnerOf:
        return ast.OwnerOf(items[0])

    def its_owner(self, items: list[Any]) -> ast.ItsOwner:
        return ast.ItsOwner()

    def player_on_side(self, items: list[Any]) -> ast.PlayerOnSide:
        return ast.PlayerOnSide(str(items[0]))

    def every_player(self, items: list[Any]) -> ast.EveryPlayer:
        return ast.EveryPlayer(items[0] is not None)

    @v_args(meta=True)
    def give(self, meta: Any, items: list[Any]) -> ast.Give:
        return ast.Give(items[0], items[1], **self._at(meta))

    @v_args(meta=True)
    def draw(self, meta: Any, items: list[Any]) -> ast.Draw:
        return ast.Draw(int(items[0]), items[1], **self._at(meta))

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
    def take_no_loot(self, meta: Any, items: list[Any]) -> ast.TakeNoLoot:
        return ast.TakeNoLoot(**self._at(meta))

    @v_args(meta=True)
    def take(self, meta: Any, items: list[Any]) -> ast.Take:
        return ast.Take(items[0], **self._at(meta))

    @v_args(meta=True)
    def return_loot(self, meta: Any, items: list[Any]) -> ast.ReturnLoot:
        return ast.ReturnLoot(items[0], **self._at(meta))

    @v_args(meta=True)
    def keep(self, meta: Any, items: list[Any]) -> ast.Keep:
        return ast.Keep(items[0], **self._at(meta))

    @v_args(meta=True)
    def keep_loot(self, meta: Any, items: list[Any]) -> ast.KeepLoot:
        return ast.KeepLoot(items[0], **self._at(meta))

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

    def count_loot(self, items: list[Any]) -> ast.CountLoot:
        return ast.CountLoot(items[0])

    def count_kinds(self, items: list[Any]) -> ast.CountKinds:
        return ast.CountKinds()

    def count_moved(self, items: list[Any]) -> ast.CountMoved:
        return ast.CountMoved()

    def count_spaces(self, items: list[Any]) -> ast.CountSpaces:
        return ast.CountSpaces(str(items[0]))

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

    def ref_this(self, items: list[Any]) -> str:
        return "this"

    def ref_it(self, items: list[Any]) -> str:
        return "it"

    def ref_taker(self, items: list[Any]) -> str:
        return "taker"

    def choose_one(self, items: list[Any]) -> ast.ChooseChar:
        return ast.ChooseChar(items[0])

    def choose_other(self, items: list[Any]) -> ast.ChooseChar:
        np = items[0]
        return ast.ChooseChar(ast.CharNP(True, np.noun, np.filters, plural=np.plural, line=np.line,
                                         column=np.column), True)

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

    def ranked_above(self, items: list[Any]) -> ast.RankedAbove:
        return ast.RankedAbove(int(items[0]))

    def ranked_below(self, items: list[Any]) -> ast.RankedBelow:
        return ast.RankedBelow(int(items[0]))

    def with_ability(self, items: list[Any]) -> ast.WithAbility:
        return ast.WithAbility(str(items[0]))

    def owned_by_other(self, items: list[Any]) -> ast.OwnedBy:
        return ast.OwnedBy("other")

    def owned_by_you(self, items: list[Any]) -> ast.OwnedBy:
        return ast.OwnedBy("you")

    def owned_by_neighbour(self, items: list[Any]) -> ast.OwnedBy:
        return ast.OwnedBy("player", ast.PlayerOnSide(str(items[0])))

    def zone(self, items: list[Any]) -> ast.Zone:
        prep, (place, pile, wording) = items
        return ast.Zone(str(prep), place, pile, wording)

    def island(self, items: list[Any]) -> tuple[str, str, str]:
        return ("island", "", "")

    def your_pile(self, items: list[Any]) -> tuple[str, str, str]:
        return ("your", str(items[0]), "")

    def any_ship(self, items: list[Any]) -> tuple[str, str, str]:
        return ("any_ship", "", "any")

    def every_ship(self, items: list[Any]) -> tuple[str, str, str]:
        return ("any_ship", "", "every")

    def other_ship(self, items: list[Any]) -> tuple[str, str, str]:
        return ("other_ship", "", "another player's")

    def opponent_ship(self, items: list[Any]) -> tuple[str, str, str]:
        return ("other_ship", "", "an opponent's")

    def adjacent_ship(self, items: list[Any]) -> tuple[str, str, str]:
        return ("adjacent_ship", "", "")

    def each_ship(self, items: list[Any]) -> tuple[str, str, str]:
        return ("each_ship", "", "")

    def each_opponent_ship(self, items: list[Any]) -> tuple[str, str, str]:
        return ("each_opponent_ship", "", "")

    def each_adjacent_ship(self, items: list[Any]) -> tuple[str, str, str]:
        return ("each_adjacent_ship", "", "")

    # loot
    def choose_loot(self, items: list[Any]) -> ast.ChooseLoot:
        return ast.ChooseLoot(items[0])

    def random_loot(self, items: list[Any]) -> ast.RandomLoot:
        return ast.RandomLoot(items[0])

    def every_loot(self, items: list[Any]) -> ast.EveryLoot:
        return ast.EveryLoot(items[0])

    def every_loot_but(self, items: list[Any]) -> ast.EveryLootBut:
        return ast.EveryLootBut(items[0], int(items[1]))

    def choose_loot_n(self, items: list[Any]) -> ast.ChooseLootN:
        return ast.ChooseLootN(items[0], items[1])

    @v_args(meta=True)
    def choose_loot_set(self, meta: Any, items: list[Any]) -> ast.ChooseLootSet:
        counts, (place, prep) = items
        return ast.ChooseLootSet(counts, ast.LootNP((), place, prep, **self._at(meta)))

    @v_args(meta=True)
    def loot_np(self, meta: Any, items: list[Any]) -> ast.LootNP:
        kinds, (place, prep) = items
        return ast.LootNP(kinds, place, prep, **self._at(meta))

    def any_kind(self, items: list[Any]) -> tuple[str, ...]:
        return ()

    def some_kinds(self, items: list[Any]) -> tuple[str, ...]:
        return tuple(str(i) for i in items)

    def today(self, items: list[Any]) -> tuple[str, str]:
        return "today", str(items[0])

    def tomorrow(self, items: list[Any]) -> tuple[str, str]:
        return "tomorrow", str(items[0])

    def bag(self, items: list[Any]) -> tuple[str, str]:
        return "bag", str(items[0])

    def adjacent_player(self, items: list[Any]) -> tuple[str, str]:
        return "adjacent_player", str(items[0])

    def held(self, items: list[Any]) -> tuple[str, str]:
        return "held", ""

    # conditions
    def condition(self, items: list[Any]) -> ast.Condition:
        return ast.Condition(tuple(i for i in items if isinstance(i, tuple)))

    def conjunction(self, items: list[Any]) -> tuple[ast.Cond, ...]:
        return tuple(items)

    def is_positioned(self, items: list[Any]) -> ast.IsPositioned:
        return ast.IsPositioned(str(items[0]), str(items[1]), items[2])

    def is_on_island(self, items: list[Any]) -> ast.IsOnIsland:
        return ast.IsOnIsland(str(items[0]))

    def is_ranked_above(self, items: list[Any]) -> ast.IsRanked:
        return ast.IsRanked(str(items[0]), True, int(items[1]))

    def is_ranked_below(self, items: list[Any]) -> ast.IsRanked:
        return ast.IsRanked(str(items[0]), False, int(items[1]))

    def last_voyage(self, items: list[Any]) -> ast.LastVoyage:
        return ast.LastVoyage(str(items[0]))

    def have_doubloons(self, items: list[Any]) -> ast.HaveDoubloons:
        return ast.HaveDoubloons(int(items[0]), str(items[1]) == "fewer")

    def hold_count(self, items: list[Any]) -> ast.HoldCount:
        return ast.HoldCount(int(items[0]), str(items[1]), items[2])

    def count_exists(self, items: list[Any]) -> ast.CountExists:
        return ast.CountExists(int(items[0]), str(items[1]), items[2])

    def no_other_has(self, items: list[Any]) -> ast.NoOtherHas:
        _other, cmp, pile = items
        return ast.NoOtherHas(str(cmp), str(pile))

    def hold(self, items: list[Any]) -> ast.Hold:
        return ast.Hold(items[0])

    def just_took(self, items: list[Any]) -> ast.JustTook:
        return ast.JustTook(items[0])

    def exists(self, items: list[Any]) -> ast.Exists:
        return ast.Exists(items[0], False)

    def none_exists(self, items: list[Any]) -> ast.Exists:
        return ast.Exists(items[0], True)

    def none_at_nightfall(self, items: list[Any]) -> ast.Exists:
        return ast.Exists(items[0], True, True)

    def it_was_yours(self, items: list[Any]) -> ast.ItWasYours:
        return ast.ItWasYours()

    def you_did(self, items: list[Any]) -> ast.YouDid:
        return ast.YouDid()
