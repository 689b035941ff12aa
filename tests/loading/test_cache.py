"""The best-effort cache of read files and parsed card texts: faithful when warm, ignored when unsound."""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

import libertalia as lt
from libertalia.language import ast, lalr, parser
from libertalia.loading import cache, yamlcompose, yamlfile

_MOD = "name: Pirate\nrank: 41\ntext: |\n  sun: gain 2 doubloons.\n  dusk: take a map from today's loot.\n"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache folder, and a fresh in-process memory of parses (as a new process has)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("LIBERTALIA_CACHE_DIR", str(folder))
    _forget_parses(monkeypatch)
    return folder


def _forget_parses(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a new process would not remember: this one's parses."""
    monkeypatch.setattr(parser, "_trees", {})
    monkeypatch.setattr(parser, "_unsaved", {})


@contextmanager
def _from_cache_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Composing YAML or parsing card text fails the test: everything must come from the cache."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("read or parsed although the cache holds it")

    with monkeypatch.context() as m:
        m.setattr(yamlcompose, "compose", refuse)
        m.setattr(lalr, "parse", refuse)
        yield


def _entries(folder: Path) -> list[Path]:
    return sorted(p for p in (folder / "entries").iterdir() if not p.name.startswith("."))


def _shape(value: Any) -> Any:
    """A node tree as plain data with every field, positions included (``==`` on nodes ignores them)."""
    if ast.is_node(value):
        return (type(value).__name__, *((f.name, _shape(getattr(value, f.name))) for f in ast.fields(value)))
    if isinstance(value, tuple):
        return tuple(_shape(v) for v in value)
    return value


def _summary(rules: lt.Rules) -> Any:
    """All that loading decides, with exact positions: equal summaries mean equal loads."""
    return (rules, rules.fingerprint, rules.identity,
            [(c.name, c.path, _shape(c.abilities), [x.text for x in c.compiled]) for c in rules.characters],
            [(s.kind, s.side, s.path, _shape(s.abilities), [x.text for x in s.compiled]) for s in rules.loot])


def _mod(tmp_path: Path, body: str = _MOD) -> Path:
    folder = tmp_path / "mod"
    folder.mkdir(exist_ok=True)
    (folder / "pirate.yaml").write_text(body, encoding="utf-8")
    return folder


def test_a_warm_load_equals_a_cold_one(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules from the cache equal rules read without one, down to every position and the fingerprint."""
    mod = _mod(tmp_path)
    monkeypatch.setenv("LIBERTALIA_CACHE_DIR", "off")
    cold = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    monkeypatch.setenv("LIBERTALIA_CACHE_DIR", str(cache_dir))
    _forget_parses(monkeypatch)
    first = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    assert _entries(cache_dir)
    _forget_parses(monkeypatch)
    warm = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    assert cold == first == warm


def test_a_warm_load_neither_composes_nor_parses(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a load has filled the cache, the next one reads every file and text from it."""
    expected = _summary(lt.load_rules("classic"))
    _forget_parses(monkeypatch)
    with _from_cache_only(monkeypatch):
        assert _summary(lt.load_rules("classic")) == expected


def test_a_warm_process_imports_neither_yaml_nor_lark(cache_dir: Path) -> None:
    """A new process with a warm cache loads rules without importing PyYAML or lark (what makes it quick)."""
    code = ("import sys, libertalia as lt; lt.load_rules('galecrest'); "
            "print(sorted(m for m in ('yaml', 'lark') if m in sys.modules))")
    env = {**os.environ, "LIBERTALIA_CACHE_DIR": str(cache_dir)}
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    assert runs[0].stdout.strip() == "['lark', 'yaml']"  # the first process reads and parses
    assert runs[1].stdout.strip() == "[]"


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "garbage", "swap"])
def test_a_damaged_entry_is_ignored_and_replaced(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 damage: str) -> None:
    """An entry with a changed byte, cut short, empty, foreign or filed under another key is not trusted."""
    mod = _mod(tmp_path)
    expected = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    entries = _entries(cache_dir)
    for i, path in enumerate(entries):
        data = path.read_bytes()
        if damage == "flip":
            data = data[:-5] + bytes([data[-5] ^ 0x01]) + data[-4:]
        elif damage == "truncate":
            data = data[:len(data) // 2]
        elif damage == "empty":
            data = b""
        elif damage == "garbage":
            data = cache.FORMAT + os.urandom(80)
        else:  # every entry holds its neighbour's (well-formed) content
            data = entries[(i + 1) % len(entries)].read_bytes()
        path.write_bytes(data)
    _forget_parses(monkeypatch)
    assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected
    _forget_parses(monkeypatch)
    with _from_cache_only(monkeypatch):  # the damaged entries were written anew, sound
        assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected


def test_an_entry_of_the_wrong_type_is_ignored(cache_dir: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A sound entry whose value is not what its reader stores (a tree, a text and tree) is not used."""
    mod = _mod(tmp_path)
    expected = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    for path in _entries(cache_dir):
        key_digest = path.read_bytes()[len(cache.FORMAT):len(cache.FORMAT) + 32]
        body = pickle.dumps({"not": "a tree"})
        path.write_bytes(cache.FORMAT + key_digest + hashlib.sha256(body).digest() + body)
    _forget_parses(monkeypatch)
    assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected


def test_a_changed_file_is_read_again(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries are keyed by content: an edited card (text, or only its lines' places) is read and parsed anew."""
    mod = _mod(tmp_path)
    before = next(c for c in lt.load_rules("galecrest", extra_cards=[mod]).characters if c.name == "Pirate")
    _mod(tmp_path, _MOD.replace("gain 2", "gain 3"))
    _forget_parses(monkeypatch)
    changed = next(c for c in lt.load_rules("galecrest", extra_cards=[mod]).characters if c.name == "Pirate")
    assert changed.text != before.text and changed.abilities != before.abilities
    _mod(tmp_path, "# a comment line moves everything down\n" + _MOD.replace("gain 2", "gain 3"))
    _forget_parses(monkeypatch)
    moved = next(c for c in lt.load_rules("galecrest", extra_cards=[mod]).characters if c.name == "Pirate")
    assert moved.abilities == changed.abilities
    assert [a.line for a in moved.abilities] == [a.line + 1 for a in changed.abilities]


def test_errors_are_the_same_from_a_warm_cache(cache_dir: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that reads and parses but fails a later check gives the same message, position and quote when warm."""
    mod = _mod(tmp_path, _MOD.replace("sun: gain 2 doubloons.", "sun: discard a Wind Nimph in your ship."))
    messages = []
    for _ in range(2):
        _forget_parses(monkeypatch)
        with pytest.raises(lt.CardError) as info:
            lt.load_rules("galecrest", extra_cards=[mod])
        messages.append((str(info.value), info.value.line, info.value.column))
    assert messages[0] == messages[1]
    assert "Wind Nimph" in messages[0][0] and messages[0][1] == 4


def test_a_file_that_does_not_read_is_never_stored(cache_dir: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad YAML or bad card text is reported from a real reading every time, at its exact place."""
    for body, line in (("name: Pirate\nrank: [41\n", 3), (_MOD.replace("gain 2", "gain two"), 4)):
        mod = _mod(tmp_path, body)
        errors = []
        for _ in range(2):
            _forget_parses(monkeypatch)
            with pytest.raises(lt.DataError) as info:
                lt.load_rules("galecrest", extra_cards=[mod])
            errors.append(str(info.value))
        assert errors[0] == errors[1] and f"pirate.yaml:{line}:" in errors[0]


def test_no_cache_folder_means_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Caching off, or a cache path that cannot be a folder, loads the same rules and writes nothing."""
    expected = _summary(lt.load_rules("classic"))
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    for setting in ("off", str(blocker / "cache")):
        monkeypatch.setenv("LIBERTALIA_CACHE_DIR", setting)
        _forget_parses(monkeypatch)
        assert _summary(lt.load_rules("classic")) == expected
    assert blocker.read_text() == "not a folder" and sorted(tmp_path.iterdir()) == [blocker]


def test_a_read_only_cache_folder_is_read_but_not_written(cache_dir: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder that cannot be written still serves what it holds, and a load that needs more still works."""
    expected_classic = _summary(lt.load_rules("classic"))
    before = {p: p.read_bytes() for p in _entries(cache_dir)}
    mod = _mod(tmp_path)
    _forget_parses(monkeypatch)
    expected_mod = _summary(lt.load_rules("galecrest", extra_cards=[mod]))

    real_open = open

    def read_only_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(c in mode for c in "wax+"):  # root ignores permissions: refuse writes as the file system would
            raise PermissionError(30, "Read-only file system", str(file))
        return real_open(file, mode, *args, **kwargs)

    for path in _entries(cache_dir):
        if path not in before:
            path.unlink()
    os.chmod(cache_dir / "entries", 0o555)
    try:
        monkeypatch.setattr(cache, "open", read_only_open, raising=False)
        _forget_parses(monkeypatch)
        with _from_cache_only(monkeypatch):  # what the folder holds is used
            assert _summary(lt.load_rules("classic")) == expected_classic
        _forget_parses(monkeypatch)
        assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected_mod  # the rest is read
    finally:
        os.chmod(cache_dir / "entries", 0o755)
    assert {p: p.read_bytes() for p in _entries(cache_dir)} == before


@pytest.mark.parametrize("damage", ["flip", "truncate", "key"])
def test_damage_is_detected_before_unpickling(cache_dir: Path, damage: str) -> None:
    """A changed byte anywhere, a cut, or an entry filed under another key reads as no entry at all."""
    value = {"name": "Pirate", "text": "sun: gain 2 doubloons. " * 20}
    assert cache.save("test", b"key", value) and cache.save("test", b"other key", {"name": "Cook"})
    path = cache_dir / "entries" / cache._entry("test", b"key")[0]
    data = path.read_bytes()
    middle = len(data) - 200  # inside the pickled text
    if damage == "flip":
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0x02]) + data[middle + 1:])
    elif damage == "truncate":
        path.write_bytes(data[:-1])
    else:
        path.write_bytes((cache_dir / "entries" / cache._entry("test", b"other key")[0]).read_bytes())
    assert cache.load("test", b"key") is None
    assert cache.load("test", b"other key") == {"name": "Cook"}


