"""Values as JSON and back, making only the classes a reader names: the cache's format.

An entry in the cache is data another process wrote, so reading one must not be able
to run anything: unlike a pickle, this format names no function, module or class to
import.  A value is plain data (None, booleans, numbers, text, tuples, lists, dicts,
sets, bytes, dates) and records of the classes given to the :class:`Codec`, which are
rebuilt field by field, without calling their ``__init__``.

The text is ``[root, table]``.  ``table`` lists every container and record once, each
after the ones it holds, as ``[tag, item, ...]``; an item, and ``root``, is a JSON
scalar or ``[i]``, the ``i``-th object of the table.  So an object held in two places
(a YAML alias) is one object again when read, reading is one pass over the table,
and no entry can describe a cycle or a structure deeper than the table is long.
"""

from __future__ import annotations

import base64
import datetime
import json
import types
from collections.abc import Callable, Iterable
from itertools import islice
from typing import Any, NoReturn, cast

_SCALARS = (str, int, float, bool, type(None))
_BUILTIN_TAGS = frozenset("tldsfbDT")  # tuple list dict set frozenset bytes Date daTetime


class Codec:
    """Dumps and loads values whose records are of the given slotted classes only."""

    def __init__(self, classes: Iterable[tuple[type, tuple[str, ...]]]) -> None:
        """``classes``: each record class with the names of the fields that make it, in order."""
        self._fields: dict[type, tuple[str, tuple[str, ...]]] = {}
        self._setters: dict[str, tuple[type, int, tuple[Callable[[Any, Any], None], ...]]] = {}
        for cls, names in classes:
            tag = cls.__name__
            if tag in _BUILTIN_TAGS or tag in self._setters:
                raise ValueError(f"two kinds of value would be stored as {tag!r}")
            slots = [getattr(cls, n, None) for n in names]
            if not all(isinstance(s, types.MemberDescriptorType) for s in slots):
                raise TypeError(f"{tag}: a record class keeps its fields in slots")
            setters = tuple(cast(types.MemberDescriptorType, s).__set__ for s in slots)
            self._fields[cls] = (tag, names)
            # Each field set through its slot, as the class's own code would (no __init__ runs).
            self._setters[tag] = (cls, len(names) + 1, setters)

    def dumps(self, value: Any) -> bytes:
        """``value`` as JSON; a TypeError for anything this codec could not read back as it was."""
        table: list[list[Any]] = []
        done: dict[int, list[int]] = {}
        fields = self._fields

        def item(v: Any) -> Any:
            kind = type(v)
            if kind in _SCALARS:
                return v
            ref = done.get(id(v))
            if ref is not None:
                return ref
            if kind is tuple or kind is list or kind is set or kind is frozenset:
                entry = ["t" if kind is tuple else "l" if kind is list else "s" if kind is set else "f",
                         *(item(x) for x in v)]
            elif kind is dict:
                entry = ["d"]
                for k, x in v.items():
                    entry.append(item(k))
                    entry.append(item(x))
            elif kind is bytes:
                entry = ["b", base64.b64encode(v).decode("ascii")]
            elif kind is datetime.date:
                entry = ["D", v.isoformat()]
            elif kind is datetime.datetime:
                entry = ["T", v.isoformat()]
            elif kind in fields:
                tag, names = fields[kind]
                entry = [tag, *(item(getattr(v, n)) for n in names)]
            else:
                raise TypeError(f"a {kind.__qualname__} cannot be stored")
            ref = done[id(v)] = [len(table)]
            table.append(entry)
            return ref

        root = item(value)
        return json.dumps([root, table], separators=(",", ":"), check_circular=False).encode("ascii")

    def loads(self, data: bytes) -> Any:
        """The value ``dumps`` gave ``data``; a ValueError (TypeError, IndexError) for anything else.

        Kept tight: a warm ``load_rules`` reads some 3,000 objects through here.
        """
        whole = json.loads(data, object_hook=_refuse_object)
        if type(whole) is not list or len(whole) != 2 or type(whole[1]) is not list:
            raise ValueError("not a stored value")
        root, table = whole
        made: list[Any] = []
        append = made.append
        record = self._setters.get
        new = object.__new__
        value: Any
        for entry in table:
            tag = entry[0]  # a reference is made[i] of an object already made: no cycle, nothing ahead
            found = record(tag)
            if found is not None:
                cls, size, setters = found
                if len(entry) != size:
                    raise ValueError(f"a {tag} of {len(entry) - 1} fields, not {size - 1}")
                value = new(cls)
                for put, v in zip(setters, islice(entry, 1, None), strict=True):
                    put(value, made[v[0]] if type(v) is list else v)
            else:
                items = [made[v[0]] if type(v) is list else v for v in islice(entry, 1, None)]
                if tag == "t":
                    value = tuple(items)
                elif tag == "l":
                    value = items
                elif tag == "d":
                    if len(items) % 2:
                        raise ValueError("a dict with a key but no value")
                    value = dict(zip(items[::2], items[1::2], strict=True))
                elif tag == "s":
                    value = set(items)
                elif tag == "f":
                    value = frozenset(items)
                elif tag in ("b", "D", "T") and len(items) == 1 and type(items[0]) is str:
                    text = items[0]
                    value = (base64.b64decode(text, validate=True) if tag == "b" else
                             datetime.date.fromisoformat(text) if tag == "D" else datetime.datetime.fromisoformat(text))
                else:
                    raise ValueError(f"an object of unknown kind {str(tag)[:40]!r}")
            append(value)
        return made[root[0]] if type(root) is list else root


def _refuse_object(pairs: dict[str, Any]) -> NoReturn:
    raise ValueError("a JSON object where a value belongs: not a stored value")
