"""A best-effort store of built artefacts, one file per entry, kept between processes.

Reading the cards of an edition means composing some sixty YAML files and parsing
their text, which takes far longer than the game needs to start.  Both results depend
only on the bytes read (and on the code that reads them), so each is kept here under
a digest of exactly those: a warm start reads the entries instead of doing the work.

Best-effort throughout: without a usable folder (``_paths.cache_dir``), or when an
entry is missing, cut short, damaged, written for another key or of the wrong type,
the caller simply does the work again.  A checksum guards each entry's bytes, so a
damaged entry is never unpickled, and each entry repeats the digest of its full key,
so it is only ever trusted for the key it was written for.  Entries are small and
written atomically (a temporary file, then a rename); when the folder holds more than
``MAX_ENTRIES`` the oldest written are removed.

The folder belongs to the user who runs the library, as any cache of pickles must: an
entry is code to the unpickler.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import threading
from pathlib import Path
from typing import Any

from .. import _paths
from .._version import __version__

FORMAT = b"libertalia-cache-1\n"
"""The first bytes of every entry; a change of layout changes it, and old entries are ignored."""
MAX_ENTRIES = 4_000
"""Entries kept at most: a few editions and a modder's files, each version of a file once."""
_DIGEST = 32  # bytes of a sha256


def _folder() -> Path | None:
    """The entries' folder (created on first use), or None when there is no usable cache."""
    return _folder_for(os.environ.get("LIBERTALIA_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME"),
                       os.environ.get("HOME"))


@functools.cache
def _folder_for(*environment: str | None) -> Path | None:
    """``_folder`` for the environment that chooses it: looked up once per process, not per entry."""
    root = _paths.cache_dir()
    if root is None:
        return None
    folder = root / "entries"
    try:
        folder.mkdir(exist_ok=True)
    except OSError:
        return None
    return folder


def _entry(kind: str, full_key: bytes) -> tuple[str, bytes]:
    """The file name of an entry and the digest of its kind and key, which the entry repeats."""
    digest = hashlib.sha256(kind.encode() + b"\0" + full_key).digest()
    return f"{kind}-{digest.hex()[:40]}", digest


@functools.cache
def _source_digest(*files: Path) -> bytes | None:
    """A digest of the library's version and the given source files, or None if one cannot be read.

    Part of every key: an entry built by other code (an edited reader, another release) is
    stale, whatever its input.
    """
    digest = hashlib.sha256(__version__.encode())
    try:
        for path in files:
            digest.update(path.read_bytes())
    except OSError:
        return None
    return digest.digest()


def key(parts: bytes, *sources: Path) -> bytes | None:
    """The full key of an entry: its input bytes after a digest of the code that builds it.

    None when the sources cannot be read (an unusual install): then nothing is cached.
    """
    code = _source_digest(*sources)
    return None if code is None else code + parts


def load(kind: str, full_key: bytes | None) -> Any | None:
    """The value stored under ``full_key``, or None if there is none that can be trusted."""
    folder = _folder()
    if folder is None or full_key is None:
        return None
    name, key_digest = _entry(kind, full_key)
    try:
        with open(os.path.join(folder, name), "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    start = len(FORMAT) + 2 * _DIGEST
    body = memoryview(data)[start:]
    if (not data.startswith(FORMAT) or data[len(FORMAT):len(FORMAT) + _DIGEST] != key_digest
            or data[len(FORMAT) + _DIGEST:start] != hashlib.sha256(body).digest()):
        return None  # cut short, damaged, or written for another key
    try:
        return pickle.loads(body)
    except Exception:  # written by code that no longer exists, or otherwise unreadable: no entry
        return None


def save(kind: str, full_key: bytes | None, value: Any) -> bool:
    """Keep ``value`` under ``full_key``; whether it was written (a read-only folder is no error).

    The first entry a process writes also prunes the folder (see ``prune``): a cost paid
    only by processes that had work to do.
    """
    global _pruned
    folder = _folder()
    if folder is None or full_key is None:
        return False
    name, key_digest = _entry(kind, full_key)
    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    path = os.path.join(folder, name)
    temporary = os.path.join(folder, f".{name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temporary, "wb") as fh:
            fh.write(FORMAT + key_digest + hashlib.sha256(body).digest() + body)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    if not _pruned:
        _pruned = True
        prune()
    return True


_pruned = False


def prune(limit: int = MAX_ENTRIES) -> None:
    """Remove the oldest-written entries once there are more than ``limit`` (down to three quarters of it)."""
    folder = _folder()
    if folder is None:
        return
    for legacy in folder.parent.glob("trees-*.pickle"):  # every parse in one file, as earlier versions kept them
        with contextlib.suppress(OSError):
            legacy.unlink()
    try:
        entries = [(e.stat().st_mtime, e.path) for e in os.scandir(folder) if e.is_file()]
    except OSError:
        return
    if len(entries) <= limit:
        return
    entries.sort()
    for _, path in entries[:len(entries) - limit * 3 // 4]:
        with contextlib.suppress(OSError):
            os.unlink(path)
