"""Syntax tree to typed program, once per ``load_rules``.

An ability becomes a flat tuple of frozen step records (``engine.program``): one per
action, plus the tests, questions and jumps that conditions, ``may`` and ``choose one``
need.  Every word that points back is bound here to the step it means
(``references``), so a program says exactly what it does before it ever runs, and a
suspended ability is a program counter, its answers and its marks: plain data
(design.md §2).  A reference that cannot be bound to exactly one earlier step of the
right kind is refused with a ``CardError`` naming the word.
"""

from __future__ import annotations

from ...engine.program import actions as act
from ...engine.program import amounts as amt
from ...engine.program import cards, loot
from ...engine.program import conditions as cond
from ...engine.program import measures as msr
from ...engine.program.control import Branch, ChooseOne, Jump, May, Step
from ...engine.program.footprint import footprint
from ...engine.program.kinds import names_kinds
from ...engine.program.record import Record, fields
from ...engine.specs import Compiled
from ...errors import CardError
from ...syntax import ast
from ..checker import at_word, plural_kind
from ..render import char_np, char_sel, render_ability, render_actions, render_player
from .references import VERB_OF, Binder, Report, Scope, Slots, merge, their_problem

__all__ = ["compile_ability"]

_Arm = tuple[list[act.Action], tuple[act.Action, ...], tuple[int, ...]]
"""An arm of a step: its actions, those an option can preview, and which of those are prices (``gives_up``)."""

PER_SHIP = {"each_ship": "any_ship", "each_opponent_ship": "other_ship", "each_adjacent_ship": "adjacent_ship"}
"""Places that name one ship per seat ("in each opponent's ship"): a pick is made in every one."""


def _plain_report(message: str, line: int, column: int, expected: str) -> CardError:
    return CardError(message, path="<text>", line=line, column=column, expected=expected)


def compile_ability(ability: ast.Ability, report: Report | None = None, *,
                    kinds: frozenset[str] | set[str] = frozenset()) -> Compiled:
    """The typed program of one ability; ``report`` makes the error of a reference that binds nothing.

    ``kinds`` are the rules' loot kinds, which tell what a plural names in a comparison ("relics":
    relic; "goods": goods); without them a final "s" is dropped.
    """
    return _Compiler(ability, report or _plain_report, frozenset(kinds)).build()


