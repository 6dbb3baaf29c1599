"""Perfect Connect 4 solver (7 columns x 6 rows) for the host, in CPython.

Why: the board's AI has to be judged against ground truth, and the tests need
exact scores for arbitrary positions. This module gives them, following the
techniques of Pascal Pons' solver (github.com/PascalPons/connect4, explained
step by step at blog.gamesolver.org): a 7x7 bitboard, win detection with
shifts, alpha-beta negamax with centre-first and threat-count move ordering,
pruning of losing moves, a transposition table keeping lower and upper
bounds, and a null-window binary search on the score.  It runs on the host
only; the chip never imports it.

Notation: a position is the string of its moves as 1-based column digits, in
play order ("4453").  Scores use Pons' convention (that of his benchmark files
Test_Lx_Ry): seen from the side to move, 0 is a draw, and a win with the
player's k-th disc scores 22 - k (a loss -(22 - k) for the opponent's k-th),
i.e. (WIDTH*HEIGHT + 1 - n) // 2 when the winner can play its winning disc
on a board holding n discs.

There is no opening book: positions from about a dozen discs on solve in
milliseconds to seconds, but early ones can take minutes (analyze("4455")
about three) and the empty board is out of reach.

Usage:
    python tools/bench/solver.py 4453                  # score and per-column scores
    python tools/bench/solver.py --check FILE [--limit N]
"""

import argparse
import sys
import time
from typing import Iterator, List, NamedTuple, Optional, TextIO, Tuple

WIDTH = 7
HEIGHT = 6
CELLS = WIDTH * HEIGHT
_H1 = HEIGHT + 1  # each column uses HEIGHT bits plus a spare top bit

_BOTTOM = sum(1 << (col * _H1) for col in range(WIDTH))
_BOARD = _BOTTOM * ((1 << HEIGHT) - 1)
_COLUMN = tuple(((1 << HEIGHT) - 1) << (col * _H1) for col in range(WIDTH))
_TOP = tuple(1 << (HEIGHT - 1 + col * _H1) for col in range(WIDTH))

# Centre-first order, each column with a rank that breaks ties in favour of
# the centre when moves are sorted by descending (threats, rank).
_ORDER = (3, 2, 4, 1, 5, 0, 6)
_RANKED_COLUMNS = tuple((WIDTH - i, _COLUMN[col]) for i, col in enumerate(_ORDER))

_TT_CAP = 1 << 20  # entries per bound table (~75 MB when full) before clearing


def _winning_cells(stones: int, mask: int) -> int:
    """Empty cells that would complete four in a row for `stones`.

    Neighbours differ by 1 bit vertically, 7 horizontally, 8 and 6 along the
    diagonals (written out as literals: this is the solver's hot spot).
    """
    s = stones
    # vertical: the cell right above three stacked stones
    cells = (s << 1) & (s << 2) & (s << 3)
    # other lines: `pair` marks the lower-numbered cell of two in a row; the
    # missing cell is at either end of three in a row, or in the gap between
    # a pair and a single stone.
    pair = s & (s >> 7)
    cells |= ((pair >> 7) & ((s >> 21) | (s << 7))) | ((pair << 14) & ((s << 21) | (s >> 7)))
    pair = s & (s >> 8)
    cells |= ((pair >> 8) & ((s >> 24) | (s << 8))) | ((pair << 16) & ((s << 24) | (s >> 8)))
    pair = s & (s >> 6)
    cells |= ((pair >> 6) & ((s >> 18) | (s << 6))) | ((pair << 12) & ((s << 18) | (s >> 6)))
    return cells & (_BOARD ^ mask)


class Position(NamedTuple):
    """A position as bitboards: the side to move's stones and all stones."""

    current: int
    mask: int
    moves: int
    won: bool  # the last move completed four in a row

    @classmethod
    def parse(cls, moves: str) -> "Position":
        """Play `moves` from the empty board, rejecting any illegal move."""
        current = mask = 0
        won = False
        for index, char in enumerate(moves):
            if won:
                raise ValueError(f"move {char!r} at index {index}: game already won")
            if char not in "1234567":
                raise ValueError(f"move {char!r} at index {index}: not a column 1-{WIDTH}")
            col = int(char) - 1
            if mask & _TOP[col]:
                raise ValueError(f"move {char!r} at index {index}: column is full")
            cell = (mask + _BOTTOM) & _COLUMN[col]
            won = bool(cell & _winning_cells(current, mask))
            current, mask = current ^ mask, mask | cell
        return cls(current, mask, len(moves), won)

    def is_over(self) -> bool:
        return self.won or self.moves == CELLS

    def play(self, col: int) -> "Position":
        """The position after dropping a disc in 0-based `col` (not full)."""
        cell = (self.mask + _BOTTOM) & _COLUMN[col]
        won = bool(cell & _winning_cells(self.current, self.mask))
        return Position(self.current ^ self.mask, self.mask | cell, self.moves + 1, won)

    def can_play(self, col: int) -> bool:
        return not self.mask & _TOP[col]

    def can_win_next(self) -> bool:
        possible = (self.mask + _BOTTOM) & _BOARD
        return bool(possible & _winning_cells(self.current, self.mask))


