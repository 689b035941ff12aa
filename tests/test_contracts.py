"""The contract fuzzer (issue 19): every step checked against its contract, and the findings it made."""

from __future__ import annotations

import functools
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import libertalia as lt
from libertalia import events as ev
from libertalia.agents import RandomAgent
from libertalia.engine.program import actions as act
from libertalia.engine.program import control as ctl
from libertalia.engine.program.base import Contract
from libertalia.engine.work import Frame, Work
from libertalia.testing.contracts import (
    LAWS,
    FuzzText,
    Tracer,
    fuzz_contracts,
    fuzz_texts,
    solo_game,
    traced,
)
from libertalia.testing.contracts.fuzz import batches
from libertalia.testing.contracts.snapshot import PARTS
from tests.helpers import galecrest, patches_engine

STEP_KINDS = [*act.Action.__args__, *ctl.Control.__args__]  # type: ignore[attr-defined]
EVENT_KINDS = {cls.kind for cls in vars(ev).values() if isinstance(cls, type) and issubclass(cls, lt.Event)}


def _play(rules: lt.Rules, players: int, seeds: range) -> None:
    for seed in seeds:
        game = lt.new_game(rules, players, seed)
        game.play_out([RandomAgent(seed * 8 + i) for i in range(max(2, players))])


@functools.cache
def _mod(text: str) -> lt.Rules:
    """Galecrest with one mod card, rank 41.5, whose text is ``text``."""
    with tempfile.TemporaryDirectory() as folder:
        body = "".join(f"  {line}\n" for line in text.splitlines())
        (Path(folder) / "mod.yaml").write_text(f"name: Fuzzed Corsair\nrank: 41.5\ntext: |\n{body}", encoding="utf-8")
        return lt.load_rules("galecrest", extra_cards=[folder])


def _traced_game(text: str, setup: dict[str, Any], players: int = 2, seed: int = 0) -> tuple[lt.Game, Tracer]:
    tracer = Tracer()
    return lt.new_game(traced(_mod(text), tracer), players, seed, setup=setup), tracer


def _seat(hand: list[str], **more: Any) -> dict[str, Any]:
    return {"hand": hand, **more}


# ------------------------------------------------------------------ the contracts as data
@pytest.mark.parametrize("kind", STEP_KINDS, ids=lambda k: k.__name__)
def test_every_step_kind_has_a_law_and_a_contract_of_known_parts(kind: type) -> None:
    """Each step class declares a contract naming only parts and event kinds the checker knows, and has a law."""
    contract = kind.CONTRACT
    assert isinstance(contract, Contract) and contract.law
    assert contract.changes <= set(PARTS), contract.changes - set(PARTS)
    assert contract.events <= EVENT_KINDS, contract.events - EVENT_KINDS
    assert kind in LAWS


def test_bundled_games_keep_every_contract() -> None:
    """Random games of the bundled cards, at 2 and 5 players and solo, break no step contract."""
    tracer = Tracer()
    rules = traced(galecrest(), tracer)
    with pytest.warns(lt.UnverifiedSoloWarning):
        _play(rules, 1, range(2))
    _play(rules, 2, range(3))
    _play(rules, 5, range(2))
    assert not tracer.violations, "\n\n".join(map(str, tracer.violations))
    assert tracer.counts["GainCoins"] > 100 and tracer.counts["Discard"] > 10 and tracer.suspended == 0


def test_tracing_changes_no_game() -> None:
    """A traced game is the same game: same answers, same final state (only the checks are added)."""
    tracer = Tracer()
    plain = lt.new_game(galecrest(), 3, 5).play_out([RandomAgent(i) for i in range(3)])
    checked = lt.new_game(traced(galecrest(), tracer), 3, 5).play_out([RandomAgent(i) for i in range(3)])
    assert checked.history == plain.history and checked.final_scores() == plain.final_scores()
    assert [e.text for e in checked.events] == [e.text for e in plain.events]


