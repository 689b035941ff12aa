"""Counter-based random numbers kept inside the game state.

A draw is a pure function of ``(seed, counter)``, so a game needs no RNG
object: it stores two integers, copies for free and serialises exactly.
The algorithm is SplitMix64; ``RNG_VERSION`` is recorded in saved games so
that a future change of algorithm cannot silently replay old games
differently.
"""

from __future__ import annotations

import types
from typing import Final

from .._mypyc import i64

RNG_NAME = "splitmix64"
RNG_VERSION = 1

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


_MAX_N: Final = 1 << 64

SEED_LIMIT = 1 << 64
"""Seeds are the whole numbers in ``[0, SEED_LIMIT)``: the generator mixes 64 bits, so each
seed in that range deals its own game, and a larger or negative one would only repeat one."""

SEED_RANGE = "a whole number from 0 to 2**64 - 1 (18446744073709551615)"


def seed_problem(seed: object) -> str | None:
    """Why ``seed`` is no seed, or ``None`` for a good one.

    The one rule for seeds, shared by ``new_game``, ``load_rules``, saves, records and the
    command line (each raises its own error with this message).
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        return f"a seed is {SEED_RANGE}, not {seed!r} ({type(seed).__name__})"
    if not 0 <= seed < SEED_LIMIT:
        shown = seed if seed.bit_length() <= 128 else f"a {seed.bit_length()}-bit number"
        return f"a seed is {SEED_RANGE}, not {shown}"
    return None
_MAX_TRIES: Final = 1 << 10
_LIMITS: Final[dict[int, int]] = {}
"""Rejection limits of the small ``n`` that bots and shuffles draw again and again."""


def draw(seed: int, counter: int, n: int) -> int:
    """A uniform integer in ``range(n)`` for draw number ``counter``, for ``1 <= n <= 2**64``.

    Rejection sampling keeps it exactly uniform whatever ``n`` is: a 64-bit draw at or above the
    largest multiple of ``n`` is drawn again.  For ``n <= 2**64`` that multiple is at least
    ``2**63``, so a draw is accepted with probability above 1/2 and the ``_MAX_TRIES`` bound is
    never reached (odds below ``2**-1024``); a larger ``n`` would reject every draw, so it is
    refused instead of looping forever.
    """
    if _NATIVE and 2 <= n < _WORD_BELOW:  # first: compiled, comparing with 2**64 (no machine word) is generic code
        return _draw_in_words(seed, counter, n)
    if not 1 <= n <= _MAX_N:
        shown = n if n.bit_length() <= 128 else f"a {n.bit_length()}-bit number"
        raise ValueError(f"rng.draw needs 1 <= n <= 2**64, not {shown}")
    if n == 1:
        return 0
    limit = _LIMITS.get(n)
    if limit is None:
        limit = _MAX_N - (_MAX_N % n)
        if n < 256:
            _LIMITS[n] = limit
    z = ((seed & _MASK) * _GOLDEN + (counter << 8) + 1) & _MASK
    # The first try, with ``_mix`` written out: every bot and shuffle draws through here.
    x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    x ^= x >> 31
    if x < limit:
        return x % n
    for k in range(1, _MAX_TRIES):
        x = _mix(((seed & _MASK) * _GOLDEN + (counter << 8) + k + 1) & _MASK)
        if x < limit:
            return x % n
    raise RuntimeError(f"rng.draw rejected {_MAX_TRIES} draws in a row for n={n}")  # pragma: no cover


# ---------------------------------------------------------------- the compiled build's first try
def _probe() -> None:
    """A function of this module: a plain Python function here unless the module is compiled."""


_NATIVE: Final = not isinstance(_probe, types.FunctionType)
"""Whether this module runs compiled (mypyc): then ``draw`` takes its first try in machine words.

Compiled code keeps whole numbers below 2**62 in machine words and moves any larger one to a
heap-allocated Python int, so SplitMix64's 64-bit products cost it more than the interpreter
pays for them (1.2 against 0.8 microseconds a draw).  Its ``i64`` is a machine word whose
arithmetic wraps modulo 2**64, which is SplitMix64's own arithmetic; in the interpreter ``i64``
is a plain int that never wraps, so only the compiled module takes that way.  Both give the same
number: ``tests/engine/test_rng.py`` holds ``draw`` to a reference written from the definition,
and CI runs it on the compiled build too.
"""
_WORD_BELOW: Final = 1 << 31
"""The ``n`` the machine words handle (below 2**31 every remainder step stays in a word)."""
_SIGN: Final = 1 << 63
_MAX_WORD: Final[i64] = (1 << 63) - 1
_G_WORD: Final[i64] = _GOLDEN - (1 << 64)  # the constants as signed words
_C1_WORD: Final[i64] = 0xBF58476D1CE4E5B9 - (1 << 64)
_C2_WORD: Final[i64] = 0x94D049BB133111EB - (1 << 64)
_TOP_BIT: Final[i64] = -(1 << 63)


def _word(value: int) -> i64:
    """The 64-bit word holding ``value`` modulo 2**64 (as a signed number)."""
    if value >> 62 == 0:  # 0 to 2**62 - 1, the usual case: no whole-number arithmetic
        return i64(value)
    value &= _MASK
    return i64(value - (1 << 64) if value >= _SIGN else value)


def _draw_in_words(seed: int, counter: int, n: int) -> int:
    """``draw(seed, counter, n)`` for ``2 <= n < 2**31``, compiled: SplitMix64 in wrapping 64-bit words.

    Right shifts are logical (masked after the signed shift).  The unsigned draw ``x`` is read as
    ``x - 2**63`` (its top bit flipped), a signed word, for the limit test and the remainder.
    """
    # The limits in words too (each a remainder or two, cheaper than a look-up in a memo): ``half`` is
    # 2**63 % n and ``spare`` 2**64 % n; ``highest`` is the largest draw accepted, less 2**63.
    m: i64 = i64(n)
    half: i64 = (_MAX_WORD % m + 1) % m
    spare: i64 = half * 2 % m
    highest: i64 = _MAX_WORD - spare
    z: i64 = _word(seed) * _G_WORD + _word((counter << 8) + 1)
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _C1_WORD
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _C2_WORD
    z ^= (z >> 31) & 0x1FFFFFFFF
    flipped: i64 = z ^ _TOP_BIT  # the unsigned draw less 2**63
    if flipped <= highest:
        return int((flipped % m + half) % m)
    for k in range(1, _MAX_TRIES):  # rejected (odds below 2**-33): the later tries, in whole numbers
        x = _mix(((seed & _MASK) * _GOLDEN + (counter << 8) + k + 1) & _MASK)
        if x <= int(highest) + _SIGN:  # a whole number: 2**63 is no word
            return x % n
    raise RuntimeError(f"rng.draw rejected {_MAX_TRIES} draws in a row for n={n}")  # pragma: no cover
