"""The command line's files: one ``play`` session per file, regular files only, mod paths kept in bounds,
write errors that name the file and keep the statistics, and no temporary files left behind."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import libertalia as lt
from libertalia import files, records
from libertalia.cli import main
from libertalia.errors import RecordError
from libertalia.records import GameRecord

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
MERCHANT = "name: Merchant\nrank: 21\ntext: |\n  sun: gain 9 doubloons.\n"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "libertalia", *args]


def _session(*args: str) -> subprocess.Popen[str]:
    """``libertalia play`` in a real second process, waiting at its prompt (its stdin stays open)."""
    return subprocess.Popen(_command("play", *args), env=ENV, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_for_session(process: subprocess.Popen[str], record: Path) -> None:
    """Until ``process`` holds the lock on ``record`` and has saved it once (its first question)."""
    deadline = time.monotonic() + 120
    lock = files.lock_path(record)
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the session ended early: {process.communicate()}")
        if record.exists() and lock.exists() and lock.read_text().strip() == str(process.pid):
            return
        time.sleep(0.05)
    raise AssertionError("the session never took its lock")


def _finish(process: subprocess.Popen[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = process.communicate(stdin, timeout=120)
    return process.returncode, out, err


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=60)


# ---------------------------------------------------------------- one session per file
def test_a_second_session_on_the_same_file_is_refused_naming_the_first(tmp_path: Path) -> None:
    """play --load of a file another play session holds exits 2 naming its pid; the first plays on and saves."""
    record = tmp_path / "game.json"
    first = _session("--players", "3", "--seed", "4", "--bots", "first", "--record", str(record))
    try:
        _wait_for_session(first, record)
        before = GameRecord.load(record).answers
        second = subprocess.run(_command("play", "--load", str(record)), env=ENV, text=True, input="1\n" * 40,
                                capture_output=True, timeout=120)
        assert second.returncode == 2, second
        assert f"{record} is in use: another libertalia play session (process {first.pid})" in second.stderr
        assert "saved" not in (second.stdout + second.stderr).casefold()
        assert GameRecord.load(record).answers == before  # the second session wrote nothing
        code, out, err = _finish(first, "1\n1\nquit\n")
    finally:
        _stop(first)
    assert code == 0, err
    assert len(GameRecord.load(record).answers) > len(before)  # the first session's answers are all there
    assert not files.lock_path(record).exists()


def test_a_killed_sessions_lock_is_taken_over(tmp_path: Path) -> None:
    """A session killed with kill -9 leaves its lock file; the next play --load takes it over and says so."""
    record = tmp_path / "game.json"
    first = _session("--players", "3", "--seed", "5", "--bots", "first", "--record", str(record))
    try:
        _wait_for_session(first, record)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=60)
    finally:
        _stop(first)
    assert files.lock_path(record).read_text().strip() == str(first.pid)  # left behind, its lock gone
    again = subprocess.run(_command("play", "--load", str(record)), env=ENV, text=True, input="1\nquit\n",
                           capture_output=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"(process {first.pid}) ended without letting go of it; its lock is taken over" in again.stderr
    assert "Stopped: game saved to" in again.stdout + again.stderr
    assert not files.lock_path(record).exists()


def test_a_default_record_another_session_holds_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               ) -> None:
    """Two new games of one seed in one folder: the second session takes libertalia-SEED-2.json, not the first's."""
    monkeypatch.chdir(tmp_path)
    with files.SessionLock(tmp_path / "libertalia-7.json"):  # a session that has not saved yet
        result = run("play", "--players", "3", "--seed", "7", stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "libertalia-7-2.json").is_file() and not (tmp_path / "libertalia-7.json").exists()