class _Compiler:
    def __init__(self, ability: ast.Ability, report: Report, kinds: frozenset[str] = frozenset()) -> None:
        self.ability = ability
        self.report = report
        self.kinds = kinds
        self.slots = Slots()
        self.reads: list[int] = []  # slots the action being compiled reads
        self.where = (ability.line, ability.column)
        # How the text names the player whose side phrases are read from ("their" is theirs); None: yours.
        self.side: str | None = None
        # While an amount said of another player is compiled: their words, and whether "their" was said.
        self.amount_side: str | None = None
        self.their_said = False

    # ------------------------------------------------------------ references
    def _fail(self, message: str, expected: str, word: str = "") -> CardError:
        """The error, its caret on ``word`` where the line shows it (else on the phrase)."""
        if word:
            return at_word(self.report, message, *self.where, expected, word)
        return self.report(message, *self.where, expected)

    def _read(self, slot: int) -> int:
        self.slots.note_read(slot)
        self.reads.append(slot)
        return slot

    def _it(self, scope: Scope, word: str) -> int:
        b = scope.chars
        if b is None:
            raise self._fail(f'"{word}" points back to a character, but no earlier action names one',
                             "an earlier action that discards, puts, plays, keeps or names a character", word)
        if b.plural:
            raise self._fail(f'"{word}" names one character, but "{b.words}" can name several',
                             'an action that names one character ("a …", "the leftmost …"), or no "it"', word)
        return self._read(b.slot)

    def _verb(self, scope: Scope, word: str) -> int:
        b = scope.verbs.get(word)
        if b is None:
            kinds = " or ".join(f'"{k.__name__.lower().replace("loot", "")}"' for k in VERB_OF[word])
            raise self._fail(f'"one {word}" counts an earlier action, but nothing earlier in this ability is {word}',
                             f"an earlier {kinds} action for it to count", f"one {word}")
        return self._read(b.slot)

    def _named_count(self, b: Binder, c: ast.CountAffected) -> None:
        """"for each relic returned" counts what the step before returned only if that is relics, all of them."""
        noun = c.noun
        if isinstance(noun, ast.CharNP):
            fits = b.kinds is None and noun.noun == "character" and not noun.filters and not noun.other
            said = char_np(noun)
        else:
            assert noun is not None
            fits = b.kinds is not None and names_kinds(noun, self.kinds) == b.kinds
            said = " or ".join(noun) or "loot"
        if not fits:
            self.where = (c.line, c.column) if c.line else self.where
            raise self._fail(f'"for each {said} {c.word}" names what the earlier "{b.words}" acted on, and it '
                             f"acted on something else", f'"for each one {c.word}", which counts whatever it '
                             f"{c.word}", f"{said} {c.word}")

    def _spaces(self, scope: Scope) -> int:
        if scope.spaces is None:
            raise self._fail('"space moved" counts the spaces an earlier "move your reputation" moved, and there '
                             "is none", 'an earlier "move your reputation to the … space"', "space moved")
        return self._read(scope.spaces.slot)

    def _their(self, word: str) -> None:
        """``their`` / ``they hold`` / ``of their choice`` need a player to be theirs (``references``)."""
        if self.side is None and self.amount_side is None:
            raise self._fail(*their_problem(word), "they" if word.startswith("they") else "their")
        if self.side is None:
            self.their_said = True

    def _from_side(self, words: str) -> _Side:
        """Compile what follows from the side of the player ``words`` names ("their" is theirs)."""
        return _Side(self, words)

    def _did(self, scope: Scope) -> int:
        if scope.part_problem:
            raise self._fail(f'"you did" could mean any of "{scope.part_problem}"',
                             'one action before "then … if you did" (split the others off with ", then")', "you did")
        if scope.part is None:
            raise self._fail('"you did" needs an earlier sentence part to speak of',
                             'an action, then ", then … if you did"', "you did")
        return self._read(scope.part)

    # ------------------------------------------------------------ characters
    def _filter(self, flt: ast.CharFilter) -> cards.Filter:
        if isinstance(flt, ast.RankedAbove):
            return cards.RankedAbove(flt.rank)
        if isinstance(flt, ast.RankedThanThis):
            return cards.RankedThanThis(flt.above)
        if isinstance(flt, ast.RankedBelow):
            return cards.RankedBelow(flt.rank)
        if isinstance(flt, ast.WithAbility):
            return cards.HasAbility(flt.timing)
        if isinstance(flt, ast.OwnedBy):
            if flt.who == "other":
                return cards.OwnedBy(True)
            if flt.who == "you":
                return cards.OwnedBy(False)
            assert isinstance(flt.player, ast.PlayerOnSide), "the grammar names a neighbour"
            return cards.OwnedBy(False, 1 if flt.player.side == "left" else -1)
        return cards.InZone(self._place(flt), flt.pile)

    def _place(self, zone: ast.Zone) -> str:
        if zone.place == "their":  # read from their side, where "your" is theirs
            self._their("their")
            return "your"
        return PER_SHIP.get(zone.place, zone.place)

    def _phrase(self, np: ast.CharNP) -> cards.Phrase:
        zone = np.zone
        place = "in_play" if zone is None else self._place(zone)
        filters = tuple(self._filter(f) for f in np.filters if not isinstance(f, ast.Zone))
        if self.side is not None and place != "your":  # "with a character on the island": one of theirs
            filters = (*filters, cards.OwnedBy(False))
        return cards.Phrase(place, "" if zone is None else zone.pile, np.other,
                            "" if np.noun == "character" else np.noun, filters)

    def _selector(self, sel: ast.CharSel, verb: str, scope: Scope) -> cards.Selector:
        if isinstance(sel, ast.This | ast.Taker):
            return cards.This()
        if isinstance(sel, ast.It):
            return cards.It(self._it(scope, "it"))
        if isinstance(sel, ast.Beside):
            return cards.Beside(sel.side)
        zone = sel.np.zone
        if zone is not None and zone.place in PER_SHIP and not isinstance(sel, ast.EveryChar):
            return cards.PerShip(self._phrase(sel.np), sel.position if isinstance(sel, ast.Positional) else "", verb)
        if isinstance(sel, ast.EveryChar):
            return cards.Every(self._phrase(sel.np))
        if isinstance(sel, ast.Positional):
            return cards.Positional(sel.position, self._phrase(sel.np))
        return cards.Choose(self._phrase(sel.np), verb)

    def _names(self, sel: ast.CharSel, selector: cards.Selector, scope: Scope, slot: int) -> None:
        """The action names characters: "it" after it means them."""
        scope.chars = Binder(slot, selector.plural, char_sel(sel))

    # ------------------------------------------------------------ loot
    def _loot(self, sel: ast.LootSel, verb: str) -> loot.TokenSelector:
        place = sel.np.place
        if place == "theirs":  # read from their side, where "you hold" is what they hold
            self._their("they hold")
            place = "held"
        if isinstance(sel, ast.EveryLootBut) and sel.whose == "their":
            self._their("of their choice")
        phrase = loot.LootPhrase(names_kinds(sel.np.kinds, self.kinds), place)
        if isinstance(sel, ast.ChooseLoot):
            return loot.ChooseToken(phrase, verb)
        if isinstance(sel, ast.ThisToken):
            return loot.ThisToken(phrase)
        if isinstance(sel, ast.RandomLoot):
            return loot.RandomToken(phrase)
        if isinstance(sel, ast.EveryLoot):
            return loot.EveryToken(phrase)
        if isinstance(sel, ast.EveryLootBut):
            return loot.EveryTokenBut(phrase, sel.keep)
        if isinstance(sel, ast.ChooseLootN):
            return loot.ChooseTokens(phrase, sel.counts[0], verb)
        return loot.ChooseSet(phrase, sel.counts, verb)

    # ------------------------------------------------------------ amounts and players
    def _counter(self, c: ast.Counter, scope: Scope) -> amt.Counter:
        if isinstance(c, ast.CountCharacters):
            return amt.CountCards(self._phrase(c.np))
        if isinstance(c, ast.CountLoot):
            return amt.CountHeld(names_kinds(c.kinds, self.kinds))
        if isinstance(c, ast.CountKinds):
            return amt.CountKindsHeld(names_kinds(c.kinds, self.kinds))
        if isinstance(c, ast.CountMoved):
            return amt.CountMarked(self._spaces(scope))
        if isinstance(c, ast.CountSpaces):
            return amt.CountSpacesSide(c.side)
        slot = self._verb(scope, c.word)
        if c.noun is not None:
            self._named_count(scope.verbs[c.word], c)
        return amt.CountMarked(slot)

    def _rows(self, rows: tuple[ast.Row, ...]) -> tuple[amt.Row, ...]:
        return tuple(amt.Row(r.count, r.cmp, r.value) for r in rows)

    def _amount(self, a: ast.Amount, scope: Scope) -> amt.Amount:
        if isinstance(a, ast.Fixed):
            return amt.Fixed(a.n, None if a.per is None else self._counter(a.per, scope), a.every, a.cap)
        if isinstance(a, ast.Half):
            return amt.Half()
        if isinstance(a, ast.UpTo):
            return amt.UpTo(a.n)
        if isinstance(a, ast.ByTable):
            return amt.ByTable(self._counter(a.counter, scope), self._rows(a.rows))
        return amt.InSets(a.kind, self._rows(a.rows))

    def _amount_of(self, subject: ast.PlayerRef | None, a: ast.Amount, scope: Scope) -> amt.Amount:
        """The amount of an action about ``subject``: "you" and "your" in it are the ability's owner, whoever the
        subject is; only where it says "their" ("for each character in their ship") is it read from the subject's
        side, and it says so (``amt.Theirs``)."""
        if subject is None or isinstance(subject, ast.You):
            return self._amount(a, scope)
        saved = self.amount_side, self.their_said
        self.amount_side, self.their_said = render_player(subject), False
        try:
            amount = self._amount(a, scope)
            said = self.their_said
        finally:
            self.amount_side, self.their_said = saved
        return amt.Theirs(amount) if said and not isinstance(amount, amt.Theirs) else amount

    def _measure(self, m: ast.Measure) -> msr.Measure:
        if isinstance(m, ast.Doubloons):
            return msr.Doubloons()
        if isinstance(m, ast.Reputation):
            return msr.Reputation()
        if isinstance(m, ast.LootHeld):
            return msr.LootHeld(names_kinds([plural_kind(k, self.kinds) or (k[:-1] if k.endswith("s") else k)
                                             for k in m.kinds], self.kinds))
        return msr.PileSize(m.pile)

    def _players(self, p: ast.PlayerRef | None, scope: Scope) -> amt.Players:
        if p is None or isinstance(p, ast.You):
            return amt.You()
        if isinstance(p, ast.PlayerOnSide):
            return amt.PlayerOnSide(1 if p.side == "left" else -1)
        if isinstance(p, ast.EveryPlayer):
            return amt.EveryPlayer(p.other)
        if isinstance(p, ast.ChosenPlayer):
            return amt.ChosenPlayer(p.other)
        if isinstance(p, ast.PlayersWho):
            if p.where is None:
                return amt.EveryPlayer(p.other)
            with self._from_side(p.wording):
                return amt.PlayersWhere(p.other, self._cond(p.where, scope))
        if isinstance(p, ast.PlayersThanYou):
            return amt.MoreThanYou(self._measure(p.measure), p.more, p.other)
        if isinstance(p, ast.PlayersWithMost):
            if not p.each:
                raise self._fail('on a tie "the player with the most …" could mean each of them or none (E31)',
                                 '"each player with the most …"', "the")
            return amt.MostOf(self._measure(p.measure), p.most, p.other)
        if isinstance(p, ast.ItsOwner):
            return amt.ItsOwner(self._it(scope, "its owner"))
        target = self._selector(p.target, "name", scope)
        slot = self.slots.new()
        self._names(p.target, target, scope, slot)
        return amt.OwnersOf(target, slot)

    # ------------------------------------------------------------ actions
    def _action(self, a: ast.Action, scope: Scope) -> act.Action:  # noqa: C901 - one branch per action kind
        self.where = (a.line, a.column)
        mark = self.slots.new()
        if isinstance(a, ast.Change):
            amount = self._amount_of(a.subject, a.amount, scope)
            unit = a.amount.unit if isinstance(a.amount, ast.Fixed) else "doubloons"
            if a.subject is None and isinstance(amount, amt.Fixed) and amount.per is None and unit == "doubloons":
                return act.GainCoins(amount.n if a.verb == "gain" else -amount.n, mark)
            subject = self._players(a.subject, scope)
            return act.Change(a.verb == "gain", unit == "reputation", amount, subject, mark)
        if isinstance(a, ast.PaysYou):
            amount = self._amount_of(a.subject, a.amount, scope)
            return act.PaysYou(self._players(a.subject, scope), amount, mark)
        if isinstance(a, ast.MoveReputation):
            scope.spaces = Binder(mark, False, "move your reputation")
            return act.MoveReputation(a.end, mark)
        if isinstance(a, ast.Discard | ast.ReturnLoot | ast.Give) and a.by is not None:
            return self._acting(a, scope, mark)
        if isinstance(a, ast.Discard):
            target = self._selector(a.target, "discard", scope)
            self._names(a.target, target, scope, mark)
            scope.verbs["discarded"] = Binder(mark, True, "discard")
            return act.Discard(target, mark)
        if isinstance(a, ast.Put):
            target = self._selector(a.target, f"put into your {a.pile}", scope)
            self._names(a.target, target, scope, mark)
            scope.verbs["moved"] = Binder(mark, True, "put")
            return act.Put(target, a.pile, mark)
        if isinstance(a, ast.TakeFromHand):  # E41: a card of a hidden hand, drawn at random into yours
            taken = cards.RandomInHand(a.place)
            scope.chars = Binder(mark, False, "a random character from a hand")
            scope.verbs["moved"] = Binder(mark, True, "take")
            return act.Put(taken, "hand", mark)
        if isinstance(a, ast.Play):
            target = self._selector(a.target, "play onto the island", scope)
            self._names(a.target, target, scope, mark)
            scope.verbs["moved"] = Binder(mark, True, "play")
            return act.Play(target, mark)
        if isinstance(a, ast.Keep):
            target = self._selector(a.target, "keep", scope)
            self._names(a.target, target, scope, mark)
            return act.Keep(target, mark)
        if isinstance(a, ast.TakeNoLoot):
            return act.StandingRule(mark)
        if isinstance(a, ast.Take):
            scope.verbs["taken"] = Binder(mark, True, "take", names_kinds(a.loot.np.kinds, self.kinds))
            return act.Take(self._loot(a.loot, "take"), mark)
        if isinstance(a, ast.ReturnLoot):
            scope.verbs["returned"] = Binder(mark, True, "return", names_kinds(a.loot.np.kinds, self.kinds))
            return act.ReturnLoot(self._loot(a.loot, "return to the bag"), mark)
        if isinstance(a, ast.KeepLoot):
            return act.KeepLoot(self._loot(a.loot, "keep for the next voyage"), mark)
        if isinstance(a, ast.Give):
            to = self._players(a.to, scope)
            scope.verbs["moved"] = Binder(mark, True, "give", names_kinds(a.loot.np.kinds, self.kinds))
            return act.Give(self._loot(a.loot, "give away"), to, mark)
        if isinstance(a, ast.Draw):
            per = None if a.per is None else self._counter(a.per, scope)
            return act.Draw(a.n, per, mark)
        if isinstance(a, ast.Swap):
            return act.Swap(self._loot(a.first, "swap"), self._loot(a.second, "swap with"), mark)
        if isinstance(a, ast.UseAbility):
            return act.Borrow(a.timing, self._selector(a.target, f"borrow its {a.timing} ability", scope), mark)
        assert isinstance(a, ast.CountExtra)
        return act.CountExtra(a.n, a.kind, mark)

    def _acting(self, a: ast.Discard | ast.ReturnLoot | ast.Give, scope: Scope, mark: int) -> act.Action:
        """Another player acts for themselves (E32): their phrases are read from their side."""
        assert a.by is not None
        subject = self._players(a.by, scope)
        words = render_player(a.by)
        if isinstance(a, ast.Discard):
            with self._from_side(words):
                target = self._selector(a.target, "discard", scope)
            plural = target.plural or _many(subject)
            scope.chars = Binder(mark, plural, f"{words} discards {char_sel(a.target)}")
            scope.verbs["discarded"] = Binder(mark, True, "discard")
            return act.TheyDiscard(subject, target, mark)
        if isinstance(a, ast.ReturnLoot):
            with self._from_side(words):
                tokens = self._loot(a.loot, "return to the bag")
            scope.verbs["returned"] = Binder(mark, True, "return")
            return act.TheyReturn(subject, tokens, mark)
        to = self._players(a.to, scope)
        with self._from_side(words):
            tokens = self._loot(a.loot, "give away")
        scope.verbs["moved"] = Binder(mark, True, "give")
        return act.TheyGive(subject, tokens, to, mark)

    def _arm(self, actions: tuple[ast.Action, ...], scope: Scope) -> _Arm:
        """An arm's steps, those an option can preview (not waiting on an earlier one's pick), and its prices."""
        steps: list[act.Action] = []
        checks: list[act.Action] = []
        costs: list[int] = []
        made: set[int] = set()
        for a in actions:
            first = len(self.slots.parent)
            self.reads = []
            step = self._action(a, scope)
            if not any(self.slots.find(r) in made or r in made for r in self.reads):
                checks.append(step)
                if gives_up(a):
                    costs.append(len(checks) - 1)
            made.update(range(first, len(self.slots.parent)))
            steps.append(step)
        return steps, tuple(checks), tuple(costs)

    # ------------------------------------------------------------ conditions
    def _card_slot(self, ref: str, verb: str, scope: Scope, what: str) -> int:
        if ref != "it":
            if verb == "was":
                raise self._fail(f'"{what} was …" reads a character as it stood before the action that named it, '
                                 f'and "{what}" has no such action', f'"{what} is …"')
            return -1
        return self._it(scope, "it")

    def _cond(self, c: ast.Cond, scope: Scope) -> cond.Cond:  # noqa: C901 - one branch per condition kind
        if isinstance(c, ast.IsPositioned):
            what = "this" if c.ref != "taker" else "the character that took this"
            if c.verb == "was":
                raise self._fail("a position is read as things stand now", f'"{what if c.ref != "it" else "it"} is '
                                 f'the {c.position} …"')
            return cond.IsPositioned(self._card_slot(c.ref, c.verb, scope, what), c.position, self._phrase(c.np))
        if isinstance(c, ast.IsA):
            return cond.IsA(self._card_slot(c.ref, c.verb, scope, "this"), c.name)
        if isinstance(c, ast.IsLike):
            slot = self._card_slot(c.ref, c.verb, scope, "this")
            return cond.IsLike(slot, self._filter(c.filter), c.verb == "was")
        if isinstance(c, ast.LastVoyage):
            return cond.LastVoyage()
        if isinstance(c, ast.HaveDoubloons):
            return cond.HaveDoubloons(c.n, c.at_most)
        if isinstance(c, ast.ReputationIs):
            return cond.ReputationAt(c.n, c.at_most)
        if isinstance(c, ast.NoOtherHas):
            return cond.NoOtherHas(c.pile, c.cmp == "fewer")
        if isinstance(c, ast.Hold):
            return cond.Hold(names_kinds(c.kinds, self.kinds), c.negated)
        if isinstance(c, ast.JustTook):
            return cond.JustTook(names_kinds(c.kinds, self.kinds))
        if isinstance(c, ast.Exists):
            return cond.Exists(self._phrase(c.np), c.negated, c.at_nightfall)
        if isinstance(c, ast.HoldCount):
            return cond.HoldCount(names_kinds(c.kinds, self.kinds), c.n, c.cmp == "more")
        if isinstance(c, ast.CountExists):
            return cond.CountExists(self._phrase(c.np), c.n, c.cmp == "more")
        if isinstance(c, ast.Compare):
            if c.cmp == "as many":
                raise self._fail('"as many … as" could mean exactly as many or at least as many (E30)',
                                 '"at least as many … as" or "more … than"', "as")
            return cond.Compare(self._measure(c.measure), c.cmp != "fewer", c.cmp == "at least")
        assert isinstance(c, ast.YouDid)
        return cond.YouDid(self._did(scope))

    def _condition(self, c: ast.Condition, scope: Scope, negated: bool = False) -> cond.Condition:
        return cond.Condition(tuple(tuple(self._cond(p, scope) for p in group) for group in c.groups), negated)

    # ------------------------------------------------------------ assembly
    def build(self) -> Compiled:  # noqa: C901 - the layout of every step form
        ability = self.ability
        text = render_ability(ability)
        code: list[Step | None] = []
        scope = Scope()
        for step in ability.steps:
            self.where = (step.line, step.column)
            start = scope.copy()
            arms: list[tuple[ast.Action, ...]]
            arm_scopes: list[Scope] = []
            arm_steps: list[_Arm] = []
            if step.form == "plain":
                arms = [step.actions]
            elif step.form == "choose_one":
                arms = [step.actions, *step.choices]
            elif step.form == "may":
                arms = [step.actions, *([step.otherwise] if step.otherwise else [])]
            else:
                arms = [step.actions, *(acts for _, acts in step.elifs), *([step.otherwise] if step.otherwise else [])]
            tests: list[cond.Condition] = []
            if step.form in ("postfix_if", "prefix_if", "unless"):
                assert step.condition is not None
                self.where = (step.line, step.column)
                tests.append(self._condition(step.condition, start, negated=step.form == "unless"))
                for c, _ in step.elifs:
                    tests.append(self._condition(c, start))
            for arm in arms:
                s = start.copy()
                arm_steps.append(self._arm(arm, s))
                arm_scopes.append(s)
            scope = merge(self.slots, start, arm_scopes)
            # "you did" speaks of the part a reader sees before it: after "you may …; otherwise …", the
            # question's "yes" arm alone (answering "no" did nothing), never the "otherwise".
            did_arms = 1 if step.form == "may" else len(arms)
            singles = [steps[0].mark for steps, _, _ in arm_steps[:did_arms] if len(steps) == 1]
            many = [arm for arm in arms[:did_arms] if len(arm) > 1]
            scope.part = self.slots.union(singles) if singles else None
            scope.part_problem = '" or "'.join(render_actions((a,)) for a in many[0]) if many else ""

            if step.form == "plain":
                code.extend(arm_steps[0][0])
            elif step.form == "choose_one":
                branch_at = len(code)
                code.append(None)
                starts, exits = [], []
                for steps, _, _ in arm_steps:
                    starts.append(len(code))
                    code.extend(steps)
                    exits.append(len(code))
                    code.append(None)
                for at in exits:
                    code[at] = Jump(len(code))
                code[branch_at] = ChooseOne(tuple(checks for _, checks, _ in arm_steps), tuple(starts),
                                            tuple(render_actions(o) for o in arms), len(code), text,
                                            tuple(costs for _, _, costs in arm_steps))
            elif step.form == "may":
                branch_at = len(code)
                code.append(None)
                code.extend(arm_steps[0][0])
                jump_at = len(code)
                if step.otherwise:
                    code.append(None)
                else_at = len(code)
                if step.otherwise:
                    code.extend(arm_steps[1][0])
                    code[jump_at] = Jump(len(code))
                code[branch_at] = May(arm_steps[0][1], else_at, text, arm_steps[0][2])
            else:
                at_tests, exits = [], []
                for i, (test, (steps, checks, costs)) in enumerate(zip(tests, arm_steps, strict=False)):
                    at_tests.append((len(code), test))
                    code.append(None)
                    asks = i == 0 and step.optional == "then"  # "if C, you may A": a "no" ends the step
                    if asks:
                        code.append(None)
                    code.extend(steps)
                    exits.append(len(code))
                    if asks:
                        code[at_tests[-1][0] + 1] = May(checks, len(code), text, costs)
                    code.append(None)
                falls = [at for at, _ in at_tests[1:]] + [len(code)]
                if step.otherwise:
                    may_at = len(code)
                    if step.optional == "otherwise":  # "…; otherwise you may B"
                        code.append(None)
                    code.extend(arm_steps[-1][0])
                    if step.optional == "otherwise":
                        code[may_at] = May(arm_steps[-1][1], len(code), text, arm_steps[-1][2])
                end_at = len(code)
                for (at, test), fall in zip(at_tests, falls, strict=True):
                    code[at] = Branch(test, fall, end_at)
                for at in exits:
                    code[at] = Jump(end_at)
        mapping, slots = self.slots.final()
        for placed in code:
            written = [mapping.get(x, -1) for x in _writes(placed)]
            kept = [x for x in written if x >= 0]
            if len(kept) != len(set(kept)):
                raise self._fail("two words after a choice point back at one action's different records (the "
                                 "character that names a player, and what the action did)",
                                 "one of them only, or the action in a sentence of its own", "")
        program = tuple(_remap(s, mapping) for s in code if s is not None)
        assert len(program) == len(code), "every placeholder was patched"
        return _compiled(ability, text, program, slots)


