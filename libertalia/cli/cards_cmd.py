"""``libertalia cards``: list, show, check, test and mutate card files."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from .. import _paths
from ..errors import DataError, DataErrors, LibertaliaError
from ..language.render import render
from ..loading.examples import (
    board_edition,
    default_edition,
    is_board,
    is_board_data,
    load_together,
    own_edition,
    run_together,
)
from ..loading.rules import CheckedCard, _yaml_files, check_cards
from ..loading.yamlfile import Document, Field, read
from ..suggest import did_you_mean, lookup
from ..syntax.ast import fields as ast_fields
from ..syntax.ast import is_node
from . import console, echo, echo_json, friendly_errors, load, rules_args
from .contracts_cmd import contracts
from .diff_cmd import diff
from .interactions_cmd import interactions
from .mutate_cmd import mutate
from .terminal import safe_text

if TYPE_CHECKING:
    from ..loading.canonical import Rewording


@click.group()
def cards() -> None:
    """List, show, check and test cards."""


cards.add_command(interactions)
cards.add_command(contracts)
cards.add_command(mutate)
cards.add_command(diff)


_CARDS = click.option("--cards", "extra", multiple=True, type=click.Path(exists=True),
                      help="Extra card files or folders (a mod), as for simulate.")


@cards.command("list")
@click.option("--edition", default="galecrest", show_default=True)
@click.option("--loot", default=None, help="Loot sides to list with the characters.")
@_CARDS
def list_cards(edition: str, loot: str | None, extra: tuple[str, ...]) -> None:
    """Every character and loot tile of an edition."""
    out = console()
    with friendly_errors():
        rules = load(rules_args(edition, loot, extra))
    table = Table(title=f"{rules.board.title}: characters", title_justify="left")
    table.add_column("rank", justify="right")
    table.add_column("name")
    table.add_column("text")
    for c in rules.characters:
        table.add_row(f"{c.rank:g}", c.name, c.text or "(neutral: no abilities)")
    out.print(table)
    table = Table(title="Loot", title_justify="left")
    for col in ("kind", "side", "count", "text"):
        table.add_column(col)
    for spec in rules.loot:
        mark = "" if spec.verified else "  [unverified]"
        table.add_row(spec.kind, spec.side + mark, str(spec.count), spec.text)
    out.print(table)


@cards.command()
@click.argument("name")
@click.option("--edition", default="galecrest", show_default=True)
@click.option("--loot", default=None, help="Loot side, to show a loot kind.")
@_CARDS
def show(name: str, edition: str, loot: str | None, extra: tuple[str, ...]) -> None:
    """One card (or loot kind): its text, canonical rendering if it differs, and parsed tree.

    NAME is matched without regard to case or spacing ("wind nymph").
    """
    out = console()
    with friendly_errors():
        rules = load(rules_args(edition, loot, extra))
    names = [c.name for c in rules.characters]
    found = lookup(name, [*names, *rules.kinds])
    if found is None:
        hint = did_you_mean(name, [*names, *rules.kinds])
        raise click.ClickException(f"no card or loot kind called {name!r} in {rules.board.title}{hint}")
    spec: Any
    if found in names:
        spec = rules.card(found)
        where = f"  {spec.path}" if spec.path else "  (a neutral card of the board)"
        out.print(safe_text(spec.name, "bold") + safe_text(f" (rank {spec.rank:g}){where}"))
    else:
        spec = rules.loot_spec(found)
        out.print(safe_text(spec.kind, "bold") + safe_text(f" ({spec.side} side, {spec.count} tokens)  {spec.path}"))
    out.print(safe_text("\nText", "bold"))
    out.print(spec.text or "(neutral: no abilities)")
    canonical = render(spec.abilities)
    if _lines(canonical) != _lines(spec.text):
        out.print(safe_text("\nCanonical", "bold") + safe_text(" (how the engine reads the text)"))
        out.print(canonical)
    if spec.abilities:
        out.print(safe_text("\nTree", "bold"))
    for ability in spec.abilities:
        out.print(tree(ability))


def _lines(text: str) -> list[str]:
    """A card text's lines without surrounding blank lines or trailing spaces."""
    return [line.rstrip() for line in text.strip().splitlines()]


