"""The portable tests' fixed positions are what they claim, by the perfect solver."""
from checks import WIN_IN_3, WIN_IN_5, DRAW
from connect4.engine.board import Board
from tools.bench.solver import solve


def test_forced_win_positions_are_exact():
    for positions, plies in ((WIN_IN_3, 3), (WIN_IN_5, 5)):
        for moves in positions:
            b = Board(moves)
            assert not any(b.is_winning_move(c) for c in b.legal_moves())
            # Pons' score: a win whose last disc lands on a board of n discs is (43 - n) // 2
            assert solve(moves) == (43 - (b.count + plies - 1)) // 2, moves


def test_draw_fixture_is_a_drawn_full_board():
    b = Board(DRAW)
    assert b.is_full() and b.winner == 0
