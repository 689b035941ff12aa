"""The invariants every game keeps, checked after any step.

``check_invariants(game)`` raises ``AssertionError`` naming the broken invariant.
"""

from __future__ import annotations

from collections import Counter

from ..engine import journal
from ..game import Game
from ..state import loot_tally


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
        if p.kept_loot:
            assert not Counter(p.kept_loot) - Counter(p.loot), f"seat {p.seat} keeps loot it does not hold"
        if p.kept:
            assert not Counter(p.kept) - Counter(p.ship), f"seat {p.seat} keeps characters that are not aboard"
    for seat, pick in enumerate(s.commits):
        assert pick is None or pick in s.seats[seat].hand, f"seat {seat} picked {pick}, which is not in its hand"
    assert sorted(s.track) == list(range(len(rules.board.track_income))), f"track is no permutation: {s.track}"
    _check_characters(game, before)
    if s.automa is not None:
        _check_solo(game)
    _check_loot(game)


def _owned(game: Game) -> list[list[str]]:
    """Per seat, the names of the characters it owns, wherever they are (one entry per copy)."""
    s = game.state
    out: list[list[str]] = [[] for _ in range(s.players)]
    for p in s.seats:
        for entry in (*p.hand, *p.ship, *p.graveyard, *p.removed):
            if "#" in entry:
                owner, name = _owner(entry, s.players)
                out[owner].append(name)
            else:
                out[p.seat].append(entry)
    for holder, entry in s.island:
        if holder is None and s.automa is not None:
            continue  # the Pilferer's card: a solo card, nobody's (``_check_solo``)
        if holder is None:
            assert "#" not in entry and game.rules.has_card(entry) and game.rules.card(entry).neutral, \
                f"{entry!r} is on the island as a neutral card"
        elif "#" in entry:
            owner, name = _owner(entry, s.players)
            out[owner].append(name)
        else:
            out[holder].append(entry)
    return out


def _owner(entry: str, players: int) -> tuple[int, str]:
    """(original owner, card name) of a marked entry: ``"Cook#1"`` is seat 1's Cook wherever it is."""
    name, _, owner = entry.rpartition("#")
    assert owner.isdigit() and 0 <= int(owner) < players, f"{entry!r} names no seat as its owner"
    return int(owner), name


def cards_by_owner(game: Game) -> list[Counter[str]]:
    """Per seat, every character it owns wherever it is (hand, ship, graveyard, removed, island, any seat's zones)."""
    return [Counter(names) for names in _owned(game)]


def _check_characters(game: Game, before: Game | None) -> None:
    s = game.state
    names = {c.name for c in game.rules.characters if not c.neutral and "#" not in c.name}  # printed cards only
    undealt = set(s.undealt)
    assert len(undealt) == len(s.undealt) and undealt <= names, f"undealt is not a set of cards: {s.undealt}"
    solo = game.rules.board.solo
    unused = set(solo.without) if s.automa is not None and solo is not None else set()
    dealt = names - undealt - unused
    began_with_deal = journal.began_with_deal(s.journal, game.rules.lexicon)
    listed = _owned(game)
    owned = [set(cards) for cards in listed]
    for seat, (cards, copies) in enumerate(zip(owned, listed, strict=True)):
        if len(cards) != len(copies):
            twice = sorted(c for c, n in Counter(copies).items() if n > 1)
            raise AssertionError(f"seat {seat}'s {twice} are in two places at once")
        assert cards <= names, f"seat {seat} holds {sorted(cards - names)}, which are no characters of the edition"
        assert not cards & undealt, f"seat {seat} holds undealt cards: {sorted(cards & undealt)}"
        if began_with_deal:
            assert cards >= dealt, f"seat {seat}'s {sorted(dealt - cards)} were dealt but are nowhere"
    if before is not None:
        newly = set(before.state.undealt) - undealt
        for seat, (cards, then) in enumerate(zip(owned, _owned(before), strict=True)):
            assert cards == set(then) | newly, \
                f"seat {seat}'s characters changed from {sorted(then)} to {sorted(cards)}"


def _check_solo(game: Game) -> None:
    """Each solo card exactly once: Automa's zones, the solo deck and discard, the Pilferer's card."""
    s = game.state
    solo = game.rules.board.solo
    assert solo is not None, "a game with Automa needs a board with a solo mode"
    automa = s.seats[s.automa or 0]
    places = [*automa.hand, *automa.ship, *automa.graveyard, *automa.removed, *s.solo_deck, *s.solo_discard,
              *(name for seat, name in s.island if seat in (None, s.automa))]
    deck = Counter(card.name for card in solo.deck)
    assert Counter(places) == deck, \
        f"solo cards not conserved: {dict(Counter(places) - deck)} too many, {dict(deck - Counter(places))} missing"


def _check_loot(game: Game) -> None:
    s = game.state
    board = game.rules.board
    assert [k for k, _ in s.bag] == [k for k, _ in board.bag], f"the bag's kinds are not the board's: {s.bag}"
    assert all(n >= 0 for _, n in s.bag), f"the bag holds a negative count: {s.bag}"
    loot = loot_tally(s)
    expected = Counter(dict(board.bag))
    assert loot == expected, f"loot not conserved: {dict(loot - expected)} too many, {dict(expected - loot)} missing"
