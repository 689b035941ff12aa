"""Games in Jupyter notebooks: the text table as a string, one table per displayed game, a decision in HTML.

Inside a kernel rich sends what a console prints to the notebook instead of its file; the library's
own consoles must not, or ``str(game)`` is "" and the table shows up a second time.  A real
notebook runs in a real kernel (nbclient, when installed), and the same checks run without
Jupyter by faking the kernel that rich detects.
"""

from __future__ import annotations

import builtins
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import libertalia as lt
from libertalia.state import Decision, Option

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def game() -> lt.Game:
    return lt.new_game(lt.load_rules("galecrest"), 3, seed=3)


class ZMQInteractiveShell:
    """Named as Jupyter's kernel shell is: the name rich looks for to decide it is inside a notebook."""


@pytest.fixture
def fake_kernel(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """A kernel as rich detects it, and an ``IPython.display`` that records what would go to the notebook."""
    shown: list[Any] = []
    display = types.ModuleType("IPython.display")
    display.display = lambda *objects, **_: shown.extend(objects)  # type: ignore[attr-defined]
    ipython = types.ModuleType("IPython")
    ipython.display = display  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    monkeypatch.setattr(builtins, "get_ipython", ZMQInteractiveShell, raising=False)
    return shown


def test_the_fake_kernel_is_what_rich_detects(fake_kernel: list[Any]) -> None:
    """The fake below is a real kernel to rich: a console that may detect it prints to the notebook, not its file."""
    import io

    out = io.StringIO()
    console = Console(file=out)
    console.print("hello")
    assert console.is_jupyter and out.getvalue() == "" and fake_kernel


def test_str_and_render_give_the_text_table_inside_a_kernel(game: lt.Game, fake_kernel: list[Any],
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Inside a kernel ``str``, ``render()`` and ``print`` give the text table, and nothing goes to the notebook."""
    text = game.render()
    assert "Today's loot" in text and str(game) == text and game.render(1, width=60).startswith("Voyage 1")
    print(game)
    assert capsys.readouterr().out == text + "\n"
    assert fake_kernel == []  # nothing went to the notebook on the side


def test_render_is_the_same_inside_and_outside_a_kernel(game: lt.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The text table does not depend on where it is asked for (a kernel, a terminal, a pipe)."""
    outside = game.render(width=80)
    shown: list[Any] = []
    display = types.ModuleType("IPython.display")
    display.display = lambda *objects, **_: shown.extend(objects)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    monkeypatch.setattr(builtins, "get_ipython", ZMQInteractiveShell, raising=False)
    assert game.render(width=80) == outside and not shown


def test_a_game_has_one_notebook_form(game: lt.Game) -> None:
    """A game shows once: ``_repr_html_`` is its only ``_repr_*_`` method, with one picture and no text table."""
    forms = [name for name in dir(game) if name.startswith("_repr_") and name != "_repr_names"]
    assert forms == ["_repr_html_"]
    html = game._repr_html_()
    assert html.count("<svg") == 1 and html.count("<pre>") == 1  # the repr line; no text table


def test_a_decision_lists_its_options_in_html(game: lt.Game) -> None:
    """``Decision._repr_html_`` names the seat and the question, then every option's key, numbered."""
    d = game.decision
    assert d is not None
    html = d._repr_html_()
    assert html.startswith("<p><b>seat 0</b>: choose a character") and html.count("<li>") == len(d.options)
    for option in d.options:
        assert f"<li><code>{option.key}</code>" in html


def test_a_decision_in_html_escapes_what_the_data_wrote() -> None:
    """Keys, labels, the prompt and the source come from card files: each is escaped in the HTML."""
    d = Decision(2, "choose_loot", (Option("<i>Gull", "<i>Gull & co (3)"), Option("Tern", "take <b>it</b>")),
                 "choose for your <script>", "Mast<head>")
    html = d._repr_html_()
    assert "<i>" not in html and "<script>" not in html and "<head>" not in html and "<b>it" not in html
    assert "<code>&lt;i&gt;Gull</code> &amp; co (3)" in html and "<code>Tern</code> take &lt;b&gt;it&lt;/b&gt;" in html
    assert "(Mast&lt;head&gt;)" in html


def test_a_hidden_decision_in_html_has_no_list() -> None:
    """A decision seen by another seat has no options: its HTML is the question alone."""
    d = Decision(1, "play_character", (), "waiting for seat 1")
    assert d._repr_html_() == "<p><b>seat 1</b>: waiting for seat 1 <code>play_character</code></p>"


NOTEBOOK_CELLS = (
    "import libertalia as lt\ngame = lt.new_game(lt.load_rules('galecrest'), 3, seed=3)\n"
    "text = str(game)\nprint(len(text) > 0 and text == game.render())",
    "print(game)",
    "game",
    "game.decision",
)


def test_a_real_notebook_shows_the_table_once_and_the_decision_in_html(tmp_path: Path) -> None:
    """Run in a real kernel: ``str`` equals ``render()``, ``print`` shows the text table, a game displays once
    (one output, its picture), and a decision displays as an HTML list of its options."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in NOTEBOOK_CELLS])
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    nbformat.validate(notebook)
    same, printed, shown, decision = (cell.outputs for cell in notebook.cells)
    assert [o["text"] for o in same] == ["True\n"]
    text = lt.new_game(lt.load_rules("galecrest"), 3, seed=3).render()
    assert [o["output_type"] for o in printed] == ["stream"] and printed[0]["text"] == text + "\n"
    assert [o["output_type"] for o in shown] == ["execute_result"]  # no side-effect display before it
    assert set(shown[0]["data"]) == {"text/plain", "text/html"}
    assert shown[0]["data"]["text/html"].count("<svg") == 1
    assert [o["output_type"] for o in decision] == ["execute_result"]
    html = decision[0]["data"]["text/html"]
    assert html.startswith("<p><b>seat 0</b>") and "<li><code>Barkeep</code> (8)</li>" in html
