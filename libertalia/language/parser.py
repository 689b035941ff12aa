"""Card text to syntax tree: the front door, which serves parses from the cache.

The parsing itself (lark, the word lexer, the tree builder and the plain-word
error messages) is in ``lalr``.  Parses are kept between processes (see
``save_parsed``), so a process whose card texts are all in the cache never
imports lark, which takes longer to import than such a process takes to load
its rules; ``lalr`` is imported when a text must really be parsed, or the
grammar read.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .. import _paths
from ..loading import cache
from ..loading.codec import Codec
from ..syntax import ast, nodes

_T = TypeVar("_T")

if TYPE_CHECKING:
    from lark import Lark


def parse(text: str, *, path: str = "<text>", line: int = 0, column: int = 0, indent: int = 0,
          file_lines: list[str] | None = None) -> tuple[ast.Ability, ...]:
    """Parse card text (one ability per line) into abilities.

    ``line`` and ``column`` shift reported positions of the text's first line,
    ``indent`` those of later lines, so that errors and AST positions point
    into the file the text came from; ``file_lines`` lets an error quote the
    file's own line under its caret.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse: text must be card text (a str), not {text!r:.60} ({type(text).__name__})")
    key = (text, line, column, indent)
    found = _trees.get(key)
    if found is None:
        found = _stored(key)
    if found is None:
        from . import lalr

        found = lalr.parse(text, path, line, column, indent, file_lines)
        _unsaved[key] = found
        _from_store.discard(key)
    _trees[key] = found
    return found


def build_parser(*, cached: bool) -> Lark:
    """The LALR parser of the grammar file, built strictly (see ``lalr.build_parser``)."""
    from . import lalr

    return lalr.build_parser(cached=cached)


def grammar() -> Lark:
    """The built parser (for tools that read the grammar, such as ``cards words``)."""
    from . import lalr

    return lalr.shared_parser()


def grammar_rule_count() -> int:
    """Number of grammar productions: a size measure for the language."""
    return len(grammar().rules)


def parse_checked(text: str, check: Callable[[tuple[ast.Ability, ...]], _T], *, path: str = "<text>",
                  line: int = 0, column: int = 0, indent: int = 0,
                  file_lines: list[str] | None = None) -> tuple[tuple[ast.Ability, ...], _T]:
    """``parse``, then ``check`` (the checker, the compiler) on the abilities; both results.

    A tree taken from the cache is checked exactly as a fresh parse is, and when ``check``
    refuses it in any way the text is parsed again: whatever an entry holds, it can neither
    break a load nor stand in for a parse that would fail.  The entry is set aside only when
    it held another tree than the parse; when they agree, the text itself is at fault (a card
    name this load does not know) and the entry stays.  What ``check`` raises about a fresh
    parse is the caller's error.
    """
    key = (text, line, column, indent)
    abilities = parse(text, path=path, line=line, column=column, indent=indent, file_lines=file_lines)
    if key not in _from_store:
        return abilities, check(abilities)
    try:
        return abilities, check(abilities)
    except Exception:
        pass
    from . import lalr

    fresh = lalr.parse(text, path, line, column, indent, file_lines)
    if _shape(fresh) != _shape(abilities):  # the entry held another tree: set it aside, keep the parse
        _from_store.discard(key)
        cache.discard("tree", _store_key(key))
        _trees[key] = _unsaved[key] = fresh
    # else the entry was sound and the text is at fault (a name this load does not know): the entry stays
    return fresh, check(fresh)


def _shape(value: Any) -> Any:
    """A tree as plain data with every field, positions included (``==`` on nodes leaves them out)."""
    if ast.is_node(value):
        return (type(value).__name__, *((f.name, _shape(getattr(value, f.name))) for f in ast.fields(value)))
    if isinstance(value, tuple):
        return tuple(_shape(v) for v in value)
    return value


# Parsed texts, in this process and (through ``loading.cache``) between processes: a card
# whose text and place in its file are unchanged is not parsed again.  Only successful
# parses are kept (an error always comes from a real parse), and the checker still
# checks every tree (``parse_checked``).
_TreeKey = tuple[str, int, int, int]  # the text, and the line, column and indent it starts at
_trees: dict[_TreeKey, tuple[ast.Ability, ...]] = {}
_unsaved: dict[_TreeKey, tuple[ast.Ability, ...]] = {}
_from_store: set[_TreeKey] = set()  # keys whose tree came from the cache, not from a parse in this process


@functools.cache
def _tree_sources() -> tuple[Path, ...]:
    """What a parse depends on besides its text: the grammar and every module that could shape a tree.

    A change to any of them makes every stored tree stale.  The whole language and syntax
    packages count, not a hand-kept list: a list missed ``printed.py`` (a paraphrase rule
    applied while parsing), and an edited rule then served trees parsed by the old one.
    """
    here = Path(__file__).parent
    tree = Path(ast.__file__).parent
    modules = sorted((*here.rglob("*.py"), *tree.glob("*.py"), here.parent / "suggest.py"))
    return (_paths.grammar_path(), *modules)


def _store_key(key: _TreeKey) -> bytes | None:
    text, line, column, indent = key
    return cache.key(f"{line},{column},{indent}\n{text}".encode("utf-8", "surrogatepass"), *_tree_sources())


@functools.cache
def _codec() -> Codec:
    """Trees as plain data: only the syntax tree's own node classes can come out of an entry."""
    classes = [c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, nodes.Node)
               and c is not nodes.Node]
    return Codec((c, c.__node_names__) for c in classes)


def _stored(key: _TreeKey) -> tuple[ast.Ability, ...] | None:
    """The stored parse of ``key``, if the cache holds one of the right shape."""
    found = cache.load("tree", _store_key(key), _codec())
    if isinstance(found, tuple) and all(isinstance(a, ast.Ability) for a in found):
        _from_store.add(key)
        return found
    return None


def save_parsed() -> None:
    """Keep this process's new parses for the next one (best-effort; called by ``load_rules``)."""
    for key, abilities in _unsaved.items():
        cache.save("tree", _store_key(key), abilities, _codec())
    _unsaved.clear()
