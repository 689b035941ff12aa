"""The replay page in a real headless browser: Debian's chromium driven by selenium.

Nothing is downloaded at run time: selenium is pointed at the system's chromedriver and
chromium.  Without them the test skips, unless LIBERTALIA_REQUIRE_BROWSER=1 (as in CI), when it
fails.  The screenshot is kept under pytest's tmp path, and copied to $LIBERTALIA_ARTEFACTS when set.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from libertalia.cli import main
from libertalia.records import GameRecord

DRIVER = "/usr/bin/chromedriver"
BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")


def _missing() -> str | None:
    """Why the browser test cannot run here, or None when it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    if not os.path.exists(DRIVER):
        return f"no {DRIVER} (apt-get install chromium chromium-driver)"
    if not any(os.path.exists(b) for b in BROWSERS):
        return "no system chromium (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture
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
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1500,1100"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def page(tmp_path: Path) -> tuple[Path, GameRecord]:
    """A recorded 3-seat game and its replay page, written by ``libertalia replay --html``."""
    runner = CliRunner()
    result = runner.invoke(main, ["simulate", "--games", "1", "--players", "3", "--seed", "8",
                                  "--record", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    record_path = next(tmp_path.glob("game-*.json"))
    out = tmp_path / "replay.html"
    result = runner.invoke(main, ["replay", str(record_path), "--html", str(out)])
    assert result.exit_code == 0, result.output
    return out, GameRecord.load(record_path)


def wait_ready(browser: Any, timeout: float = 30) -> None:
    """Wait until the page has unpacked its pictures and shown its first step (``data-ready`` on the body)."""
    import time

    end = time.monotonic() + timeout
    while not browser.execute_script("return document.body.getAttribute('data-ready')"):
        assert time.monotonic() < end, browser.find_element("id", "counter").text
        time.sleep(0.05)


def test_the_replay_page_steps_through_the_game_in_a_browser(browser: Any, page: tuple[Path, GameRecord],
                                                             tmp_path: Path) -> None:
    """The page, opened from a file, steps by answer and by day with its buttons and the arrow keys."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    path, record = page
    total = len(record.answers)
    browser.get(path.as_uri())
    wait_ready(browser)

    def counter() -> str:
        return str(browser.find_element(By.ID, "counter").text)

    def events() -> str:
        return str(browser.find_element(By.ID, "events").text)

    assert counter() == f"step 0 of {total}"
    assert "The game starts" in browser.find_element(By.ID, "what").text
    assert "Voyage 1, day 1" in events()
    svg = browser.find_element(By.CSS_SELECTOR, "#table svg")
    assert "Island" in svg.text and "Seat 2" in svg.text and "Reputation" in svg.text

    browser.find_element(By.ID, "next").click()
    assert counter() == f"step 1 of {total}"
    what = browser.find_element(By.ID, "what").text
    assert what.startswith("Seat ") and "(random)" in what and "_" not in what  # words, not kind names
    browser.find_element(By.ID, "next").click()
    browser.find_element(By.ID, "prev").click()
    assert counter() == f"step 1 of {total}"

    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert counter() == f"step 3 of {total}"
    body.send_keys(Keys.ARROW_LEFT)
    assert counter() == f"step 2 of {total}"

    body.send_keys(Keys.ARROW_DOWN)  # to the first step of the next day
    assert "Voyage 1, day 2" in events()
    day2 = counter()
    browser.find_element(By.ID, "next-day").click()
    assert "Voyage 1, day 3" in events()
    browser.find_element(By.ID, "prev-day").click()
    assert counter() == day2
    body.send_keys(Keys.ARROW_UP)
    assert "Voyage 1, day 1" in events()

    browser.find_element(By.ID, "last").click()
    assert counter() == f"step {total} of {total}"
    assert "The game is over after voyage 3 of 3" in browser.find_element(By.CSS_SELECTOR, "#table svg").text
    body.send_keys(Keys.ARROW_RIGHT)  # at the end the page stays there
    assert counter() == f"step {total} of {total}"

    browser.find_element(By.ID, "first").click()
    for _ in range(5):
        body.send_keys(Keys.ARROW_RIGHT)
    assert counter() == f"step 5 of {total}"
    shot = tmp_path / "replay-page.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    artefacts = os.environ.get("LIBERTALIA_ARTEFACTS")
    if artefacts:
        os.makedirs(artefacts, exist_ok=True)
        shutil.copy(shot, Path(artefacts) / shot.name)


def test_the_replay_page_needs_no_network(page: tuple[Path, GameRecord]) -> None:
    """The page is self-contained: no external URL, no script or style file of its own."""
    text = page[0].read_text(encoding="utf-8")
    for banned in ("http://", "https://", "src=", "<link", "//cdn"):
        assert banned not in text.replace("http://www.w3.org/2000/svg", ""), banned


def test_the_replay_page_is_private_to_the_user(page: tuple[Path, GameRecord]) -> None:
    """``replay --html`` writes a new file 0600, like the records and saves (``files.write_atomic``)."""
    assert page[0].stat().st_mode & 0o777 == 0o600


def test_a_missing_browser_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without chromedriver the browser test says what to install (and skips, or fails when CI requires it)."""
    monkeypatch.setattr(sys.modules[__name__], "DRIVER", "/nonexistent/chromedriver")
    why = _missing()
    assert why is not None and "chromium-driver" in why


def test_a_mod_card_name_cannot_break_out_of_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card name holding ``</script>`` and ``<&>`` stays data: the page's two scripts are intact and it reads back.

    The loader now refuses such a name (loading/names.py, issue 33); the page escapes it all the same, should one
    reach it another way, so the name rule is set aside here to build the game.
    """
    import json

    import libertalia as lt
    from libertalia.loading import names
    from libertalia.pictures_pack import decode
    from libertalia.pictures_page import replay_page

    from .helpers import mod_rules

    name = "Bad </script> <&> Name"
    (tmp_path / "bad.yaml").write_text(f"name: {name}\nrank: 61\ntext: |\n  sun: Gain 1 doubloon.\n", encoding="utf-8")
    with pytest.raises(lt.CardError, match="holds '<'"):
        mod_rules(tmp_path)
    monkeypatch.setattr(names, "shape_problem", lambda name: None)
    rules = mod_rules(tmp_path)
    game = lt.new_game(rules, players=2, seed=3, setup={"players": [{"hand": [name, "Cook"]}, {"hand": ["Cook"]}]})
    game = game.play_out([lt.agents.RandomAgent(seat) for seat in range(2)])
    page = replay_page(lt.GameRecord.of(game))
    assert page.count("</script>") == 3 and "<&>" not in page
    json.loads(page.split('id="steps">')[1].split("</script>")[0])
    pictures = decode(page.split('id="pictures">')[1].split("</script>")[0])
    assert any("Bad &lt;/script&gt; &lt;&amp;&gt; Name" in svg for svg in pictures)
