"""The table's picture as a person sees it: drawn by Debian's chromium, measured, and kept as screenshots.

Each scene (a mid-game table of four, a finished game, two players with the Midshipman, six
players, solo, the stormy and uncharted loot sides, the 2012 edition, one seat's view) is written to a file and
opened in headless chromium through selenium, as ``test_replay_page`` does.  A script in the page
measures every text's box (``getBBox``) against the rect of the piece that holds it: nothing may
stick out.  Then a mid-game table and a finished game of 2 players (with the Midshipman), 6 players,
solo, the stormy loot side and the 2012 edition are opened at 1400, 1100 and 800 px wide: the page may
not scroll sideways, the picture fills a narrow window, and the question or the winner is on it.
The screenshots stay in ``<pytest basetemp>/pictures`` (the path is printed), private (0600, the
folder 0700), and are copied to $LIBERTALIA_ARTEFACTS when set.  Without chromium the tests skip, unless
LIBERTALIA_REQUIRE_BROWSER=1, when they fail.
"""

from __future__ import annotations

import os
import random
import shutil
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import libertalia as lt

from .helpers import mod_rules, write_cards
from .test_replay_page import BROWSERS, DRIVER, _missing

_OVERFLOWS = """
const svg = document.querySelector('svg');
const out = [];
for (const g of svg.querySelectorAll('g.box')) {
  const rect = g.querySelector(':scope > rect');
  if (!rect) { out.push('a box without a rect: ' + g.getAttribute('class')); continue; }
  const r = rect.getBBox();
  for (const t of g.querySelectorAll('text')) {
    if (t.closest('g.box') !== g) continue;  // a nested piece's text: measured against its own box
    const b = t.getBBox();
    if (b.x < r.x - 0.5 || b.y < r.y - 0.5 || b.x + b.width > r.x + r.width + 0.5
        || b.y + b.height > r.y + r.height + 0.5) {
      out.push(JSON.stringify({box: g.getAttribute('class'), text: t.textContent,
                               text_box: [b.x, b.y, b.width, b.height], rect: [r.x, r.y, r.width, r.height]}));
    }
  }
}
// no two texts overlap, and no ring (a mark, the seat to act) crosses a text: the tag on the ring is meant to
const meet = (a, b) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5
                       && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
const texts = Array.from(svg.querySelectorAll('text')).filter(t => !t.closest('g.to-act-tag'))
  .map(t => ({t: t, b: t.getBBox()}));
texts.sort((p, q) => p.b.y - q.b.y);
for (let i = 0; i < texts.length; i++) {
  for (let j = i + 1; j < texts.length && texts[j].b.y < texts[i].b.y + texts[i].b.height; j++) {
    if (meet(texts[i].b, texts[j].b)) {
      out.push(JSON.stringify({overlap: [texts[i].t.textContent, texts[j].t.textContent]}));
    }
  }
}
for (const ring of svg.querySelectorAll('rect.mark-ring, rect.to-act')) {
  const r = ring.getBBox(), half = parseFloat(ring.getAttribute('stroke-width')) / 2;
  const outer = {x: r.x - half, y: r.y - half, width: r.width + 2 * half, height: r.height + 2 * half};
  const inner = {x: r.x + half, y: r.y + half, width: r.width - 2 * half, height: r.height - 2 * half};
  for (const {t, b} of texts) {
    const inside = b.x >= inner.x && b.y >= inner.y && b.x + b.width <= inner.x + inner.width
                   && b.y + b.height <= inner.y + inner.height;
    if (meet(b, outer) && !inside) out.push(JSON.stringify({ring: ring.getAttribute('class'), crosses: t.textContent,
                                                            text_box: [b.x, b.y, b.width, b.height]}));
  }
}
const w = svg.getBBox();
if (w.x < 0 || w.x + w.width > svg.width.baseVal.value + 0.5) out.push('the drawing is wider than the picture');
return out;
"""


def _play(game: lt.Game, answers: int, seed: int) -> lt.Game:
    rng = random.Random(seed)
    for _ in range(answers):
        if game.decision is None:
            break
        game = game.choose(rng.choice(game.legal_keys()))
    return game


def _dusk(game: lt.Game, seed: int) -> lt.Game:
    """``game`` played on at random until a seat chooses loot at dusk (a mid-game question)."""
    rng = random.Random(seed)
    while game.decision is not None and not (game.decision.kind == "choose_loot" and game.phase == "dusk"
                                             and game.voyage == 2):
        game = game.choose(rng.choice(game.legal_keys()))
    return game


