"""The page in a real headless browser (Debian's chromium + chromium-driver, driven by
selenium) on a 360 px phone screen: open, pair, play a column, see the disc on the page
and on the simulated matrix, change a setting, watch a demo move arrive by itself,
replay the recorded game; a phone-sized screenshot. Then what a new user meets: nothing
wider than the screen, a board gone and back, a replay shown as one, what needs pairing,
the Wi-Fi form asking before it forgets, plain words, drawn icons, the result from the
player's side, and the whole board played with the keyboard as a screen reader hears it.

Skipped, saying so, only when no browser is installed (`.ci/run` installs one).
"""
import contextlib
import os
import time

import pytest

from chromium import MISSING, phone
from webboard import WebBoard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCREENSHOT = os.path.join(ROOT, "build", "web-phone.png")
PHONE_WIDTH = 360

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


@pytest.fixture
def browser():
    with phone(PHONE_WIDTH, 740, flags=("--disable-quic",)) as driver:  # a 360 px phone
        yield driver


def page_moves(driver):
    return driver.find_element("id", "status").get_attribute("data-moves") or ""


def disc(driver, col, row):
    cell = driver.find_element("css selector", '.cell[data-col="%d"][data-row="%d"]' % (col, row))
    classes = cell.get_attribute("class").split()
    return "red" if "red" in classes else "yellow" if "yellow" in classes else None


def abandoned_games(driver):
    """The page's recorded-games items of abandoned games against the AI."""
    return [li for li in driver.find_elements("css selector", "#games li") if "vs AI: abandoned" in li.text]


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
        board.wait(lambda: "Red to play: pair this page" in browser.find_element("id", "status").text,
                   what="the page shows red (you) to play")  # not "Your turn": this page cannot play yet
        # a move before pairing is not sent, and the page says why
        browser.find_element("css selector", '.cell[data-col="4"][data-row="6"]').click()
        board.wait(lambda: "Pair this page" in browser.find_element("id", "msg").text, what="pair first")
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
        board.wait(lambda: len(page_moves(browser)) >= 2 and "demo" in browser.find_element("id", "kind").text,
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
        info = lambda: browser.find_element("id", "rlabel").text  # noqa: E731
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
        board.wait(lambda: not browser.find_element("id", "rbar").is_displayed(), what="back to the live board")
        board.wait(lambda: discs_on_page(browser) == len(page_moves(browser)), what="the live board again")
        assert browser.find_element("id", "msg").get_attribute("class") == "ok"  # no error said
        errors = [e for e in browser.get_log("browser") if e.get("source") == "javascript"]
        assert not errors, errors  # the page's own script never failed
        browser.execute_script("window.scrollTo(0, 0)")
        os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
        browser.save_screenshot(SCREENSHOT)



# ---------------------------------------------------------------- what a new user meets

FULL_DRAW = "442761225377252342545563474175371666631311"  # 42 discs, nobody wins


def status(driver):
    return driver.find_element("id", "status").text


def msg(driver):
    return driver.find_element("id", "msg").text


def rgb(driver, element_id):
    color = driver.execute_script(
        "return getComputedStyle(document.getElementById(arguments[0])).color", element_id)
    return tuple(int(v) for v in color[color.index("(") + 1:color.index(")")].split(",")[:3])


def pair_page(driver, board):
    driver.find_element("id", "code").send_keys(board.code)
    driver.find_element("id", "pair").click()
    board.wait(lambda: not driver.find_element("id", "pairbox").is_displayed(), what="paired")


def too_wide(driver):
    """Everything that reaches past the right edge of the screen (and the page's own width)."""
    return driver.execute_script(
        "const w=innerWidth;return [document.documentElement.scrollWidth>w?'page '+"
        "document.documentElement.scrollWidth:null].concat([...document.querySelectorAll('body *')]"
        ".filter(e=>e.getBoundingClientRect().right>w+0.5).map(e=>e.id||e.tagName)).filter(x=>x)")


def record(number, moves, mode="two", result="draw", first="red"):
    return {"number": number, "mode": mode, "first": first, "levels": [0, 0], "result": result,
            "hints": [0, 0], "moves": moves, "marks": "?" * len(moves)}


@contextlib.contextmanager
def replaying_game_7(browser, folder):
    """A two-player board whose records hold game 7 (red won), its page paired and that game's
    replay asked for: the board (a WebBoard) until the block ends."""
    games = [record(7, "4455667", result="red")]
    with WebBoard(folder, settings={"mode": "two", "first": "red"}, games=lambda: games) as board:
        board.wait(lambda: board.app.state == 1, what="a game in PLAY")
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
        board.wait(lambda: browser.find_elements("css selector", "#games li button"), what="the record")
        browser.find_element("css selector", "#games li button").click()
        yield board


def test_nothing_is_wider_than_a_360_px_phone_whatever_the_records_hold(browser, tmp_path):
    """Was: after a 42-disc game the page was 502 px wide: the record's moves did not wrap."""
    from connect4.engine.board import Board
    full = Board(FULL_DRAW)
    assert full.is_full() and not full.winner
    games = [record(n, FULL_DRAW) for n in range(100, 80, -1)]
    with WebBoard(str(tmp_path), settings={"mode": "two"}, games=lambda: games) as board:
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: len(browser.find_elements("css selector", "#games li")) == 20, what="the records")
        assert browser.execute_script("return innerWidth") == PHONE_WIDTH
        assert too_wide(browser) == []
        browser.find_element("css selector", "#games li button").click()
        board.wait(lambda: "42 of 42" in browser.find_element("id", "rlabel").text, what="the replay")
        assert too_wide(browser) == []


