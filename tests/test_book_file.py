"""The opening book: the checked-in firmware/book.bin against the perfect
solver (a sample), the builder (tools/book/build.py) and the book in the
app and the simulator. The reader's own checks are portable
(tests/portable/test_book.py, also in the MicroPython VM)."""
import os
import struct

import pytest

from connect4.engine import book
from connect4.engine.board import Board
from connect4.engine.player import AIPlayer
from test_book import book_bytes  # tests/portable/test_book.py (conftest puts it on the path)
from tools.book import build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOK = os.path.join(ROOT, "firmware", "book.bin")
SAMPLE = 300  # records checked against the solver here; `make book` checks them all


def records(data):
    """(key bytes, column) of every record of a book file's bytes."""
    bits, size = data[5], data[6]
    base = build.HEADER + 4 * ((1 << bits) + 1)
    count = struct.unpack_from("<I", data, 8)[0]
    return [(data[at:at + 7], data[at + 7] & 7)
            for at in range(base, base + size * count, size)]


def columns_of(key):
    """The 7 x 6 column-major cells (0 empty, 1 first player, 2 second) of a key."""
    cols = []
    for code in key:
        height = code.bit_length() - 1
        cols.append([(1 if code >> row & 1 else 2) if row < height else 0 for row in range(6)])
    return cols


def test_the_checked_in_book_is_a_book_within_the_size_limit():
    with open(BOOK, "rb") as f:
        data = f.read()
    assert len(data) <= build.LIMIT <= 1_200_000
    with open(BOOK, "rb") as f:
        bk = book.Book(f)
        count = int.from_bytes(bk.head[8:12], "little")
        assert count == len(records(data)) > 10000 and bk.head[12] <= 42
        assert len(data) == build.HEADER + 4 * ((1 << bk.head[5]) + 1) + build.RECORD * count


def test_a_sample_of_the_book_is_right_by_the_perfect_solver():
    bitbully = pytest.importorskip("bitbully")
    from tools.bench import perfect
    judge = perfect.shared()
    # the key's column-major cells read as bitbully reads them (both mirror images)
    for moves in ("4452", "4436", "3", "1233"):
        key, stored = build.canonical(moves)
        assert bitbully.Board.from_array(columns_of(key)) == \
            bitbully.Board("".join(str(int(c) - 1) for c in stored)), moves
    with open(BOOK, "rb") as f:
        rows = records(f.read())
    step = max(1, len(rows) // SAMPLE)
    for key, col in rows[::step]:
        board = bitbully.Board.from_array(columns_of(key))
        scores = judge._agent.score_all_moves(board)
        discs = sum(code.bit_length() - 1 for code in key)
        assert col in scores, (key.hex(), col)
        best = max(scores.values())
        if discs % 2 == 0 and best > 0:  # the board moves first and holds a win: a winning move
            assert scores[col] > 0, (key.hex(), col, scores)
        else:  # the board's reply as second player (or a correction): a best move
            assert scores[col] == best, (key.hex(), col, scores)


def test_the_builder_writes_the_format_the_reader_reads():
    lines = {"": 3, "44": 3, "4453": 2, "3": 3, "1234": 4, "766": 0}
    entries = {}
    for moves, col in lines.items():
        key, mirrored = build.key_of(moves)
        entries[key] = 6 - col if mirrored else col
    assert build.encode(entries, 4)[:16] == book_bytes(lines, bits=build.bucket_bits(len(entries)))[:16]
    assert build.encode(entries, 4) == book_bytes(lines, bits=build.bucket_bits(len(entries)))


def test_make_book_is_deterministic_and_resumes_from_its_cache(tmp_path, capsys):
    pytest.importorskip("bitbully")
    cache = str(tmp_path / "scores.txt")
    one, two = str(tmp_path / "one.bin"), str(tmp_path / "two.bin")
    extra = tmp_path / "extra.txt"
    extra.write_text("# a correction the trees do not hold, and one they do\n4455\n-\n")
    found = tmp_path / "exits.txt"  # as tools/book/exits.py writes it, with another engine's fingerprint
    found.write_text("# engine 000000000000: 1 exit\n4422\n")
    args = ["--wide", "4", "--first", "8", "--second-wide", "1", "--second", "3", "--extra", str(extra),
            "--exits", str(found), "--cache", cache, "--jobs", "1", "--out"]
    assert build.main(args + [one]) == 0
    first = capsys.readouterr().out
    assert build.main(args + [two]) == 0
    second = capsys.readouterr().out
    assert open(one, "rb").read() == open(two, "rb").read()
    assert " 0 solved" not in [line for line in first.splitlines() if "ply  3" in line][-1]
    assert "checked against the solver" in first
    assert "2 positions, 1 not in the book yet, 1 entries" in first and "1 corrections, 1 exits" in first
    assert "made with engine 000000000000, the engine is now" in first  # stale: said, and built all the same
    with open(one, "rb") as f:  # the correction's move: its fastest win (4455: 3:18, 6:18), centre first
        bk = book.Book(f)
        assert bk.move(Board("4455")) == 2
        assert bk.move(Board("4422")) == 2  # the exit's: its one fastest win (3:18)
    assert all(" 0 solved" in line for line in second.splitlines() if "solved" in line), second


def test_the_top_level_wins_as_first_player_from_the_book():
    pytest.importorskip("bitbully")
    from tools.bench import perfect
    bk = book.open_book(BOOK)
    for seed in (1, 2, 3):
        ai, other, board = AIPlayer(level=8, seed=seed, book=bk), perfect.PerfectPlayer(seed), Board()
        while not board.is_over():
            if board.turn == 1:
                r = ai.choose(board)
                assert r.stopped == "book" or r.nodes <= 2000, (board.moves_string(), r)
                board.play(r.move)
            else:
                board.play(other.choose(board.moves_string()))
        assert board.winner == 1, board.moves_string()
    bk.f.close()


def _first_ai_move(tmp_path, book_path):
    """A simulated board at level 8, the AI first, run until it has dropped its
    first disc: (the Sim, every status line shown meanwhile). Close the Sim."""
    from host_sim.world import Sim
    s = Sim(str(tmp_path), seed=1, book_path=book_path)
    s.store.settings.update({"mode": "ai", "level": 8, "first": "yellow"})
    s.run_for(1500)
    seen = set()
    for _ in range(20000):
        s.step()
        seen.add(s.status())
        if s.app.board.count >= 1:
            break
    return s, seen


def test_the_app_plays_without_the_book_file(tmp_path):
    s, seen = _first_ai_move(tmp_path, str(tmp_path / "missing.bin"))
    try:
        assert s.app.ai.book is None
        assert s.app.board.count == 1 and not any("book" in t for t in seen), seen
    finally:
        s.close()


def test_the_simulator_status_says_a_move_is_the_books(tmp_path):
    s, seen = _first_ai_move(tmp_path, BOOK)
    try:
        assert s.app.ai.book is not None
        assert s.app.board.moves_string() == "4"
        assert any(t.endswith(": from the opening book") for t in seen), seen
    finally:
        s.close()


def test_the_engine_protocol_says_a_move_is_the_books():
    from connect4.engine.protocol import Protocol
    out = []
    bk = book.open_book(BOOK)
    proto = Protocol(out.append, AIPlayer(book=bk))
    for line in ("position 44", "go"):
        proto.handle(line)
    assert out == ["info book", "bestmove 4"], out
    out[:] = []
    proto = Protocol(out.append, AIPlayer())  # no book: a search, as before
    for line in ("position 44", "go depth 2"):
        proto.handle(line)
    assert "info book" not in out and out[-1].startswith("bestmove")
    bk.f.close()
