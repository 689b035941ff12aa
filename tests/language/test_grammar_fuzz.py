"""The grammar fuzzes itself: every text it can spell is rejected cleanly or plays to a sound end.

Three sources of card texts:

* A: ``libertalia.testing.texts.spelled_texts``, the grammar file's rules spelled with real card
  names, loot kinds and small numbers, plus a name and a kind no edition has;
* B: the bundled cards cut into triggers and clauses and put back together at random;
* C: ``libertalia.testing.texts.card_texts``, the strategy modders use: texts that must load.

Each text is loaded as a mod character (or, now and then, as a loot tile replacing a calm one).
A and B must either be rejected with ``CardError``/``DataError`` or load; C must load.  A card
that loads is forced into play from random declared positions at 2 to 6 players, and those
games must run to the end on random legal answers with no exception, within the step budget,
keeping ``check_invariants`` after every step.

CI runs a few examples per source (derandomized, so a red run is reproducible); set
``LIBERTALIA_FUZZ_EXAMPLES=N`` for a long run of N examples per source.  The long run does not
stop at the first failure: it lists every failure (with everything needed to replay it) when
it ends, and prints how many texts it generated, loaded and rejected.  With
``LIBERTALIA_FUZZ_LOG=FILE`` every outcome is also appended to FILE as a JSON line.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import tempfile
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from lark import Lark

import libertalia as lt
from libertalia import _paths
from libertalia.language.query import extra_counts, kinds_scored_in_sets
from libertalia.loading import rules as rules_module
from libertalia.testing import check_invariants
from libertalia.testing.texts import card_texts, spelled_texts, vocabulary

LONG = int(os.environ.get("LIBERTALIA_FUZZ_EXAMPLES", "0") or 0)
LOG = os.environ.get("LIBERTALIA_FUZZ_LOG")
CI_EXAMPLES = 60  # per source: both sources together take about 20 s
GAMES = 2  # random games per text that loads
EDITION = "galecrest"
MOD_NAME = "Fuzzed Corsair"
MOD_RANK = 41.5  # no bundled character has it
MAX_DECISIONS = 20_000  # ``Game.choose`` stops any game long before this


def _examples() -> int:
    return LONG or min(settings().max_examples, CI_EXAMPLES)  # the profile's count, capped


FUZZ = settings(
    max_examples=_examples(),
    deadline=None,
    derandomize=not LONG,
    database=None,
    # No shrinking: a failure already prints its whole reproduction, and shrinking whole games
    # takes minutes.
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                           HealthCheck.large_base_example],
)


# ---------------------------------------------------------------- the edition's words
@functools.cache
def _base() -> lt.Rules:
    return lt.load_rules(EDITION)


def _names() -> list[str]:
    return [c.name for c in _base().characters] + [MOD_NAME]


def _kinds() -> list[str]:
    return list(_base().kinds)


# ---------------------------------------------------------------- sources A and C: the grammar
def _grammar_texts() -> st.SearchStrategy[str]:
    """Whatever the grammar spells, the checker's refusals included (a stray name and kind among the words)."""
    return st.deferred(lambda: spelled_texts(_base(), names=[MOD_NAME]))


def _card_texts() -> st.SearchStrategy[tuple[str, bool]]:
    """Texts that load, as a character's (three times in four) or a loot tile's: (text, is loot)."""
    return st.deferred(lambda: st.one_of(
        card_texts(_base(), names=[MOD_NAME]).map(lambda t: (t, False)),
        card_texts(_base(), loot=True).map(lambda t: (t, True)),
        card_texts(_base(), names=[MOD_NAME]).map(lambda t: (t, False)),
        card_texts(_base(), names=[MOD_NAME]).map(lambda t: (t, False))))


# ---------------------------------------------------------------- source B: bundled fragments
_SEPARATORS = [", then ", "; otherwise ", " if ", ", "]
_SPLIT = re.compile(r"(, then |; otherwise | if |, )")
_PARENS = re.compile(r"\([^()]*\)")


