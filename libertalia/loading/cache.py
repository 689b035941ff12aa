"""A best-effort store of built artefacts, one file per entry, kept between processes.

Reading the cards of an edition means composing some sixty YAML files, parsing their
text and building the parser's tables, which takes far longer than the game needs to
start.  Each result depends only on the bytes read and the code and packages that read
them, so it is kept here under a digest of exactly those: a warm start reads the
entries instead of doing the work.

Nothing here can run code: an entry is JSON (``codec``), and its reader names the only
classes it may make.  Nothing here can be written by another account either: entries
live in a folder of the cache folder that belongs to the user and that nobody else may
write (made 0700, whatever the umask), each a regular file of the user's that nobody
else may write (made 0600), opened without following a symbolic link or blocking on a
FIFO, and read only up to ``MAX_BYTES``.  A folder that fails these checks is replaced
by a new one; a cache folder that belongs to someone else is not used at all.

Best-effort throughout: without a usable folder, or when an entry is missing, cut
short, damaged, written for another key, of the wrong shape or failing any check, the
caller simply does the work again (and the entry is removed).  A checksum guards each
entry's bytes and each entry repeats the digest of its full key, which covers the
library's, lark's, PyYAML's and Python's versions (see ``key``).  Entries are written
atomically (a temporary file, then a rename); past ``MAX_ENTRIES`` the oldest go.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import stat
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .. import _paths, _version
from .codec import Codec

FORMAT = b"libertalia-cache-2\n"
"""The first bytes of every entry; a change of layout changes it, and old entries are ignored."""
MAX_ENTRIES = 4_000
"""Entries kept at most: a few editions and a modder's files, each version of a file once."""
MAX_BYTES = 4 << 20
"""The largest entry read (the parser's tables, the largest, are about 0.2 MB; a card's tree a few kB)."""
STALE_SECONDS = 3600
"""A temporary file older than this was left by a process that died while writing: prune removes it."""
_DIGEST = 32  # bytes of a sha256
_FOLDER = "entries"
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_USABLE = os.name == "posix" and _NO_FOLLOW != 0 and {os.open, os.mkdir, os.rename, os.unlink, os.stat} <= \
    os.supports_dir_fd  # what working through a folder's descriptor needs


# ---------------------------------------------------------------- the folder
def _folder() -> int | None:
    """A descriptor of the entries folder, checked (made on first use), or None when there is no usable cache.

    Everything below works through this descriptor, so the folder checked is the folder
    used, whatever is renamed or linked in its place meanwhile.
    """
    return _folder_for(os.environ.get("LIBERTALIA_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME"),
                       os.environ.get("HOME"))


_opened: tuple[tuple[str | None, ...], int | None] | None = None
_opening = threading.Lock()


def _folder_for(*environment: str | None) -> int | None:
    """``_folder`` for the environment that chooses it: opened once per process, not per entry."""
    global _opened
    found = _opened
    if found is not None and found[0] == environment:
        return found[1]
    with _opening:
        if _opened is not None and _opened[0] == environment:
            return _opened[1]
        if _opened is not None and _opened[1] is not None:  # the environment changed (tests do): let it go
            with contextlib.suppress(OSError):
                os.close(_opened[1])
        _opened = (environment, _open_folder())
        return _opened[1]


