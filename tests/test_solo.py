"""The solo game: you against Automa (seat 1) and the Pilferer (rulings S1 to S8)."""

from __future__ import annotations

import json
import warnings

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia.engine import automa
from libertalia.engine.specs import SoloSpec
from libertalia.state import GameState
from libertalia.testing import check_invariants


@pytest.fixture(scope="module")
def rules() -> lt.Rules:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        return lt.load_rules("galecrest")


def _solo(rules: lt.Rules) -> SoloSpec:
    assert rules.board.solo is not None
    return rules.board.solo


def _new(rules: lt.Rules, seed: int = 1, **kwargs: object) -> lt.Game:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        return lt.new_game(rules, 1, seed=seed, **kwargs)  # type: ignore[arg-type]


def _deck_with(spec: SoloSpec, top: str, picks: tuple[tuple[str, int], ...], symbols: dict[str, bool]) -> SoloSpec:
    """The board's solo mode with ``top``'s back and some cards' symbols replaced."""
    deck = tuple(attrs.evolve(c, picks=picks if c.name == top else c.picks, symbol=symbols.get(c.name, c.symbol))
                 for c in spec.deck)
    return attrs.evolve(spec, deck=deck)


HAND = ["Scout", "Beggar", "Bandit", "Explorer", "Officer", "Witch"]  # ranks 1 3 6 10 12 15


# ---------------------------------------------------------------- the table on the cards' backs
@pytest.mark.parametrize(("today", "row"), [
    (["chest", "hook", "map"], 0),        # 1: all good
    (["saber", "amulet", "barrel"], 0),   # 1: all average
    (["relic", "relic", "relic"], 0),     # 1: all bad
    (["relic", "relic", "chest"], 1),     # 2: two bad
    (["relic", "chest", "saber"], 2),     # 3: a bad and a good
    (["chest", "saber", "amulet"], 3),    # 4: a good
    (["relic", "saber", "amulet"], 4),    # 5: the rest
])
def test_each_row_of_the_table_matches_its_loot(rules: lt.Rules, today: list[str], row: int) -> None:
    """The first row today's loot matches is read: all alike, two bad, bad and good, good, the rest."""
    picks = tuple(("left", i + 1) for i in range(5))  # row i picks the (i+1)-th card from the left
    spec = _deck_with(_solo(rules), "Gunner", picks, {})
    assert automa.table_pick(spec, "Gunner", today, HAND, [False] * 6) == row


@pytest.mark.parametrize(("pick", "symbols", "expected"), [
    (("left", 2), [False] * 6, 1),                                   # 2nd from the left
    (("right", 1), [False] * 6, 5),                                  # the rightmost
    (("right", 3), [False] * 6, 3),                                  # 3rd from the right
    (("symbol", 2), [True, False, True, False, True, False], 2),     # 2nd among the symbol cards
    (("symbol", 3), [False, True, False, False, False, False], 1),   # one symbol card: that one
    (("symbol", 1), [False] * 6, 5),                                 # no symbol card: the rightmost
    (("left", 9), [False] * 6, 5),                                   # short hand: as far as it goes
    (("right", 9), [False] * 6, 0),
    (("symbol", 4), [True, True, False, False, False, False], 1),    # fewer symbol cards than N
])
def test_each_icon_kind_picks_its_card(rules: lt.Rules, pick: tuple[str, int], symbols: list[bool],
                                       expected: int) -> None:
    """Left N, right N and symbol N, with the symbol fall-backs and a hand shorter than N."""
    spec = _deck_with(_solo(rules), "Gunner", (pick,) * 5, {})
    assert automa.table_pick(spec, "Gunner", ["relic", "saber", "amulet"], HAND, symbols) == expected


def test_an_empty_solo_deck_leaves_automa_her_rightmost_card(rules: lt.Rules) -> None:
    """With no card left to read, Automa plays her rightmost card (a documented fall-back, S5)."""
    assert automa.table_pick(_solo(rules), None, ["chest"], HAND, [True] * 6) == 5


