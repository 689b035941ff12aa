"""Every answer key a game under some rules can ever offer a seat: the env's action universe.

A learner needs one fixed ``Discrete(N)`` action space per rules and seat count, so the keys
are worked out from the rules alone (their cards, loot kinds and card-language trees), never
from games seen.  Each family below mirrors the one place in the engine that builds such keys:

========================  ==============================================================
decision                  key forms (and where the engine builds them)
========================  ==============================================================
``play_character``        a card in hand: ``"Cook"``, or a card taken over, ``"Cook#1"``
                          (``engine/flow.py``, ``Rules.play_options``)
``choose_character``      ``"Cook"`` / ``"Cook@2"``; taken over ``"Cook#1"`` / ``"Cook#1@2"``
                          (``Work.key_for``)
``choose_loot``           ``"map"``, another seat's token ``"map@1"``, a set ``"map*2"`` or
                          ``"map@1*2"`` (``compile/selectors.py``, ``engine/flow.py``)
``order_abilities``       the source: a card name (marked ones too) or a loot kind
                          (``flow._ask_order``)
``may``                   ``"yes"``, ``"no"`` (``compile._may``)
``choose_option``         ``"1"`` .. ``"k"``, k the longest ``choose one:`` (``compile._choose_one``), or
                          the other seats when a card takes from a hand (E41), or a seat counted from the
                          owner's left when a card names a player of their choice (E42, ``ChosenPlayer``)
========================  ==============================================================

Nothing here imports numpy or pettingzoo: it is plain Python over ``Rules``.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import _args
from ..engine.specs import Rules
from ..errors import ArgumentError
from ..syntax import ast
from ..syntax.nodes import Node, fields


def seat_count(rules: Rules, players: int, where: str = "libertalia.env") -> int:
    """Seats at the table: ``players``, or 2 for the solo game (you and Automa, seat 1).

    ``ArgumentError`` (a ``ValueError``) for a count the edition does not allow; ``TypeError``
    for rules that are no ``Rules`` or a count that is no whole number.
    """
    _args.instance(rules, Rules, where, "rules", "the Rules of lt.load_rules")
    players = _args.whole(players, where, "players")
    low, high = rules.board.players
    if players == 1:
        if rules.board.solo is None:
            raise ArgumentError(f"{rules.board.title} has no solo mode: players must be {low} to {high}")
        return 2
    if not low <= players <= high:
        solo = " (or 1, the solo game)" if rules.board.solo is not None else ""
        raise ArgumentError(f"{rules.board.title} is played by {low} to {high} players{solo}, not {players}")
    return players


def action_keys(rules: Rules, players: int) -> tuple[str, ...]:
    """Every key any decision of a ``players`` game under ``rules`` may offer any seat, in a stable order.

    Derived from the rules: every character (its plain name, each seat's ``@`` form, and the
    marked ``#`` forms if some ability can move another seat's character into your zones), every
    loot kind (with the ``@`` forms where an ability reaches another seat's loot, and the
    ``*n`` set forms for the counts the cards name), ``yes``/``no`` where a card says "you may",
    and ``"1"``..``"k"`` for the longest "choose one".  Uncharted alternatives and the solo
    tiles count too, since a game may draw them.
    """
    seats = range(seat_count(rules, players, "action_keys"))
    facts = _Facts(rules, len(seats))
    names = [c.name for c in rules.characters]
    players_cards = [c.name for c in rules.characters if not c.neutral]
    keys: list[str] = list(names)
    if facts.takes_over:  # "Cook#1": seat 1's Cook, now held by another seat (Work.take_over)
        keys += [f"{name}#{mark}" for name in players_cards for mark in seats]
    keys += [f"{name}@{seat}" for name in players_cards for seat in seats]
    if facts.takes_over:
        keys += [f"{name}#{mark}@{seat}" for name in players_cards for mark in seats for seat in seats
                 if seat != mark]
    kinds = list(rules.kinds)
    keys += kinds
    if facts.reaches_other_loot:
        keys += [f"{kind}@{seat}" for kind in kinds for seat in seats]
    for reach_other, set_kinds, count in sorted(facts.loot_sets):
        owners = [""] + ([f"@{seat}" for seat in seats] if reach_other else [])
        keys += [f"{kind}{owner}*{count}" for kind in (set_kinds or kinds) for owner in owners]
    if facts.may:
        keys += ["yes", "no"]
    keys += [str(i + 1) for i in range(facts.most_options)]
    return tuple(dict.fromkeys(keys))


class _Facts:
    """What the card-language trees of the rules allow, as far as answer keys go."""

    def __init__(self, rules: Rules, seats: int) -> None:
        self.seats = seats
        self.takes_over = False
        self.reaches_other_loot = False
        self.may = False
        self.most_options = 0
        # (reaches another seat's loot, the kinds named (empty: any), how many)
        self.loot_sets: set[tuple[bool, tuple[str, ...], int]] = set()
        for ability in _all_abilities(rules):
            for node in _walk(ability):
                self._note(node)

    def _note(self, node: Node) -> None:
        if isinstance(node, ast.Step):
            if node.form == "may":
                self.may = True
            elif node.form == "choose_one":
                self.most_options = max(self.most_options, 1 + len(node.choices))
        elif isinstance(node, ast.Put) and not _own_only(node.target):
            self.takes_over = True
        elif isinstance(node, ast.TakeFromHand):  # E41: a card taken over; whose hand is "1".."k"
            self.takes_over = True
            self.most_options = max(self.most_options, self.seats - 1)
        elif isinstance(node, ast.ChosenPlayer):  # E42: a seat, "1".."n" counted from the owner's left
            self.most_options = max(self.most_options, self.seats)
        elif isinstance(node, ast.LootNP) and node.place in ast.OTHERS_LOOT:
            self.reaches_other_loot = True
        elif isinstance(node, ast.ChooseLootSet):
            for count in node.counts:
                self.loot_sets.add((node.np.place in ast.OTHERS_LOOT, tuple(node.np.kinds), count))


def _all_abilities(rules: Rules) -> Iterator[ast.Ability]:
    """Every ability a game under ``rules`` may run: characters, loot, uncharted and solo sides."""
    for character in rules.characters:
        yield from character.abilities
    specs = [*rules.loot, *(s for sides in rules.uncharted.values() for s in sides), *rules.solo_loot.values()]
    for spec in specs:
        yield from spec.abilities


def _walk(node: object) -> Iterator[Node]:
    """Every node of a tree, the root first (tuples, however nested, are looked into)."""
    if isinstance(node, tuple):
        for item in node:
            yield from _walk(item)
    elif isinstance(node, Node):
        yield node
        for f in fields(node):
            yield from _walk(getattr(node, f.name))


def _own_only(target: ast.CharSel) -> bool:
    """Whether a ``put`` target can only be the acting seat's own character (no change of hands).

    ``this`` is always the acting seat's card (ruling R10: a borrower's ``this`` is the
    borrower).  A chosen or positional character is the seat's own only if its phrase says
    "your ..." or "owned by you"; anything else (``it``, a neighbour on the island, another
    ship) may belong to someone else.
    """
    if isinstance(target, ast.This):
        return True
    if isinstance(target, ast.ChooseChar | ast.EveryChar | ast.Positional):
        np = target.np
        zone = np.zone
        if zone is not None and zone.place == "your":
            return True
        return any(isinstance(f, ast.OwnedBy) and f.who == "you" for f in np.filters)
    return False
