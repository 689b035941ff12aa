"""A best-effort store of built artefacts, one file per entry, kept between processes.

Reading the cards of an edition means composing some sixty YAML files, parsing their
text and building the parser's tables, which takes far longer than the game needs to
start.  Each result depends only on the bytes read and the code and packages that read
them, so it is kept here under a digest of exactly those: a warm start reads the
entries instead of doing the work.

The cache owns one folder, ``libertalia-cache``, inside the folder the user chose
(``LIBERTALIA_CACHE_DIR``, or ``~/.cache/libertalia``), and nothing else: what else that
folder holds is the user's and is never read, changed or removed.  The cache's folder is
marked by a ``CACHEDIR.TAG`` (https://bford.info/cachedir/, so backup tools skip it) and
made whole under a temporary name before it takes its place, so a folder of that name
without the tag was not made here.  Nothing is deleted but what the cache wrote: entries
and temporary files of its own names that start with its own first bytes, and a folder
left half made by a process that died, holding only the cache's own tag.  Anything else
found where the cache looks (a folder of that name that is not the cache's, a sub-folder, a
link, an entry that fails a check) is moved into a ``set-aside`` folder, or beside the
cache's folder, and named in a ``CacheWarning``: never removed, so a mistaken setting costs
no file.

Nothing here can run code: an entry is JSON (``codec``), and its reader names the only
classes it may make.  Nothing here can be written by another account either: the cache's
folder belongs to the user and nobody else may write it (made 0700, whatever the umask),
each entry is a regular file of the user's that nobody else may write (made 0600), opened
without following a symbolic link or blocking on a FIFO, and read only up to ``MAX_BYTES``.
A cache folder that belongs to someone else is set aside when it can be, never used.

Best-effort throughout: without a usable folder, or when an entry is missing, cut short,
damaged, written for another key, of the wrong shape or failing any check, the caller
simply does the work again (and the entry is set aside and written anew).  A checksum
guards each entry's bytes; the digest of its full key, which covers its input's bytes
and the library's, lark's, PyYAML's and Python's versions (see ``key``), heads the entry
and heads its body again, so that the body of another entry moved under this one's name
is told apart even with its checksum made anew.  Entries are written atomically (a
temporary file, then a rename); past ``MAX_ENTRIES`` the oldest go.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import stat
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from .. import _paths, _version
from .._terminal import visible
from ..errors import CacheWarning
from .codec import Codec

FORMAT = b"libertalia-cache-3\n"
"""The first bytes of every entry; a change of layout changes it, and old entries are ignored."""
MAGIC = b"libertalia-cache-"
"""What every entry any version of the cache wrote starts with: only such a file is ever deleted."""
FOLDER = "libertalia-cache"
"""The cache's own folder, in the folder the user chose."""
TAG = "CACHEDIR.TAG"
"""The file that marks the cache's folder as a cache (https://bford.info/cachedir/)."""
TAG_SIGNATURE = b"Signature: 8a477f597d28d172789f06886806bc55"
"""The line a cache directory tag starts with, by that standard."""
TAG_TEXT = TAG_SIGNATURE + (
    b"\n# This file is a cache directory tag created by libertalia.\n"
    b"# For information about cache directory tags, see: https://bford.info/cachedir/\n")
ASIDE = "set-aside"
"""Where what the cache's folder held unexpectedly is moved: kept for the user, never read."""
MAX_ENTRIES = 4_000
"""Entries kept at most: a few editions and a modder's files, each version of a file once."""
MAX_BYTES = 4 << 20
"""The largest entry read (the parser's tables, the largest, are about 0.2 MB; a card's tree a few kB)."""
STALE_SECONDS = 3600
"""A temporary file older than this was left by a process that died while writing: prune removes it."""
_DIGEST = 32  # bytes of a sha256
_ENTRY_NAME = re.compile(r"[a-z]+-[0-9a-f]{40}")
_TEMP_NAME = re.compile(r"\.[a-z]+-[0-9a-f]{40}\.[0-9]+\.[0-9]+\.[0-9a-f]{8}\.tmp")
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_USABLE = os.name == "posix" and _NO_FOLLOW != 0 and {os.open, os.mkdir, os.rename, os.unlink, os.stat} <= \
    os.supports_dir_fd  # what working through a folder's descriptor needs


# ---------------------------------------------------------------- the folder
class _Opened(NamedTuple):
    environment: tuple[str | None, ...]
    fd: int | None
    made: bool  # whether making the folder was tried (a reader only opens one that exists)
    path: Path | None


_opened: _Opened | None = None
_opening = threading.Lock()


