"""Fuzzed card and board files: ``load_rules`` and ``check_files`` succeed or raise DataError, and never hang.

Each input class (card YAML, board YAML) is drawn from four sources, mixed:

* byte edits of the bundled files (inserting YAML punctuation, tags, aliases, long numbers,
  stray or invalid bytes; deleting and copying runs of bytes);
* character and line edits of the bundled files (any Unicode character, duplicated, deleted or
  re-indented lines), saved as UTF-8 or now and then in another encoding;
* random YAML documents: card-shaped mappings of random values, or the board with random keys
  set to random values, removed or added;
* the hand-made cases of ``test_file_hardening.py``, as they are or edited further.

Boards are the mini editions of ``test_file_hardening.build_mini_edition`` (the bundled boards with
one-line stand-in characters), so that an example takes a fraction of a second; card files are
checked against the mini edition of their own edition, so that their card names resolve.  Every
example runs under a limit of CPU time (``helpers.time_limit``), which a loaded machine does not
stretch; the work a process does once (building the parser, reading the mini editions) is done
before the first example, in a cache folder of this module's own, so each example is timed for
its own work alone, the same on every run.

CI runs a few examples per test (derandomized, so a red run is reproducible); set
``LIBERTALIA_FUZZ_EXAMPLES=N`` for a long run of N examples per test, and run pytest with ``-s`` to
see how many inputs of each class and source were accepted or refused.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import libertalia as lt
from libertalia import _paths
from libertalia.language import lalr
from libertalia.loading.rules import check_files
from tests.loading.test_file_hardening import BOARD_CASES, CARD_CASES, build_mini_edition, time_limit

LONG = int(os.environ.get("LIBERTALIA_FUZZ_EXAMPLES", "0") or 0)
CI_EXAMPLES = {"card_check": 40, "card_load": 10, "board": 40}  # about 8 s together
EDITIONS = ("galecrest", "classic")


def _settings(test: str) -> settings:
    return settings(
        max_examples=LONG or CI_EXAMPLES[test],
        deadline=None,
        derandomize=not LONG,
        database=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example,
                               HealthCheck.filter_too_much],
    )


OUTCOMES: Counter[tuple[str, str, str]] = Counter()
"""(class, source, outcome) of every example run, for the summary of a long run."""


@pytest.fixture(scope="module", autouse=True)
def _summary() -> Iterator[None]:
    yield
    if not OUTCOMES:
        return
    lines = ["", "fuzzed card and board files (class / source: outcomes):"]
    for cls in ("card", "board"):
        total = sum(n for (c, _, _), n in OUTCOMES.items() if c == cls)
        lines.append(f"  {cls} YAML: {total} inputs")
        for source in sorted({s for c, s, _ in OUTCOMES if c == cls}):
            counts = {o: n for (c, s, o), n in OUTCOMES.items() if c == cls and s == source}
            lines.append(f"    {source}: " + ", ".join(f"{n} {o}" for o, n in sorted(counts.items())))
    print("\n".join(lines), file=sys.stderr)


@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """The mini editions, with a process's one-time work done before any example's time limit starts.

    The first example used to pay for building the LALR parser (about a second of CPU time with
    interegular installed) under a 20-second wall-clock guard: on a machine loaded many times
    over, that one example ran out of time (issue 20, finding 14).  The cache folder is this
    module's own, so no other run's entries (or pruning) change what an example does.
    """
    folder = tmp_path_factory.mktemp("editions")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LIBERTALIA_CACHE_DIR", str(folder / "cache"))
        built = {name: build_mini_edition(folder, name) for name in EDITIONS}
        lalr.shared_parser()
        for board in built.values():
            assert check_files([], board) == []  # reads the board and its cards into the cache
        yield built


# ---------------------------------------------------------------- sources
def _bundled_cards() -> list[tuple[str, bytes]]:
    """Every bundled character and loot file (every side), with its edition."""
    out = []
    for edition in EDITIONS:
        for path in sorted((_paths.cards_dir() / edition).rglob("*.yaml")):
            out.append((edition, path.read_bytes()))
    return out


CARDS = _bundled_cards()
HAND_MADE_CARDS = [(edition, body) for body in CARD_CASES.values() for edition in EDITIONS]

INSERTS = [
    b"[", b"]", b"{", b"}", b":", b": ", b", ", b"- ", b"? ", b"&a ", b"*a", b"&b [*a, *a, *a] ", b"*b",
    b"!!float ", b"!!int ", b"!!timestamp ", b"!!bool ", b"!!binary ", b"!!set ", b"!!omap ", b"!!str ",
    b"!!python/object:os.system ", b"!foo ", b"<<: ", b".nan", b".inf", b"-.inf", b"0x", b"0b", b"0o",
    b"1:2", b"2020-13-45", b"9" * 7, b"9" * 50, b"9" * 5000, b"1e400", b"-0", b"20.5", b"\n", b"\r\n", b"\r",
    b"\t", b"  ", b"#", b"|", b"|-", b">", b"'", b'"', b"\\", b"%YAML 1.1\n", b"---\n", b"...\n", b"\x00",
    b"\xff", b"\xfe\xff", b"\xe9", b"\xc3", b"\xef\xbb\xbf", b"\xc2\x85", "\u2028".encode(), b"~", b"null",
    b"true", b"=", b"@", b"`", b"%", b"[" * 100, b"{a: " * 70,
]


@st.composite
def _byte_edits(draw: st.DrawFn, sources: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """A source file with a few bytes inserted, deleted, replaced or copied."""
    edition, original = draw(st.sampled_from(sources))
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(("insert", "insert", "delete", "replace", "copy")))
        i = draw(st.integers(0, len(data)))
        if op == "insert":
            data[i:i] = draw(st.one_of(st.sampled_from(INSERTS), st.binary(min_size=1, max_size=6)))
        elif op == "delete":
            del data[i:i + draw(st.integers(1, 40))]
        elif op == "replace":
            data[i:i + 1] = draw(st.binary(min_size=1, max_size=1))
        else:
            j = draw(st.integers(0, len(data)))
            data[i:i] = data[j:j + draw(st.integers(1, 80))]
    return edition, bytes(data)


_CHARS = st.one_of(st.characters(codec="utf-8"), st.sampled_from(list(":-[]{}&*!|>#'\"?,% \t\n0123456789.")))


@st.composite
def _text_edits(draw: st.DrawFn, sources: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """A source file with characters and whole lines edited, in UTF-8 or now and then another encoding."""
    edition, original = draw(st.sampled_from(sources))
    lines = original.decode("utf-8", "replace").split("\n")
    for _ in range(draw(st.integers(1, 5))):
        op = draw(st.sampled_from(("char", "char", "duplicate", "delete", "indent", "dedent", "swap")))
        k = draw(st.integers(0, len(lines) - 1))
        line = lines[k]
        if op == "char":
            i = draw(st.integers(0, len(line)))
            lines[k] = line[:i] + draw(st.text(_CHARS, min_size=0, max_size=4)) + line[i + draw(st.integers(0, 3)):]
        elif op == "duplicate":
            lines.insert(k, line)
        elif op == "delete" and len(lines) > 1:
            del lines[k]
        elif op == "indent":
            lines[k] = " " * draw(st.integers(1, 4)) + line
        elif op == "dedent":
            lines[k] = line.lstrip(" ")
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], line
    encoding = draw(st.sampled_from(["utf-8"] * 6 + ["utf-8-sig", "utf-16", "utf-16-le", "latin-1", "cp1252"]))
    return edition, "\n".join(lines).encode(encoding, "replace")


_WORDS = ["Cook", "Wind Nymph", "Midshipman", "map", "chest", "calm", "stormy", "classic", "income", "sun: gain 3 "
          "doubloons.", "dusk: take a map from today's loot.", "anchor: lose 3 doubloons for each map you hold."]
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-10**8, 10**8),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20), st.sampled_from(_WORDS),
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.text(max_size=8), st.integers(-3, 40)), inner,
                                                 max_size=4)), max_leaves=12)
_CARD_KEYS = ["name", "rank", "text", "note", "examples", "kind", "side", "count", "verified"]


def _dump(draw: st.DrawFn, doc: Any) -> bytes:
    style = draw(st.sampled_from([None, True, False]))
    return yaml.safe_dump(doc, default_flow_style=style, allow_unicode=draw(st.booleans()),
                          sort_keys=False).encode("utf-8")


@st.composite
def _card_documents(draw: st.DrawFn) -> tuple[str, bytes]:
    """A random card-shaped mapping: some of the card keys (and now and then another), random values."""
    keys = draw(st.lists(st.sampled_from([*_CARD_KEYS, "txet", "rank"]), max_size=7))
    doc: dict[str, Any] = {"name": draw(st.sampled_from(["Fuzzy Corsair", "Cook"])), "rank": 41.5,
                           "text": draw(st.sampled_from(_WORDS[-3:]))}
    if draw(st.booleans()):
        doc = {"kind": draw(st.sampled_from(["map", "chest", "goods"])), "side": draw(st.sampled_from(["calm", "x"])),
               "count": draw(st.integers(0, 12)), "text": doc["text"]}
    for key in keys:
        doc[key] = draw(_VALUES)
    return draw(st.sampled_from(EDITIONS)), _dump(draw, doc)


def _card_inputs() -> st.SearchStrategy[tuple[str, tuple[str, bytes]]]:
    """(source, (edition, bytes)) of a card file."""
    return st.one_of(
        _byte_edits(CARDS).map(lambda x: ("byte edits", x)),
        _text_edits(CARDS).map(lambda x: ("text edits", x)),
        _card_documents().map(lambda x: ("random YAML", x)),
        st.sampled_from(HAND_MADE_CARDS).map(lambda x: ("hand-made", x)),
        _byte_edits(HAND_MADE_CARDS).map(lambda x: ("hand-made, edited", x)),
    )


# ---------------------------------------------------------------- card files
def _record(cls: str, source: str, outcome: str) -> None:
    OUTCOMES[(cls, source, outcome)] += 1


@given(_card_inputs())
@_settings("card_check")
def test_fuzzed_card_files_check_cleanly(editions: dict[str, Path], case: tuple[str, tuple[str, bytes]]) -> None:
    """``check_files`` on a fuzzed card file returns only DataErrors naming the file, within the time limit."""
    source, (edition, body) = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "card.yaml"
        path.write_bytes(body)
        with time_limit():
            errors = check_files([path], editions[edition])
        for err in errors:
            assert isinstance(err, lt.DataError) and err.path == str(path)
            assert str(err)
    _record("card", source, "refused" if errors else "accepted")


@given(_card_inputs())
@_settings("card_load")
def test_fuzzed_card_files_load_cleanly(editions: dict[str, Path], case: tuple[str, tuple[str, bytes]]) -> None:
    """``load_rules`` with a fuzzed card file as a mod loads or raises DataError, within the time limit."""
    source, (edition, body) = case
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "card.yaml").write_bytes(body)
        outcome = "accepted"
        with time_limit():
            try:
                lt.load_rules(editions[edition], extra_cards=[folder])
            except lt.DataError as err:
                assert str(err)
                outcome = "refused"
    _record("card", source, outcome)


# ---------------------------------------------------------------- board files
@st.composite
def _board_documents(draw: st.DrawFn, boards: dict[str, str]) -> tuple[str, bytes]:
    """A mini edition's board with a few keys (top-level or one down) set to random values, removed or added."""
    edition = draw(st.sampled_from(EDITIONS))
    doc = yaml.safe_load(boards[edition])
    for _ in range(draw(st.integers(1, 4))):
        target = doc
        key = draw(st.sampled_from(sorted(doc)))
        if isinstance(doc[key], dict) and doc[key] and draw(st.booleans()):
            target, key = doc[key], draw(st.sampled_from(sorted(doc[key], key=str)))
        op = draw(st.sampled_from(("set", "set", "delete", "add")))
        if op == "set":
            target[key] = draw(_VALUES)
        elif op == "delete":
            del target[key]
        else:
            target[draw(st.text(min_size=1, max_size=8))] = draw(_VALUES)
    return edition, _dump(draw, doc)


