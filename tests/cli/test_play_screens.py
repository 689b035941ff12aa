"""What ``libertalia play`` and ``simulate`` show a person (issue 37, item 5).

- Option lists carry a card's whole text, one ability a line, wrapped to the terminal's width: never cut.
- Each voyage ends with each seat's banked doubloons by source; the final scores say the same for the game.
- A line names the bot thinking, in a terminal; a pipe gets none.
- ``simulate`` says what it plays before its progress bar.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

import libertalia as lt
from libertalia import stats
from libertalia.cli import main
from libertalia.cli.display import NBSP, decision_lines, decision_view, option_texts
from libertalia.cli.play_cmd import _Session
from libertalia.cli.summaries import final_summary, sources_text, voyage_summary
from libertalia.cli.terminal import visible_console
from libertalia.earnings import FLOOR, OTHER, Earnings, game_earnings, loot_last, voyage_earnings
from libertalia.events import (
    Banked,
    DoubloonsChanged,
    IncomeCollected,
    Paid,
    ReputationOverflowed,
    StartingDoubloons,
)
from libertalia.state import Decision, Option

SQUALL = """\
name: Squall Caller
rank: 44
text: |
  sun: gain 1 doubloon for each character in your ship ranked above 20, then lose 1 reputation for each relic you hold.
  anchor: gain 2 doubloons for each map you hold if there is no other character with a moon ability in your ship.
"""


def run(*args: str, stdin: str | None = None, columns: int = 80) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, env={"COLUMNS": str(columns)})


def plain(lines: list[Any]) -> list[str]:
    return [line.plain for line in lines]


# ---------------------------------------------------------------- option lists
@pytest.fixture(scope="module")
def squall_rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    folder = tmp_path_factory.mktemp("mod")
    (folder / "squall.yaml").write_text(SQUALL, encoding="utf-8")
    return lt.load_rules("galecrest", extra_cards=[folder])


@pytest.mark.parametrize("width", [40, 80, 120])
def test_an_option_shows_its_cards_whole_text_wrapped_to_the_width(squall_rules: lt.Rules, width: int) -> None:
    """An option's card text is whole at every width: no line past the width, no "…", each ability starting a line."""
    card = squall_rules.card("Squall Caller")
    decision = Decision(0, "play_character", (Option("Squall Caller", "Squall Caller (44)"),), "choose a character")
    texts = option_texts(decision, squall_rules)
    lines = plain(decision_lines(decision, width, texts=texts))
    assert all(len(line) <= width for line in lines) and not any("…" in line for line in lines)
    assert " ".join(" ".join(lines[1:]).split()) == "1. Squall Caller (44) " + " ".join(card.text.split())
    starts = [line.strip() for line in lines[2:] if line.startswith(" " * 8) and not line.startswith(" " * 9)]
    assert [s.split(":")[0] for s in starts] == ["sun", "anchor"]


def test_an_abilitys_later_lines_hang_under_its_trigger(squall_rules: lt.Rules) -> None:
    """A wrapped ability's later lines are indented two more than its first, so abilities stand apart."""
    decision = Decision(0, "play_character", (Option("Squall Caller", "Squall Caller (44)"),), "choose a character")
    lines = plain(decision_lines(decision, 60, texts=option_texts(decision, squall_rules)))
    body = lines[2:]
    assert body[0].startswith(" " * 8 + "sun:") and body[1].startswith(" " * 10) and body[1][10] != " "


def test_option_texts_stay_escaped() -> None:
    """A card text from a mod that holds terminal controls or markup prints them spelt out, never acting."""
    decision = Decision(0, "play_character", (Option("Gull", "Gull (3)"),), "choose")
    out = io.StringIO()
    console = visible_console()
    console.file = out
    console.print(decision_view(decision, texts={"Gull": "sun: [red]gain\x1b[2J 1 doubloon.\x07"}))
    shown = out.getvalue()
    assert "\x1b[2J" not in shown and "\\x1b" in shown and "[red]gain" in shown and "\x07" not in shown


