"""Meaning rules: loot (docs/card-language.md, "Meaning rules: loot"; issue 32).

Each rule is pinned with texts of its own: "loot" means every kind, the same as the list of every
kind; a random pick is uniform over the tokens its phrase names; "you just took" is this dusk's
taking; and no token comes to a player at anchor (E38).
"""

from __future__ import annotations

import ast as pyast
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import libertalia as lt

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("chest", "hook", "map", "saber", "amulet", "barrel", "relic")  # galecrest's, in board order
EVERY = " or ".join(KINDS)
EVERY_PLURAL = " or ".join(k + "s" for k in KINDS)


def character(name: str, rank: float, text: str) -> str:
    return f"name: {name}\nrank: {rank}\ntext: |\n  {text}\n"


def load(folder: Path, cards: dict[str, str]) -> lt.Rules:
    """The galecrest rules with ``cards`` (name: text) as a mod, ranked 41.01, 41.02, … and an Idler of rank 2.5."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {"idler": character("Idler", 2.5, "sun: gain 1 doubloon.")}
    for i, (name, text) in enumerate(cards.items()):
        files[name.lower().replace(" ", "_")] = character(name, round(41.01 + i / 100, 2), text)
    for stem, body in files.items():
        (folder / f"{stem}.yaml").write_text(body, encoding="utf-8")
    return lt.load_rules("galecrest", extra_cards=[folder])


def first_day(rules: lt.Rules, card: str, setup: dict[str, Any], seed: int = 0) -> tuple[Any, ...]:
    """Seat 0 plays ``card``, seat 1 the Idler; every question takes its first key until day 1 is over."""
    game = lt.new_game(rules, 2, seed=seed, setup=setup).choose(card).choose("Idler")
    while game.decision is not None and game.day == 1 and game.voyage == 1:
        game = game.choose(game.legal_keys()[0])
    ships = [tuple("CARD" if c == card else c for c in p.ship) for p in game.players]
    return (tuple((p.doubloons, sorted(p.loot), sorted(p.kept_loot), ship) for p, ship in zip(game.players, ships,
                                                                                              strict=True)),
            sorted(game.bag.items()))


# ---------------------------------------------------------------- one representation of "any kind"
# Each form that takes loot kinds, written with "loot" (any kind) and with the list of every kind: a
# reader finds no difference, nor may the engine.  ``{L}`` is the kinds, ``{P}`` their plural.
FORMS = {
    "just_took": "dusk: gain 3 doubloons if you just took a {L}.",
    "hold": "sun: gain 2 doubloons if you hold a {L}.",
    "hold_none": "sun: gain 2 doubloons if you hold no {L}.",
    "hold_count": "sun: gain 2 doubloons if you hold 2 or more {L}.",
    "count_loot": "sun: gain 1 doubloon for each {L} you hold.",
    "count_kinds": "sun: gain doubloons by kinds of {L} you hold (1 for 1, 2 for 3, 3 or more for 6).",
    "compare": "sun: gain 4 doubloons if you have more {P} than every other player.",
    "players_who": "sun: every player who holds a {L} loses 1 doubloon.",
    "players_with_most": "sun: each player with the most {P} gains 2 doubloons.",
    "players_than_you": "sun: every other player with fewer {P} than you loses 2 doubloons.",
    "take": "sun: take a {L} from today's loot.",
    "take_random": "sun: take a random {L} from the bag.",
    "return_counted": "sun: return every {L} you hold to the bag, then gain 1 doubloon for each {L} returned.",
    "give": "sun: give a {L} you hold to the player on your left.",
    "keep": "moon: keep a {L} you hold for the next voyage.",
    "swap": "sun: swap a {L} you hold with a {L} in today's loot.",
}
NAMES = {form: "".join(w.capitalize() for w in form.split("_")) for form in FORMS}
# Seat 0 holding loot of two kinds, and holding none, while seat 1 holds a relic.
POSITIONS = (
    {"players": [{"hand": ["CARD", "Cook"], "loot": ["map", "chest", "map"], "doubloons": 5},
                 {"hand": ["Idler", "Cook"], "loot": ["relic"], "doubloons": 5}], "loot": [["saber", "barrel"]]},
    {"players": [{"hand": ["CARD", "Cook"], "doubloons": 5},
                 {"hand": ["Idler", "Cook"], "loot": ["relic"], "doubloons": 5}], "loot": [["saber", "barrel"]]},
)
BASELINE = "sun: gain 1 doubloon if you have 99 or more doubloons."


@pytest.fixture(scope="module")
def kinds_rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    cards = {"Plain Fan": BASELINE}
    for form, text in FORMS.items():
        cards[f"Any {NAMES[form]}"] = text.format(L="loot", P="loot")
        cards[f"Each {NAMES[form]}"] = text.format(L=EVERY, P=EVERY_PLURAL)
    return load(tmp_path_factory.mktemp("kinds"), cards)


def _at(position: dict[str, Any], card: str) -> dict[str, Any]:
    players = [{**p, "hand": [card if c == "CARD" else c for c in p["hand"]]} for p in position["players"]]
    return {**position, "players": players}


@pytest.mark.parametrize("form", FORMS)
def test_any_loot_is_every_kind(kinds_rules: lt.Rules, form: str) -> None:
    """Meaning rule L1: "loot" names every kind, so each form runs the same with "loot" as with every kind listed."""
    mattered = False
    for position in POSITIONS:
        any_kind = first_day(kinds_rules, f"Any {NAMES[form]}", _at(position, f"Any {NAMES[form]}"))
        listed = first_day(kinds_rules, f"Each {NAMES[form]}", _at(position, f"Each {NAMES[form]}"))
        assert any_kind == listed, position
        mattered |= any_kind != first_day(kinds_rules, "Plain Fan", _at(position, "Plain Fan"))
    assert mattered, "no position shows what the form does"


@pytest.mark.parametrize("form", FORMS)
def test_every_kind_listed_compiles_as_loot(kinds_rules: lt.Rules, form: str) -> None:
    """Meaning rule L1: "loot" and the list of every kind compile to the same program (one spelling, ANY_KIND)."""
    def steps(card: str) -> list[Any]:
        return [c.steps for c in kinds_rules.card(card).compiled]
    assert steps(f"Any {NAMES[form]}") == steps(f"Each {NAMES[form]}")


def test_a_count_of_every_kind_fits_any_loot(tmp_path: Path) -> None:
    """Meaning rule L1: "for each <every kind> returned" counts what "return every loot" returned, and back."""
    rules = load(tmp_path, {
        "Count Listed": f"sun: return every loot you hold to the bag, then gain 1 doubloon for each {EVERY} returned.",
        "Count Any": f"sun: return every {EVERY} you hold to the bag, then gain 1 doubloon for each loot returned.",
    })
    setup = _at(POSITIONS[0], "Count Listed")
    listed = first_day(rules, "Count Listed", setup)
    assert listed == first_day(rules, "Count Any", _at(POSITIONS[0], "Count Any"))
    assert listed[0][0][0] == 5 + 3  # three tokens returned


def test_just_took_any_loot_pays(kinds_rules: lt.Rules) -> None:
    """Meaning rule L1: "if you just took a loot" holds after any token taken at dusk."""
    setup = _at(POSITIONS[1], "Any JustTook")
    (mine, _), _ = first_day(kinds_rules, "Any JustTook", setup)
    assert mine[0] == 5 + 3


def _kind_tests() -> list[str]:
    """Where a loot test reads a set of kinds outside ``engine/program/kinds.py``: ``x in ….kinds``,
    ``not ….kinds``, ``if ….kinds``, ``….kinds and/or …``."""
    found = []
    for folder in ("libertalia/engine/program", "libertalia/language/compile", "libertalia/testing/contracts"):
        for path in sorted((ROOT / folder).glob("*.py")):
            if path.name == "kinds.py":
                continue
            tree = pyast.parse(path.read_text(encoding="utf-8"))
            for node in pyast.walk(tree):
                tested: list[pyast.expr] = []
                if isinstance(node, pyast.Compare):
                    tested = [c for op, c in zip(node.ops, node.comparators, strict=True)
                              if isinstance(op, pyast.In | pyast.NotIn)]
                elif isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
                    tested = [node.operand]
                elif isinstance(node, pyast.BoolOp):
                    tested = list(node.values)
                elif isinstance(node, pyast.If | pyast.IfExp | pyast.While):
                    tested = [node.test]
                for expr in tested:
                    if isinstance(expr, pyast.Attribute) and expr.attr == "kinds":
                        found.append(f"{path.relative_to(ROOT)}:{expr.lineno}")
    return found


def test_kinds_are_read_in_one_place() -> None:
    """Meaning rule L1: only engine/program/kinds.py reads a phrase's kinds, so none can take ANY_KIND for none."""
    assert _kind_tests() == []


