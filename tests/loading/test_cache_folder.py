"""The cache owns one tagged folder, deletes only what it wrote, and checks each entry against its input.

Issue 33, items 2 and 6: ``LIBERTALIA_CACHE_DIR`` pointed at a folder of the user's deleted
files in it (an ``entries/`` folder and all it held, sub-folders, files named like the
cache's own), and a stored YAML document whose body was swapped for another file's was
used as it stood.  The rules pinned here are in the docstring of ``loading.cache``.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import libertalia as lt
from libertalia.loading import cache, yamlcompose, yamlfile
from libertalia.loading.codec import Codec

_REPO = Path(__file__).resolve().parents[2]
_PLAIN = Codec(())
_HEX = "0123456789abcdef" * 3


@pytest.fixture
def chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder of the user's, already holding files, named as the cache folder; a new process's cache state."""
    folder = tmp_path / "my files"
    folder.mkdir()
    monkeypatch.setenv("LIBERTALIA_CACHE_DIR", str(folder))
    monkeypatch.setattr(cache, "_opened", None)
    monkeypatch.setattr(cache, "_pruned", False)
    yield folder


def _snapshot(folder: Path, *, skip: str = cache.FOLDER) -> dict[str, tuple[int, bytes | str | None]]:
    """Every path under ``folder`` but the cache's own, with its mode and its bytes (a link: its target)."""
    out: dict[str, tuple[int, bytes | str | None]] = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if relative.parts[0] == skip:
            continue
        st = path.lstat()
        content = (os.readlink(path) if path.is_symlink() else path.read_bytes() if stat.S_ISREG(st.st_mode)
                   else None)
        out[str(relative)] = (st.st_mode, content)
    return out


def _mod(tmp_path: Path, name: str, gain: int) -> Path:
    folder = tmp_path / f"mod {name}"
    folder.mkdir()
    path = folder / f"{name.lower()}.yaml"
    path.write_text(f"name: {name}\nrank: 41\ntext: |\n  sun: gain {gain} doubloons.\n", encoding="utf-8")
    return path


def _entry_path(chosen: Path, kind: str, full_key: bytes | None) -> Path:
    assert full_key is not None
    return chosen / cache.FOLDER / cache._entry(kind, full_key)[0]


def _yaml_key(path: Path) -> bytes | None:
    """The key ``yamlfile.read`` files a document of ``path`` under."""
    return cache.key(b"\n" + path.read_bytes(), *yamlfile._SOURCES)


def test_the_cache_lives_in_a_tagged_private_folder_of_its_own(chosen: Path) -> None:
    """Item 2: everything the cache writes is in ``libertalia-cache``, 0700, marked by a standard CACHEDIR.TAG, 0600."""
    lt.load_rules("galecrest")
    assert [p.name for p in chosen.iterdir()] == [cache.FOLDER]
    own = chosen / cache.FOLDER
    tag = (own / "CACHEDIR.TAG").read_bytes()
    assert tag.startswith(b"Signature: 8a477f597d28d172789f06886806bc55\n")
    assert stat.S_IMODE(own.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in own.iterdir()} == {0o600} and len(list(own.iterdir())) > 50


def test_nothing_of_the_users_folder_is_touched(chosen: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 2: a group-writable entries/ with a sub-folder, files named like entries or old caches' files: all stay."""
    entries = chosen / "entries"
    (entries / "drafts").mkdir(parents=True)
    (entries / "drafts" / "ship.txt").write_text("my notes")
    (entries / f"yaml-{_HEX[:40]}").write_text("not an entry, though named like one")
    entries.chmod(0o775)
    for name in (f"tree-{_HEX[:40]}", f".tree-{_HEX[:40]}.12.34.abcdef01.tmp", "parser-mine.lark",
                 "trees-mine.pickle", ".discarded-1-ab", f".{cache.FOLDER}.1.ab.tmp"):
        (chosen / name).write_bytes(cache.FORMAT + b"the user's own")
    (chosen / "link").symlink_to(entries)
    os.utime(chosen / f".tree-{_HEX[:40]}.12.34.abcdef01.tmp", (0, 0))  # as old as a dead writer's
    before = _snapshot(chosen)
    expected = lt.load_rules("galecrest").fingerprint
    monkeypatch.setattr(cache, "_opened", None)
    cache.prune(limit=1)  # every entry over the limit: the most a run ever removes
    assert lt.load_rules("galecrest").fingerprint == expected
    assert _snapshot(chosen) == before


@pytest.mark.parametrize("found", ["a folder without the tag", "a file", "a link to a folder"])
def test_something_else_in_the_caches_place_is_set_aside_and_named(chosen: Path, tmp_path: Path, found: str) -> None:
    """Item 2: what holds the cache folder's name but is not the cache's is moved beside it, whole, and named."""
    place = chosen / cache.FOLDER
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / f"yaml-{_HEX[:40]}").write_text("kept")
    if found == "a folder without the tag":
        (place / "sub").mkdir(parents=True)
        (place / "sub" / "keep.txt").write_text("kept")
        (place / f"parser-{_HEX[:40]}").write_bytes(cache.FORMAT)
    elif found == "a file":
        place.write_text("kept")
    else:
        place.symlink_to(elsewhere)
    before = _snapshot(chosen, skip="")
    outside = _snapshot(elsewhere, skip="")
    with pytest.warns(lt.CacheWarning) as caught:
        lt.load_rules("galecrest")
    [aside] = chosen.glob(f"{cache.FOLDER}.set-aside-*")
    assert any(str(place) in str(w.message) and str(aside) in str(w.message) for w in caught)
    moved = {k.replace(aside.name, cache.FOLDER, 1): v for k, v in _snapshot(chosen, skip=cache.FOLDER).items()}
    assert moved == before and _snapshot(elsewhere, skip="") == outside
    assert (place / "CACHEDIR.TAG").is_file() and len(list(place.iterdir())) > 50


