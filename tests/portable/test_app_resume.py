"""The game in progress on flash (connect4.app.resume): kept after every move, taken back at
the next start, cleared when the game ends or is left; a bad file is kept aside, a failed
write keeps the old one."""
from connect4.app.game import PLAY, OVER, MODE_AI, MODE_TWO
from connect4.app.records import Record
from connect4.app.recordfile import Records
from connect4.app.resume import SavedGame
from connect4.app.takeback import load
from connect4.engine.board import Board
from connect4.engine.rng import Rng
from fakes import Rig, tmpdir
from test_app_store import FlakyFiles, ReadOnlyFiles, exists, read, write


GAME = Record("two", 1, (0, 0), 3, (1, 0), "4453", "??W?")


def saved_game(path, rng, record=GAME, resumes=0, cursor=2):
    assert SavedGame(path).save(record, resumes, rng, cursor)
    return read(path)


def test_save_load_and_clear_round_trip():
    path = tmpdir("resume1") + "game.txt"
    board = Board()
    assert load(SavedGame(path), board, Rng(3)) is None and board.count == 0  # nothing saved
    rng = Rng(5)
    rng.below(7)
    saved_game(path, rng, resumes=1, cursor=5)
    assert not exists(path + ".tmp")
    other = Rng(99)
    s = SavedGame(path)
    record, resumes, cursor = load(s, board, other)
    assert board.moves_string() == "4453" and (other.hi, other.lo) == (rng.hi, rng.lo)
    assert (record.mode, record.first, record.levels, record.hints, record.moves, record.marks) == (
        "two", 1, (0, 0), (1, 0), "4453", "??W?")
    assert resumes == 1 and cursor == 5
    s.clear()
    assert not exists(path) and load(SavedGame(path), Board(), Rng()) is None
    s.clear()  # nothing there: nothing to do