# ---------------------------------------------------------------- a random pick is uniform over its phrase
def _shares(rules: lt.Rules, card: str, setup: dict[str, Any], seeds: range,
            outcome: Callable[[lt.Game, lt.Game], str]) -> tuple[dict[str, int], dict[str, float], dict[str, float]]:
    """Over ``seeds``: how often each outcome came, and its expected count and variance if each token
    in the bag, as the card's turn comes, is as likely as any other (``outcome`` names a kind drawn)."""
    seen: dict[str, int] = {}
    mean: dict[str, float] = {}
    var: dict[str, float] = {}
    for seed in seeds:
        before = lt.new_game(rules, 2, seed=seed, setup=setup).choose(card)  # the bag as the sun begins
        game = before.choose("Idler")
        while game.decision is not None and game.phase == "sun":
            game = game.choose(game.legal_keys()[0])
        total = sum(before.bag.values())
        for kind, n in before.bag.items():
            p = n / total
            mean[kind] = mean.get(kind, 0.0) + p
            var[kind] = var.get(kind, 0.0) + p * (1 - p)
        got = outcome(before, game)
        seen[got] = seen.get(got, 0) + 1
    return seen, mean, var


def _taken(before: lt.Game, after: lt.Game) -> str:
    """The kind the bag lost (or "" when it lost none)."""
    lost = [k for k in before.bag if after.bag[k] < before.bag[k]]
    return lost[0] if lost else ""


