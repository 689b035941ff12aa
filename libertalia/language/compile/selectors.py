"""Which characters and which loot a phrase means, asking the owner where it is a choice."""

from __future__ import annotations

from collections.abc import Callable

from ...engine.work import Frame, Work
from ...state import CardRef, Option
from .. import ast
from .common import CharFn, LootRef, Unbound, source_name

# ------------------------------------------------------------------ characters
# Places that name one ship per seat ("in each opponent's ship"): a pick is made in every one.
PER_SHIP = {"each_ship": "any_ship", "each_opponent_ship": "other_ship", "each_adjacent_ship": "adjacent_ship"}


def candidates(np: ast.CharNP) -> CharFn:
    """Every character the noun phrase describes, in a stable order.

    A phrase without a place means a character in play: on the island or in a ship.
    """
    zone = np.zone
    tests: list[Callable[[Work, Frame, CardRef], bool]] = []
    if np.other:
        tests.append(lambda w, f, r: r != f.this)
    if np.noun != "character":
        noun = np.noun
        tests.append(lambda w, f, r: w.rules.card(r[1]).name == noun)
    tests.extend(filter_test(flt) for flt in np.filters if not isinstance(flt, ast.Zone))

    place = "in_play" if zone is None else PER_SHIP.get(zone.place, zone.place)
    pile = "" if zone is None else zone.pile

    def source(w: Work, f: Frame, nightfall: bool = False) -> list[CardRef]:
        if place == "island":
            return list(w.island)
        if place == "in_play":
            return [*w.island, *((s, n) for s in range(w.n) for n in w.seats[s].ship)]
        if place == "your":
            if nightfall and pile == "ship" and w.census is not None:
                return [(f.seat, n) for n in w.census[f.seat]]
            return [(f.seat, n) for n in w.seats[f.seat].pile(pile)]
        if place == "any_ship":
            seats = list(range(w.n))
        elif place == "other_ship":
            seats = [s for s in range(w.n) if s != f.seat]
        else:
            seats = w.adjacent(f.seat)
        if nightfall and w.census is not None:
            return [(s, n) for s in seats for n in w.census[s]]
        return [(s, n) for s in seats for n in w.seats[s].ship]

    def run(w: Work, f: Frame) -> list[CardRef]:
        if not tests:
            return source(w, f)
        if len(tests) == 1:
            test = tests[0]
            return [r for r in source(w, f) if test(w, f, r)]
        return [r for r in source(w, f) if all(t(w, f, r) for t in tests)]

    def at_nightfall(w: Work, f: Frame) -> list[CardRef]:
        return [r for r in source(w, f, True) if all(t(w, f, r) for t in tests)]

    run.nightfall = at_nightfall  # type: ignore[attr-defined]
    return run


CardTest = Callable[[Work, Frame, CardRef], bool]


def filter_test(flt: ast.CharFilter) -> CardTest:
    """Whether one character fits a filter ("ranked above 20", "on the island", "owned by you")."""
    if isinstance(flt, ast.RankedAbove):
        above = flt.rank
        return lambda w, f, r: w.rules.rank(r[1]) > above
    if isinstance(flt, ast.RankedBelow):
        below = flt.rank
        return lambda w, f, r: w.rules.rank(r[1]) < below
    if isinstance(flt, ast.WithAbility):
        timing = flt.timing
        return lambda w, f, r: w.rules.card(r[1]).has(timing)
    if isinstance(flt, ast.OwnedBy):
        if flt.who == "other":
            return lambda w, f, r: r[0] is not None and r[0] != f.seat
        if flt.who == "you":
            return lambda w, f, r: r[0] == f.seat
        assert isinstance(flt.player, ast.PlayerOnSide), "the grammar names a neighbour"
        step = 1 if flt.player.side == "left" else -1
        return lambda w, f, r: r[0] == (f.seat + step) % w.n
    return _zone_test(flt)


def _zone_test(zone: ast.Zone) -> CardTest:
    place, pile = PER_SHIP.get(zone.place, zone.place), zone.pile
    if place == "island":
        return lambda w, f, r: r in w.island
    if place == "your":
        return lambda w, f, r: r[0] == f.seat and w.zone_of(r) == pile
    if place == "any_ship":
        return lambda w, f, r: w.zone_of(r) == "ship"
    if place == "other_ship":
        return lambda w, f, r: r[0] != f.seat and w.zone_of(r) == "ship"
    return lambda w, f, r: r[0] in w.adjacent(f.seat) and w.zone_of(r) == "ship"