class _Side:
    """While it is open, phrases are read from another player's side (``_Compiler.side``)."""

    def __init__(self, compiler: _Compiler, words: str) -> None:
        self.compiler, self.words = compiler, words
        self.saved: str | None = None

    def __enter__(self) -> None:
        self.saved, self.compiler.side = self.compiler.side, self.words

    def __exit__(self, *exc: object) -> None:
        self.compiler.side = self.saved


def gives_up(a: ast.Action) -> bool:
    """Whether an action is a price: it gives up something of the ability's owner.

    ``lose …`` said of you, ``return`` or ``give`` loot you hold, ``discard`` this or a character in
    your own piles, ``move your reputation to the leftmost space``.  An option of ``you may`` or
    ``choose one`` is offered only when each of its prices can be paid (docs/card-language.md,
    "Meaning rules"), whatever its other actions could do.
    """
    if isinstance(a, ast.Change):
        return a.verb == "lose" and (a.subject is None or isinstance(a.subject, ast.You))
    if isinstance(a, ast.ReturnLoot | ast.Give):
        return a.by is None and a.loot.np.place == "held"
    if isinstance(a, ast.Discard):
        if a.by is not None:
            return False
        target = a.target
        if isinstance(target, ast.This):
            return True
        np = getattr(target, "np", None)
        return np is not None and any(isinstance(flt, ast.Zone) and flt.place == "your" or
                                      isinstance(flt, ast.OwnedBy) and flt.who == "you" for flt in np.filters)
    if isinstance(a, ast.MoveReputation):
        return a.end == "leftmost"
    return False