def test_prune_keeps_the_newest_entries(cache_dir: Path) -> None:
    """Past the limit, the oldest-written entries go, down to three quarters of the limit."""
    for i in range(12):
        assert cache.save("test", f"key {i}".encode(), i)
        path = cache_dir / "entries" / cache._entry("test", f"key {i}".encode())[0]
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
    cache.prune(limit=8)
    assert [cache.load("test", f"key {i}".encode()) for i in range(12)] == [None] * 6 + list(range(6, 12))


_EXOTIC = """\
base: &base {rank: 3, tags: [a, b]}
card:
  <<: *base
  name: Pirate
  when: 2024-05-01
  blob: !!binary aGVsbG8=
  kinds: !!set {map: null, hook: null}
  order: !!omap [{first: 1}, {second: [2, 3]}]
  again: *base
text: |
  sun: gain 2 doubloons.
"""


def _fields(field: yamlfile.Field) -> Any:
    """Every value of a document with its position and style, as the loaders see them."""
    node = field.node
    if node.kind == "mapping":
        return (field.line, field.column, [(k.line, k.column, k.node.text, _fields(v)) for k, v in field.keyed_items()])
    if node.kind == "sequence":
        return (field.line, field.column, [_fields(v) for v in field.as_list()])
    return (field.line, field.column, node.style, field.value, field.text_origin())


