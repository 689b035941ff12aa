"""``load_rules``: board and card files to checked, compiled ``Rules``.

All file reading happens here, once per call; the game loop never touches
the disk or the parser.
"""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import attrs

from .. import _args, _paths
from ..engine import rng
from ..engine.specs import BoardSpec, CharacterSpec, Compiled, LootSpec, NeutralSpec, Rules
from ..errors import CardError, DataError, DataErrors, InertCardWarning, RulesError, UnverifiedLootWarning
from ..language import checker, loops
from ..language.compile import compile_ability
from ..language.normalise import once_for_own_kind, own_token, singular_kinds, worths
from ..language.parser import parse_checked, save_parsed
from ..language.query import extra_counts, kinds_scored_in_sets
from ..suggest import did_you_mean
from ..syntax import ast
from . import names as card_names
from .examplefile import read_examples
from .solo import solo_spec
from .yamlfile import Document, Field, read

LootOption = str | Mapping[str, str] | None

_BOARD_KEYS = {
    "edition": True, "title": True, "players": True, "voyages": True, "deal": True,
    "reputation": False, "bag": True, "loot_per_day": False, "island_ties": True,
    "winner_ties": True, "leftover_loot": True, "start_doubloons": True,
    "characters": True, "loot": True, "default_loot": True, "neutrals": False,
    "tie_breakers": False, "voyage_end": False, "solo": False, "examples": False,
}
_CARD_KEYS = {"name": True, "rank": True, "text": True, "tie_breakers": False, "note": False, "examples": False}
_LOOT_KEYS = {"kind": True, "side": True, "count": True, "text": True, "verified": False, "note": False,
              "examples": False}
BOARD_CHOICES: dict[str, tuple[str, ...]] = {
    "island_ties": ("reputation", "tie_breakers"), "winner_ties": ("reputation", "shared"),
    "leftover_loot": ("bag", "aside"), "voyage_end.ship": ("graveyard", "removed"),
    "voyage_end.graveyard": ("keep", "removed"), "voyage_end.anchor": ("netted", "characters_then_loot"),
}
"""The words a board setting may take, by its key (dotted under its section): the loader's and ``cards mutate``'s."""
MAX_NUMBER = 999_999
"""The largest count, size or rank a board or card file may give (6 digits, like numbers in card text)."""
MAX_TEXT_DIGITS = 6
"""The most digits a number in card text may have."""


def load_rules(
    edition: str | Path = "galecrest",
    *,
    loot: LootOption = None,
    seed: int | None = None,
    extra_cards: str | Path | Iterable[str | Path] = (),
) -> Rules:
    """Load an edition (a bundled name or a board YAML path) with its options.

    ``loot`` picks the loot sides: a side name for every kind, a mapping of
    kind to side (kinds not named use the board's default side), or
    ``"uncharted"``: a calm or stormy side per kind, drawn for each game from
    the game's own seed (``new_game`` shows them), or once here from ``seed``
    if one is given.  ``extra_cards`` are files or folders whose characters
    and loot add to or replace the edition's: a mod needs nothing else (one
    path, or a list of them).  Edition, side and kind names are matched
    without regard to case: ``"Classic"`` and ``loot="Stormy"`` work.

    An argument of the wrong type raises ``TypeError`` naming it; a seed outside
    ``[0, 2**64)`` raises ``RulesError``.
    """
    extra_cards = _check_arguments(edition, loot, seed, extra_cards)
    edition = _edition_name(edition)
    board_path = _board_path(edition)
    board, board_fields, board_files = _load_board(board_path)
    cards_root = _paths.cards_dir()
    bundled_files = _distinct([*_yaml_files(cards_root / board.characters_dir),
                               *_yaml_files(cards_root / board.loot_dir)])
    extra_files = _distinct([f for p in extra_cards for f in _yaml_files(Path(p))])

    char_docs, loot_docs = _classify([read(path, skip="examples") for path in bundled_files],
                                     [read(path, skip="examples") for path in extra_files])

    card_names.check(card_names.names_in(char_docs.values(), board_fields))  # no key characters, no look-alikes
    neutrals = board.neutrals
    names = frozenset(char_docs) | {n.name for n in neutrals}
    kinds = frozenset(k for k, _ in board.bag)
    vocab = checker.Vocabulary(names, kinds, bool(board.track_income), len(board.track_income))

    _check_board_loot_files(board, board_fields, set(loot_docs))
    loot = _loot_names(loot, [k for k, _ in board.bag], set(loot_docs))
    per_game = loot == "uncharted" and seed is None
    sides = _choose_sides(board, loot, 0 if seed is None else seed, set(loot_docs))
    if per_game:
        sides = {k: board.default_loot if (k, board.default_loot) in loot_docs else side for k, side in sides.items()}
        uncharted_sides = {k: sorted(sd for kk, sd in loot_docs if kk == k and sd in _UNCHARTED_SIDES)
                           for k, _ in board.bag}
    else:
        uncharted_sides = {}
    characters = sorted((_character(f, doc, vocab) for f, doc in char_docs.values()), key=lambda c: c.rank)
    board = _with_card_tie_breakers(board, board_fields, char_docs.values(), {str(f) for f in extra_files})
    _check_board_with_cards(board, board_fields, characters)
    characters.extend(_neutral_card(n) for n in neutrals)
    loot_specs = []
    for kind, count in board.bag:
        field, doc = loot_docs[(kind, sides[kind])]
        spec = _loot(field, doc, vocab)
        if spec.count != count:
            raise field.mapping(_LOOT_KEYS, "a loot file")["count"].error(
                f"the board's bag holds {count} {kind} tokens, but this file says {spec.count}",
                f"count: {count}")
        loot_specs.append(spec)
    alternatives = {k: tuple(next(sp for sp in loot_specs if sp.kind == k) if sd == sides[k]
                             else _loot(*loot_docs[(k, sd)], vocab) for sd in options)
                    for k, options in uncharted_sides.items()}
    _check_ranks(characters)
    solo_loot = _solo_loot(board, board_fields, loot_docs, vocab, {c.name for c in characters})
    _check_extra_counts(characters, loot_specs, alternatives, solo_loot, {str(f) for f in extra_files})
    tiles = [*loot_specs, *(sp for alts in alternatives.values() for sp in alts), *solo_loot.values()]
    loops.check(characters, tiles, {d.path: d.lines for _, d in (*char_docs.values(), *loot_docs.values())},
                blame={str(f) for f in extra_files})
    unverified = [f"{spec.kind} ({spec.side})" for spec in (*loot_specs, *(sp for alts in alternatives.values()
                                                                            for sp in alts)) if not spec.verified]
    unverified = list(dict.fromkeys(unverified))
    if unverified:
        warnings.warn(UnverifiedLootWarning(
            "these loot tiles are reconstructions, not the printed text: " + ", ".join(unverified)
            + " (see docs/loot-sides.md)"), stacklevel=2)
    identity = f"{board.edition}:" + ",".join(f"{k}={sides[k]}" for k, _ in board.bag)
    used = [(f"character {name}", doc) for name, (_, doc) in char_docs.items()]
    used += [(f"loot {kind} {sides[kind]}", loot_docs[(kind, sides[kind])][1]) for kind, _ in board.bag]
    used += [(f"loot {sp.kind} {sp.side}", loot_docs[(sp.kind, sp.side)][1]) for alts in alternatives.values()
             for sp in alts if sp.side != sides[sp.kind]]
    used += [(f"loot {sp.kind} {sp.side}", loot_docs[(sp.kind, sp.side)][1]) for sp in solo_loot.values()
             if sp.side != sides[sp.kind]]
    save_parsed()
    return Rules(
        board=board,
        characters=tuple(characters),
        loot=tuple(loot_specs),
        loot_sides=dict(sides),
        identity=identity,
        load_args={
            # Paths are absolute, so that a record replays from any folder.
            "edition": str(edition) if board_path == _paths.boards_dir() / f"{edition}.yaml"
            else str(board_path.resolve()),
            "loot": loot if isinstance(loot, str) or loot is None else dict(loot),
            "seed": seed,
            "extra_cards": [str(Path(p).resolve()) for p in extra_cards],
        },
        fingerprint=_fingerprint([("board", board_fields["edition"].doc.raw),  # each field knows its file
                                  ("grammar", _paths.grammar_path().read_bytes()),
                                  *((label, doc.raw) for label, doc in used), *board_files]),
        uncharted=alternatives,
        solo_loot=solo_loot,
    )


