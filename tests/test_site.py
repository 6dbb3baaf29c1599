"""The board in a browser (`make site`): the unmodified firmware in MicroPython's WebAssembly
build, in headless Chromium (as tests/test_web_browser.py drives it) on a 390 px phone screen.

The page loads with no script error and draws the firmware's frame; the menu opens with a long
press and says its item and value beside the LEDs; a game against level 1 is played to its end
by clicking the controls, the page saying who you are, each move, the result from your side and
what each AI move cost (blunders named as such), its statistics surviving a reload; keys drive
the board only while it (or nothing) has the focus, every control working by keyboard and Escape
bringing the focus back to the board; every control at least 44 x 44 px at 360 px; without
the isolation headers the page says so in view; a press during a level-8 search plays at once;
and the page's MicroPython answers engine commands as `python -m host_sim.engine --no-book`
does, node counts included. (The words themselves: tests/test_site_words.py.)

Skipped, saying so, without a browser (`.ci/run` installs one) or without node_modules' VM.
"""
import base64
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from chromium import MISSING, phone
from connect4.app.menu import ITEMS
from connect4.engine import levels
from tools import mpvm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHONE_WIDTH = 390

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM (node_modules) not installed: make site needs it"),
]


def _built(book):
    """The site built into a temporary folder, removed when the module ends."""
    from tools.site import build
    folder = tempfile.mkdtemp(prefix="site-")
    try:
        build.build(folder, book=book)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _serve(folder, isolated=True):
    """The folder served until the module ends: with the isolation headers (COOP/COEP), as
    `make web-sim` does, or without them, as a plain static host."""
    from tools.site import serve

    class Plain(serve.Handler):
        def end_headers(self):
            http.server.SimpleHTTPRequestHandler.end_headers(self)
    if isolated:
        server, url = serve.start(directory=folder)
    else:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Plain, directory=folder))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/" % server.server_address[1]
    try:
        yield url
    finally:
        server.shutdown()


@pytest.fixture(scope="module")
def site_folder():
    yield from _built(book=True)


@pytest.fixture(scope="module")
def site(site_folder):
    yield from _serve(site_folder)


@pytest.fixture(scope="module")
def plain_site(site_folder):
    yield from _serve(site_folder, isolated=False)


@pytest.fixture(scope="module")
def site_without_book():
    for folder in _built(book=False):
        yield from _serve(folder)


@pytest.fixture
def browser():
    with phone(PHONE_WIDTH, 844, log=True, script_timeout=120) as driver:
        yield driver


def c4(driver, expr):
    return driver.execute_script("return " + expr)


def wait(driver, expr, timeout=30, what=None):
    end = time.time() + timeout
    while time.time() < end:
        errors = c4(driver, "c4.errors")
        assert not errors, errors
        value = c4(driver, expr)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("%s not true within %d s; state %s" % (what or expr, timeout, c4(driver, "c4.state")))


def open_board(driver, url):
    driver.get(url + "?seed=7")
    wait(driver, "c4.ready && c4.frames > 0", 60)


def decoded_frame(driver):
    """The firmware's last frame decoded here, with the firmware's own led_map (as host_sim's
    Panel does), in the player's order: what the page must show."""
    from connect4.hw.display import led_map
    from connect4.hardware_setup import COLOR_ORDERS
    import config
    cfg = config.get("encoder")
    raw = bytes.fromhex(c4(driver, "c4.lastFrame"))
    mapping = led_map(cfg["width"], cfg["height"], cfg["serpentine"], cfg["rotation"], cfg["flip_x"], cfg["flip_y"])
    o = COLOR_ORDERS[cfg["color_order"]]
    out = [None] * len(mapping)
    for cell, led in enumerate(mapping):
        b = raw[3 * led:3 * led + 3]
        out[cell] = "%d,%d,%d" % (b[o[0]], b[o[1]], b[o[2]])
    return out


def drawn_matches_frame(driver):
    """The page's LEDs equal the last frame, once the page has drawn it (next animation frame)."""
    end = time.time() + 3
    while True:
        frame, drawn = driver.execute_script(
            "return new Promise(r => requestAnimationFrame(() => r([c4.lastFrame, c4.drawn()])))"), None
        frame, drawn = frame
        if c4(driver, "c4.lastFrame") == frame:
            expected = decoded_frame(driver)
            if bytes.fromhex(frame) == bytes.fromhex(c4(driver, "c4.lastFrame")) and drawn == expected:
                return drawn
        if time.time() > end:
            assert drawn == expected
        time.sleep(0.05)