class NodeLimitReached(Exception):
    """Raised by a Solver with a node_limit once it has searched that many nodes."""


class Solver:
    """Exact solver whose transposition table persists between calls.

    With `node_limit`, any search raises NodeLimitReached once `nodes` (the
    count since reset(), or since you set `nodes = 0`) reaches the limit: a
    deterministic way to give up on hard positions. The table survives it.
    """

    def __init__(self, table_cap: int = _TT_CAP, node_limit: Optional[int] = None) -> None:
        self.table_cap = table_cap
        self.node_limit = node_limit
        self.nodes = 0  # negamax calls since the last reset()
        self._lower = {}  # key -> lower bound of the score
        self._upper = {}  # key -> upper bound of the score

    def reset(self) -> None:
        """Forget the transposition table and the node count."""
        self.nodes = 0
        self._lower.clear()
        self._upper.clear()

    def solve(self, moves: str) -> int:
        """Exact score of the position `moves` for the side to move."""
        return self._score(_parse_unfinished(moves))

    def analyze(self, moves: str) -> List[Optional[int]]:
        """Score of each column for the player moving there; None if full."""
        position = _parse_unfinished(moves)
        return [self._move_score(position, col) if position.can_play(col) else None
                for col in range(WIDTH)]

    def sign(self, moves: str) -> int:
        """Sign of the exact score of `moves` for the side to move (1 win,
        0 draw, -1 loss): one null-window search, far cheaper than solve()."""
        position = _parse_unfinished(moves)
        if position.can_win_next():
            return 1
        threats = _winning_cells(position.current ^ position.mask, position.mask)
        score = self._negamax(position.current, position.mask, position.moves, -1, 1, threats)
        return (score > 0) - (score < 0)

    def move_signs(self, moves: str) -> List[Optional[int]]:
        """Sign of each column's score for the player moving there (analyze()'s
        signs, by sign() searches); None if the column is full."""
        position = _parse_unfinished(moves)
        out: List[Optional[int]] = []
        for col in range(WIDTH):
            if not position.can_play(col):
                out.append(None)
                continue
            child = position.play(col)
            if child.won:
                out.append(1)
            elif child.moves == CELLS:
                out.append(0)
            else:
                out.append(-self.sign(moves + str(col + 1)))
        return out

    def best_moves(self, moves: str) -> List[int]:
        """The 1-based columns whose analyze() score is the best."""
        scores = self.analyze(moves)
        best = max(score for score in scores if score is not None)
        return [col + 1 for col, score in enumerate(scores) if score == best]

    def _move_score(self, position: Position, col: int) -> int:
        child = position.play(col)
        if child.won:
            return (CELLS + 1 - position.moves) // 2
        if child.moves == CELLS:
            return 0
        return -self._score(child)

    def _score(self, position: Position) -> int:
        """Binary search on the score with null-window negamax probes."""
        current, mask, n = position.current, position.mask, position.moves
        if position.can_win_next():
            return (CELLS + 1 - n) // 2
        threats = _winning_cells(current ^ mask, mask)
        low, high = -((CELLS - n) // 2), (CELLS + 1 - n) // 2
        while low < high:
            # probe the middle, pulled towards 0 to settle the sign quickly
            probe = low + (high - low) // 2
            if probe <= 0 and -(-low // 2) < probe:
                probe = -(-low // 2)
            elif probe >= 0 and high // 2 > probe:
                probe = high // 2
            result = self._negamax(current, mask, n, probe, probe + 1, threats)
            if result <= probe:
                high = result
            else:
                low = result
        return low

    def _negamax(self, current: int, mask: int, n: int, alpha: int, beta: int,
                 threats: int) -> int:
        """Score of a position where the side to move cannot win at once,
        exact if strictly between alpha and beta; otherwise an upper bound
        not above alpha, or a lower bound not below beta.

        `threats` are the empty cells where the opponent would win; the
        parent has them from ordering its moves, so they are passed down.
        """
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise NodeLimitReached()
        self.nodes += 1
        possible = (mask + _BOTTOM) & _BOARD
        forced = possible & threats
        if forced:
            if forced & (forced - 1):  # two threats to block: lost
                return -((CELLS - n) // 2)
            possible = forced
        possible &= ~(threats >> 1)  # never play right under a threat
        if not possible:
            return -((CELLS - n) // 2)
        if n >= CELLS - 2:
            return 0

        # We cannot win with this disc, nor the opponent with its next one
        # (we only play non-losing moves): that bounds the score, and the
        # table may hold tighter bounds from earlier searches.
        key = current + mask
        low = self._lower.get(key, -((CELLS - 2 - n) // 2))
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = self._upper.get(key, (CELLS - 1 - n) // 2)
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta

        # Explore moves creating the most threats first, centre first on ties.
        children = []
        for rank, column in _RANKED_COLUMNS:
            cell = possible & column
            if cell:
                ours = _winning_cells(current | cell, mask) & ~cell
                children.append((ours.bit_count(), rank, cell, ours))
        children.sort(reverse=True)

        opponent = current ^ mask
        for _, _, cell, ours in children:
            score = -self._negamax(opponent, mask | cell, n + 1, -beta, -alpha, ours)
            if score >= beta:
                self._store(self._lower, key, score)
                return score
            if score > alpha:
                alpha = score
        self._store(self._upper, key, alpha)
        return alpha

    def _store(self, table: dict, key: int, bound: int) -> None:
        if len(table) >= self.table_cap:
            table.clear()
        table[key] = bound


def _parse_unfinished(moves: str) -> Position:
    position = Position.parse(moves)
    if position.is_over():
        raise ValueError(f"position {moves!r} is already over")
    return position


_default_solver: Optional[Solver] = None


def _shared_solver() -> Solver:
    global _default_solver
    if _default_solver is None:
        _default_solver = Solver()
    return _default_solver


def solve(moves: str) -> int:
    """Exact score of `moves` for the side to move (module-wide table)."""
    return _shared_solver().solve(moves)


def analyze(moves: str) -> List[Optional[int]]:
    """Per-column scores of `moves` for the player to move (module-wide table)."""
    return _shared_solver().analyze(moves)


def best_moves(moves: str) -> List[int]:
    """Best 1-based columns of `moves` (module-wide table)."""
    return _shared_solver().best_moves(moves)


def read_benchmark(path: str) -> Iterator[Tuple[int, str, int]]:
    """Yield (line number, moves, score) from a `<digits> <score>` file,
    skipping blank lines and lines starting with '#'."""
    with open(path, encoding="ascii") as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                moves, score = line.split()
                yield number, moves, int(score)
            except ValueError:
                raise ValueError(f"{path}:{number}: expected '<digits> <score>'") from None


def check_file(path: str, limit: Optional[int] = None,
               out: Optional[TextIO] = None) -> int:
    """Solve every position of a benchmark file, print a report to `out`
    (default stdout) and return the number of mismatches."""
    engine = Solver()
    checked = mismatches = nodes = 0
    start = time.perf_counter()
    for number, moves, expected in read_benchmark(path):
        if limit is not None and checked >= limit:
            break
        engine.reset()  # per-position node counts, as in Pons' benchmarks
        got = engine.solve(moves)
        nodes += engine.nodes
        checked += 1
        if got != expected:
            mismatches += 1
            print(f"line {number}: {moves} expected {expected}, got {got}", file=out)
    seconds = time.perf_counter() - start
    mean = nodes / checked if checked else 0.0
    print(f"checked {checked}, mismatches {mismatches}, mean nodes {mean:.1f}, "
          f"seconds {seconds:.2f}", file=out)
    return mismatches


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Perfect Connect 4 solver.")
    parser.add_argument("position", nargs="?", help="moves as 1-based column digits")
    parser.add_argument("--check", metavar="FILE", help="check a benchmark file")
    parser.add_argument("--limit", type=int, help="check only the first N positions")
    args = parser.parse_args(argv)
    if (args.position is None) == (args.check is None):
        parser.error("give either a position or --check FILE")
    try:
        if args.check is not None:
            return 1 if check_file(args.check, args.limit) else 0
        engine = Solver()
        score, scores = engine.solve(args.position), engine.analyze(args.position)
    except (OSError, ValueError) as error:
        parser.error(str(error))
    print(f"score {score}")
    print("columns " + " ".join(f"{col}:{'full' if score is None else score}"
                                for col, score in enumerate(scores, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
