"""Iterative deepening around the hot core: limits, root ordering, ties, abort.

The root is searched here in plain Python (a handful of calls per iteration);
every subtree goes to `core.search`. Limits are a depth cap and a node budget,
which make the result the same on every machine, plus an optional wall-clock
cap that the board uses only as a safety net. A poll callable, called every
`poll_interval` nodes from inside the search, can stop it at once: the result is
then the best move of the deepest finished iteration (or a better one already
proved in the unfinished one), and always legal.
"""
import gc
import time
from micropython import const

from connect4.engine import core
from connect4.engine.board import CELLS, STRIDE, centre_first
from connect4.engine.core import WIN, INF

STOP_NONE = ""
STOP_NODES = "nodes"
STOP_POLL = "poll"
STOP_TIME = "time"
FORCED_NODES = 1000  # node budget when only one move does not lose at once
_SOLVE_EMPTIES = const(30)  # with a node budget and at most this many empty cells, prove first
_SOLVE_SHARE = const(2)  # the proof may spend 1/_SOLVE_SHARE of the node budget
_SMALL = const(20)  # on boards of this many cells or fewer the proof is the search: the whole
# budget is its, and on a position that is its own mirror image only the left half's moves
_UNKNOWN = const(2)  # root move classes of the proof: 1 win, 0 draw, -1 loss (or no better than a draw)


class SearchResult:
    def __init__(self, move, score, depth, nodes, stopped=STOP_NONE):
        self.move = move  # 0-based column
        self.score = score  # side to move's view, see core
        self.depth = depth  # deepest finished iteration
        self.nodes = nodes
        self.stopped = stopped  # why the search stopped early, "" if it did not

    def __repr__(self):
        return "SearchResult(move=%d, score=%d, depth=%d, nodes=%d, stopped=%r)" % (
            self.move, self.score, self.depth, self.nodes, self.stopped)


def win_base(discs):
    """A win with disc k (k = 1..discs, the board's cells) scores win_base(discs) - k."""
    return WIN + discs + 1


def is_win_score(score):
    return score > WIN or score < -WIN


def moves_to_end(score, count, discs=42):
    """Discs the winner still has to drop for a forced result (0 for none);
    `discs`: the board's cells (Board.discs)."""
    if not is_win_score(score):
        return 0
    disc = win_base(discs) - abs(score)  # number of the winning disc
    return (disc - count + 1) // 2


def reorder(order, scores, best):
    """Order root moves for the next iteration: `best` first, then by score.

    A stable insertion sort written out here: MicroPython's list.sort is a
    quicksort, not stable, so equal scores would come out in another order
    on the board than on CPython, and the search would differ node for node.
    Equal scores keep their previous order (the centre-first order at first).
    """
    for i in range(1, len(order)):
        c = order[i]
        sc = scores[c]
        j = i
        while j > 0 and scores[order[j - 1]] < sc:
            order[j] = order[j - 1]
            j -= 1
        order[j] = c
    i = order.index(best)
    while i > 0:
        order[i] = order[i - 1]
        i -= 1
    order[0] = best


