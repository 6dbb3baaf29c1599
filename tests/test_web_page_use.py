"""The phone page in headless Chromium on a 360 px screen, as a hand and an eye use it
(issue 32, items 4-6): every control big enough to tap on every screen the page has,
messages that go when they stop being true, Enter to pair and the focus on the board
afterwards, a clean console, "no games yet" rather than empty boxes; and (issue 40) a tap
while the board's menu is open saying so, the Wi-Fi password in a form saved by Enter.

Skipped, saying so, only when no browser is installed (`.ci/run` installs one).
"""
import pytest

from chromium import MISSING, phone
from test_web_browser import PHONE_WIDTH, msg, pair_page, record, replaying_game_7, status
from webboard import WebBoard

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

TAP = 44  # CSS px, WCAG 2.5.5 (target size, enhanced)
CONTROLS = ("button,select,input:not([type=hidden]),textarea,a[href],summary,[role=button],"
            "[tabindex]:not([tabindex='-1'])")


@pytest.fixture
def browser():
    with phone(PHONE_WIDTH, 740, flags=("--disable-quic",), log=True) as driver:
        yield driver


def small_targets(driver):
    """Every visible control smaller than TAP x TAP: [name, width, height]."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(e=>e.getClientRects().length&&"
        "getComputedStyle(e).visibility!='hidden').map(e=>{const r=e.getBoundingClientRect();"
        "return [e.id||e.getAttribute('aria-label')||e.textContent.trim().slice(0,20)||e.tagName,"
        "Math.round(r.width*10)/10,Math.round(r.height*10)/10]}).filter(x=>x[1]<arguments[1]||x[2]<arguments[1])",
        CONTROLS, TAP)


def controls(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(e=>e.getClientRects().length).length",
        CONTROLS)


def test_every_control_on_every_screen_is_at_least_44_by_44_css_px(browser, tmp_path):
    """Was, at 360 px: selects 21 px tall, the code, SSID and password fields 24 px, the
    buttons 32 px, the replay controls 46 x 32, the brightness slider 16 px, the board's
    columns 43.7 px wide (7 of them; 8 on an 8x7 board)."""
    games = [record(7, "4455667", result="red")]
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red", "size": "8x7"},
                  games=lambda: games) as board:
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: "8x7 board" in browser.find_element("id", "kind").text, what="the live page")
        board.wait(lambda: browser.find_elements("css selector", "#games li button"), what="the record")
        assert browser.execute_script("return innerWidth") == PHONE_WIDTH
        seen = {}
        # the pairing screen: the code and its button; the settings and Wi-Fi, greyed out
        assert browser.find_element("id", "pairbox").is_displayed()
        seen["pairing"] = (controls(browser), small_targets(browser))
        # paired: the game (8 columns), new game, brightness, records, Wi-Fi
        pair_page(browser, board)
        seen["paired, 8x7"] = (controls(browser), small_targets(browser))
        # a replay of a 7x6 record: its controls under the board
        browser.find_element("css selector", "#games li button").click()
        board.wait(lambda: browser.find_element("id", "rbar").is_displayed(), what="the replay")
        seen["replay"] = (controls(browser), small_targets(browser))
        browser.find_element("id", "rlive").click()
        board.wait(lambda: not browser.find_element("id", "rbar").is_displayed(), what="the live game")
        # the default 7x6 board
        auth = board.pair()
        assert board.request("POST", "/api/new", {"mode": "two", "size": "7x6"}, auth)[0] == 200
        board.wait(lambda: len(browser.find_elements("css selector", ".col")) == 7, what="7 columns")
        seen["paired, 7x6"] = (controls(browser), small_targets(browser))
        # every screen had controls to measure (columns, the pairing box, the replay bar ...)
        assert seen["pairing"][0] >= 7 + 2 + 8 and seen["replay"][0] > seen["paired, 8x7"][0] - 2
        assert {name: small for name, (_, small) in seen.items() if small} == {}


def test_the_replay_message_goes_when_the_replay_does(browser, tmp_path):
    """Was: "This is a replay: go back to the live game to play." stayed after going back."""
    with replaying_game_7(browser, str(tmp_path)) as board:
        board.wait(lambda: browser.find_element("id", "rbar").is_displayed(), what="the replay")
        browser.find_element("css selector", '.cell[data-col="1"][data-row="1"]').click()
        board.wait(lambda: "This is a replay" in msg(browser), what="the replay said")
        browser.find_element("id", "rnext").click()  # still a replay: still said
        assert "This is a replay" in msg(browser)
        browser.find_element("id", "rlive").click()
        board.wait(lambda: not browser.find_element("id", "rbar").is_displayed(), what="the live game")
        assert msg(browser) == ""
        assert board.app.board.moves_string() == ""


def test_a_full_column_is_said_until_it_is_no_longer_full(browser, tmp_path):
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red"}) as board:
        board.wait(lambda: board.app.state == 1, what="a game in PLAY")
        board.on_board(lambda app, now: app.board.load("111111"))
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
        board.wait(lambda: "Red to play" in status(browser), what="the live page")
        browser.find_element("css selector", '.cell[data-col="1"][data-row="6"]').click()
        board.wait(lambda: msg(browser) == "Column 1 is full.", what="the full column said")
        browser.find_element("css selector", '.cell[data-col="2"][data-row="6"]').click()
        board.wait(lambda: "Red played column 2. Yellow to play" in status(browser), what="column 2 played")
        assert msg(browser) == ""  # a move tried anew: the old refusal goes
        browser.find_element("css selector", '.cell[data-col="1"][data-row="6"]').click()
        board.wait(lambda: msg(browser) == "Column 1 is full.", what="said again")
        auth = board.pair()
        assert board.request("POST", "/api/new", {"mode": "two"}, auth)[0] == 200
        board.wait(lambda: msg(browser) != "Column 1 is full.", what="the empty column 1")
        assert msg(browser) in ("", "New game started.")


def test_the_board_cannot_be_reached_goes_once_it_is_reached_again(browser, tmp_path):
    """Was: "The board cannot be reached." stayed after the page had reconnected, both when
    a move's request failed and when a column was tapped while the board was gone."""
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red"}) as board:
        board.wait(lambda: board.app.state == 1, what="a game in PLAY")
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
        board.wait(lambda: "Red to play" in status(browser), what="the live page")
        # gone while a move is sent: the request fails (after 4 s)
        board.paused = True
        browser.find_element("css selector", '.cell[data-col="3"][data-row="6"]').click()
        board.wait(lambda: msg(browser) == "The board cannot be reached.", seconds=10, what="the move failed")
        board.paused = False
        board.wait(lambda: "cannot be reached" not in status(browser), seconds=10, what="back")
        board.wait(lambda: msg(browser) == "", seconds=5, what="the message gone")
        # gone, said, then a column tapped: refused at once
        board.paused = True
        board.wait(lambda: "cannot be reached" in status(browser), seconds=10, what="gone, said")
        browser.find_element("css selector", '.cell[data-col="4"][data-row="6"]').click()
        board.wait(lambda: msg(browser) == "The board cannot be reached.", what="refused")
        board.paused = False
        board.wait(lambda: "cannot be reached" not in status(browser), seconds=10, what="back again")
        board.wait(lambda: msg(browser) == "", seconds=5, what="the message gone again")


