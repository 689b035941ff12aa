"""Every error the library raises on purpose.

Each one is a ``ValueError`` so that callers who only know the standard
library still catch it, and each one says, in words, what was wrong and what
was expected: users should never need a traceback into our internals.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._terminal import visible


class LibertaliaError(Exception):
    """Base class of the library's own errors."""


class DataError(LibertaliaError, ValueError):
    """A card, loot or board file is malformed.

    Carries the file, 1-based line and column, the offending source line and
    what was expected, and renders them like a compiler diagnostic.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str = "<text>",
        line: int = 0,
        column: int = 0,
        source_line: str = "",
        expected: str = "",
    ) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        self.source_line = source_line
        self.expected = expected
        super().__init__(self._render())

    def _render(self) -> str:
        """The diagnostic, every character from the data that a terminal would act on spelt out (``_terminal``).

        The quoted line is escaped before the caret is placed, so the caret stands under the
        same character however many characters before it were spelt out.
        """
        where = f"{self.path}:{self.line}:{self.column}" if self.line else self.path
        out = [f"{visible(where)}: {visible(self.message, keep=chr(10))}"]
        if self.source_line:
            raw = self.source_line.rstrip("\n")
            at = max(self.column - 1, 0)
            line, caret = _window(visible(raw), len(visible(raw[:at])))
            out.append("    " + line)
            out.append("    " + " " * caret + "^")
        if self.expected:
            out.append(f"  expected {visible(self.expected, keep=chr(10))}")
        return "\n".join(out)


_WIDTH = 100


def _window(line: str, at: int) -> tuple[str, int]:
    """At most ``_WIDTH`` characters of a long source line around ``at``, and the caret's place in them."""
    if len(line) <= _WIDTH:
        return line, at
    start = max(0, min(at - _WIDTH // 2, len(line) - _WIDTH))
    shown = line[start:start + _WIDTH]
    prefix = "…" if start else ""
    suffix = "…" if start + _WIDTH < len(line) else ""
    return prefix + shown + suffix, at - start + len(prefix)


class CardError(DataError):
    """A card's effect text does not parse or does not make sense.

    ``fix``, when there is one, is the erring line of card text rewritten to the nearest
    wording that parses (the message's "did you mean" quotes the words around the change):
    the line of the ``text`` field, not of the YAML file, for tools that offer to apply it.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str = "<text>",
        line: int = 0,
        column: int = 0,
        source_line: str = "",
        expected: str = "",
        fix: str | None = None,
    ) -> None:
        self.fix = fix
        super().__init__(message, path=path, line=line, column=column, source_line=source_line,
                         expected=expected)


class WordingError(CardError):
    """A wording the grammar reads but cannot give one meaning where it stands ("instead" with nothing
    to replace, "you have 3 characters" without saying where): the parser's own refusal, with what to write."""


class DataErrors(DataError):
    """Several data errors found in one pass, reported together."""

    def __init__(self, errors: Sequence[DataError]) -> None:
        self.errors = tuple(errors)
        LibertaliaError.__init__(self, "\n".join(str(e) for e in self.errors))
        self.message = f"{len(self.errors)} errors"
        self.path = self.errors[0].path if self.errors else "<text>"
        self.line = self.column = 0
        self.source_line = self.expected = ""

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


class CardErrors(DataErrors, CardError):
    """Several errors of one card text (each with its own line, column and caret), raised together.

    It reads as its first error (``message``, ``line``, ``column``, ``fix`` …), so code that
    handles a single CardError still points at a real word; ``errors`` holds them all.
    """

    errors: tuple[CardError, ...]

    def __init__(self, errors: Sequence[CardError]) -> None:
        super().__init__(errors)
        first = self.errors[0]
        self.message, self.path, self.line, self.column = first.message, first.path, first.line, first.column
        self.source_line, self.expected, self.fix = first.source_line, first.expected, first.fix

    def __reduce__(self) -> tuple[type[CardErrors], tuple[tuple[CardError, ...]]]:
        return CardErrors, (self.errors,)  # rebuilt from its errors (the default would pass it its text)

    @staticmethod
    def of(errors: Sequence[CardError]) -> CardError:
        """The one error, or all of them together (nested groups flattened, repeats dropped)."""
        flat: dict[str, CardError] = {}
        for e in errors:
            for one in e.errors if isinstance(e, CardErrors) else (e,):
                flat.setdefault(str(one), one)
        found = list(flat.values())
        return found[0] if len(found) == 1 else CardErrors(found)


class ExampleFailure(DataError):
    """A card's ``examples:`` entry did not play out as it says (or could not be played).

    ``path``, ``line`` and ``column`` point at the example's ``- it:`` entry; ``it`` is its
    description and ``problems`` one line per mismatch (expected against actual).
    """

    def __init__(self, it: str, problems: Sequence[str], *, path: str, line: int, column: int) -> None:
        self.it = it
        self.problems = tuple(problems)
        message = f"example {it!r} failed:" + "".join(f"\n  {p}" for p in self.problems)
        super().__init__(message, path=path, line=line, column=column)


class IllegalChoice(LibertaliaError, ValueError):
    """An answer that the current decision did not offer.

    ``key`` is the answer, ``legal`` the keys offered, and ``seat`` the seat whose agent gave
    the answer in ``Game.play_out`` and ``lt.play`` (``None`` for a ``choose`` call).
    """

    def __init__(self, key: object, legal: Sequence[str], what: str = "", *, seat: int | None = None) -> None:
        self.key = key
        self.legal = tuple(legal)
        self.seat = seat
        prefix = f"{what}: " if what else ""
        if legal:
            offered = ", ".join(repr(k) for k in legal)
            msg = f"{prefix}{key!r} is not a legal choice; the legal keys are {offered}"
        else:
            msg = f"{prefix}{key!r} is not a legal choice; the game is over, nothing is offered"
        super().__init__(msg)


class SetupError(LibertaliaError, ValueError):
    """A declared starting position (``setup=``) is inconsistent."""


class SaveError(LibertaliaError, ValueError):
    """A saved game (``Game.from_json``) that is damaged, inconsistent or made for other rules.

    ``field`` is the path of the offending value in the save's JSON (``"state.seats[2].hand[0]"``;
    empty when the text as a whole is wrong) and ``problem`` says what is wrong with it.  The
    message reads ``cannot load the game: state.seats[2].hand[0]: unknown card 'Cok'``.
    """

    def __init__(self, problem: str, field: str = "") -> None:
        self.problem = problem
        self.field = field
        super().__init__(f"cannot load the game: {field + ': ' if field else ''}{problem}")


class RecordError(LibertaliaError, ValueError):
    """A game record that is damaged, or that no longer replays under the rules as they load now.

    ``field`` is the path of the offending value in the record's JSON (``"answers[3]"``; empty
    when the record as a whole is wrong) and ``problem`` says what is wrong.  Messages read
    ``cannot read the game record: answers[3]: must be a string, not 5`` or
    ``cannot replay the game record: ...``.
    """

    def __init__(self, problem: str, field: str = "", *, action: str = "read") -> None:
        self.problem = problem
        self.field = field
        super().__init__(f"cannot {action} the game record: {field + ': ' if field else ''}{problem}")


class FileInUse(LibertaliaError, OSError):
    """Another session holds the file (``libertalia play`` on the same save): ``pid`` is its process id, if known."""

    def __init__(self, path: object, pid: int | None) -> None:
        self.path = str(path)
        self.pid = pid
        who = f"process {pid}" if pid is not None else "a process that did not say its id"
        super().__init__(f"{self.path} is in use by another libertalia session ({who})")


class RulesError(LibertaliaError, ValueError):
    """``load_rules`` was asked for something that does not exist."""


class ArgumentError(LibertaliaError, ValueError):
    """A public function or method was given a value it does not take: a seat the game does not
    have, the wrong number of agents.  The message names the argument and what it takes; a value
    of the wrong type is a ``TypeError`` that says the same."""


class GameNotOver(LibertaliaError, ValueError):
    """Final scores or winners were asked of a game still being played: the message says where
    it stands and how to finish it (``play_out`` or answering its decisions)."""


class StepBudgetExceeded(LibertaliaError, RuntimeError):
    """A game ran past a bound no real game comes near: almost surely a card text that loops.

    ``sources`` names the cards and loot kinds involved (the abilities running or
    run last, most recent first, each once); the game it was raised from is unchanged.
    """

    def __init__(self, what: str, sources: Sequence[str] = ()) -> None:
        names = [s[2:] if s[:2] in ("c:", "l:") else s for s in sources]
        self.what = what
        self.sources = tuple(dict.fromkeys(names))
        involved = f"; involved: {', '.join(self.sources)}" if self.sources else ""
        super().__init__(f"{what}{involved}. This is probably a card text that loops.")


class CacheWarning(UserWarning):
    """Something the cache found where it looks and did not write, moved aside (never removed): the path is named."""


class RulesWarning(UserWarning):
    """Something about loaded rules that does not stop them loading, shown once by whoever loaded them.

    Code that loads the same rules again (a worker, a replay) ignores this class, and so every subclass.
    """


class UnverifiedLootWarning(RulesWarning):
    """Loaded loot tiles whose text is a reconstruction (``verified: false``), not the printed card."""


class InertCardWarning(RulesWarning):
    """A bundled card's ability that a mod's loot tile leaves with nothing to do: the mod still loads.

    The message is a diagnostic at the bundled card's ability naming the mod's tile and its file; the
    modder did not write that card, so it must not fail their mod (their own inert cards still do).
    """


class UnverifiedSoloWarning(UnverifiedLootWarning):
    """A solo game started with solo cards whose values are constructions (``verified: false``, docs/solo.md)."""
