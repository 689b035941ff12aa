"""Fan cards built from general words do exactly what their sentences say (issue 8, point 3).

Each test loads a one-card mod (``Fan``, rank 41.5, or a replaced loot tile) and plays it from a
declared position with three seats.  Seats 1 and 2 play quiet cards (Explorer 10 and Treasurer
32 have no day or night ability that fires here) unless a test needs otherwise.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

import libertalia as lt
import libertalia.testing
from tests.helpers import answer, at, coins, reps


@functools.cache
def fan_rules(text: str, loot_kind: str | None = None, folder: str = "", rank: float = 41.5) -> lt.Rules:
    """The Galecrest rules with one fan character (or, with ``loot_kind``, a replaced calm tile)."""
    base = Path(folder)
    base.mkdir(parents=True, exist_ok=True)
    if loot_kind is None:
        body = f"name: Fan\nrank: {rank}\ntext: |\n  {text}\n"
    else:
        count = dict(lt.load_rules("galecrest").board.bag)[loot_kind]
        body = f"kind: {loot_kind}\nside: calm\ncount: {count}\ntext: |\n  {text}\n"
    (base / "fan.yaml").write_text(body, encoding="utf-8")
    return lt.load_rules("galecrest", extra_cards=[base])


@pytest.fixture
def rules(tmp_path: Path) -> Any:
    """A factory: ``rules(text)`` loads a fan card written to a fresh folder."""
    return lambda text, loot_kind=None, rank=41.5: fan_rules(text, loot_kind, str(tmp_path / str(abs(hash(text)))),
                                                            rank)


def game(rules: lt.Rules, seats: list[dict[str, Any]], loot: list[list[str]] | None = None,
         reputation: tuple[int, ...] = (0, 1, 2), **extra: Any) -> lt.Game:
    # Two filler cards in every hand: the next day then waits on a real choice.
    seats = [{**seat, "hand": [*seat.get("hand", []), "Quartermaster", "Governor"]} for seat in seats]
    setup: dict[str, Any] = {"players": seats, "reputation": list(reputation),
                             "loot": loot or [["chest", "amulet", "relic"]], **extra}
    return lt.new_game(rules, len(seats), seed=0, setup=setup)


QUIET1 = {"hand": ["Explorer", "Cook"]}
QUIET2 = {"hand": ["Treasurer", "Cook"]}


def play(g: lt.Game, *cards: str) -> lt.Game:
    """Each seat in turn sends the named card to the island."""
    return answer(g, *cards)


def to_night(g: lt.Game) -> lt.Game:
    """Answer dusk's loot questions with the first option until night work is done."""
    while g.decision is not None and g.phase in ("day", "dusk"):
        g = g.choose(g.legal_keys()[0])
    return g


def test_every_other_player_loses(rules: Any) -> None:
    """'moon: every other player loses 2 doubloons.' hits each other seat, not yours."""
    r = rules("moon: every other player loses 2 doubloons.")
    g = game(r, [{"hand": ["Cook", "Scout"], "ship": ["Fan"], "doubloons": 5},
                 {"hand": ["Explorer", "Cook"], "doubloons": 5}, {"hand": ["Treasurer", "Cook"], "doubloons": 1}])
    g = to_night(play(g, "Cook", "Explorer", "Treasurer"))
    assert coins(g) == [5, 3, 0]


def test_every_player_gains(rules: Any) -> None:
    """'sun: every player gains 1 doubloon.' pays every seat, yours included."""
    r = rules("sun: every player gains 1 doubloon.")
    g = play(game(r, [{"hand": ["Fan", "Cook"]}, QUIET1, QUIET2]), "Fan", "Explorer", "Treasurer")
    assert coins(g) == [1, 1, 1]


