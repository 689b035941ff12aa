"""Meaning checks that the grammar cannot make.

The grammar accepts any Capitalised name and any lower-case loot word; this
module checks them against the loaded rules and refuses every sentence the
engine could not carry out exactly as written: a random pick outside the bag,
the island at night, a borrowed ability of another timing.  Words that point back
("it", "one returned", "you did") are bound, or refused, by the compiler
(``language/compile/references.py``).  What passes here runs as it reads (the promise of
docs/card-language.md); tests/language/test_checker.py pins each refusal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ..errors import CardError, CardErrors, UnsayableError
from ..suggest import did_you_mean
from ..syntax import ast
from ..syntax.nodes import Node, fields
from . import intents

Report = Callable[[str, int, int, str], CardError]


# The two records below are frozen ``Node`` records, like the syntax tree's, rather than
# ``attrs`` classes: those are slower to create at import (see ``nodes``).
class Vocabulary(Node):
    """The names a card may mention."""

    names: frozenset[str]
    kinds: frozenset[str]
    track: bool = True  # the edition has a reputation track (the 2012 one has none)
    spaces: int = 0  # the track's spaces (0: not known to the check)


# Where things stand at each timing: by day and at dusk the characters are on the
# island and today's loot is out; by night and at anchor every character is in a
# ship, today's loot is gone (back to the bag at dusk) and at anchor there is no tomorrow.
_ISLAND_TIMINGS = ("sun", "dusk")
_TODAY_TIMINGS = ("sun", "dusk")
_TOMORROW_TIMINGS = ("sun", "dusk", "moon")
_EMPTY_ISLAND = "at night and at anchor every character is in a ship: the island is empty"
# E38: the voyage's loot is scored from the tokens held as anchor begins, and every token goes back to the
# bag when it ends, so a token that comes to a player at anchor would be held and lost unscored.
_ANCHOR_LOOT = ("at anchor no token comes to a player: the loot held is being scored, and every token goes "
                "back to the bag when the voyage ends, so this one would be held unscored")
_ANCHOR_LOOT_INSTEAD = ('the token\'s worth in doubloons ("gain 5 doubloons"), or the action in a night ability '
                        '("moon: …"); returning loot to the bag and keeping it work at anchor')


class _Context(Node):
    """Where an ability runs: its timing, and whether it is printed on a loot tile."""

    timing: str
    loot: bool
    kind: str = ""  # a loot tile's kind ("": a character, or a loot text not yet given a kind)


def check(abilities: tuple[ast.Ability, ...], vocab: Vocabulary, report: Report, *, loot: bool,
          kind: str = "") -> None:
    """Raise the problems found, each located at its line and column (``CardErrors`` when there are several).

    Every unknown card name and loot kind is reported, each at its own word, and the
    first other problem of each ability.  Beyond names and kinds, a sentence is refused
    wherever the engine could not do exactly what it says: a phrase about the island at
    night, a borrowed ability of another timing, a daytime ability on a loot tile, and so on.
    """
    found: list[CardError] = []
    for ability in abilities:
        collect = _Reporter(report)
        try:
            _check_ability(ability, vocab, collect, _Context(ability.timing, loot, kind))
        except CardError as exc:
            collect.unknown.append(exc)
        found += sorted(collect.unknown, key=lambda e: (e.line, e.column))
    if found:
        raise CardErrors.of(found)


class _Reporter:
    """The caller's ``report``, and the unknown words found so far: each is an error, none stops the check."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.unknown: list[CardError] = []

    def __call__(self, message: str, line: int, column: int, expected: str) -> CardError:
        return self.report(message, line, column, expected)


def _check_ability(a: ast.Ability, vocab: Vocabulary, report: _Reporter, ctx: _Context) -> None:
    if len(set(a.modifiers)) != len(a.modifiers):
        raise report("a modifier is repeated", a.line, a.column, "each of last and once at most once")
    if a.once and not ctx.loot:
        raise report('"once" is for loot abilities', a.line, a.column, "a trigger without once")
    if a.first and a.last:
        raise report("an ability cannot be both first and last", a.line, a.column, "first or last")
    if (a.first or a.last) and a.timing == "sun":
        raise report("first and last order abilities that wait their turn (dusk, moon, anchor); by day each "
                     "character acts in island order", a.line, a.column, "a dusk, moon or anchor ability")
    if ctx.loot and a.timing == "sun":
        raise report("a loot tile has no daytime ability: it acts when taken (dusk), each night it is held "
                     "(moon) or at the voyage's end (anchor)", a.line, a.column, "dusk, moon or anchor")
    for step in a.steps:
        if ctx.timing == "dusk":
            _check_dusk_island(step, report)
        if not vocab.track and _mentions_reputation(step):
            raise report("this edition has no reputation track: reputation cannot be gained, lost, moved or "
                         "compared", step.line, step.column, "doubloons, loot or characters")
        for act in _actions(step):
            if isinstance(act, ast.TakeNoLoot) and (a.timing != "dusk" or len(a.steps) != 1 or ctx.loot
                                                    or len(step.actions) != 1 or step.form != "plain"):
                raise report('"take no loot" is a standing rule: it must stand alone in a character\'s dusk ability',
                             act.line, act.column, "dusk: take no loot.")
        for condition in _conditions(step):
            for c in condition.parts:
                _check_condition_part(c, vocab, report, step, ctx)
        for act in _actions(step):
            if isinstance(act, ast.Worth):
                _refuse_worth(act, a, report, ctx)
            _check_action(act, vocab, report, ctx)
            _check_self_reference(act, report, ctx.loot, ctx.kind)
            _check_players(act, vocab, report, ctx)
    _check_this_token(a, report, ctx)


