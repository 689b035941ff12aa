"""The command's rich console, which never lets a character from the data act on the terminal.

Everything the CLI prints through rich passes this console's render hook: each piece of text
rich is about to write (a ``Segment``) goes through ``_terminal.visible`` (newlines and tabs
kept), while rich's own control sequences (colours, a progress bar's cursor moves) are left
alone, as they carry no data.  The console reads no markup either: a name like ``[red]Cook``
prints as it is written, in a table's cell as in a line; the CLI styles its own words with
``Text`` and its styles.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook, RenderResult
from rich.segment import Segment
from rich.text import Text

from .._terminal import visible

KEEP = "\n\t"
"""What the CLI lets through as it is: the line breaks and tabs of its own layout."""


class _Visible:
    """A renderable drawn as ``inner`` is, with every text segment made ``visible``."""

    def __init__(self, inner: ConsoleRenderable) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        return _visible(console.render(self.inner, options))


def _visible(segments: Iterable[Segment]) -> Iterator[Segment]:
    for segment in segments:
        if segment.control or segment.text.isprintable():
            yield segment
        else:
            yield Segment(visible(segment.text, KEEP), segment.style)


def safe_text(text: str = "", style: str = "") -> Text:
    """``Text`` of ``text`` made ``visible`` first: ``Text`` itself would silently drop a BEL or a carriage return."""
    return Text(visible(text, KEEP), style=style)


class VisibleHook(RenderHook):
    """Wrap each renderable printed in ``_Visible``."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Visible(r) for r in renderables]


class VisibleConsole(Console):
    """A console whose strings are made ``visible`` before rich reads them: rich would drop a BEL or a
    carriage return (``Text`` strips a few controls), where a reader should see ``\\x07``."""

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(visible(text, KEEP), **options)


def visible_console() -> Console:
    """A console that colours only real terminals, reads no markup, and writes no data character a terminal acts on."""
    out = VisibleConsole(highlight=False, soft_wrap=True, markup=False)
    out.push_render_hook(VisibleHook())
    return out
