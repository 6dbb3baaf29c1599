"""A threat-aware depth-6 Connect 4 AI, a fixed reference for the rating ladder.

It follows the evaluation of the ESP32 Connect 4 notes this project grew
from, counted for each side and subtracted (the side to move's view):
  - a playable threat (three of a side's discs and an empty cell in a
    window of four, the empty cell playable now): 100;
  - a floating threat (the same, the empty cell not yet playable): 40;
  - two discs with two empty cells in a window: 5;
  - a disc in the centre column: 3;
  - a fork (two or more distinct playable threats at once): 200 more.
Negamax with alpha-beta to depth 6, columns tried centre first, the first of
equal scores kept: deterministic, so the ladder's openings give it variety.
A won game scores 10^6 less the plies to it (the fastest win is preferred).
Host only; independent of the firmware's engine (its own 6x7 grid).
"""
ROWS, COLS = 6, 7
WIN = 10 ** 6
ORDER = (3, 2, 4, 1, 5, 0, 6)  # centre first
PLAYABLE, FLOATING, TWO, CENTRE, FORK = 100, 40, 5, 3, 200


def _windows():
    out = []
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                cells = [(r + k * dr) * COLS + c + k * dc for k in range(4)]
                if 0 <= r + 3 * dr < ROWS and c + 3 * dc < COLS:
                    out.append(tuple(cells))
    return tuple(out)


WINDOWS = _windows()


class ThreatAI:
    """choose(board) -> 0-based column, for a connect4 Board (its get/turn)."""

    def __init__(self, depth=6):
        self.depth = depth
        self._leaves = {}

    def choose(self, board):
        grid = [board.get(c, r) for r in range(ROWS) for c in range(COLS)]
        heights = [board.height(c) for c in range(COLS)]
        self._leaves = {}  # leaf evaluations of this move's search, by position
        try:
            return self.best(grid, heights, board.turn)
        finally:
            self._leaves = {}

    def best(self, grid, heights, piece):
        """The best column for `piece` (1 or 2) on a row-major grid."""
        best_col, alpha = None, -2 * WIN
        for col in ORDER:
            if heights[col] >= ROWS:
                continue
            value = self._move_value(grid, heights, piece, col, self.depth - 1, alpha, 2 * WIN, 1)
            if best_col is None or value > alpha:
                best_col, alpha = col, value
        return best_col

    def _move_value(self, grid, heights, piece, col, depth, alpha, beta, ply):
        """`piece`'s value of dropping in the playable `col` at `ply`: a win at
        once, else minus the reply's negamax `depth` plies deep (window alpha, beta)."""
        i = heights[col] * COLS + col
        grid[i] = piece
        heights[col] += 1
        if wins_at(grid, i, piece):
            value = WIN - ply
        else:
            value = -self._negamax(grid, heights, 3 - piece, depth, -beta, -alpha, ply + 1)
        heights[col] -= 1
        grid[i] = 0
        return value

    def _negamax(self, grid, heights, piece, depth, alpha, beta, ply):
        if all(h >= ROWS for h in heights):
            return 0
        if depth == 0:
            key = bytes(grid)
            value = self._leaves.get(key)
            if value is None:
                value = self._leaves[key] = evaluate(grid, heights, 1)
            return value if piece == 1 else -value
        best = -2 * WIN
        for col in ORDER:
            if heights[col] >= ROWS:
                continue
            value = self._move_value(grid, heights, piece, col, depth - 1, alpha, beta, ply)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best


def wins_at(grid, i, piece):
    """Whether the disc of `piece` at cell i completes four."""
    r, c = divmod(i, COLS)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
        run = 1
        for sgn in (1, -1):
            rr, cc = r + sgn * dr, c + sgn * dc
            while 0 <= rr < ROWS and 0 <= cc < COLS and grid[rr * COLS + cc] == piece:
                run += 1
                rr, cc = rr + sgn * dr, cc + sgn * dc
        if run >= 4:
            return True
    return False


def _window_table():
    """For each base-3 code of a window's four cells (0 empty, 1, 2): per
    piece, (index of the hole of a three, or -1; 1 if two with two empty)."""
    table = []
    for code in range(81):
        cells = [(code // 3 ** (3 - k)) % 3 for k in range(4)]
        row = []
        for piece in (1, 2):
            own, empty = cells.count(piece), cells.count(0)
            hole = cells.index(0) if own == 3 and empty == 1 else -1
            row.append((hole, 1 if own == 2 and empty == 2 else 0))
        table.append(tuple(row))
    return tuple(table)


WINDOW_TABLE = _window_table()


def evaluate(grid, heights, piece):
    """The notes' evaluation for `piece` minus the same for its opponent."""
    values = side_values(grid, heights)
    return values[piece] - values[3 - piece]


def side_value(grid, heights, piece):
    """The notes' evaluation of one side alone."""
    return side_values(grid, heights)[piece]


def side_values(grid, heights):
    """[unused, value of piece 1, value of piece 2], in one pass over the windows."""
    values = [0, 0, 0]
    threats = (None, set(), set())
    for a, b, c, d in WINDOWS:
        entry = WINDOW_TABLE[grid[a] * 27 + grid[b] * 9 + grid[c] * 3 + grid[d]]
        for side in (1, 2):
            hole, two = entry[side - 1]
            if hole >= 0:
                cell = (a, b, c, d)[hole]
                if heights[cell % COLS] == cell // COLS:
                    threats[side].add(cell)
                else:
                    values[side] += FLOATING
            elif two:
                values[side] += TWO
    for side in (1, 2):
        values[side] += CENTRE * sum(1 for r in range(ROWS) if grid[r * COLS + COLS // 2] == side)
        values[side] += PLAYABLE * len(threats[side])
        if len(threats[side]) >= 2:
            values[side] += FORK
    return values
