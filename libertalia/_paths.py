"""Where the bundled data lives, installed or in a source checkout.

A wheel carries ``cards/``, ``boards/`` and ``grammar/`` inside the package as
``libertalia/_data``; a source checkout keeps them at the repository root.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder that holds ``cards/``, ``boards/`` and ``grammar/``."""
    bundled = _PACKAGE / "_data"
    if (bundled / "grammar").is_dir():
        return bundled
    return _PACKAGE.parent


def install_hint(extra: str) -> str:
    """How to install an optional extra.  The package is not on the package index, so the hint is
    always an install from a checkout: this one, when the library runs from one."""
    root = data_root()
    if (root / "pyproject.toml").is_file():  # an installed wheel keeps its data under libertalia/_data
        return f"pip install '.[{extra}]' (in {root})"
    return f"pip install '.[{extra}]' in a checkout of the libertalia repository (it is not on the package index)"


def grammar_path() -> Path:
    return data_root() / "grammar" / "libertalia.lark"


def boards_dir() -> Path:
    return data_root() / "boards"


def cards_dir() -> Path:
    return data_root() / "cards"


def cache_dir() -> Path | None:
    """The folder the user chose for the cache (parser tables, read cards), or None for no cache.

    ``LIBERTALIA_CACHE_DIR`` chooses the folder; set to ``off`` it disables caching.  The
    default follows XDG (``~/.cache/libertalia``).  The cache keeps everything in a tagged
    folder of its own inside this one (``loading.cache``) and touches nothing else in it.
    Folders made here are the user's alone (0700, whatever the umask).  The cache is
    best-effort: a folder that cannot be made simply means no cache, never an error, and a
    folder that can be read but not written (one prepared in an image, say) is still read from.
    """
    chosen = os.environ.get("LIBERTALIA_CACHE_DIR")
    if chosen is not None and chosen.lower() in ("", "0", "off", "no", "false"):
        return None
    base = Path(chosen) if chosen else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "libertalia"
    try:
        _make_private_folders(base)
    except OSError:
        return None
    return base if os.access(base, os.R_OK | os.X_OK) else None


def _make_private_folders(path: Path) -> None:
    """``path`` and its missing parents, each made readable and writable by the user alone."""
    missing = []
    while not os.path.lexists(path) and path.parent != path:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:  # made meanwhile by another process: checked by whoever trusts it
            continue
        if os.name == "posix":  # the umask may have taken more than group and other bits
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
            try:
                os.fchmod(fd, 0o700)
            finally:
                os.close(fd)
