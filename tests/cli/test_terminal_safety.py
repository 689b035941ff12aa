"""Nothing from a card file acts on the terminal: every command shows its controls spelt out (_terminal, issue 33)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.table import Table

from libertalia._terminal import visible, visible_json
from libertalia.cli import echo, main
from libertalia.cli.terminal import safe_text, visible_console
from libertalia.errors import CardError

HOSTILE = "mod\x1b]52;c;SGVsbG8=\x07\u202e[red]x"
"""A folder name holding ESC, an OSC 52 clipboard sequence ended by BEL, a bidi override and rich markup."""
SHOWN = "mod\\x1b]52;c;SGVsbG8=\\x07\\u202e[red]x"
"""How it is shown: every character a terminal acts on spelt out, the markup as written."""


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, env={"COLUMNS": "200"})


def assert_clean(result: Result) -> str:
    """Both streams hold no control (but newline and tab), format or separator character; stdout and stderr, joined."""
    text = result.stdout + result.stderr
    raw = sorted({c for c in text if c not in "\n\t" and visible(c) != c})
    assert not raw, f"raw characters reached the terminal: {raw!r}\n{text}"
    return text


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    """A mod whose folder name is hostile, holding one good card."""
    folder = tmp_path / HOSTILE
    folder.mkdir()
    (folder / "tamer.yaml").write_text("name: Kraken Tamer\nrank: 41\ntext: |\n  sun: gain 1 doubloon.\n",
                                       encoding="utf-8")
    return folder


def test_cards_list_and_show_spell_out_a_hostile_path(mod: Path) -> None:
    """``cards list`` and ``cards show``: the card is there, its path shown with ESC, BEL and U+202E spelt out."""
    listed = run("cards", "list", "--cards", str(mod))
    assert listed.exit_code == 0 and "Kraken Tamer" in assert_clean(listed)
    shown = run("cards", "show", "kraken tamer", "--cards", str(mod))
    assert shown.exit_code == 0
    out = assert_clean(shown)
    assert "Kraken Tamer (rank 41)" in out and SHOWN + "/tamer.yaml" in out


def test_cards_check_and_test_spell_out_a_hostile_path(mod: Path) -> None:
    """``cards check`` and ``cards test`` of a hostile folder, clean or failing, print nothing raw."""
    ok = run("cards", "check", str(mod))
    assert ok.exit_code == 0 and "all cards are valid" in assert_clean(ok)
    (mod / "broken.yaml").write_text("name: Sea Wolf\nrank: 42\ntext: |\n  sun: gane 1 doubloon.\n", encoding="utf-8")
    bad = run("cards", "check", str(mod))
    assert bad.exit_code != 0 and SHOWN + "/broken.yaml:4" in assert_clean(bad)
    tested = run("cards", "test", str(mod))
    assert_clean(tested)


def test_simulate_spells_out_a_hostile_path(mod: Path) -> None:
    """``simulate`` with a hostile mod: the run's summary names the mod spelt out."""
    result = run("simulate", "--games", "2", "--players", "3", "--seed", "4", "--cards", str(mod))
    assert result.exit_code == 0, result.output
    assert SHOWN in assert_clean(result)


def test_play_spells_out_a_hostile_path(mod: Path, tmp_path: Path) -> None:
    """``play`` with a hostile mod: the card shows at the prompt, nothing raw is printed."""
    record = tmp_path / "game.json"
    result = run("play", "--players", "3", "--seed", "2", "--cards", str(mod), "--record", str(record),
                 stdin="show Kraken Tamer\n")
    out = assert_clean(result)
    assert "Kraken Tamer (rank 41)" in out


@pytest.mark.parametrize("command", [("cards", "check"), ("cards", "list", "--cards"), ("simulate", "--games", "1",
                                                                                       "--cards")])
def test_a_hostile_name_is_refused_and_quoted_spelt_out(tmp_path: Path, command: tuple[str, ...]) -> None:
    """A name holding OSC 52, BEL, a bidi override and markup: refused at load and by check, quoted spelt out."""
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "evil.yaml").write_text('name: "Evil\\e]52;c;SGVsbG8=\\a\\u202e[red]One"\nrank: 41\n'
                                      'text: |\n  sun: gain 1 doubloon.\n', encoding="utf-8")
    result = run(*command, str(folder))
    assert result.exit_code != 0
    out = assert_clean(result)
    assert "Evil\\x1b]52;c;SGVsbG8=\\x07\\u202e[red]One" in out and "evil.yaml:1:" in out


