"""libertalia.spiel: Libertalia as an OpenSpiel game (OpenSpiel's own checks, secrecy, MCTS, determinism)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia import spiel_checks

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from libertalia import spiel  # noqa: E402
from libertalia.env.keys import action_keys  # noqa: E402
from libertalia.loading.rules import load_rules  # noqa: E402
from tests.helpers import module_from_file  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _load(**params: object) -> object:
    return pyspiel.load_game(spiel.SHORT_NAME, {"deals": 50, **params})


def _dealt(game: object, outcome: int = 0) -> object:
    state = game.new_initial_state()
    for digit in spiel_checks.deal_digits(outcome, game.get_parameters().get("deals", 1 << 16)):
        state.apply_action(digit)
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


def test_the_default_deals_are_chosen_by_two_nodes_of_256_outcomes() -> None:
    """The deal is chosen digit by digit: no chance node lists more than 256 outcomes (never 65,536),
    the game stays explicit-stochastic, and the chain reaches the seed its digits spell."""
    game = pyspiel.load_game(spiel.SHORT_NAME, {"players": 2})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_chance_outcomes() == 256
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 256 and sum(p for _, p in outcomes) == pytest.approx(1)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "Deals:768-1023"
    state.apply_action(3)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 256
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 9) == "Deal:777"
    state.apply_action(9)
    assert state.game.seed == 3 * 256 + 9 and not state.is_chance_node()
    assert game.deserialize_state(state.serialize()).history() == state.history() == [3, 9]


def test_openspiel_random_simulation_with_the_default_deals() -> None:
    """OpenSpiel's random-simulation test, serialising, passes through the default two-node deal."""
    pyspiel.random_sim_test(pyspiel.load_game(spiel.SHORT_NAME, {"players": 3}), num_sims=1, serialize=True,
                            verbose=False)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, spiel_checks.MAX_DEALS).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1))))
def test_every_deal_is_equally_likely_through_the_chain(case: tuple[int, int]) -> None:
    """Following a deal's digits, each node's outcomes sum to 1, list at most 256, and the path's
    probability is 1 / deals: the chain is the uniform choice of one node over all the deals."""
    deals, deal = case
    low, high, block, p = 0, deals, spiel_checks.deal_block(deals), 1.0
    for digit in spiel_checks.deal_digits(deal, deals):
        outcomes = spiel_checks.deal_outcomes(low, high, block)
        assert len(outcomes) <= spiel_checks.DEAL_BASE and sum(q for _, q in outcomes) == pytest.approx(1)
        p *= dict(outcomes)[digit]
        low += digit * block
        high, block = min(low + block, high), block // spiel_checks.DEAL_BASE
    assert (low, high, block) == (deal, deal + 1, 0) and p == pytest.approx(1 / deals, rel=1e-9)


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


def _told_by_events_since(state: object) -> list[str]:
    """What the table was told after the deal and each answer, replayed step by step with ``events_since``."""
    game = state.game
    g = lt.new_game(game.rules, len(game.players), game.seed, log=True)
    told = ["; ".join(map(str, g.events))]
    for key in game.history:
        before, g = g, g.choose(key)
        told.append("; ".join(map(str, g.events_since(before))))
    return told


def test_each_told_line_is_what_that_step_logged_however_often_it_is_asked() -> None:
    """An information state's told lines are each step's events (``Game.events_since``), the same whether the
    state was asked at every step, only at the end, or through a clone taken midway (written when first asked)."""
    game = _load(players=3)
    eager, lazy, rng = _dealt(game, 4), _dealt(game, 4), np.random.default_rng(8)
    clone = None
    while not eager.is_terminal():
        eager.information_state_string(eager.current_player())
        action = int(rng.choice(eager.legal_actions()))
        eager.apply_action(action)
        lazy.apply_action(action)
        if clone is None and len(eager.history()) == 40:
            clone = lazy.clone()
    for state in (clone, lazy):
        while not state.is_terminal():
            state.apply_action(eager.history()[len(state.history())])
    told = _told_by_events_since(eager)
    for seat in range(3):
        text = eager.information_state_string(seat)
        assert text == lazy.information_state_string(seat) == clone.information_state_string(seat)
        lines = text.split("\nnow:\n")[0].split("\n")
        assert lines[1] == f"told: {told[0]}" and [line.split(" | told: ")[1] for line in lines[2:]] == told[1:]


