"""Meaning rules of places, picks and players (issue 32): what the island holds at dusk, what a pick
offers when a later word reads it, whose "your" an amount reads, and work bounded by what exists.

Each rule is stated in docs/card-language.md ("Meaning rules: places, picks and players"); the texts
here are this file's own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import libertalia as lt
from libertalia.engine.program.amounts import Row, best_sets
from tests.helpers import coins, mod_rules, write_cards

# Ranks no bundled Galecrest character has; the helpers' seats play them.
MOD = {
    "Deckhand": (5.5, "moon: gain 1 doubloon."),
    "Lookout": (3.5, "sun: gain 2 doubloons."),
    "Nipper": (30.5, "dusk: discard the character left of this."),
    "Trailer": (31.5, "dusk: the owner of the rightmost other character on the island gains 3 doubloons."),
    "Fleecer": (32.5, "sun: the owner of a character in an opponent's ship loses 3 doubloons, then put it into "
                      "your graveyard."),
    "Squeezer": (33.5, "sun: the owner of a character in an opponent's ship loses 3 doubloons."),
    "Halver": (34.5, "sun: the player on your right pays you half your doubloons."),
    "Census": (35.5, "sun: the player on your right pays you 1 doubloon for each character in their ship."),
    "Counter": (36.5, "sun: the player on your right gains 1 doubloon for each character in your ship."),
    "Cartographer": (37.5, "sun: the player on your right gains doubloons for your map in sets (2 for 7, 3 for 12)."),
    "Hoarder": (38.5, "sun: draw 99999 random loot from the bag for each character in any ship."),
    "Sampler": (39.5, "sun: draw 60 random loot from the bag for each character in any ship."),
    "Surveyor": (3.75, "anchor: count 999999 extra map."),
    "Pathfinder": (3.8, "anchor: count 4 extra map."),
    "Crowner": (2.5, "sun: the owner of the highest-ranked character on the island gains 4 doubloons."),
    "Lowballer": (2.75, "sun: the owner of the lowest-ranked other character on the island gains 4 doubloons."),
}


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    return mod_rules(write_cards(tmp_path_factory.mktemp("meaning_places"), MOD))


def _refused(tmp_path: Path, text: str, loot_kind: str | None = None) -> lt.CardError:
    """The error loading ``text`` on a mod character (or on a calm loot tile of ``loot_kind``)."""
    folder = tmp_path / "mod"
    if loot_kind is None:
        write_cards(folder, {"Oddity": (40.25, text)})
    else:
        folder.mkdir(parents=True, exist_ok=True)
        count = dict(lt.load_rules("galecrest").board.bag)[loot_kind]
        (folder / "tile.yaml").write_text(f"kind: {loot_kind}\nside: calm\ncount: {count}\ntext: |\n  {text}\n",
                                          encoding="utf-8")
    with pytest.raises(lt.CardError) as info:
        mod_rules(folder)
    return info.value


def _day(rules: lt.Rules, *hands: str, seats: tuple[dict[str, Any], ...] = ({}, {}, {}), day: int = 1,
         until: tuple[str, ...] = ("day", "dusk")) -> lt.Game:
    """Seat i plays ``hands[i]`` on voyage 1, ``day``, and the game goes on while its phase is in ``until``.

    By default the day, its dusk and night are played out: each hand keeps two cards for the next
    day, so the game stops at the next day's plays with the ships as this day left them (on the
    voyage's last day, after the anchor).  ``until=("day",)`` stops at dusk's first question, the
    sun abilities done.
    """
    players = [{"hand": [card, "Beggar", "Carpenter"], **extra} for card, extra in zip(hands, seats, strict=True)]
    game = lt.new_game(rules, 3, seed=0, setup={
        "voyage": 1, "day": day, "reputation": [0, 1, 2],
        "loot": [["chest", "map", "relic"]] * (5 - day), "players": players})
    for card in hands:
        game = game.choose(card)
    while game.decision is not None and game.phase in until:
        game = game.choose(game.legal_keys()[0])
    return game


# ---------------------------------------------------------------- the island at dusk
@pytest.mark.parametrize(("text", "words"), [
    ("dusk: put the character right of this into your hand.", "every character right of this one has boarded"),
    ("dusk: gain 2 doubloons if this is the rightmost character on the island.", "the test always holds"),
    ("dusk: gain 1 doubloon if this is the highest-ranked character on the island.", "the test always holds"),
    ("dusk: the owner of the rightmost character on the island loses 1 doubloon.", "the one whose turn it is"),
    ("dusk: lose 1 doubloon for each character on the island ranked above this.", "ranked above this one"),
    ("dusk: gain 1 doubloon if there is a Cook on the island ranked above this.", "ranked above this one"),
])
def test_dusk_words_for_what_has_left_the_island_are_refused(tmp_path: Path, text: str, words: str) -> None:
    """Island at dusk (ruling E35): words naming what has left the island, or only the card resolving, are refused."""
    err = _refused(tmp_path, text)
    assert words in err.message and err.expected


def test_dusk_refusal_on_loot_names_the_taker(tmp_path: Path) -> None:
    """Island at dusk (E35): on a tile, the token's taker is the rightmost character: the test is refused."""
    err = _refused(tmp_path, "dusk: gain 1 doubloon if the character that took this is the rightmost character "
                             "on the island.", "chest")
    assert "the test always holds" in err.message


