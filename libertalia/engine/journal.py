"""The event log, packed: a few bytes an event, sentences written only when someone reads them.

A game logs some 300 events.  As objects with their sentences formatted eagerly they were
90% of a finished state's memory and a quarter of its play time, yet most games (bots,
simulations, search) never read them.  So the engine writes each event as a template
number and its arguments, varint-encoded into one ``bytes`` value: numbers zigzag-coded,
words as their index in the rules' lexicon (card names, loot kinds, a fixed vocabulary),
any other text spelled out.  ``decode`` turns the bytes back into ``Event`` values.

A template's arguments have one of these shapes:

``n``  a number;  ``w``  a word;  ``a``  a word with its article ("a map");
``W``  a list of words ("map, map") and ``V`` the same, "nothing" when empty;
``R``  characters as (seat or -1, name) pairs ("Cook (seat 1), Parrot");
``S``  scores, one per seat ("seat 0 31, seat 1 24");
``P``  (word, word) pairs ("map stormy, relic calm").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from ..state import Event


@attrs.frozen
class Template:
    """One kind of sentence: the event's ``kind``, its format and its argument shapes.

    ``seat``, ``source`` and ``amount`` give the argument that fills that ``Event`` field
    (``None``: left empty); a ``kind`` of ``""`` takes the kind from argument 0.
    """

    kind: str
    text: str
    shapes: str
    seat: int | None = None
    source: int | None = None
    amount: int | None = None
    # For a sentence a format cannot write: its text, source and amount from the argument values.
    custom: Callable[[list[Any]], tuple[str, str | None, int]] | None = None


def _change(values: list[Any]) -> tuple[str, str | None, int]:
    """Gains and losses are logged as (unit, seat, signed n, source): the commonest event, kept short."""
    unit, seat, n, source = values
    what = "doubloon" if unit == "doubloons" and abs(n) == 1 else unit
    text = f"seat {seat} {'gains' if n > 0 else 'loses'} {abs(n)} {what} ({source})"
    return text, source, n if unit == "doubloons" else 0


def _change_doubloons(values: list[Any]) -> tuple[str, str | None, int]:
    return _change(["doubloons", *values])


def _overflow(values: list[Any]) -> tuple[str, str | None, int]:
    """R28: reputation past either end of the track turns into doubloons (``n`` signed)."""
    seat, n = values
    coins = f"{abs(n)} doubloon{'' if abs(n) == 1 else 's'}"
    return f"seat {seat}'s reputation runs past the end of the track: {'gains' if n > 0 else 'loses'} {coins}", None, 0


def _tie(values: list[Any]) -> tuple[str, str | None, int]:
    """R26: equal top scores; ``values[0]`` is the winner, then every seat tied with it."""
    winner, *tied = values[0]
    return (f"seats {', '.join(str(s) for s in tied)} tie on score; seat {winner} wins on reputation",
            None, 0)


def _play(values: list[Any]) -> tuple[str, str | None, int]:
    """A card played is its printed card, whoever holds it now ("Cook#1" is a Cook)."""
    seat, name = values
    return f"seat {seat} plays {name}", name.partition("#")[0], 0


TEMPLATES: tuple[Template, ...] = (
    Template("rules", "{0}; loot sides: {1}", "wP"),
    Template("voyage", "voyage {0} begins ({1} days); everyone receives {2}", "nnW"),
    Template("income", "seat {0} collects {1} doubloons of income", "nn", seat=0),
    Template("income", "seat {0} starts with {1} doubloons", "nn", seat=0),
    Template("day", "voyage {0}, day {1}: today's loot is {2}", "nnV"),
    Template("play", "", "nw", seat=0, custom=_play),
    Template("reveal", "the island: {0}", "R"),
    Template("loot", "unclaimed loot leaves the day: {0}", "W"),
    Template("loot", "seat {0} removes {1} from today's loot", "na", seat=0),
    Template("loot", "seat {0}'s {1} takes {2}", "nwa", seat=0),
    Template("bank", "seat {0} banks {1} doubloons (score {2})", "nnn", seat=0),
    Template("over", "the game is over: {0}", "S"),
    Template("discard", "seat {0}'s {1} is discarded", "nw", seat=0),
    Template("move", "seat {0} takes seat {1}'s {2} into their own zones", "nnw", seat=0),
    Template("move", "seat {0} takes a card from their graveyard into their hand", "n", seat=0),
    Template("move", "seat {0} puts {1} from their {2} into their {3}", "nwww", seat=0),
    # Gains and losses: kind (the unit), seat, n (negative: a loss), source.
    Template("", "", "wnnw", seat=1, custom=_change),
    Template("pay", "seat {0} pays seat {1} {2} doubloons ({3})", "nnnw", seat=1, source=3, amount=2),
    Template("reputation", "seat {0} moves to the {1} reputation space", "nw", seat=0),
    Template("play", "seat {0} puts {1} onto the island", "nw", seat=0, source=1),
    Template("loot", "seat {0} takes {1} ({2})", "naw", seat=0),
    Template("loot", "seat {0} returns {1} to the bag", "nW", seat=0),
    Template("keep", "seat {0} keeps {1} aboard for the next voyage", "nw", seat=0),
    Template("keep", "seat {0} keeps {1} for the next voyage", "nW", seat=0),
    Template("loot", "seat {0} gives {1} to seat {2}", "nWn", seat=0),
    Template("loot", "seat {0} draws {1} from the bag", "nW", seat=0),
    Template("loot", "seat {0} swaps {1} for {2}", "naa", seat=0),
    Template("borrow", "seat {0} uses the {1} ability of {2}", "nww", seat=0),
    Template("doubloons", "", "nnw", seat=0, custom=_change_doubloons),  # CHANGE, in doubloons: the commonest
    # Solo games: the Pilferer is nobody's, so these events have no seat.
    Template("play", "the Pilferer plays {0}", "w"),
    Template("loot", "the Pilferer takes {0} and returns it to the bag", "a"),
    Template("rank", "seat {0}'s {1} changed nothing: it now ranks {2}", "nww", seat=0),
    Template("income", "seat {0} starts with {1} extra doubloons", "nn", seat=0),
    # Causes, spelled out: who discarded whom and with what, where a token came from, the track.
    Template("discard", "seat {0}'s {1} discards seat {2}'s {3}", "nwnw", seat=2, source=1),
    Template("loot", "seat {0} takes {1} from {2} ({3})", "naww", seat=0, source=3),
    Template("reputation", "", "nn", seat=0, custom=_overflow),
    Template("reputation", "seat {0} is pushed along the track to space {1}", "nn", seat=0),
    Template("over", "", "S", custom=_tie),
    # The borrower named (its source), so statistics and ``testing.acted`` credit it.
    Template("borrow", "seat {0}'s {1} uses the {2} ability of {3}", "nwww", seat=0, source=1),
)

# Template numbers, by what happened (the engine's ``log`` calls name these).
(RULES, VOYAGE, INCOME, START_COINS, DAY, PLAY, REVEAL, LEFTOVER, REMOVE_LOOT, TAKE_AT_DUSK,
 BANK, OVER, DISCARD, TAKE_OVER, GRAVEYARD_TO_HAND, PUT, CHANGE, PAY, MOVE_REPUTATION, PUT_ON_ISLAND,
 TAKE_LOOT, RETURN_LOOT, KEEP, KEEP_LOOT, GIVE_LOOT, DRAW_LOOT, SWAP_LOOT, BORROW,
 CHANGE_DOUBLOONS, PILFERER_PLAYS, PILFERER_TAKES, NO_EFFECT, HANDICAP, DISCARD_BY, TAKE_LOOT_FROM, OVERFLOW,
 PUSHED, TIE_BROKEN, BORROW_BY) = range(len(TEMPLATES))

VOCABULARY: tuple[str, ...] = (
    "doubloons", "doubloon", "reputation", "gains", "loses", "leftmost", "rightmost",
    "hand", "ship", "graveyard", "island", "removed", "sun", "dusk", "moon", "anchor",
    "today's loot", "tomorrow's loot", "the bag", *(f"seat {n}" for n in range(8)),
)
"""Words the engine itself writes into events; each edition's names follow them in its lexicon."""

