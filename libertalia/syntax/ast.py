"""Frozen syntax tree of the card language.

Nodes compare by meaning only: source positions ride along (``eq=False``) so
that ``parse(render(ast)) == ast`` holds even though the rendered text sits at
other columns than the original.

The classes are :class:`~.nodes.Node` records rather than ``attrs`` classes only
because those cost some 45 ms to create at every start (see ``nodes``); they
behave the same.
"""

from __future__ import annotations

# ``fields`` and ``is_node`` are for tools that walk any tree (``libertalia cards show``).
from .nodes import FieldInfo as FieldInfo
from .nodes import Node, field
from .nodes import fields as fields
from .nodes import is_node as is_node


# ------------------------------------------------------------------ characters
class Zone(Node):
    prep: str  # "in" | "from" | "on": kept so that rendering reads naturally
    # "island" | "your" | "any_ship" | "other_ship" | "adjacent_ship", one player's ship ("left_ship",
    # "right_ship", "top_ship" and "bottom_ship": the highest and lowest reputation), or one of the
    # per-ship places "each_ship" | "each_opponent_ship" | "each_adjacent_ship"; "their": the pile of
    # the player a clause or an action is about
    place: str
    pile: str = ""  # for place == "your" or "their": "ship" | "hand" | "graveyard"
    wording: str = ""  # "any"/"every", "another player's"/"an opponent's"


class RankedAbove(Node):
    rank: int


class RankedBelow(Node):
    rank: int


class RankedThanThis(Node):
    """Ranked above (or below) ``this``, the character whose ability runs (R10: a borrower's own rank)."""

    above: bool


class WithAbility(Node):
    timing: str


class OwnedBy(Node):
    who: str  # "other" | "you" | "player" (then ``player`` says whom)
    player: PlayerRef | None = None


CharFilter = (
    Zone
    | RankedAbove
    | RankedThanThis
    | RankedBelow
    | WithAbility
    | OwnedBy
)


class CharNP(Node):
    """A character noun phrase: ``other Wind Nymph in every ship``."""

    other: bool
    noun: str  # "character" or a card name
    filters: tuple[CharFilter, ...]
    plural: bool = field(default=False, eq=False, kw_only=True)  # written "characters"
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)

    @property
    def zone(self) -> Zone | None:
        for f in self.filters:
            if isinstance(f, Zone):
                return f
        return None


class This(Node):
    pass


class It(Node):
    pass


class Taker(Node):
    """In a loot ability: the character that took the token."""


class ChooseChar(Node):
    np: CharNP
    another: bool = False  # written "another ..." rather than "a ..."


class EveryChar(Node):
    np: CharNP


class Positional(Node):
    position: str  # leftmost | rightmost | lowest-ranked | highest-ranked
    np: CharNP


class Beside(Node):
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
OTHERS_LOOT = frozenset({"adjacent_player", "other_player", "left_player", "right_player"})
"""Loot places in other players' hands: "from an adjacent player", "from another player", "from the
player on your left" or "… right"."""


class LootNP(Node):
    kinds: tuple[str, ...]  # empty: any loot
    # today | tomorrow | bag | held | theirs ("they hold": the player acting), or one of OTHERS_LOOT
    place: str
    prep: str = ""
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class ChooseLoot(Node):
    np: LootNP


class RandomLoot(Node):
    np: LootNP


class EveryLoot(Node):
    np: LootNP


class EveryLootBut(Node):
    """Every token the phrase names except ``keep`` that the player picks."""

    np: LootNP
    keep: int
    whose: str = "your"  # whose choice: "your" (the ability's owner) or "their" (the player acting)


class ChooseLootN(Node):
    """``2 loot from today's loot``: the player picks that many, one at a time."""

    counts: tuple[int, ...]
    np: LootNP


class ChooseLootSet(Node):
    """``1, 2 or 3 loot of one kind you hold``: the player picks a kind and how many."""

    counts: tuple[int, ...]
    np: LootNP