# ---------------------------------------------------------------- set-up
def test_set_up_follows_the_solo_rules(rules: lt.Rules) -> None:
    """Spaces 3 and 4, no Midshipman, no Wind Nymph, the solo tiles, a 39-card solo deck."""
    for seed in range(10):
        g = _new(rules, seed)
        s = g.state
        assert s.players == 2 and s.automa == 1
        assert sorted(s.track.index(seat) for seat in (0, 1)) == [2, 3]
        assert "Wind Nymph" not in s.undealt and "Wind Nymph" not in s.solo_deck
        assert len(s.solo_deck) + len(g.players[1].hand) == 39
        assert all(name != "Midshipman" for _, name in g.island)
        assert {k: v for k, v in g.rules.loot_sides.items() if v == "automa"} == \
            {"hook": "automa", "saber": "automa", "amulet": "automa", "barrel": "automa"}
        assert g.players[0].hand == g.players[1].hand  # you take the ranks Automa shows
        assert g.decision is not None and g.decision.player == 0


def test_a_handicap_gives_extra_starting_doubloons(rules: lt.Rules) -> None:
    """The difficulty option: extra doubloons for you or for Automa at the start."""
    plain, easy, hard = _new(rules, 3), _new(rules, 3, handicap={0: 10}), _new(rules, 3, handicap={1: 7})
    assert easy.players[0].doubloons == plain.players[0].doubloons + 10
    assert hard.players[1].doubloons == plain.players[1].doubloons + 7
    with pytest.raises(lt.SetupError, match="not a seat"):
        _new(rules, 3, handicap={5: 1})


def test_solo_needs_a_board_with_a_solo_mode() -> None:
    """The 2012 game has no solo mode: one player is refused with the counts it allows."""
    with pytest.raises(lt.SetupError, match="for 2 to 6 players, not 1"):
        lt.new_game(lt.load_rules("classic"), 1, seed=1)


# ---------------------------------------------------------------- a day, arranged
def _day(rules: lt.Rules, *, you: list[str], automa_hand: list[str], deck: list[str], today: list[str],
         ships: tuple[list[str], list[str]] = ([], [])) -> lt.Game:
    """A solo game at the start of a day, with the hands, solo deck and loot given."""
    g = _new(rules, 5)
    s = g.state
    used = set(you) | set(automa_hand) | set(deck) | set(ships[1])
    rest = [c.name for c in _solo(rules).deck if c.name not in used]
    seats = (attrs.evolve(s.seats[0], hand=tuple(you), ship=tuple(ships[0])),
             attrs.evolve(s.seats[1], hand=tuple(automa_hand), ship=tuple(ships[1])))
    yours = set(you) | set(ships[0])
    undealt = tuple(c.name for c in rules.characters
                    if not c.neutral and c.name not in yours and c.name not in _solo(rules).without)
    days = list(s.days)
    moved = [k for k in days[0] if k not in today]
    days[0] = tuple(today)
    bag = dict(s.bag)
    for kind in moved:
        bag[kind] += 1
    for kind in today:
        bag[kind] -= 1
    state = attrs.evolve(s, seats=seats, solo_deck=tuple(deck) + tuple(rest), undealt=undealt,
                         days=tuple(days), bag=tuple(bag.items()), decision=None,
                         history=())
    game = lt.Game(g.rules, state)
    return lt.Game(g.rules, _select_state(game))


def _select_state(game: lt.Game) -> GameState:
    """Let the engine ask the first question of the arranged day."""
    from libertalia.engine import flow
    from libertalia.engine.work import Work

    w = Work(game.rules, game.state)
    flow.run(w)
    return w.freeze()