def _solo_loot(board: BoardSpec, fields: dict[str, Field], loot_docs: Mapping[tuple[str, str], tuple[Field, Document]],
               vocab: checker.Vocabulary, names: set[str]) -> dict[str, LootSpec]:
    """The solo side of each kind the board's solo mode replaces; its deck and left-out cards checked."""
    solo = board.solo
    if solo is None:
        return {}
    where = fields["solo"]
    unknown = sorted({c.name for c in solo.deck} - names) or sorted(set(solo.without) - names)
    if unknown:
        raise where.error(f"the solo mode names {unknown[0]!r}, which is no character of this edition",
                          did_you_mean(unknown[0], sorted(names)) or "a character's name")
    used = sorted({c.name for c in solo.deck} & set(solo.without))
    if used:
        raise where.error(f"{used[0]} is both in the solo deck and left out of solo games", "one or the other")
    out = {}
    for kind in solo.replaced:
        if (kind, solo.loot_side) not in loot_docs:
            raise where.error(f"there is no {solo.loot_side} side of {kind} for the solo mode",
                              f"a loot file with kind: {kind} and side: {solo.loot_side}")
        out[kind] = _loot(*loot_docs[(kind, solo.loot_side)], vocab)
    return out


def _fingerprint(files: list[tuple[str, bytes]]) -> str:
    """A short sha256 of the bytes of every file the rules are made of, each under what it defines.

    Labels ("board", "character Cook", "loot map calm") rather than paths go into the hash, so
    the same files give the same fingerprint wherever they are installed or copied to.  The
    bytes are those the files were read from (no second reading, which could differ).
    """
    digest = hashlib.sha256()
    for label, data in sorted(files):
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


CardKey = str | tuple[str, str]
"""What a card file defines: a character name, or a loot tile's (kind, side)."""


def _classify(bundled: list[Document], mods: list[Document] | None = None,
              ) -> tuple[dict[str, tuple[Field, Document]], dict[tuple[str, str], tuple[Field, Document]]]:
    """Character files by name and loot files by (kind, side).

    A mod file replaces the bundled card or tile it names (a deliberate mod
    feature); two files of the same set that define one card are an error
    naming both.
    """
    merged: dict[CardKey, tuple[Field, Document]] = {}
    for group in (bundled, mods or []):
        seen: dict[CardKey, tuple[Field, Document]] = {}
        for doc in group:
            _add_card(doc, seen)
        merged.update(seen)
    char_docs = {k: v for k, v in merged.items() if isinstance(k, str)}
    loot_docs = {k: v for k, v in merged.items() if isinstance(k, tuple)}
    return char_docs, loot_docs


def _add_card(doc: Document, seen: dict[CardKey, tuple[Field, Document]]) -> None:
    """Record what ``doc`` defines; a DataError at its name (or kind) if an earlier file defined it."""
    key: CardKey
    if "kind" in {k for k, _ in doc.root.items()}:
        fields = doc.root.mapping(_LOOT_KEYS, "a loot file")
        key, blame = (fields["kind"].as_str("kind"), fields["side"].as_str("side")), fields["kind"]
        what, expected = f"the {key[1]} side of the {key[0]} tile", "one file per loot kind and side"
    else:
        fields = doc.root.mapping(_CARD_KEYS, "a character file")
        key, blame = fields["name"].as_str("name"), fields["name"]
        what, expected = f"the character {key!r}", "a name no other file uses"
    if key in seen:
        raise blame.error(f"{what} is defined twice: here and in {seen[key][1].path}", expected)
    seen[key] = (doc.root, doc)


