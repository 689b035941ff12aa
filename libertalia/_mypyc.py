"""``mypyc_attr`` and ``i64`` for the compiled build, with no run-time dependency on mypy_extensions.

mypyc reads them by their names when it compiles (mypy, which brings mypy_extensions, is then
installed).  At run time the decorator does nothing, pure or compiled, and in the interpreter
``i64`` is ``int`` (a whole number that never wraps; compiled, it is a 64-bit word that does),
so a missing mypy_extensions falls back to a decorator that returns its class unchanged and to
``int``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")

try:
    from mypy_extensions import i64 as i64
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:  # pragma: no cover - where mypy is not installed
    def mypyc_attr(*attrs: str, **kwattrs: Any) -> Callable[[_T], _T]:  # type: ignore[misc]
        return lambda cls: cls

    i64 = int  # type: ignore[misc]