class ThisToken(Node):
    """``this relic`` on a loot tile: the very token the ability runs for, held by its player (issue 34.2).

    ``np`` names it as one token of the tile's kind you hold (kinds empty for ``this token`` until the
    tile's kind fills it in), so every rule about loot you hold applies to it.
    """

    np: LootNP


LootSel = (
    ChooseLoot
    | ThisToken
    | RandomLoot
    | EveryLoot
    | EveryLootBut
    | ChooseLootN
    | ChooseLootSet
)


# ------------------------------------------------------------------ amounts
class CountCharacters(Node):
    np: CharNP


class CountLoot(Node):
    kinds: tuple[str, ...]


class CountKinds(Node):
    """How many different kinds of the named loot you hold."""

    kinds: tuple[str, ...] = ()
    plural: bool = field(default=True, eq=False, kw_only=True)  # written "kinds of" (or "kind of")


class CountMoved(Node):
    pass


class CountSpaces(Node):
    """Track spaces on one side of your reputation token (low reputation: many to the right)."""

    side: str  # left | right


class CountAffected(Node):
    """What an earlier step of the ability acted on ("one returned"), counted.

    ``noun`` keeps the words of a variant that names the things ("each relic returned",
    "each character discarded"): the reference check holds it to the step it points at,
    and it is no part of the meaning, which is the canonical "one returned"'s.
    """

    word: str
    noun: CharNP | tuple[str, ...] | None = field(default=None, eq=False, repr=False, kw_only=True)
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


Counter = (
    CountCharacters
    | CountLoot
    | CountKinds
    | CountMoved
    | CountSpaces
    | CountAffected
)


class Row(Node):
    count: int
    cmp: str  # "" (exactly), "more" (this many or more) or "fewer" (this many or fewer)
    value: int


class Fixed(Node):
    n: int
    unit: str  # doubloons | reputation (``doubloon`` normalises to doubloons)
    per: Counter | None = None
    # "for every 2 maps you hold": ``n`` for each whole group of ``every`` counted (the count divided, rounded down)
    every: int = 1
    cap: int | None = None  # "…, up to 6 doubloons": the amount is never more than this


class Half(Node):
    pass


class UpTo(Node):
    n: int


class ByTable(Node):
    counter: Counter
    rows: tuple[Row, ...]


class InSets(Node):
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
class OwnerOf(Node):
    target: CharSel


class ItsOwner(Node):
    pass


class PlayerOnSide(Node):
    """The seat neighbour on your left (the next seat) or right (the previous seat)."""

    side: str


class EveryPlayer(Node):
    """Every seat, or every seat but yours."""

    other: bool


class ChosenPlayer(Node):
    """One player the ability's owner chooses (E42): "a player of your choice" (you included), or with
    ``other`` "another player of your choice" ("an opponent of your choice" says the same)."""

    other: bool


# ------------------------------------------------------------------ players compared and filtered
class Doubloons(Node):
    """What a comparison counts: a player's doubloons."""


class LootHeld(Node):
    """What a comparison counts: the tokens a player holds of these kinds (empty: any)."""

    kinds: tuple[str, ...]  # as written: plurals ("relics"); the checker reads them against the rules' kinds


class CharactersIn(Node):
    """What a comparison counts: the characters in a player's pile."""

    pile: str


class Reputation(Node):
    """What a comparison counts: a player's space on the reputation track (further right: more).

    One token a space, so two players never tie: "the player with the most reputation" is one player."""


Measure = Doubloons | Reputation | LootHeld | CharactersIn


class PlayersWho(Node):
    """A group of players (every one, or every other), narrowed by ``where``: a condition said of
    each of them, from their side (``who holds a saber``, ``with a character in their ship``)."""

    other: bool
    where: Cond | None = None
    wording: str = field(default="every player", eq=False, kw_only=True)  # "each opponent", "every other player", ...
    clause: str = field(default="who", eq=False, kw_only=True)  # "who" or "with"