def _swapped_in(held: str) -> Callable[[lt.Game, lt.Game], str]:
    """The kind a swap of a ``held`` token drew from the bag: ``held`` itself when nothing was traded."""
    def outcome(before: lt.Game, after: lt.Game) -> str:
        gained = [k for k in after.players[0].loot if after.players[0].loot.count(k) > before.players[0].loot.count(k)]
        return gained[0] if gained else held
    return outcome


SIGMAS = 4.0  # the tolerance: each kind's count lies within 4 standard deviations of its expected count
RANDOM_TEXTS = {
    "Swap Chosen First": "sun: swap a map you hold with a random loot from the bag.",
    "Swap Chosen Second": "sun: swap a random loot from the bag with a map you hold.",
    "Take Random": "sun: take a random loot from the bag.",
    "Draw Random": "sun: draw 1 random loot from the bag.",
}


@pytest.fixture(scope="module")
def random_rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    return load(tmp_path_factory.mktemp("random"), RANDOM_TEXTS)


@pytest.mark.parametrize("card", RANDOM_TEXTS)
def test_a_random_pick_is_uniform_over_the_bag(random_rules: lt.Rules, card: str) -> None:
    """Meaning rule L2: a random token is drawn from every token its phrase names; one that changes nothing does
    nothing (a map drawn for a map), as often as the bag holds maps."""
    setup = {"players": [{"hand": [card, "Cook"], "loot": ["map"]}, {"hand": ["Idler", "Cook"]}],
             "loot": [["saber", "barrel"]]}
    outcome = _swapped_in("map") if card.startswith("Swap") else _taken
    seen, mean, var = _shares(random_rules, card, setup, range(400), outcome)
    assert set(seen) <= set(mean), seen
    for kind in mean:
        assert abs(seen.get(kind, 0) - mean[kind]) <= SIGMAS * math.sqrt(var[kind]), (kind, seen, mean)
    assert seen.get("map", 0) > 0  # the kind the swap gives away is drawn too


