"""The board keeps its games: records at the end of a game (or when one is left), the hint,
the replay from the menu's games list, and the review marks of proven moves."""
from connect4.app.game import PLAY, OVER, MENU, REPLAY
from connect4.app.menu import ITEMS
from connect4.app.replay import STEP_MS, turned
from connect4.app.store import Store
from connect4.app.storeload import load
from connect4.app.recordfile import Records
from fakes import Rig, hue, assert_board_shown


def start(rig, mode="two", level=2, first="red"):
    rig.store.settings.update({"mode": mode, "level": level, "first": first})
    rig.run_for(1600)  # the power-on animation
    assert rig.app.state == PLAY


def play(rig, col):
    rig.turn(col - rig.app.cursor)
    assert rig.app.cursor == col, (rig.app.cursor, col)
    rig.press()
    rig.run_for(400)  # the disc falls


def hint(rig, steps=1):
    """The hint's chord: SELECT held while the encoder turns, then let go."""
    rig.clock.at(0, rig.select, 0)
    rig.run_for(100)
    rig.turn(steps)
    rig.run_for(100)
    rig.clock.at(0, rig.select, 1)
    rig.run_for(100)


def newest(rig):
    return rig.app.records().get(0)


def test_a_finished_two_player_game_is_recorded_with_its_moves():
    rig = Rig("replay1")
    start(rig)
    for col in (3, 4, 3, 4, 3, 4, 3):
        play(rig, col)
    assert rig.app.state == OVER
    r = newest(rig)
    assert r.line() == "1 two r 0/0 r 0/0 4545454 ???????"
    again = Records(rig.app.records().path)  # the board again after a power cut: the record stays
    assert again.get(0).line() == r.line()


def test_a_games_end_reads_the_records_file_through_once():
    """Issue 40: a game's end takes the records' next number and writes the record from one
    scan of games.txt (it read the file through twice: once for the number, once to write)."""
    rig = Rig("replay1b")
    start(rig)
    path = rig.app.records().path
    scans = []

    class Counted(Records):
        def scan(self):
            scans.append(1)
            return Records.scan(self)
    rig.app.records = lambda: Counted(path)
    for col in (3, 4, 3, 4, 3, 4, 3):
        play(rig, col)
    assert rig.app.state == OVER and len(scans) == 1
    assert Records(path).get(0).line() == "1 two r 0/0 r 0/0 4545454 ???????"


def test_a_game_left_before_its_end_is_recorded_as_abandoned():
    rig = Rig("replay2")
    start(rig, mode="ai", level=2)
    play(rig, 0)
    rig.run_until(lambda: rig.app.state == PLAY and rig.app.board.count == 2, 20000)
    rig.long_press()
    assert rig.app.state == MENU
    rig.turn(ITEMS.index("level"))
    rig.press()
    rig.turn(1)  # level 3: a new game on leaving the menu
    rig.press()
    rig.long_press()
    assert rig.app.state == PLAY and rig.app.board.count == 0
    r = newest(rig)
    assert (r.mode, r.levels, r.result, r.first) == ("ai", (0, 2), 3, 0)
    assert len(r.moves) == 2 and r.moves[0] == "1"


def test_the_hint_moves_the_cursor_to_the_top_levels_move_and_is_counted():
    rig = Rig("replay3")
    start(rig)
    for col in (3, 4, 3, 4, 3, 4):
        play(rig, col)
    rig.turn(-6)
    assert rig.app.cursor == 0
    hint(rig)  # red can win in column 4 at once
    assert rig.app.state == PLAY and rig.app.board.count == 6  # no disc dropped, no menu
    assert rig.app.cursor == 3 == rig.app.hint_col
    seen = set()
    for _ in range(12):  # it blinks quickly
        rig.run_for(60)
        seen.add(hue(rig.pixel(3, 0)))
    assert seen == {"red", "off"}
    assert rig.app.store.stats["hints"] == 1
    rig.press()  # the player takes it
    rig.run_for(400)
    assert rig.app.state == OVER
    r = newest(rig)
    assert r.hints == (1, 0) and r.moves == "4545454"
    assert r.marks == "?????LW"  # the hint's search proved the win: the move and the one before
    saved = Store(rig.path)
    load(saved)
    assert saved.stats["hints"] == 1  # saved with the game's result


