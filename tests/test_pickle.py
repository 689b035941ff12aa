"""Pickles and copies of rules, games, observations and decisions: equal values that play on identically."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs
import pytest

import libertalia as lt
from libertalia import pickling
from libertalia.engine import rng
from tests.helpers import fresh_pickle_registry

PROTOCOLS = (pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL)
MOD_CARD = "name: Pirate Queen\nrank: 41\ntext: |\n  sun: gain 2 doubloons.\n"


@pytest.fixture(scope="module", autouse=True)
def fresh_registry() -> Iterator[None]:
    """Start this module with no rules seen, and leave none behind (``helpers.fresh_pickle_registry``)."""
    with fresh_pickle_registry():
        yield


@pytest.fixture(scope="module")
def mod_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mod")
    (folder / "pirate-queen.yaml").write_text(MOD_CARD, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def cases(mod_folder: Path) -> dict[str, tuple[lt.Rules, int]]:
    """Rules and a seat count for each kind of game: both editions, solo, uncharted sides and a mod."""
    galecrest = lt.load_rules("galecrest")
    return {
        "galecrest": (galecrest, 4),
        "classic": (lt.load_rules("classic"), 3),
        "solo": (galecrest, 1),
        "uncharted": (lt.load_rules("galecrest", loot="uncharted"), 3),
        "mod": (lt.load_rules("galecrest", extra_cards=mod_folder), 5),
    }


CASES = ("galecrest", "classic", "solo", "uncharted", "mod")


def _key(game: lt.Game, i: int) -> str:
    keys = game.legal_keys()
    return keys[rng.draw(game.seed, 1000 + i, len(keys))]


def _mid_voyage(rules: lt.Rules, players: int, seed: int, answers: int = 12) -> lt.Game:
    """A game at least ``answers`` answers in, then at the next question that is not a pick (a day under way)."""
    game = lt.new_game(rules, players, seed=seed)
    for i in range(answers):
        game = game.choose(_key(game, i))
    while game.decision is not None and game.decision.kind == "play_character" and answers:
        game = game.choose(_key(game, len(game.history)))
    assert game.decision is not None and game.day >= 1
    return game


def _agents(players: int, seed: int) -> list[lt.agents.RandomAgent]:
    return [lt.agents.RandomAgent(seed * 16 + seat) for seat in range(players)]


def _round_trips(value: object) -> list[object]:
    """``value`` pickled with each protocol, and deep- and shallow-copied."""
    return [*(pickle.loads(pickle.dumps(value, protocol=p)) for p in PROTOCOLS), copy.deepcopy(value),
            copy.copy(value)]


def _play_out(game: lt.Game, seed: int) -> lt.Game:
    """What a worker process does with a game it receives: play it out with seeded bots."""
    return game.play_out(_agents(game.state.players, seed))


# ---------------------------------------------------------------- rules
@pytest.mark.parametrize("case", CASES)
def test_rules_and_a_games_rules_round_trip_to_the_same_rules(case: str, cases: dict[str, tuple[lt.Rules, int]],
                                                               ) -> None:
    """Loaded rules and a game's own (uncharted sides drawn, solo tiles) come back equal, as the very object here."""
    rules, players = cases[case]
    own = lt.new_game(rules, players, seed=9).rules
    for value in (rules, own):
        for again in _round_trips(value):
            assert again == value and again is value
    assert (own is not rules) == (case in ("solo", "uncharted"))


