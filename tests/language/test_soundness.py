"""What the checker accepts runs exactly as written; what could not is refused with a reason (issue 8).

The first group replays the failures a modder met (a hang, a lost card, actions that did less than
their words); the second pins each refusal of the checker, with the sentence that would work.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import libertalia as lt
import libertalia.testing
from libertalia.agents import RandomAgent


def mod(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "mod"
    folder.mkdir(exist_ok=True)
    for name, body in files.items():
        (folder / f"{name}.yaml").write_text(body, encoding="utf-8")
    return folder


def character(name: str, rank: float, text: str) -> str:
    return f"name: {name}\nrank: {rank}\ntext: |\n  {text}\n"


def refusal(tmp_path: Path, text: str, loot_kind: str | None = None) -> lt.CardError:
    """The error loading ``text`` as a fan card (or a calm loot tile of ``loot_kind``) raises."""
    if loot_kind is None:
        body = character("Fan", 41.5, text)
    else:
        count = dict(lt.load_rules("galecrest").board.bag)[loot_kind]
        body = f"kind: {loot_kind}\nside: calm\ncount: {count}\ntext: |\n  {text}\n"
    with pytest.raises(lt.CardError) as info:
        lt.load_rules("galecrest", extra_cards=[mod(tmp_path, fan=body)])
    return info.value


# ---------------------------------------------------------------- what went wrong, honoured
def test_two_borrowers_of_each_other_terminate(tmp_path: Path) -> None:
    """Two seats' cards that borrow each other's dusk ability never loop: no ability runs inside itself."""
    text = "dusk: use the dusk ability of the rightmost other character on the island ranked below 42."
    rules = lt.load_rules("galecrest", extra_cards=[mod(tmp_path, echo=character("Echo", 41.5, text),
                                                        mirror=character("Mirror", 41.7, text))])
    setup = {"players": [{"hand": ["Echo", "Cook", "Governor"]}, {"hand": ["Echo", "Cook", "Governor"]},
                         {"hand": ["Mirror", "Cook", "Governor"]}], "loot": [["chest", "amulet", "relic"]]}
    game = lt.new_game(rules, 3, seed=1, setup=setup)
    for key in ("Echo", "Echo", "Mirror"):
        game = game.choose(key)
    steps = 0
    while game.decision is not None and game.day == 1 and steps < 50:
        game = game.choose(game.legal_keys()[0])
        steps += 1
    assert game.day == 2 or game.decision is None
    libertalia.testing.check_invariants(game)


def test_borrower_games_play_to_the_end(tmp_path: Path) -> None:
    """Whole random games with mutual borrowers end, keeping every invariant."""
    text = "dusk: use the dusk ability of the rightmost other character on the island ranked below 42."
    rules = lt.load_rules("galecrest", extra_cards=[mod(tmp_path, echo=character("Echo", 41.5, text))])
    for seed in range(5):
        final = lt.play(rules, [RandomAgent(seed * 10 + i) for i in range(4)], seed=seed)
        assert final.is_over
        libertalia.testing.check_invariants(final)


def test_owner_of_every_other_character(tmp_path: Path) -> None:
    """'the owner of every other character on the island loses 2 doubloons' hits every owner, not the first."""
    rules = lt.load_rules("galecrest", extra_cards=[mod(tmp_path, fan=character(
        "Fan", 41.5, "sun: the owner of every other character on the island loses 2 doubloons."))])
    seats = [{"hand": ["Fan", "Cook", "Governor"], "doubloons": 5}, {"hand": ["Explorer", "Cook"], "doubloons": 5},
             {"hand": ["Treasurer", "Cook"], "doubloons": 5}]
    game = lt.new_game(rules, 3, seed=0, setup={"players": seats, "loot": [["chest", "amulet", "relic"]]})
    for key in ("Fan", "Explorer", "Treasurer"):
        game = game.choose(key)
    assert [p.doubloons for p in game.players] == [5, 3, 3]


def test_moon_borrowing_a_sun_text_is_refused(tmp_path: Path) -> None:
    """A moon ability cannot borrow a sun text (a Scout's play at night would lose the card)."""
    err = refusal(tmp_path, "moon: use the sun ability of a character in your ship.")
    assert "a moon ability can only use moon abilities" in err.message
    assert err.expected == "use the moon ability of …"


def test_play_after_day_is_refused(tmp_path: Path) -> None:
    """'play … onto the island' is refused outside the day: the card would never reach a ship."""
    err = refusal(tmp_path, "dusk: play a character from your hand onto the island.")
    assert "only be played onto the island by day" in err.message


def test_sun_on_loot_is_refused(tmp_path: Path) -> None:
    """A loot tile has no daytime ability: 'sun:' on loot is refused, naming the timings that work."""
    err = refusal(tmp_path, "sun: gain 1 doubloon.", "barrel")
    assert "no daytime ability" in err.message and err.expected == "dusk, moon or anchor"


@pytest.mark.parametrize(("text", "words"), [
    ("moon: discard a character on the island.", "the island is empty"),
    ("anchor: gain 2 doubloons if this is the rightmost character on the island.", "the island is empty"),
    ("moon: gain 1 doubloon if this is on the island.", "the island is empty"),
    ("moon: take a loot from today's loot.", "today's loot is gone by night"),
    ("anchor: swap a loot you hold with a loot in tomorrow's loot.", "no tomorrow's loot"),
    ("moon: gain 2 doubloons if you just took a map.", '"you just took" speaks of the loot taken at dusk'),
    ("moon: discard the character left of this.", "the island is empty"),
    ("sun: give a map you hold to every other player.", "one player only"),
    ("sun: swap every map you hold with a loot from an adjacent player.", "one token for one token"),
    ("sun: swap a loot you hold with a loot you hold.", "two different places"),
    ("sun: move your reputation to the lowest-ranked space.", "leftmost or rightmost"),
    ("sun: take 1 or 2 loot from today's loot.", "of one kind"),
    ("sun: discard a characters in your ship.", 'say "character" for one character'),
    ("sun: gain 1 doubloon, then take no loot.", "standing rule"),
])
def test_checker_refuses_what_cannot_run(tmp_path: Path, text: str, words: str) -> None:
    """Each sentence that could not run as written is refused with a reason."""
    assert words in str(refusal(tmp_path, text))


@pytest.mark.parametrize(("text", "kind", "words"), [
    ("moon: discard the character that took this.", "saber", "known only at dusk"),
    ("anchor: gain 2 doubloons if the character that took this is ranked above 20.", "chest", "known only at dusk"),
    ("moon: use the moon ability of a character in your ship.", "chest", "only at dusk"),
])
def test_checker_refuses_loot_sentences_that_cannot_run(tmp_path: Path, text: str, kind: str, words: str) -> None:
    """On loot, the taker exists only at dusk, and so does borrowing through it."""
    assert words in str(refusal(tmp_path, text, kind))


# ---------------------------------------------------------------- errors a modder can act on
@pytest.mark.parametrize(("text", "unexpected", "hint"), [
    # a meaning the language has no words for is named in the words written (language/intents.py)
    ("sun: gain 2 doubloons if your reputation is above 3.", "'reputation is above'",
     'only as "your reputation is N or more"'),
    ("sunrise: gain 2 doubloons.", "unexpected word 'sunrise'", 'did you mean "sun"'),
    ("sun: discard a charcter in your ship.", "unexpected word 'charcter'", 'did you mean "character"'),
    ("sun: gain 2 doubloons if youhold a map.", "unexpected word 'youhold'", '"you"'),
])
def test_whole_words_in_errors(text: str, unexpected: str, hint: str) -> None:
    """The lexer reads whole words: errors name the word as written and what would fit."""
    with pytest.raises(lt.CardError) as info:
        lt.parse(text)
    message = str(info.value)
    assert unexpected in message and hint in message
    assert "..." not in message and "…" not in message  # the expected words are never cut short


def test_caret_points_at_the_word() -> None:
    """The caret sits under the first letter of the offending word."""
    with pytest.raises(lt.CardError) as info:
        lt.parse("sun: gain 2 doubloons if you hold 3 maps.")
    assert info.value.column == len("sun: gain 2 doubloons if you hold 3 ") + 1


def test_expected_words_are_listed_in_full() -> None:
    """After a verb's place every action word is offered, not the first twelve."""
    with pytest.raises(lt.CardError) as info:
        lt.parse("sun: sell 2 loot.")
    for word in ("gain", "lose", "discard", "swap", "use", "take", "return", "choose"):
        assert f'"{word}"' in info.value.expected


def test_or_between_conditions_and_in_a_kind_list() -> None:
    """'or' joins kinds in a list, and whole conditions when a condition follows it."""
    (kinds,) = lt.parse("sun: gain 1 doubloon if you hold a saber or hook.")
    assert len(kinds.steps[0].condition.groups) == 1  # type: ignore[union-attr]
    (either,) = lt.parse("sun: gain 1 doubloon if you hold a saber or there is a Cook in your ship.")
    assert len(either.steps[0].condition.groups) == 2  # type: ignore[union-attr]


def test_keeping_a_token_twice_keeps_it_once(tmp_path: Path) -> None:
    """Found by the grammar fuzzer: 'keep a loot … and keep every loot …' keeps each token once, never more
    tokens than are held, and a kept token given away is no longer kept."""
    text = ("sun: keep a loot you hold for the next voyage and keep every loot you hold for the next voyage, "
            "then give a loot you hold to the player on your left.")
    rules = lt.load_rules("galecrest", extra_cards=[mod(tmp_path, fan=character("Fan", 41.5, text))])
    seats = [{"hand": ["Fan", "Cook", "Governor"], "loot": ["saber", "saber", "chest"]},
             {"hand": ["Explorer", "Cook", "Governor"]}, {"hand": ["Treasurer", "Cook", "Governor"]}]
    game = lt.new_game(rules, 3, seed=1, setup={"players": seats, "loot": [["map", "map", "map"]]})
    game = game.choose("Fan").choose("Explorer").choose("Treasurer")
    while game.decision is not None and game.decision.player == 0 and game.phase == "day":
        game = game.choose(game.legal_keys()[0])
        libertalia.testing.check_invariants(game)
    me = game.players[0]
    assert len(me.kept_loot) == 2  # the three tokens kept once each, then one given away
    assert not Counter(me.kept_loot) - Counter(me.loot)
    final = game.play_out([RandomAgent(i) for i in range(3)])
    libertalia.testing.check_invariants(final)


@pytest.mark.parametrize(("text", "words"), [
    ("sun: play this onto the island.", "already on the island"),
    ("sun: keep this for the next voyage.", "only a character aboard your ship can be kept"),
    ("dusk: keep this for the next voyage, then discard this.", "only a character aboard your ship can be kept"),
])
def test_fuzzer_finds_on_this_are_refused(tmp_path: Path, text: str, words: str) -> None:
    """Found by the grammar fuzzer: replaying a card already on the island (it looped) and keeping a card that
    is on the island (never aboard) could not run as written, so the checker refuses them."""
    assert words in str(refusal(tmp_path, text))


def test_play_from_the_island_is_skipped_not_looped(tmp_path: Path) -> None:
    """A character already on the island is no candidate for 'play … onto the island': no loop, no repeat."""
    text = "sun: play a character on the island onto the island."
    rules = lt.load_rules("galecrest", extra_cards=[mod(tmp_path, fan=character("Fan", 41.5, text))])
    setup = {"players": [{"hand": ["Fan", "Cook", "Brute"]}, {"hand": ["Cook", "Brute", "Bosun"]}]}
    game = lt.new_game(rules, 2, seed=1, setup=setup).choose("Fan").choose("Cook")
    final = game.play_out([RandomAgent(0), RandomAgent(1)])
    libertalia.testing.check_invariants(final)


def test_a_count_given_twice_is_refused(tmp_path: Path) -> None:
    """"1, 1 relic of one kind" would offer the same key twice: the checker refuses it and says why."""
    error = refusal(tmp_path, "moon: keep 1, 1 relic of one kind you hold for the next voyage.")
    assert "given twice" in str(error)
    lt.load_rules("galecrest", extra_cards=[mod(tmp_path, fan=character(
        "Fan", 41.5, "moon: keep 1 or 2 relic of one kind you hold for the next voyage."))])
