"""The frozen record every step class derives from, written so that mypyc compiles the steps natively.

The steps were :class:`libertalia.syntax.nodes.Node` classes, but ``Node`` builds its classes
with a metaclass, and mypyc makes no class with a metaclass native: compiled, every
``self.amount`` in a step's ``act`` was a generic attribute lookup and every ``self.subject.seats``
a generic call.  Native, they read their fields from the object's struct and call each other
directly (about a tenth more games a second than with ``Node``).  A :class:`Record` behaves as a
node does (frozen, equal and hashed by its fields, shown by them, picklable, walked by
:func:`libertalia.syntax.nodes.fields`), from plain per-class data instead of a metaclass::

    class Draw(Record):
        n: int
        per: Counter | None
        __node_fields__ = declare("n", per=None)

        def __init__(self, n: int, per: Counter | None = None) -> None:
            object.__setattr__(self, "n", n)
            object.__setattr__(self, "per", per)

The annotations type the fields (mypyc lays them out in the object's struct), ``declare`` names
them in ``__init__``'s order with the defaults ``__init__`` has (for ``fields()``, ``==``, ``repr``
and pickling), and ``__init__`` is written out, so that both builds see one signature.  It sets
each field with ``object.__setattr__(self, "name", value)``: past the frozen ``__setattr__`` in
the interpreter, and a direct store into the struct in the compiled build.  Every field is
positional (a step is built by ``language/compile``, positionally or by keyword), and every field
counts for ``==``, ``hash`` and ``repr``.  Constants of a class (``CONTRACT``, ``plural``) are
``ClassVar``: a plain assignment in a native class's body would be a per-object default.
"""

from __future__ import annotations

from typing import Any, ClassVar, NoReturn

from ...syntax.nodes import FieldInfo, FrozenNodeError


def declare(*names: str, **defaults: Any) -> tuple[FieldInfo, ...]:
    """The fields of a record class, in ``__init__``'s order: those without a default, then those with."""
    return (*(FieldInfo(name) for name in names), *(FieldInfo(name, value) for name, value in defaults.items()))


def fields(record: Record | type[Record]) -> tuple[FieldInfo, ...]:
    """The fields of a record class (or of a record's class), as ``nodes.fields`` reports a node's
    (which reads records too, untyped): what the walkers of step trees go by."""
    cls = record if isinstance(record, type) else type(record)
    return cls.__node_fields__


class Record:
    """The base of every step and phrase of a card program: a frozen record (see the module docstring).

    No ``__slots__``: compiled, the fields live in the object's struct (and mypyc keeps no ``__slots__``
    a class body could name); in the interpreter they live in the object's dict, which ``__setattr__``
    keeps closed.
    """

    __node_fields__: ClassVar[tuple[FieldInfo, ...]] = ()
    __node_names__: ClassVar[tuple[str, ...]] = ()  # every field, in ``__init__``'s order: the pickled order

    def __init_subclass__(cls) -> None:
        # The names come from the declared fields, once per class (a few microseconds at import).
        names = tuple(info.name for info in cls.__node_fields__)
        cls.__node_names__ = names
        setattr(cls, "__match_args__", names)  # noqa: B010  # mypy refuses a plain assignment to it

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__node_names__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, *self._values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__node_names__)
        return f"{self.__class__.__qualname__}({inner})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenNodeError(f"cannot set {name!r}: {self.__class__.__qualname__} steps are immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenNodeError(f"cannot delete {name!r}: {self.__class__.__qualname__} steps are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again through ``__init__``: every field is positional.
        return self.__class__, self._values()
