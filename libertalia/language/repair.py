"""The nearest wording the grammar accepts, for card text that does not parse, and every error of it.

Run only after a parse failed (``lalr`` imports this then), one line at a time: each
ability is one line, so a line parses on its own and the next line starts afresh.  At
the first word the parser cannot take, small edits of the words around it are tried:
delete a word, insert one or two words the parser can take there, replace a word by
one it can take, swap two neighbours.  Each edit costs one (two words inserted, two); a
replacement costs from a half to one and a half, the less the more it is spelt like the
word it replaces (``suggest.similarity``).  The cheapest edit that lets the whole line
parse wins; when none parses (a line with two mistakes), the edit that
carries the parse furthest is kept and the search goes on from the next error.  At the
end of a line only an edit that lets it parse is a repair.

No edit changes what the line says (``meaning``): a word that names a place, a piece, a kind,
an action or an amount is never deleted nor replaced but by its own forms, no fix reads a
keyword as a loot kind, and a line mended only by several edits that add words of meaning
gets no fix (that would be another sentence): its first error stands with what would fit.

The words the parser can take come from the parser's own tables at run time (lark's
interactive parser: ``choices`` in a state, ``feed_token`` on a copy), never from a
list of sentences, so the search follows the grammar as it changes.  Each error tries
at most ``BUDGET`` candidate parses, each from the parser state before the edit (the
words before it are not read again), in a fixed order: the result is deterministic.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterator, Sequence
from copy import copy
from typing import Any, NamedTuple

from lark import Lark, Token
from lark.exceptions import UnexpectedToken
from lark.parsers.lalr_interactive_parser import InteractiveParser

from ..suggest import CUTOFF, similarity
from .lexer import WordLexer, _words
from .meaning import carries_meaning, may_delete, may_replace
from .printed_words import printed_phrases

BUDGET = 300
"""The most candidate parses one error may try (each feeds one edited line to the parser)."""
LOOKAHEAD = 3
"""Words past the error a partial repair should carry the parse through to count as a good one."""
FULL_PARSES = 30
"""Of an error's candidates, how many may read the whole rest of the line (the others read ``LOOKAHEAD`` words)."""
MAX_LINE_ERRORS = 5
"""Errors reported per line: past that a line is more noise than text."""
MAX_TEXT_ERRORS = 20
"""Errors reported per text, so that a long file of garbage still answers quickly."""

_MARKS = frozenset(":,.;()")
_NO_SPACE_BEFORE = frozenset(":,.;)")
# Placeholders for the open classes the parser may need a word of; kinds and names are left out:
# no word stands for every one ("loot" does, where any kind is taken).
_PLACEHOLDERS = {"NUMBER": ("1",), "OR_IF": ("or",)}
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven",
                                                   "eight", "nine", "ten", "eleven", "twelve"))}
_NEVER = frozenset({"$END", "_NL", "WORD"})


class Word(NamedTuple):
    """A word or mark of a line, as the lexer reads it (``kind``: word, name, number, junk or punct)."""

    kind: str
    text: str
    column: int  # 1-based, in its line of the card text; 0 for a word a repair adds
    place: int  # its place among the line's own words; -1 for a word a repair adds


class Edit(NamedTuple):
    """The words ``removed``, from ``at`` on in a line (as repaired so far), replaced by ``added``."""

    at: int
    removed: tuple[Word, ...]
    added: tuple[Word, ...]
    cost: float
    how: str  # "insert", "delete", "swap" or "replace"


class Problem(NamedTuple):
    """One error of a line: where it is, what the parser could take there, and its repair."""

    line: int  # 1-based line of the card text
    column: int  # where the caret goes: the word's first letter, or just past the line's last word
    word: str  # the word or mark the parser could not take; "" where the line ended too early
    more_lines: bool  # whether a line break follows (the line, not the text, ended too early)
    accepts: frozenset[str]  # the terminals the parser could take there
    parses: int  # candidate parses this error tried (at most ``BUDGET``)
    window: str = ""  # the repaired words around the change; "" without a repair of the whole line
    respelt: str = ""  # the word meant, when the repair respells the word itself (a misspelling)
    fix: str | None = None  # the whole line repaired, when the repairs of its errors let it parse


def diagnose(text: str, parser: Lark) -> list[Problem]:
    """Every error of ``text`` (at most ``MAX_TEXT_ERRORS``), line by line, each with its repair.

    A line whose every error is repaired gets its repaired text (``Problem.fix``, which
    parses on its own) and, for each error, the words around its change (``window``).
    """
    grammar = _grammar(parser)
    lines = text.split("\n")
    out: list[Problem] = []
    for number, words, more in _lines(text):
        if len(out) >= MAX_TEXT_ERRORS:
            break
        out += _Line(grammar, number, lines[number - 1].rstrip("\r"), words, more).problems()
    return out[:MAX_TEXT_ERRORS]


