"""The data folders ship inside the package, so an installed library finds them."""

from __future__ import annotations

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