# ------------------------------------------------------------------ planted bugs are caught
def _greedy(original: Callable[..., int]) -> Callable[..., int]:
    def act_(self: act.GainCoins, w: Work, f: Frame) -> int:
        nxt = original(self, w, f)
        if self.n > 0:
            w.gain(f.seat, 1)  # one doubloon too many
        return nxt
    return act_


def test_a_step_that_gains_one_doubloon_too_many_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """GainCoins(n): the owner's doubloons move by exactly n; one more is a violation naming the doubloons."""
    monkeypatch.setattr(act.GainCoins, "act", _greedy(act.GainCoins.act))
    game, tracer = _traced_game("sun: gain 2 doubloons.", {"players": [_seat(["Fuzzed Corsair"], doubloons=3),
                                                                          _seat(["Cook"])]})
    game.play_out([RandomAgent(0), RandomAgent(1)])
    (first, *_) = tracer.violations
    assert first.kind == "GainCoins" and first.source == "c:Fuzzed Corsair"
    assert "doubloons went from [3, " in first.problems[0] and "makes [5, " in first.problems[0]


def test_a_contract_that_omits_a_part_its_step_changes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Discard contract without "cards": the discard changes a part its contract does not name."""
    monkeypatch.setattr(act.Discard, "CONTRACT", Contract(frozenset(), frozenset({"discard"}), "changes nothing"))
    game, tracer = _traced_game("sun: discard this.", {"players": [_seat(["Fuzzed Corsair"]), _seat(["Cook"])]})
    game.play_out([RandomAgent(0), RandomAgent(1)])
    assert any(v.kind == "Discard" and any("changed cards" in p and "does not name" in p for p in v.problems)
               for v in tracer.violations)


def test_a_wrong_event_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The events must say what happened: a gain logged as a loss is a violation."""
    def lying(self: act.GainCoins, w: Work, f: Frame) -> int:
        w.gain(f.seat, self.n)
        w.log(lt.engine.journal.CHANGE_DOUBLOONS, f.seat, -self.n, f.source[2:])  # type: ignore[attr-defined]
        return f.pc + 1

    import libertalia.engine.journal  # noqa: F401 - makes lt.engine.journal reachable above
    monkeypatch.setattr(act.GainCoins, "act", lying)
    game, tracer = _traced_game("sun: gain 2 doubloons.", {"players": [_seat(["Fuzzed Corsair"]), _seat(["Cook"])]})
    game.play_out([RandomAgent(0), RandomAgent(1)])
    assert any("loses 2 doubloons" in p and "calls for [seat 0 gains 2" in p for v in tracer.violations
               for p in v.problems)


def test_a_step_that_changes_before_it_asks_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step suspended for an answer must have changed nothing: it re-runs from its start."""
    original = act.Discard.act

    def eager(self: act.Discard, w: Work, f: Frame) -> int:
        w.gain(f.seat, 1)  # a change before the question the selector asks
        return original(self, w, f)

    monkeypatch.setattr(act.Discard, "act", eager)
    game, tracer = _traced_game("sun: discard a character in your hand.",
                                {"players": [_seat(["Fuzzed Corsair", "Cook", "Brute"]), _seat(["Cook", "Brute"])]})
    game = game.choose("Fuzzed Corsair").choose("Cook")  # the plays; now the Corsair asks which to discard
    assert game.decision is not None and game.decision.kind == "choose_character"
    assert any("stopped to ask a question after changing doubloons" in p for v in tracer.violations
               for p in v.problems)


@patches_engine  # compiled, May calls can_change natively and never sees the patch
def test_an_option_that_changes_nothing_when_taken_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """E25: "yes" is asked only when the option could change something; one that then did nothing is a violation."""
    monkeypatch.setattr(act.ReturnLoot, "can_change", lambda self, w, f: True)
    game, tracer = _traced_game("sun: you may return a map from the bag to the bag.",
                                {"players": [_seat(["Fuzzed Corsair"]), _seat(["Cook"])]})
    game = game.choose("yes")
    assert any(v.kind == "May" and "changed nothing when taken" in v.problems[0] for v in tracer.violations)


def test_a_planted_violation_replays_from_its_script(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fuzzer reports a planted bug with the text and a script that replays the game to it."""
    monkeypatch.setattr(act.GainCoins, "act", _greedy(act.GainCoins.act))
    report = fuzz_texts(galecrest(), [FuzzText("dusk: gain 2 doubloons.", True, False)], seed=3,
                        every_context=False, to_end=False)
    assert report.broken and not report.ok
    v = report.violations[0]
    assert v.kind == "GainCoins" and v.text == "dusk: gain 2 doubloons." and v.contract == act.GainCoins.CONTRACT.law
    with pytest.raises(AssertionError, match="GainCoins"):
        exec(compile(v.python, "<reproduction>", "exec"), {"__name__": "reproduction"})  # noqa: S102
    assert v.yaml == "" if v.context.startswith("solo") else "  - it:" in v.yaml


