"""What a program may look at and change, read from its steps' types.

Two abilities whose footprints do not meet (neither changes anything the other reads
or changes) give the same game in either order; the anchor step asks a player to
order their abilities only when some pair's footprints meet (docs/rulings.md, L1).

Parts of the game are named by strings: ``coins``, ``track``, a character zone
(``island``, ``hand``, ``ship``, ``graveyard``, ``kept``), ``today``, ``tomorrow``,
``bag``, ``loot:<kind>`` (``loot:*``: any kind), ``kept_loot:<kind>``, ``extra:<kind>``,
and ``*`` for "anything" (a step that starts other abilities).
"""

from __future__ import annotations

from . import actions as act
from . import amounts as amt
from . import cards, loot
from . import conditions as cond
from . import measures as msr
from .control import ChooseOne, May, Step
from .kinds import every_kind
from .record import Record, fields

_PLACE_ZONES = {
    "island": ("island",), "in_play": ("island", "ship"), "any_ship": ("ship",), "other_ship": ("ship",),
    "adjacent_ship": ("ship",), "left_ship": ("ship",), "right_ship": ("ship",),
    "top_ship": ("ship", "track"), "bottom_ship": ("ship", "track"),  # whose ship: read from the track
}


def _place_zones(place: str, pile: str) -> tuple[str, ...]:
    """The zones a place reads: ships by default, the same players' graveyards when its pile says so."""
    if pile == "graveyard":
        return ("graveyard", "track") if place in ("top_ship", "bottom_ship") else ("graveyard",)
    return _PLACE_ZONES.get(place, (pile,))


def _phrase_zones(p: cards.Phrase) -> set[str]:
    zones = set(_place_zones(p.place, p.pile))
    for flt in p.filters:
        if isinstance(flt, cards.InZone):
            zones.update(_place_zones(flt.place, flt.pile))
    return zones


def _kinds(kinds: frozenset[str], prefix: str = "loot") -> set[str]:
    return {f"{prefix}:*"} if every_kind(kinds) else {f"{prefix}:{k}" for k in kinds}


def _token_places(p: loot.LootPhrase) -> set[str]:
    if p.place in ("today", "tomorrow", "bag"):
        return {p.place}
    return _kinds(p.kinds)


def _reads(node: object, out: set[str]) -> None:
    """Add every part of the game ``node`` (and what it holds) looks at."""
    if isinstance(node, tuple):
        for item in node:
            _reads(item, out)
        return
    if not isinstance(node, Record):
        return
    if isinstance(node, cards.Phrase):
        out.update(_phrase_zones(node))
    elif isinstance(node, cards.InZone):
        out.update(_place_zones(node.place, node.pile))
    elif isinstance(node, cards.Beside | cards.This | cards.It):
        out.add("island")
    elif isinstance(node, loot.LootPhrase):
        out.update(_token_places(node))
    elif isinstance(node, amt.CountHeld | cond.Hold | cond.HoldCount | msr.LootHeld):
        out.update(_kinds(node.kinds))
    elif isinstance(node, amt.CountKindsHeld):
        out.add("loot:*")
    elif isinstance(node, amt.CountSpacesSide | msr.Reputation | cond.ReputationAt):
        out.add("track")
    elif isinstance(node, amt.Half | amt.UpTo | cond.HaveDoubloons | act.PaysYou | msr.Doubloons):
        out.add("coins")
    elif isinstance(node, msr.PileSize):
        out.add(node.pile)
    elif isinstance(node, amt.InSets):
        out.update({f"loot:{node.kind}", f"extra:{node.kind}"})
    elif isinstance(node, cond.NoOtherHas):
        out.add(node.pile)
    elif isinstance(node, act.Keep | act.KeepLoot):
        out.update({"kept", "kept_loot:*"})
    for info in fields(node):
        _reads(getattr(node, info.name), out)


