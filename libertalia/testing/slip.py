"""One slip of a card's text: what ``testing.mutants`` and ``testing.grammar_slips`` both make."""

from __future__ import annotations

import attrs

__all__ = ["Slip"]


@attrs.frozen
class Slip:
    """One edit of a text: ``before`` at ``start``..``end`` becomes ``after``."""

    operator: str
    start: int
    end: int
    before: str
    after: str

    def apply(self, text: str) -> str:
        """``text`` with this slip made."""
        return text[:self.start] + self.after + text[self.end:]

    def describe(self) -> str:
        """The slip as a reader sees it: ``"3" → "4"``, or ``added "you may "``."""
        if not self.before:
            return f"added {self.after!r}"
        if not self.after:
            return f"dropped {self.before!r}"
        return f"{self.before!r} → {self.after!r}"
