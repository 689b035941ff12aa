"""How a game looks in a terminal: a decision, a day's events, a card, and the table.

Laid out like the table (``libertalia.tableview``, which ``Game.render`` uses too, and whose
names this module also offers): for the console's width, breaking lines only between words,
with no box-drawing characters when piped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rich.console import Console
from rich.text import Text

from ..engine.specs import Rules
from ..state import Decision, Event
from ..tableview import (
    GAP,
    NBSP,
    Laid,
    Layout,
    grid,
    grouped,
    listing,
    table_lines,
    table_view,
    together,
    wrap,
)
from .terminal import safe_text

__all__ = [
    "GAP", "NBSP", "RANK_LEGEND", "Laid", "Layout", "card_text", "card_view", "decision_lines", "decision_view",
    "grid", "grouped", "listing", "option_texts", "print_events", "ranked", "table_lines", "table_view",
    "together", "wrap",
]

RANK_LEGEND = ("The number after a character is its rank: by day the island acts from the lowest rank up, "
               "and at dusk the highest rank takes its loot first.")


# ---------------------------------------------------------------- decisions, events, cards
def decision_view(decision: Decision, legend: bool = False, texts: Mapping[str, str] | None = None) -> Laid:
    """The question and its numbered options; with ``legend``, what the number after a name means.

    ``texts`` (``option_texts``) gives an option's card text, shown dim under it, whole and wrapped
    to the width: the option list is where a player decides, so a card's text is never cut.
    """
    return Laid(lambda width, _: decision_lines(decision, width, legend, texts))


def card_text(text: str) -> str:
    """A card text as shown under an option: one line per ability, spaces inside a line made single."""
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines() if line.strip())


def option_texts(decision: Decision, rules: Rules) -> dict[str, str]:
    """What each option's card or loot tile does, whole: by option key (a marked name, ``Cook#1``, too)."""
    out: dict[str, str] = {}
    kinds = set(rules.kinds)
    for option in decision.options:
        name = re.sub(r"[@#]\d+$", "", option.key)
        if rules.has_card(name):
            text = rules.card(name).text
        elif name in kinds:
            text = rules.loot_spec(name).text
        else:
            continue
        if text.strip():
            out[option.key] = card_text(text)
    return out


def decision_lines(decision: Decision, width: int = 80, legend: bool = False,
                   texts: Mapping[str, str] | None = None) -> list[Text]:
    """``decision_view``'s lines at ``width``: an option's key (a card's name) is never split."""
    lines = [safe_text(line, style="bold cyan") for line in wrap(decision.prompt, width)]
    if decision.source:
        source = f"  ({decision.source})"
        if len(lines[-1]) + len(source) <= width:
            lines[-1].append(source, style="dim")
        else:
            lines.append(safe_text(source, style="dim"))
    for i, option in enumerate(decision.options, 1):
        keyed = option.label.startswith(option.key)
        shown = (together(option.key) + option.label[len(option.key):] if keyed
                 else f"{option.label}  [{together(option.key)}]")
        number = f"  {i:2d}. "
        for n, line in enumerate(wrap(number.replace(" ", NBSP) + shown, width, indent=len(number))):
            text = safe_text(line)
            if n == 0 and keyed:
                text.stylize("bold", len(number), len(number) + len(option.key))
            lines.append(text)
        said = (texts or {}).get(option.key)
        if said:  # each ability on lines of its own, its later lines indented under its trigger
            hang = len(number) + 2
            lines += [safe_text(line, style="dim") for ability in said.splitlines()
                      for line in wrap(ability, width, first=hang, indent=hang + 2)]
    if legend:
        lines += [safe_text(line, style="dim") for line in wrap(RANK_LEGEND, width, first=2, indent=2)]
    return lines


def ranked(decision: Decision, rules: Rules) -> bool:
    """Whether the options are characters shown with their rank, as in ``Necromancer (19)``."""
    for option in decision.options:
        name = re.sub(r"[@#]\d+$", "", option.key)
        if rules.has_card(name) and f"({rules.card(name).rank:g}" in option.label:
            return True
    return False


def print_events(console: Console, events: tuple[Event, ...], start: int = 0, names: Iterable[str] = ()) -> None:
    """Events from ``start`` on, day headers in bold, each wrapped whole-word at the console's width.

    ``names``: card names of more than one word, kept on one line (``Wind Nymph``).
    """
    joined = sorted((n for n in names if " " in n), key=len, reverse=True)
    for e in events[start:]:
        text = re.sub(r"\bseats? (\d)", lambda m: together(m.group(0)), str(e))
        for name in joined:
            text = text.replace(name, together(name))
        header = e.kind in ("voyage", "day", "over", "rules")
        for line in wrap(text, console.width, first=0 if header else 2, indent=2 if header else 4):
            console.print(safe_text(line, style="bold" if header else ""), highlight=False)


def card_view(rules: Rules, name: str) -> Laid:
    """A character's or loot kind's name, rank or side, and text: ``show NAME`` at the prompt."""

    def layout(width: int, _: bool) -> list[Text]:
        if name in rules.kinds:
            spec = rules.loot_spec(name)
            title, text = f"{spec.kind} (loot, {spec.side} side, {spec.count} tokens)", spec.text
        else:
            card = rules.card(name)
            title, text = f"{card.name} (rank {card.rank:g})", card.text or "(neutral: no abilities)"
        lines = [safe_text(title, style="bold")]
        for paragraph in text.strip().splitlines():
            lines += [safe_text(line) for line in wrap(paragraph, width, first=2, indent=4)]
        return lines

    return Laid(layout)

