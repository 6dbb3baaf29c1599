"""Boards other than 7x6 in the app: layout, menu, statistics, records, replay, resume.

Two-player games only: the AI plays other sizes once the engine's search does
(the engine's own tests cover that); these hold for the app whatever the AI.
"""
from connect4.app import store
from connect4.app.game import PLAY, OVER, MENU, REPLAY
from connect4.app.menu import ITEMS
from connect4.app.recordfile import Records
from connect4.app.store import Store
from connect4.app.storeload import load
from connect4.app.render import Layout, fits, sizes
from checks import raises, said
from fakes import Rig, hue, assert_board_shown


def start(rig, size, mode="two", first="red"):
    rig.store.settings.update({"mode": mode, "size": size, "first": first})
    rig.store.save()  # as the menu would: a restart has the same settings
    rig.run_for(1600)  # the power-on animation
    assert rig.app.state == PLAY and rig.app.board.size == size, (rig.app.state, rig.app.board.size)


def play(rig, col):
    rig.turn(col - rig.app.cursor)
    assert rig.app.cursor == col, (rig.app.cursor, col)
    rig.press()
    rig.run_until(lambda: rig.app.state in (PLAY, OVER))


def test_what_each_panel_can_show():
    assert sizes(8, 8)[0] == "4x4" and sizes(8, 8)[-1] == "8x7" and len(sizes(8, 8)) == 20
    assert sizes(7, 7)[-1] == "7x6" and "7x7" not in sizes(7, 7) and len(sizes(7, 7)) == 12
    assert sizes(7, 6)[-1] == "7x6" and len(sizes(7, 6)) == 12  # a bare strip: no hover row
    assert fits(8, 8, 8, 7) and not fits(8, 8, 8, 8) and not fits(8, 8, 3, 4) and not fits(7, 7, 8, 6)
    assert "cannot show" in raises(ValueError, Layout, 7, 7, 7, 7)


def test_the_layouts():
    classic = Layout(8, 8)  # as it always was
    assert (classic.hover_y, classic.turn_cell, classic.mode_cell) == (0, (7, 0), (7, 1))
    assert len(classic.frame) == 7 + 6
    wide = Layout(8, 8, 8, 7)  # no room for a frame: turn and mode in the hover row
    assert (wide.hover_y, wide.turn_cell, wide.mode_cell, wide.frame) == (0, None, None, [])
    small = Layout(8, 8, 5, 4)  # bottom left, the hover row and the frame right above it
    assert (small.hover_y, small.turn_cell, small.mode_cell) == (2, (5, 2), (5, 3))
    assert sorted(small.frame) == sorted([(x, 3) for x in range(5)] + [(5, y) for y in range(4, 8)])
    strip = Layout(7, 6, 4, 5)
    assert strip.hover_y == 0 and strip.turn_cell == (4, 0) and strip.mode_cell is None
    assert Layout(7, 6).hover_y == -1  # the bare strip's 7x6: the cursor blinks on the board


def test_a_5x4_two_player_game_sits_bottom_left_and_is_recorded_with_its_size():
    rig = Rig("size1")
    start(rig, "5x4")
    px = rig.pixel
    assert rig.app.cursor == 2 and hue(px(2, 2)) == "red"  # the disc hovers over the centre
    assert [hue(px(x, 3)) for x in range(5)] == ["blue"] * 5  # the frame's line
    assert [hue(px(5, y)) for y in range(4, 8)] == ["blue"] * 4  # its side column
    assert hue(px(5, 2)) == "red" and hue(px(5, 3)) == "other"  # turn; mode (two players: cyan)
    assert all(hue(px(x, y)) == "off" for x in range(8) for y in range(2) if (x, y))
    assert all(hue(px(x, y)) == "off" for x in (6, 7) for y in range(8))
    for col in (0, 1, 0, 1, 0, 1):
        play(rig, col)
        assert_board_shown(rig.app, px)
    assert hue(px(0, 5)) == "red" and hue(px(1, 5)) == "yellow"
    play(rig, 0)  # four in column 1: the column full
    assert rig.app.state == OVER and rig.games[0]["winner"] == 0
    st = rig.store.stats
    assert store.table(st, "5x4")["two"] == [1, 0, 0] and st["two"] == [0, 0, 0]  # per size
    record = next(Records(rig.cfg["flash_dir"] + "games.txt").recent())
    assert record.size == "5x4" and record.moves == "1212121" and record.line().endswith(" 5x4")


