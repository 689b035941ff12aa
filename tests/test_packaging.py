"""The data folders ship inside the package, so an installed library finds them."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import libertalia
from libertalia import _paths


def test_data_folders_are_found() -> None:
    """cards/, boards/ and grammar/ are where the installed (or checked-out) package looks."""
    assert _paths.grammar_path().is_file()
    assert (_paths.boards_dir() / "galecrest.yaml").is_file()
    assert len(list((_paths.cards_dir() / "galecrest" / "characters").glob("*.yaml"))) == 40


def test_installed_copy_uses_bundled_data() -> None:
    """Imported from site-packages (as CI does), the package reads its own _data copy."""
    root = _paths.data_root()
    pkg = _paths._PACKAGE
    if "site-packages" in str(pkg):
        assert root == pkg / "_data", "an installed libertalia must not read a source checkout"
    assert libertalia.load_rules("galecrest").identity.startswith("galecrest:")


def test_built_wheel_carries_the_data(tmp_path: Path) -> None:
    """A wheel built from the checkout ships cards/, boards/ and grammar/ inside the package."""
    repo = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(repo)], check=True)
    wheel = next(tmp_path.glob("libertalia-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "libertalia/_data/grammar/libertalia.lark" in names
    assert "libertalia/_data/boards/galecrest.yaml" in names and "libertalia/_data/boards/classic.yaml" in names
    assert sum(n.startswith("libertalia/_data/cards/galecrest/characters/") for n in names) == 40
    assert sum(n.startswith("libertalia/_data/cards/classic/characters/") for n in names) == 30
    assert "libertalia/cli/__init__.py" in names and "libertalia/engine/program/actions.py" in names