# this token on a loot tile (issue 34.2): "this relic" names the token the tile's ability runs for, as
# long as its player is sure to hold it: it can be given away or returned to the bag (or discarded) once.
def _check_this_token(a: ast.Ability, report: _Reporter, ctx: _Context) -> None:
    """Each ``this KIND`` in reading order, against the actions before it that may have sent the token away."""
    gone = False  # an earlier step may have given or returned a token of the tile's kind you hold
    for step in a.steps:
        moved = gone
        for arm in _arms(step):  # the arms of one step exclude each other: each starts where the step does
            arm_gone = gone
            for act in arm:
                for sel in _loot_sels(act):
                    if isinstance(sel, ast.ThisToken):
                        _check_this(act, sel, a, report, ctx, arm_gone)
                arm_gone = arm_gone or _may_send_yours(act, ctx.kind)
            moved = moved or arm_gone
        gone = moved


def _arms(step: ast.Step) -> Iterator[tuple[ast.Action, ...]]:
    yield step.actions
    for _, acts in step.elifs:
        yield acts
    if step.otherwise:
        yield step.otherwise
    yield from step.choices


def _check_this(act: ast.Action, sel: ast.ThisToken, a: ast.Ability, report: _Reporter, ctx: _Context,
                gone: bool) -> None:
    said = f"this {sel.np.kinds[0]}" if sel.np.kinds else "this token"
    where = (sel.np.line or act.line, sel.np.column or act.column)
    if not ctx.loot:
        raise report(f'"{said}" names the token a loot tile\'s ability runs for: a character has no token of '
                     f'its own', *where, f'"a {sel.np.kinds[0] if sel.np.kinds else "loot"} you hold"')
    if ctx.kind and sel.np.kinds != (ctx.kind,):
        raise report(f'on the {ctx.kind} tile, "this" names a {ctx.kind}: "{said}" is another kind\'s token',
                     *where, f'"this {ctx.kind}", or "a {sel.np.kinds[0]} you hold" for another kind')
    if a.once:
        raise report(f'a "once" ability runs once for every token of its kind held together: "{said}" names '
                     f'none of them', *where, f'"every {ctx.kind or "token"} you hold", or an ability '
                     f'without "once" (it runs for each token)')
    if not isinstance(act, ast.ReturnLoot | ast.Give | ast.KeepLoot | ast.Swap) or getattr(act, "by", None):
        raise report(f'"{said}" is the token its holder has: it can be given to a player, returned to the bag '
                     f'(or discarded), kept for the next voyage or swapped, by you', *where,
                     f'"give {said} to …", "return {said} to the bag", "keep {said} for the next voyage" or '
                     f'"swap {said} with …"')
    if gone:
        raise report(f'"{said}" may no longer be held here: an earlier action gives or returns loot you hold, '
                     f'and once the token has left you "{said}" names nothing', *where,
                     f'"{said}" in the first action that gives or returns loot you hold')


def _may_send_yours(act: ast.Action, kind: str) -> bool:
    """Whether an action may give or return (or swap away) a token of ``kind`` that you hold."""
    sels: tuple[ast.LootSel, ...] = ()
    if isinstance(act, ast.ReturnLoot | ast.Give):
        by = act.by
        yours = act.loot.np.place == "held" if by is None else (
            act.loot.np.place == "theirs" and not getattr(by, "other", True))  # "every player": you too
        sels = (act.loot,) if yours else ()
    elif isinstance(act, ast.Swap):
        sels = tuple(s for s in (act.first, act.second) if s.np.place == "held")
    return any(not s.np.kinds or not kind or kind in s.np.kinds for s in sels)


