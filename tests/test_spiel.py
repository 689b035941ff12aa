"""libertalia.spiel: Libertalia as an OpenSpiel game (OpenSpiel's own checks, secrecy, MCTS, determinism)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from libertalia import spiel  # noqa: E402
from libertalia.env.keys import action_keys  # noqa: E402
from libertalia.loading.rules import load_rules  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _load(**params: object) -> object:
    return pyspiel.load_game(spiel.SHORT_NAME, {"deals": 50, **params})


def _dealt(game: object, outcome: int = 0) -> object:
    state = game.new_initial_state()
    state.apply_action(outcome)
    return state


def test_import_libertalia_does_not_import_open_spiel() -> None:
    """``import libertalia`` (and its env) never imports OpenSpiel: the extra is optional."""
    code = "import sys, libertalia, libertalia.env; print('pyspiel' in sys.modules or 'open_spiel' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LIBERTALIA_CACHE_DIR": "off"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("params", [
    {"players": 2, "edition": "galecrest", "loot": "calm"},
    {"players": 3, "edition": "classic", "loot": "classic"},
    {"players": 4, "edition": "galecrest", "loot": "stormy"},
    {"players": 6, "edition": "classic", "loot": ""},
    {"players": 1, "edition": "galecrest", "loot": "uncharted"},
], ids=["galecrest-calm-2", "classic-3", "galecrest-stormy-4", "classic-6", "solo-uncharted"])
def test_openspiel_random_simulation_with_serialisation(params: dict[str, object]) -> None:
    """OpenSpiel's generic random-simulation test passes, serialising and restoring at every step."""
    game = _load(**params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    assert game.num_players() == (1 if params["players"] == 1 else params["players"])


def test_every_configuration_loads_with_the_env_action_ids() -> None:
    """Both editions, every loot side and 2 to 6 players load; action ids are libertalia.env's keys."""
    for edition, sides in [("galecrest", ["calm", "stormy", "uncharted"]), ("classic", ["classic"])]:
        for loot in sides:
            for players in range(2, 7):
                game = _load(players=players, edition=edition, loot=loot)
                keys = action_keys(load_rules(edition, loot=loot), players)
                assert game.num_distinct_actions() == len(keys)
                assert game.num_players() == players
    with pytest.raises(ValueError, match="no solo mode"):
        _load(players=1, edition="classic")


def test_chance_is_one_uniform_seed_node() -> None:
    """The only chance node chooses the seed, uniformly among ``deals`` outcomes, and seeds the engine."""
    game = _load(players=2, deals=8, first_seed=100)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(8)) and all(p == pytest.approx(1 / 8) for _, p in outcomes)
    state.apply_action(5)
    assert state.game.seed == 105 and not state.is_chance_node()


def test_a_secret_pick_stays_out_of_other_seats_information_states() -> None:
    """Picks are secret until revealed: seat 1 cannot tell seat 0's picks apart; seat 0 can."""
    game = _load(players=3)
    first = _dealt(game)
    assert first.game.decision.kind == "play_character" and first.current_player() == 0
    a, b = first.legal_actions()[:2]
    picked = [first.child(a), first.child(b)]
    for seat in (1, 2):
        assert picked[0].information_state_string(seat) == picked[1].information_state_string(seat)
        assert picked[0].information_state_tensor(seat) == picked[1].information_state_tensor(seat)
        assert picked[0].observation_string(seat) == picked[1].observation_string(seat)
        assert picked[0].observation_tensor(seat) == picked[1].observation_tensor(seat)
    assert picked[0].information_state_string(0) != picked[1].information_state_string(0)
    assert picked[0].information_state_string(0) != picked[0].information_state_string(1)


def test_information_states_recall_everything_the_seat_was_told() -> None:
    """Perfect recall: a seat's information state keeps, line for line, what it held at every earlier point
    (the answers, its own by key, and the public events), so histories it told apart stay apart."""
    game = _load(players=3)
    state, rng = _dealt(game, 7), np.random.default_rng(5)
    seen: dict[int, list[str]] = {0: [], 1: [], 2: []}
    while not state.is_terminal():
        for seat, earlier in seen.items():
            history = state.information_state_string(seat).split("\nnow:\n")[0].split("\n")
            if earlier:
                assert history[:len(earlier)] == earlier[:len(history)] and len(history) >= len(earlier)
            seen[seat] = history
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert all(len(lines) > 40 for lines in seen.values())
    assert any("told: " in line and len(line) > len("told: ") + 20 for line in seen[1])


