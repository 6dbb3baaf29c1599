"""The engine line protocol: round trips with good and bad lines."""
from connect4.engine.protocol import Protocol, StreamLines


def session(lines):
    out = []
    p = Protocol(out.append)
    alive = True
    for line in lines:
        alive = p.handle(line)
        if not alive:
            break
    return out, alive, p


def test_go_answers_info_then_a_legal_bestmove():
    out, alive, p = session(["position 4453", "go depth 4"])
    assert alive
    assert out[-1].startswith("bestmove ")
    col = int(out[-1].split()[1])
    assert 1 <= col <= 7 and p.board.can_play(col - 1)
    infos = [line.split() for line in out[:-2]]
    assert [int(w[2]) for w in infos] == [1, 2, 3, 4]
    total = out[-2].split()  # the move's whole count: here its last iteration's
    assert total[:2] == ["info", "nodes"] and int(total[2]) == int(infos[-1][6])
    for w in infos:
        assert w[0] == "info" and w[1] == "depth" and w[3] == "score" and w[5] == "nodes"
        int(w[4])
        int(w[6])


def test_go_nodes_limits_the_search():
    out, _, _ = session(["position", "go nodes 500"])
    assert out[-1].startswith("bestmove ")
    for line in out[:-2]:
        assert int(line.split()[6]) <= 501
    assert out[-2].startswith("info nodes ") and 0 < int(out[-2].split()[2]) <= 501


def test_takes_the_win():
    out, _, _ = session(["position 112233", "level 1", "blunder 100", "go"])
    assert out[-1] == "bestmove 4"


def test_bad_lines_answer_error_and_change_nothing():
    bad = ["position 4458", "position 12 34", "position 4444444", "go depth", "go depth 0",
           "go nodes -5", "go speed 3", "level", "level 0", "level 99", "level x",
           "seed", "seed -1", "blunder 101", "blunder x", "frobnicate", "position abc",
           "\x00\x01", "go depth 3 nodes"]
    out, alive, p = session(["position 44"] + bad)
    assert alive
    assert len(out) == len(bad)
    for line in out:
        assert line.startswith("error "), line
    assert p.board.moves_string() == "44"
    assert p.player.level == 8


def test_options_and_quit():
    out, alive, p = session(["level 3", "seed 42", "blunder 0", "isready", "", "quit", "isready"])
    assert out == ["readyok"]
    assert not alive
    assert p.player.level == 3 and p.player.blunder == 0


def test_go_on_a_finished_game_is_an_error():
    out, _, _ = session(["position 1212121", "go"])
    assert out[0].startswith("error "), out


def test_numbers_are_ascii_digits_only_with_the_boards_message():
    # CPython's int() takes any Unicode digit, the board's only ASCII ones: one behaviour.
    bad = ["level \uff18", "go depth \u0663", "seed \u0661", "blunder \uff15", "go nodes 1\u0660\u0660",
           "level +3", "level 1_0", "go movetime \u0663"]
    out, alive, p = session(["position 4"] + bad)
    assert out == ["error level must be a number, not '\\uff18'",
                   "error depth must be a number, not '\\u0663'",
                   "error seed must be a number, not '\\u0661'",
                   "error blunder must be a number, not '\\uff15'",
                   "error nodes must be a number, not '1\\u0660\\u0660'",
                   "error level must be a number, not '+3'",
                   "error level must be a number, not '1_0'",
                   "error movetime must be a number, not '\\u0663'"]
    assert p.player.level == 8 and p.board.moves_string() == "4"


def test_only_ascii_whitespace_separates_words():
    # CPython's str.split() also splits at U+3000, U+00A0 and \x1c-\x1f; the board's does not.
    out, _, p = session(["level\u30003", "go\x1cdepth 2", "position\xa044", "level 3\x1f"])
    assert len(out) == 4 and all(line.startswith("error ") for line in out), out
    assert p.player.level == 8 and p.board.count == 0


def test_messages_quote_text_as_the_board_does():
    out, _, _ = session(["caf\xe9", "x\U0001f600", "it's", 'a"b', "\x00\x7f", "position 4\u0664"])
    assert [line.split(";")[0] for line in out] == [
        "error unknown command 'caf\\xe9'", "error unknown command 'x\\U0001f600'",
        "error unknown command \"it's\"", "error unknown command 'a\"b'",
        "error unknown command '\\x00\\x7f'", "error move '\\u0664' at index 1: not a column 1-7"]


def test_lines_as_bytes_and_bytes_that_are_not_utf8():
    out, alive, p = session([b"isready\n", b"\xff\n", b"position 4\xc3\n", b"go \xe9\xe9 3\r\n",
                             "position 44\n".encode(), b"isready"])
    assert alive
    assert out == ["readyok", "error the line is not UTF-8 text", "error the line is not UTF-8 text",
                   "error the line is not UTF-8 text", "readyok"]
    assert p.board.moves_string() == "44"


