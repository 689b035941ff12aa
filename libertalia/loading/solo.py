"""A board's ``solo:`` block and its solo deck file, checked with exact error positions.

Everything the solo mode varies by is data here: where the two tokens start, which loot side
replaces which kinds, Automa's loot preference and categories, the table rows on the cards'
backs, her hand size, the characters left out, and the deck (one entry per card, with its
"No effect" rank, its Automa symbol and its five picks).  The engine names no solo card.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from pathlib import Path

from ..engine.specs import SoloCard, SoloRow, SoloSpec
from .yamlfile import Document, Field, read

SOLO_KEYS = {"start": True, "loot": True, "preference": True, "categories": True, "rows": True, "hand": True,
             "without": False, "deck": True}
_CARD_KEYS = {"name": True, "no_effect": True, "symbol": True, "picks": True, "verified": False}
_PICK = re.compile(r"(left|right|symbol) ([1-9][0-9]?)")


def solo_spec(field: Field, folders: Sequence[Path], kinds: Collection[str], track_size: int,
              ) -> tuple[SoloSpec, Document]:
    """The board's ``solo:`` block, and the deck file it names: found in the first of ``folders``
    that has it (the board's own folder, then the bundled boards), so a copied board still finds
    the bundled deck and a mod can bring its own."""
    f = field.mapping(SOLO_KEYS, "the solo block")
    start = tuple(v.as_int("a start space", 0, max(track_size - 1, 0)) for v in f["start"].as_list())
    if len(start) != 2 or start[0] == start[1]:
        raise f["start"].error("a solo game puts two tokens on two different spaces", "two spaces, such as [2, 3]")
    loot = f["loot"].mapping({"side": True, "kinds": True}, "the solo loot")
    replaced = tuple(_kind(v, kinds) for v in loot["kinds"].as_list())
    preference = tuple(_kind(v, kinds) for v in f["preference"].as_list())
    if sorted(preference) != sorted(kinds):
        raise f["preference"].error("the preference order lists every loot kind once", ", ".join(sorted(kinds)))
    categories: dict[str, str] = {}
    for category, members in f["categories"].items():
        for v in members.as_list():
            kind = _kind(v, kinds)
            if kind in categories:
                raise v.error(f"{kind} is in two categories ({categories[kind]} and {category})", "each kind once")
            categories[kind] = category
    rows = tuple(_row(v, set(categories.values())) for v in f["rows"].as_list())
    if not rows or rows[-1] != SoloRow():
        raise f["rows"].error("the last row must match any loot, so that a row always applies", "{} last")
    hand = f["hand"].as_int("the hand size", 1, 40)
    without = tuple(v.as_str("a character") for v in f["without"].as_list()) if "without" in f else ()
    name = f["deck"].as_str("the deck file")
    deck_path = next((folder / name for folder in folders if (folder / name).is_file()), None)
    if deck_path is None:
        raise f["deck"].error(f"no solo deck file {name} in {' or '.join(str(d) for d in folders)}",
                              "a YAML file path relative to the board, such as galecrest/solo-deck.yaml")
    doc = read(deck_path)
    deck = _deck(doc, len(rows))
    return SoloSpec(start_spaces=start, loot_side=loot["side"].as_str("the solo side"), replaced=replaced,
                    preference=preference, categories=categories, rows=rows, hand=hand, without=without,
                    deck=deck), doc


def _kind(v: Field, kinds: Collection[str]) -> str:
    kind = v.as_str("a loot kind")
    if kind not in kinds:
        raise v.error(f"unknown loot kind {kind!r}", ", ".join(sorted(kinds)))
    return kind


def _row(v: Field, categories: set[str]) -> SoloRow:
    keys = {"all_alike": False, **{c: False for c in categories}}
    r = v.mapping(keys, "a table row")
    alike = "all_alike" in r and r["all_alike"].value is True
    if "all_alike" in r and not isinstance(r["all_alike"].value, bool):
        raise r["all_alike"].error("all_alike is true or false", "true")
    return SoloRow(all_alike=alike, at_least=tuple((c, r[c].as_int(f"at least how many {c}", 1, 40))
                                                     for c in sorted(categories) if c in r))


def _deck(doc: Document, rows: int) -> tuple[SoloCard, ...]:
    top = doc.root.mapping({"cards": True}, "a solo deck file")
    cards = []
    seen: set[str] = set()
    for v in top["cards"].as_list():
        c = v.mapping(_CARD_KEYS, "a solo card")
        name = c["name"].as_str("a character")
        if name in seen:
            raise c["name"].error(f"{name} is in the solo deck twice", "each character once")
        seen.add(name)
        symbol = c["symbol"].value
        if not isinstance(symbol, bool):
            raise c["symbol"].error("symbol is true or false", "true")
        picks = []
        for p in c["picks"].as_list():
            m = _PICK.fullmatch(p.as_str("a pick"))
            if m is None:
                raise p.error(f"not a pick: {p.value!r}", "left N, right N or symbol N")
            picks.append((m[1], int(m[2])))
        if len(picks) != rows:
            raise c["picks"].error(f"{name} needs one pick per table row ({rows})", f"{rows} picks")
        verified = c["verified"].value if "verified" in c else True
        if not isinstance(verified, bool):
            raise c["verified"].error("verified is true or false", "false")
        cards.append(SoloCard(name, c["no_effect"].as_number("the No effect rank", 1000), symbol, tuple(picks),
                              verified))
    return tuple(cards)
