"""The game app on fake hardware: scripted input, asserting pixels and state."""
from connect4.app.game import PLAY, THINK, CHOSEN, HELD, DROP, OVER, MENU, MODE_AI, MODE_TWO, MODE_DEMO
from connect4.app.store import Store
from connect4.app.storeload import load
from connect4.app.menu import ITEMS
from connect4.engine import levels
from connect4.engine.search import STOP_POLL, STOP_TIME
from fakes import Rig, hue, assert_board_shown

AI_TURN = (THINK, CHOSEN, HELD)  # the AI searches, or shows the move it chose


def board_hues(rig):
    """Hues of the 7x6 board cells, top row first, as the matrix shows them."""
    lay = rig.app.layout
    return [[hue(rig.pixel(c, lay.cell_y(r))) for c in range(7)] for r in range(5, -1, -1)]


def human_turn(rig):
    return rig.app.state == PLAY and not rig.app.ai_to_move()


def play(rig, col):
    """The human moves the cursor to `col` and drops."""
    rig.turn(col - rig.app.cursor)
    assert rig.app.cursor == col, (rig.app.cursor, col)
    rig.press()


def start(rig, mode="ai", level=1, first="red"):
    rig.store.settings.update({"mode": mode, "level": level, "first": first})
    rig.run_for(1600)  # the power-on animation
    assert rig.app.state == PLAY or rig.app.state in AI_TURN, rig.app.state


def test_power_on_then_the_layout_of_a_new_game():
    rig = Rig("game1")
    rig.run_for(200)
    assert rig.app.state == 0 and rig.strip.writes > 0  # the intro plays
    start(rig)
    assert hue(rig.pixel(3, 0)) == "red"  # your disc hovers over the centre
    assert [hue(rig.pixel(x, 1)) for x in range(7)] == ["blue"] * 7  # the frame
    assert hue(rig.pixel(7, 0)) == "red" and hue(rig.pixel(7, 1)) == "green"  # turn, mode
    assert all(hue(rig.pixel(7, y)) == "blue" for y in range(2, 8))
    assert board_hues(rig) == [["off"] * 7] * 6
    rig.turn(2)
    assert rig.app.cursor == 5 and hue(rig.pixel(5, 0)) == "red" and hue(rig.pixel(3, 0)) == "off"
    rig.turn(-9)
    assert rig.app.cursor == 0


def test_a_full_game_against_the_ai():
    rig = Rig("game2")
    start(rig, level=1)
    moves = 0
    while rig.app.state != OVER:
        rig.run_until(lambda: human_turn(rig) or rig.app.state == OVER, 20000)
        if rig.app.state == OVER:
            break
        assert_board_shown(rig.app, rig.pixel)
        count = rig.app.board.count
        col = rig.app.cursor if rig.app.board.can_play(rig.app.cursor) else rig.app.board.legal_moves()[0]
        play(rig, col)
        moves += 1
        assert rig.app.board.count == count + 1 and rig.app.board.history[count] == col
        assert moves < 30
    assert len(rig.games) == 1 and rig.games[0]["mode"] == "vs AI"
    w, l, d = rig.store.stats["ai"][0]
    assert w + l + d == 1
    assert load(Store(rig.path)) == "ok"  # saved after the game
    rig.press()  # the next game; "first" is red: you start again
    assert rig.app.state == PLAY and rig.app.board.count == 0 and human_turn(rig)


