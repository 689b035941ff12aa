"""The files the library writes and reads: whole, private, regular, and one session at a time.

- ``write_atomic`` writes a temporary file beside the target (``.NAME.XXXXXXXX.libertalia-tmp``,
  0600, locked while it is written), flushes it to disk and renames it over the target: the
  target holds the old text or the new one, never a part.  A new file is private to the user
  (0600); a replaced one keeps its permissions.
- ``clean_temporary`` removes the temporary files of ours that nobody is writing any more (a
  writer killed with ``kill -9`` leaves one): each writer holds an ``fcntl`` lock on its
  temporary file, and the operating system drops it when the writer dies.
- ``read_regular`` reads a record or save only if it is a regular file, opened without
  blocking and read up to a size limit: a FIFO, a device or ``/dev/zero`` is refused at once.
- ``SessionLock`` is held by a ``libertalia play`` session on the file it saves to: an
  ``fcntl`` lock on ``.NAME.lock`` beside it, holding the session's process id.  A second
  session is refused with that id (``FileInUse``); the lock of a killed session died with its
  process, so the next session takes it over.

The locks are advisory: they keep libertalia sessions apart, not other programs.  Only POSIX
systems have ``fcntl``; elsewhere nothing is locked.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from .errors import FileInUse

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks
    fcntl = None  # type: ignore[assignment]

PRIVATE = 0o600
"""The permissions of a file the library creates: read and write for the user only."""

TEMP_SUFFIX = ".libertalia-tmp"
"""How the name of a temporary file of ours ends (``clean_temporary`` removes no other)."""

LOCK_SUFFIX = ".lock"

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_NAME_ROOM = 200  # of a file name's 255 bytes, what a temporary or lock file may take from the target's


# ---------------------------------------------------------------- writing
def write_atomic(path: str | os.PathLike[str], text: str | bytes) -> None:
    """Write ``text`` to ``path`` so that the file holds either the old or the new text, never a part.

    An error or Ctrl-C on the way removes the temporary file and leaves ``path`` as it was; the
    ``OSError`` raised names ``path`` (``exc.filename``).  A new file is 0600; a replaced one
    keeps its own permissions.
    """
    target = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)  # before any file is made
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = PRIVATE
    tmp: str | None = None
    try:
        fd, tmp = _temporary(target)
        with os.fdopen(fd, "wb") as f:  # closed (and unlocked) only once renamed
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            os.fchmod(f.fileno(), mode)
            os.replace(tmp, target)
            tmp = None
    except OSError as exc:
        if exc.errno is not None and (exc.filename is None or str(exc.filename).endswith(TEMP_SUFFIX)):
            exc.filename = str(target)
        raise
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _temporary(target: Path) -> tuple[int, str]:
    """A new temporary file beside ``target``, open for writing and locked: (descriptor, path)."""
    for _ in range(100):
        tmp = os.path.join(target.parent, f".{target.name[:_NAME_ROOM]}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, PRIVATE)
        except FileExistsError:
            continue
        try:
            if fcntl is None:
                return fd, tmp
            # Blocking, but a cleaner holds it only for a moment: if it removed the file in the
            # moment between its creation and this lock, start again with another name.
            fcntl.flock(fd, fcntl.LOCK_EX)
            if _same_file(fd, tmp):
                return fd, tmp
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    raise FileExistsError(f"no free name for a temporary file beside {target}")


def clean_temporary(folder: str | os.PathLike[str]) -> int:
    """Remove the temporary files of ours in ``folder`` that no live writer holds; how many were removed.

    Only regular files of this user named ``.*.libertalia-tmp`` are looked at, and only those
    whose lock can be taken (their writer is gone) are removed.  A folder that cannot be read
    is left alone.
    """
    if fcntl is None:  # pragma: no cover - without locks, a live writer cannot be told from a dead one
        return 0
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if not (entry.name.startswith(".") and entry.name.endswith(TEMP_SUFFIX)):
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
        except OSError:  # a link, gone already, not ours to read
            continue
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # a writer holds it (or the file system has no locks): leave it
                continue
            if _same_file(fd, entry.path):
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def probe_folder(folder: str | os.PathLike[str]) -> str | None:
    """Why no file can be written in ``folder``, or None: a temporary file is made and removed, as a save does."""
    try:
        fd, tmp = _temporary(Path(folder) / "probe")
    except OSError as exc:
        return exc.strerror or str(exc)
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    return None


def make_private_folder(path: str | os.PathLike[str]) -> None:
    """``mkdir -p`` with the folders it makes private to the user (0700); an existing folder is left as it is."""
    Path(path).mkdir(mode=0o700, parents=True, exist_ok=True)


# ---------------------------------------------------------------- reading
def read_regular(path: str | os.PathLike[str], *, limit: int, fail: Callable[[str], Exception]) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; ``fail(problem)`` raised otherwise.

    The file is looked at before it is opened, and opened without blocking: a FIFO, a device,
    a socket or a folder is refused without being read, so nothing here can hang.  An
    ``OSError`` (no such file, no permission) is the caller's to report.
    """
    kind = _kind(os.stat(path).st_mode)
    if kind is not None:
        raise fail(f"{os.fspath(path)} is {kind}, not a regular file")
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _NOCTTY | _CLOEXEC)
    try:
        st = os.fstat(fd)  # again: it may have been swapped since
        kind = _kind(st.st_mode)
        if kind is not None:
            raise fail(f"{os.fspath(path)} is {kind}, not a regular file")
        if st.st_size > limit:
            raise fail(f"{os.fspath(path)} holds {st.st_size:,} bytes, more than the {limit:,} it may")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise fail(f"{os.fspath(path)} holds more than the {limit:,} bytes it may")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _kind(mode: int) -> str | None:
    """What a file that is not regular is, in words (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (a named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"  # pragma: no cover - no other kinds on the systems we run on


# ---------------------------------------------------------------- one session per file
def lock_path(path: str | os.PathLike[str]) -> Path:
    """The lock file of ``path``: ``.NAME.lock`` beside the file it names (links followed)."""
    real = Path(os.path.realpath(path))
    return real.parent / f".{real.name[:_NAME_ROOM]}{LOCK_SUFFIX}"


class SessionLock:
    """An exclusive lock on a file for the life of one session: ``with SessionLock(path):`` or ``acquire``.

    ``acquire`` raises ``FileInUse`` (naming the other session's process id) when another
    session holds it.  ``stale`` is the process id a lock file still named when its lock was
    free (that session ended without releasing it, ``kill -9`` say), else None.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.lock_file = lock_path(path)
        self.stale: int | None = None
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> SessionLock:
        if self._fd is not None or fcntl is None:
            return self
        for _ in range(100):
            fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC, PRIVATE)
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise FileInUse(self.path, _holder(fd)) from None
                if not _same_file(fd, self.lock_file):  # released and removed while we opened it: again
                    os.close(fd)
                    continue
                previous = _holder(fd)
                self.stale = previous if previous not in (None, os.getpid()) else None
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
                os.fchmod(fd, PRIVATE)
            except BaseException:
                os.close(fd)
                raise
            self._fd = fd
            return self
        raise OSError(f"cannot take the lock {self.lock_file}: it keeps being replaced")

    def release(self) -> None:
        """Remove the lock file and drop the lock (the file first: whoever opens it next opens a new one)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            if _same_file(fd, self.lock_file):
                with contextlib.suppress(OSError):
                    os.unlink(self.lock_file)
        finally:
            os.close(fd)

    def __enter__(self) -> SessionLock:
        return self.acquire()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.release()


def _holder(fd: int) -> int | None:
    """The process id written in a lock file, if it holds one."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def _same_file(fd: int, path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` still names the file open at ``fd`` (and not one made since, or none)."""
    try:
        here, there = os.fstat(fd), os.lstat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)