def _folder(make: bool = False) -> int | None:
    """A descriptor of the cache's folder, checked, or None when there is no usable cache.

    ``make``: make the folder if there is none (a writer does; a reader finds nothing to
    read in a folder that does not exist).  Everything below works through this
    descriptor, so the folder checked is the folder used, whatever is renamed or linked in
    its place meanwhile.  Opened once per process, not per entry.
    """
    global _opened
    environment = (os.environ.get("LIBERTALIA_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))
    found = _opened
    if found is not None and found.environment == environment and (found.fd is not None or found.made or not make):
        return found.fd
    with _opening:
        found = _opened
        if found is not None and found.environment == environment and (
                found.fd is not None or found.made or not make):
            return found.fd
        if found is not None and found.fd is not None:  # the environment changed (tests do): let it go
            with contextlib.suppress(OSError):
                os.close(found.fd)
        root = _paths.cache_dir() if _USABLE else None
        fd = None if root is None else _open_folder(root, make)
        _opened = _Opened(environment, fd, make, None if root is None else root / FOLDER)
        return fd


def _where(name: str = "") -> str:
    """The path of the cache's folder (or of ``name`` in it), for a warning."""
    found = _opened
    base = found.path if found is not None and found.path is not None else Path(FOLDER)
    return str(base / name if name else base)


def _warn(message: str) -> None:
    warnings.warn(CacheWarning(visible(message)), stacklevel=2)


def _open_folder(root: Path, make: bool) -> int | None:
    try:
        root_fd = os.open(root, _OPEN_FLAGS | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        if os.fstat(root_fd).st_uid != os.geteuid():  # someone else's folder: the cache is not theirs to add
            return None
        for _ in range(4):
            try:
                fd = os.open(FOLDER, _OPEN_FLAGS | os.O_DIRECTORY | _NO_FOLLOW, dir_fd=root_fd)
            except FileNotFoundError:
                if not make or not _make_folder(root_fd):
                    return None
                continue
            except OSError:  # a symbolic link, a file, a FIFO...: not the cache's
                fd = -1
            problem = "not a folder" if fd < 0 else _not_ours(fd)
            if not problem:
                return fd
            if fd >= 0:
                os.close(fd)
            if not make:
                return None  # left as it is until a writer needs the place
            if not _set_aside_folder(root_fd, root, problem):
                return None
        return None
    except OSError:
        return None
    finally:
        os.close(root_fd)


def _private(st: os.stat_result) -> bool:
    """Whether a file or folder is the user's own and nobody else may write it."""
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _not_ours(fd: int) -> str:
    """Why the folder open at ``fd`` is not the cache's own ('' when it is): whose it is, who may write it, its tag."""
    try:
        st = os.fstat(fd)
        if st.st_uid != os.geteuid():
            return "it belongs to another user"
        if not _private(st):
            return "others may write it"
        tag = _read(fd, TAG, limit=4096)[0]
    except OSError:
        return "it cannot be read"
    if tag is None or not tag.startswith(TAG_SIGNATURE) or b"libertalia" not in tag:
        return f"it holds no {TAG} of libertalia's"
    return ""


def _make_folder(root_fd: int) -> bool:
    """The cache's folder, made whole (private, tagged) under a temporary name and then put in place.

    So no process ever sees it half made, and a folder of that name without the tag is
    not one the cache made.  False if the chosen folder cannot be written; True when the
    folder is in place, by this process or another.
    """
    _clear_dead_makings(root_fd)
    temporary = f".{FOLDER}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        os.mkdir(temporary, 0o700, dir_fd=root_fd)
    except OSError:
        return False
    placed = False
    with contextlib.suppress(OSError):
        fd = os.open(temporary, _OPEN_FLAGS | os.O_DIRECTORY | _NO_FOLLOW, dir_fd=root_fd)
        try:
            os.fchmod(fd, 0o700)  # the umask may have taken more than group and other bits
            try:
                _write(fd, TAG, TAG_TEXT)
                if not _exists(root_fd, FOLDER):  # renaming onto an empty folder would replace it
                    os.rename(temporary, FOLDER, src_dir_fd=root_fd, dst_dir_fd=root_fd)
                    placed = True
            finally:
                if not placed:  # another process put its folder in place first: take ours back
                    with contextlib.suppress(OSError):
                        os.unlink(TAG, dir_fd=fd)
        finally:
            os.close(fd)
    if not placed:
        with contextlib.suppress(OSError):
            os.rmdir(temporary, dir_fd=root_fd)  # only ever ours, and empty
    return True


_MAKING_NAME = re.compile(r"\.libertalia-cache\.[0-9]+\.[0-9a-f]{8}\.tmp")


def _clear_dead_makings(root_fd: int) -> None:
    """Remove the folders ``_make_folder`` left half made when its process died, and only those.

    Such a folder is known by its name, its owner and mode, its age and what it holds: at
    most the tag, byte for byte as the cache writes it.  Anything else is left as it is.
    """
    try:
        names = [n for n in os.listdir(root_fd) if _MAKING_NAME.fullmatch(n)]
    except OSError:
        return
    for name in names:
        try:
            fd = os.open(name, _OPEN_FLAGS | os.O_DIRECTORY | _NO_FOLLOW, dir_fd=root_fd)
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            if not _private(st) or time.time() - st.st_mtime < STALE_SECONDS or not set(os.listdir(fd)) <= {TAG}:
                continue
            if os.listdir(fd):
                if _read(fd, TAG, limit=4096)[0] != TAG_TEXT:
                    continue
                os.unlink(TAG, dir_fd=fd)
            os.rmdir(name, dir_fd=root_fd)
        except OSError:
            pass
        finally:
            os.close(fd)


def _stamp() -> str:
    return f"{time.strftime('%Y%m%dT%H%M%S')}-{os.urandom(3).hex()}"


def _set_aside_folder(root_fd: int, root: Path, problem: str) -> bool:
    """Move what holds the cache folder's place, not being the cache's, beside it, and say so."""
    aside = f"{FOLDER}.set-aside-{_stamp()}"
    try:
        if _exists(root_fd, aside):
            return False
        os.rename(FOLDER, aside, src_dir_fd=root_fd, dst_dir_fd=root_fd)
    except FileNotFoundError:
        return True  # another process moved it first
    except OSError:
        _warn(f"{root / FOLDER} is not the cache's own folder ({problem}) and cannot be moved aside: "
              "no cache is used")
        return False
    _warn(f"{root / FOLDER} was not the cache's own folder ({problem}): moved to {root / aside}, untouched; "
          "a new cache folder is made")
    return True


def _aside_folder(folder: int) -> int | None:
    """The cache's ``set-aside`` folder (made if missing), or None when there is no private one."""
    for _ in range(2):
        try:
            fd = os.open(ASIDE, _OPEN_FLAGS | os.O_DIRECTORY | _NO_FOLLOW, dir_fd=folder)
        except FileNotFoundError:
            try:
                os.mkdir(ASIDE, 0o700, dir_fd=folder)
            except FileExistsError:
                pass
            except OSError:
                return None
            continue
        except OSError:
            return None
        try:
            if _private(os.fstat(fd)):
                os.fchmod(fd, 0o700)
                return fd
        except OSError:
            pass
        os.close(fd)
        return None
    return None


def _set_aside(folder: int, name: str, problem: str, seen: os.stat_result | None = None) -> bool:
    """Move ``name`` out of the way into ``set-aside``, and say so; whether it is gone from its place.

    ``seen``: the file as it was judged; one that has been replaced meanwhile (another
    process wrote the entry anew) is left for its own reader to judge.
    """
    try:
        st = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if seen is not None and (st.st_dev, st.st_ino) != (seen.st_dev, seen.st_ino):
        return False
    aside = _aside_folder(folder)
    if aside is None:
        return False
    moved = f"{name}.{_stamp()}"
    try:
        os.rename(name, moved, src_dir_fd=folder, dst_dir_fd=aside)
    except FileNotFoundError:
        return True  # another process moved it first
    except OSError:
        return False
    finally:
        os.close(aside)
    _warn(f"{_where(name)} was not a sound cache entry ({problem}): moved to {_where(ASIDE + '/' + moved)}, "
          "untouched")
    return True


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
def _read(folder: int, name: str, limit: int = MAX_BYTES) -> tuple[bytes | None, os.stat_result | None]:
    """A file's bytes if it is a regular file of the user's, writable by nobody else, of at most ``limit``.

    With them, what the file is: (None, None) when there is no such file, (None, its
    status) when there is one that is not such a file.
    """
    try:
        fd = os.open(name, _OPEN_FLAGS | _NO_FOLLOW | os.O_NONBLOCK, dir_fd=folder)
    except FileNotFoundError:
        return None, None
    except OSError:  # a symbolic link, say
        try:
            return None, os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError:
            return None, None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_size > limit:
            return None, st
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                return b"".join(chunks), st
            chunks.append(chunk)
            size += len(chunk)
        return None, st  # it grew past the limit while read
    except OSError:
        return None, None
    finally:
        os.close(fd)


def load(kind: str, full_key: bytes | None, codec: Codec) -> Any | None:
    """The value stored under ``full_key``, or None if there is none that can be trusted (then it is set aside)."""
    folder = _folder()
    if folder is None or full_key is None:
        return None
    name, key_digest = _entry(kind, full_key)
    data, st = _read(folder, name)
    if data is None:
        if st is not None:
            _set_aside(folder, name, "not a regular file of at most 4 MB that you alone may write", st)
        return None
    start = len(FORMAT) + 2 * _DIGEST
    body = memoryview(data)[start:]
    if not data.startswith(FORMAT) or data[len(FORMAT) + _DIGEST:start] != hashlib.sha256(body).digest():
        _set_aside(folder, name, "cut short or damaged", st)
        return None
    if data[len(FORMAT):len(FORMAT) + _DIGEST] != key_digest or body[:_DIGEST] != key_digest:
        _set_aside(folder, name, "written for other input", st)
        return None
    try:
        return codec.loads(bytes(body[_DIGEST:]))
    except Exception:  # not a value this reader stores (codec.loads makes nothing else)
        _set_aside(folder, name, "not a value its reader stores", st)
        return None


def _exists(folder: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    return True


def _written_here(folder: int, name: str) -> bool:
    """Whether ``name`` is a file the cache wrote: a private regular file that starts with its first bytes.

    (A temporary file may still be empty.)  Only such a file is ever deleted.
    """
    try:
        fd = os.open(name, _OPEN_FLAGS | _NO_FOLLOW | os.O_NONBLOCK, dir_fd=folder)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _private(st):
            return False
        head = os.read(fd, len(MAGIC))
    except OSError:
        return False
    finally:
        os.close(fd)
    return head == MAGIC or (not head and _TEMP_NAME.fullmatch(name) is not None)


def _remove(folder: int, name: str, problem: str) -> None:
    """Delete ``name`` if the cache wrote it, else set it aside: nothing of anyone else's is deleted."""
    if _written_here(folder, name):
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=folder)
    else:
        _set_aside(folder, name, problem)


def discard(kind: str, full_key: bytes | None) -> None:
    """Set aside the entry for ``full_key``, if there is one (a caller found it unsound)."""
    folder = _folder()
    if folder is not None and full_key is not None:
        _set_aside(folder, _entry(kind, full_key)[0], "its reader refused what it holds")


def _create(folder: int, name: str) -> int:
    """A new file of the cache's folder, open for writing, 0600 whatever the umask."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600,
                 dir_fd=folder)
    try:
        os.fchmod(fd, 0o600)
    except OSError:
        os.close(fd)
        raise
    return fd


def _write(folder: int, name: str, data: bytes) -> None:
    """A new file ``name`` holding ``data``, 0600."""
    fd = _create(folder, name)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


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
    What holds the entry's place without being an entry the cache wrote is set aside
    first, not written over.
    """
    global _pruned
    if getattr(_held, "depth", 0):
        return False
    folder = _folder(make=True)
    if folder is None or full_key is None:
        return False
    name, key_digest = _entry(kind, full_key)
    try:
        body = key_digest + codec.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    data = FORMAT + key_digest + hashlib.sha256(body).digest() + body
    if len(data) > MAX_BYTES:
        return False
    if _exists(folder, name) and not _written_here(folder, name) and \
            not _set_aside(folder, name, "not an entry the cache wrote"):
        return False
    temporary = f".{name}.{os.getpid()}.{threading.get_ident()}.{os.urandom(4).hex()}.tmp"
    try:
        _write(folder, temporary, data)
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

    Also removes temporary files left by a process that died while writing, and sets
    aside whatever else the folder holds that the cache does not write there (a
    sub-folder, a link, a file of another name or another owner).
    """
    folder = _folder()
    if folder is None:
        return
    entries = []
    now = time.time()
    try:
        with os.scandir(folder) as found:
            listed = [(e.name, e.stat(follow_symlinks=False)) for e in found]
    except OSError:
        return
    for name, st in listed:
        if name in (TAG, ASIDE) and (stat.S_ISREG(st.st_mode) if name == TAG else stat.S_ISDIR(st.st_mode)):
            continue
        if _TEMP_NAME.fullmatch(name) and stat.S_ISREG(st.st_mode):
            if now - st.st_mtime > STALE_SECONDS:
                _remove(folder, name, "a temporary file of unknown content")
        elif _ENTRY_NAME.fullmatch(name) and stat.S_ISREG(st.st_mode) and _private(st):
            entries.append((st.st_mtime, name))
        else:
            _set_aside(folder, name, "not a name or kind of file the cache writes", st)
    if len(entries) <= limit:
        return
    entries.sort()
    for _, name in entries[:len(entries) - limit * 3 // 4]:
        _remove(folder, name, "not an entry the cache wrote")