def _open_folder() -> int | None:
    root = _paths.cache_dir() if _USABLE else None
    if root is None:
        return None
    try:
        root_fd = os.open(root, _OPEN_FLAGS | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        if not _own_root(root_fd):
            return None
        _remove_legacy(root_fd)
        return _entries_folder(root_fd)
    finally:
        os.close(root_fd)


def _private(st: os.stat_result) -> bool:
    """Whether a file or folder is the user's own and nobody else may write it."""
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _own_root(fd: int) -> bool:
    """Whether the cache folder is the user's: if others may write it, it is made private first.

    A folder shared by design (sticky, as /tmp is) is never changed, and not used.
    """
    try:
        st = os.fstat(fd)
        if st.st_uid != os.geteuid() or not stat.S_ISDIR(st.st_mode):
            return False
        if _private(st):
            return True
        if st.st_mode & stat.S_ISVTX:
            return False
        os.fchmod(fd, stat.S_IMODE(st.st_mode) & ~(stat.S_IWGRP | stat.S_IWOTH))
        return True
    except OSError:
        return False


def _entries_folder(root_fd: int) -> int | None:
    """The checked entries folder, made if missing and replaced if it fails a check."""
    for _ in range(3):
        try:
            fd = os.open(_FOLDER, _OPEN_FLAGS | os.O_DIRECTORY | _NO_FOLLOW, dir_fd=root_fd)
        except FileNotFoundError:
            if not _make_folder(root_fd):
                return None
            continue
        except OSError:  # a symbolic link, a file, a FIFO...: not a folder of ours
            fd = -1
        if fd >= 0:
            if _private(os.fstat(fd)):
                return fd
            os.close(fd)
        if not _discard_folder(root_fd):
            return None
    return None


def _make_folder(root_fd: int) -> bool:
    """A new entries folder, 0700 whatever the umask; False if the cache folder cannot be written."""
    try:
        os.mkdir(_FOLDER, 0o700, dir_fd=root_fd)
    except FileExistsError:
        return True  # another process made it: it is checked like any other
    except OSError:
        return False
    try:
        fd = os.open(_FOLDER, _OPEN_FLAGS | os.O_DIRECTORY | _NO_FOLLOW, dir_fd=root_fd)
    except OSError:
        return True
    try:
        os.fchmod(fd, 0o700)
    except OSError:
        pass
    finally:
        os.close(fd)
    return True


def _discard_folder(root_fd: int) -> bool:
    """Move an entries folder that fails a check out of the way (and delete what can be); False if it cannot be."""
    aside = f".discarded-{os.getpid()}-{os.urandom(4).hex()}"
    try:
        os.rename(_FOLDER, aside, src_dir_fd=root_fd, dst_dir_fd=root_fd)
    except OSError:
        return False
    _delete(root_fd, aside)
    return True


def _delete(root_fd: int, name: str) -> None:
    """Remove a file or folder of the cache folder, best-effort (a folder without following any link)."""
    try:
        st = os.stat(name, dir_fd=root_fd, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(name, ignore_errors=True, dir_fd=root_fd)
        else:
            os.unlink(name, dir_fd=root_fd)
    except OSError:
        pass


def _remove_legacy(root_fd: int) -> None:
    """What earlier versions kept in the cache folder: pickled parsers and trees, folders set aside."""
    try:
        names = os.listdir(root_fd)
    except OSError:
        return
    for name in names:
        if (name.startswith("parser-") and name.endswith(".lark")) or (
                name.startswith("trees-") and name.endswith(".pickle")) or name.startswith(".discarded-"):
            _delete(root_fd, name)


# ---------------------------------------------------------------- keys
@functools.cache
def _source_digest(*files: Path) -> bytes | None:
    """A digest of every version a built value depends on and of the given source files, or None.

    Part of every key: an entry built by other code (an edited reader, another release of
    this library, of lark or of PyYAML, another Python) is stale, whatever its input.  None
    when a version cannot be told or a file cannot be read: then nothing is cached.
    """
    versions = (_version.library_version(), _version.distribution_version("lark", "lark"),
                _version.distribution_version("PyYAML", "yaml"), "{}.{}".format(*sys.version_info[:2]))
    if None in versions:
        return None
    digest = hashlib.sha256(FORMAT + "\0".join(v or "" for v in versions).encode() + b"\0")
    try:
        for path in (*files, Path(__file__).with_name("codec.py")):
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    except OSError:
        return None
    return digest.digest()


def key(parts: bytes, *sources: Path) -> bytes | None:
    """The full key of an entry: its input bytes after a digest of the versions and code that build it.

    None when that digest cannot be made (an unusual install): then nothing is cached.
    """
    code = _source_digest(*sources)
    return None if code is None else code + parts


def _entry(kind: str, full_key: bytes) -> tuple[str, bytes]:
    """The file name of an entry and the digest of its kind and key, which the entry repeats."""
    digest = hashlib.sha256(kind.encode() + b"\0" + full_key).digest()
    return f"{kind}-{digest.hex()[:40]}", digest


# ---------------------------------------------------------------- entries
def _read(folder: int, name: str) -> bytes | None:
    """An entry's bytes if it is a regular file of the user's, writable by nobody else, of at most ``MAX_BYTES``."""
    try:
        fd = os.open(name, _OPEN_FLAGS | _NO_FOLLOW | os.O_NONBLOCK, dir_fd=folder)
    except OSError:  # missing, or a symbolic link
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_size > MAX_BYTES:
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_BYTES + 1 - size))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        return None  # it grew past the limit while read
    except OSError:
        return None
    finally:
        os.close(fd)


