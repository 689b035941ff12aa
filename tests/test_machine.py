"""``GameMachine``: it finds a broken invariant, shrinks it to a few answers and prints a reproduction that works."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, run_state_machine_as_test

import libertalia as lt
from libertalia.loading.examples import run_examples
from libertalia.testing import positions
from libertalia.testing.focus import Featured
from libertalia.testing.machine import PHASES, GameMachine

MOD_CARD = """\
name: Moneylender
rank: 41.5
text: |
  sun: gain 50 doubloons.
"""
LIMIT = 40  # a seat holds at most 25 doubloons in a drawn position: only the Moneylender can pass this


def _settings(examples: int, steps: int) -> settings:
    return settings(max_examples=examples, stateful_step_count=steps, phases=PHASES, derandomize=True,
                    database=None, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def mod(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, lt.Rules]:
    """A mod folder with the Moneylender, and the rules loaded with it."""
    folder = tmp_path_factory.mktemp("mod")
    (folder / "moneylender.yaml").write_text(MOD_CARD, encoding="utf-8")
    return folder / "moneylender.yaml", lt.load_rules("galecrest", extra_cards=[folder])


def _richest(game: lt.Game) -> int:
    return max(p.doubloons for p in game.players)


def _with_moneylender(setup: dict[str, Any]) -> dict[str, Any]:
    """The position with the Moneylender in seat 0's hand (and nowhere else of seat 0's)."""
    seat = setup["players"][0]
    for zone in ("hand", "ship", "graveyard"):
        seat[zone] = [c for c in seat[zone] if c != "Moneylender"]
    seat["hand"].append("Moneylender")
    return setup


def _notes(exc: BaseException) -> str:
    return "\n".join(getattr(exc, "__notes__", []))


def _blocks(notes: str) -> tuple[str, str]:
    """The script and the card example of the reproduction hypothesis printed."""
    python = re.search(r"```python\n(.*?)```", notes, re.S)
    yaml = re.search(r"```yaml\n(.*?)```", notes, re.S)
    assert python and yaml, notes
    return python.group(1), yaml.group(1)


def _exec(code: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "reproduction"}
    exec(compile(code, "<reproduction>", "exec"), namespace)  # noqa: S102 - running it is the point
    return namespace


def test_a_broken_invariant_is_found_shrunk_and_reproduced(mod: tuple[Path, lt.Rules], tmp_path: Path) -> None:
    """A subclass's false invariant fails, shrinks to at most 6 answers, and both printed reproductions work."""
    card, rules = mod

    class Hoarding(GameMachine):
        game_rules = rules
        players = (2, 3)

        def setups(self, rules: lt.Rules, players: int) -> st.SearchStrategy[dict[str, Any]]:
            return positions(rules, players).map(_with_moneylender)

        @invariant()
        def nobody_hoards(self) -> None:
            assert self.game is not None
            assert _richest(self.game) <= LIMIT, f"a seat holds more than {LIMIT} doubloons"

    with pytest.raises(AssertionError, match="more than 40 doubloons") as caught:
        run_state_machine_as_test(Hoarding, settings=_settings(200, 12))
    python, yaml = _blocks(_notes(caught.value))
    assert "Hoarding.nobody_hoards fails here" in python and f"extra_cards=['{card.parent.resolve()}']" in python
    assert python.count(".choose(") <= 6, python
    game = _exec(python)["game"]
    assert _richest(game) > LIMIT  # the script reaches the failing game
    pasted = tmp_path / card.name
    pasted.write_text(card.read_text(encoding="utf-8") + "examples:\n" + yaml, encoding="utf-8")
    [result] = run_examples(pasted)
    assert result.passed, result.failure
    assert max(seat.get("doubloons", 0) for seat in result.example.seats) > LIMIT  # it pins the bad state


def test_the_bundled_rules_pass_with_deals_positions_and_side_branches() -> None:
    """No false alarm on Galecrest: dealt games and declared positions, with side branches taken."""
    seen: list[int] = []

    class Watched(GameMachine):
        players = (2, 4, 6)

        @invariant()
        def count_side_answers(self) -> None:
            seen.append(len(self.calls) - (len(self.line) - 1))

    run_state_machine_as_test(Watched, settings=_settings(8, 30))

    class FromPositions(GameMachine):
        players = 3
        from_position = True

    run_state_machine_as_test(FromPositions, settings=_settings(6, 20))
    assert max(seen) > 0  # the branch rule ran: some answers went to earlier games


def test_featuring_starts_from_a_focused_position() -> None:
    """``featuring`` starts each run with the featured cards where they act, their plays given as answers."""
    starts: list[lt.Game] = []

    class WitchAndNymph(GameMachine):
        players = 3
        featuring: ClassVar[list[str]] = ["Witch", "Wind Nymph"]

        @invariant()
        def remember_the_start(self) -> None:
            starts.append(self.line[0])

    run_state_machine_as_test(WitchAndNymph, settings=_settings(5, 6))
    first = starts[0]
    held = [c for p in first.players for c in (*p.hand, *p.ship)]
    assert "Witch" in held and "Wind Nymph" in held


