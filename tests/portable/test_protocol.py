"""The engine line protocol: round trips with good and bad lines."""
from connect4.engine.protocol import Protocol


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
    infos = [line.split() for line in out[:-1]]
    assert [int(w[2]) for w in infos] == [1, 2, 3, 4]
    for w in infos:
        assert w[0] == "info" and w[1] == "depth" and w[3] == "score" and w[5] == "nodes"
        int(w[4])
        int(w[6])


def test_go_nodes_limits_the_search():
    out, _, _ = session(["position", "go nodes 500"])
    assert out[-1].startswith("bestmove ")
    for line in out[:-1]:
        assert int(line.split()[6]) <= 501


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