def _board_inputs(boards: dict[str, str]) -> st.SearchStrategy[tuple[str, tuple[str, bytes]]]:
    sources = [(e, text.encode("utf-8")) for e, text in boards.items()]
    hand_made = [(edition, edit(boards[edition])) for edition, edit in BOARD_CASES.values()]
    return st.one_of(
        _byte_edits(sources).map(lambda x: ("byte edits", x)),
        _text_edits(sources).map(lambda x: ("text edits", x)),
        _board_documents(boards).map(lambda x: ("random YAML", x)),
        st.sampled_from(hand_made).map(lambda x: ("hand-made", x)),
        _byte_edits(hand_made).map(lambda x: ("hand-made, edited", x)),
    )


def _board_template(edition: str) -> str:
    """A bundled board's text with placeholders where the mini edition's folders go."""
    text = (_paths.boards_dir() / f"{edition}.yaml").read_text(encoding="utf-8")
    board = yaml.safe_load(text)
    text = text.replace(f"characters: {board['characters']}", "characters: CHARACTERS_DIR")
    return text.replace(f"loot: {board['loot']}", "loot: LOOT_DIR")


def _fill(body: bytes, board: Path) -> bytes:
    """The board text with the mini edition's folders in place of the placeholders."""
    edition = board.parent / board.stem
    return body.replace(b"CHARACTERS_DIR", (edition / "characters").as_posix().encode()).replace(
        b"LOOT_DIR", (edition / "loot").as_posix().encode())


