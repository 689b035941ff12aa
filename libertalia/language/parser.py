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
from pathlib import Path
from typing import TYPE_CHECKING

from .. import _paths
from ..loading import cache
from . import ast

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


# Parsed texts, in this process and (through ``loading.cache``) between processes: a card
# whose text and place in its file are unchanged is not parsed again.  Only successful
# parses are kept (an error always comes from a real parse), and the checker still
# checks every tree.
_TreeKey = tuple[str, int, int, int]  # the text, and the line, column and indent it starts at
_trees: dict[_TreeKey, tuple[ast.Ability, ...]] = {}
_unsaved: dict[_TreeKey, tuple[ast.Ability, ...]] = {}


@functools.cache
def _tree_sources() -> tuple[Path, ...]:
    """What a parse depends on besides its text: the grammar and the code that reads it.

    A change to any of them makes every stored tree stale.
    """
    here = Path(__file__).parent
    return (_paths.grammar_path(), *(here / name for name in ("lalr.py", "lexer.py", "ast.py", "nodes.py")))


def _store_key(key: _TreeKey) -> bytes | None:
    text, line, column, indent = key
    return cache.key(f"{line},{column},{indent}\n{text}".encode("utf-8", "surrogatepass"), *_tree_sources())


def _stored(key: _TreeKey) -> tuple[ast.Ability, ...] | None:
    """The stored parse of ``key``, if the cache holds a sound one."""
    found = cache.load("tree", _store_key(key))
    if isinstance(found, tuple) and all(isinstance(a, ast.Ability) for a in found):
        return found
    return None


def save_parsed() -> None:
    """Keep this process's new parses for the next one (best-effort; called by ``load_rules``)."""
    for key, abilities in _unsaved.items():
        cache.save("tree", _store_key(key), abilities)
    _unsaved.clear()
