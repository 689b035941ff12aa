"""Texts that could start one another for ever without a player's answer are refused when the rules load."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import libertalia as lt
from libertalia.engine import flow
from libertalia.language import loops
from libertalia.loading.rules import check_files

PHOENIX = "sun: put this into your hand, then play a character from your hand onto the island."
# Each returns a map and takes one from the bag, whose dusk ability fires again (R6).
RETURNING_MAP = "dusk: return a map you hold to the bag, then take a map from the bag."


def _card(name: str, rank: float, text: str) -> str:
    return f"name: {name}\nrank: {rank}\ntext: |\n  {text}\n"


def _map(text: str) -> str:
    """A calm map tile with ``text`` first; it still scores maps in sets (the Explorer counts on that)."""
    return (f"kind: map\nside: calm\ncount: 10\ntext: |\n  {text}\n"
            "  anchor, once: gain doubloons for your map in sets (2 for 7, 3 for 12).\n")


def _mod(tmp_path: Path, files: dict[str, str], folder: str = "mod") -> Path:
    path = tmp_path / folder
    path.mkdir()
    for name, body in files.items():
        (path / name).write_text(body, encoding="utf-8")
    return path


def _refused(folder: Path) -> lt.CardError:
    with pytest.raises(lt.CardError) as caught:
        lt.load_rules("galecrest", extra_cards=[folder])
    return caught.value


def _unchecked(folder: Path, monkeypatch: pytest.MonkeyPatch) -> lt.Rules:
    """The rules with the loop check switched off (its private hook), and a tenth of the step budget."""
    monkeypatch.setattr(loops, "_ENABLED", False)
    monkeypatch.setattr(flow, "STEP_BUDGET", 10_000)
    return lt.load_rules("galecrest", extra_cards=[folder])


def _play_first_keys(game: lt.Game, decisions: int = 300) -> lt.Game:
    for _ in range(decisions):
        if game.decision is None:
            break
        game = game.choose(game.legal_keys()[0])
    return game


# ---------------------------------------------------------------- plays never loop (E26)
def test_a_card_that_plays_itself_again_is_accepted_and_acts_once(tmp_path: Path) -> None:
    """E26: putting this into your hand and playing it again lays it back on the island, without a second turn."""
    rules = lt.load_rules("galecrest", extra_cards=[_mod(tmp_path, {"phoenix.yaml": _card("Phoenix", 41, PHOENIX)})])
    game = lt.new_game(rules, 3, seed=1, setup={"players": [{"hand": ["Phoenix"]}, {"hand": ["Cook"]},
                                                           {"hand": ["Cook"]}]})
    assert (0, "Phoenix") in game.island or game.phase != "day"
    plays = [e for e in game.events if isinstance(e, lt.events.PutOnIsland) and e.card == "Phoenix"]
    assert len(plays) == 1  # it played itself once, and did not act again


def test_a_tile_that_returns_and_takes_its_kind_is_refused(tmp_path: Path) -> None:
    """Take edge (R6): a map whose dusk ability returns a map and takes one from the bag is refused at the take."""
    err = _refused(_mod(tmp_path, {"map.yaml": _map(RETURNING_MAP)}))
    assert err.path.endswith("map.yaml") and (err.line, err.column) == (5, 48)
    assert "the calm map tile's dusk ability takes a map token from the bag" in err.message
    assert "returns loot to the bag" in err.message and "On the loop: the calm map tile (" in err.message


def test_the_refused_map_really_loops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the check off, the first map taken at dusk starts the returning and taking for ever."""
    rules = _unchecked(_mod(tmp_path, {"map.yaml": _map(RETURNING_MAP)}), monkeypatch)
    with warnings.catch_warnings(), pytest.raises(lt.StepBudgetExceeded) as caught:
        warnings.simplefilter("ignore")
        game = lt.new_game(rules, 3, seed=1, setup={"players": [{"hand": ["Cook"]}] * 3,
                                                    "loot": [["map", "map", "map"]]})
        _play_first_keys(game)
    assert "map" in caught.value.sources


