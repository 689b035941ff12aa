"""Mutation testing of the engine (``testing.engine_mutants``): the mutator and the kill check on a tiny sample."""

from __future__ import annotations

import ast
import tempfile
from pathlib import Path

import pytest

from libertalia.testing import engine_mutants as em

PROGRAM = em.PACKAGE / em.PROGRAM


@pytest.fixture(scope="module")
def every() -> list[tuple[em.Mutant, str]]:
    return em.enumerate_mutants()


def test_every_operator_plants_valid_and_different_code(every: list[tuple[em.Mutant, str]]) -> None:
    """Each operator finds sites in the step code; each mutant parses, differs from its module and says where."""
    assert {m.operator for m, _ in every} == set(em.OPERATORS)
    originals = {name: (PROGRAM / name).read_text(encoding="utf-8") for name in em.MODULES}
    trees = {name: ast.dump(ast.parse(text)) for name, text in originals.items()}
    for mutant, text in em.sample(every, 4 * len(em.OPERATORS), seed=3):  # parsing all ~1,800 takes minutes
        assert ast.dump(ast.parse(text)) != trees[mutant.module], mutant.describe()  # valid, and different
    for mutant, text in every:
        original = originals[mutant.module]
        assert text != original
        assert original.splitlines()[mutant.line - 1].strip() == mutant.source_line
        # Only the site changed: the text before it and after it is the original's.
        lines = original.splitlines(keepends=True)
        assert text.startswith("".join(lines[:mutant.line - 1]))
        assert text.endswith("".join(lines[mutant.end_line:]))


def test_no_mutant_in_a_constructor_a_docstring_or_an_assert(every: list[tuple[em.Mutant, str]]) -> None:
    """Only what steps do is mutated: never ``__init__``, a docstring, an ``assert`` or the next step's index."""
    for mutant, _ in every:
        assert not mutant.function.endswith("__init__")
        assert not mutant.source_line.startswith(("assert ", '"""'))
        assert "f.pc" not in mutant.before


def test_the_sample_is_seeded_and_spreads_over_the_operators(every: list[tuple[em.Mutant, str]]) -> None:
    """The same seed picks the same mutants; a sample of 2 per operator holds every operator."""
    one, two = em.sample(every, 24, seed=5), em.sample(every, 24, seed=5)
    assert [m for m, _ in one] == [m for m, _ in two]
    assert [m for m, _ in em.sample(every, 24, seed=6)] != [m for m, _ in one]
    assert {m.operator for m, _ in one} == set(em.OPERATORS)
    mutant, text = one[0]
    assert em.apply(mutant) == text  # found again by its place and operator


def test_every_listed_equivalent_is_still_a_mutant(every: list[tuple[em.Mutant, str]]) -> None:
    """``EQUIVALENT`` names mutants the enumeration still finds: a stale entry (its code moved) is noticed."""
    keys = {m.key for m, _ in every}
    assert set(em.EQUIVALENT) <= keys, set(em.EQUIVALENT) - keys


def test_a_mutant_with_the_original_bytecode_is_equivalent() -> None:
    """A change the compiler undoes (layout, redundant brackets) is equivalent; a changed operator is not."""
    original = "def f(a, b):\n    return a < b\n"
    assert em.equivalent(original, "def f(a, b):\n    return (a\n            < b)\n")
    assert not em.equivalent(original, "def f(a, b):\n    return a <= b\n")


def test_a_seat_is_swapped_only_for_another_seat_number_in_scope() -> None:
    """``seat`` operator: a seat read from another seat variable the code can see, never a seat's state."""
    source = ("def g(w, f, seat):\n"
              "    state = w.seats[seat]\n"
              "    return [s for s in range(w.n) if s != f.seat] + [state.coins]\n")
    found = {(m.before, m.after) for m, _ in em._sites("x.py", source) if m.operator == "seat"}
    assert ("f.seat", "s") in found and ("s", "f.seat") in found and ("seat", "f.seat") in found
    assert not any("state" in after for _, after in found)


def test_the_copy_is_removed_whatever_happens() -> None:
    """The temporary package copy is removed after an interrupt too, and the real files are untouched."""
    before = {p: p.read_bytes() for p in PROGRAM.glob("*.py")}
    with pytest.raises(KeyboardInterrupt), em.package_copy() as root:
        copy = root
        assert (root / "libertalia" / em.PROGRAM / "actions.py").is_file()
        assert not list(root.rglob("__pycache__"))
        raise KeyboardInterrupt
    assert not copy.exists()
    assert before == {p: p.read_bytes() for p in PROGRAM.glob("*.py")}


def test_the_check_kills_the_player_on_your_left_read_as_your_right(every: list[tuple[em.Mutant, str]]) -> None:
    """A known kill: "the player on your left" read as the right-hand seat fails the examples of the cards
    that say it (the Monkey), in a copy the run removes."""
    chosen = [(m, t) for m, t in every if m.function == "PlayerOnSide.seats" and m.operator == "arithmetic"]
    assert len(chosen) == 1
    leftovers = set(Path(tempfile.gettempdir()).glob("libertalia-mutants-*"))
    report = em.run(chosen, tests=(), fuzz_texts=0, max_card_files=3)
    assert [o.status for o in report.outcomes] == ["killed"], report.summary()
    assert "02-monkey.yaml" in report.outcomes[0].by
    assert report.score == 1.0
    assert set(Path(tempfile.gettempdir()).glob("libertalia-mutants-*")) == leftovers