def test_use_dusk_ability_of_left_neighbours_character(rules: Any) -> None:
    """'use the dusk ability of a character owned by the player on your left' runs that card's dusk text as yours."""
    r = rules("dusk: use the dusk ability of a character owned by the player on your left.")
    # Seat 1 (seat 0's left) plays the Armorer: at dusk, +2 reputation if you just took a saber or hook.
    g = game(r, [{"hand": ["Fan", "Cook"]}, {"hand": ["Armorer", "Cook"]}, QUIET2],
             loot=[["saber", "hook", "relic"]], reputation=(0, 1, 2))
    g = play(g, "Fan", "Armorer", "Treasurer")
    # Dusk right to left: Fan (41.5) first takes a saber: the borrowed text sees *this* Fan's take.
    g = answer(g, "saber", "Fan")  # the Fan's own dusk before the saber's
    assert g.players[0].loot == ("saber",)
    assert reps(g)[0] == 2  # moved from space 0 past the two seats' tokens


def test_swap_with_adjacent_player(rules: Any) -> None:
    """'swap a loot you hold with a loot from an adjacent player' trades one token each way."""
    r = rules("sun: swap a loot you hold with a loot from an adjacent player.")
    g = game(r, [{"hand": ["Fan", "Cook"], "loot": ["relic"]}, {"hand": ["Explorer", "Cook"], "loot": ["chest"]},
                 {"hand": ["Treasurer", "Cook"], "loot": ["map"]}])
    g = play(g, "Fan", "Explorer", "Treasurer")
    at(g, "choose_loot", 0)
    assert set(g.legal_keys()) == {"chest@1", "map@2"}
    g = answer(g, "map@2")
    assert g.players[0].loot == ("map",)
    assert g.players[2].loot == ("relic",)
    assert g.players[1].loot == ("chest",)



@pytest.mark.parametrize(("place", "offered"), [
    ("another player", {"chest@1", "map@2"}),
    ("the player on your left", {"chest@1"}),
    ("the player on your right", {"map@2"}),
    ("an adjacent player", {"chest@1", "map@2"}),
])
def test_take_loot_from_other_players(rules: Any, place: str, offered: set[str]) -> None:
    """'take a loot from another player' offers every other seat's tokens; 'the player on your left' only
    the next seat's (as 'the player on your left loses …' names it), '… right' only the previous seat's."""
    r = rules(f"sun: take a loot from {place}.")
    g = game(r, [{"hand": ["Fan", "Cook"]}, {"hand": ["Explorer", "Cook"], "loot": ["chest"]},
                 {"hand": ["Treasurer", "Cook"], "loot": ["map"]}])
    g = play(g, "Fan", "Explorer", "Treasurer")
    if len(offered) > 1:
        at(g, "choose_loot", 0)
        assert set(g.legal_keys()) == offered
    key = sorted(offered)[-1]
    g = answer(g, key) if len(offered) > 1 else g
    victim = int(key.partition("@")[2])
    assert g.players[0].loot == (key.partition("@")[0],) and g.players[victim].loot == ()


def test_a_swap_between_two_other_players_is_refused(tmp_path: Path) -> None:
    """A swap trades between you and another place: two places that are both other players' loot are refused."""
    (tmp_path / "fan.yaml").write_text("name: Fan\nrank: 41.5\ntext: |\n  sun: swap a loot from another player "
                                       "with a loot from the player on your left.\n", encoding="utf-8")
    with pytest.raises(lt.CardError, match="a swap needs two different places"):
        lt.load_rules("galecrest", extra_cards=[tmp_path])

def test_hold_n_or_more(rules: Any) -> None:
    """'anchor: gain 4 doubloons if you hold 3 or more loot.' counts every token held."""
    r = rules("anchor: gain 4 doubloons if you hold 3 or more loot.")

    def banked(loot: list[str]) -> int:
        g = game(r, [{"hand": ["Necromancer"], "ship": ["Fan"], "loot": loot, "doubloons": 20},
                     {"hand": ["Explorer"]}, {"hand": ["Treasurer"]}],
                 loot=[["barrel", "barrel", "barrel"]], voyage=1, day=4)
        g = play(g, "Necromancer", "Explorer", "Treasurer")
        g = to_night(g)
        while g.decision is not None and g.voyage == 1:
            g = g.choose(g.legal_keys()[0])
        return g.players[0].score

    # Seat 0 takes a barrel (+1 at anchor); relics cost 3 each: 2 relics and a barrel are 3 loot, 1 relic is not.
    assert banked(["relic", "relic"]) - banked(["relic"]) == 4 - 3


