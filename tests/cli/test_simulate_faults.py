"""libertalia simulate when its machinery fails: a killed parent, a dask scheduler without workers or gone."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import time_limit

ROOT = Path(__file__).resolve().parents[2]
GUARD = 300  # seconds: how long a wait may take before the test calls it a hang; never a measure of speed


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _children(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is ``pid``, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, ppid = stat.rpartition(")")[2].split()[:2]
        if int(ppid) == pid and state != "Z":
            found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for(condition: object, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return bool(condition())  # type: ignore[operator]


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[bytes] | int]]:
    """Processes a test starts; whatever is left of them is killed afterwards (by pid, nothing else)."""
    mine: list[subprocess.Popen[bytes] | int] = []
    yield mine
    for p in mine:  # every one, even if an earlier one will not go: nothing of the test outlives it
        pid = p if isinstance(p, int) else p.pid
        if _running(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    for p in mine:
        if not isinstance(p, int):
            p.communicate(timeout=300)  # reaped, its pipes closed


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_pool_workers_die_with_a_parent_killed_outright(started: list[subprocess.Popen[bytes] | int]) -> None:
    """kill -9 of `simulate --jobs 2` takes its two workers with it, their queue of 4,000 games unplayed.

    The wait is a guard against workers that never go, not a measure: a loaded machine may take a while.
    """
    sim = subprocess.Popen([sys.executable, "-m", "libertalia", "simulate", "--games", "4000", "--jobs", "2",
                            "--players", "2", "--json"], cwd=ROOT, env=_env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started.append(sim)
    assert _wait_for(lambda: len(_children(sim.pid)) >= 2, GUARD), "the pool never started"
    time.sleep(1)  # the workers are playing their first chunks
    workers = _children(sim.pid)
    started.extend(workers)
    os.kill(sim.pid, signal.SIGKILL)
    sim.wait(timeout=GUARD)
    assert _wait_for(lambda: not any(_running(w) for w in workers), GUARD), \
        f"workers {[w for w in workers if _running(w)]} outlived their parent"


# ---------------------------------------------------------------- dask
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _dask(started: list[subprocess.Popen[bytes] | int], *args: str) -> subprocess.Popen[bytes]:
    """A dask scheduler or worker of our own (127.0.0.1 only, no dashboard), which imports this libertalia."""
    process = subprocess.Popen([sys.executable, "-m", *args, "--no-dashboard"], cwd=ROOT, env=_env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started.append(process)
    return process


def _scheduler(started: list[subprocess.Popen[bytes] | int]) -> tuple[str, subprocess.Popen[bytes]]:
    port = _free_port()
    process = _dask(started, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port))
    assert _wait_for(lambda: _listening(port), GUARD), "the scheduler did not start"
    return f"tcp://127.0.0.1:{port}", process


def _worker(started: list[subprocess.Popen[bytes] | int], address: str) -> subprocess.Popen[bytes]:
    """One worker process, without a nanny (so that killing it leaves the scheduler with none)."""
    return _dask(started, "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
                 "--host", "127.0.0.1")


def _simulate(started: list[subprocess.Popen[bytes] | int], address: str, *args: str) -> subprocess.Popen[bytes]:
    sim = subprocess.Popen([sys.executable, "-m", "libertalia", "simulate", "--dask", address, "--players", "2",
                            "--dask-timeout", "3", *args], cwd=ROOT, env=_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    started.append(sim)
    return sim


def _first_rows(sim: subprocess.Popen[bytes]) -> None:
    """Wait until the run's first games have come back (the CSV header, then a row)."""
    assert sim.stdout is not None
    with time_limit(GUARD, wall=GUARD):  # a read that never returns fails the test instead of hanging it
        assert sim.stdout.readline().startswith(b"seed,") and sim.stdout.readline(), "no game came back"


def _one_line(sim: subprocess.Popen[bytes], seconds: float = GUARD) -> str:
    """The run's stderr, which must be one line, once it has stopped with exit status 3."""
    _, err = sim.communicate(timeout=seconds)
    lines = err.decode().strip().splitlines()
    assert sim.returncode == 3 and len(lines) == 1, (sim.returncode, err.decode())
    return lines[0]


def test_a_scheduler_with_no_workers_stops_the_run_after_the_timeout(
        started: list[subprocess.Popen[bytes] | int]) -> None:
    """--dask ADDRESS with no worker: after --dask-timeout, one line naming the scheduler and exit status 3."""
    pytest.importorskip("distributed")
    address, _ = _scheduler(started)
    line = _one_line(_simulate(started, address, "--games", "5"))
    assert line == (f"libertalia: the dask scheduler at {address} has no workers: none joined within 3 s "
                    f"(--dask-timeout); start some with: dask worker {address}; the run stopped and nothing is "
                    "reported")


def test_a_scheduler_that_dies_mid_run_is_one_line_and_status_3(started: list[subprocess.Popen[bytes] | int]) -> None:
    """kill -9 of the scheduler while games are out: one line naming it, exit status 3, no traceback."""
    pytest.importorskip("distributed")
    address, scheduler = _scheduler(started)
    _worker(started, address)
    sim = _simulate(started, address, "--games", "3000", "--csv")
    _first_rows(sim)
    scheduler.kill()
    line = _one_line(sim)
    assert line == f"libertalia: lost the dask scheduler at {address} during the run; the run stopped and nothing " \
                   "is reported"


def test_workers_all_gone_mid_run_stop_it_after_the_timeout(started: list[subprocess.Popen[bytes] | int]) -> None:
    """The only worker killed mid-run: after --dask-timeout without one, one line and exit status 3."""
    pytest.importorskip("distributed")
    address, _ = _scheduler(started)
    worker = _worker(started, address)
    sim = _simulate(started, address, "--games", "3000", "--csv")
    _first_rows(sim)
    worker.kill()
    assert _one_line(sim) == (f"libertalia: the dask scheduler at {address} has had no workers for 3 s "
                              "(--dask-timeout); the run stopped and nothing is reported")


def test_an_unreachable_scheduler_is_one_line_and_status_3(started: list[subprocess.Popen[bytes] | int]) -> None:
    """Nothing listening at the address: after --dask-timeout, one line naming it and exit status 3."""
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{_free_port()}"
    assert _one_line(_simulate(started, address, "--games", "5")) == (
        f"libertalia: cannot reach the dask scheduler at {address} within 3 s (--dask-timeout); the run stopped "
        "and nothing is reported")


def test_the_exit_statuses_are_in_the_help() -> None:
    """`simulate --help` lists exit statuses 0 to 3."""
    from click.testing import CliRunner

    from libertalia.cli import main

    text = CliRunner().invoke(main, ["simulate", "--help"]).output
    assert "Exit status:" in text and all(f"  {n}  " in text for n in range(4)) and "--dask-timeout" in text