def _distinct(paths: list[Path]) -> list[Path]:
    """The paths without repeats (a folder and a file in it, given together, name the file once).

    A file is known by its device and inode, which one ``stat`` gives (resolving every
    path costs a system call per folder in it); where the system gives no inode, by its
    resolved path.
    """
    out: dict[object, Path] = {}
    for p in paths:
        try:
            info = os.stat(p)
            identity: object = (info.st_dev, info.st_ino) if info.st_ino else p.resolve()
        except OSError:
            identity = p.resolve()
        out.setdefault(identity, p)
    return list(out.values())


def check_files(paths: Iterable[str | Path], edition: str | Path = "galecrest") -> list[DataError]:
    """Every problem in the given card files or folders, checked against an edition.

    Unlike ``load_rules`` this does not stop at the first error: each file is
    read, parsed and checked on its own, so a modder sees all mistakes at once.
    Names may refer to the edition's characters and to characters in ``paths``.
    """
    return check_cards(paths, edition)[0]


CheckedCard = tuple[CharacterSpec | LootSpec, Document]
"""A checked file's card as the loader made it, with the file it was read from."""


def check_cards(paths: Iterable[str | Path], edition: str | Path = "galecrest",
                ) -> tuple[list[DataError], list[CheckedCard]]:
    """``check_files``, and the card each checked file defines (files whose card did not load have none).

    The cards are exactly what ``load_rules`` would make of the files (their abilities
    included), so ``cards check --fix`` can rewrite a text from the tree the engine keeps.
    """
    board, board_fields, _ = _load_board(_board_path(edition))
    errors: list[DataError] = []
    checked: list[CheckedCard] = []
    docs: list[Document] = []
    seen: dict[CardKey, tuple[Field, Document]] = {}
    for path in _distinct([f for p in paths for f in _yaml_files(Path(p))]):
        with _checking(str(path), errors):
            doc = read(path)
            _classify([doc])
            docs.append(doc)
            _add_card(doc, seen)
    bundled, _ = _classify([read(p) for p in _yaml_files(_paths.cards_dir() / board.characters_dir)])
    names = set(bundled) | {n.name for n in board.neutrals}
    for doc in docs:
        with _checking(doc.path, errors):
            name = doc.root.value.get("name") if isinstance(doc.root.value, dict) else None
            if isinstance(name, str):
                names.add(name)
    given = card_names.names_in([(d.root, d) for d in docs])
    before = card_names.names_in([v for k, v in bundled.items() if k not in {n.text for n in given}], board_fields)
    errors.extend(card_names.problems([*before, *given], blame_from=len(before)))
    vocab = checker.Vocabulary(frozenset(names), frozenset(k for k, _ in board.bag), bool(board.track_income),
                               len(board.track_income))
    specs: dict[CardKey, CharacterSpec | LootSpec] = {}
    for doc in docs:
        with _checking(doc.path, errors):
            if "kind" in {k for k, _ in doc.root.items()}:
                tile = _loot(doc.root, doc, vocab)
                specs[(tile.kind, tile.side)] = tile
                checked.append((tile, doc))
            else:
                card = _character(doc.root, doc, vocab)
                card_tie_breakers(doc.root, board, board_fields, mod=not _is_bundled(doc.path))
                specs[card.name] = card
                checked.append((card, doc))
        with _checking(doc.path, errors):
            read_examples(doc.path)  # the examples' shape, not their play (``cards test`` does that)
    _check_loops(board, specs, docs, vocab, errors)
    save_parsed()
    return errors, checked


def _is_bundled(path: str) -> bool:
    """Whether a file is one of the bundled cards (which the board's own tables may serve), not a mod's."""
    return Path(path).resolve().is_relative_to(_paths.cards_dir().resolve())


def _check_loops(board: BoardSpec, specs: dict[CardKey, CharacterSpec | LootSpec], docs: list[Document],
                 vocab: checker.Vocabulary, errors: list[DataError]) -> None:
    """The loop check of ``load_rules`` over the checked files with the edition's other cards and tiles (every side)."""
    chars, tiles = _classify(bundled_card_docs(board.path))
    bundled: list[tuple[CardKey, tuple[Field, Document]]] = [*chars.items(), *tiles.items()]
    checked = {d.path for d in docs}
    with _checking(board.path, errors):
        for key, (root, doc) in bundled:
            if key not in specs:
                specs[key] = _loot(root, doc, vocab) if isinstance(key, tuple) else _character(root, doc, vocab)
                docs.append(doc)
        loops.check([s for s in specs.values() if isinstance(s, CharacterSpec)],
                    [s for s in specs.values() if isinstance(s, LootSpec)], {d.path: d.lines for d in docs}, checked)


@contextmanager
def _checking(path: str, errors: list[DataError]) -> Iterator[None]:
    """Collect a DataError about one file (each of several raised together); anything else is a bug, re-raised with a
    note naming the file."""
    try:
        yield
    except DataErrors as exc:
        errors.extend(exc.errors)
    except DataError as exc:
        errors.append(exc)
    except Exception as exc:
        exc.add_note(f"while checking {path}")
        raise


def bundled_card_docs(edition: str | Path) -> list[Document]:
    """Every bundled character and loot file of an edition (all loot sides), read but not checked."""
    board = _load_board(_board_path(edition))[0]
    root = _paths.cards_dir()
    return [read(p) for folder in (board.characters_dir, board.loot_dir) for p in _yaml_files(root / folder)]


def bundled_editions() -> list[str]:
    """The names of the bundled editions."""
    return sorted(p.stem for p in _paths.boards_dir().glob("*.yaml"))


