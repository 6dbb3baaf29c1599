"""Issue 30 g: power cuts on the emulated chip. The emulator is killed at five moments
(mid-search, right after a move's save, during a record write, during boot, during a
settings write) and booted again on the same flash: the game in progress comes back at
the same moves; settings, statistics and records are intact; no `.tmp` is left.

The flash starts with settings and statistics (connect4.json), three records
(games.txt) and a game in progress against level 8 (game.txt, in the firmware's own
format: connect4.app.resume) with the AI to move, which the app takes back at once.
tools/chip/app_probe.py's `cut` stops the app at the exact moment of a write through
connect4.app.store.Files and says `probe cut PATH PHASE`; the test then kills the
emulator. After the next power-on the probe's `probe app` line says which game the app
started with, and the raw REPL reads the files.
"""
import ast
import json
import re
import time

import pytest

from connect4.app.records import Record
from connect4.app.recordfile import parse
from connect4.app.store import default_stats
from connect4.engine.board import Board
from tools.chip.emulator import EMULATOR_BOOT

from .helpers import retry_stalls, run_probe

STALL_S = 180  # wall seconds of UART silence: the emulator is stuck (tests/chip/helpers.py)
OVER = 4  # connect4.app.game.OVER
BUTTON = 2  # config.py's encoder preset

# two games in progress, red (a person) against yellow (level 8), yellow to move:
QUIET = "531567256547511"  # 15 discs, no immediate win: the AI searches (over a second)
WINS = "451647774776635521311"  # 21 discs, yellow wins in column 4: the game ends at once
WINNING_COL = 4

SETTINGS = {"mode": "ai", "level": 8, "first": "red", "blunder": -1, "brightness": 3,
            "size": "7x6", "wifi": False}


def stats():
    s = default_stats()
    s["ai"][7] = [2, 5, 1]
    s["ai"][2] = [4, 0, 1]
    s["two"] = [3, 4, 0]
    s["hints"] = 2
    return s


RECORDS = [Record("ai", 0, (0, 3), 0, (0, 0), "4453362", "???????", 1).line(),
           Record("two", 1, (0, 0), 1, (1, 0), "44343535", "????????", 2).line(),
           Record("demo", 0, (5, 8), 1, (0, 0), "4455667", "??????W", 3).line()]


def game_txt(moves):
    """A game in progress as connect4.app.resume writes it: red (a person) against level 8."""
    return "%s\n0 12345 678 3\n" % Record("ai", 0, (0, 8), 3, (0, 0), moves, "?" * len(moves)).line()


def flash_files(moves):
    return [("/connect4.json", json.dumps({"version": 1, "settings": SETTINGS, "stats": stats()}).encode()),
            ("/games.txt", ("\n".join(RECORDS) + "\n").encode()),
            ("/game.txt", game_txt(moves).encode())]


READ = """import os
def _read(n):
    try:
        with open(n) as f:
            return f.read()
    except OSError:
        return None
print(repr({'ls': sorted(os.listdir()), 'connect4.json': _read('connect4.json'),
            'games.txt': _read('games.txt'), 'game.txt': _read('game.txt')}))
"""


def board_files(c):
    """The flash's root listing and the three files' text (None: missing), from the raw REPL."""
    out = c.exec_raw(READ, timeout=120)
    return ast.literal_eval(out.strip().splitlines()[-1])


def probe_line(text, marker):
    m = re.search(marker + r"[^\r\n]*", text)
    assert m, "no %r in:\n%s" % (marker, text[-3000:])
    return m.group(0)


def untouched_repl(c):
    """Power on with the button held: main.py goes to the hardware test, which reads and
    writes no file; Ctrl-C, and the raw REPL on the flash as the last power-off left it
    (stopped by Ctrl-C at once instead, main.py could be anywhere by then: the UART takes
    Ctrl-C only once main.py runs)."""
    c.boot(hold=(BUTTON,))
    c.read_until(b"connect4: hardware test", timeout=300, stall=STALL_S)
    c.interrupt(timeout=120)
    c.release(BUTTON)
    c.raw_repl()
    return c


def cut_and_boot_again(c, wait_for_cut):
    """Run the app until `wait_for_cut(c)` says the moment has come, cut the power, power on
    again and take the app back under the probe: (the text before the cut, the probe's
    `probe app` line, the files before and after the app's run)."""
    before = wait_for_cut(c)
    c.kill()
    untouched_repl(c)
    left = board_files(c)  # as the cut left them
    run_probe(c, report_ms=60_000, run_ms=3000, events=True)
    text = c.read_until(b"probe stopped", timeout=900, stall=STALL_S)
    c.read_until(b"\x04>", timeout=60, stall=STALL_S)
    after = board_files(c)
    print("before the cut: %s\nleft by the cut: %s\nafter: %s" % (before[-600:], left, after))
    assert "Traceback" not in text and "crashed" not in text, text[-3000:]
    return before, probe_line(text, "probe app "), left, after