@cards.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--edition", default=None,
              help="Edition for files outside the bundled card folders (default galecrest).")
@click.option("--fix", is_flag=True,
              help="Rewrite the text of each valid card not in canonical wording, in place (nothing else changes).")
@click.option("--diff", "show_diff", is_flag=True,
              help="Print what --fix would write, as a unified diff; write nothing.")
def check(paths: tuple[str, ...], edition: str | None, fix: bool, show_diff: bool) -> None:
    """Validate card YAML files or folders (all bundled cards without PATHS); every error with file:line:col.

    A file under a bundled edition's folder (cards/galecrest/..., cards/classic/...) is checked
    against that edition, any other against --edition.  A rank that another character of the
    edition already has is an error too.  Files without errors are then loaded together, as
    `cards test` loads them, so that nothing is accepted that would not load (a bundled card a
    mod's tile leaves inert is a warning).  A valid card whose text is worded otherwise than the
    engine reads it gets a note with the canonical wording of each such line; --fix rewrites
    them (files with errors are left alone).
    """
    if fix and show_diff:
        raise click.UsageError("--fix and --diff do not go together: --diff shows what --fix would write")
    try:
        groups, boards = _by_edition(paths or (str(_paths.cards_dir()),), edition)
        errors: list[DataError] = [e for board in boards for e in _board_check(board)]
        cards: list[CheckedCard] = []
        warned: list[str] = []
        for ed, files in groups.items():
            found, checked = check_cards(files, ed)
            found += _rank_clashes(files, ed, {e.path for e in found})
            if not found:
                found, said = _load_check(files, ed)
                warned += said
            errors += found
            cards += checked
        rewrites, notes = _rewordings(cards, errors)
    except (LibertaliaError, OSError) as exc:  # the edition itself does not load, or a folder cannot be listed
        echo(f"libertalia: {exc}", err=True)
        raise SystemExit(2) from None
    except Exception as exc:  # a bug, not a bad file: one line naming the file (exit 70), never a traceback
        where = next((n.removeprefix("while checking ") for n in getattr(exc, "__notes__", ())
                      if n.startswith("while checking ")), ", ".join(paths))
        detail = (str(exc).splitlines() or [""])[0][:200]
        echo(f"libertalia: internal error while checking {where}: {type(exc).__name__}: {detail} "
             "(please report this)", err=True)
        raise SystemExit(70) from None
    for e in errors:
        echo(str(e), err=True)
    for warning in dict.fromkeys(warned):
        echo(warning, err=True)
    if fix:
        errors += _rewrite(rewrites, paths or (str(_paths.cards_dir()),))
    elif show_diff:
        _show_diff(rewrites)
    else:
        for note in notes:
            echo(note, err=True)
    if errors:
        echo(f"{len(errors)} error{'s' if len(errors) != 1 else ''}", err=True)
    pending = 0 if fix else sum(isinstance(new, str) for _, _, new in rewrites)
    if pending:
        verb = "would be rewritten" if show_diff else "not in canonical wording"
        echo(f"{_plural(pending, 'card')} {verb}: run with --fix to rewrite {'it' if pending == 1 else 'them'}",
             err=True)
    if errors:
        raise SystemExit(1)
    count = sum(len(files) for files in groups.values()) + len(boards)
    named = list(dict.fromkeys([*groups, *map(board_edition, boards)]))
    echo(f"all cards are valid ({count} file{'s' if count != 1 else ''}: {', '.join(named)})")


