"""Frozen syntax tree of the card language.

Nodes compare by meaning only: source positions ride along (``eq=False``) so
that ``parse(render(ast)) == ast`` holds even though the rendered text sits at
other columns than the original.
"""

from __future__ import annotations

import attrs


# ------------------------------------------------------------------ characters
@attrs.frozen
class Zone:
    prep: str  # "in" | "from" | "on": kept so that rendering reads naturally
    # "island" | "your" | "any_ship" | "other_ship" | "adjacent_ship", or one of the
    # per-ship places "each_ship" | "each_opponent_ship" | "each_adjacent_ship"
    place: str
    pile: str = ""  # for place == "your": "ship" | "hand" | "graveyard"
    wording: str = ""  # "any"/"every", "another player's"/"an opponent's"


@attrs.frozen
class RankedAbove:
    rank: int


@attrs.frozen
class RankedBelow:
    rank: int


@attrs.frozen
class WithAbility:
    timing: str


@attrs.frozen
class OwnedBy:
    who: str  # "other" | "you" | "player" (then ``player`` says whom)
    player: PlayerRef | None = None


CharFilter = (
    Zone
    | RankedAbove
    | RankedBelow
    | WithAbility
    | OwnedBy
)


@attrs.frozen
class CharNP:
    """A character noun phrase: ``other Wind Nymph in every ship``."""

    other: bool
    noun: str  # "character" or a card name
    filters: tuple[CharFilter, ...]
    plural: bool = attrs.field(default=False, eq=False, kw_only=True)  # written "characters"
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)

    @property
    def zone(self) -> Zone | None:
        for f in self.filters:
            if isinstance(f, Zone):
                return f
        return None


@attrs.frozen
class This:
    pass


@attrs.frozen
class It:
    pass


@attrs.frozen
class Taker:
    """In a loot ability: the character that took the token."""


@attrs.frozen
class ChooseChar:
    np: CharNP
    another: bool = False  # written "another ..." rather than "a ..."


@attrs.frozen
class EveryChar:
    np: CharNP


@attrs.frozen
class Positional:
    position: str  # leftmost | rightmost | lowest-ranked | highest-ranked
    np: CharNP


@attrs.frozen
class Beside:
    """The character directly left or right of ``this`` on the island."""

    side: str  # left | right


CharSel = (
    This
    | It
    | Taker
    | Beside
    | ChooseChar
    | EveryChar
    | Positional
)


# ------------------------------------------------------------------ loot
@attrs.frozen
class LootNP:
    kinds: tuple[str, ...]  # empty: any loot
    place: str  # today | tomorrow | bag | adjacent_player | held
    prep: str = ""
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class ChooseLoot:
    np: LootNP


@attrs.frozen
class RandomLoot:
    np: LootNP


@attrs.frozen
class EveryLoot:
    np: LootNP


@attrs.frozen
class EveryLootBut:
    """Every token the phrase names except ``keep`` that the player picks."""

    np: LootNP
    keep: int


@attrs.frozen
class ChooseLootN:
    """``2 loot from today's loot``: the player picks that many, one at a time."""

    counts: tuple[int, ...]
    np: LootNP


@attrs.frozen
class ChooseLootSet:
    """``1, 2 or 3 loot of one kind you hold``: the player picks a kind and how many."""

    counts: tuple[int, ...]
    np: LootNP


LootSel = (
    ChooseLoot
    | RandomLoot
    | EveryLoot
    | EveryLootBut
    | ChooseLootN
    | ChooseLootSet
)


# ------------------------------------------------------------------ amounts
@attrs.frozen
class CountCharacters:
    np: CharNP


@attrs.frozen
class CountLoot:
    kinds: tuple[str, ...]


@attrs.frozen
class CountKinds:
    """How many different kinds of the named loot you hold."""

    kinds: tuple[str, ...] = ()
    plural: bool = attrs.field(default=True, eq=False, kw_only=True)  # written "kinds of" (or "kind of")


@attrs.frozen
class CountMoved:
    pass


@attrs.frozen
class CountSpaces:
    """Track spaces on one side of your reputation token (low reputation: many to the right)."""

    side: str  # left | right


@attrs.frozen
class CountAffected:
    word: str


Counter = (
    CountCharacters
    | CountLoot
    | CountKinds
    | CountMoved
    | CountSpaces
    | CountAffected
)


@attrs.frozen
class Row:
    count: int
    cmp: str  # "" (exactly), "more" (this many or more) or "fewer" (this many or fewer)
    value: int


@attrs.frozen
class Fixed:
    n: int
    unit: str  # doubloons | reputation (``doubloon`` normalises to doubloons)
    per: Counter | None = None


@attrs.frozen
class Half:
    pass


@attrs.frozen
class UpTo:
    n: int


@attrs.frozen
class ByTable:
    counter: Counter
    rows: tuple[Row, ...]


@attrs.frozen
class InSets:
    kind: str
    rows: tuple[Row, ...]


Amount = (
    Fixed
    | Half
    | UpTo
    | ByTable
    | InSets
)


# ------------------------------------------------------------------ actions
@attrs.frozen
class OwnerOf:
    target: CharSel


@attrs.frozen
class ItsOwner:
    pass


@attrs.frozen
class PlayerOnSide:
    """The seat neighbour on your left (the next seat) or right (the previous seat)."""

    side: str