def check_files(after, game_moves, records_added, stats_expected):
    """No temporary file left; settings as set; statistics as expected; the three records
    intact, and `records_added` more; the game in progress starts with `game_moves` (or
    none if None)."""
    assert not [n for n in after["ls"] if n.endswith(".tmp")], after["ls"]
    assert not [n for n in after["ls"] if n.endswith(".bad")], after["ls"]
    assert "error.log" not in after["ls"]
    data = json.loads(after["connect4.json"])
    assert data["settings"] == SETTINGS
    assert data["stats"] == stats_expected, "level 8: %r, expected %r" % (
        data["stats"]["ai"][7], stats_expected["ai"][7])
    lines = after["games.txt"].splitlines()
    assert lines[:3] == RECORDS
    assert len(lines) == 3 + len(records_added)
    for line, moves in zip(lines[3:], records_added):
        r = parse(line)
        assert r is not None and r.moves == moves and r.mode == "ai" and r.levels == (0, 8), line
    if game_moves is None:
        assert after["game.txt"] is None
    else:
        first = after["game.txt"].splitlines()[0]
        assert parse(first).moves.startswith(game_moves), first


def app_moves(line):
    return re.search(r"moves=(\S+)", line).group(1)


def level_8_think(c):
    """Wait for the level-8 search of the resumed game to begin."""
    text = c.read_until(b"probe think", timeout=600, stall=STALL_S)
    line = c.read_until(b"\n", timeout=60, stall=STALL_S)
    assert "level=8 discs=%d" % len(QUIET) in line, line
    return text + line


def cut_at(path, phase):
    def wait(c):
        return c.read_until(("probe cut %s %s" % (path, phase)).encode(), timeout=600, stall=STALL_S)
    return wait


@retry_stalls
def test_a_cut_mid_search_gives_back_the_game_at_the_same_moves(chip):
    c = untouched_repl(chip(extra=flash_files(QUIET), wifi=False))
    run_probe(c, report_ms=60_000, events=True)
    before, app, left, after = cut_and_boot_again(c, level_8_think)
    assert "probe drop" not in before and parse(left["game.txt"].splitlines()[0]).moves == QUIET
    assert app_moves(app) == QUIET and "mode=ai" in app and "levels=0/8" in app
    check_files(after, QUIET, [], stats())


@retry_stalls
def test_a_cut_right_after_a_moves_save_keeps_the_move(chip):
    c = untouched_repl(chip(extra=flash_files(QUIET), wifi=False))
    run_probe(c, report_ms=60_000, events=True, cut="game.txt", phase="saved")
    before, app, left, after = cut_and_boot_again(c, cut_at("game.txt", "saved"))
    col = re.findall(r"probe drop (\d)", before)
    assert len(col) == 1, before
    moves = QUIET + col[0]
    assert parse(left["game.txt"].splitlines()[0]).moves == moves  # saved, then the cut
    assert app_moves(app) == moves and "mode=ai" in app
    check_files(after, moves, [], stats())


def ended(moves):
    """The statistics after the AI won the game `moves` once (a loss at level 8)."""
    board = Board(moves)
    assert board.winner
    s = stats()
    s["ai"][7][1] += 1
    s["ended"] += 1  # its count, which its ending wrote first (connect4.app.resume)
    return s


@pytest.mark.parametrize("written, phase", [
    ("games.txt", "write"),  # the record half written
    ("connect4.json", "rename"),  # the statistics' new file whole, not yet renamed
])
@retry_stalls
def test_a_cut_in_a_games_end_counts_and_records_it_once(chip, written, phase):
    c = untouched_repl(chip(extra=flash_files(WINS), wifi=False))
    run_probe(c, report_ms=60_000, events=True, cut=written, phase=phase)
    before, app, left, after = cut_and_boot_again(c, cut_at(written, phase))
    moves = WINS + str(WINNING_COL)
    assert "probe drop %d" % WINNING_COL in before
    assert written + ".tmp" in left["ls"]
    assert app_moves(app) == moves and "state=%d" % OVER in app
    check_files(after, None, [moves], ended(moves))


# boot.py says when it is done: main.py imports and boots next; cut that many wall seconds
# after it, one cut each. Measured once (a main.py printing its ticks, a load average of 5):
# its imports end 0.2 s after boot.py (emulated 0.13 s), the app is built 3.2 s after
# (emulated 1.5 s: the power-on window is 1 s), then the game is taken back and the AI
# searches; on an idle host the last cut may come after the AI's move was saved.
BOOT_PY = EMULATOR_BOOT + b'print("boot.py done")\n'
BOOT_CUTS_S = (0.1, 0.5, 1.5, 3.5)


@retry_stalls
def test_cuts_during_boot_then_the_next_boot_starts_cleanly(chip):
    c = chip(extra=flash_files(QUIET) + [("/boot.py", BOOT_PY)], wifi=False)

    def during_boot(c):
        text = ""
        for delay in BOOT_CUTS_S:
            c.boot()
            text += c.read_until(b"boot.py done", timeout=120, stall=STALL_S)
            seen = c.seen
            time.sleep(delay)
            c.drain(0.01)
            text += bytes(c.out[seen:]).decode(errors="replace")  # what main.py said: nothing
            if delay != BOOT_CUTS_S[-1]:
                c.kill()  # (the last: cut_and_boot_again's cut)
        return text
    before, app, left, after = cut_and_boot_again(c, during_boot)
    assert before.count("boot.py done") == len(BOOT_CUTS_S)
    assert "probe" not in before and "MicroPython v" not in before  # main.py never got to the REPL
    saved = parse(left["game.txt"].splitlines()[0]).moves  # as the last cut left it
    assert saved.startswith(QUIET) and len(saved) <= len(QUIET) + 1  # (the AI's move, if saved)
    assert app_moves(app) == saved and "mode=ai" in app
    check_files(after, saved, [], stats())