# A worth said with "is worth" (issue 34.1): ``normalise.worths`` rewrote each one with one reading on its card,
# so one still here has none, or two.
def _refuse_worth(act: ast.Worth, a: ast.Ability, report: _Reporter, ctx: _Context) -> None:
    n = act.amount.n
    unit = "doubloon" if act.amount.unit == "doubloons" and n == 1 else act.amount.unit
    what = {"this": "this card", "token": f"this {act.kinds[0] if act.kinds else 'token'}",
            "kind": f"each {act.kinds[0] if act.kinds else 'token'} you hold"}[act.of]
    where = (act.line, act.column)
    if a.timing != "anchor":
        raise report(f'"{what} is worth …" is what it pays at the end of the voyage, not in a {a.timing} ability',
                     *where, f'"end of voyage: {what} is worth {n} {unit}", or "gain {n} {unit}"')
    if a.once:
        raise report('a "once" ability runs once for all the tokens of its kind: a worth of each is said without '
                     '"once"', *where, "an anchor ability without once")
    if act.of == "token":
        raise report(f'"{what}" names the token a loot tile\'s ability runs for: only its own tile can give it '
                     'a worth', *where, f'"gain {n} {unit} for each {act.kinds[0] if act.kinds else "loot"} you hold" '
                     'on a character')
    if act.more and act.of == "this":
        raise report(f'"{what} is worth {n} more {unit}": this card has no worth of its own to add to', *where,
                     f'"{what} is worth {n} {unit}"')
    if act.more and ctx.loot:
        raise report(f'"{what} is worth {n} more {unit}" on a loot tile would be paid again for each token of the '
                     f'tile\'s kind held (the tile runs its anchor ability for each)', *where,
                     f'the same line on a character, or "anchor, once: gain {n} {unit} for each {act.kinds[0]} you '
                     'hold"')
    if act.of == "this":
        # ``normalise.worths`` makes it a gain wherever the card is known: left only on a tile of no known kind
        # (a text checked for every tile at once, as the text walks do).
        raise report(f'"{what} is worth {n} {unit}" is settled by the tile\'s kind, and this tile has none', *where,
                     f'"gain {n} {unit}"')
    kind = act.kinds[0]
    raise report(f'"{what} is worth {n} {unit}" reads two ways: {n} {unit} more for each {kind}, on top of its own '
                 f'worth ("gain {n} {unit} for each {kind} you hold"), or a new worth in place of its own, which '
                 f'only its own tile says', *where, f'"{what} is worth {n} more {unit}" or "gain {n} {unit} for '
                 f'each {kind} you hold"')


# What the island holds at dusk (docs/card-language.md, "Meaning rules: places, picks and players"):
# characters resolve right to left and each boards its ship once done, so while a dusk ability
# runs (a character's, or a token's taken by it) the island holds the character resolving, the
# characters left of it still waiting, and neutral cards (the Midshipman), which never leave.
_DUSK_RIGHT = ("at dusk the characters leave the island right to left as they resolve: every character right "
               "of this one has boarded its ship (only a neutral card such as the Midshipman stays)")
_DUSK_TOP = ("at dusk the characters leave the island right to left as they resolve, so the {} character on the "
             "island is the one whose turn it is (or a neutral card such as the Midshipman{})")
_TOP = ("rightmost", "highest-ranked")


def _check_dusk_island(step: ast.Step, report: _Reporter) -> None:
    """Island words that at dusk can name only what has left the island, or only the card resolving."""
    for part in (*_actions(step), *(c for cond in _conditions(step) for c in cond.parts)):
        line, column = getattr(part, "line", 0) or step.line, getattr(part, "column", 0) or step.column
        for node in _nodes(part):
            if isinstance(node, ast.Beside) and node.side == "right":
                raise report(_DUSK_RIGHT, line, column, 'the character left of this, or a sun ability')
            if isinstance(node, ast.Positional) and node.position in _TOP and _bare_island(node.np):
                raise report(_dusk_top(node.position), node.np.line or line, node.np.column or column,
                             f'"this" (or "the character that took this" on loot), or "the {node.position} other '
                             f'character on the island" for the next to resolve')
            if isinstance(node, ast.IsPositioned) and node.ref in ("this", "taker") and node.position in _TOP \
                    and _on_island(node.np):
                raise report(_dusk_top(node.position) + ": the test always holds", line, column,
                             "no condition, or a sun ability")
            if isinstance(node, ast.CharNP) and _on_island(node) and any(
                    isinstance(f, ast.RankedThanThis) and f.above for f in node.filters):
                raise report(_DUSK_RIGHT.replace("right of this one", "ranked above this one"), node.line or line,
                             node.column or column, '"ranked below this", or a sun ability')


def _dusk_top(position: str) -> str:
    return _DUSK_TOP.format(position, ", or one of the same rank" if position == "highest-ranked" else "")


def _on_island(np: ast.CharNP) -> bool:
    return np.zone is not None and np.zone.place == "island"


def _bare_island(np: ast.CharNP) -> bool:
    """"character on the island" with nothing else that could leave out the card resolving."""
    return not np.other and np.noun == "character" and _on_island(np) and len(np.filters) == 1


