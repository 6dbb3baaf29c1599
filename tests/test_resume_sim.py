"""A crash never loses the game (issue 24): the game in progress is kept on flash as it goes,
and the board comes back to the same position after a crash of the app (boot.py restarts
it) or a process killed outright, then goes on. The save/load/clear itself is tested in
tests/portable/test_app_resume.py (also in the MicroPython VM)."""
import http.client
import json
import os
import signal
import subprocess
import sys
import time

import machine
import pytest

from connect4.app.game import OVER, PLAY
from connect4.app.recordfile import Records
from connect4.app.resume import SavedGame
from connect4.app.takeback import load
from connect4.app.store import Store
from connect4.engine.board import Board
from connect4.engine.rng import Rng
from connect4.engine.search import Searcher
from test_board_sim import run_board
from host_sim.world import Sim, now_ms
from webboard import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def settings(flash, **values):
    store = Store(flash + "connect4.json")
    store.settings.update(values)
    assert store.save()


def test_an_exception_in_the_search_mid_game_comes_back_to_the_same_position(tmp_path, monkeypatch):
    flash = str(tmp_path) + "/"
    settings(flash, mode="ai", level=2, first="red")
    searches = []  # (moves, the AI's random state) of every search, in order
    crashed = []
    real = Searcher.search

    def search(self, board, *args, **kw):
        rng = kw.get("rng")
        searches.append((board.moves_string(), None if rng is None else (rng.hi, rng.lo)))
        if board.count >= 6 and not crashed:  # once, in the middle of the game
            crashed.append(len(searches) - 1)
            raise RuntimeError("maximum recursion depth exceeded")
        return real(self, board, *args, **kw)
    monkeypatch.setattr(Searcher, "search", search)
    presses = [(2000 + 700 * i, "press", 0) for i in range(120)]  # a person dropping at the cursor
    result, panel = run_board(flash, 100000, presses, until=lambda apps, games: games)
    assert result == "stopped" and len(crashed) == 1
    assert len(panel.apps) == 2  # boot.py restarted the app once
    at = crashed[0]
    moves = searches[at][0]
    assert len(moves) >= 6
    assert searches[at + 1] == searches[at]  # the same position, the AI's same random state
    log = open(flash + "error.log").read()
    assert "RuntimeError: maximum recursion depth exceeded" in log
    assert ", moves %s\n" % moves in log  # the crash's position
    assert len(panel.games) == 1  # the game went on to its end
    game = panel.games[0]
    assert game["mode"] == "vs AI" and game["moves"].startswith(moves) and len(game["moves"]) > len(moves)
    records = list(Records(flash + "games.txt").recent())
    assert [(r.moves, r.result != 3) for r in records] == [(game["moves"], True)]  # once, finished
    assert not os.path.exists(flash + "game.txt")  # ended: no game in progress kept