_OTHERS = ("sun: every other player returns a loot they hold to the bag, then each opponent discards a character "
           "from their hand.\n"
           "moon: each player with the most loot gives a loot they hold to you if you have fewer doubloons than "
           "every other player.\n"
           "anchor: every other player who holds a relic pays you 1 doubloon.")


def _others(seed: int) -> tuple[lt.Game, Tracer]:
    setup = {"players": [_seat(["Fuzzed Corsair", "Cook", "Governor"], doubloons=1),
                         _seat(["Cook", "Brute", "Gunner"], loot=["relic", "map"], doubloons=4),
                         _seat(["Cook", "Scout", "Bosun"], loot=["chest", "saber", "relic"], doubloons=6)]}
    return _traced_game(_OTHERS, setup, players=3, seed=seed)


def test_players_acting_for_themselves_keep_their_contracts() -> None:
    """E30-E32: games where players are compared, narrowed and act for themselves break no step contract."""
    ran: Counter[str] = Counter()
    for seed in range(3):
        game, tracer = _others(seed)
        game.play_out([RandomAgent(seed * 3 + i) for i in range(3)])
        assert not tracer.violations, "\n\n".join(map(str, tracer.violations))
        ran.update(tracer.counts)
    assert ran["TheyReturn"] and ran["TheyDiscard"] and ran["TheyGive"] and ran["PaysYou"]


@patches_engine
def test_players_acting_out_of_turn_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """E32: players act from the owner's left; a step that lets them act the other way round breaks its law."""
    def backwards(seats: list[int], owner: int, n: int) -> list[int]:
        return sorted(dict.fromkeys(seats), key=lambda x: (owner - x) % n)

    monkeypatch.setattr(act, "in_turn", backwards)
    game, tracer = _others(0)
    game.play_out([RandomAgent(i) for i in range(3)])
    assert any(v.kind == "TheyReturn" and any("calls for" in p for p in v.problems) for v in tracer.violations)


# ------------------------------------------------------------------ the fuzzer
def test_a_short_fuzz_run_finds_nothing() -> None:
    """150 generated texts, one context each (every context turns up across them): no step breaks its contract."""
    report = fuzz_contracts(galecrest(), 150, seed=1, every_context=False, to_end=False)
    assert report.ok, report.summary() + "\n\n" + "\n\n".join(map(str, report.violations[:5])) + "\n\n" + \
        "\n".join(e.message for e in report.errors[:5])
    assert report.texts >= 100 and report.positions >= report.texts - report.skipped
    assert {"Discard", "Change", "GainCoins", "Branch", "Take"} <= set(report.steps)


def test_the_same_seed_gives_the_same_report() -> None:
    """Texts and positions come from the seed alone: two runs agree."""
    one = fuzz_contracts(galecrest(), 6, seed=9, every_context=False, to_end=False)
    two = fuzz_contracts(galecrest(), 6, seed=9, every_context=False, to_end=False)
    assert (one.texts, one.positions, one.steps) == (two.texts, two.positions, two.steps)