def test_information_states_never_show_the_seed() -> None:
    """The seed is never shown, and the tensors are built from the seat's ``Observation`` alone."""
    game = _load(players=2, deals=2000, first_seed=123456789)
    state = _dealt(game, 7)
    text = state.information_state_string(0) + state.observation_string(0)
    assert str(state.game.seed) not in text
    encoded = spiel.config(game).encoder.encode(state.game.observation(0))
    assert state.observation_tensor(0) == pytest.approx(list(encoded))  # built from seat 0's Observation only


def test_serialize_round_trips_through_seed_and_answer_keys() -> None:
    """``serialize`` writes the seed and answers by key; ``deserialize_state`` rebuilds the same state."""
    game = _load(players=4, edition="classic")
    state = _dealt(game, 3)
    rng = np.random.RandomState(1)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = state.serialize()
    again = game.deserialize_state(text)
    assert again.history() == state.history() and again.game == state.game
    assert '"answers"' in text and '"seed": 3' in text


def _mcts_game(seed: int) -> list[float]:
    game = _load(players=2, deals=1, first_seed=seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bots = [mcts.MCTSBot(game, 2.0, 3, evaluator, random_state=np.random.RandomState(seed)),
            pyspiel.make_uniform_random_bot(1, seed)]
    return list(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed)))


def test_mcts_plays_a_full_seeded_game_with_a_fixed_result() -> None:
    """OpenSpiel's MCTS bot plays a whole game through evaluate_bots; a seeded game always ends the same."""
    assert _mcts_game(11) == [1.0, 0.0]


class _ISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS keeps nothing between moves; these two let evaluate_bots drive it."""

    def restart_at(self, state: object) -> None:
        pass

    def inform_action(self, state: object, player: int, action: int) -> None:
        pass


def test_resampled_states_keep_the_seats_information_state() -> None:
    """``resample_from_infostate`` draws hidden parts again: the seat's view stays, the seed changes."""
    state = _dealt(_load(players=3, deals=1, first_seed=5))
    state.apply_action(state.legal_actions()[0])
    sample = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(1) == state.information_state_string(1)
    assert sample.game.seed != state.game.seed
    with pytest.raises(ValueError, match="resampled"):
        sample.serialize()


def test_ismcts_plays_a_full_seeded_game_with_a_fixed_result() -> None:
    """OpenSpiel's information-set MCTS plays a whole game on resampled states; the result is fixed."""
    game = _load(players=2, deals=1, first_seed=11)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(3))
    bots = [_ISMCTS(game, evaluator, 2.0, 3, random_state=np.random.RandomState(3)),
            pyspiel.make_uniform_random_bot(1, 3)]
    assert list(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))) == [0.0, 1.0]


def test_seeded_play_is_deterministic() -> None:
    """The same seed and actions give the same states, strings and returns."""
    def run() -> tuple[list[int], str, list[float]]:
        game = _load(players=3, deals=1, first_seed=42)
        state = game.new_initial_state()
        rng = np.random.RandomState(9)
        while not state.is_terminal():
            actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            state.apply_action(int(rng.choice(actions)))
        return state.history(), state.information_state_string(0), state.returns()

    first, second = run(), run()
    assert first == second and sum(first[2]) == pytest.approx(1.0)


def test_uncharted_loot_sides_are_shown_to_every_seat() -> None:
    """Uncharted sides are drawn per game and lie face up: every seat's observation names them."""
    game = _load(players=2, loot="uncharted")
    state = _dealt(game, 1)
    sides = ", ".join(f"{kind} {side}" for kind, side in state.game.rules.loot_sides.items())
    for seat in (0, 1):
        assert f"loot sides: {sides}" in state.observation_string(seat)
        assert f"loot sides: {sides}" in state.information_state_string(seat)
