"""``cards test DIR`` loads a mod folder together (issue 34), as ``cards check DIR`` checks it.

Rules pinned here (docs/modding.md, "Which rules an example runs under"):
- the files given load together: a card's text and its examples' setup may name a card of the folder;
- a file whose card does not load is reported alone, and the folder's other files still run;
- a bundled card that a mod's loot tile leaves inert is a warning naming both, not a failure;
  the modder's own inert cards still fail.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

import libertalia as lt
from libertalia import _paths
from libertalia.cli import main
from libertalia.errors import InertCardWarning
from libertalia.loading.examples import run_together

LANTERN = """\
name: Lantern Keeper
rank: 41.5
text: |
  sun: gain 3 doubloons if there is a Harbour Pilot in your ship.
examples:
  - it: pays 3 with the folder's own pilot aboard
    setup:
      reputation: [0, 1, 2]
      loot: [[chest, amulet, relic]]
      players:
        - {hand: [Lantern Keeper, Cook], ship: [Harbour Pilot]}
        - {hand: [Explorer, Cook, Collector]}
        - {hand: [Treasurer, Cook, Collector]}
    play: [Lantern Keeper, Explorer, Treasurer]
    expect:
      - {doubloons: 3, hand: [Cook], ship: [Harbour Pilot]}
    phase: dusk
"""

PILOT = """\
name: Harbour Pilot
rank: 42.5
text: |
  dusk: gain 1 doubloon.
"""

FLAT_MAP = """\
kind: map
side: calm
count: 10
text: |
  anchor, once: gain 1 doubloon for each map you hold.
examples:
  - it: pays 1 for each map held at the anchor, in no sets
    setup:
      voyage: 1
      day: 4
      reputation: [0, 2, 4]
      loot: [[relic, relic, relic]]
      players:
        - {ship: [Bosun], loot: [map, map, map]}
        - {hand: [Necromancer]}
        - {hand: [Bosun]}
    expect:
      - {score: 3, loot: []}
    voyage: 2
    day: 1
"""


def write(folder: Path, files: dict[str, str]) -> Path:
    """A mod folder holding the given files."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in files.items():
        (folder / name).write_text(body, encoding="utf-8")
    return folder


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_an_example_may_seat_and_a_text_may_name_a_card_of_the_same_folder(tmp_path: Path) -> None:
    """Issue 34: `cards test DIR` loads the folder together, so a sibling card is known to texts and setups."""
    folder = write(tmp_path / "mod", {"lantern.yaml": LANTERN, "pilot.yaml": PILOT})
    code, out = run("cards", "check", str(folder))
    assert code == 0, out
    code, out = run("cards", "test", str(folder))
    assert code == 0, out
    assert "1 example passed, 0 failed (1 file without examples)" in out


def test_the_files_given_load_together_not_only_one_folder(tmp_path: Path) -> None:
    """Issue 34: every path given to `cards test` loads together, as `cards check` checks every path given."""
    lantern = write(tmp_path / "a", {"lantern.yaml": LANTERN}) / "lantern.yaml"
    pilot = write(tmp_path / "b", {"pilot.yaml": PILOT}) / "pilot.yaml"
    code, out = run("cards", "test", str(lantern), str(pilot))
    assert code == 0, out
    code, out = run("cards", "test", str(lantern))  # alone, its text names a card nobody loaded
    assert code == 1
    assert f"{lantern}:4:" in out and "unknown card name 'Harbour Pilot'" in out


def test_a_card_that_does_not_load_fails_alone_and_its_siblings_still_run(tmp_path: Path) -> None:
    """Issue 34: a folder's broken file is reported at its own line; the other files' examples still run."""
    broken = "name: Bilge Rat\nrank: 43.5\ntext: |\n  sun: gain 1 dublon.\n"
    folder = write(tmp_path / "mod", {"lantern.yaml": LANTERN, "pilot.yaml": PILOT, "rat.yaml": broken})
    code, out = run("cards", "test", str(folder))
    assert code == 1
    assert f"{folder / 'rat.yaml'}:4:" in out
    assert "1 example passed, 1 failed (1 file without examples)" in out  # the rat fails; the pilot has none
    assert "Traceback" not in out


def test_a_file_needing_a_broken_sibling_is_reported_too(tmp_path: Path) -> None:
    """Issue 34: a card naming a sibling that does not load fails with its own error, not a traceback."""
    pilot = PILOT.replace("gain 1 doubloon.", "gain 1 dublon.")
    folder = write(tmp_path / "mod", {"lantern.yaml": LANTERN, "pilot.yaml": pilot})
    results = {r.path.name: r for r in run_together([folder])}
    assert results["pilot.yaml"].error is not None and results["pilot.yaml"].error.path == str(folder / "pilot.yaml")
    lantern = results["lantern.yaml"].error
    assert lantern is not None and lantern.path == str(folder / "lantern.yaml")
    assert "Harbour Pilot" in lantern.message


