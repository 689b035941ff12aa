"""The README's library example runs as written."""

from __future__ import annotations

import re
from pathlib import Path


def test_readme_library_example_runs(capsys: object) -> None:
    """Every ```python block of README.md executes without error and prints the scores."""
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README has a library example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})  # noqa: S102 - the point of the test
