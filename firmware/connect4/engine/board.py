"""Connect 4 rules on a padded bytearray, for any board from 4x4 to 8x7.

Callers speak columns and rows: `play(col)` returns the row the disc landed
in, `get(col, row)` says whose disc is there, `height(col)` how many discs a
column holds, `winning_line()` gives (col, row) pairs. Columns 0..cols-1 from
the left, rows 0..rows-1 from the bottom, players 1 (moves first) and 2, 0
for empty.

The size lives here, and only here: `Board(moves, cols, rows)` with cols in
MIN_COLS..MAX_COLS and rows in MIN_ROWS..MAX_ROWS (7x6, the classic board,
by default). `check_size` and `parse_size` say what is supported; every
other layer (the search core, the app, the protocol, the pages) takes the
size from a Board.

Inside the engine, cell (col, row) lives at index (row + 1) * 8 + col
whatever the size, so a 7x6 position has the same indexes (and the search the
same hash keys) as it always had. The row below the field holds BORDER; the
search core loads `cells` and `tops`, nothing outside the engine should
index them.
"""
from micropython import const

WIDTH = const(7)  # the default board: 7 columns, 6 rows
HEIGHT = const(6)
MIN_COLS = const(4)
MAX_COLS = const(8)
MIN_ROWS = const(4)
MAX_ROWS = const(7)
STRIDE = const(8)
CELLS = const(64)  # (MAX_ROWS + 1) * STRIDE: the padded field of the largest board
EMPTY = const(0)
BORDER = const(3)
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1))  # (column, row) steps: the four lines


def check_size(cols, rows):
    """Raise ValueError unless cols x rows is a supported board."""
    if not (MIN_COLS <= cols <= MAX_COLS and MIN_ROWS <= rows <= MAX_ROWS):
        raise ValueError("unsupported size %dx%d: columns %d-%d, rows %d-%d"
                         % (cols, rows, MIN_COLS, MAX_COLS, MIN_ROWS, MAX_ROWS))


def parse_size(text):
    """'8x7' -> (8, 7); ValueError with a clear message for anything else."""
    parts = str(text).strip().lower().split("x")
    if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
        raise ValueError("size %r: expected COLSxROWS, like 7x6" % (text,))
    cols, rows = int(parts[0]), int(parts[1])
    check_size(cols, rows)
    return cols, rows


def size_name(cols, rows):
    return "%dx%d" % (cols, rows)


def centre_first(cols):
    """The columns in the order the AI tries them: centre first, then outwards,
    the left one first at each distance (on even widths the left centre first)."""
    order = []
    left = (cols - 1) // 2
    right = cols // 2
    while left >= 0:
        order.append(left)
        if right != left:
            order.append(right)
        left -= 1
        right += 1
    return tuple(order)


CENTRE_FIRST = centre_first(WIDTH)  # (3, 2, 4, 1, 5, 0, 6)


def cell_index(col, row):
    return (row + 1) * STRIDE + col


def new_cells(cols=WIDTH, rows=HEIGHT):
    """A padded empty field: every cell outside the cols x rows field is BORDER."""
    cells = bytearray(CELLS)
    for i in range(CELLS):
        if i < STRIDE or i >= (rows + 1) * STRIDE or (i & 7) >= cols:
            cells[i] = BORDER
    return cells


class Board:
    """A game in progress: play, undo, legality, wins and draws.

    Players are 1 (moves first) and 2. `play` and `load` validate; the search
    core works on a copy of `cells` and `tops` and never calls back into this.
    """

    def __init__(self, moves="", cols=WIDTH, rows=HEIGHT):
        check_size(cols, rows)
        self.cols = cols
        self.rows = rows
        self.discs = cols * rows  # cells of the field: a full board holds this many
        self.field_end = (rows + 1) * STRIDE  # a column whose next cell is here is full
        self.cells = new_cells(cols, rows)  # the padded layout (engine only)
        self.tops = bytearray(cols)  # next free cell index per column (engine only)
        self.history = bytearray(self.discs)
        self.count = 0
        self.winner = 0
        self.reset()
        if moves:
            self.load(moves)

    @property
    def size(self):
        return size_name(self.cols, self.rows)

    def reset(self):
        cells = self.cells
        for col in range(self.cols):
            for row in range(self.rows):
                cells[cell_index(col, row)] = EMPTY
            self.tops[col] = cell_index(col, 0)
        self.count = 0
        self.winner = 0

    def copy(self):
        other = Board("", self.cols, self.rows)
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

    def inside(self, col, row):
        return 0 <= col < self.cols and 0 <= row < self.rows

    def can_play(self, col):
        return 0 <= col < self.cols and self.tops[col] < self.field_end and not self.is_over()

    def legal_moves(self):
        if self.is_over():
            return []
        return [c for c in range(self.cols) if self.tops[c] < self.field_end]

    def is_full(self):
        return self.count >= self.discs

    def is_over(self):
        return self.winner != 0 or self.count >= self.discs

    def run_length(self, col, row, dc, dr, player):
        """Count consecutive `player` discs from (col + dc, row + dr) onward."""
        n = 0
        col += dc
        row += dr
        cols = self.cols
        rows = self.rows
        cells = self.cells
        while 0 <= col < cols and 0 <= row < rows and cells[(row + 1) * STRIDE + col] == player:
            n += 1
            col += dc
            row += dr
        return n

    def completes_four(self, col, row, player):
        """Would a `player` disc at (col, row) make four in a row?"""
        for dc, dr in DIRECTIONS:
            if 1 + self.run_length(col, row, dc, dr, player) + self.run_length(col, row, -dc, -dr, player) >= 4:
                return True
        return False

    def is_winning_move(self, col, player=0):
        """Would dropping in `col` win at once for `player` (default: side to move)?"""
        if not (0 <= col < self.cols) or self.tops[col] >= self.field_end:
            return False
        return self.completes_four(col, self.height(col), player or self.turn)

    def is_winning_move_at(self, col, row, player):
        """Would a `player` disc at (col, row) make four, were the cell reachable?"""
        return self.completes_four(col, row, player)

    def play(self, col):
        """Drop the side to move's disc in 0-based `col`; return the row it landed in.

        Raise ValueError if the move is illegal.
        """
        if self.is_over():
            raise ValueError("game is over")
        if not (0 <= col < self.cols):
            raise ValueError("no column %d" % (col + 1))
        index = self.tops[col]
        if index >= self.field_end:
            raise ValueError("column %d is full" % (col + 1))
        player = self.turn
        self.cells[index] = player
        self.tops[col] = index + STRIDE
        self.history[self.count] = col
        self.count += 1
        row = index // STRIDE - 1
        if self.completes_four(col, row, player):
            self.winner = player
        return row

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
        trial = Board("", self.cols, self.rows)
        last = chr(ord("0") + self.cols)
        for i in range(len(moves)):
            ch = moves[i]
            if ch < "1" or ch > last:
                raise ValueError("move %r at index %d: not a column 1-%d" % (ch, i, self.cols))
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
        for row in range(self.rows):
            for col in range(self.cols):
                if self.get(col, row) != self.winner:
                    continue
                for dc, dr in DIRECTIONS:
                    if self.run_length(col, row, dc, dr, self.winner) >= 3:
                        return [(col + k * dc, row + k * dr) for k in range(4)]
        return None

    def __str__(self):
        rows = []
        for row in range(self.rows - 1, -1, -1):
            rows.append(" ".join(".XO"[self.get(col, row)] for col in range(self.cols)))
        rows.append(" ".join(str(c + 1) for c in range(self.cols)))
        return "\n".join(rows)