def test_a_bundled_card_left_inert_by_a_mod_tile_is_a_warning_naming_both(tmp_path: Path) -> None:
    """Issue 34: the bundled Explorer's extra map, with a mod's map tile that scores no sets, warns and loads."""
    folder = write(tmp_path / "mod", {"map.yaml": FLAT_MAP})
    with pytest.warns(InertCardWarning) as caught:
        rules = lt.load_rules("galecrest", extra_cards=[folder])
    assert rules.loot_spec("map").path == str(folder / "map.yaml")
    (warning,) = [w for w in caught if isinstance(w.message, InertCardWarning)]
    message = str(warning.message)
    explorer = _paths.cards_dir() / "galecrest" / "characters" / "10-explorer.yaml"
    assert message.startswith(f"{explorer}:5:11: warning:")
    assert "Explorer" in message and str(folder / "map.yaml") in message
    assert "anchor: count 1 extra map if you hold a map." in message  # the line, with a caret under it

    code, out = run("cards", "test", str(folder))
    assert code == 0, out
    assert f"{explorer}:5:11: warning:" in out and str(folder / "map.yaml") in out
    assert out.count("warning:") == 1
    assert "1 example passed, 0 failed" in out


def test_a_modders_own_card_left_inert_by_their_own_tile_still_fails(tmp_path: Path) -> None:
    """Issue 34: the strict rule stays for the modder's texts: their own extra count of an unscored kind is an error."""
    counter = ("name: Map Hoarder\nrank: 41.5\ntext: |\n"
               "  anchor: count 2 extra map if you hold a map.\n")
    folder = write(tmp_path / "mod", {"map.yaml": FLAT_MAP, "hoarder.yaml": counter})
    with warnings.catch_warnings(), pytest.raises(lt.CardError) as info:
        warnings.simplefilter("ignore", InertCardWarning)
        lt.load_rules("galecrest", extra_cards=[folder])
    assert (info.value.path, info.value.line) == (str(folder / "hoarder.yaml"), 4)
    assert "would do nothing" in info.value.message
    code, out = run("cards", "test", str(folder))
    assert code == 1
    assert f"{folder / 'hoarder.yaml'}:4:" in out and "would do nothing" in out
    assert "1 example passed, 1 failed\n" in out  # a file that does not load fails, examples or not


def test_a_loot_file_runs_with_its_side_and_the_folders_characters(tmp_path: Path) -> None:
    """Issue 34: a loot file's examples run with its own side active and the folder's characters loaded."""
    tile = FLAT_MAP.replace("side: calm", "side: quiet").replace(
        "        - {hand: [Necromancer]}", "        - {hand: [Harbour Pilot]}")
    folder = write(tmp_path / "mod", {"map.yaml": tile, "pilot.yaml": PILOT})
    (done, _) = sorted(run_together([folder]), key=lambda r: r.path.name)
    assert done.error is None and [r.passed for r in done.results] == [True], done


def test_cards_check_refuses_what_the_folder_cannot_load_and_warns_as_cards_test_does(tmp_path: Path) -> None:
    """`cards check` loads the checked files together after its own checks, so it never accepts a folder that
    `cards test` and `simulate --cards` refuse; a bundled card left inert by the mod's tile is the same warning."""
    counter = "name: Hook Hoarder\nrank: 41.5\ntext: |\n  anchor: count 2 extra hook if you hold a map.\n"
    folder = write(tmp_path / "own", {"hoarder.yaml": counter})
    code, out = run("cards", "check", str(folder))
    assert code == 1
    assert f"{folder / 'hoarder.yaml'}:4:11:" in out and "would do nothing" in out
    folder = write(tmp_path / "tile", {"map.yaml": FLAT_MAP})
    code, out = run("cards", "check", str(folder))
    assert code == 0, out
    assert out.count("warning:") == 1 and "10-explorer.yaml:5:11: warning:" in out


def test_cards_mutate_loads_the_folder_together_too(tmp_path: Path) -> None:
    """Issue 34's rule for `cards mutate`: a card naming a sibling is mutated with the sibling loaded beside it."""
    from libertalia.testing.mutation import mutate

    folder = write(tmp_path / "mod", {"lantern.yaml": LANTERN, "pilot.yaml": PILOT})
    report = mutate([folder], operators=("number",))
    lantern = next(c for c in report.cards if c.path.endswith("lantern.yaml"))
    assert lantern.examples == 1 and lantern.mutants and all(m.killed_by for m in lantern.mutants)


def test_the_inert_card_warning_spells_out_what_a_terminal_would_act_on(tmp_path: Path) -> None:
    """The warning quotes the mod's path, which may hold an ESC: it is shown spelt out (\\x1b), never raw."""
    folder = write(tmp_path / "mod\x1b[2J", {"map.yaml": FLAT_MAP})
    code, out = run("cards", "test", str(folder))
    assert code == 0, out
    assert "warning:" in out and "\x1b" not in out and "mod\\x1b[2J" in out
