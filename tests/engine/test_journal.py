"""The packed event log: every template reads back as the sentence and fields it was written with."""

from __future__ import annotations

import json

import pytest

import libertalia as lt
from libertalia.engine import journal
from libertalia.errors import SaveError

WORDS = journal.lexicon(["Cook", "Parrot", "map", "relic"])
IDS = {w: i for i, w in enumerate(WORDS) if i}


def _one(template: int, *args: object) -> lt.Event:
    out = bytearray()
    journal.write(out, IDS, template, args)
    (event,) = journal.decode(bytes(out), WORDS)
    return event


def test_a_gain_reads_back_with_its_seat_source_and_amount() -> None:
    """The fields stats rely on (kind, seat, source, amount) survive packing."""
    e = _one(journal.CHANGE, "doubloons", 2, 3, "Cook")
    assert (e.kind, e.seat, e.source, e.amount) == ("doubloons", 2, "Cook", 3)
    assert e.text == "seat 2 gains 3 doubloons (Cook)"
    assert _one(journal.CHANGE_DOUBLOONS, 2, 3, "Cook") == e


def test_a_card_played_is_its_printed_card() -> None:
    """A play event's source is the printed card, also for a marked card that changed hands."""
    e = _one(journal.PLAY, 1, "Cook#0")
    assert (e.kind, e.seat, e.source, e.text) == ("play", 1, "Cook", "seat 1 plays Cook#0")


def test_list_shapes_read_as_the_engine_wrote_them() -> None:
    """Word lists, 'nothing' for an empty day, characters with seats, scores and pairs."""
    assert _one(journal.DAY, 1, 2, ()).text == "voyage 1, day 2: today's loot is nothing"
    assert _one(journal.DAY, 1, 2, ("map", "relic")).text == "voyage 1, day 2: today's loot is map, relic"
    assert _one(journal.REVEAL, (-1, "Parrot", 0, "Cook")).text == "the island: Parrot, Cook (seat 0)"
    assert _one(journal.OVER, (31, 24)).text == "the game is over: seat 0 31, seat 1 24"
    assert _one(journal.RULES, "Galecrest", ("map", "calm")).text == "Galecrest; loot sides: map calm"
    assert _one(journal.CHANGE, "doubloons", 1, -1, "Cook").text == "seat 1 loses 1 doubloon (Cook)"
    assert _one(journal.CHANGE, "reputation", 1, 2, "Cook").amount == 0
    assert _one(journal.SWAP_LOOT, 1, "map", "anchor").text == "seat 1 swaps a map for an anchor"


def test_words_outside_the_lexicon_and_large_numbers_are_kept_exactly() -> None:
    """A modded name the lexicon lacks is spelled out; numbers of any size and sign round-trip."""
    e = _one(journal.CHANGE, "doubloons", 0, -(10**12), "Fußpilz Pirat")
    assert e.source == "Fußpilz Pirat" and e.amount == -(10**12)
    assert "loses 1000000000000 doubloons" in e.text


@pytest.mark.parametrize(("packed", "message"), [
    (bytes([200]), "unknown template"),
    (bytes([journal.BANK, 2]), "ends inside an event"),
    (bytes([journal.DISCARD, 2, 250, 1]), "not in these rules' lexicon"),
    (bytes([journal.DISCARD, 2, 0, 9, 65]), "runs past the end"),
    (bytes([journal.REVEAL, 3, 0, 1, 2]), "odd length"),
])
def test_damaged_logs_are_refused_with_a_reason(packed: bytes, message: str) -> None:
    """Decoding checks every byte: a damaged log raises JournalError, never garbage events."""
    with pytest.raises(journal.JournalError, match=message):
        journal.decode(packed, WORDS)


def test_a_seat_outside_the_game_is_refused() -> None:
    """With the player count known, an event's seat must be one of the game's seats."""
    out = bytearray()
    journal.write(out, IDS, journal.DISCARD, (5, "Cook"))
    with pytest.raises(journal.JournalError, match="names seat 5"):
        journal.decode(bytes(out), WORDS, players=3)


def test_a_finished_game_logs_every_event_in_a_few_bytes_each() -> None:
    """Packing is the point: a finished 4-player game's log stays under 16 bytes an event."""
    game = lt.play(lt.load_rules("galecrest"), [lt.agents.RandomAgent(i) for i in range(4)], seed=3)
    assert game.state.journal is not None
    assert len(game.state.journal) < 16 * len(game.events)
    assert game.events[-1].kind == "over"


