"""``libertalia cards contracts``: the contract fuzzer from the command line, its JSON and its exit status."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from click.testing import CliRunner, Result

from libertalia.cli import main
from libertalia.engine.program import actions as act
from libertalia.engine.work import Frame, Work


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["cards", "contracts", *args])


def test_a_quick_run_reports_its_figures_as_json() -> None:
    """--json gives the figures, the steps checked by kind and every list the report keeps; all clear: status 0."""
    result = run("--texts", "4", "--quick", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["texts"] >= 1 and report["positions"] >= 1 and sum(report["steps"].values()) > 0
    assert report["violations"] == [] and report["errors"] == [] and report["broken"] == 0
    assert {"refused", "suspended", "skipped", "seconds", "seed", "version", "rules_fingerprint"} <= set(report)


def test_a_broken_step_fails_the_run_with_its_reproduction(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step that breaks its contract is printed with its text, contract and replay script; status 1."""
    original: Callable[..., int] = act.GainCoins.act

    def greedy(self: act.GainCoins, w: Work, f: Frame) -> int:
        nxt = original(self, w, f)
        w.gain(f.seat, 1)
        return nxt

    monkeypatch.setattr(act.GainCoins, "act", greedy)
    result = run("--texts", "3", "--quick", "--show", "1")
    assert result.exit_code == 1, result.output
    assert "Violation 1:" in result.output and "contract:" in result.output
    assert "Replay it in Python:" in result.output and "traced(lt.load_rules(" in result.output
    assert "steps broke their contract" in result.output


def test_the_help_names_the_contexts_and_the_json_keys() -> None:
    """--help says what is fuzzed and lists the JSON keys."""
    result = run("--help")
    assert result.exit_code == 0 and "borrowed" in result.output and "violations" in result.output
