"""Rules: lines, wins, draws, full columns, notation errors."""
from connect4.engine.board import Board
from checks import raises, DRAW


def all_lines():
    out = []
    for row in range(6):
        for col in range(7):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                cells = [(col + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < 7 and 0 <= r < 6 for c, r in cells):
                    out.append(cells)
    return out


def test_there_are_69_lines_and_each_wins_from_any_of_its_cells():
    lines = all_lines()
    assert len(lines) == 69
    for line in lines:
        for last in range(4):
            b = Board()
            for k in range(4):
                if k != last:
                    b.cells[(line[k][1] + 1) * 8 + line[k][0]] = 1
            target = line[last]
            assert b.completes_four(target[0], target[1], 1), (line, last)
            assert not b.completes_four(target[0], target[1], 2), (line, last)
            blocker = line[(last + 1) % 4]
            b.cells[(blocker[1] + 1) * 8 + blocker[0]] = 2
            assert not b.completes_four(target[0], target[1], 1), (line, last)


def test_played_wins_in_all_four_directions():
    for moves, line in (("1122334", [(0, 0), (1, 0), (2, 0), (3, 0)]),
                        ("1212121", [(0, 0), (0, 1), (0, 2), (0, 3)]),
                        ("12234334544", [(0, 0), (1, 1), (2, 2), (3, 3)]),
                        ("76654554344", [(6, 0), (5, 1), (4, 2), (3, 3)])):
        b = Board(moves)
        assert b.winner == 1 and b.is_over(), moves
        assert sorted(b.winning_line()) == sorted(line), moves
        b.undo()
        assert b.winner == 0 and not b.is_over()
        assert b.winning_line() is None


def test_draw_on_a_full_board():
    b = Board(DRAW)
    assert b.count == 42 and b.is_full() and b.is_over()
    assert b.winner == 0
    assert b.legal_moves() == []
    assert "game is over" in raises(ValueError, b.play, 0)


def test_play_undo_restores_everything():
    b = Board("4453")
    before = (bytes(b.cells), bytes(b.tops), b.count, b.turn)
    b.play(2)
    assert b.turn == 2 and b.get(2, 1) == 1
    assert b.undo() == 2
    assert (bytes(b.cells), bytes(b.tops), b.count, b.turn) == before
    assert b.moves_string() == "4453"


def test_full_column_is_illegal():
    b = Board("444444")
    assert not b.can_play(3)
    assert b.legal_moves() == [0, 1, 2, 4, 5, 6]
    assert "column 4 is full" in raises(ValueError, b.play, 3)
    assert "index 6" in raises(ValueError, Board, "4444444")


def test_malformed_strings_name_the_move_and_index():
    for text, index in (("0", 0), ("128", 2), ("449", 2), ("12a", 2), ("4 4", 1),
                        ("12121212", 7)):
        message = raises(ValueError, Board, text)
        assert "index %d" % index in message, (text, message)


def test_bad_load_keeps_the_previous_position():
    b = Board("44")
    raises(ValueError, b.load, "1238")
    assert b.moves_string() == "44"
    b.load("")
    assert b.count == 0


def test_heights_and_copy_are_independent():
    b = Board("1112")
    assert [b.height(c) for c in range(7)] == [3, 1, 0, 0, 0, 0, 0]
    c = b.copy()
    c.play(6)
    assert b.count == 4 and c.count == 5


def test_play_returns_the_row_the_disc_landed_in():
    b = Board("1112")
    assert b.play(0) == 3 and b.play(1) == 1 and b.play(6) == 0
    assert b.get(0, 3) == 1 and b.get(1, 1) == 2 and b.get(6, 0) == 1
    assert b.get(0, 4) == 0 and b.get(6, 1) == 0


def test_rows_and_columns_name_every_cell_of_a_full_board():
    """Replaying a drawn game: each move lands on the row `height` promised, and
    get(col, row) then shows the player who dropped it, for all 42 cells."""
    b = Board()
    owner = {}
    for i in range(len(DRAW)):
        col = ord(DRAW[i]) - ord("1")
        row = b.height(col)
        assert b.play(col) == row and 0 <= row < 6
        owner[(col, row)] = 1 + i % 2
    assert len(owner) == 42
    for (col, row), player in owner.items():
        assert b.get(col, row) == player, (col, row)
