"""Which forms of the card language each card uses (``libertalia cards words``).

A *form* is one aliased alternative of the grammar (``gain``, ``there_is``,
``keep`` …) or a rule that is a slot of words (``place``: "on the island",
"in any ship" …): the units a modder combines.  The rules that only give a
sentence its shape (``ability``, ``actions``, ``char_np`` …) are no forms.  A
form only one card uses is a smell (design.md §5): it is probably that card's
sentence in disguise.
"""

from __future__ import annotations

from collections.abc import Iterable

from lark import Tree

from .parser import grammar

# Rules that give a sentence its shape; every other rule or alias is a form.
STRUCTURE = frozenset({"start", "ability", "trigger", "effect", "actions", "table", "row", "counts", "char_np",
                       "loot_np", "zone", "condition", "conjunction", "take_what", "char_filter",
                       "sentence_break"})


# Plain-English variants (docs/card-language.md): wordings that build another form's tree, so no form of
# their own. A text written with one uses the form it stands for.
VARIANT_OF = {
    "postfix_if_instead": "postfix_if", "unless_instead": "postfix_if", "prefix_if_instead": "postfix_if",
    "or_if": "postfix_if", "if_you_did_not": "unless", "count_named_affected": "count_affected",
    "you_have_characters": "there_is", "pile_empty": "there_is", "steal": "player_acts",
    "count_loot_each": "count_loot", "other_than_this": "char_np", "timing": "trigger", "is_the_only": "is_like",
    "move_up": "gain", "move_down": "lose", "choose_either": "choose_action", "every_loot_yours": "every_loot",
    "ranked_by_attribute": "positional", "have_no_doubloons": "have_doubloons",
    # printed wordings (issue 34.1)
    "ordinal": "positional", "is_ordinal": "is_positioned", "adjacent": "beside", "beside_either": "beside",
    "discard_loot": "send_loot", "discard_loot_held": "send_loot", "one_of_yours": "choose_loot",
    "all_players": "player", "plural_verb": "player_verb", "all_players_act": "player_acts",
    "all_players_discard": "they_discard", "all_players_return": "they_return", "have_the_most": "highest_reputation",
    "instead_of_loot": "take", "count_loot_yours": "count_loot", "draw_from_bag": "take",
    "send_loot_held": "send_loot", "ranked_unhyphenated": "positional", "is_ranked_unhyphenated": "is_positioned",
    "rival_printed": "rival", "quantity_than": "quantity", "have_doubloons_than": "have_doubloons",
    "they_have_doubloons_than": "they_have_doubloons", "hold_exactly": "hold", "there_exactly": "there_is",
    "have_exactly": "have_doubloons",
    # printed wordings, second set (issue 34)
    "take_not": "take", "just_took_token": "just_took", "at_random": "choose_loot",
}


def forms() -> dict[str, str]:
    """Every form, with the words of its alternatives as the grammar spells them."""
    out: dict[str, str] = {}
    for rule in grammar().rules:
        alias = rule.alias or rule.origin.name
        if alias in STRUCTURE or alias in VARIANT_OF or alias.startswith("_") or alias.startswith("__"):
            continue
        words = []
        for sym in rule.expansion:
            name = sym.name
            term = next((t for t in grammar().terminals if t.name == name), None)
            if term is not None and term.pattern.type == "str":
                words.append(f'"{term.pattern.value}"')
            else:
                words.append(name if sym.is_term else name.lstrip("_?"))
        spelled = " ".join(words)
        out[alias] = f"{out[alias]} | {spelled}" if alias in out else spelled
    return dict(sorted(out.items()))


def used_forms(text: str) -> set[str]:
    """The forms one card text uses."""
    tree = grammar().parse(text)
    known = forms()
    used = {VARIANT_OF.get(str(t.data), str(t.data)) for t in tree.iter_subtrees() if isinstance(t, Tree)}
    return {form for form in used if form in known}


def usage(cards: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """For every form, the names of the cards that use it (a name counts once, whatever its edition)."""
    users: dict[str, set[str]] = {form: set() for form in forms()}
    for name, text in cards:
        if not text:
            continue
        for form in used_forms(text):
            users[form].add(name)
    return {form: sorted(names) for form, names in users.items()}


def single_card_forms(table: dict[str, list[str]]) -> dict[str, str]:
    """The forms exactly one card name uses, with that name."""
    return {form: names[0] for form, names in table.items() if len(names) == 1}


def bundled_cards(edition: str) -> list[tuple[str, str]]:
    """(name, text) of every bundled character and loot tile of an edition, every side included.

    A loot tile is named ``kind (side)``: each side is its own printed tile.
    """
    from ..loading.rules import bundled_card_docs

    out = []
    for doc in bundled_card_docs(edition):
        fields = doc.root.value
        if "kind" in fields:
            out.append((f"{fields['kind']} ({fields['side']})", str(fields["text"])))
        else:
            out.append((str(fields["name"]), str(fields["text"])))
    return out
