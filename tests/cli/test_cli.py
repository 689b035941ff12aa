"""The command line, driven through click's test runner."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from click.testing import CliRunner

from libertalia.cli import main
from libertalia.records import GameRecord


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


def test_help_lists_every_subcommand() -> None:
    """``libertalia --help`` names play, simulate, cards and replay."""
    code, out = run("--help")
    assert code == 0
    for command in ("play", "simulate", "cards", "replay"):
        assert command in out


def test_play_to_the_end_with_scripted_stdin(tmp_path: Path) -> None:
    """A person answering '1' to everything finishes the game; the record replays to the same scores."""
    record = tmp_path / "game.json"
    code, out = run("play", "--players", "3", "--seed", "4", "--record", str(record), stdin="1\n" * 400)
    assert code == 0, out
    assert "Final scores:" in out and "\x1b[" not in out  # no colour codes when not a terminal
    game = GameRecord.load(record).replay()
    assert game.is_over
    for p in game.players:
        assert f"seat {p.seat}: {p.score}" in out


def test_play_reprompts_on_bad_input_and_saves_on_quit(tmp_path: Path) -> None:
    """Invalid input asks again instead of crashing; 'save' and 'quit' write the record; --load resumes."""
    saved, record = tmp_path / "saved.json", tmp_path / "quit.json"
    code, out = run("play", "--players", "3", "--seed", "2", "--record", str(record),
                    stdin=f"nonsense\n0\n99\nsave {saved}\nCook\nquit\n")
    assert code == 0, out
    assert out.count("is not an option") == 3
    assert saved.is_file() and record.is_file()
    assert GameRecord.load(record).answers[0] == "Cook"
    code, out = run("play", "--load", str(record), stdin="quit\n")
    assert code == 0 and "Resumed" in out


def test_check_reports_every_broken_card(tmp_path: Path) -> None:
    """``cards check`` prints each error with file:line:col and exits non-zero."""
    (tmp_path / "a.yaml").write_text("name: Pirate\nrank: 41\ntext: |\n  sun: gain many doubloons.\n")
    (tmp_path / "b.yaml").write_text("name: Corsair\nrank: 42\ntxet: x\n")
    code, out = run("cards", "check", str(tmp_path))
    assert code == 1
    assert "a.yaml:4:13" in out and "b.yaml:3:1" in out and "2 errors" in out


def test_check_prints_each_error_of_a_line_with_its_suggestion(tmp_path: Path) -> None:
    """``cards check`` prints every error of a line, each at its own column, with the wording that parses."""
    line = "  sun: take a map from bag and gain 1 doubloon for character in your ship."
    (tmp_path / "a.yaml").write_text(f"name: Pirate\nrank: 41\ntext: |\n{line}\n")
    code, out = run("cards", "check", str(tmp_path))
    assert code == 1
    assert (f"a.yaml:4:{line.index('bag') + 1}: unexpected word 'bag' "
            '(did you mean: "map from the bag and gain 1"?)') in out
    assert (f"a.yaml:4:{line.index('character') + 1}: unexpected word 'character' "
            '(did you mean: "doubloon for each character in your ship"?)') in out
    assert "2 errors" in out


def test_check_lists_every_unknown_kind_of_a_line(tmp_path: Path) -> None:
    """Three unknown loot kinds of one line are three errors of ``cards check``, each at its word."""
    line = "  moon: lose 1 doubloon for each pearl or coral or amber you hold."
    (tmp_path / "a.yaml").write_text(f"name: Pirate\nrank: 41\ntext: |\n{line}\n")
    code, out = run("cards", "check", str(tmp_path))
    assert code == 1
    for word in ("pearl", "coral", "amber"):
        assert f"a.yaml:4:{line.index(word) + 1}: unknown loot kind {word!r}" in out
    assert "3 errors" in out


def test_check_accepts_the_bundled_cards() -> None:
    """Every bundled card of both editions passes ``cards check``."""
    root = Path(__file__).resolve().parents[2] / "cards"
    assert run("cards", "check", str(root / "galecrest"))[0] == 0
    assert run("cards", "check", "--edition", "classic", str(root / "classic"))[0] == 0


def test_cards_list_and_show() -> None:
    """``cards list`` shows the edition; ``cards show`` prints text, canonical form and tree."""
    code, out = run("cards", "list")
    assert code == 0 and "Wind Nymph" in out and "Midshipman" in out
    code, out = run("cards", "show", "Cabin Boy")
    assert code == 0
    assert "take no loot" in out and "TakeNoLoot" in out
    assert "Canonical" not in out  # the bundled text is already canonical (shown only when it differs)
    code, out = run("cards", "show", "Kraken")
    assert code != 0 and "no card or loot kind called 'Kraken'" in out


def test_simulate_is_the_same_for_any_number_of_jobs() -> None:
    """``simulate --json`` gives equal reports with --jobs 1 and --jobs 2."""
    args = ("simulate", "--games", "12", "--players", "4", "--bots", "random,first", "--seed", "3", "--json")
    code1, one = run(*args, "--jobs", "1")
    code2, two = run(*args, "--jobs", "2")
    assert code1 == code2 == 0
    report = json.loads(one)
    assert report == json.loads(two)
    assert report["games"] == 12 and {b["bot"] for b in report["bots"]} == {"random", "first"}
    assert abs(sum(s["win_rate"] for s in report["seats"]) - 1) < 1e-3  # rates are rounded to 4 places


def test_simulate_records_replay_to_their_scores(tmp_path: Path) -> None:
    """``simulate --record DIR`` writes records that replay to the reported final scores."""
    code, out = run("simulate", "--games", "3", "--players", "3", "--record", str(tmp_path), "--csv")
    assert code == 0
    rows = [line.split(",") for line in out.strip().splitlines()[1:]]
    for path in sorted(tmp_path.glob("game-*.json")):
        record = GameRecord.load(path)
        game = record.replay()
        expected = [int(r[3]) for r in rows if int(r[0]) == record.seed]
        assert list(game.final_scores()) == expected


def test_replay_prints_the_game(tmp_path: Path) -> None:
    """``replay FILE`` prints the recorded game day by day and its final scores."""
    run("simulate", "--games", "1", "--players", "3", "--seed", "8", "--record", str(tmp_path), "--json")
    record = next(tmp_path.glob("game-*.json"))
    code, out = run("replay", str(record))
    assert code == 0
    game = GameRecord.load(record).replay()
    assert "voyage 1, day 1" in out and "voyage 3, day 6" in out
    assert all(f"seat {p.seat}: {p.score}" in out for p in game.players)


def test_simulate_plot_writes_a_png(tmp_path: Path) -> None:
    """``simulate --plot`` draws the charts to a PNG file, private to the user (0600) like every file it makes."""
    png = tmp_path / "out.png"
    old_mask = os.umask(0o022)  # a umask that would leave a plainly created file readable by all
    try:
        code, _ = run("simulate", "--games", "5", "--players", "3", "--plot", str(png))
    finally:
        os.umask(old_mask)
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.name == "posix":
        assert stat.S_IMODE(png.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["out.png"]  # no temporary file left beside it


def test_bad_options_give_a_message_not_a_traceback() -> None:
    """Unknown editions, bots and loot sides are reported in words with exit status 2."""
    for args in (("simulate", "--edition", "atlantis"), ("simulate", "--bots", "genius"),
                 ("simulate", "--loot", "foggy"), ("play", "--players", "9")):
        code, out = run(*args, stdin="quit\n")
        assert code == 2, (args, out)
        assert "Traceback" not in out


def test_issue_games_play_to_the_end_from_the_command_line() -> None:
    """2-player calm, 4-player stormy, 5-player uncharted and classic games all finish from the CLI."""
    for args in (("--players", "2", "--loot", "calm"), ("--players", "4", "--loot", "stormy"),
                 ("--players", "5", "--loot", "uncharted"), ("--players", "3", "--edition", "classic")):
        code, out = run("simulate", "--games", "2", *args, "--json")
        assert code == 0, (args, out)
        assert json.loads(out[out.index("{"):])["games"] == 2


def test_cards_show_outlines_the_tree_by_meaningful_fields() -> None:
    """``cards show`` outlines the parsed tree by the fields that make its meaning, never by positions."""
    code, out = run("cards", "show", "Cook")
    assert code == 0
    tree = out.split("Tree\n", 1)[1]
    assert tree.splitlines()[:12] == [
        "Ability",
        "  timing: 'dusk'",
        "  modifiers: ('last',)",
        "  steps:",
        "    Step",
        "      form: 'postfix_if'",
        "      actions:",
        "        Take",
        "          loot:",
        "            ChooseLoot",
        "              np:",
        "                LootNP",
    ]
    inner = "IsLike(ref='this', filter=Zone(prep='on', place='island', pile='', wording=''), verb='is')"
    assert f"groups: (({inner},),)" in tree  # nested nodes show their repr, which keeps the spelling
    assert "line" not in tree and "column" not in tree


def test_solo_play_runs_to_the_end_and_shows_automa_and_the_pilferer(tmp_path: Path) -> None:
    """``play --players 1``: Automa's open hand and the Pilferer's card on screen; the record replays."""
    record = tmp_path / "solo.json"
    code, out = run("play", "--players", "1", "--seed", "3", "--handicap", "0=5", "--record", str(record),
                    stdin="1\n" * 200)
    assert code == 0, out
    assert "Automa's open hand:" in out and "(Pilferer)" in out and "1 (Automa)" in out
    assert "Final scores:" in out
    saved = GameRecord.load(record)
    assert saved.players == 1 and saved.handicap == (5, 0) and saved.agents == ("human", "automa")
    game = saved.replay()
    assert game.is_over and game.state.automa == 1


def test_solo_simulate_reports_automa_as_a_seat() -> None:
    """``simulate --players 1`` plays solo games: the bots take your seat, Automa the other."""
    code, out = run("simulate", "--players", "1", "--games", "3", "--json")
    assert code == 0, out
    report = json.loads(out)
    assert report["games"] == 3 and "automa" in json.dumps(report)


def test_replaying_a_solo_record_notes_the_constructed_deck_in_one_line(tmp_path: Path) -> None:
    """``replay`` of a solo game: the constructed solo cards are a one-line note, not a Python warning."""
    record = tmp_path / "solo.json"
    code, _ = run("play", "--players", "1", "--seed", "3", "--record", str(record), stdin="1\n" * 200)
    assert code == 0
    result = CliRunner().invoke(main, ["replay", str(record)])
    assert result.exit_code == 0, result.output
    assert "note: 39 of the 39 solo cards are constructions" in result.output
    assert "UnverifiedSoloWarning" not in result.output and "warnings.warn" not in result.output


def test_replay_reads_a_record_from_standard_input(tmp_path: Path) -> None:
    """``replay -`` reads the record from standard input and prints what ``replay FILE`` prints."""
    run("simulate", "--games", "1", "--players", "3", "--seed", "8", "--record", str(tmp_path), "--json")
    record = next(tmp_path.glob("game-*.json"))
    code, from_file = run("replay", str(record))
    code2, from_stdin = run("replay", "-", stdin=record.read_text(encoding="utf-8"))
    assert code == code2 == 0 and from_stdin == from_file


def test_replay_from_standard_input_refuses_what_is_not_a_record() -> None:
    """``replay -`` with no record on standard input is a clear error, not a traceback."""
    code, out = run("replay", "-", stdin="not a record")
    assert code != 0 and "Traceback" not in out and "record" in out.lower()


def test_replay_html_writes_a_private_page_from_standard_input(tmp_path: Path) -> None:
    """``replay - --html OUT`` writes the replay page, 0600, with one step per answer after the start."""
    run("simulate", "--games", "1", "--players", "2", "--seed", "4", "--record", str(tmp_path), "--json")
    record = next(tmp_path.glob("game-*.json"))
    out = tmp_path / "page.html"
    code, said = run("replay", "-", "--html", str(out), stdin=record.read_text(encoding="utf-8"))
    answers = len(GameRecord.load(record).answers)
    assert code == 0 and f"{answers} answers" in said
    assert out.stat().st_mode & 0o777 == 0o600
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    steps = json.loads(page.split('<script type="application/json" id="steps">')[1].split("</script>")[0])
    assert len(steps) == answers + 1 and steps[0]["answer"] is None and steps[-1]["phase"] == "over"
