"""``simulate --dask``: a dask cluster watched, so that a run never waits forever or dies in tracebacks.

Three things can leave a run with nobody to play its games: a scheduler that cannot be
reached, a scheduler with no workers (none started yet, or all of them gone mid-run), and a
scheduler that dies mid-run. Each ends the run with a ``ClusterError`` of one line that names
the scheduler (the command prints it and exits with status 3), after ``timeout`` seconds at
most for the first two; a lost connection is known at once (dask cancels every task).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Executor, Future
from contextlib import contextmanager
from typing import Any

POLL_SECONDS = 0.5
"""How often the watch asks the scheduler how many workers it has."""


class ClusterError(Exception):
    """The cluster cannot play the games: unreachable, without workers, or lost mid-run."""


class WatchedExecutor(Executor):
    """The cluster's executor, with a thread that stops the run once the scheduler has had no
    workers for ``timeout`` seconds: every task still out is cancelled, which wakes the run."""

    def __init__(self, client: Any, address: str, timeout: float) -> None:
        self._client = client  # ``stats`` sizes its chunks from the client's worker threads
        self._inner = client.get_executor()
        self._address = address
        self._timeout = timeout
        self._futures: list[Future[Any]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.failure: str | None = None
        self._thread = threading.Thread(target=self._watch, name="libertalia-dask-watch", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = self._inner.submit(fn, *args, **kwargs)
        with self._lock:
            self._futures = [f for f in self._futures if not f.done()]
            self._futures.append(future)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._stop.set()
        if cancel_futures:
            with self._lock:
                for future in self._futures:
                    future.cancel()
        self._inner.shutdown(wait=wait)  # dask's ClientExecutor takes no cancel_futures

    def _watch(self) -> None:
        empty_since: float | None = None
        while not self._stop.wait(POLL_SECONDS):
            if self._client.status != "running":
                return  # the connection is lost: dask has cancelled the tasks itself
            try:
                workers = len(self._client.nthreads())
            except Exception:  # noqa: BLE001 - a scheduler going away; its status says so next time
                continue
            now = time.monotonic()
            if workers:
                empty_since = None
            elif empty_since is None:
                empty_since = now
            elif now - empty_since >= self._timeout:
                self.failure = (f"the dask scheduler at {self._address} has had no workers for "
                                f"{self._timeout:g} s (--dask-timeout)")
                with self._lock:
                    for future in self._futures:
                        future.cancel()
                return


@contextmanager
def watched(distributed: Any, address: str, timeout: float) -> Iterator[WatchedExecutor]:
    """An executor on the scheduler at ``address``, with at least one worker; ``ClusterError``
    if it cannot be reached or gets no worker within ``timeout`` s, or is lost during the run."""
    with _quiet():
        try:
            client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            reason = _reason(exc)
            why = "" if reason.startswith("Timed out") else f": {reason}"
            raise ClusterError(f"cannot reach the dask scheduler at {address} within {timeout:g} s "
                               f"(--dask-timeout){why}") from None
        with client:
            try:
                client.wait_for_workers(1, timeout=timeout)
            except (OSError, TimeoutError):
                if client.status != "running":
                    raise ClusterError(f"lost the dask scheduler at {address} while waiting for workers") from None
                raise ClusterError(f"the dask scheduler at {address} has no workers: none joined within "
                                   f"{timeout:g} s (--dask-timeout); start some with: dask worker {address}") from None
            executor = WatchedExecutor(client, address, timeout)
            try:
                yield executor
            except (CancelledError, OSError, TimeoutError) as exc:
                if executor.failure is not None:
                    raise ClusterError(executor.failure) from None
                if client.status != "running":
                    raise ClusterError(f"lost the dask scheduler at {address} during the run") from None
                raise exc
            finally:
                executor.shutdown(wait=False)


@contextmanager
def _quiet() -> Iterator[None]:
    """dask's own log lines (a traceback for every lost connection) off: the one-line error says it.

    Each ``distributed`` logger is silenced, not only the top one: a record is passed on to the
    top one's handlers whatever the top one's level, by the level of the logger it was made on.
    """
    names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