def test_a_stored_document_reads_as_the_file_does(cache_dir: Path, tmp_path: Path) -> None:
    """Values (merges, aliases, sets, ordered maps, dates, bytes), positions and styles are the same when warm."""
    path = tmp_path / "exotic.yaml"
    path.write_text(_EXOTIC, encoding="utf-8")
    cold = yamlfile.read(path)
    assert cold.root.value == yaml.safe_load(_EXOTIC)
    warm = yamlfile.read(path)
    assert _entries(cache_dir) and warm.root.node is not cold.root.node
    assert warm.root.value == cold.root.value and _fields(warm.root) == _fields(cold.root)
    assert warm.raw == cold.raw == path.read_bytes() and warm.lines == cold.lines


def test_values_are_fresh_copies(cache_dir: Path, tmp_path: Path) -> None:
    """Changing a value a field gave (an example's setup, say) changes nothing the next reader sees."""
    path = tmp_path / "exotic.yaml"
    path.write_text(_EXOTIC, encoding="utf-8")
    for doc in (yamlfile.read(path), yamlfile.read(path)):
        card = dict(doc.root.items())["card"]
        value = card.value
        value["tags"].append("c")
        value["name"] = "Cook"
        assert card.value == yaml.safe_load(_EXOTIC)["card"]
        whole = doc.root.value
        assert whole["base"] is whole["card"]["again"]  # an alias is one value, as safe_load makes it