def pick_positional(position: str, refs: list[CardRef], w: Work) -> CardRef | None:
    if not refs:
        return None
    if position == "leftmost":
        return refs[0]
    if position == "rightmost":
        return refs[-1]
    if position == "lowest-ranked":
        return min(refs, key=lambda r: w.rules.rank(r[1]))
    return max(refs, key=lambda r: w.rules.rank(r[1]))


def select_chars(sel: ast.CharSel, verb: str, extra: Callable[[Work, Frame, CardRef], bool] | None = None,
                  ) -> Callable[[Work, Frame], list[CardRef]]:
    """Resolve a character selector, asking the owner where it is a choice."""
    if isinstance(sel, (ast.This, ast.Taker)):
        # In a loot ability the frame's ``this`` is the character that took the token.
        def this(w: Work, f: Frame) -> list[CardRef]:
            return [f.this] if f.this is not None and (extra is None or extra(w, f, f.this)) else []
        return this
    if isinstance(sel, ast.It):
        def it(w: Work, f: Frame) -> list[CardRef]:
            if f.it is None:
                raise Unbound
            return [f.it] if extra is None or extra(w, f, f.it) else []
        return it
    if isinstance(sel, ast.Beside):
        side = sel.side

        def beside(w: Work, f: Frame) -> list[CardRef]:
            if f.this not in w.island:
                return []
            i = w.island.index(f.this) + (-1 if side == "left" else 1)
            ref = w.island[i] if 0 <= i < len(w.island) else None
            return [ref] if ref is not None and (extra is None or extra(w, f, ref)) else []
        return beside
    cands = candidates(sel.np)
    zone = sel.np.zone
    if zone is not None and zone.place in PER_SHIP and not isinstance(sel, ast.EveryChar):
        return _per_ship(sel, cands, verb, extra)
    if isinstance(sel, ast.EveryChar):
        def every(w: Work, f: Frame) -> list[CardRef]:
            return [r for r in cands(w, f) if extra is None or extra(w, f, r)]
        return every
    if isinstance(sel, ast.Positional):
        position = sel.position

        def positional(w: Work, f: Frame) -> list[CardRef]:
            ref = pick_positional(position, cands(w, f), w)
            return [ref] if ref is not None and (extra is None or extra(w, f, ref)) else []
        return positional

    def choose(w: Work, f: Frame) -> list[CardRef]:
        refs = [r for r in cands(w, f) if r[0] is not None and (extra is None or extra(w, f, r))]
        picked = choose_char(w, f, refs, verb)
        return [] if picked is None else [picked]
    return choose


def choose_char(w: Work, f: Frame, refs: list[CardRef], verb: str) -> CardRef | None:
    """Ask the ability's owner to pick one of ``refs`` (none asked when there is nothing to pick)."""
    if not refs:
        return None
    options = [character_option(w, r, f.seat) for r in refs]
    key = w.ask(f, f.seat, "choose_character", options, f"choose a character to {verb}", source_name(f))
    return refs[[o.key for o in options].index(key)]


def _per_ship(sel: ast.CharSel, cands: CharFn, verb: str,
              extra: Callable[[Work, Frame, CardRef], bool] | None) -> Callable[[Work, Frame], list[CardRef]]:
    """One pick in each ship the place names, ship by ship in seat order."""
    position = sel.position if isinstance(sel, ast.Positional) else None

    def each(w: Work, f: Frame) -> list[CardRef]:
        refs = cands(w, f)
        out: list[CardRef] = []
        for seat in dict.fromkeys(r[0] for r in refs):
            ship = [r for r in refs if r[0] == seat]
            if position is not None:
                ref = pick_positional(position, ship, w)
                picked = ref if ref is not None and (extra is None or extra(w, f, ref)) else None
            else:
                picked = choose_char(w, f, [r for r in ship if extra is None or extra(w, f, r)], verb)
            if picked is not None:
                out.append(picked)
        return out
    return each