class PlayersWithMost(Node):
    """Every player of a group with the most (or the fewest) of ``measure``: all those tied (E31).

    ``each`` is False for "the player with the most ...", which the checker refuses (a tie
    makes it ambiguous)."""

    other: bool
    most: bool  # "most" (True) or "fewest"
    measure: Measure
    each: bool = True
    wording: str = field(default="each player", eq=False, kw_only=True)


class You(Node):
    """The ability's owner, as the receiver of what another player gives (``gives ... to you``)."""


class PlayersThanYou(Node):
    """Every player of a group (every one, or every other) with more (or fewer) of ``measure`` than
    the ability's owner: "every other player with more doubloons than you" (E33)."""

    other: bool
    more: bool
    measure: Measure
    wording: str = field(default="every player", eq=False, kw_only=True)


PlayerRef = (
    OwnerOf
    | ItsOwner
    | PlayerOnSide
    | EveryPlayer
    | ChosenPlayer
    | PlayersWho
    | PlayersWithMost
    | PlayersThanYou
    | You
)


class Change(Node):
    """Gain or lose doubloons or reputation, for you or for another player."""

    verb: str  # gain | lose
    amount: Amount
    subject: PlayerRef | None = None
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class PaysYou(Node):
    subject: PlayerRef
    amount: Amount
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class MoveReputation(Node):
    end: str  # leftmost | rightmost
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Discard(Node):
    target: CharSel
    by: PlayerRef | None = field(default=None, kw_only=True)  # another player who discards (and chooses)
    # Written "discard this instead of placing it in your ship": the same step, said only by day or at dusk.
    not_shipped: bool = field(default=False, eq=False, repr=False, kw_only=True)
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Put(Node):
    target: CharSel
    pile: str
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Play(Node):
    target: CharSel
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class TakeFromHand(Node):
    """"take a random character from another player's hand" (issue 34.2, E41): ``place`` is whose
    hand, named as ships are (other_ship, left_ship, right_ship; "an opponent's" is "another player's")."""

    place: str
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class TakeNoLoot(Node):
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Take(Node):
    loot: LootSel
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class ReturnLoot(Node):
    loot: LootSel
    by: PlayerRef | None = field(default=None, kw_only=True)  # another player who returns (and chooses)
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Keep(Node):
    target: CharSel
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class KeepLoot(Node):
    """Loot that stays with its holder at the end of the voyage instead of returning to the bag."""

    loot: LootSel
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Give(Node):
    """Hand loot you hold to another player; it fires nothing (E3)."""

    loot: LootSel
    to: PlayerRef
    by: PlayerRef | None = field(default=None, kw_only=True)  # another player who gives (and chooses)
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Draw(Node):
    """Random tokens from the bag into your loot, with no effect (unlike ``take``)."""

    n: int
    per: Counter | None = None
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Swap(Node):
    first: LootSel
    second: LootSel
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class UseAbility(Node):
    timing: str
    target: CharSel
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class CountExtra(Node):
    n: int
    kind: str
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Worth(Node):
    """A worth said with "is worth" (issue 34.1), until the loader knows the card: of this card or token it is
    what it pays at the voyage's end, of a kind with "more" so much for each token held; the loader rewrites it
    (``normalise.worths``) and the checker refuses whatever is left, with why."""

    of: str  # "this" (the card, or on a tile its token) | "token" ("this relic") | "kind" ("each relic you hold")
    kinds: tuple[str, ...]
    amount: Fixed
    more: bool = False  # "worth 2 more doubloons", "2 extra doubloons": on top of a worth of its own
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


Action = (
    Change
    | PaysYou
    | MoveReputation
    | Discard
    | Put
    | TakeFromHand
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
    | Worth
)


# ------------------------------------------------------------------ conditions
class IsPositioned(Node):
    ref: str  # this | it | taker
    position: str
    np: CharNP
    verb: str = field(default="is", kw_only=True)  # "is" (now) or "was" (before its binder acted): the tense