def test_there_are_n_or_more(rules: Any) -> None:
    """'moon: gain 2 doubloons if there are 2 or more characters in your ship.' counts the ship at night."""
    r = rules("moon: gain 2 doubloons if there are 2 or more characters in your ship.")
    g = game(r, [{"hand": ["Cook", "Scout"], "ship": ["Fan"]}, QUIET1, QUIET2])
    g = to_night(play(g, "Cook", "Explorer", "Treasurer"))  # the Cook sails: two in the ship
    assert coins(g)[0] == 2
    g = game(r, [{"hand": ["Stowaway", "Cook"], "ship": ["Fan"]}, QUIET1, QUIET2])
    g = to_night(play(g, "Stowaway", "Explorer", "Treasurer"))  # the Stowaway is discarded: one in the ship
    assert coins(g)[0] == 0


def test_choose_one(rules: Any) -> None:
    """'sun: choose one: gain 3 doubloons; or gain 1 reputation.' asks, then does only the chosen one."""
    r = rules("sun: choose one: gain 3 doubloons; or gain 1 reputation.")
    g = play(game(r, [{"hand": ["Fan", "Cook"]}, QUIET1, QUIET2]), "Fan", "Explorer", "Treasurer")
    at(g, "choose_option", 0)
    assert g.legal_keys() == ("1", "2")
    assert [o.label for o in g.decision.options] == ["gain 3 doubloons", "gain 1 reputation"]  # type: ignore[union-attr]
    first = answer(g, "1")
    assert coins(first)[0] == 3 and reps(first)[0] == 0
    second = answer(g, "2")
    assert coins(second)[0] == 0 and reps(second)[0] == 1


def test_condition_or(rules: Any) -> None:
    """'gain 2 doubloons if you just took a chest or you hold a map' pays when either holds."""
    r = rules("dusk: gain 2 doubloons if you just took a chest or you hold a map.")
    g = play(game(r, [{"hand": ["Fan", "Cook"], "loot": ["map"]}, QUIET1, QUIET2]), "Fan", "Explorer", "Treasurer")
    assert coins(answer(g, "relic"))[0] == 2  # holds a map
    g = play(game(r, [{"hand": ["Fan", "Cook"]}, QUIET1, QUIET2]), "Fan", "Explorer", "Treasurer")
    assert coins(answer(g, "chest"))[0] == 2  # just took a chest
    assert coins(answer(g, "relic"))[0] == 0  # neither


def test_unless(rules: Any) -> None:
    """'moon: gain 3 doubloons unless there is a Cook in your ship.' pays only without a Cook."""
    r = rules("moon: gain 3 doubloons unless there is a Cook in your ship.")
    g = to_night(play(game(r, [{"hand": ["Stowaway", "Cook"], "ship": ["Fan"]}, QUIET1, QUIET2]),
                      "Stowaway", "Explorer", "Treasurer"))
    assert coins(g)[0] == 3
    g = to_night(play(game(r, [{"hand": ["Cook", "Scout"], "ship": ["Fan"]}, QUIET1, QUIET2]),
                      "Cook", "Explorer", "Treasurer"))
    assert coins(g)[0] == 0


def test_lowest_in_each_opponents_ship(rules: Any) -> None:
    """'discard the lowest-ranked character in each opponent's ship' discards one per ship."""
    r = rules("sun: discard the lowest-ranked character in each opponent's ship.")
    g = game(r, [{"hand": ["Fan", "Cook"], "ship": ["Scout"]},
                 {"hand": ["Explorer", "Cook"], "ship": ["Bosun", "Barkeep"]},
                 {"hand": ["Treasurer", "Cook"], "ship": ["Captain", "Witch"]}])
    g = play(g, "Fan", "Explorer", "Treasurer")
    assert g.players[0].ship == ("Scout",)
    assert g.players[1].ship == ("Bosun",) and g.players[1].graveyard == ("Barkeep",)
    assert g.players[2].ship == ("Captain",) and g.players[2].graveyard == ("Witch",)