def _split(text: str, separators: re.Pattern[str]) -> list[str]:
    """``separators.split`` outside parentheses: the rows of a table stay in one piece."""
    groups: list[str] = []

    def hide(m: re.Match[str]) -> str:
        groups.append(m.group())
        return f"\0{len(groups) - 1}\0"

    pieces = separators.split(_PARENS.sub(hide, text))
    return [re.sub(r"\0(\d+)\0", lambda m: groups[int(m.group(1))], piece) for piece in pieces]


@attrs.frozen
class Fragments:
    """The bundled cards cut up: triggers, clauses (cut at every separator), actions and conditions."""

    triggers: tuple[str, ...]
    clauses: tuple[str, ...]
    actions: tuple[str, ...]
    conditions: tuple[str, ...]


@functools.cache
def _fragments() -> Fragments:
    triggers: set[str] = set()
    clauses: set[str] = set()
    actions: set[str] = set()
    conditions: set[str] = set()
    for path in sorted(_paths.cards_dir().rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(doc, dict) or not isinstance(doc.get("text"), str):
            continue
        for line in doc["text"].splitlines():
            trigger, colon, effect = line.strip().partition(": ")
            if not colon:
                continue
            triggers.add(trigger)
            effect = effect.rstrip(".")
            clauses.update(c for c in _split(effect, _SPLIT) if c and c not in _SEPARATORS)
            for step in _split(effect, re.compile(", then ")):
                if step.startswith("if "):
                    condition, *rest = _split(step[3:], re.compile(", "))
                    conditions.add(condition)
                    step = ", ".join(rest)
                step = step.removeprefix("you may ")
                for part in _split(step, re.compile("; otherwise ")):
                    done, _, condition = part.partition(" if ")
                    actions.add(done)
                    if condition:
                        conditions.add(condition)
    return Fragments(*(tuple(sorted(x - {""})) for x in (triggers, clauses, actions, conditions)))


@st.composite
def _step(draw: st.DrawFn) -> str:
    """A step in one of the language's shapes, from bundled actions and conditions."""
    f = _fragments()
    a, c = draw(st.sampled_from(f.actions)), draw(st.sampled_from(f.conditions))
    otherwise = f"; otherwise {draw(st.sampled_from(f.actions))}" if draw(st.booleans()) else ""
    shape = draw(st.sampled_from(["{a}", "{a} if {c}{o}", "if {c}, {a}{o}", "you may {a}{o}"]))
    return shape.format(a=a, c=c, o=otherwise)


@st.composite
def _recombined(draw: st.DrawFn) -> str:
    """Bundled triggers with steps rebuilt from bundled actions and conditions; or, a quarter of the
    time, with clauses strung together at any separator, as they come."""
    f = _fragments()
    lines = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.sampled_from(["steps"] * 3 + ["clauses"])) == "steps":
            effect = ", then ".join(draw(st.lists(_step(), min_size=1, max_size=3)))
        else:
            parts = [draw(st.sampled_from(f.clauses))]
            for _ in range(draw(st.integers(0, 3))):
                parts += [draw(st.sampled_from(_SEPARATORS)), draw(st.sampled_from(f.clauses))]
            effect = "".join(parts)
        lines.append(f"{draw(st.sampled_from(f.triggers))}: {effect}.")
    return "\n".join(lines)


# ---------------------------------------------------------------- one text, end to end
_TALLY: dict[str, Counter[str]] = {}
_SEEN: dict[str, set[str]] = {}


def _mod_file(text: str, loot: tuple[str, int] | None) -> str:
    """A mod file for the text: a new character, or a calm loot tile of ``loot`` (kind, count)."""
    body = "".join(f"  {line.strip()}\n" if line.strip() else "\n" for line in text.splitlines())
    head = f"name: {MOD_NAME}\nrank: {MOD_RANK}\n" if loot is None else \
        f"kind: {loot[0]}\nside: calm\ncount: {loot[1]}\n"
    return f"{head}text: |\n{body}"


