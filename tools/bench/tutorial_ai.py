"""The classic tutorial Connect 4 AI, as a fixed sparring partner for `make bench`.

Depth-5 minimax with alpha-beta over a 6x7 grid, scoring from its own point
of view: centre-column discs x3, and for every 4-cell window 4 own = 100,
3 own + 1 empty = 5, 2 own + 2 empty = 2, 3 opponent + 1 empty = -4; a won
game is +-1e14. Columns are tried left to right and ties go to the first,
with a seeded random starting choice as in the tutorial.

Adapted to any board size (`make bench --only sizes`): the grid, the windows
and the centre column (cols // 2, the tutorial's) are the board's; on 7x6 it
plays exactly as the tutorial.
"""
import random

ROWS, COLS = 6, 7
WIN_SCORE = 10 ** 14


def _lines(rows=ROWS, cols=COLS):
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    out.append([rr * cols + cc for rr, cc in cells])
    return out


LINES = _lines()


class TutorialAI:
    def __init__(self, depth=5, seed=0):
        self.depth = depth
        self.rng = random.Random(seed)
        self._size(ROWS, COLS)

    def _size(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.lines = LINES if (rows, cols) == (ROWS, COLS) else _lines(rows, cols)

    def _valid(self, grid):
        return [c for c in range(self.cols) if grid[(self.rows - 1) * self.cols + c] == 0]

    def _drop(self, grid, col, piece):
        for r in range(self.rows):
            if grid[r * self.cols + col] == 0:
                grid[r * self.cols + col] = piece
                return r * self.cols + col
        raise ValueError("full column")

    def _wins(self, grid, piece):
        return any(all(grid[i] == piece for i in line) for line in self.lines)

    def _score(self, grid, piece):
        opp = 3 - piece
        cols = self.cols
        score = 3 * sum(1 for r in range(self.rows) if grid[r * cols + cols // 2] == piece)
        for line in self.lines:
            vals = [grid[i] for i in line]
            own, empty, theirs = vals.count(piece), vals.count(0), vals.count(opp)
            if own == 4:
                score += 100
            elif own == 3 and empty == 1:
                score += 5
            elif own == 2 and empty == 2:
                score += 2
            if theirs == 3 and empty == 1:
                score -= 4
        return score

    def _minimax(self, grid, depth, alpha, beta, maximizing, piece):
        valid = self._valid(grid)
        if self._wins(grid, piece):
            return None, WIN_SCORE
        if self._wins(grid, 3 - piece):
            return None, -WIN_SCORE
        if not valid:
            return None, 0
        if depth == 0:
            return None, self._score(grid, piece)
        best_col = self.rng.choice(valid)
        mover = piece if maximizing else 3 - piece
        best = -float("inf") if maximizing else float("inf")
        for col in valid:
            i = self._drop(grid, col, mover)
            value = self._minimax(grid, depth - 1, alpha, beta, not maximizing, piece)[1]
            grid[i] = 0
            if maximizing and value > best or not maximizing and value < best:
                best, best_col = value, col
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best_col, best

    def choose(self, board):
        """0-based column for the side to move of a connect4 Board (any size)."""
        rows, cols = getattr(board, "rows", ROWS), getattr(board, "cols", COLS)
        if (rows, cols) != (self.rows, self.cols):
            self._size(rows, cols)
        grid = [board.get(c, r) for r in range(rows) for c in range(cols)]
        return self._minimax(grid, self.depth, -float("inf"), float("inf"), True, board.turn)[0]