def test_featuring_takes_per_card_placements() -> None:
    """``featuring`` takes the entries ``positions`` does: an Apprentice played beside a Carpenter aboard."""
    runs: list[tuple[dict[str, Any], lt.Game]] = []

    class ApprenticeAndCarpenter(GameMachine):
        players = 3
        featuring: ClassVar[list[Featured]] = [("Apprentice", "play", "a"), ("Carpenter", "ship", "a")]

        @invariant()
        def remember_the_run(self) -> None:
            assert self.setup is not None and self.game is not None
            runs.append((self.setup, self.game))

    run_state_machine_as_test(ApprenticeAndCarpenter, settings=_settings(5, 4))
    assert runs
    for setup, game in runs:
        [seat] = [i for i, p in enumerate(setup["players"]) if "Carpenter" in p["ship"]]
        assert "Apprentice" in setup["players"][seat]["hand"]
        played = [e.seat for e in game.events if e.kind == "play" and e.source == "Apprentice"]
        assert played == [seat]  # the plays are made before the first drawn answer


FINISHED = {"voyage": 3, "day": 6, "loot": [["chest"] * 3],  # last voyage, last day, one card each:
            "players": [{"hand": ["Carpenter"]}, {"hand": ["Scout"]}]}  # the game is over at new_game


def test_a_start_that_asks_nothing_is_a_run_of_the_finished_game() -> None:
    """A start with no question is checked as it is (no InvalidDefinition); a failure there is reproduced."""
    checked: list[lt.Game] = []

    class Finished(GameMachine):
        players = 2

        def setups(self, rules: lt.Rules, players: int) -> st.SearchStrategy[dict[str, Any]]:
            return st.just(FINISHED)

        @invariant()
        def see_the_game(self) -> None:
            assert self.game is not None
            checked.append(self.game)

    run_state_machine_as_test(Finished, settings=_settings(3, 5))
    assert checked and all(game.is_over and game.history == () for game in checked)

    class NeverOver(Finished):
        @invariant()
        def not_over(self) -> None:
            assert self.game is not None and not self.game.is_over, "the game is over"

    with pytest.raises(AssertionError, match="the game is over") as caught:
        run_state_machine_as_test(NeverOver, settings=_settings(3, 5))
    python, _ = _blocks(_notes(caught.value))
    assert "NeverOver.not_over fails here" in python and _exec(python)["game"].is_over


def _failing_script(error: type[BaseException], match: str, *, steps: int) -> str:
    """The script a two-seat ``GameMachine`` prints when it fails with ``error`` (which it must)."""

    class TwoSeats(GameMachine):
        players = 2

    with pytest.raises(error, match=match) as caught:
        run_state_machine_as_test(TwoSeats, settings=_settings(20, steps))
    python, _ = _blocks(_notes(caught.value))
    return python


def test_a_broken_round_trip_is_reproduced_by_the_script(monkeypatch: pytest.MonkeyPatch) -> None:
    """When a save does not load back equal, the script ends with that very check, and fails there too."""
    real = lt.Game.from_json

    def lossy(text: str, rules: lt.Rules) -> lt.Game:
        game = real(text, rules)
        return game.choose(game.legal_keys()[0]) if len(game.history) >= 2 and game.decision else game

    monkeypatch.setattr(lt.Game, "from_json", staticmethod(lossy))

    python = _failing_script(AssertionError, "JSON round trip", steps=8)
    assert "lt.Game.from_json(game.to_json(), rules) == game" in python
    with pytest.raises(AssertionError, match="JSON round trip"):
        _exec(python)


def test_an_impure_choose_is_reproduced_call_by_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """When a game saves differently later, the script replays every choose() and finds the change."""
    real = lt.Game.to_json
    calls = [0]

    def drifting(game: lt.Game) -> str:
        calls[0] += 1
        return real(game) + " " * calls[0]  # still JSON, but never the same twice

    monkeypatch.setattr(lt.Game, "to_json", drifting)

    python = _failing_script(AssertionError, "changed", steps=8)
    assert "for at, key in [" in python
    with pytest.raises(AssertionError, match="changed after it was made"):
        _exec(python)


def test_a_crash_in_choose_is_the_scripts_last_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception from choose(): the script's last answer raises it again."""
    real = lt.Game.choose

    def fragile(game: lt.Game, key: str) -> lt.Game:
        if game.decision is not None and game.decision.kind == "choose_loot":
            raise RuntimeError("loot is broken today")
        return real(game, key)

    monkeypatch.setattr(lt.Game, "choose", fragile)

    python = _failing_script(RuntimeError, "loot is broken", steps=12)
    assert python.rstrip().endswith("# the last choose above raised the error")
    with pytest.raises(RuntimeError, match="loot is broken"):
        _exec(python)


def test_the_test_case_leaves_out_the_explain_phase() -> None:
    """``TestCase`` settings skip hypothesis' explain phase (minutes on a long run), for subclasses too."""

    class Mine(GameMachine):
        players = 2

    for machine in (GameMachine, Mine):
        assert Phase.explain not in machine.TestCase.settings.phases
        assert Phase.shrink in machine.TestCase.settings.phases