def test_a_two_player_game_and_the_winning_blink():
    rig = Rig("game3")
    start(rig, mode="two", first="alternate")
    for col in (0, 1, 0, 1, 0, 1):
        play(rig, col)
        rig.run_until(lambda: rig.app.state == PLAY)
    assert hue(rig.pixel(1, 0)) == "red"  # red's turn again, over the last column
    play(rig, 0)
    rig.run_until(lambda: rig.app.state == OVER)
    assert rig.games[-1]["winner"] == 0 and rig.store.stats["two"] == [1, 0, 0]
    seen = set()
    for _ in range(15):
        rig.run_for(40)
        seen.add(hue(rig.pixel(0, 7)))
        assert max(rig.pixel(1, 7)) < max(rig.pixel(0, 4)) or hue(rig.pixel(0, 4)) == "off"
    assert seen == {"red", "off"}  # the winning four blink; the other discs stay dim
    assert hue(rig.pixel(1, 7)) == "yellow"
    rig.press()
    assert rig.app.state == PLAY and rig.app.first_side == 1  # alternate: yellow starts


def test_the_menu_changes_settings_and_saves_them():
    rig = Rig("game4")
    start(rig)
    rig.long_press()
    assert rig.app.state == MENU
    assert hue(rig.pixel(0, 0)) == "other"  # the first item's dot (white)
    rig.turn(ITEMS.index("level"))
    rig.press()
    rig.turn(2)
    rig.press()
    assert rig.store.settings["level"] == 3
    rig.turn(3)  # brightness
    rig.press()
    before = rig.display.brightness
    rig.turn(2)
    assert rig.display.brightness > before  # applied at once
    rig.press()
    rig.turn(ITEMS.index("back") - ITEMS.index("brightness"))
    rig.press()
    assert rig.app.state == PLAY and rig.app.board.count == 0
    saved = Store(rig.path)
    assert load(saved) == "ok"
    assert saved.settings["level"] == 3 and saved.settings["brightness"] == 6


def open_stats(rig):
    """From a game: the menu (long press), its stats item, and in."""
    rig.long_press()
    rig.turn(ITEMS.index("stats") - len(ITEMS))  # stats (items wrap around)
    rig.press()


def green_digits(rig):
    """The lit green cells of the number area (rows 3..7)."""
    return [(x, y) for y in range(3, 8) for x in range(8) if hue(rig.pixel(x, y)) == "green"]


def shown(rig):
    """(page, kind, number) the statistics page shows: kind 0 wins, 1 losses, 2 draws."""
    from connect4.app import stats
    kind, value = stats.shown(rig.app.menu)
    return rig.app.menu.page, kind, value


def test_stats_pages_in_the_menu():
    rig = Rig("game5")
    rig.store.stats["ai"][0] = [12, 3, 0]
    rig.store.stats["ai"][1] = [0, 0, 7]
    rig.store.stats["two"] = [2, 5, 1]
    start(rig, level=1)
    open_stats(rig)
    assert rig.app.menu.page == 0  # the current level's page
    assert shown(rig) == (0, 0, 12)  # level 1 wins
    assert len(green_digits(rig)) == 8 + 11  # the digits "1" and "2" of the 3x5 font
    rig.run_for(1500)
    assert shown(rig) == (0, 1, 3)
    rig.turn(1)
    rig.run_for(3000)
    assert shown(rig) == (1, 2, 7)
    rig.turn(-3)  # back past the last page (hints)
    assert shown(rig) == (8, 0, 2)  # two players: red wins
    assert hue(rig.pixel(0, 0)) == "red" and hue(rig.pixel(1, 0)) == "yellow"
    rig.press()
    assert rig.app.menu.page == -1
    rig.long_press()
    assert rig.app.state == PLAY


def stats_digits(wins):
    """The green digits the stats page shows for `wins` level-1 wins."""
    rig = Rig("game5b")
    rig.store.stats["ai"][0] = [wins, 0, 0]
    start(rig, level=1)
    open_stats(rig)
    assert shown(rig) == (0, 0, wins)  # the true count is kept
    return green_digits(rig)


def test_stats_above_99_show_as_99_on_the_matrix():
    nines = stats_digits(99)
    assert stats_digits(250) == nines and stats_digits(100) == nines
    assert stats_digits(98) != nines


