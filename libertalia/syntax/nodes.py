"""Frozen record classes for the card language, built without generating code.

The syntax tree has some seventy node classes.  ``attrs`` (like ``dataclasses``)
writes each class's ``__init__``, ``__eq__``, ``__hash__`` and ``__repr__`` as
source text and runs ``compile()`` on it, which cost about 0.65 ms a class: some
45 ms of every process that loads rules, more than the rest of a warm load.  Here
the methods are shared, or closures over each class's field names, so making a
class costs about 20 microseconds.  (The checker's small records use the same base.)

A node class derives from :class:`Node` and lists its fields as annotations, with
defaults as class attributes or :func:`field` for the finer options::

    class Draw(Node):
        n: int
        per: Counter | None = None
        line: int = field(default=0, eq=False, repr=False, kw_only=True)

and then behaves as the ``attrs.frozen`` class of the same body did: slotted,
immutable, equal and hashed by its ``eq`` fields (a class equals only itself),
shown by its ``repr`` fields, picklable, with positional and keyword arguments.
Names in capitals (``CONTRACT = ...``) and ``ClassVar`` annotations stay class
attributes, annotated or not.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, ClassVar, NoReturn, TypeVar, cast, dataclass_transform

_T = TypeVar("_T")


class _Missing:
    """The default of a field that has none (so that ``None`` can be a default)."""

    def __repr__(self) -> str:
        return "NOTHING"


NOTHING: Any = _Missing()


class FieldInfo:
    """What a node class says about one field (as :func:`fields` reports it)."""

    __slots__ = ("name", "default", "eq", "repr", "kw_only")

    def __init__(self, name: str, default: Any = NOTHING, *, eq: bool = True, repr: bool = True,
                 kw_only: bool = False) -> None:
        self.name = name
        self.default = default
        self.eq = eq
        self.repr = repr
        self.kw_only = kw_only

    def __repr__(self) -> str:
        return (f"FieldInfo(name={self.name!r}, default={self.default!r}, eq={self.eq}, repr={self.repr}, "
                f"kw_only={self.kw_only})")


class _FieldSpec:
    """The marker :func:`field` leaves in a class body; the metaclass reads and removes it."""

    __slots__ = ("default", "eq", "repr", "kw_only")

    def __init__(self, default: Any, eq: bool, repr: bool, kw_only: bool) -> None:
        self.default, self.eq, self.repr, self.kw_only = default, eq, repr, kw_only


def field(*, default: _T, eq: bool = True, repr: bool = True, kw_only: bool = False) -> _T:
    """A field with options, as the right-hand side of its annotation.

    ``eq=False`` leaves it out of ``==`` and ``hash`` (source positions, spellings),
    ``repr=False`` out of ``repr``, and ``kw_only=True`` makes it keyword-only.
    """
    # Typed as the default, so that ``line: int = field(default=0)`` type-checks.
    return cast(_T, _FieldSpec(default, eq, repr, kw_only))


class FrozenNodeError(AttributeError):
    """An attempt to change a field of a node: nodes are values, shared freely and cached."""


def _attrgetter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A C-speed function from a node to the tuple of the named fields."""
    if not names:
        return lambda _node: ()
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda node: (one(node),)
    many: Callable[[Any], tuple[Any, ...]] = operator.attrgetter(*names)
    return many


def _make_init(qualname: str, positional: tuple[str, ...], keyword: tuple[str, ...],
               defaults: dict[str, Any]) -> Callable[..., None]:
    """``__init__`` for a class with these fields: ``positional`` ones first, then keyword-only ones.

    Arguments are checked as Python checks a written-out signature (too many, unknown,
    repeated or missing ones are a TypeError naming them), so that a mistake in the
    parser reads as it would have with attrs.
    """
    names = positional + keyword
    allowed = frozenset(names)
    setattr_ = object.__setattr__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(positional):
            raise TypeError(f"{qualname}() takes {len(positional)} positional arguments but {len(args)} were given")
        for name, value in zip(positional, args, strict=False):
            setattr_(self, name, value)
        if kwargs:
            unknown = kwargs.keys() - allowed
            if unknown:
                raise TypeError(f"{qualname}() got an unexpected keyword argument {min(unknown)!r}")
            twice = kwargs.keys() & set(positional[:len(args)])
            if twice:
                raise TypeError(f"{qualname}() got multiple values for argument {min(twice)!r}")
        for name in names[len(args):]:
            value = kwargs.get(name, NOTHING)
            if value is NOTHING:
                value = defaults.get(name, NOTHING)
                if value is NOTHING:
                    raise TypeError(f"{qualname}() missing required argument {name!r}")
            setattr_(self, name, value)

    __init__.__qualname__ = f"{qualname}.__init__"
    return __init__