class Searcher:
    """Owns the preallocated arena and transposition table (core.TT_ENTRY bytes an entry).

    The table is kept from one search to the next within a game: its entries
    depend on the position only (a heuristic score with the depth it was
    searched to, or a proven result), so what an earlier move's search learnt
    serves the next one. It is cleared when a search's position does not
    follow the previous one's (a new game, a position set anew, a move taken
    back), by new_game(), and when the weights change. A search's result thus
    depends on the searches of its game before it, the same way on every
    machine; callers that need a position judged alone call new_game() first.
    """

    def __init__(self, tt_entries=1024, poll_interval=256, weights=core.DEFAULT_WEIGHTS, clock=time):
        if tt_entries & (tt_entries - 1) or not 16 <= tt_entries <= 65536:
            raise ValueError("tt_entries must be a power of two from 16 to 65536")
        if poll_interval & (poll_interval - 1) or not 1 <= poll_interval <= 65536:
            raise ValueError("poll_interval must be a power of two up to 65536")
        self.tt_entries = tt_entries
        self.clock = clock  # ticks_ms/ticks_diff/ticks_add for the time cap (tests pass a fake)
        self.poll_interval = poll_interval
        self.weights = weights  # (an arena made again after release() takes them)
        self.arena = bytearray(core.ARENA_SIZE + core.TT_ENTRY * tt_entries)
        core.init_arena(self.arena, weights)
        self.tt = memoryview(self.arena)[core.ARENA_SIZE:]  # the table, at the arena's end
        self.last = bytearray(CELLS)  # the previous search's field; zeros: none
        self.scores = [0] * core.MAX_COLS
        self.order = centre_first(7)  # the columns centre first, for the size searched last
        self._user_poll = None
        self._deadline = 0
        self._timed = False
        self._stop = STOP_NONE
        self._hook = self._poll  # bound once, not per poll

    def resize(self, tt_entries):
        """The table at `tt_entries` (a power of two): smaller while Wi-Fi is on, whose buffers
        share the heap. A new arena with the old one's head (weights, tables) and an empty
        table, exactly what Searcher(tt_entries=...) would hold; the old arena goes first,
        so the two never coexist. tests/test_web_link.py compares it with a fresh Searcher."""
        if tt_entries == self.tt_entries:
            return
        if tt_entries & (tt_entries - 1) or not 16 <= tt_entries <= 65536:
            raise ValueError("tt_entries must be a power of two from 16 to 65536")
        head = None if self.arena is None else bytes(self.arena[:core.ARENA_SIZE])
        self.release()
        gc.collect()
        arena = bytearray(core.ARENA_SIZE + core.TT_ENTRY * tt_entries)
        if head is None:  # (released: made as Searcher() makes it)
            core.init_arena(arena, self.weights)
        else:
            arena[:core.ARENA_SIZE] = head
        self.arena = arena
        self.tt = memoryview(arena)[core.ARENA_SIZE:]
        self.tt_entries = tt_entries
        self.new_game()

    def release(self):
        """No arena and no table (tt_entries 0) while nothing is searched: their room (3.5 KB and
        the table) goes to the heap (the page that asks another board for a game, a game of two
        boards whose side this board's buttons play: connect4.app.twoboards). resize() makes
        them again; a search meanwhile makes the smallest first."""
        self.tt = None
        self.arena = None
        self.tt_entries = 0

    def set_weights(self, weights):
        self.weights = weights
        if self.arena is None:
            return
        core.set_weights(self.arena, weights)
        self.new_game()  # the table's heuristic scores were the old weights'

    def new_game(self):
        """Forget the table: the next search depends on no earlier one."""
        if self.tt is not None:
            core.clear(self.tt, len(self.tt))
        core.clear(self.last, len(self.last))

    def _poll(self):
        if self._timed and self.clock.ticks_diff(self.clock.ticks_ms(), self._deadline) >= 0:
            self._stop = STOP_TIME
            return 1
        if self._user_poll is not None and self._user_poll():
            self._stop = STOP_POLL
            return 1
        return 0

    def search(self, board, depth=core.MAX_DISCS, nodes=0, time_ms=0, poll=None, info=None, rng=None):
        """Best move for the side to move of `board` (a Board of any size, left unchanged).

        depth: iteration cap (to the end of the game at most); nodes: node budget (0 = none); time_ms: wall-clock
        safety cap (0 = none); poll(): truthy stops the search; info(depth,
        score, nodes) after each finished iteration; rng breaks ties.
        """
        if board.is_over():
            raise ValueError("game is over")
        if self.arena is None:  # (released: never expected, but a search never fails for it)
            self.resize(16)
        arena = self.arena
        if core.set_size(arena, board.cols, board.rows):  # another size: the table's positions are another board's
            core.clear(self.tt, len(self.tt))
            self.order = centre_first(board.cols)
        h = core.load_position(arena, board.cells, board.tops, board.count)
        n = board.count
        discs = board.discs
        base = win_base(discs)
        player = board.turn
        s = core.scan(arena, player)
        wins = (s >> core.SCAN_WINS) & core.COLUMNS
        threats = (s >> core.SCAN_THREATS) & core.COLUMNS
        legal = core.legal(arena)
        if wins:
            return SearchResult(self._pick(wins, rng), base - (n + 1), 1, 0)  # disc n + 1 wins
        if threats:
            cands = threats
            if threats & (threats - 1):  # two threats: the opponent's next disc, n + 2, wins
                return SearchResult(self._pick(threats, None), (n + 2) - base, 1, 0)
        else:
            cands = legal & ~(s >> core.SCAN_UNDER)
            if not cands:  # every move loses at once: delay by playing anything
                return SearchResult(self._pick(legal, None), (n + 2) - base, 1, 0)
        order = [c for c in self.order if cands & (1 << c)]
        if len(order) == 1:  # forced: search only for the score, do not spend the budget
            nodes = min(nodes, FORCED_NODES) if nodes else FORCED_NODES

        last = self.last
        cells = board.cells
        for i in range(CELLS):
            if last[i] != 0 and cells[i] != last[i]:  # a disc gone: not the same game
                core.clear(self.tt, len(self.tt))  # a fresh table
                break
        last[:] = cells
        core.prepare(arena, self.tt_entries, nodes, self.poll_interval - 1)
        self._user_poll = poll
        self._timed = time_ms > 0
        clock = self.clock
        self._deadline = clock.ticks_add(clock.ticks_ms(), time_ms) if self._timed else 0
        self._stop = STOP_NONE
        core._poll = self._hook
        try:
            empties = discs - n
            if nodes and depth >= empties and empties <= _SOLVE_EMPTIES and len(order) > 1:
                if discs <= _SMALL:
                    core.set_budget(arena, nodes)
                    if self._mirrored(board):  # the right half's moves are the left half's mirrored
                        order = [c for c in order if 2 * c < board.cols]
                else:
                    core.set_budget(arena, nodes // _SOLVE_SHARE)
                result = self._solve(order, h, player, empties, nodes)
                if result is not None:
                    if info is not None:
                        info(result.depth, result.score, result.nodes)
                    return result
                scores = self.scores
                if self._stop:  # stopped by the poll or the clock: the best proof so far
                    move = order[0]
                    rank = -1
                    for c in order:  # the first win, else draw, else unknown, else loss
                        k = 1 if scores[c] == _UNKNOWN else 2 * scores[c] + 2
                        if k > rank:
                            move, rank = c, k
                    return SearchResult(move, 0, 0, core.nodes(arena), self._stop)
                core.set_budget(arena, nodes)  # the rest of the budget for the heuristic search
                # Drop the root moves the proof showed lost (a draw, when proved, was played).
                i = len(order) - 1
                while i >= 0 and len(order) > 1:
                    if scores[order[i]] == -1:
                        order.pop(i)
                    i -= 1
                return self._deepen(order, h, player, min(depth, empties), info, rng)
            return self._deepen(order, h, player, min(depth, discs - n), info, rng)
        finally:
            core._poll = core.no_poll
            self._user_poll = None

    def _solve(self, order, h, player, depth, budget):
        """Prove the root's result to the end of the game within the budget.

        First a weak solve (Pascal Pons' technique), with null windows: each
        root move is asked "a win?" (0, 1) until one is; only if none is, each
        is asked "a draw?" (-1, 0) until one is. The core's bounds from the
        empty cells (no win before one's next-but-one disc) and the table
        prune it. Asking for the win first, rather than the first move's
        exact class with (-1, 1), finds more wins within the level 8 budget
        in positions of games against the board, and no fewer draws
        (docs/ai.md#the-proof). Then, within the
        budget left, the exact score among the moves that can matter: the
        fastest win, or the slowest loss, with the whole `budget`. Returns a SearchResult, or None when
        the budget ran out before the result was known (the classes found so
        far stay in self.scores). `depth` is the number of empty cells. A refinement cut by the budget
        still plays its best proven move, with stopped set and the score a
        bound (WIN + 1: a win of unknown length).
        """
        arena = self.arena
        scores = self.scores
        empties = depth
        for c in order:
            scores[c] = _UNKNOWN
        win = -1
        for i in range(len(order)):  # a win? (0, 1)
            c = order[i]
            hz = core.play(arena, c, player, h)
            v = -core.search(arena, empties - 1, -1, 0, hz)
            core.unmake(arena, c)
            if core.aborted(arena):
                return None  # the moves asked are no win, but a draw or a loss: still unknown
            if v > 0:
                scores[c] = 1
                win = i
                break
        if win < 0:
            for c in order:  # no win: a draw? (-1, 0)
                hz = core.play(arena, c, player, h)
                v = -core.search(arena, empties - 1, 0, 1, hz)
                core.unmake(arena, c)
                if core.aborted(arena):
                    return None  # the losses proved so far are marked -1
                if v >= 0:
                    return SearchResult(c, 0, empties, core.nodes(arena))  # the first draw
                scores[c] = -1
        core.set_budget(arena, budget)
        # The exact scores, to the end: the fastest win among the winner and
        # the moves not yet probed, or the slowest loss.
        move, score, partial = self._root(order[win:] if win >= 0 else order, h, player, empties, None)
        stopped = STOP_NONE
        if core.aborted(arena):
            if self._stop:
                return None
            stopped = STOP_NODES  # out of budget: the best proved so far
            if partial is not None:
                move, score = partial
            elif score == -INF:  # not even the first move's length is known
                move, score = (order[win], WIN + 1) if win >= 0 else (order[0], -WIN - 1)
        return SearchResult(move, score, empties, core.nodes(arena), stopped)

    def _deepen(self, order, h, player, max_depth, info, rng):
        arena = self.arena
        scores = self.scores
        best_move = order[0]
        best_score = 0
        done_depth = 0
        for d in range(1, max_depth + 1):
            move, score, partial = self._root(order, h, player, d, rng)
            if core.aborted(arena):
                if partial is not None:
                    best_move, best_score = partial
                break
            best_move, best_score, done_depth = move, score, d
            if info is not None:
                info(d, score, core.nodes(arena))
            if is_win_score(score):
                break  # proved: deeper iterations cannot change it
            reorder(order, scores, move)
        stopped = STOP_NONE
        if core.aborted(arena):
            stopped = self._stop or STOP_NODES
        return SearchResult(best_move, best_score, done_depth, core.nodes(arena), stopped)

    def _root(self, order, h, player, depth, rng):
        """One iteration over the root moves with ties kept exact.

        Later moves are searched with the window (best - 1, INF), so a move
        that only equals the best comes back exact and the rng picks among
        equals. Returns (move, score, partial) where partial is (move, score)
        of a move proved better than the first one before an abort.
        """
        arena = self.arena
        scores = self.scores
        best = -INF
        move = order[0]
        ties = 1
        partial = None
        for i in range(len(order)):
            c = order[i]
            hz = core.play(arena, c, player, h)
            if i == 0:
                sc = -core.search(arena, depth - 1, -INF, INF, hz)
            else:
                sc = -core.search(arena, depth - 1, -INF, 1 - best, hz)
            core.unmake(arena, c)
            if core.aborted(arena):
                break
            scores[c] = sc
            if sc > best:
                if i > 0:
                    partial = (c, sc)
                best, move, ties = sc, c, 1
            elif sc == best and rng is not None:
                ties += 1
                if rng.below(ties) == 0:
                    move = c
        return move, best, partial

    @staticmethod
    def _mirrored(board):
        """Is the position its own mirror image?"""
        cols = board.cols
        cells = board.cells
        for row in range(1, board.rows + 1):
            i = row * STRIDE  # the padded layout: row r's first cell at (r + 1) * STRIDE
            for c in range(cols // 2):
                if cells[i + c] != cells[i + cols - 1 - c]:
                    return False
        return True

    def _pick(self, mask, rng):
        cols = [c for c in self.order if mask & (1 << c)]
        return cols[rng.below(len(cols))] if rng is not None and len(cols) > 1 else cols[0]