def _check_arguments(edition: object, loot: object, seed: object, extra_cards: object) -> list[str | Path]:
    """``load_rules``'s arguments checked by type (and the seed by range); the extra card paths as a list."""
    def wrong(name: str, expected: str, value: object) -> TypeError:
        return _args.wrong_type("load_rules", name, expected, value)

    if not isinstance(edition, str | os.PathLike):
        raise wrong("edition", "an edition name or a board file (a str or Path)", edition)
    if loot is not None and not isinstance(loot, str):
        if not isinstance(loot, Mapping):
            raise wrong("loot", "a side name, a mapping of loot kind to side, or None", loot)
        for kind, side in loot.items():
            if not isinstance(kind, str):
                raise wrong("loot", "a mapping of loot kinds (str) to sides", kind)
            if not isinstance(side, str):
                raise wrong(f"loot[{kind!r}]", "a side name (a str)", side)
    if seed is not None:
        problem = rng.seed_problem(seed)
        if problem is not None:
            raise RulesError(f"load_rules: seed: {problem}")
    if isinstance(extra_cards, str | os.PathLike):
        return [extra_cards]  # type: ignore[list-item]  # a str or a path
    if not isinstance(extra_cards, Iterable) or isinstance(extra_cards, bytes):
        raise wrong("extra_cards", "a path or a list of paths to card files or folders", extra_cards)
    paths = list(extra_cards)
    for i, path in enumerate(paths):
        if not isinstance(path, str | os.PathLike):
            raise wrong(f"extra_cards[{i}]", "a path to a card file or folder (a str or Path)", path)
    return paths


def _edition_name(edition: str | Path) -> str | Path:
    """A bundled edition's own name for ``edition`` spelt in another case (``"Classic"``), else ``edition``."""
    if not isinstance(edition, str) or (_paths.boards_dir() / f"{edition}.yaml").is_file():
        return edition
    same = [name for name in bundled_editions() if name.casefold() == edition.casefold()]
    return same[0] if len(same) == 1 and not Path(edition).is_file() else edition


def _loot_names(loot: LootOption, kinds: list[str], available: set[tuple[str, str]]) -> LootOption:
    """``loot`` with side and kind names spelt as on file (``"Stormy"`` is ``"stormy"``); others unchanged."""
    sides = sorted({*(side for _, side in available), *_UNCHARTED_SIDES, "uncharted"})
    if isinstance(loot, str):
        return _spelt(loot, sides)
    if isinstance(loot, Mapping) and all(isinstance(x, str) for pair in loot.items() for x in pair):
        return {_spelt(kind, kinds): _spelt(side, sides) for kind, side in loot.items()}
    return loot


def _spelt(name: str, names: list[str]) -> str:
    """The one of ``names`` that is ``name`` but for case, or ``name`` itself."""
    if name in names:
        return name
    same = [n for n in names if n.casefold() == name.casefold()]
    return same[0] if len(same) == 1 else name


def _board_path(edition: str | Path) -> Path:
    edition = _edition_name(edition)
    bundled = _paths.boards_dir() / f"{edition}.yaml"
    if isinstance(edition, str) and bundled.is_file():
        return bundled
    path = Path(edition)
    if path.is_file():
        return path
    names = sorted(p.stem for p in _paths.boards_dir().glob("*.yaml"))
    raise RulesError(f"no edition or board file called {str(edition)!r}{did_you_mean(str(edition), names)}; "
                     "the bundled editions are " + ", ".join(names))


MAX_FILES = 2_000
"""The most YAML files one folder may give: a card set is a few hundred at most, and a mistyped
path (or a hostile record naming ``/``) must not walk a whole disk."""


def _yaml_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if path.is_dir():
        found: list[Path] = []
        for p in path.rglob("*.yaml"):
            if len(found) >= MAX_FILES:
                raise DataError(f"the folder holds more than {MAX_FILES:,} YAML files; is it really a card folder?",
                                path=str(path), expected="a folder of card and loot files")
            if p.is_file():
                found.append(p)
        return sorted(found)
    raise DataError("no such file or folder", path=str(path), expected="a YAML file or a folder of them")


_UNCHARTED_SIDES = ("calm", "stormy")


def _check_board_loot_files(board: BoardSpec, fields: dict[str, Field], available: set[tuple[str, str]]) -> None:
    """Every kind in the bag has a loot file on the board's default side: a board error, at its line."""
    for kind, _ in board.bag:
        sides = sorted(side for k, side in available if k == kind)
        if not sides:
            raise fields["bag"].error(f"no loot file describes the {kind} tiles of the bag",
                                      f"a file with 'kind: {kind}' under the board's loot folder")
        if board.default_loot not in sides:
            raise fields["default_loot"].error(
                f"there is no {board.default_loot!r} side for {kind}{did_you_mean(board.default_loot, sides)}; "
                f"its sides are {', '.join(sides)}", " or ".join(sides))


def _choose_sides(board: BoardSpec, loot: LootOption, seed: int, available: set[tuple[str, str]],
                  ) -> dict[str, str]:
    """The side of each loot kind.

    A side name applies to every kind printed with that side; the others keep
    the board's default (the solo ``automa`` side replaces only four tiles).
    """
    kinds = [k for k, _ in board.bag]
    default = board.default_loot
    all_sides = sorted({side for _, side in available})
    if loot is None:
        chosen = {k: default for k in kinds}
    elif isinstance(loot, str) and loot == "uncharted":
        chosen = {}
        for i, k in enumerate(kinds):
            options = sorted(side for kk, side in available if kk == k and side in _UNCHARTED_SIDES)
            if not options:
                raise RulesError(f"uncharted needs a calm or stormy side for {k}")
            chosen[k] = options[rng.draw(seed, i, len(options))]
    elif isinstance(loot, str):
        if not any(side == loot for _, side in available):
            raise RulesError(f"there is no {loot!r} loot side{did_you_mean(loot, [*all_sides, 'uncharted'])}; "
                             f"the sides on file are {', '.join(all_sides)} (or uncharted)")
        chosen = {k: loot if (k, loot) in available else default for k in kinds}
    elif isinstance(loot, Mapping):
        unknown = sorted(set(loot) - set(kinds))
        if unknown:
            raise RulesError(f"unknown loot kind {unknown[0]!r}{did_you_mean(unknown[0], kinds)}; "
                             f"the kinds are {', '.join(kinds)}")
        chosen = {k: str(loot.get(k, default)) for k in kinds}
    else:
        raise RulesError(f"loot must be a side name or a mapping of kind to side, not {loot!r}")
    for k, side in chosen.items():
        if (k, side) not in available:
            sides = sorted(sd for kk, sd in available if kk == k)
            raise RulesError(f"there is no {side!r} side for {k}{did_you_mean(side, sides)}; "
                             f"its sides are {', '.join(sides)}")
    return chosen


