"""The best-effort cache of read files, parsed card texts and the parser: faithful when warm, ignored when unsound.

Issue 20, findings 1-3 and 13: the attacks below each failed before the cache stored JSON in
private folders, and pass now: a forged pickle, a swapped entry, an entry that fails the
checker, a FIFO, a symbolic link to /dev/zero, a huge sparse file, a world-writable folder,
a folder of another user's, a umask of 000 and an upgrade of lark, PyYAML or the library.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import pwd
import resource
import shutil
import stat
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

import libertalia as lt
from libertalia.language import lalr, parser
from libertalia.loading import cache, yamlcompose, yamlfile
from libertalia.loading.codec import Codec
from libertalia.syntax import ast

# Most tests here damage or forge entries: the CacheWarning each one set aside gives is expected
# (tests/loading/test_cache_folder.py asserts the warnings themselves).
pytestmark = pytest.mark.filterwarnings("ignore::libertalia.errors.CacheWarning")

_REPO = Path(__file__).resolve().parents[2]
_PLAIN = Codec(())

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
    entries = folder / cache.FOLDER
    return sorted(p for p in entries.iterdir() if cache._ENTRY_NAME.fullmatch(p.name)) if entries.exists() else []


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
        _forge(path, _PLAIN.dumps({"not": "a tree"}))
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


@pytest.mark.filterwarnings("error::libertalia.errors.CacheWarning")
def test_a_sound_entry_for_a_text_the_load_refuses_stays_and_warns_of_nothing(
        cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A modder's unknown card name fails the check of a sound stored tree: the text is at fault, not the
    entry, so nothing is set aside (no warning, no file moved) and the entry serves the next load."""
    text = "sun: discard a Sea Wrraith in your ship."
    mod = _mod(tmp_path, f"name: Pirate\nrank: 41\ntext: |\n  {text}\n")
    parser.parse(text, line=3, column=2, indent=2)  # stored, as `cards check` stores what it parsed
    parser.save_parsed()
    stored = set(_entries(cache_dir))
    for _ in range(3):
        _forget_parses(monkeypatch)
        with pytest.raises(lt.CardError, match="Sea Wrraith"):
            lt.load_rules("galecrest", extra_cards=[mod])
    assert not (cache_dir / cache.FOLDER / cache.ASIDE).exists() and stored <= set(_entries(cache_dir))
    _forget_parses(monkeypatch)
    with _from_cache_only(monkeypatch):
        parser.parse(text, line=3, column=2, indent=2)  # still served by the stored entry


