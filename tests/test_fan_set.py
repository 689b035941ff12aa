"""The blind fan set (tests/fan_set): its first-try sentences pass at least 90 % of the time, and every
file whose lines all pass pins them with examples that hold (issue 21)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from libertalia.loading.examples import run_examples
from tests.helpers import module_from_file

FAN = Path(__file__).parent / "fan_set"


@functools.cache
def _measure_module():  # type: ignore[no-untyped-def]
    return module_from_file("fan_measure", FAN / "measure.py")


@functools.cache
def _outcomes(folder: Path = FAN) -> list:  # type: ignore[type-arg]
    """The measure of the set in ``folder`` (the first fan set, or ``PRINTED``), once per run."""
    outcomes, _counts = _measure_module().measure(folder)
    return list(outcomes)


def test_nine_in_ten_first_try_sentences_pass() -> None:
    """At least 90 % of the fan set's ability lines, as first written, pass the checker (68 of 74 now)."""
    outcomes = _outcomes()
    totals = _measure_module().totals(outcomes)
    assert totals["sentences"] == 74
    assert totals["rate_percent"] >= 90.0, [o for o in outcomes if not o.accepted]


@pytest.mark.parametrize("path", sorted(FAN.glob("*/*.yaml")), ids=lambda p: p.stem)
def test_every_fan_file_with_examples_passes_them(path: Path) -> None:
    """Each fan file's examples hold; a file whose lines all pass the checker has examples."""
    results = run_examples(path)
    failed = [r for r in results if not r.passed]
    assert not failed, failed
    shown = f"tests/fan_set/{path.parent.name}/{path.name}"
    lines = [o for o in _outcomes() if o.file == shown]
    assert lines, shown
    if all(o.accepted for o in lines):
        assert results, f"{shown}: every line passes the checker, so its examples must pin them"


def test_lady_quills_accepted_line_does_what_it_says(tmp_path: Path) -> None:
    """E32: `22`'s file cannot load (its line 4 is refused, E31), so its accepted line 5 is pinned alone:
    "each player with 3 or more relics loses 1 reputation" hits the seats holding 3 relics, not the one holding 2."""
    import libertalia as lt
    from tests.helpers import at, mod_rules, reps, write_cards

    line = (FAN / "characters" / "22-lady-quill.yaml").read_text(encoding="utf-8").splitlines()[4].strip()
    assert line == "sun: each player with 3 or more relics loses 1 reputation."
    rules = mod_rules(write_cards(tmp_path, {"Lady Quill": (61, line)}))
    fillers = ["Quartermaster", "Governor"]
    g = lt.new_game(rules, 3, seed=0, setup={
        "reputation": [2, 0, 4], "loot": [["amulet", "barrel", "hook"]],
        "players": [{"hand": ["Lady Quill", *fillers], "loot": ["relic"] * 3},
                    {"hand": ["Explorer", *fillers], "loot": ["relic"] * 2},
                    {"hand": ["Treasurer", *fillers], "loot": ["relic"] * 3}]})
    g = g.choose("Lady Quill").choose("Explorer").choose("Treasurer")
    at(g, "choose_loot")  # the day's sun abilities are done
    assert reps(g) == [1, 0, 3]


PRINTED = FAN / "printed"
PRINTED2 = FAN / "printed2"
PRINTED3 = FAN / "printed3"
PRINTED_SETS = {PRINTED: 20, PRINTED2: 21, PRINTED3: 21}
"""Each set of 25 cards written as printed cards read, and how many of them read now: the first set read 6 at
the first try, the second (docs/card-language.md, "Printed wordings, second set") 13, the third ("Printed wordings,
third set") 11."""


@pytest.mark.parametrize("folder", sorted(PRINTED_SETS), ids=lambda p: p.name)
def test_a_printed_set_keeps_what_it_reads(folder: Path) -> None:
    """Issue 34: of each printed set's 25 cards, those read now stay read."""
    outcomes = _outcomes(folder)
    totals = _measure_module().totals(outcomes)
    assert totals["sentences"] == 25
    assert totals["accepted"] >= PRINTED_SETS[folder], [o for o in outcomes if not o.accepted]


