"""Every shell block of README.md and docs/*.md runs as written, with the installed ``libertalia`` command.

A guide is read top to bottom, so each document's blocks run in order in one fresh, empty folder
of its own: a ```yaml block whose first line names a file (``# my-cards/pirate.yaml``) is saved
there when reached, as the reader is told to, and the shell blocks after it may use it.  Each
shell block runs with ``bash -e -o pipefail`` and no input (``libertalia play`` then saves and
stops), so a failing command fails the test.  A block that cannot run here (installing the
checkout, a cluster, an hours-long run) says so in its fence, ```sh no-run, where the reader
sees it; ``NO_RUN`` lists them all, so that a new one is a decision, not an accident.
"""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from tests.helpers import run_group

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[a-z]*)(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.S | re.M)
SHELLS = {"sh", "bash", "shell"}
NAMED_FILE = re.compile(r"\A#\s*(?P<path>[\w./-]+\.ya?ml)\s*\n")
INDEX_INSTALL = re.compile(r"pip install\s+(?:-\S+\s+)*[\"']?libertalia\b")
BLOCK_TIMEOUT = 900  # seconds: a guard against a hang, not a measure (the docs use small --games and --texts counts)

# Blocks marked ```sh no-run, by document and a word of their first command: installing the
# checkout, a cluster's machines, and runs meant to take minutes or hours.
NO_RUN = {
    ("README.md", "python3 -m venv"),
    ("README.md", "LIBERTALIA_COMPILE=1"),  # the compiled build: minutes of C compiling
    ("docs/quickstart.md", "python3 -m venv"),
    ("docs/bots.md", "pip install"),
    ("docs/simulation.md", "pip install"),
    ("docs/simulation.md", "dask scheduler"),
    ("docs/simulation.md", "dask worker"),
    ("docs/simulation.md", "libertalia simulate --dask tcp"),
    ("docs/simulation.md", "libertalia simulate --games 2000 --dask local"),
    ("docs/simulation.md", "libertalia simulate --games 1000 --players 4 --jobs 1"),  # measured timings
    ("docs/testing.md", "LIBERTALIA_FUZZ_EXAMPLES"),
    ("docs/testing.md", 'python -m pytest -q -m "not slow"'),  # the suite itself
    ("docs/testing.md", "libertalia cards contracts --texts 10000"),
    ("docs/testing.md", "python -m libertalia.testing.laws --positions 200"),  # minutes: every law family
    ("docs/testing.md", "python -m libertalia.testing.engine_mutants --mutants 64"),  # half an hour and more
    ("docs/modding.md", "libertalia cards test cards/"),  # the checkout's own folder
    ("docs/modding.md", "libertalia cards mutate cards/"),
}


def blocks(path: Path) -> list[tuple[int, str, str, str]]:
    """(line, language, info after it, dedented body) of every fenced block of ``path``, in order."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group("lang"), m.group("info").strip(),
             textwrap.dedent(m.group("body"))) for m in FENCE.finditer(text)]


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _first_command(body: str) -> str:
    return next((line.strip() for line in body.splitlines() if line.strip() and not line.lstrip().startswith("#")),
                "")


SHELL_DOCS = [path for path in DOCS
              if any(lang in SHELLS and "no-run" not in info.split() for _, lang, info, _ in blocks(path))]


def test_no_doc_installs_from_the_package_index() -> None:
    """libertalia is not on the package index: every install line installs the checkout (``pip install ".[rl]"``)."""
    for path in DOCS:
        found = INDEX_INSTALL.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{_name(path)} says {found[0]!r}"
    assert INDEX_INSTALL.search('pip install "libertalia[rl]"') and INDEX_INSTALL.search("pip install -U libertalia")
    assert not INDEX_INSTALL.search('pip install ".[rl]"')


def test_blocks_that_do_not_run_are_few_and_listed() -> None:
    """Every ```sh no-run block is one of NO_RUN, and each of NO_RUN is still in its document."""
    marked = set()
    for path in DOCS:
        for line, lang, info, body in blocks(path):
            if lang in SHELLS and "no-run" in info.split():
                first = _first_command(body)
                match = [key for key in NO_RUN if key[0] == _name(path) and first.startswith(key[1])]
                assert match, f"{_name(path)}:{line}: a no-run block not in NO_RUN: {first!r}"
                marked.update(match)
    assert marked == NO_RUN and len(NO_RUN) <= 17  # 17th: the quick run, the suite itself


@pytest.mark.skipif(shutil.which("libertalia") is None, reason="the libertalia command is not installed")
@pytest.mark.parametrize("doc", SHELL_DOCS, ids=_name)
def test_shell_blocks_run(doc: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each shell block of the document, in order in one empty folder, exits 0 with the installed command."""
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "LIBERTALIA_CACHE_DIR": str(tmp_path_factory.getbasetemp() / "cache"), "COLUMNS": "100"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    ran = 0
    for line, lang, info, body in blocks(doc):
        named = NAMED_FILE.match(body)
        if lang == "yaml" and named:
            target = work / named.group("path")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body[named.end():], encoding="utf-8")  # as saved: the name line is the doc's
        if lang not in SHELLS or "no-run" in info.split():
            continue
        # In a process group of its own, killed whatever happens: a block's pool or background job ends with it.
        done = run_group(["bash", "-e", "-o", "pipefail", "-c", body], cwd=work, env=env, timeout=BLOCK_TIMEOUT)
        assert done.returncode == 0, (f"{_name(doc)}:{line} exited {done.returncode}\n{body}\n"
                                      f"--- stdout\n{done.stdout[-2000:]}\n--- stderr\n{done.stderr[-3000:]}")
        ran += 1
    assert ran, f"{_name(doc)} has shell blocks but none ran"