def test_save_will_not_write_a_file_another_session_holds(tmp_path: Path) -> None:
    """'save FILE' at the prompt refuses a file another session is playing, naming it, and the game goes on."""
    other = tmp_path / "other.json"
    with files.SessionLock(other):
        result = run("play", "--players", "3", "--seed", "2", "--record", str(tmp_path / "mine.json"),
                     stdin=f"save {other}\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"cannot save to {other}: another libertalia play session (process {os.getpid()})" in result.output
    assert not other.exists()


def test_play_help_states_the_lock() -> None:
    """play --help says one session per file, and what happens to a killed one's lock."""
    result = run("play", "--help")
    assert "One session per file" in result.output and "process id" in result.output


# ---------------------------------------------------------------- only regular files
@pytest.mark.parametrize("command", [("replay",), ("play", "--load")])
def test_a_fifo_given_as_a_record_is_refused_at_once(tmp_path: Path, command: tuple[str, ...]) -> None:
    """A FIFO as a record (replay, play --load) is refused in one line, not read: reading it would hang."""
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    done = subprocess.run(_command(*command, str(fifo)), env=ENV, text=True, input="quit\n", capture_output=True,
                          timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().endswith("is a FIFO (a named pipe), not a regular file"), done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------- where a record's mod paths may lie
def _modded_record(mod: Path, folder: Path) -> Path:
    mod.mkdir(parents=True)
    (mod / "merchant.yaml").write_text(MERCHANT, encoding="utf-8")
    rules = lt.load_rules("classic", extra_cards=[mod])
    game = lt.new_game(rules, 3, seed=1)
    for _ in range(6):
        game = game.choose(game.legal_keys()[0])
    folder.mkdir(exist_ok=True)
    path = folder / "game.json"
    GameRecord.of(game, agents=("human", "random", "random")).save(path)
    return path


@pytest.mark.parametrize("target", ["/etc", "/proc/self", "../..", "/dev/zero"])
def test_a_records_mod_paths_outside_its_folder_are_refused_before_reading(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    """A record naming /etc, /proc/self or ../.. as a mod is refused, naming the field, before any file is read."""
    path = _modded_record(tmp_path / "mod", tmp_path / "records")
    payload = json.loads(path.read_text())
    payload["rules_args"]["extra_cards"] = [target]
    path.write_text(json.dumps(payload))
    monkeypatch.chdir(tmp_path / "records")

    def no_reading(**kwargs: object) -> None:
        raise AssertionError(f"the rules were loaded from {kwargs}")

    monkeypatch.setattr(records, "load_rules", no_reading)
    with pytest.raises(RecordError, match=r"rules_args\.extra_cards\[0\]: .* lies outside the record's folder"):
        GameRecord.load(path).replay()
    result = run("replay", str(path))
    assert result.exit_code == 2 and "rules_args.extra_cards[0]" in result.output and "lies outside" in result.output


def test_a_board_file_outside_the_records_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The edition may be a board file: one outside the record's folder and the current one is refused too."""
    path = _modded_record(tmp_path / "mod", tmp_path / "records")
    payload = json.loads(path.read_text())
    payload["rules_args"]["edition"] = "/etc/passwd"
    path.write_text(json.dumps(payload))
    monkeypatch.chdir(tmp_path / "records")
    with pytest.raises(RecordError, match=r"rules_args\.edition: '/etc/passwd' lies outside"):
        GameRecord.load(path).replay()


def test_mod_paths_under_the_records_folder_or_given_again_are_read(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A mod beside the record replays from anywhere; one elsewhere replays when --cards names it again."""
    beside = _modded_record(tmp_path / "records" / "mod", tmp_path / "records")
    elsewhere = _modded_record(tmp_path / "mods" / "mine", tmp_path / "kept")
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert run("replay", str(beside)).exit_code == 0
    moved = here / "game.json"  # the record moved away from its mod
    moved.write_text(elsewhere.read_text())
    refused = run("replay", str(moved))
    assert refused.exit_code == 2 and "lies outside the record's folder and the current folder" in refused.output
    assert run("replay", str(moved), "--cards", str(tmp_path / "mods")).exit_code == 0
    assert run("play", "--load", str(moved), "--cards", str(tmp_path / "mods"), stdin="quit\n").exit_code == 0
    unused = run("replay", str(moved), "--cards", str(here))
    assert unused.exit_code == 2 and "the record does not read it" in unused.output


def test_play_takes_a_mod_for_a_new_game(tmp_path: Path) -> None:
    """play --cards MOD plays a new game with the mod, and its record names the mod and replays."""
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "merchant.yaml").write_text(MERCHANT, encoding="utf-8")
    record = tmp_path / "game.json"
    result = run("play", "--edition", "classic", "--players", "3", "--seed", "2", "--cards", str(mod),
                 "--record", str(record), stdin="1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    saved = GameRecord.load(record)
    assert saved.rules_args["extra_cards"] == [str(mod.resolve())]
    assert saved.replay().rules.card("Merchant").text.strip() == "sun: gain 9 doubloons."


# ---------------------------------------------------------------- write errors and leftovers
def _limit_file_size(size: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def test_a_file_size_limit_names_the_file_and_keeps_the_statistics(tmp_path: Path) -> None:
    """simulate --record under RLIMIT_FSIZE: every game counted, the files named, the records written valid."""
    full = tmp_path / "unlimited"
    assert run("simulate", "--games", "12", "--players", "3", "--record", str(full), "--json").exit_code == 0
    sizes = sorted(p.stat().st_size for p in full.glob("game-*.json"))
    limit = sizes[len(sizes) // 2]  # about half the records fit
    limited = tmp_path / "limited"
    done = subprocess.run(_command("simulate", "--games", "12", "--players", "3", "--record", str(limited),
                                   "--json"), env=ENV, text=True, capture_output=True, timeout=600,
                          preexec_fn=lambda: _limit_file_size(limit))
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)  # the statistics, whole
    assert report["games"] == 12 and not report["failed"]
    unwritten = {entry["seed"] for entry in report["unrecorded"]}
    assert unwritten and len(unwritten) < 12
    assert "game record(s) could not be written" in done.stderr and "File too large" in done.stderr
    first = min(unwritten)
    assert f"cannot write {limited / f'game-{first:06d}.json'}: File too large" in done.stderr
    written = sorted(limited.iterdir())
    assert [p.name for p in written] == [f"game-{s:06d}.json" for s in range(12) if s not in unwritten]
    for path in written:  # whole and valid: each replays to the game the report counted
        assert GameRecord.load(path).replay().is_over
        assert path.read_bytes() == (full / path.name).read_bytes()


def test_the_next_run_cleans_what_a_killed_writer_left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A temporary file left by kill -9 mid-write is removed by the next simulate --record and play in that folder."""
    for n, command in enumerate((["simulate", "--games", "1", "--players", "3", "--record", str(tmp_path)],
                                 ["play", "--players", "3", "--record", str(tmp_path / "mine.json")])):
        writer = subprocess.Popen([sys.executable, "-c", (
            "import os, time\nfrom libertalia import files\n"
            "os.fsync = lambda fd: (print('writing', flush=True), time.sleep(600))\n"
            f"files.write_atomic({str(tmp_path / f'game-{n}.json')!r}, 'x')\n")],
            env=ENV, text=True, stdout=subprocess.PIPE)
        try:
            assert writer.stdout is not None and writer.stdout.readline().strip() == "writing"
        finally:
            writer.kill()
            writer.communicate(timeout=60)
        assert any(p.name.endswith(files.TEMP_SUFFIX) for p in tmp_path.iterdir())
        assert run(*command, stdin="quit\n").exit_code == 0
        assert not any(p.name.endswith(files.TEMP_SUFFIX) for p in tmp_path.iterdir())