def test_a_folder_left_half_made_by_a_dead_process_is_cleared_and_nothing_like_it(chosen: Path) -> None:
    """Item 2: a stale making folder holding only the cache's own tag goes; one holding anything else, or new, stays."""
    dead, busy, alive = (chosen / f".{cache.FOLDER}.{n}.abcdef0{n}.tmp" for n in (1, 2, 3))
    for folder in (dead, busy, alive):
        folder.mkdir(mode=0o700)
        (folder / "CACHEDIR.TAG").write_bytes(cache.TAG_TEXT)
    (busy / "mine.txt").write_text("kept")
    for folder in (dead, busy):
        os.utime(folder, (1, 1))
    before = _snapshot(chosen, skip=dead.name)
    assert cache.save("test", b"key", 1, _PLAIN)
    after = {k: v for k, v in _snapshot(chosen, skip=dead.name).items() if not k.startswith(cache.FOLDER)}
    assert not dead.exists() and after == before and (chosen / cache.FOLDER / "CACHEDIR.TAG").is_file()


def test_a_warning_shows_a_path_that_holds_control_characters_escaped(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 2 with item 1: the path a cache warning names passes through ``visible``: no raw ESC or BEL."""
    folder = tmp_path / "odd\x1b]52;c;aGk=\x07name"
    (folder / cache.FOLDER).mkdir(parents=True)
    monkeypatch.setenv("LIBERTALIA_CACHE_DIR", str(folder))
    monkeypatch.setattr(cache, "_opened", None)
    with pytest.warns(lt.CacheWarning) as caught:
        assert cache.save("test", b"key", 1, _PLAIN)
    [message] = [str(w.message) for w in caught]
    assert "\x1b" not in message and "\x07" not in message and "odd\\x1b]52;c;aGk=\\x07name" in message


def test_what_the_cache_did_not_write_in_its_folder_is_set_aside_never_deleted(chosen: Path) -> None:
    """Item 2: a sub-folder, a link, a foreign name, a stale temporary file and an old entry not of the cache's
    own bytes, each moved to set-aside/ and named; the cache's own old entries are what prune deletes."""
    assert cache.save("test", b"key 0", 0, _PLAIN)
    own = chosen / cache.FOLDER
    planted = {"sub": None, "notes.txt": b"mine", "link": None, f".test-{_HEX[:40]}.9.9.abcdef01.tmp": b"half mine",
               f"test-{_HEX[:40]}": b"named like an entry, but mine"}
    (own / "sub").mkdir()
    (own / "sub" / "deep.txt").write_text("mine too")
    (own / "link").symlink_to(chosen)
    for name, content in planted.items():
        if content is not None:
            (own / name).write_bytes(content)
            (own / name).chmod(0o600)
            os.utime(own / name, (1, 1))  # the oldest of all, and long stale
    for i in range(1, 6):
        assert cache.save("test", f"key {i}".encode(), i, _PLAIN)
        os.utime(_entry_path(chosen, "test", f"key {i}".encode()), (1000 + i, 1000 + i))
    with pytest.warns(lt.CacheWarning) as caught:
        cache.prune(limit=4)
    aside = own / "set-aside"
    moved = {p.name.rsplit(".", 1)[0]: p for p in aside.iterdir()}
    assert set(moved) == set(planted)
    assert all(any(str(own / name) in str(w.message) for w in caught) for name in planted)
    assert (moved["sub"] / "deep.txt").read_text() == "mine too" and moved["link"].is_symlink()
    assert all(moved[n].read_bytes() == c for n, c in planted.items() if c is not None)
    # past the limit the oldest went (the user's file named like an entry among them, set aside): down to 3
    assert [cache.load("test", f"key {i}".encode(), _PLAIN) for i in range(6)] == [0, None, None, None, 4, 5]


def test_an_entry_in_the_way_of_a_write_is_set_aside_not_overwritten(chosen: Path) -> None:
    """Item 2: a file of the user's at an entry's name is moved aside before the entry is written, not replaced."""
    assert cache.save("test", b"other", 0, _PLAIN)
    path = _entry_path(chosen, "test", b"key")
    path.write_bytes(b"the user's")
    path.chmod(0o644)  # readable by others, writable by the user alone: not unsound, only not the cache's
    with pytest.warns(lt.CacheWarning, match="not an entry the cache wrote"):
        assert cache.save("test", b"key", 7, _PLAIN)
    assert cache.load("test", b"key", _PLAIN) == 7
    [moved] = (chosen / cache.FOLDER / "set-aside").iterdir()
    assert moved.read_bytes() == b"the user's"


def _swap(path: Path, other: Path) -> None:
    """Another entry's body under this entry's header, its checksum made anew: a swapped entry."""
    head = path.read_bytes()[:len(cache.FORMAT) + 32]
    body = other.read_bytes()[len(cache.FORMAT) + 64:]
    path.write_bytes(head + hashlib.sha256(body).digest() + body)


def test_a_swapped_document_is_a_miss_set_aside_and_written_anew(chosen: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 6: a stored YAML document is checked against the file's bytes: another file's document is not used."""
    mine, theirs = _mod(tmp_path, "Gunner", 2), _mod(tmp_path, "Smuggler", 9)
    expected = yamlfile.read(mine).root.value
    yamlfile.read(theirs)
    entry = _entry_path(chosen, "yaml", _yaml_key(mine))
    _swap(entry, _entry_path(chosen, "yaml", _yaml_key(theirs)))
    with pytest.warns(lt.CacheWarning, match="written for other input"):
        assert yamlfile.read(mine).root.value == expected
    [moved] = (chosen / cache.FOLDER / "set-aside").iterdir()
    assert moved.name.startswith(entry.name)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("composed although the cache holds the document")

    monkeypatch.setattr(yamlcompose, "compose", refuse)
    with warnings.catch_warnings():
        warnings.simplefilter("error", lt.CacheWarning)
        assert yamlfile.read(mine).root.value == expected  # rewritten, sound, from the cache


def test_a_swapped_parse_gives_the_cards_own_rules(chosen: Path, tmp_path: Path) -> None:
    """Item 6, the same rule for every kind of entry: a card's stored parse swapped for another card's is not used."""
    from libertalia.language import parser

    own = chosen / cache.FOLDER

    def new_trees(*mods: Path) -> tuple[object, list[Path]]:
        before = set(own.iterdir()) if own.exists() else set()
        parser._trees.clear()
        rules = lt.load_rules("galecrest", extra_cards=[m.parent for m in mods])
        abilities = [c.abilities for c in rules.characters if c.path in {str(m) for m in mods}]
        return abilities, sorted(p for p in set(own.iterdir()) - before if p.name.startswith("tree-"))

    mine, theirs = _mod(tmp_path, "Gunner", 2), _mod(tmp_path, "Smuggler", 9)
    new_trees()
    expected, [my_tree] = new_trees(mine)
    _, [their_tree] = new_trees(theirs)
    _swap(my_tree, their_tree)
    with pytest.warns(lt.CacheWarning, match="written for other input"):
        assert new_trees(mine)[0] == expected


_RACE = """
import os, sys, time
from libertalia.loading import cache
from libertalia.loading.codec import Codec
go = sys.argv[1]
while not os.path.exists(go):
    time.sleep(0.001)
plain = Codec(())
for i in range(40):
    key = f"key {i}".encode()
    found = cache.load("test", key, plain)
    assert found in (None, i), found
    if found is None:
        cache.save("test", key, i, plain)
print(sum(cache.load("test", f"key {i}".encode(), plain) == i for i in range(40)))
"""


def test_six_processes_starting_together_make_one_sound_folder(chosen: Path, tmp_path: Path) -> None:
    """Item 2 keeps the race sound: six processes on an empty folder make one tagged folder, and warn of nothing."""
    go = tmp_path / "go"
    env = {**os.environ, "LIBERTALIA_CACHE_DIR": str(chosen),
           "PYTHONPATH": os.pathsep.join(filter(None, (str(_REPO), os.environ.get("PYTHONPATH"))))}
    children = [subprocess.Popen([sys.executable, "-W", "error::libertalia.errors.CacheWarning", "-c", _RACE, str(go)],
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(6)]
    try:
        time.sleep(0.5)
        go.touch()
        outcomes = [child.communicate(timeout=300) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    assert [c.returncode for c in children] == [0] * 6, [err[-1500:] for _, err in outcomes]
    assert [out.strip() for out, _ in outcomes] == ["40"] * 6
    assert [p.name for p in chosen.iterdir()] == [cache.FOLDER]
    assert sorted(p.name for p in (chosen / cache.FOLDER).iterdir() if not p.name.startswith("test-")) == \
        ["CACHEDIR.TAG"]