def _load_board(path: Path) -> tuple[BoardSpec, dict[str, Field], list[tuple[str, bytes]]]:
    """A board file, checked for facts no game could run with; its fields, for the checks that
    need cards; and the other files it names (the solo deck), labelled for the fingerprint.  Its
    ``examples:`` (the flow's own, run by ``cards test``) are left unread, as a card's are."""
    doc = read(path, skip="examples")
    f = doc.root.mapping(_BOARD_KEYS, "a board file")
    players = _players(f)
    income, overflow, start_spaces = _reputation(f, players)
    bag = tuple((k, v.as_int(f"the count of {k}", 0, MAX_NUMBER)) for k, v in f["bag"].items())
    voyages = tuple(v.as_int("a voyage length", 1, MAX_NUMBER) for v in f["voyages"].as_list())
    if not voyages:
        raise f["voyages"].error("voyages must list at least one voyage", "days per voyage, such as [4, 5, 6]")
    deal = tuple(v.as_int("a deal size", 0, MAX_NUMBER) for v in f["deal"].as_list())
    if len(deal) != len(voyages):
        raise f["deal"].error(f"deal needs one entry per voyage ({len(voyages)})", f"{len(voyages)} numbers")
    per_day = _loot_per_day(f, players)
    _check_bag(f, bag, voyages, per_day, players)
    card_names.check_shapes(card_names.names_in([], f))  # its neutral cards and loot kinds: shown and typed as written
    start = f["start_doubloons"].value
    if start != "income" and not (isinstance(start, int) and not isinstance(start, bool)
                                  and 0 <= start <= MAX_NUMBER):
        raise f["start_doubloons"].error("start_doubloons must be 'income' or a number", "income or a number")
    if start == "income" and not income:
        raise f["start_doubloons"].error("income needs a reputation track", "a number of doubloons")
    neutrals = []
    for n in f["neutrals"].as_list() if "neutrals" in f else []:
        nf = n.mapping({"name": True, "rank": True, "players": True}, "a neutral card")
        neutrals.append(NeutralSpec(nf["name"].as_str("name"), _rank(nf["rank"]),
                                    tuple(_player_count(p, players, "a neutral card's player count")
                                          for p in nf["players"].as_list())))
    for key in ("island_ties", "winner_ties", "leftover_loot"):
        allowed = BOARD_CHOICES[key]
        if f[key].value not in allowed:
            raise f[key].error(f"{key} must be one of {', '.join(allowed)}", " or ".join(allowed))
    tie_break = f["island_ties"].as_str("island_ties")
    solo, files = None, []
    if "solo" in f:
        solo, deck = solo_spec(f["solo"], [path.parent, _paths.boards_dir()], [k for k, _ in bag], len(income))
        files.append(("solo deck", deck.raw))
    if tie_break == "reputation" and not income or f["winner_ties"].value == "reputation" and not income:
        raise f["island_ties"].error("reputation ties need a reputation track", "tie_breakers or shared")
    board = BoardSpec(
        edition=f["edition"].as_str("edition"),
        title=f["title"].as_str("title"),
        players=players,
        voyage_days=voyages,
        deal=deal,
        track_income=income,
        start_spaces=start_spaces,
        overflow=overflow,
        bag=bag,
        loot_per_day=per_day,
        tie_break=tie_break,
        winner_tie=f["winner_ties"].as_str("winner_ties"),
        leftover_loot=f["leftover_loot"].as_str("leftover_loot"),
        start_doubloons=start,
        neutrals=tuple(neutrals),
        default_loot=f["default_loot"].as_str("default_loot"),
        characters_dir=f["characters"].as_str("characters"),
        loot_dir=f["loot"].as_str("loot"),
        tie_breakers=_tie_breakers(f, players[1]) if tie_break == "tie_breakers" else {},
        ship_after_voyage=_choice(f, "voyage_end", "ship", "graveyard"),
        graveyard_after_voyage=_choice(f, "voyage_end", "graveyard", "keep"),
        anchor_order=_choice(f, "voyage_end", "anchor", "netted"),
        path=str(path),
        solo=solo,
    )
    return board, f, files


def _players(f: dict[str, Field]) -> tuple[int, int]:
    """The least and most players the board seats: at least one, the least no more than the most."""
    players = f["players"].mapping({"min": True, "max": True}, "players")
    lo = players["min"].as_int("players.min", 1, MAX_NUMBER)
    hi = players["max"].as_int("players.max", 1, MAX_NUMBER)
    if hi < lo:
        raise players["max"].error(f"players.max ({hi}) is less than players.min ({lo})",
                                   f"a number of at least {lo}")
    return lo, hi


def _player_count(field: Field, players: tuple[int, int], what: str) -> int:
    """A player count the board seats, or a DataError at it."""
    lo, hi = players
    n = field.as_int(what, 1, MAX_NUMBER)
    if not lo <= n <= hi:
        raise field.error(f"{what} is {n}, but the board seats {lo} to {hi} players",
                          f"a player count from {lo} to {hi}")
    return n


def _loot_per_day(f: dict[str, Field], players: tuple[int, int]) -> dict[int, int] | None:
    """Tokens laid out per day, by player count (None: one per player); each count one the board seats."""
    if "loot_per_day" not in f:
        return None
    table = f["loot_per_day"]
    per_day: dict[int, int] = {}
    for key, value in table.keyed_items():  # a mapping, or an error at it
        count = _player_count(key, players, "a player count in loot_per_day")
        per_day[count] = value.as_int("loot per day", 0, MAX_NUMBER)
    return per_day


