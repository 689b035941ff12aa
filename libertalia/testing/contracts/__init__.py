"""Contracts: every step of a card program checked against what its kind may do (issue 19).

- ``traced(rules, tracer)`` and ``Tracer``: rules whose every executed step is checked;
- ``LAWS``: each step kind's law, keyed by class (the contracts themselves are the ``CONTRACT``
  records beside the classes in ``libertalia.engine.program``);
- ``fuzz_contracts(rules, texts=N, seed=S)``: generated texts played where they act, every
  step checked (``libertalia cards contracts`` on the command line);
- ``coverage(rules)``: every production of the grammar spelled against its siblings, and which
  ones changed a result (``libertalia cards contracts --coverage``).
"""

from __future__ import annotations

from .coverage import CoverageReport, Production, ProductionCoverage, coverage, productions
from .fuzz import (
    ContractReport,
    FuzzError,
    FuzzText,
    Refusal,
    Violation,
    fuzz_contracts,
    fuzz_texts,
    generate_texts,
    solo_game,
)
from .laws import LAWS
from .trace import StepViolation, Tracer, traced

__all__ = [
    "LAWS", "ContractReport", "CoverageReport", "Production", "ProductionCoverage", "coverage", "productions",
    "FuzzError", "FuzzText", "Refusal", "StepViolation", "Tracer", "Violation",
    "fuzz_contracts", "fuzz_texts", "generate_texts", "solo_game", "traced",
]
