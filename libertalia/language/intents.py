"""Known intents the card language has no words for, each with the nearest wording it has.

A modder who writes "double your doubloons" or "another player's hand" means something the
language cannot say in any wording, so the parser's nearest parse ("half your doubloons",
"another player's ship") would change the meaning.  ``INTENTS`` is the table of such
meanings: each entry's patterns describe a family of wordings (never one sentence), and a
line that matches one is refused with what the language lacks and the nearest sayable line,
before any "did you mean".  The table is consulted only where a text already fails (a parse
error, or a word the checker cannot read), so an entry never refuses a text that works; a
test keeps every entry's ``instead`` accepted by ``cards check`` and its ``example`` refused.

Patterns are regular expressions over a line's words, with ``{n}`` for a number (digits or
``one`` … ``twelve``) and ``{n2}`` for one of 2 or more; a pattern's group ``word`` (a word
the modder chose, such as a loot kind) never matches a misspelt piece ("charcter").  They are matched case-sensitively
after the first word of each sentence is lower-cased, so that a card name (``Double Agent``)
is never read as a word of the table, and with comments left out.
"""

from __future__ import annotations

import functools
import re
from typing import Final, NamedTuple

from ..suggest import CUTOFF, similarity
from .meaning import PIECES

_SMALL = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_N: Final = rf"(?:\d+|{_SMALL})"
_N2: Final = rf"(?:\d+|{_SMALL.removeprefix('one|')})"


class Intent(NamedTuple):
    """A meaning the language lacks: how modders say it, what is missing, and the nearest wording there is."""

    name: str
    patterns: tuple[str, ...]  # regular expressions over a line ({n}: a number, {n2}: 2 or more)
    lacks: str  # what the language has no words for, as a clause ("the card language cannot multiply …")
    instead: str  # the nearest sayable line: ``cards check`` accepts it (a test checks)
    how: str  # how to say the nearest meaning, in a sentence
    example: str  # a line with the intent, refused by the parser or the checker (a test checks)


_OTHERS = r"(?:another|other|an|each|every|any|all) (?:other )?(?:player|opponent|players|opponents)(?:'s|')"
_SIDE_OWNER = r"the player on (?:your|the) (?:left|right)'s"

