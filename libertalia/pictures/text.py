"""Text in the picture: escaped for XML, measured and wrapped to a box without a browser.

Card names and texts come from mods (user data), so every piece of text goes through ``text``
or ``attr``, which escape it and drop the characters XML cannot hold.  Widths are estimated
from the advance widths of DejaVu Sans Bold (the widest face the picture names first), so a
line measured to fit its box fits it in any of the faces the picture asks for; a word wider
than its box is broken into pieces rather than cut, so nothing is ever hidden behind "…".
"""

from __future__ import annotations

import re
from typing import Final
from xml.sax.saxutils import escape, quoteattr

FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"
"""The faces asked for: the widths below are DejaVu Sans Bold's, at least as wide as the others'."""

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Advance widths (in ems) of DejaVu Sans Bold for the printable ASCII characters, space first.
_ASCII: Final = (
    0.35, 0.46, 0.52, 0.84, 0.7, 1.0, 0.87, 0.31, 0.46, 0.46, 0.52, 0.84, 0.38, 0.42, 0.38, 0.37,
    0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.4, 0.4, 0.84, 0.84, 0.84, 0.58, 1.0,
    0.77, 0.76, 0.73, 0.83, 0.68, 0.68, 0.82, 0.84, 0.37, 0.37, 0.77, 0.64, 1.0, 0.84, 0.85, 0.73,
    0.85, 0.77, 0.72, 0.68, 0.81, 0.77, 1.1, 0.77, 0.72, 0.73, 0.46, 0.37, 0.46, 0.84, 0.5, 0.5,
    0.67, 0.72, 0.59, 0.72, 0.68, 0.44, 0.72, 0.71, 0.34, 0.34, 0.67, 0.34, 1.04, 0.71, 0.69, 0.72,
    0.72, 0.49, 0.6, 0.48, 0.71, 0.65, 0.92, 0.65, 0.65, 0.58, 0.71, 0.37, 0.71, 0.84)
_OTHER: Final = 1.05  # any other character (accents, symbols, CJK): as wide as the widest ASCII ones


def text(value: object) -> str:
    """``value`` as XML character data: escaped, and without characters XML cannot hold."""
    return escape(_NOT_XML.sub("\ufffd", str(value)))


def attr(value: object) -> str:
    """``value`` as a quoted XML attribute value."""
    return quoteattr(_NOT_XML.sub("\ufffd", str(value)))


def width(line: str, size: float) -> float:
    """How wide ``line`` is at font ``size`` (an estimate that errs on the wide side)."""
    total = 0.0
    for ch in line:
        code = ord(ch)
        total += _ASCII[code - 32] if 32 <= code < 127 else _OTHER
    return total * size


def wrap(line: str, room: float, size: float) -> list[str]:
    """``line`` in lines no wider than ``room`` at ``size``: broken between words, and inside a word
    only when the word alone is wider than ``room`` (then into pieces, none of it dropped)."""
    out: list[str] = []
    current = ""
    for word in line.split():
        trial = f"{current} {word}" if current else word
        if width(trial, size) <= room:
            current = trial
            continue
        if current:
            out.append(current)
        current = ""
        while width(word, size) > room and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and width(word[:cut], size) > room:
                cut -= 1
            out.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        out.append(current)
    return out or [""]


INK: Final = "#222"
"""The picture's default text colour, set once on its root (a text of another colour says so)."""
SIZES: Final = (8, 9, 10, 11, 12, 13, 14, 15, 16, 20)
"""The font sizes the picture uses, each a class of its style sheet (``STYLE``): a short class is
far lighter than the attributes, which the replay page repeats for every step."""
STYLE: Final = "<style>" + "".join(f".lt-f{n}{{font-size:{n}px}}" for n in SIZES) + \
    ".lt-b{font-weight:bold}.lt-m{text-anchor:middle}.lt-e{text-anchor:end}</style>"


def label(x: float, y: float, value: str, *, size: float = 13, weight: str = "normal", fill: str = INK,
          anchor: str = "start", cls: str = "") -> str:
    """One line of text at (x, y), its baseline."""
    classes = [f"lt-f{size:g}" if size in SIZES else ""]
    sized = "" if size in SIZES else f' font-size="{size:g}"'
    classes += ["lt-b" if weight == "bold" else "", {"middle": "lt-m", "end": "lt-e"}.get(anchor, ""), cls]
    ink = "" if fill == INK else f' fill="{fill}"'
    klass = " ".join(c for c in classes if c)
    return f'<text x="{x:.1f}" y="{y:.1f}" class={attr(klass)}{sized}{ink}>{text(value)}</text>'.replace(".0\"", "\"")
