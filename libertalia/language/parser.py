"""Card text to syntax tree.

The grammar file is the single source of truth; this module only turns Lark's
tree into the frozen AST and Lark's exceptions into :class:`CardError` with
plain-word expectations.
"""

from __future__ import annotations

import functools
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .. import _paths
from ..errors import CardError
from . import ast

# What each terminal means to a person writing a card.
_TERMINAL_WORDS = {
    "NUMBER": "a number in digits",
    "NAME": "a card name in Capitalised Words",
    "NOUN": '"character" or a card name',
    "KIND": "a loot kind such as map",
    "TIMING": "sun, dusk, moon or anchor",
    "MODIFIER": "last or once",
    "END": "leftmost or rightmost",
    "POSITION": "leftmost, rightmost, lowest-ranked or highest-ranked",
    "PILE": "ship, hand or graveyard",
    "UNIT": "doubloons or reputation",
    "PAST": "returned, discarded, moved or taken",
    "OTHER": '"other"',
    "OR_MORE": '"or more"',
    "PREP": "in, from or on",
    "CHAR_REF": "this or it",
    "TAKER": '"the character that took this"',
    "SIDE": "left or right",
    "CMP": "fewer or more",
    "_NL": "a new line",
    "$END": "the end of the text",
}


@functools.cache
def _lark() -> Lark:
    return Lark(
        _paths.grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        strict=True,
        propagate_positions=True,
        maybe_placeholders=True,
    )


def grammar_rule_count() -> int:
    """Number of grammar productions: a size measure for the language."""
    return len(_lark().rules)


def _describe(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    term = _lark().get_terminal(name) if name in {t.name for t in _lark().terminals} else None
    if term is not None and term.pattern.type == "str":
        return f'"{term.pattern.value}"'
    return name.lower()


def _expected(names: set[str] | frozenset[str]) -> str:
    words = sorted({_describe(n) for n in names})
    if len(words) > 12:
        words = words[:12] + ["..."]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _error(exc: UnexpectedInput, text: str, path: str, line0: int, col0: int, indent: int,
           file_lines: list[str] | None) -> CardError:
    lines = text.split("\n")
    line = getattr(exc, "line", 0) or len(lines)
    column = getattr(exc, "column", 0) or (len(lines[line - 1]) + 1 if lines else 1)
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        found = "the end of the text" if tok.type == "$END" else f"{str(tok)!r}"
        message = f"unexpected {found}"
        expected = _expected(exc.accepts or exc.expected)
    elif isinstance(exc, UnexpectedCharacters):
        message = f"unexpected character {text[exc.pos_in_stream or 0]!r}"
        expected = _expected(exc.allowed or set())
    elif isinstance(exc, UnexpectedEOF):
        message = "the text ends too early"
        expected = _expected(set(exc.expected))
    else:  # pragma: no cover - lark has no other kinds
        message, expected = str(exc), ""
    file_line = line + line0
    if file_lines is not None and 0 < file_line <= len(file_lines):
        source = file_lines[file_line - 1]
    return CardError(
        message,
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
    except UnexpectedInput as exc:
        raise _error(exc, text, path, line, column, indent, file_lines) from None
    abilities: tuple[ast.Ability, ...] = _ToAst(line, column, indent).transform(tree)
    return abilities


def _tok(t: Any) -> str:
    return str(t)


class _ToAst(Transformer[Token, Any]):
    """Builds AST nodes; positions are shifted into the enclosing file."""

    def __init__(self, line0: int, col0: int, indent: int) -> None:
        super().__init__()
        self._line0 = line0
        self._col0 = col0
        self._indent = indent

    def _at(self, meta: Any) -> dict[str, int]:
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
    def may(self, meta: Any, items: list[Any]) -> ast.Step:
        actions, other = items
        return ast.Step("may", actions, None, other, **self._at(meta))

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

    @v_args(meta=True)
    def sell(self, meta: Any, items: list[Any]) -> ast.Sell:
        return ast.Sell(items[0], items[1], **self._at(meta))

    def numbers(self, items: list[Any]) -> tuple[int, ...]:
        return tuple(int(i) for i in items)

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
        count, or_more, value = items
        return ast.Row(int(count), or_more is not None, int(value))

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

    def char_ref(self, items: list[Any]) -> str:
        word = str(items[0])
        return "taker" if word.startswith("the ") else word

    def choose_one(self, items: list[Any]) -> ast.ChooseChar:
        return ast.ChooseChar(items[0])

    def choose_other(self, items: list[Any]) -> ast.ChooseChar:
        np = items[0]
        return ast.ChooseChar(ast.CharNP(True, np.noun, np.filters, line=np.line, column=np.column), True)

    def every(self, items: list[Any]) -> ast.EveryChar:
        return ast.EveryChar(items[0])

    def positional(self, items: list[Any]) -> ast.Positional:
        return ast.Positional(str(items[0]), items[1])

    @v_args(meta=True)
    def char_np(self, meta: Any, items: list[Any]) -> ast.CharNP:
        other, noun, *filters = items
        return ast.CharNP(other is not None, str(noun), tuple(filters), **self._at(meta))

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

    # loot
    def choose_loot(self, items: list[Any]) -> ast.ChooseLoot:
        return ast.ChooseLoot(items[0])

    def random_loot(self, items: list[Any]) -> ast.RandomLoot:
        return ast.RandomLoot(items[0])

    def every_loot(self, items: list[Any]) -> ast.EveryLoot:
        return ast.EveryLoot(items[0])

    def all_but(self, items: list[Any]) -> ast.AllBut:
        return ast.AllBut(int(items[0]))

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
        return ast.Condition(tuple(items))

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
        return ast.HaveDoubloons(int(items[0]))

    def have_at_most(self, items: list[Any]) -> ast.HaveDoubloons:
        return ast.HaveDoubloons(int(items[0]), True)

    def no_other_has(self, items: list[Any]) -> ast.NoOtherHas:
        return ast.NoOtherHas(str(items[0]), str(items[1]))

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

    def gained_at_least(self, items: list[Any]) -> ast.GainedAtLeast:
        return ast.GainedAtLeast(int(items[0]))