def test_go_movetime_and_mixed_limits():
    out, _, _ = session(["level 1", "blunder 0", "position 4453", "go movetime 5000", "go depth 3 nodes 400 movetime 60000",
                         "go movetime 0", "go movetime 3600001", "go movetime x", "go movetime"])
    bests = [i for i, line in enumerate(out) if line.startswith("bestmove ")]
    assert len(bests) == 2
    infos = [line.split() for line in out[bests[0] + 1:bests[1] - 1]]
    assert infos and all(int(w[2]) <= 3 and int(w[6]) <= 401 for w in infos)
    assert out[bests[1] - 1].startswith("info nodes ") and int(out[bests[1] - 1].split()[2]) <= 401
    assert [line.split(" must")[0] for line in out[bests[1] + 1:]] == [
        "error movetime", "error movetime", "error movetime", "error go takes pairs: depth D, nodes N, movetime MS"]


class FakeLines:
    """A line source: `ready()` gives nothing for `wait` polls, then the lines that 'arrive'."""

    def __init__(self, typed=(), arriving=(), wait=2):
        self.typed = list(typed)  # already waiting when `go` starts
        self.arriving = list(arriving)
        self.wait = wait
        self.polls = 0
        self.searching = False

    def next(self):
        return None

    def ready(self):
        if self.typed:
            return self.typed.pop(0)
        self.polls += 1
        if self.polls > self.wait and self.arriving:
            return self.arriving.pop(0)
        return None


def search_with(lines, go="go depth 42 nodes 200000"):
    out = []
    p = Protocol(out.append)
    p.lines = lines
    alive = p.handle(go)
    return out, alive, p


def test_stop_during_a_search_ends_it_with_a_bestmove():
    lines = FakeLines(arriving=["position 4", "isready", "stop", "level 2"], wait=3)
    out, alive, p = search_with(lines)
    assert alive
    best = [i for i, line in enumerate(out) if line.startswith("bestmove ")]
    assert best == [len(out) - 1]
    assert "readyok" in out  # answered at once, the search went on
    for line in out:
        if line.startswith("info depth "):
            assert int(line.split()[6]) < 10 * 256
        elif line.startswith("info nodes "):
            assert int(line.split()[2]) < 10 * 256
    assert p.backlog == ["position 4"]  # handled after the search
    assert lines.arriving == ["level 2"]  # not read yet: after the backlog
    assert p.board.count == 0 and p.player.level == 8


def test_quit_during_a_search_ends_it_and_the_session():
    out, alive, p = search_with(FakeLines(arriving=["level 2", "quit", "isready"], wait=2))
    assert not alive
    assert out[-1].startswith("bestmove ")
    assert "readyok" not in out


def test_lines_waiting_before_go_wait_for_its_end():
    plain = search_with(FakeLines(), go="go depth 5")[0]
    out, alive, p = search_with(FakeLines(typed=["stop", "quit", "isready"]), go="go depth 5")
    assert alive and out == plain  # the search ran to its end, nothing answered in between
    assert p.backlog == ["stop", "quit", "isready"]


def test_serve_runs_the_backlog_before_new_lines_and_stop_alone_is_quiet():
    class Script(FakeLines):
        def __init__(self):
            FakeLines.__init__(self, arriving=["isready", "level 2", "stop", "level 3"], wait=1)
            self.script = ["stop", "go depth 42 nodes 200000", "level 5", None]

        def next(self):
            return self.script.pop(0)

    out = []
    p = Protocol(out.append)
    p.serve(Script())
    answers = [line.split()[0] for line in out if not line.startswith("info ")]
    assert answers == ["readyok", "bestmove"]
    assert p.player.level == 5  # level 2 from the backlog, then level 5 from next(), level 3 never read


class FakeStream:
    def __init__(self, data):
        self.data = data
        self.most = 0  # the most bytes one call asked for (-1: no bound)

    def read(self, n):
        self.most = max(self.most, n) if self.most >= 0 and n >= 0 else -1
        chunk, self.data = self.data[:n], self.data[n:]
        return chunk

    def readline(self, size=-1):
        i = self.data.find(b"\n") + 1 or len(self.data)
        if size < 0:
            self.most = -1
        return self.read(min(i, size) if size >= 0 else i)


def test_stream_lines_join_bytes_read_one_by_one_during_a_search():
    stream = FakeStream(b"sto")
    lines = StreamLines(stream, lambda: len(stream.data) > 0)
    assert lines.ready() is None  # a partial line is kept
    stream.data += b"p\nisre"
    assert lines.ready() == b"stop\n"
    assert lines.ready() is None
    stream.data += b"ady\nquit\n"
    assert lines.next() == b"isready\n"
    assert lines.next() == b"quit\n"
    stream.data = b"tail"
    assert lines.ready() is None
    assert lines.next() == b"tail"
    assert lines.next() is None and lines.ready() is None


def test_stream_lines_without_a_way_to_poll_never_read_during_a_search():
    stream = FakeStream(b"stop\n")
    lines = StreamLines(stream)
    assert lines.ready() is None
    assert lines.next() == b"stop\n" and lines.next() is None


