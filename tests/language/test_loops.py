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
    return f"kind: map\nside: calm\ncount: 10\ntext: |\n  {text}\n"


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


# ---------------------------------------------------------------- refused, and they really loop
def test_a_card_that_plays_itself_again_is_refused(tmp_path: Path) -> None:
    """Play edge: putting this into your hand, then playing from hand, plays it again alone in hand; refused at it."""
    err = _refused(_mod(tmp_path, {"phoenix.yaml": _card("Phoenix", 41, PHOENIX)}))
    assert err.path.endswith("phoenix.yaml") and (err.line, err.column) == (4, 38)
    assert "Phoenix's sun ability plays Phoenix onto the island" in err.message
    assert "without any player's answer" in err.message and "puts characters back into one" in err.message
    assert f"On the loop: Phoenix ({err.path}:4)" in err.message
    assert "play a character from your hand" in err.source_line and "^" in str(err)


def test_the_refused_phoenix_really_loops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the check off, the Phoenix alone in its hand plays itself until StepBudgetExceeded names it."""
    rules = _unchecked(_mod(tmp_path, {"phoenix.yaml": _card("Phoenix", 41, PHOENIX)}), monkeypatch)
    with pytest.raises(lt.StepBudgetExceeded) as caught:
        lt.new_game(rules, 3, seed=1, setup={"players": [{"hand": ["Phoenix"]}, {"hand": ["Cook"]},
                                                         {"hand": ["Cook"]}]})
    assert "Phoenix" in caught.value.sources


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


def test_a_loop_through_two_cards_is_refused_naming_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A loop split over two mod files (each plays the other) is refused, naming both files; unchecked, it loops."""
    files = {"xeno.yaml": _card("Xeno", 41, PHOENIX.replace("a character", "a Yara")),
             "yara.yaml": _card("Yara", 42, PHOENIX.replace("a character", "a Xeno"))}
    folder = _mod(tmp_path, files)
    err = _refused(folder)
    assert "Xeno's sun ability plays Yara" in err.message and "Yara's sun ability plays Xeno" in err.message
    assert str(folder / "xeno.yaml") in err.message and str(folder / "yara.yaml") in err.message
    rules = _unchecked(folder, monkeypatch)
    game = lt.new_game(rules, 3, seed=1, setup={"players": [{"hand": ["Xeno", "Yara"]}, {"hand": ["Cook"]},
                                                            {"hand": ["Cook"]}]})
    with pytest.raises(lt.StepBudgetExceeded):
        game.choose("Xeno")


def test_two_abilities_of_one_card_can_close_a_loop(tmp_path: Path) -> None:
    """One sun ability puts this into your hand, the other plays from hand: together they play the card again."""
    err = _refused(_mod(tmp_path, {"p.yaml": _card("Phoenix", 41, "sun: put this into your hand.\n  sun: play a "
                                                                  "character from your hand onto the island.")}))
    assert err.line == 5 and "Phoenix's second sun ability plays Phoenix" in err.message
    assert "Phoenix's first sun ability puts characters back into one" in err.message


def test_a_text_that_starts_many_counts_what_it_reaches(tmp_path: Path) -> None:
    """Refused when in doubt: a loop member that plays every card of a hand lets Surgeon or Innkeeper refill it."""
    err = _refused(_mod(tmp_path, {"h.yaml": _card(
        "Herald", 41, "sun: discard this, then play every character from your hand onto the island.")}))
    assert err.path.endswith("h.yaml") and "Herald's sun ability plays Herald" in err.message
    assert "starts more than one ability at a time" in err.message


def test_a_borrowing_that_fans_out_on_a_cycle_is_refused(tmp_path: Path) -> None:
    """Use edge that spreads: borrowing every island card's sun text ends by the stack, but only after n! runs."""
    err = _refused(_mod(tmp_path, {"echo.yaml": _card("Echo", 41, "sun: use the sun ability of every character on "
                                                                  "the island.")}))
    assert err.path.endswith("echo.yaml") and err.message.count("Echo's sun ability uses") == 1
    assert "starts more than one ability at a time" in err.message


def test_text_problem_refuses_what_would_loop_beside_the_rules() -> None:
    """``testing.texts.text_problem`` (what ``card_texts`` keeps) runs the loop check with the rules' cards."""
    from libertalia.testing.texts import text_problem

    rules = lt.load_rules("galecrest")
    problem = text_problem(PHOENIX, rules, names=["Phoenix"])
    assert problem is not None and "Phoenix's sun ability plays Phoenix" in problem.message
    assert text_problem(RETURNING_MAP, rules, loot=True) is not None
    assert text_problem("dusk: take a map from the bag.", rules, loot=True) is None
    assert text_problem("sun: discard this, then play a character from your hand onto the island.", rules) is None


def test_cards_check_refuses_a_loop_too(tmp_path: Path) -> None:
    """``libertalia cards check`` (``check_files``) runs the same check over the files and the edition's cards."""
    folder = _mod(tmp_path, {"phoenix.yaml": _card("Phoenix", 41, PHOENIX)})
    errors = check_files([folder])
    assert len(errors) == 1 and "Phoenix's sun ability plays Phoenix" in errors[0].message
    assert errors[0].path.endswith("phoenix.yaml")


# ---------------------------------------------------------------- accepted: every such loop ends
def test_a_loop_behind_you_may_is_accepted(tmp_path: Path) -> None:
    """A play that needs the owner's "yes" each time cannot repeat without an answer (Automa says no, S6)."""
    folder = _mod(tmp_path, {"p.yaml": _card(
        "Phoenix", 41, "sun: you may put this into your hand and play a character from your hand onto the island.")})
    assert lt.load_rules("galecrest", extra_cards=[folder]).has_card("Phoenix")


def test_a_play_loop_that_nothing_refills_is_accepted(tmp_path: Path) -> None:
    """Play edge cut: like the Scout, discarding this and playing from hand uses up the hand, which nothing refills."""
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
    """Only Scout, Apprentice, Stowaway, Smuggler, Witch and Cook start abilities; their cycles all end."""
    rules = lt.load_rules("galecrest")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stormy = lt.load_rules("galecrest", loot="stormy")
    tiles = [*rules.loot, *stormy.loot, *rules.solo_loot.values()]
    g = loops.graph(rules.characters, tiles)
    assert {g.nodes[e.src].owner for e in g.edges} == {"Scout", "Apprentice", "Stowaway", "Smuggler", "Witch", "Cook"}
    assert sorted(g.nodes[n].owner for n in loops.on_cycles(g)) == ["Apprentice", "Scout", "Witch"]
    assert loops.find_loop(g) is None
    classic = lt.load_rules("classic")
    g = loops.graph(classic.characters, classic.loot)
    assert {g.nodes[e.src].owner for e in g.edges} == {"Parrot", "Cook"}
    assert [g.nodes[n].owner for n in loops.on_cycles(g)] == ["Parrot"] and loops.find_loop(g) is None
