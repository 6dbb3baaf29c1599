"""The scrolling text (the address and pairing code on the matrix) and the menu's
Wi-Fi and phones items, on fake hardware: the board side of Wi-Fi short of the radio."""
from connect4.app.scroll import Scroller, STEP_MS, glyph
from connect4.app.glyphs import WHITE, GREEN
from connect4.app import menu as menu_mod
from connect4.app.game import MENU
from connect4.hw.input import SELECT, RIGHT, LEFT
from fakes import Rig


class Grid:
    def __init__(self, w=8, h=8):
        self.width, self.height = w, h
        self.cells = {}

    def clear(self):
        self.cells = {}

    def set(self, x, y, c):
        if 0 <= x < self.width and 0 <= y < self.height:
            self.cells[(x, y)] = c


def diff(a, b):
    return a - b


def test_text_enters_from_the_right_passes_and_ends():
    s = Scroller([("1.2", WHITE), (" 42", GREEN)], 0)
    assert s.text_width() == 6 * 4
    g = Grid()
    assert s.render(g, 0, diff) and g.cells == {}  # nothing in yet
    assert s.render(g, STEP_MS, diff) and set(x for x, y in g.cells) == {7}  # "1"'s first column
    seen_green = False
    t = 0
    while s.render(g, t, diff):
        seen_green = seen_green or GREEN in g.cells.values()
        assert all(0 <= y - 1 < 5 for x, y in g.cells)  # five rows, centred on 8
        t += STEP_MS
    assert seen_green and t == (8 + 24 + 1) * STEP_MS


def test_every_character_of_an_address_a_key_and_a_code_has_a_glyph():
    assert glyph("~") == bytes(5) and glyph("8") == bytes((7, 5, 7, 5, 7)) and glyph("W") == bytes((5, 5, 7, 7, 5))
    from connect4.net.netconf import ALPHABET
    for ch in "0123456789." + ALPHABET + " CODE KEY WIFI NO-:/":
        assert ch == " " or glyph(ch) != bytes(5), ch


def menu_at(item):
    """A menu turned to `item`."""
    m = menu_mod.Menu({"mode": "ai", "level": 1, "first": "red", "blunder": -1, "brightness": 4},
                      {"ai": [[0, 0, 0]] * 8, "two": [0, 0, 0]})
    for _ in range(menu_mod.ITEMS.index(item)):
        m.event(RIGHT)
    return m


def lit(m, colour):
    """How many LEDs the menu lights in `colour`."""
    d = Grid()
    m.render(d, 0)
    return sum(1 for c in d.cells.values() if c == colour)


def test_the_menus_wifi_item_toggles_and_reports_it():
    m = menu_at("wifi")
    assert m.event(SELECT) == 0 and m.editing
    assert m.event(RIGHT) == 0 and m.wifi_on
    assert m.event(SELECT) == menu_mod.WIFI and m.wifi_on and m.changed == []  # never saved


def test_the_menus_wifi_item_turns_to_a_computer_and_back():
    """Issue 39: the third value, "set up from a computer" (the LEDs draw a computer in cyan);
    confirmed, the menu says USB, Wi-Fi to be off (the board listens with Wi-Fi off); a turn
    either way from where it was gives the other of on and off, or the computer."""
    from connect4.app.glyphs import CYAN
    m = menu_at("wifi")

    def cyans():
        return lit(m, CYAN)
    m.event(SELECT)
    assert cyans() == 0
    m.event(RIGHT)
    m.event(RIGHT)
    assert m.wifi_pick == 2 and not m.wifi_on and cyans() >= 12
    assert m.event(SELECT) == menu_mod.USB and not m.wifi_on and m.wifi_pick == 0
    m.event(SELECT)
    m.event(LEFT)  # the other way round: the computer first
    assert m.wifi_pick == 2 and not m.wifi_on
    m.event(LEFT)
    assert m.wifi_pick == 1 and m.wifi_on
    m.event(LEFT)
    assert m.wifi_pick == 0 and not m.wifi_on and cyans() == 0
    assert m.event(SELECT) == menu_mod.WIFI and not m.wifi_on


def test_the_menus_phones_item_forgets_only_when_turned_to_forget_and_confirmed():
    """Issue 32: "forget paired phones" on the board: a press and a press do nothing; a press,
    a turn (the phone crossed out in red) and a press do, once."""
    from connect4.app.glyphs import RED
    m = menu_at("phones")

    def reds():
        return lit(m, RED)
    assert m.event(SELECT) == 0 and m.editing and reds() == 0
    assert m.event(SELECT) == 0 and not m.editing  # confirmed as it was: kept
    assert m.event(SELECT) == 0 and m.event(RIGHT) == 0 and m.forget and reds() >= 8
    assert m.event(LEFT) == 0 and not m.forget and reds() == 0  # turned back: kept
    m.event(RIGHT)
    assert m.event(SELECT) == menu_mod.FORGET and not m.forget and not m.editing
    assert reds() == 0 and m.changed == []  # no setting: nothing saved
    m.event(SELECT)
    m.event(RIGHT)
    m = menu_mod.Menu(m.settings, m.stats)  # the menu left and opened again (a new one): nothing pending
    assert not m.forget


def test_a_banner_shows_over_the_game_and_any_input_ends_it():
    rig = Rig("scroll1")
    rig.run_for(1600)
    app = rig.app
    app.banner = Scroller([("192.168.4.1", WHITE)], rig.clock.ticks_ms())
    rig.run_for(STEP_MS * 10)
    lit = [(x, y) for x in range(8) for y in range(8) if max(rig.pixel(x, y)) > 0]
    assert lit and all(1 <= y <= 5 for x, y in lit) and app.banner is not None
    count = app.board.count
    rig.press()
    assert app.banner is None and app.board.count == count  # the press only ended the text
    rig.long_press()
    assert app.state == MENU