def test_two_loads_of_the_same_rules_come_back_as_the_first_one_met(cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """Rules loaded again in this process pickle as the first equal rules met, so games of both stay equal."""
    first, players = cases["galecrest"]
    pickle.dumps(first)
    second = lt.load_rules("galecrest")
    assert second == first and second is not first
    again = pickle.loads(pickle.dumps(lt.new_game(second, players, seed=4)))
    assert again.rules is first and again == lt.new_game(first, players, seed=4)


@pytest.mark.parametrize("case", CASES)
def test_loaded_rules_pickle_as_their_load_arguments(case: str, cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """A pickle of loaded rules is their load arguments and stamp (a few hundred bytes), not their programs."""
    rules, players = cases[case]
    for value in (rules, lt.new_game(rules, players, seed=9).rules):
        data = pickle.dumps(value)
        assert len(data) < 1000 and rules.fingerprint.encode() in data


def test_changed_rules_pickle_field_by_field(cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """Rules changed after loading (``attrs.evolve``, as tests and the fuzzer do) pickle whole, and stay changed."""
    rules = cases["galecrest"][0]
    cook = rules.card("Cook")
    changed = attrs.evolve(rules, characters=tuple(attrs.evolve(c, text=c.text + "\n") if c is cook else c
                                                   for c in rules.characters))
    assert changed != rules and changed.load_args == rules.load_args
    for protocol in PROTOCOLS:
        data = pickle.dumps(changed, protocol=protocol)
        again = pickle.loads(data)
        assert len(data) > 20_000 and again == changed and again != rules and again is not changed
        assert again.card("Cook").text == cook.text + "\n"
    game = _mid_voyage(changed, 3, seed=4)
    again_game = pickle.loads(pickle.dumps(game))
    assert again_game == game and again_game.rules == changed
    assert _play_out(again_game, 4).to_json() == _play_out(game, 4).to_json()


def test_rules_whose_files_changed_since_the_pickle_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 ) -> None:
    """Unpickling loads rules again and compares fingerprints, as a save does: edited card files are a RulesError."""
    (tmp_path / "pirate-queen.yaml").write_text(MOD_CARD, encoding="utf-8")
    data = pickle.dumps(lt.new_game(lt.load_rules("galecrest", extra_cards=tmp_path), 3, seed=1))
    (tmp_path / "pirate-queen.yaml").write_text(MOD_CARD.replace("2 doubloons", "3 doubloons"), encoding="utf-8")
    monkeypatch.setattr(pickling, "_LOADED", {})  # as in a fresh process
    with pytest.raises(lt.RulesError, match="files have changed since the pickle was made"):
        pickle.loads(data)


def test_threads_unpickling_at_once_load_the_rules_once(monkeypatch: pytest.MonkeyPatch,
                                                        cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """Eight threads unpickling games of unloaded rules together get one rules object, equal to the sender's."""
    rules, players = cases["uncharted"]
    data = [pickle.dumps(_mid_voyage(rules, players, seed)) for seed in range(8)]
    monkeypatch.setattr(pickling, "_LOADED", {})
    barrier = threading.Barrier(len(data))
    results: list[lt.Game | None] = [None] * len(data)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = pickle.loads(data[i])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(data))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    games = [g for g in results if g is not None]
    assert len(games) == len(data) and len(pickling._LOADED) == 1
    (loaded,) = pickling._LOADED.values()
    assert loaded is not rules and loaded == rules
    assert all(g.rules is loaded.for_game(g.seed) and g == _mid_voyage(rules, players, g.seed) for g in games)


# ---------------------------------------------------------------- games
@pytest.mark.parametrize("case", CASES)
def test_a_game_mid_voyage_round_trips_and_plays_on_identically(case: str,
                                                               cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """A pickled or copied game waiting for a decision is equal, and the same answers give the same keys and events."""
    rules, players = cases[case]
    game = _mid_voyage(rules, players, seed=3)
    for again in _round_trips(game):
        assert isinstance(again, lt.Game) and again == game and again.rules is game.rules
        a, b = game, again
        for i in range(30):
            if a.is_over:
                break
            assert a.legal_keys() == b.legal_keys() and a.decision == b.decision
            key = _key(a, 100 + i)
            before_a, before_b = a, b
            a, b = a.choose(key), b.choose(key)
            assert a.events_since(before_a) == b.events_since(before_b)
        assert a == b and a.to_json() == b.to_json()


def test_copies_of_a_game_are_the_game_itself(cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """A game is an immutable value: ``copy.copy`` and ``copy.deepcopy`` return it, also inside a structure."""
    game = _mid_voyage(*cases["galecrest"], seed=5)
    assert copy.copy(game) is game and copy.deepcopy(game) is game
    held = ([game, game], game.rules)
    copied = copy.deepcopy(held)
    assert copied == held and copied[0][1] is game and copied[1] is game.rules and copied[0] is not held[0]


def test_the_newest_and_a_finished_game_round_trip(cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """The newest game of a choose() line (it owns the working copy) and a play_out result pickle as equal games."""
    rules, players = cases["classic"]
    newest = _mid_voyage(rules, players, seed=6)
    pickled = pickle.dumps(newest)  # before anything read its state
    finished = _play_out(newest, 6)
    assert pickle.loads(pickled) == newest
    again = pickle.loads(pickle.dumps(finished))
    assert again == finished and again.is_over and again.events == finished.events
    assert again.final_scores() == finished.final_scores() and again.winners() == finished.winners()


def test_a_game_without_a_log_round_trips(cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """A game started with ``log=False`` pickles with no log and plays on without one."""
    rules, players = cases["galecrest"]
    game = lt.new_game(rules, players, seed=2, log=False).choose("Officer")
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.state.journal is None and _play_out(again, 2) == _play_out(game, 2)


# ---------------------------------------------------------------- observations and decisions
@pytest.mark.parametrize("case", CASES)
def test_observations_and_decisions_round_trip(case: str, cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """Every seat's observation and the pending decision come back equal, and the observation still reads the same."""
    rules, players = cases[case]
    game = _mid_voyage(rules, players, seed=8)
    for seat in range(game.state.players):
        seen = game.observation(seat)
        for again in _round_trips(seen):
            assert isinstance(again, lt.Observation) and again == seen and hash(again) == hash(seen)
            assert (again.players, again.decision, again.events) == (seen.players, seen.decision, seen.events)
    for again in _round_trips(game.decision):
        assert again == game.decision


def test_observations_compare_by_what_their_seat_sees(cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """Observations differ by seat or by what is in sight; a sampled world, differing only out of sight, is equal."""
    import random

    game = _mid_voyage(*cases["galecrest"], seed=7, answers=1)  # seat 0 has picked, unseen by seat 1
    seen = game.observation(1)
    assert seen != game.observation(0) and seen != game.choose(game.legal_keys()[0]).observation(1)
    worlds = [seen.sample_game(random.Random(i)) for i in range(5)]
    assert any(w.state != game.state for w in worlds)
    assert all(w.observation(1) == seen and hash(w.observation(1)) == hash(seen) for w in worlds)


def test_an_agents_observation_inside_play_out_copies_as_the_game_then(
        cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """The live view ``play_out`` gives agents pickles and copies as a view of the game at that question."""
    rules, players = cases["galecrest"]
    kept: list[tuple[object, ...]] = []

    class Keeper(lt.agents.FirstOptionAgent):
        def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
            if len(kept) < 3:
                kept.append((pickle.loads(pickle.dumps(observation)), copy.deepcopy(observation),
                             copy.copy(observation), observation.players, observation.decision))
            return super().choose(observation, decision)

    game = lt.new_game(rules, players, seed=1)
    game.play_out([Keeper() for _ in range(players)])
    line = [game]
    for _ in range(2):
        line.append(line[-1].choose(line[-1].legal_keys()[0]))
    assert len(kept) == 3
    for (pickled, deep, shallow, seen_players, seen_decision), then in zip(kept, line, strict=True):
        expected = then.observation(then.decision.player)  # type: ignore[union-attr]
        assert pickled == deep == shallow == expected
        assert (pickled.players, pickled.decision) == (seen_players, seen_decision)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- other processes
def _worker_results(games: list[lt.Game], play: Callable[[lt.Game, int], lt.Game]) -> list[lt.Game]:
    # spawn, not fork: each worker starts empty and loads the rules from the pickles it receives.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        return list(pool.map(play, games, [g.seed for g in games]))


def test_a_process_pool_plays_received_games_as_this_process_does(cases: dict[str, tuple[lt.Rules, int]]) -> None:
    """Games sent to two worker processes, played out there with seeded bots, come back equal to playing them here."""
    games = [_mid_voyage(*cases[case], seed=seed) for seed, case in enumerate(CASES * 2, start=20)]
    results = _worker_results(games, _play_out)
    here = [_play_out(g, g.seed) for g in games]
    assert len(results) == len(games)
    for there, mine in zip(results, here, strict=True):
        assert there == mine and there.is_over and there.rules is mine.rules
        assert there.final_scores() == mine.final_scores() and there.events == mine.events
        assert there.to_json() == mine.to_json()
