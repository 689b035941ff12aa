"""``reproduction``: the script runs as written and the card example passes under ``run_examples``."""

from __future__ import annotations

import copy
import re
import warnings
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import Phase

import libertalia as lt
from libertalia import _paths
from libertalia.loading.examples import read_examples, run_examples
from libertalia.testing.repro import Reproduction, load_call, reproduction
from tests.helpers import galecrest

WITCH_FILE = _paths.cards_dir() / "galecrest" / "characters" / "15-witch.yaml"
POSITION: dict[str, Any] = {
    "voyage": 1, "day": 2, "reputation": [0, 1, 2],
    "players": [{"hand": ["Witch", "Cook"], "ship": ["Barkeep"], "doubloons": 5},
                {"hand": ["Governor", "Cook"]}, {"hand": ["Wind Nymph", "Cook"]}],
    "loot": [["chest", "map", "relic"]],
}


def _first_keys(rules: lt.Rules, players: int, seed: int, setup: dict[str, Any] | None, n: int) -> list[str]:
    """The first ``n`` answers of a game that always takes the first option."""
    game = lt.new_game(rules, players, seed, setup)
    keys = []
    while game.decision is not None and len(keys) < n:
        keys.append(game.legal_keys()[0])
        game = game.choose(keys[-1])
    return keys