# ---------------------------------------------------------------- where the doubloons came from
def test_earnings_add_each_source_and_a_loss_counts_what_was_left() -> None:
    """A voyage's doubloons by source: income, abilities, payments both ways, reputation past the track; a loss
    larger than the purse counts only what the seat had."""
    events = [
        IncomeCollected(0, 4, voyage=1), StartingDoubloons(1, 2, voyage=1),
        DoubloonsChanged(0, 3, "Gull", voyage=1), Paid(1, 0, 2, "Tern", voyage=1),
        DoubloonsChanged(1, -9, "anvil", voyage=1),  # seat 1 had 0 left: loses nothing
        ReputationOverflowed(0, 1, "kelp", voyage=1), ReputationOverflowed(1, 2, None, voyage=1),
        Banked(0, 10, 10, voyage=1), Banked(1, 2, 2, voyage=1),
        DoubloonsChanged(0, 50, "Gull", voyage=2),  # another voyage: not counted in the first
    ]
    first = voyage_earnings(events, 1, 2)
    assert first == (Earnings(0, 10, (("income", 4), ("Gull", 3), ("Tern", 2), ("kelp", 1))),
                     Earnings(1, 2, (("start", 2), ("reputation track", 2), ("seat 0's Tern", -2))))


def test_the_anchors_payouts_add_up_before_the_floor_at_0() -> None:
    """At the anchor the payouts add up first (a gain after a loss still counts whole); a total below 0 banks 0,
    the difference shown as FLOOR."""
    events = [
        IncomeCollected(0, 2, voyage=1), IncomeCollected(1, 2, voyage=1),
        DoubloonsChanged(0, -5, "anvil", voyage=1, phase="anchor"),
        DoubloonsChanged(0, 4, "kelp", voyage=1, phase="anchor"),
        DoubloonsChanged(1, -7, "anvil", voyage=1, phase="anchor"),
        DoubloonsChanged(1, 1, "kelp", voyage=1, phase="anchor"),
        Banked(0, 1, 1, voyage=1), Banked(1, 0, 0, voyage=1),
    ]
    assert voyage_earnings(events, 1, 2) == (
        Earnings(0, 1, (("income", 2), ("kelp", 4), ("anvil", -5))),
        Earnings(1, 0, (("income", 2), (FLOOR, 4), ("kelp", 1), ("anvil", -7))))


def test_a_board_that_pays_characters_first_floors_them_before_the_loot() -> None:
    """E13 (characters_then_loot): the characters' anchor changes are netted and floored first, then the loot's,
    so a loss cannot eat into the booty."""
    events = [
        IncomeCollected(0, 2, voyage=1),
        DoubloonsChanged(0, -7, "Anvil Smith", voyage=1, phase="anchor"),
        DoubloonsChanged(0, 3, "kelp", voyage=1, phase="anchor"),
        Banked(0, 3, 3, voyage=1),
    ]
    assert voyage_earnings(events, 1, 1, loot_last={"kelp"}) == (
        Earnings(0, 3, (("income", 2), (FLOOR, 5), ("kelp", 3), ("Anvil Smith", -7))),)
    assert voyage_earnings(events[:3] + [Banked(0, 0, 0, voyage=1)], 1, 1) == (  # netted all together (R3)
        Earnings(0, 0, (("income", 2), ("kelp", 3), (FLOOR, 2), ("Anvil Smith", -7))),)


def test_doubloons_the_events_do_not_explain_show_as_other() -> None:
    """Should a bank differ from the events' sum, the difference is 'other': a summary never claims more."""
    events = [IncomeCollected(0, 4, voyage=1), Banked(0, 7, 7, voyage=1)]
    assert voyage_earnings(events, 1, 1) == (Earnings(0, 7, (("income", 4), (OTHER, 3))),)


@pytest.mark.parametrize(("edition", "loot", "players", "handicap"), [
    ("galecrest", None, 3, {0: 5}), ("galecrest", None, 1, None), ("classic", None, 4, None),
    ("galecrest", None, 2, None), ("galecrest", "stormy", 6, None), ("classic", None, 6, None),
    ("classic", None, 3, {0: 5})])