def test_every_context_is_played_for_a_text() -> None:
    """A sun-and-moon text plays at each timing, borrowed at each, in solo, at 2 players, on the last day,
    with empty piles and with an empty bag."""
    report = fuzz_texts(galecrest(), [FuzzText("sun: gain 1 doubloon.\nmoon: discard this.", True, False)],
                        seed=2, to_end=False)
    assert report.ok and report.skipped == 0
    assert report.positions == 2 + 2 + 5  # sun, moon; borrowed sun, borrowed moon; the variants
    assert report.steps["Borrow"] >= 2 and report.steps["Discard"] >= 1


def test_a_loot_text_spelled_for_a_kind_is_played_on_that_kind_s_tile() -> None:
    """E34: "this saber" names the saber tile's own token, so a text spelled for a kind's tile goes on that tile,
    one tile per kind in a batch, and a text for any tile takes a kind still free."""
    texts = [FuzzText("dusk: discard this saber.", False, True, "saber"),
             FuzzText("dusk: gain 1 doubloon.", False, True),
             FuzzText("moon: discard this saber.", False, True, "saber")]
    kinds = [[slot.kind for slot in batch] for batch in batches(galecrest(), texts)]
    assert kinds[0][0] == "saber" and kinds[0][1] not in (None, "saber") and kinds[1] == ["saber"]
    report = fuzz_texts(galecrest(), texts[:1], seed=5, every_context=False, to_end=False)
    assert report.ok and report.loot_texts == 1 and not report.refused


def test_solo_game_puts_the_card_where_it_acts() -> None:
    """``solo_game`` adds a card to your hand, offered on the first pick, or a token to your loot."""
    rules = _mod("sun: gain 1 doubloon.")
    game = solo_game(rules, 4, card="Fuzzed Corsair")
    assert "Fuzzed Corsair" in game.players[0].hand and "Fuzzed Corsair" in game.legal_keys()
    held = solo_game(rules, 4, kind="chest", zone="held")
    assert held.players[0].loot[-1] == "chest" and held.bag["chest"] == game.bag["chest"] - 1



def test_solo_game_brings_a_token_back_from_a_later_day_when_the_bag_has_none() -> None:
    """``solo_game`` puts a token the bag has run out of into your loot from a later day's loot, so the
    game still holds as many of each kind as before."""
    rules = _mod("sun: gain 1 doubloon.")

    def count(g: lt.Game, kind: str) -> int:
        return g.bag.get(kind, 0) + sum(d.count(kind) for d in g.state.days) + sum(p.loot.count(kind)
                                                                                  for p in g.players)

    seed = next(n for n in range(500) if lt.new_game(rules, 1, n).bag.get("chest", 0) == 0)
    plain = lt.new_game(rules, 1, seed)
    held = solo_game(rules, seed, kind="chest", zone="held")
    assert held.players[0].loot[-1] == "chest"
    kinds = ("chest", "map", "relic")
    assert {k: count(held, k) for k in kinds} == {k: count(plain, k) for k in kinds}


# ------------------------------------------------------------------ what the fuzzer found (now fixed)
def _until(game: lt.Game, done: Callable[[lt.Game], bool], *answers: str) -> lt.Game:
    """Answer the given keys where offered, else the first legal one, until ``done`` or the game waits on nobody."""
    left = list(answers)
    while game.decision is not None and not done(game):
        keys = game.legal_keys()
        game = game.choose(left.pop(0) if left and left[0] in keys else keys[0])
    return game


def _corsair(game: lt.Game, kind: str | None = None) -> bool:
    """Whether the mod card's ability asks (a question of ``kind``); its dusk pick of loot does not count."""
    d = game.decision
    return d is not None and d.source == "Fuzzed Corsair" and (d.kind == kind if kind else d.kind != "choose_loot"
                                                              or not d.prompt.startswith("choose loot for"))


def test_a_card_in_its_graveyard_is_not_discarded_again() -> None:
    """Found: "discard this, then discard this" discarded the card twice; one already there cannot go again."""
    game, tracer = _traced_game("sun: discard this, then discard this.",
                                {"players": [_seat(["Fuzzed Corsair"]), _seat(["Cook"])]})
    game = _until(game, lambda g: g.phase != "sun")
    discards = [e for e in game.events if isinstance(e, ev.Discarded) and e.source == "Fuzzed Corsair"]
    assert len(discards) == 1 and game.players[0].graveyard == ("Fuzzed Corsair",) and not tracer.violations


