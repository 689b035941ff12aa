"""The replay page as a person sees it, in Debian's chromium (as ``test_replay_page``): at 1400, 1100
and 800 px wide, for 2 and 6 players, solo, the stormy loot side and the 2012 edition.

At each width the page may not scroll sideways and its event panel must be on screen; the slider, the
voyage and day jumps and the list of days move the step; the picture the page's script unpacks is
``Game.svg()`` of that step, character for character.  Screenshots stay in ``<pytest basetemp>/replay``
(copied to $LIBERTALIA_ARTEFACTS when set).  Without chromium the tests skip, unless
LIBERTALIA_REQUIRE_BROWSER=1, when they fail.
"""

from __future__ import annotations

import os
import random
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import libertalia as lt
from libertalia.pictures_pack import decode
from libertalia.pictures_page import replay_page

from .test_pictures_browser import _OVERFLOWS, SMALLEST_ON_SCREEN
from .test_replay_page import browser, wait_ready  # noqa: F401  (the fixture)

WIDTHS = (1400, 1100, 800)


def _played(rules: Callable[[], lt.Rules], players: int, seed: int) -> list[lt.Game]:
    """A game played out at random, every position kept (the page's steps)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the solo cards and stormy tiles are reconstructions: said elsewhere
        game = lt.new_game(rules(), players, seed=seed)
    rng = random.Random(seed)
    games = [game]
    while game.decision is not None:
        game = game.choose(rng.choice(game.legal_keys()))
        games.append(game)
    return games


SCENES: dict[str, Callable[[], list[lt.Game]]] = {
    "two": lambda: _played(lambda: lt.load_rules(), 2, 11),
    "six": lambda: _played(lambda: lt.load_rules(), 6, 8),
    "solo": lambda: _played(lambda: lt.load_rules(), 1, 4),
    "stormy": lambda: _played(lambda: lt.load_rules("galecrest", loot="stormy"), 3, 6),
    "classic-2012": lambda: _played(lambda: lt.load_rules("classic"), 5, 7),
}

_LAYOUT = """
const ev = document.getElementById('events').getBoundingClientRect();
return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
        events: [ev.left, ev.top, ev.right, ev.bottom], height: window.innerHeight,
        step: document.getElementById('counter').textContent};