def click(driver, name, hold_ms=0):
    from selenium.webdriver.common.action_chains import ActionChains
    el = driver.find_element("id", name)
    chain = ActionChains(driver).click_and_hold(el)
    if hold_ms:
        chain = chain.pause(hold_ms / 1000)
    chain.release(el).perform()
    time.sleep(0.12)  # the page holds a click 80 ms (the firmware debounces 50 ms)


def state(driver):
    return c4(driver, "c4.state.state")


def choose_level(driver, level):
    """The menu, as a player walks it: a long press opens it (at `mode`), right to `level`,
    press, turn to the level, press, a long press leaves it."""
    click(driver, "select", 1200)
    wait(driver, "c4.state.state === 'menu'", 5, "the menu after a long press")
    click(driver, "right")
    click(driver, "select")
    now = c4(driver, "c4.boot.settings.level")
    for _ in range(abs(level - now)):
        click(driver, "right" if level > now else "left")
    click(driver, "select")
    click(driver, "select", 1200)
    wait(driver, "c4.state.state !== 'menu'", 5, "the menu closed by a long press")


def test_the_page_loads_with_no_script_error_and_draws_the_firmwares_frame(site, browser):
    open_board(browser, site)
    wait(browser, "c4.frames > 3")
    drawn = drawn_matches_frame(browser)
    assert any(d != "0,0,0" for d in drawn)  # the intro lights LEDs
    # each lit LED in the display curve's colour (host_sim.record.channel), unlit ones a hole
    from host_sim.record import channel, HOLE
    leds = browser.execute_script(
        "return [...document.querySelectorAll('#matrix .led')].map(e => [e.dataset.duty, getComputedStyle(e).backgroundColor])")
    for duty, css in leds:
        rgb = [int(x) for x in duty.split(",")]
        want = tuple(channel(x) for x in rgb) if any(rgb) else HOLE
        assert css == "rgb(%d, %d, %d)" % want, (duty, css)
    assert c4(browser, "c4.shared")  # served with COOP/COEP: the buttons are shared memory
    assert browser.execute_script("return document.documentElement.scrollWidth") <= PHONE_WIDTH
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe
    assert "opening book" in browser.find_element("id", "size-note").text


def text(driver, id_):
    return c4(driver, "document.getElementById(%s).textContent" % json.dumps(id_))


def test_the_menu_opens_with_a_long_press_and_says_its_item_and_value_beside_the_leds(site, browser):
    open_board(browser, site)
    click(browser, "select")  # the intro ends
    wait(browser, "c4.state.state === 'play' || c4.state.state === 'thinking'", 5)
    assert not browser.find_element("id", "menu-words").is_displayed()
    click(browser, "select", 1200)
    wait(browser, "c4.state.state === 'menu'", 5, "the menu after a long press")
    box = browser.find_element("id", "menu-words")
    assert box.is_displayed() and box.get_attribute("aria-live") == "polite"
    assert box.text == "Menu, 1 of %d: Mode: against the AI. Press to change it." % len(ITEMS)
    assert c4(browser, "document.getElementById('board').contains(document.getElementById('menu-words'))")
    assert text(browser, "status").startswith("The menu is open")
    level = c4(browser, "c4.boot.settings.level")
    click(browser, "right")
    wait(browser, "document.getElementById('menu-words').textContent.startsWith('Menu, 2 of %d: Level: %d of 8.')"
         % (len(ITEMS), level), 5, "the level item in words")
    click(browser, "select")
    click(browser, "right")
    wait(browser, "document.getElementById('menu-words').textContent === "
         "'Menu, 2 of %d: Level: %d of 8. Turn to change it, press to keep it.'" % (len(ITEMS), min(8, level + 1)), 5)
    click(browser, "select", 1200)
    wait(browser, "c4.state.state !== 'menu'", 5, "the menu closed by a long press")
    wait(browser, "document.getElementById('menu-words').hidden", 5)
    assert "level %d" % min(8, level + 1) in text(browser, "status")


