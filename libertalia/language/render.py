"""Syntax tree back to canonical card text.

Used to show cards and to pin the round trip ``parse(render(ast)) == ast``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import singledispatch

from ..syntax import ast


def render(abilities: ast.Ability | Iterable[ast.Ability]) -> str:
    """Canonical text: one ability per line."""
    if isinstance(abilities, ast.Ability):
        return render_ability(abilities)
    items = list(abilities) if isinstance(abilities, Iterable) and not isinstance(abilities, str) else None
    if items is None or not all(isinstance(a, ast.Ability) for a in items):
        raise TypeError(f"render: abilities must be an Ability or a list of them (what parse returns), "
                        f"not {abilities!r:.60} ({type(abilities).__name__})")
    return "\n".join(render_ability(a) for a in items)


def render_ability(a: ast.Ability) -> str:
    trigger = ", ".join((a.timing, *a.modifiers))
    return f"{trigger}: " + ", then ".join(_step(s) for s in a.steps) + "."


def _step(s: ast.Step) -> str:
    acts = ("you may " if s.optional == "then" else "") + _actions(s.actions)
    may_else = "you may " if s.optional == "otherwise" else ""  # a choice inside a branch (issue 34.2)
    other = f"; otherwise {may_else}{_actions(s.otherwise)}" if s.otherwise else ""
    if s.form == "postfix_if":
        assert s.condition is not None
        chain = "".join(f"; otherwise {_actions(a)} if {_condition(c)}" for c, a in s.elifs)
        return f"{acts} if {_condition(s.condition)}{chain}{other}"
    if s.form == "prefix_if":
        assert s.condition is not None
        return f"if {_condition(s.condition)}, {acts}{other}"
    if s.form == "unless":
        assert s.condition is not None
        return f"{acts} unless {_condition(s.condition)}"
    if s.form == "may":
        return f"you may {acts}{other}"
    if s.form == "choose_one":
        return "choose one: " + "; or ".join(_actions(c) for c in (s.actions, *s.choices))
    return acts


def _actions(actions: Iterable[ast.Action]) -> str:
    return " and ".join(_action(a) for a in actions)


def render_actions(actions: Iterable[ast.Action]) -> str:
    """Actions joined by "and", as an option's label reads."""
    return _actions(actions)


@singledispatch
def _action(a: object) -> str:  # pragma: no cover - every node is registered
    raise TypeError(f"cannot render {a!r}")


@_action.register(ast.Change)
def _(a: ast.Change) -> str:
    if a.subject is None:
        return f"{a.verb} {_amount(a.amount)}"
    return f"{_player(a.subject)} {a.verb}s {_amount(a.amount)}"


@_action.register(ast.PaysYou)
def _(a: ast.PaysYou) -> str:
    return f"{_player(a.subject)} pays you {_amount(a.amount)}"


@_action.register(ast.MoveReputation)
def _(a: ast.MoveReputation) -> str:
    return f"move your reputation to the {a.end} space"


@_action.register(ast.Discard)
def _(a: ast.Discard) -> str:
    if a.by is not None:
        return f"{_player(a.by)} discards {char_sel(a.target)}"
    return f"discard {char_sel(a.target)}"


@_action.register(ast.Put)
def _(a: ast.Put) -> str:
    return f"put {char_sel(a.target)} into your {a.pile}"


@_action.register(ast.TakeFromHand)
def _(a: ast.TakeFromHand) -> str:
    if a.place in ("left_ship", "right_ship"):
        return f"take a random character from the hand of the player on your {a.place[:-5]}"
    return "take a random character from another player's hand"


@_action.register(ast.Play)
def _(a: ast.Play) -> str:
    return f"play {char_sel(a.target)} onto the island"


@_action.register(ast.TakeNoLoot)
def _(a: ast.TakeNoLoot) -> str:
    return "take no loot"


@_action.register(ast.Take)
def _(a: ast.Take) -> str:
    return f"take {_loot_sel(a.loot)}"


@_action.register(ast.ReturnLoot)
def _(a: ast.ReturnLoot) -> str:
    if a.by is not None:
        return f"{_player(a.by)} returns {_loot_sel(a.loot)} to the bag"
    return f"return {_loot_sel(a.loot)} to the bag"


@_action.register(ast.Keep)
def _(a: ast.Keep) -> str:
    return f"keep {char_sel(a.target)} for the next voyage"


@_action.register(ast.KeepLoot)
def _(a: ast.KeepLoot) -> str:
    return f"keep {_loot_sel(a.loot)} for the next voyage"


