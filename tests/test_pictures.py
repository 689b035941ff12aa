"""The table's picture (``libertalia.pictures``): its structure, not its pixels (``test_pictures_browser`` looks)."""

from __future__ import annotations

import random
import re
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import libertalia as lt
from libertalia import events as ev
from libertalia.loading import names
from libertalia.pictures import columns, seat_colour

from .helpers import galecrest, mod_rules

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    """Every text element's content, in document order (parsing also checks the XML is well formed)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [el.text or "" for el in root.iter(f"{SVG}text")]


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """The ``<g>`` elements whose class list holds ``cls``."""
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def seat_group(svg: str, seat: int) -> ET.Element:
    root = ET.fromstring(svg)
    return next(g for g in root.iter(f"{SVG}g") if g.get("data-seat") == str(seat) and "seat" in g.get("class", ""))


def seat_panel(svg: str, seat: int) -> list[str]:
    return [el.text or "" for el in seat_group(svg, seat).iter(f"{SVG}text")]


def zone(svg: str, seat: int, name: str) -> list[ET.Element]:
    """The pieces (cards, tokens, words) of one zone of a seat's panel: ``hand``, ``ship``, ``loot``..."""
    found = next(g for g in seat_group(svg, seat).iter(f"{SVG}g") if g.get("data-zone") == name)
    return [g for g in found if g.tag == f"{SVG}g" and "zone-" not in " ".join(t.get("class", "") for t in g.iter())]


def card_names(pieces: list[ET.Element]) -> list[str]:
    return [g.get("data-card", "") for g in pieces if g.get("data-card")]


def words_in(pieces: list[ET.Element]) -> str:
    return " ".join(t.text or "" for g in pieces for t in g.iter(f"{SVG}text"))


def play(game: lt.Game, answers: int, seed: int) -> lt.Game:
    """``game`` after up to ``answers`` random answers."""
    rng = random.Random(seed)
    for _ in range(answers):
        if game.decision is None:
            break
        game = game.choose(rng.choice(game.legal_keys()))
    return game


@pytest.fixture
def position() -> lt.Game:
    """A declared position at voyage 1's first dusk: seat 0's Collector about to take loot."""
    start = lt.new_game(galecrest(), players=3, seed=1, setup={
        "reputation": [0, 2, 4], "loot": [["saber", "amulet", "relic"]],
        "players": [{"hand": ["Collector", "Cook", "Watchman"]}, {"hand": ["Necromancer"]}, {"hand": ["Bosun"]}]})
    return start.choose("Collector")  # seats 1 and 2 hold one card each: played for them


def test_a_game_picture_shows_the_table(position: lt.Game) -> None:
    """The whole table: heading, track, the day's loot at the ship as tokens, and every seat's panel with its hand."""
    svg = position.svg()
    shown = texts(svg)
    assert "Libertalia: Winds of Galecrest" in shown and "the whole table" in shown
    assert "Voyage 1 of 3, day 1 of 4 (dusk: taking loot)" in shown
    assert {"Reputation track", "Island", "Loot at the ship today", "Loot to come"} <= set(shown)
    root = ET.fromstring(svg)
    day_loot = groups(root, "day-loot")[0]
    assert [g.get("data-loot") for g in groups(day_loot, "token")] == ["saber", "amulet", "relic"]
    assert [t for t in shown if re.fullmatch(r"Seat \d", t)] == [f"Seat {i}" for i in range(3)]
    assert card_names(zone(svg, 0, "hand")) == ["Cook", "Watchman"] and "none" in words_in(zone(svg, 2, "hand"))
    assert len(groups(root, "rep-token")) == 3


def test_the_island_shows_the_characters_as_cards_in_their_owners_colours(position: lt.Game) -> None:
    """The island holds the day's characters by rank, each a card framed in its owner's colour, rank on it,
    its ability text as its hover title."""
    root = ET.fromstring(position.svg())
    cards = groups(groups(root, "island")[0], "card")
    names_ = [g.get("data-card") or "" for g in cards]
    owners = {g.get("data-card"): g.find(f"{SVG}rect").get("stroke") for g in cards}  # type: ignore[union-attr]
    ranks = [galecrest().card(n).rank for n in names_]
    assert sorted(names_) == sorted(["Collector", "Necromancer", "Bosun"]) and ranks == sorted(ranks)
    assert owners["Collector"] == seat_colour(0) and owners["Bosun"] == seat_colour(2)
    collector = cards[names_.index("Collector")]
    title = collector.find(f"{SVG}title")
    assert title is not None and galecrest().card("Collector").text.split()[1] in (title.text or "")
    assert f"rank {galecrest().card('Collector').rank:g}" in [t.text for t in collector.iter(f"{SVG}text")]


