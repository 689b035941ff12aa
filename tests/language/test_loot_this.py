"""``this KIND`` on a loot tile (issue 34.2, form ``this_token`` in docs/card-language.md): the very token the
tile's ability runs for, given away or returned by its holder while they are sure to hold it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import libertalia as lt
from tests.language.test_meaning_loot import first_day, load

SETUP = {"players": [{"hand": ["Taker", "Cook"], "loot": ["relic", "map"], "doubloons": 5},
                     {"hand": ["Idler", "Cook"], "doubloons": 5}], "loot": [["relic", "chest"]]}


def _rules(folder: Path, tile: str, kind: str = "relic") -> lt.Rules:
    load(folder, {"Taker": "sun: gain 1 doubloon."})
    count = dict(lt.load_rules("galecrest").board.bag)[kind]
    (folder / "tile.yaml").write_text(f"kind: {kind}\nside: calm\ncount: {count}\ntext: |\n  {tile}\n",
                                      encoding="utf-8")
    return lt.load_rules("galecrest", extra_cards=[folder], loot={kind: "calm"})


def _day(tmp_path: Path, tile: str) -> tuple[Any, ...]:
    seats, bag = first_day(_rules(tmp_path / "mod", tile), "Taker", SETUP)
    return seats, dict(bag)


def test_control_the_taker_keeps_both_relics(tmp_path: Path) -> None:
    """this_token: without it, the taker holds the relic it took beside the one it had."""
    seats, _ = _day(tmp_path, "dusk: gain 2 doubloons.")
    assert seats[0][1] == ["map", "relic", "relic"]


def test_this_relic_is_given_and_the_other_relic_stays(tmp_path: Path) -> None:
    """this_token: "give this relic to …" moves the one token the tile ran for; the holder's other relic stays."""
    seats, _ = _day(tmp_path, "dusk: gain 2 doubloons, then give this relic to the player on your left.")
    assert seats[0][1] == ["map", "relic"]
    assert "relic" in seats[1][1]
    assert seats[0][0] == 8  # 5, the Taker's 1 and the tile's 2


@pytest.mark.parametrize("verb", ["return this relic to the bag", "discard this relic",
                                  "return this token to the bag"])
def test_this_relic_goes_back_to_the_bag_alone(tmp_path: Path, verb: str) -> None:
    """this_token: returned (or discarded, read as returned) it is one relic back in the bag; the other stays."""
    control_seats, control_bag = _day(tmp_path / "a", "dusk: gain 2 doubloons.")
    seats, bag = _day(tmp_path / "b", f"dusk: {verb}.")
    assert seats[0][1] == ["map", "relic"]
    assert bag["relic"] == control_bag["relic"] + 1
    assert seats[1][1] == control_seats[1][1]


def test_this_token_reads_as_the_tiles_kind(tmp_path: Path) -> None:
    """this_token: "this token" on the relic tile is "this relic" in canonical words."""
    rules = _rules(tmp_path / "mod", "dusk: give this token to the player on your left.")
    tile = next(t for t in rules.loot if t.kind == "relic")
    from libertalia.language.render import render_ability
    assert render_ability(tile.abilities[0]) == "dusk: give this relic to the player on your left."


def test_same_seed_same_game(tmp_path: Path) -> None:
    """Determinism: the same seed and answers play the same game with this_token."""
    rules = _rules(tmp_path / "mod", "dusk: give this relic to the player on your left.")
    assert first_day(rules, "Taker", SETUP, seed=3) == first_day(rules, "Taker", SETUP, seed=3)


def _refused(tmp_path: Path, text: str, kind: str | None = "relic") -> lt.CardError:
    folder = tmp_path / "mod"
    folder.mkdir(parents=True, exist_ok=True)
    if kind is None:
        body = f"name: Fan\nrank: 41.5\ntext: |\n  {text}\n"
    else:
        count = dict(lt.load_rules("galecrest").board.bag)[kind]
        body = f"kind: {kind}\nside: calm\ncount: {count}\ntext: |\n  {text}\n"
    (folder / "fan.yaml").write_text(body, encoding="utf-8")
    with pytest.raises(lt.CardError) as info:
        lt.load_rules("galecrest", extra_cards=[folder], loot={kind: "calm"} if kind else None)
    return info.value


@pytest.mark.parametrize(("text", "kind", "says"), [
    ("sun: give this relic to the player on your left.", None, "a character has no token"),
    ("moon: return this map to the bag.", "relic", "on the relic tile"),
    ("moon, once: return this relic to the bag.", "relic", '"once" ability'),
    ("moon: every other player returns this relic to the bag.", "relic", "returns loot they hold"),
    ("dusk: give this relic to the player on your left, then return this relic to the bag.", "relic",
     "may no longer be held"),
    ("moon: return a loot you hold to the bag, then give this relic to the player on your right.", "relic",
     "may no longer be held"),
])
def test_refused_where_this_names_no_held_token(tmp_path: Path, text: str, kind: str | None, says: str) -> None:
    """this_token: refused on a character, for another kind, with once, outside give/return, and once it may be gone."""
    assert says in _refused(tmp_path, text, kind).message


def test_choice_arms_each_start_with_the_token_held(tmp_path: Path) -> None:
    """this_token: the arms of one choice exclude each other, so each may name the token."""
    rules = _rules(tmp_path / "mod", "moon: choose one: give this relic to the player on your left; "
                                     "or return this relic to the bag.")
    assert any(t.kind == "relic" for t in rules.loot)


def test_you_did_after_this_relic_is_returned(tmp_path: Path) -> None:
    """this_token: a price like any loot you hold: "if you did" after returning it holds, and pays."""
    seats, _ = _day(tmp_path, "dusk: return this relic to the bag, then gain 3 doubloons if you did.")
    assert seats[0][0] == 9 and seats[0][1] == ["map", "relic"]  # 5, the Taker's 1 and 3


def test_discard_this_on_a_tile_points_to_this_kind(tmp_path: Path) -> None:
    """this_token: "discard this" on a tile names a character and is refused; the fix offered names the token."""
    err = _refused(tmp_path, "moon: discard this.", "map")
    assert "not a character" in err.message and '"return this map to the bag"' in err.expected