def test_a_game_without_a_log_is_the_same_game() -> None:
    """log=False: no events, and every other field equal to the logged game's."""
    rules = lt.load_rules("galecrest")
    agents = [lt.agents.RandomAgent(i) for i in range(3)]
    logged = lt.play(rules, agents, seed=8)
    agents = [lt.agents.RandomAgent(i) for i in range(3)]
    quiet = lt.play(rules, agents, seed=8, log=False)
    assert quiet.events == () and quiet.state.journal is None
    assert quiet.state == type(logged.state)(**{**_fields(logged.state), "journal": None})
    game = lt.new_game(rules, 3, seed=8, log=False)
    assert game.choose(game.legal_keys()[0]).events == ()


def test_a_save_without_a_log_round_trips() -> None:
    """A game played without a log saves its journal as null and loads back equal."""
    rules = lt.load_rules("galecrest")
    game = lt.new_game(rules, 3, seed=2, log=False)
    game = game.choose(game.legal_keys()[0])
    again = lt.Game.from_json(game.to_json(), rules)
    assert again == game and again.events == ()


def test_a_damaged_log_in_a_save_is_a_save_error() -> None:
    """A save whose packed log does not decode names state.journal."""
    rules = lt.load_rules("galecrest")
    game = lt.new_game(rules, 3, seed=2)
    payload = json.loads(game.to_json())
    payload["state"]["journal"] = "AAAA////"
    with pytest.raises(SaveError, match=r"state\.journal: the event log is damaged"):
        lt.Game.from_json(json.dumps(payload), rules)


def _fields(state: object) -> dict[str, object]:
    import attrs

    return attrs.asdict(state, recurse=False)  # type: ignore[arg-type]


def test_the_log_names_causes() -> None:
    """Who discarded whom with what, where a token came from, the track's overflow and pushes, a tie."""
    assert _one(journal.DISCARD_BY, 3, "saber", 0, "Cook").text == "seat 3's saber discards seat 0's Cook"
    assert _one(journal.DISCARD_BY, 3, "saber", 0, "Cook").seat == 0
    taken = _one(journal.TAKE_LOOT_FROM, 1, "map", "seat 2", "Cook")
    assert (taken.text, taken.source) == ("seat 1 takes a map from seat 2 (Cook)", "Cook")
    assert _one(journal.OVERFLOW, 2, 1).text == "seat 2's reputation runs past the end of the track: gains 1 doubloon"
    assert _one(journal.OVERFLOW, 2, -2).text.endswith("loses 2 doubloons")
    assert _one(journal.PUSHED, 1, 4).text == "seat 1 is pushed along the track to space 4"
    assert _one(journal.TIE_BROKEN, (2, 0, 2)).text == "seats 0, 2 tie on score; seat 2 wins on reputation"


def test_a_whole_game_logs_pushes_and_discards_with_their_cause() -> None:
    """Real games write the new cause events: tokens pushed along the track, discards by a named card."""
    rules = lt.load_rules("galecrest")
    texts = [str(e) for s in range(6) for e in
             lt.play(rules, [lt.agents.RandomAgent(s * 4 + i) for i in range(4)], seed=s).events]
    assert any("is pushed along the track to space" in t for t in texts)
    assert any("discards seat" in t for t in texts)


def test_reputation_past_the_end_of_the_track_is_logged() -> None:
    """R28 in the log: a barrel's reputation for a seat already rightmost pays a doubloon, and says so."""
    rules = lt.load_rules("galecrest")
    game = lt.new_game(rules, 3, seed=1, setup={
        "reputation": [5, 0, 2], "loot": [["barrel", "amulet", "chest"]],
        "players": [{"hand": ["Collector", "Smuggler"]}, {"hand": ["Necromancer", "Bosun"]},
                    {"hand": ["Bosun", "Treasurer"]}]})
    for key in ("Collector", "Necromancer", "Treasurer"):
        game = game.choose(key)
    while game.decision is not None and game.decision.kind != "play_character":
        game = game.choose("barrel" if "barrel" in game.legal_keys() else game.legal_keys()[0])
    texts = [str(e) for e in game.events]
    assert "seat 0's reputation runs past the end of the track: gains 1 doubloon" in texts