@_action.register(ast.Give)
def _(a: ast.Give) -> str:
    if a.by is not None:
        return f"{_player(a.by)} gives {_loot_sel(a.loot)} to {_player(a.to)}"
    return f"give {_loot_sel(a.loot)} to {_player(a.to)}"


@_action.register(ast.Draw)
def _(a: ast.Draw) -> str:
    per = f" for each {_counter(a.per)}" if a.per is not None else ""
    return f"draw {a.n} random loot from the bag{per}"


@_action.register(ast.Swap)
def _(a: ast.Swap) -> str:
    return f"swap {_loot_sel(a.first)} with {_loot_sel(a.second)}"


@_action.register(ast.UseAbility)
def _(a: ast.UseAbility) -> str:
    return f"use the {a.timing} ability of {char_sel(a.target)}"


@_action.register(ast.CountExtra)
def _(a: ast.CountExtra) -> str:
    return f"count {a.n} extra {a.kind}"


@_action.register(ast.Worth)
def _(a: ast.Worth) -> str:
    """A worth the loader has not settled yet (``normalise.worths``), in the words that parse back to it."""
    kind = a.kinds[0] if a.kinds else "token"
    subject = {"this": "this", "token": f"this {kind}", "kind": f"each {kind} you hold"}[a.of]
    amount = _amount(a.amount)  # "1 doubloon", "3 doubloons"
    return f"{subject} is worth {amount.replace(' ', ' more ', 1) if a.more else amount}"


def _numbers(ns: tuple[int, ...]) -> str:
    if len(ns) == 1:
        return str(ns[0])
    return ", ".join(str(n) for n in ns[:-1]) + f" or {ns[-1]}"


def render_player(p: ast.PlayerRef) -> str:
    """A players phrase as the card says it ("each opponent with a map", "the owner of it")."""
    return _player(p)


def _player(p: ast.PlayerRef) -> str:
    if isinstance(p, ast.OwnerOf):
        return f"the owner of {char_sel(p.target)}"
    if isinstance(p, ast.PlayerOnSide):
        return f"the player on your {p.side}"
    if isinstance(p, ast.EveryPlayer):
        return "every other player" if p.other else "every player"
    if isinstance(p, ast.ChosenPlayer):
        return "another player of your choice" if p.other else "a player of your choice"
    if isinstance(p, ast.PlayersWho):
        return p.wording + ("" if p.where is None else " " + _clause(p.clause, p.where))
    if isinstance(p, ast.PlayersThanYou):
        return f"{p.wording} with {'more' if p.more else 'fewer'} {_measure(p.measure, 'their')} than you"
    if isinstance(p, ast.PlayersWithMost):
        if isinstance(p.measure, ast.Reputation) and not p.other:
            return f"the player with the {'highest' if p.most else 'lowest'} reputation"
        return f"{p.wording} with the {'most' if p.most else 'fewest'} {_measure(p.measure, 'their')}"
    if isinstance(p, ast.You):
        return "you"
    return "its owner"


def _clause(word: str, c: ast.Cond) -> str:
    """A condition said of another player, from their side: "who holds a saber", "with 10 or more doubloons"."""
    if isinstance(c, ast.Hold | ast.HoldCount):
        return "who holds " + _cond(c).removeprefix("you hold ")
    has = "with" if word == "with" else "who has"
    if isinstance(c, ast.HaveDoubloons):
        return f"{has} {c.n} or {'fewer' if c.at_most else 'more'} doubloons"
    if isinstance(c, ast.Exists):
        return f"{has} {'no' if c.negated else 'a'} {char_np(c.np)}"
    assert isinstance(c, ast.CountExists), f"no clause reads {c!r}"
    return f"{has} {c.n} or {c.cmp} {char_np(c.np)}"


def _measure(m: ast.Measure, whose: str) -> str:
    if isinstance(m, ast.Doubloons):
        return "doubloons"
    if isinstance(m, ast.Reputation):
        return "reputation"
    if isinstance(m, ast.LootHeld):
        return _kinds(m.kinds)
    return f"characters in {whose} {m.pile}"


