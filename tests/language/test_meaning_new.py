"""New meanings (issue 34.2; docs/card-language.md, forms `fixed_every`, `fixed_capped`, `reputation_is`).

A rate per group pays for whole groups only, a cap bounds the amount it follows, and a threshold on
reputation counts the track's spaces from 1 (ruling E40). Each is read in every context the checker
allows (every trigger, characters and loot tiles, both editions) or refused there with the reason.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import libertalia as lt
from libertalia.language.parser import parse
from libertalia.language.render import render_ability
from libertalia.syntax import ast
from libertalia.testing.texts import text_problem
from tests.helpers import answer, coins, mod_rules, reps, start, write_cards

FILLERS = ["Quartermaster", "Governor"]


@functools.cache
def _rules(edition: str) -> lt.Rules:
    return lt.load_rules(edition)


def _amount(text: str) -> ast.Fixed:
    (ability,) = parse(text)
    amount = ability.steps[0].actions[0].amount  # type: ignore[union-attr]
    assert isinstance(amount, ast.Fixed)
    return amount


@pytest.mark.parametrize(("text", "canonical"), [
    ("sun: gain 2 doubloons for every 3 loot you hold.", None),
    ("sun: gain 2 doubloons for each 3 loot you hold.", "sun: gain 2 doubloons for every 3 loot you hold."),
    ("sun: gain 2 doubloons per 3 loot you hold.", "sun: gain 2 doubloons for every 3 loot you hold."),
    ("sun: gain 1 doubloon for every 2 characters in your ship.", None),
    ("sun: gain 1 doubloon for each relic you hold, up to 4 doubloons.", None),
    ("sun: gain 1 reputation for every 2 map you hold, up to 1 reputation.", None),
    ("sun: gain 1 doubloon for every 1 map you hold.", "sun: gain 1 doubloon for each map you hold."),
    ("sun: gain 3 doubloons if your reputation is 4 or more.", None),
    ("sun: gain 3 doubloons if your reputation is at least 4.", "sun: gain 3 doubloons if your reputation is 4 or "
                                                                 "more."),
    ("sun: if your reputation is 2 or fewer, gain 1 doubloon; otherwise lose 1 doubloon.", None),
])
def test_each_new_form_has_one_canonical_text(text: str, canonical: str | None) -> None:
    """Forms fixed_every, fixed_capped, reputation_is: each wording renders to its canonical text, which parses back
    to the same tree (`for each 3` and `per 3` are `for every 3`; `for every 1` is `for each`)."""
    abilities = parse(text)
    rendered = "\n".join(render_ability(a) for a in abilities)
    assert rendered == (canonical or text)
    assert parse(rendered) == abilities


def test_the_rate_and_the_cap_are_read_into_the_amount() -> None:
    """fixed_every and fixed_capped: the group size and the cap are fields of the amount, in its own unit."""
    assert (_amount("sun: gain 2 doubloons for every 3 loot you hold, up to 5 doubloons.").every,
            _amount("sun: gain 2 doubloons for every 3 loot you hold, up to 5 doubloons.").cap) == (3, 5)
    assert _amount("sun: gain 1 doubloon for each map you hold, up to 1 doubloon.").cap == 1


@pytest.mark.parametrize(("text", "message"), [
    ("sun: gain 2 doubloons for each map you hold, up to 3 reputation.", "a cap counts what its amount does"),
    ("sun: gain 2 doubloons for every 0 map you hold.", "a group counted has 1 or more things"),
    ("sun: gain 3 doubloons, up to 2 doubloons.", "unexpected"),
])
def test_a_cap_or_a_group_that_cannot_mean_anything_is_refused(text: str, message: str) -> None:
    """fixed_capped: a cap in another unit, on an amount with no count, or a group of 0 is refused with the reason."""
    with pytest.raises(lt.CardError, match=message):
        parse(text)


@pytest.mark.parametrize("edition", ["galecrest", "classic"])
@pytest.mark.parametrize("timing", ["sun", "dusk", "moon", "anchor"])
@pytest.mark.parametrize("amount", ["2 doubloons for every 3 character in your ship",
                                    "1 doubloon for each character in your graveyard, up to 3 doubloons",
                                    "1 doubloon for every 2 characters in your hand, up to 2 doubloons"])
def test_rates_and_caps_are_read_at_every_trigger_in_both_editions(edition: str, timing: str, amount: str) -> None:
    """fixed_every and fixed_capped are accepted wherever their count is: every trigger, both editions."""
    assert text_problem(f"{timing}: gain {amount}.", _rules(edition)) is None
    assert text_problem(f"{timing}: lose {amount}.", _rules(edition)) is None


@pytest.mark.parametrize("timing", ["dusk", "moon", "anchor"])
def test_rates_caps_and_thresholds_are_read_on_loot_tiles(timing: str) -> None:
    """The new forms work on loot tiles at every trigger a tile has."""
    for text in (f"{timing}: gain 1 doubloon for every 2 loot you hold, up to 3 doubloons.",
                 f"{timing}: gain 2 doubloons if your reputation is 3 or more."):
        assert text_problem(text, _rules("galecrest"), loot=True) is None


@pytest.mark.parametrize("timing", ["sun", "dusk", "moon", "anchor"])
def test_a_reputation_threshold_is_read_at_every_trigger_and_refused_without_a_track(timing: str) -> None:
    """reputation_is: every trigger in Galecrest; the 2012 edition has no track, so it is refused there (E40)."""
    text = f"{timing}: gain 2 doubloons if your reputation is 4 or more."
    assert text_problem(text, _rules("galecrest")) is None
    problem = text_problem(text, _rules("classic"))
    assert problem is not None and "no reputation track" in problem.message


@pytest.mark.parametrize("n", [0, 7])
def test_a_space_the_track_does_not_have_is_refused(n: int) -> None:
    """reputation_is (E40): the spaces are 1 to 6; a threshold on another number is refused, naming the range."""
    problem = text_problem(f"sun: gain 2 doubloons if your reputation is {n} or more.", _rules("galecrest"))
    assert problem is not None and "numbered 1 (the leftmost) to 6" in problem.message


def _play(tmp_path: Path, text: str, reputation: list[int], loot: list[str], doubloons: int = 0) -> lt.Game:
    rules = mod_rules(write_cards(tmp_path, {"Reckoner": (41.5, text)}))
    game = start(3, rules=rules, reputation=reputation, loot=[["chest", "amulet", "barrel"]], players=[
        {"hand": ["Reckoner", *FILLERS], "loot": loot, "doubloons": doubloons},
        {"hand": ["Explorer", *FILLERS], "doubloons": 0},
        {"hand": ["Treasurer", *FILLERS], "doubloons": 0}])
    return answer(game, "Reckoner", "Explorer", "Treasurer")


@pytest.mark.parametrize(("held", "paid"), [(0, 0), (1, 0), (2, 3), (3, 3), (5, 6), (6, 6)])
def test_for_every_2_pays_for_whole_pairs(tmp_path: Path, held: int, paid: int) -> None:
    """fixed_every: 3 doubloons for every 2 maps is 3 for each whole pair, the count divided by 2 and rounded down,
    capped at 6."""
    game = _play(tmp_path, "sun: gain 3 doubloons for every 2 map you hold, up to 6 doubloons.", [0, 1, 2],
                 ["map"] * held)
    assert coins(game)[0] == paid


@pytest.mark.parametrize(("space", "paid"), [(0, 0), (2, 0), (3, 4), (5, 4)])
def test_your_reputation_is_4_or_more_counts_spaces_from_1(tmp_path: Path, space: int, paid: int) -> None:
    """reputation_is (E40): the 4th space from the left (index 3) and beyond hold "4 or more"; the 3rd does not."""
    others = [s for s in range(6) if s != space][:2]
    game = _play(tmp_path, "sun: gain 4 doubloons if your reputation is 4 or more.", [space, *others], [])
    assert reps(game)[0] == space and coins(game)[0] == paid


GRAVEYARDS = ["another player's graveyard", "an opponent's graveyard", "any graveyard", "every graveyard",
              "the graveyard of the player on your left", "the graveyard of the player on your right"]


@pytest.mark.parametrize("place", GRAVEYARDS)
def test_other_players_graveyards_are_places_with_one_canonical_text(place: str) -> None:
    """Form others_graveyard: each graveyard place renders as written and parses back to the same tree."""
    text = f"sun: put the lowest-ranked character in {place} into your hand."
    abilities = parse(text)
    assert "\n".join(render_ability(a) for a in abilities) == text
    (zone,) = [f for f in abilities[0].steps[0].actions[0].target.np.filters]  # type: ignore[union-attr]
    assert isinstance(zone, ast.Zone) and zone.pile == "graveyard"


@pytest.mark.parametrize("edition", ["galecrest", "classic"])
@pytest.mark.parametrize("timing", ["sun", "dusk", "moon", "anchor"])
def test_other_graveyards_are_counted_and_tested_at_every_trigger_in_both_editions(edition: str, timing: str) -> None:
    """others_graveyard: counting and testing other players' graveyards is accepted at every trigger."""
    for text in (f"{timing}: gain 1 doubloon for each character in another player's graveyard.",
                 f"{timing}: gain 2 doubloons if there is a character in the graveyard of the player on your left."):
        assert text_problem(text, _rules(edition)) is None
    assert text_problem(f"{timing}: put a character from any graveyard into your hand.", _rules(edition)) is None