def _long_names(folder: Path) -> str:
    """A mod whose characters have long names (one a single very long word, one with accents), all three
    seats playing the same one (a tie on the island) and holding the others."""
    long_word = "Supercalifragilisticexpialidocious Navigator"
    accented = "Señora Ñandú de la Compañía Écarlate"
    write_cards(folder, {"Longname": (61, "sun: gain 1 doubloon."), "Accented": (62, "moon: gain 2 doubloons.")})
    for file, name in (("longname.yaml", long_word), ("accented.yaml", accented)):
        path = folder / file
        path.write_text(path.read_text(encoding="utf-8").replace(file.split(".")[0].title(), name), encoding="utf-8")
    rules = mod_rules(folder)
    hands = [{"hand": [long_word, accented, "Cook"]} for _ in range(3)]
    game = lt.new_game(rules, players=3, seed=2, setup={"players": hands})
    for _ in range(3):
        game = game.choose(long_word)
    return game.svg()


def _scenes(folder: Path) -> dict[str, Callable[[], str]]:
    galecrest = lt.load_rules("galecrest")
    return {
        "long-mod-names": lambda: _long_names(folder),
        "mid-game-4": lambda: _dusk(lt.new_game(galecrest, 4, seed=5), 1).svg(),
        "seen-by-seat-2": lambda: _dusk(lt.new_game(galecrest, 4, seed=5), 1).svg(2),
        "finished-4": lambda: _play(lt.new_game(galecrest, 4, seed=5), 10_000, 2).svg(),
        "two-players": lambda: _dusk(lt.new_game(galecrest, 2, seed=3), 3).svg(),
        "six-players": lambda: _dusk(lt.new_game(galecrest, 6, seed=4), 4).svg(),
        "solo": lambda: _play(lt.new_game(galecrest, 1, seed=11), 25, 5).svg(0),
        "stormy": lambda: _dusk(lt.new_game(lt.load_rules("galecrest", loot="stormy"), 3, seed=6), 6).svg(),
        "uncharted": lambda: _dusk(lt.new_game(lt.load_rules("galecrest", loot="uncharted"), 4, seed=3), 8).svg(),
        "classic-2012": lambda: _dusk(lt.new_game(lt.load_rules("classic"), 5, seed=7), 7).svg(),
    }


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    why = _missing()
    if why is not None:
        if os.environ.get("LIBERTALIA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"LIBERTALIA_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = next(b for b in BROWSERS if os.path.exists(b))
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--window-size=1000,1400"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.getbasetemp() / "pictures"
    folder.mkdir(mode=0o700, exist_ok=True)
    folder.chmod(0o700)
    print(f"\nscreenshots of the table's picture: {folder}")
    return folder


def _keep(path: Path) -> None:
    """A picture or screenshot kept as a test artefact: private to the user, and copied to $LIBERTALIA_ARTEFACTS."""
    path.chmod(0o600)
    artefacts = os.environ.get("LIBERTALIA_ARTEFACTS")
    if artefacts:
        os.makedirs(artefacts, mode=0o700, exist_ok=True)
        copy = Path(artefacts) / f"picture-{path.name}"
        shutil.copy(path, copy)
        copy.chmod(0o600)


@pytest.mark.parametrize("scene", list(_scenes(Path())))
def test_no_text_overflows_its_box(browser: Any, shots: Path, scene: str) -> None:
    """Every text of the picture lies inside the rect of its card, token, panel or band, in a real browser."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the solo cards and stormy tiles are reconstructions: said elsewhere
        svg = _scenes(shots / "mod")[scene]()
    page = shots / f"{scene}.svg"
    page.write_text(svg, encoding="utf-8")
    page.chmod(0o600)
    browser.get(page.as_uri())
    height = int(browser.execute_script("return document.querySelector('svg').height.baseVal.value"))
    browser.set_window_size(1000, min(height + 120, 4000))
    overflows = browser.execute_script(_OVERFLOWS)
    shot = shots / f"{scene}.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    _keep(shot)
    assert overflows == [], "\n".join(overflows)


def test_the_measure_catches_an_overflow(browser: Any, shots: Path) -> None:
    """The overflow script itself: a text wider than its box is reported (so a pass means something)."""
    page = shots / "overflow-check.svg"
    page.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><g class="box card">'
                    '<rect x="10" y="10" width="40" height="30"/><text x="12" y="30" font-size="12">'
                    'far too long a name for this card</text></g></svg>', encoding="utf-8")
    page.chmod(0o600)
    browser.get(page.as_uri())
    overflows = browser.execute_script(_OVERFLOWS)
    assert len(overflows) == 1 and "far too long" in overflows[0]


WIDTHS = (1400, 1100, 800)


def _tables() -> dict[str, Callable[[], lt.Game | lt.Observation]]:
    """Each kind of table twice: a seat choosing in the middle of the game, and the game over."""
    galecrest, stormy, classic = (lt.load_rules("galecrest"), lt.load_rules("galecrest", loot="stormy"),
                                  lt.load_rules("classic"))
    return {
        "two-players-mid": lambda: _dusk(lt.new_game(galecrest, 2, seed=3), 3),
        "two-players-over": lambda: _play(lt.new_game(galecrest, 2, seed=3), 10_000, 3),
        "six-players-mid": lambda: _dusk(lt.new_game(galecrest, 6, seed=4), 4),
        "six-players-over": lambda: _play(lt.new_game(galecrest, 6, seed=4), 10_000, 4),
        "solo-mid": lambda: _play(lt.new_game(galecrest, 1, seed=11), 25, 5).observation(0),
        "solo-over": lambda: _play(lt.new_game(galecrest, 1, seed=11), 10_000, 5).observation(0),
        "stormy-mid": lambda: _dusk(lt.new_game(stormy, 3, seed=6), 6),
        "stormy-over": lambda: _play(lt.new_game(stormy, 3, seed=6), 10_000, 6),
        "classic-2012-mid": lambda: _dusk(lt.new_game(classic, 4, seed=7), 7),
        "classic-2012-over": lambda: _play(lt.new_game(classic, 5, seed=7), 10_000, 7),
    }


#: how the page sits in the window: its sideways scroll, the picture's drawn size, its smallest text as drawn
#: on the screen (in px), and the words of the band that says what is happening (the question, or the winner)
_FIT = """
const svg = document.querySelector('svg');
const r = svg.getBoundingClientRect();
const scale = r.width / svg.viewBox.baseVal.width;
const texts = Array.from(svg.querySelectorAll('text'));
const said = sel => Array.from(svg.querySelectorAll(sel)).map(t => t.textContent).join(' ');
const sizes = texts.map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth, left: r.left, width: r.width,
        height: r.bottom + window.scrollY, smallest: Math.min(...sizes),
        question: said('g.question text'), winner: said('g.winner text'), where: said('text.where')};
