"""Counter-based random numbers kept inside the game state.

A draw is a pure function of ``(seed, counter)``, so a game needs no RNG
object: it stores two integers, copies for free and serialises exactly.
The algorithm is SplitMix64; ``RNG_VERSION`` is recorded in saved games so
that a future change of algorithm cannot silently replay old games
differently.
"""

from __future__ import annotations

RNG_NAME = "splitmix64"
RNG_VERSION = 1

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


_MAX_N = 1 << 64

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
_MAX_TRIES = 1 << 10
_LIMITS: dict[int, int] = {}
"""Rejection limits of the small ``n`` that bots and shuffles draw again and again."""


def draw(seed: int, counter: int, n: int) -> int:
    """A uniform integer in ``range(n)`` for draw number ``counter``, for ``1 <= n <= 2**64``.

    Rejection sampling keeps it exactly uniform whatever ``n`` is: a 64-bit draw at or above the
    largest multiple of ``n`` is drawn again.  For ``n <= 2**64`` that multiple is at least
    ``2**63``, so a draw is accepted with probability above 1/2 and the ``_MAX_TRIES`` bound is
    never reached (odds below ``2**-1024``); a larger ``n`` would reject every draw, so it is
    refused instead of looping forever.
    """
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