def test_a_board_gone_silent_is_said_within_5_s_and_the_page_comes_back_by_itself(browser, tmp_path):
    """Was: 8 s after the board went away the page still said "red to play: tap a column"."""
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red"}) as board:
        board.wait(lambda: board.app.state == 1, what="a game in PLAY")
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: "Red to play" in status(browser), what="the live page")
        board.paused = True  # off, or out of range: nothing answers, no connection is closed
        board.wait(lambda: "cannot be reached" in status(browser), seconds=5, what="the board gone, said")
        assert "Red to play" not in status(browser)
        board.paused = False
        auth = board.pair()  # another phone plays a move: this page shows it by itself
        assert board.request("POST", "/api/move", {"column": 2}, auth)[0] == 200
        board.wait(lambda: page_moves(browser) == "2" and "Yellow to play" in status(browser),
                   what="the page back by itself, live")


def test_a_replay_is_framed_and_labelled_with_its_controls_by_the_board_and_gives_way_to_a_move(
        browser, tmp_path):
    """Was: a replay drawn over the live game as if it were it, its controls far below."""
    with replaying_game_7(browser, str(tmp_path)) as board:
        label = browser.find_element("id", "rlabel")
        board.wait(lambda: "Replay of game 7" in label.text and "7 of 7" in label.text, what="labelled")
        frame = browser.find_element("id", "board")
        assert "rep" in frame.get_attribute("class").split()
        live_style = browser.execute_script(
            "const b=document.getElementById('board');b.classList.remove('rep');"
            "const s=getComputedStyle(b).borderColor+getComputedStyle(b).backgroundColor;"
            "b.classList.add('rep');return s")
        assert browser.execute_script(
            "const s=getComputedStyle(document.getElementById('board'));return s.borderColor+s.backgroundColor"
        ) != live_style  # a frame of its own
        bar = browser.find_element("id", "rbar")
        gap = bar.rect["y"] - (frame.rect["y"] + frame.rect["height"])
        assert 0 <= gap < 40 and label.rect["y"] < frame.rect["y"]  # label above, controls right below
        assert discs_on_page(browser) == 7
        # a move arrives in the live game (another phone): the live game is back, and why
        auth = board.pair()
        assert board.request("POST", "/api/move", {"column": 1}, auth)[0] == 200
        board.wait(lambda: "rep" not in frame.get_attribute("class").split(), what="the live game back")
        assert not label.is_displayed() and not bar.is_displayed()
        board.wait(lambda: discs_on_page(browser) == 1 and disc(browser, 1, 1) == "red", what="live")
        assert "live game" in msg(browser)