def test_a_plain_turn_moves_the_cursor_and_a_long_press_still_opens_the_menu():
    rig = Rig("replay4")
    start(rig)
    rig.turn(1)
    assert rig.app.cursor == 4 and rig.app.hint_col == -1
    rig.long_press()
    assert rig.app.state == MENU and rig.app.store.stats["hints"] == 0


def test_the_ai_marks_what_its_search_proved():
    rig = Rig("replay5")
    start(rig, mode="ai", level=8)
    while rig.app.state != OVER:  # red plays the first column until the AI has won
        rig.run_until(lambda: rig.app.state == OVER or rig.app.state == PLAY and not rig.app.ai_to_move(),
                      60000)
        if rig.app.state != OVER:
            col = 0 if rig.app.board.can_play(0) else 1
            play(rig, col)
    r = newest(rig)
    assert r.result == 1 and r.levels == (0, 8)
    assert r.marks[-2:] == "LW"  # the AI's winning disc, and red's move before it: proved
    assert "W" in r.marks[:-1] or "L" in r.marks[:-2]


def open_games(rig):
    rig.long_press()
    assert rig.app.state == MENU
    rig.turn(ITEMS.index("games"))
    rig.press()


def test_replay_from_the_games_list():
    rig = Rig("replay6")
    start(rig)
    for col in (3, 4, 3, 4, 3, 4, 3):
        play(rig, col)
    rig.press()  # a new game
    play(rig, 0)
    rig.long_press()  # the menu; changing the mode would abandon it
    rig.long_press()
    open_games(rig)
    assert rig.app.menu.games.index == 0 and rig.app.menu.games.chosen.number == 1
    rig.press()
    assert rig.app.state == REPLAY
    replay = rig.app.replay
    assert replay.pos == 0
    rig.run_for(3 * STEP_MS + 400)
    assert replay.pos == 3  # a steady pace
    assert hue(rig.pixel(3, 6)) == "red" and hue(rig.pixel(4, 7)) == "yellow"
    rig.turn(-1)
    assert replay.pos == 2 and replay.paused
    rig.run_for(2 * STEP_MS)
    assert replay.pos == 2  # paused
    rig.turn(1)
    assert replay.pos == 3
    rig.press()  # play on
    rig.run_for(5 * STEP_MS)
    assert replay.at_end() and replay.board.winner == 1
    seen = set()
    for _ in range(20):  # the winning four blinks
        rig.run_for(50)
        seen.add(hue(rig.pixel(3, 4)))
    assert seen == {"red", "off"}
    rig.long_press()
    assert rig.app.state == MENU and rig.app.menu.games.index == 0  # back on the list
    rig.long_press()
    assert rig.app.state == PLAY and rig.app.board.moves_string() == "1"  # the game goes on
    assert_board_shown(rig.app, rig.pixel)


def test_the_games_list_walks_the_records_newest_first():
    rig = Rig("replay7")
    start(rig)
    for i in range(3):
        play(rig, i)
        rig.long_press()
        rig.turn(ITEMS.index("level"))
        rig.press()
        rig.turn(1 if i % 2 == 0 else -1)  # a new level: a new game, this one abandoned
        rig.press()
        rig.long_press()
        assert rig.app.board.count == 0
    assert rig.app.records().count() == 3
    open_games(rig)
    numbers = []
    for _ in range(4):
        numbers.append(rig.app.menu.games.chosen.number)
        assert hue(rig.pixel(0, 0)) == "other"  # abandoned: a dim bar
        rig.turn(1)
    assert numbers == [3, 2, 1, 1]  # the list ends at the oldest


def test_turning_points_are_where_the_mover_had_better_before():
    assert turned("WLL", 2)  # yellow's move lost (red had a win), red's move loses: thrown away
    assert not turned("WL", 1) and not turned("??", 1) and not turned("W", 0)
    assert turned("LD", 1) and not turned("DD", 1) and turned("DL", 1)


def test_a_record_that_goes_on_after_a_win_replays_up_to_the_win():
    from connect4.app.replay import Replay
    from connect4.app.recordfile import parse
    replay = Replay(parse("3 two r 0/0 r 0/0 12121212 ????????"), 0)
    assert replay.length == 7
    for t in range(1, 12):
        replay.step(t * STEP_MS)
    assert replay.at_end() and replay.board.winner == 1 and replay.pos == 7