def _many(players: amt.Players) -> bool:
    """Whether a players phrase can name several players."""
    if isinstance(players, amt.OwnersOf):
        return players.target.plural
    return not isinstance(players, amt.You | amt.PlayerOnSide | amt.ChosenPlayer | amt.ItsOwner)


def _writes(value: object) -> list[int]:
    """The provisional slots a step writes: its own mark, and the mark of each "the owner of …" in it."""
    if isinstance(value, ChooseOne | May | Branch | Jump) or not isinstance(value, Record):
        return []
    mark = getattr(value, "mark", -1)
    out = [mark] if isinstance(mark, int) and mark >= 0 else []
    for info in fields(value):
        players = getattr(value, info.name)
        if isinstance(players, amt.OwnersOf) and players.slot >= 0:
            out.append(players.slot)
    return out


def _remap(node: Step, mapping: dict[int, int]) -> Step:
    """The step with its provisional slot numbers replaced by frame indexes (-1: nothing reads it)."""
    remapped = _remap_value(node, mapping)
    assert isinstance(remapped, type(node))
    return remapped


def _remap_value(value: object, mapping: dict[int, int]) -> object:
    if isinstance(value, tuple):
        return tuple(_remap_value(v, mapping) for v in value)
    if not isinstance(value, Record):
        return value
    changed: dict[str, object] = {}
    for info in fields(value):
        old = getattr(value, info.name)
        new: object
        if info.name in ("slot", "mark") and isinstance(old, int):
            new = mapping.get(old, -1) if old >= 0 else old
        else:
            new = _remap_value(old, mapping)
        changed[info.name] = new
    return type(value)(**changed)


