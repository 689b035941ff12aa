"""What reaches the OpenSpiel game (``libertalia.spiel``) from outside, checked without OpenSpiel.

Game parameters, action ids and serialised states are checked here, in plain Python, so that
the checks run (and are tested) where OpenSpiel is not installed; ``libertalia.spiel`` only
calls them.  Every refusal is the library's own error: ``ArgumentError`` for a parameter or an
action id out of range (``TypeError``, saying the same, for one of the wrong type), and
``RecordError`` for a serialised state, which is read by ``records.parse_moves``, the record
reader's own checks.

The ranges (docs/bots.md):

- ``first_seed`` is a whole number from 0 to ``2**31 - 1``: OpenSpiel keeps an integer game
  parameter in a C++ ``int``, and refuses anything larger with a bare cast error.  The seeds a
  game deals, ``first_seed`` to ``first_seed + deals - 1``, so lie below ``2**32``, well inside
  the engine's ``[0, 2**64)``; a larger seed is played with ``lt.new_game``.
- ``deals`` is a whole number from 1 to ``MAX_DEALS``: the deal is chosen by a chain of chance
  nodes, one base-``DEAL_BASE`` digit each (``deal_outcomes``), and ``2**20`` deals keep that
  chain at most three nodes long.
- An action id is a whole number from 0 to the count of actions less one (the deals at the
  chance node, ``num_distinct_actions`` after it).  A negative id is never read from the end,
  as a Python list would read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from . import _args
from .errors import ArgumentError, RecordError
from .records import parse_moves
from .saves import describe

SHORT_NAME: Final = "python_libertalia"

DEFAULTS: Final[dict[str, Any]] = {"players": 4, "edition": "galecrest", "loot": "", "deals": 1 << 16,
                                   "first_seed": 0}
"""The game's parameters and their defaults (``loot=""``: the edition's default side)."""

FIRST_SEED_LIMIT: Final = 1 << 31
"""``first_seed`` is below this: OpenSpiel holds an integer game parameter in a C++ ``int``."""

MAX_DEALS: Final = 1 << 20
"""The most seeds the chance nodes choose among (three nodes of at most ``DEAL_BASE`` outcomes)."""

DEAL_BASE: Final = 256
"""The most outcomes one chance node lists: the deal is chosen digit by digit, in base 256."""


def check_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` over ``DEFAULTS``, each of its type and the two numbers in range.

    ``players``, ``edition`` and ``loot`` are checked against the rules when they load.
    """
    unknown = sorted(str(k) for k in params if k not in DEFAULTS)
    if unknown:
        raise ArgumentError(f"{SHORT_NAME}: unknown parameters {unknown}; the parameters are "
                            + ", ".join(DEFAULTS))
    merged = {**DEFAULTS, **params}
    for name, default in DEFAULTS.items():
        value = merged[name]
        if isinstance(default, str):
            if not isinstance(value, str):
                raise _args.wrong_type(SHORT_NAME, name, "a string", value)
        else:
            merged[name] = _args.whole(value, SHORT_NAME, name)
    deals, first = merged["deals"], merged["first_seed"]
    if not 1 <= deals <= MAX_DEALS:
        raise ArgumentError(f"{SHORT_NAME}: deals must be a whole number from 1 to {MAX_DEALS} (2**20), not "
                            f"{_number(deals)}")
    if not 0 <= first < FIRST_SEED_LIMIT:
        raise ArgumentError(f"{SHORT_NAME}: first_seed must be a whole number from 0 to {FIRST_SEED_LIMIT - 1} "
                            f"(2**31 - 1, what an OpenSpiel game parameter holds), not {_number(first)}; "
                            "play a larger seed with lt.new_game")
    return merged


def deal_block(deals: int) -> int:
    """How many deals each outcome of the first chance node stands for: the largest power of
    ``DEAL_BASE`` below ``deals`` (1 when one node lists every deal)."""
    block = 1
    while block * DEAL_BASE < deals:
        block *= DEAL_BASE
    return block


def deal_outcomes(low: int, high: int, block: int) -> list[tuple[int, float]]:
    """A chance node choosing among deals ``low`` to ``high - 1``: digit ``d`` narrows them to the
    ``block`` deals from ``low + d * block`` (fewer in the last), with probability in proportion to
    its deals, so that every deal at the end of the chain is equally likely (``1 / deals``)."""
    size = high - low
    full, rest = divmod(size, block)
    out = [(digit, block / size) for digit in range(full)]
    if rest:
        out.append((full, rest / size))
    return out


def deal_digits(deal: int, deals: int) -> list[int]:
    """The chance outcomes, node by node, that choose deal number ``deal`` of ``deals``."""
    block, low, digits = deal_block(deals), 0, []
    while True:
        digit = (deal - low) // block
        digits.append(digit)
        low += digit * block
        if block == 1:
            return digits
        block //= DEAL_BASE


def action_id(action: object, count: int, what: str) -> int:
    """``action`` as an id from 0 to ``count - 1``; ``what`` names the ids (``"deals"``, ``"actions"``)."""
    n = _args.whole(action, SHORT_NAME, "action")
    if not 0 <= n < count:
        raise ArgumentError(f"{SHORT_NAME}: an action here is one of the {what}, a whole number from 0 to "
                            f"{count - 1}, not {_number(n)}")
    return n


def read_state(text: object, first_seed: int, deals: int, index: Mapping[str, int]) -> tuple[int, tuple[int, ...]]:
    """The chance outcome and action ids of a serialised state (``{"seed": ..., "answers": [...]}``).

    ``RecordError`` naming the field for text that is no such object, a seed that is not one of
    the game's deals, or an answer that is no key of its rules (``index``: key to id).  Whether
    each answer is legal where it stands is found by playing it.
    """
    if not isinstance(text, str | bytes):
        raise _args.wrong_type(f"{SHORT_NAME}: deserialize_state", "text", "a string (what serialize wrote)", text)
    seed, answers = parse_moves(text)
    if not first_seed <= seed < first_seed + deals:
        raise RecordError(f"seed {_number(seed)} is not one of this game's deals, {first_seed} to "
                          f"{first_seed + deals - 1} (first_seed and deals)", "seed", action="replay")
    ids = []
    for i, key in enumerate(answers):
        at = index.get(key)
        if at is None:
            raise RecordError(f"{describe(key)} is no answer key of these rules", f"answers[{i}]",
                              action="replay")
        ids.append(at)
    return seed - first_seed, tuple(ids)


def _number(n: int) -> str:
    return str(n) if n.bit_length() <= 128 else f"a {n.bit_length()}-bit number"