def _nodes(node: object) -> Iterator[object]:
    """``node`` and every node of the syntax tree below it."""
    if isinstance(node, tuple):
        for n in node:
            yield from _nodes(n)
        return
    if not isinstance(node, Node):
        return
    yield node
    for f in fields(node):
        yield from _nodes(getattr(node, f.name))


def _mentions_reputation(node: object) -> bool:
    """Whether a part of an ability reads or moves a reputation token."""
    if isinstance(node, tuple):
        return any(_mentions_reputation(n) for n in node)
    if not isinstance(node, Node):
        return False
    if isinstance(node, ast.Reputation | ast.CountSpaces | ast.MoveReputation | ast.ReputationIs) or (
            isinstance(node, ast.Fixed) and node.unit == "reputation") or (
            isinstance(node, ast.Zone) and node.place in ("top_ship", "bottom_ship")):
        return True
    return any(_mentions_reputation(getattr(node, f.name)) for f in fields(node))


def _check_condition_part(c: ast.Cond, vocab: Vocabulary, report: _Reporter, step: ast.Step, ctx: _Context) -> None:
    ref = getattr(c, "ref", None)
    where = (step.line, step.column)
    if isinstance(c, ast.LastVoyage) and ref != "this":
        raise report('say "this is the last voyage"', *where, '"this is the last voyage"')
    if ref == "taker":
        _check_taker(report, ctx, *where)
    if ref == "this" and ctx.loot and not isinstance(c, ast.LastVoyage):
        raise report('on loot, "this" is the token, not a character', *where, '"the character that took this"')
    if isinstance(c, ast.Exists) and c.at_nightfall and ctx.timing != "moon":
        raise report('"at nightfall" only makes sense at night', *where, "a moon ability")
    if isinstance(c, ast.JustTook) and ctx.timing != "dusk":
        raise report('"you just took" speaks of the loot taken at dusk', *where, "a dusk ability")
    if isinstance(c, ast.IsLike) and isinstance(c.filter, ast.Zone) and c.filter.place == "island" \
            and ctx.timing not in _ISLAND_TIMINGS:
        raise report(_EMPTY_ISLAND, *where, "a sun or dusk ability")
    if isinstance(c, ast.IsA) and c.name not in vocab.names:
        report.unknown.append(at_word(report, f"unknown card name {c.name!r}{did_you_mean(c.name, vocab.names)}",
                                      *where, "the name of a loaded character", c.name))
    if isinstance(c, ast.HoldCount | ast.Hold | ast.JustTook):
        _check_kinds(c.kinds, vocab, report, *where)
    if isinstance(c, ast.IsPositioned | ast.Exists | ast.CountExists):
        _check_np(c.np, vocab, report, ctx)
        _check_number(c.np, isinstance(c, ast.CountExists), report)
    if isinstance(c, ast.Compare):
        _check_compare(c, vocab, report, *where)
    if isinstance(c, ast.ReputationIs) and (c.n < 1 or 0 < vocab.spaces < c.n):
        top = vocab.spaces or "the last"
        raise report(f"the reputation track's spaces are numbered 1 (the leftmost) to {top}: no token stands on "
                     f"space {c.n}", *where, f"a space from 1 to {top}")


def _check_taker(report: _Reporter, ctx: _Context, line: int, column: int) -> None:
    if not ctx.loot:
        raise report('"the character that took this" only makes sense on loot', line, column,
                     '"this" for the character itself')
    if ctx.timing != "dusk":
        raise report('"the character that took this" is known only at dusk, when the token is taken',
                     line, column, "a dusk ability")


def _check_number(np: ast.CharNP, plural: bool, report: _Reporter) -> None:
    """"there are 2 or more characters", but "a character": the noun agrees with its count."""
    if np.plural and not plural:
        raise report('say "character" for one character', np.line, np.column, '"character"')


def _check_self_reference(act: ast.Action, report: _Reporter, loot: bool, kind: str = "") -> None:
    """``this`` is a character; on loot, the token's taker is named in full, and the token itself is
    ``this KIND`` (issue 34.2)."""
    targets = [getattr(act, "target", None)]
    for player in _player_refs(act):
        if isinstance(player, ast.OwnerOf):
            targets.append(player.target)
    for t in targets:
        if loot and isinstance(t, ast.This | ast.Beside):
            raise report('on loot, "this" is the token, not a character', act.line, act.column,
                         '"the character that took this"' + (f', or "this {kind}" for the token itself, as in '
                                                             f'"return this {kind} to the bag"' if kind else ''))
        if not loot and isinstance(t, ast.Taker):
            raise report('"the character that took this" only makes sense on loot', act.line, act.column,
                         '"this" for the character itself')
    for what, holder in ((ast.KeepLoot, "kept for the next voyage"), (ast.Give, "given away")):
        loot_sel = getattr(act, "loot", None)
        # "they hold" is the acting player's (``_check_acting``), and is refused where nobody acts (the compiler)
        if isinstance(act, what) and loot_sel is not None and getattr(act, "by", None) is None \
                and loot_sel.np.place not in ("held", "theirs"):
            raise report(f"only loot you hold can be {holder}", act.line, act.column, '"you hold"')