def test_the_beggar_facing_the_pilferer_changes_nothing_and_ranks_18(rules: lt.Rules) -> None:
    """S2: the Pilferer owns nothing, so Automa's Beggar does nothing and moves to rank 18."""
    g = _day(rules, you=["Explorer", "Scout"], automa_hand=["Beggar"], deck=["Quartermaster", "Gunner"],
             today=["relic", "saber", "amulet"])
    coins = g.players[1].doubloons
    g = g.choose("Explorer")
    texts = [str(e) for e in g.events]
    assert "the island: Beggar (seat 1), Explorer (seat 0), Quartermaster" in texts  # 3, 10, 36
    # Re-ranked to 18, the Beggar now stands between the Explorer (10) and the Pilferer's card
    # (36): at dusk, right to left, the Pilferer takes first, then Automa, then you.
    dusk = texts[texts.index("seat 1's Beggar changed nothing: it now ranks 18") + 1:]
    assert dusk[:3] == ["the Pilferer takes a saber and returns it to the bag", "seat 1's Beggar takes an amulet",
                        "seat 0's Explorer takes a relic"]
    assert g.players[1].doubloons == coins  # nobody paid her


def _texts_after(g: lt.Game, key: str) -> list[str]:
    """The events of the day that ``key`` (your pick) starts, to your next pick (first options taken)."""
    before = len(g.events)
    g = g.choose(key)
    while g.decision is not None and g.decision.kind != "play_character":
        g = g.choose(g.legal_keys()[0])
    return [str(e) for e in g.events[before:]]


def test_the_pilferer_takes_by_preference_returns_it_and_discards_his_card(rules: lt.Rules) -> None:
    """S3: his token goes back to the bag with no effect, his card to the solo discard."""
    g = _day(rules, you=["Barkeep", "Beggar", "Bandit"], automa_hand=["Explorer"], deck=["Governor", "Gunner"],
             today=["relic", "map", "barrel"])
    maps = g.bag["map"]
    texts = _texts_after(g, "Barkeep")
    after = g.choose("Barkeep")
    while after.decision is not None and after.decision.kind != "play_character":
        after = after.choose(after.legal_keys()[0])
    assert "the Pilferer plays Governor" in texts
    assert texts.index("the Pilferer takes a map and returns it to the bag") \
        < texts.index("seat 1's Explorer takes a barrel")  # he stands rightmost: he takes first
    assert after.state.solo_discard[-1] == "Governor" and after.bag["map"] == maps + 1


def test_the_pilferer_goes_left_on_a_rank_tie(rules: lt.Rules) -> None:
    """S1: with no reputation token, his card goes left of an equal rank."""
    g = _day(rules, you=["Gunner", "Scout", "Beggar"], automa_hand=["Bandit"], deck=["Gunner", "Officer"],
             today=["relic", "saber", "amulet"])
    assert "the island: Bandit (seat 1), Gunner, Gunner (seat 0)" in _texts_after(g, "Gunner")


def test_automa_takes_loot_in_her_order_and_her_saber_hits_your_lowest(rules: lt.Rules) -> None:
    """S3 and S7: Automa takes the saber before the barrel and relic; it discards your lowest-ranked."""
    g = _day(rules, you=["Barkeep", "Beggar", "Bandit"], automa_hand=["Governor"], deck=["Apprentice", "Gunner"],
             today=["relic", "barrel", "saber"], ships=(["Officer", "Explorer"], []))
    texts = _texts_after(g, "Barkeep")
    assert "the Pilferer takes a saber and returns it to the bag" not in texts  # he (2) takes after her (40)
    assert texts.index("seat 1's Governor takes a saber") < texts.index("seat 1's saber discards seat 0's Explorer")
    assert not any("discards seat 0's Officer" in t for t in texts)


def test_automas_hook_always_takes_the_doubloons(rules: lt.Rules) -> None:
    """S6: Automa declines every 'may': her hook pays 4 doubloons and keeps nobody aboard."""
    g = _new(rules, 2)
    s = g.state
    seats = (s.seats[0], attrs.evolve(s.seats[1], ship=("Barkeep",), loot=("hook",)))
    bag = dict(s.bag)
    bag["hook"] -= 1
    state = attrs.evolve(s, seats=seats, bag=tuple(bag.items()), step="anchor", sub=0, day=len(s.days),
                         decision=None, commits=(None, None))
    after = lt.Game(g.rules, _select_state(lt.Game(g.rules, state)))
    texts = [str(e) for e in after.events]
    assert "seat 1 gains 4 doubloons (hook)" in texts
    assert not any(t.startswith("seat 1 keeps") for t in texts) and after.players[1].kept == ()