INTENTS: Final[tuple[Intent, ...]] = (
    Intent(
        "multiplying",
        (r"\b(?:double|doubles|doubled|triple|triples|tripled|quadruple|twice|thrice)\b",
         r"\b{n2} times\b", r"\btimes as (?:many|much)\b"),
        "the card language cannot multiply an amount: an amount is a number, a number for each thing counted, "
        "half your doubloons or doubloons up to a number",
        "sun: gain 2 doubloons for each map you hold.",
        'to pay more for each thing counted, raise the number ("2 doubloons for each …"); else give the amount '
        "in digits",
        "sun: double the doubloons you gain this day."),
    Intent(
        "amount from a count",
        (r"\bequal to\b", r"\bthe number of\b",
         r"\b(?:gain|gains|lose|loses|pay|pays|get|gets|receive|receives) (?:you )?as (?:many|much)\b"),
        'the card language works an amount out of a count only with "for each" or a table',
        "sun: gain 1 doubloon for each character in your ship.",
        'an amount that follows a count is "N doubloons for each …", or a table ("doubloons by … (1 for 1, 2 '
        'for 3)")',
        "sun: gain reputation equal to the characters in your ship."),
    Intent(
        "sums",
        (r"\b(?:plus|minus|subtract|subtracting|the sum of|the difference between)\b",),
        "the card language does no arithmetic on amounts",
        "sun: gain 2 doubloons, then gain 1 doubloon for each map you hold.",
        'add amounts with two actions joined by ", then"',
        "moon: gain 3 doubloons plus 1 doubloon for each relic you hold."),
    Intent(
        "counting doubloons or reputation",
        (rf"\b(?:for (?:each|every)|per) (?:{_N} )?(?:doubloons?|reputation)\b",),
        '"for each" counts characters, loot, track spaces or what an action moved, never doubloons or '
        "reputation",
        "sun: gain 1 doubloon for each space left of your reputation.",
        'count track spaces ("for each space left of your reputation"), or test the purse ("if you have 10 '
        'or more doubloons")',
        "anchor: lose 1 reputation for each doubloon you have."),
    Intent(
        "loot in a pile",
        (r"\b(?:each|every|a|an|all|any|no) (?!(?:characters?|cards?|other|random)\b)(?P<word>[a-z][a-z-]*) "
         r"(?:in|on|from) (?:your|their|any|every|each|another|an) [a-z' ]*?(?:ship|hand|graveyard)s?\b",),
        "loot is held by a player, never in a ship, hand or graveyard",
        "sun: gain 1 doubloon for each relic you hold.",
        'say "you hold" for your own loot, "they hold" for a player acting, or "from another player" to take '
        "it",
        "moon: gain 2 doubloons for each chest in your ship."),
    Intent(
        "another player's hand",
        (rf"\b(?<!random character from ){_OTHERS} hands?\b", rf"\b{_SIDE_OWNER} hand\b",
         r"\b(?<!random character from )the hand of\b",
         r"\b(?:any|every|all|each) (?:other )?hands?\b",
         r"\b(?<!random character from another )(?<!random character from an )(?:opponent|player)'s hand\b"),
        "another player's hand is hidden: the card language only takes a card from it at random (ruling E41), "
        "and never counts, tests or chooses in it",
        "sun: take a random character from another player's hand.",
        'say "take a random character from another player\'s hand" ("an opponent\'s", "the hand of the player '
        'on your left"), or let each player pick from their own hand ("each opponent discards a character from '
        'their hand")',
        "sun: put a character from an opponent's hand into your ship."),
    Intent(
        "another player's graveyard",
        (rf"\b(?!another player's |an opponent's ){_OTHERS} graveyards?\b", rf"\b{_SIDE_OWNER} graveyard\b",
         r"\bthe graveyard of (?!the player on your (?:left|right)\b)",
         r"\b(?:all|each) (?:other )?graveyards?\b", r"\b(?:any|every) (?:other graveyards?|graveyards)\b",
         r"\b(?:opponent|player)'s graveyard\b(?<!another player's graveyard)(?<!an opponent's graveyard)"),
        "the card language names other players' graveyards only as \"another player's graveyard\" (\"an "
        "opponent's\"), \"any graveyard\" (\"every\", yours included) and \"the graveyard of the player on your "
        "left\" (or right)",
        "sun: put a character from another player's graveyard into your hand.",
        'say one of those places, or "their graveyard" for each player of a group ("every other player who has a '
        'character in their graveyard loses 1 doubloon", "each opponent discards a character from their '
        'graveyard")',
        "moon: gain 1 doubloon for each character in all graveyards."),
    Intent(
        "a threshold on reputation",
        (rf"\breputation (?:is|was) (?:{_N}(?! or (?:more|fewer)\b)|at most|more than|less than|fewer than|above"
         rf"|below|over|under|higher than|lower than)\b",
         rf"\breputation (?:of|at) (?:{_N}|at least|at most)\b",
         rf"\b{_N} or (?:more|fewer|less|higher|lower) reputation\b",
         r"\b(?:at least|at most|more than|less than|fewer than) \d+ reputation\b"),
        'the card language tests your reputation only as "your reputation is N or more" (or "N or fewer"), the '
        "track's spaces numbered 1 from the left",
        "sun: gain 2 doubloons if your reputation is 4 or more.",
        'say "your reputation is N or more" or "your reputation is N or fewer"; another player\'s reputation is '
        'compared ("the player with the highest reputation")',
        "anchor: gain 4 doubloons if you have 5 or more reputation."),
    Intent(
        "which voyage",
        (r"\b(?:first|second|third|1st|2nd|3rd|middle|previous|earlier) voyages?\b", rf"\bvoyage {_N}\b"),
        "the card language names no voyage but the last",
        "sun: gain 3 doubloons if this is the last voyage.",
        'the only voyage a condition names is the last ("if this is the last voyage …; otherwise …")',
        "sun: gain 2 reputation if this is the second voyage."),
    Intent(
        "a cap on an amount",
        (rf",\s*up to (?:a )?(?:maximum of )?{_N}\b(?! (?:doubloons?|reputation)\b)",
         rf"\b(?:a )?(?:maximum|max)\.?(?: of)? {_N}\b",
         rf"\b(?:at most|no more than) {_N} (?:doubloons?|reputation)\b"),
        'the card language caps an amount only as ", up to N doubloons" after a count ("doubloons up to N" tops '
        "your purse up to N, a different thing)",
        "anchor: gain 2 doubloons for each chest you hold, up to 8 doubloons.",
        'write the cap after the count it caps, with its unit: ", up to 8 doubloons"',
        "anchor: gain 2 doubloons for each chest you hold, to a maximum of 8."),
    Intent(
        "up to a number of things",
        (rf"(?<!doubloons )\bup to {_N} (?!doubloons?\b|reputation\b)(?=[a-z])",),
        'the card language has no picks of "up to N" things',
        "sun: take 1 or 2 loot of one kind from today's loot.",
        'name the counts the owner may pick, of one kind; a character is picked with "a" (one) or "every" (all)',
        "sun: discard up to 2 characters in your hand, then gain 3 doubloons."),
    Intent(
        "a rate per group",
        (r"\b(?:for (?:each|every)|per) (?:pair|couple|trio|triple) of\b",),
        'the card language counts groups in digits: "for every 2 …"',
        "moon: gain 1 reputation for every 2 hook you hold.",
        'say how many make a group, in digits ("for every 2 hooks you hold": whole groups, rounded down)',
        "moon: gain 1 reputation for every pair of hooks you hold."),
    # printed wordings, third set (issue 34): two players as one subject, both seat neighbours as a group, a
    # condition said of a neighbour
    Intent(
        "you and another player together",
        (r"\byou and (?:that|the chosen|the other|another|the|each other) (?:player|opponent)\b",
         r"\byou and (?:they|them)\b", r"\b(?:both of you|you both)\b"),
        'the card language has no subject of two players together ("you and that player"): an action is done by '
        "one player, or by each of a group",
        "sun: gain 2 doubloons, then another player of your choice gains 2 doubloons.",
        'give each player\'s part as an action of its own: "gain 2 doubloons, then another player of your choice '
        'gains 2 doubloons"',
        "sun: choose an opponent. You and that player each gain 2 doubloons."),
    Intent(
        "both seat neighbours as one group",
        (r"\b(?:each|every|all|both) (?:other )?(?:players?|opponents?) (?:adjacent|next) to you\b",
         r"\b(?:each|every|both|all) (?:of )?your (?:neighbours|neighbors|adjacent (?:players|opponents))\b",
         r"\b(?:each|every|both|all) (?:adjacent|neighbouring|neighboring) (?:player|opponent)s?\b(?!')"),
        'the card language names a seat neighbour one side at a time ("the player on your left", "… on your '
        'right"); both together only as a place ("each adjacent player\'s ship", "from an adjacent player")',
        "sun: the player on your left pays you 2 doubloons, then the player on your right pays you 2 doubloons.",
        'name each side in an action of its own ("the player on your left …, then the player on your right …"); '
        "with two players both sides are the one opponent, who then acts twice, where a group would count them "
        "once (R12)",
        "sun: each player adjacent to you loses 1 doubloon."),
    Intent(
        "a condition said of a neighbour",
        (r"\b(?:if|unless|when) the (?:character|card|one) (?:directly |immediately )?(?:to the )?(?:left|right) "
         r"of (?:this|it)\b",
         r"\b(?:if|unless|when) the (?:character|card|one) (?:next to|adjacent to|beside) (?:this|it)\b"),
        'a condition is said of this card, "it" or the character that took this, never of a neighbour on the '
        "island",
        "sun: if there is a character on the island owned by another player ranked below this, gain 3 doubloons.",
        'act on the neighbour itself ("the owner of the character left of this gains 2 doubloons"), or ask about '
        'every character on one side by rank ("if there is a character on the island owned by another player '
        'ranked below this": any lower rank, not only the neighbour)',
        "sun: if the character left of this is owned by another player, gain 3 doubloons."),
    Intent(
        "a player of your choice",
        # the language's own words (E42): "a player of your choice", "an opponent of your choice", "choose a player:
        # they …"; these patterns are the wordings around them it still does not read
        (r"\b(?:one|any) (?:other )?(?:player|opponent) of your choice\b",
         r"\bchoose (?:one|any) (?:other )?(?:player|opponent)\b",
         r"\bchoose (?:a|an|another) (?:other )?(?:player|opponent)\b(?!\s*[:;,.]\s*(?:they|that player)\b)",
         r"\btarget (?:player|opponent)\b(?!')", r"\b(?:a|an) (?:other )?(?:player|opponent) you choose\b"),
        "the card language names a player you choose in two wordings only",
        "sun: choose an opponent: they lose 2 doubloons.",
        'say "a player of your choice" (you included) or "another player of your choice" (also "an opponent of your '
        'choice") where a player stands, or "choose a player: they …" before what they do',
        "sun: target opponent loses 3 doubloons."),
    # printed wordings (issue 34.1): a worth said of a kind in words the grammar does not read ("barrels you hold
    # are worth …", "a relic is worth …"); the words it reads ("each relic you hold is worth …", "your relics are
    # worth …", "this relic is worth …") are settled or refused by the checker, naming both readings
    Intent(
        "a worth said of a kind of loot",
        (r"(?<!\d )(?<!each )(?<!every )(?<!your )(?<!this )(?<!you )\b(?!this\b)(?P<word>[a-z]+) "
         r"(?:you (?:hold|have) )?(?:is|are) worth\b",),
        '"is worth" said of a kind of loot reads two ways: so many doubloons more for each token, on top of its '
        "own worth, or a new worth in place of the token's own, which only the kind's own tile says",
        "anchor: each hook you hold is worth 2 more doubloons.",
        'for doubloons on top of each token\'s own worth, say "each KIND you hold is worth N more doubloons" (or '
        '"gain N doubloons for each KIND you hold"); a token\'s own worth is its tile\'s "each KIND you hold is '
        'worth N doubloons"',
        "anchor: barrels you hold are worth 3 doubloons each."),
    Intent(
        "looking into the bag",
        (r"\b(?:look|looks|peek|peeks|search|searches|reveal|reveals|see|sees)\b(?: at| through| into| in)? (?:the )?"
         r"(?:top|first|next|bottom)\b",
         r"\b(?:top|bottom) (?:{n} )?(?:loot )?(?:tokens?|tiles?)? ?of the bag\b",
         r"\b(?:look|looks|peek|peeks|search|searches) (?:at|through|into|in) the bag\b"),
        "the bag has no order and no top: its tokens are drawn at random, and no one looks into it",
        "sun: draw 1 random loot from the bag.",
        'to take a token from the bag, say "draw a loot token" (at random); to pick among tokens the players can '
        'see, take one from today\'s loot ("take a map from today\'s loot")',
        "sun: look at the top loot token of the bag, then you may take it."),
    # printed wordings, second set (issue 34): looking at what lies open, every character on one side, rounding up
    Intent(
        "looking at what lies open",
        (r"\b(?:look|looks|peek|peeks) at (?:today's|tomorrow's|this day's|the next day's|each day's|every day's|your "
         r"(?:own )?graveyard|the loot|the island|all)\b",),
        "looking changes nothing: every day's loot lies face up and your own graveyard is yours to see, so the card "
        "language has no step for it",
        "sun: swap a loot in today's loot with a loot in tomorrow's loot.",
        'leave the looking out and say only what is done ("swap a loot in today\'s loot with a loot in tomorrow\'s '
        'loot", "take a map from today\'s loot")',
        "sun: look at tomorrow's loot, then swap a loot in today's loot with a loot in tomorrow's loot."),
    Intent(
        "every character on one side",
        (r"\b(?:each|every|all) (?:other )?characters? (?:directly |immediately )?(?:to the )?(?:left|right) of "
         r"(?:this|it)\b",
         r"\bcharacters (?:to the )?(?:left|right) of (?:this|it)\b"),
        'the card language names one character on each side, the neighbour ("the character left of this"), and no '
        "group of every character on one side",
        "sun: gain 2 doubloons for each character on the island ranked below this.",
        'by day every character left of this ranks below it or ties it (a tie on rank goes left to the lower '
        'reputation), so the nearest is "ranked below this" ("ranked above this" for the right), which leaves out '
        "equal ranks; or name the neighbour alone",
        "sun: gain 1 doubloon for each character to the right of this on the island."),
    Intent(
        "rounding up",
        (r"\b(?:rounded|rounding|round) up\b",),
        'the card language halves only as "half your doubloons", the amount lost rounded down (you keep the larger '
        "half)",
        "sun: lose half your doubloons.",
        'say "lose half your doubloons" (5 doubloons lose 2); a loss rounded up is not sayable',
        "sun: lose half your doubloons, rounded up."),
    Intent(
        "paying a cost",
        (r"(?:^|(?<=[:.;,] )|(?<=[:.;,])|(?<=\byou )|(?<=\bmay )|(?<=\bmust )|(?<=\bthen )|(?<=\band ))"
         r"pay {n} doubloons?\b(?! to (?:the|each|every|another|an|all|your|their)\b)",),
        'the card language has no cost: "pay" is what another player does to you ("the player on your left pays you '
        '2 doubloons"), and "lose" takes what you have, even less than asked (R2)',
        "sun: if you have 2 or more doubloons, you may lose 2 doubloons. If you do, gain 1 reputation.",
        'doubloons given to the bank are "lose N doubloons" (it takes what you have, even less); a cost paid in full '
        'is "if you have N or more doubloons, you may lose N doubloons. If you do, …"',
        "moon: you may pay 3 doubloons to gain 1 reputation."),
    Intent(
        "when a card is discarded",
        (r"\b(?:when|whenever|after|once) (?:this|it|a|an|any|another|each|every)\b[a-z' -]*? "
         r"(?:is|are|was|were|gets|get) discarded\b",
         r"\b(?:if|unless) (?:this|it|this card|this character) (?:is|was|gets|got) discarded\b"),
        "no ability runs when a card is discarded, and no condition asks whether a card was: an ability runs at "
        "its timing (day, dusk, night, the voyage's end), and \"if you did\" asks whether your own step did "
        "something",
        "sun: you may discard a character in your hand. If you do, gain 3 doubloons.",
        'say the discard as your own step and what follows it with "if you do" ("you may discard …. If you do, …"), '
        'or discard this in an ability of its timing ("moon: discard this …")',
        "sun: when this is discarded, gain 3 doubloons."),
    Intent(
        "counting players",
        (r"\b(?:for (?:each|every)|per) (?:other )?(?:player|opponent)s?\b(?!')",),
        "the card language cannot count players",
        "sun: every other player pays you 1 doubloon.",
        "no counter counts players: to get 1 doubloon from each of them, have them pay it",
        "moon: gain 1 doubloon for every opponent."),
)


