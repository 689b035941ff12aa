"""The env's action space: gymnasium's ``Discrete``, whose masked ``sample`` costs a tenth as much.

PettingZoo's own loop draws a random legal action with ``env.action_space(agent).sample(mask)``.
Gymnasium's ``Discrete.sample(mask)`` checks the mask with several whole-array numpy passes and
draws with ``Generator.choice``: about four times an engine decision of the compiled build.  Here a
mask of the usual kind (an int8 array of the space's length, every value 0 or 1) is read as bytes,
and the action is drawn with ``Generator.integers(0, k)`` among its ``k`` ones, which is the very
number ``choice`` draws over ``k`` items (``tests/test_env_spaces.py``): the same action for the same
seed, from the same generator state.  Any other mask, ``probability`` or no mask at all goes to
gymnasium's own ``sample``, which checks, refuses and draws exactly as it always does.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np


class MaskedDiscrete(gymnasium.spaces.Discrete):
    """``Discrete(n)`` with a cheap ``sample(mask)``; equal to (and an instance of) gymnasium's ``Discrete``."""

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        if (probability is None and type(mask) is np.ndarray and mask.dtype == np.int8
                and mask.shape == (self.n,)):
            raw = mask.tobytes()
            if not raw.translate(None, b"\x00\x01"):  # every value 0 or 1, as gymnasium asserts
                ones: list[int] = []
                at = raw.find(1)
                while at >= 0:
                    ones.append(at)
                    at = raw.find(1, at + 1)
                if not ones:
                    return self.start  # gymnasium's answer to a mask with no action
                return self.start + self.dtype.type(ones[int(self.np_random.integers(0, len(ones)))])
        return super().sample(mask, probability)