def _actions(step: ast.Step) -> Iterator[ast.Action]:
    yield from step.actions
    for _, acts in step.elifs:
        yield from acts
    if step.otherwise:
        yield from step.otherwise
    for choice in step.choices:
        yield from choice


def _conditions(step: ast.Step) -> Iterator[ast.Condition]:
    if step.condition is not None:
        yield step.condition
    for cond, _ in step.elifs:
        yield cond


def _check_action(act: ast.Action, vocab: Vocabulary, report: _Reporter, ctx: _Context) -> None:
    where = (act.line, act.column)
    for np in _char_nps(act):
        _check_np(np, vocab, report, ctx)
        _check_number(np, False, report)
    for sel in _loot_sels(act):
        _check_loot(sel, vocab, report, ctx)
    if isinstance(getattr(act, "target", None), ast.Taker) or any(
            isinstance(p, ast.OwnerOf) and isinstance(p.target, ast.Taker) for p in _player_refs(act)):
        _check_taker(report, ctx, *where)
    if isinstance(getattr(act, "target", None), ast.Beside) and ctx.timing not in _ISLAND_TIMINGS:
        raise report(_EMPTY_ISLAND, *where, "a sun or dusk ability")
    if isinstance(act, ast.Discard) and act.not_shipped and (ctx.loot or ctx.timing not in _ISLAND_TIMINGS):
        raise report("only a character on the island has yet to be placed in a ship: a loot tile never is, and "
                     "at night and at anchor this card is aboard already", *where,
                     '"discard this" in a character\'s sun or dusk ability')
    if isinstance(act, ast.Take | ast.Draw | ast.Swap | ast.Give) and ctx.timing == "anchor":
        raise report(_ANCHOR_LOOT, *where, _ANCHOR_LOOT_INSTEAD)
    if isinstance(act, ast.Take) and act.loot.np.place == "held":
        raise report("you cannot take loot you already hold", *where, "today's loot, the bag or another player")
    if isinstance(act, ast.Play) and isinstance(act.target, ast.This | ast.Taker):
        raise report("this character is already on the island: it cannot be played onto it", *where,
                     "play a character from your hand onto the island")
    if isinstance(act, ast.Keep) and isinstance(act.target, ast.This | ast.Taker | ast.Beside) \
            and ctx.timing in _ISLAND_TIMINGS:
        raise report("only a character aboard your ship can be kept, and by day and at dusk this one is on the "
                     "island", *where, "keep a character in your ship, or a night or anchor ability")
    if isinstance(act, ast.Play) and ctx.timing != "sun":
        raise report("a character can only be played onto the island by day: later it would never reach a ship",
                     *where, "a sun ability")
    if isinstance(act, ast.UseAbility) and act.timing != ctx.timing:
        raise report(f"a {ctx.timing} ability can only use {ctx.timing} abilities: another timing's text "
                     f"would run where its words mean something else", *where, f"use the {ctx.timing} ability of …")
    if isinstance(act, ast.UseAbility) and not ctx.loot:
        _check_borrow_target(act, report, ctx)
    if isinstance(act, ast.UseAbility) and ctx.loot and ctx.timing != "dusk":
        raise report("a loot tile can borrow an ability only at dusk, through the character that took it", *where,
                     "a dusk ability")
    if isinstance(act, ast.Give) and not _one_player(act.to):
        raise report("loot can be given to one player only", *where, '"the player on your left", "its owner", …')
    if isinstance(act, ast.Swap):
        for side in (act.first, act.second):
            if not isinstance(side, ast.ChooseLoot | ast.RandomLoot | ast.ThisToken):  # this: refused below
                raise report("a swap trades one token for one token", *where, '"a loot …" or "a random loot …"')
        if act.first.np.place == act.second.np.place or {act.first.np.place, act.second.np.place} <= ast.OTHERS_LOOT:
            raise report("a swap needs two different places", *where,
                         "for example: swap a loot you hold with a loot from an adjacent player")
    if isinstance(act, ast.MoveReputation) and act.end not in ("leftmost", "rightmost"):
        raise report("reputation moves to the leftmost or rightmost space", *where, "leftmost or rightmost")
    if isinstance(act, ast.CountExtra) and act.kind not in vocab.kinds:
        report.unknown.append(_unknown_kind(act.kind, vocab, report, *where))
    amount = getattr(act, "amount", None)
    if isinstance(amount, ast.InSets) and amount.kind not in vocab.kinds:
        report.unknown.append(_unknown_kind(amount.kind, vocab, report, *where))
    if isinstance(amount, ast.UpTo | ast.ByTable | ast.InSets) and isinstance(act, ast.Change) and act.verb == "lose":
        raise report("only a fixed amount or half your doubloons can be lost", *where,
                     "lose N doubloons or lose half your doubloons")
    counter = getattr(amount, "per", None) or getattr(amount, "counter", None) or getattr(act, "per", None)
    if isinstance(counter, ast.CountLoot):
        _check_kinds(counter.kinds, vocab, report, *where)
    if isinstance(counter, ast.CountCharacters):
        _check_np(counter.np, vocab, report, ctx)
        grouped = isinstance(amount, ast.Fixed) and amount.every > 1  # "for every 2 characters"
        _check_number(counter.np, grouped, report)