def _check_bag(f: dict[str, Field], bag: tuple[tuple[str, int], ...], voyages: tuple[int, ...],
               per_day: dict[int, int] | None, players: tuple[int, int]) -> None:
    """The bag holds every token the longest voyage lays out, at whichever player count lays out most."""
    total = sum(count for _, count in bag)
    need, n = max((max(voyages) * (per_day.get(n, n) if per_day else n), n)
                  for n in range(players[0], players[1] + 1))
    if need > total:
        raise f["bag"].error(f"the bag holds {total} tokens, but a {max(voyages)}-day voyage with {n} players "
                             f"lays out {need}", f"at least {need} tokens in the bag")


def _check_board_with_cards(board: BoardSpec, f: dict[str, Field], characters: list[CharacterSpec]) -> None:
    """What a board says about the cards.

    Enough characters to deal, and neutral cards with a rank and name of their own (a
    character's tie-breakers are ``card_tie_breakers``'s to check, at the card).
    """
    dealt = sum(board.deal)
    if dealt > len(characters):
        raise f["deal"].error(f"the deal hands out {dealt} characters over the game, but only {len(characters)} "
                              "are loaded", f"deal sizes adding up to at most {len(characters)}")
    ranks = {c.rank: c.name for c in characters}
    names = {c.name for c in characters}
    for neutral, field in zip(board.neutrals, f["neutrals"].as_list() if "neutrals" in f else [], strict=True):
        nf = field.mapping({"name": True, "rank": True, "players": True}, "a neutral card")
        if neutral.name in names:
            raise nf["name"].error(f"the neutral card {neutral.name!r} has the name of a character",
                                   "a name no character has")
        if neutral.rank in ranks:
            raise nf["rank"].error(f"the neutral card {neutral.name} has rank {neutral.rank:g}, "
                                   f"like {ranks[neutral.rank]}", "a rank no character has")


def _with_card_tie_breakers(board: BoardSpec, board_fields: dict[str, Field],
                            docs: Iterable[tuple[Field, Document]], mods: set[str]) -> BoardSpec:
    """The board with each character's own tie-breakers (``card_tie_breakers``) in its table, by the card's rank."""
    own: dict[float, tuple[int, ...]] = {}
    for root, doc in docs:
        numbers = card_tie_breakers(root, board, board_fields, mod=doc.path in mods)
        if numbers is not None:
            own[_rank(root.mapping(_CARD_KEYS, "a character file")["rank"])] = numbers
    return attrs.evolve(board, tie_breakers={**board.tie_breakers, **own}) if own else board


def card_tie_breakers(root: Field, board: BoardSpec, board_fields: dict[str, Field], *,
                      mod: bool) -> tuple[int, ...] | None:
    """A character file's own ``tie_breakers``: the number printed on the card for each seat colour.

    On a board that orders equal ranks by printed numbers (``island_ties: tie_breakers``, the
    2012 edition), a character needs numbers for its rank: its own, written as a list (one
    number per seat colour, lower goes left) or as the name of one of the board's patterns, or
    else the board's table's.  A card's own numbers stand before the table's for its rank.  A
    board that orders ties otherwise never reads them, so there the key is refused.  Errors
    are at the card file's own line (a ``mod`` is told only of what its own files can say).
    """
    f = root.mapping(_CARD_KEYS, "a character file")
    field = f.get("tie_breakers")
    patterns = _patterns(board_fields)
    listed = f"[{', '.join(map(str, next(iter(patterns.values()), range(1, board.players[1] + 1))))}]"
    example = f"tie_breakers: {listed}"
    if field is None:
        rank = _rank(f["rank"])
        if board.tie_break != "tie_breakers" or rank in board.tie_breakers:
            return None
        name = f["name"].as_str("name")
        table = "" if mod else f", or a '{rank:g}: <pattern>' entry under tie_breakers.ranks in {board.path}"
        raise f["rank"].error(
            f"{name} has rank {rank:g}, and {board.title} orders equal ranks on the island by the tie-breaker "
            f"numbers printed on each card, but no numbers are given for rank {rank:g}",
            f"a tie_breakers key in this file: the card's number for each seat colour, such as '{example}', "
            f"or one of the board's patterns ({', '.join(patterns)}), such as 'tie_breakers: "
            f"{next(iter(patterns), 'P1')}'{table} (see docs/modding.md)")
    if board.tie_break != "tie_breakers":
        raise field.error(f"{board.title} orders equal ranks by reputation, so tie_breakers would never be read",
                          "no tie_breakers key: only an edition whose board says 'island_ties: tie_breakers' "
                          "(such as classic, the 2012 game) reads it")
    if isinstance(field.value, str):
        if field.value not in patterns:
            raise field.error(f"unknown tie-breaker pattern {field.value!r}{did_you_mean(field.value, patterns)}",
                              f"one of {', '.join(patterns)}, or a list of numbers such as {listed}")
        return patterns[field.value]
    if field.node.kind != "sequence":
        raise field.error("tie_breakers must be a list of numbers or a pattern's name",
                          f"a number per seat colour, such as '{example}'")
    numbers = tuple(v.as_int("a tie-breaker", 0, MAX_NUMBER) for v in field.as_list())
    most = board.players[1]
    if len(numbers) < most:
        raise field.error(f"tie_breakers has {len(numbers)} numbers, but {board.title} seats up to {most} players",
                          f"at least {most} numbers, one per seat colour")
    seated = numbers[:most]
    twice = next((n for n in seated if seated.count(n) > 1), None)
    if twice is not None:
        raise field.error(f"tie_breakers gives {twice} to two seat colours, so it could not order their equal ranks",
                          f"{most} different numbers, one per seat colour")
    return numbers


def _patterns(board_fields: dict[str, Field]) -> dict[str, tuple[int, ...]]:
    """The board's named tie-breaker patterns (checked by ``_tie_breakers``); none without a table."""
    if "tie_breakers" not in board_fields:
        return {}
    table = board_fields["tie_breakers"].mapping({"patterns": True, "ranks": True, "note": False}, "tie_breakers")
    return {name: tuple(v.as_int("a tie-breaker", 0, MAX_NUMBER) for v in row.as_list())
            for name, row in table["patterns"].items()}


