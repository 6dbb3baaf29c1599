"""Connect 4 rules on a padded 8x8 bytearray (7 columns x 6 rows inside a border).

Callers speak columns and rows: `play(col)` returns the row the disc landed
in, `get(col, row)` says whose disc is there, `height(col)` how many discs a
column holds, `winning_line()` gives (col, row) pairs. Columns 0-6 from the
left, rows 0-5 from the bottom, players 1 (moves first) and 2, 0 for empty.

Inside the engine, cell (col, row) lives at index (row + 1) * 8 + col. Column 7
and rows -1 and 6 hold BORDER, so a scan from any cell in any of the four
directions stops by itself: no bounds checks, the same layout the search core
uses. `cells` and `tops` are that layout: the search core loads them, nothing
outside the engine should index them.
"""
from micropython import const

WIDTH = const(7)
HEIGHT = const(6)
STRIDE = const(8)
CELLS = const(64)
EMPTY = const(0)
BORDER = const(3)
TOP_ROW_END = const(56)  # first index past the playing field
DIRECTIONS = (1, 7, 8, 9)  # horizontal, anti-diagonal, vertical, diagonal
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)  # the columns in the order the AI tries them


def cell_index(col, row):
    return (row + 1) * STRIDE + col


def new_cells():
    """A padded empty field: every non-playing cell is BORDER."""
    cells = bytearray(CELLS)
    for i in range(CELLS):
        if i < STRIDE or i >= TOP_ROW_END or (i & 7) == 7:
            cells[i] = BORDER
    return cells


def run_length(cells, index, delta, player):
    """Count consecutive `player` discs from index + delta onward."""
    n = 0
    i = index + delta
    while cells[i] == player:
        n += 1
        i += delta
    return n


def completes_four(cells, index, player):
    """Would a `player` disc at `index` make four in a row?"""
    for d in DIRECTIONS:
        if 1 + run_length(cells, index, d, player) + run_length(cells, index, -d, player) >= 4:
            return True
    return False


class Board:
    """A game in progress: play, undo, legality, wins and draws.

    Players are 1 (moves first) and 2. `play` and `load` validate; the search
    core works on a copy of `cells` and `tops` and never calls back into this.
    """

    def __init__(self, moves=""):
        self.cells = new_cells()  # the padded layout (engine only)
        self.tops = bytearray(WIDTH)  # next free cell index per column (engine only)
        self.history = bytearray(WIDTH * HEIGHT)
        self.count = 0
        self.winner = 0
        self.reset()
        if moves:
            self.load(moves)

    def reset(self):
        cells = self.cells
        for col in range(WIDTH):
            for row in range(HEIGHT):
                cells[cell_index(col, row)] = EMPTY
            self.tops[col] = cell_index(col, 0)
        self.count = 0
        self.winner = 0

    def copy(self):
        other = Board()
        other.cells[:] = self.cells
        other.tops[:] = self.tops
        other.history[:] = self.history
        other.count = self.count
        other.winner = self.winner
        return other

    @property
    def turn(self):
        """The player to move: 1 or 2."""
        return 1 + (self.count & 1)

    def height(self, col):
        """How many discs column `col` holds: the row the next one lands in."""
        return self.tops[col] // STRIDE - 1

    def get(self, col, row):
        """The player whose disc is at (col, row), or 0 (EMPTY)."""
        return self.cells[(row + 1) * STRIDE + col]  # cell_index, inlined: the app draws with it

    def can_play(self, col):
        return 0 <= col < WIDTH and self.tops[col] < TOP_ROW_END and not self.is_over()

    def legal_moves(self):
        if self.is_over():
            return []
        return [c for c in range(WIDTH) if self.tops[c] < TOP_ROW_END]

    def is_full(self):
        return self.count >= WIDTH * HEIGHT

    def is_over(self):
        return self.winner != 0 or self.count >= WIDTH * HEIGHT

    def is_winning_move(self, col, player=0):
        """Would dropping in `col` win at once for `player` (default: side to move)?"""
        if not (0 <= col < WIDTH) or self.tops[col] >= TOP_ROW_END:
            return False
        return completes_four(self.cells, self.tops[col], player or self.turn)

    def is_winning_move_at(self, col, row, player):
        """Would a `player` disc at (col, row) make four, were the cell reachable?"""
        return completes_four(self.cells, cell_index(col, row), player)

    def play(self, col):
        """Drop the side to move's disc in 0-based `col`; return the row it landed in.

        Raise ValueError if the move is illegal.
        """
        if self.is_over():
            raise ValueError("game is over")
        if not (0 <= col < WIDTH):
            raise ValueError("no column %d" % (col + 1))
        index = self.tops[col]
        if index >= TOP_ROW_END:
            raise ValueError("column %d is full" % (col + 1))
        player = self.turn
        self.cells[index] = player
        self.tops[col] = index + STRIDE
        self.history[self.count] = col
        self.count += 1
        if completes_four(self.cells, index, player):
            self.winner = player
        return index // STRIDE - 1

    def undo(self):
        """Take back the last move; return its column."""
        if self.count == 0:
            raise ValueError("nothing to undo")
        self.count -= 1
        col = self.history[self.count]
        index = self.tops[col] - STRIDE
        self.cells[index] = EMPTY
        self.tops[col] = index
        self.winner = 0
        return col

    def load(self, moves):
        """Replace the position with the one reached by a string of 1-based column digits.

        On a bad move the board is left as it was and ValueError names the move
        and its 0-based index.
        """
        trial = Board()
        for i in range(len(moves)):
            ch = moves[i]
            if ch < "1" or ch > "7":
                raise ValueError("move %r at index %d: not a column 1-7" % (ch, i))
            try:
                trial.play(ord(ch) - ord("1"))
            except ValueError as e:
                raise ValueError("move %r at index %d: %s" % (ch, i, e))
        self.cells[:] = trial.cells
        self.tops[:] = trial.tops
        self.history[:] = trial.history
        self.count = trial.count
        self.winner = trial.winner

    def moves_string(self):
        return "".join(chr(ord("1") + self.history[i]) for i in range(self.count))

    def winning_line(self):
        """The four (col, row) cells of the win, or None: the app blinks these."""
        if not self.winner:
            return None
        cells = self.cells
        for row in range(HEIGHT):
            for col in range(WIDTH):
                start = cell_index(col, row)
                if cells[start] != self.winner:
                    continue
                for d in DIRECTIONS:
                    if run_length(cells, start, d, self.winner) >= 3:
                        return [((start + k * d) % STRIDE, (start + k * d) // STRIDE - 1) for k in range(4)]
        return None

    def __str__(self):
        rows = []
        for row in range(HEIGHT - 1, -1, -1):
            rows.append(" ".join(".XO"[self.get(col, row)] for col in range(WIDTH)))
        rows.append("1 2 3 4 5 6 7")
        return "\n".join(rows)