# Where a character's own card is while its ability of each timing runs: phrases naming those places
# can name the card itself.
_OWN_PLACES = {"sun": ("island",), "dusk": ("island",), "moon": ("your", "any_ship", "each_ship"),
               "anchor": ("your", "any_ship", "each_ship")}


def _check_borrow_target(act: ast.UseAbility, report: _Reporter, ctx: _Context) -> None:
    """A character never borrows from itself: a phrase that can only, or first, name it would do nothing."""
    target = act.target
    if isinstance(target, ast.This):
        raise report("a character cannot use its own ability: it is running already", act.line, act.column,
                     "another character, such as 'another character in your ship'")
    if not isinstance(target, ast.Positional | ast.EveryChar) or target.np.other:
        return
    zone = target.np.zone
    if zone is None or (zone.place in _OWN_PLACES[ctx.timing] and zone.pile in ("", "ship")):
        words = f"the {target.position}" if isinstance(target, ast.Positional) else "every"
        raise report(f'"{words} …" can name this character itself, whose ability cannot be borrowed',
                     act.line, act.column, f'"other", as in "{words} other character …"')


def _one_player(p: ast.PlayerRef) -> bool:
    if isinstance(p, ast.EveryPlayer | ast.PlayersWho | ast.PlayersWithMost | ast.PlayersThanYou):
        return False
    return not (isinstance(p, ast.OwnerOf) and isinstance(p.target, ast.EveryChar))


def _player_refs(act: ast.Action) -> Iterator[ast.PlayerRef]:
    """The players an action speaks of: its subject, whom it gives to, and who acts."""
    for name in ("subject", "to", "by"):
        player = getattr(act, name, None)
        if player is not None:
            yield player


def _char_nps(act: ast.Action) -> Iterator[ast.CharNP]:
    targets: list[object] = [getattr(act, "target", None)]
    for player in _player_refs(act):
        if isinstance(player, ast.OwnerOf):
            targets.append(player.target)
    for t in targets:
        np = getattr(t, "np", None)
        if isinstance(np, ast.CharNP):
            yield np


def _loot_sels(act: ast.Action) -> Iterator[ast.LootSel]:
    if isinstance(act, (ast.Take, ast.ReturnLoot, ast.KeepLoot, ast.Give)):
        yield act.loot
    if isinstance(act, ast.Swap):
        yield act.first
        yield act.second


# ------------------------------------------------------------------ players compared, filtered and acting
def plural_kind(word: str, kinds: frozenset[str] | set[str]) -> str | None:
    """The loot kind a plural names ("relics": relic; "goods", a kind written as a plural: itself), or None."""
    if word in kinds and word.endswith("s"):
        return word
    if word.endswith("s") and word[:-1] in kinds:
        return word[:-1]
    return None


def _check_plural_kinds(kinds: tuple[str, ...], vocab: Vocabulary, report: _Reporter, line: int, column: int) -> None:
    """A comparison counts tokens: its kinds are plurals ("more relics"), each naming a loaded kind."""
    plurals = {k if k.endswith("s") else k + "s" for k in vocab.kinds}
    for word in kinds:
        if plural_kind(word, vocab.kinds) is not None:
            continue
        if word in vocab.kinds:
            raise at_word(report, f'a comparison counts tokens: say "{word}s", not "{word}"', line, column,
                          f'"{word}s"', word)
        raise at_word(report, f"unknown loot kind {word!r}{did_you_mean(word, plurals)}", line, column,
                      "the plural of a loot kind, one of " + ", ".join(sorted(plurals)), word)


def _check_measure(m: ast.Measure, vocab: Vocabulary, report: _Reporter, line: int, column: int) -> None:
    if isinstance(m, ast.LootHeld):
        _check_plural_kinds(m.kinds, vocab, report, line, column)