_LITERAL = 0
"""The word number that announces a word spelled out in UTF-8 (one not in the lexicon)."""


def lexicon(names: Sequence[str]) -> tuple[str, ...]:
    """The words an edition's events are written with: slot 0 is the literal escape."""
    return ("", *dict.fromkeys((*VOCABULARY, *names)))


class JournalError(ValueError):
    """Bytes that are not an event log written with this lexicon (a damaged save)."""


# ------------------------------------------------------------------ writing
Entry = tuple[int, tuple[object, ...]]
"""An event as the engine logs it: template number and arguments (ints, strings, tuples of them)."""


def write(out: bytearray, ids: Mapping[str, int], template: int, args: Sequence[object]) -> None:
    """Append one event to ``out``."""
    encode_into(out, ids, ((template, tuple(args)),))


def encode_into(out: bytearray, ids: Mapping[str, int], entries: Sequence[Entry]) -> None:
    """Append events to ``out``.  Hot when a game is frozen: one-byte values take no call."""
    append = out.append
    for template, args in entries:
        append(template)  # fewer than 128 templates: one byte
        for a in args:
            if a.__class__ is int:
                z = a << 1 if a >= 0 else (-a << 1) - 1
                if z < 0x80:
                    append(z)
                else:
                    _varint(out, z)
            elif a.__class__ is str:
                i = ids.get(a)
                if i is not None and i < 0x80:
                    append(i)
                else:
                    _word(out, ids, a)
            else:
                items: Sequence[object] = a  # type: ignore[assignment]
                _varint(out, len(items))
                for item in items:
                    if item.__class__ is int:
                        _number(out, item)
                        continue
                    i = ids.get(item)  # type: ignore[call-overload]
                    if i is not None and i < 0x80:
                        append(i)
                    else:
                        _word(out, ids, item)  # type: ignore[arg-type]