# ---------------------------------------------------------------- "you just took" is this dusk's
TOOK_TEXTS = {
    "Day Taker": "sun: take a hook from the bag.\n  dusk: gain 3 doubloons if you just took a hook.",
    "Dusk Taker": "dusk: take a hook from the bag, then gain 3 doubloons if you just took a hook.",
    "Plain Taker": "dusk: gain 3 doubloons if you just took a hook.",
}


@pytest.fixture(scope="module")
def took_rules(tmp_path_factory: pytest.TempPathFactory) -> lt.Rules:
    return load(tmp_path_factory.mktemp("took"), TOOK_TEXTS)


@pytest.mark.parametrize(("card", "day_loot", "paid"), [
    ("Day Taker", [], 0),  # took a hook by day, nothing at dusk
    ("Day Taker", ["saber"], 0),  # took a hook by day, a saber at dusk
    ("Day Taker", ["hook"], 3),  # took a hook at dusk too
    ("Dusk Taker", [], 3),  # its dusk ability took the hook
    ("Plain Taker", ["hook"], 3),
    ("Plain Taker", ["saber"], 0),
])
def test_just_took_is_this_dusks(took_rules: lt.Rules, card: str, day_loot: list[str], paid: int) -> None:
    """Meaning rule L3: "you just took" reads the tokens this card took at this dusk, nothing taken by day."""
    setup = {"players": [{"hand": [card, "Cook"], "doubloons": 5}, {"hand": ["Idler", "Cook"], "doubloons": 5}],
             "loot": [day_loot]}
    game = lt.new_game(took_rules, 2, seed=3, setup=setup).choose(card).choose("Idler")
    while game.decision is not None and game.phase in ("sun", "dusk") and game.day == 1:
        game = game.choose(game.legal_keys()[0])
    assert game.players[0].doubloons == 5 + paid


# ---------------------------------------------------------------- no token comes to a player at anchor
def _refusal(tmp_path: Path, text: str, kind: str | None = None) -> lt.CardError:
    folder = tmp_path / "mod"
    folder.mkdir(exist_ok=True)
    if kind is None:
        body = character("Fan", 41.5, text)
    else:
        count = dict(lt.load_rules("galecrest").board.bag)[kind]
        body = f"kind: {kind}\nside: calm\ncount: {count}\ntext: |\n  {text}\n"
    (folder / "fan.yaml").write_text(body, encoding="utf-8")
    with pytest.raises(lt.CardError) as info:
        lt.load_rules("galecrest", extra_cards=[folder])
    return info.value


@pytest.mark.parametrize(("text", "kind"), [
    ("anchor: take a hook from the bag.", None),
    ("anchor: take a random loot from the bag.", None),
    ("anchor: draw 2 random loot from the bag.", None),
    ("anchor: take a saber from the player on your right.", None),
    ("anchor: swap a relic you hold with a loot from the bag.", None),
    ("anchor: give a relic you hold to the player on your left.", None),
    ("anchor: every other player gives a loot they hold to you.", None),
    ("anchor: gain 2 doubloons, then take an amulet from the bag.", None),
    ("anchor: take a chest from another player.", "barrel"),
])
def test_no_token_comes_to_a_player_at_anchor(tmp_path: Path, text: str, kind: str | None) -> None:
    """E38 (meaning rule L4): a token that would come to a player at anchor would be lost unscored: refused."""
    err = _refusal(tmp_path, text, kind)
    assert "at anchor no token comes to a player" in err.message
    assert "gain 5 doubloons" in err.expected and "moon:" in err.expected


@pytest.mark.parametrize("text", [
    "anchor: return a relic you hold to the bag, then gain 2 doubloons if you did.",
    "anchor: you may keep a map you hold for the next voyage; otherwise gain 1 doubloon.",
    "moon: take a hook from the bag.",
])
def test_what_runs_at_anchor_stays(tmp_path: Path, text: str) -> None:
    """E38 (meaning rule L4): returning and keeping loot at anchor, and taking it at night, are accepted."""
    folder = tmp_path / "mod"
    folder.mkdir()
    (folder / "fan.yaml").write_text(character("Fan", 41.5, text), encoding="utf-8")
    assert lt.load_rules("galecrest", extra_cards=[folder]).has_card("Fan")