@pytest.mark.parametrize("text", [
    "sun: put the character right of this into your hand.",
    "sun: gain 2 doubloons if this is the rightmost character on the island.",
    "dusk: gain 2 doubloons if this is the leftmost character on the island.",
    "dusk: discard the rightmost character on the island owned by another player.",
])
def test_island_words_that_can_hold_are_accepted(tmp_path: Path, text: str) -> None:
    """Island at dusk (E35): by day the whole island is there, and at dusk what lies left of this still is."""
    write_cards(tmp_path / "mod", {"Oddity": (40.25, text)})
    mod_rules(tmp_path / "mod")


def test_left_of_this_at_dusk_is_the_next_to_resolve(rules: lt.Rules) -> None:
    """Island at dusk (E35): the character left of this is still on the island, and is discarded."""
    game = _day(rules, "Nipper", "Deckhand", "Lookout")
    assert game.players[1].graveyard == ("Deckhand",)
    assert game.players[2].ship == ("Lookout",)


def test_rightmost_other_at_dusk_is_the_next_to_resolve(rules: lt.Rules) -> None:
    """Island at dusk (E35): "the rightmost other character" names the next card to resolve (the Deckhand, 5.5)."""
    game = _day(rules, "Trailer", "Deckhand", "Lookout", seats=({"doubloons": 0}, {"doubloons": 0},
                                                               {"doubloons": 0}))
    told = [str(e) for e in game.events]
    assert "seat 1 gains 3 doubloons (Trailer)" in told
    assert not any("(Trailer)" in line and "seat 1" not in line for line in told)


# ---------------------------------------------------------------- picks a later word reads
def test_a_pick_read_later_is_not_narrowed_by_its_first_action(rules: lt.Rules) -> None:
    """Picks: a pick that a later "it" reads offers every character the phrase names, so the put happens though
    no owner has a doubloon to lose."""
    game = _day(rules, "Fleecer", "Deckhand", "Lookout",
                seats=({"doubloons": 0}, {"doubloons": 0, "ship": ["Brawler"]}, {"doubloons": 0}))
    assert "Brawler#1" in game.players[0].graveyard and game.players[1].ship == ("Deckhand",)


def test_a_pick_read_by_no_later_word_still_offers_only_what_changes(rules: lt.Rules) -> None:
    """Picks (E29 kept): with no later word, "the owner of a …" offers only characters whose owner would lose."""
    game = _day(rules, "Squeezer", "Deckhand", "Lookout",
                seats=({}, {"doubloons": 0, "ship": ["Brawler"]}, {"doubloons": 5, "ship": ["Surgeon"]}),
                until=("day",))
    assert coins(game)[1] == 0 and coins(game)[2] == 5 - 3 + 2  # nobody was asked: the poor owner is no pick