def test_a_games_earnings_add_up_to_its_scores(edition: str, loot: str | None, players: int,
                                               handicap: dict[int, int] | None) -> None:
    """Over a whole game each seat's sources add up to its final score, with nothing left to 'other'."""
    rules = lt.load_rules(edition, loot=loot)
    g = lt.new_game(rules, players, seed=3, handicap=handicap)
    while g.decision is not None:
        g = g.choose(g.decision.keys()[len(g.history) % len(g.decision.options)])
    earnings = game_earnings(g.events, len(g.players), loot_last(rules))
    assert tuple(e.total for e in earnings) == g.final_scores()
    for e in earnings:
        assert sum(n for _, n in e.sources) == e.total and OTHER not in dict(e.sources)
    if handicap:
        assert dict(earnings[0].sources)["handicap"] == 5


def test_summaries_wrap_and_escape_names_from_the_data() -> None:
    """A voyage's summary: a seat a line, wrapped whole-word at the width; a source's name is printed spelt out."""
    earnings = (Earnings(0, 30, (("income", 9), ("[b]Gull\x1b", 12), ("Sea Witch", 9))), Earnings(1, 0, ()))
    out = io.StringIO()
    console = visible_console()
    console.file = out
    console.width = 30
    console.print(voyage_summary(earnings, 2, ("human", "greedy"), 0))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Voyage 2 ends") and all(len(line) <= 30 for line in lines[1:])
    assert "\x1b" not in out.getvalue() and "[b]Gull\\x1b +12" in out.getvalue()
    assert "seat 0 (you): 30 = income 9," in lines[1] and lines[-1] == "  seat 1 (greedy): 0"
    assert not any(line.rstrip().endswith("Sea") for line in lines), "a name is never split"
    assert sources_text(earnings[0]).replace(NBSP, " ") == "income 9, [b]Gull\x1b +12, Sea Witch +9"


def _summary_blocks(output: str) -> list[tuple[int, list[str]]]:
    """Each voyage summary in a transcript: its voyage and its seat lines (wrapped lines joined)."""
    blocks, lines = [], output.splitlines()
    for i, line in enumerate(lines):
        found = re.match(r"Voyage (\d+) ends", line)
        if found:
            seats: list[str] = []
            for below in lines[i + 1:]:
                if below.startswith("  seat "):
                    seats.append(below.strip())
                elif below.startswith("      ") and seats:
                    seats[-1] += " " + below.strip()
                else:
                    break
            blocks.append((int(found.group(1)), seats))
    return blocks


def test_each_voyage_ends_with_each_seats_banked_doubloons_by_source(tmp_path: Path) -> None:
    """After a voyage's banking lines and before the next voyage, one line a seat: banked = its sources."""
    result = run("play", "--players", "4", "--seed", "8", "--bots", "first", "--record", str(tmp_path / "r.json"),
                 stdin="1\n" * 400)
    assert result.exit_code == 0, result.output
    blocks = _summary_blocks(result.output)
    assert [v for v, _ in blocks] == [1, 2, 3]
    record = lt.GameRecord.load(tmp_path / "r.json")
    game = record.replay()
    for voyage, seats in blocks:
        banked = {e.seat: e.doubloons for e in game.events if isinstance(e, Banked) and e.voyage == voyage}
        assert len(seats) == 4 and seats[0].startswith("seat 0 (you): ") and seats[1].startswith("seat 1 (first): ")
        for seat, line in enumerate(seats):
            total, _, parts = line.partition(": ")[2].partition(" = ")
            assert int(total) == banked[seat]
            assert sum(int(p.rsplit(" ", 1)[1]) for p in parts.split(", ")) == banked[seat], line
    text = result.output
    assert text.index("seat 3 banks") < text.index("Voyage 1 ends") < text.index("voyage 2 begins")


def test_the_final_screen_says_where_each_seats_doubloons_came_from(tmp_path: Path) -> None:
    """The final scores: each seat's score, who won, and its doubloons by source adding up to the score."""
    result = run("play", "--players", "3", "--seed", "5", "--record", str(tmp_path / "r.json"), stdin="1\n" * 300)
    assert result.exit_code == 0, result.output
    final = result.output[result.output.index("Final scores:"):]
    game = lt.GameRecord.load(tmp_path / "r.json").replay()
    for p in game.players:
        head = re.search(rf"seat {p.seat}: {p.score}( \((you|random)\))?(  <- winner)?\n((?:    .*\n)+)", final)
        assert head is not None, final
        assert (head.group(3) is not None) == (p.seat in game.winners())
        parts = " ".join(head.group(4).split()).removeprefix("doubloons from ")
        assert sum(int(part.rsplit(" ", 1)[1]) for part in parts.split(", ")) == p.score


