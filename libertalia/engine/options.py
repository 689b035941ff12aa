"""``Option`` values built in play for half the constructor's cost, as ``work.new_decision`` builds a ``Decision``.

Below the card programs (which ask the questions) and the working copy alike, so that both may use it.
"""

from __future__ import annotations

from typing import Any, Final

from ..state import Option

_NEW: Final[Any] = object.__new__
_OPTION: Final = Option
_SET_KEY: Final[Any] = Option.__dict__["key"].__set__
_SET_LABEL: Final[Any] = Option.__dict__["label"].__set__


def new_option(key: str, label: str) -> Option:
    """``Option(key, label)``, the same value: attrs' interpreted ``__init__`` is skipped, each slot set directly."""
    o: Option = _NEW(_OPTION)
    _SET_KEY(o, key)
    _SET_LABEL(o, label)
    return o