def test_lowest_in_every_ship_is_one_over_all_ships(rules: Any) -> None:
    """'in every ship' keeps meaning one character over all ships."""
    r = rules("sun: discard the lowest-ranked character in every ship.")
    g = game(r, [{"hand": ["Fan", "Cook"], "ship": ["Captain"]},
                 {"hand": ["Explorer", "Cook"], "ship": ["Bosun", "Barkeep"]},
                 {"hand": ["Treasurer", "Cook"], "ship": ["Witch"]}])
    g = play(g, "Fan", "Explorer", "Treasurer")
    assert [p.graveyard for p in g.players] == [(), ("Barkeep",), ()]


def test_put_from_another_players_ship(rules: Any) -> None:
    """'put a character from another player's ship into your ship' moves it over, and it is yours now."""
    r = rules("sun: put a character from another player's ship into your ship.")
    g = game(r, [{"hand": ["Fan", "Cook"]}, {"hand": ["Explorer", "Cook"], "ship": ["Barkeep"]},
                 {"hand": ["Treasurer", "Cook"], "ship": ["Bosun"]}])
    g = play(g, "Fan", "Explorer", "Treasurer")
    at(g, "choose_character", 0)
    assert set(g.legal_keys()) == {"Barkeep@1", "Bosun@2"}
    g = answer(g, "Barkeep@1")
    assert g.players[0].ship == ("Barkeep#1",)  # seat 1's Barkeep, now seat 0's
    assert g.players[1].ship == ()
    g = to_night(g)
    assert coins(g)[0] == 1  # the Barkeep's moon pays its new holder
    libertalia.testing.check_invariants(g)


@pytest.mark.parametrize(("side", "seat", "victim"), [("left", 1, "Explorer"), ("right", 2, "Treasurer")])
def test_discard_left_and_right_of_this(rules: Any, side: str, seat: int, victim: str) -> None:
    """'discard the character left of this' (and 'right of this') discards that island neighbour."""
    r = rules(f"sun: discard the character {side} of this.", None, 15.5)
    g = play(game(r, [{"hand": ["Fan", "Cook"]}, QUIET1, QUIET2]), "Fan", "Explorer", "Treasurer")
    assert g.players[seat].graveyard == (victim,)
    assert sum(len(p.graveyard) for p in g.players) == 1


def test_take_two_loot(rules: Any) -> None:
    """'dusk: take 2 loot from today's loot.' takes two tokens, one pick at a time."""
    r = rules("dusk: take 2 loot from today's loot.")
    g = game(r, [{"hand": ["Fan", "Cook"]}, QUIET1, QUIET2], loot=[["chest", "amulet", "relic", "map"]])
    g = play(g, "Fan", "Explorer", "Treasurer")
    g = answer(g, "relic")  # the usual dusk token
    g = answer(g, "chest", "map")  # then the Fan's two
    assert sorted(g.players[0].loot) == ["chest", "map", "relic"]


def test_moon_on_loot(rules: Any) -> None:
    """'moon: gain 1 doubloon.' on a loot tile pays its holder each night, once per token held."""
    r = rules("moon: gain 1 doubloon.", "barrel")
    g = game(r, [{"hand": ["Scout", "Cook"], "loot": ["barrel", "barrel"]}, QUIET1, QUIET2],
             loot=[["chest", "amulet", "relic"]])
    g = to_night(play(g, "Scout", "Explorer", "Treasurer"))
    assert coins(g)[0] == 2


