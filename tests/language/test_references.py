"""Words that point back are bound to one earlier step at load, or refused (E27), and run as bound."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import libertalia as lt
from tests.helpers import at, coins, mod_rules, reps, write_cards

# Ranks no bundled Galecrest character has.
MOD = {
    "Assessor": (30.5, "sun: discard a character from any ship, then gain 2 doubloons if it was in your ship."),
    "Presentist": (31.5, "sun: discard a character from any ship, then gain 2 doubloons if it is in your ship."),
    "Tallyman": (32.5, "sun: return every map you hold to the bag, then discard a character in your ship, "
                       "then gain 1 doubloon for each one returned."),
    "Prowler": (33.5, "sun: discard a character in an opponent's ship, then gain 3 doubloons if you did."),
    "Taxman": (34.5, "sun: the owner of every character in another player's ship loses 2 doubloons."),
    "Pilot": (35.5, "sun: choose one: take a loot from tomorrow's loot; or gain 1 doubloon."),
    "Switcher": (36.5, "sun: discard the rightmost other character on the island if you hold a map; "
                       "otherwise discard the leftmost other character on the island, then its owner gains 1 "
                       "reputation."),
    "Hesitant": (37.5, "sun: you may discard a character in your ship and its owner gains 1 reputation."),
    "Collector": (4.5, "dusk: gain 3 doubloons."),
    "Lookout": (3.5, "sun: gain 2 doubloons."),
    "Deckhand": (5.5, "moon: gain 1 doubloon."),
    "Avenger": (38.5, "sun: discard the rightmost other character on the island, then its owner discards a "
                      "character from their hand."),
    "Benefactor": (40.5, "sun: choose one: give a map you hold to the owner of a character in an opponent's ship; "
                         "or discard a character in an opponent's ship, then its owner gains 2 doubloons."),
    "Prober": (39.5, "sun: the player on your left discards a character from their hand, then gain 2 doubloons "
                     "if it was ranked above 20."),
    "Inspector": (6.5, "sun: the owner of a character on the island discards a character from their ship."),
    "Mimic": (7.5, "sun: you may use the sun ability of a character in your ship."),
    "Leveller": (8.5, "sun: each player with the most doubloons loses 2 doubloons."),
    "Sexton": (9.5, "sun: discard a character in your ship, then gain 3 doubloons if it is the lowest-ranked "
                    "character in your graveyard."),
}


_write, _load = write_cards, mod_rules


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    return _load(_write(tmp_path_factory.mktemp("references"), MOD))


def _refused(tmp_path: Path, text: str) -> str:
    folder = _write(tmp_path / "mod", {"Oddity": (38.5, text)})
    with pytest.raises(lt.CardError) as info:
        _load(folder)
    return str(info.value)


def _sun(rules: lt.Rules, card: str, *, day: int = 1, seat0: dict[str, Any] | None = None,
         others: tuple[dict[str, Any], ...] = ({}, {})) -> lt.Game:
    """Seat 0 plays ``card`` alone on voyage 1, ``day``; the other seats play a Deckhand each."""
    players = [{"hand": [card], **(seat0 or {})}, *({"hand": ["Deckhand"], **o} for o in others)]
    return lt.new_game(rules, 3, seed=0, setup={
        "voyage": 1, "day": day, "reputation": [0, 1, 2],
        "loot": [["chest", "map", "relic"]] * (5 - day), "players": players})


# ---------------------------------------------------------------- tense
def test_was_reads_the_character_as_it_stood_before_the_discard(rules: lt.Rules) -> None:
    """E27: "if it was in your ship" after a discard reads where it was (your ship), not the graveyard."""
    g = _sun(rules, "Assessor", seat0={"ship": ["Lookout"], "doubloons": 0})
    assert coins(g)[0] == 2
    assert g.players[0].graveyard == ("Lookout",)


def test_was_is_false_for_a_character_from_another_ship(rules: lt.Rules) -> None:
    """E27: the discarded card was in another player's ship, so "was in your ship" is false."""
    g = _sun(rules, "Assessor", seat0={"doubloons": 0}, others=({"ship": ["Lookout"]}, {}))
    assert coins(g)[0] == 0


def test_is_reads_the_present(rules: lt.Rules) -> None:
    """E27: "if it is in your ship" reads the card now, in its graveyard: never true after a discard."""
    g = _sun(rules, "Presentist", seat0={"ship": ["Lookout"], "doubloons": 0})
    assert coins(g)[0] == 0


def test_was_of_this_is_refused(tmp_path: Path) -> None:
    """E27: "this" has no earlier moment, so "this was ..." is refused with the fix."""
    message = _refused(tmp_path, "sun: gain 1 doubloon if this was owned by you.")
    assert "has no such action" in message and '"this is …"' in message


