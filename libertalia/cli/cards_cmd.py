"""``libertalia cards``: list, show, check and test card files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from .. import _paths
from ..errors import DataError, LibertaliaError
from ..language.ast import fields as ast_fields
from ..language.ast import is_node
from ..language.render import render
from ..language.suggest import did_you_mean, lookup
from ..loading.examples import edition_of, example_files, run_examples
from ..loading.rules import _yaml_files, check_files
from ..loading.yamlfile import Field, read
from . import console, friendly_errors, load, rules_args
from .contracts_cmd import contracts
from .interactions_cmd import interactions


@click.group()
def cards() -> None:
    """List, show, check and test cards."""


cards.add_command(interactions)
cards.add_command(contracts)


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
        out.print(f"[bold]{escape(spec.name)}[/bold] (rank {spec.rank:g}){escape(where)}")
    else:
        spec = rules.loot_spec(found)
        out.print(f"[bold]{escape(spec.kind)}[/bold] ({escape(spec.side)} side, {spec.count} tokens)  "
                  f"{escape(spec.path)}")
    out.print("\n[bold]Text[/bold]")
    out.print(spec.text or "(neutral: no abilities)", markup=False)
    canonical = render(spec.abilities)
    if _lines(canonical) != _lines(spec.text):
        out.print("\n[bold]Canonical[/bold] (how the engine reads the text)")
        out.print(canonical, markup=False)
    if spec.abilities:
        out.print("\n[bold]Tree[/bold]")
    for ability in spec.abilities:
        out.print(tree(ability), markup=False)


def _lines(text: str) -> list[str]:
    """A card text's lines without surrounding blank lines or trailing spaces."""
    return [line.rstrip() for line in text.strip().splitlines()]


@cards.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--edition", default=None,
              help="Edition for files outside the bundled card folders (default galecrest).")
def check(paths: tuple[str, ...], edition: str | None) -> None:
    """Validate card YAML files or folders (all bundled cards without PATHS); every error with file:line:col.

    A file under a bundled edition's folder (cards/galecrest/..., cards/classic/...) is checked
    against that edition, any other against --edition.  A rank that another character of the
    edition already has is an error too.
    """
    try:
        groups = _by_edition(paths or (str(_paths.cards_dir()),), edition)
        errors = []
        for ed, files in groups.items():
            found = check_files(files, ed)
            errors += found
            errors += _rank_clashes(files, ed, {e.path for e in found})
    except (LibertaliaError, OSError) as exc:  # the edition itself does not load, or a folder cannot be listed
        click.echo(f"libertalia: {exc}", err=True)
        raise SystemExit(2) from None
    except Exception as exc:  # a bug, not a bad file: one line naming the file (exit 70), never a traceback
        where = next((n.removeprefix("while checking ") for n in getattr(exc, "__notes__", ())
                      if n.startswith("while checking ")), ", ".join(paths))
        detail = (str(exc).splitlines() or [""])[0][:200]
        click.echo(f"libertalia: internal error while checking {where}: {type(exc).__name__}: {detail} "
                   "(please report this)", err=True)
        raise SystemExit(70) from None
    for e in errors:
        click.echo(str(e), err=True)
    if errors:
        click.echo(f"{len(errors)} error{'s' if len(errors) != 1 else ''}", err=True)
        raise SystemExit(1)
    count = sum(len(files) for files in groups.values())
    click.echo(f"all cards are valid ({count} file{'s' if count != 1 else ''}: {', '.join(groups)})")


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


def _by_edition(paths: tuple[str, ...], edition: str | None) -> dict[str, list[Path]]:
    """The files to check, by the edition each is checked against (``edition_of``, else ``edition``)."""
    groups: dict[str, list[Path]] = {}
    for path in _card_files(paths):
        groups.setdefault(edition_of(path) or edition or "galecrest", []).append(path)
    return groups


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
    """Run the examples: of card and loot files or folders; each failure is printed with file:line:col."""
    passed = failed = without = 0
    with friendly_errors():
        _card_files(paths)  # a folder without card files is an error
        for path in example_files(paths):
            try:
                results = run_examples(path, edition)
            except DataError as exc:  # malformed examples, or a card that does not load
                click.echo(str(exc), err=True)
                failed += 1
                continue
            without += not results
            for result in results:
                if result.failure is None:
                    passed += 1
                else:
                    click.echo(str(result.failure), err=True)
                    failed += 1
    note = f" ({without} file{'s' if without != 1 else ''} without examples)" if without else ""
    click.echo(f"{passed} example{'s' if passed != 1 else ''} passed, {failed} failed{note}")
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
        click.echo(json.dumps({"forms": table}, indent=2))
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