@pytest.mark.parametrize("timing", ["dusk", "moon", "anchor"])
def test_other_graveyards_are_read_on_loot_tiles(timing: str) -> None:
    """others_graveyard on a loot tile: the holder counts and takes from other graveyards."""
    assert text_problem(f"{timing}: gain 1 doubloon for each character in every graveyard.", _rules("galecrest"),
                        loot=True) is None


def test_any_graveyard_counts_every_graveyard_and_left_counts_the_next_seat(tmp_path: Path) -> None:
    """others_graveyard: "any graveyard" counts yours too; "the player on your left" is the next seat."""
    text = ("sun: gain 1 doubloon for each character in any graveyard, then gain 1 reputation for each character "
            "in the graveyard of the player on your left.")
    rules = mod_rules(write_cards(tmp_path, {"Reckoner": (41.5, text)}))
    game = start(3, rules=rules, reputation=[0, 1, 2], loot=[["chest", "amulet", "barrel"]], players=[
        {"hand": ["Reckoner", *FILLERS], "graveyard": ["Cook"], "doubloons": 0},
        {"hand": ["Explorer", *FILLERS], "graveyard": ["Surgeon", "Bosun"], "doubloons": 0},
        {"hand": ["Treasurer", *FILLERS], "graveyard": ["Aristocrat"], "doubloons": 0}])
    game = answer(game, "Reckoner", "Explorer", "Treasurer")
    assert coins(game)[0] == 4 and reps(game)[0] == 2