# ---------------------------------------------------------------- number
def test_a_singular_it_after_every_is_refused(tmp_path: Path) -> None:
    """E27: after "every ..." the singular "its owner" could mean any of them: refused, naming the binder."""
    message = _refused(tmp_path, "sun: discard every character in your ship, then its owner gains 1 reputation.")
    assert '"its owner" names one character, but "every character in your ship" can name several' in message


def test_a_singular_it_after_a_pick_in_each_ship_is_refused(tmp_path: Path) -> None:
    """E27: "a character in each opponent's ship" names one per ship, so "it" is refused after it."""
    message = _refused(tmp_path, "sun: discard a character in each opponent's ship, then gain 1 doubloon if it "
                                 "was owned by another player.")
    assert "can name several" in message


def test_the_owner_of_every_character_acts_once_per_owner(rules: lt.Rules) -> None:
    """E21: seat 1 owns two such characters and loses 2 doubloons once, not twice."""
    g = _sun(rules, "Taxman", others=({"ship": ["Lookout", "Collector"], "doubloons": 10}, {"doubloons": 10}))
    assert coins(g)[1] == 10 - 2
    assert coins(g)[2] == 10


# ---------------------------------------------------------------- counters
def test_one_returned_counts_the_return_not_the_last_action(rules: lt.Rules) -> None:
    """E27: "for each one returned" counts the two maps returned, though a discard came in between."""
    g = _sun(rules, "Tallyman", seat0={"ship": ["Lookout"], "loot": ["map", "map"], "doubloons": 0})
    assert coins(g)[0] == 2
    assert g.players[0].loot == () and g.players[0].graveyard == ("Lookout",)


def test_a_counter_with_no_action_of_its_verb_is_refused(tmp_path: Path) -> None:
    """E27: "one returned" after a discard has nothing to count: refused, saying what it needs."""
    message = _refused(tmp_path, "sun: discard a character in your ship, then draw 1 random loot from the bag "
                                 "for each one returned.")
    assert "nothing earlier in this ability is returned" in message


def test_space_moved_needs_a_move(tmp_path: Path) -> None:
    """E27: "space moved" with no "move your reputation" before it is refused."""
    message = _refused(tmp_path, "sun: gain 1 doubloon for each space moved.")
    assert "space moved" in message


# ---------------------------------------------------------------- you did
def test_you_did_reads_the_previous_part(rules: lt.Rules) -> None:
    """E27: "if you did" is whether a character was discarded: with none to discard, nothing is gained."""
    assert coins(_sun(rules, "Prowler", seat0={"doubloons": 0}))[0] == 0
    g = _sun(rules, "Prowler", seat0={"doubloons": 0}, others=({"ship": ["Lookout"]}, {}))
    assert coins(g)[0] == 3


def test_you_did_after_two_actions_is_refused(tmp_path: Path) -> None:
    """E27: after "X and Y" the words "you did" could mean either: refused, naming both."""
    message = _refused(tmp_path, "sun: take a map from the bag and gain 1 doubloon, then gain 2 reputation if "
                                 "you did.")
    assert '"you did" could mean any of "take a map from the bag" or "gain 1 doubloon"' in message


def test_you_did_in_the_first_part_is_refused(tmp_path: Path) -> None:
    """E27: "you did" in the first part of an ability has nothing to speak of."""
    message = _refused(tmp_path, "sun: gain 2 reputation if you did.")
    assert "needs an earlier sentence part" in message


# ---------------------------------------------------------------- branches
def test_it_after_branches_means_the_branch_that_ran(rules: lt.Rules) -> None:
    """E27: "its owner" after "discard A if …; otherwise discard B" is the owner of whichever was discarded."""
    for seat0 in ({}, {"loot": ["map"]}):
        g = _sun(rules, "Switcher", seat0=seat0)
        loser = next(s for s in (1, 2) if g.players[s].graveyard == ("Deckhand",))
        assert all(g.players[s].graveyard == () for s in (0, 1, 2) if s != loser)
        assert reps(g)[loser] == loser + 1  # its owner, and only its owner, gained 1 reputation


def test_a_may_whose_later_action_depends_on_the_first_is_offered(rules: lt.Rules) -> None:
    """R1/E25: "you may discard X and its owner gains 1" is asked when X exists (its owner is known after)."""
    g = _sun(rules, "Hesitant", seat0={"ship": ["Lookout"]})
    at(g, "may", 0)
    g = g.choose("yes")
    assert g.players[0].graveyard == ("Lookout",)