"""
SMALLEST_ON_SCREEN = 7.0
"""px: the smallest print a player must read on the screen, at the narrowest width tested."""


@pytest.mark.parametrize("scene", list(_tables()))
def test_the_table_fits_every_width(browser: Any, shots: Path, scene: str) -> None:
    """Deliverable 6: at 1400, 1100 and 800 px the table never scrolls sideways, fills a narrow window with no
    text under 7 px, keeps every text in its box, and says the question in words (mid-game) or the winner
    with no day (game over)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the solo cards and stormy tiles are reconstructions: said elsewhere
        table = _tables()[scene]()
        svg = table.svg()
    over = scene.endswith("-over")
    assert (table.decision is None) == over, scene
    if scene.startswith("two-players"):
        assert over or 'data-card="Midshipman"' in svg, "2 players: the Midshipman stands on the island"
    page = shots / f"table-{scene}.svg"
    page.write_text(svg, encoding="utf-8")
    page.chmod(0o600)
    for width in WIDTHS:
        browser.set_window_size(width, 900)
        browser.get(page.as_uri())
        fit = browser.execute_script(_FIT)
        assert fit["scroll"] <= fit["inner"], f"{scene} at {width} px scrolls sideways: {fit}"
        assert fit["left"] >= 0 and fit["left"] + fit["width"] <= fit["inner"] + 0.5, f"{scene} at {width}: {fit}"
        assert fit["width"] >= min(fit["inner"], 1000) - 1, f"{scene} at {width} px leaves the window's width: {fit}"
        assert fit["smallest"] >= SMALLEST_ON_SCREEN, f"{scene} at {width} px: a text of {fit['smallest']:.1f} px"
        if over:
            assert "win" in fit["winner"] and "day" not in fit["where"], f"{scene}: {fit}"
        else:
            assert fit["question"].startswith(f"Seat {table.decision.player} "), f"{scene}: {fit}"
        overflows = browser.execute_script(_OVERFLOWS)
        assert overflows == [], f"{scene} at {width} px:\n" + "\n".join(overflows)
        browser.set_window_size(width, min(int(fit["height"]) + 140, 4000))  # the whole table in the screenshot
        shot = shots / f"table-{scene}-{width}.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
        _keep(shot)


def test_the_measure_catches_texts_on_each_other_and_a_ring_across_a_text(browser: Any, shots: Path) -> None:
    """The overlap script itself: two texts on each other, and a mark's ring across a label, are reported."""
    page = shots / "overlap-check.svg"
    page.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">'
                    '<text x="10" y="30" font-size="12">first words</text>'
                    '<text x="40" y="34" font-size="12">second words</text>'
                    '<text x="10" y="100" font-size="12">a zone label</text>'
                    '<rect x="5" y="98" width="120" height="40" fill="none" stroke-width="3" class="mark-ring"/>'
                    '</svg>', encoding="utf-8")
    page.chmod(0o600)
    browser.get(page.as_uri())
    found = browser.execute_script(_OVERFLOWS)
    assert len(found) == 2 and "first words" in found[0] and "a zone label" in found[1], found