def _load_check(files: list[Path], edition: str) -> tuple[list[DataError], tuple[str, ...]]:
    """The files loaded together as ``cards test`` loads them: whatever the load refuses that the checks above let
    through (such as a card whose extra count no tile scores in sets), and its warnings (a bundled card a mod's tile
    leaves inert)."""
    try:
        _, notes = load_together(files, edition)
    except DataErrors as exc:
        return list(exc.errors), ()
    except DataError as exc:
        return [exc], ()
    return [], notes


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


Rewrite = tuple[Document, "Rewording", str | DataError]
"""A card file to rewrite, the canonical text it gets, and its new file text (or why it cannot get one)."""


def _rewordings(cards: list[CheckedCard], errors: list[DataError]) -> tuple[list[Rewrite], list[str]]:
    """The rewrite of each card not in canonical wording, in a file without errors; and their notes.

    A note is one line per ability line that changes, at the ability's line and column;
    a text that cannot be rewritten gets a note saying why.
    """
    from ..loading.canonical import reword, rewrite_card

    broken = {Path(p).resolve() for e in errors for p in _error_paths(e)}
    rewrites: list[Rewrite] = []
    notes: list[str] = []
    for spec, doc in cards:
        if Path(doc.path).resolve() in broken:
            continue
        field = dict(doc.root.items())["text"]
        try:
            rewording = reword(spec.text, spec.abilities)
        except ValueError as exc:
            notes.append(f"{doc.path}:{field.line}:{field.column}: note: --fix cannot rewrite this text: {exc}")
            continue
        if rewording is None:
            continue
        for ability, line in rewording.changed:
            where = f"{ability.line}:{ability.column}" if ability.line else f"{field.line}:{field.column}"
            notes.append(f'{doc.path}:{where}: note: canonical wording: "{line}"')
        new: str | DataError
        try:
            new = rewrite_card(doc, rewording, spec.abilities)
        except DataError as exc:
            new = exc
            notes.append(f"{exc.path}:{exc.line}:{exc.column}: note: --fix {exc.message}")
        rewrites.append((doc, rewording, new))
    return rewrites, notes


def _error_paths(error: DataError) -> list[str]:
    """The files an error blames (a group of errors blames each of its own)."""
    inner = getattr(error, "errors", None)
    return [p for e in inner for p in _error_paths(e)] if isinstance(inner, tuple) else [error.path]


def _rewrite(rewrites: list[Rewrite], roots: tuple[str, ...]) -> list[DataError]:
    """Write each rewrite in place (atomically, keeping the file's permissions); the ones that failed, as errors.

    Only files inside ``roots`` (the paths given, resolved) are written, and only when their
    bytes are still the ones checked.
    """
    inside = [Path(r).resolve() for r in roots]
    failed: list[DataError] = []
    for doc, rewording, new in rewrites:
        if isinstance(new, DataError):
            failed.append(new)
            continue
        try:
            _write(doc, new, inside)
        except DataError as exc:
            failed.append(exc)
            continue
        echo(f"rewrote {doc.path}: {_plural(len(rewording.changed), 'line')} in canonical wording")
    for e in failed:
        echo(str(e), err=True)
    return failed