def test_a_resampled_state_tells_what_its_own_world_logs_next() -> None:
    """After ``resample_from_infostate`` the told lines so far stay, and each later step's line is what the
    sampled world logged at that step (``events_since`` on the drawn game)."""
    state = _dealt(_load(players=3, deals=1, first_seed=21))
    rng = np.random.default_rng(2)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    sample = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    before = sample.information_state_string(1).split("\nnow:\n")[0]
    assert before == state.information_state_string(1).split("\nnow:\n")[0]
    games = [sample.game]
    for _ in range(15):
        sample.apply_action(int(rng.choice(sample.legal_actions())))
        games.append(sample.game)
    lines = sample.information_state_string(1).split("\nnow:\n")[0].split("\n")
    assert "\n".join(lines[:len(before.split("\n"))]) == before
    later = [line.split(" | told: ")[1] for line in lines[-15:]]
    assert later == ["; ".join(map(str, b.events_since(a))) for a, b in zip(games, games[1:], strict=False)]


def test_a_state_clones_and_pickles_with_its_whole_position() -> None:
    """A clone and a pickled copy (``pyspiel.serialize_game_and_state`` pickles a Python state) play on alike:
    same history, strings, legal actions and returns, and the clone never shares the original's lists."""
    game = _load(players=2, deals=5)
    state, rng = _dealt(game, 3), np.random.default_rng(4)
    for _ in range(20):
        state.apply_action(int(rng.choice(state.legal_actions())))
    clone = state.clone()
    _, unpickled = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    expected = [state.information_state_string(seat) for seat in (0, 1)]  # the copies write theirs themselves
    state.apply_action(state.legal_actions()[0])  # the original moves on; its copies stay
    for copy in (clone, unpickled):
        assert copy.history() == state.history()[:-1]
        assert [copy.information_state_string(seat) for seat in (0, 1)] == expected
        while not copy.is_terminal():
            copy.apply_action(copy.legal_actions()[-1])
    assert clone.history() == unpickled.history() and clone.returns() == unpickled.returns()
    assert clone.information_state_string(1) == unpickled.information_state_string(1)


def test_the_compiled_table_text_is_what_its_source_writes() -> None:
    """The observation string's table (``_spiel_text``, compiled in the compiled build) is what its Python source
    writes, for every seat (Automa's too) at every step of a game: interpreted it checks the source against itself."""
    from libertalia import _spiel_text as built

    source = module_from_file("libertalia._spiel_text_source", Path(built.__file__).with_name("_spiel_text.py"))
    for params in ({"players": 3, "loot": "stormy"}, {"players": 1, "loot": "uncharted"}):
        state, rng = _dealt(_load(**params), 2), np.random.default_rng(6)
        while not state.is_terminal():
            for seat in range(len(state.game.players)):
                obs = state.game.observation(seat)
                assert built.table_text(obs, state.game.rules) == source.table_text(obs, state.game.rules)
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_the_player_ids_are_openspiels() -> None:
    """The compiled step module keeps OpenSpiel's chance and terminal player ids without importing pyspiel."""
    from libertalia import _spiel_play

    ids = (_spiel_play.CHANCE, _spiel_play.TERMINAL)
    assert ids == (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL))


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


# ---------------------------------------------------------------- ids, seeds and text from outside
@functools.cache
def _finished() -> tuple[object, str]:
    """A 2-player game played to its end by fixed random choices, and its serialised text."""
    game = _load(players=2, deals=5)
    state, rng = _dealt(game, 2), np.random.default_rng(3)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state.serialize()


def test_an_action_id_out_of_range_is_refused_and_changes_nothing() -> None:
    """Action ids run from 0 to num_distinct_actions - 1: a negative one is never read from the end (spiel_checks)."""
    game = _load(players=2)
    state = _dealt(game)
    n = game.num_distinct_actions()
    for action in (-2, -210, -n, n, n + 5, 2**62):
        with pytest.raises(lt.ArgumentError, match=rf"one of the actions, a whole number from 0 to {n - 1}, not "):
            state.apply_action(action)
        with pytest.raises(lt.ArgumentError, match="one of the actions"):
            state.action_to_string(0, action)
    assert state.history() == [0] and state.game == _dealt(game).game


def test_a_chance_outcome_outside_the_deals_is_refused() -> None:
    """The chance node takes only outcomes 0 to deals - 1, so every dealt state serialises and reads back."""
    game = _load(players=2, deals=6, first_seed=40)
    state = game.new_initial_state()
    for outcome in (6, 7, -5, 2**40):
        with pytest.raises(lt.ArgumentError, match="one of the deals, a whole number from 0 to 5, not "):
            state.apply_action(outcome)
        with pytest.raises(lt.ArgumentError, match="one of the deals"):
            state.action_to_string(pyspiel.PlayerId.CHANCE, outcome)
    assert state.is_chance_node() and state.history() == []
    state.apply_action(5)
    assert state.game.seed == 45 and game.deserialize_state(state.serialize()).game == state.game


