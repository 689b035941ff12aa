"""Worker processes that die with the process that started them, and leave no temporary files.

Every pool of worker processes in the package comes from ``worker_pool`` (``simulate --jobs
N``, ``cards mutate``, ``cards interactions`` and ``cards contracts`` with ``--jobs N``).

A ``ProcessPoolExecutor`` worker waits on a queue whose write end its siblings hold too, so
when the parent is killed outright (``kill -9``: no chance to shut the pool down) the workers
would play every task already queued and then wait for more forever. So each worker, as it
starts, ties its life to the parent's:

- On Linux, ``prctl(PR_SET_PDEATHSIG, SIGTERM)``: the kernel signals the worker the moment its
  parent dies, with no thread and no polling. A worker's parent is the process that made the
  pool (``fork`` and ``spawn``) or its fork server, which exits when that process does
  (``forkserver``), so either way the worker goes with it. A parent that died before the call
  is caught by checking it once after.
- Elsewhere (no ``prctl``), a daemon thread checks twice a second that the parent is still
  there.

Either way the worker then removes its scratch folder and ends with ``os._exit``: it never
finishes the task in hand, which its parent (gone) could not have used anyway, and files are
written whole or not at all (``write_atomic``). SIGTERM rather than SIGKILL so that the worker
can remove its files first; a ``kill`` of the worker (or of its process group) does the same.

Temporary files: a pool has a run folder (``libertalia-run-*`` in the system's temporary
folder), and each worker a scratch folder inside it that it makes its ``tempfile.tempdir``, so
every temporary file or folder the work makes lands there. A worker removes its scratch
folder as it exits (normally, or on its parent's death), and the last one out removes the run
folder; the parent removes the run folder when it closes the pool, so a worker killed outright
(out of memory) leaves nothing either.

For the kernel a worker's parent is the *thread* that started it: the pool is made, used and
shut down in one thread (``stats.simulate`` runs its pool in the thread that runs the
simulation), which therefore outlives its workers.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing.util
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import FrameType

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL_SECONDS = 0.5
RUN_PREFIX = "libertalia-run-"
WORKER_PREFIX = "worker-"

_scratch: list[Path] = []  # this worker's scratch folder, once made (a list: no global statement)
_owned: list[tuple[int, Path]] = []  # (parent, folder): what ``guard`` removes once that parent is gone
_group: list[bool] = []  # [True]: this process leads a process group of its own, ended with it (``guard``)


@contextlib.contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A ``ProcessPoolExecutor`` of ``jobs`` workers tied to this process, shut down on the way out.

    Leaving the block cancels the tasks not started, waits for the workers and removes the run
    folder (see the module).
    """
    run = Path(tempfile.mkdtemp(prefix=RUN_PREFIX))
    try:
        with ProcessPoolExecutor(max_workers=jobs, initializer=start_worker, initargs=(os.getpid(), str(run))) as pool:
            try:
                yield pool
            finally:
                pool.shutdown(cancel_futures=True)
    finally:
        shutil.rmtree(run, ignore_errors=True)


def start_worker(parent: int, run: str) -> None:
    """The pool's ``initializer``: a scratch folder for this worker's temporary files, then ``tie_to_parent``."""
    scratch = Path(tempfile.mkdtemp(prefix=WORKER_PREFIX, dir=run))
    _scratch[:] = [scratch]
    tempfile.tempdir = str(scratch)
    # Run as the worker process ends normally (multiprocessing calls its finalizers then, not atexit's).
    multiprocessing.util.Finalize(None, clear_scratch, exitpriority=0)
    tie_to_parent(parent)


def guard(parent: int, remove: Path) -> None:
    """For a subprocess (not a pool worker) started with a session of its own: the same tie to ``parent``.

    When ``parent`` dies, ``remove`` (the parent's throwaway folder, which it can no longer remove)
    goes, and so does this process's group: whatever this process started, then itself.  Used by
    ``testing.engine_mutants``, whose kill check runs in a subprocess on a copy of the package.
    """
    _owned[:] = [(parent, remove)]
    _group[:] = [os.getpgrp() == os.getpid()]  # never a group it does not lead (a shell's job)
    tie_to_parent(parent)


def clear_scratch() -> None:
    """Remove this worker's scratch folder, and the run folder once no other worker's is left in it."""
    for scratch in _scratch:
        shutil.rmtree(scratch, ignore_errors=True)
        with contextlib.suppress(OSError):  # not empty: another worker is still there
            scratch.parent.rmdir()


def tie_to_parent(parent: int) -> None:
    """This worker ends (its scratch folder removed) when ``parent``, the process making the pool, dies."""
    signal.signal(signal.SIGTERM, _end)
    if sys.platform.startswith("linux") and _death_signal(signal.SIGTERM):
        if not _alive(parent):  # it died before the call, when nobody was watching
            _end()
        return
    ppid = os.getppid()
    threading.Thread(target=_watch, args=(parent, ppid), name="libertalia-lifeline", daemon=True).start()


def _end(signum: int = signal.SIGTERM, frame: FrameType | None = None) -> None:
    """SIGTERM: parent gone (or the worker killed on purpose): the files removed, the process ended at once."""
    clear_scratch()
    for parent, folder in _owned:
        if os.getppid() != parent:  # the parent is gone (a SIGTERM from elsewhere leaves its folder be)
            shutil.rmtree(folder, ignore_errors=True)
    if _group and _group[0]:
        with contextlib.suppress(OSError):
            os.killpg(os.getpid(), signal.SIGKILL)
    os._exit(1)


def _death_signal(sig: int) -> bool:
    """Ask the kernel to send ``sig`` when the parent dies; whether it agreed."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0)
    except (OSError, AttributeError):  # no libc to load, or no prctl in it
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, but another user's: a reused pid, or the parent itself
        return True
    return True


def _watch(parent: int, ppid: int) -> None:
    """End the worker once its parent is gone: dead, or this worker handed on to another process."""
    while True:
        time.sleep(POLL_SECONDS)
        if os.getppid() != ppid or not _alive(parent):
            _end()