def _check_compare(c: ast.Compare, vocab: Vocabulary, report: _Reporter, line: int, column: int) -> None:
    """E30: "more ... than", "at least as many ... as"; a bare "as many ... as" could be read two ways."""
    if c.cmp == "as many":
        raise at_word(report, '"as many … as" could mean exactly as many or at least as many (E30)', line, column,
                      '"at least as many … as every other player" (ties count), or "more … than" (they do not)',
                      "as")
    if c.cmp == "at least" and c.than != "as":
        raise at_word(report, 'say "at least as many … as"', line, column, '"as every other player"', "than")
    if c.cmp in ("more", "fewer") and c.than != "than":
        raise at_word(report, f'say "{c.cmp} … than"', line, column, '"than every other player"', "as")
    _check_measure(c.measure, vocab, report, line, column)


_CLAUSE_PLACES = ("their", "island")
"""Where a character is in "with a character ...": that player's own piles, or the island (theirs on it)."""


def _check_players(act: ast.Action, vocab: Vocabulary, report: _Reporter, ctx: _Context) -> None:
    """Players named by a comparison or narrowed by a clause (E31, E32), and players acting for themselves."""
    where = (act.line, act.column)
    for player in _player_refs(act):
        if isinstance(player, ast.PlayersWithMost):
            if not player.each:
                most = "most" if player.most else "fewest"
                raise report(f'on a tie several players have the {most}, so "the player with the {most} …" could '
                             "mean each of them or none (E31)", *where,
                             f'"each player with the {most} …" (every player tied for it)')
            _check_measure(player.measure, vocab, report, *where)
        if isinstance(player, ast.PlayersWho) and player.where is not None:
            _check_clause(player.where, vocab, report, ctx, *where)
        if isinstance(player, ast.PlayersThanYou):
            _check_measure(player.measure, vocab, report, *where)
    if getattr(act, "by", None) is not None:
        _check_acting(act, report, *where)
        if isinstance(act, ast.Give) and isinstance(act.to, ast.ChosenPlayer):
            # E42: the givers would be settled before the receiver is chosen, and whether each gives depends on
            # who receives (nobody gives to themselves)
            raise report("players who give for themselves give to a player named before they act, not to one you "
                         "choose as they give (E42)", *where,
                         '"… gives a loot they hold to you" or "… to the player on your left"; or choose the giver: '
                         '"another player of your choice gives a loot they hold to you"')


def _check_clause(c: ast.Cond, vocab: Vocabulary, report: _Reporter, ctx: _Context, line: int, column: int) -> None:
    """A clause speaks of one player, from their side: their doubloons, their loot, their own characters."""
    if isinstance(c, ast.Hold | ast.HoldCount):
        _check_kinds(c.kinds, vocab, report, line, column)
    if not isinstance(c, ast.Exists | ast.CountExists):
        return
    np = c.np
    _check_np(np, vocab, report, ctx)
    _check_number(np, isinstance(c, ast.CountExists), report)
    zone = np.zone
    if zone is not None and zone.place not in _CLAUSE_PLACES or any(isinstance(f, ast.OwnedBy) for f in np.filters):
        raise report(f'"with a {np.noun} …" speaks of that player\'s own characters', np.line, np.column,
                     'where they are: "in their ship", "in their hand", "in their graveyard" or "on the island"')


def _check_acting(act: ast.Action, report: _Reporter, line: int, column: int) -> None:
    """E32: a player acting for themselves acts on their own things, and makes the choices."""
    if isinstance(act, ast.Discard):
        target = act.target
        np = getattr(target, "np", None)
        if not isinstance(np, ast.CharNP) or np.zone is None or np.zone.place != "their" \
                or any(isinstance(f, ast.OwnedBy) for f in np.filters):
            raise report("a player who discards for themselves discards from their own piles", line, column,
                         '"a character from their hand", "the lowest-ranked character in their ship", …')
        return
    sel = getattr(act, "loot", None)
    if sel is None:
        return
    if sel.np.place != "theirs":
        verb = "returns" if isinstance(act, ast.ReturnLoot) else "gives"
        raise report(f"a player who {verb} loot for themselves {verb} loot they hold", sel.np.line, sel.np.column,
                     '"they hold"')
    if isinstance(sel, ast.EveryLootBut) and sel.whose != "their":
        raise report("the player acting makes the choice", sel.np.line, sel.np.column, '"of their choice"')