def spellings(parser: Lark) -> dict[str, tuple[str, ...]]:
    """The words each terminal of the grammar stands for, as written (open classes have none)."""
    return _grammar(parser).spellings


def _lines(text: str) -> Iterator[tuple[int, list[Word], bool]]:
    """(line number, its words, whether a line break follows) for every line holding a word.

    The words are those the lexer reads, after its printed phrases are put in the grammar's order
    (``printed_phrases``); a word that rewrites put in is no word of the line as written (``place`` -1).
    """
    current: list[Word] = []
    number = 0
    written = list(_words(text))
    own = {id(w) for w in written}
    for word in printed_phrases(written):
        kind, value, _pos, line, column = word
        if kind == "nl":
            if current:
                yield number, current, True
            current = []
            continue
        number = line
        current.append(Word(kind, value, column, len(current) if id(word) in own else -1))
    if current:
        yield number, current, False


class _Grammar:
    """What the search reads from the built parser once: spellings, the lexer, a parser to copy."""

    def __init__(self, parser: Lark) -> None:
        lexer = parser.parser.lexer
        assert isinstance(lexer, WordLexer)
        self.lexer = lexer
        self.spellings = {t.name: _literals(t.pattern) for t in parser.terminals}
        self.start: InteractiveParser = parser.parse_interactive("")
        conf = copy(self.start.parser_state.parse_conf)
        conf.callbacks = {}  # a recogniser: no tree is built while candidates are tried
        self.start.parser_state.parse_conf = conf
        self._words: dict[frozenset[str], tuple[str, ...]] = {}
        self.keywords = frozenset(w for spelt in self.spellings.values() for w in spelt)

    def strained(self, word: Word, type_: str) -> int:
        """1 when a keyword is read as a loot kind (the lexer allows it, a modder hardly means it), else 0."""
        return int(type_ == "KIND" and word.text in self.keywords)

    def words(self, choices: Any) -> tuple[str, ...]:
        """The words the parser could take where it takes ``choices``, in a fixed order."""
        key = frozenset(t for t in choices if t.isupper() and t not in _NEVER)
        found = self._words.get(key)
        if found is None:
            found = tuple(sorted({w for t in key for w in self.spellings.get(t, ()) + _PLACEHOLDERS.get(t, ())}))
            self._words[key] = found
        return found

    def parser(self) -> InteractiveParser:
        return copy_parser(self.start)


@functools.cache
def _grammar(parser: Lark) -> _Grammar:
    return _Grammar(parser)


def _literals(pattern: Any) -> tuple[str, ...]:
    """The plain words of a terminal's pattern: the string itself, or the literal alternatives of a regexp."""
    if pattern.type == "str":
        return (pattern.value,)
    body = pattern.value
    if body.startswith("(?:") and body.endswith(")"):
        body = body[3:-1]
    out = []
    for alt in _top_level_alternatives(body):
        if re.fullmatch(r"(?:[a-z']|\\-)+", alt):
            out.append(alt.replace("\\-", "-"))
    return tuple(out)


def _top_level_alternatives(body: str) -> list[str]:
    """``body`` split at each ``|`` outside brackets and parentheses."""
    parts, depth, start, escaped = [], 0, 0, False
    for i, ch in enumerate(body):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return parts


def _kind(text: str) -> str:
    if text in _MARKS:
        return "punct"
    if text.isdigit():
        return "number"
    return "name" if text[:1].isupper() else "word"


def _added(text: str) -> Word:
    return Word(_kind(text), text, 0, -1)


def _likeness(old: str, new: str) -> float:
    """How alike a word and its replacement look: marks are half alike, a mark and a word not at all."""
    if (old in _MARKS) != (new in _MARKS):
        return 0.0
    if old in _MARKS:
        return 0.5
    return similarity(old, new)


class _Candidate(NamedTuple):
    edit: Edit
    complete: bool  # the whole line parses
    progress: int  # words past the error taken before the next one
    strained: int  # keywords the line then reads as loot kinds ("a map or a chest": 'a' as a kind)