def test_demo_runs_until_any_input_and_leaves_to_the_menu():
    rig = Rig("game6")
    start(rig, mode="demo")
    assert rig.app.mode == MODE_DEMO
    a, b = rig.app.demo_levels
    assert a != b and 1 <= a <= 8 and 1 <= b <= 8
    rig.run_until(lambda: rig.app.board.count >= 3, 30000)
    assert hue(rig.pixel(7, 1)) in ("other", "off")  # magenta mode pixel (or mid-pulse)
    rig.press()
    rig.run_until(lambda: rig.app.state == MENU, 5000)
    assert rig.games == []
    rig.long_press()  # the mode is still demo: it starts again
    assert rig.app.mode == MODE_DEMO


def test_demo_after_idle_and_back_to_the_game():
    rig = Rig("game7", cfg={"demo_idle_ms": 5000, "idle_dim_ms": 0})
    start(rig, mode="two")
    rig.run_for(8000)
    assert rig.app.mode == MODE_TWO  # not during a game (demo_idle_game_ms = 0)
    rig.long_press()
    rig.run_for(5500)  # idle in the menu
    assert rig.app.mode == MODE_DEMO and rig.app.state != MENU
    rig.turn(1)
    rig.run_for(100)
    assert rig.app.mode == MODE_TWO and rig.app.state == PLAY and rig.app.board.count == 0


def test_a_press_during_the_search_makes_the_ai_move_now():
    rig = Rig("game8")  # the search is paced like the chip: 10,600 nodes/s
    start(rig, level=8)
    play(rig, 3)
    rig.run_until(lambda: rig.app.state == THINK)
    # the search blocks the loop: the press lands 300 ms into it
    rig.clock.at(300, rig.select, 0)
    rig.clock.at(380, rig.select, 1)
    rig.run_until(lambda: rig.app.board.count == 2, 5000)
    r = rig.app.turn.last_search
    assert r.stopped == STOP_POLL
    # stopped within one poll interval (24 ms of chip time) of the press
    assert 280 * 10600 // 1000 < r.nodes < 330 * 10600 // 1000, r
    assert rig.app.board.history[1] == r.move


def test_a_long_press_during_the_search_abandons_it_for_the_menu():
    rig = Rig("game9")
    start(rig, level=8)
    play(rig, 3)
    rig.run_until(lambda: rig.app.state == THINK)
    rig.clock.at(200, rig.select, 0)
    rig.clock.at(1300, rig.select, 1)
    rig.run_until(lambda: rig.app.state == MENU, 5000)
    assert rig.app.board.count == 1  # the AI did not move
    rig.run_for(400)  # the button is released
    rig.long_press()
    assert rig.app.state == PLAY or rig.app.state in AI_TURN
    rig.run_until(lambda: rig.app.board.count == 2, 10000)  # it thinks again and moves


def states_until(rig, cond, limit=20000):
    """The states the app passes through (each once per visit) until cond() holds."""
    seen = [rig.app.state]
    end = rig.clock.elapsed + limit
    while not cond():
        assert rig.clock.elapsed < end, seen
        rig.app.step()
        rig.clock.sleep_ms(2)
        if rig.app.state != seen[-1]:
            seen.append(rig.app.state)
    return seen


def test_the_ai_turn_state_by_state():
    """THINK shows the AI's disc in one frame before the search blocks; CHOSEN waits out the
    minimum think time; a press during the search goes through HELD."""
    rig = Rig("game13")
    start(rig, level=8)
    disc = []

    def choose(board, **kw):  # what the matrix shows as the search starts
        disc.append(hue(rig.pixel(3, 0)))
        return real(board, **kw)
    real = rig.app.ai.choose
    rig.app.ai.choose = choose
    play(rig, 3)
    assert states_until(rig, lambda: rig.app.board.count == 2) == [DROP, PLAY, THINK, CHOSEN, DROP]
    assert disc == ["yellow"]
    rig.run_until(lambda: human_turn(rig))
    play(rig, 0)
    rig.run_until(lambda: rig.app.state == THINK)
    rig.clock.at(100, rig.select, 0)
    rig.clock.at(180, rig.select, 1)
    assert states_until(rig, lambda: rig.app.board.count == 4) == [THINK, HELD, DROP]


