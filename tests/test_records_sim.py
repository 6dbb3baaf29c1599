"""Game records through the simulator: the issue's "done when" runs, the review of a record,
the hint and the replay on the simulated board, and random game sequences kept in order."""
import os
import re
import subprocess
import sys
import tempfile

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from connect4.app.game import PLAY, OVER, MENU, REPLAY
from connect4.app.menu import ITEMS
from connect4.app.records import Record
from connect4.app.recordfile import parse
from connect4.app.recordfile import Records
from host_sim import review
from host_sim.world import Sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT = Records("games.txt").limit  # the records kept


def sim(args, timeout=300):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "host_sim.sim"] + args, cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)


def demo_games(flash):
    r = sim(["--headless", "--mode", "demo", "--games", "2", "--seed", "7", "--flash", flash])
    assert r.returncode == 0, r.stderr
    return re.findall(r"moves (\d+)", r.stdout)


def record_lines(flash):
    with open(os.path.join(flash, "games.txt")) as f:
        return f.read().splitlines()


def test_headless_demo_games_are_recorded_appended_and_bounded(tmp_path):
    flash = str(tmp_path / "flash")
    first = demo_games(flash)
    assert len(first) == 2
    lines = record_lines(flash)
    assert [parse(line).moves for line in lines] == first
    assert [parse(line).number for line in lines] == [1, 2]
    assert all(parse(line).mode == "demo" and "?" not in parse(line).marks for line in lines)
    again = demo_games(flash)  # a third run... appends
    assert [parse(line).moves for line in record_lines(flash)] == first + again
    # 97 more games: the file holds 101 - the oldest is dropped
    with open(os.path.join(flash, "games.txt"), "a") as f:
        for n in range(5, 5 + LIMIT - 4):
            f.write(Record("two", 0, (0, 0), 3, (0, 0), "4", "?", n).line() + "\n")
    assert len(record_lines(flash)) == LIMIT
    last = demo_games(flash)
    kept = [parse(line) for line in record_lines(flash)]
    assert len(kept) == LIMIT
    assert kept[0].number == 3 and kept[-1].number == LIMIT + 2  # games 1 and 2 dropped
    assert [r.moves for r in kept[-2:]] == last


def test_review_of_a_record_line_and_of_a_file(tmp_path):
    line = "4 ai r 0/8 y 1/0 14142424 ???????W"
    r = sim(["--review", line])
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "game 4, ai: red (a person) vs yellow (level 8), red starts, yellow wins; hints: red 1" in out
    assert len(re.findall(r"^\s+\d+\s+(red|yellow)", out, re.M)) == 8
    assert "the result changed: a win became a loss (best: 4)" in out  # red starts on the edge
    path = tmp_path / "games.txt"
    path.write_text(line + "\n" + "5 two y 0/0 a 0/0 - -\n")
    r = sim(["--review", str(path)])
    assert r.returncode == 0 and "game 4" in r.stdout and "game 5" in r.stdout


def test_review_of_something_else_is_one_clear_line(tmp_path):
    for arg in ("no such record", str(tmp_path)):
        r = sim(["--review", arg])
        assert r.returncode == 2 and "Traceback" not in r.stderr
        assert "--review" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    empty = tmp_path / "empty.txt"
    empty.write_text("nothing here\n")
    r = sim(["--review", str(empty)])
    assert r.returncode == 2 and "holds no game record" in r.stderr


def test_the_judge_marks_every_move_as_the_perfect_solver_sees_it():
    marks = review.judge("4444443")
    assert len(marks) == 7 and "?" not in marks and marks[-1] == "W"
    assert marks[0] == "W"  # the first player's centre keeps the win
    assert review.judge("") == ""


@pytest.mark.parametrize("preset", ["encoder", "buttons"])
def test_hint_and_replay_on_the_simulated_board(tmp_path, preset):
    s = Sim(str(tmp_path), preset=preset)
    try:
        s.store.settings.update({"mode": "two", "first": "red"})
        s.run_for(1600)
        for col in (3, 4, 3, 4, 3, 4):
            while s.app.cursor != col:
                s.do("right" if s.app.cursor < col else "left")
            s.do("press", settle=400)
        s.do("left")
        s.do("left")
        assert s.app.cursor != 3
        s.do("hint", settle=200)
        assert s.app.state == PLAY and s.app.cursor == 3 and s.app.board.count == 6
        assert s.status() == "two players | play: red to move (hint: column 4)"
        s.do("press", settle=400)
        assert s.app.state == OVER
        s.do("long")
        assert s.app.state == MENU
        for _ in range(ITEMS.index("games")):
            s.do("right")
        s.do("press")
        assert s.status() == "games: game 1, two players, red won, 7 moves (press: replay)"
        s.do("press")
        assert s.app.state == REPLAY and s.status().startswith("replay: game 1, move 0 of 7")
        s.run_until(lambda: s.app.replay.at_end(), 20000)
        assert s.app.replay.board.winner == 1
        assert s.app.records().get(0).hints == (1, 0)
    finally:
        s.close()


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["ai", "two", "demo"]), st.integers(0, 3),
                          st.text("1234567", max_size=6), st.booleans()),
                min_size=1, max_size=130))
def test_random_game_sequences_keep_the_last_hundred_in_order(games):
    with tempfile.TemporaryDirectory() as folder:
        records = Records(os.path.join(folder, "games.txt"))
        written = []
        for mode, result, moves, junk in games:
            if junk:  # a line from elsewhere: set aside at the next start, the rest kept
                with open(records.path, "a") as f:
                    f.write("junk %s\n" % moves)
                assert records.count() == min(len(written), LIMIT)
            assert records.append(Record(mode, result % 2, (0, 0), result, (0, 0), moves, "?" * len(moves)))
            written.append(moves)
        got = [r.moves for r in records.recent()]
        assert got == written[::-1][:LIMIT]
        assert [r.number for r in records.recent()] == list(range(len(games), max(0, len(games) - LIMIT), -1))


def test_review_of_moves_that_go_on_after_a_win_says_so(tmp_path):
    r = sim(["--review", "3 two r 0/0 r 0/0 12121212 ????????"])
    assert r.returncode == 2 and "game 3: its moves are not a game" in r.stderr
    assert "Traceback" not in r.stderr


def test_size_option_plays_a_5x4_game_recorded_with_its_size_and_reviewed(tmp_path):
    """--size 5x4 between two players: red makes four in column 3 (the centre) on the 5x4
    board, the record says 5x4, and its review says the perfect solver knows 7x6 only."""
    script = tmp_path / "five.script"
    script.write_text("2600 wait\n" + "".join(
        "+350 press\n+450 wait\n+220 %s\n" % ("right" if k % 2 == 0 else "left") for k in range(6))
        + "+350 press\n+900 quit\n")
    flash = str(tmp_path / "flash")
    r = sim(["--headless", "--mode", "two", "--size", "5x4", "--seed", "7", "--flash", flash,
             "--script", str(script)])
    assert r.returncode == 0, r.stderr
    assert re.search(r"^game 1, two players: .* moves 3434343, red wins", r.stdout, re.M), r.stdout
    line = record_lines(flash)[-1]
    record = parse(line)
    assert record.size == "5x4" and record.moves == "3434343" and line.endswith(" 5x4")
    assert review.judge(record.moves, "5x4") is None  # the board's own marks stand
    r = sim(["--review", line])
    assert r.returncode == 0, r.stderr
    assert "game 1, two on 5x4:" in r.stdout and "knows the 7x6 board only" in r.stdout
    assert len(re.findall(r"^\s+\d+\s+(red|yellow)", r.stdout, re.M)) == 7
