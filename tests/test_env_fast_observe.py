"""The env's observe without freezing (``Game._glance``): the frozen observation's very vector, the same games."""

from __future__ import annotations

import random
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402 - only once the extra is known to be installed

import libertalia as lt  # noqa: E402
from libertalia.env import raw_env  # noqa: E402
from libertalia.env.encoding import Encoder  # noqa: E402
from tests.test_env import MOD_CARDS as MOD_CARDS_OF_TEST_ENV  # noqa: E402
from tests.test_env import rules  # noqa: E402 - the same cached, warning-free loads

# Fan cards that hand characters between seats ("Cook#1") and take others' loot: test_env's, its
# choose-one card aside.
MOD_CARDS = {name: text for name, text in MOD_CARDS_OF_TEST_ENV.items() if name != "sea-witch.yaml"}


def quiet(make: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


def _setups() -> list[tuple[str, str | None, int]]:
    """Every edition, seat count (solo too where the board has it) and loot side the env takes."""
    out = []
    for edition, loots in (("galecrest", [None, "stormy", "uncharted"]), ("classic", [None])):
        board = rules(edition).board
        counts = ([1] if board.solo is not None else []) + list(range(board.players[0], board.players[1] + 1))
        out += [(edition, loot, n) for loot in loots for n in counts]
    return out


def _fast(game: lt.Game, encoder: Encoder, seat: int) -> np.ndarray[Any, Any]:
    x = game._glance(seat, encoder.encode)
    assert x is not None, "the newest game of a choose() line holds its working copy"
    return x


def _check_line(rules_: lt.Rules, players: int, seed: int, log: bool) -> dict[str, int]:
    """A random choose() line; at every game, each seat's fast vector against the frozen observation's
    (every seat, so each sees another's pending question hidden, and Automa's seat in a solo game)."""
    encoder = Encoder(rules_, players)
    rng = random.Random(seed)
    game = quiet(lambda: lt.new_game(rules_, players, seed, log=log))
    seen = {"mid_ability": 0, "steps": 0}
    while True:
        seats = game._base.players  # Automa's seat too, solo
        # Fast first, while the game is still unfrozen; the frozen reading comes second.
        fast = [_fast(game, encoder, seat) for seat in range(seats)]
        assert game._state is None, "observing froze nothing"
        for seat in range(seats):
            assert np.array_equal(fast[seat], encoder.encode(game.observation(seat))), (seed, seat, game)
        if game.is_over:
            return seen
        d = game.decision
        assert d is not None
        seen["steps"] += 1
        seen["mid_ability"] += bool(game.state.frames)
        game = game.choose(rng.choice(d.keys()))


@pytest.mark.parametrize(("edition", "loot", "players"), _setups())
def test_fast_vector_equals_the_frozen_observations(edition: str, loot: str | None, players: int) -> None:
    """Every seat's vector from the working copy equals encode(observation(seat)), at every step to game over."""
    totals = {"mid_ability": 0, "steps": 0}
    for seed in range(3):
        for key, n in _check_line(rules(edition, loot), players, seed, log=seed % 2 == 0).items():
            totals[key] += n
    assert totals["steps"] > 50 and totals["mid_ability"] > 0  # questions asked inside abilities too


def test_fast_vector_equals_the_frozen_one_with_characters_changing_hands(tmp_path: Path) -> None:
    """Marked names ("Cook#1") in ships, hands and on the island encode as their plain card on both paths."""
    for name, text in MOD_CARDS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    modded = quiet(lambda: lt.load_rules("galecrest", extra_cards=tmp_path))
    for seed in range(4):
        _check_line(modded, 3, seed, log=False)


def test_other_loot_sides_by_kind_encode_alike() -> None:
    """A mapping of kind to side (stormy map only) reads the same through both paths."""
    mixed = quiet(lambda: lt.load_rules("galecrest", loot={"map": "stormy", "relic": "stormy"}))
    for seed in range(3):
        _check_line(mixed, 4, seed, log=True)


def test_env_observe_equals_the_frozen_observation_and_freezes_nothing() -> None:
    """LibertaliaEnv.observe's vector is encode(observation(seat)); the env's game stays unfrozen, holding its copy."""
    for players in (1, 3, 5):
        e = raw_env(rules("galecrest"), players)
        rng = np.random.default_rng(players)
        quiet(lambda: e.reset(seed=players))  # noqa: B023
        last = None
        for agent in e.agent_iter():
            observed = {a: e.observe(a)["observation"] for a in e.agents}
            game = e.game
            if game is not last:  # (the finished game stays, and the comparison below froze it)
                assert game._state is None and game._live, "observe froze the game or let its working copy go"
                for a, x in observed.items():
                    assert np.array_equal(x, e.encoder.encode(game.observation(int(a.rpartition("_")[2]))))
                last = game
            if e.terminations[agent]:
                e.step(None)
            else:
                e.step(int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]))))