# ---------------------------------------------------------------- equal ranks
def test_the_highest_ranked_of_a_tie_is_the_one_r4_puts_right(rules: lt.Rules) -> None:
    """R4: on a tie of ranks the island puts the higher reputation right, so "the highest-ranked" is that card, as
    "the rightmost" is (the first of equals, the left one, was named before)."""
    game = _day(rules, "Crowner", "Deckhand", "Deckhand", until=("day",))
    right = max((1, 2), key=lambda seat: game.players[seat].reputation)
    island = [card for card in game.island if card[1] == "Deckhand"]
    assert island[-1][0] == right  # the island itself puts the better reputation right
    assert coins(game)[right] == 4 and coins(game)[3 - right] == 0


def test_the_lowest_ranked_of_a_tie_is_the_one_r4_puts_left(rules: lt.Rules) -> None:
    """R4: the mirror of the above; of two equal ranks "the lowest-ranked" is the one the island puts left."""
    game = _day(rules, "Lowballer", "Deckhand", "Deckhand", until=("day",))
    left = min((1, 2), key=lambda seat: game.players[seat].reputation)
    assert coins(game)[left] == 4 and coins(game)[3 - left] == 0


# ---------------------------------------------------------------- whose "your"
def test_half_your_doubloons_is_the_owners_half(rules: lt.Rules) -> None:
    """Players: "your" in an amount said of another player is the ability's owner: they pay half of 8."""
    game = _day(rules, "Halver", "Deckhand", "Deckhand", seats=({"doubloons": 8}, {"doubloons": 20},
                                                                {"doubloons": 20}), until=("day",))
    assert coins(game) == [12, 20, 16]


def test_their_in_an_amount_reads_the_subject(rules: lt.Rules) -> None:
    """Players: "their ship" in an amount said of another player is that player's ship (3 characters)."""
    game = _day(rules, "Census", "Deckhand", "Deckhand",
                seats=({"doubloons": 0, "ship": ["Brawler"]}, {"doubloons": 20},
                       {"doubloons": 20, "ship": ["Brawler", "Surgeon", "Governor"]}), until=("day",))
    assert coins(game) == [3, 20, 17]


def test_your_ship_in_an_amount_said_of_another_player_is_the_owners(rules: lt.Rules) -> None:
    """Players: "for each character in your ship" counts the owner's ship, whoever gains."""
    game = _day(rules, "Counter", "Deckhand", "Deckhand",
                seats=({"doubloons": 0, "ship": ["Brawler", "Surgeon"]}, {"doubloons": 0},
                       {"doubloons": 0, "ship": ["Governor"]}), until=("day",))
    assert coins(game) == [0, 0, 2]


def test_your_sets_in_an_amount_said_of_another_player_are_the_owners(rules: lt.Rules) -> None:
    """Players: "for your map in sets" scores the owner's maps (3 maps: 12), not the subject's (none)."""
    game = _day(rules, "Cartographer", "Deckhand", "Deckhand",
                seats=({"doubloons": 0, "loot": ["map", "map", "map"]}, {"doubloons": 0},
                       {"doubloons": 0}), until=("day",))
    assert coins(game)[2] == 12


@pytest.mark.parametrize(("words", "gained"), [
    ("the player on your right gains 1 doubloon for each map you hold", [0, 0, 2]),
    ("the player on your right gains 1 doubloon for each kind of loot you hold", [0, 0, 2]),
    ("the player on your right gains doubloons by map you hold (1 for 1, 2 for 5)", [0, 0, 5]),
    ("the player on your right gains 1 doubloon for each space left of your reputation", [0, 0, 0]),
    ("every other player gains 1 doubloon for each map you hold", [0, 2, 2]),
    ("every player who holds a saber gains 1 doubloon for each map you hold", [0, 2, 0]),
    ("the owner of the rightmost other character on the island gains 2 doubloons for each map you hold", [0, 4, 0]),
    ("the player on your right gains 1 doubloon for each character in their ship", [0, 0, 1]),
])
def test_every_counter_said_of_other_players_reads_the_owner(tmp_path: Path, words: str, gained: list[int]) -> None:
    """Players: each counter of an amount said of other players reads the owner's side ("you hold", "your
    reputation"), and only "their" reads theirs."""
    rules = mod_rules(write_cards(tmp_path / "mod", {"Giver": (40.25, f"sun: {words}."), **{
        k: v for k, v in MOD.items() if k in ("Deckhand", "Lookout")}}))
    game = _day(rules, "Giver", "Deckhand", "Lookout", until=("day",), seats=(
        {"doubloons": 0, "loot": ["map", "map", "relic"]}, {"doubloons": 0, "loot": ["saber"]},
        {"doubloons": 0, "ship": ["Brawler"]}))
    assert coins(game) == [g + (2 if i == 2 else 0) for i, g in enumerate(gained)]  # the Lookout gains 2 itself