def _compiled(ability: ast.Ability, text: str, program: tuple[Step, ...], slots: int) -> Compiled:
    actions = [a for s in ability.steps for a in s.actions]
    plain = all(s.form == "plain" for s in ability.steps)
    own_fixed = [a for a in actions if isinstance(a, ast.Change) and a.subject is None
                 and isinstance(a.amount, ast.Fixed) and a.amount.per is None and a.amount.unit == "doubloons"]
    coins = tuple(a.amount.n if a.verb == "gain" else -a.amount.n for a in own_fixed  # type: ignore[union-attr]
                  ) if plain and len(own_fixed) == len(actions) else None
    every = [a for s in ability.steps for a in (*s.actions, *(s.otherwise or ()), *(x for c in s.choices for x in c),
                                                 *(x for _, acts in s.elifs for x in acts))]
    reads, writes, asks = footprint(program)
    return Compiled(
        timing=ability.timing, last=ability.last, once=ability.once, first=ability.first,
        early=all(isinstance(a, ast.CountExtra) for a in every),
        constant_gain=plain and all(isinstance(a, ast.Change) and a.verb == "gain" for a in own_fixed)
        and len(own_fixed) == len(actions),
        passive=all(isinstance(a, ast.TakeNoLoot) for a in every),
        text=text, steps=program, code=tuple(s.act for s in program),
        direct=plain and all(isinstance(a, ast.MoveReputation) or (isinstance(a, ast.Change) and a.subject is None)
                             for a in actions),
        coins=coins, slots=slots, reads=reads, writes=writes, asks=asks,
    )