def _reputation(f: dict[str, Field], players: tuple[int, int],
                ) -> tuple[tuple[int, ...], int, dict[int, tuple[int, ...]]]:
    """The track's income, overflow and start spaces; an edition without a track has none.

    The track has a space for every seat colour at the most players, and the
    start spaces of a player count are that many different spaces.
    """
    if "reputation" not in f:
        return (), 0, {}
    rep = f["reputation"].mapping({"income": True, "overflow": True, "start": False}, "reputation")
    income = tuple(v.as_int("income", 0, MAX_NUMBER) for v in rep["income"].as_list())
    if len(income) < players[1]:
        raise rep["income"].error(f"the reputation track has {len(income)} spaces, but the board seats up to "
                                  f"{players[1]} players", f"at least {players[1]} income numbers, one per space")
    start_spaces: dict[int, tuple[int, ...]] = {}
    for count, spaces in (rep["start"].items() if "start" in rep else []):
        listed = tuple(v.as_int("a track space", 0, MAX_NUMBER) for v in spaces.as_list())
        if not _digits(count) or len(listed) != int(count) or any(x >= len(income) for x in listed):
            raise spaces.error(f"start spaces for {count} players must be {count} spaces of the track",
                               f"{count} numbers from 0 to {len(income) - 1}")
        if not players[0] <= int(count) <= players[1]:
            raise spaces.error(f"start spaces are given for {count} players, but the board seats "
                               f"{players[0]} to {players[1]}", f"a player count from {players[0]} to {players[1]}")
        twice = sorted({x for x in listed if listed.count(x) > 1})
        if twice:
            raise spaces.error(f"start spaces for {count} players must differ, but {twice[0]} is listed twice",
                               f"{count} different spaces")
        start_spaces[int(count)] = listed
    return income, rep["overflow"].as_int("overflow", 0, MAX_NUMBER), start_spaces


def _tie_breakers(f: dict[str, Field], most_players: int) -> dict[float, tuple[int, ...]]:
    """Per rank, the tie-breaker number of each seat's colour (lower goes left); a number for every seat."""
    if "tie_breakers" not in f:
        raise f["island_ties"].error("island_ties: tie_breakers needs a tie_breakers table",
                                     "a tie_breakers mapping with patterns and ranks")
    table = f["tie_breakers"].mapping({"patterns": True, "ranks": True, "note": False}, "tie_breakers")
    patterns = {name: tuple(v.as_int("a tie-breaker", 0, MAX_NUMBER) for v in row.as_list())
                for name, row in table["patterns"].items()}
    for name, row in table["patterns"].items():
        if len(patterns[name]) < most_players:
            raise row.error(f"tie-breaker pattern {name!r} has {len(patterns[name])} numbers, but the board "
                            f"seats up to {most_players} players", f"at least {most_players} numbers, one per seat")
        seated = patterns[name][:most_players]
        twice = next((n for n in seated if seated.count(n) > 1), None)
        if twice is not None:  # as a card's own numbers (C1): equal ranks of two colours need an order
            raise row.error(f"tie-breaker pattern {name!r} gives {twice} to two seat colours, so it could not order "
                            "their equal ranks", f"{most_players} different numbers, one per seat colour")
    out: dict[float, tuple[int, ...]] = {}
    for rank, pattern in table["ranks"].keyed_items():
        name = pattern.as_str("a pattern name")
        if name not in patterns:
            raise pattern.error(f"unknown pattern {name!r}{did_you_mean(name, patterns)}",
                                "one of " + ", ".join(patterns))
        out[_rank(rank, "a rank in tie_breakers.ranks")] = patterns[name]
    return out


def _rank(field: Field, what: str = "rank") -> float:
    """A card's rank: a finite number of at most ``MAX_NUMBER`` either side of 0."""
    return field.as_number(what, MAX_NUMBER)


def _digits(text: str) -> bool:
    """Whether ``text`` is a whole number in at most 6 ASCII digits (``int`` takes other digits too)."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_TEXT_DIGITS


def _choice(f: dict[str, Field], section: str, key: str, default: str) -> str:
    allowed = BOARD_CHOICES[f"{section}.{key}"]
    if section not in f:
        return default
    fields = f[section].mapping({"ship": False, "graveyard": False, "anchor": False}, section)
    if key not in fields:
        return default
    value = fields[key].as_str(key)
    if value not in allowed:
        raise fields[key].error(f"{section}.{key} must be one of {', '.join(allowed)}", " or ".join(allowed))
    return value


def _parse_text(field: Field, doc: Document, vocab: checker.Vocabulary, *, loot: bool,
                kind: str = "") -> tuple[str, tuple[ast.Ability, ...], tuple[Compiled, ...]]:
    """A card's text, parsed, checked and compiled (a stored parse is checked as a fresh one is);
    ``kind`` is a loot tile's kind."""
    text = field.as_str("text").strip("\n")
    line0, col0 = field.text_origin()
    indent = col0 if field.is_block() else 0
    _check_text_numbers(text, doc, line0, col0, indent)

    def check(parsed: tuple[ast.Ability, ...]) -> tuple[tuple[ast.Ability, ...], tuple[Compiled, ...]]:
        report = _reporter(doc)
        abilities = worths(singular_kinds(parsed, vocab.kinds), kind if loot else None)  # "3 or more maps": map
        if loot:
            abilities = own_token(once_for_own_kind(abilities, kind), kind)  # E34; "this token" (issue 34.2)
        checker.check(abilities, vocab, report, loot=loot, kind=kind)
        return abilities, tuple(compile_ability(a, report, kinds=vocab.kinds) for a in abilities)

    _, (abilities, compiled) = parse_checked(text, check, path=doc.path, line=line0, column=col0, indent=indent,
                                             file_lines=doc.lines)
    return text, abilities, compiled


_LONG_NUMBER = re.compile(r"#[^\n]*|([0-9]{" + str(MAX_TEXT_DIGITS + 1) + ",})")