# ------------------------------------------------------------------ amounts
def _amount(a: ast.Amount) -> str:
    if isinstance(a, ast.Fixed):
        unit = "reputation" if a.unit == "reputation" else ("doubloon" if a.n == 1 else "doubloons")
        per = f" for each {_counter(a.per)}" if a.per is not None else ""
        if a.per is not None and a.every > 1:  # a rate per group (issue 34.2)
            per = f" for every {a.every} {_counter(a.per)}"
        if a.cap is not None:  # a cap (issue 34.2)
            per += f", up to {a.cap} {'reputation' if a.unit == 'reputation' else _doubloons(a.cap)}"
        return f"{a.n} {unit}{per}"
    if isinstance(a, ast.Half):
        return "half your doubloons"
    if isinstance(a, ast.UpTo):
        return f"doubloons up to {a.n}"
    if isinstance(a, ast.ByTable):
        return f"doubloons by {_counter(a.counter)} ({_rows(a.rows)})"
    return f"doubloons for your {a.kind} in sets ({_rows(a.rows)})"


def _doubloons(n: int) -> str:
    return "doubloon" if n == 1 else "doubloons"


def _rows(rows: tuple[ast.Row, ...]) -> str:
    return ", ".join(f"{r.count}{' or ' + r.cmp if r.cmp else ''} for {r.value}" for r in rows)


def _counter(c: ast.Counter | None) -> str:
    if isinstance(c, ast.CountCharacters):
        return char_np(c.np)
    if isinstance(c, ast.CountLoot):
        return f"{_kinds(c.kinds)} you hold"
    if isinstance(c, ast.CountKinds):
        return f"{'kinds' if c.plural else 'kind'} of {_kinds(c.kinds)} you hold"
    if isinstance(c, ast.CountMoved):
        return "space moved"
    if isinstance(c, ast.CountSpaces):
        return f"space {c.side} of your reputation"
    assert isinstance(c, ast.CountAffected)
    return f"one {c.word}"


# ------------------------------------------------------------------ selectors
def char_sel(s: ast.CharSel) -> str:
    if isinstance(s, ast.This):
        return "this"
    if isinstance(s, ast.It):
        return "it"
    if isinstance(s, ast.Taker):
        return TAKER
    if isinstance(s, ast.Beside):
        return f"the character {s.side} of this"
    if isinstance(s, ast.ChooseChar):
        if s.another:
            return "another " + _np_body(s.np)
        return _a(char_np(s.np))
    if isinstance(s, ast.EveryChar):  # "every character", however the variant wrote it ("all characters")
        return "every " + char_np(ast.CharNP(s.np.other, s.np.noun, s.np.filters))
    return f"the {s.position} {char_np(s.np)}"


def _a(phrase: str) -> str:
    """The indefinite article before ``phrase``: "an amulet", "an Officer", "a map"."""
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def char_np(np: ast.CharNP) -> str:
    return ("other " if np.other else "") + _np_body(np)


def _np_body(np: ast.CharNP) -> str:
    noun = "characters" if np.plural and np.noun == "character" else np.noun
    return " ".join([noun, *(_filter(f) for f in np.filters)])


def _filter(f: ast.CharFilter) -> str:
    if isinstance(f, ast.Zone):
        return f"{f.prep} {_place(f)}"
    if isinstance(f, ast.RankedAbove):
        return f"ranked above {f.rank}"
    if isinstance(f, ast.RankedBelow):
        return f"ranked below {f.rank}"
    if isinstance(f, ast.RankedThanThis):
        return f"ranked {'above' if f.above else 'below'} this"
    if isinstance(f, ast.WithAbility):
        return f"with {_a(f.timing)} ability"
    if f.who == "player":
        assert f.player is not None
        return f"owned by {_player(f.player)}"
    return "owned by another player" if f.who == "other" else "owned by you"


def _place(z: ast.Zone) -> str:
    if z.place == "island":
        return "the island"
    if z.place in ("your", "their"):
        return f"{z.place} {z.pile}"
    if z.pile == "graveyard":  # other players' graveyards (issue 34.2)
        if z.place == "any_ship":
            return f"{z.wording or 'any'} graveyard"
        if z.place == "other_ship":
            return f"{z.wording or 'another player' + chr(39) + 's'} graveyard"
        return f"the graveyard of the player on your {z.place.removesuffix('_ship')}"
    if z.place == "any_ship":
        return f"{z.wording or 'any'} ship"
    if z.place == "other_ship":
        return f"{z.wording or 'another player' + chr(39) + 's'} ship"
    return {
        "adjacent_ship": "an adjacent player's ship",
        "left_ship": "the ship of the player on your left",
        "right_ship": "the ship of the player on your right",
        "top_ship": "the ship of the player with the highest reputation",
        "bottom_ship": "the ship of the player with the lowest reputation",
        "each_ship": "each player's ship",
        "each_opponent_ship": "each opponent's ship",
        "each_adjacent_ship": "each adjacent player's ship",
    }[z.place]


