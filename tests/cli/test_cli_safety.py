"""The command line never loses a game: autosave, Ctrl-C, checked paths, clear errors (issue 9)."""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import libertalia as lt
from libertalia import files
from libertalia.cli import main, play_cmd
from libertalia.errors import SetupError
from libertalia.game import Game
from libertalia.records import GameRecord, write_atomic
from libertalia.state import Decision
from libertalia.stats import BOTS


def run(*args: str, stdin: str | io.BytesIO | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


class CtrlCAtEnd(io.BytesIO):
    """Standard input that gives its lines, then acts as if the person pressed Ctrl-C."""

    def read(self, n: int | None = -1) -> bytes:
        data = super().read(n)
        if not data and n != 0:
            raise KeyboardInterrupt
        return data

    def read1(self, n: int | None = -1) -> bytes:
        data = super().read1(n)
        if not data and n != 0:
            raise KeyboardInterrupt
        return data


def answers_in(path: Path) -> tuple[str, ...]:
    return GameRecord.load(path).answers


# ---------------------------------------------------------------- autosave
def test_autosave_writes_the_record_after_every_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each answer is followed by a save of the record holding it, and the file ends loadable."""
    writes: list[int] = []
    real = write_atomic

    def spy(path: Path, text: str) -> None:
        writes.append(len(json.loads(text)["answers"]))
        real(path, text)

    monkeypatch.setattr(play_cmd, "write_atomic", spy)
    record = tmp_path / "auto.json"
    result = run("play", "--players", "3", "--seed", "4", "--record", str(record), stdin="1\n1\n1\n1\n")
    assert result.exit_code == 0, result.output
    assert f"saved to {record} after every answer" in result.output
    assert writes == sorted(writes) and len(set(writes)) >= 5  # the start, then after each of 4 answers
    assert len(answers_in(record)) == writes[-1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["auto.json"]  # no temporary file left behind


def test_autosave_is_there_even_when_the_process_dies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that never gets to save at the end (an unexpected crash) still leaves its answers in the autosave."""
    record = tmp_path / "auto.json"
    calls = 0
    real_choose = Game.choose

    def crash(self: Game, key: str) -> Game:
        nonlocal calls
        calls += 1
        if calls == 40:
            raise MemoryError  # nothing catches this: it stands for a killed process
        return real_choose(self, key)

    monkeypatch.setattr(Game, "choose", crash)
    result = run("play", "--players", "3", "--seed", "4", "--record", str(record), stdin="1\n" * 100)
    assert isinstance(result.exception, MemoryError)
    assert len(answers_in(record)) >= 3


def test_autosave_resumes_with_load(tmp_path: Path) -> None:
    """The autosave is a record that --load resumes, with the recorded bots, and the game goes on from it."""
    record = tmp_path / "auto.json"
    result = run("play", "--players", "3", "--seed", "6", "--bots", "first", "--record", str(record),
                 stdin="1\n1\n")
    assert result.exit_code == 0, result.output
    before = answers_in(record)
    result = run("play", "--load", str(record), stdin="1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"Resumed {record}" in result.output
    after = GameRecord.load(record)
    assert after.answers[:len(before)] == before and len(after.answers) > len(before)
    assert after.agents == ("human", "first", "first")


def test_atomic_write_keeps_the_old_file_when_the_write_fails(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """If the rename fails (or Ctrl-C hits it), the old file is intact and no temporary file is left."""
    target = tmp_path / "save.json"
    write_atomic(target, "old\n")

    def broken(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        write_atomic(target, "new\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


# ---------------------------------------------------------------- Ctrl-C
def _interrupted(result: Result, record: Path) -> None:
    assert result.exit_code == 130, result.output
    assert f"game saved to {record}; resume with libertalia play --load {record}" in result.output
    assert "Aborted!" not in result.output and "Traceback" not in result.output


def test_ctrl_c_while_a_bot_thinks_saves_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """KeyboardInterrupt inside a bot's choose saves every answer so far and exits with 130."""
    calls = 0

    class SlowBot:
        def choose(self, observation: Any, decision: Decision) -> str:
            nonlocal calls
            calls += 1
            if calls == 6:
                raise KeyboardInterrupt
            return decision.options[0].key

    monkeypatch.setitem(BOTS, "first", lambda seed: SlowBot())
    record = tmp_path / "r.json"
    result = run("play", "--players", "3", "--seed", "3", "--bots", "first", "--record", str(record),
                 stdin="1\n" * 50)
    _interrupted(result, record)
    saved = GameRecord.load(record)
    assert len(saved.answers) >= 5  # the human's answers and the bots' first five
    assert saved.replay().decision is not None
    monkeypatch.undo()
    assert run("play", "--load", str(record), stdin="1\nquit\n").exit_code == 0


def test_ctrl_c_while_the_engine_thinks_saves_the_last_whole_answer(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """KeyboardInterrupt inside Game.choose saves the game as it stood before that answer; exit 130."""
    real_choose = Game.choose
    calls: list[Game] = []

    def choose(self: Game, key: str) -> Game:
        calls.append(self)
        if len(calls) == 12:
            raise KeyboardInterrupt
        return real_choose(self, key)

    monkeypatch.setattr(Game, "choose", choose)
    record = tmp_path / "r.json"
    result = run("play", "--players", "4", "--seed", "9", "--record", str(record), stdin="1\n" * 50)
    _interrupted(result, record)
    assert answers_in(record) == calls[-1].history


def test_ctrl_c_at_the_prompt_saves_the_game(tmp_path: Path) -> None:
    """Ctrl-C while the person types (click.prompt's Abort) saves and exits with 130, unlike end of input."""
    record = tmp_path / "r.json"
    result = run("play", "--players", "3", "--seed", "2", "--record", str(record),
                 stdin=CtrlCAtEnd(b"1\n1\n"))
    _interrupted(result, record)
    assert len(answers_in(record)) >= 2
    result = run("play", "--players", "3", "--seed", "2", "--record", str(tmp_path / "r2.json"), stdin="1\n")
    assert result.exit_code == 0 and "Stopped: game saved to" in result.output  # end of input = quit


def test_ctrl_c_before_the_game_exists_says_nothing_was_saved(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the rules load exits with 130 and says there was nothing to save."""

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_cmd, "load", interrupted)
    result = run("play", "--record", str(tmp_path / "r.json"))
    assert result.exit_code == 130 and "nothing to save" in result.output
    assert not (tmp_path / "r.json").exists()


# ---------------------------------------------------------------- paths
def test_a_bad_save_path_at_the_prompt_asks_again(tmp_path: Path) -> None:
    """'save' to a missing folder, a folder or under a file is reported; the game goes on and saves elsewhere."""
    (tmp_path / "plain").write_text("x")
    good = tmp_path / "good.json"
    record = tmp_path / "r.json"
    typed = [f"save {tmp_path / 'missing' / 'x.json'}", f"save {tmp_path}", f"save {tmp_path / 'plain' / 'x.json'}",
             f"save {good}", "1", "quit"]
    result = run("play", "--players", "3", "--seed", "2", "--record", str(record), stdin="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("cannot save to") == 3
    assert "does not exist" in result.output and "is a folder" in result.output and "is not a folder" in result.output
    assert f"Saved to {good}." in result.output and good.is_file()
    assert len(answers_in(record)) > len(answers_in(good))  # the '1' after the failed saves was played


def test_an_unwritable_record_path_is_refused_before_the_game(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """--record in a missing folder, on a folder, or in a folder that refuses files stops before any prompt."""
    (tmp_path / "plain").write_text("x")
    for bad in (tmp_path / "missing" / "r.json", tmp_path / "plain" / "r.json"):
        result = run("play", "--record", str(bad), stdin="1\n")
        assert result.exit_code == 2, result.output
        assert "cannot save the game to" in result.output and "your choice" not in result.output
    result = run("play", "--record", str(tmp_path), stdin="1\n")
    assert result.exit_code == 2 and "your choice" not in result.output

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files, "_temporary", refuse)  # a read-only folder, even for root
    result = run("play", "--record", str(tmp_path / "r.json"), stdin="1\n")
    assert result.exit_code == 2 and "Permission denied" in result.output and "your choice" not in result.output
    assert not (tmp_path / "r.json").exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    """--record in a folder without write permission stops before any prompt."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = run("play", "--record", str(folder / "r.json"), stdin="1\n")
    finally:
        folder.chmod(0o700)
    assert result.exit_code == 2 and "cannot write in the folder" in result.output


def test_a_missing_load_file_is_refused(tmp_path: Path) -> None:
    """--load of a file that does not exist is refused by the option check, before the game."""
    result = run("play", "--load", str(tmp_path / "none.json"))
    assert result.exit_code == 2 and "does not exist" in result.output


# ---------------------------------------------------------------- damaged records
@pytest.fixture(scope="module")
def valid_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("valid") / "valid.json"
    assert run("play", "--players", "3", "--seed", "2", "--record", str(path), stdin="1\nquit\n").exit_code == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


DAMAGED: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "empty": lambda r: b"",
    "truncated": lambda r: json.dumps(r).encode()[:40],
    "a number": lambda r: b"1",
    "null": lambda r: b"null",
    "a list": lambda r: b"[1, 2]",
    "deep nesting": lambda r: b"[" * 100_000,
    "not UTF-8": lambda r: b"\xff\xfe\x00garbage",
    "players as text": lambda r: json.dumps({**r, "players": "3"}).encode(),
    "players 0": lambda r: json.dumps({**r, "players": 0}).encode(),
    "seed as text": lambda r: json.dumps({**r, "seed": "two"}).encode(),
    "answers not a list": lambda r: json.dumps({**r, "answers": 5}).encode(),
    "an illegal answer": lambda r: json.dumps({**r, "answers": ["Kraken"]}).encode(),
    "rules_args a list": lambda r: json.dumps({**r, "rules_args": [1]}).encode(),
    "unknown edition": lambda r: json.dumps({**r, "rules_args": {**r["rules_args"], "edition": "atlantis"}}).encode(),
    "another rules identity": lambda r: json.dumps({**r, "rules_identity": "changed"}).encode(),
}


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_load_of_a_damaged_record_is_one_line(tmp_path: Path, valid_record: dict[str, Any], damage: str) -> None:
    """--load of a damaged record prints one 'libertalia: FILE: ...' line and exits with 2, no traceback."""
    bad = tmp_path / "bad.json"
    bad.write_bytes(DAMAGED[damage](valid_record))
    result = run("play", "--load", str(bad), stdin="1\n")
    assert result.exit_code == 2, (damage, result.output)
    assert isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"libertalia: {bad}: "), (damage, result.output)
    assert "game record" in lines[0]


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_replay_of_a_damaged_record_is_one_line(tmp_path: Path, valid_record: dict[str, Any], damage: str) -> None:
    """``replay`` of a damaged record prints one 'libertalia: ...' line and exits with 2, no traceback."""
    bad = tmp_path / "bad.json"
    bad.write_bytes(DAMAGED[damage](valid_record))
    result = run("replay", str(bad))
    assert result.exit_code == 2, (damage, result.output)
    assert isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("libertalia: "), (damage, result.output)


# ---------------------------------------------------------------- player counts
def test_new_game_refuses_a_player_count_that_is_not_a_whole_number() -> None:
    """new_game(rules, 3.0), True or '3' raise SetupError naming the valid range, not a TypeError."""
    rules = lt.load_rules("galecrest")
    for players in (3.0, True, "3", None):
        with pytest.raises(SetupError, match="whole number from 2 to 6"):
            lt.new_game(rules, players)  # type: ignore[arg-type]
    with pytest.raises(SetupError, match=re.escape("2 to 6 players (or 1: the solo game), not 0")):
        lt.new_game(rules, 0)
    with pytest.raises(SetupError, match="a seed is a whole number from 0 to"):
        lt.new_game(rules, 3, 1.5)  # type: ignore[arg-type]


def test_play_and_simulate_refuse_bad_counts() -> None:
    """play --players 0 / 9 and --seat 5, simulate --players 0, --games 0 and --jobs 0 give a usage error, exit 2."""
    for args, expected in ((("play", "--players", "0"), "2 to 6 players (or 1: the solo game), not 0"),
                           (("play", "--players", "9"), "2 to 6 players (or 1: the solo game), not 9"),
                           (("play", "--players", "3", "--seat", "5"), "seat must be 0 to 2"),
                           (("simulate", "--players", "0"), "2 to 6 players (or 1: the solo game), not 0"),
                           (("simulate", "--games", "0"), "--games"),
                           (("simulate", "--jobs", "0"), "--jobs")):
        result = run(*args, stdin="quit\n")
        assert result.exit_code == 2, (args, result.output)
        assert expected in result.output and "Traceback" not in result.output, (args, result.output)
        assert "your choice" not in result.output