"""


#: the page's own boxes (seat names, buttons, caption, event lines): a text wider than its box, or a box
#: past the window's right edge, is reported
_HTML_OVERFLOWS = """
const out = [];
for (const el of document.querySelectorAll('h1, #seats .seat, #controls > *, #what, #help, #events, #events li')) {
  const r = el.getBoundingClientRect();
  if (el.scrollWidth > el.clientWidth + 1 || r.right > window.innerWidth + 0.5 || r.left < -0.5) {
    out.push(JSON.stringify({el: el.id || el.className || el.tagName, text: el.textContent.slice(0, 60),
                             scroll: el.scrollWidth, client: el.clientWidth, right: r.right}));
  }
}
return out;
"""


#: the smallest text of the table's picture as drawn on the screen, in px
_SMALLEST = """
const svg = document.querySelector('#table svg');
const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
return Math.min(...Array.from(svg.querySelectorAll('text')).map(t => parseFloat(getComputedStyle(t).fontSize) * scale));
"""


def _artefact(shot: Path) -> None:
    """A screenshot kept: private to the user (0600), and copied to $LIBERTALIA_ARTEFACTS when set."""
    shot.chmod(0o600)
    artefacts = os.environ.get("LIBERTALIA_ARTEFACTS")
    if artefacts:
        os.makedirs(artefacts, mode=0o700, exist_ok=True)
        shutil.copy(shot, Path(artefacts) / shot.name)
        (Path(artefacts) / shot.name).chmod(0o600)


@pytest.mark.parametrize("scene", list(SCENES))
def test_the_replay_page_fits_every_width(scene: str, browser: Any,  # noqa: F811
                                          tmp_path_factory: pytest.TempPathFactory) -> None:
    """Deliverable 3/6: at 1400, 1100 and 800 px no sideways scroll, no text out of its box nor under 7 px, the
    event panel on screen, the picture exact; the page weighs a few hundred kB at most."""
    games = SCENES[scene]()
    folder = tmp_path_factory.mktemp("replay", numbered=False) if not (
        tmp_path_factory.getbasetemp() / "replay").exists() else tmp_path_factory.getbasetemp() / "replay"
    path = folder / f"{scene}.html"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path.write_text(replay_page(lt.GameRecord.of(games[-1], agents=["greedy", "random"] * 3)), encoding="utf-8")
    folder.chmod(0o700)
    path.chmod(0o600)
    assert path.stat().st_size < 400_000, f"{scene}: {path.stat().st_size} bytes"
    middle = len(games) // 2
    for width in WIDTHS:
        browser.set_window_size(width, 900)
        browser.get(f"{path.as_uri()}#{middle}")
        wait_ready(browser)
        got = browser.execute_script(_LAYOUT)
        assert got["step"] == f"step {middle} of {len(games) - 1}"
        assert got["scroll"] <= got["inner"], f"{scene} at {width} px scrolls sideways: {got}"
        left, top, right, bottom = got["events"]
        assert left >= 0 and right <= got["inner"] and 0 <= top < got["height"] - 40, f"{scene} at {width}: {got}"
        assert browser.execute_script(_HTML_OVERFLOWS) == [], f"{scene} at {width} px"
        assert browser.execute_script(_OVERFLOWS) == [], f"{scene} at {width} px"
        smallest = browser.execute_script(_SMALLEST)
        assert smallest >= SMALLEST_ON_SCREEN, f"{scene} at {width} px: a text of the table at {smallest:.1f} px"
        shot = folder / f"{scene}-{width}.png"
        assert browser.save_screenshot(str(shot))
        _artefact(shot)
    browser.set_window_size(1100, 900)
    browser.find_element("id", "last").click()  # the end: the winner, no day
    assert "day" not in browser.find_element("id", "where").text
    assert browser.execute_script(_HTML_OVERFLOWS) == [] and browser.execute_script(_OVERFLOWS) == []
    shot = folder / f"{scene}-end-1100.png"
    assert browser.save_screenshot(str(shot))
    _artefact(shot)
    print(f"\nreplay screenshots: {folder}")
    for i in (0, middle, len(games) - 1):
        assert browser.execute_script(f"return window.libertaliaPicture({i});") == games[i].svg(), f"step {i}"
    every = browser.execute_script(f"return Array.from({{length: {len(games)}}}, "
                                   "(_, i) => window.libertaliaPicture(i));")
    page = path.read_text(encoding="utf-8")
    assert every == decode(page.split('id="pictures">')[1].split("</script>")[0])  # the script's twin in Python


def test_the_slider_and_the_jumps_move_the_step(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Deliverable 3: the slider, the voyage and day buttons and the list of days each move to their step."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    games = SCENES["two"]()
    path = tmp_path / "two.html"
    path.write_text(replay_page(lt.GameRecord.of(games[-1])), encoding="utf-8")
    browser.set_window_size(1100, 900)
    browser.get(path.as_uri())
    wait_ready(browser)

    def step() -> int:
        return int(browser.find_element(By.ID, "counter").text.split()[1])

    browser.execute_script("const s = document.getElementById('slider'); s.value = '17';"
                           "s.dispatchEvent(new Event('input'));")
    assert step() == 17
    slider = browser.find_element(By.ID, "slider")
    slider.click()  # a click in the slider's middle goes to about half the game
    assert abs(step() - (len(games) - 1) / 2) <= len(games) / 10

    browser.find_element(By.ID, "first").click()
    browser.find_element(By.ID, "next-voyage").click()
    assert games[step()].voyage == 2 and games[step() - 1].voyage == 1
    browser.find_element(By.ID, "next-day").click()
    assert (games[step()].voyage, games[step()].day) != (games[step() - 1].voyage, games[step() - 1].day)
    here = step()
    browser.find_element(By.ID, "prev-day").click()
    browser.find_element(By.ID, "next-day").click()
    assert step() == here
    browser.find_element(By.ID, "prev-voyage").click()
    assert games[step()].voyage == 2 and games[step() - 1].voyage == 1

    jump = Select(browser.find_element(By.ID, "jump"))
    labels = [o.text for o in jump.options]
    assert labels[0] == "Voyage 1, day 1" and labels[-1] == "The end"
    jump.select_by_visible_text("Voyage 3, day 2")
    assert (games[step()].voyage, games[step()].day) == (3, 2) and (games[step() - 1].day) != 2
    quiet = next(i for i in range(1, len(games)) if not games[i].events_since(games[i - 1]))  # a secret pick
    browser.execute_script(f"const s = document.getElementById('slider'); s.value = '{quiet}';"
                           "s.dispatchEvent(new Event('input'));")
    assert step() == quiet and "(this answer caused no events)" in browser.find_element(By.ID, "events").text
    jump.select_by_visible_text("The end")
    assert step() == len(games) - 1
    assert "day" not in browser.find_element(By.ID, "where").text


def test_the_page_measure_catches_an_overflow(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """The page's overflow script itself: a caption wider than its box is reported (so a pass means something)."""
    games = SCENES["solo"]()
    path = tmp_path / "solo.html"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path.write_text(replay_page(lt.GameRecord.of(games[-1])), encoding="utf-8")
    browser.set_window_size(800, 900)
    browser.get(path.as_uri())
    wait_ready(browser)
    assert browser.execute_script(_HTML_OVERFLOWS) == []
    browser.execute_script("const w = document.getElementById('what'); w.style.whiteSpace = 'nowrap';"
                           "w.textContent = 'a caption far too long for its box '.repeat(20);")
    overflows = browser.execute_script(_HTML_OVERFLOWS)
    assert len(overflows) == 1 and "far too long" in overflows[0]