@attrs.frozen
class EveryPlayer:
    """Every seat, or every seat but yours."""

    other: bool


PlayerRef = (
    OwnerOf
    | ItsOwner
    | PlayerOnSide
    | EveryPlayer
)


@attrs.frozen
class Change:
    """Gain or lose doubloons or reputation, for you or for another player."""

    verb: str  # gain | lose
    amount: Amount
    subject: PlayerRef | None = None
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class PaysYou:
    subject: PlayerRef
    amount: Amount
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class MoveReputation:
    end: str  # leftmost | rightmost
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Discard:
    target: CharSel
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Put:
    target: CharSel
    pile: str
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Play:
    target: CharSel
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class TakeNoLoot:
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Take:
    loot: LootSel
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class ReturnLoot:
    loot: LootSel
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Keep:
    target: CharSel
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class KeepLoot:
    """Loot that stays with its holder at the end of the voyage instead of returning to the bag."""

    loot: LootSel
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Give:
    """Hand loot you hold to another player; it fires nothing (E3)."""

    loot: LootSel
    to: PlayerRef
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Draw:
    """Random tokens from the bag into your loot, with no effect (unlike ``take``)."""

    n: int
    per: Counter | None = None
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Swap:
    first: LootSel
    second: LootSel
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class UseAbility:
    timing: str
    target: CharSel
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class CountExtra:
    n: int
    kind: str
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


Action = (
    Change
    | PaysYou
    | MoveReputation
    | Discard
    | Put
    | Play
    | TakeNoLoot
    | Take
    | ReturnLoot
    | Keep
    | KeepLoot
    | Give
    | Draw
    | Swap
    | UseAbility
    | CountExtra
)


# ------------------------------------------------------------------ conditions
@attrs.frozen
class IsPositioned:
    ref: str  # this | it | taker
    position: str
    np: CharNP


@attrs.frozen
class IsLike:
    """``this is on the island``, ``it was owned by you``: a character filter said of a named character."""

    ref: str  # this | it | taker
    filter: CharFilter
    verb: str = attrs.field(default="is", eq=False, kw_only=True)  # "is" or "was", as written


@attrs.frozen
class IsA:
    """``this is a Wind Nymph``: the named character is that card (whoever owns it)."""

    ref: str
    name: str
    verb: str = attrs.field(default="is", eq=False, kw_only=True)


@attrs.frozen
class LastVoyage:
    ref: str = "this"


@attrs.frozen
class HaveDoubloons:
    n: int
    at_most: bool = False  # "N or fewer" rather than "N or more"


@attrs.frozen
class NoOtherHas:
    """No other player has fewer (or more) characters in that pile than you."""

    cmp: str  # fewer | more
    pile: str


@attrs.frozen
class Hold:
    kinds: tuple[str, ...]
    negated: bool = False  # "you hold no map"


@attrs.frozen
class JustTook:
    kinds: tuple[str, ...]


@attrs.frozen
class Exists:
    np: CharNP
    negated: bool
    at_nightfall: bool = False


@attrs.frozen
class YouDid:
    pass


@attrs.frozen
class HoldCount:
    """You hold N or more (or N or fewer) tokens of these kinds."""

    n: int
    cmp: str  # more | fewer
    kinds: tuple[str, ...]


@attrs.frozen
class CountExists:
    """There are N or more (or N or fewer) such characters."""

    n: int
    cmp: str  # more | fewer
    np: CharNP


Cond = (
    IsPositioned
    | IsLike
    | IsA
    | LastVoyage
    | HaveDoubloons
    | NoOtherHas
    | Hold
    | JustTook
    | Exists
    | YouDid
    | HoldCount
    | CountExists
)


@attrs.frozen
class Condition:
    """Conditions joined by "and" inside each group, and the groups by "or"."""

    groups: tuple[tuple[Cond, ...], ...]

    @property
    def parts(self) -> tuple[Cond, ...]:
        return tuple(c for g in self.groups for c in g)


# ------------------------------------------------------------------ structure
@attrs.frozen
class Step:
    """One sentence part between ``then``s.

    ``form`` is ``plain``, ``postfix_if``, ``prefix_if``, ``unless``, ``may``
    or ``choose_one``; the two ``if`` forms mean the same and differ only in
    how they are written.  ``choose_one`` offers ``actions`` and each of
    ``choices`` as the options.
    """

    form: str
    actions: tuple[Action, ...]
    condition: Condition | None = None
    otherwise: tuple[Action, ...] | None = None
    choices: tuple[tuple[Action, ...], ...] = attrs.field(default=(), kw_only=True)
    # "A if X; otherwise B if Y; otherwise C": each further test and its actions, in order.
    elifs: tuple[tuple[Condition, tuple[Action, ...]], ...] = attrs.field(default=(), kw_only=True)
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)


@attrs.frozen
class Ability:
    timing: str  # sun | dusk | moon | anchor
    modifiers: tuple[str, ...]  # "last", "once"
    steps: tuple[Step, ...]
    line: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)
    column: int = attrs.field(default=0, eq=False, repr=False, kw_only=True)

    @property
    def last(self) -> bool:
        return "last" in self.modifiers

    @property
    def once(self) -> bool:
        return "once" in self.modifiers

    @property
    def first(self) -> bool:
        return "first" in self.modifiers