def _run_python(code: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "reproduction"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # stormy and solo tiles warn on purpose
        exec(compile(code, "<reproduction>", "exec"), namespace)  # noqa: S102 - running it is the point
    return namespace


def _run_yaml(entry: str, folder: Path, base: Path = WITCH_FILE) -> list[Any]:
    """The entry pasted at the end of a copy of a card file (a mod file, outside cards/), run as ``cards test`` does."""
    path = folder / base.name
    path.write_text(base.read_text(encoding="utf-8").rstrip("\n") + "\n" + entry, encoding="utf-8")
    ours = read_examples(path)[0][-1]
    results = run_examples(path)
    return [r for r in results if r.example.line == ours.line]


def test_a_declared_position_replays_in_python_and_as_a_passing_example(tmp_path: Path) -> None:
    """From a declared position: the script reaches the same game, and the example passes as it stands."""
    rules = galecrest()
    keys = _first_keys(rules, 3, 7, POSITION, 6)
    rep = reproduction(rules, 3, 7, POSITION, keys, note="the Witch copies a moon ability")
    namespace = _run_python(rep.python)
    expected = lt.new_game(rules, 3, 7, POSITION)
    for key in keys:
        expected = expected.choose(key)
    assert namespace["game"] == expected and namespace["game"].history == tuple(keys)
    assert namespace["before"].history == tuple(keys[:-1])
    assert rep.python.count(".choose(") == len(keys) and "# seat 0, play_character" in rep.python
    assert rep.python.rstrip().endswith("check_invariants(game, before)")
    assert '- it: "the Witch copies a moon ability"' in rep.yaml
    [result] = _run_yaml(rep.yaml, tmp_path)
    assert result.passed, result.failure
    assert result.example.answers == tuple(keys) and result.example.seed == 7


def test_a_dealt_game_becomes_an_example_from_its_dealt_position(tmp_path: Path) -> None:
    """A game that began with a deal: the script replays it, and the example starts from the dealt hands."""
    rules = galecrest()
    keys = _first_keys(rules, 4, 11, None, 9)
    rep = reproduction(rules, 4, 11, None, keys)
    namespace = _run_python(rep.python)
    assert namespace["game"].history == tuple(keys)
    assert "seed=11)" in rep.python and "setup" not in rep.python
    assert "dealt position" in rep.yaml
    [result] = _run_yaml(rep.yaml, tmp_path)
    assert result.passed, result.failure
    assert len(result.example.setup["players"]) == 4 and result.example.setup["day"] == 1


def test_the_script_loads_the_rules_as_they_were_loaded(tmp_path: Path) -> None:
    """Loot sides and mod folders come back from what load_rules recorded; the script's rules are the same."""
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "quiet.yaml").write_text("name: Quiet Deckhand\nrank: 41.5\ntext: |\n  anchor: gain 1 doubloon.\n",
                                    encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rules = lt.load_rules("galecrest", loot={"map": "stormy"}, extra_cards=[mod])
    call = load_call(rules)
    assert call == f"lt.load_rules(\"galecrest\", loot={{'map': 'stormy'}}, extra_cards=['{mod.resolve()}'])"
    keys = _first_keys(rules, 2, 3, None, 4)
    rep = reproduction(rules, 2, 3, None, keys)
    namespace = _run_python(rep.python)
    assert namespace["rules"].identity == rules.identity and namespace["rules"].fingerprint == rules.fingerprint
    assert namespace["rules"].has_card("Quiet Deckhand")
    assert "map=stormy" in rep.yaml and "mod cards" in rep.yaml  # what an example cannot carry is said


def test_rules_that_do_not_say_how_they_were_loaded_need_a_load_call() -> None:
    """Rules not made by load_rules are refused, unless the caller writes the load call."""
    rules = attrs.evolve(galecrest(), load_args={})
    with pytest.raises(ValueError, match="load_call"):
        reproduction(rules, 3, 0, None, [])
    rep = reproduction(rules, 3, 0, None, [], load_call='lt.load_rules("galecrest")')
    namespace = _run_python(rep.python)
    assert namespace["before"] is None and namespace["game"].history == ()


def test_an_answer_that_raises_is_the_scripts_last_line_and_the_example_stops_there(tmp_path: Path) -> None:
    """A key the game does not offer: the script raises there, and the example says it fails until fixed."""
    rules = galecrest()
    keys = [*_first_keys(rules, 3, 7, POSITION, 3), "Kraken"]
    rep = reproduction(rules, 3, 7, POSITION, keys)
    assert "# raises 'Kraken' is not offered here" in rep.python
    with pytest.raises(lt.IllegalChoice):
        _run_python(rep.python)
    assert "fails until that is fixed" in rep.yaml
    [result] = _run_yaml(rep.yaml, tmp_path)
    assert not result.passed and "answers[3] 'Kraken' is not offered" in str(result.failure)


def test_a_solo_game_gets_a_script_and_a_word_on_why_no_example() -> None:
    """Solo games start at the beginning only: the script replays one, the example part explains."""
    rules = galecrest()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        keys = _first_keys(rules, 1, 2, None, 3)
    rep = reproduction(rules, 1, 2, None, keys)
    assert _run_python(rep.python)["game"].history == tuple(keys)
    assert "- it:" not in rep.yaml and "solo game" in rep.yaml


def test_str_shows_both_under_headings() -> None:
    """``str(reproduction)`` holds the script and the example in fenced blocks, each under a heading."""
    rep = Reproduction(python="x = 1\n", yaml="  - it: x\n")
    text = str(rep)
    assert re.search(r"script:\n\n```python\nx = 1\n```", text)
    assert re.search(r"examples: list:\n\n```yaml\n  - it: x\n```", text)


@pytest.mark.parametrize("focused", [False, True])
def test_a_failing_strategy_game_prints_a_reproduction_that_runs(focused: bool) -> None:
    """games() (plain or featuring=) notes the minimal failing game's reproduction; its script rebuilds that game."""
    from hypothesis import given, settings

    from libertalia.testing import games

    rules = galecrest()
    strategy = games(rules, 3, max_steps=30, featuring=["Beggar"] if focused else None)

    @settings(max_examples=60, database=None)
    @given(strategy)
    def day_one_only(game: lt.Game) -> None:
        assert game.day < 2 and game.voyage == 1

    with pytest.raises(AssertionError) as info:
        day_one_only()
    notes = "\n".join(getattr(info.value, "__notes__", []))
    script = re.search(r"```python\n(.*?)```", notes, re.S)
    assert script is not None, notes
    namespace: dict[str, Any] = {}
    exec(script.group(1), namespace)  # noqa: S102 - running the printed reproduction is the point
    game = namespace["game"]
    assert not (game.day < 2 and game.voyage == 1)  # the script reaches a game that fails the same way


QUICK = (Phase.generate,)  # no shrinking: the notes come from the final replay of the failing example all the same


def _noted_script(test: Any) -> tuple[str, str]:
    """Run a property that must fail; the notes hypothesis printed, and the first script in them."""
    with pytest.raises(AssertionError) as info:
        test()
    notes = "\n".join(getattr(info.value, "__notes__", []))
    script = re.search(r"```python\n(.*?)```", notes, re.S)
    assert script is not None, notes
    return notes, script.group(1)


def test_a_failing_property_over_positions_prints_the_position_as_drawn() -> None:
    """positions() notes a script that rebuilds the minimal failing setup, as drawn even if the test changed it."""
    from hypothesis import given, settings

    from libertalia.testing import positions

    rules = galecrest()
    seen: list[dict[str, Any]] = []

    @settings(max_examples=60, database=None, phases=QUICK)
    @given(positions(rules, 3))
    def first_day_only(setup: dict[str, Any]) -> None:
        seen.append(copy.deepcopy(setup))
        setup["players"][0]["hand"].append("Kraken")  # a test may change what it was given
        assert setup["day"] == 1

    notes, script = _noted_script(first_day_only)
    assert notes.count("Reproduction of the drawn position") == 1
    namespace = _run_python(script)
    assert namespace["setup"] == seen[-1] and namespace["setup"]["day"] != 1  # the minimal failing one, unchanged
    assert namespace["game"] == lt.new_game(rules, 3, setup=seen[-1])


def test_a_failing_property_over_focused_positions_rebuilds_the_position() -> None:
    """positions(featuring=) notes a script whose ``position`` is the one drawn and whose ``game`` is its start."""
    from hypothesis import given, settings

    from libertalia.testing import FocusedPosition, positions

    rules = galecrest()
    seen: list[FocusedPosition] = []

    @settings(max_examples=60, database=None, phases=QUICK)
    @given(positions(rules, 3, featuring=[("Apprentice", "play", "a"), ("Carpenter", "ship", "a")]))
    def never_rich(position: FocusedPosition) -> None:
        seen.append(position)
        game = position.start(rules)
        assert all(p.doubloons < 8 for p in game.players)

    notes, script = _noted_script(never_rich)
    namespace = _run_python(script)
    assert namespace["position"] == seen[-1]
    assert namespace["position"].start(rules) == namespace["game"]
    assert any(p.doubloons >= 8 for p in namespace["game"].players)  # the script reaches the failing game
    assert script.count("game = game.choose(") == len(namespace["game"].history)  # the plays, one line each


@pytest.mark.parametrize("focused", [False, True])
def test_games_drawn_from_positions_print_one_reproduction(focused: bool) -> None:
    """games() notes the game it played, not also the position it started from."""
    from hypothesis import given, settings

    from libertalia.testing import games

    rules = galecrest()
    strategy = games(rules, 3, max_steps=5, from_position=not focused, featuring=["Beggar"] if focused else None)

    @settings(max_examples=30, database=None, phases=QUICK)
    @given(strategy)
    def first_voyage_only(game: lt.Game) -> None:
        assert game.voyage == 1

    notes, _ = _noted_script(first_voyage_only)
    assert notes.count("Reproduction of the drawn") == 1 and "Reproduction of the drawn game" in notes
