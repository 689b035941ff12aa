"""Which loot tokens a phrase means, and moving tokens between places.

A token is named by where it is: ``(place, seat or -1, kind)`` with place ``today``,
``tomorrow``, ``bag`` or ``held``.  Every question a selector asks comes before any token
moves, so a suspended step re-runs without repeating a change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ...state import Option
from .base import source_name
from .kinds import every_kind, of_kind
from .record import Record, declare

if TYPE_CHECKING:
    from ..work import Frame, Work

LootRef = tuple[str, int, str]


class LootPhrase(Record):
    """The tokens of ``kinds`` (``ANY_KIND``: any kind) in one place: ``today``, ``tomorrow``, ``bag``,
    ``held`` (yours), or another player's loot (``syntax.ast.OTHERS_LOOT``, seats by ``holders``)."""

    kinds: frozenset[str]
    place: str
    __node_fields__ = declare("kinds", "place")

    def __init__(self, kinds: frozenset[str], place: str) -> None:
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "place", place)

    def tokens(self, w: Work, f: Frame) -> list[LootRef]:
        place = self.place
        if place == "today":
            refs = [("today", -1, k) for k in w.today()]
        elif place == "tomorrow":
            refs = [("tomorrow", -1, k) for k in (w.tomorrow() or [])]
        elif place == "bag":
            refs = [("bag", -1, k) for k in w.bag_tokens()]
        elif place == "held":
            refs = [("held", f.seat, k) for k in w.seats[f.seat].loot]
        else:
            refs = [("held", s, k) for s in holders(place, f.seat, w.n) for k in w.seats[s].loot]
        kinds = self.kinds
        return refs if every_kind(kinds) else [r for r in refs if of_kind(r[2], kinds)]


def holders(place: str, seat: int, n: int) -> list[int]:
    """The other seats whose loot a place names: "an adjacent player" (R12: one opponent once),
    "another player", "the player on your left" (the next seat) or "… right" (the previous one)."""
    if n < 2:
        return []
    if place == "other_player":
        return [s for s in range(n) if s != seat]
    if place == "left_player":
        return [(seat + 1) % n]
    if place == "right_player":
        return [(seat - 1) % n]
    assert place == "adjacent_player", place
    return sorted({(seat - 1) % n, (seat + 1) % n})


def loot_key(ref: LootRef, seat: int) -> str:
    return ref[2] if ref[1] in (-1, seat) else f"{ref[2]}@{ref[1]}"


def loot_label(key: str) -> str:
    kind, _, seat = key.partition("@")
    return f"{kind} from seat {seat}" if seat else kind


def choose_token(w: Work, f: Frame, refs: list[LootRef], prompt: str) -> LootRef | None:
    if not refs:
        return None
    seen: dict[str, LootRef] = {}
    for r in refs:
        seen.setdefault(loot_key(r, f.seat), r)
    cache = w.tables.option_cache  # one option per key, as ``cards.character_option`` keeps them
    options = []
    for k in seen:
        option = cache.get(("loot", k))
        if option is None:
            option = cache[("loot", k)] = Option(k, loot_label(k))
        options.append(option)
    key = w.ask(f, f.seat, "choose_loot", options, prompt, source_name(f))
    return seen[key]


class ChooseToken(Record):
    phrase: LootPhrase
    verb: str
    __node_fields__ = declare("phrase", "verb")
    plural: ClassVar[bool] = False

    def __init__(self, phrase: LootPhrase, verb: str) -> None:
        object.__setattr__(self, "phrase", phrase)
        object.__setattr__(self, "verb", verb)

    def pick(self, w: Work, f: Frame, refs: list[LootRef] | None = None) -> list[LootRef]:
        ref = choose_token(w, f, self.phrase.tokens(w, f) if refs is None else refs,
                           f"choose a loot token to {self.verb}")
        return [ref] if ref is not None else []


class ThisToken(Record):
    """The token a loot tile's ability runs for (``this relic``, issue 34.2): one of the tile's kind its
    player holds, asked of nobody (tokens of one kind are alike), or none once it has left them."""

    phrase: LootPhrase
    __node_fields__ = declare("phrase")
    plural: ClassVar[bool] = False

    def __init__(self, phrase: LootPhrase) -> None:
        object.__setattr__(self, "phrase", phrase)

    def pick(self, w: Work, f: Frame, refs: list[LootRef] | None = None) -> list[LootRef]:
        refs = self.phrase.tokens(w, f) if refs is None else refs
        return refs[:1]


class RandomToken(Record):
    phrase: LootPhrase
    __node_fields__ = declare("phrase")
    plural: ClassVar[bool] = False

    def __init__(self, phrase: LootPhrase) -> None:
        object.__setattr__(self, "phrase", phrase)

    def pick(self, w: Work, f: Frame, refs: list[LootRef] | None = None) -> list[LootRef]:
        refs = self.phrase.tokens(w, f) if refs is None else refs
        return [refs[w.random(len(refs))]] if refs else []