def test_loot_tokens_show_their_values_on_the_side_in_play() -> None:
    """A token shows its kind and its fixed value (a chest +5, a relic -3), the text of the side in play (calm,
    stormy, or each kind's drawn side when uncharted) as its title."""
    for loot in ("calm", "stormy", "uncharted"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", lt.UnverifiedLootWarning)  # the stormy tiles are reconstructions
            rules = lt.load_rules("galecrest", loot=loot)
            game = lt.new_game(rules, players=3, seed=1, setup={"loot": [["chest", "relic", "saber"]]})
        root = ET.fromstring(game.svg())
        tokens = {g.get("data-loot") or "": g for g in groups(groups(root, "day-loot")[0], "token")}
        assert sorted(tokens) == ["chest", "relic", "saber"]
        for kind, token in tokens.items():
            title = token.find(f"{SVG}title")
            assert title is not None and f"({game.rules.loot_sides[kind]} side)" in (title.text or "")
            values = [t.text for t in token.iter(f"{SVG}text") if "value" in t.get("class", "").split()]
            coins = [c for a in game.rules.loot_spec(kind).compiled for c in a.coins or ()]
            for c in coins:
                assert any(f"{c:+d}" in (v or "") for v in values), (kind, values)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


def test_the_question_is_written_in_words_and_its_seat_ringed(position: lt.Game) -> None:
    """The seat to act is ringed and the question names it and the card it chooses for ("its Collector")."""
    svg = position.svg()
    assert "Seat 0 chooses loot for its Collector" in texts(svg)
    assert "acting" in seat_group(svg, 0).get("class", "") and "acting" not in seat_group(svg, 1).get("class", "")
    assert "choose_loot" not in svg
    theirs = position.svg(1)
    assert "Seat 0 chooses loot for its Collector" in texts(theirs)
    assert "Options:" not in " ".join(texts(theirs))  # another seat's options are not shown


def test_the_last_step_marks_the_card_that_acted_and_the_token_taken(position: lt.Game) -> None:
    """After an answer, the card that acted and the token it took are marked; the legend says what a mark means."""
    after = position.choose("saber")
    svg = after.svg()
    root = ET.fromstring(svg)
    taken = [g for g in zone(svg, 0, "loot") if g.get("data-mark") == "taken"]
    assert [g.get("data-loot") for g in taken] == ["saber"]
    marked = {(g.get("data-card"), g.get("data-mark")) for g in groups(root, "marked") if g.get("data-card")}
    assert ("Collector", "acted") in marked or ("Collector", "played") in marked
    legend = next(g for g in groups(root, "chip") if "last step" in " ".join(t.text or "" for t in g.iter()))
    events = after.events_since(position)
    assert f"marked: touched by the last step ({len(events)} event{'' if len(events) == 1 else 's'})" in texts(svg)
    title = legend.find(f"{SVG}title")
    assert title is not None and (title.text or "").splitlines() == [str(e) for e in events]
    assert not [g for g in groups(ET.fromstring(lt.new_game(galecrest(), 3, seed=1).svg()), "marked")]


def test_a_discarded_card_is_marked_in_its_graveyard() -> None:
    """Every card the last step discarded that is still in its owner's graveyard is marked there as discarded."""
    game = lt.new_game(galecrest(), players=4, seed=21)
    rng = random.Random(4)
    seen = 0
    while game.decision is not None and seen < 6:
        before = game
        game = game.choose(rng.choice(game.legal_keys()))
        gone = ev.select(game.events_since(before), type=ev.Discarded)
        if not gone:
            continue
        svg = game.svg()
        for e in gone:
            if e.target in game.players[e.target_seat].graveyard:
                seen += 1
                marked = [g.get("data-card") for g in zone(svg, e.target_seat, "graveyard")
                          if g.get("data-mark") == "discarded"]
                assert e.target in marked, (e, marked)
    assert seen


def test_the_last_step_is_the_events_since_the_last_question() -> None:
    """``Game._last_step`` (what the picture marks) is what ``events_since`` gives from the game one answer back."""
    game = lt.new_game(galecrest(), players=3, seed=12)
    assert game._last_step() == ()
    rng = random.Random(3)
    for _ in range(40):
        if game.decision is None:
            break
        before = game
        game = game.choose(rng.choice(game.legal_keys()))
        assert game._last_step() == game.events_since(before)
    unlogged = lt.new_game(galecrest(), players=3, seed=12, log=False)
    assert unlogged.choose(unlogged.legal_keys()[0])._last_step() == ()


def test_a_finished_game_shows_the_winner_and_the_ranking() -> None:
    """A finished game names its winner and every seat's final score, best first, and no day."""
    game = play(lt.new_game(galecrest(), players=4, seed=5), 10_000, 2)
    assert game.is_over
    svg = game.svg()
    shown = texts(svg)
    (winner,) = game.winners()
    best = game.final_scores()[winner]
    assert any(t.startswith(f"Seat {winner} wins with {best} points") for t in shown)
    places = [t for t in shown if re.match(r"(\u2605 )?\d\. seat \d: \d+ points", t)]
    assert len(places) == 4 and str(winner) in places[0]
    scores = [int(t.split(": ")[1].split()[0]) for t in places]
    assert scores == sorted(game.final_scores(), reverse=True)
    assert "The game is over after voyage 3 of 3" in shown and "day 0" not in svg
    assert "acting" not in " ".join(g.get("class", "") for g in groups(ET.fromstring(svg), "seat"))


def test_the_track_and_the_seat_panels_agree(position: lt.Game) -> None:
    """Each seat's token stands on the track space its panel names, whose income the panel gives (no bare index)."""
    svg = position.svg()
    root = ET.fromstring(svg)
    income = galecrest().board.track_income
    for space in groups(root, "track-space"):
        words_ = [t.text or "" for t in space.iter(f"{SVG}text")]
        number = int(words_[0].split()[1])
        assert f"income {income[number - 1]:+d}" in words_
        for token in groups(space, "rep-token"):
            seat = int(token.get("data-seat", "-1"))
            assert f"Reputation: space {number} of {len(income)} (income {income[number - 1]:+d})" in \
                seat_panel(svg, seat)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_the_seats_use_the_width(players: int) -> None:
    """Seats sit in rows of two (1, 2 or 4 seats: four as 2×2) or three, inside the picture and not overlapping."""
    with pytest.warns(lt.UnverifiedSoloWarning) if players == 1 else _nothing():
        game = lt.new_game(galecrest(), players=players, seed=3)
    root = ET.fromstring(game.svg())
    width = float(root.get("width", "0"))
    rects = []
    for g in groups(root, "seat"):
        r = g.find(f"{SVG}rect")
        assert r is not None
        rects.append(tuple(float(r.get(k, "0")) for k in ("x", "y", "width", "height")))
    assert len({y for _, y, _, _ in rects}) == -(-len(rects) // columns(len(rects)))
    assert columns(4) == 2 and columns(6) == 3
    for i, (x, y, w, h) in enumerate(rects):
        assert x >= 0 and x + w <= width
        for x2, y2, w2, h2 in rects[i + 1:]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y


def test_whole_lists_are_drawn_never_cut() -> None:
    """Every card of a long graveyard and every token is drawn; nothing ends in "…"."""
    game = play(lt.new_game(galecrest(), players=6, seed=4), 10_000, 4)
    svg = game.svg()
    assert "\u2026" not in svg
    for p in game.players:
        assert card_names(zone(svg, p.seat, "graveyard")) == list(p.graveyard)


def test_island_ties_show_their_tie_break() -> None:
    """Cards of equal rank say how they were placed: by reputation space (Galecrest), by printed tie-breaker
    (Classic)."""
    setup = {"players": [{"hand": ["Cook"]}, {"hand": ["Cook"]}, {"hand": ["Cook"]}]}
    game = lt.new_game(galecrest(), players=3, seed=1, setup=setup)
    assert game.island or game.decision is not None
    notes = " ".join(texts(game.svg()))
    assert notes.count("tie: reputation space") == 3
    classic = lt.load_rules("classic")
    name = classic.characters[5].name
    game = lt.new_game(classic, players=3, seed=1, setup={"players": [{"hand": [name]}] * 3})
    notes = " ".join(texts(game.svg()))
    numbers = classic.board.tie_breakers[classic.card(name).rank][:3]
    assert all(f"tie-breaker {n}" in notes for n in numbers)


def test_an_observation_picture_hides_another_seats_hand(position: lt.Game) -> None:
    """An observation's picture shows its own hand and only a count of another seat's cards."""
    svg = position.observation(1).svg()
    shown = " ".join(texts(svg))
    assert "seen by seat 1" in shown and "Seat 1 (you)" in shown
    assert "Cook" not in svg and "Watchman" not in svg
    assert "2 hidden" in words_in(zone(svg, 0, "hand")) and "none" in words_in(zone(svg, 1, "hand"))
    assert position.observation(1)._repr_svg_() == svg
    assert position.svg(1) == svg and position.svg(0) != svg


def test_an_observation_picture_depends_only_on_what_its_seat_sees() -> None:
    """Two games that differ only in another seat's hand draw the same picture for this seat, marks included."""
    pictures = set()
    for theirs in (["Cook", "Bosun", "Brute"], ["Gunner", "Captain", "Scout"]):
        game = lt.new_game(galecrest(), players=2, seed=9, setup={
            "players": [{"hand": ["Collector", "Watchman", "Armorer"]}, {"hand": theirs}]})
        game = game.choose("Collector")
        assert game.decision is not None and game.decision.player == 1
        pictures.add(game.observation(0).svg())
    assert len(pictures) == 1


def test_a_mod_card_name_is_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card name with XML's special characters comes out as text, the document well formed.

    The loader now refuses such a name (loading/names.py, issue 33); the picture escapes it all the same, should
    one reach it another way, so the name rule is set aside here to build the game.
    """
    (tmp_path / "bad.yaml").write_text("name: Bad <&> Name\nrank: 61\ntext: |\n  sun: Gain 1 doubloon.\n",
                                       encoding="utf-8")
    with pytest.raises(lt.CardError, match="holds '<'"):
        mod_rules(tmp_path)
    monkeypatch.setattr(names, "shape_problem", lambda name: None)
    rules = mod_rules(tmp_path)
    game = lt.new_game(rules, players=3, seed=1, setup={"players": [
        {"hand": ["Bad <&> Name", "Cook"]}, {"hand": ["Cook"]}, {"hand": ["Cook"]}]})
    for svg in (game.svg(), game.svg(0), play(game, 3, 1).svg()):
        assert "Bad &lt;&amp;&gt; Name" in svg and "<&>" not in svg
    assert "Bad <&> Name" in card_names(zone(game.svg(), 0, "hand"))


def test_classic_and_solo_pictures() -> None:
    """Classic draws without a reputation track (its board has none); solo shows the Automa's open hand and deck."""
    classic = lt.new_game(lt.load_rules("classic"), players=4, seed=2)
    shown = texts(classic.svg())
    assert any(t.startswith("Libertalia") for t in shown) and "Seat 3" in shown
    assert "Reputation track" not in shown and not any(t.startswith("Reputation") for t in seat_panel(classic.svg(), 0))
    with pytest.warns(lt.UnverifiedSoloWarning):
        solo = lt.new_game(galecrest(), 1, seed=11)
    obs = solo.observation(0)
    svg = obs.svg()
    automa = obs.automa
    assert automa is not None
    assert f"Seat {automa} (Automa)" in seat_panel(svg, automa)
    assert "33 cards" in words_in(zone(svg, automa, "solo")) and "hidden" not in " ".join(seat_panel(svg, automa))
    assert "hidden" not in " ".join(seat_panel(svg, 0))  # its own hand, open


def test_two_players_show_the_midshipman_as_a_neutral_card() -> None:
    """With two players the Midshipman stands on the island as a grey card, labelled neutral."""
    game = lt.new_game(galecrest(), players=2, seed=3, setup={"players": [{"hand": ["Cook"]}, {"hand": ["Bosun"]}]})
    island = groups(ET.fromstring(game.svg()), "island")[0]
    neutral = [g for g in groups(island, "card") if g.get("data-card") == "Midshipman"]
    assert neutral and neutral[0].find(f"{SVG}rect").get("stroke") == seat_colour(None)  # type: ignore[union-attr]
    assert "neutral" in [t.text for t in neutral[0].iter(f"{SVG}text")]


def test_notebooks_get_the_picture(position: lt.Game) -> None:
    """A game's one notebook form, ``_repr_html_``, holds the picture; an observation's is ``_repr_svg_``."""
    assert position.svg() in position._repr_html_()
    assert position.observation(1)._repr_svg_() == position.svg(1)


def test_a_secret_pick_shows_only_to_its_seat() -> None:
    """A select pick is named in the whole table and its own seat's view; others see only that it was made."""
    game = lt.new_game(galecrest(), players=3, seed=1).choose("Bosun")
    assert card_names(zone(game.svg(), 0, "today's")) == ["Bosun"]
    assert card_names(zone(game.svg(0), 0, "today's")) == ["Bosun"]
    theirs = game.svg(1)
    assert "chosen, secret" in words_in(zone(theirs, 0, "today's")) and "Bosun" not in card_names(
        zone(theirs, 0, "today's"))
    assert not [g for g in seat_group(game.svg(), 1).iter(f"{SVG}g") if g.get("data-zone") == "today's"]


def test_a_question_names_whose_card_asks() -> None:
    """The question's sentence comes from the decision's kind and source: the asked seat's own card is "its",
    another seat's card on the island is that seat's, a loot kind is "its", an unknown kind still reads."""
    from libertalia.pictures.happening import question
    from libertalia.state import Decision, Option

    island = ((0, "Parrot"), (1, "Cook"))
    ships = (("Monkey",), ())
    kinds = ("saber",)
    option = (Option("a", "a"), Option("b", "b"))
    assert question(Decision(1, "may", option, "?", "Cook"), island, ships, kinds) == \
        "Seat 1 decides whether to use its Cook"
    assert question(Decision(1, "choose_character", option, "?", "Parrot"), island, ships, kinds) == \
        "Seat 1 chooses a character for seat 0's Parrot"
    assert question(Decision(0, "choose_option", option, "?", "Monkey"), island, ships, kinds) == \
        "Seat 0 chooses an option of its Monkey"
    assert question(Decision(0, "choose_loot", option, "?", "saber"), island, ships, kinds) == \
        "Seat 0 chooses loot for its saber"
    assert question(Decision(2, "choose_loot", option, "?", None), island, ships, kinds) == "Seat 2 chooses loot"
    assert question(Decision(2, "a_new_kind", option, "?", "Ghost"), island, ships, kinds) == \
        "Seat 2 answers a question of the Ghost"


def test_everything_from_data_is_escaped(position: lt.Game) -> None:
    """A question's prompt, its options and its source come from card texts and names (mods): they come out as
    text, and a character XML cannot hold is replaced, the document still well formed."""
    from libertalia.pictures import table_svg
    from libertalia.state import Decision, Option

    bad = "</text><script>x</script> & \x01"
    decision = Decision(0, "may", (Option("yes", bad), Option("no", "no")), bad, bad)
    svg = table_svg(position.rules, position, decision=decision)
    shown = " ".join(texts(svg))
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "\x01" not in svg
    assert "</text><script>x</script> & \ufffd" in shown


def test_the_winner_line_says_how_a_tie_ended() -> None:
    """R26: a tie on the top score won on reputation says so; a shared win (Classic) names every winner; places
    of equal scores are shared, except that the winner on the tie-break places above the seat it beat."""
    from libertalia.pictures.happening import ranking, winner_line
    from libertalia.state import PlayerState

    seats = [PlayerState(i, 0, score, i, (), (), (), ()) for i, score in enumerate((40, 52, 52, 30))]
    assert winner_line(seats, (2,), None) == "Seat 2 wins with 52 points (tied with seat 1; wins on reputation)"
    assert winner_line(seats, (1, 2), None) == "Seat 1 and Seat 2 share the win with 52 points"
    assert [(place, p.seat) for place, p in ranking(seats, (2,))] == [(1, 2), (2, 1), (3, 0), (4, 3)]
    assert [(place, p.seat) for place, p in ranking(seats, (1, 2))] == [(1, 1), (1, 2), (3, 0), (4, 3)]
    assert winner_line(seats, (1,), 1).startswith("Automa wins with 52 points")