def test_a_file_that_does_not_read_is_never_stored(cache_dir: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad YAML or bad card text is reported from a real reading every time, at its exact place."""
    for body, line in (("name: Pirate\nrank: [41\n", 3), (_MOD.replace("gain 2", "gain many"), 4)):
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

    def read_only(folder: int, name: str) -> int:  # root ignores permissions: refuse as the file system would
        raise PermissionError(30, "Read-only file system", name)

    for path in _entries(cache_dir):
        if path not in before:
            path.unlink()
    os.chmod(cache_dir / cache.FOLDER, 0o555)
    try:
        monkeypatch.setattr(cache, "_create", read_only)
        _forget_parses(monkeypatch)
        with _from_cache_only(monkeypatch):  # what the folder holds is used
            assert _summary(lt.load_rules("classic")) == expected_classic
        _forget_parses(monkeypatch)
        assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected_mod  # the rest is read
    finally:
        os.chmod(cache_dir / cache.FOLDER, 0o700)
    assert {p: p.read_bytes() for p in _entries(cache_dir)} == before


@pytest.mark.parametrize("damage", ["flip", "truncate", "key"])
def test_damage_is_detected_before_decoding(cache_dir: Path, damage: str) -> None:
    """A changed byte anywhere, a cut, or an entry filed under another key reads as no entry at all."""
    value = {"name": "Pirate", "text": "sun: gain 2 doubloons. " * 20}
    assert cache.save("test", b"key", value, _PLAIN) and cache.save("test", b"other key", {"name": "Cook"}, _PLAIN)
    path = cache_dir / cache.FOLDER / cache._entry("test", b"key")[0]
    data = path.read_bytes()
    middle = len(data) - 200  # inside the stored text
    if damage == "flip":
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0x02]) + data[middle + 1:])
    elif damage == "truncate":
        path.write_bytes(data[:-1])
    else:
        path.write_bytes((cache_dir / cache.FOLDER / cache._entry("test", b"other key")[0]).read_bytes())
    assert cache.load("test", b"key", _PLAIN) is None
    assert cache.load("test", b"other key", _PLAIN) == {"name": "Cook"}


def test_prune_keeps_the_newest_entries(cache_dir: Path) -> None:
    """Past the limit, the oldest-written entries go, down to three quarters of the limit."""
    for i in range(12):
        assert cache.save("test", f"key {i}".encode(), i, _PLAIN)
        path = cache_dir / cache.FOLDER / cache._entry("test", f"key {i}".encode())[0]
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
    cache.prune(limit=8)
    assert [cache.load("test", f"key {i}".encode(), _PLAIN) for i in range(12)] == [None] * 6 + list(range(6, 12))


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


# ---------------------------------------------------------------- attacks (issue 20, findings 1-3)
_CORSAIR = _MOD.replace("Pirate", "Corsair").replace("rank: 41", "rank: 42").replace("gain 2", "gain 9")
_HEADER = len(cache.FORMAT) + 2 * 32
_CHILD_SECONDS = 120  # far above any loaded run of a warm load (a second or two): only a hang reaches it
_CHILD_MEMORY = 1 << 30


def _forge(path: Path, payload: bytes) -> None:
    """What anyone who can write an entry can do: any payload, under the entry's own key (twice), checksum and all."""
    head = path.read_bytes()[:len(cache.FORMAT) + 32]
    body = head[len(cache.FORMAT):] + payload
    path.write_bytes(head + hashlib.sha256(body).digest() + body)


def _payload(path: Path) -> bytes:
    """An entry's value as stored, without the key that heads its body."""
    return path.read_bytes()[_HEADER + 32:]


def _new_entries(cache_dir: Path, monkeypatch: pytest.MonkeyPatch, *mods: Path) -> set[Path]:
    """The entries a load of Galecrest with ``mods`` adds to the cache."""
    before = set(_entries(cache_dir))
    _forget_parses(monkeypatch)
    lt.load_rules("galecrest", extra_cards=list(mods))
    return set(_entries(cache_dir)) - before


def _pirate_and_corsair(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """A mod of the Pirate (gains 2), the stored tree of its text and that of the Corsair's (gains 9)."""
    _new_entries(cache_dir, monkeypatch)
    mod = _mod(tmp_path)
    pirate = _new_entries(cache_dir, monkeypatch, mod)
    other = tmp_path / "corsair"
    other.mkdir()
    (other / "corsair.yaml").write_text(_CORSAIR, encoding="utf-8")
    corsair = _new_entries(cache_dir, monkeypatch, other)
    [pirate_tree] = [p for p in pirate if p.name.startswith("tree-")]
    [corsair_tree] = [p for p in corsair if p.name.startswith("tree-")]
    return mod, pirate_tree, corsair_tree


def _pirate(rules: lt.Rules) -> Any:
    return _shape(next(c for c in rules.characters if c.name == "Pirate").abilities)


class _Runs:
    """A pickle that writes a file when loaded: what a forged entry makes an unpickler do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return exec, (f"open({str(self.marker)!r}, 'w').write('ran')",)


def test_a_forged_pickle_is_never_run(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 1: no entry is unpickled, so a pickle that would write a file, filed under every key, never runs."""
    mod = _mod(tmp_path)
    expected = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    marker = tmp_path / "ran"
    for path in _entries(cache_dir):
        _forge(path, pickle.dumps(_Runs(marker)))
    _forget_parses(monkeypatch)
    assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected
    assert not marker.exists()


def test_a_forged_parser_file_is_never_run(cache_dir: Path, tmp_path: Path) -> None:
    """Finding 1: the stored parser is not a pickle either (lark's own ``cache=`` file is not read at all)."""
    lalr.build_parser(cached=True)
    stored = [p for p in cache_dir.rglob("parser-*") if p.is_file()]
    assert stored
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Runs(marker))
    for path in stored:
        if path.parent == cache_dir:  # lark's own cache file: its grammar digest line, then pickles
            path.write_bytes(path.read_bytes().split(b"\n", 1)[0] + b"\n" + payload + payload)
        else:
            _forge(path, payload)
    assert lalr.build_parser(cached=True).parse("sun: gain 1 doubloon.")
    assert not marker.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="making a file of another user's needs root")