def test_losing_doubloons_counts_as_done_only_when_some_were_lost() -> None:
    """Found: after "lose 2 doubloons" "you did" never held; it holds when the purse lost something (R2)."""
    text = "sun: lose 2 doubloons, then gain 1 reputation if you did."
    out = []
    for purse in (5, 0):
        game, tracer = _traced_game(text, {"players": [_seat(["Fuzzed Corsair"], doubloons=purse), _seat(["Cook"])],
                                           "reputation": [2, 3]})
        game = _until(game, lambda g: g.phase != "sun")
        out.append(any(isinstance(e, ev.ReputationChanged) and e.seat == 0 for e in game.events))
        assert not tracer.violations
    assert out == [True, False]


def test_every_subjects_amount_is_worked_out_before_anyone_moves() -> None:
    """Found (E28): "every other player loses 1 reputation for each space right of your reputation" read your
    space again after each player's move; each loses what the game said when the action began."""
    text = "sun: every other player loses 1 reputation for each space right of your reputation."
    game, tracer = _traced_game(text, {"players": [_seat(["Fuzzed Corsair"]), _seat(["Cook"]), _seat(["Cook"])],
                                       "reputation": [0, 4, 5]}, players=3)
    game = _until(game, lambda g: g.phase != "sun")
    lost = {e.seat: e.steps for e in game.events if isinstance(e, ev.ReputationChanged)}
    assert lost == {1: -5, 2: -5} and not tracer.violations


def test_a_swap_asks_before_it_draws() -> None:
    """Found: a swap of a random token drew it, then asked for the other; re-run after the answer, it drew again."""
    text = "sun: swap a random loot from the bag with a loot you hold."
    game, tracer = _traced_game(text, {"players": [_seat(["Fuzzed Corsair"], loot=["map", "chest"]),
                                                   _seat(["Cook"])]})
    assert _corsair(game, "choose_loot")
    game = _until(game.choose("map"), lambda g: g.phase != "sun")
    # The draw is uniform over the bag, a map included (which then trades nothing): the law counts the
    # random numbers drawn, so a second draw after the answer is a violation either way.
    assert sum(isinstance(e, ev.LootSwapped) for e in game.events) <= 1 and not tracer.violations


def test_only_tokens_that_can_still_be_kept_are_offered() -> None:
    """Found (E25): "keep a loot you hold" offered a kind already kept, and keeping it did nothing."""
    text = "moon: keep a loot you hold for the next voyage, then keep a loot you hold for the next voyage."
    game, tracer = _traced_game(text, {"players": [_seat(["Cook"], ship=["Fuzzed Corsair"], loot=["map", "chest"]),
                                                   _seat(["Cook"])], "voyage": 1})
    game = _until(game, lambda g: _corsair(g, "choose_loot"))
    assert "chest" in game.legal_keys() and game.players[0].loot.count("chest") == 1
    game = _until(game.choose("chest"), lambda g: _corsair(g, "choose_loot") or g.phase != "night")
    assert "chest" not in game.legal_keys()  # the one chest is kept already
    kept = _until(game, lambda g: g.phase != "night").players[0].kept_loot
    assert kept[0] == "chest" and kept[1] != "chest" and not tracer.violations


def test_nothing_offered_takes_nothing() -> None:
    """Found (E25): "return a map from the bag to the bag" and a count of 0 were offered, though they change nothing."""
    may, tracer = _traced_game("sun: you may return a map from the bag to the bag.",
                               {"players": [_seat(["Fuzzed Corsair"]), _seat(["Cook"])]})
    assert not _corsair(may)
    counted, _ = _traced_game("sun: return 0 or 1 loot of one kind you hold to the bag.",
                              {"players": [_seat(["Fuzzed Corsair"], loot=["map", "chest"]), _seat(["Cook"])]})
    assert _corsair(counted, "choose_loot") and set(counted.legal_keys()) == {"map*1", "chest*1"}
    assert not tracer.violations