def test_idle_dims_and_the_first_input_only_wakes():
    rig = Rig("game10", cfg={"idle_dim_ms": 3000})
    start(rig)
    bright = rig.display.brightness
    rig.run_for(3200)
    assert rig.app.dimmed and rig.display.brightness < bright
    rig.press()
    assert not rig.app.dimmed and rig.display.brightness == bright
    assert rig.app.board.count == 0  # woken, nothing dropped
    rig.press()
    assert rig.app.board.count == 1


def test_a_bare_7x6_strip_blinks_the_landing_cell():
    rig = Rig("game11", width=7, height=6)
    start(rig, mode="two")
    seen = set()
    for _ in range(12):
        rig.run_for(50)
        seen.add(hue(rig.pixel(3, 5)))
    assert seen == {"red", "off"}
    play(rig, 3)
    rig.run_until(lambda: rig.app.state == PLAY)
    assert hue(rig.pixel(3, 5)) == "red"
    seen = set()
    for _ in range(12):
        rig.run_for(50)
        seen.add(hue(rig.pixel(3, 4)))
    assert seen == {"yellow", "off"}


def test_three_buttons_play_the_same_game():
    rig = Rig("game12", buttons=True)
    start(rig, mode="two")
    play(rig, 6)
    rig.run_until(lambda: rig.app.state == PLAY)
    play(rig, 0)
    rig.run_until(lambda: rig.app.state == PLAY)
    assert rig.app.board.moves_string() == "71"
    assert_board_shown(rig.app, rig.pixel)


class ScriptedRng:
    """An Rng whose draws are given: below(n) returns the next one (mod n), then 0s."""

    def __init__(self, draws):
        self.draws = list(draws)

    def below(self, n):
        return (self.draws.pop(0) if self.draws else 0) % n


def test_demo_pairs_never_repeat_the_last_order():
    # the first draws give the last pair again: it is drawn anew
    assert levels.demo_pair(ScriptedRng([6, 6, 6, 6, 2, 0]), (7, 8)) == (3, 1)
    assert levels.demo_pair(ScriptedRng([6, 6]), (8, 7)) == (7, 8)


def test_consecutive_demo_games_never_repeat_the_levels_in_move_order():
    # levels 1 and 2 by side, then 2 and 1 by side: with the colours swapped
    # (first mover alternates) the same level would move first again
    rig = Rig("demo_vary")
    rig.app.rng = ScriptedRng([0, 0, 1, 0, 5, 5, 6, 6])
    start(rig, mode="demo")
    rig.run_until(lambda: len(rig.games) >= 2, 600000)
    orders = []
    for g in rig.games:
        by_side = g["levels"]
        orders.append((by_side[g["first"]], by_side[1 - g["first"]]))
    assert orders[0] != orders[1], orders


def test_the_time_cap_stops_the_apps_search_on_its_clock():
    rig = Rig("timecap", cfg={"ai_time_cap_ms": 100})  # the search takes chip time: 24 ms a poll
    start(rig, level=8)
    play(rig, 3)
    rig.run_until(lambda: rig.app.board.count == 2, 5000)
    r = rig.app.turn.last_search
    assert r.stopped == STOP_TIME and 0 < r.nodes <= 6 * 256, r  # 100 ms: a handful of polls
    assert rig.app.board.history[1] == r.move


def test_the_time_cap_is_on_by_default():
    import config
    rig = Rig("timecap2")
    assert config.get()["ai_time_cap_ms"] > 0
    assert rig.app.turn.time_cap_ms == config.get()["ai_time_cap_ms"]
    assert rig.app.turn.searcher.clock is rig.clock
