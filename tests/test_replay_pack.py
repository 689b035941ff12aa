"""The replay page's packed pictures: each step unpacks to exactly ``Game.svg()`` of that step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import libertalia as lt
from libertalia.pictures_pack import _blocks, decode, encode, pack, shift, unpack
from libertalia.pictures_page import replay_page


def _pictures(page: str) -> list[str]:
    return decode(page.split('id="pictures">')[1].split("</script>")[0])


def test_packing_gives_back_every_picture_exactly() -> None:
    """pictures_pack: lines kept once, steps as diffs; unpack rebuilds each text character for character."""
    svgs = ["<svg>\na\nb\nc\n</svg>", "<svg>\na\nx\nc\n</svg>", "<svg>\nc\na\n</svg>", "", "<svg>\n\n</svg>"]
    packed = pack(svgs)
    assert unpack(packed) == svgs
    assert len(packed["lines"]) == len(set("\n".join(svgs).split("\n")))
    assert decode(encode(svgs)) == svgs


def test_moved_lines_are_copied_with_their_move() -> None:
    """pictures_pack: a run of lines that only moved is one copy with its (dx, dy); no line is stored again."""
    first = ['<svg width="10">', '<g class="box">', '<rect x="0" y="5" width="9.5"/>',
             '<text x="3" y="-2">Odd name</text>', '<circle cx="7" cy="0" r="2"/>', "</g>", "</svg>"]
    moved = [first[0], *(shift(line, -3, 40) for line in first[1:-1]), first[-1]]
    assert moved[3] == '<text x="0" y="38">Odd name</text>' and moved[4] == '<circle cx="4" cy="40" r="2"/>'
    svgs = ["\n".join(first), "\n".join(moved)]
    packed = pack(svgs)
    assert unpack(packed) == svgs and len(packed["lines"]) == len(first)
    assert packed["steps"][1] == [[0, 7, -3, 40]]  # lines with no coordinate go with any move


def test_a_line_no_move_gives_back_is_stored() -> None:
    """pictures_pack: a move is used only when it gives the line back exactly: coordinates that moved apart (x by 2,
    cx by 3), a decimal x, or a text that reads like a coordinate make new lines, kept exact."""
    first = ['<g x="1" y="0"><circle cx="1" cy="0"/></g>', '<text x="1.5" y="0">a</text>',
             '<text x="1" y="0">Mod x="4" card</text>']
    second = ['<g x="3" y="0"><circle cx="4" cy="0"/></g>', '<text x="2.5" y="0">a</text>',
              '<text x="3" y="0">Mod x="4" card</text>']
    svgs = ["\n".join(first), "\n".join(second)]
    packed = pack(svgs)
    assert unpack(packed) == svgs and len(packed["lines"]) == 6


def test_the_diff_matches_lines_in_order_around_repeated_ones() -> None:
    """pictures_pack: the patience diff's runs are true matches, in order in both, and miss no common line here."""
    a = [7, 0, 9, 1, 9, 9, 2, 5, 9, 3]
    b = [0, 9, 1, 9, 9, 2, 4, 9, 3, 7]
    blocks = _blocks(a, b)
    assert all(a[i:i + n] == b[j:j + n] for i, j, n in blocks)
    assert all(i + n <= i2 and j + n <= j2 for (i, j, n), (i2, j2, _) in zip(blocks, blocks[1:], strict=False))
    assert sum(n for _, _, n in blocks) == 8 and _blocks([], [1]) == [] and _blocks([1, 1], [1, 1]) == [(0, 0, 2)]


@pytest.mark.parametrize("players", [2, 1])
def test_each_step_of_the_page_is_the_game_picture(players: int) -> None:
    """Deliverable 3: the page's picture of step i is ``Game.svg()`` after i answers (2 players and solo)."""
    game = lt.new_game(lt.load_rules(), players=players, seed=5)
    games = [game]
    rng = __import__("random").Random(5)
    while game.decision is not None:
        game = game.choose(rng.choice(game.legal_keys()))
        games.append(game)
    page = replay_page(lt.GameRecord.of(game))
    pictures = _pictures(page)
    assert len(pictures) == len(games)
    for i in sorted({0, 1, 2, 3, len(games) // 2, len(games) - 2, len(games) - 1}):
        assert pictures[i] == games[i].svg(), f"step {i}"


def test_the_page_speaks_in_words_and_names_the_seats() -> None:
    """Deliverable 3: captions in words (no kind names), the record's agents named, no "day 0" at the end."""
    game = lt.new_game(lt.load_rules(), players=2, seed=6)
    rng = __import__("random").Random(6)
    while game.decision is not None:
        game = game.choose(rng.choice(game.legal_keys()))
    page = replay_page(lt.GameRecord.of(game, agents=["greedy", "human"]))
    steps = json.loads(page.split('id="steps">')[1].split("</script>")[0])
    kinds = ("choose_loot", "play_character", "choose_character", "choose_option", "order_abilities")
    for step in steps[1:]:
        assert not any(kind in step["what"] for kind in kinds), step["what"]
        assert step["what"].startswith(("Seat 0 (greedy) ", "Seat 1 (human) ")), step["what"]
    assert "Seat 0 (greedy)" in page and "Seat 1 (human)" in page
    assert steps[-1]["over"] and "day" not in steps[-1]["where"] and "wins" in steps[-1]["where"]


@pytest.mark.parametrize("name", ["Odd ]]> Name", "Odd </script> Name"])
def test_a_card_name_cannot_break_out_of_the_packed_pictures(name: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The pictures are base64 (no markup): a mod name with ``]]>`` or ``</script>`` stays inside, escaped."""
    from libertalia.loading import names

    from .helpers import mod_rules

    (tmp_path / "odd.yaml").write_text(f"name: {name}\nrank: 61\ntext: |\n  sun: Gain 1 doubloon.\n", encoding="utf-8")
    monkeypatch.setattr(names, "shape_problem", lambda name: None)
    rules = mod_rules(tmp_path)
    game = lt.new_game(rules, players=2, seed=3, setup={"players": [{"hand": [name, "Cook"]}, {"hand": ["Cook"]}]})
    game = game.play_out([lt.agents.RandomAgent(seat) for seat in range(2)])
    page = replay_page(lt.GameRecord.of(game))
    assert page.count("</script>") == 3 and "]]>" not in page and name not in page
    blob = page.split('id="pictures">')[1].split("</script>")[0]
    assert set(blob) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
    escaped = name.replace("<", "&lt;").replace(">", "&gt;")
    assert any(escaped in svg for svg in decode(blob))