def test_a_loaded_finished_game_names_its_seats_from_the_record(tmp_path: Path) -> None:
    """A finished record shown again names its seats' players in the final scores, as when it was played."""
    path = tmp_path / "r.json"
    run("play", "--players", "3", "--seed", "5", "--bots", "first", "--record", str(path), stdin="1\n" * 300)
    result = run("play", "--load", str(path))
    assert result.exit_code == 0, result.output
    assert re.search(r"seat 0: \d+ \(you\)", result.output) and re.search(r"seat 2: \d+ \(first\)", result.output)


def test_final_summary_lines_fit_the_width() -> None:
    """The final screen wraps each seat's sources under it at the console's width."""
    g = lt.new_game(lt.load_rules("galecrest"), 6, seed=3)
    while g.decision is not None:
        g = g.choose(g.decision.keys()[0])
    for width in (50, 80, 120):
        out = io.StringIO()
        Console(file=out, width=width, color_system=None).print(final_summary(g, ("human",) + ("greedy",) * 5, 0))
        assert all(len(line) <= width for line in out.getvalue().splitlines())


# ---------------------------------------------------------------- bots thinking
class Recorder:
    """A bot that notes what the screen held while it was asked, then answers with the first option."""

    def __init__(self, file: io.StringIO) -> None:
        self.file = file
        self.seen: list[str] = []

    def choose(self, observation: lt.Observation, decision: lt.Decision) -> str:
        self.seen.append(self.file.getvalue())
        return decision.options[0].key


def _session(console: Console, tmp_path: Path) -> tuple[_Session, Recorder]:
    start = lt.new_game(lt.load_rules("galecrest"), 3, seed=6)
    assert start.decision is not None
    game = start.choose(start.decision.keys()[0])
    session = _Session(console, game, 0, "greedy,random", 6, tmp_path / "r.json")
    assert console.file is not None
    bot = Recorder(console.file)  # type: ignore[arg-type]
    session.agents = {1: bot, 2: bot}
    return session, bot


def test_a_line_names_the_bot_thinking_in_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a bot is asked, a terminal shows which seat and bot is thinking; the line goes once the person is asked."""
    monkeypatch.setenv("TERM", "xterm-256color")  # rich draws no status on a terminal that calls itself dumb
    console = Console(file=io.StringIO(), force_terminal=True, width=80, color_system=None)
    session, bot = _session(console, tmp_path)
    session.bots_play()
    assert "seat 1 (greedy) is thinking…" in bot.seen[0]
    assert "seat 2 (random) is thinking…" in bot.seen[1]
    assert session.game.decision is not None and session.game.decision.player == 0


def test_a_pipe_gets_no_thinking_lines(tmp_path: Path) -> None:
    """Piped output (a transcript, a test) has no status lines: it holds what happened, not what was awaited."""
    file = io.StringIO()
    session, bot = _session(Console(file=file, width=80), tmp_path)
    session.bots_play()
    assert len(bot.seen) == 2 and file.getvalue() == ""


# ---------------------------------------------------------------- simulate
def test_simulate_says_what_it_plays_before_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The run's header (edition, players, bots, loot, version) is printed before the games; the count after."""
    real = stats.simulate

    def marked(*args: Any, **kwargs: Any) -> Any:
        print("-- the games are played here --")
        yield from real(*args, **kwargs)

    monkeypatch.setattr(stats, "simulate", marked)
    result = CliRunner().invoke(main, ["simulate", "--games", "2", "--players", "3"])
    assert result.exit_code == 0, result.output
    text = result.output
    mark = text.index("-- the games are played here --")
    header = [text.index(line) for line in ("Libertalia: Winds of Galecrest", "  bots by seat:", "  version:")]
    assert header == sorted(header) and header[-1] < mark
    assert mark < text.index("2 games finished") < text.index("win rate")