def test_an_8x7_board_shows_turn_and_mode_in_its_hover_row():
    rig = Rig("size2")
    start(rig, "8x7")
    px = rig.pixel
    assert rig.app.layout.turn_cell is None and rig.app.cursor == 3
    assert hue(px(3, 0)) == "red"  # whose turn: the hovering disc
    assert hue(px(0, 0)) == "other" and hue(px(7, 0)) == "other"  # the mode's glow (cyan)
    assert max(px(0, 0)) < max(px(3, 0))  # dim beside the disc
    assert all(hue(px(x, y)) == "off" for x in range(8) for y in range(1, 8))
    play(rig, 7)  # the eighth column
    assert hue(px(7, 7)) == "red" and hue(px(7, 0)) == "yellow"  # yellow's turn, the cursor kept
    play(rig, 7)
    for row in range(2, 7):
        play(rig, 7)
    assert rig.app.board.height(7) == 7 and hue(px(7, 1)) == "red"  # the top row, at y1
    assert rig.app.cursor != 7  # the full column is skipped
    assert_board_shown(rig.app, px)


def test_the_menus_size_item_starts_a_new_game_of_that_size():
    rig = Rig("size3")
    start(rig, "7x6")
    play(rig, 3)
    rig.long_press()
    assert rig.app.state == MENU
    rig.turn(ITEMS.index("size"))
    assert hue(rig.pixel(6, 2)) == "blue" and hue(rig.pixel(7, 2)) == "off"  # 7 x 6 cells at the bottom left
    assert hue(rig.pixel(0, 1)) == "off" and hue(rig.pixel(0, 2)) == "blue" and hue(rig.pixel(0, 7)) == "red"
    rig.press()
    rig.turn(1)
    assert rig.store.settings["size"] == "7x7" and hue(rig.pixel(0, 1)) == "blue"
    rig.turn(2)  # 8x4, 8x5
    rig.press()
    rig.long_press()  # out of the menu
    app = rig.app
    assert app.state == PLAY and app.board.size == "8x5" and app.board.count == 0
    assert app.layout.hover_y == 1 and app.layout.mode_cell is None
    again = Store(rig.path)
    assert load(again) == "ok" and again.settings["size"] == "8x5"
    record = next(Records(rig.cfg["flash_dir"] + "games.txt").recent())
    assert record.moves == "4" and record.result == 3 and record.size == "7x6"  # the game left


def test_a_size_this_panel_cannot_show_gives_7x6_with_a_logged_line():
    rig = Rig("size4", width=7, height=7)
    rig.store.settings.update({"mode": "two", "size": "8x7"})  # a settings file from an 8x8 panel
    lines = said(lambda: rig.run_for(1600))
    assert rig.app.state == PLAY and rig.app.board.size == "7x6" and rig.store.settings["size"] == "7x6"
    assert len(lines) == 1 and lines[0].startswith("size 8x7: ") and lines[0].endswith("7x6 instead"), lines
    strip = Rig("size5", width=7, height=6)
    start(strip, "4x5")
    assert strip.app.layout.hover_y == 0 and hue(strip.pixel(1, 0)) == "red"


def test_a_game_of_another_size_comes_back_after_a_restart():
    rig = Rig("size6")
    start(rig, "6x5")
    for col in (5, 5, 4):
        play(rig, col)
    again = Rig("size6b", cfg={"flash_dir": rig.cfg["flash_dir"]})
    again.run_for(100)
    app = again.app
    assert app.state == PLAY and app.board.size == "6x5" and app.board.moves_string() == "665"
    assert app.layout.cols == 6 and hue(again.pixel(5, 7)) == "red" and hue(again.pixel(5, 6)) == "yellow"


def test_a_recorded_game_of_another_size_replays_on_its_own_board():
    rig = Rig("size7")
    start(rig, "4x4")
    for col in (0, 1, 0, 1, 0, 1, 0):
        play(rig, col)
    assert rig.app.state == OVER
    rig.store.settings["size"] = "7x6"  # the board since changed: the replay keeps the record's
    rig.long_press()
    rig.turn(ITEMS.index("games"))
    rig.press()
    rig.press()  # replay the newest
    assert rig.app.state == REPLAY and rig.app.replay.board.size == "4x4"
    rig.run_for(7 * 900 + 400)
    assert rig.app.replay.at_end() and rig.app.replay.board.winner == 1
    assert hue(rig.pixel(1, 5)) == "yellow" and hue(rig.pixel(1, 4)) == "off"  # the 4x4 board's discs

