"""Every worker pool dies with its parent, killed outright, and leaves no temporary file (``libertalia._lifeline``)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from libertalia import _lifeline

ROOT = Path(__file__).resolve().parents[2]

# Each command with --jobs 2 and far more work than any machine finishes in the seconds before the kill: the
# test kills it once its workers are up, so the work asked costs nothing, and a quiet machine must not finish it.
COMMANDS = {
    "mutate": ["cards", "mutate", str(ROOT / "cards" / "galecrest" / "characters"), "--jobs", "2"],
    "interactions": ["cards", "interactions", "--cards", "Witch", "--games", "500", "--jobs", "2"],
    "contracts": ["cards", "contracts", "--texts", "5000", "--jobs", "2"],
    "simulate": ["simulate", "--games", "4000", "--players", "2", "--jobs", "2", "--json"],
}


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state, ppid, pgrp, session, ...); [] if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return []


def _children(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields and fields[0] != "Z" and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    fields = _stat(pid)
    return bool(fields) and fields[0] != "Z"


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """Poll ``condition`` for at most ``seconds``: a bound for a busy machine, never a timing asserted."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def _default_signals() -> None:
    """In the child before exec: SIGINT, SIGTERM and SIGHUP as a terminal gives them, whatever this shell ignores."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def _scratch_folders(tmp: Path) -> list[Path]:
    return list(tmp.glob(f"{_lifeline.RUN_PREFIX}*/{_lifeline.WORKER_PREFIX}*"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_workers_and_their_files_go_with_a_parent_killed_outright(command: str, tmp_path: Path) -> None:
    """Issue 33: kill -9 of a command with --jobs 2 ends both workers, and no temporary folder is left."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "TMPDIR": str(tmp), "LIBERTALIA_CACHE_DIR": str(tmp_path / "cache")}
    # A session of its own: whatever is left of it is killed below by its group id, this test's own processes only.
    parent = subprocess.Popen([sys.executable, "-m", "libertalia", *COMMANDS[command]], cwd=tmp_path, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                              preexec_fn=_default_signals)
    try:
        assert _wait_for(lambda: len(_children(parent.pid)) >= 2 and len(_scratch_folders(tmp)) >= 2, 240), \
            "the pool never started"
        workers = _children(parent.pid)
        time.sleep(1)  # the workers are at work
        assert parent.poll() is None, "the command finished before it could be killed: give it more work"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=30)
        assert _wait_for(lambda: not any(_running(w) for w in workers), 30), \
            f"workers {[w for w in workers if _running(w)]} outlived their parent"
        assert _wait_for(lambda: not any(tmp.iterdir()), 10), f"left behind: {sorted(tmp.rglob('*'))}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            parent.wait(timeout=30)


def test_a_pool_closed_normally_leaves_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's temporary files go into its scratch folder, removed as it exits; the run folder with the pool."""
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    with _lifeline.worker_pool(2) as pool:
        made = list(pool.map(_make_temporary_folder, range(4)))
    assert all(Path(folder).is_relative_to(tmp_path) for folder in made)
    assert list(tmp_path.iterdir()) == []


def _make_temporary_folder(_: int) -> str:
    """A worker task: a temporary folder it never removes (as a task killed midway would leave one)."""
    import tempfile

    return tempfile.mkdtemp(prefix="task-")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_engine_mutants_check_goes_with_a_run_killed_outright(tmp_path: Path) -> None:
    """The engine-mutation run's kill check (a subprocess with a session of its own) and its package copy go too."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "TMPDIR": str(tmp), "LIBERTALIA_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.Popen([sys.executable, "-m", "libertalia.testing.engine_mutants", "--mutants", "1",
                            "--fuzz-texts", "2", "--only-tests", "tests/language"], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                           preexec_fn=_default_signals)
    checks: list[int] = []
    try:
        assert _wait_for(lambda: bool(_children(run.pid)), 240), "the kill check never started"
        checks = _children(run.pid)
        time.sleep(1)  # the check is running the tests
        assert run.poll() is None and any(tmp.iterdir())
        os.kill(run.pid, signal.SIGKILL)
        run.wait(timeout=30)
        assert _wait_for(lambda: not any(_running(c) for c in checks), 30), "the kill check outlived its run"
        assert _wait_for(lambda: not any(tmp.iterdir()), 10), f"left behind: {sorted(tmp.iterdir())}"
    finally:
        for group in (*checks, run.pid):  # each leads a session of its own, started here
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            run.wait(timeout=30)
