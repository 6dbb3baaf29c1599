"""The classic tutorial Connect 4 AI, as a fixed sparring partner for `make bench`.

Depth-5 minimax with alpha-beta over a 6x7 grid, scoring from its own point
of view: centre-column discs x3, and for every 4-cell window 4 own = 100,
3 own + 1 empty = 5, 2 own + 2 empty = 2, 3 opponent + 1 empty = -4; a won
game is +-1e14. Columns are tried left to right and ties go to the first,
with a seeded random starting choice as in the tutorial.
"""
import random

ROWS, COLS = 6, 7
WIN_SCORE = 10 ** 14


def _lines():
    out = []
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < ROWS and 0 <= cc < COLS for rr, cc in cells):
                    out.append([rr * COLS + cc for rr, cc in cells])
    return out


LINES = _lines()


class TutorialAI:
    def __init__(self, depth=5, seed=0):
        self.depth = depth
        self.rng = random.Random(seed)

    @staticmethod
    def _valid(grid):
        return [c for c in range(COLS) if grid[(ROWS - 1) * COLS + c] == 0]

    @staticmethod
    def _drop(grid, col, piece):
        for r in range(ROWS):
            if grid[r * COLS + col] == 0:
                grid[r * COLS + col] = piece
                return r * COLS + col
        raise ValueError("full column")

    @staticmethod
    def _wins(grid, piece):
        return any(all(grid[i] == piece for i in line) for line in LINES)

    @staticmethod
    def _score(grid, piece):
        opp = 3 - piece
        score = 3 * sum(1 for r in range(ROWS) if grid[r * COLS + COLS // 2] == piece)
        for line in LINES:
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
        """0-based column for the side to move of a connect4 Board."""
        grid = [board.get(c, r) for r in range(ROWS) for c in range(COLS)]
        return self._minimax(grid, self.depth, -float("inf"), float("inf"), True, board.turn)[0]