def test_a_borrowing_names_its_borrower_as_source() -> None:
    """The Witch's borrowing is logged under the Witch (its seat and name), so statistics can credit her."""
    e = _one(journal.BORROW_BY, 2, "Witch", "moon", "Barkeep")
    assert (e.kind, e.seat, e.source) == ("borrow", 2, "Witch")
    assert e.text == "seat 2's Witch uses the moon ability of Barkeep"


# ------------------------------------------------------------------ typed events and newer templates
def _all(*records: tuple[int, tuple[object, ...]], players: int | None = None,
         timings: dict[str, str] | None = None) -> tuple[lt.Event, ...]:
    out = bytearray()
    for template, args in records:
        journal.write(out, IDS, template, args)
    return journal.decode(bytes(out), WORDS, players, timings)


SAMPLE = {"n": 1, "w": "Cook", "a": "map", "W": ("map", "relic"), "V": ("map",), "R": (0, "Cook", -1, "Parrot"),
          "S": (3, 4), "P": ("seat 0", "map")}


@pytest.mark.parametrize("template", sorted(journal.LEGACY), ids=lambda t: str(t))
def test_a_newer_template_reads_as_the_one_it_extends(template: int) -> None:
    """A template that adds a zone or a source writes the sentence, kind, seat and amount of the one it
    replaced (old saves and new read alike), and its source wherever the older one had one."""
    older, kept = journal.LEGACY[template]
    args = tuple(SAMPLE[shape] for shape in journal.TEMPLATES[template].shapes)
    new, old = _one(template, *args), _one(older, *(args[i] for i in kept))
    assert type(new) is type(old)
    assert (new.text, new.kind, new.seat, new.amount) == (old.text, old.kind, old.seat, old.amount)
    assert old.source is None or new.source == old.source


def test_the_newer_templates_carry_zones_and_sources() -> None:
    """Discards say the zone they left; moves, pushes and overflows their cause; "" is no source."""
    from libertalia import events as ev

    d = _one(journal.DISCARDED_BY, 3, "saber", 0, "Cook", "ship")
    assert (d.target_seat, d.target, d.from_zone, d.by_seat, d.source) == (0, "Cook", "ship", 3, "saber")
    assert _one(journal.DISCARDED, 0, "Cook", "hand") == ev.Discarded(0, "Cook", "hand")
    m = _one(journal.MOVED, 1, "Cook", "graveyard", "ship", "Parrot")
    assert (m.card, m.from_zone, m.to_zone, m.source) == ("Cook", "graveyard", "ship", "Parrot")
    hidden = _one(journal.GRAVEYARD_TO_HAND_BY, 1, "")
    assert (hidden.card, hidden.source, hidden.timing) == (None, None, None)
    assert _one(journal.PUSHED_BY, 2, 3, 1, "Cook") == ev.Pushed(2, 3, 1, "Cook")
    assert _one(journal.TAKEN_OVER, 0, 1, "Cook", "ship", "") == ev.TakenOver(0, 1, "Cook", "ship")
    returned = _one(journal.RETURN_LOOT_FROM, 1, ("seat 2", "map", "today's loot", "relic"), "Cook")
    assert (returned.loot, returned.from_zones, returned.from_seats) == (("map", "relic"), ("loot", "today's loot"),
                                                                          (2, None))
    assert returned.text == "seat 1 returns map, relic to the bag"
    given = _one(journal.GIVE_LOOT_FROM, 1, ("seat 1", "map"), 0, "Cook")
    assert (given.loot, given.to_seat, given.from_seats) == (("map",), 0, (1,))
    assert given.text == "seat 1 gives map to seat 0"
    swap = _one(journal.SWAP_LOOT_FROM, 1, "map", "seat 1", "relic", "tomorrow's loot", "Cook")
    assert (swap.from_zone, swap.from_seat, swap.to_zone, swap.to_seat) == ("loot", 1, "tomorrow's loot", None)
    assert swap.text == "seat 1 swaps a map for a relic"
    put = _one(journal.PUT_ON_ISLAND_FROM, 1, "Cook", "hand", "Parrot")
    assert (put.source, put.cause, put.from_zone, put.kind) == ("Cook", "Parrot", "hand", "play")