def test_cards_check_quotes_raw_control_bytes_spelt_out_with_the_caret_in_place(tmp_path: Path) -> None:
    """Raw ESC and BEL bytes in a file: YAML refuses them, the quoted line spells them out, the caret under the ESC."""
    path = tmp_path / "raw.yaml"
    path.write_bytes(b"name: Sea\x1b]52;c;SGVsbG8=\x07Wolf\nrank: 41\ntext: |\n  sun: gain 1 doubloon.\n")
    result = run("cards", "check", str(path))
    out = assert_clean(result)
    lines = out.splitlines()
    quoted = next(i for i, line in enumerate(lines) if "name: Sea" in line)
    assert lines[quoted].strip() == "name: Sea\\x1b]52;c;SGVsbG8=\\x07Wolf"
    assert lines[quoted][lines[quoted + 1].index("^"):].startswith("\\x1b")


def test_a_click_error_quoting_a_hostile_argument_is_spelt_out() -> None:
    """click's own errors (a --cards path that does not exist) pass through the same sanitiser."""
    result = run("cards", "list", "--cards", "nowhere\x1b]52;c;SGVsbG8=\x07")
    assert result.exit_code == 2 and "nowhere\\x1b]52;c;SGVsbG8=\\x07" in assert_clean(result)


def test_the_console_spells_out_controls_and_reads_no_markup() -> None:
    """The CLI's rich console: str, Text and table cells with ESC, BEL, U+202E and [red] print spelt out, as written."""
    out = visible_console()
    buffer = io.StringIO()
    out.file = buffer
    table = Table()
    table.add_column("name")
    table.add_row("[red]Cell\x1b[2J")
    out.print("[red]Plain\x07")
    out.print(safe_text("[bold]Text\x1b]52;c;SGVsbG8=\x07\u202e"))
    out.print(table)
    text = buffer.getvalue()
    assert all(c in "\n" or visible(c) == c for c in text)
    assert "[red]Plain\\x07" in text and "[bold]Text\\x1b]52;c;SGVsbG8=\\x07\\u202e" in text
    assert "[red]Cell\\x1b[2J" in text


def test_visible_spells_out_every_unseen_category_and_is_idempotent() -> None:
    """``visible``: Cc, Cf, Cs, Zl and Zp spelt out as Python escapes; what it returns it leaves alone."""
    raw = "a\x1bb\x07c\x9bd\u202ee\u200bf\udc80g\u2028h\u2029i\U000e0001j\tk\nl\u00e9\u00a0m"
    shown = visible(raw, keep="\n")
    assert shown == ("a\\x1bb\\x07c\\x9bd\\u202ee\\u200bf\\udc80g\\u2028h\\u2029i\\U000e0001j\\tk\nl\u00e9\u00a0m")
    assert visible(shown, keep="\n") == shown
    assert visible("Governor's Daughter") == "Governor's Daughter"


def test_visible_json_reads_back_to_the_same_values() -> None:
    """``visible_json``: JSON written with ensure_ascii=False stays valid and decodes to the same strings."""
    value = {"name": "Sea\x9bWolf\u202e\U000e0001\u00e9"}
    text = visible_json(json.dumps(value, ensure_ascii=False))
    assert all(visible(c) == c for c in text) and json.loads(text) == value


def test_a_card_error_spells_out_its_line_and_keeps_the_caret_under_its_character() -> None:
    """A CardError quoting a line with controls before the error: escaped, and the caret still under the right word."""
    line = "text: \x1b[31m\u202eBad wrod"
    err = CardError("unknown word 'wrod'", path="m\x1bod/x.yaml", line=3, column=line.index("wrod") + 1,
                    source_line=line, expected="a word")
    lines = str(err).splitlines()
    assert lines[0] == f"m\\x1bod/x.yaml:3:{err.column}: unknown word 'wrod'"
    assert lines[1] == "    text: \\x1b[31m\\u202eBad wrod"
    assert lines[1][lines[2].index("^"):].startswith("wrod")


def test_every_cli_print_path_goes_through_the_sanitiser() -> None:
    """The CLI prints only through ``echo``, ``echo_json`` and ``console()`` (``cli/terminal.py``): no other route."""
    root = Path(__file__).resolve().parents[2] / "libertalia" / "cli"
    routes = {"click.echo(": "__init__.py", "click.secho(": "", "Console(": "terminal.py", "Text(": "terminal.py"}
    found = []
    for path in sorted(root.glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for route, home in routes.items():
                if re.search(r"(?<![\w.])" + re.escape(route), line) and path.name != home:
                    found.append(f"{path.name}:{n}: {line.strip()}")
            if re.search(r"(?<![\w.])print\(", line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert not found, "printing around the sanitiser:\n" + "\n".join(found)


def test_echo_keeps_line_breaks_tabs_and_crlf_but_no_lone_carriage_return(capsys: pytest.CaptureFixture[str]) -> None:
    """``echo``: newlines, tabs and a CRLF line end pass; a lone CR (it overwrites a line) and ESC are spelt out."""
    echo("a\tb\r\nc\rd\x1b[2Ke\n")
    assert capsys.readouterr().out == "a\tb\r\nc\\rd\\x1b[2Ke\n\n"
