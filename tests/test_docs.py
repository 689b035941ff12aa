"""Every ```python block of README.md and docs/*.md runs as written.

Each block runs on its own, in a fresh namespace and a fresh empty working folder, so it
may use only what it imports, the files it writes itself and the bundled data.  Blocks run
as a module named ``docs``, not ``__main__``: examples guarded by
``if __name__ == "__main__":`` (process pools, a cluster) define what they show without
starting it.  A block that is not meant to run is not marked ``python`` (``sh``, ``text``).
"""

from __future__ import annotations

import re
import textwrap
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A fence may be indented, inside a list item; the block is dedented by the fence's indent.
FENCE = re.compile(r"^(?P<indent>[ \t]*)```python[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.S | re.M)


def python_blocks() -> list[tuple[str, int, str]]:
    """(file name, line of the fence, code) for every ```python block."""
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append((path.relative_to(ROOT).as_posix(), line, textwrap.dedent(m.group("body"))))
    return out


BLOCKS = python_blocks()


def test_the_docs_have_python_blocks() -> None:
    """The README and the guides hold python blocks, including an indented one (modding.md's, in a list)."""
    files = {name for name, _, _ in BLOCKS}
    assert {"README.md", "docs/api.md", "docs/solo.md", "docs/modding.md", "docs/editions.md"} <= files


@pytest.mark.parametrize(("name", "line", "code"), BLOCKS, ids=[f"{n}:{line}" for n, line, _ in BLOCKS])
def test_python_block_runs(name: str, line: int, code: str, tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The block runs without an error in an empty folder, with nothing defined beforehand."""
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unverified loot and solo cards warn on purpose
        exec(compile(code, f"{name}:{line}", "exec"), {"__name__": "docs"})  # noqa: S102 - the point of the test


def test_no_doc_names_a_command_that_does_not_exist() -> None:
    """No doc tells people to run ``python -m libertalia --loot ...`` (the options belong to a subcommand)."""
    for path in DOCS:
        assert "python -m libertalia --" not in path.read_text(encoding="utf-8"), path.name