class _Line:
    """The search over one line: its words as repaired so far, and the parser state before each."""

    def __init__(self, grammar: _Grammar, number: int, source: str, words: list[Word], more: bool) -> None:
        self.grammar, self.number, self.source, self.more = grammar, number, source, more
        self.original = words
        self.words = list(words)
        self.states = [grammar.parser()]  # states[i]: the parser before words[i]
        self.read: list[str] = []  # read[i]: the terminal words[i] was read as, for the words fed so far
        self.strained = [0]  # strained[i]: keywords read as kinds among words[:i]
        self.parses = self.full_parses = 0

    def problems(self) -> list[Problem]:
        """The line's errors in order, each found where the repair of the one before left the parse."""
        found: list[Problem] = []
        edits: list[Edit] = []
        floor = 0  # no edit before it: an earlier repair settled those words
        for _ in range(MAX_LINE_ERRORS):
            at = self._failure()
            if at is None or at < floor:  # none left, or one inside words the last repair settled (a printed
                break  # phrase read across its edit): the search has nothing of the line's own left to try
            self.parses = self.full_parses = 0
            best = self._search(at, floor)
            found.append(self._problem(at))
            if best is None:
                break
            edit = best.edit
            edits.append(edit)
            self.words[edit.at:edit.at + len(edit.removed)] = edit.added
            del self.states[edit.at + 1:], self.strained[edit.at + 1:], self.read[edit.at:]
            floor = edit.at + len(edit.added)
        if len(edits) == len(found) and self._failure() is None:  # every error repaired: the line parses
            if len(edits) > 1 and any(carries_meaning(w.text) for e in edits for w in e.added):
                return found[:1]  # several guesses that add meaning write another sentence: no fix
            fix = self._render()
            found = [p._replace(fix=fix, window=self._window(e), respelt=_respelt(e, p))
                     for p, e in zip(found, edits, strict=True)]
        return found

    # ------------------------------------------------------------ parsing
    def _failure(self) -> int | None:
        """Where the line as it stands stops parsing (``len(words)``: at its end), or None if it parses."""
        words = self.words
        while len(self.states) <= len(words):
            i = len(self.states) - 1
            ip = copy_parser(self.states[i])
            fed = self._feed(ip, words, i)
            if fed is None:
                return i
            type_, consumed = fed
            for n in range(consumed):  # the words of a phrase read as one: the parser after it stands before each
                self.states.append(ip if n == consumed - 1 else copy_parser(ip))
                self.read.append(type_ if n == 0 else "")
                self.strained.append(self.strained[i] + self.grammar.strained(words[i], type_))
        return None if _ends(copy_parser(self.states[-1])) else len(words)

    def _feed(self, ip: InteractiveParser, words: Sequence[Word], i: int) -> tuple[str, int] | None:
        """Feed ``words[i]`` as the lexer reads it there (``WordLexer.read``: a phrase, a word left out or read
        with others): the terminal it was read as ("" for none) and how many words that took; or None (``ip``
        spoilt) when the parser cannot take it."""
        line = [(w.kind, w.text, 0, 0, w.column) for w in words]
        type_ = ""
        while True:
            reading = self.grammar.lexer.read(line, i, lambda: _choices(ip))
            try:
                while True:
                    token = next(reading)
                    ip.feed_token(Token(token.type, token.value))
                    type_ = type_ or token.type
            except StopIteration as done:
                consumed: int = done.value
            except UnexpectedToken:
                return None
            if consumed:
                return type_, consumed

    def _feed_all(self, ip: InteractiveParser, words: Sequence[Word], start: int) -> tuple[int, int]:
        """Feed ``words`` from ``start`` until one does not fit: where it stopped, and the keywords read as kinds."""
        strained = 0
        i = start
        while i < len(words):
            fed = self._feed(ip, words, i)
            if fed is None:
                break
            type_, consumed = fed
            strained += self.grammar.strained(words[i], type_)
            i += consumed
        return min(i, len(words)), strained

    def _try(self, edit: Edit, error: int) -> _Candidate | None:
        """The edit, if the parser then gets past the error; one candidate parse.

        The parse reads ``LOOKAHEAD`` words past the edit, and the rest of the line only for
        the first ``FULL_PARSES`` edits that get that far, so that a long line costs little more.
        """
        self.parses += 1
        words = self.words
        after = edit.at + len(edit.removed)
        rest = [*edit.added, *words[after:after + LOOKAHEAD + 1]]
        ip = copy_parser(self.states[edit.at])
        taken, strained = self._feed_all(ip, rest, 0)
        strained += self.strained[edit.at]
        if taken < len(edit.added):
            return None  # the edit's own words do not fit
        if taken == len(rest) and after + taken - len(edit.added) < len(words):  # the lookahead is read
            if self.full_parses >= FULL_PARSES:
                return _Candidate(edit, False, LOOKAHEAD, strained)
            self.full_parses += 1
            rest = [*rest, *words[after + LOOKAHEAD + 1:]]
            taken, more = self._feed_all(ip, rest, taken)
            strained += more
        complete = taken == len(rest) and _ends(ip)
        stop = after + taken - len(edit.added)  # the next error, in the line before the edit
        progress = stop - max(error, after)
        if not complete and progress < 1:
            return None  # no word past the error read: no repair (at the line's end, only a whole parse is one)
        return _Candidate(edit, complete, progress, strained)

    # ------------------------------------------------------------ the search
    def _search(self, error: int, floor: int) -> _Candidate | None:
        """The best repair of the error at ``error``, from edits at or after ``floor``."""
        best: _Candidate | None = None
        seen: set[tuple[object, ...]] = set()
        self.full_parses = 0
        settled = self.strained[max(floor, error - 2)]  # before every edit: the same for all

        def better(c: _Candidate) -> bool:
            """Keep the best so far; True when nothing later can beat it (a whole parse, nothing strained)."""
            nonlocal best
            if c.strained > settled:
                return False  # a keyword read as a loot kind ("take a random character"): never a fix
            if best is None or _rank(c) < _rank(best):
                best = c
            return c.complete and c.strained == settled

        for edit in sorted(self._edits(error, floor), key=_order(error)):
            if self.parses >= BUDGET:
                return best
            if self._fresh(edit, error, seen) and (c := self._try(edit, error)) is not None and better(c):
                return c
        if best is not None and best.progress >= LOOKAHEAD:
            return best
        for edit in self._pairs(error, floor):  # two words missing: only when one edit gets nowhere
            if self.parses >= BUDGET:
                break
            if self._fresh(edit, error, seen) and (c := self._try(edit, error)) is not None and better(c):
                return c
        return best

    def _fresh(self, edit: Edit, error: int, seen: set[tuple[object, ...]]) -> bool:
        """Whether no edit tried before gave the same line (deleting either of two equal words).

        Every edit of an error lies within the words ``error - 2`` … ``error + 1``, so the
        lines two edits give are equal when these words, as edited, and the shift after them are.
        """
        words = self.words
        low, high = max(0, error - 2), error + 2
        after = edit.at + len(edit.removed)
        key = (len(edit.added) - len(edit.removed), *(w.text for w in words[low:edit.at]),
               *(w.text for w in edit.added), *(w.text for w in words[after:high]))
        if key in seen:
            return False
        seen.add(key)
        return True

    def _edits(self, error: int, floor: int) -> Iterator[Edit]:
        """Every single edit of the words ``error - 2`` … ``error`` (never before ``floor``).

        A word that carries meaning (``meaning``: a place, a kind, a verb, a number …) is never
        dropped nor replaced by another word, only by its own forms: a fix keeps what the line says.
        """
        words = self.words
        texts = [w.text for w in words]
        for at in range(max(floor, error - 2), error + 1):
            choices = self.grammar.words(_choices(self.states[at]))
            for text in choices:
                yield Edit(at, (), (_added(text),), 1.0, "insert")
            if at >= len(words):
                continue
            old = words[at]
            read_as = (self.read[at] or None) if at < len(self.read) and not self.grammar.strained(old, self.read[at]) \
                else None
            if may_delete(texts, at, read_as):
                yield Edit(at, (old,), (), 1.0, "delete")
            if at + 1 < len(words) and words[at + 1].text != old.text:
                yield Edit(at, (old, words[at + 1]), (words[at + 1], old), 1.0, "swap")
            for text in self._replacements(old.text, choices):
                if may_replace(old.text, text, read_as):
                    yield Edit(at, (old,), (_added(text),), 0.5 + (1.0 - _likeness(old.text, text)), "replace")

    def _replacements(self, old: str, choices: tuple[str, ...]) -> Iterator[str]:
        for text in choices:
            if text == old:
                continue
            if text in _PLACEHOLDERS["NUMBER"] and old.lower() in _NUMBER_WORDS:
                yield _NUMBER_WORDS[old.lower()]  # "three" for a number: 3
            else:
                yield text

    def _pairs(self, error: int, floor: int) -> Iterator[Edit]:
        """Two words inserted before the error's word, in a fixed order (each first word costs a parse)."""
        if error < floor:
            return
        for first in self.grammar.words(_choices(self.states[error])):
            if self.parses >= BUDGET:
                return
            self.parses += 1
            ip = copy_parser(self.states[error])
            word = _added(first)
            if self._feed(ip, [word], 0) is None:
                continue
            for second in self.grammar.words(_choices(ip)):
                yield Edit(error, (), (word, _added(second)), 2.0, "insert")

    # ------------------------------------------------------------ reporting
    def _problem(self, at: int) -> Problem:
        """The error at word ``at``, what the parser could take there as lark's own error would say it."""
        ip = copy_parser(self.states[at])
        if at < len(self.words):
            self._feed(ip, self.words, at)  # lark reads its expectations after the reductions the word allows
            w = self.words[at]
            line, column, word = self.number, w.column, w.text
        else:
            end = Token("_NL" if self.more else "$END", "\n" if self.more else "")
            with contextlib.suppress(UnexpectedToken):
                ip.feed_token(end)
            last = self.original[-1]
            line, column, word = self.number, last.column + len(last.text), ""
        accepts = frozenset(_accepts(ip)) or frozenset(t for t in _choices(ip) if t.isupper())
        return Problem(line, column, word, self.more, accepts, self.parses)

    def _window(self, edit: Edit) -> str:
        """The repaired words around an edit: up to two before it and four after, not across a mark."""
        words = self.words
        start, stop = edit.at, edit.at + len(edit.added)
        while start > 0 and edit.at - start < 2 and words[start - 1].text not in _MARKS:
            start -= 1
        end = stop
        while end < len(words) and end - stop < 4 and words[end].text not in _MARKS:
            end += 1
        return _join(words[start:end])

    def _render(self) -> str:
        """The line as repaired, with its own spacing (and any comment) kept where no word changed."""
        src = self.source
        first, last = self.original[0], self.original[-1]
        out = [src[:first.column - 1]]
        previous: Word | None = None
        for w in self.words:
            if previous is not None:
                if previous.place >= 0 and w.place == previous.place + 1:
                    out.append(src[previous.column - 1 + len(previous.text):w.column - 1])
                elif w.text not in _NO_SPACE_BEFORE and previous.text != "(":
                    out.append(" ")
            out.append(w.text)
            previous = w
        out.append(src[last.column - 1 + len(last.text):])
        return "".join(out)