def test_a_new_position_starts_the_table_afresh_and_a_game_on_keeps_it():
    game = ["position 4453", "go depth 8", "seed 1", "position 445344", "go depth 8"]
    alone = session(["seed 1", "position 445344", "go depth 8"])[0]  # the same seed: the same ties
    on = session(game)[0]
    assert on[-1] == alone[-1]
    nodes = lambda out: int(out[-2].split()[2])  # noqa: E731 (the move's `info nodes N`)
    assert nodes(on[len(on) - len(alone):]) < nodes(alone)  # the first go's table served the second
    again = ["seed 1", "position 4453", "go depth 8"]  # two moves taken back; the same ties
    other = session(game + again)[0]
    assert other[len(on):] == session(again)[0]


def test_a_line_over_the_cap_answers_error_line_too_long_and_is_not_echoed():
    from connect4.engine.protocol import MAX_LINE
    huge = "frobnicate " + "x" * 5000
    out, alive, p = session(["position 44", huge, huge.encode(), "position " + "4" * 2000, "isready"])
    assert alive and out == ["error line too long"] * 3 + ["readyok"]
    assert p.board.moves_string() == "44"
    ok = "isready" + " " * (MAX_LINE - len("isready"))  # just at the cap: a line like any other
    assert session([ok, ok + "\n", (ok + "\r\n").encode(), ok + " "])[0] == ["readyok"] * 3 + [
        "error line too long"]


def test_stream_lines_read_a_long_line_in_bounded_pieces():
    """A 5 MB line never sits in memory whole (the board has 180 KB): it is read in pieces
    of at most MAX_LINE + 2 bytes, answered `error line too long`, and the next line is read."""
    from connect4.engine.protocol import MAX_LINE
    stream = FakeStream(b"position 4" + b"4" * 50000 + b"\nisready\nposition 45\n")
    lines = StreamLines(stream)
    out = []
    p = Protocol(out.append)
    p.serve(lines)
    assert out == ["error line too long", "readyok"] and p.board.moves_string() == "45"
    assert 0 < stream.most <= MAX_LINE + 2


def test_stream_lines_drop_a_long_line_read_during_a_search():
    from connect4.engine.protocol import MAX_LINE
    stream = FakeStream(b"stop " + b"x" * 3000)
    lines = StreamLines(stream, lambda: len(stream.data) > 0)
    assert lines.ready() is None  # the long line: its head kept, the rest dropped to its end
    assert len(lines.partial) <= MAX_LINE + 2
    stream.data += b"\nisready\n"
    out = []
    p = Protocol(out.append)
    p.lines = lines
    assert not p._poll()  # a long line starting "stop" is no stop: it waits for its error
    assert len(p.backlog) == 1 and len(p.backlog[0]) <= MAX_LINE + 3
    p.handle(p.backlog.pop(0))
    assert out == ["readyok", "error line too long"]
    stream.data = b"go " + b"1" * 2000  # cut by the end of input, no line end: too long all the same
    lines = StreamLines(stream, lambda: len(stream.data) > 0)
    assert lines.ready() is None
    Protocol(out.append).handle(lines.next())
    assert out[-1] == "error line too long" and lines.next() is None


def test_size_sets_an_empty_board_of_that_size_and_positions_follow_it():
    out, alive, p = session(["size", "size 8x7", "size", "position 8888888", "go depth 3",
                             "position 9", "go depth 60", "size 4x4", "position 5", "position 1234",
                             "go depth 2", "size 7x6", "size"])
    assert alive
    assert out[0] == "size 7x6" and out[1] == "size 8x7"
    assert out[-1] == "size 7x6"
    bests = [line for line in out if line.startswith("bestmove")]
    assert len(bests) == 2 and 1 <= int(bests[0].split()[1]) <= 7  # column 8 is full
    assert "error move '9' at index 0: not a column 1-8" in out
    assert "error depth must be 1 to 56" in out
    assert "error move '5' at index 0: not a column 1-4" in out
    assert 1 <= int(bests[1].split()[1]) <= 4
    assert p.board.size == "7x6" and p.board.count == 0


def test_an_unsupported_or_malformed_size_is_an_error_and_keeps_the_board():
    out, alive, p = session(["size 5x5", "position 333", "size 9x7", "size 8x3", "size 3x4", "size x",
                             "size 7x6x2", "size 7\u00d76", "size 7 6", "size", "go depth 1"])
    assert alive
    assert out[:7] == ["error unsupported size 9x7: columns 4-8, rows 4-7",
                       "error unsupported size 8x3: columns 4-8, rows 4-7",
                       "error unsupported size 3x4: columns 4-8, rows 4-7",
                       "error size 'x': expected COLSxROWS, like 7x6",
                       "error size '7x6x2': expected COLSxROWS, like 7x6",
                       "error size '7\\xd76': expected COLSxROWS, like 7x6",
                       "error size takes one argument"]
    assert out[7] == "size 5x5" and p.board.moves_string() == "333"
    assert out[-1].startswith("bestmove")
