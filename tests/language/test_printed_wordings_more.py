"""More printed-card wordings (issue 34.1): a seat named as an opponent, an owner's possessive, the passive of a
discard, past possession, a worth said with "is worth", and keeping or swapping the token on its own loot tile.

docs/card-language.md, "Plain-English variants": each is read as the canonical form beside it, which ``cards
check`` shows, or refused with both readings named; the known-intents table answers what has no reading.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

import pytest
import yaml

import libertalia as lt
from libertalia.errors import UnsayableError
from libertalia.language.parser import parse
from libertalia.language.render import render_ability


def _load(text: str, tile: tuple[str, str] | None = None) -> str:
    """``text`` loaded as a character's (or a tile's, ``(kind, side)``), beside Galecrest: its canonical text."""
    bag = dict(lt.load_rules("galecrest").board.bag)
    with tempfile.TemporaryDirectory() as tmp:
        if tile is None:
            folder, header = Path(tmp) / "characters", {"name": "Wording Tester", "rank": 77}
        else:
            folder, header = Path(tmp) / "loot", {"kind": tile[0], "side": tile[1], "count": bag[tile[0]]}
        folder.mkdir()
        (folder / "card.yaml").write_text(yaml.safe_dump(header) + "text: |\n  " + text + "\n", encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rules = lt.load_rules("galecrest", extra_cards=[tmp], loot=None if tile is None else {tile[0]: tile[1]})
    card = next(c for c in rules.characters if c.name == "Wording Tester") if tile is None else \
        next(t for t in rules.loot if t.kind == tile[0])
    return "\n".join(render_ability(a) for a in card.abilities)


def _refused(text: str, tile: tuple[str, str] | None = None) -> lt.CardError:
    with pytest.raises(lt.CardError) as info:
        _load(text, tile)
    return info.value


# (printed, canonical): in sentences of our own
PAIRS = [
    # a seat named as an opponent is the player on that side
    ("Day: Your opponent on the left gives you 2 doubloons.", "sun: the player on your left pays you 2 doubloons."),
    ("Night: The opponent to your right loses 1 reputation.", "moon: the player on your right loses 1 reputation."),
    ("sun: your left opponent gains 3 doubloons.", "sun: the player on your left gains 3 doubloons."),
    # an owner's possessive is "owned by another player"
    ("Day: Lose 1 doubloon for each opponent's character on the island.",
     "sun: lose 1 doubloon for each character on the island owned by another player."),
    ("Day: Put an opponent's character on the island into your hand.",
     "sun: put a character on the island owned by another player into your hand."),
    ("sun: discard another player's character ranked above 20 on the island.",
     "sun: discard a character ranked above 20 on the island owned by another player."),
    ("Day: Every other player's character on the island is discarded.",
     "sun: discard every character on the island owned by another player."),
    # the passive of a discard, of a phrase that names its characters
    ("Night: This is discarded.", "moon: discard this."),
    ("Day: The lowest-ranked character on the island is discarded, then gain 1 doubloon.",
     "sun: discard the lowest-ranked character on the island, then gain 1 doubloon."),
    ("sun: all other characters on the island are discarded.", "sun: discard every other character on the island."),
    # past possession at dusk
    ("At dusk, lose 2 doubloons if you took a saber.", "dusk: lose 2 doubloons if you just took a saber."),
    # a worth at the voyage's end
    ("End of voyage: This character is worth 2 doubloons.", "anchor: gain 2 doubloons."),
    ("anchor: every chest you have is worth 2 extra doubloons.", "anchor: gain 2 doubloons for each chest you hold."),
    ("End of voyage: All your sabers are worth 1 more reputation each.",
     "anchor: gain 1 reputation for each saber you hold."),
]


@pytest.mark.parametrize(("printed", "canonical"), PAIRS)
def test_a_printed_wording_loads_as_its_canonical_text(printed: str, canonical: str) -> None:
    """Plain-English variants (seat, possessive, passive, past possession, worth): the canonical text shown."""
    assert _load(printed) == canonical
    assert _load(canonical) == canonical


def test_a_possessive_builds_the_tree_of_owned_by() -> None:
    """Plain-English variants (possessive): "each opponent's character" is exactly "every character … owned by
    another player", one tree."""
    printed = parse("sun: discard each opponent's character on the island.")
    canonical = parse("sun: discard every character on the island owned by another player.")
    assert printed == canonical


