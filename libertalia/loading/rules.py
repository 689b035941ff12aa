"""``load_rules``: board and card files to checked, compiled ``Rules``.

All file reading happens here, once per call; the game loop never touches
the disk or the parser.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path

from .. import _paths
from ..engine import rng
from ..errors import CardError, DataError, RulesError, UnverifiedLootWarning
from ..language import ast, checker
from ..language.compile import compile_ability
from ..language.parser import parse
from .specs import BoardSpec, CharacterSpec, LootSpec, NeutralSpec, Rules
from .yamlfile import Document, Field, read

LootOption = str | Mapping[str, str] | None

_BOARD_KEYS = {
    "edition": True, "title": True, "players": True, "voyages": True, "deal": True,
    "reputation": False, "bag": True, "loot_per_day": False, "island_ties": True,
    "winner_ties": True, "leftover_loot": True, "start_doubloons": True,
    "characters": True, "loot": True, "default_loot": True, "neutrals": False,
    "tie_breakers": False, "voyage_end": False,
}
_CARD_KEYS = {"name": True, "rank": True, "text": True, "note": False}
_LOOT_KEYS = {"kind": True, "side": True, "count": True, "text": True, "verified": False, "note": False}


def load_rules(
    edition: str | Path = "galecrest",
    *,
    loot: LootOption = None,
    seed: int = 0,
    extra_cards: Iterable[str | Path] = (),
) -> Rules:
    """Load an edition (a bundled name or a board YAML path) with its options.

    ``loot`` picks the loot sides: a side name for every kind, ``"uncharted"``
    for a side per kind drawn from ``seed``, or a mapping of kind to side
    (kinds not named use the board's default side).  ``extra_cards`` are
    files or folders whose characters and loot add to or replace the
    edition's: a mod needs nothing else.
    """
    board_path = _board_path(edition)
    board = _load_board(board_path)
    cards_root = _paths.cards_dir()
    char_files = _yaml_files(cards_root / board.characters_dir)
    loot_files = _yaml_files(cards_root / board.loot_dir)
    extra_cards = list(extra_cards)
    extra_files = [f for p in extra_cards for f in _yaml_files(Path(p))]

    char_docs, loot_docs = _classify([read(path) for path in [*char_files, *loot_files, *extra_files]])

    neutrals = board.neutrals
    names = frozenset(char_docs) | {n.name for n in neutrals}
    kinds = frozenset(k for k, _ in board.bag)
    vocab = checker.Vocabulary(names, kinds)

    sides = _choose_sides(board, loot, seed, set(loot_docs))
    characters = sorted((_character(f, doc, vocab) for f, doc in char_docs.values()), key=lambda c: c.rank)
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
    _check_ranks(characters)
    unverified = [f"{spec.kind} ({spec.side})" for spec in loot_specs if not spec.verified]
    if unverified:
        warnings.warn(UnverifiedLootWarning(
            "these loot tiles are reconstructions, not the printed text: " + ", ".join(unverified)
            + " (see docs/loot-sides.md)"), stacklevel=2)
    identity = f"{board.edition}:" + ",".join(f"{k}={sides[k]}" for k, _ in board.bag)
    return Rules(
        board=board,
        characters=tuple(characters),
        loot=tuple(loot_specs),
        loot_sides=dict(sides),
        identity=identity,
        load_args={
            "edition": str(edition),
            "loot": loot if isinstance(loot, str) or loot is None else dict(loot),
            "seed": seed,
            "extra_cards": [str(p) for p in extra_cards],
        },
    )


def _classify(docs: list[Document]) -> tuple[dict[str, tuple[Field, Document]],
                                             dict[tuple[str, str], tuple[Field, Document]]]:
    """Character files by name and loot files by (kind, side); later files replace earlier ones."""
    char_docs: dict[str, tuple[Field, Document]] = {}
    loot_docs: dict[tuple[str, str], tuple[Field, Document]] = {}
    for doc in docs:
        if "kind" in {k for k, _ in doc.root.items()}:
            fields = doc.root.mapping(_LOOT_KEYS, "a loot file")
            loot_docs[(fields["kind"].as_str("kind"), fields["side"].as_str("side"))] = (doc.root, doc)
        else:
            fields = doc.root.mapping(_CARD_KEYS, "a character file")
            char_docs[fields["name"].as_str("name")] = (doc.root, doc)
    return char_docs, loot_docs


def check_files(paths: Iterable[str | Path], edition: str | Path = "galecrest") -> list[DataError]:
    """Every problem in the given card files or folders, checked against an edition.

    Unlike ``load_rules`` this does not stop at the first error: each file is
    read, parsed and checked on its own, so a modder sees all mistakes at once.
    Names may refer to the edition's characters and to characters in ``paths``.
    """
    board = _load_board(_board_path(edition))
    errors: list[DataError] = []
    docs: list[Document] = []
    for path in (f for p in paths for f in _yaml_files(Path(p))):
        try:
            doc = read(path)
            _classify([doc])
            docs.append(doc)
        except DataError as exc:
            errors.append(exc)
    bundled, _ = _classify([read(p) for p in _yaml_files(_paths.cards_dir() / board.characters_dir)])
    names = set(bundled) | {n.name for n in board.neutrals}
    for doc in docs:
        name = doc.root.value.get("name") if isinstance(doc.root.value, dict) else None
        if isinstance(name, str):
            names.add(name)
    vocab = checker.Vocabulary(frozenset(names), frozenset(k for k, _ in board.bag))
    for doc in docs:
        try:
            if "kind" in {k for k, _ in doc.root.items()}:
                _loot(doc.root, doc, vocab)
            else:
                _character(doc.root, doc, vocab)
        except DataError as exc:
            errors.append(exc)
    return errors


def _board_path(edition: str | Path) -> Path:
    bundled = _paths.boards_dir() / f"{edition}.yaml"
    if isinstance(edition, str) and bundled.is_file():
        return bundled
    path = Path(edition)
    if path.is_file():
        return path
    names = sorted(p.stem for p in _paths.boards_dir().glob("*.yaml"))
    raise RulesError(f"no edition or board file called {str(edition)!r}; the bundled editions are "
                     + ", ".join(names))


def _yaml_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if path.is_dir():
        return sorted(p for p in path.rglob("*.yaml") if p.is_file())
    raise DataError("no such file or folder", path=str(path), expected="a YAML file or a folder of them")


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
            options = sorted(side for kk, side in available if kk == k and side in ("calm", "stormy"))
            if not options:
                raise RulesError(f"uncharted needs a calm or stormy side for {k}")
            chosen[k] = options[rng.draw(seed, i, len(options))]
    elif isinstance(loot, str):
        if not any(side == loot for _, side in available):
            raise RulesError(f"there is no {loot!r} loot side; the sides on file are {', '.join(all_sides)}"
                             " (or uncharted)")
        chosen = {k: loot if (k, loot) in available else default for k in kinds}
    elif isinstance(loot, Mapping):
        unknown = sorted(set(loot) - set(kinds))
        if unknown:
            raise RulesError(f"unknown loot kind {unknown[0]!r}; the kinds are {', '.join(kinds)}")
        chosen = {k: str(loot.get(k, default)) for k in kinds}
    else:
        raise RulesError(f"loot must be a side name or a mapping of kind to side, not {loot!r}")
    for k, side in chosen.items():
        if (k, side) not in available:
            sides = sorted(sd for kk, sd in available if kk == k)
            raise RulesError(f"there is no {side!r} side for {k}; its sides are {', '.join(sides)}")
    return chosen


def _load_board(path: Path) -> BoardSpec:
    doc = read(path)
    f = doc.root.mapping(_BOARD_KEYS, "a board file")
    players = f["players"].mapping({"min": True, "max": True}, "players")
    income, overflow, start_spaces = _reputation(f)
    bag = tuple((k, v.as_int(f"the count of {k}", 0)) for k, v in f["bag"].items())
    voyages = tuple(v.as_int("a voyage length", 1) for v in f["voyages"].as_list())
    deal = tuple(v.as_int("a deal size", 0) for v in f["deal"].as_list())
    if len(deal) != len(voyages):
        raise f["deal"].error(f"deal needs one entry per voyage ({len(voyages)})", f"{len(voyages)} numbers")
    per_day: dict[int, int] | None = None
    if "loot_per_day" in f:
        per_day = {int(k): v.as_int("loot per day", 0) for k, v in f["loot_per_day"].items()}
    start = f["start_doubloons"].value
    if start != "income" and not (isinstance(start, int) and start >= 0):
        raise f["start_doubloons"].error("start_doubloons must be 'income' or a number", "income or a number")
    if start == "income" and not income:
        raise f["start_doubloons"].error("income needs a reputation track", "a number of doubloons")
    neutrals = []
    for n in f["neutrals"].as_list() if "neutrals" in f else []:
        nf = n.mapping({"name": True, "rank": True, "players": True}, "a neutral card")
        neutrals.append(NeutralSpec(nf["name"].as_str("name"), nf["rank"].as_number("rank"),
                                    tuple(p.as_int("a player count", 1) for p in nf["players"].as_list())))
    choices = {"island_ties": ("reputation", "tie_breakers"), "winner_ties": ("reputation", "shared"),
               "leftover_loot": ("bag", "aside")}
    for key, allowed in choices.items():
        if f[key].value not in allowed:
            raise f[key].error(f"{key} must be one of {', '.join(allowed)}", " or ".join(allowed))
    tie_break = f["island_ties"].as_str("island_ties")
    if tie_break == "reputation" and not income or f["winner_ties"].value == "reputation" and not income:
        raise f["island_ties"].error("reputation ties need a reputation track", "tie_breakers or shared")
    return BoardSpec(
        edition=f["edition"].as_str("edition"),
        title=f["title"].as_str("title"),
        players=(players["min"].as_int("min", 1), players["max"].as_int("max", 1)),
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
        tie_breakers=_tie_breakers(f) if tie_break == "tie_breakers" else {},
        ship_after_voyage=_choice(f, "voyage_end", "ship", ("graveyard", "removed"), "graveyard"),
        graveyard_after_voyage=_choice(f, "voyage_end", "graveyard", ("keep", "removed"), "keep"),
        path=str(path),
    )


def _reputation(f: dict[str, Field]) -> tuple[tuple[int, ...], int, dict[int, tuple[int, ...]]]:
    """The track's income, overflow and start spaces; an edition without a track has none."""
    if "reputation" not in f:
        return (), 0, {}
    rep = f["reputation"].mapping({"income": True, "overflow": True, "start": False}, "reputation")
    income = tuple(v.as_int("income", 0) for v in rep["income"].as_list())
    start_spaces: dict[int, tuple[int, ...]] = {}
    for count, spaces in (rep["start"].items() if "start" in rep else []):
        listed = tuple(v.as_int("a track space", 0) for v in spaces.as_list())
        if not count.isdigit() or len(listed) != int(count) or any(x >= len(income) for x in listed):
            raise spaces.error(f"start spaces for {count} players must be {count} spaces of the track",
                               f"{count} numbers from 0 to {len(income) - 1}")
        start_spaces[int(count)] = listed
    return income, rep["overflow"].as_int("overflow", 0), start_spaces


def _tie_breakers(f: dict[str, Field]) -> dict[float, tuple[int, ...]]:
    """Per rank, the tie-breaker number of each seat's colour (lower goes left)."""
    if "tie_breakers" not in f:
        raise f["island_ties"].error("island_ties: tie_breakers needs a tie_breakers table",
                                     "a tie_breakers mapping with patterns and ranks")
    table = f["tie_breakers"].mapping({"patterns": True, "ranks": True, "note": False}, "tie_breakers")
    patterns = {name: tuple(v.as_int("a tie-breaker", 0) for v in row.as_list())
                for name, row in table["patterns"].items()}
    out: dict[float, tuple[int, ...]] = {}
    for rank, pattern in table["ranks"].items():
        name = pattern.as_str("a pattern name")
        if name not in patterns:
            raise pattern.error(f"unknown pattern {name!r}", "one of " + ", ".join(patterns))
        out[float(rank)] = patterns[name]
    return out


def _choice(f: dict[str, Field], section: str, key: str, allowed: tuple[str, ...], default: str) -> str:
    if section not in f:
        return default
    fields = f[section].mapping({"ship": False, "graveyard": False}, section)
    if key not in fields:
        return default
    value = fields[key].as_str(key)
    if value not in allowed:
        raise fields[key].error(f"{section}.{key} must be one of {', '.join(allowed)}", " or ".join(allowed))
    return value


def _parse_text(field: Field, doc: Document) -> tuple[str, tuple[ast.Ability, ...]]:
    text = field.as_str("text").strip("\n")
    line0, col0 = field.text_origin()
    indent = col0 if field.is_block() else 0
    abilities = parse(text, path=doc.path, line=line0, column=col0, indent=indent, file_lines=doc.lines)
    return text, abilities


def _reporter(doc: Document) -> checker.Report:
    def report(message: str, line: int, column: int, expected: str) -> CardError:
        source = doc.lines[line - 1] if 0 < line <= len(doc.lines) else ""
        return CardError(message, path=doc.path, line=line, column=column, source_line=source, expected=expected)
    return report


def _character(root: Field, doc: Document, vocab: checker.Vocabulary) -> CharacterSpec:
    f = root.mapping(_CARD_KEYS, "a character file")
    text, abilities = _parse_text(f["text"], doc)
    checker.check(abilities, vocab, _reporter(doc), loot=False)
    compiled = tuple(compile_ability(a) for a in abilities)
    return CharacterSpec(
        name=f["name"].as_str("name"),
        rank=f["rank"].as_number("rank"),
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
    text, abilities = _parse_text(f["text"], doc)
    checker.check(abilities, vocab, _reporter(doc), loot=True)
    verified = f["verified"].value if "verified" in f else True
    if not isinstance(verified, bool):
        raise f["verified"].error("verified must be true or false", "true or false")
    return LootSpec(
        kind=f["kind"].as_str("kind"),
        side=f["side"].as_str("side"),
        count=f["count"].as_int("count", 0),
        text=text,
        abilities=abilities,
        compiled=tuple(compile_ability(a) for a in abilities),
        verified=verified,
        note=f["note"].as_str("note") if "note" in f else "",
        path=doc.path,
    )


def _check_ranks(characters: list[CharacterSpec]) -> None:
    seen: dict[float, CharacterSpec] = {}
    for c in characters:
        if c.rank in seen:
            raise DataError(f"{c.name} has rank {c.rank:g}, like {seen[c.rank].name}", path=c.path,
                            expected="each character with its own rank")
        seen[c.rank] = c