def _sun_changes(game: lt.Game, card: str) -> list[tuple[int, int]]:
    """The (seat, doubloons) changes ``card``'s ability made, in order."""
    return [(e.seat, e.amount) for e in game.events if e.kind == "doubloons" and e.source == card]


def test_it_about_nobody_is_never_the_lowest_ranked(rules: lt.Rules) -> None:
    """E27: "if it is the lowest-ranked …" about a discard that found no character is unknown, so nothing is paid."""
    assert _sun_changes(_sun(rules, "Sexton"), "Sexton") == []
    assert _sun_changes(_sun(rules, "Sexton", seat0={"ship": ["Lookout"]}), "Sexton") == [(0, 3)]


@pytest.mark.parametrize(("purses", "losers"), [((5, 9, 3), [1]), ((9, 4, 9), [0, 2])])
def test_each_player_with_the_most_is_every_seat_tied_for_the_top(rules: lt.Rules, purses: tuple[int, ...],
                                                                  losers: list[int]) -> None:
    """E30: "each player with the most doubloons" names the richest seat, or every seat tied at the top."""
    g = _sun(rules, "Leveller", seat0={"doubloons": purses[0]},
             others=({"doubloons": purses[1]}, {"doubloons": purses[2]}))
    assert _sun_changes(g, "Leveller") == [(seat, -2) for seat in losers]


# ---------------------------------------------------------------- options and borrowing
def test_the_owner_of_a_character_is_picked_only_where_they_can_act(rules: lt.Rules) -> None:
    """E25: of the island's owners, only one with a character in their ship can discard one: taken unasked."""
    g = _sun(rules, "Inspector", others=({}, {"ship": ["Lookout"]}))
    assert g.players[2].graveyard == ("Lookout",) and g.players[2].ship == ()
    assert g.players[0].graveyard == () and g.players[1].graveyard == ()


def test_an_option_that_cannot_happen_is_not_offered(rules: lt.Rules) -> None:
    """E25: on the voyage's last day there is no tomorrow's loot: only "gain 1 doubloon" is left, unasked."""
    g = _sun(rules, "Pilot", day=4, seat0={"doubloons": 0})
    assert coins(g)[0] == 1
    assert g.decision is None or g.decision.kind != "choose_option"
    first = _sun(rules, "Pilot", day=1)
    at(first, "choose_option", 0)
    assert first.legal_keys() == ("1", "2")


def test_borrowing_is_offered_only_where_a_ship_holds_an_ability_of_the_timing(rules: lt.Rules) -> None:
    """E25/E18: "you may use the sun ability of a character in your ship" is not asked where none has one."""
    quiet = _sun(rules, "Mimic", seat0={"ship": ["Deckhand"]})
    assert quiet.phase == "dusk" and not any(e.kind == "borrow" for e in quiet.events)  # the day went on unasked
    at(_sun(rules, "Mimic", seat0={"ship": ["Lookout"]}), "may", 0)


def test_a_loot_tile_can_borrow_the_takers_ability(tmp_path: Path) -> None:
    """E18/R10: a chest whose dusk ability uses the taker's dusk ability runs it: the Collector gains 3 twice."""
    cards = _write(tmp_path / "cards", {"Collector": (4.5, "dusk: gain 3 doubloons.")})
    (tmp_path / "cards" / "chest.yaml").write_text(
        "kind: chest\nside: calm\ncount: 4\ntext: |\n  dusk: use the dusk ability of the character that took this.\n",
        encoding="utf-8")
    rules = _load(cards)
    g = lt.new_game(rules, 3, seed=0, setup={
        "voyage": 1, "day": 1, "reputation": [0, 1, 2], "loot": [["chest"]] * 4,
        "players": [{"hand": ["Collector"]}, {"hand": []}, {"hand": []}]})
    at(g, "order_abilities", 0)
    g = g.choose("chest")
    gains = [e for e in g.events if e.kind == "doubloons" and e.seat == 0 and e.source == "Collector"]
    assert [(e.source, e.amount) for e in gains] == [("Collector", 3), ("Collector", 3)]
    assert any(e.kind == "borrow" and e.seat == 0 for e in g.events)


def test_borrowing_from_itself_is_refused(tmp_path: Path) -> None:
    """E18: "use the sun ability of this" would run nothing: refused."""
    assert "cannot use its own ability" in _refused(tmp_path, "sun: use the sun ability of this.")


def test_a_borrow_target_that_could_name_itself_must_say_other(tmp_path: Path) -> None:
    """E18: "the leftmost character on the island" may be this card: refused with the fix "other"."""
    message = _refused(tmp_path, "sun: use the sun ability of the leftmost character on the island.")
    assert "can name this character itself" in message and '"the leftmost other character' in message


