"""Slips read off the card grammar: another wording of a slot, a dropped qualifier, another word.

The hand-written operators of ``testing.mutants`` know a few words each.  These know none: they
parse the text with the card grammar (``grammar/libertalia.lark``) and offer, at each place of the
parse tree, what the grammar itself offers there.

- ``slot``: the words of a slot (a ``!`` rule such as ``place``, ``player``, ``article``,
  ``ranked``, ``loot_place``) replaced by each other alternative of the same rule, its open words
  (numbers, kinds, names, the character phrase of "the owner of …") kept from the original:
  "an adjacent player's ship" becomes "another player's ship", "every player's ship",
  "your hand" …; "another" becomes "a"; "every other player" becomes "every player".
- ``drop``: a part the grammar lets go (an optional word, one item of a repeated list, a clause
  with the keyword that brings it in) dropped: "other", a character filter ("in your ship"),
  "if this is on the island", one kind of "barrel or chest".
- ``word``: a word of a terminal the grammar spells several ways replaced by another
  (``MODIFIER``: ``first``/``last``/``once``; ``POSITION``, ``PILE``, ``PREP``, ``IS`` …).
- ``kind``: a loot kind replaced by another kind of the rules, or a kind list widened by one
  (``barrel`` → ``barrel or amulet``): the grammar's ``KIND ("or" KIND)*``, read with the rules'
  kinds, the one open class whose words the grammar cannot list.

Each is a ``Slip`` like the others: which slips the loader accepts and which change the card is
``testing.mutation``'s concern.  A text the grammar refuses has no grammar slips.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import attrs
from lark import Token, Tree
from lark.grammar import NonTerminal, Rule, Symbol, Terminal

from .slip import Slip

__all__ = ["GRAMMAR_OPERATORS", "grammar_slips"]

GRAMMAR_OPERATORS: tuple[str, ...] = ("slot", "drop", "word", "kind")


@attrs.frozen
class _Facts:
    """What the slips read from the built grammar once."""

    by_origin: dict[str, tuple[Rule, ...]]
    by_name: dict[str, tuple[Rule, ...]]  # by a tree node's name: its alias, or its rule's name
    spellings: dict[str, tuple[str, ...]]
    slots: frozenset[str]  # tree node names of the ``!`` rules
    family: dict[str, frozenset[str]]  # a nonterminal: the tree node names it can stand as


@functools.cache
def _facts() -> _Facts:
    from ..language.parser import grammar
    from ..language.repair import spellings

    parser = grammar()
    rules: tuple[Rule, ...] = tuple(parser.rules)
    by_origin: dict[str, list[Rule]] = {}
    by_name: dict[str, list[Rule]] = {}
    for rule in rules:
        by_origin.setdefault(rule.origin.name, []).append(rule)
        by_name.setdefault(str(rule.alias or rule.origin.name), []).append(rule)
    slots = frozenset(str(r.alias or r.origin.name) for r in rules
                      if r.options.keep_all_tokens and not r.origin.name.startswith("_"))
    family: dict[str, frozenset[str]] = {}

    def names(origin: str, seen: frozenset[str]) -> frozenset[str]:
        if origin in seen:
            return frozenset()
        out: set[str] = set()
        for rule in by_origin.get(origin, ()):
            if rule.alias:
                out.add(str(rule.alias))
            elif rule.options.expand1 and len(rule.expansion) == 1 and isinstance(rule.expansion[0], NonTerminal):
                out |= names(rule.expansion[0].name, seen | {origin})
            elif origin.startswith("_"):  # inlined: its children stand in the parent
                for sym in rule.expansion:
                    if isinstance(sym, NonTerminal):
                        out |= names(sym.name, seen | {origin})
            else:
                out.add(origin)
        return frozenset(out)

    for origin in by_origin:
        family[origin] = names(origin, frozenset())
    return _Facts({k: tuple(v) for k, v in by_origin.items()}, {k: tuple(v) for k, v in by_name.items()},
                  {k: tuple(v) for k, v in spellings(parser).items()}, slots, family)


def grammar_slips(text: str, operators: Sequence[str] = GRAMMAR_OPERATORS, *,
                  kinds: Sequence[str] = ()) -> list[Slip]:
    """Every grammar slip of ``text`` by the ``operators`` named (``kinds``: the rules' loot kinds)."""
    from ..language.parser import grammar

    try:
        tree = grammar().parse(text)
    except Exception:  # a text the grammar refuses (or the lexer): no slips to read off it
        return []
    facts = _facts()
    out: list[Slip] = []
    for op in GRAMMAR_OPERATORS:
        if op not in operators:
            continue
        for node in tree.iter_subtrees_topdown():  # type: ignore[no-untyped-call]
            if op == "slot":
                out += _slot(text, node, facts)
            elif op == "drop":
                out += _drop(text, node, facts)
            elif op == "word":
                out += _word(text, node, facts)
            else:
                out += _kind(text, node, kinds)
    unique = dict.fromkeys(out)
    return list(unique)


# ------------------------------------------------------------------ helpers
def _span(item: Tree[Token] | Token) -> tuple[int, int] | None:
    if isinstance(item, Token):
        return (item.start_pos, item.end_pos) if item.start_pos is not None and item.end_pos is not None else None
    meta = item.meta
    return None if getattr(meta, "empty", True) else (meta.start_pos, meta.end_pos)


def _matches(sym: Symbol, item: Tree[Token] | Token, facts: _Facts) -> bool:
    if isinstance(item, Token):
        return isinstance(sym, Terminal) and sym.name == item.type
    return isinstance(sym, NonTerminal) and str(item.data) in facts.family.get(sym.name, frozenset({sym.name}))


def _cased(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() and word[:1].islower() else word


# ------------------------------------------------------------------ slot
def _slot(text: str, node: Tree[Token], facts: _Facts) -> list[Slip]:
    """The slot's words replaced by each other alternative of its rule."""
    name = str(node.data)
    span = _span(node)
    if name not in facts.slots or span is None:
        return []
    start, end = span
    before = text[start:end]
    origin = facts.by_name[name][0].origin.name
    out: list[Slip] = []
    seen = {" ".join(before.split())}
    for rule in facts.by_origin[origin]:
        words = _render(text, rule, node, facts)
        if words is None:
            continue
        after = _cased(" ".join(words), before)
        if " ".join(after.split()) in seen:
            continue
        seen.add(" ".join(after.split()))
        out.append(Slip("slot", start, end, before, after))
    return out


def _render(text: str, rule: Rule, node: Tree[Token], facts: _Facts) -> list[str] | None:
    """``rule``'s alternative in words, its open words and phrases taken from ``node`` (None: it needs one
    the node lacks)."""
    tokens = [c for c in node.children if isinstance(c, Token)]
    trees = [c for c in node.children if isinstance(c, Tree)]
    words: list[str] = []
    for sym in rule.expansion:
        if isinstance(sym, Terminal):
            spelled = facts.spellings.get(sym.name, ())
            own = next((t for t in tokens if t.type == sym.name), None)
            if own is not None:
                tokens.remove(own)
                words.append(str(own))
            elif spelled:
                words.append(spelled[0])
            else:
                return None  # an open word (a number, a kind, a name) the original does not have
            continue
        child = next((t for t in trees if _matches(sym, t, facts)), None)
        if child is not None:
            trees.remove(child)
            span = _span(child)
            if span is None:
                return None
            words.append(text[span[0]:span[1]])
            continue
        fixed = _literal(sym.name, facts)
        if fixed is None:
            return None
        words += fixed
    return words


def _literal(origin: str, facts: _Facts) -> list[str] | None:
    """An inlined rule (``_a``, ``_this``) in words: its first alternative, when that is only words."""
    for rule in facts.by_origin.get(origin, ()):
        words = []
        for sym in rule.expansion:
            spelled = facts.spellings.get(sym.name, ()) if isinstance(sym, Terminal) else ()
            if not spelled:
                break
            words.append(spelled[0])
        else:
            return words
    return None


# ------------------------------------------------------------------ drop
def _drop(text: str, node: Tree[Token], facts: _Facts) -> list[Slip]:
    """Each part of ``node`` its rule lets go, dropped with the filtered keywords just before it (or, for one
    item of a repeated list, with what joins it to its neighbour)."""
    rules = facts.by_name.get(str(node.data), ())
    if not rules or str(node.data) in facts.slots:
        return []  # a slot's shorter wordings are the slot operator's
    same_origin = {tuple(s.name for s in r.expansion) for r in facts.by_origin[rules[0].origin.name]}
    present = [(c, sp) for c in node.children if c is not None and (sp := _span(c)) is not None]
    out: list[Slip] = []
    for k, (child, (start, end)) in enumerate(present):
        run = _droppable(child, rules, same_origin, facts, [c for c, _ in present])
        if run is None:
            continue
        if run > 0 or (run == -1 and k > 0):  # from the end of the part before it
            start = present[k - 1][1][1] if k > 0 else start
        elif run == -1 and k + 1 < len(present):  # the first item of a list: up to the next one
            end = present[k + 1][1][0]
        elif k == 0:
            while end < len(text) and text[end] in " \t":
                end += 1
        else:
            while start > 0 and text[start - 1] in " \t":
                start -= 1
        out.append(Slip("drop", start, end, text[start:end], ""))
    return out


def _droppable(child: Tree[Token] | Token, rules: Sequence[Rule], same_origin: set[tuple[str, ...]],
               facts: _Facts, siblings: list[Tree[Token] | Token]) -> int | None:
    """How many filtered keywords go with ``child`` when the grammar lets it go: -1 for one item of a list
    repeated (it goes with its joining words), None when the grammar needs it."""
    best: int | None = None
    for rule in rules:
        names = [s.name for s in rule.expansion]
        for i, sym in enumerate(rule.expansion):
            if sym.name.startswith("__") and ("_star_" in sym.name or "_plus_" in sym.name):
                items = [s for r in facts.by_origin.get(sym.name, ()) for s in r.expansion]
                alike = [c for c in siblings if any(_matches(s, c, facts) for s in items)]
                if child in alike or (alike and any(_matches(s, child, facts) for s in rule.expansion[:i]
                                                    if s.name == _item_name(items))):
                    return -1  # one item of a repeated list, the list holding another
                continue
            if not _matches(sym, child, facts):
                continue
            j = i
            while True:
                if tuple(names[:j] + names[i + 1:]) in same_origin:
                    if best is None or i - j < best:
                        best = i - j
                    break
                if j == 0 or not _filtered(rule.expansion[j - 1]):
                    break
                j -= 1
    return best


def _item_name(items: Sequence[Symbol]) -> str:
    """The name of a repeated list's item (its helper's last symbol: ``KIND`` of ``"or" KIND``)."""
    return items[-1].name if items else ""


def _filtered(sym: Symbol) -> bool:
    return isinstance(sym, Terminal) and bool(sym.filter_out)


# ------------------------------------------------------------------ word
_OPEN = frozenset({"NUMBER", "KIND", "NAME", "NOUN"})


def _word(text: str, node: Tree[Token], facts: _Facts) -> list[Slip]:
    """Each word of a terminal spelled several ways replaced by the terminal's other words."""
    if str(node.data) in facts.slots:
        return []  # a slot's words are the slot operator's
    out = []
    for child in node.children:
        if not isinstance(child, Token) or child.type in _OPEN or child.start_pos is None:
            continue
        for word in facts.spellings.get(child.type, ()):
            if word != str(child).lower() and child.end_pos is not None:
                out.append(Slip("word", child.start_pos, child.end_pos, str(child), _cased(word, str(child))))
    return out


# ------------------------------------------------------------------ kind
def _kind(text: str, node: Tree[Token], kinds: Sequence[str]) -> list[Slip]:
    """A loot kind replaced by another of the rules, and a kind list widened by one."""
    own = [c for c in node.children if isinstance(c, Token) and c.type == "KIND" and c.end_pos is not None]
    if not own or not kinds:
        return []
    named = {str(t) for t in own}
    out = []
    for token in own:
        for kind in kinds:
            if kind not in named and kind != str(token).rstrip("s"):
                out.append(Slip("kind", token.start_pos or 0, token.end_pos or 0, str(token), kind))
    if node.data == "some_kinds":
        last = own[-1]
        for kind in kinds:
            if kind not in named:
                out.append(Slip("kind", last.end_pos or 0, last.end_pos or 0, "", f" or {kind}"))
    return out