def test_automas_cook_takes_its_second_token(rules: lt.Rules) -> None:
    """S4: Automa's Cook always takes a second token while one is left."""
    g = _day(rules, you=["Barkeep", "Beggar", "Bandit"], automa_hand=["Cook"], deck=["Apprentice", "Gunner"],
             today=["relic", "barrel", "chest"])
    texts = _texts_after(g, "Barkeep")
    assert "seat 1's Cook takes a chest" in texts
    assert "seat 1 takes a barrel from today's loot (Cook)" in texts  # the second token, by her preference


# ---------------------------------------------------------------- whole games
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.randoms(use_true_random=False))
def test_solo_games_keep_every_invariant(rules: lt.Rules, seed: int, choices: object) -> None:
    """Random answers for your seat: cards (with the solo deck and discard) and loot conserved every step."""
    import random

    assert isinstance(choices, random.Random)
    g = _new(rules, seed)
    while not g.is_over:
        assert g.decision is not None and g.decision.player == 0  # Automa is never asked
        after = g.choose(choices.choice(g.legal_keys()))
        check_invariants(after, g)
        g = after
    assert len(g.final_scores()) == 2


def test_a_solo_game_saves_and_loads_mid_game(rules: lt.Rules) -> None:
    """A solo save round-trips: Automa, the solo deck and discard, and the solo tiles included."""
    g = _new(rules, 9)
    for _ in range(12):
        g = g.choose(g.legal_keys()[-1])
    text = g.to_json()
    assert json.loads(text)["state"]["automa"] == 1
    again = lt.Game.from_json(text, rules)
    assert again == g and again.rules.loot_sides == g.rules.loot_sides


def test_play_out_and_choose_agree_in_solo(rules: lt.Rules) -> None:
    """play_out (live answers) and choose() reach the same final solo game, bit for bit."""
    fast = _new(rules, 4).play_out([lt.agents.RandomAgent(7)])
    agent = lt.agents.RandomAgent(7)
    slow = _new(rules, 4)
    while (d := slow.decision) is not None:
        slow = slow.choose(agent.choose(slow.observation(d.player), d))
    assert fast.state == slow.state


@pytest.mark.parametrize("loot", ["stormy", "uncharted"])
def test_solo_keeps_the_other_kinds_sides(loot: str) -> None:
    """Stormy or uncharted for the other kinds: the four solo tiles replace only their own kinds."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        rules = lt.load_rules("galecrest", loot=loot)
        game = lt.new_game(rules, 1, seed=11)
    sides = game.rules.loot_sides
    assert all(sides[k] == "automa" for k in ("hook", "saber", "amulet", "barrel"))
    assert all(sides[k] in ("calm", "stormy") for k in ("chest", "map", "relic"))
    if loot == "stormy":
        assert sides["chest"] == sides["map"] == sides["relic"] == "stormy"
    final = game.play_out([lt.agents.RandomAgent(3)])
    assert final.is_over and final.rules.loot_sides == sides


def test_your_view_shows_automas_open_hand_but_not_the_deck_order(rules: lt.Rules) -> None:
    """Automa's hand lies open (her row of six); the solo deck shows only how many cards are left."""
    g = _new(rules, 6)
    view = g.observation(0)
    assert view.automa == 1 and view.players[1].hand == g.players[1].hand and "?" not in view.players[1].hand
    assert view.solo_deck_size == len(g.state.solo_deck) == 39 - 6


def test_starting_a_solo_game_warns_that_the_deck_is_reconstructed(rules: lt.Rules) -> None:
    """Every solo card is verified: false, so starting a solo game warns, as stormy tiles do."""
    with pytest.warns(lt.UnverifiedSoloWarning, match="39 of the 39 solo cards are constructions"):
        lt.new_game(rules, 1, seed=1)