# ---------------------------------------------------------------- other players (E30, E31, E32)
OTHER_PLAYER_TEXTS = [
    "sun: gain 2 doubloons if you have more doubloons than every other player.",
    "sun: gain 2 doubloons unless you hold fewer relics than any other player.",
    "anchor: gain 1 doubloon if you hold at least as many sabers or hooks as every other player.",
    "moon: gain 1 doubloon if you have more characters in your ship than any other player.",
    "sun: each player with the most characters in their ship gains 1 doubloon.",
    "sun: every opponent with the fewest doubloons pays you 1 doubloon.",
    "sun: every other player who holds a saber loses 1 doubloon.",
    "sun: each player who has 2 or more characters in their hand loses 1 doubloon.",
    "sun: each opponent with a character in their ship ranked above 20 loses 2 doubloons.",
    "sun: every other player with 10 or fewer doubloons gains 2 doubloons.",
    "moon: every other player discards the lowest-ranked character in their ship.",
    "sun: every other player gives a loot they hold to you.",
    "sun: the player on your left gives a map they hold to the player on your right.",
    "sun: every other player returns every loot they hold but 1 of their choice to the bag.",
    "sun: take a map from another player.",
    "sun: return a relic from the player on your right to the bag.",
]


@pytest.mark.parametrize("text", OTHER_PLAYER_TEXTS)
def test_words_about_other_players_render_back(rules: Any, text: str) -> None:
    """E30-E32: each new wording loads, and renders to text that parses to the same tree."""
    card = rules(text).card("Fan")
    assert lt.parse(lt.render(card.abilities)) == card.abilities
    assert lt.render(card.abilities) == text


def test_have_and_hold_any_and_every_say_the_same() -> None:
    """E30: "you have more relics" is "you hold more relics", and "than any other player" is "than every"."""
    a = lt.parse("sun: gain 1 doubloon if you have more relics than any other player.")
    b = lt.parse("sun: gain 1 doubloon if you hold more relics than every other player.")
    assert a == b


def test_plural_kinds_name_the_rules_kinds() -> None:
    """E30: a comparison's plural names the kind: "relics" the relic, and "goods" (a 2012 kind) itself."""
    from libertalia.language.compile import compile_ability

    ability = lt.parse("anchor: gain 1 doubloon if you hold more goods or relics than any other player.")[0]
    test = compile_ability(ability, kinds={"goods", "relic", "map"}).steps[0].condition.groups[0][0]
    assert test.measure.kinds == frozenset({"goods", "relic"})


@pytest.mark.parametrize(("text", "words"), [
    ("sun: gain 1 doubloon if you have as many doubloons as every other player.",
     "could mean exactly as many or at least as many"),
    ("sun: gain 1 doubloon if you have more doubloons as every other player.", 'say "more … than"'),
    ("sun: gain 1 doubloon if you have at least as many doubloons than every other player.",
     'say "at least as many … as"'),
    ("sun: gain 1 doubloon if you hold more relic than every other player.", 'say "relics", not "relic"'),
    ("sun: gain 1 doubloon if you hold more krakens than every other player.", "unknown loot kind 'krakens'"),
    ("sun: the player with the most doubloons gains 1 doubloon.", "could mean each of them or none"),
    ("sun: give a map you hold to each player with the fewest relics.", "one player only"),
    ("sun: each opponent with a character in your ship loses 1 doubloon.", "that player's own characters"),
    ("sun: each opponent with a character owned by you loses 1 doubloon.", "that player's own characters"),
    ("moon: each opponent discards a character in your ship.", "discards from their own piles"),
    ("moon: each opponent discards this.", "discards from their own piles"),
    ("sun: each opponent returns a loot from the bag to the bag.", "returns loot they hold"),
    ("sun: each opponent returns every loot they hold but 1 of your choice to the bag.", "makes the choice"),
    ("sun: each opponent gives a loot they hold to every other player.", "one player only"),
    ("moon: every player who has a character on the island gains 1 doubloon.", "the island is empty"),
])
def test_the_checker_refuses_words_about_other_players_that_cannot_run(tmp_path: Path, text: str,
                                                                       words: str) -> None:
    """E30-E32: wordings that could be read two ways, or point at the wrong player's things, are refused."""
    (tmp_path / "fan.yaml").write_text(f"name: Fan\nrank: 41.5\ntext: |\n  {text}\n", encoding="utf-8")
    with pytest.raises(lt.CardError) as info:
        lt.load_rules("galecrest", extra_cards=[tmp_path])
    assert words in str(info.value)
