"""The Game API: decisions as data, hidden selection, end of game and winners."""

from __future__ import annotations

import libertalia as lt
from tests.helpers import answer, start

THREE = [{"hand": ["Cook", "Treasurer", "Collector"]},
         {"hand": ["Cook", "Treasurer", "Collector"]},
         {"hand": ["Cook", "Treasurer", "Collector"]}]


def test_selection_is_hidden_until_every_seat_commits() -> None:
    """Commit, then reveal: nobody sees another seat's pick before the island is laid out."""
    game = start(3, players=THREE, loot=[["chest", "map", "relic"]])
    game = answer(game, "Cook")
    obs = game.observation(1)
    assert obs.committed == (True, False, False)
    assert game.island == () and "Cook" not in obs.players[0].hand  # hand shows only "?"
    assert set(obs.players[0].hand) == {"?"}
    game = answer(game, "Treasurer", "Collector")
    assert [name for _, name in game.island] == ["Cook", "Treasurer", "Collector"]


def test_other_seats_decision_shows_no_options() -> None:
    """An observation of a question put to another seat carries no options."""
    game = start(3, players=THREE, loot=[["chest", "map", "relic"]])
    assert game.observation(0).decision is not None and game.observation(0).decision.options
    assert game.observation(2).decision is not None and game.observation(2).decision.options == ()


def test_winner_tie_goes_to_higher_reputation() -> None:
    """R26: equal final scores are won by the seat further right on the reputation track."""
    seats = [{"hand": ["Cook", "Treasurer"], "score": 30}, {"hand": ["Cook", "Treasurer"], "score": 30},
             {"hand": ["Cook", "Treasurer"], "score": 10}]
    game = start(3, voyage=3, day=6, players=seats, reputation=[4, 1, 0], loot=[["amulet", "amulet", "amulet"]])
    game = answer(game, "Treasurer", "Treasurer", "Treasurer")
    while game.decision is not None:
        game = game.choose(game.legal_keys()[0])
    scores = game.final_scores()
    assert scores[0] == scores[1] == 34  # the amulet pays 3 and the Treasurer 1
    assert game.winners() == (0,)


def test_events_read_as_sentences() -> None:
    """Events render as plain sentences naming seats and cards."""
    game = lt.play(lt.load_rules("galecrest"), [lt.agents.FirstOptionAgent()] * 3, seed=5)
    texts = [str(e) for e in game.events]
    assert "loot sides: chest calm" in texts[0]
    assert texts[1].startswith("voyage 1 begins")
    assert any(t.startswith("the island: ") for t in texts)
    assert texts[-1].startswith("the game is over")


def test_recording_a_pick_directly_equals_running_the_engine() -> None:
    """The shortcut for secret picks gives exactly the state the full engine would."""
    from libertalia.engine import flow
    from libertalia.engine.work import Work

    rules = lt.load_rules("galecrest")
    checked = 0
    for seed in range(20):
        game = lt.new_game(rules, 5, seed=seed)
        while game.decision is not None:
            key = game.legal_keys()[seed % len(game.legal_keys())]
            if game.decision.kind == "play_character":
                w = Work(rules, game.state)
                w.history += (key,)
                w.flow.answers.append(key)
                flow.run(w)
                assert game.choose(key).state == w.freeze()
                checked += 1
            game = game.choose(key)
    assert checked > 500