def test_a_game_without_its_working_copy_falls_back_to_the_observation() -> None:
    """An older game of the line, a game made from a state and a finished frozen game have no copy: same vector."""
    r = rules("galecrest")
    encoder = Encoder(r, 4)
    first = lt.new_game(r, 4, seed=5, log=False)
    second = first.choose(first.legal_keys()[0])
    assert first._glance(0, encoder.encode) is None  # its working copy moved on to ``second``
    assert lt.Game(r, second.state)._glance(0, encoder.encode) is None
    e = raw_env(r, 4)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    while not e.game.is_over:
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    fast = [e.observe(f"seat_{seat}")["observation"] for seat in range(4)]
    e.game.state  # noqa: B018 - a finished game frozen lets its working copy go
    assert e.game._glance(0, encoder.encode) is None
    for seat in range(4):
        slow = e.observe(f"seat_{seat}")["observation"]
        assert np.array_equal(slow, fast[seat]) and np.array_equal(slow, encoder.encode(e.game.observation(seat)))


@pytest.mark.parametrize(("edition", "players"), [("galecrest", 4), ("galecrest", 1), ("classic", 5)])
def test_env_plays_the_games_lt_play_does(edition: str, players: int) -> None:
    """Observing every step changes no game: the env's histories equal lt.play's for the same agents."""
    r = rules(edition)
    e = raw_env(r, players)
    for seed in range(4):
        agents = [lt.agents.RandomAgent(seed * 16 + i) for i in range(players)]  # solo: one, Automa is asked nothing
        quiet(lambda: e.reset(seed=seed))  # noqa: B023
        for agent in e.agent_iter():
            observation, *_ = e.last()
            d = e.game.decision
            if d is None:
                e.step(None)
                continue
            action = e.action(agents[d.player].choose(e.game.observation(d.player), d))
            assert observation["action_mask"][action] == 1 and agent == f"seat_{d.player}"
            e.step(action)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = lt.play(r, [lt.agents.RandomAgent(seed * 16 + i) for i in range(players)], seed=seed, log=False)
        assert e.game.history == expected.history and e.game.final_scores() == expected.final_scores()


def _race(game: lt.Game, encoder: Encoder) -> list[tuple[str, Any, Any]]:
    """Four answers and four seats' vectors of ``game`` on threads of their own; the answers wait until
    one observe holds the working copy, and it holds it until they are done, so they find none."""
    keys = game.legal_keys()
    results: list[Any] = [None] * 8
    claimed, answered = threading.Event(), threading.Event()
    done = [0]
    lock = threading.Lock()

    def hold(view: Any) -> Any:
        claimed.set()
        answered.wait(30)
        return encoder.encode(view)

    def task(i: int) -> None:
        if i % 2:
            claimed.wait(30)
            key = keys[i % len(keys)]
            results[i] = ("state", key, game.choose(key).state)
            with lock:
                done[0] += 1
                if done[0] == 4:
                    answered.set()
        else:
            seat = i // 2
            x = game._glance(seat, hold)
            results[i] = ("vector", seat, encoder.encode(game.observation(seat)) if x is None else x, x is not None)

    threads = [threading.Thread(target=task, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert None not in results, "a task raised"
    assert sum(r[0] == "vector" and r[3] for r in results) == 1, "one observe held the working copy"
    return [r[:3] for r in results]


def _line(r: lt.Rules, seed: int) -> lt.Game:
    """The newest game of a random choose() line (it holds the working copy)."""
    game = lt.new_game(r, 4, seed=seed, log=False)
    rng = random.Random(seed)
    for _ in range(rng.randrange(5, 40)):
        game = game.choose(rng.choice(game.legal_keys()))
    return game


def test_threads_answering_while_another_observes_get_the_serial_games() -> None:
    """A choose() on a game whose working copy is out for an observe rebuilds it; every answer and vector is
    the serial one, and the game keeps its working copy and state."""
    r = rules("galecrest")
    encoder = Encoder(r, 4)
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch every microsecond, so that races show
    try:
        for seed in range(8):
            here = _line(r, seed).state  # a line of its own, frozen: the serial answers
            serial_states = {key: lt.Game(r, here).choose(key).state for key in lt.Game(r, here).legal_keys()}
            serial_vectors = [encoder.encode(lt.Game(r, here).observation(seat)) for seat in range(4)]
            game = _line(r, seed)  # the same line again, unfrozen
            for kind, what, value in _race(game, encoder):
                if kind == "state":
                    assert value == serial_states[what]
                else:
                    assert np.array_equal(value, serial_vectors[what])
            assert game._live and game.state == here  # the working copy is back; the game itself unchanged
    finally:
        sys.setswitchinterval(before)
