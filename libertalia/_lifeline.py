"""Worker processes that die with the process that started them (``simulate --jobs N``).

A ``ProcessPoolExecutor`` worker waits on a queue whose write end its siblings hold too, so
when the parent is killed outright (``kill -9``: no chance to shut the pool down) the workers
play every chunk already queued and then wait for more forever. So each worker, as it
starts, ties its life to the parent's:

- On Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker the moment its
  parent dies, whatever the worker is doing (a long game, a blocked write), with no thread and
  no polling. A worker's parent is the process that made the pool (``fork`` and ``spawn``) or
  its fork server, which exits when that process does (``forkserver``), so either way the
  worker goes with it. A parent that died before the call is caught by checking it once after.
- Elsewhere (no ``prctl``), a daemon thread checks twice a second that the parent is still
  there and ends the worker with ``os._exit`` once it is not.

For the kernel a worker's parent is the *thread* that started it: ``stats.simulate`` makes
its pool, submits to it and shuts it down in the one thread that runs the simulation, which
therefore outlives its workers.

SIGKILL, not SIGTERM: a worker killed mid-game loses only that game, which its parent (gone)
could not have used anyway, and records are written whole or not at all (``write_atomic``).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL_SECONDS = 0.5


def tie_to_parent(parent: int) -> None:
    """A pool ``initializer``: this worker dies with ``parent`` (the pid of the process making the pool)."""
    if sys.platform.startswith("linux") and _death_signal(signal.SIGKILL):
        if not _alive(parent):  # it died before the call, when nobody was watching
            os._exit(1)
        return
    ppid = os.getppid()
    threading.Thread(target=_watch, args=(parent, ppid), name="libertalia-lifeline", daemon=True).start()


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
            os._exit(1)