def test_enter_pairs_the_focus_goes_to_the_board_and_the_console_is_clean(browser, tmp_path):
    """Was: Enter in the code field did nothing, the focus was lost when the pairing box
    went, and the console showed an error on load (the favicon's 404)."""
    from selenium.webdriver.common.keys import Keys
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red"}) as board:
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: "Red to play" in status(browser), what="the live page")
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
        browser.find_element("id", "code").send_keys(board.code + Keys.ENTER)
        board.wait(lambda: not browser.find_element("id", "pairbox").is_displayed(), what="paired by Enter")
        assert msg(browser).startswith("Paired")
        assert browser.switch_to.active_element.get_attribute("aria-label") == "column 1, 6 free"
        browser.switch_to.active_element.send_keys(Keys.ENTER)  # so a keyboard plays at once
        board.wait(lambda: board.app.board.moves_string() == "1", what="column 1 played")
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_no_games_yet_is_said_then_the_games_are_shown(browser, tmp_path):
    """Was: an empty "Recorded games" box, a statistics table of its header alone, and
    "two players: red 0, yellow 0, draws 0"."""
    from connect4.app.game import MODE_AI
    with WebBoard(str(tmp_path), settings={"mode": "ai", "level": 1, "first": "red"}) as board:
        board.wait(lambda: board.app.state == 1 and not board.app.ai_to_move(), what="red to play")
        browser.get("http://127.0.0.1:%d/" % board.port)
        board.wait(lambda: browser.find_element("id", "gamesbox").is_displayed(), what="the records box")
        stats = browser.find_element("id", "stats").find_element("xpath", "..")
        board.wait(lambda: "no games yet" in stats.text, what="no statistics said")
        assert browser.find_elements("css selector", "#stats th") == []
        assert "two players: no games yet" in stats.text
        assert "no games yet" in browser.find_element("id", "gamesbox").text
        indent = browser.execute_script(  # where each text begins
            "const x=id=>{const r=document.createRange();r.selectNodeContents(document.getElementById(id));"
            "return r.getBoundingClientRect().x};return x('games')-x('stats')")
        assert abs(indent) < 1  # said as the statistics are, not where a list's items would be
        pair_page(browser, board)

        def red_to_win(app, now):
            app.new_game(now, MODE_AI)
            app.board.load("112233")
        board.on_board(red_to_win)
        board.wait(lambda: "Your turn" in status(browser) and
                   browser.find_element("id", "status").get_attribute("data-moves") == "112233",
                   what="red to win")
        browser.find_element("css selector", '.cell[data-col="4"][data-row="6"]').click()
        board.wait(lambda: "You won" in status(browser), what="you won")
        board.wait(lambda: browser.find_elements("css selector", "#stats th"), what="the statistics table")
        assert "no games yet" in stats.text  # two players: none yet
        cells = [td.text for td in browser.find_elements("css selector", "#stats td")]
        assert cells == ["1", "1", "0", "0"]  # level 1: won 1
        board.wait(lambda: browser.find_elements("css selector", "#games li"), what="the game listed")
        assert "no games yet" not in browser.find_element("id", "gamesbox").text