def test_no_action_applies_after_the_end() -> None:
    """A finished game takes no action: an ArgumentError, not a bare AssertionError."""
    game, text = _finished()
    state = game.deserialize_state(text)
    assert state.is_terminal()
    with pytest.raises(lt.ArgumentError, match="the game is over; no action can be applied"):
        state.apply_action(0)


def test_first_seed_is_what_an_openspiel_parameter_holds() -> None:
    """first_seed runs to 2**31 - 1 (a C++ int); beyond, the game refuses it with ArgumentError, not a pybind error."""
    top = _load(players=2, deals=3, first_seed=spiel_checks.FIRST_SEED_LIMIT - 1)
    assert _dealt(top, 2).game.seed == 2**31 + 1
    for first_seed in (2**31, 2**63, 2**64 - 1):
        with pytest.raises(lt.ArgumentError, match="first_seed must be a whole number from 0 to 2147483647"):
            spiel.LibertaliaGame({"players": 2, "first_seed": first_seed})
    with pytest.raises(lt.ArgumentError, match="deals must be a whole number from 1 to 1048576"):
        spiel.LibertaliaGame({"players": 2, "deals": 2**31 - 1})


@pytest.mark.parametrize(("text", "message"), [
    ('{"seed": 1.9, "answers": []}', "read the game record: seed: a seed is a whole number"),
    ('{"seed": true, "answers": []}', "read the game record: seed: a seed is a whole number"),
    ('{"seed": 1e999, "answers": []}', "read the game record: seed: a seed is a whole number"),
    ('{"seed": 1, "answers": "Cook"}', "read the game record: answers: must be a list, not 'Cook'"),
    ('{"seed": 1, "answers": [7]}', "read the game record: answers[0]: must be a string, not 7"),
    ("[" * 200_000, "read the game record: the JSON nests"),
    ('{"seed": 9, "answers": []}', "replay the game record: seed: seed 9 is not one of this game's deals, 0 to 4"),
    ('{"seed": 2, "answers": ["Kraken"]}', "replay the game record: answers[0]: 'Kraken' is no answer key"),
    ('{"seed": 2, "answers": ["yes"]}', "replay the game record: answers[0]: choose a character to send"),
])
def test_deserialize_state_raises_record_errors_naming_the_field(text: str, message: str) -> None:
    """deserialize_state reads with the records' reader: RecordError naming the field, never Overflow/Recursion."""
    game, _ = _finished()
    with pytest.raises(lt.RecordError) as caught:
        game.deserialize_state(text)
    assert str(caught.value).startswith(f"cannot {message}")


def test_an_answer_after_the_end_is_a_record_error() -> None:
    """A serialised state with an answer after the game ended is refused, naming that answer."""
    game, text = _finished()
    data = json.loads(text)
    data["answers"].append(data["answers"][-1])
    with pytest.raises(lt.RecordError, match=rf"answers\[{len(data['answers']) - 1}\]: the game ended with the "
                                             "answer before; 1 answers are left"):
        game.deserialize_state(json.dumps(data))


_GAME = functools.cache(lambda: _load(players=2, deals=5, first_seed=10))
_JUNK = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                 max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "seed": st.integers(5, 20) | st.floats(9.5, 15.5) | st.booleans() | _JUNK,
    "answers": st.lists(st.sampled_from(["Cabin Boy", "Beggar", "Bandit", "yes", "no", "map", "x"]) | _JUNK,
                        max_size=6) | _JUNK,
    "extra": _JUNK}) | _JUNK | st.text(max_size=40))
def test_arbitrary_text_deserialises_to_a_state_or_a_library_error(value: object) -> None:
    """Any JSON or text into deserialize_state gives the library's own error or a state that reads back the same."""
    game = _GAME()
    text = value if isinstance(value, str) else json.dumps(value)
    try:
        state = game.deserialize_state(text)
    except lt.LibertaliaError:
        return
    data = json.loads(text)  # taken, so it was exactly a seed among the deals and answer keys, nothing coerced
    assert type(data["seed"]) is int and data["seed"] == state.game.seed and set(data) == {"seed", "answers"}
    assert type(data["answers"]) is list and tuple(data["answers"]) == state.game.history
    again = game.deserialize_state(state.serialize())
    assert again.game == state.game and again.history() == state.history()