def test_count_extra_of_a_kind_nothing_scores_in_sets_is_refused(tmp_path: Path) -> None:
    """R14/E2: "count 1 extra barrel" changes nothing when no ability scores barrels in sets: refused."""
    message = _refused(tmp_path, "anchor: count 1 extra barrel.")
    assert "calm barrel tile" in message and "scores no barrel in sets" in message and "oddity.yaml:4" in message


# ---------------------------------------------------------------- their (E32)
@pytest.mark.parametrize(("text", "word"), [
    ("sun: discard a character from their hand.", "their"),
    ("sun: gain 1 doubloon if there is a character in their ship.", "their"),
    ("sun: return a loot they hold to the bag.", "they"),
    ("sun: return every loot you hold but 1 of their choice to the bag.", "of their choice"),
    ("sun: gain 1 doubloon for each character in their ship.", "their"),
])
def test_their_with_no_player_it_speaks_of_is_refused(tmp_path: Path, text: str, word: str) -> None:
    """E32: "their", "they hold" and "of their choice" need a clause's player, a player acting, or the player
    an amount is said of (tests/language/test_meaning_places.py); your own gain has none."""
    message = _refused(tmp_path, text)
    assert f'"{word}' in message and "speaks of the player a clause or an action is about" in message
    assert message.splitlines()[2].index("^") == message.splitlines()[1].index(word.split()[-2 if " " in word
                                                                                              else 0])


def test_their_means_the_player_who_acts(rules: lt.Rules) -> None:
    """E32: after "its owner" the acting player is the discarded card's owner, and "their hand" is theirs."""
    g = _sun(rules, "Avenger", others=({"hand": ["Deckhand", "Lookout"]},
                                       {"hand": ["Deckhand", "Lookout", "Collector"]}))
    g = g.choose("Deckhand").choose("Deckhand")  # the plays of seats 1 and 2
    at(g, "choose_character", 2)  # seat 2's Deckhand was rightmost of the others (reputation): seat 2 picks
    assert [o.key for o in g.decision.options] == ["Lookout", "Collector"]
    g = g.choose("Collector")
    assert [p.graveyard for p in g.players] == [(), (), ("Deckhand", "Collector")]
    assert g.players[1].hand == ("Lookout",)


def test_it_after_one_player_discards_for_themselves(rules: lt.Rules) -> None:
    """E27, E32: one player picking one card binds "it": "it was ranked above 20" reads the card they discarded."""
    def game(second: str) -> lt.Game:
        return _sun(rules, "Prober", seat0={"doubloons": 0}, others=({"hand": ["Deckhand", second]}, {})).choose(
            "Deckhand")

    low, high = game("Lookout"), game("Assessor")
    assert (low.players[1].graveyard, coins(low)[0]) == (("Lookout",), 0)
    assert (high.players[1].graveyard, coins(high)[0]) == (("Assessor",), 2)


def test_it_after_several_players_discard_is_refused(tmp_path: Path) -> None:
    """E27, E32: after "each opponent discards …" the singular "its owner" could mean any of their cards."""
    message = _refused(tmp_path, "sun: each opponent discards a character from their hand, then its owner gains 1 "
                                 "reputation.")
    assert '"its owner" names one character' in message


# ---------------------------------------------------------------- binders merged across the arms of a choice
def test_its_owner_after_a_choice_reads_the_character_that_named_the_receiver(rules: lt.Rules) -> None:
    """E27: after "choose one", "its owner" of the giving arm is the owner of the character that named the
    receiver; the gift's own record (its tokens) is kept apart from that character."""
    g = _sun(rules, "Benefactor", seat0={"loot": ["map"]},
             others=({"ship": ["Lookout"]}, {"ship": ["Lookout"]}))
    at(g, "choose_option", 0)
    g = g.choose("1")
    at(g, "choose_character", 0)
    g = g.choose("Lookout@1")
    assert [p.loot for p in g.players] == [(), ("map",), ()]
    assert coins(g) == [0, 2, 0]


def test_two_words_reading_one_actions_two_records_after_a_choice_are_refused(tmp_path: Path) -> None:
    """E27: "it" (the character naming the receiver) and "you did" (the gift) after one choice would share
    one record: refused, not run with one of them wrong."""
    message = _refused(tmp_path, "sun: choose one: give a map you hold to the owner of a character in an "
                                 "opponent's ship; or discard a character in an opponent's ship, then discard it "
                                 "if you did.")
    assert "point back at one action's different records" in message