def _load(file_text: str) -> lt.Rules | lt.DataError:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "mod.yaml").write_text(file_text, encoding="utf-8")
        try:
            return lt.load_rules(EDITION, extra_cards=[folder])
        except lt.DataError as exc:
            return exc


def _forced(rules: lt.Rules, players: int, loot: tuple[str, int] | None, seed: int) -> dict[str, Any]:
    """A random declared position (like ``libertalia.testing.positions``) with the mod card in play:
    in seat 0's hand or ship and maybe other seats', or as a loot tile in today's loot.

    Drawn from a seed rather than from hypothesis: a position is hundreds of draws, which after a
    long text would overrun hypothesis' buffer and silently skip the games.
    """
    rnd = random.Random(seed)
    board = rules.board
    voyage = rnd.randint(1, len(board.voyage_days))
    setup: dict[str, Any] = {"voyage": voyage, "day": rnd.randint(1, board.voyage_days[voyage - 1])}
    names = [c.name for c in rules.characters if not c.neutral and "#" not in c.name and c.name != MOD_NAME]
    bag = Counter(dict(board.bag))
    seats = []
    for i in range(players):
        cards = rnd.sample(names, len(names))
        hand, ship, grave = rnd.randint(1, 6), rnd.randint(0, 4), rnd.randint(0, 3)
        held = []
        for kind in rnd.choices(sorted(bag), k=rnd.randint(0, 4)):
            if bag[kind] > 0:
                bag[kind] -= 1
                held.append(kind)
        seat: dict[str, Any] = {"hand": cards[:hand], "ship": cards[hand:hand + ship],
                "graveyard": cards[hand + ship:hand + ship + grave],
                "loot": held, "doubloons": rnd.randint(0, 25), "score": rnd.randint(0, 80)}
        zone = rnd.choice(["hand", "hand", "ship"] + ([None] if i else []))
        if loot is None and zone is not None:
            seat[zone].append(MOD_NAME)
        seats.append(seat)
    setup["players"] = seats
    if board.track_income:
        setup["reputation"] = rnd.sample(range(len(board.track_income)), players)
    if loot is not None:
        kind = loot[0]
        if bag[kind] and rnd.random() < 0.5:
            seats[0]["loot"].append(kind)
            bag[kind] -= 1
        setup["loot"] = [[kind] * min(bag[kind], board.loot_per_day_for(players))]
    return setup


def _play(rules: lt.Rules, players: int, seed: int, setup: dict[str, Any]) -> lt.Game:
    """Play to the end on random legal answers (``random.Random(seed)``), checking the invariants
    after every step."""
    game = lt.new_game(rules, players, seed=seed, setup=setup)
    check_invariants(game)
    rnd = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if game.decision is None:
            return game
        nxt = game.choose(rnd.choice(game.legal_keys()))
        check_invariants(nxt, before=game)
        game = nxt
    raise AssertionError(f"no end within {MAX_DECISIONS} decisions")


