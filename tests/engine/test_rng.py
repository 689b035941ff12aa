"""The game's random numbers: SplitMix64 draws, the same in the pure and the compiled build.

``rng.draw`` takes its first try in wrapping 64-bit words when its module is compiled
(``rng._NATIVE``) and in whole numbers otherwise.  These tests hold whichever build runs them to
one reference, written here from the algorithm's definition (CI runs them on both builds), so
that neither can drift from the games that saves and records replay.
"""

from __future__ import annotations

import os

from hypothesis import given
from hypothesis import strategies as st

from libertalia.engine import rng

_MASK = (1 << 64) - 1


def _reference(seed: int, counter: int, n: int) -> int:
    """SplitMix64 with rejection, in whole numbers, tried ``k = 0, 1, ...`` until a draw is below the limit."""
    limit = 2**64 - 2**64 % n
    k = 0
    while True:
        z = ((seed & _MASK) * 0x9E3779B97F4A7C15 + (counter << 8) + k + 1) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:
            return z % n
        k += 1


_SEEDS = st.one_of(st.integers(0, 2**64 - 1), st.integers(-(2**70), 2**70), st.sampled_from([0, 1, _MASK, 2**63]))
_COUNTERS = st.one_of(st.integers(0, 2**20), st.integers(0, 2**62), st.sampled_from([0, 2**24 - 1, 2**56 - 1]))
_SMALL_N = st.one_of(st.integers(2, 300), st.integers(2, 2**31 - 1), st.sampled_from([2**30, 2**31 - 1, 3, 52]))


@given(_SEEDS, _COUNTERS, st.one_of(_SMALL_N, st.integers(2**31, 2**64)))
def test_draw_is_the_reference_draw(seed: int, counter: int, n: int) -> None:
    """Determinism: ``draw`` in whichever build is imported gives the reference number, for any n up to 2**64."""
    assert rng.draw(seed, counter, n) == _reference(seed, counter, n)


def test_words_are_used_only_where_the_module_is_compiled() -> None:
    """The build a test runs on is the one it names: machine words compiled (CI's compiled step), whole numbers pure."""
    expected = os.environ.get("LIBERTALIA_EXPECT_COMPILED") == "1"
    assert rng._NATIVE is expected


_G, _C1, _C2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _unshift(y: int, shift: int) -> int:
    """The ``z`` whose ``z ^ (z >> shift)`` is ``y`` (64 bits)."""
    z = y
    for _ in range(64 // shift):
        z = y ^ (z >> shift)
    return z


def _seed_drawing(x: int, counter: int) -> int:
    """A seed whose first 64-bit draw at ``counter`` is ``x``: SplitMix64's mixing, undone step by step."""
    z = _unshift(x, 31)
    z = _unshift(z * pow(_C2, -1, 2**64) & _MASK, 27)
    z = _unshift(z * pow(_C1, -1, 2**64) & _MASK, 30)
    return (z - (counter << 8) - 1) * pow(_G, -1, 2**64) & _MASK


def test_the_seed_maker_undoes_the_mixing() -> None:
    """The helper below is right: the seed it makes draws the 64-bit number asked for, first try."""
    for x in (0, 1, 2**63, 2**64 - 1, 0x0123456789ABCDEF):
        seed = _seed_drawing(x, 9)
        z = (seed * _G + (9 << 8) + 1) & _MASK
        z = ((z ^ (z >> 30)) * _C1) & _MASK
        z = ((z ^ (z >> 27)) * _C2) & _MASK
        assert z ^ (z >> 31) == x


def test_a_rejected_first_draw_is_drawn_again_as_the_reference_does() -> None:
    """Determinism: a first draw at or past the largest multiple of n is rejected in either build (the compiled
    one checks it in words), and the next try gives the reference number."""
    for n in (3, 52, 2**31 - 1, 10**12 + 7):
        limit = 2**64 - 2**64 % n
        for x in (limit, 2**64 - 1, limit - 1):  # the first draw rejected, the last, the last accepted
            seed = _seed_drawing(x, 5)
            assert rng.draw(seed, 5, n) == _reference(seed, 5, n)
            if x < limit:
                assert rng.draw(seed, 5, n) == x % n
