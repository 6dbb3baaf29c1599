"""The AI player: a level's limits, the blunder setting, the book and the seeded PRNG.

A blunder is a uniformly random legal move, drawn with the level's chance,
but never when the AI can win at once or must block: those it always plays.
The opening book (engine/book.py), when given and when the level uses it
(the top level), answers before the search (on 7x6 only: on another size
the top level searches); the blunder roll comes first and
is drawn exactly as without a book, so the RNG's stream up to a book move is
the same in every world, book or not.
"""
from micropython import const

from connect4.engine import levels
from connect4.engine.rng import Rng
from connect4.engine.search import Searcher, SearchResult

# The levels that play the book: only the top one (levels.MAX_LEVEL). The
# book makes it perfect wherever it reaches; below it the ladder stays the
# search's own. A book move's SearchResult has stopped == "book".
_BOOK_LEVEL = const(8)


class AIPlayer:
    def __init__(self, level=levels.MAX_LEVEL, seed=1, blunder=None, searcher=None, book=None):
        self.searcher = searcher or Searcher()
        self.book = book  # an engine.book.Book, or None: search every move
        self.rng = Rng(seed)
        self.level = levels.clamp_level(level)
        self.blunder = blunder  # percent; None = the level's own

    def set_level(self, level):
        self.level = levels.clamp_level(level)

    def choose(self, board, poll=None, info=None, depth=None, nodes=None, time_ms=0):
        """Search `board` and return a SearchResult; depth/nodes override the level."""
        moves = board.legal_moves()
        if not moves:
            raise ValueError("game is over")
        forced = [c for c in moves if board.is_winning_move(c)]
        if not forced:
            forced = [c for c in moves if board.is_winning_move(c, 3 - board.turn)]
        blunder = levels.blunder(self.level) if self.blunder is None else self.blunder
        if not forced and self.rng.chance(blunder):
            return SearchResult(self.rng.choice(moves), 0, 0, 0, "blunder")
        if self.book is not None and self.level >= _BOOK_LEVEL and depth is None and nodes is None:
            col = self.book.move(board)
            if col >= 0:
                return SearchResult(col, 0, 0, 0, "book")
        return self.searcher.search(
            board,
            depth=levels.depth(self.level) if depth is None else depth,
            nodes=levels.nodes(self.level, board.cols, board.rows) if nodes is None else nodes,
            time_ms=time_ms, poll=poll, info=info, rng=self.rng)