def test_a_file_that_does_not_read_back_as_a_game_is_kept_aside():
    folder = tmpdir("resume2")
    good = saved_game(folder + "good.txt", Rng(7))
    first, second = good.split("\n")[:2]
    cases = [
        "", "garbage", good[:len(good) // 2], first + "\n",  # empty, not a game, cut short
        good + "1 2 3 4\n",  # a third line
        good.replace("4453", "4444444").replace("??W?", "???????"),  # column 4 over-full
        good.replace("4453", "12121212").replace("??W?", "????????"),  # a move after a win
        good.replace(" a ", " d "),  # a finished game is a record, not a game in progress
        good.replace(" two ", " demo "),  # the demo's games are never kept
        first + "\n0 0 0 2\n",  # no random state
        first + "\n0 5 6\n", first + "\nx 5 6 2\n", first + "\n0 5 6 7\n",  # no column 8
        first + "\n" + second,  # the last newline missing: a write cut short
    ]
    for i, text in enumerate(cases):
        path = folder + "bad%d.txt" % i
        write(path, text)
        board = Board()
        rng = Rng(11)
        assert load(SavedGame(path), board, rng) is None, text
        assert board.count == 0 and (rng.hi, rng.lo) == (Rng(11).hi, Rng(11).lo)
        assert read(path + ".bad") == text and not exists(path)
    assert load(SavedGame(folder + "good.txt"), Board(), Rng()) is not None


def test_a_write_cut_short_loses_nothing():
    folder = tmpdir("resume3")
    path = folder + "game.txt"
    before = saved_game(path, Rng(3))
    after = GAME.line().replace("4453", "44536").replace("??W?", "??W??")
    s = SavedGame(path, FlakyFiles(fail_rename=True))  # the power goes before the rename
    assert s.save(parse_line(after), 0, Rng(3), 3) is False
    assert read(path) == before
    board = Board()
    assert load(SavedGame(path), board, Rng()) is not None and board.moves_string() == "4453"
    assert not exists(path + ".tmp")  # the leftover is settled at the next start
    s = SavedGame(path, FlakyFiles(fail_write=True))  # the flash full
    assert s.save(parse_line(after), 0, Rng(3), 3) is False
    assert read(path) == before and not exists(path + ".tmp")
    # the very first save of a game, cut after its temporary file was complete
    path2 = folder + "first.txt"
    write(path2 + ".tmp", before)
    board = Board()
    assert load(SavedGame(path2), board, Rng()) is not None and board.moves_string() == "4453"
    assert exists(path2) and not exists(path2 + ".tmp")


def parse_line(line):
    from connect4.app.recordfile import parse
    return parse(line)


def test_a_read_only_flash_is_said_once():
    path = tmpdir("resume4") + "game.txt"
    s = SavedGame(path, ReadOnlyFiles())
    assert s.save(GAME, 0, Rng(), 3) is False
    said = s.save_error
    assert said is not None and "read-only" in said and path in said
    assert s.save(GAME, 0, Rng(), 3) is False and s.save_error is said


# ---- the app: kept as it goes, back at the next start, cleared at its end

def play(rig, col):
    """The person to move drops in `col` (the cursor moved there, then a press)."""
    rig.turn(col - rig.app.cursor)
    assert rig.app.cursor == col, (rig.app.cursor, col)
    rig.press()
    rig.run_until(lambda: rig.app.state in (PLAY, OVER))


def start(rig, mode, level=1, first="red"):
    rig.store.settings.update({"mode": mode, "level": level, "first": first})
    rig.store.save()  # as the menu would: the next start has the same settings
    rig.run_for(1600)  # the power-on animation
    assert rig.app.state == PLAY, rig.app.state


def restart(rig, name, after_crash=False):
    """The board again on the same flash, after its power-on animation: after a crash
    (connect4.boot's restart of the app, a panic, the watchdog) or a power-on."""
    again = Rig(name, cfg={"flash_dir": rig.cfg["flash_dir"]}, after_crash=after_crash)
    again.run_for(1600)
    return again


def crash_restart(rig, name):
    return restart(rig, name, after_crash=True)


def game_file(rig):
    return rig.cfg["flash_dir"] + "game.txt"


def test_a_two_player_game_comes_back_after_a_restart_and_goes_on():
    rig = Rig("resume5")
    start(rig, "two", first="yellow")
    for col in (3, 3, 2, 4):
        play(rig, col)
    assert exists(game_file(rig))
    rig.turn(2)  # the cursor moved on, no disc dropped
    again = restart(rig, "resume5b")
    app = again.app
    assert app.state == PLAY and app.board.moves_string() == "4435"
    assert app.mode == MODE_TWO and app.first_side == 1 and app.colors == rig.app.colors
    assert app.cursor == 4  # where the last disc went: the cursor as it was at that move
    assert bytes(app.marks[:4]) == b"????"
    for col in (2, 4, 2, 4, 2):  # yellow, who started, makes four in column 3
        play(again, col)
    assert app.state == OVER and again.games[0]["moves"] == "443535353"
    assert again.games[0]["winner"] == 1 and not exists(game_file(rig))  # ended: cleared
    records = list(Records(again.cfg["flash_dir"] + "games.txt").recent())
    assert len(records) == 1 and records[0].moves == "443535353" and records[0].result == 1


def test_a_game_against_the_ai_keeps_its_level_and_random_state():
    rig = Rig("resume6")
    start(rig, "ai", level=2)
    for col in (3, 3):
        rig.run_until(lambda: rig.app.state == PLAY and not rig.app.ai_to_move(), 20000)
        play(rig, col if rig.app.board.can_play(col) else rig.app.board.legal_moves()[0])
    rig.run_until(lambda: rig.app.state == PLAY and not rig.app.ai_to_move(), 20000)
    moves = rig.app.board.moves_string()
    state = (rig.app.ai.rng.hi, rig.app.ai.rng.lo)
    rig.store.settings["level"] = 5  # changed since (saved by the menu or the page)
    rig.store.save()
    again = restart(rig, "resume6b")
    app = again.app
    assert app.board.moves_string() == moves and len(moves) == 4
    assert app.mode == MODE_AI and app.game_levels == (0, 2)  # as the game started
    assert (app.ai.rng.hi, app.ai.rng.lo) == state


def test_a_new_game_clears_it_and_the_demos_games_are_not_kept():
    rig = Rig("resume7")
    start(rig, "two")
    play(rig, 3)
    assert exists(game_file(rig))
    rig.app.new_game(rig.clock.ticks_ms())  # left: recorded as abandoned, no longer kept
    assert not exists(game_file(rig))
    play(rig, 2)
    assert exists(game_file(rig))
    rig.app.start_demo(rig.clock.ticks_ms(), MODE_TWO)
    assert not exists(game_file(rig))
    rig.run_until(lambda: rig.app.board.count >= 2, 20000)  # the demo plays
    assert not exists(game_file(rig))
    again = restart(rig, "resume7b")
    assert again.app.board.count == 0 and again.app.state == PLAY
    records = list(Records(again.cfg["flash_dir"] + "games.txt").recent())
    assert [r.moves for r in records] == ["3", "4"] and records[0].result == 3


def test_a_game_taken_back_at_three_starts_after_crashes_without_a_move_is_given_up_and_recorded():
    # (a crash that comes back at the same position must not stop the board for good)
    rig = Rig("resume8")
    start(rig, "two")
    for col in (3, 2):
        play(rig, col)
    again = rig
    for name in ("resume8b", "resume8c"):  # taken back twice, with no move since
        again = crash_restart(again, name)
        assert again.app.board.moves_string() == "43"
    last = crash_restart(again, "resume8d")  # the third start: the game is given up
    assert last.app.board.count == 0 and last.app.state == PLAY
    assert not exists(game_file(rig))
    records = list(Records(last.cfg["flash_dir"] + "games.txt").recent())
    assert len(records) == 1 and records[0].moves == "43" and records[0].result == 3
    play(last, 3)  # a move: the new game is kept
    assert exists(game_file(rig))


def test_a_move_after_a_restart_counts_the_starts_afresh():
    rig = Rig("resume9")
    start(rig, "two")
    play(rig, 3)
    again = crash_restart(crash_restart(rig, "resume9b"), "resume9c")  # two starts without a move
    play(again, 3)  # then a move
    again = crash_restart(crash_restart(again, "resume9d"), "resume9e")
    assert again.app.board.moves_string() == "44"


def test_power_ons_without_a_move_keep_the_game():
    # (issue 32: unplugged twice to move it to another room, the game was given up)
    rig = Rig("resume_power")
    start(rig, "two")
    for col in (3, 2):
        play(rig, col)
    saved = read(game_file(rig))
    again = rig
    for i in range(4):
        again = restart(again, "resume_power%d" % i)
        assert again.app.board.moves_string() == "43" and again.app.state == PLAY
        assert read(game_file(rig)) == saved  # not counted: the file untouched
    assert list(Records(again.cfg["flash_dir"] + "games.txt").recent()) == []
    play(again, 4)  # the game goes on
    assert again.app.board.moves_string() == "435"


def test_a_power_on_between_crashes_neither_counts_nor_clears_their_count():
    rig = Rig("resume_mixed")
    start(rig, "two")
    play(rig, 3)
    again = crash_restart(crash_restart(rig, "resume_mixed1"), "resume_mixed2")
    again = restart(again, "resume_mixed3")  # a power-on after two crashes: kept
    assert again.app.board.moves_string() == "4"
    last = crash_restart(again, "resume_mixed4")  # the third crash: given up
    assert last.app.board.count == 0 and not exists(game_file(rig))
    records = list(Records(last.cfg["flash_dir"] + "games.txt").recent())
    assert [(r.moves, r.result) for r in records] == [("4", 3)]


def test_a_game_whose_last_move_was_saved_but_not_recorded_ends_at_the_next_start():
    rig = Rig("resume10")
    start(rig, "two")
    for col in (0, 1, 0, 1, 0, 1):
        play(rig, col)
    rig.app.drop(0, rig.clock.ticks_ms())  # red's fourth: the power goes as the disc falls
    assert exists(game_file(rig)) and rig.games == []
    again = restart(rig, "resume10b")
    assert again.app.state == OVER and again.games[0]["winner"] == 0
    assert again.store.stats["two"] == [1, 0, 0] and not exists(game_file(rig))
    records = list(Records(again.cfg["flash_dir"] + "games.txt").recent())
    assert [(r.moves, r.result) for r in records] == [("1212121", 0)]


def test_a_game_taken_back_plays_at_its_own_levels_not_the_settings():
    from connect4.app.assemble import build_app
    from fakes import FakeHardware
    rig = Rig("resume_level")
    rig.store.settings.update({"mode": "ai", "level": 3, "first": "red"})
    rig.run_for(1600)
    rig.press()  # red's move
    rig.run_until(lambda: rig.app.state == PLAY and rig.app.board.count == 2, 20000)
    rig.store.settings["level"] = 1  # changed behind the game's back (another start's settings)
    app = build_app(rig.cfg, FakeHardware(rig.display, rig.input), clock=rig.clock, seed=1)
    app.settings["level"] = 1
    app.start()  # takes the game back
    assert app.board.count == 2 and app.game_levels == (0, 3)
    rig.app = app
    rig.press()
    rig.run_until(lambda: app.state == PLAY and app.board.count == 4, 20000)
    assert app.ai.level == 3
