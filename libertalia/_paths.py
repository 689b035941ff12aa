"""Where the bundled data lives, installed or in a source checkout.

A wheel carries ``cards/``, ``boards/`` and ``grammar/`` inside the package as
``libertalia/_data``; a source checkout keeps them at the repository root.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder that holds ``cards/``, ``boards/`` and ``grammar/``."""
    bundled = _PACKAGE / "_data"
    if (bundled / "grammar").is_dir():
        return bundled
    return _PACKAGE.parent


def grammar_path() -> Path:
    return data_root() / "grammar" / "libertalia.lark"


def boards_dir() -> Path:
    return data_root() / "boards"


def cards_dir() -> Path:
    return data_root() / "cards"