def test_an_unpaired_page_shows_what_needs_pairing_and_disables_it(browser, tmp_path):
    """Was: every control enabled, and the brightness slider moved, then snapped back."""
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red"}) as board:
        board.wait(lambda: board.app.state == 1, what="a game in PLAY")
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: "Red to play" in status(browser), what="the live page")
        box = browser.find_element("id", "pairbox")
        assert box.is_displayed() and "code" in box.text and "play" in box.text
        writes = ["brightness", "new", "mode", "ssid", "pw", "join"]
        assert not any(browser.find_element("id", w).is_enabled() for w in writes)
        columns = browser.find_elements("css selector", "#board button")
        assert len(columns) == 7 and all(c.get_attribute("aria-disabled") == "true" for c in columns)
        assert "pair" in status(browser).lower()
        pair_page(browser, board)
        assert all(browser.find_element("id", w).is_enabled() for w in writes)
        board.wait(lambda: all(c.get_attribute("aria-disabled") == "false" for c in columns),
                   what="the columns playable")


def test_saving_the_wifi_form_empty_asks_first_and_says_what_will_happen(browser, tmp_path):
    """Was: Save with empty fields erased the saved network without a word."""
    with WebBoard(str(tmp_path), settings={"mode": "two"}) as board:
        auth = board.pair()
        wifi = {"wifi": {"ssid": "HomeNet", "password": "secret-pass"}}
        assert board.request("POST", "/api/settings", wifi, auth)[0] == 200
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
        board.wait(lambda: "a network is set" in browser.find_element("id", "wifistate").text, what="set")
        browser.find_element("id", "join").click()
        alert = browser.switch_to.alert
        assert "Forget" in alert.text and "own network" in alert.text
        alert.dismiss()
        assert board.request("GET", "/api/settings")[1]["wifi"]["configured"] is True
        browser.find_element("id", "join").click()
        browser.switch_to.alert.accept()
        board.wait(lambda: board.request("GET", "/api/settings")[1]["wifi"]["configured"] is False,
                   what="forgotten")
        board.wait(lambda: "own network" in msg(browser), what="said")
        browser.find_element("id", "ssid").send_keys("CafeNet")
        browser.find_element("id", "join").click()  # a network to join: no question, saved, said
        board.wait(lambda: "CafeNet" in msg(browser) and "next time" in msg(browser), what="saved")
        assert board.request("GET", "/api/settings")[1]["wifi"]["configured"] is True


def test_messages_are_plain_words_and_success_looks_like_success(browser, tmp_path):
    """Was: "pair first: POST /api/pair ..." and "paired", both in the error colour."""
    with WebBoard(str(tmp_path), settings={"mode": "two"}) as board:
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: "to play" in status(browser), what="the live page")
        wrong = "%04d" % ((int(board.code) + 1) % 10000)
        browser.find_element("id", "code").send_keys(wrong)
        browser.find_element("id", "pair").click()
        board.wait(lambda: msg(browser), what="a message")
        bad = msg(browser)
        r, g, _ = rgb(browser, "msg")
        assert "code" in bad and r > g, (bad, r, g)
        browser.find_element("id", "code").clear()
        pair_page(browser, board)
        good = msg(browser)
        r, g, _ = rgb(browser, "msg")
        assert good.startswith("Paired") and g > r, (good, r, g)
        for text in (bad, good):
            assert not any(word in text for word in ("/api", "POST", "HTTP", "token", "401", "403")), text


def test_a_board_short_of_memory_is_said_on_the_page_and_then_no_more(browser, tmp_path):
    """The network's heap below its floor: the server turns new connections away (503), and
    the page, live on its stream, says the board is short of memory; then it is not."""
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red"}) as board:
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: "Red to play" in status(browser), what="the live page")
        assert "short of memory" not in status(browser)
        free = [1000]
        board.server.net_free = lambda: free[0]
        board.wait(lambda: "short of memory" in status(browser), seconds=5, what="said on the page")
        assert board.request("GET", "/api/state")[0] == 503
        free[0] = 10 ** 6
        board.wait(lambda: "short of memory" not in status(browser), seconds=5, what="no more")
        assert "Red to play" in status(browser)