def character_option(w: Work, ref: CardRef, seat: int) -> Option:
    """The option naming ``ref`` to ``seat``: made once per card, asker and zone (``Rules.option_cache``)."""
    zone = w.zone_of(ref)
    cache = w.rules.option_cache
    option = cache.get((ref, seat, zone))
    if option is None:
        owner = "your" if ref[0] == seat else f"seat {ref[0]}'s"
        option = Option(w.key_for(ref, seat), f"{owner} {ref[1]} ({w.rules.rank(ref[1]):g}, {zone})")
        cache[(ref, seat, zone)] = option
    return option


# ------------------------------------------------------------------ loot
def loot_candidates(np: ast.LootNP) -> Callable[[Work, Frame], list[LootRef]]:
    kinds = set(np.kinds)
    place = np.place

    def run(w: Work, f: Frame) -> list[LootRef]:
        if place == "today":
            refs = [("today", -1, k) for k in w.today()]
        elif place == "tomorrow":
            refs = [("tomorrow", -1, k) for k in (w.tomorrow() or [])]
        elif place == "bag":
            refs = [("bag", -1, k) for k in w.bag_tokens()]
        elif place == "held":
            refs = [("held", f.seat, k) for k in w.seats[f.seat].loot]
        else:
            refs = [("held", s, k) for s in w.adjacent(f.seat) for k in w.seats[s].loot]
        return [r for r in refs if not kinds or r[2] in kinds]
    return run


def loot_key(ref: LootRef, seat: int) -> str:
    return ref[2] if ref[1] in (-1, seat) else f"{ref[2]}@{ref[1]}"


def choose_loot(w: Work, f: Frame, refs: list[LootRef], prompt: str) -> LootRef | None:
    if not refs:
        return None
    seen: dict[str, LootRef] = {}
    for r in refs:
        seen.setdefault(loot_key(r, f.seat), r)
    options = [Option(k, loot_label(k)) for k in seen]
    key = w.ask(f, f.seat, "choose_loot", options, prompt, source_name(f))
    return seen[key]


def loot_label(key: str) -> str:
    kind, _, seat = key.partition("@")
    return f"{kind} from seat {seat}" if seat else kind


def select_loot(sel: ast.LootSel, verb: str) -> Callable[[Work, Frame], list[LootRef]]:
    """Resolve a loot selector; every question is asked before anything moves."""
    cands = loot_candidates(sel.np)
    if isinstance(sel, ast.EveryLootBut):
        keep = sel.keep

        def every_but(w: Work, f: Frame) -> list[LootRef]:
            refs = cands(w, f)
            for _ in range(keep):
                kept = choose_loot(w, f, refs, "choose a loot token to keep")
                if kept is None:
                    break
                refs.remove(kept)
            return refs
        return every_but
    if isinstance(sel, ast.ChooseLootN):
        n = sel.counts[0]

        def several(w: Work, f: Frame) -> list[LootRef]:
            refs, out = cands(w, f), []
            for _ in range(n):
                ref = choose_loot(w, f, refs, f"choose a loot token to {verb}")
                if ref is None:
                    break
                refs.remove(ref)
                out.append(ref)
            return out
        return several
    if isinstance(sel, ast.ChooseLootSet):
        counts = sel.counts

        def of_one_kind(w: Work, f: Frame) -> list[LootRef]:
            refs = cands(w, f)
            groups: dict[str, list[LootRef]] = {}
            for r in refs:
                groups.setdefault(loot_key(r, f.seat), []).append(r)
            options = [Option(f"{key}*{n}", f"{n} {loot_label(key)}")
                       for key, group in groups.items() for n in counts if len(group) >= n]
            if not options:
                return []
            key = w.ask(f, f.seat, "choose_loot", options, f"choose which loot to {verb}, and how many",
                        source_name(f))
            kind, _, count = key.rpartition("*")
            return groups[kind][:int(count)]
        return of_one_kind
    if isinstance(sel, ast.EveryLoot):
        return cands
    if isinstance(sel, ast.RandomLoot):
        def random(w: Work, f: Frame) -> list[LootRef]:
            refs = cands(w, f)
            return [refs[w.random(len(refs))]] if refs else []
        return random

    def choose(w: Work, f: Frame) -> list[LootRef]:
        ref = choose_loot(w, f, cands(w, f), f"choose a loot token to {verb}")
        return [ref] if ref is not None else []
    return choose


def remove_loot(w: Work, ref: LootRef) -> None:
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


def place_loot(w: Work, ref: LootRef, kind: str) -> None:
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