CHEST = "kind: chest\nside: calm\ncount: 4\ntext: |\n  {text}\n"


def test_a_loop_through_two_tiles_is_refused_naming_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A loop split over two mod files (each tile takes the other's kind back) is refused naming both; unchecked,
    it loops."""
    files = {"map.yaml": _map("dusk: return a chest you hold to the bag, then take a chest from the bag."),
             "chest.yaml": CHEST.format(text="dusk: return a map you hold to the bag, then take a map from the bag.")}
    folder = _mod(tmp_path, files)
    err = _refused(folder)
    assert "takes a chest token from the bag" in err.message and "takes a map token from the bag" in err.message
    assert str(folder / "map.yaml") in err.message and str(folder / "chest.yaml") in err.message
    rules = _unchecked(folder, monkeypatch)
    with warnings.catch_warnings(), pytest.raises(lt.StepBudgetExceeded):
        warnings.simplefilter("ignore")
        game = lt.new_game(rules, 3, seed=1, setup={"players": [{"hand": ["Cook"], "loot": ["chest", "map"]},
                                                                {"hand": ["Cook"]}, {"hand": ["Cook"]}],
                                                    "loot": [["map", "map", "map"]]})
        _play_first_keys(game)


def test_two_abilities_of_one_tile_can_close_a_loop(tmp_path: Path) -> None:
    """One dusk ability returns a map, the other takes one from the bag: together they fire the map again."""
    err = _refused(_mod(tmp_path, {"map.yaml": _map("dusk: return a map you hold to the bag.\n  dusk: take a map "
                                                    "from the bag.")}))
    assert err.line == 6 and "the calm map tile's second dusk ability takes a map token" in err.message


def test_a_borrowing_that_fans_out_on_a_cycle_is_refused(tmp_path: Path) -> None:
    """Use edge that spreads: borrowing every island card's sun text ends by the stack, but only after n! runs."""
    err = _refused(_mod(tmp_path, {"echo.yaml": _card("Echo", 41, "sun: use the sun ability of every other character "
                                                                  "on the island.")}))
    assert err.path.endswith("echo.yaml") and err.message.count("Echo's sun ability uses") == 1
    assert "starts more than one ability at a time" in err.message


def test_text_problem_refuses_what_would_loop_beside_the_rules() -> None:
    """``testing.texts.text_problem`` (what ``card_texts`` keeps) runs the loop check with the rules' cards."""
    from libertalia.testing.texts import text_problem

    rules = lt.load_rules("galecrest")
    assert text_problem(PHOENIX, rules, names=["Phoenix"]) is None  # E26: a play never loops
    problem = text_problem(RETURNING_MAP, rules, loot=True)
    assert problem is not None and "takes a map token from the bag" in problem.message
    assert text_problem("dusk: take a map from the bag.", rules, loot=True) is None
    assert text_problem("sun: discard this, then play a character from your hand onto the island.", rules) is None


def test_cards_check_refuses_a_loop_too(tmp_path: Path) -> None:
    """``libertalia cards check`` (``check_files``) runs the same check over the files and the edition's cards."""
    folder = _mod(tmp_path, {"map.yaml": _map(RETURNING_MAP)})
    errors = check_files([folder])
    assert len(errors) == 1 and "takes a map token from the bag" in errors[0].message
    assert errors[0].path.endswith("map.yaml")


# ---------------------------------------------------------------- accepted: every such loop ends
def test_a_loop_behind_you_may_is_accepted(tmp_path: Path) -> None:
    """A take that needs the owner's "yes" each time cannot repeat without an answer (Automa says no, S6)."""
    folder = _mod(tmp_path, {"map.yaml": _map("dusk: return a map you hold to the bag, then you may take a map "
                                              "from the bag.")})
    assert lt.load_rules("galecrest", extra_cards=[folder]).loot_spec("map").text.startswith("dusk: return")


def test_a_card_that_plays_from_hand_is_accepted(tmp_path: Path) -> None:
    """E26: like the Scout, discarding this and playing from hand plays a card that takes its own sun turn once."""
    folder = _mod(tmp_path, {"s.yaml": _card(
        "Herald", 0.5, "sun: discard this, then play a character from your hand onto the island.")})
    rules = lt.load_rules("galecrest", extra_cards=[folder])
    game = lt.new_game(rules, 3, seed=1, setup={"players": [{"hand": ["Herald", "Scout"]}, {"hand": ["Cook"]},
                                                            {"hand": ["Cook"]}]})
    game = game.choose("Herald")  # plays the Scout, which has nothing left to play
    assert {"Herald", "Scout"} <= set(game.players[0].graveyard)


def test_a_tile_taking_its_own_kind_from_the_bag_is_accepted_and_ends(tmp_path: Path) -> None:
    """Take edge cut: each firing take empties the bag by one, and nothing returns loot, so the bag runs out."""
    folder = _mod(tmp_path, {"map.yaml": _map("dusk: take a map from the bag.")})
    rules = lt.load_rules("galecrest", extra_cards=[folder])
    game = lt.new_game(rules, 3, seed=1, setup={"players": [{"hand": ["Cook", "Bosun", "Captain"]}] * 3,
                                                "loot": [["map", "map", "map"], ["chest", "chest", "chest"]]})
    game = game.choose("Cook").choose("Cook").choose("Cook")  # day 1 runs to day 2's question
    held = sum(p.loot.count("map") for p in game.players)
    assert game.day == 2 and game.bag["map"] == 0 and held + sum(d.count("map") for d in game.state.days) == 10


def test_a_take_and_use_loop_is_ended_by_the_stack(tmp_path: Path) -> None:
    """Use edge: a tile borrowing a dusk text that takes again stops at the cards whose text is already running."""
    folder = _mod(tmp_path, {"diver.yaml": _card("Diver", 41, "dusk: take a map from the bag."),
                             "map.yaml": _map("dusk: use the dusk ability of a character on the island.")})
    rules = lt.load_rules("galecrest", extra_cards=[folder])
    hands = [{"hand": ["Diver", "Bosun", "Captain"]}, *[{"hand": ["Cook", "Bosun", "Captain"]}] * 2]
    game = lt.new_game(rules, 3, seed=1, setup={"players": hands,
                                                "loot": [["map", "map", "map"], ["chest", "chest", "chest"]]})
    game = game.choose("Diver").choose("Cook").choose("Cook")
    while game.day == 1:  # the order of the Diver's abilities, and which Cook it borrows
        game = game.choose(game.legal_keys()[0])
    assert game.day == 2 and game.players[0].loot.count("map") >= 3  # its dusk take, and a borrowed Cook's


# ---------------------------------------------------------------- the bundled cards
def test_the_bundled_graph_has_few_edges_and_no_refused_cycle() -> None:
    """Only Apprentice, Stowaway, Smuggler, Witch and Cook start abilities (plays none, E26); no refused cycle."""
    rules = lt.load_rules("galecrest")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stormy = lt.load_rules("galecrest", loot="stormy")
    tiles = [*rules.loot, *stormy.loot, *rules.solo_loot.values()]
    g = loops.graph(rules.characters, tiles)
    assert {g.nodes[e.src].owner for e in g.edges} == {"Apprentice", "Stowaway", "Smuggler", "Witch", "Cook"}
    assert sorted(g.nodes[n].owner for n in loops.on_cycles(g)) == ["Apprentice", "Witch"]
    assert loops.find_loop(g) is None
    classic = lt.load_rules("classic")
    g = loops.graph(classic.characters, classic.loot)
    assert {g.nodes[e.src].owner for e in g.edges} == {"Cook"}
    assert loops.on_cycles(g) == [] and loops.find_loop(g) is None