class EveryToken(Record):
    phrase: LootPhrase
    __node_fields__ = declare("phrase")
    plural: ClassVar[bool] = True

    def __init__(self, phrase: LootPhrase) -> None:
        object.__setattr__(self, "phrase", phrase)

    def pick(self, w: Work, f: Frame, refs: list[LootRef] | None = None) -> list[LootRef]:
        return self.phrase.tokens(w, f) if refs is None else list(refs)


class EveryTokenBut(Record):
    """Every token of the phrase but ``keep`` that the owner picks to keep."""

    phrase: LootPhrase
    keep: int
    __node_fields__ = declare("phrase", "keep")
    plural: ClassVar[bool] = True

    def __init__(self, phrase: LootPhrase, keep: int) -> None:
        object.__setattr__(self, "phrase", phrase)
        object.__setattr__(self, "keep", keep)

    def pick(self, w: Work, f: Frame, refs: list[LootRef] | None = None) -> list[LootRef]:
        refs = self.phrase.tokens(w, f) if refs is None else list(refs)
        for _ in range(self.keep):
            kept = choose_token(w, f, refs, "choose a loot token to keep")
            if kept is None:
                break
            refs.remove(kept)
        return refs


class ChooseTokens(Record):
    """``n`` tokens, picked one at a time."""

    phrase: LootPhrase
    n: int
    verb: str
    __node_fields__ = declare("phrase", "n", "verb")
    plural: ClassVar[bool] = True

    def __init__(self, phrase: LootPhrase, n: int, verb: str) -> None:
        object.__setattr__(self, "phrase", phrase)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "verb", verb)

    def pick(self, w: Work, f: Frame, refs: list[LootRef] | None = None) -> list[LootRef]:
        refs = self.phrase.tokens(w, f) if refs is None else list(refs)
        out: list[LootRef] = []
        for _ in range(self.n):
            ref = choose_token(w, f, refs, f"choose a loot token to {self.verb}")
            if ref is None:
                break
            refs.remove(ref)
            out.append(ref)
        return out


class ChooseSet(Record):
    """One of ``counts`` tokens of one kind: the owner picks the kind and how many in one answer."""

    phrase: LootPhrase
    counts: tuple[int, ...]
    verb: str
    __node_fields__ = declare("phrase", "counts", "verb")
    plural: ClassVar[bool] = True

    def __init__(self, phrase: LootPhrase, counts: tuple[int, ...], verb: str) -> None:
        object.__setattr__(self, "phrase", phrase)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "verb", verb)

    def pick(self, w: Work, f: Frame, refs: list[LootRef] | None = None) -> list[LootRef]:
        groups: dict[str, list[LootRef]] = {}
        for r in self.phrase.tokens(w, f) if refs is None else refs:
            groups.setdefault(loot_key(r, f.seat), []).append(r)
        # A count of 0 would take nothing: it is never offered (E25).
        options = [Option(f"{key}*{n}", f"{n} {loot_label(key)}")
                   for key, group in groups.items() for n in self.counts if 0 < n <= len(group)]
        if not options:
            return []
        key = w.ask(f, f.seat, "choose_loot", options, f"choose which loot to {self.verb}, and how many",
                    source_name(f))
        kind, _, count = key.rpartition("*")
        return groups[kind][:int(count)]


TokenSelector = ChooseToken | ThisToken | RandomToken | EveryToken | EveryTokenBut | ChooseTokens | ChooseSet


def can_pick(sel: TokenSelector, w: Work, f: Frame, refs: list[LootRef] | None = None) -> bool:
    """Whether the selector would find any token now (a set needs as many as its smallest count).

    ``refs``: the tokens the action can act on, when not all the phrase describes (``pick`` the same).
    """
    refs = sel.phrase.tokens(w, f) if refs is None else refs
    if isinstance(sel, ChooseTokens) and sel.n <= 0:
        return False  # "0 loot" picks nothing
    if isinstance(sel, EveryTokenBut):
        return len(refs) > sel.keep
    if isinstance(sel, ChooseSet):
        if not any(sel.counts):
            return False
        least = min(n for n in sel.counts if n > 0)
        tally: dict[str, int] = {}
        for r in refs:
            key = loot_key(r, f.seat)
            tally[key] = tally.get(key, 0) + 1
        return any(n >= least for n in tally.values())
    return bool(refs)


def remove_token(w: Work, ref: LootRef) -> None:
    place, seat, kind = ref
    if place == "today":
        w.today().remove(kind)
    elif place == "tomorrow":
        tomorrow = w.tomorrow()
        assert tomorrow is not None
        tomorrow.remove(kind)
    elif place == "bag":
        w.bag[kind] -= 1
    else:
        holder = w.seats[seat]
        holder.loot.remove(kind)
        if holder.kept_loot.count(kind) > holder.loot.count(kind):
            holder.kept_loot.remove(kind)  # a kept token that leaves its holder is no longer kept


def place_token(w: Work, ref: LootRef, kind: str) -> None:
    """Put a token where ``ref`` took one from (a swap's other half)."""
    place, seat, _ = ref
    if place == "today":
        w.today().append(kind)
    elif place == "tomorrow":
        tomorrow = w.tomorrow()
        assert tomorrow is not None
        tomorrow.append(kind)
    elif place == "bag":
        w.to_bag(kind)
    else:
        w.seats[seat].loot.append(kind)
