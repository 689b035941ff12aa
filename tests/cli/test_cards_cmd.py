"""``libertalia cards check``: notes on cards not in canonical wording, ``--fix`` and ``--diff``.

The grammar's variant wordings are not written yet, so the cards here use wordings that
already read as the tree of another one (extra spaces, ``1 doubloons``, ``3 doubloon``).
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

import libertalia as lt
from libertalia.cli import main
from libertalia.syntax.ast import Ability

QUEEN = """\
# A mod card: the comments, the key order and the examples must survive --fix.
name: Pirate Queen   # after the Pirate
rank: 41
text: |
  # the queen's pay
  sun:  gain 2 doubloons for each character in your ship ranked above 30.
  anchor: lose 4 doubloons if there is a Pirate Queen in another player's ship.

# examples below
examples:
  - it: pays 2 for each character ranked above 30 in the ship   # the Captain and Governor
    setup:
      reputation: [0, 1, 2]
      loot: [[chest, amulet, relic]]
      players:
        - {hand: [Pirate Queen, Cook], ship: [Captain, Governor, Bosun]}
        - {hand: [Explorer, Cook, Collector]}
        - {hand: [Treasurer, Cook, Collector]}
    play: [Pirate Queen, Explorer, Treasurer]
    expect:
      - {doubloons: 4}