def test_one_record_stands_for_a_days_plays_and_its_reveal() -> None:
    """The island names every card played: its seated cards are the plays, in seat order (solo: yours,
    the Pilferer's, then Automa's), and the sun phase begins after it."""
    island = (2, "Cook", -1, "Parrot", 0, "Cook#1")
    events = _all((journal.DAY, (1, 1, ())), (journal.PLAYS_REVEALED, (island,)),
                  (journal.CHANGE_DOUBLOONS, (2, 3, "Cook")))
    assert [e.text for e in events[1:]] == ["seat 0 plays Cook#1", "seat 2 plays Cook",
                                            "the island: Cook (seat 2), Parrot, Cook#1 (seat 0)",
                                            "seat 2 gains 3 doubloons (Cook)"]
    assert [e.phase for e in events] == ["select"] * 4 + ["sun"]
    solo = _all((journal.SOLO_PLAYS_REVEALED, (1, (1, "Cook", -1, "Parrot", 0, "Cook"))),)
    assert [e.text for e in solo] == ["seat 0 plays Cook", "the Pilferer plays Parrot", "seat 1 plays Cook",
                                      "the island: Cook (seat 1), Parrot, Cook (seat 0)"]


def test_markers_are_no_events_but_move_the_clock() -> None:
    """DUSK, NIGHT and ANCHOR only change the phase and POSITION the voyage and day: none is an event."""
    assert _all((journal.DUSK, ()), (journal.NIGHT, ()), (journal.ANCHOR, ()), (journal.POSITION, (2, 3))) == ()
    events = _all((journal.POSITION, (2, 3)), (journal.PLAY, (0, "Cook")), (journal.DUSK, ()),
                  (journal.CHANGE_DOUBLOONS, (0, 1, "Cook")), (journal.NIGHT, ()),
                  (journal.CHANGE_DOUBLOONS, (0, 1, "Cook")), (journal.ANCHOR, ()), (journal.BANK, (0, 1, 1)))
    assert [(e.voyage, e.day, e.phase, e.timing) for e in events] == [
        (2, 3, "select", None), (2, 3, "dusk", "dusk"), (2, 3, "night", "moon"), (2, 3, "anchor", None)]
    assert all(n < 128 for n in journal.MARKERS) and len(journal.TEMPLATES) < 128  # one byte a template


def test_a_source_of_one_timing_keeps_it_in_any_phase() -> None:
    """With the rules' timings, a map's dusk ability run in the sun phase is of the dusk timing."""
    records = ((journal.PLAYS_REVEALED, ((0, "Cook"),)), (journal.CHANGE_DOUBLOONS, (0, 2, "map")))
    assert [e.timing for e in _all(*records)][-1] == "sun"
    assert [e.timing for e in _all(*records, timings={"map": "dusk"})][-1] == "dusk"


def test_decoding_from_an_offset_skips_what_came_before_but_keeps_the_clock() -> None:
    """``start`` returns only the later events, stamped with the day the earlier ones set."""
    out = bytearray()
    journal.write(out, IDS, journal.DAY, (1, 2, ()))
    journal.write(out, IDS, journal.DUSK, ())
    start = len(out)
    journal.write(out, IDS, journal.DISCARDED_BY, (0, "map", 1, "Cook", "island"))
    (e,) = journal.decode(bytes(out), WORDS, start=start)
    assert (e.voyage, e.day, e.phase, e.text) == (1, 2, "dusk", "seat 0's map discards seat 1's Cook")


@pytest.mark.parametrize(("template", "args", "message"), [
    (journal.PAY, (7, 1, 2, "Cook"), "names seat 7"),
    (journal.DISCARDED_BY, (9, "Cook", 0, "Cook", "ship"), "names seat 9"),
    (journal.CHANGE, ("coins", 1, 2, "Cook"), "neither doubloons nor reputation"),
    (journal.TIE_BROKEN, ((),), "names no seat"),
    (journal.NO_EFFECT, (1, "Cook", "high"), "not a number"),
    (journal.TAKE_LOOT_FROM, (1, "map", "seat x", "Cook"), "neither a zone nor a seat"),
])
def test_damaged_typed_fields_are_refused(template: int, args: tuple[object, ...], message: str) -> None:
    """Every seat an event names must be the game's, and the typed fields must make sense."""
    out = bytearray()
    journal.write(out, IDS, template, args)
    with pytest.raises(journal.JournalError, match=message):
        journal.decode(bytes(out), WORDS, players=3)


