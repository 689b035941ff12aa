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


def draw(seed: int, counter: int, n: int) -> int:
    """A uniform integer in ``range(n)`` for draw number ``counter``.

    Rejection sampling keeps it exactly uniform whatever ``n`` is.
    """
    if n <= 1:
        return 0
    limit = (1 << 64) - ((1 << 64) % n)
    k = 0
    while True:
        x = _mix(((seed & _MASK) * _GOLDEN + (counter << 8) + k + 1) & _MASK)
        if x < limit:
            return x % n
        k += 1  # pragma: no cover - probability below 2**-32 for our sizes
