"""``libertalia play`` as a newcomer meets it (issue 12): seeds, records, the table, the prompt's commands."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner, Result

import libertalia as lt
from libertalia import records
from libertalia.agents import FirstOptionAgent
from libertalia.cli import main, play_cmd
from libertalia.game import Game
from libertalia.records import GameRecord

BOX_DRAWING = re.compile("[\u2500-\u257f]")


def run(*args: str, stdin: str | None = None) -> Result:
    """``libertalia ARGS`` at 80 columns, with ``stdin`` typed at the prompts."""
    return CliRunner().invoke(main, list(args), input=stdin, env={"COLUMNS": "80"})


def answers_in(path: Path) -> tuple[str, ...]:
    return GameRecord.load(path).answers


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh current folder, where the default records are written."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def first_keys(players: int = 4, seed: int = 5) -> tuple[str, ...]:
    """The keys of seat 0's first decision in a galecrest game."""
    decision = lt.new_game(lt.load_rules("galecrest"), players, seed).decision
    assert decision is not None
    return decision.keys()


# ---------------------------------------------------------------- seeds
def test_no_seed_draws_a_random_one_and_prints_it(here: Path) -> None:
    """Without --seed the seed is drawn at random, printed with how to deal it again, and named by the record."""
    result = run("play", "--players", "3", stdin="quit\n")
    assert result.exit_code == 0, result.output
    found = re.search(r"Seed (\d+) \(drawn at random: --seed \1 deals this game again\)", result.output)
    assert found is not None, result.output
    seed = int(found.group(1))
    assert GameRecord.load(here / f"libertalia-{seed}.json").seed == seed


