"""Boards other than 7x6, judged without bitbully (it solves 7x6 only).

The judge is tools/bench/brute.py, plain minimax to the end of the game with
no pruning and nothing shared with the engine; the fixed checks are John
Tromp's published results for small boards (his table of solved sizes,
https://tromp.github.io/c4/c4.html: "=" a draw, "+" a first-player win, "-" a
second-player win). The whole table for this board's sizes is in
docs/ai.md; `make bench --only sizes` checks the larger entries.
"""
import pytest

from connect4.engine import core, levels
from connect4.engine.board import Board
from connect4.engine.player import AIPlayer
from connect4.engine.rng import Rng
from connect4.engine.search import FORCED_NODES, Searcher, is_win_score
from tools.bench.brute import BruteSolver
from tools.common import CHIP_IPS, board_sizes, chip_instructions_per_node

LONGEST_S = 3  # issue 21: level 8 at most 3 s a move on the chip estimate, on every size

# Tromp's table, the sizes this board plays: (cols, rows) -> 1 first player wins, 0 draw, -1 second
TROMP = {
    (4, 4): 0, (5, 4): 0, (6, 4): -1, (7, 4): 0, (8, 4): -1,
    (4, 5): 0, (5, 5): 0, (6, 5): 0, (7, 5): 0, (8, 5): 1,
    (4, 6): 0, (5, 6): 0, (6, 6): -1, (7, 6): 1, (8, 6): -1,
    (4, 7): 0, (5, 7): 0, (6, 7): 1, (7, 7): 0, (8, 7): 1,
}


def sign(x):
    return (x > 0) - (x < 0)


def exact(board, searcher=None):
    """The engine's exact score of `board` (side to move): its core searched to
    the end of the game with the full window, no budget."""
    s = searcher or Searcher(tt_entries=4096)
    h = core.load_position(s.arena, board.cells, board.tops, board.count)
    s.new_game()
    core.prepare(s.arena, s.tt_entries, 0, 0xFFFF)
    return core.search(s.arena, board.discs - board.count, -core.INF, core.INF, h)


def weak(cols, rows):
    """The engine's game value of the empty cols x rows board: 1, 0 or -1 (window -1..1)."""
    s = Searcher(tt_entries=65536)
    board = Board("", cols, rows)
    h = core.load_position(s.arena, board.cells, board.tops, board.count)
    core.prepare(s.arena, s.tt_entries, 0, 0xFFFF)
    return sign(core.search(s.arena, board.discs, -1, 1, h))


def test_the_brute_force_solver_gives_tromps_4x4_draw_and_knows_a_win():
    solver = BruteSolver(4, 4)
    assert solver.value("") == 0  # Tromp: 4x4 is a draw
    assert len(solver.memo) > 100000  # the whole game, every position
    # X has columns 1, 2, 3 of the bottom row, O the row above: X's disc 7 wins in column 4
    assert solver.value("112233") == 1000 + 16 + 1 - 7
    values = solver.move_values("112233")
    assert values[3] == 1000 + 16 + 1 - 7 and max(values.values()) == values[3]
    assert all(values[c] < values[3] for c in (0, 1, 2)), values


@pytest.mark.parametrize("size", [(4, 4), (5, 4), (4, 5)])
def test_the_engine_finds_tromps_value_of_the_smallest_boards(size):
    assert weak(*size) == TROMP[size]


def test_the_engine_finds_tromps_value_of_6x4_a_second_player_win_and_4x6_a_draw():
    assert weak(6, 4) == TROMP[(6, 4)] == -1
    assert weak(4, 6) == TROMP[(4, 6)] == 0


def random_position(rng, cols, rows, least, most):
    """A random unfinished position of `least` to `most` discs."""
    while True:
        board = Board("", cols, rows)
        length = least + rng.below(most - least + 1)
        while board.count < length and not board.is_over():
            moves = board.legal_moves()
            board.play(moves[rng.below(len(moves))])
        if not board.is_over():
            return board


@pytest.mark.parametrize("size,least,count", [((4, 4), 0, 40), ((5, 4), 6, 25), ((4, 5), 5, 25)])
def test_the_exact_search_agrees_with_brute_force_on_random_positions(size, least, count):
    cols, rows = size
    solver = BruteSolver(cols, rows)
    searcher = Searcher(tt_entries=4096)
    rng = Rng(cols * 10 + rows)
    kinds = set()
    for _ in range(count):
        board = random_position(rng, cols, rows, least, cols * rows - 2)
        truth = solver.value(board.moves_string())
        assert exact(board, searcher) == truth, (board.size, board.moves_string())
        kinds.add(sign(truth))
    assert kinds == {-1, 0, 1}  # wins, draws and losses were all met


@pytest.mark.parametrize("size,least,count", [((4, 4), 0, 30), ((5, 4), 5, 20), ((4, 5), 4, 20)])
def test_the_top_level_plays_a_proven_best_move_on_boards_of_20_cells(size, least, count):
    """Within its own node budget, every move keeps the position's game value
    (a win stays won, a draw drawn) and, when the search was not stopped, its
    score is the exact one."""
    cols, rows = size
    solver = BruteSolver(cols, rows)
    rng = Rng(7 * cols + rows)
    for i in range(count):
        board = random_position(rng, cols, rows, least, cols * rows - 2)
        ai = AIPlayer(level=levels.MAX_LEVEL, seed=i, blunder=0)
        result = ai.choose(board)
        values = solver.move_values(board.moves_string())
        best = max(values.values())
        assert sign(values[result.move]) == sign(best), (board.size, board.moves_string(), result, values)
        if result.stopped:  # only a forced move may stop: the one move that does not lose at once
            assert result.nodes <= FORCED_NODES + 1, (board.size, board.moves_string(), result)
            continue
        assert result.score == best or (result.score == values[result.move] and is_win_score(best)), \
            (board.size, board.moves_string(), result, values)


def test_the_levels_node_costs_bound_the_recorded_instructions_per_node_of_every_size():
    """levels.node_cost is the chip's count on each size (tools/data/chip.txt, written by
    tools/chip/speed.py --record) over the 7x6 one, rounded up: a level's budget then keeps
    its chip time on every size."""
    base = chip_instructions_per_node("7x6")
    for name in board_sizes():
        cols, rows = (int(v) for v in name.split("x"))
        figure = chip_instructions_per_node(name)
        cost = levels.node_cost(cols, rows)
        assert cost * base >= 100 * figure and (cost - 1) * base < 100 * figure, (name, cost, figure, base)
        assert levels.nodes(levels.MAX_LEVEL, cols, rows) * figure <= levels.nodes(levels.MAX_LEVEL) * base
        # level 8's longest move, its whole budget and the node that finds it spent, within 3 s
        assert (levels.nodes(levels.MAX_LEVEL, cols, rows) + 1) * figure <= LONGEST_S * CHIP_IPS, name
    assert levels.node_cost(7, 6) == 100
    # 7x6's other figure (chipbench's own positions) too
    assert (levels.nodes(levels.MAX_LEVEL) + 1) * chip_instructions_per_node() <= LONGEST_S * CHIP_IPS