def test_the_replay_icons_are_drawn_not_font_glyphs(browser, tmp_path):
    """Was: the start and end buttons were the characters U+23EE and U+23ED, empty boxes
    on a phone without that font. The discs' marks are drawn too."""
    with open(os.path.join(ROOT, "firmware", "connect4", "net", "page.html"), encoding="utf-8") as f:
        page = f.read()
    odd = sorted({ch for ch in page if ord(ch) > 0x2000 and ch not in "\u2026\u00b7"})
    assert odd == [], odd  # no symbol that needs a font of its own
    games = [record(7, "4455667", result="red")]
    with WebBoard(str(tmp_path), settings={"mode": "two"}, games=lambda: games) as board:
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: browser.find_elements("css selector", "#games li button"), what="the record")
        browser.find_element("css selector", "#games li button").click()
        for name in ("rfirst", "rprev", "rnext", "rlast"):
            button = browser.find_element("id", name)
            icon = button.find_element("tag name", "svg")
            assert button.text == "" and button.get_attribute("aria-label")
            assert icon.size["width"] >= 8 and icon.size["height"] >= 8, name


def test_the_result_is_said_from_the_players_side_against_the_ai(browser, tmp_path):
    """Was: "yellow wins" to the person who played red."""
    from connect4.app.game import MODE_AI
    with WebBoard(str(tmp_path), settings={"mode": "ai", "level": 1, "first": "red"}) as board:
        board.wait(lambda: board.app.state == 1 and not board.app.ai_to_move(), what="red to play")
        board.on_board(lambda app, now: app.board.load("171727"))  # yellow threatens column 7
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
        board.wait(lambda: page_moves(browser) == "171727", what="the position")
        browser.find_element("css selector", '.cell[data-col="3"][data-row="6"]').click()
        board.wait(lambda: board.app.board.winner, what="the AI wins")
        board.wait(lambda: "You lost" in status(browser), what="you lost")
        assert "yellow" not in status(browser).lower()

        def red_to_win(app, now):
            app.new_game(now, MODE_AI)
            app.board.load("112233")
        board.on_board(red_to_win)
        board.wait(lambda: page_moves(browser) == "112233", what="the next position")
        board.wait(lambda: "Your turn" in status(browser), what="your turn")
        browser.find_element("css selector", '.cell[data-col="4"][data-row="6"]').click()
        board.wait(lambda: "You won" in status(browser), what="you won")


def test_the_board_plays_with_the_keyboard_and_speaks_to_a_screen_reader(browser, tmp_path):
    """Was: cells without names or focus, moves never announced. Columns are buttons named
    "column 4, 6 free"; Tab and the arrow keys reach them, with a visible focus; Enter or
    Space plays; each move is said in a live region."""
    from selenium.webdriver.common.keys import Keys
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red"}) as board:
        board.wait(lambda: board.app.state == 1, what="a game in PLAY")
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
        browser.refresh()  # the page opened afresh, paired: Tab from its top
        board.wait(lambda: "Red to play" in status(browser), what="the live page")
        focused = None
        for _ in range(10):  # Tab from the top of the page to the first column
            browser.switch_to.active_element.send_keys(Keys.TAB)
            focused = browser.switch_to.active_element
            if (focused.get_attribute("aria-label") or "").startswith("column"):
                break
        assert focused.get_attribute("aria-label") == "column 1, 6 free"
        for _ in range(3):
            focused.send_keys(Keys.ARROW_RIGHT)
            focused = browser.switch_to.active_element
        assert focused.tag_name == "button" and focused.get_attribute("aria-label") == "column 4, 6 free"
        outline = browser.execute_script(
            "const s=getComputedStyle(document.activeElement);return [s.outlineStyle,s.outlineWidth]")
        assert outline[0] != "none" and float(outline[1].rstrip("px")) >= 2, outline
        live = browser.find_element("id", "status")
        assert live.get_attribute("aria-live") == "polite"
        focused.send_keys(Keys.ENTER)
        board.wait(lambda: board.app.board.moves_string() == "4", what="red in column 4")
        board.wait(lambda: "Red played column 4" in live.text, what="the move said")
        assert "Yellow to play" in live.text
        board.wait(lambda: browser.switch_to.active_element.get_attribute("aria-label") ==
                   "column 4, 5 free (from the bottom: red)", what="the column's new name")
        browser.switch_to.active_element.send_keys(Keys.SPACE)
        board.wait(lambda: board.app.board.moves_string() == "44", what="yellow in column 4")
        board.wait(lambda: "Yellow played column 4" in live.text, what="the second move said")


