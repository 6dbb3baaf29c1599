"""The page in a real headless browser (Debian's chromium + chromium-driver, driven by
selenium): open, pair, play a column, see the disc on the page and on the simulated
matrix, change a setting, watch a demo move arrive by itself, replay the recorded game;
a phone-sized screenshot.

Skipped, saying so, only when no browser is installed (`.ci/run` installs one).
"""
import os
import shutil
import tempfile

import pytest

from webboard import WebBoard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or (
    "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
SCREENSHOT = os.path.join(ROOT, "build", "web-phone.png")

try:
    import selenium  # noqa: F401
    HAVE_SELENIUM = True
except ImportError:
    HAVE_SELENIUM = False

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER and HAVE_SELENIUM),
    reason="no headless browser: needs Debian's chromium and chromium-driver "
           "(apt-get install chromium chromium-driver) and selenium (requirements-dev.txt); "
           "found chromium=%s chromedriver=%s selenium=%s" % (CHROMIUM, CHROMEDRIVER, HAVE_SELENIUM))


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=390,844"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def page_moves(driver):
    return driver.find_element("id", "status").get_attribute("data-moves") or ""


def disc(driver, col, row):
    cell = driver.find_element("css selector", '.cell[data-col="%d"][data-row="%d"]' % (col, row))
    classes = cell.get_attribute("class").split()
    return "red" if "red" in classes else "yellow" if "yellow" in classes else None


def abandoned_games(driver):
    """The page's recorded-games items of abandoned games against the AI."""
    return [li for li in driver.find_elements("css selector", "#games li") if " ai: abandoned" in li.text]


def discs_on_page(driver):
    return len(driver.find_elements("css selector", ".cell.red, .cell.yellow"))


def matrix_red(board, col, row):
    """Is the matrix's cell of (col, row) (1-based, as on the page) lit red?"""
    layout = board.app.layout
    r, g, b = board.sim.panel.rgb(col - 1, layout.cell_y(row - 1))
    return r > 0 and r > 2 * g and r > 2 * b


def test_the_page_in_a_real_browser(browser, tmp_path):
    flash = str(tmp_path)
    with WebBoard(flash, settings={"mode": "ai", "level": 1, "first": "red"}) as board:
        board.wait(lambda: board.app.state == 1 and not board.app.ai_to_move(), what="red to play")
        url = "http://127.0.0.1:%d/" % board.port
        browser.get(url)
        board.wait(lambda: "tap a column" in browser.find_element("id", "status").text,
                   what="the page shows red to play")
        # a write before pairing is refused, and the page says so
        browser.find_element("css selector", '.cell[data-col="4"][data-row="6"]').click()
        board.wait(lambda: "pair first" in browser.find_element("id", "msg").text, what="401 shown")
        assert board.app.board.moves_string() == ""
        # pair with the code the board shows
        browser.find_element("id", "code").send_keys(board.code)
        browser.find_element("id", "pair").click()
        board.wait(lambda: not browser.find_element("id", "pairbox").is_displayed(), what="paired")
        # play column 4: the disc on the page and on the simulated matrix
        browser.find_element("css selector", '.cell[data-col="4"][data-row="6"]').click()
        board.wait(lambda: disc(browser, 4, 1) == "red", what="the red disc on the page")
        board.wait(lambda: matrix_red(board, 4, 1), what="the red disc on the matrix")
        assert board.app.board.moves_string()[0] == "4"
        # the AI answers by itself, and the page shows it
        board.wait(lambda: len(page_moves(browser)) >= 2, what="the AI's reply on the page")
        # a setting: the brightness slider changes the board
        browser.execute_script("const b=document.getElementById('brightness');b.value=6;"
                               "b.dispatchEvent(new Event('change'))")
        board.wait(lambda: board.app.settings["brightness"] == 6, what="brightness 6 on the board")
        # a new demo game: its moves arrive by themselves
        from selenium.webdriver.support.ui import Select
        Select(browser.find_element("id", "mode")).select_by_value("demo")
        browser.find_element("id", "new").click()
        board.wait(lambda: board.app.mode == 2, what="the demo on the board")
        board.wait(lambda: len(page_moves(browser)) >= 2 and "demo" in browser.find_element("id", "status").text,
                   what="demo moves on the page")
        seen = page_moves(browser)
        board.wait(lambda: page_moves(browser) != seen, what="another demo move on the page")
        # the game left for the demo was recorded: the page lists it and replays it move by move,
        # while the live board goes on underneath
        board.wait(lambda: abandoned_games(browser), what="the abandoned game listed")
        item = abandoned_games(browser)[0]
        recorded = item.text.split(" · ")[1].split()[0]
        assert recorded.startswith("4") and len(recorded) >= 2
        item.find_element("tag name", "button").click()
        info = lambda: browser.find_element("id", "rinfo").text  # noqa: E731
        board.wait(lambda: "move %d of %d" % (len(recorded), len(recorded)) in info(), what="the replay at its end")
        assert discs_on_page(browser) == len(recorded)
        browser.find_element("id", "rfirst").click()
        board.wait(lambda: "move 0 of" in info(), what="the replay at its start")
        assert discs_on_page(browser) == 0
        browser.find_element("id", "rnext").click()
        board.wait(lambda: disc(browser, 4, 1) == "red", what="the first disc replayed")
        seen = page_moves(browser)
        board.wait(lambda: page_moves(browser) != seen, what="a demo move arriving during the replay")
        assert discs_on_page(browser) == 1 and "move 1 of" in info()  # the replay is not overwritten
        browser.find_element("id", "rlive").click()
        board.wait(lambda: not browser.find_element("id", "replaybox").is_displayed(), what="back to the live board")
        board.wait(lambda: discs_on_page(browser) == len(page_moves(browser)), what="the live board again")
        assert browser.find_element("id", "msg").text in ("", "paired")
        errors = [e for e in browser.get_log("browser") if e.get("source") == "javascript"]
        assert not errors, errors  # the page's own script never failed
        browser.execute_script("window.scrollTo(0, 0)")
        os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
        browser.save_screenshot(SCREENSHOT)