"""
QUEEN_FIXED_LINE = "  sun: gain 2 doubloons for each character in your ship ranked above 30."

CORSAIR = "name: Corsair\nrank: 42\ntext: 'moon: gain 3 doubloon.'  # one line\nnote: \"quoted\"\n"
CORSAIR_FIXED = "name: Corsair\nrank: 42\ntext: 'moon: gain 3 doubloons.'  # one line\nnote: \"quoted\"\n"

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "modding.md"

PLAIN = "name: Plain Sailor\nrank: 43\ntext: |\n  sun: gain 1 doubloon.\n"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def mod(folder: Path, **files: str) -> Path:
    """A mod folder holding ``files`` (file stem: text)."""
    folder.mkdir(parents=True, exist_ok=True)
    for stem, text in files.items():
        (folder / f"{stem}.yaml").write_bytes(text.encode("utf-8"))
    return folder


def contents(folder: Path) -> dict[str, bytes]:
    """Every file of a folder, by name, as bytes."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def abilities(folder: Path) -> dict[str, tuple[Ability, ...]]:
    """Each mod character's abilities, as ``load_rules`` reads the folder."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", lt.UnverifiedLootWarning)
        rules = lt.load_rules("galecrest", extra_cards=[folder])
    return {c.name: c.abilities for c in rules.characters if c.path.startswith(str(folder))}


def test_check_notes_each_line_not_in_canonical_wording_at_its_line_and_column(tmp_path: Path) -> None:
    """Without --fix: a note per changed ability line at file:line:col, a count and a hint; exit 0, nothing written."""
    folder = mod(tmp_path / "my-cards", queen=QUEEN, corsair=CORSAIR, plain=PLAIN)
    before = contents(folder)
    code, out = run("cards", "check", str(folder))
    assert code == 0, out
    queen, corsair = folder / "queen.yaml", folder / "corsair.yaml"
    notes = [line for line in out.splitlines() if ": note: " in line]
    assert notes == [
        f'{corsair}:3:8: note: canonical wording: "moon: gain 3 doubloons."',
        f'{queen}:6:3: note: canonical wording: "{QUEEN_FIXED_LINE.strip()}"',
    ]
    assert "2 cards not in canonical wording: run with --fix to rewrite them" in out
    assert "all cards are valid (3 files: galecrest)" in out
    assert contents(folder) == before


def test_check_of_canonical_cards_notes_nothing(tmp_path: Path) -> None:
    """A folder whose cards are all canonical gets no note and no hint."""
    code, out = run("cards", "check", str(mod(tmp_path, plain=PLAIN)))
    assert code == 0 and "note" not in out and "--fix" not in out


def test_fix_rewrites_only_the_text_block_and_the_cards_load_the_same(tmp_path: Path) -> None:
    """--fix rewrites each changed line, leaves every other line as it was, and the folder loads to the same trees."""
    folder = mod(tmp_path, queen=QUEEN, corsair=CORSAIR, plain=PLAIN)
    trees = abilities(folder)
    code, out = run("cards", "check", "--fix", str(folder))
    assert code == 0, out
    assert f"rewrote {folder / 'corsair.yaml'}: 1 line in canonical wording" in out
    assert f"rewrote {folder / 'queen.yaml'}: 1 line in canonical wording" in out
    assert "plain.yaml" not in out
    assert abilities(folder) == trees
    rules = lt.load_rules("galecrest", extra_cards=[folder])
    for name in ("Pirate Queen", "Corsair"):
        card = rules.card(name)
        assert lt.render(card.abilities) in (card.text, card.text.partition("\n")[2])  # after its comment line
    assert (folder / "corsair.yaml").read_text(encoding="utf-8") == CORSAIR_FIXED
    assert (folder / "plain.yaml").read_text(encoding="utf-8") == PLAIN


def test_fix_keeps_comments_and_examples_byte_for_byte(tmp_path: Path) -> None:
    """Only the variant line of a card with comments and examples changes; its examples still pass."""
    folder = mod(tmp_path, queen=QUEEN)
    assert run("cards", "check", "--fix", str(folder))[0] == 0
    old, new = QUEEN.split("\n"), (folder / "queen.yaml").read_text(encoding="utf-8").split("\n")
    assert len(old) == len(new)
    assert [(i, b) for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b] == [(5, QUEEN_FIXED_LINE)]
    code, out = run("cards", "test", str(folder))
    assert code == 0 and "1 example passed, 0 failed" in out, out


def test_fix_of_a_one_line_text_that_gets_several_lines_makes_a_block(tmp_path: Path) -> None:
    """A one-line quoted text of two abilities becomes a | block, its comment on the | line."""
    folder = mod(tmp_path, two='name: Two\nrank: 42\ntext: "sun:  gain 1 doubloons.\\nmoon: gain 3 doubloon."  # c\n')
    assert run("cards", "check", "--fix", str(folder))[0] == 0
    assert (folder / "two.yaml").read_text(encoding="utf-8") == \
        "name: Two\nrank: 42\ntext: |  # c\n  sun: gain 1 doubloon.\n  moon: gain 3 doubloons.\n"


def test_fix_leaves_a_file_with_an_error_untouched_and_fails(tmp_path: Path) -> None:
    """A file with any error is never rewritten and the command exits 1; the valid files are still fixed."""
    broken = "name: Broken\nrank: 44\ntext: |\n  sun:  gain 1 doubloons.\nexamples:\n  - it: has no setup\n"
    folder = mod(tmp_path, broken=broken, corsair=CORSAIR)
    code, out = run("cards", "check", "--fix", str(folder))
    assert code == 1
    assert f"{folder / 'broken.yaml'}:6:" in out and "1 error" in out
    assert (folder / "broken.yaml").read_text(encoding="utf-8") == broken
    assert (folder / "corsair.yaml").read_text(encoding="utf-8") == CORSAIR_FIXED
    code, out = run("cards", "check", str(folder))
    assert code == 1 and "broken.yaml:4" not in out  # no note for a file with errors: mend them first


def test_fix_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    """A second --fix finds every card canonical: it writes nothing and says nothing was rewritten."""
    folder = mod(tmp_path, queen=QUEEN, corsair=CORSAIR)
    assert run("cards", "check", "--fix", str(folder))[0] == 0
    fixed = contents(folder)
    code, out = run("cards", "check", "--fix", str(folder))
    assert code == 0 and "rewrote" not in out, out
    assert contents(folder) == fixed
    assert "note" not in run("cards", "check", str(folder))[1]


def test_diff_prints_what_fix_would_write_and_writes_nothing(tmp_path: Path) -> None:
    """--diff prints a unified diff of the rewrite, a count and the hint, and leaves every file as it was."""
    folder = mod(tmp_path, corsair=CORSAIR)
    before = contents(folder)
    code, out = run("cards", "check", "--diff", str(folder))
    assert code == 0, out
    path = folder / "corsair.yaml"
    assert f"--- {path}\n+++ {path}\n@@ -1,4 +1,4 @@\n" in out
    assert "-text: 'moon: gain 3 doubloon.'  # one line\n+text: 'moon: gain 3 doubloons.'  # one line\n" in out
    assert "1 card would be rewritten: run with --fix to rewrite it" in out
    assert contents(folder) == before


def test_fix_and_diff_together_are_a_usage_error(tmp_path: Path) -> None:
    """--fix with --diff is refused before anything is checked or written."""
    folder = mod(tmp_path, corsair=CORSAIR)
    code, out = run("cards", "check", "--fix", "--diff", str(folder))
    assert code == 2 and "--fix and --diff do not go together" in out
    assert (folder / "corsair.yaml").read_text(encoding="utf-8") == CORSAIR


def test_fix_keeps_permissions_line_breaks_and_byte_order_mark(tmp_path: Path) -> None:
    """The rewritten file keeps its mode, its CRLF line breaks and its UTF-8 byte-order mark; no temporary is left."""
    path = tmp_path / "crlf.yaml"
    path.write_bytes(b"\xef\xbb\xbfname: Crlf\r\nrank: 45\r\ntext: |\r\n  sun:  gain 1 doubloons.\r\n")
    path.chmod(0o640)
    assert run("cards", "check", "--fix", str(tmp_path))[0] == 0
    assert path.read_bytes() == b"\xef\xbb\xbfname: Crlf\r\nrank: 45\r\ntext: |\r\n  sun: gain 1 doubloon.\r\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["crlf.yaml"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_fix_never_writes_through_a_link_to_outside_the_paths(tmp_path: Path) -> None:
    """A card file linking outside the checked folder is not rewritten: an error names it, its target is unchanged."""
    outside = mod(tmp_path / "elsewhere", corsair=CORSAIR) / "corsair.yaml"
    folder = tmp_path / "my-cards"
    folder.mkdir()
    (folder / "corsair.yaml").symlink_to(outside)
    code, out = run("cards", "check", "--fix", str(folder))
    assert code == 1 and "not rewritten: the file is a link to outside the paths given" in out
    assert outside.read_text(encoding="utf-8") == CORSAIR


def test_the_modding_guide_shows_the_loop_as_it_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/modding.md's "Normalising a mod folder": its card gets the notes shown, and --fix leaves none."""
    section = GUIDE.read_text(encoding="utf-8").partition("### Normalising a mod folder")[2].partition("\n### ")[0]
    card = re.search(r"```yaml\n(.*?)```", section, re.S)
    shown = re.search(r"```text\n(.*?)```", section, re.S)
    assert card is not None and shown is not None
    monkeypatch.chdir(tmp_path)
    mod(Path("my-cards"), pirate=card.group(1))
    code, out = run("cards", "check", "my-cards/")
    assert code == 0 and out == shown.group(1)
    assert run("cards", "check", "--fix", "my-cards/")[0] == 0
    assert run("cards", "check", "my-cards/") == (0, "all cards are valid (1 file: galecrest)\n")