def test_the_random_seed_comes_from_outside_the_engine(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The drawn seed is the system's random number (``secrets``), not a fixed default."""
    monkeypatch.setattr(play_cmd.secrets, "randbelow", lambda n: 424242)
    result = run("play", "--players", "3", stdin="quit\n")
    assert result.exit_code == 0 and "Seed 424242 (drawn at random" in result.output
    assert (here / "libertalia-424242.json").is_file()


def test_a_negative_seed_is_a_usage_error(here: Path) -> None:
    """--seed -1 is refused before the game, with exit status 2 and a sentence, no traceback."""
    result = run("play", "--seed", "-1", stdin="1\n")
    assert result.exit_code == 2
    assert "a seed is a whole number from 0 to 2**64 - 1" in result.output and "not -1" in result.output
    assert "your choice" not in result.output
    assert list(here.iterdir()) == []


# ---------------------------------------------------------------- records are never written over
def test_the_default_record_is_numbered_instead_of_written_over(here: Path) -> None:
    """An existing libertalia-SEED.json is left alone: the next games go to -2, -3, ... and say so."""
    precious = here / "libertalia-5.json"
    precious.write_text("a finished game\n")
    for n in (2, 3):
        result = run("play", "--players", "3", "--seed", "5", stdin="quit\n")
        assert result.exit_code == 0, result.output
        assert f"saved to libertalia-5-{n}.json after every answer" in result.output
        assert "libertalia-5.json exists: it is left as it is." in result.output
        assert GameRecord.load(here / f"libertalia-5-{n}.json").seed == 5
    assert precious.read_text() == "a finished game\n"


def test_an_existing_record_path_is_refused_unless_it_is_the_game_resumed(tmp_path: Path) -> None:
    """--record of an existing file stops before the game; --load FILE --record FILE goes on with it."""
    record = tmp_path / "mine.json"
    assert run("play", "--players", "3", "--seed", "2", "--record", str(record), stdin="1\nquit\n").exit_code == 0
    before = record.read_bytes()
    result = run("play", "--players", "3", "--seed", "2", "--record", str(record), stdin="1\n")
    assert result.exit_code == 2 and "already exists" in result.output and f"--load {record}" in result.output
    assert "your choice" not in result.output and record.read_bytes() == before
    result = run("play", "--load", str(record), "--record", str(record), stdin="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert len(answers_in(record)) > len(GameRecord.from_json(before).answers)


def test_save_at_the_prompt_asks_before_replacing_a_file(tmp_path: Path) -> None:
    """'save FILE' onto an existing file asks first: no keeps the file, yes replaces it."""
    other = tmp_path / "other.json"
    other.write_text("keep me\n")
    typed = f"save {other}\nn\nsave {other}\ny\nquit\n"
    result = run("play", "--players", "3", "--seed", "2", "--record", str(tmp_path / "r.json"), stdin=typed)
    assert result.exit_code == 0, result.output
    assert result.output.count("exists: replace it with this game?") == 2
    assert f"Not saved: {other} is left as it is." in result.output and f"Saved to {other}." in result.output
    assert GameRecord.load(other).seed == 2


# ---------------------------------------------------------------- --load
@pytest.mark.parametrize("option", [("--players", "3"), ("--seed", "4"), ("--edition", "classic"),
                                    ("--loot", "stormy"), ("--handicap", "0=5")])
def test_load_with_an_option_the_record_decides_is_a_usage_error(tmp_path: Path, option: tuple[str, str]) -> None:
    """play --load with --players, --seed, --edition, --loot or --handicap is refused, not silently ignored."""
    record = tmp_path / "r.json"
    assert run("play", "--players", "3", "--seed", "2", "--record", str(record), stdin="1\nquit\n").exit_code == 0
    before = record.read_bytes()
    result = run("play", "--load", str(record), *option, stdin="1\nquit\n")
    assert result.exit_code == 2, result.output
    assert f"{option[0]} cannot be given with it" in result.output and "your choice" not in result.output
    assert record.read_bytes() == before


def _bots_record(path: Path, answers: int) -> GameRecord:
    """A record of a game between 'first' bots (as ``simulate --record`` writes), ``answers`` answers in."""
    game = lt.new_game(lt.load_rules("galecrest"), 3, 4)
    bot = FirstOptionAgent()
    for _ in range(answers):
        if game.decision is None:
            break
        game = game.choose(bot.choose(game.observation(game.decision.player), game.decision))
    record = GameRecord.of(game, agents=("first", "first", "first"))
    record.save(path)
    return record


def test_loading_a_bots_only_record_leaves_it_as_it_is(here: Path) -> None:
    """--load of a record between bots plays on in a new libertalia-SEED.json; the loaded file is untouched."""
    bots = here / "bots.json"
    _bots_record(bots, 12)
    before = bots.read_bytes()
    result = run("play", "--load", str(bots), stdin="1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "bots.json records a game between bots: it is left as it is." in result.output
    assert bots.read_bytes() == before
    mine = GameRecord.load(here / "libertalia-4.json")
    assert mine.answers[:12] == GameRecord.from_json(before).answers and len(mine.answers) > 12
    assert mine.agents[0] == "human"
    result = run("play", "--load", str(bots), "--record", str(bots), stdin="quit\n")
    assert result.exit_code == 2 and "records a game between bots" in result.output
    assert bots.read_bytes() == before


def test_loading_a_finished_game_shows_it_and_writes_nothing(here: Path) -> None:
    """--load of a game that is over prints its end and scores; no file is written or rewritten."""
    bots = here / "over.json"
    record = _bots_record(bots, 10_000)
    before = bots.read_bytes()
    result = run("play", "--load", str(bots), stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert "holds a finished game" in result.output and "Final scores:" in result.output
    for seat, score in enumerate(record.replay().final_scores()):
        assert f"seat {seat}: {score}" in result.output
    assert bots.read_bytes() == before and sorted(p.name for p in here.iterdir()) == ["over.json"]


# ---------------------------------------------------------------- the table
def _doctored(monkeypatch: pytest.MonkeyPatch, **seats: Any) -> None:
    """New games start with the given PlayerState fields on seats 0 and 1 (``s0_graveyard=...``)."""
    real = play_cmd.new_game

    def new_game(*args: Any, **kwargs: Any) -> Game:
        game = real(*args, **kwargs)
        state = game.state
        players = list(state.seats)
        for key, value in seats.items():
            seat, field = int(key[1]), key[3:]
            players[seat] = attrs.evolve(players[seat], **{field: value})
        return Game(game.rules, attrs.evolve(state, seats=tuple(players)))

    monkeypatch.setattr(play_cmd, "new_game", new_game)
    # A doctored state has no answers leading to it, so records would refuse it: only the table is tested.
    monkeypatch.setattr(records, "_leads_to", lambda record, game: True)


def test_the_table_shows_your_graveyard_and_kept_cards_but_not_others_graveyards(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Your graveyard, every seat's kept characters and loot, and grouped loot show; another's graveyard does not."""
    _doctored(monkeypatch, s0_graveyard=("Necromancer",), s1_graveyard=("Beggar",), s1_ship=("Gambler",),
              s1_kept=("Gambler",), s1_loot=("map", "saber", "map", "map"), s1_kept_loot=("map",))
    result = run("play", "--players", "3", "--seed", "2", "--record", str(tmp_path / "r.json"), stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert "Your graveyard: Necromancer" in result.output and "Beggar" not in result.output
    assert "Kept for the next voyage: 1: Gambler, map" in result.output
    row = next(line for line in result.output.splitlines() if line.startswith("1 "))
    assert row.endswith("Gambler  map ×3, saber"), row


def test_the_table_shows_the_loot_of_every_day_to_come(tmp_path: Path) -> None:
    """Today's loot and each later day's of the voyage are on the table, grouped as 'barrel ×3'."""
    record = tmp_path / "r.json"
    result = run("play", "--players", "4", "--seed", "5", "--record", str(record), stdin="quit\n")
    assert result.exit_code == 0, result.output
    game = GameRecord.load(record).replay()
    order = game.rules.kind_order
    for day, loot in enumerate(game.loot_days, 1):
        counts = {kind: loot.count(kind) for kind in sorted(set(loot), key=order.__getitem__)}
        shown = ", ".join(k if n == 1 else f"{k} ×{n}" for k, n in counts.items())
        label = "Today's loot: " if day == 1 else f"day {day}: "
        assert label + shown in result.output, (day, shown)
    assert "Loot to come: day 2:" in result.output


def test_the_rank_is_explained_once(tmp_path: Path) -> None:
    """The number in 'Cook (26)' is explained as the rank the first time ranked options show, not every time."""
    result = run("play", "--players", "3", "--seed", "4", "--record", str(tmp_path / "r.json"), stdin="1\n" * 40)
    assert result.exit_code == 0, result.output
    assert result.output.count("choose a character to send to the island") > 1
    assert result.output.count("The number after a character is its rank") == 1


def test_a_whole_game_fits_80_columns_whole_words_and_no_box_characters(here: Path) -> None:
    """At 80 columns no line is longer, no name is split across lines, and piped output has no box drawing."""
    result = run("play", "--players", "6", "--seed", "11", "--record", "r.json", stdin="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Final scores:" in result.output and not BOX_DRAWING.search(result.output)
    lines = [line.removeprefix("your choice> ") for line in result.output.splitlines()]
    assert max(len(line) for line in lines) <= 80
    rules = lt.load_rules("galecrest")
    for name in (c.name for c in rules.characters if " " in c.name):
        words = name.split()
        for k in range(1, len(words)):
            head, tail = " ".join(words[:k]), " ".join(words[k:])
            for above, below in zip(lines, lines[1:], strict=False):
                assert not (above.endswith(head) and below.lstrip().startswith(tail)), (above, below)
    twice = re.compile(rf"\b({'|'.join(rules.kinds)}), \1\b")
    table = [line for line in lines if line[:1].isdigit() or line.startswith(("Today's loot", "Loot to come", " "*14))]
    assert not any(twice.search(line) for line in table), "loot is grouped"


# ---------------------------------------------------------------- the prompt
def test_show_prints_a_cards_text_in_any_case_and_suggests_for_a_typo(tmp_path: Path) -> None:
    """'show NAME' and '? NAME' print a character's or loot kind's text in any case; a typo gets the closest name."""
    rules = lt.load_rules("galecrest")
    typed = "show necromancer\n? WIND NYMPH\n?map\nshow Necromancr\nshow\nquit\n"
    result = run("play", "--players", "3", "--seed", "2", "--record", str(tmp_path / "r.json"), stdin=typed)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Necromancer (rank 19)" in text and " ".join(rules.card("Necromancer").text.split()) in text
    assert "Wind Nymph (rank" in text and "map (loot," in text
    assert " ".join(rules.loot_spec("map").text.split()) in text
    assert "no character or loot kind called 'Necromancr'; did you mean Necromancer?" in text
    assert "show needs a card's name" in text and "is not an option" not in text


def test_log_prints_recent_events(tmp_path: Path) -> None:
    """'log N' prints the last N events again, 'log all' every one from the first."""
    record = tmp_path / "r.json"
    result = run("play", "--players", "3", "--seed", "2", "--record", str(record), stdin="1\nlog 2\nlog all\nquit\n")
    assert result.exit_code == 0, result.output
    events = [str(e) for e in GameRecord.load(record).replay().events]
    first, last = (" ".join(e.split()[:4]) for e in (events[0], events[-1]))
    assert result.output.count(first) == 2  # when it happened and in 'log all'; 'log 2' is only the last two
    assert result.output.count(last) >= 3  # when it happened, in 'log 2' and in 'log all'


def test_undo_goes_back_to_your_previous_decision_and_rewrites_the_record(tmp_path: Path) -> None:
    """'undo' returns to your last decision; the record is rewritten to that shorter game, also after --load."""
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert run("play", "--players", "3", "--seed", "2", "--record", str(one), stdin="1\nquit\n").exit_code == 0
    result = run("play", "--players", "3", "--seed", "2", "--record", str(two), stdin="1\n1\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Undone: back to your decision" in result.output
    assert answers_in(two) == answers_in(one)
    result = run("play", "--players", "3", "--seed", "2", "--record", str(tmp_path / "three.json"),
                 stdin="undo\nquit\n")
    assert "Nothing to undo" in result.output and "is not an option" not in result.output
    resumed = tmp_path / "resumed.json"
    assert run("play", "--players", "3", "--seed", "2", "--record", str(resumed), stdin="1\n1\nquit\n").exit_code == 0
    result = run("play", "--load", str(resumed), stdin="undo\nquit\n")
    assert result.exit_code == 0 and "Undone" in result.output, result.output
    assert answers_in(resumed) == answers_in(one)


def test_answers_and_commands_are_matched_in_any_case(tmp_path: Path) -> None:
    """'cook' answers Cook and 'QUIT' quits; a misspelt answer is asked again with the closest option."""
    keys = first_keys()
    record = tmp_path / "r.json"
    typed = f"{keys[2][:-1]}x\n{keys[2].upper()}\nQUIT\n"
    result = run("play", "--players", "4", "--seed", "5", "--record", str(record), stdin=typed)
    assert result.exit_code == 0, result.output
    assert f"Did you mean {keys[2]}?" in result.output
    assert answers_in(record)[0] == keys[2] and "Stopped: game saved" in result.output


def test_help_lists_every_command(tmp_path: Path) -> None:
    """'help' (and a lone '?') lists show, ?, log, undo, save and quit, and what the rank is."""
    result = run("play", "--players", "3", "--seed", "2", "--record", str(tmp_path / "r.json"), stdin="help\n?\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("At any prompt you may also type") == 2
    for command in ("show NAME", "? NAME", "log", "undo", "save FILE", "quit", "help", "rank"):
        assert command in result.output, command


def test_solo_play_gives_library_warnings_as_notes(tmp_path: Path) -> None:
    """A solo game's notice about constructed solo cards is one 'note:' line, not Python's warning format."""
    result = run("play", "--players", "1", "--seed", "3", "--record", str(tmp_path / "solo.json"), stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert "note: " in result.output and "Warning" not in result.output
    assert "Automa's open hand:" in result.output and "(solo deck: " in result.output