def test_a_reputation_loss_stuck_at_the_left_end_is_not_offered() -> None:
    """Found (E25): "lose 8 reputation" was offered on the leftmost space with nothing to pay (R28, R2)."""
    game, tracer = _traced_game("sun: choose one: lose 8 reputation; or gain 1 doubloon.",
                                {"players": [_seat(["Fuzzed Corsair"]), _seat(["Cook"])], "reputation": [0, 1]})
    assert not _corsair(game)  # only the gain can change anything: nothing is asked
    game = _until(game, lambda g: g.phase != "sun")
    assert game.players[0].doubloons == 1 and not tracer.violations


def test_pays_you_nothing_is_not_offered() -> None:
    """Found (E25): "you may … pays you doubloons up to 5" was asked of payers whose amount was 0."""
    game, tracer = _traced_game("sun: you may the player on your left pays you doubloons up to 5.",
                                {"players": [_seat(["Fuzzed Corsair"]), _seat(["Cook"], doubloons=9)]})
    assert not _corsair(game) and not tracer.violations


def test_a_token_is_never_swapped_for_one_of_its_own_kind() -> None:
    """Found (E22, E25): "you may swap …" was asked when only a map could be traded for a map, which changes nothing."""
    game, tracer = _traced_game("sun: you may swap a loot you hold with a loot in today's loot.",
                                {"players": [_seat(["Fuzzed Corsair"], loot=["map"]), _seat(["Cook"])],
                                 "loot": [["map", "map", "map"]]})
    assert not _corsair(game, "may") and not tracer.violations
    mixed, _ = _traced_game("sun: swap a loot you hold with a loot in today's loot.",
                            {"players": [_seat(["Fuzzed Corsair"], loot=["map", "chest"]), _seat(["Cook"])],
                             "loot": [["map", "map", "map"]]})
    assert mixed.players[0].loot.count("map") == 2 and "chest" not in mixed.players[0].loot  # the chest went


def test_a_set_of_no_tokens_scores_nothing() -> None:
    """Found (R14): a table row "0 for 10" made every map of a set score 10; a set of nothing sells nothing."""
    game, tracer = _traced_game("sun: gain doubloons for your map in sets (0 for 10, 2 for 7).",
                                {"players": [_seat(["Fuzzed Corsair"], loot=["map", "map", "map"]), _seat(["Cook"])]})
    game = _until(game, lambda g: g.phase != "sun")
    assert game.players[0].doubloons == 7 and not tracer.violations


def test_the_fuzzer_is_exported_from_the_testing_toolkit() -> None:
    """``libertalia.testing`` offers the tracer and the fuzzer (imported when first used)."""
    import libertalia.testing as toolkit

    assert toolkit.fuzz_contracts is fuzz_contracts and toolkit.traced is traced and toolkit.Tracer is Tracer


def test_an_owner_of_amount_that_comes_to_nothing_is_not_offered() -> None:
    """Found (E25): "you may the owner of … gains 1 doubloon for each map you hold" was offered with no map
    held: the amount of a player still to be picked was taken to be 1."""
    text = "sun: you may the owner of a character in your ship gains 1 doubloon for each map you hold."
    none, tracer = _traced_game(text, {"players": [_seat(["Fuzzed Corsair"], ship=["Cook"]), _seat(["Cook"])]})
    assert not _corsair(none, "may")
    some, _ = _traced_game(text, {"players": [_seat(["Fuzzed Corsair"], ship=["Cook"], loot=["map"]),
                                              _seat(["Cook"])]})
    assert _corsair(some, "may") and not tracer.violations


