"""The observation vector's compiled fill (``libertalia._vector``) gives the numpy encoder's very bits (issue 36).

``Encoder.encode`` is the numpy way (the faster one interpreted); ``Encoder.encode_compiled`` runs
``_vector.Fill``, which the compiled build compiles and then uses for ``encode``.  The comparison runs
in either build: interpreted it checks the fill's source, compiled its machine code.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402 - only once the extra is known to be installed

import libertalia as lt  # noqa: E402
from libertalia import _vector  # noqa: E402
from libertalia.env import raw_env  # noqa: E402
from libertalia.env.encoding import Encoder  # noqa: E402
from tests.test_env_fast_observe import MOD_CARDS, _setups, quiet  # noqa: E402
from tests.test_env_fast_observe import rules as loaded  # noqa: E402


def _compare_line(rules: lt.Rules, players: int, seed: int) -> int:
    """A random choose() line: at every game, each seat's vector both ways, off the frozen observation and
    off the working copy (``Game._glance``), bit for bit; returns the vectors compared."""
    encoder = Encoder(rules, players)
    numpy_way, fill_way = (lambda obs: Encoder.encode(encoder, obs)), encoder.encode_compiled
    rng = random.Random(seed)
    game = quiet(lambda: lt.new_game(rules, players, seed))
    compared = 0
    while True:
        seats = range(game._base.players)  # Automa's seat too, solo
        # Off the working copy first, while the game is unfrozen; the frozen observation freezes it.
        fast = [(game._glance(seat, numpy_way), game._glance(seat, fill_way)) for seat in seats]
        for seat in seats:
            frozen = game.observation(seat)
            expected = numpy_way(frozen).tobytes()
            a, b = fast[seat]
            assert a is not None and b is not None
            assert a.tobytes() == b.tobytes() == fill_way(frozen).tobytes() == expected, (seed, seat)
            compared += 1
        if game.is_over:
            return compared
        d = game.decision
        assert d is not None
        game = game.choose(rng.choice(d.keys()))


@pytest.mark.parametrize(("edition", "loot", "players"), _setups())
def test_the_fill_gives_the_numpy_encoders_bits(edition: str, loot: str | None, players: int) -> None:
    """Issue 36 item 2: the compiled fill's vector is bit-identical to the numpy encoder's, every seat, every step."""
    assert sum(_compare_line(loaded(edition, loot), players, seed) for seed in range(2)) > 100


def test_the_fill_reads_marked_names_as_their_plain_card(tmp_path: Path) -> None:
    """Issue 36 item 2: characters that changed hands ("Cook#1") count as their plain card in the fill too."""
    for name, text in MOD_CARDS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    modded = quiet(lambda: lt.load_rules("galecrest", extra_cards=tmp_path))
    for seed in range(3):
        _compare_line(modded, 3, seed)


def test_the_fill_refuses_a_card_the_layout_lacks() -> None:
    """Issue 36 item 2: a name that is no card of the rules is a KeyError in the fill, as in the numpy encoder."""
    encoder = Encoder(loaded("galecrest", None), 3)
    game = quiet(lambda: lt.new_game(loaded("galecrest", None), 3, 1))
    seen: Any = game.observation(0)

    class Odd:  # the seat's view, with a hand holding an unknown card
        def __getattr__(self, name: str) -> Any:
            return getattr(seen, name)

        @property
        def players(self) -> Any:
            class Seat:
                def __getattr__(self, name: str) -> Any:
                    return getattr(seen.players[0], name)

                hand = ("Nobody at all",)
            return (Seat(), *seen.players[1:])

    with pytest.raises(KeyError):
        Encoder.encode(encoder, Odd())  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        encoder.encode_compiled(Odd())  # type: ignore[arg-type]


def test_the_env_encodes_with_the_fill_where_it_is_compiled() -> None:
    """Issue 36 item 2: in the compiled build the env's vector comes from the compiled fill (skipped when pure)."""
    if not _vector.NATIVE:
        pytest.skip("the pure build is imported (LIBERTALIA_COMPILE=1 builds the compiled one)")
    env = raw_env("galecrest", 4)
    assert env.encoder.encode == env.encoder.encode_compiled
    env.reset(seed=3)
    x = env.observe(env.agent_selection)["observation"]
    assert x.dtype == np.float32 and x.flags.writeable


