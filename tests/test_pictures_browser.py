"""The table's picture as a person sees it: drawn by Debian's chromium, measured, and kept as screenshots.

Each scene (a mid-game table of four, a finished game, two players with the Midshipman, six
players, solo, the stormy and uncharted loot sides, the 2012 edition, one seat's view) is written to a file and
opened in headless chromium through selenium, as ``test_replay_page`` does.  A script in the page
measures every text's box (``getBBox``) against the rect of the piece that holds it: nothing may
stick out.  The screenshots stay in ``<pytest basetemp>/pictures`` (the path is printed) and are
copied to $LIBERTALIA_ARTEFACTS when set.  Without chromium the tests skip, unless
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
    folder.mkdir(exist_ok=True)
    print(f"\nscreenshots of the table's picture: {folder}")
    return folder


@pytest.mark.parametrize("scene", list(_scenes(Path())))
def test_no_text_overflows_its_box(browser: Any, shots: Path, scene: str) -> None:
    """Every text of the picture lies inside the rect of its card, token, panel or band, in a real browser."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the solo cards and stormy tiles are reconstructions: said elsewhere
        svg = _scenes(shots / "mod")[scene]()
    page = shots / f"{scene}.svg"
    page.write_text(svg, encoding="utf-8")
    browser.get(page.as_uri())
    height = int(browser.execute_script("return document.querySelector('svg').height.baseVal.value"))
    browser.set_window_size(1000, min(height + 120, 4000))
    overflows = browser.execute_script(_OVERFLOWS)
    shot = shots / f"{scene}.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    artefacts = os.environ.get("LIBERTALIA_ARTEFACTS")
    if artefacts:
        os.makedirs(artefacts, exist_ok=True)
        shutil.copy(shot, Path(artefacts) / f"picture-{shot.name}")
    assert overflows == [], "\n".join(overflows)


def test_the_measure_catches_an_overflow(browser: Any, shots: Path) -> None:
    """The overflow script itself: a text wider than its box is reported (so a pass means something)."""
    page = shots / "overflow-check.svg"
    page.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><g class="box card">'
                    '<rect x="10" y="10" width="40" height="30"/><text x="12" y="30" font-size="12">'
                    'far too long a name for this card</text></g></svg>', encoding="utf-8")
    browser.get(page.as_uri())
    overflows = browser.execute_script(_OVERFLOWS)
    assert len(overflows) == 1 and "far too long" in overflows[0]