@pytest.mark.parametrize("path", sorted(p for folder in PRINTED_SETS for p in folder.glob("*/*.yaml")),
                         ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_every_printed_file_read_by_the_checker_pins_its_line(path: Path) -> None:
    """Issue 34: each printed-set file whose line is accepted has examples, and they hold."""
    folder = path.parent.parent
    shown = f"tests/fan_set/{folder.name}/{path.parent.name}/{path.name}"
    lines = [o for o in _outcomes(folder) if o.file == shown]
    assert lines, shown
    if not all(o.accepted for o in lines):
        pytest.skip("a line is still refused: the file cannot load, so it cannot carry examples yet")
    results = run_examples(path)
    assert results, f"{shown}: its line is accepted, so its examples must pin it"
    failed = [r for r in results if not r.passed]
    assert not failed, failed


MEANINGS = FAN / "meanings"


@pytest.mark.parametrize("path", sorted(MEANINGS.glob("characters/*.yaml")), ids=lambda p: p.stem)
def test_every_new_meaning_card_loads_in_canonical_words_and_its_examples_hold(path: Path) -> None:
    """Issue 34.2 (forms fixed_every, fixed_capped, reputation_is, others_graveyard, prefix_if_may, …): each card of the
    meanings set is accepted as written, in canonical words, and its examples pin what it does."""
    import libertalia as lt
    from libertalia.language.parser import parse
    from libertalia.language.render import render_ability

    rules = lt.load_rules("galecrest", extra_cards=[path])
    doc = __import__("yaml").safe_load(path.read_text(encoding="utf-8"))
    card = next(c for c in rules.characters if c.name == doc["name"])
    written = doc["text"].strip()
    assert card.text == written
    assert "\n".join(render_ability(a) for a in parse(written)) == written
    results = run_examples(path)
    assert len(results) >= 2, f"{path.name}: a card of the meanings set pins its meaning on both sides"
    failed = [r for r in results if not r.passed]
    assert not failed, failed


@pytest.mark.parametrize("path", sorted(MEANINGS.glob("loot/*.yaml")), ids=lambda p: p.stem)
def test_every_new_meaning_tile_loads_in_canonical_words_and_its_examples_hold(path: Path) -> None:
    """Issue 34.2 (form this_token): each loot tile of the meanings set is accepted as written, on its own side,
    in canonical words, and its examples pin what it does."""
    import libertalia as lt
    from libertalia.language.parser import parse
    from libertalia.language.render import render_ability

    doc = __import__("yaml").safe_load(path.read_text(encoding="utf-8"))
    rules = lt.load_rules("galecrest", extra_cards=[path], loot={doc["kind"]: doc["side"]})
    tile = next(t for t in rules.loot if t.kind == doc["kind"])
    written = doc["text"].strip()
    assert tile.text == written
    assert "\n".join(render_ability(a) for a in parse(written)) == written
    results = run_examples(path)
    assert len(results) >= 2, f"{path.name}: a tile of the meanings set pins its meaning on both sides"
    failed = [r for r in results if not r.passed]
    assert not failed, failed


WORDINGS = FAN / "wordings"


@pytest.mark.parametrize("path", sorted(WORDINGS.glob("*/*.yaml")), ids=lambda p: p.stem)
def test_every_printed_wording_card_loads_as_written_and_its_examples_hold(path: Path) -> None:
    """Issue 34.1 (docs/card-language.md, "Plain-English variants": a seat named as an opponent, an owner's
    possessive, the passive of a discard, past possession, a worth, keeping and swapping this token): each card of
    the wordings set is accepted as printed cards word it (a tile on its own side), and its examples pin what it
    does on both sides."""
    import libertalia as lt

    doc = __import__("yaml").safe_load(path.read_text(encoding="utf-8"))
    sides = {doc["kind"]: doc["side"]} if "kind" in doc else None
    lt.load_rules("galecrest", extra_cards=[path], loot=sides)
    results = run_examples(path)
    assert len(results) >= 2, f"{path.name}: a card of the wordings set pins its meaning on both sides"
    failed = [r for r in results if not r.passed]
    assert not failed, failed