def test_an_env_pickles_and_copies_with_its_fill() -> None:
    """Issue 36 item 2: the fill pickles as its constructor's arguments: an env pickles and copies in either build."""
    import copy
    import pickle

    env = raw_env("galecrest", 3)
    env.reset(seed=6)
    agent = env.agent_selection
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert twin.observe(agent)["observation"].tobytes() == env.observe(agent)["observation"].tobytes()
        assert twin.encoder.fill.fill(twin.game.observation(0)) == env.encoder.fill.fill(env.game.observation(0))


def test_the_fills_kept_vectors_never_show_through() -> None:
    """Issue 36 item 2: the fill rewrites only what changed since a seat's last vector, so it is checked out of
    order: two games interleaved, seats in a random order, a seat's view repeated, and every vector it returned
    scribbled on by its caller; each is still the numpy encoder's, bit for bit."""
    rules = loaded("galecrest", "uncharted")
    encoder = Encoder(rules, 4)
    rng = random.Random(11)
    games = [quiet(lambda s=s: lt.new_game(rules, 4, s)) for s in (21, 22)]
    for _ in range(150):
        g = rng.randrange(2)
        game = games[g]
        for seat in rng.sample(range(4), rng.randint(1, 4)):
            seen = game.observation(seat)
            got = encoder.encode_compiled(seen)
            assert got.tobytes() == Encoder.encode(encoder, seen).tobytes()
            got[:] = 7.0  # the caller's copy: the next vector never sees it
        d = game.decision
        if d is None:
            games[g] = quiet(lambda: lt.new_game(rules, 4, rng.randrange(100)))
        else:
            games[g] = game.choose(rng.choice(d.keys()))


def _work_line(rules_: lt.Rules, players: int, seed: int, fill: _vector.Fill, encoder: Encoder) -> int:
    """A random env game read through ``Fill.fill_work`` (the env's step), seats in a random order, some twice,
    each vector scribbled on once returned; every one against the numpy encoder's vector of the frozen
    observation of the same game played beside it with ``choose``.  Returns the vectors compared."""
    env = raw_env(rules_, players)
    env.reset(seed=seed)
    game = quiet(lambda: lt.new_game(rules_, players, seed))
    rng = random.Random(seed)
    compared = 0
    while not game.is_over:  # the env hands its copy to a Game once over (for the rewards): not read here
        w = env._work
        assert w is not None, "the env steps its working copy while nobody reads its game"
        seats = list(range(w.n))  # Automa's seat too, solo
        for seat in rng.sample(seats, rng.randint(1, len(seats))) + rng.sample(seats, 1):
            raw = fill.fill_work(w, w.decision, seat)
            assert bytes(raw) == Encoder.encode(encoder, game.observation(seat)).tobytes(), (seed, seat)
            raw[:] = bytes(len(raw))  # the caller's copy: the next vector never sees it
            compared += 1
        d = game.decision
        assert d is not None
        key = rng.choice(d.keys())
        env.step(env.action(key))
        game = game.choose(key)
    return compared


@pytest.mark.parametrize("setup", _setups(), ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}")
def test_the_fill_off_the_working_copy_is_the_observations_vector(setup: tuple[str, str | None, int]) -> None:
    """Issue 36 item 2: the env's step reads the working copy straight (``Fill.fill_work``: one public vector
    kept for all seats, each seat's own parts laid over a copy), and still gives the numpy encoder's bits
    for every seat's frozen observation, one fill shared by games played one after another."""
    edition, loot, players = setup
    rules_ = loaded(edition, loot)
    encoder = Encoder(rules_, players)
    assert sum(_work_line(rules_, players, seed, encoder.fill, encoder) for seed in range(2)) > 0


def test_the_fill_off_the_working_copy_reads_marked_names(tmp_path: Path) -> None:
    """Issue 36 item 2: characters that changed hands ("Cook#1") count as their plain card off the working copy too,
    a seat's own hand and graveyard included."""
    for name, text in MOD_CARDS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    modded = quiet(lambda: lt.load_rules("galecrest", extra_cards=tmp_path))
    encoder = Encoder(modded, 3)
    for seed in range(4):
        _work_line(modded, 3, seed, encoder.fill, encoder)