def test_each_template_number_is_its_templates_place() -> None:
    """The numbers are written out (Final, for the compiled build): each is the place of the template whose
    comment names it, and together they number every template once."""
    import ast
    from pathlib import Path

    # Its source file, read directly: a compiled module has no source for inspect to find.
    source = (Path(journal.__file__).parent / "journal.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    numbers = {node.target.id: node.value.value for node in tree.body
               if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
               and isinstance(node.value, ast.Constant) and isinstance(node.value.value, int)
               and node.target.id.isupper() and hasattr(journal, node.target.id)
               and getattr(journal, node.target.id) == node.value.value and node.target.id != "CACHE_LIMIT"}
    assert sorted(numbers.values()) == list(range(len(journal.TEMPLATES)))
    table = next(node for node in tree.body if isinstance(node, ast.AnnAssign)
                 and isinstance(node.target, ast.Name) and node.target.id == "TEMPLATES")
    assert isinstance(table.value, ast.Tuple)
    lines = source.splitlines()
    for place, entry in enumerate(table.value.elts):
        assert entry.end_lineno is not None
        comment = lines[entry.end_lineno - 1].rsplit("#", 1)[1].strip()
        named = comment.split(":")[0].split()[0]
        assert numbers[named] == place, (named, place)


def test_an_abilitys_take_names_the_character_it_took_for() -> None:
    """Issue 35, item 8b (R24): the Cook's second take carries the Cook as ``card`` beside its ``source``, as its
    first take at dusk does, with the sentence an older log wrote; a Cook held by another seat is named as held."""
    from libertalia import events as ev

    rules = lt.load_rules("galecrest")
    game = lt.new_game(rules, 3, seed=0, setup={
        "reputation": [0, 1, 2], "loot": [["chest", "map", "relic"]],
        "players": [{"hand": ["Cook", "Explorer"]}, {"hand": ["Barkeep", "Explorer"]},
                    {"hand": ["Witch", "Explorer"]}]})
    start = game = game.choose("Cook").choose("Barkeep").choose("Witch")
    while game.decision is not None and game.day == 1:
        game = game.choose(game.legal_keys()[0])
    takes = ev.select(game.events_since(start), type=ev.LootTaken, seat=0)
    assert [(e.card, e.source) for e in takes] == [("Cook", None), ("Cook", "Cook")], takes
    assert takes[1].text.startswith("seat 0 takes a") and takes[1].text.endswith(" from today's loot (Cook)")
    held = _one(journal.TAKE_LOOT_BY_CARD, 1, "map", "today's loot", "Cook", "Cook#0")
    assert (held.card, held.source, held.from_zone) == ("Cook#0", "Cook", "today's loot")


def test_a_borrowed_texts_events_name_the_borrower() -> None:
    """Issue 35, item 8c (R10, R9): a Witch running a Wind Nymph's text logs its events under the Nymph (``source``)
    with the Witch as ``borrower``; the borrowing itself and a card's own text have none, so "the Nymph acted" and
    "a Witch ran the Nymph's text" read apart; a reader of the older templates skips the marker."""
    from libertalia import events as ev

    rules = lt.load_rules("galecrest")
    game = lt.new_game(rules, 3, seed=0, setup={
        "reputation": [0, 1, 2], "loot": [["chest", "chest", "chest"]],
        "players": [{"hand": ["Collector", "Explorer"], "ship": ["Witch", "Wind Nymph"]},
                    {"hand": ["Collector", "Explorer"], "ship": ["Wind Nymph"]}, {"hand": ["Treasurer", "Explorer"]}]})
    game = game.choose("Collector").choose("Collector").choose("Treasurer").choose("Witch")  # the Witch first
    while game.decision is not None and game.day == 1:
        game = game.choose(game.legal_keys()[0])
    nymph = ev.select(game.events, source="Wind Nymph")
    assert {(e.target, e.borrower) for e in nymph} == {("Wind Nymph", "Witch")} and len(nymph) == 2, nymph
    (borrow,) = ev.select(game.events, type=ev.Borrowed)
    assert borrow.borrower is None and borrow.source == "Witch"
    assert all(e.borrower is None for e in game.events if e.source != "Wind Nymph")
    out = bytearray()
    journal.write(out, IDS, journal.VIA, ("Witch",))  # a marker: no event of its own
    assert journal.decode(bytes(out), WORDS) == ()