class IsLike(Node):
    """``this is on the island``, ``it was owned by you``: a character filter said of a named character."""

    ref: str  # this | it | taker
    filter: CharFilter
    verb: str = field(default="is", kw_only=True)  # "is" (now) or "was" (before its binder acted): the tense


class IsA(Node):
    """``this is a Wind Nymph``: the named character is that card (whoever owns it)."""

    ref: str
    name: str
    verb: str = field(default="is", kw_only=True)  # the tense, as for ``IsLike``


class LastVoyage(Node):
    ref: str = "this"


class HaveDoubloons(Node):
    n: int
    at_most: bool = False  # "N or fewer" rather than "N or more"


class ReputationIs(Node):
    """Your reputation is N or more (or N or fewer): the track's spaces are numbered 1 (leftmost) upwards."""

    n: int
    at_most: bool = False  # "N or fewer" rather than "N or more"


class NoOtherHas(Node):
    """No other player has fewer (or more) characters in that pile than you."""

    cmp: str  # fewer | more
    pile: str


class Hold(Node):
    kinds: tuple[str, ...]
    negated: bool = False  # "you hold no map"


class JustTook(Node):
    kinds: tuple[str, ...]


class Exists(Node):
    np: CharNP
    negated: bool
    at_nightfall: bool = False


class YouDid(Node):
    pass


class HoldCount(Node):
    """You hold N or more (or N or fewer) tokens of these kinds."""

    n: int
    cmp: str  # more | fewer
    kinds: tuple[str, ...]


class CountExists(Node):
    """There are N or more (or N or fewer) such characters."""

    n: int
    cmp: str  # more | fewer
    np: CharNP


class Compare(Node):
    """You have more (fewer, at least as many) of ``measure`` than every other player (E30)."""

    cmp: str  # "more" | "fewer" | "at least" | "as many" (refused by the checker: ambiguous)
    measure: Measure
    than: str = field(default="than", eq=False, kw_only=True)  # the word before the rivals: "than" or "as"
    rivals: str = field(default="every", eq=False, kw_only=True)  # "every" or "any" other player: the same


Cond = (
    IsPositioned
    | IsLike
    | IsA
    | LastVoyage
    | HaveDoubloons
    | ReputationIs
    | NoOtherHas
    | Hold
    | JustTook
    | Exists
    | YouDid
    | HoldCount
    | CountExists
    | Compare
)


class Condition(Node):
    """Conditions joined by "and" inside each group, and the groups by "or"."""

    groups: tuple[tuple[Cond, ...], ...]

    @property
    def parts(self) -> tuple[Cond, ...]:
        return tuple(c for g in self.groups for c in g)


# ------------------------------------------------------------------ structure
class Step(Node):
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
    choices: tuple[tuple[Action, ...], ...] = field(default=(), kw_only=True)
    # "A if X; otherwise B if Y; otherwise C": each further test and its actions, in order.
    elifs: tuple[tuple[Condition, tuple[Action, ...]], ...] = field(default=(), kw_only=True)
    # A choice inside a branch (issue 34.2): "then" when the actions ask first ("if C, you may A"),
    # "otherwise" when the otherwise does ("…; otherwise you may B"); "" when neither asks.
    optional: str = field(default="", kw_only=True)
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)


class Ability(Node):
    timing: str  # sun | dusk | moon | anchor
    modifiers: tuple[str, ...]  # "last", "once"
    steps: tuple[Step, ...]
    line: int = field(default=0, eq=False, repr=False, kw_only=True)
    column: int = field(default=0, eq=False, repr=False, kw_only=True)

    @property
    def last(self) -> bool:
        return "last" in self.modifiers

    @property
    def once(self) -> bool:
        return "once" in self.modifiers

    @property
    def first(self) -> bool:
        return "first" in self.modifiers