CACHE_LIMIT = 50_000
"""Packed events remembered per rules (``encode_cached``) before the memo starts afresh."""


def encode_cached(out: bytearray, ids: Mapping[str, int], entries: Sequence[Entry],
                  cache: dict[Entry, bytes]) -> None:
    """``encode_into`` with a memo of whole events: games repeat the same few hundred events
    (a seat, a card, an amount), so most are packed once per process, not once per game."""
    get = cache.get
    for entry in entries:
        packed = get(entry)
        if packed is None:
            one = bytearray()
            encode_into(one, ids, (entry,))
            packed = bytes(one)
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            cache[entry] = packed
        out += packed


def _varint(out: bytearray, n: int) -> None:
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _number(out: bytearray, n: int) -> None:
    _varint(out, n << 1 if n >= 0 else (-n << 1) - 1)


def _word(out: bytearray, ids: Mapping[str, int], word: str) -> None:
    i = ids.get(word)
    if i is not None:
        _varint(out, i)
        return
    raw = word.encode()
    out.append(_LITERAL)
    _varint(out, len(raw))
    out.extend(raw)


# ------------------------------------------------------------------ reading
class _Reader:
    __slots__ = ("data", "pos", "words")

    def __init__(self, data: bytes, words: Sequence[str]) -> None:
        self.data = data
        self.pos = 0
        self.words = words

    def varint(self) -> int:
        n = shift = 0
        while True:
            if self.pos >= len(self.data):
                raise JournalError(f"the log ends inside an event (byte {self.pos})")
            b = self.data[self.pos]
            self.pos += 1
            n |= (b & 0x7F) << shift
            if b < 0x80:
                return n
            shift += 7
            if shift > 70:
                raise JournalError(f"a number too long to be real at byte {self.pos}")

    def number(self) -> int:
        z = self.varint()
        return z >> 1 if not z & 1 else -((z + 1) >> 1)

    def word(self) -> str:
        i = self.varint()
        if i == _LITERAL:
            size = self.varint()
            raw = self.data[self.pos:self.pos + size]
            if len(raw) != size:
                raise JournalError(f"a word runs past the end of the log (byte {self.pos})")
            self.pos += size
            try:
                return raw.decode()
            except UnicodeDecodeError as e:
                raise JournalError(f"a word that is not UTF-8 at byte {self.pos - size}") from e
        if i >= len(self.words):
            raise JournalError(f"word number {i} is not in these rules' lexicon ({len(self.words)} words)")
        return self.words[i]

    def count(self) -> int:
        n = self.varint()
        if n > len(self.data):
            raise JournalError(f"a list of {n} items cannot fit in the log (byte {self.pos})")
        return n

    def pairs(self) -> int:
        """A list of pairs is written flat: its length counts both halves."""
        n = self.count()
        if n % 2:
            raise JournalError(f"a list of pairs with an odd length {n} (byte {self.pos})")
        return n // 2