def _kinds(kinds: tuple[str, ...]) -> str:
    return " or ".join(kinds) if kinds else "loot"


def _loot_np(np: ast.LootNP) -> str:
    return f"{_kinds(np.kinds)} {_loot_place(np)}"


def _loot_place(np: ast.LootNP) -> str:
    return {
        "today": f"{np.prep or 'from'} today's loot",
        "tomorrow": f"{np.prep or 'from'} tomorrow's loot",
        "bag": f"{np.prep or 'from'} the bag",
        "adjacent_player": f"{np.prep or 'from'} an adjacent player",
        "other_player": f"{np.prep or 'from'} another player",
        "left_player": f"{np.prep or 'from'} the player on your left",
        "right_player": f"{np.prep or 'from'} the player on your right",
        "held": "you hold",
        "theirs": "they hold",
    }[np.place]


def _loot_sel(s: ast.LootSel) -> str:
    if isinstance(s, ast.ThisToken):
        return "this " + (s.np.kinds[0] if s.np.kinds else "token")
    if isinstance(s, ast.ChooseLoot):
        return _a(_loot_np(s.np))
    if isinstance(s, ast.RandomLoot):
        return "a random " + _loot_np(s.np)
    if isinstance(s, ast.EveryLoot):
        return "every " + _loot_np(s.np)
    if isinstance(s, ast.EveryLootBut):
        return f"every {_loot_np(s.np)} but {s.keep} of {s.whose} choice"
    if isinstance(s, ast.ChooseLootN):
        return f"{_numbers(s.counts)} {_loot_np(s.np)}"
    return f"{_numbers(s.counts)} {_kinds(s.np.kinds)} of one kind {_loot_place(s.np)}"


# ------------------------------------------------------------------ conditions
def _condition(c: ast.Condition) -> str:
    return " or ".join(" and ".join(_cond(p) for p in group) for group in c.groups)


TAKER = "the character that took this"


def _ref(ref: str) -> str:
    return TAKER if ref == "taker" else ref


def _cond(c: ast.Cond) -> str:
    if isinstance(c, ast.IsPositioned):
        return f"{_ref(c.ref)} {c.verb} the {c.position} {char_np(c.np)}"
    if isinstance(c, ast.IsA):
        return f"{_ref(c.ref)} {c.verb} {_a(c.name)}"
    if isinstance(c, ast.IsLike):
        return f"{_ref(c.ref)} {c.verb} {_filter(c.filter)}"
    if isinstance(c, ast.LastVoyage):
        return f"{_ref(c.ref)} is the last voyage"
    if isinstance(c, ast.HaveDoubloons):
        return f"you have {c.n} or {'fewer' if c.at_most else 'more'} doubloons"
    if isinstance(c, ast.ReputationIs):
        return f"your reputation is {c.n} or {'fewer' if c.at_most else 'more'}"
    if isinstance(c, ast.NoOtherHas):
        return f"no other player has {c.cmp} characters in their {c.pile}"
    if isinstance(c, ast.Hold):
        return f"you hold {'no ' + _kinds(c.kinds) if c.negated else _a(_kinds(c.kinds))}"
    if isinstance(c, ast.JustTook):
        return f"you just took {_a(_kinds(c.kinds))}"
    if isinstance(c, ast.Exists):
        if c.at_nightfall:
            return f"there was no {char_np(c.np)} at nightfall"
        return f"there is {'no ' + char_np(c.np) if c.negated else _a(char_np(c.np))}"
    if isinstance(c, ast.HoldCount):
        return f"you hold {c.n} or {c.cmp} {_kinds(c.kinds)}"
    if isinstance(c, ast.CountExists):
        return f"there are {c.n} or {c.cmp} {char_np(c.np)}"
    if isinstance(c, ast.Compare) and isinstance(c.measure, ast.Reputation) and c.cmp in ("more", "fewer"):
        return f"you have the {'highest' if c.cmp == 'more' else 'lowest'} reputation"
    if isinstance(c, ast.Compare):
        verb = "hold" if isinstance(c.measure, ast.LootHeld) else "have"
        cmp = "at least as many" if c.cmp == "at least" else c.cmp
        return f"you {verb} {cmp} {_measure(c.measure, 'your')} {c.than} {c.rivals} other player"
    assert isinstance(c, ast.YouDid)
    return "you did"
