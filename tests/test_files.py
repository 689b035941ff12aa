"""Files the library writes and reads (``libertalia.files``): private, whole, regular, one session each."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from libertalia import files
from libertalia.errors import FileInUse, RecordError
from libertalia.records import GameRecord
from tests.helpers import time_limit

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str) -> subprocess.Popen[str]:
    """A real second process running ``code`` with this checkout on its path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _first_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert line, process.stderr.read() if process.stderr else "no output"
    return line


def _kill(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)


def test_a_new_file_is_private_and_a_replaced_one_keeps_its_mode(tmp_path: Path) -> None:
    """Files the library creates are the user's only (0600), whatever the umask; a replaced file keeps its mode."""
    old = os.umask(0)
    try:
        files.write_atomic(tmp_path / "new.json", "{}\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o600
    (tmp_path / "kept.json").write_text("old")
    os.chmod(tmp_path / "kept.json", 0o644)
    files.write_atomic(tmp_path / "kept.json", "new")
    assert stat.S_IMODE((tmp_path / "kept.json").stat().st_mode) == 0o644
    assert (tmp_path / "kept.json").read_text() == "new"


def test_a_write_error_names_the_file(tmp_path: Path) -> None:
    """An OSError from a write names the target, not a temporary file, and leaves nothing behind."""
    with pytest.raises(FileNotFoundError) as caught:
        files.write_atomic(tmp_path / "missing" / "game.json", "x")
    assert caught.value.filename == str(tmp_path / "missing" / "game.json")
    assert str(tmp_path / "missing" / "game.json") in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_killed_writers_temporary_file_is_cleaned_and_a_live_ones_kept(tmp_path: Path) -> None:
    """kill -9 during a write leaves a temporary file: the next clean removes it, but never a live writer's."""
    writer = _python(f"""
        import os, sys, time
        from libertalia import files
        def stall(fd):
            print("writing", flush=True)
            time.sleep(600)
        os.fsync = stall  # stop inside write_atomic, the temporary file written and locked
        files.write_atomic({str(tmp_path / "game.json")!r}, "x" * 100_000)
    """)
    try:
        assert _first_line(writer) == "writing"
        left = [p for p in tmp_path.iterdir() if p.name.endswith(files.TEMP_SUFFIX)]
        assert len(left) == 1 and left[0].name.startswith(".game.json.")
        assert stat.S_IMODE(left[0].stat().st_mode) == 0o600
        assert files.clean_temporary(tmp_path) == 0 and left[0].exists()  # its writer is alive
    finally:
        _kill(writer)
    (tmp_path / ".notes.txt.tmp").write_text("someone else's")  # not ours: never touched
    assert files.clean_temporary(tmp_path) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [".notes.txt.tmp"]


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    """A FIFO, a device, a folder or a file past the limit is refused at once, never read (a FIFO would hang)."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with time_limit(10), pytest.raises(RecordError, match=r"pipe\.json is a FIFO \(a named pipe\), not a regular file"):
        files.read_regular(fifo, limit=100, fail=RecordError)  # time_limit's wall guard: opening it would block
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    with pytest.raises(RecordError, match="zero.json is a character device, not a regular file"):
        files.read_regular(tmp_path / "zero.json", limit=100, fail=RecordError)
    with pytest.raises(RecordError, match="is a folder, not a regular file"):
        files.read_regular(tmp_path, limit=100, fail=RecordError)
    (tmp_path / "big.json").write_bytes(b"x" * 101)
    with pytest.raises(RecordError, match="holds 101 bytes, more than the 100 it may"):
        files.read_regular(tmp_path / "big.json", limit=100, fail=RecordError)
    (tmp_path / "ok.json").write_bytes(b"x" * 100)
    assert files.read_regular(tmp_path / "ok.json", limit=100, fail=RecordError) == b"x" * 100
    with time_limit(30), pytest.raises(RecordError, match="is a FIFO"):  # opening it to read would block
        GameRecord.load(fifo)


def test_a_second_process_is_refused_with_the_holders_pid(tmp_path: Path) -> None:
    """One session per file: a second process's lock fails naming the first's pid; a killed holder's lock is free."""
    save = tmp_path / "game.json"
    holder = _python(f"""
        import time
        from libertalia import files
        lock = files.SessionLock({str(save)!r}).acquire()
        print("locked", flush=True)
        time.sleep(600)
    """)
    try:
        assert _first_line(holder) == "locked"
        lock_file = files.lock_path(save)
        assert lock_file.read_text().strip() == str(holder.pid)
        assert stat.S_IMODE(lock_file.stat().st_mode) == 0o600
        with pytest.raises(FileInUse) as caught:
            files.SessionLock(save).acquire()
        assert caught.value.pid == holder.pid and f"(process {holder.pid})" in str(caught.value)
    finally:
        _kill(holder)
    with files.SessionLock(save) as lock:  # kill -9 dropped the lock: taken over, and the dead pid noticed
        assert lock.held and lock.stale == holder.pid
        assert lock_file.read_text().strip() == str(os.getpid())
    assert not lock_file.exists()  # let go: the lock file goes with it
    with files.SessionLock(save) as again:
        assert again.stale is None