def load(kind: str, full_key: bytes | None, codec: Codec) -> Any | None:
    """The value stored under ``full_key``, or None if there is none that can be trusted (then it is removed)."""
    folder = _folder()
    if folder is None or full_key is None:
        return None
    name, key_digest = _entry(kind, full_key)
    data = _read(folder, name)
    if data is None:
        if _exists(folder, name):
            discard(kind, full_key)  # not a regular file of the user's, or too large
        return None
    start = len(FORMAT) + 2 * _DIGEST
    body = memoryview(data)[start:]
    if (not data.startswith(FORMAT) or data[len(FORMAT):len(FORMAT) + _DIGEST] != key_digest
            or data[len(FORMAT) + _DIGEST:start] != hashlib.sha256(body).digest()):
        discard(kind, full_key)  # cut short, damaged, or written for another key
        return None
    try:
        return codec.loads(bytes(body))
    except Exception:  # not a value this reader stores (codec.loads makes nothing else)
        discard(kind, full_key)
        return None


def _exists(folder: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    return True


def discard(kind: str, full_key: bytes | None) -> None:
    """Remove the entry for ``full_key``, if there is one (a caller found it unsound)."""
    folder = _folder()
    if folder is not None and full_key is not None:
        with contextlib.suppress(OSError):
            os.unlink(_entry(kind, full_key)[0], dir_fd=folder)


def _create(folder: int, name: str) -> int:
    """A new file of the entries folder, open for writing, 0600 whatever the umask."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600,
                 dir_fd=folder)
    try:
        os.fchmod(fd, 0o600)
    except OSError:
        os.close(fd)
        raise
    return fd


_held = threading.local()


@contextlib.contextmanager
def writes_held() -> Iterator[None]:
    """Nothing is written to the cache inside (in this thread); entries are still read.

    For work whose files nobody loads again, such as the mutants of ``cards mutate``:
    a thousand one-off entries would push out the ones a later start reads.
    """
    depth = getattr(_held, "depth", 0)
    _held.depth = depth + 1
    try:
        yield
    finally:
        _held.depth = depth


def save(kind: str, full_key: bytes | None, value: Any, codec: Codec) -> bool:
    """Keep ``value`` under ``full_key``; whether it was written (a read-only folder is no error).

    The first entry a process writes also prunes the folder (see ``prune``): a cost paid
    only by processes that had work to do.  Inside ``writes_held`` nothing is written.
    """
    global _pruned
    if getattr(_held, "depth", 0):
        return False
    folder = _folder()
    if folder is None or full_key is None:
        return False
    name, key_digest = _entry(kind, full_key)
    try:
        body = codec.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    data = FORMAT + key_digest + hashlib.sha256(body).digest() + body
    if len(data) > MAX_BYTES:
        return False
    temporary = f".{name}.{os.getpid()}.{threading.get_ident()}.{os.urandom(4).hex()}.tmp"
    try:
        fd = _create(folder, temporary)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        return False
    if not _pruned:
        _pruned = True
        prune()
    return True


_pruned = False


def prune(limit: int = MAX_ENTRIES) -> None:
    """Remove the oldest-written entries once there are more than ``limit`` (down to three quarters of it).

    Also removes what is not an entry (anything but a regular file) and temporary files
    left by a process that died while writing.
    """
    folder = _folder()
    if folder is None:
        return
    entries = []
    now = time.time()
    try:
        with os.scandir(folder) as found:
            for e in found:
                st = e.stat(follow_symlinks=False)
                if e.name.startswith("."):
                    if e.name.endswith(".tmp") and now - st.st_mtime > STALE_SECONDS:
                        _delete(folder, e.name)
                elif not stat.S_ISREG(st.st_mode):
                    _delete(folder, e.name)
                else:
                    entries.append((st.st_mtime, e.name))
    except OSError:
        return
    if len(entries) <= limit:
        return
    entries.sort()
    for _, name in entries[:len(entries) - limit * 3 // 4]:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=folder)