def test_the_page_draws_any_board_size_and_changes_it(browser, tmp_path):
    """An 8x7 board as the page opens (8 columns of 7 cells, the eighth playable, the
    matrix showing it), then a new 5x4 game from the page's board choice: redrawn."""
    from selenium.webdriver.support.ui import Select
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red", "size": "8x7"}) as board:
        board.wait(lambda: board.app.state == 1, what="a game in PLAY")
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: "8x7 board" in browser.find_element("id", "kind").text, what="the size said")
        assert len(browser.find_elements("css selector", ".col")) == 8
        assert len(browser.find_elements("css selector", ".cell")) == 56
        pair_page(browser, board)
        browser.find_element("css selector", '.cell[data-col="8"][data-row="7"]').click()
        board.wait(lambda: disc(browser, 8, 1) == "red", what="the red disc in column 8")
        board.wait(lambda: matrix_red(board, 8, 1), what="the red disc on the matrix")
        assert browser.find_elements("css selector", ".col")[7].get_attribute("aria-label") == \
            "column 8, 6 free (from the bottom: red)"
        sizes = Select(browser.find_element("id", "size"))
        assert [o.text for o in sizes.options][:2] == ["4x4", "4x5"] and sizes.first_selected_option.text == "8x7"
        Select(browser.find_element("id", "mode")).select_by_value("two")
        sizes.select_by_visible_text("5x4")
        browser.find_element("id", "new").click()
        board.wait(lambda: board.app.board.size == "5x4", what="a 5x4 game on the board")
        board.wait(lambda: len(browser.find_elements("css selector", ".cell")) == 20, what="5 x 4 cells on the page")
        assert "5x4 board" in browser.find_element("id", "kind").text
        board.wait(lambda: "8x7" in browser.find_element("id", "games").text, what="the 8x7 game left, listed")


# ---------------------------------------------------------------- a phone that stays paired (issue 32)

WATCH_STATUS = ("window.said=[];new MutationObserver(()=>said.push(document.getElementById('status').textContent))"
                ".observe(document.getElementById('status'),{childList:true,characterData:true,subtree:true})")


def said_since(driver):
    """Every text the status line has shown since WATCH_STATUS (or the last call)."""
    return driver.execute_script("const s=said;window.said=[];return s")


def restarted(board, flash, forget=False, driver=None):
    """The board turned off (its server gone: the page loses it) and on again on the same
    flash and port; `forget`: its paired phones forgotten while it was off; `driver`: off
    until that page says the board cannot be reached (the project's server is back within
    the page's 1 s retry, so a quick restart may go unseen)."""
    port = board.port
    board.__exit__(None, None, None)
    if forget:
        os.remove(os.path.join(flash, "paired.bin"))
    end = time.monotonic() + 30
    while driver is not None and "cannot be reached" not in status(driver):
        assert time.monotonic() < end, "the page never said the board was gone"
        time.sleep(0.05)
    return WebBoard(flash, port=port).__enter__()