def test_a_swapped_entry_of_another_user_is_not_trusted(cache_dir: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 2: another account's entry (the Corsair's tree filed, checksum and all, as the Pirate's) is ignored."""
    mod, pirate_tree, corsair_tree = _pirate_and_corsair(cache_dir, tmp_path, monkeypatch)
    _forget_parses(monkeypatch)
    expected = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    _forge(pirate_tree, _payload(corsair_tree))
    nobody = pwd.getpwnam("nobody")
    os.chown(pirate_tree, nobody.pw_uid, nobody.pw_gid)
    _forget_parses(monkeypatch)
    assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected
    assert not pirate_tree.exists() or pirate_tree.stat().st_uid == os.geteuid()  # replaced by the user's own


def test_an_entry_that_fails_the_checker_is_dropped_and_parsed_again(cache_dir: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 2: a stored tree the checker refuses (an unknown name) neither breaks the load nor stays stored."""
    mod, pirate_tree, _ = _pirate_and_corsair(cache_dir, tmp_path, monkeypatch)
    _forget_parses(monkeypatch)
    expected = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    before = set(_entries(cache_dir))
    _forget_parses(monkeypatch)
    parser.parse("sun: discard a Wind Nimph in your ship.", line=3, column=2, indent=2)
    parser.save_parsed()
    [refused] = set(_entries(cache_dir)) - before
    _forge(pirate_tree, _payload(refused))
    _forget_parses(monkeypatch)
    assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected
    _forget_parses(monkeypatch)
    with _from_cache_only(monkeypatch):  # the refused tree was replaced by the real parse
        assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected


def _child_load(cache_dir: Path) -> str:
    """The fingerprint a fresh process loads Galecrest with, with a memory limit; a hang fails the test."""
    code = "import libertalia as lt; print(lt.load_rules('galecrest').fingerprint)"
    env = {**os.environ, "LIBERTALIA_CACHE_DIR": str(cache_dir),
           "PYTHONPATH": os.pathsep.join(filter(None, (str(_REPO), os.environ.get("PYTHONPATH"))))}

    def limit_memory() -> None:  # what reading /dev/zero or a sparse file whole runs into
        resource.setrlimit(resource.RLIMIT_AS, (_CHILD_MEMORY, _CHILD_MEMORY))

    try:
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                             timeout=_CHILD_SECONDS, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"load_rules did not finish within {_CHILD_SECONDS} s: it hangs on the cache")
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.strip()


@pytest.mark.parametrize("attack", ["fifo", "dev zero", "sparse"])
def test_entries_that_are_not_small_regular_files_are_not_read(cache_dir: Path, attack: str) -> None:
    """Finding 3: a FIFO (blocks), a link to /dev/zero or a 16 GB sparse file (endless) in place of each entry."""
    expected = lt.load_rules("galecrest").fingerprint
    for path in _entries(cache_dir):
        path.unlink()
        if attack == "fifo":
            os.mkfifo(path, 0o600)
        elif attack == "dev zero":
            path.symlink_to("/dev/zero")
        else:
            with open(path, "wb") as fh:
                fh.truncate(16 << 30)
            path.chmod(0o600)
    assert _child_load(cache_dir) == expected
    assert all(p.is_file() and not p.is_symlink() and p.stat().st_size < cache.MAX_BYTES
               for p in _entries(cache_dir))  # each was replaced by a real entry


def test_a_world_writable_folder_is_set_aside(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 1: a cache folder and files anyone may write (as umask 000 made them) are not trusted: set aside."""
    mod, pirate_tree, corsair_tree = _pirate_and_corsair(cache_dir, tmp_path, monkeypatch)
    _forget_parses(monkeypatch)
    expected = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    _forge(pirate_tree, _payload(corsair_tree))  # as another user could have, in place
    for path in [cache_dir, *cache_dir.rglob("*")]:
        path.chmod(0o777 if path.is_dir() else 0o666)
    before = {p.relative_to(cache_dir / cache.FOLDER): p.read_bytes() for p in (cache_dir / cache.FOLDER).rglob("*")
              if p.is_file()}
    monkeypatch.setattr(cache, "_opened", None)  # a new process
    _forget_parses(monkeypatch)
    with pytest.warns(lt.CacheWarning, match="others may write it"):
        assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected
    assert stat.S_IMODE((cache_dir / cache.FOLDER).stat().st_mode) == 0o700
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o777  # the folder the user chose is the user's: unchanged
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in _entries(cache_dir))
    [aside] = cache_dir.glob(f"{cache.FOLDER}.set-aside-*")
    assert {p.relative_to(aside): p.read_bytes() for p in aside.rglob("*") if p.is_file()} == before


@pytest.mark.skipif(os.geteuid() != 0, reason="making a folder of another user's needs root")
@pytest.mark.parametrize("owned", ["the chosen folder", "the cache's folder"])
def test_a_folder_of_another_user_is_not_used(cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              owned: str) -> None:
    """Finding 1: entries in a folder of another account's are not read (and nothing of theirs is changed)."""
    mod, pirate_tree, corsair_tree = _pirate_and_corsair(cache_dir, tmp_path, monkeypatch)
    _forget_parses(monkeypatch)
    expected = _summary(lt.load_rules("galecrest", extra_cards=[mod]))
    _forge(pirate_tree, _payload(corsair_tree))
    nobody = pwd.getpwnam("nobody")
    theirs = cache_dir if owned == "the chosen folder" else cache_dir / cache.FOLDER
    for path in [theirs, *theirs.rglob("*")]:
        os.chown(path, nobody.pw_uid, nobody.pw_gid)
    before = {p.relative_to(theirs): p.read_bytes() for p in theirs.rglob("*") if p.is_file()}
    monkeypatch.setattr(cache, "_opened", None)  # a new process
    _forget_parses(monkeypatch)
    with warnings.catch_warnings(record=True):
        assert _summary(lt.load_rules("galecrest", extra_cards=[mod])) == expected
    if owned == "the chosen folder":
        assert {p.relative_to(theirs): p.read_bytes() for p in theirs.rglob("*") if p.is_file()} == before
    else:  # set aside beside a new folder of the user's
        [aside] = cache_dir.glob(f"{cache.FOLDER}.set-aside-*")
        assert {p.relative_to(aside): p.read_bytes() for p in aside.rglob("*") if p.is_file()} == before
        assert (cache_dir / cache.FOLDER).stat().st_uid == os.geteuid()


def test_folders_and_files_are_private_whatever_the_umask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 1: under umask 000 the folders made are still 0700 and the entries 0600 (the parser's too)."""
    top = tmp_path / "home"
    folder = top / "cache" / "libertalia"
    monkeypatch.setenv("LIBERTALIA_CACHE_DIR", str(folder))
    _forget_parses(monkeypatch)
    previous = os.umask(0)
    try:
        lt.load_rules("galecrest", extra_cards=[_mod(tmp_path)])
        lalr.build_parser(cached=True)
    finally:
        os.umask(previous)
    made = [top, *top.rglob("*")]
    assert len([p for p in made if p.is_file()]) > 50
    assert {oct(stat.S_IMODE(p.stat().st_mode)) for p in made if p.is_dir()} == {"0o700"}
    assert {oct(stat.S_IMODE(p.stat().st_mode)) for p in made if p.is_file()} == {"0o600"}


# ---------------------------------------------------------------- versions (issue 20, finding 13)
def test_the_library_version_is_pyprojects() -> None:
    """The version has one source, pyproject.toml (through the package metadata), and no copy in the code."""
    import tomllib

    from libertalia import saves

    version = tomllib.loads((_REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert lt.__version__ == saves.library_version() == version
    assert "__version__ = " not in (_REPO / "libertalia" / "__init__.py").read_text(encoding="utf-8")


def _imports_after_load(cache_dir: Path, path: list[Path], cwd: Path) -> str:
    code = ("import sys, libertalia as lt; lt.load_rules('galecrest'); "
            "print(sorted(m for m in ('yaml', 'lark') if m in sys.modules))")
    env = {**os.environ, "LIBERTALIA_CACHE_DIR": str(cache_dir), "PYTHONPATH": os.pathsep.join(map(str, path))}
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True,
                          check=True).stdout.strip()


def _upgraded(package: str, where: Path) -> None:
    """A copy of an installed package whose metadata gives another version: what an upgrade looks like."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin).parent
    shutil.copytree(source, where / package, ignore=shutil.ignore_patterns("__pycache__"))
    [info] = [p for p in source.parent.glob("*.dist-info")
              if p.name.lower().startswith({"yaml": "pyyaml-", "lark": "lark-"}[package])]
    name, _, version = info.name.removesuffix(".dist-info").rpartition("-")
    copy = where / f"{name}-99.0.dist-info"
    copy.mkdir()
    metadata = (info / "METADATA").read_text(encoding="utf-8")
    line = f"\nVersion: {version}\n"
    assert line in metadata
    (copy / "METADATA").write_text(metadata.replace(line, "\nVersion: 99.0\n"), encoding="utf-8")


@pytest.mark.parametrize("upgrade", ["lark", "PyYAML", "libertalia"])
def test_an_upgrade_makes_every_entry_stale(tmp_path: Path, upgrade: str) -> None:
    """Finding 13: after an upgrade of lark, PyYAML or this library, a warm cache's trees are parsed again."""
    warm = tmp_path / "warm"
    assert _imports_after_load(warm, [_REPO], _REPO) == "['lark', 'yaml']"
    assert _imports_after_load(warm, [_REPO], _REPO) == "[]"
    cache_dir = tmp_path / "cache"
    shutil.copytree(warm, cache_dir)
    if upgrade == "libertalia":
        release = tmp_path / "release"
        for part in ("libertalia", "grammar", "cards", "boards"):
            shutil.copytree(_REPO / part, release / part, ignore=shutil.ignore_patterns("__pycache__"))
        text = (_REPO / "pyproject.toml").read_text(encoding="utf-8")
        (release / "pyproject.toml").write_text(text.replace(f'version = "{lt.__version__}"', 'version = "99.0"', 1),
                                                encoding="utf-8")
        path, cwd = [release], release
    else:
        site = tmp_path / "site"
        _upgraded({"lark": "lark", "PyYAML": "yaml"}[upgrade], site)
        path, cwd = [site, _REPO], _REPO
    assert _imports_after_load(cache_dir, path, cwd) == "['lark', 'yaml']"
    assert _imports_after_load(cache_dir, path, cwd) == "[]"  # and the new entries serve the next start


def test_a_stored_tree_depends_on_every_module_that_reads_text() -> None:
    """A stored parse is keyed by the grammar and every module imported while parsing, so editing any
    paraphrase rule (the printed wordings, the normaliser, the lexer) makes every stored tree stale."""
    import importlib
    import inspect

    sources = set(parser._tree_sources())
    lalr_module = importlib.import_module("libertalia.language.lalr")
    shaping = {name for name, value in vars(lalr_module).items() if inspect.ismodule(value)}
    for name in ("printed", "normalise", "meaning", "lexer"):
        module = importlib.import_module(f"libertalia.language.{name}")
        assert Path(inspect.getfile(module)) in sources, name
    for name in shaping:
        module = getattr(lalr_module, name)
        if module.__name__.startswith(("libertalia.language", "libertalia.syntax", "libertalia.suggest")):
            assert Path(inspect.getfile(module)) in sources, module.__name__