def test_a_character_taken_from_another_graveyard_is_marked_and_its_owner_loses_it(tmp_path: Path) -> None:
    """others_graveyard ("Marked names"): the card taken over from seat 1's graveyard is yours as Name#1."""
    text = "sun: put a character from another player's graveyard into your ship."
    rules = mod_rules(write_cards(tmp_path, {"Reckoner": (41.5, text)}))
    game = start(3, rules=rules, reputation=[0, 1, 2], loot=[["chest", "amulet", "barrel"]], players=[
        {"hand": ["Reckoner", *FILLERS], "graveyard": ["Cook"]},
        {"hand": ["Explorer", *FILLERS], "graveyard": ["Surgeon"]},
        {"hand": ["Treasurer", *FILLERS]}])
    game = answer(game, "Reckoner", "Explorer", "Treasurer")  # one candidate: taken without asking
    assert game.players[0].ship == ("Surgeon#1",) and game.players[1].graveyard == ()
    assert game.players[0].graveyard == ("Cook",)


@pytest.mark.parametrize(("text", "canonical"), [
    ("sun: if you hold a map, you may gain 2 doubloons; otherwise gain 1 reputation.", None),
    ("sun: if you hold a map, you may gain 2 doubloons.", None),
    ("sun: if you hold a map, gain 2 doubloons; otherwise, you may gain 1 reputation.",
     "sun: if you hold a map, gain 2 doubloons; otherwise you may gain 1 reputation."),
    ("sun: gain 2 doubloons if you hold a map, otherwise you may gain 1 reputation.",
     "sun: gain 2 doubloons if you hold a map; otherwise you may gain 1 reputation."),
])
def test_a_choice_inside_a_branch_has_one_canonical_text(text: str, canonical: str | None) -> None:
    """Forms prefix_if_may, prefix_if_may_else, postfix_if_may_else: rendered canonically, parsed back alike; the
    arm that asks is part of the meaning (a tree apart from the same step without "you may")."""
    abilities = parse(text)
    rendered = "\n".join(render_ability(a) for a in abilities)
    assert rendered == (canonical or text)
    assert parse(rendered) == abilities
    assert parse(rendered.replace("you may ", "")) != abilities


@pytest.mark.parametrize("timing", ["sun", "dusk", "moon", "anchor"])
def test_a_choice_inside_a_branch_is_read_at_every_trigger(timing: str) -> None:
    """A choice inside a branch is accepted wherever its actions are, on characters and loot tiles alike."""
    for edition in ("galecrest", "classic"):
        text = f"{timing}: if you have 5 or more doubloons, you may gain 2 doubloons; otherwise gain 1 doubloon."
        assert text_problem(text, _rules(edition)) is None
    if timing != "sun":
        assert text_problem(f"{timing}: gain 1 doubloon if you hold a chest; otherwise you may lose 1 doubloon.",
                            _rules("galecrest"), loot=True) is None


@pytest.mark.parametrize(("maps", "reply", "paid", "asked"), [
    (1, "yes", 4, True), (1, "no", 0, True), (0, None, 1, False)])
def test_the_question_is_asked_only_in_its_branch_and_a_no_does_nothing(tmp_path: Path, maps: int, reply: str | None,
                                                                         paid: int, asked: bool) -> None:
    """prefix_if_may: "if C, you may A; otherwise B" asks only when C holds; "no" runs neither A nor B."""
    text = "sun: if you hold a map, you may gain 4 doubloons; otherwise gain 1 doubloon."
    game = _play(tmp_path, text, [0, 1, 2], ["map"] * maps)
    decision = game.decision
    assert decision is not None and (decision.kind == "may") == asked
    if asked:
        assert decision.player == 0 and reply is not None
        game = answer(game, reply)
    assert coins(game)[0] == paid
