"""Whether the order of a seat's anchor abilities can change the game (E8), answered in a few ANDs.

Two abilities give the same game in either order when their footprints do not meet
(``engine.program.footprint``; at anchor every change of doubloons is netted, R3).  A game
asks this for every group the anchor queues, and most groups are new, so the answer is
read from bit masks (``Rules.ability_bits``): per timing, which abilities clash with which
is worked out once, pair by pair, when a group of that timing is first looked at.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .program.footprint import may_conflict

if TYPE_CHECKING:
    from .specs import Rules

Footprint = tuple[frozenset[str], frozenset[str]]


class Clashes:
    """One rules' clash table, built a timing at a time: the engine queues abilities of one timing together."""

    __slots__ = ("_rules", "_clash", "_clashy", "_verdicts", "_timing_bits")

    def __init__(self, rules: Rules) -> None:
        self._rules = rules
        self._clash: dict[int, int] = {}  # bit position -> bits of the same-timing abilities it clashes with
        self._clashy: dict[str, int] = {}  # timing -> bits of its abilities that clash with any other
        self._verdicts: dict[int, bool] = {}  # mask -> whether two of its abilities clash
        timing_bits: dict[str, int] = {}
        for n, (source, index) in enumerate(rules.bit_abilities):
            timing = rules.ability(source, index).timing
            timing_bits[timing] = timing_bits.get(timing, 0) | 1 << n
        self._timing_bits = timing_bits

    def matter(self, mask: int) -> bool:
        """Whether two different abilities among ``mask``'s bits may give another game in the other order."""
        if not mask & (mask - 1):  # one ability, however often queued: nothing to order
            return False
        known = self._verdicts.get(mask)
        if known is None:
            known = self._verdicts[mask] = self._work_out(mask)
        return known

    def clashy(self, mask: int) -> int:
        """The bits of ``mask`` whose abilities clash with some other ability of their timing.

        Two abilities of ``mask`` can meet only if both are among these, so fewer than two answers
        ``matter`` at the cost of two ANDs: the common case at anchor, where few abilities clash
        with any other, and a new queue is a new mask that ``matter`` has never seen.  A mask of
        several timings (never queued together) is returned whole: ``matter`` compares those pairs.
        """
        for timing, bits in self._timing_bits.items():
            if not mask & ~bits:
                clashy = self._clashy.get(timing)
                if clashy is None:
                    self._build(timing, bits)
                    clashy = self._clashy[timing]
                return mask & clashy
        return mask

    def _work_out(self, mask: int) -> bool:
        for timing, bits in self._timing_bits.items():
            if not mask & ~bits:  # all of one timing: read the table
                if timing not in self._clashy:
                    self._build(timing, bits)
                rest = mask & self._clashy[timing]
                while rest & (rest - 1):
                    low = rest & -rest
                    rest ^= low
                    if self._clash[low.bit_length() - 1] & mask:
                        return True
                return False
        # Abilities of several timings are never queued together by the engine; compare them pair by pair.
        members = _positions(mask)
        prints = [self._footprint(n) for n in members]
        return any(_meet(a, b) for i, a in enumerate(prints) for b in prints[i + 1:])

    def _build(self, timing: str, bits: int) -> None:
        """Each ability's clash bits among ``timing``'s (``bits``), met footprint by footprint.

        A timing's abilities share few footprints (Galecrest's 203 sun abilities, 22), and whether two
        footprints meet depends on nothing else, so each pair of distinct footprints is compared once
        (``_meet`` is symmetric: once per unordered pair), not each pair of abilities: a fresh process
        pays this for every rules it plays.  An ability clashes with every other whose footprint meets its
        own (its own footprint's other abilities too, when that footprint meets itself).
        """
        groups: dict[Footprint, int] = {}  # footprint -> bits of the abilities that have it
        for n in _positions(bits):
            fp = self._footprint(n)
            groups[fp] = groups.get(fp, 0) | 1 << n
        prints = list(groups)
        reach = [0] * len(prints)  # per footprint, the bits of every ability whose footprint meets it
        for i, a in enumerate(prints):
            for j in range(i, len(prints)):
                b = prints[j]
                if _meet(a, b):
                    reach[i] |= groups[b]
                    if j != i:
                        reach[j] |= groups[a]
        clashy = 0
        for i, fp in enumerate(prints):
            members = groups[fp]
            for n in _positions(members):
                clash = reach[i] & ~(1 << n)
                self._clash[n] = clash
                if clash:
                    clashy |= 1 << n
        self._clashy[timing] = clashy

    def _footprint(self, n: int) -> Footprint:
        source, index = self._rules.bit_abilities[n]
        a = self._rules.ability(source, index)
        # A token's ability runs only while its token is held: it reads that it holds one.
        return (a.reads | {f"loot:{source[2:]}"} if source[0] == "l" else a.reads), a.writes


def _meet(a: Footprint, b: Footprint) -> bool:
    return may_conflict(a[0], a[1], b[0], b[1], netted=True)


def _positions(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


def clashes(rules: Rules) -> Clashes:
    """The rules' clash table, made on first use (rules that never reach an anchor never build one)."""
    table = rules.clashes
    if table is None:
        table = Clashes(rules)
        object.__setattr__(rules, "clashes", table)  # a cache on frozen rules, like ``option_cache``
    return table  # type: ignore[no-any-return]
