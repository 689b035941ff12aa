"""Printed wordings the word lexer reads as the canonical words (issue 34; docs/card-language.md, "Printed
wordings, third set"): the tables, and the phrases put in the grammar's order before any word is typed.

``lexer.WordLexer`` consults these where the parser cannot take a word as written, so a text that read before
reads as it did; the repair search (``repair``) reads a line through the same rules.
"""

from __future__ import annotations

from collections.abc import Sequence

LexWord = tuple[str, str, int, int, int]
"""A word as the lexer reads it: (kind, text, offset, line, column)."""

NUMBER_WORDS = {word: str(n) for n, word in enumerate(
    ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"))}
"""Numbers a card may spell out, read as their digits wherever a number can stand and the word itself
cannot ("for each one returned" keeps its "one")."""


PHRASES: dict[tuple[str, ...], str] = {
    ("when", "revealed"): "sun",
    ("discard", "pile"): "graveyard",
    **{(space, "on", owner, "reputation", "track"): "reputation"
       for space in ("space", "spaces") for owner in ("the", "your")},
    ("when", "played"): "sun",
    ("voyage", "end"): "anchor",
    ("that", "player"): "they",
}
"""Printed phrases of several words read as one canonical word, wherever the parser can take that word and not
the phrase's own first word (issue 34): "When revealed:" is the day's timing ("sun:"), "your discard pile" your
graveyard, "move up 2 spaces on the reputation track" "move up 2 reputation", and after "choose an opponent."
"that player" is the "they" who was chosen."""

SINGULAR_VERBS = {"gains": "gain", "loses": "lose", "pays": "pay", "gives": "give", "moves": "move",
                  "discards": "discard", "returns": "return"}
"""A player's verb in the singular, read as the plural where only that stands ("That player loses 2 doubloons"
after "choose an opponent." is "they lose 2 doubloons")."""

HOLDING = {"have": "hold", "own": "hold", "owns": "holds", "possess": "hold", "possesses": "holds"}
"""Words for holding loot, read as "hold" where only that stands ("for each relic you own")."""
KIND_WORDS = {"type": "kind", "types": "kinds", "sort": "kind", "sorts": "kinds"}
"""Words for a kind of loot, read as "kind" where only that stands ("for each different type of loot")."""
PLURAL_VERBS = {plural: singular for singular, plural in SINGULAR_VERBS.items()}
SAID_BY_PLAYERS = frozenset({"discard", "pay", "give", "return"})
PAST_WORDS = frozenset({"returned", "discarded", "moved", "taken"})
UNITS = frozenset({"doubloon", "doubloons", "reputation"})
TAKING = frozenset({"steal", "take", "lose", "loses"})
PAYING = frozenset({"pay", "pays", "give", "gives"})
ACTION_VERBS = frozenset({"gain", "lose", "discard", "take", "steal", "draw", "return", "give", "put", "play",
                           "move", "swap", "keep", "use", "copy"})


MARK_READINGS = {",": ("_COMMA_OR", ","), ";": ("SEMICOLON", ";")}
"""The marks ``WordLexer._inserted`` reads in, as the terminal each is there."""


def if_follows(following: Sequence[str]) -> bool:
    """Whether an "if" or "unless" comes later in the sentence that ``following`` continues."""
    for word in following:
        if word in (".", ";", "\n") or word.startswith("\n"):
            return False
        if word in ("if", "unless"):
            return True
    return False


def amount_follows(following: Sequence[str]) -> bool:
    """Whether ``following`` starts with an amount ("1 reputation", "two doubloons") and its sentence ends there."""
    return len(following) > 1 and (following[0].isdigit() or following[0] in NUMBER_WORDS) \
        and following[1] in UNITS and (len(following) == 2 or following[2] in (".", ";") or following[2][:1] == "\n")


def amount_verb(words: Sequence[LexWord], i: int) -> str:
    """The verb an amount alone after "or" at ``i`` repeats ("gain 3 doubloons or 1 reputation": "gain"): the
    "gain" or "lose" that starts the action before it, in its sentence; "" when there is none."""
    for j in range(i - 1, -1, -1):
        word = words[j][1].lower()
        if word in (".", ";", ":") or words[j][0] == "nl":
            return ""
        if word in ("gain", "lose"):
            before = words[j - 1][1].lower() if j else ""
            return word if before in (":", ".", ";", ",", "you", "then", "and") or words[j - 1][0] == "nl" else ""
        if word in ACTION_VERBS:
            return ""
    return ""


def own_loot_pick(words: Sequence[LexWord], i: int) -> bool:
    """Whether the word at ``i`` follows loot that you pick: a loot word ("loot", "token" or a kind, lower case) in
    an action of yours (its verb first in its clause: "take", "return", "give", "discard", "keep", "swap")."""
    for j in range(i - 1, -1, -1):
        word = words[j][1].lower()
        if word in (".", ";", ":", ",") or words[j][0] == "nl":
            return False
        if word in ("take", "return", "give", "discard", "keep", "swap"):
            before = words[j - 1][1].lower() if j else ""
            return before in (":", ".", ";", ",", "you", "then", "and", "may") or words[j - 1][0] == "nl"
    return False


def in_choice(words: Sequence[LexWord], i: int) -> bool:
    """Whether the word at ``i`` stands among the choices of a "choose one:" in its sentence."""
    for j in range(i - 1, 1, -1):
        word = words[j][1].lower()
        if word in (".", "\n") or words[j][0] == "nl":
            return False
        if word == ":" and words[j - 1][1].lower() == "one" and words[j - 2][1].lower() == "choose":
            return True
    return False


def after_quantity(following: Sequence[str]) -> list[str]:
    """``following`` from its quantity on ("a relic", "at least 2 maps" as "2 maps", "3 or more maps" as "3
    maps"), so that the word after the number is second; unchanged if it starts with no quantity."""
    words = list(following)
    if words[:2] == ["at", "least"]:
        words = words[2:]
    if len(words) > 3 and words[1] == "or" and words[2] in ("more", "fewer"):
        words = [words[0], *words[3:]]
    return words


def after_you_hold(words: Sequence[tuple[str, str, int, int, int]], i: int) -> bool:
    """Whether the words before ``i`` are a condition "you have …" or "you hold …" naming loot only ("you have an
    amulet", "you hold a map, a chest"), so that more loot after ``i`` is more of what you hold."""
    for j in range(i - 1, 0, -1):
        word = words[j][1].lower()
        if word in ("have", "hold"):
            return words[j - 1][1].lower() == "you"
        if words[j][0] not in ("word", "number", "punct") or word in (".", ";", ":") or word in ACTION_VERBS \
                or word in ("if", "unless", "then"):
            return False
    return False


def printed_phrases(words: list[LexWord]) -> list[LexWord]:
    """``words`` with the printed phrases whose words come in another order than the grammar's, or say a "no" with
    "not", put as the grammar reads them (issue 34; each keeps the place of the words it stands for):

    * "the rightmost character's owner" is "the owner of the rightmost character" (``owner_possessives``);
    * "you don't have a relic" ("do not", "any"; "hold") is "you have no relic";
    * "move your reputation marker up 2 spaces" ("token"; "down"; "on the reputation track" after it) is "move
      up 2 reputation";
    * "the next player" is "the player on your left" (the next seat), "the previous player" "… on your right";
    * "your ship has 3 or more characters" ("contains", "holds"; "hand", "graveyard"; "cards") is "there are 3 or
      more characters in your ship".
    """
    out = owner_possessives(words)
    i = 0
    while i < len(out):
        low = [w[1].lower() for w in out[i:i + 12]]
        if low[:1] == ["you"]:
            n = 2 if low[1:2] == ["don't"] else 3 if low[1:3] == ["do", "not"] else 0
            if n and low[n:n + 1] in (["have"], ["hold"]):
                article = 1 if low[n + 1:n + 2] in (["a"], ["an"], ["any"]) else 0
                verb = out[i + n]
                out[i + 1:i + n + 1 + article] = [verb, ("word", "no", *verb[2:])]
        if low[:1] == ["your"] and low[1:2] in (["ship"], ["hand"], ["graveyard"]) \
                and low[2:3] in (["has"], ["contains"], ["holds"]):
            noun = next((j for j in range(3, 8) if low[j:j + 1] in (["character"], ["characters"], ["card"],
                                                                     ["cards"])), None)
            if noun is not None and all(out[i + j][0] in ("word", "number") for j in range(3, noun)):
                pile, first = out[i + 1], out[i]
                out[i:i + noun + 1] = [("word", "there", *first[2:]), ("word", "are", *first[2:]),
                                       *out[i + 3:i + noun + 1], ("word", "in", *pile[2:]), ("word", "your", *pile[2:]),
                                       pile]
        if low[:3] in (["the", "next", "player"], ["the", "previous", "player"]):
            side = "left" if low[1] == "next" else "right"
            the, player = out[i], out[i + 2]
            out[i:i + 3] = [the, player, ("word", "on", *player[2:]), ("word", "your", *player[2:]),
                            ("word", side, *player[2:])]
        if low[:3] == ["move", "your", "reputation"]:
            j = 4 if low[3:4] in (["token"], ["marker"], ["disc"], ["cube"], ["pawn"]) else 3
            if low[j:j + 1] in (["up"], ["down"]) and len(low) > j + 2 and low[j + 2] in ("space", "spaces") \
                    and (low[j + 1].isdigit() or low[j + 1] in NUMBER_WORDS):
                end = j + 3 + (4 if low[j + 3:j + 7] == ["on", "the", "reputation", "track"] else 0)
                unit = out[i + j + 2]
                out[i + 1:i + end] = [out[i + j], out[i + j + 1], ("word", "reputation", *unit[2:])]
        i += 1
    return out


def owner_possessives(words: list[tuple[str, str, int, int, int]]) -> list[tuple[str, str, int, int, int]]:
    """``words`` with each owner said by a possessive in the order the grammar reads (issue 34): "the rightmost
    character's owner" is "the owner of the rightmost character", "the Cook's owner" "the owner of the Cook",
    "this card's owner" "the owner of this card".  The phrase is "the" or "this", at most three words, then a
    character's noun ("character", "card", "one" or a card name) with "'s", then "owner"."""
    out = list(words)
    i = 1
    while i + 1 < len(out):
        kind, raw, pos, line, column = out[i]
        possessed = raw[:-2] if raw.endswith("'s") else ""
        if not possessed or out[i + 1][1].lower() != "owner" or not (
                possessed.lower() in ("character", "card", "one") or kind == "name"):
            i += 1
            continue
        start = next((j for j in range(i - 1, max(i - 5, -1), -1) if out[j][1].lower() in ("the", "this")), None)
        if start is None or any(out[j][0] != "word" for j in range(start + 1, i)):
            i += 1
            continue
        first = out[start]
        head = [(first[0], first[1] if first[1][:1].isupper() else "the", first[2], first[3], first[4]),
                ("word", "owner", first[2], first[3], first[4]), ("word", "of", first[2], first[3], first[4])]
        if first[1][:1].isupper():  # "The …'s owner" starts a sentence: "The owner of the …"
            head[0] = ("name", "The", first[2], first[3], first[4])
        phrase = [(first[0] if not first[1][:1].isupper() else "word", first[1].lower(), *first[2:]),
                  *out[start + 1:i], (kind, possessed, pos, line, column)]
        out[start:i + 2] = head + phrase
        i = start + len(head) + len(phrase)
    return out