def _log(entry: dict[str, Any]) -> None:
    if LOG:
        with open(LOG, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")


def _describe(exc: BaseException) -> str:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return f"{type(exc).__name__}: {exc} (at {Path(where.filename).name}:{where.lineno})"


def _tile_kinds(text: str, bag: dict[str, int]) -> list[str]:
    """The kinds a loot text may be the tile of: none that a character counts extra ("count 1 extra map") unless
    the text scores it in sets, for the loader refuses a tile that would make that count do nothing."""
    abilities = [a for c in _base().characters for a in c.abilities]
    counted = {e.kind for e in extra_counts(abilities)} - kinds_scored_in_sets(abilities)
    try:
        own = kinds_scored_in_sets(lt.parse(text))
    except lt.CardError:
        return sorted(bag)  # refused whatever its kind
    return sorted(k for k in bag if k not in counted or k in own)


def _check(source: str, text: str, seed: int, failures: list[dict[str, Any]], as_loot: bool | None = None,
           must_load: bool = False) -> None:
    """Load ``text`` as a mod card and play it; everything random after the text comes from ``seed``
    (drawn before the text, so that a long text cannot leave hypothesis too little to draw the games).

    ``as_loot`` says whether the text is a loot tile's (None: a quarter of the time, at random);
    with ``must_load`` a refused text is a finding too.
    """
    tally = _TALLY.setdefault(source, Counter())
    tally["generated"] += 1
    _SEEN.setdefault(source, set()).add(text)
    rnd = random.Random(seed)
    bag = dict(_base().board.bag)
    loot = None
    if rnd.random() < 0.25 if as_loot is None else as_loot:
        kind = rnd.choice(_tile_kinds(text, bag))
        loot = (kind, bag[kind])
    file_text = _mod_file(text, loot)
    entry: dict[str, Any] = {"source": source, "file": file_text}
    try:
        rules = _load(file_text)
    except Exception as exc:  # anything but a DataError is a finding
        _fail(entry | {"stage": "load", "error": _describe(exc)}, exc, failures, tally)
        return
    if isinstance(rules, lt.DataError) and must_load:
        _fail(entry | {"stage": "load", "error": _describe(rules)}, rules, failures, tally)
        return
    if isinstance(rules, lt.DataError):
        # Which stage said no, for the tally: a text the grammar spells but the parser refuses
        # means the two disagree (allowed here, but worth knowing).
        stage = "checker"
        try:
            lt.parse(text)
        except lt.CardError:
            stage = "parser"
        tally["rejected"] += 1
        tally[f"rejected by the {stage}"] += 1
        _log(entry | {"outcome": "rejected", "stage": stage, "error": str(rules).splitlines()[0]})
        return
    tally["loaded"] += 1
    for _ in range(GAMES):
        players, game_seed = rnd.randint(2, 6), rnd.randrange(2**32)
        setup = _forced(rules, players, loot, game_seed)
        game = {"players": players, "seed": game_seed, "setup": setup}
        try:
            _play(rules, players, game_seed, setup)
        except Exception as exc:  # every exception is a finding
            _fail(entry | game | {"stage": "play", "error": _describe(exc)}, exc, failures, tally)
            return
    _log(entry | {"outcome": "played"})


def _fail(entry: dict[str, Any], exc: Exception, failures: list[dict[str, Any]], tally: Counter[str]) -> None:
    tally["failed"] += 1
    _log(entry | {"outcome": "failed"})
    if LONG:
        failures.append(entry)  # listed when the run ends
        return
    raise AssertionError(_repro(entry)) from exc


def _repro(entry: dict[str, Any]) -> str:
    """The failure as a script: the mod file, then the game (see ``_play``)."""
    lines = [entry["error"], "mod.yaml:", entry["file"]]
    if entry["stage"] == "play":
        lines.append(f"players={entry['players']} seed={entry['seed']}: new_game(rules, {entry['players']}, "
                     f"seed={entry['seed']}, setup={entry['setup']!r}), then random.Random({entry['seed']})"
                     ".choice(game.legal_keys()) at every decision")
    return "\n".join(lines)


def _fast_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read each bundled YAML file once per session: their examples make reading them the bulk of a load.

    Only the bundled files (never the mod file, which changes every time) are kept; nothing else about
    loading changes.  Without the hook (if ``rules.read`` were renamed) loading is just slower.
    """
    read = getattr(rules_module, "read", None)
    if read is None:
        return
    root = _paths.data_root().resolve()

    def cached(path: Path, **options: Any) -> Any:
        if Path(path).resolve().is_relative_to(root):
            key = (path, tuple(sorted(options.items())))
            if key not in _READ:
                _READ[key] = read(path, **options)
            return _READ[key]
        return read(path, **options)

    monkeypatch.setattr(rules_module, "read", cached)


_READ: dict[tuple[Path, tuple[tuple[str, Any], ...]], Any] = {}


def _run(source: str, texts: st.SearchStrategy[str] | st.SearchStrategy[tuple[str, bool]],
         monkeypatch: pytest.MonkeyPatch, must_load: bool = False) -> None:
    """``texts`` gives a text, or (text, whether it is a loot tile's)."""
    _fast_loading(monkeypatch)
    failures: list[dict[str, Any]] = []

    @FUZZ
    @given(seed=st.integers(0, 2**32 - 1), drawn=texts)
    def prop(seed: int, drawn: str | tuple[str, bool]) -> None:
        text, as_loot = drawn if isinstance(drawn, tuple) else (drawn, None)
        _check(source, text, seed, failures, as_loot, must_load)

    prop()
    tally = _TALLY.get(source, Counter())
    summary = {"source": source, "unique": len(_SEEN.get(source, ())), **tally}
    _log({"summary": summary})
    print(f"\n{source}: {summary}")  # shown with pytest -s
    assert not failures, f"{len(failures)} failing texts:\n\n" + "\n\n".join(_repro(f) for f in failures)


def test_texts_spelled_by_the_grammar_are_rejected_or_play_soundly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any text the grammar spells (``spelled_texts``) raises DataError on load, or plays sound games."""
    _run("grammar", _grammar_texts(), monkeypatch)


def test_card_texts_load_and_play_soundly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text ``card_texts`` spells loads, as a character or a loot tile, and plays sound games."""
    _run("cards", _card_texts(), monkeypatch, must_load=True)


def test_recombined_card_fragments_are_rejected_or_play_soundly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bundled triggers and clauses put together at random raise DataError on load, or play sound games."""
    _run("fragments", _recombined(), monkeypatch)


def test_every_terminal_of_the_grammar_gets_words() -> None:
    """The shared vocabulary reads the grammar's terminals as they are: each one gets real words."""
    grammar = Lark(_paths.grammar_path().read_text(encoding="utf-8"), parser="lalr")
    words = vocabulary(_base(), names=[MOD_NAME], strays=True)
    assert {t.name for t in grammar.terminals} - set(grammar.ignore_tokens) <= set(words)
    assert set(_names()) <= set(words["NOUN"]) and set(_kinds()) < set(words["KIND"])


def test_bundled_lines_split_into_fragments_and_back() -> None:
    """Cutting a bundled line at its separators (not inside a table) and joining the pieces gives it back."""
    f = _fragments()
    assert "sun" in f.triggers and len(f.clauses) > 50 and len(f.actions) > 50 and len(f.conditions) > 10
    assert "you have 8 or fewer doubloons" in f.conditions and "gain 5 doubloons" in f.actions
    assert not any(x.startswith(("if ", "you may ")) or " if " in x for x in f.actions)
    for path in sorted((_paths.cards_dir() / EDITION).rglob("*.yaml")):
        for line in yaml.safe_load(path.read_text(encoding="utf-8"))["text"].splitlines():
            trigger, _, effect = line.partition(": ")
            pieces = _split(effect.rstrip("."), _SPLIT)
            assert f"{trigger}: {''.join(pieces)}." == line
            assert all(p in f.clauses or p in _SEPARATORS for p in pieces if p)


def test_a_bundled_text_as_a_mod_card_loads_and_plays() -> None:
    """The harness itself: a bundled card's text under the mod's name loads and its games end soundly."""
    text = _base().card("Cook").text
    rules = _load(_mod_file(text, None))
    assert isinstance(rules, lt.Rules) and rules.card(MOD_NAME).text == text
    for players in (2, 6):
        setup = _forced(rules, players, None, 5)
        assert MOD_NAME in setup["players"][0]["hand"] + setup["players"][0]["ship"]
        assert _play(rules, players, 5, setup).is_over
    loot = _load(_mod_file("anchor: gain 6 doubloons.", ("chest", 4)))
    assert isinstance(loot, lt.Rules)
    setup = _forced(loot, 3, ("chest", 4), 9)
    assert "chest" in setup["loot"][0]
    assert _play(loot, 3, 9, setup).is_over