def _restore(cls: type[Node], *values: Any) -> Node:
    """A node from its field values, as ``Node.__reduce__`` pickles it.

    No argument checks: the values came from a node.  This runs for every node a warm
    load takes from the cache, so it is kept short.
    """
    node = object.__new__(cls)
    setattr_ = object.__setattr__
    for name, value in zip(cls.__node_names__, values, strict=True):
        setattr_(node, name, value)
    return node


def _class_level(name: str, note: Any) -> bool:
    """Whether an annotated name belongs to the class, not to each node: a ``ClassVar``, or a
    constant in capitals (``CONTRACT``).  Compiled with mypyc, a class body annotates its
    unannotated assignments too, so a constant must never be taken for a field by its annotation."""
    if name.isupper():
        return True
    text = note if isinstance(note, str) else repr(note)
    return text.startswith(("ClassVar", "typing.ClassVar"))


class _NodeMeta(type):
    """Turns the annotations of a :class:`Node` subclass into slots and field descriptions."""

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kwargs: Any) -> _NodeMeta:
        if not any(isinstance(b, _NodeMeta) for b in bases):  # Node itself
            return super().__new__(mcs, name, bases, ns, **kwargs)
        if bases != (Node,):
            raise TypeError(f"{name}: a node class derives from Node alone (fields are not inherited)")
        # One pass over the annotations, in order: class creation is on every start's path.
        fields: list[FieldInfo] = []
        positional: list[str] = []
        keyword: list[str] = []
        defaults: dict[str, Any] = {}
        seen_default = ""
        for fname, note in ns.get("__annotations__", {}).items():
            if _class_level(fname, note):
                continue
            value = ns.pop(fname, NOTHING)
            spec = value if isinstance(value, _FieldSpec) else _FieldSpec(value, True, True, False)
            fields.append(FieldInfo(fname, spec.default, eq=spec.eq, repr=spec.repr, kw_only=spec.kw_only))
            if spec.default is not NOTHING:
                defaults[fname] = spec.default
            if spec.kw_only:
                keyword.append(fname)
                continue
            positional.append(fname)
            if spec.default is not NOTHING:
                seen_default = fname
            elif seen_default:
                raise TypeError(f"{name}: field {fname!r} without a default follows {seen_default!r}, which has one")
        qualname = ns.get("__qualname__", name)
        ns["__slots__"] = ns["__node_names__"] = (*positional, *keyword)
        ns["__node_fields__"] = tuple(fields)
        ns["__match_args__"] = tuple(positional)
        ns["__init__"] = _make_init(qualname, tuple(positional), tuple(keyword), defaults)
        ns["_eq_key"] = staticmethod(_attrgetter(tuple(f.name for f in fields if f.eq)))
        ns["_repr_names"] = tuple(f.name for f in fields if f.repr)
        return super().__new__(mcs, name, bases, ns, **kwargs)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Node(metaclass=_NodeMeta):
    """The base of every syntax tree node: a frozen record (see the module docstring)."""

    __slots__ = ()
    __node_fields__: ClassVar[tuple[FieldInfo, ...]]
    __node_names__: ClassVar[tuple[str, ...]]  # every field, positional ones first: the pickled order
    _eq_key: ClassVar[Callable[[Any], tuple[Any, ...]]]
    _repr_names: ClassVar[tuple[str, ...]]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        key = type(self)._eq_key
        return key(self) == key(other)

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, *type(self)._eq_key(self)))

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._repr_names)
        return f"{self.__class__.__qualname__}({inner})"

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise FrozenNodeError(f"cannot set {name!r}: {self.__class__.__qualname__} nodes are immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenNodeError(f"cannot delete {name!r}: {self.__class__.__qualname__} nodes are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (self.__class__, *(getattr(self, name) for name in self.__node_names__))


def fields(node: Node | type[Node]) -> tuple[FieldInfo, ...]:
    """The fields of a node class (or of a node's class), in the order the class lists them."""
    cls = node if isinstance(node, type) else type(node)
    return cls.__node_fields__


def is_node(value: object) -> bool:
    """Whether ``value`` is a syntax tree node (rather than a string, number or tuple of them)."""
    return isinstance(value, Node)
