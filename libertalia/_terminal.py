"""Text from data files made safe to show: every character a terminal would act on, spelt out.

A card file is data, often someone else's (a mod): its names, texts, paths and the source
lines an error quotes may hold characters that a terminal does not print but obeys.  ESC
starts sequences that move the cursor, retitle the window or set the clipboard (OSC 52);
BEL rings; a carriage return overwrites what came before; a bidi override (U+202E) shows
text in another order than it is read; a lone surrogate cannot even be encoded.  Whatever
the library prints or puts in an error message passes through ``visible``, which shows each
of them as the escape a Python string would use (``\\x1b``, ``\\u202e``): the text stays
recognisable and nothing reaches the terminal raw.

The characters are those of Unicode's categories Cc (controls, C0 and C1), Cf (format:
bidi overrides and isolates, zero-width characters), Cs (surrogates), Zl and Zp (line and
paragraph separators).  Only what the caller keeps (a newline between lines of a message,
a tab) is left as it is.
"""

from __future__ import annotations

import unicodedata
from typing import Final

UNSEEN: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""The Unicode categories a terminal acts on, or that do not show, rather than print."""

_SHORT: Final = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def unseen(ch: str) -> bool:
    """Whether the character ``ch`` is one a terminal would act on or not show (``UNSEEN``)."""
    return unicodedata.category(ch) in UNSEEN


def escape(ch: str) -> str:
    """``ch`` as Python spells it in a string literal: ``\\x1b``, ``\\u202e``, ``\\U000e0001``, ``\\n``."""
    if ch in _SHORT:
        return _SHORT[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str, keep: str = "") -> str:
    """``text`` with every unseen character but those in ``keep`` spelt out by ``escape``.

    The result holds no unseen character (but those kept), and ``visible`` of it is itself.
    """
    if text.isprintable():  # no control, format, separator or surrogate: the usual case, at once
        return text
    return "".join(ch if ch in keep or not unseen(ch) else escape(ch) for ch in text)


def visible_json(text: str) -> str:
    """JSON text with every unseen character spelt as JSON's ``\\uXXXX`` (a pair beyond U+FFFF).

    The JSON reads back to the same values; ``json.dumps(..., ensure_ascii=False)`` leaves C1
    controls and format characters raw, which this makes safe to print.  Newlines are kept.
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch == "\n" or not unseen(ch):
            out.append(ch)
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            high, low = divmod(ord(ch) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
    return "".join(out)
