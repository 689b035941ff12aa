"""libertalia.env: the PettingZoo AEC environment, its action universe and its observation vector."""

from __future__ import annotations

import functools
import random
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402 - only once the extra is known to be installed
from pettingzoo.test import api_test, seed_test  # noqa: E402

import libertalia as lt  # noqa: E402
from libertalia.env import (  # noqa: E402
    DECISION_KINDS,
    LibertaliaEnv,
    action_keys,
    env,
    final_rewards,
    observation_layout,
    raw_env,
)

ROOT = Path(__file__).resolve().parents[1]

# The four set-ups the issue names, as (edition, players).
SETUPS = [("galecrest", 4), ("galecrest", 2), ("classic", 3), ("galecrest", 1)]

# Fan cards that reach every key family the bundled cards do not: a character changing hands
# (marked names), a "choose one" and sets of another seat's loot.
MOD_CARDS = {
    "pirate-queen.yaml": "name: Pirate Queen\nrank: 41\ntext: |\n"
                         "  sun: put a character from another player's ship into your ship.\n",
    "kidnapper.yaml": "name: Kidnapper\nrank: 42\ntext: |\n"
                      "  sun: put a character from another player's ship into your hand.\n",
    "sea-witch.yaml": "name: Sea Witch\nrank: 43\ntext: |\n  sun: choose one: gain 3 doubloons; or gain 1 "
                      "reputation; or take a loot from an adjacent player.\n",
    "fence.yaml": "name: Fence\nrank: 44\ntext: |\n  sun: take 1 or 2 loot of one kind from an adjacent player.\n",
}


@functools.cache
def rules(edition: str, loot: str | None = None) -> lt.Rules:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # stormy tiles are reconstructions and say so
        return lt.load_rules(edition, loot=loot)


