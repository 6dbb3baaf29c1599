"""A brute-force Connect 4 solver for the smallest boards, apart from the engine.

Plain minimax over every move to the end of the game, no pruning, no
heuristics, with a memo of exact values: the judge of the engine's exact
search on boards where bitbully (7x6 only) cannot help (tests/test_sizes.py,
`make bench --only sizes`). Its scores are the engine's (connect4.engine.core):
a win with disc k of a cols x rows board scores 1000 + cols * rows + 1 - k for
the side to move, a loss the negation, a draw 0. A whole 4x4 game takes about
0.4 s on CPython; 4x5 and 5x4 some 4 and 11 s (1.2 and 2.7 million positions,
260 MB), a position a few discs in far less.
"""

WIN = 1000
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class BruteSolver:
    """Exact values of positions of one board size; the memo grows over calls."""

    def __init__(self, cols, rows):
        self.cols = cols
        self.rows = rows
        self.discs = cols * rows
        self.grid = [[0] * rows for _ in range(cols)]
        self.heights = [0] * cols
        self.memo = {}  # position key -> exact score
        # The key: per column (rows + 1 bits, column c at bit c * (rows + 1)) a 1
        # above its discs and, below it, a 1 for each first-player disc.
        self.shift = [c * (rows + 1) for c in range(cols)]
        self.empty_key = sum(1 << sh for sh in self.shift)
        self.key = self.empty_key

    def _wins(self, c, r, p):
        grid, cols, rows = self.grid, self.cols, self.rows
        for dc, dr in DIRECTIONS:
            n = 1
            for s in (1, -1):
                cc, rr = c + s * dc, r + s * dr
                while 0 <= cc < cols and 0 <= rr < rows and grid[cc][rr] == p:
                    n += 1
                    cc += s * dc
                    rr += s * dr
            if n >= 4:
                return True
        return False

    def _drop(self, c, p):
        """Put a `p` disc in column c (not full)."""
        r = self.heights[c]
        self.grid[c][r] = p
        self.heights[c] = r + 1
        self.key += (2 if p == 1 else 1) << (r + self.shift[c])

    def _lift(self, c, p):
        r = self.heights[c] - 1
        self.grid[c][r] = 0
        self.heights[c] = r
        self.key -= (2 if p == 1 else 1) << (r + self.shift[c])

    def _value(self, n):
        heights = self.heights
        key = self.key
        best = self.memo.get(key)
        if best is not None:
            return best
        p = 1 + (n & 1)
        playable = [c for c in range(self.cols) if heights[c] < self.rows]
        for c in playable:
            if self._wins(c, heights[c], p):
                best = WIN + self.discs - n  # this disc, number n + 1, wins
                break
        if best is None and n + 1 == self.discs:
            best = 0  # the last disc fills the board without a win
        if best is None:
            for c in playable:
                self._drop(c, p)
                v = -self._value(n + 1)
                self._lift(c, p)
                if best is None or v > best:
                    best = v
        self.memo[key] = best
        return best

    def _load(self, moves):
        """Set the grid to the position of `moves` (1-based column digits); its disc count."""
        for col in self.grid:
            for r in range(self.rows):
                col[r] = 0
        for c in range(self.cols):
            self.heights[c] = 0
        self.key = self.empty_key
        for i, ch in enumerate(moves):
            c = int(ch) - 1
            if not 0 <= c < self.cols or self.heights[c] >= self.rows:
                raise ValueError("illegal move %r at index %d" % (ch, i))
            self._drop(c, 1 + (i & 1))
        return len(moves)

    def value(self, moves=""):
        """The exact score of the position after `moves`, for the side to move
        (the game must not be over)."""
        return self._value(self._load(moves))

    def move_values(self, moves=""):
        """{column (0-based): the exact score of playing it, for the side to move}."""
        n = self._load(moves)
        p = 1 + (n & 1)
        out = {}
        for c in range(self.cols):
            r = self.heights[c]
            if r >= self.rows:
                continue
            if self._wins(c, r, p):
                out[c] = WIN + self.discs - n
            elif n + 1 == self.discs:
                out[c] = 0
            else:
                self._drop(c, p)
                out[c] = -self._value(n + 1)
                self._lift(c, p)
        return out