def start_sim(flash, port, *more):
    env = dict(os.environ, PYTHONPATH=ROOT)
    p = subprocess.Popen([sys.executable, "-m", "host_sim.sim", "--headless", "--flash", flash,
                          "--web", str(port), "--seconds", "300"] + list(more),
                         cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    for _ in range(20):  # "board: ..." first, then "web: ..."
        line = p.stdout.readline()
        assert line, p.stderr.read()
        if line.startswith("web:"):
            return p, line.split()[-1]
    raise AssertionError("no web line")


def request(port, method, path, body=None, token=None):
    """(status, JSON) from the simulator's server; retried while it is not yet listening."""
    headers = {"Authorization": "Bearer " + token} if token else {}
    for _ in range(200):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            c.request(method, path, None if body is None else json.dumps(body), headers)
            r = c.getresponse()
            return r.status, json.loads(r.read())
        except ConnectionRefusedError:
            time.sleep(0.05)
        finally:
            c.close()
    raise AssertionError("the server never answered")


def wait_state(port, condition, what, polls=1500):
    for _ in range(polls):  # bounded: about a minute at most
        status, state = request(port, "GET", "/api/state")
        assert status == 200, state
        if condition(state):
            return state
        time.sleep(0.04)
    raise AssertionError("%s never came: %r" % (what, state))


def played_then_cut(flash, moves):
    """The simulator on `flash` against level 1, a page paired; the person's `moves` discs
    in column 4, each answered by the AI; then killed (kill -9, no clean exit: a power cut).
    (the page's token, the state the page saw before the cut)."""
    port = free_port()
    p, code = start_sim(flash, port, "--mode", "ai", "--level", "1")
    try:
        status, body = request(port, "POST", "/api/pair", {"code": code})
        assert status == 200, body
        token = body["token"]
        assert request(port, "GET", "/api/state", token=token)[1]["paired"] is True
        for n in range(moves):
            wait_state(port, lambda s: s["human"] and len(s["moves"]) == 2 * n, "the person's turn")
            status, body = request(port, "POST", "/api/move", {"column": 4}, token)
            assert status == 200, body
        before = wait_state(port, lambda s: s["human"] and len(s["moves"]) == 2 * moves, "the AI's answer")
    finally:
        os.kill(p.pid, signal.SIGKILL)
        p.communicate(timeout=60)
    assert p.returncode == -signal.SIGKILL
    return token, before


def test_the_simulator_killed_mid_game_comes_back_with_the_same_moves(tmp_path):
    flash = str(tmp_path / "flash")
    _, before = played_then_cut(flash, 3)
    port = free_port()
    p, _ = start_sim(flash, port)  # the same flash
    try:
        after = wait_state(port, lambda s: s["state"] == "play", "the game")
        for key in ("moves", "mode", "first", "turn", "human", "result"):
            assert after[key] == before[key], key
    finally:
        p.terminate()
        p.communicate(timeout=60)


def one_disc(flash):
    """A simulated board on `flash` in a two-player game, red's first disc in the centre
    (the Sim returned: close it)."""
    os.makedirs(flash)
    settings(flash, mode="two", first="red")
    s = Sim(flash, chip_speed=False)
    try:
        s.run_for(1600)
        s.do("press")
        s.run_until(lambda: s.app.state == PLAY)
    except BaseException:
        s.close()
        raise
    return s


def test_a_hint_is_kept_with_the_game(tmp_path):
    flash = str(tmp_path / "flash") + "/"
    s = one_disc(flash)
    try:
        s.do("hint")  # yellow asks
        s.run_until(lambda: s.app.state == PLAY and s.app.hints[1] == 1)
    finally:
        s.close()
    again = Sim(flash, chip_speed=False)
    try:
        again.run_for(1600)
        assert again.app.board.moves_string() == "4" and again.app.hints == [0, 1]
        assert again.app.cursor == s.app.cursor  # on the hinted column
    finally:
        again.close()


def headless(flash, *more):
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-m", "host_sim.sim", "--headless", "--flash", flash] + list(more),
                       cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return r


def test_a_mode_from_the_command_line_leaves_the_game_as_the_menu_would(tmp_path):
    flash = str(tmp_path / "flash") + "/"
    one_disc(flash).close()
    headless(flash, "--mode", "two", "--seconds", "5")  # no change: the game goes on
    assert load(SavedGame(flash + "game.txt"), Board(), Rng())[0].moves == "4"
    assert list(Records(flash + "games.txt").recent()) == []
    r = headless(flash, "--mode", "demo", "--games", "1", "--seconds", "600")  # another mode: left
    assert "game 1, demo" in r.stdout and not os.path.exists(flash + "game.txt")
    records = list(Records(flash + "games.txt").recent())
    assert [(r.mode, r.moves, r.result) for r in records][1:] == [("two", "4", 3)]


# ---- what gives a game up (issue 32): restarts after a crash count, power-ons do not

def two_moves(flash):
    """`flash` with a two-player game in progress, "43", taken back no time yet."""
    from connect4.app.records import Record
    settings(flash, mode="two", first="red")
    assert SavedGame(flash + "game.txt").save(Record("two", 0, (0, 0), 3, (0, 0), "43", "??"), 0, Rng(5), 2)


def test_a_crash_at_the_same_position_gives_the_game_up_at_the_third_restart_of_the_app(
        tmp_path, monkeypatch):
    """connect4.boot restarts the app in place after an exception: those starts count, the
    power-on before them does not (the chip's reset cause is PWRON_RESET throughout)."""
    from connect4.app.game import App
    flash = str(tmp_path) + "/"
    two_moves(flash)
    real = App.step
    crashes = []

    def step(self):
        if self.board.moves_string() == "43":
            crashes.append(len(crashes))
            raise RuntimeError("crash %d" % len(crashes))
        return real(self)
    monkeypatch.setattr(App, "step", step)
    result, panel = run_board(flash, 30000, until=lambda apps, games: len(apps) == 4 and now_ms() > 2000)
    assert result == "stopped" and len(crashes) == 3
    assert [a.after_crash for a in panel.apps] == [False, True, True, True]
    assert panel.apps[-1].board.count == 0 and not os.path.exists(flash + "game.txt")
    records = list(Records(flash + "games.txt").recent())
    assert [(r.mode, r.moves, r.result) for r in records] == [("two", "43", 3)]


@pytest.mark.parametrize("watchdog", [True, False])
def test_a_watchdog_reset_counts_like_a_crash_and_a_power_cut_does_not(tmp_path, monkeypatch, watchdog):
    """The app hangs at the same position: the watchdog resets the chip (the next start
    reads WDT_RESET through hardware_setup) and the game is given up at the third restart;
    unplugged instead while it hangs, the board keeps the game however often."""
    from connect4.app.game import App
    flash = str(tmp_path) + "/"
    two_moves(flash)
    real = App.step

    def step(self):
        while self.board.moves_string() == "43":  # hangs: the watchdog is not fed
            time.sleep_ms(100)
        return real(self)
    monkeypatch.setattr(App, "step", step)
    cause = machine.PWRON_RESET
    for start in range(3):
        with pytest.raises(machine.WatchdogReset):
            run_board(flash, 30000, overrides={"watchdog_ms": 2000}, cause=cause)
        assert machine.reset_cause() == machine.WDT_RESET
        cause = machine.WDT_RESET if watchdog else machine.PWRON_RESET
        assert load(SavedGame(flash + "game.txt"), Board(), Rng())[1] == (start if watchdog else 0)
    monkeypatch.setattr(App, "step", real)
    result, panel = run_board(flash, 3000, overrides={"watchdog_ms": 2000}, cause=cause)
    assert result == "stopped" and panel.apps[-1].after_crash is watchdog
    records = list(Records(flash + "games.txt").recent())
    if watchdog:  # the third start after a watchdog reset: given up
        assert panel.apps[-1].board.count == 0 and not os.path.exists(flash + "game.txt")
        assert [(r.moves, r.result) for r in records] == [("43", 3)]
    else:
        assert panel.apps[-1].board.moves_string() == "43" and records == []


# ---- a power cut at the end of a game (issue 30 g; tests/chip/test_power_cuts_on_chip.py on
# the chip): the game's end first writes its ending in game.txt (its count in the statistics,
# its number in the records: connect4.app.resume), then the statistics (connect4.json), then
# its record (games.txt), then removes game.txt; a start after a cut anywhere in between
# finishes what was left of the ending, and nothing twice

class PowerCut(BaseException):
    """The power goes (not an Exception: the store's error handling never sees it)."""


def cut_after(monkeypatch, written, nth):
    """The power goes right after the nth rename onto a file named `written`."""
    from connect4.app.store import Files
    real = Files.rename
    seen = []

    def rename(self, old, new):
        real(self, old, new)
        if new.endswith("/" + written):
            seen.append(new)
            if len(seen) == nth:
                raise PowerCut()
    monkeypatch.setattr(Files, "rename", rename)
    return lambda: monkeypatch.setattr(Files, "rename", real)


@pytest.mark.parametrize("written, nth", [
    ("game.txt", 1),  # the last move saved, its end not yet begun
    ("game.txt", 2),  # the ending written, nothing done yet
    ("connect4.json", 1),  # counted
    ("games.txt", 1),  # counted and recorded, game.txt still there
])
def test_a_cut_in_a_games_end_counts_and_records_it_once(monkeypatch, written, nth):
    from test_app_resume import play, restart, start
    from fakes import Rig
    rig = Rig("endcut")
    start(rig, "two")
    for col in (0, 1, 0, 1, 0, 1):
        play(rig, col)
    power_back = cut_after(monkeypatch, written, nth)
    with pytest.raises(PowerCut):
        play(rig, 0)  # red's fourth in column 1: the game ends
    power_back()
    again = restart(rig, "endcut2")  # the next power-on, on the same flash
    assert again.app.state == OVER and again.app.board.moves_string() == "1212121"
    records = list(Records(again.cfg["flash_dir"] + "games.txt").recent())
    assert [(r.number, r.moves, r.result) for r in records] == [(1, "1212121", 0)]
    assert again.store.stats["two"] == [1, 0, 0] and again.store.stats["ended"] == 1
    assert not os.path.exists(again.cfg["flash_dir"] + "game.txt")
    assert sorted(os.listdir(again.cfg["flash_dir"])) == ["connect4.json", "games.txt"]
    # the next game is counted and recorded after it, once
    from connect4.app.game import PLAY
    again.app.new_game(again.app.clock.ticks_ms())
    again.run_until(lambda: again.app.state == PLAY)
    for col in (0, 1, 0, 1, 0, 1, 0):
        play(again, col)
    records = list(Records(again.cfg["flash_dir"] + "games.txt").recent())
    assert [(r.number, r.result) for r in records] == [(2, 0), (1, 0)]
    assert again.store.stats["two"] == [2, 0, 0] and again.store.stats["ended"] == 2


@pytest.mark.parametrize("written, nth", [("game.txt", 1), ("games.txt", 1)])
def test_a_cut_while_a_game_is_left_records_it_once_and_takes_it_not_back(monkeypatch, written, nth):
    """A new game while one is in progress: the one left is recorded as abandoned (its ending
    written first, then the record): after a cut between, the next start records it once and
    does not take it back."""
    from test_app_resume import play, restart, start
    from fakes import Rig
    rig = Rig("leavecut")
    start(rig, "two")
    for col in (3, 2):
        play(rig, col)
    power_back = cut_after(monkeypatch, written, nth)
    with pytest.raises(PowerCut):
        rig.app.new_game(rig.app.clock.ticks_ms())
    power_back()
    again = restart(rig, "leavecut2")
    assert again.app.board.count == 0
    records = list(Records(again.cfg["flash_dir"] + "games.txt").recent())
    assert [(r.number, r.moves, r.result) for r in records] == [(1, "43", 3)]
    assert again.store.stats["two"] == [0, 0, 0] and again.store.stats["ended"] == 0
    assert not os.path.exists(again.cfg["flash_dir"] + "game.txt")