def _respelt(edit: Edit, problem: Problem) -> str:
    """The word meant, when an edit only respells the word the parser could not take (a misspelling)."""
    if edit.how != "replace" or not problem.word:
        return ""
    old, new = edit.removed[0], edit.added[0].text
    same = (old.text, old.column) == (problem.word, problem.column)
    return new if same and _likeness(old.text, new) >= CUTOFF else ""


def copy_parser(ip: InteractiveParser) -> InteractiveParser:
    """A copy to feed on: the states are copied, the values (plain lists, no tree) shared."""
    fresh: InteractiveParser = ip.copy(deepcopy_values=False)  # type: ignore[no-untyped-call]
    return fresh


def _choices(ip: InteractiveParser) -> dict[str, Any]:
    """What the parser can take next (terminals and rules), from its table: no parse."""
    found: dict[str, Any] = ip.choices()  # type: ignore[no-untyped-call]
    return found


def _accepts(ip: InteractiveParser) -> set[str]:
    """The terminals the parser can really take next (each tried on a copy, as lark's errors say them)."""
    found: set[str] = ip.accepts()  # type: ignore[no-untyped-call]
    return found


def _ends(ip: InteractiveParser) -> bool:
    """Whether the line may end here (``ip`` is spoilt either way)."""
    try:
        ip.feed_token(Token("$END", ""))
    except UnexpectedToken:
        return False
    return True


_HOW = {"insert": 0, "delete": 1, "swap": 2, "replace": 3}


def _order(error: int) -> Callable[[Edit], tuple[Any, ...]]:
    """The order edits are tried in: cheapest first, then nearest the error, then by their words."""
    def key(e: Edit) -> tuple[Any, ...]:
        # ":" first among equals: after a timing a "," reads as its ":" too (a printed wording), and the fix
        # offers the canonical mark
        return (e.cost, error - e.at, _HOW[e.how], tuple("\0" if w.text == ":" else w.text for w in e.added), e.at)
    return key


def _rank(c: _Candidate) -> tuple[Any, ...]:
    """A whole parse first; then no keyword read as a kind; the parse carried furthest (up to ``LOOKAHEAD``);
    then the cheaper edit."""
    return (not c.complete, c.strained, -min(c.progress, LOOKAHEAD) if not c.complete else 0, c.edit.cost)


def _join(words: Sequence[Word]) -> str:
    """Words as a modder writes them: a space between words, none before a closing mark or after '('."""
    out: list[str] = []
    for i, w in enumerate(words):
        if i and w.text not in _NO_SPACE_BEFORE and words[i - 1].text != "(":
            out.append(" ")
        out.append(w.text)
    return "".join(out)