def _write(doc: Document, new: str, inside: list[Path]) -> None:
    """Replace the file of ``doc`` with the text ``new``: a temporary file beside it, then ``os.replace``.

    A file reached through a link to outside the given paths, or changed since it was read,
    is not written (a DataError says so); its UTF-8 byte-order mark, if any, is kept.
    """
    import codecs
    import contextlib
    import os
    import stat
    import tempfile

    from ..loading.yamlcompose import decode

    target = Path(doc.path).resolve()
    if not any(target == root or root in target.parents for root in inside):
        raise DataError("not rewritten: the file is a link to outside the paths given", path=doc.path,
                        expected="a card file inside the checked folders")
    try:
        current = target.read_bytes()
        if current != doc.raw or decode(current, doc.path) != doc.text:
            raise DataError("not rewritten: the file changed while it was checked", path=doc.path,
                            expected="run the check again")
        data = (codecs.BOM_UTF8 if current.startswith(codecs.BOM_UTF8) else b"") + new.encode("utf-8")
        info = os.stat(target)
        fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(temporary, stat.S_IMODE(info.st_mode))
            if hasattr(os, "chown") and (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
                with contextlib.suppress(OSError):  # only the owner's own, or root, may: else the writer owns it
                    os.chown(temporary, info.st_uid, info.st_gid)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise DataError(f"not rewritten: {exc.strerror or exc}", path=doc.path) from None


def _show_diff(rewrites: list[Rewrite]) -> None:
    """A unified diff of each rewrite, as ``--fix`` would write it."""
    import difflib

    for doc, _, new in rewrites:
        if isinstance(new, DataError):
            echo(f"{new.path}:{new.line}:{new.column}: note: --fix {new.message}", err=True)
            continue
        for line in difflib.unified_diff(_lines_kept(doc.text), _lines_kept(new), doc.path, doc.path):
            echo(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n", nl=False)


def _lines_kept(text: str) -> list[str]:
    """A file's lines with their line breaks (only ``\\n`` breaks a line, as in the reader's positions)."""
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def _card_files(paths: tuple[str, ...]) -> list[Path]:
    """The YAML files of the given files and folders; a folder without any is an error."""
    out = []
    for path in paths:
        found = _yaml_files(Path(path))
        if not found:
            raise DataError("no card files (*.yaml) in this folder", path=path,
                            expected="a YAML file or a folder of them")
        out.extend(found)
    return out


def _by_edition(paths: tuple[str, ...], edition: str | None) -> tuple[dict[str, list[Path]], list[Path]]:
    """The card files to check, by the edition each is checked against (``own_edition``); and the board files.

    A mod folder that ships its own board checks its cards against that board; a solo deck is the
    board's to check (it loads with it).
    """
    files = _card_files(paths)
    default = default_edition(files, edition)
    groups: dict[str, list[Path]] = {}
    boards = []
    for path in files:
        if is_board(path):
            boards.append(path)
        elif not is_board_data(path):
            groups.setdefault(own_edition(path, default), []).append(path)
    return groups, boards


def _board_check(path: Path) -> list[DataError]:
    """A board file's errors: its examples' shape, then the rules it loads (its cards, solo deck and all)."""
    from ..loading.examplefile import read_examples

    try:
        read_examples(path)
        load_together([], board_edition(path))
    except DataErrors as exc:
        return list(exc.errors)
    except DataError as exc:
        return [exc]
    return []


def _rank_clashes(files: list[Path], edition: str, broken: set[str]) -> list[DataError]:
    """A DataError at each checked character whose rank another character of the edition has.

    The edition's own characters (and neutral cards) count, except those a checked file
    replaces by name; files with other errors are left out.
    """
    try:
        base = load({"edition": edition})
    except LibertaliaError:  # the bundled cards themselves are being mended: the checked files alone
        owners: dict[str, tuple[float, str, Field | None]] = {}
    else:
        owners = {c.name: (c.rank, c.path or "a neutral card", None) for c in base.characters}
    for path in files:
        if str(path) in broken:
            continue
        fields = dict(read(path).root.items())
        named, ranked = fields.get("name"), fields.get("rank")
        if "kind" in fields or named is None or ranked is None:
            continue
        value = ranked.value
        if isinstance(named.value, str) and isinstance(value, int | float) and not isinstance(value, bool):
            owners[named.value] = (float(value), str(path), ranked)
    seen: dict[float, tuple[str, str, Field | None]] = {}
    errors = []
    for name, (rank, where, field) in owners.items():
        if rank not in seen:
            seen[rank] = (name, where, field)
            continue
        other, other_where, other_field = seen[rank]
        blame, who, whose = (field, other, other_where) if field is not None else (other_field, name, where)
        if blame is not None:
            errors.append(blame.error(f"rank {rank:g} is already {who}'s ({whose})",
                                      "each character with its own rank"))
    return errors


@cards.command("test")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--edition", default=None,
              help="Edition for files outside the bundled card folders (default galecrest).")
def run_card_examples(paths: tuple[str, ...], edition: str | None) -> None:
    """Run the examples: of card and loot files or folders; each failure is printed with file:line:col.

    The files given load together, as `cards check` checks them: an example may seat any card
    of the folder.  A bundled card that a mod's loot tile leaves with nothing to do is a warning
    naming both, and does not fail the mod.
    """
    passed = failed = without = 0
    shown: set[str] = set()

    def once(message: str) -> None:
        if message not in shown:
            shown.add(message)
            echo(message, err=True)

    with friendly_errors():
        _card_files(paths)  # a folder without card files is an error
        for done in run_together(paths, edition):
            for note in done.notes:
                once(note)
            if done.error is not None:  # malformed examples, or rules that do not load
                once(str(done.error))
                failed += 1
                continue
            without += not done.results
            for result in done.results:
                if result.failure is None:
                    passed += 1
                else:
                    echo(str(result.failure), err=True)
                    failed += 1
    note = f" ({without} file{'s' if without != 1 else ''} without examples)" if without else ""
    echo(f"{passed} example{'s' if passed != 1 else ''} passed, {failed} failed{note}")
    if failed:
        raise SystemExit(1)


@cards.command()
@click.option("--edition", default="all", show_default=True, help="An edition's name, or all.")
@click.option("--json", "as_json", is_flag=True, help='Print {"forms": {FORM: [card names]}}.')
def words(edition: str, as_json: bool) -> None:
    """Every form of the card language, with the cards that use it.

    A card name counts once whatever its edition; a loot tile is named "kind (side)".
    Forms that one card alone uses are marked: each is probably a card's sentence
    in disguise, where a general form could say the same.
    """
    from ..language.words import bundled_cards, forms, single_card_forms, usage
    from ..loading.rules import bundled_editions

    with friendly_errors():
        editions = bundled_editions() if edition == "all" else [edition]
        table = usage(card for ed in editions for card in bundled_cards(ed))
    if as_json:
        echo_json(json.dumps({"forms": table}, indent=2))
        return
    out = console()
    spelled = forms()
    single = single_card_forms(table)
    grid = Table(title=f"Forms of the card language ({', '.join(editions)})", title_justify="left")
    for col in ("form", "words", "cards"):
        grid.add_column(col)
    for form, names in table.items():
        mark = "  [one card]" if form in single else ""
        grid.add_row(form, spelled[form], (", ".join(names) or "(unused)") + mark)
    out.print(grid)
    out.print(f"{len(table)} forms; {len(single)} used by a single card; "
              f"{sum(1 for n in table.values() if not n)} used by no bundled card")


def tree(node: Any, indent: int = 0) -> str:
    """An indented outline of a syntax tree, one node or field per line."""
    pad = "  " * indent
    if is_node(node):
        fields = [f for f in ast_fields(node) if f.eq]
        simple = all(not is_node(getattr(node, f.name)) and not isinstance(getattr(node, f.name), tuple)
                     for f in fields)
        if simple:
            inner = ", ".join(f"{f.name}={getattr(node, f.name)!r}" for f in fields)
            return f"{pad}{type(node).__name__}({inner})"
        lines = [f"{pad}{type(node).__name__}"]
        for f in fields:
            value = getattr(node, f.name)
            if is_node(value) or (isinstance(value, tuple) and value and is_node(value[0])):
                lines.append(f"{pad}  {f.name}:")
                items = value if isinstance(value, tuple) else (value,)
                lines.extend(tree(v, indent + 2) for v in items)
            else:
                lines.append(f"{pad}  {f.name}: {value!r}")
        return "\n".join(lines)
    return f"{pad}{node!r}"