def test_their_needs_a_player(tmp_path: Path) -> None:
    """Players: "their" in an amount of your own action names nobody, and is refused."""
    err = _refused(tmp_path, "sun: gain 1 doubloon for each character in their ship.")
    assert "speaks of the player" in err.message


# ---------------------------------------------------------------- work bounded by what exists
class _TooLong(Exception):
    """More lines ran than the bound allows."""


@contextmanager
def _lines(bound: int) -> Iterator[list[int]]:
    """Count the Python lines run in the block (a step count, never a clock); stop past ``bound``."""
    seen = [0]

    def local(frame: FrameType, event: str, arg: object) -> Callable[..., Any] | None:
        if event == "line":
            seen[0] += 1
            if seen[0] > bound:
                raise _TooLong
        return local

    def start(frame: FrameType, event: str, arg: object) -> Callable[..., Any] | None:
        return local

    old = sys.gettrace()
    sys.settrace(start)
    try:
        yield seen
    finally:
        sys.settrace(old)


def test_a_draw_stops_at_the_empty_bag(rules: lt.Rules) -> None:
    """Bounded work: "draw 99999 … for each …" draws until the bag is empty, in as many steps as a draw of 60
    per character that empties it too, and to the same tokens."""
    seats = ({"ship": ["Brawler"]}, {"ship": ["Surgeon"]}, {})
    runs = {}
    for card in ("Sampler", "Hoarder"):
        with _lines(2_000_000) as seen:
            game = _day(rules, card, "Deckhand", "Lookout", seats=seats)
        runs[card] = (seen[0], game.players[0].loot, sum(n for _, n in game.state.bag))
    assert runs["Hoarder"][1:] == runs["Sampler"][1:]
    assert runs["Hoarder"][2] == 0  # the 60 per character emptied the bag too
    assert runs["Hoarder"][0] < 2 * runs["Sampler"][0] + 10_000


def _brute_sets(n: int, rows: tuple[Row, ...]) -> int:
    best = [0] * (n + 1)
    for i in range(1, n + 1):
        best[i] = max([best[i - 1], *(best[i - r.count] + r.value for r in rows if 0 < r.count <= i)])
    return best[n]


@pytest.mark.parametrize("rows", [
    ((2, 7), (3, 12)), ((3, 12),), ((2, 6), (3, 13)), ((1, 1), (4, 5), (5, 7)), ((0, 10), (2, 3)), ((3, 0), (5, 4)),
    ((3, 1), (5, 21), (7, 29), (8, 22)),  # the best set per item is not the largest: the bound is read from the largest
])
def test_set_scoring_in_closed_form_matches_the_split(rows: tuple[tuple[int, int], ...]) -> None:
    """Bounded work: set scoring skips whole best sets past a bound, and equals the best split for every count."""
    table = tuple(Row(c, "", v) for c, v in rows)
    for n in range(0, 80):
        assert best_sets(n, table) == _brute_sets(n, table), n
    with _lines(20_000):
        assert best_sets(10**12, table) >= 0


def test_a_huge_extra_count_scores_in_few_steps(rules: lt.Rules) -> None:
    """Bounded work: "count 999999 extra map" scores the sets of 1,000,001 maps, as many as 4 extra would differ
    by, without a step per map."""
    seats = ({"doubloons": 0, "loot": ["map", "map"]}, {}, {})
    ends = {}
    for card in ("Pathfinder", "Surveyor"):
        with _lines(3_000_000):
            ends[card] = _day(rules, card, "Deckhand", "Lookout", seats=seats, day=4)
    # Both take a map at dusk.  3 maps + 4 extra: sets of 3, 2 and 2 (26); 3 + 999999: 333334 sets of 3.
    assert ends["Surveyor"].players[0].score - ends["Pathfinder"].players[0].score == 333334 * 12 - 26
