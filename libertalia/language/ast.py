"""Frozen syntax tree of the card language.

Nodes compare by meaning only: source positions ride along (``eq=False``) so
that ``parse(render(ast)) == ast`` holds even though the rendered text sits at
other columns than the original.
"""

from __future__ import annotations

import attrs

frozen = attrs.frozen(slots=True, weakref_slot=False)


def _pos() -> int:
    return attrs.field(default=0, eq=False, repr=False, kw_only=True)  # type: ignore[no-any-return]


# ------------------------------------------------------------------ characters
@frozen
class Zone:
    prep: str  # "in" | "from" | "on": kept so that rendering reads naturally
    place: str  # "island" | "your" | "any_ship" | "other_ship" | "adjacent_ship"
    pile: str = ""  # for place == "your": "ship" | "hand" | "graveyard"
    wording: str = ""  # "any"/"every", "another player's"/"an opponent's"


@frozen
class RankedAbove:
    rank: int


@frozen
class RankedBelow:
    rank: int


@frozen
class WithAbility:
    timing: str


@frozen
class OwnedBy:
    who: str  # "other" | "you"


CharFilter = (
    Zone
    | RankedAbove
    | RankedBelow
    | WithAbility
    | OwnedBy
)


@frozen
class CharNP:
    """A character noun phrase: ``other Wind Nymph in every ship``."""

    other: bool
    noun: str  # "character" or a card name
    filters: tuple[CharFilter, ...]
    line: int = _pos()
    column: int = _pos()

    @property
    def zone(self) -> Zone | None:
        for f in self.filters:
            if isinstance(f, Zone):
                return f
        return None


@frozen
class This:
    pass


@frozen
class It:
    pass


@frozen
class ChooseChar:
    np: CharNP
    another: bool = False  # written "another ..." rather than "a ..."


@frozen
class EveryChar:
    np: CharNP


@frozen
class Positional:
    position: str  # leftmost | rightmost | lowest-ranked | highest-ranked
    np: CharNP


CharSel = (
    This
    | It
    | ChooseChar
    | EveryChar
    | Positional
)


# ------------------------------------------------------------------ loot
@frozen
class LootNP:
    kinds: tuple[str, ...]  # empty: any loot
    place: str  # today | tomorrow | bag | adjacent_player | held
    prep: str = ""
    line: int = _pos()
    column: int = _pos()


@frozen
class ChooseLoot:
    np: LootNP


@frozen
class RandomLoot:
    np: LootNP


@frozen
class EveryLoot:
    np: LootNP


@frozen
class AllBut:
    keep: int


LootSel = (
    ChooseLoot
    | RandomLoot
    | EveryLoot
    | AllBut
)


# ------------------------------------------------------------------ amounts
@frozen
class CountCharacters:
    np: CharNP


@frozen
class CountLoot:
    kinds: tuple[str, ...]


@frozen
class CountKinds:
    plural: bool = True


@frozen
class CountMoved:
    pass


@frozen
class CountAffected:
    word: str


Counter = (
    CountCharacters
    | CountLoot
    | CountKinds
    | CountMoved
    | CountAffected
)


@frozen
class Row:
    count: int
    or_more: bool
    value: int


@frozen
class Fixed:
    n: int
    unit: str  # doubloons | reputation (``doubloon`` normalises to doubloons)
    per: Counter | None = None


@frozen
class Half:
    pass


@frozen
class UpTo:
    n: int


@frozen
class ByTable:
    counter: Counter
    rows: tuple[Row, ...]


@frozen
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
@frozen
class OwnerOf:
    target: CharSel


@frozen
class ItsOwner:
    pass


PlayerRef = (
    OwnerOf
    | ItsOwner
)


@frozen
class Change:
    """Gain or lose doubloons or reputation, for you or for another player."""

    verb: str  # gain | lose
    amount: Amount
    subject: PlayerRef | None = None
    line: int = _pos()
    column: int = _pos()


@frozen
class PaysYou:
    subject: PlayerRef
    amount: Amount
    line: int = _pos()
    column: int = _pos()


@frozen
class MoveReputation:
    end: str  # leftmost | rightmost
    line: int = _pos()
    column: int = _pos()


@frozen
class Discard:
    target: CharSel
    line: int = _pos()
    column: int = _pos()


@frozen
class Put:
    target: CharSel
    pile: str
    line: int = _pos()
    column: int = _pos()


@frozen
class Play:
    target: CharSel
    line: int = _pos()
    column: int = _pos()


@frozen
class TakeNoLoot:
    line: int = _pos()
    column: int = _pos()


@frozen
class Take:
    loot: LootSel
    line: int = _pos()
    column: int = _pos()


@frozen
class ReturnLoot:
    loot: LootSel
    line: int = _pos()
    column: int = _pos()


@frozen
class Keep:
    target: CharSel
    line: int = _pos()
    column: int = _pos()


@frozen
class Swap:
    first: LootSel
    second: LootSel
    line: int = _pos()
    column: int = _pos()


@frozen
class UseAbility:
    timing: str
    target: CharSel
    line: int = _pos()
    column: int = _pos()


@frozen
class CountExtra:
    n: int
    kind: str
    line: int = _pos()
    column: int = _pos()


@frozen
class Sell:
    counts: tuple[int, ...]
    prices: tuple[int, ...]
    line: int = _pos()
    column: int = _pos()


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
    | Swap
    | UseAbility
    | CountExtra
    | Sell
)


# ------------------------------------------------------------------ conditions
@frozen
class IsPositioned:
    ref: str  # this | it
    position: str
    np: CharNP


@frozen
class IsOnIsland:
    ref: str


@frozen
class HaveDoubloons:
    n: int


@frozen
class Hold:
    kinds: tuple[str, ...]


@frozen
class JustTook:
    kinds: tuple[str, ...]


@frozen
class Exists:
    np: CharNP
    negated: bool
    at_nightfall: bool = False


@frozen
class ItWasYours:
    pass


@frozen
class YouDid:
    pass


@frozen
class GainedAtLeast:
    n: int


Cond = (
    IsPositioned
    | IsOnIsland
    | HaveDoubloons
    | Hold
    | JustTook
    | Exists
    | ItWasYours
    | YouDid
    | GainedAtLeast
)


@frozen
class Condition:
    parts: tuple[Cond, ...]


# ------------------------------------------------------------------ structure
@frozen
class Step:
    """One sentence part between ``then``s.

    ``form`` is ``plain``, ``postfix_if``, ``prefix_if`` or ``may``; the two
    ``if`` forms mean the same and differ only in how they are written.
    """

    form: str
    actions: tuple[Action, ...]
    condition: Condition | None = None
    otherwise: tuple[Action, ...] | None = None
    line: int = _pos()
    column: int = _pos()


@frozen
class Ability:
    timing: str  # sun | dusk | moon | anchor
    modifiers: tuple[str, ...]  # "last", "once"
    steps: tuple[Step, ...]
    line: int = _pos()
    column: int = _pos()

    @property
    def last(self) -> bool:
        return "last" in self.modifiers

    @property
    def once(self) -> bool:
        return "once" in self.modifiers