def test_a_column_tapped_while_the_boards_menu_is_open_says_so_not_that_it_is_not_your_turn(browser, tmp_path):
    """Was: "Wait: it is not your turn." on red's turn with the menu open on the board (and
    with a recorded game replayed from it)."""
    from connect4.app import replay
    from connect4.app.game import MENU, PLAY, REPLAY
    from connect4.app.menu import close as close_menu
    from connect4.app.records import Record

    def menu(app, now):  # as a long press opens it (an input: the board is not idle)
        app.last_input = now
        app.open_menu(now, PLAY)

    def replay_from_menu(app, now):
        menu(app, now)
        app.replay = replay.start(Record("two", 0, (0, 0), 0, (0, 0), "4455667", "?" * 7, 1), now, app.layout)
        app._go(REPLAY, now)
    with WebBoard(str(tmp_path), settings={"mode": "two", "first": "red"}) as board:
        board.wait(lambda: board.app.state == PLAY, what="a game in PLAY")
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
        board.wait(lambda: "Red to play" in status(browser), what="red to play")
        for open_it, said in ((menu, "The menu is open on the board"),
                              (replay_from_menu, "The board is replaying a recorded game from its menu")):
            board.on_board(open_it)
            board.wait(lambda: status(browser) == said + ".", what=said)
            browser.find_element("css selector", '.cell[data-col="4"][data-row="6"]').click()
            board.wait(lambda: msg(browser) == said + ": close it there to play.", what="the tap answered")
            board.on_board(lambda app, now: app._go(MENU, now) if app.state == REPLAY else None)
            board.on_board(close_menu)
            board.wait(lambda: "Red to play" in status(browser), what="the menu closed")
            assert msg(browser) == ""  # no longer true: gone
        browser.find_element("css selector", '.cell[data-col="4"][data-row="6"]').click()
        board.wait(lambda: board.app.board.moves_string() == "4", what="column 4 played")


def test_the_wifi_password_is_in_a_form_that_saves_by_enter_without_reloading_the_page(browser, tmp_path):
    """Was: Chrome's console said "Password field is not contained in a form"; and "no
    network set: the board makes its own", unfinished."""
    from selenium.webdriver.common.keys import Keys
    with WebBoard(str(tmp_path), settings={"mode": "two"}) as board:
        browser.get("http://127.0.0.1:%d/" % board.port)
        pair_page(browser, board)
        state = browser.find_element("id", "wifistate")
        board.wait(lambda: state.text, what="the Wi-Fi state")
        assert state.text == "no network set: the board makes its own access point"
        assert browser.execute_script("return document.getElementById('pw').form === "
                                      "document.getElementById('ssid').form && !!document.getElementById('pw').form")
        browser.execute_script("window.kept = 1")  # gone if the page reloads
        browser.find_element("id", "ssid").send_keys("HomeNet")
        browser.find_element("id", "pw").send_keys("secret-pass" + Keys.ENTER)
        board.wait(lambda: "HomeNet" in msg(browser), what="saved by Enter")
        assert board.request("GET", "/api/settings")[1]["wifi"]["configured"] is True
        assert browser.execute_script("return window.kept") == 1
        assert browser.find_element("id", "pw").get_attribute("value") == ""
        board.wait(lambda: state.text == "a network is set", what="said set")
        assert browser.execute_script("return window.kept") == 1
        dom = [e["message"] for e in browser.get_log("browser") if "[DOM]" in e["message"]]
        assert dom == []
