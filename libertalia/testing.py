"""Tools for property-testing rule interactions: strategies and an invariant checker.

``check_invariants(game)`` raises ``AssertionError`` naming the broken
invariant; ``games()`` is a hypothesis strategy for games at random points.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import strategies as st

from .game import Game, new_game
from .loading.specs import Rules


def check_invariants(game: Game, before: Game | None = None) -> None:
    """The conservation and sanity rules that hold after every step.

    Characters are counted by their original owner: ``"Cook#1"`` in any seat's
    zones (or ``(0, "Cook#1")`` on the island) is seat 1's Cook.  In a game that
    began with a deal, every seat holds exactly the characters dealt so far (the
    edition's characters minus ``undealt``); a declared position may give seats
    different cards, so there each seat's cards need only have been dealt.  With
    ``before`` (an earlier state of the same game) no seat may lose a card it had
    then, which is exact for declared positions too.
    """
    s = game.state
    rules = game.rules
    d = s.decision
    if s.step == "over":
        assert d is None, "a finished game asks nothing"
    else:
        assert d is not None, "a running game always waits for a decision"
        keys = d.keys()
        assert keys, "a decision must offer at least one option"
        assert len(set(keys)) == len(keys), f"duplicate option keys: {keys}"
        assert 0 <= d.player < s.players, f"decision for a seat that does not exist: {d.player}"
    for p in s.seats:
        assert p.doubloons >= 0, f"seat {p.seat} has negative doubloons ({p.doubloons})"
        assert not Counter(p.kept_loot) - Counter(p.loot), f"seat {p.seat} keeps loot it does not hold"
        assert not Counter(p.kept) - Counter(p.ship), f"seat {p.seat} keeps characters that are not aboard"
    for seat, pick in enumerate(s.commits):
        assert pick is None or pick in s.seats[seat].hand, f"seat {seat} picked {pick}, which is not in its hand"
    assert sorted(s.track) == list(range(len(rules.board.track_income))), f"track is no permutation: {s.track}"
    _check_characters(game, before)
    _check_loot(game)


def _owner(holder: int, entry: str, players: int) -> tuple[int, str]:
    """(original owner, card name) of a zone entry: ``"Cook#1"`` is seat 1's Cook wherever it is."""
    name, mark, owner = entry.rpartition("#")
    if not mark:
        return holder, entry
    assert owner.isdigit() and 0 <= int(owner) < players, f"{entry!r} names no seat as its owner"
    return int(owner), name


def cards_by_owner(game: Game) -> list[Counter[str]]:
    """Per seat, every character it owns wherever it is (hand, ship, graveyard, removed, island, any seat's zones)."""
    s = game.state
    out: list[Counter[str]] = [Counter() for _ in range(s.players)]
    for p in s.seats:
        for entry in (*p.hand, *p.ship, *p.graveyard, *p.removed):
            owner, name = _owner(p.seat, entry, s.players)
            out[owner][name] += 1
    for holder, entry in s.island:
        if holder is None:
            assert "#" not in entry and game.rules.has_card(entry) and game.rules.card(entry).neutral, \
                f"{entry!r} is on the island as a neutral card"
            continue
        owner, name = _owner(holder, entry, s.players)
        out[owner][name] += 1
    return out


def _check_characters(game: Game, before: Game | None) -> None:
    s = game.state
    rules = game.rules
    names = {c.name for c in rules.characters if not c.neutral and "#" not in c.name}  # printed cards only
    undealt = Counter(s.undealt)
    assert all(n == 1 for n in undealt.values()) and set(undealt) <= names, f"undealt is not a set of cards: {undealt}"
    dealt = names - set(undealt)
    began_with_deal = next((e.kind for e in s.events if e.kind in ("voyage", "play")), None) == "voyage"
    owned = cards_by_owner(game)
    for seat, cards in enumerate(owned):
        twice = sorted(c for c, n in cards.items() if n > 1)
        assert not twice, f"seat {seat}'s {twice} are in two places at once"
        unknown = sorted(set(cards) - names)
        assert not unknown, f"seat {seat} holds {unknown}, which are no characters of the edition"
        assert not set(cards) & set(undealt), f"seat {seat} holds undealt cards: {sorted(set(cards) & set(undealt))}"
        if began_with_deal:
            lost = sorted(dealt - set(cards))
            assert not lost, f"seat {seat}'s {lost} were dealt but are nowhere"
    if before is not None:
        then = cards_by_owner(before)
        newly = set(before.state.undealt) - set(undealt)
        for seat, cards in enumerate(owned):
            assert set(cards) == set(then[seat]) | newly, \
                f"seat {seat}'s characters changed from {sorted(then[seat])} to {sorted(cards)}"


def _check_loot(game: Game) -> None:
    s = game.state
    board = game.rules.board
    assert [k for k, _ in s.bag] == [k for k, _ in board.bag], f"the bag's kinds are not the board's: {s.bag}"
    assert all(n >= 0 for _, n in s.bag), f"the bag holds a negative count: {s.bag}"
    assert len(s.days) == 0 or 0 <= s.day <= len(s.days), f"day {s.day} of {len(s.days)}"
    loot: Counter[str] = Counter(dict(s.bag))
    for day in s.days:
        loot.update(day)
    loot.update(s.aside)
    for p in s.seats:
        loot.update(p.loot)
    expected = Counter(dict(board.bag))
    assert loot == expected, f"loot not conserved: {dict(loot - expected)} too many, {dict(expected - loot)} missing"


@st.composite
def positions(draw: st.DrawFn, rules: Rules, players: int) -> dict[str, Any]:
    """A consistent declared position (``setup=``) for ``new_game``: any voyage and day,
    hands, ships, graveyards, loot, doubloons, scores and (where there is a track) reputation.
    """
    board = rules.board
    voyage = draw(st.integers(1, len(board.voyage_days)), label="voyage")
    day = draw(st.integers(1, board.voyage_days[voyage - 1]), label="day")
    names = [c.name for c in rules.characters if not c.neutral and "#" not in c.name]
    bag: Counter[str] = Counter(dict(board.bag))
    seats = []
    for _ in range(players):
        cards = draw(st.permutations(names))
        hand, ship, grave = draw(st.integers(1, 6)), draw(st.integers(0, 4)), draw(st.integers(0, 3))
        loot = []
        for kind in draw(st.lists(st.sampled_from([k for k, _ in board.bag]), max_size=4)):
            if bag[kind] > 0:
                bag[kind] -= 1
                loot.append(kind)
        seats.append({
            "hand": list(cards[:hand]),
            "ship": list(cards[hand:hand + ship]),
            "graveyard": list(cards[hand + ship:hand + ship + grave]),
            "loot": loot,
            "doubloons": draw(st.integers(0, 25)),
            "score": draw(st.integers(0, 80)),
        })
    setup: dict[str, Any] = {"voyage": voyage, "day": day, "players": seats}
    if board.track_income:
        spaces = draw(st.permutations(range(len(board.track_income))))
        setup["reputation"] = list(spaces[:players])
    return setup


@st.composite
def games(draw: st.DrawFn, rules: Rules, players: int, max_steps: int = 400, from_position: bool = False) -> Game:
    """A game after a random number of random legal answers, from the start or a random position."""
    setup = draw(positions(rules, players)) if from_position else None
    game = new_game(rules, players, seed=draw(st.integers(0, 2**32 - 1)), setup=setup)
    for _ in range(draw(st.integers(0, max_steps))):
        if game.decision is None:
            break
        game = game.choose(draw(st.sampled_from(game.legal_keys())))
    return game