def _check_text_numbers(text: str, doc: Document, line0: int, col0: int, indent: int) -> None:
    """A CardError at the first number of more than ``MAX_TEXT_DIGITS`` digits in card text (comments aside).

    Python's ``int`` refuses more than 4300 digits, and no card needs 7; positions shift into the file as
    the parser's do.
    """
    for m in _LONG_NUMBER.finditer(text):
        digits = m.group(1)
        if digits is None:
            continue
        before = text[:m.start(1)]
        line = before.count("\n") + 1
        column = m.start(1) - (before.rfind("\n") + 1) + 1 + (col0 if line == 1 else indent)
        shown = digits if len(digits) <= 12 else digits[:12] + "..."
        raise _reporter(doc)(f"the number {shown} has {len(digits):,} digits; numbers in card text have at "
                             f"most {MAX_TEXT_DIGITS}", line + line0, column,
                             f"a number of at most {MAX_TEXT_DIGITS} digits")


def _reporter(doc: Document) -> checker.Report:
    def report(message: str, line: int, column: int, expected: str) -> CardError:
        source = doc.lines[line - 1] if 0 < line <= len(doc.lines) else ""
        return CardError(message, path=doc.path, line=line, column=column, source_line=source, expected=expected)
    return report


def _character(root: Field, doc: Document, vocab: checker.Vocabulary) -> CharacterSpec:
    f = root.mapping(_CARD_KEYS, "a character file")
    text, abilities, compiled = _parse_text(f["text"], doc, vocab, loot=False)
    return CharacterSpec(
        name=f["name"].as_str("name"),
        rank=_rank(f["rank"]),
        text=text,
        abilities=abilities,
        compiled=compiled,
        takes_loot=not any(c.passive and c.timing == "dusk" for c in compiled),
        path=doc.path,
    )


def _neutral_card(n: NeutralSpec) -> CharacterSpec:
    return CharacterSpec(name=n.name, rank=n.rank, text="", abilities=(), compiled=(), takes_loot=False,
                         neutral=True)


def _loot(root: Field, doc: Document, vocab: checker.Vocabulary) -> LootSpec:
    f = root.mapping(_LOOT_KEYS, "a loot file")
    text, abilities, compiled = _parse_text(f["text"], doc, vocab, loot=True, kind=f["kind"].as_str("kind"))
    verified = f["verified"].value if "verified" in f else True
    if not isinstance(verified, bool):
        raise f["verified"].error("verified must be true or false", "true or false")
    return LootSpec(
        kind=f["kind"].as_str("kind"),
        side=f["side"].as_str("side"),
        count=f["count"].as_int("count", 0, MAX_NUMBER),
        text=text,
        abilities=abilities,
        compiled=compiled,
        verified=verified,
        note=f["note"].as_str("note") if "note" in f else "",
        path=doc.path,
    )


def _check_extra_counts(characters: list[CharacterSpec], loot: list[LootSpec],
                        alternatives: Mapping[str, tuple[LootSpec, ...]], solo: Mapping[str, LootSpec],
                        mods: set[str]) -> None:
    """``count N extra K`` only adds to set scoring of K: refused where no game of these rules scores K in sets.

    A kind counts as scored when a character scores it, or when every side of its tile a
    game may use (the chosen side, each uncharted alternative, the solo side) does.  A
    bundled card (a file not in ``mods``) left inert by a mod's tiles alone is an
    ``InertCardWarning`` naming both, not an error: the modder did not write that card, and
    their mod still loads.  Their own cards, and bundled cards the bundled tiles leave inert,
    are refused.
    """
    by_characters = kinds_scored_in_sets(a for c in characters for a in c.abilities)
    sides: dict[str, list[LootSpec]] = {}
    for tile in (*loot, *(sp for alts in alternatives.values() for sp in alts), *solo.values()):
        sides.setdefault(tile.kind, []).append(tile)
    specs: list[CharacterSpec | LootSpec] = [*characters, *loot]
    for spec in specs:
        for a in extra_counts(spec.abilities):
            if a.kind in by_characters:
                continue
            unscored = [sp for sp in sides.get(a.kind, []) if a.kind not in kinds_scored_in_sets(sp.abilities)]
            if not unscored and a.kind in sides:
                continue
            source = _source_line(spec.path, a.line)
            if unscored and spec.path not in mods and all(sp.path in mods for sp in unscored):
                tile = unscored[0]
                warnings.warn(InertCardWarning(str(CardError(
                    f'warning: "count {a.n} extra {a.kind}" of the bundled {_label(spec)} does nothing with this '
                    f"mod: the mod's {tile.side} {a.kind} tile ({tile.path}) scores no {a.kind} in sets",
                    path=spec.path, line=a.line, column=a.column, source_line=source,
                    expected=f'a {a.kind} tile that scores "in sets" (gain doubloons for your {a.kind} in sets), '
                    f"for the {_label(spec)}'s extra {a.kind} to count"))), stacklevel=3)
                continue
            where = (f"the {unscored[0].side} {a.kind} tile ({unscored[0].path}) scores no {a.kind} in sets"
                     if unscored else f"no ability scores {a.kind} in sets")
            raise CardError(f'"count {a.n} extra {a.kind}" adds to set scoring of {a.kind}, but {where}: it '
                            "would do nothing", path=spec.path, line=a.line,
                            column=a.column, source_line=source,
                            expected=f'a kind scored "in sets" (gain doubloons for your {a.kind} in sets)')


def _label(spec: CharacterSpec | LootSpec) -> str:
    """A card as a sentence names it: "Explorer", or "calm map tile"."""
    return spec.name if isinstance(spec, CharacterSpec) else f"{spec.side} {spec.kind} tile"


def _source_line(path: str, line: int) -> str:
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ""
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _check_ranks(characters: list[CharacterSpec]) -> None:
    seen: dict[float, CharacterSpec] = {}
    for c in characters:
        if c.rank in seen:
            raise DataError(f"{c.name} has rank {c.rank:g}, like {seen[c.rank].name}", path=c.path,
                            expected="each character with its own rank")
        seen[c.rank] = c