def paired_against_level_1(browser, flash):
    """A board on `flash` against level 1, red (you) to play, and the page paired to it
    (entered: the caller exits it)."""
    board = WebBoard(flash, settings={"mode": "ai", "level": 1, "first": "red"}).__enter__()
    try:
        board.wait(lambda: board.app.state == 1 and not board.app.ai_to_move(), what="red to play")
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
    except BaseException:
        board.__exit__(None, None, None)
        raise
    return board


def test_a_paired_page_stays_paired_when_the_board_restarts(browser, tmp_path):
    """Was: after a restart the page said "Your turn" and its tap got "Pair this page first"."""
    flash = str(tmp_path)
    board = paired_against_level_1(browser, flash)
    try:
        browser.find_element("css selector", '.cell[data-col="4"][data-row="6"]').click()
        board.wait(lambda: len(page_moves(browser)) == 2 and "Your turn" in status(browser), what="the AI's reply")
        moves = page_moves(browser)
        board = restarted(board, flash)
        board.wait(lambda: "cannot be reached" not in status(browser) and "Your turn: choose a column" in
                   status(browser), seconds=30, what="the page back")
        assert page_moves(browser) == moves and not browser.find_element("id", "pairbox").is_displayed()
        browser.find_element("css selector", '.cell[data-col="3"][data-row="6"]').click()
        board.wait(lambda: board.app.board.moves_string().startswith(moves + "3"), what="the tap taken")
        assert "Pair" not in msg(browser)
    finally:
        board.__exit__(None, None, None)


def test_a_page_no_longer_paired_says_so_when_it_reconnects_never_your_turn(browser, tmp_path):
    flash = str(tmp_path)
    board = paired_against_level_1(browser, flash)
    try:
        board.wait(lambda: "Your turn: choose a column" in status(browser), what="your turn")
        browser.execute_script(WATCH_STATUS)
        board = restarted(board, flash, forget=True, driver=browser)
        board.wait(lambda: "no longer paired" in msg(browser), seconds=30, what="said at once")
        assert msg(browser) == "This page is no longer paired: enter the code on the board."
        assert browser.find_element("id", "pairbox").is_displayed()
        assert browser.execute_script("return localStorage.getItem('c4token')") is None
        board.wait(lambda: "Red to play: pair this page" in status(browser), what="the status")
        seen = said_since(browser)
        assert not any("Your turn" in s for s in seen), seen
        pair_page(browser, board)  # the code on the board now: playing again
        board.wait(lambda: "Your turn: choose a column" in status(browser), what="paired again")
    finally:
        board.__exit__(None, None, None)


def test_forget_paired_phones_from_the_page_and_a_live_page_hears_it(browser, tmp_path):
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red"}) as board:
        board.wait(lambda: board.app.state == 1, what="a game in PLAY")
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
        board.wait(lambda: "Red to play: choose a column" in status(browser), what="paired, live")
        # another phone forgets every phone: this page, live, hears it and says so
        other = board.pair()
        assert board.request("POST", "/api/forget", {}, other)[0] == 200
        board.wait(lambda: "no longer paired" in msg(browser), what="said without a reconnect")
        assert browser.find_element("id", "pairbox").is_displayed()
        assert "Red to play: pair this page" in status(browser)
        # this page forgets them all, itself too: asked first, then back to the pairing screen
        pair_page(browser, board)
        mine = browser.execute_script("return localStorage.getItem('c4token')")
        other = board.pair()
        browser.find_element("id", "forget").click()
        alert = browser.switch_to.alert
        assert "this one too" in alert.text
        alert.dismiss()
        assert board.request("GET", "/api/state", headers={"Authorization": "Bearer " + mine})[1]["paired"]
        browser.find_element("id", "forget").click()
        browser.switch_to.alert.accept()
        board.wait(lambda: browser.find_element("id", "pairbox").is_displayed(), what="the pairing screen")
        assert "Forgotten" in msg(browser) and rgb(browser, "msg")[1] > rgb(browser, "msg")[0]
        for token in ("Bearer " + mine, other["Authorization"]):
            assert board.request("GET", "/api/state", headers={"Authorization": token})[1]["paired"] is False
        assert browser.execute_script("return localStorage.getItem('c4token')") is None