def _with_article(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _read(r: _Reader, shape: str) -> tuple[object, str]:
    """One argument: its value (for the Event's fields) and how it reads in the sentence."""
    if shape == "n":
        n = r.number()
        return n, str(n)
    if shape == "w":
        w = r.word()
        return w, w
    if shape == "a":
        w = r.word()
        return w, _with_article(w)
    if shape in "WV":
        words = [r.word() for _ in range(r.count())]
        return tuple(words), ", ".join(words) or ("nothing" if shape == "V" else "")
    if shape == "R":
        pairs = [(r.number(), r.word()) for _ in range(r.pairs())]
        return tuple(pairs), ", ".join(name if seat < 0 else f"{name} (seat {seat})" for seat, name in pairs)
    if shape == "S":
        scores = [r.number() for _ in range(r.count())]
        return tuple(scores), ", ".join(f"seat {i} {s}" for i, s in enumerate(scores))
    pairs_w = [(r.word(), r.word()) for _ in range(r.pairs())]  # "P"
    return tuple(pairs_w), ", ".join(f"{a} {b}" for a, b in pairs_w)


def decode(data: bytes, words: Sequence[str], players: int | None = None) -> tuple[Event, ...]:
    """The events ``data`` records, sentences included; ``JournalError`` if it is damaged.

    With ``players``, an event's seat must also be one of the game's seats.
    """
    return tuple(_events(data, words, players))


def _events(data: bytes, words: Sequence[str], players: int | None) -> Iterator[Event]:
    """``decode``, one event at a time: a reader that stops early reads no further."""
    r = _Reader(data, words)
    while r.pos < len(data):
        at = r.pos
        number = data[r.pos]
        r.pos += 1
        if number >= len(TEMPLATES):
            raise JournalError(f"byte {at} starts an event of unknown template {number}")
        t = TEMPLATES[number]
        values, texts = [], []
        for shape in t.shapes:
            value, text = _read(r, shape)
            values.append(value)
            texts.append(text)
        seat = values[t.seat] if t.seat is not None else None
        if seat is not None and (not isinstance(seat, int) or seat < 0
                                 or (players is not None and seat >= players)):
            raise JournalError(f"the event at byte {at} names seat {seat}, not a seat of this game")
        source = values[t.source] if t.source is not None else None
        if t.custom is not None:
            text, source, amount = t.custom(values)
        else:
            text = t.text.format(*texts)
            amount = values[t.amount] if t.amount is not None else 0  # type: ignore[assignment]
        kind = t.kind or str(values[0])
        yield Event(kind, text, seat, source, amount)  # type: ignore[arg-type]


def began_with_deal(packed: bytes | None, words: Sequence[str]) -> bool:
    """Whether the game was dealt its cards (a voyage began before any card was played).

    ``False`` for a declared position, and for a game without a log (nothing to tell by).
    """
    for e in _events(packed or b"", words, None):  # the first voyage or play decides: read no further
        if e.kind in ("voyage", "play"):
            return e.kind == "voyage"
    return False