def _char_sources(sel: cards.Selector) -> set[str]:
    if isinstance(sel, cards.This | cards.It | cards.Beside):
        return {"island", "hand", "ship", "graveyard"}
    if isinstance(sel, cards.RandomInHand):  # other players' hands
        return {"hand"}
    return _phrase_zones(sel.phrase)


def _writes(step: Step) -> set[str]:
    if isinstance(step, act.GainCoins | act.PaysYou):
        return {"coins"}
    if isinstance(step, act.Change):
        return {"track", "coins"} if step.reputation else {"coins"}
    if isinstance(step, act.MoveReputation):
        return {"track"}
    if isinstance(step, act.Discard | act.TheyDiscard):
        return _char_sources(step.target) | {"graveyard", "kept"}
    if isinstance(step, act.Put):
        return _char_sources(step.target) | {step.pile, "kept"}
    if isinstance(step, act.Play):
        return _char_sources(step.target) | {"island", "*"}  # it takes a sun turn
    if isinstance(step, act.Keep):
        return {"kept"}
    if isinstance(step, act.Borrow):
        return {"*"}
    if isinstance(step, act.Take):
        places = _token_places(step.loot.phrase)
        fires = {"*"} if places & {"today", "bag"} else set()
        return places | _kinds(step.loot.phrase.kinds) | fires
    if isinstance(step, act.ReturnLoot | act.TheyReturn):
        return _token_places(step.loot.phrase) | {"bag", "kept_loot:*"}
    if isinstance(step, act.KeepLoot):
        return _kinds(step.loot.phrase.kinds, "kept_loot")
    if isinstance(step, act.Give | act.TheyGive):
        return _kinds(step.loot.phrase.kinds) | {"kept_loot:*"}
    if isinstance(step, act.Draw):
        return {"bag", "loot:*"}
    if isinstance(step, act.Swap):
        return _token_places(step.first.phrase) | _token_places(step.second.phrase) | {"loot:*", "kept_loot:*"}
    if isinstance(step, act.CountExtra):
        return {f"extra:{step.kind}"}
    return set()


def footprint(program: tuple[Step, ...]) -> tuple[frozenset[str], frozenset[str], bool]:
    """(reads, writes, whether it may ask a question) of a whole program."""
    reads: set[str] = set()
    writes: set[str] = set()
    asks = False
    for step in program:
        _reads(step, reads)
        writes |= _writes(step)
        asks = asks or isinstance(step, May | ChooseOne)
        asks = asks or any(isinstance(v, cards.Choose | cards.PerShip | loot.ChooseToken | loot.ChooseTokens
                                      | loot.ChooseSet | loot.EveryTokenBut)
                           for v in _nodes(step))
    return frozenset(reads), frozenset(writes), asks


def _nodes(value: object) -> list[object]:
    out: list[object] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, tuple):
            stack.extend(v)
        elif isinstance(v, Record):
            out.append(v)
            stack.extend(getattr(v, info.name) for info in fields(v))
    return out


def _meet(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return False
    if "*" in a or "*" in b or a & b:
        return True
    for x in a:
        head, _, tail = x.partition(":")
        if tail == "*" and any(y.partition(":")[0] == head for y in b):
            return True
        if tail and f"{head}:*" in b:
            return True
    return False


def may_conflict(a_reads: frozenset[str], a_writes: frozenset[str], b_reads: frozenset[str],
                 b_writes: frozenset[str], *, netted: bool) -> bool:
    """Whether running A then B could differ from B then A.

    ``netted``: at anchor every change of doubloons is summed and applied once (R3), and
    reads of doubloons see them as the voyage left them, so doubloons never decide the order.
    """
    if netted:
        a_reads, a_writes = a_reads - {"coins"}, a_writes - {"coins"}
        b_reads, b_writes = b_reads - {"coins"}, b_writes - {"coins"}
    return _meet(a_writes, b_reads | b_writes) or _meet(b_writes, a_reads)
