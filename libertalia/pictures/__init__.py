"""The table as a picture: an SVG string of what one seat sees, or of the whole table.

``Game.svg`` / ``Observation.svg`` and their notebook hooks draw through ``table_svg``; the
replay page (``libertalia.pictures_page``) shows one per answer.  The picture is a pure function
of what it is given (the rules, a game or a seat's observation, the question waiting, the last
step's events): no I/O.  It reads the game through ``tableview.Seen``, the same reading API the
text table uses, so it shows exactly what the text view shows to that seat.

- ``text``: escaping (names and texts come from mods), measuring and wrapping;
- ``parts``: character cards, loot tokens and boxes, and rows that wrap;
- ``happening``: the question in words, the marks of the last step, the ranking;
- ``board``: the width, the seats' colours, and how a card or a loot kind of the rules is drawn;
- ``track``, ``island`` (with the loot) and ``seats``: the blocks of the table;
- ``layout``: the whole table, block by block, with the heading and the band of what is happening.
"""

from __future__ import annotations

from .board import NEUTRAL, SEAT_COLOURS, WIDTH, seat_colour
from .layout import table_svg
from .seats import columns

__all__ = ["NEUTRAL", "SEAT_COLOURS", "WIDTH", "columns", "seat_colour", "table_svg"]