@functools.cache
def _compiled() -> tuple[tuple[Intent, tuple[re.Pattern[str], ...]], ...]:
    return tuple((i, tuple(re.compile(p.replace("{n2}", _N2).replace("{n}", _N)) for p in i.patterns))
                 for i in INTENTS)


_SENTENCE_START = re.compile(r"(^|[:.;]\s*)([A-Z])(?=[a-z'-]*(?:\s|$|[,.;:]))")


def _words_of(line: str) -> str:
    """The line as the patterns read it: comments blanked, each sentence's first word lower-cased (same length)."""
    code = line.split("#", 1)[0].ljust(len(line))
    return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).lower(), code)


def _misspelt_piece(m: re.Match[str]) -> bool:
    """Whether a pattern's own word (its group ``word``) is a piece misspelt ("charcter"), not a word of the intent."""
    word = m.groupdict().get("word")
    return word is not None and any(similarity(word, piece) >= CUTOFF for piece in PIECES)


class Found(NamedTuple):
    """An intent on a line: the entry, and the 1-based column and words where its wording stands."""

    intent: Intent
    column: int
    words: str


def find(line: str) -> Found | None:
    """The first entry of ``INTENTS`` (in table order) whose wording ``line`` holds, or None."""
    text = _words_of(line)
    for intent, patterns in _compiled():
        hits = [(m.end() - len(m.group(0).lstrip(" ,")), -m.end(), m.group(0).strip(" ,"))
                for m in (p.search(text) for p in patterns) if m is not None and not _misspelt_piece(m)]
        if hits:
            start, _, words = min(hits)  # the earliest wording, and the longest there
            return Found(intent, start + 1, words)
    return None


def message(found: Found) -> tuple[str, str]:
    """The error's message and its "expected" line for an intent found."""
    i = found.intent
    return f"{found.words!r}: {i.lacks}", f'the nearest wording it has, "{i.instead}": {i.how}'