# (tile, printed, canonical): a worth and the token's own actions on its own tile
TILE_PAIRS = [
    (("hook", "worded"), "End of voyage: This hook is worth 4 doubloons.", "anchor: gain 4 doubloons."),
    (("hook", "worded"), "anchor: this token is worth 1 reputation.", "anchor: gain 1 reputation."),
    (("barrel", "worded"), "End of voyage: Your barrels are worth 3 doubloons each.", "anchor: gain 3 doubloons."),
    (("barrel", "worded"), "anchor: each barrel you hold is worth 1 doubloon.", "anchor: gain 1 doubloon."),
    (("saber", "worded"), "anchor: keep this saber for the next voyage.",
     "anchor: keep this saber for the next voyage."),
    (("amulet", "worded"), "Night: Swap this amulet with a loot from an adjacent player.",
     "moon: swap this amulet with a loot from an adjacent player."),
]


@pytest.mark.parametrize(("tile", "printed", "canonical"), TILE_PAIRS)
def test_on_its_own_tile_a_worth_and_this_token_are_read(tile: tuple[str, str], printed: str, canonical: str) -> None:
    """Plain-English variants (worth) and form this_token (keep, swap): on the kind's own tile a worth is each
    token's own, and its token can be kept or swapped."""
    assert _load(printed, tile) == canonical


# (text, tile, words the refusal says): what reads two ways, or has no reading here
REFUSED = [
    ("Day: A character in your hand is discarded.", None, ("you", "its owner")),
    ("Dusk: Gain 1 doubloon if you took a hook today.", None, ("reads two ways", "you just took", "today")),
    ("moon: gain 1 doubloon if you took a hook.", None, ("dusk",)),
    ("End of voyage: Your chests are worth 4 doubloons each.", None,
     ("reads two ways", "on top of its own worth", "in place of its own", "worth 4 more doubloons")),
    ("End of voyage: each chest you hold is worth 4 doubloons.", ("hook", "worded"), ("reads two ways",)),
    ("Night: This card is worth 2 doubloons.", None, ("end of the voyage", "moon")),
    ("End of voyage: This card is worth 2 more doubloons.", None, ("no worth of its own",)),
    ("End of voyage: This hook is worth 2 doubloons.", None, ("loot tile",)),
    ("End of voyage: This chest is worth 2 doubloons.", ("hook", "worded"), ("only its own tile",)),
    ("anchor: each hook you hold is worth 1 more doubloon.", ("hook", "worded"), ("paid again for each token",)),
    ("anchor, once: this hook is worth 2 doubloons.", ("hook", "worded"), ('"once"',)),
    ("End of voyage: the highest-ranked character in your ship is worth 2 doubloons.", None,
     ("another character has no worth",)),
    ("anchor: keep this saber for the next voyage.", None, ("a character has no token",)),
]


@pytest.mark.parametrize(("text", "tile", "says"), REFUSED)
def test_a_wording_with_no_one_reading_is_refused_with_why(text: str, tile: tuple[str, str] | None,
                                                           says: tuple[str, ...]) -> None:
    """Plain-English variants: a passive pick, "took … today", a worth of a kind on a character, a worth outside
    anchor or of another card or kind are refused, naming both readings or what to write."""
    message = str(_refused(text, tile))
    assert all(word in message for word in says), message


@pytest.mark.parametrize("text", [
    "Day: Peek at the top loot token of the bag.",
    "Night: When this is discarded, gain 2 doubloons.",
])
def test_looking_into_the_bag_and_a_discard_trigger_get_the_nearest_wording(text: str) -> None:
    """Meanings the language has no words for: the bag has no top, and no ability runs on a discard; each is
    refused by its known-intents entry with the nearest sayable line, before any did-you-mean."""
    error = _refused(text)
    errors = getattr(error, "errors", (error,))
    assert isinstance(errors[0], UnsayableError) and "nearest wording" in str(error)
    assert "did you mean" not in str(error)