_BOARDS = {e: _board_template(e) for e in EDITIONS}
_STAND_IN = "name: Fuzzy Corsair\nrank: 41.5\ntext: |\n  sun: gain 3 doubloons.\n"


@given(_board_inputs(_BOARDS), st.sampled_from(["load_rules", "check_files"]))
@_settings("board")
def test_fuzzed_board_files_load_cleanly(editions: dict[str, Path], case: tuple[str, tuple[str, bytes]],
                                         how: str) -> None:
    """``load_rules`` (or ``check_files``) of a fuzzed board loads or raises DataError, within the time limit."""
    source, (edition, body) = case
    with tempfile.TemporaryDirectory() as folder:
        board = Path(folder) / "board.yaml"
        board.write_bytes(_fill(body, editions[edition]))
        card = Path(folder) / "card.yaml"
        card.write_text(_STAND_IN, encoding="utf-8")
        outcome = "accepted"
        with time_limit():
            try:
                if how == "load_rules":
                    lt.load_rules(board)
                else:
                    for err in check_files([card], board):
                        assert isinstance(err, lt.DataError)
            except lt.DataError as err:
                assert str(err)
                outcome = "refused"
            except lt.RulesError as err:
                # A bag kind or default_loot side with no loot file is refused by ``_choose_sides`` as a
                # RulesError, without the board's line: the one documented non-DataError left (reported
                # on issue 9); nothing else may escape.
                assert re.fullmatch(r"there is no '.*' side for .*; its sides are .*", str(err), re.S), err
                outcome = "refused (RulesError: no loot file for a bag kind)"
    _record("board", source, outcome)
