"""A family of wordings that English says mean the same, and where to play them."""

from __future__ import annotations

import attrs

CONNECTIVES = ("and", "or", "otherwise", "unless", "instead", "may", "choose one")
REFERENCES = ("it", "its owner", "one <verb>ed", "you did", "the character that took this")
PLACES = ("island", "hand", "ship", "graveyard", "today's loot", "tomorrow's loot", "the bag",
          "another player's loot")
PLAYERS = ("you", "every other player", "the player on your left", "the player on your right", "adjacent",
           "opponent", "the owner of", "its owner", "their")
WORDS = (*CONNECTIVES, *REFERENCES, *PLACES, *PLAYERS)
"""Every word a family may say it covers: the catalogue covers each at least once (a test checks it)."""

VARIANTS = ("", "last day", "last voyage", "first voyage", "empty bag", "empty piles", "broke", "ties", "holds map",
            "twins", "quiet", "lowest reputation", "highest reputation", "lowest two")
"""How a family's positions are changed, in turn: ``""`` as drawn; the voyage's last day (no tomorrow's
loot); the game's last day; the same day of the first voyage (a next voyage to keep things for); every
token out of the bag; hands, ships, graveyards and loot emptied but for the featured cards; every purse
empty; every purse equal; the featured seat holding one more map; every seat without a feature playing
one card (a tie of ranks on the island); every seat without a featured play playing a card with no sun
or dusk ability, and no token with a dusk ability in today's loot; the featured seat on the track's lowest
or highest space (a step off that end pays or costs doubloons, R28), trading spaces with whoever stood there;
the featured seat and the seat on its left on the two lowest spaces, in that order (tokens that move down
together push each other back, so the track can end as it began although each step costs).
``"empty piles+holds map"`` applies both, in turn."""


@attrs.frozen
class Family:
    """Two or more wordings of one card that must play the same.

    ``wordings`` are card texts (one ability a line), loaded one at a time as the same mod card
    (``tile``: as the calm tile of that loot kind).  ``timing`` is where the card is featured;
    ``players`` (cycled through, empty: drawn), ``variants`` (cycled through) and ``edition``
    build the positions that let the wordings differ, and ``why`` says why they must not.
    ``card`` names a card of the edition the wordings replace (an edition whose ranks need tie-breakers
    takes no new rank), at its rank; by default the wordings are a new card of rank ``rank``.
    ``samples`` > 0 makes it a statistical law (random draws): each wording's distribution of
    loot won and lost, over that many game seeds from one position, within ``tolerance``
    (total variation) of the first's.  ``may`` ("yes") answers every ``may`` question so: `you may X`
    said yes is ``X``, wherever ``X`` can change something (an option is offered when taking it can
    change something).  ``offered`` adds the converse: wherever the card's own ``may`` is asked, "yes"
    and "no" end the day otherwise (an option that can change nothing is not offered).
    """

    name: str
    wordings: tuple[str, ...]
    covers: tuple[str, ...]
    timing: str
    why: str
    players: tuple[int, ...] = ()
    variants: tuple[str, ...] = ("",)
    edition: str = "galecrest"
    tile: str | None = None
    rank: float = 18.5
    card: str | None = None
    samples: int = 0
    tolerance: float = 0.0
    may: str = ""
    offered: bool = False

    def __attrs_post_init__(self) -> None:
        if len(self.wordings) < 2 or len(set(self.wordings)) < len(self.wordings):
            raise ValueError(f"family {self.name!r} needs two or more different wordings")
        unknown = [w for w in self.covers if w not in WORDS]
        if unknown:
            raise ValueError(f"family {self.name!r} covers unknown words {unknown}: say {', '.join(WORDS)}")
        if self.may not in ("", "yes", "no"):
            raise ValueError(f"family {self.name!r}: may is 'yes', 'no' or ''")
        odd = [v for vs in self.variants for v in vs.split("+") if v not in VARIANTS]
        if odd:
            raise ValueError(f"family {self.name!r} has unknown variants {odd}: say one of {VARIANTS}")