def quiet(make: Callable[[], Any]) -> Any:
    """``make()`` with the library's "this is a reconstruction" warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        warnings.simplefilter("ignore", lt.UnverifiedSoloWarning)
        return make()


def random_game(game: lt.Game, seed: int, seen: Callable[[lt.Decision], None]) -> lt.Game:
    """Play ``game`` to its end with random answers, showing every decision to ``seen``."""
    rng = random.Random(seed)
    while not game.is_over:
        d = game.decision
        assert d is not None
        seen(d)
        game = game.choose(rng.choice(d.keys()))
    return game


def offered_outside(rules_: lt.Rules, players: int, games: int) -> set[tuple[str, str]]:
    """(decision kind, key) offered in ``games`` random games but missing from ``action_keys``."""
    universe = set(action_keys(rules_, players))
    outside: set[tuple[str, str]] = set()

    def check(d: lt.Decision) -> None:
        outside.update((d.kind, o.key) for o in d.options if o.key not in universe)

    for seed in range(games):
        quiet(lambda: random_game(lt.new_game(rules_, players, seed=seed, log=False), seed, check))  # noqa: B023
    return outside


def play_env(e: Any, seed: int, rng: np.random.Generator) -> dict[str, float]:
    """One episode with random legal actions; each agent's summed rewards."""
    e.reset(seed=seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


# ---------------------------------------------------------------- packaging
def test_import_libertalia_imports_neither_numpy_nor_pettingzoo() -> None:
    """``import libertalia`` (and loading rules) stays free of the rl extra's imports."""
    code = ("import sys, warnings; warnings.simplefilter('ignore'); import libertalia as lt; "
            "lt.load_rules('galecrest'); "
            "print(sorted(m for m in ('numpy', 'pettingzoo', 'gymnasium', 'libertalia.env') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- PettingZoo's own checks
# PettingZoo warns about dict observations for every env but its own, which it lists by name.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning",
                            "ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize(("edition", "players"), SETUPS)
def test_pettingzoo_api_test_passes(edition: str, players: int) -> None:
    """PettingZoo's api_test accepts the env for Galecrest 4p and 2p, Classic 3p and solo."""
    quiet(lambda: api_test(env(rules(edition), players), num_cycles=200))


@pytest.mark.parametrize(("edition", "players"), SETUPS)
def test_pettingzoo_seed_test_passes(edition: str, players: int) -> None:
    """PettingZoo's seed_test finds two envs reset with one seed identical, step by step."""
    quiet(lambda: seed_test(lambda: env(rules(edition), players), num_cycles=200))


def test_metadata_follows_the_pettingzoo_conventions() -> None:
    """The env names itself, offers human and ansi rendering and says it is not parallelizable."""
    assert LibertaliaEnv.metadata == {"name": "libertalia_v0", "render_modes": ["human", "ansi"],
                                      "is_parallelizable": False}
    e = raw_env(rules("galecrest"), 3)
    assert e.possible_agents == ["seat_0", "seat_1", "seat_2"]
    assert isinstance(env(rules("galecrest"), 3).unwrapped, LibertaliaEnv)


# ---------------------------------------------------------------- the action universe
def _every_setup() -> list[tuple[str, str | None, int]]:
    """(edition, loot, players) for every loot choice of each edition and every seat count."""
    out = []
    for edition, loots in (("galecrest", [None, "stormy", "uncharted"]), ("classic", [None])):
        board = rules(edition).board
        counts = ([1] if board.solo is not None else []) + list(range(board.players[0], board.players[1] + 1))
        out += [(edition, loot, n) for loot in loots for n in counts]
    return out


@pytest.mark.parametrize(("edition", "loot", "players"), _every_setup())
def test_random_games_offer_only_keys_of_the_universe(edition: str, loot: str | None, players: int) -> None:
    """In 60 random games per edition, loot side and seat count, every key offered is in action_keys."""
    assert offered_outside(rules(edition, loot), players, games=60) == set()


def test_the_universe_covers_marked_names_choose_one_and_others_loot(tmp_path: Path) -> None:
    """Fan cards add "Cook#1"/"Cook#1@2", "1".."3" and "map@1*2" keys, and random games stay inside them."""
    for name, text in MOD_CARDS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    modded = quiet(lambda: lt.load_rules("galecrest", extra_cards=tmp_path))
    keys = set(action_keys(modded, 4))
    assert {"Cook#1", "Cook#1@2", "Pirate Queen@3", "1", "2", "3", "map@1*2", "map@3"} <= keys
    assert "Cook#1@1" not in keys  # seat 1's Cook held by seat 1 is plain "Cook" again
    assert "Cook#1" not in action_keys(rules("galecrest"), 4)  # no bundled card moves a character between seats
    assert offered_outside(modded, 4, games=20) == set()


def test_the_universe_is_fixed_and_has_no_duplicates() -> None:
    """action_keys is deterministic, duplicate-free, and the solo game's matches two seats'."""
    galecrest = rules("galecrest")
    keys = action_keys(galecrest, 4)
    assert keys == action_keys(galecrest, 4)
    assert len(keys) == len(set(keys))
    assert action_keys(galecrest, 1) == action_keys(galecrest, 2)
    assert {"Cook", "Cook@3", "map", "map@0", "map*3", "yes", "no"} <= set(keys)


@pytest.mark.parametrize(("edition", "players"), [("classic", 1), ("galecrest", 7), ("galecrest", 0)])
def test_seat_counts_the_edition_does_not_allow_are_refused(edition: str, players: int) -> None:
    """A seat count outside the edition's range (or solo without a solo mode) is a ValueError."""
    with pytest.raises(ValueError, match="players"):
        raw_env(rules(edition), players)


# ---------------------------------------------------------------- observations
@pytest.mark.parametrize(("edition", "players"), SETUPS)
def test_the_layout_tiles_the_vector(edition: str, players: int) -> None:
    """observation_layout's slices follow one another with no gap and end at the vector's length."""
    layout = observation_layout(rules(edition), players)
    e = raw_env(rules(edition), players)
    quiet(lambda: e.reset(seed=1))
    at = 0
    for part in layout.values():
        assert part.start == at and part.stop > part.start
        at = part.stop
    obs = e.observe(e.agent_selection)
    assert obs["observation"].shape == (at,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (len(e.keys),) and obs["action_mask"].dtype == np.int8


def test_the_mask_is_exactly_the_offered_keys_and_zero_for_others() -> None:
    """The asked agent's mask marks its legal keys; every other agent's mask is all 0."""
    e = raw_env(rules("galecrest"), 4)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(60):
        legal = set(e.game.legal_keys())
        for agent in e.agents:
            mask = e.observe(agent)["action_mask"]
            expected = legal if agent == e.agent_selection else set()
            assert {e.key(int(i)) for i in np.flatnonzero(mask)} == expected
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))


def test_a_seats_vector_does_not_depend_on_anothers_secret_pick() -> None:
    """Seat 1 sees the same vector whichever character seat 0 committed (commit, then reveal)."""
    galecrest = rules("galecrest")
    layout = observation_layout(galecrest, 4)
    start = lt.new_game(galecrest, 4, seed=2)
    first, second = (start.choose(k) for k in start.legal_keys()[:2])
    a, b = raw_env(galecrest, 4), raw_env(galecrest, 4)
    a.reset(seed=2)
    b.reset(seed=2)
    a.step(a.action(first.history[0]))
    b.step(b.action(second.history[0]))
    seen_a, seen_b = a.observe("seat_1")["observation"], b.observe("seat_1")["observation"]
    assert np.array_equal(seen_a, seen_b)
    assert seen_a[layout["committed"]].tolist() == [1, 0, 0, 0]
    assert a.game.history != b.game.history  # two different picks really were made


def test_other_seats_hands_and_graveyards_are_counted_not_named() -> None:
    """Another seat's hand and graveyard give sizes only; yours and Automa's (solo) show their cards."""
    e = raw_env(rules("galecrest"), 3)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(80):  # into the second voyage: graveyards have cards
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    layout = observation_layout(e.rules, 3)
    x = e.observe("seat_0")["observation"]
    for seat, p in enumerate(e.game.players):
        assert x[layout[f"seat_{seat}.hand_size"]][0] == len(p.hand)
        assert x[layout[f"seat_{seat}.graveyard_size"]][0] == len(p.graveyard)
        shown = x[layout[f"seat_{seat}.hand"]].sum(), x[layout[f"seat_{seat}.graveyard"]].sum()
        assert shown == ((len(p.hand), len(p.graveyard)) if seat == 0 else (0, 0))
    assert e.game.players[1].graveyard  # the hidden graveyard was not empty
    solo = raw_env(rules("galecrest"), 1)
    quiet(lambda: solo.reset(seed=4))
    x = solo.observe("seat_0")["observation"]
    layout = observation_layout(solo.rules, 1)
    assert x[layout["seat_1.automa"]][0] == 1 and x[layout["seat_1.hand"]].sum() == len(solo.game.players[1].hand)


def test_the_vector_reads_back_the_table() -> None:
    """Parts of the vector match the game: hand, scores, loot days, decision kind, phase and island."""
    galecrest = rules("galecrest")
    e = raw_env(galecrest, 4)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    names = [c.name for c in galecrest.characters]
    layout = observation_layout(galecrest, 4)
    while not e.game.island:  # on to the day, after the reveal
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    seat = int(e.agent_selection[-1])
    obs, x = e.game.observation(seat), e.observe(e.agent_selection)["observation"]
    hand = x[layout["hand"]]
    assert sorted(names[i] for i in np.flatnonzero(hand)) == sorted(obs.players[seat].hand)
    for p in obs.players:
        assert x[layout[f"seat_{p.seat}.doubloons"]][0] == p.doubloons
        assert x[layout[f"seat_{p.seat}.reputation"]][0] == p.reputation
    days = x[layout["loot_days"]].reshape(max(galecrest.board.voyage_days), len(galecrest.kinds))
    assert [int(days[i].sum()) for i in range(len(obs.loot_days))] == [len(d) for d in obs.loot_days]
    assert obs.decision is not None
    assert DECISION_KINDS[int(np.argmax(x[layout["decision_kind"]]))] == obs.decision.kind
    assert x[layout["island_size"]][0] == len(obs.island)
    cells = x[layout["island_position"]].reshape(5, len(names))
    left_to_right = sorted(zip(cells[np.nonzero(cells)], zip(*np.nonzero(cells), strict=True), strict=True))
    assert [(int(r), names[c]) for _, (r, c) in left_to_right] == [(s, n) for s, n in obs.island]


def reference_vector(obs: lt.Observation, rules_: lt.Rules, players: int) -> np.ndarray:
    """The vector docs/bots.md describes, built slowly and plainly from the layout, part by part."""
    layout = observation_layout(rules_, players)
    x = np.zeros(max(s.stop for s in layout.values()), dtype=np.float32)
    names = [c.name for c in rules_.characters]
    kinds, n, v, track = list(rules_.kinds), obs.players.__len__(), len(names), len(rules_.board.track_income)

    def put(part: str, at: int, value: float = 1.0, add: bool = True) -> None:
        i = layout[part].start + at
        x[i] = x[i] + value if add else value

    def cards(part: str, zone: tuple[str, ...]) -> None:
        for name in zone:
            if name != "?":
                put(part, names.index(name.partition("#")[0]))

    def tokens(part: str, zone: tuple[str, ...], row: int = 0) -> None:
        for kind in zone:
            put(part, row * len(kinds) + kinds.index(kind))

    put("me", obs.seat)
    cards("hand", obs.players[obs.seat].hand)
    put("voyage", 0, obs.voyage, add=False)
    put("day", 0, obs.day, add=False)
    put("phase", ["select", "day", "dusk", "night", "anchor", "over"].index(obs.phase))
    d = obs.decision
    if d is not None:
        put("decision_kind", DECISION_KINDS.index(d.kind))
        put("decision_mine", 0, float(d.player == obs.seat), add=False)
        put("decision_player", d.player)
        source = (d.source or "").partition("#")[0]
        if source in names:
            put("decision_source", names.index(source))
        elif source in kinds:
            put("decision_source", v + kinds.index(source))
    for seat, done in enumerate(obs.committed):
        put("committed", seat, float(done), add=False)
    for p in obs.players:
        if track:
            put("track", p.seat * track + p.reputation, add=False)
    for position, (owner, name) in enumerate(obs.island, 1):
        cell = (n if owner is None else owner) * v + names.index(name.partition("#")[0])
        put("island_cards", cell)
        if not x[layout["island_position"].start + cell]:
            put("island_position", cell, position, add=False)
    put("island_size", 0, len(obs.island), add=False)
    tokens("day_loot", obs.day_loot)
    for day, loot in enumerate(obs.loot_days):
        tokens("loot_days", loot, day)
    put("solo_deck_size", 0, obs.solo_deck_size, add=False)
    for p in obs.players:
        seat = f"seat_{p.seat}."
        for part, value in (("doubloons", p.doubloons), ("score", p.score), ("reputation", p.reputation),
                            ("automa", p.seat == obs.automa), ("hand_size", len(p.hand)),
                            ("graveyard_size", len(p.graveyard))):
            if seat + part in layout:
                put(seat + part, 0, float(value), add=False)
        for part in ("hand", "ship", "graveyard", "kept", "removed"):
            if seat + part in layout:
                cards(seat + part, getattr(p, part))
        tokens(seat + "loot", p.loot)
        tokens(seat + "kept_loot", p.kept_loot)
    return x


@pytest.mark.parametrize(("edition", "players", "modded"),
                         [("galecrest", 4, False), ("galecrest", 1, False), ("classic", 3, False),
                          ("galecrest", 3, True)])
def test_every_seats_vector_is_the_documented_one(edition: str, players: int, modded: bool, tmp_path: Path) -> None:
    """At every step of random games, each seat's vector equals a plain part-by-part reading of its observation
    (Classic's removed cards, solo's Automa, and with fan cards characters taken over, "Cook#1")."""
    for name, text in MOD_CARDS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    rules_ = quiet(lambda: lt.load_rules(edition, extra_cards=tmp_path)) if modded else rules(edition)
    e = raw_env(rules_, players)
    marked = 0
    for seed in range(2 if modded else 1):
        quiet(lambda: e.reset(seed=seed))  # noqa: B023
        rng = np.random.default_rng(seed)
        while not e.game.is_over:
            for seat in range(len(e.game.players)):
                expected = reference_vector(e.game.observation(seat), rules_, players)
                assert np.array_equal(e.encoder.encode(e.game.observation(seat)), expected)
            marked += sum("#" in name for p in e.game.players for name in p.ship + p.hand)
            e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert marked or not modded  # the fan cards did move a character between seats


# ---------------------------------------------------------------- rewards
@pytest.mark.parametrize(("edition", "players", "reward"),
                         [("galecrest", 4, "win"), ("galecrest", 4, "margin"), ("classic", 3, "win"),
                          ("galecrest", 1, "win"), ("galecrest", 1, "margin")])
def test_rewards_come_at_the_end_and_follow_the_scores(edition: str, players: int, reward: str) -> None:
    """Summed rewards equal final_rewards: 1 shared by the winners, or own score minus the best other."""
    e = env(rules(edition), players, reward=reward)
    for seed in range(3):
        total = quiet(lambda: play_env(e, seed, np.random.default_rng(seed)))  # noqa: B023
        game = e.unwrapped.game
        scores, winners = game.final_scores(), game.winners()
        expected = final_rewards(game, reward)  # type: ignore[arg-type]
        assert total == {f"seat_{s}": expected[s] for s in range(len(total))}
        if reward == "win":
            assert expected == tuple(1 / len(winners) if s in winners else 0.0 for s in range(len(scores)))
        else:
            assert expected[0] == scores[0] - max(scores[1:])


def test_a_shared_win_splits_the_reward() -> None:
    """With Classic's shared ties, two winners get one half each (final_rewards on a tied game)."""
    classic = rules("classic")
    for seed in range(400):
        game = lt.play(classic, [lt.agents.RandomAgent(s) for s in range(2)], seed=seed, log=False)
        if len(game.winners()) == 2:
            assert final_rewards(game, "win") == (0.5, 0.5)
            return
    pytest.fail("no tied two-player Classic game in 400 seeds")


# ---------------------------------------------------------------- seeding, errors, rendering
def test_reset_with_a_seed_is_new_game_with_that_seed() -> None:
    """reset(seed=s) plays lt.new_game(rules, players, s): the same keys give the same game."""
    galecrest = rules("galecrest", "uncharted")
    e = raw_env(galecrest, 3, log=True)
    play_env(e, 11, np.random.default_rng(0))
    again = lt.new_game(galecrest, 3, seed=11)
    for key in e.game.history:
        again = again.choose(key)
    assert again == e.game and e.game.seed == 11


def test_resets_without_a_seed_repeat_after_a_seeded_one() -> None:
    """After reset(seed=s), further reset() calls draw the same game seeds every time."""
    def seeds() -> list[int]:
        e = raw_env(rules("galecrest"), 2)
        e.reset(seed=3)
        out = [e.game.seed]
        for _ in range(3):
            e.reset()
            out.append(e.game.seed)
        return out
    first = seeds()
    assert first == seeds() and first[0] == 3 and len(set(first)) == 4


def test_illegal_and_out_of_range_actions_raise() -> None:
    """A key not offered raises lt.IllegalChoice; an index outside the space raises ValueError."""
    e = raw_env(rules("galecrest"), 4)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(lt.IllegalChoice):
        e.step(int(np.flatnonzero(mask == 0)[0]))
    for bad in (-1, len(e.keys)):
        with pytest.raises(ValueError, match="action must be"):
            e.step(bad)


def test_bad_arguments_are_refused() -> None:
    """An unknown reward or render mode, or loot with loaded rules, is a ValueError."""
    with pytest.raises(ValueError, match="reward"):
        raw_env(rules("galecrest"), 4, reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(rules("galecrest"), 4, render_mode="rgb_array")
    with pytest.raises(ValueError, match="loot"):
        raw_env(rules("galecrest"), 4, loot="stormy")


def test_an_edition_name_and_loot_load_the_rules() -> None:
    """rules="classic" loads Classic; loot="stormy" gives every kind its stormy side."""
    assert raw_env("classic", 3).rules.board.edition == "classic"
    stormy = quiet(lambda: raw_env("galecrest", 2, loot="stormy"))
    assert set(stormy.rules.loot_sides.values()) == {"stormy"}


def test_ansi_render_shows_the_selected_seats_table() -> None:
    """render_mode="ansi" returns Game.render for the selected seat; no mode returns None."""
    e = raw_env(rules("galecrest"), 4, render_mode="ansi")
    e.reset(seed=7)
    assert e.render() == e.game.render(int(e.agent_selection[-1]))
    plain = raw_env(rules("galecrest"), 4)
    plain.reset(seed=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert plain.render() is None


# ---------------------------------------------------------------- the documentation
def test_the_random_policy_loop_in_the_docs_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/bots.md's python block (a random policy over the action mask) runs as written."""
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M) if "agent_iter()" in b]
    assert len(blocks) == 1
    exec(compile(blocks[0], "docs/bots.md", "exec"), {"__name__": "docs"})  # noqa: S102 - the point
    assert "game 2: scores" in capsys.readouterr().out


def test_the_documented_sizes_match() -> None:
    """The sizes docs/bots.md quotes are the ones the functions give."""
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    galecrest, classic = rules("galecrest"), rules("classic")
    sizes = [(galecrest, 2, 165, 787), (galecrest, 4, 259, 1337), (galecrest, 6, 353, 1887), (classic, 3, 143, 889)]
    for rules_, players, n_keys, n_obs in sizes:
        assert len(action_keys(rules_, players)) == n_keys
        assert max(s.stop for s in observation_layout(rules_, players).values()) == n_obs
        assert f"{n_obs:,}" in text and str(n_keys) in text
    assert len(action_keys(classic, 2)) == 113 and len(action_keys(classic, 6)) == 233


def test_without_the_extra_the_import_says_what_to_install() -> None:
    """Importing libertalia.env without pettingzoo names the rl extra to install."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "try:\n    import libertalia.env\nexcept ModuleNotFoundError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install '.[rl]'" in out and "pettingzoo" in out and "libertalia[" not in out
