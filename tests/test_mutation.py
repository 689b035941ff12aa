"""Mutation testing of cards (``cards mutate``): examples kill the slips they tell from the card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from libertalia.cli import main
from libertalia.testing.mutants import slips
from libertalia.testing.mutation import mutate, mutate_file

QUEEN = """\
name: Pirate Queen
rank: 41
text: |
  sun: gain 3 doubloons if you have 5 or more doubloons.
examples:
  - it: pays 3 to a player who has 5 doubloons
    setup:
      reputation: [0, 1, 2]
      loot: [[chest, amulet, relic]]
      players:
        - {hand: [Pirate Queen, Cook], doubloons: DOUBLOONS}
        - {hand: [Explorer, Cook, Collector]}
        - {hand: [Treasurer, Cook, Collector]}
    play: [Pirate Queen, Explorer, Treasurer]
    expect:
      - {doubloons: PAID}
    phase: dusk
"""


def _queen(folder: Path, *also: tuple[int, int]) -> Path:
    """The Pirate Queen with its example (5 doubloons, paid 3), and one more per (doubloons, after)."""
    first, _, rest = QUEEN.partition("  - it:")
    example = "  - it:" + rest
    text = first + example.replace("DOUBLOONS", "5").replace("PAID", "8")
    for start, after in also:
        text += example.replace("pays 3 to a player who has 5 doubloons", f"with {start} doubloons").replace(
            "DOUBLOONS", str(start)).replace("PAID", str(after))
    path = folder / "queen.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_survivors_are_the_slips_no_example_tells_from_the_card(tmp_path: Path) -> None:
    """With only the 5-doubloon example, "4 or more" and "5 or fewer" pay as the card does: they survive."""
    result = mutate_file(_queen(tmp_path))
    assert result.card == "Pirate Queen" and result.edition == "galecrest" and result.examples == 1
    assert sorted(m.text.strip() for m in result.survivors) == [
        "sun: gain 3 doubloons if you have 4 or more doubloons.",
        "sun: gain 3 doubloons if you have 5 or fewer doubloons."]
    assert result.killed == 6 and result.score == pytest.approx(6 / 8)
    text = "sun: gain 3 doubloons if you have 5 or more doubloons.\n"
    assert len(result.mutants) + result.refused + result.same == len(slips(text))
    assert {(m.line, m.column) for m in result.survivors} == {(4, 37), (4, 42)}  # the 5, and the "more"


def test_the_example_that_kills_the_survivors_raises_the_score_to_all(tmp_path: Path) -> None:
    """A player with 4 doubloons gets nothing: both survivors pay them, so both are killed."""
    result = mutate_file(_queen(tmp_path, (4, 4)))
    assert result.survivors == () and result.score == 1.0
    assert {m.killed_by for m in result.mutants} >= {"with 4 doubloons"}


def test_a_text_no_slip_changes_has_no_score(tmp_path: Path) -> None:
    """A card whose every slip is refused or means the same has no mutants, and no score."""
    path = tmp_path / "quiet.yaml"
    path.write_text("name: Quiet One\nrank: 41\ntext: 'dusk: take no loot.'\n", encoding="utf-8")
    result = mutate_file(path)
    assert result.mutants == () and result.score is None and result.examples == 0


def test_mutation_writes_nothing_to_the_users_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A thousand one-off mutants must not push the user's own entries out of the cache."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("LIBERTALIA_CACHE_DIR", str(cache))
    mutate([_queen(tmp_path)])
    entries = [p for p in cache.rglob("*") if p.is_file()] if cache.exists() else []
    assert entries == []


def test_the_command_prints_survivors_with_their_place_and_the_scores(tmp_path: Path) -> None:
    """``cards mutate`` names each survivor as FILE:LINE:COLUMN with its slip and text, then the score."""
    path = _queen(tmp_path)
    out = CliRunner().invoke(main, ["cards", "mutate", str(path)])
    assert out.exit_code == 0, out.output
    assert f"{path}:4:37: survived (number: '5' → '4'): sun: gain 3 doubloons if you have 4 or more" in out.output
    assert "galecrest: 6 of 8 mutants killed (75.0%)" in out.output


def test_the_command_fails_below_min_score_and_reports_json(tmp_path: Path) -> None:
    """--min-score turns a low score into exit status 1; --json holds the same numbers."""
    path = _queen(tmp_path)
    low = CliRunner().invoke(main, ["cards", "mutate", str(path), "--min-score", "90"])
    assert low.exit_code == 1 and "below 90%: galecrest" in low.output
    report = json.loads(CliRunner().invoke(main, ["cards", "mutate", str(path), "--json"]).output)
    assert report["total"] == {"killed": 6, "mutants": 8, "score": 0.75}
    assert report["editions"]["galecrest"]["mutants"] == 8
    assert [s["slip"] for s in report["cards"][0]["survivors"]] == ["'5' → '4'", "'more' → 'fewer'"]


def test_only_the_operators_asked_for_are_tried(tmp_path: Path) -> None:
    """--operator narrows the slips: numbers alone give the four one-off numbers."""
    report = json.loads(CliRunner().invoke(main, ["cards", "mutate", str(_queen(tmp_path)), "--operator", "number",
                                                  "--json"]).output)
    assert report["total"]["mutants"] == 4
    bad = CliRunner().invoke(main, ["cards", "mutate", str(_queen(tmp_path)), "--operator", "typo"])
    assert bad.exit_code == 2 and "expected one of number" in bad.output


def test_the_modding_guides_worked_example_prints_what_the_guide_shows(tmp_path: Path) -> None:
    """docs/modding.md's Pirate Queen and its survivors are what ``cards mutate`` gives today."""
    import re

    guide = (Path(__file__).resolve().parents[1] / "docs" / "modding.md").read_text(encoding="utf-8")
    section = guide[guide.index("### Do the examples catch mistakes?"):]
    card = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]
    card = re.sub(r"\A#\s*[\w./-]+\.ya?ml\s*\n", "", card)  # the block's first line names the file (test_docs_shell)
    shown = re.search(r"```text\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]
    folder = tmp_path / "my-cards"
    folder.mkdir()
    (folder / "queen.yaml").write_text(card, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        out = CliRunner().invoke(main, ["cards", "mutate", "my-cards/queen.yaml"], catch_exceptions=False)
    assert out.output == shown


def test_worker_processes_give_the_same_report(tmp_path: Path) -> None:
    """--jobs only spreads the files over processes: the report is the one a single process makes."""
    _queen(tmp_path)
    two = (tmp_path / "queen.yaml").read_text(encoding="utf-8").replace("Pirate Queen", "Sea Queen")
    # the files given load together (issue 34), so the second card has a rank of its own too
    (tmp_path / "queen-two.yaml").write_text(two.replace("rank: 41", "rank: 43"), encoding="utf-8")
    one = CliRunner().invoke(main, ["cards", "mutate", str(tmp_path), "--json"])
    two = CliRunner().invoke(main, ["cards", "mutate", str(tmp_path), "--json", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.output) == json.loads(two.output)
    assert json.loads(one.output)["total"]["mutants"] == 16