def _check_np(np: ast.CharNP, vocab: Vocabulary, report: _Reporter, ctx: _Context) -> None:
    zones = [f for f in np.filters if isinstance(f, ast.Zone)]
    if len(zones) > 1:
        raise report(f"say where the {np.noun} is once", np.line, np.column,
                     "one place such as 'in your ship' or 'on the island'")
    zone = zones[0] if zones else None
    if zone is not None and zone.place == "island" and zone.prep == "in":
        raise report("a character is on the island, not in it", np.line, np.column, '"on the island"')
    if zone is not None and zone.place != "island" and zone.prep == "on":
        raise report(f"a character is in a {zone.pile or 'ship'}, not on it", np.line, np.column,
                     '"in" or "from"')
    if zone is not None and zone.place == "island" and ctx.timing not in _ISLAND_TIMINGS:
        raise report(_EMPTY_ISLAND, np.line, np.column, "a sun or dusk ability, or a ship")
    if ctx.loot and any(isinstance(f, ast.RankedThanThis) for f in np.filters):
        raise report('"ranked above this" compares with the character whose ability runs, and a loot tile is '
                     "none", np.line, np.column, "a rank in digits, such as 'ranked above 20'")
    if np.noun != "character" and np.noun not in vocab.names:
        hint = did_you_mean(np.noun, {*vocab.names, "character"})
        report.unknown.append(at_word(report, f"unknown card name {np.noun!r}{hint}", np.line, np.column,
                                      "the name of a loaded character", np.noun))


def _check_loot(sel: ast.LootSel, vocab: Vocabulary, report: _Reporter, ctx: _Context) -> None:
    np = sel.np
    _check_kinds(np.kinds, vocab, report, np.line, np.column)
    if isinstance(sel, ast.RandomLoot) and np.place != "bag":
        raise report("a random loot can only come from the bag", np.line, np.column, '"from the bag"')
    if isinstance(sel, ast.ChooseLootN) and len(sel.counts) != 1:
        raise report("to let the player pick how many, say which kind: \"1 or 2 loot of one kind …\"",
                     np.line, np.column, "one number, or \"of one kind\"")
    if isinstance(sel, ast.ChooseLootN | ast.ChooseLootSet) and len(set(sel.counts)) != len(sel.counts):
        repeated = sorted({n for n in sel.counts if sel.counts.count(n) > 1})
        raise report(f"the count {repeated[0]} is given twice: each count is one option, so name it once",
                     np.line, np.column, "different numbers, as in \"1 or 2\"")
    if np.place in ("today", "tomorrow") and np.prep == "on":
        raise report(f"loot is in {np.place}'s loot, not on it", np.line, np.column, '"in" or "from"')
    if (np.place == "bag" or np.place in ast.OTHERS_LOOT) and np.prep != "from":
        raise report("loot comes from there", np.line, np.column, '"from"')
    if np.place == "today" and ctx.timing not in _TODAY_TIMINGS:
        raise report("today's loot is gone by night: what is left returns to the bag at dusk", np.line, np.column,
                     "a sun or dusk ability")
    if np.place == "tomorrow" and ctx.timing not in _TOMORROW_TIMINGS:
        raise report("at anchor the voyage is over: there is no tomorrow's loot", np.line, np.column,
                     "a sun, dusk or moon ability")


def _check_kinds(kinds: tuple[str, ...], vocab: Vocabulary, report: _Reporter, line: int, column: int) -> None:
    """Each unknown kind of a list, at its own word: the first is looked for from the phrase on, each next after it."""
    for k in kinds:
        if k not in vocab.kinds:
            err = _unknown_kind(k, vocab, report, line, column)
            report.unknown.append(err)
            line, column = err.line, err.column + len(k)


def _kinds(vocab: Vocabulary) -> str:
    return "one of " + ", ".join(sorted(vocab.kinds))


def _unknown_kind(kind: str, vocab: Vocabulary, report: _Reporter, line: int, column: int) -> CardError:
    """``unknown loot kind`` with a did-you-mean, the caret on the kind word itself.

    A word read as a kind only because the language has no words for what the line means ("for
    each doubloon you have", "3 or more reputation": ``intents``) is refused for that instead, with
    the nearest wording there is: a loot kind spelt like it would mean something else.
    """
    err = at_word(report, f"unknown loot kind {kind!r}{did_you_mean(kind, vocab.kinds)}", line, column,
                  _kinds(vocab), kind)
    found = intents.find(err.source_line)
    if found is not None and found.column <= err.column < found.column + len(found.words):
        message, expected = intents.message(found)
        return UnsayableError(message, path=err.path, line=err.line, column=found.column,
                              source_line=err.source_line, expected=expected)
    return err


def at_word(report: Report, message: str, line: int, column: int, expected: str, word: str) -> CardError:
    """The error with its caret on ``word``: its first whole occurrence on the line, at or after ``column``.

    The tree keeps one position per phrase, not per word, so the file line
    quoted by the error is searched instead; if the word is not there, the
    phrase's position stands.
    """
    err = report(message, line, column, expected)
    found = re.compile(rf"(?<![\w'-]){re.escape(word)}(?![\w'-])").search(err.source_line, max(column - 1, 0))
    return err if found is None else report(message, line, found.start() + 1, expected)