def test_a_game_against_level_1_played_by_clicking_to_its_end_and_its_statistics_survive_a_reload(
        site, browser):
    open_board(browser, site)
    click(browser, "select")
    wait(browser, "c4.state.state && c4.state.state !== 'intro'", 5)
    choose_level(browser, 1)
    wait(browser, "document.getElementById('status').textContent.startsWith("
         "'You are red; the AI is yellow, level 1.')", 5, "who you are, the mode and the level")
    end = time.time() + 150
    while not c4(browser, "c4.games.length"):
        assert time.time() < end, "the game did not end: %s" % c4(browser, "c4.state")
        if state(browser) == "play":
            before = c4(browser, "c4.state.moves")
            click(browser, "select")
            try:
                wait(browser, "c4.state.moves !== %s || c4.games.length" % json.dumps(before), 10)
            except AssertionError:  # (10 s: a loaded host's slow page is no full column)
                click(browser, "right")  # a full column: the next one
        else:
            time.sleep(0.1)
    game = c4(browser, "c4.games[0]")
    assert game["levels"] and 1 in game["levels"], game
    assert len(game["moves"]) >= 7
    wait(browser, "c4.state.state === 'over'", 5)
    drawn_matches_frame(browser)
    # the page says it in words: the result from your side, each move in the live region
    result = {0: "You won.", 1: "You lost.", -1: "A draw."}[game["winner"]]
    status = text(browser, "status")
    assert status.startswith("You are red; the AI is yellow, level 1.") and result in status, status
    said = [line for line in c4(browser, "c4.said") if not line.startswith("A new game")][-len(game["moves"]):]
    first = "You" if game["first"] == 0 else "The AI"
    other = "The AI" if first == "You" else "You"
    assert [re.match(r"(You|The AI): column (\d)\. ", line).groups() for line in said] == \
        [(first if i % 2 == 0 else other, col) for i, col in enumerate(game["moves"])], said
    assert said[-1].endswith(result + " Press for a new game.")
    assert text(browser, "said") == said[-1]
    assert c4(browser, "document.getElementById('said').getAttribute('aria-live')") == "polite"
    # what each AI move cost, named: level 1 mostly plays at random (its blunder chance, 90%)
    searches = c4(browser, "c4.searches")
    assert searches and all(r["level"] == 1 for r in searches)
    for r in searches:
        line = r["words"]
        assert line.startswith("The AI (level 1) "), line
        assert not re.search(r"\b1 nodes\b|\b0 nodes\b|0\.00 s|depth 0", line), line
        if r["stopped"] == "blunder":
            assert line == "The AI (level 1) played a random move (its blunder chance, 90%): no search."
    assert any(r["kind"] == "blunder" for r in searches), searches
    assert text(browser, "speed") == searches[-1]["words"]
    stats = None
    end = time.time() + 5  # the flash reaches the browser's storage within its sync period
    while time.time() < end:
        kept = json.loads(c4(browser, "localStorage.getItem('c4.flash')") or "{}")
        if "connect4.json" in kept:
            stats = json.loads(base64.b64decode(kept["connect4.json"]))["stats"]
            if sum(stats["ai"][0]):
                break
        time.sleep(0.2)
    assert stats and sum(stats["ai"][0]) == 1, stats  # one game at level 1 counted
    # a new build (a power cycle with the same flash): the old lines are gone
    browser.find_element("css selector", "#setup summary").click()
    from selenium.webdriver.support.ui import Select
    Select(browser.find_element("id", "preset")).select_by_value("buttons")
    wait(browser, "c4.ready && c4.boot", 60)
    assert text(browser, "speed") == "" and text(browser, "said") == ""
    assert "three buttons" in text(browser, "build-line")
    browser.refresh()
    wait(browser, "c4.ready && c4.boot", 60)
    assert c4(browser, "c4.boot.stats") == stats  # read back from flash by the firmware
    assert c4(browser, "c4.boot.settings.level") == 1


def keys(driver, *names):
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(driver).send_keys(*names).perform()
    time.sleep(0.15)  # the page holds a key press at least 80 ms


def focus(driver, id_):
    if id_ is None:
        driver.execute_script("document.activeElement && document.activeElement.blur()")
    else:
        driver.execute_script("document.getElementById(arguments[0]).focus()", id_)
    assert c4(driver, "document.activeElement.id") == (id_ or "")


def your_turn(driver):
    """Wait for a person's turn (state play: on the AI's turn the app is thinking); its moves."""
    wait(driver, "c4.state.state === 'play'", 20, "your turn")
    return c4(driver, "c4.state.moves")


