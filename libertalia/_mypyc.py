"""``mypyc_attr`` for the compiled build, with no run-time dependency on mypy_extensions.

mypyc reads the decorator by its name when it compiles (mypy, which brings mypy_extensions, is
then installed); at run time, pure or compiled, the decorator does nothing, so a missing
mypy_extensions falls back to a decorator that returns its class unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")

try:
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:  # pragma: no cover - where mypy is not installed
    def mypyc_attr(*attrs: str, **kwattrs: Any) -> Callable[[_T], _T]:  # type: ignore[misc]
        return lambda cls: cls