def test_the_owner_may_receive_what_the_other_players_give() -> None:
    """Found (E32): "every other player gives … to the owner of a character in your ship" gives to the owner;
    the law read the receiver with the givers' test, and called the step unbound when the owner held nothing."""
    game, tracer = _traced_game("sun: every other player gives a map they hold to the owner of a character in "
                                "your ship.", {"players": [_seat(["Fuzzed Corsair"], ship=["Cook"]),
                                                          _seat(["Cook"], loot=["map"])]})
    game = _until(game, lambda g: g.phase != "sun")
    assert game.players[0].loot == ("map",) and game.players[1].loot == ()
    assert not tracer.violations, tracer.violations


class _GiftToOwnShip:
    """Answers "yes" to every may, and names its own character wherever a character is chosen."""

    def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
        if decision.kind == "may":
            return "yes"
        own = [o.key for o in decision.options if "@" not in o.key]
        return own[0] if decision.kind == "choose_character" and own else decision.options[0].key


def test_an_option_whose_choice_chose_a_way_that_changes_nothing_is_no_violation_in_live_play() -> None:
    """E36: the pick of "the owner of another character" serves later words, so it may name your own card and
    the gift then changes nothing; bots answering on the spot (no step suspended) must not make that a violation."""
    text = "sun: you may give every loot you hold to the owner of another character, then discard it."
    game, tracer = _traced_game(text, {"players": [_seat(["Fuzzed Corsair"], ship=["Cook"], loot=["map"]),
                                                   _seat(["Scout"], ship=["Brute"])]})
    game.play_out([_GiftToOwnShip(), _GiftToOwnShip()])
    assert tracer.counts["Give"] and not tracer.violations, "\n\n".join(map(str, tracer.violations))


_BROKE_AND_RICH = {"players": [_seat(["Fuzzed Corsair"], doubloons=0), _seat(["Quartermaster"], doubloons=0),
                               _seat(["Governor"], doubloons=4)]}


def _every_seat(self: Any, w: Work, f: Frame, act_: Any = None) -> list[int]:
    """ChosenPlayer.candidates mutated: every seat of the pool offered, whether the action changes it or not."""
    return [s for s in ((f.seat + k) % w.n for k in range(1, w.n + 1)) if not (self.other and s == f.seat)]


@patches_engine
def test_a_player_of_your_choice_offered_whom_the_action_cannot_change_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """E42: "a player of your choice" offers only players the action changes; a pick of one it cannot is caught."""
    from libertalia.engine.program import amounts as amt

    monkeypatch.setattr(amt.ChosenPlayer, "candidates", _every_seat)
    game, tracer = _traced_game("sun: a player of your choice loses 2 doubloons.", _BROKE_AND_RICH, players=3)
    assert _corsair(game, "choose_option") and len(game.legal_keys()) == 3
    broke = next(o.key for o in game.decision.options if o.label == "seat 1")  # type: ignore[union-attr]
    game.choose(broke)
    assert any(v.kind == "Change" and any("E42" in p for p in v.problems) for v in tracer.violations)


def test_a_player_of_your_choice_is_offered_only_where_the_action_changes_something() -> None:
    """E42: the same position unmutated: one seat can lose doubloons, so it is taken unasked, and the law holds."""
    game, tracer = _traced_game("sun: a player of your choice loses 2 doubloons.", _BROKE_AND_RICH, players=3)
    assert not _corsair(game, "choose_option") and game.players[2].doubloons == 2
    assert not tracer.violations, tracer.violations


def test_a_gift_to_a_player_of_your_choice_with_nothing_to_give_asks_nobody() -> None:
    """Found (E42) by the law above: "give a relic you hold to a player of your choice" with no relic held asked
    for a receiver and then gave nothing; no receiver is changed, so none is offered and nothing happens."""
    text = "sun: give a relic you hold to a player of your choice."
    none, tracer = _traced_game(text, _BROKE_AND_RICH, players=3)
    assert not _corsair(none, "choose_option") and none.phase != "sun"
    held = {"players": [_seat(["Fuzzed Corsair"], loot=["relic"]), *_BROKE_AND_RICH["players"][1:]]}
    some, _ = _traced_game(text, held, players=3)
    assert _corsair(some, "choose_option")
    assert not tracer.violations, tracer.violations