def alert(driver, accept=False):
    """The page's confirmation, answered; its text (None: none opened)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait
    try:
        box = WebDriverWait(driver, 2).until(expected_conditions.alert_is_present())
    except TimeoutException:
        return None
    said = box.text
    box.accept() if accept else box.dismiss()
    return said


def test_keys_drive_the_board_only_when_it_or_nothing_has_focus_and_every_control_works_by_keyboard(
        site, browser):
    from selenium.webdriver.common.keys import Keys
    open_board(browser, site)
    click(browser, "select")  # the intro ends
    moves = your_turn(browser)
    # the focused ◀ control takes Enter as its own press: the cursor moves, no disc drops
    cursor = c4(browser, "c4.state.cursor")
    focus(browser, "left")
    keys(browser, Keys.ENTER)
    time.sleep(0.5)
    assert c4(browser, "c4.state.moves") == moves, "Enter on ◀ dropped a disc"
    wait(browser, "c4.state.cursor !== %s" % json.dumps(cursor), 3, "the cursor moved left by Enter on ◀")
    # the Build's controls keep their keys: Enter and Space on "Erase the flash" ask first
    browser.find_element("css selector", "#setup summary").click()
    for key in (Keys.ENTER, Keys.SPACE):
        focus(browser, "erase")
        keys(browser, key)
        assert "Erase the board's flash" in (alert(browser) or ""), "no confirmation by %r" % key
        assert c4(browser, "c4.state.moves") == moves  # and no disc dropped
    # with nothing focused, Space drops a disc; with the board focused, Enter does
    focus(browser, None)
    keys(browser, Keys.SPACE)
    wait(browser, "c4.state.moves.length > %d" % len(moves), 3, "a disc dropped by Space")
    moves = your_turn(browser)
    focus(browser, "board")
    keys(browser, Keys.ENTER)
    wait(browser, "c4.state.moves.length > %d" % len(moves), 3, "a disc dropped by Enter on the board")
    moves = your_turn(browser)
    focus(browser, "select")  # the ● control by Space: a press, a disc
    keys(browser, Keys.SPACE)
    wait(browser, "c4.state.moves.length > %d" % len(moves), 3, "a disc dropped by Space on ●")
    your_turn(browser)
    # and the erase goes through once confirmed: the flash is empty, the board starts anew
    wait(browser, "localStorage.getItem('c4.flash')", 5, "the game in progress kept")
    focus(browser, "erase")
    keys(browser, Keys.ENTER)
    assert alert(browser, accept=True)
    wait(browser, "c4.ready && c4.boot", 60)
    assert c4(browser, "c4.state.state") == "intro"  # a game kept on flash would go on at once


def test_escape_gives_the_focus_back_to_the_board_from_every_other_control(site, browser):
    """Was: Escape in a focused Build list kept the focus there (browser.md says it goes back)."""
    from selenium.webdriver.common.keys import Keys
    open_board(browser, site)
    browser.find_element("css selector", "#setup summary").click()
    others = c4(browser, "[...document.querySelectorAll('a[href],button,select,summary')].map(e => e.id || "
                         "e.parentElement.id + ' summary')")
    assert {"preset", "size", "wiring", "rotation", "erase", "playing", "left", "setup summary"} <= set(others)
    for name in others:
        browser.execute_script("const [id, tag] = arguments[0].split(' '); const el = document.getElementById(id);"
                               "(tag ? el.querySelector(tag) : el).focus()", name)
        assert c4(browser, "document.activeElement !== document.getElementById('board')"), name
        keys(browser, Keys.ESCAPE)
        assert c4(browser, "document.activeElement.id") == "board", name


def test_every_control_is_at_least_44_by_44_css_px_on_a_360_px_screen(site):
    """Was, at 360 px: the Build and Serial console summaries 22 px tall, the four Build lists
    22 px, Erase the flash 128 x 24, the How to play link 95 x 19."""
    from test_web_page_use import TAP, controls, small_targets
    with phone(360, 740) as narrow:
        open_board(narrow, site)
        for summary in narrow.find_elements("css selector", "summary"):
            summary.click()
        assert c4(narrow, "innerWidth") == 360 and c4(narrow, "document.documentElement.scrollWidth") <= 360
        assert controls(narrow) >= 3 + 4 + 1 + 2 + 1  # ◀ ● ▶, the lists, Erase, the summaries, the link
        assert small_targets(narrow) == [], "smaller than %d x %d px" % (TAP, TAP)


def test_without_the_isolation_headers_the_page_says_so_in_view_and_links_how_to_play(plain_site, browser):
    open_board(browser, plain_site)
    assert not c4(browser, "c4.shared")
    note = browser.find_element("id", "isolation")
    assert note.is_displayed() and "cross-origin isolation headers" in note.text
    assert c4(browser, "document.getElementById('isolation').closest('details') === null")
    link = browser.find_element("id", "playing")
    assert link.is_displayed() and link.get_attribute("href").endswith("/playing.html")
    link.click()
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, 10).until(lambda d: d.title.startswith("Playing"))
    assert browser.find_element("css selector", "h1").text == "Playing"
    assert c4(browser, "document.getElementById('the-menu') !== null")  # the contents' links land
    images = c4(browser, "[...document.images].map(i => [i.getAttribute('src'), i.complete && i.naturalWidth])")
    assert images and all(w for _, w in images), images


def test_a_press_during_a_level_8_search_plays_at_once(site_without_book, browser):
    open_board(browser, site_without_book)  # no book: the AI's first moves are searches too
    click(browser, "select")
    wait(browser, "c4.state.state && c4.state.state !== 'intro'", 5)
    choose_level(browser, 8)
    if state(browser) == "play":
        click(browser, "select")  # our move; then the AI's
    # the next search: pressed 100 ms after it began, as a player would (pointer events on the control)
    result = browser.execute_async_script("""
        const done = arguments[0];
        const n = c4.searches.length;
        let moves = null;
        const el = document.getElementById('select');
        const t = setInterval(() => {
          if (c4.state.state !== 'thinking') return;
          clearInterval(t);
          moves = c4.state.moves;
          setTimeout(() => {
            const pressed = performance.now();
            el.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, pointerId: 1}));
            setTimeout(() => el.dispatchEvent(new PointerEvent('pointerup', {bubbles: true, pointerId: 1})), 150);
            const w = setInterval(() => {
              if (c4.searches.length > n) {
                clearInterval(w);
                done([c4.searches[n], performance.now() - pressed, moves]);
              }
            }, 2);
          }, 100);
        }, 2);""")
    found, after_ms, moves = result
    print("press during a level-8 search: answered %.0f ms after the press, %s" % (after_ms, found))
    assert found["level"] == 8
    assert found["stopped"] == "poll", found  # the press stopped it: not its budget, not its depth
    assert found["nodes"] < levels.nodes(8)  # level 8's budget
    wait(browser, "c4.state.moves.length > %d" % len(moves), 5, "the AI's disc played")


def test_a_hint_on_the_empty_board_searches_within_the_top_levels_budget_and_says_what_it_cost(
        site, browser):
    """Was: a hint on the empty board printed no speed line (and took the page 9.7 s). The hint is
    the top level's search (connect4.app.turn.hint: its node budget and depth); the page says
    what it cost as it does for the AI's moves. Node counts only: the time is the machine's."""
    open_board(browser, site)
    click(browser, "select")
    wait(browser, "c4.state.state && c4.state.state !== 'intro'", 5)
    your_turn(browser)
    assert c4(browser, "c4.state.moves") == ""
    keys(browser, "h")
    found = wait(browser, "c4.searches.find(s => s.hint)", 60, "the hint's report")
    wait(browser, "c4.state.state === 'play'", 5, "the hint's column, blinking")
    top = levels.MAX_LEVEL
    assert found["level"] == top and found["kind"] == "search"
    assert 0 < found["nodes"] <= levels.nodes(top) + 1  # the budget: the node past it aborts
    assert found["stopped"] in ("", "nodes", "time"), found
    assert found["depth"] <= levels.depth(top)
    assert c4(browser, "c4.state.cursor") == found["move"]
    line = text(browser, "speed")
    assert line == found["words"] and line.startswith("The hint (level 8's search): column %d, %s nodes" % (
        found["move"] + 1, format(found["nodes"], ","))), line
    assert "the chip: about" in line
    assert c4(browser, "c4.state.moves") == ""  # the player still decides


def engine_commands():
    """Positions from every phase with tied root scores (the both-worlds set), a short run."""
    from test_same_in_both_worlds import commands
    return commands()[:60]


def test_the_pages_micropython_answers_engine_commands_as_host_sim_engine_does(site, browser):
    cmds = engine_commands()
    want = subprocess.run([sys.executable, "-m", "host_sim.engine", "--no-book"], cwd=ROOT,
                          input="\n".join(cmds + ["quit"]) + "\n", capture_output=True, text=True,
                          timeout=300).stdout.splitlines()
    open_board(browser, site)
    got = browser.execute_async_script("c4.engine(arguments[0]).then(arguments[1], e => arguments[1]('' + e))", cmds)
    assert isinstance(got, list), got
    assert sum(1 for line in want if line.startswith("bestmove")) >= 25
    assert got == want
