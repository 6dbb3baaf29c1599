"""The search's hot path: alpha-beta negamax and the horizon evaluation.

Written for ``@micropython.viper`` on the ESP32-C3: all state lives in one
preallocated bytearray (the arena, with the transposition table at its end),
read through ``ptr8``; ints stay below 2**30, so the same code gives the same
results as plain Python on CPython (host_sim) and on a VM with no native
emitter (the decorators stripped). Nothing here allocates per node, and the
search does not recurse: its plies are records in the arena, walked by one
loop, so its depth of calls is the same at ply 1 and ply 41 (the chip's
stack held about 23 nested plies of the recursive search: docs/chip.md).
The only call a node may make is the poll hook, every ``poll mask + 1``
nodes: interrupt callbacks never run inside native code, so the hook
itself must read the input.

Every offset, bit field and sentinel below is a named ``const``: the compiler
folds them, so the names cost nothing per node.

Scores are from the side to move's point of view. A forced win placed with
disc k (k = 1..discs counting all discs; discs = cols x rows, 42 on 7x6)
scores WIN + discs + 1 - k; a loss the
negation; 0 is a draw or a level position; heuristic values stay within
+-EVAL_MAX. Win scores depend on the position only, so the table may store
them as is.
"""
import micropython
from micropython import const

from connect4.engine.board import new_cells, centre_first

WIN = const(1000)
EVAL_MAX = const(900)
INF = const(2000)  # beyond every score; alpha and beta travel packed in 12 bits (see _AB_BIAS)

# The field, in the board's padded layout (connect4/engine/board.py): cell
# (col, row) at (row + 1) * 8 + col for every size; border cells below the
# field, above it and right of it (an 8-column board has none at the right).
# The size itself lives in the arena (set_size): columns, the field's end,
# the disc count, the window tables, the centre columns and the move order.
# The constants below are the largest board's, for the regions' room.
MAX_COLS = const(8)
MAX_ROWS = const(7)
MAX_DISCS = const(MAX_COLS * MAX_ROWS)  # 56: a game's discs are numbered 1..discs
_FIELD_SHIFT = const(6)
_FIELD = const(1 << _FIELD_SHIFT)  # bytes of the padded field, 8 x 8
_ROW_SHIFT = const(3)
_ROW = const(1 << _ROW_SHIFT)  # index step one row up
_COL_MASK = const(_ROW - 1)  # index & _COL_MASK: the column
_BORDER = const(3)

# scan(): one bit per column (COLUMNS) in each of three fields, at these
# shifts (24 bits: four 8-bit fields would break the 30-bit small-int rule);
# legal() gives the columns that are not full.
COLUMNS = const(0xFF)
SCAN_WINS = const(0)  # the side to move wins by playing there
SCAN_THREATS = const(SCAN_WINS + MAX_COLS)  # the opponent would win there: a block is due
SCAN_UNDER = const(SCAN_THREATS + MAX_COLS)  # the cell above wins for the opponent

# A window's state: how many discs of each player its four cells hold.
_DISC1 = const(1)  # one disc of player 1
_DISC2 = const(16)  # one disc of player 2
_TWO1 = const(2 * _DISC1)  # two of player 1 and nothing else
_TWO2 = const(2 * _DISC2)
_THREE1 = const(3 * _DISC1)  # a threat of player 1: three and a hole
_THREE2 = const(3 * _DISC2)
_STATES = const(4 * _DISC2 + 1)  # states 0..64 (64: player 2's four, never made in a search)
_F_BIAS = const(128)  # _F holds a window state's value + _F_BIAS
_SCORE_BIAS = const(32768)  # the arena holds the incremental score + _SCORE_BIAS

_WINDOW_COUNT = const(107)  # four-cell lines on the largest field, 8x7 (7x6: 69)
_CW_SHIFT = const(4)
_CW_SLOTS = const(1 << _CW_SHIFT)  # room for the windows through one cell (16 at most, on 8x7)
_PLAYING = const(MAX_ROWS * _ROW)  # cells from the first playing row to the largest field's end (56)
_KEY_SHIFT = const(2)  # 4 bytes a Zobrist key
_SIDE_SHIFT = const(_KEY_SHIFT + _FIELD_SHIFT)  # one key per cell for each player
_PLIES = const(MAX_DISCS - 1)  # records for plies 0..discs - 2: a node holding discs - 1 discs makes no move
_PLY_SHIFT = const(4)
_PLY_BYTES = const(1 << _PLY_SHIFT)  # a ply's record: what its node keeps while a child is searched
_P_MOVES = const(0)  # MAX_COLS bytes: the ordered move list
_P_COUNT = const(_P_MOVES + MAX_COLS)  # how many moves it holds
_P_ALPHA0 = const(_P_COUNT + 1)  # 2 bytes each, + _AB_BIAS: the window's lower end as the node's
_P_BETA = const(_P_ALPHA0 + 2)  # bounds and the table left it, its upper end,
_P_BEST = const(_P_BETA + 2)  # and the best score so far
_P_STATE = const(_P_BEST + 2)  # its best move so far | _RESEARCH | the index of the move being searched << _NEXT_SHIFT
_MOVE_BITS = const(15)  # _P_STATE & _MOVE_BITS: the best move (_NO_MOVE: none yet)
_RESEARCH = const(16)  # the child is being searched again with the full window
_NEXT_SHIFT = const(5)  # 3 bits: moves 0..7

# Arena layout (byte offsets), each region right after the one before.
_CELLS = const(0)  # the field
_TOP = const(_CELLS + _FIELD)  # MAX_COLS bytes: next free cell index per column
_N = const(_TOP + MAX_COLS)  # discs on the board
_ABORT = const(_N + 1)  # 1 once the search must unwind
_ROOTN = const(_ABORT + 1)  # discs at the root of this search
_NODES = const(_ROOTN + 1)  # 4 bytes little endian: nodes searched
_BUDGET = const(_NODES + 4)  # 4 bytes: node budget (0 = none)
_POLLMASK = const(_BUDGET + 4)  # 2 bytes: poll the hook when nodes & mask == 0
_TTMASK = const(_POLLMASK + 2)  # 2 bytes: table buckets - 1
_SCORE = const(_TTMASK + 2)  # 2 bytes: window + centre score for player 1, + _SCORE_BIAS
_WEIGHTS = const(_SCORE + 2)  # 16 bytes of evaluation weights (see WEIGHT_NAMES)
_NCOLS = const(_WEIGHTS + 16)  # the size (set_size): columns,
_NROWS = const(_NCOLS + 1)  # rows,
_FEND = const(_NROWS + 1)  # the field's end (a column whose next cell is here is full),
_NDISCS = const(_FEND + 1)  # cells of the field,
_NWINDOWS = const(_NDISCS + 1)  # four-cell windows,
_PODD = const(_NWINDOWS + 1)  # the parity weights in force (0 on odd heights, see set_size)
_PLOW = const(_PODD + 1)
_ORDER = const(_PLOW + 1)  # MAX_COLS bytes: columns centre first
_CENTRE = const(_ORDER + MAX_COLS)  # MAX_COLS bytes: static ordering bonus per column
_MIDCOL = const(_CENTRE + MAX_COLS)  # MAX_COLS bytes: 1 for a centre column (two on even widths)
# Per window: its state. Below byte 256, so that the lists of the windows through each cell
# (_CW) hold the offsets of their states, and a state is read with one index (p[w]).
_WSTATE = const(_MIDCOL + MAX_COLS)
_PLY_RECORDS = const(_WSTATE + _WINDOW_COUNT)  # _PLY_BYTES per ply: the search's explicit stack (see negamax)
_KEYS = const(_PLY_RECORDS + _PLIES * _PLY_BYTES)  # MAX_COLS bytes: the ordering keys of the list being sorted
_T1 = const(_KEYS + MAX_COLS)  # per cell, player 1 threats it is the hole of
_T_BYTES = const(_FIELD + _ROW)  # a row of zeros above the field: the cell above a top cell reads 0
_T2 = const(_T1 + _T_BYTES)  # the same for player 2 (must follow _T1)
# The same holes as bits, per column a bit per row (bit r: the cell (col, r)), for the
# horizon: player 1's columns, then player 2's. A full cell is no hole (its counts are 0).
_HOLES1 = const(_T2 + _T_BYTES)
_HOLES2 = const(_HOLES1 + MAX_COLS)
_POP = const(_HOLES2 + MAX_COLS)  # 1 << MAX_ROWS bytes: how many bits each column mask holds
# Per player, per window state s: the score's step when the player's disc joins the window
# (F[s + disc] - F[s] + _STEP_BIAS), then a flag: s or s + disc is a three (a threat's
# hole moves). A disc taken off a window in state s reads the entries of s - disc.
_STEP1 = const(_POP + (1 << MAX_ROWS))
_STEP2 = const(_STEP1 + 2 * _STATES)
_STEP_SHIFT = const(7)
_STEP_BIAS = const(1 << _STEP_SHIFT)  # the steps of the weights "one" and "two" below 64 (set_weights)
_ODD_ROWS = const(0x55)  # column mask bits of the 1st, 3rd, 5th and 7th rows (odd: the first player's)
_EVEN_ROWS = const(0x2A)
_WINDOWS = const(_STEP2 + 2 * _STATES)  # per window: start cell, index step
_WINDOW_AT = const(_WINDOWS - 2 * _WSTATE)  # p[_WINDOW_AT + 2 * w]: the start cell of the window whose state is p[w]
_F = const(_WINDOWS + 2 * _WINDOW_COUNT)  # per state: its value + _F_BIAS
_CWN = const(_F + _STATES)  # per cell: windows through it
_CW_AREA = const(_CWN + _FIELD)  # per playing cell, _CW_SLOTS bytes: their indexes
# Cell x's slots start at _CW + (x << _CW_SHIFT): the border row below the
# field has no windows, so the area starts with cell _ROW and _CW lies before it.
_CW = const(_CW_AREA - (_ROW << _CW_SHIFT))
_ZOBRIST = const(_CW_AREA + (_PLAYING << _CW_SHIFT))  # per player, per cell: a 30-bit key
_TABLE = const(_ZOBRIST + (2 << _SIDE_SHIFT))  # the transposition table follows, to the buffer's end
ARENA_SIZE = const(_TABLE)  # bytes before the table

# Evaluation weights, in WEIGHT_NAMES order. "one" and "two" live in _F only.
_WTHREAT = const(_WEIGHTS + 2)  # a threat cell (it would complete a four), any height
_WODD = const(_WEIGHTS + 3)  # extra for a threat on the row parity that favours its owner
_WLOW = const(_WEIGHTS + 4)  # extra for the lowest threat of a column on the right parity
# (the horizon reads these two from _PODD and _PLOW: see set_size)
_WSTACK = const(_WEIGHTS + 5)  # two threats of one player stacked in a column (a fork)
_WCENTRE = const(_WEIGHTS + 6)  # a disc in the centre column
_WNEXT = const(_WEIGHTS + 7)  # a threat right above a playable cell (the column is poisoned)
_WCREATE = const(_WEIGHTS + 8)  # move ordering: per threat a move creates

WEIGHT_NAMES = ("one", "two", "threat", "parity", "lowest", "stack", "centre",
                "poison", "order_threat")
DEFAULT_WEIGHTS = (1, 4, 10, 6, 10, 40, 4, 8, 16)

# Move ordering keys, one byte: higher is searched first.
_KEY_TT_MOVE = const(255)  # the table's move
_KEY_MAX = const(254)  # any other move at most

# Transposition table: TT_ENTRY bytes an entry, in the same buffer as the
# arena, from ARENA_SIZE on (one ptr8 a node, not two: on the chip each costs
# about as much as a small function call). Two entries make a bucket, indexed
# by the hash's low bits: the first keeps the deepest search (a store replaces
# it only when at least as deep; the entry it displaces moves to the second),
# the second takes every other store. A probe looks at both. In a table far smaller than a search
# (some 25,000 stores into 1,024 entries at the top level), the deep entries
# near the root, which save the most nodes, so survive the flood of shallow
# ones. A stored score is a searched node's best, so it stays within
# +-(WIN + discs + 1) and fits 12 bits; depths stay below 64 (56 plies at most, on 8x7).
TT_ENTRY = const(5)
_BUCKET = const(2 * TT_ENTRY)
# An entry starts with its check: 2 bytes little endian, hash bits _CHECK_SHIFT..
_TT_SCORE = const(2)  # score + _TT_BIAS, low 8 bits
_TT_MOVE = const(_TT_SCORE + 1)  # score + _TT_BIAS, high 4 bits | best move << _MOVE_SHIFT
_TT_DEPTH = const(_TT_MOVE + 1)  # depth << _FLAG_BITS | flag
_CHECK_SHIFT = const(14)
_CHECK_MASK = const(0xFFFF)
_TT_BIAS = const(2048)
_SCORE_HIGH = const(15)  # the score's high bits in the _TT_MOVE byte
_MOVE_SHIFT = const(4)
_NO_MOVE = const(8)  # no column (0..7 are): "no best move" in the table and in the search
_FLAG_BITS = const(2)
_FLAG_MASK = const((1 << _FLAG_BITS) - 1)
_LOWER = const(1)  # flags; 0 marks an empty slot
_UPPER = const(2)
_EXACT = const(3)


def no_poll():
    return 0


_poll = no_poll  # the search driver installs its hook here; it returns 1 to abort


def _put32(buf, offset, value):
    for i in range(4):
        buf[offset + i] = (value >> (8 * i)) & 0xFF


def get32(buf, offset):
    return buf[offset] | (buf[offset + 1] << 8) | (buf[offset + 2] << 16) | (buf[offset + 3] << 24)


def init_arena(arena, weights=DEFAULT_WEIGHTS, cols=7, rows=6):
    """Fill the constant parts of a fresh arena (once, at start-up)."""
    seed = 0x2545F491
    for i in range(2 * _FIELD):  # xorshift32, kept to 30 bits so keys stay small ints
        seed ^= (seed << 13) & 0xFFFFFFFF
        seed ^= seed >> 17
        seed ^= (seed << 5) & 0xFFFFFFFF
        _put32(arena, _ZOBRIST + (i << _KEY_SHIFT), seed & 0x3FFFFFFF)
    for i in range(len(weights)):
        arena[_WEIGHTS + i] = weights[i]
    arena[_NCOLS] = 0  # no size yet: set_size builds everything
    for m in range(1 << MAX_ROWS):
        arena[_POP + m] = bin(m).count("1")
    set_size(arena, cols, rows)
    set_weights(arena, weights)


def set_size(arena, cols, rows):
    """Make the arena's tables those of a cols x rows board (engine.board's
    sizes, checked there); an empty field. Returns True if the size changed:
    the transposition table then holds another board's positions (same cells,
    same keys) and must be cleared by the caller.

    The size reaches everything the search reads: the columns scanned and
    ordered (centre first, engine.board.centre_first), the field's end, the
    disc count in the win scores, the windows and the windows through each
    cell, the centre columns of the evaluation (two on even widths), and the
    parity terms. Those follow the even-odd rule of Allis' Connect 4 theory
    (the first player wants threats on odd rows, the second on even ones),
    which rests on columns of even height (claimeven: the second player
    answers in the same column); with an odd number of rows it does not hold,
    so there the parity weights are 0 and a threat counts the same on any row.
    """
    if arena[_NCOLS] == cols and arena[_NROWS] == rows:
        return False
    arena[_NCOLS] = cols
    arena[_NROWS] = rows
    arena[_FEND] = (rows + 1) * _ROW
    arena[_NDISCS] = cols * rows
    arena[_CELLS:_CELLS + _FIELD] = new_cells(cols, rows)
    for i in range(MAX_COLS):
        arena[_TOP + i] = _ROW + i
        arena[_ORDER + i] = 0
        arena[_CENTRE + i] = 0
        arena[_MIDCOL + i] = 0
    order = centre_first(cols)
    for i in range(cols):
        col = order[i]
        arena[_ORDER + i] = col
        arena[_CENTRE + col] = cols - 1 - i
    arena[_MIDCOL + (cols - 1) // 2] = 1
    arena[_MIDCOL + cols // 2] = 1
    for i in range(_FIELD):
        arena[_CWN + i] = 0
    w = 0  # the four-cell windows, each as (start cell, index step)
    for row in range(rows):
        for col in range(cols):
            # (index step, column step, row step): right, up-left, up, up-right
            for d, dc, dr in ((1, 1, 0), (_ROW - 1, -1, 1), (_ROW, 0, 1), (_ROW + 1, 1, 1)):
                if 0 <= col + 3 * dc < cols and row + 3 * dr < rows:
                    start = (row + 1) * _ROW + col
                    arena[_WINDOWS + 2 * w] = start
                    arena[_WINDOWS + 2 * w + 1] = d
                    for k in range(4):
                        x = start + k * d
                        arena[_CW + (x << _CW_SHIFT) + arena[_CWN + x]] = _WSTATE + w
                        arena[_CWN + x] += 1
                    w += 1
    arena[_NWINDOWS] = w
    _parity(arena)
    return True


def _parity(arena):
    """The parity weights in force: the weights' own on even heights, 0 on odd."""
    even = 1 - (arena[_NROWS] & 1)
    arena[_PODD] = arena[_WODD] * even
    arena[_PLOW] = arena[_WLOW] * even


def size(arena):
    """(cols, rows) of the arena's board."""
    return arena[_NCOLS], arena[_NROWS]


def set_weights(arena, weights):
    """Install evaluation weights (bytes; "one" and "two" below 64); takes effect at the
    next load_position."""
    if not 0 <= weights[0] < 64 or not 0 <= weights[1] < 64:
        raise ValueError("the weights one and two must be 0..63")
    for i in range(len(weights)):
        arena[_WEIGHTS + i] = weights[i]
    for state in range(_STATES):
        arena[_F + state] = _F_BIAS
    for count in (1, 2):  # an open window with one or two discs of one player
        value = weights[count - 1]
        arena[_F + count * _DISC1] = _F_BIAS + value
        arena[_F + count * _DISC2] = _F_BIAS - value
    threes = (_THREE1, _THREE2)
    for steps, disc in ((_STEP1, _DISC1), (_STEP2, _DISC2)):
        for state in range(_STATES):
            after = state + disc
            value = arena[_F + after] if after < _STATES else _F_BIAS
            arena[steps + state] = value - arena[_F + state] + _STEP_BIAS
            arena[steps + _STATES + state] = 1 if state in threes or after in threes else 0
    _parity(arena)


def zobrist(arena, index, player):
    return get32(arena, _ZOBRIST + ((player - 1) << _SIDE_SHIFT) + (index << _KEY_SHIFT))


def load_position(arena, cells, tops, count):
    """Copy a board into the arena, rebuild the incremental state, return the hash.

    The board's size (len(tops) columns, its rows from the border in `cells`)
    becomes the arena's (set_size), if it was not already."""
    rows = 0
    while rows < MAX_ROWS and cells[(rows + 1) * _ROW] != _BORDER:
        rows += 1
    set_size(arena, len(tops), rows)
    for i in range(_FIELD):
        arena[_CELLS + i] = cells[i] if cells[i] == _BORDER else 0
    for i in range(_WINDOW_COUNT):
        arena[_WSTATE + i] = 0
    for i in range(_T1, _HOLES2 + MAX_COLS):  # the threat counts and their bits
        arena[i] = 0
    arena[_SCORE] = _SCORE_BIAS & 0xFF
    arena[_SCORE + 1] = _SCORE_BIAS >> 8
    h = 0
    for i in range(_FIELD):
        v = cells[i]
        if v == 1 or v == 2:
            place(arena, i, v)
            h ^= zobrist(arena, i, v)
    arena[_TOP:_TOP + len(tops)] = tops
    arena[_N] = count
    return h


def incremental_state(arena):
    """What make and unmake keep up to date, for checks against a rebuild:
    (cells, tops, disc count, score, threat counts, window states, threat holes
    as bits); the first three are load_position's arguments."""
    return (bytes(arena[_CELLS:_CELLS + _FIELD]), bytes(arena[_TOP:_TOP + arena[_NCOLS]]), arena[_N],
            bytes(arena[_SCORE:_SCORE + 2]), bytes(arena[_T1:_T2 + _T_BYTES]),
            bytes(arena[_WSTATE:_WSTATE + _WINDOW_COUNT]), bytes(arena[_HOLES1:_HOLES2 + MAX_COLS]))


def prepare(arena, tt_entries, budget, poll_mask):
    """Reset the per-search counters."""
    arena[_ROOTN] = arena[_N]
    _put32(arena, _NODES, 0)
    set_budget(arena, budget)
    arena[_POLLMASK] = poll_mask & 0xFF
    arena[_POLLMASK + 1] = poll_mask >> 8
    buckets = tt_entries // 2
    arena[_TTMASK] = (buckets - 1) & 0xFF
    arena[_TTMASK + 1] = (buckets - 1) >> 8


def set_budget(arena, budget):
    """A new node budget (0 = none), counted from the search's start; clears an abort."""
    arena[_ABORT] = 0
    _put32(arena, _BUDGET, budget)


def play(arena, col, player, h):
    """Drop a disc at the root (Python level); returns the new hash."""
    x = arena[_TOP + col]
    make(arena, col, player)
    return h ^ zobrist(arena, x, player)


# search()'s depth, alpha and beta travel as one int: depth << _DEPTH_SHIFT,
# then alpha and beta + _AB_BIAS in 12 bits each (every int argument of a
# viper function costs a conversion at each call, that is at each node).
_AB_BIAS = const(2048)
_AB_BITS = const(12)
_AB_MASK = const((1 << _AB_BITS) - 1)
_DEPTH_SHIFT = const(2 * _AB_BITS)  # depth <= MAX_DISCS < 64: the packed int stays below 2**30


def search(arena, depth, alpha, beta, h):
    """Alpha-beta search of the arena's position to `depth` plies (see negamax)."""
    return negamax(arena, (depth << _DEPTH_SHIFT) | ((alpha + _AB_BIAS) << _AB_BITS) | (beta + _AB_BIAS), h)


def nodes(arena):
    return get32(arena, _NODES)


def ply(arena):
    """How deep below its root the search is now (for the poll hook and tests)."""
    return arena[_N] - arena[_ROOTN]


def aborted(arena):
    return arena[_ABORT] != 0


@micropython.viper
def clear(buf, size: int):
    """Zero a buffer without allocating a replacement."""
    p = ptr8(buf)
    i = 0
    while i < size:
        p[i] = 0
        i += 1


# place, remove, make, unmake and scan serve the Python-level root and
# load_position only, a few dozen calls a search: they stay bytecode, about
# 2.6 KB less machine code on the chip than viper for some 1-2 M instructions
# a search. The search inlines the same steps, because on the chip a
# viper-to-viper call costs about as much as the work it wraps (callgrind:
# 9,397 -> 6,663 instructions per node). tests/portable/test_search.py checks
# the inlined copies at every node of a search against a rebuild from the cells.


def _hole(arena, counts, y, step):
    """Add `step` to the threat count of cell y in `counts` (_T1 or _T2), and keep its bit
    in the column masks (_HOLES1, _HOLES2) set while the count is not 0."""
    v = arena[counts + y] + step
    arena[counts + y] = v
    m = (_HOLES2 if counts == _T2 else _HOLES1) + (y & _COL_MASK)
    bit = 1 << ((y >> _ROW_SHIFT) - 1)
    arena[m] = (arena[m] | bit) if v else (arena[m] & (0xFF ^ bit))


def place(arena, x: int, q: int):
    """Put a `q` disc on cell x and update windows, threat counts and score."""
    p = arena
    p[x] = q  # the field starts the arena: cell x is byte x
    inc = _DISC1
    if q == 2:
        inc = _DISC2
    s = p[_SCORE] | (p[_SCORE + 1] << 8)
    j = _CW + (x << _CW_SHIFT)
    end = j + p[_CWN + x]
    while j < end:
        w = p[j]  # the offset of the window's state
        old = p[w]
        new = old + inc
        p[w] = new
        s += p[_F + new] - p[_F + old]
        if old == _THREE1:  # x was the hole of a player 1 threat
            _hole(p, _T1, x, -1)
        elif old == _THREE2:
            _hole(p, _T2, x, -1)
        if new == _THREE1 or new == _THREE2:  # a new threat: find its hole
            y = p[_WINDOW_AT + 2 * w]
            d = p[_WINDOW_AT + 2 * w + 1]
            while p[y] != 0:
                y += d
            _hole(p, _T2 if new == _THREE2 else _T1, y, 1)
        j += 1
    if p[_MIDCOL + (x & _COL_MASK)]:
        if q == 1:
            s += p[_WCENTRE]
        else:
            s -= p[_WCENTRE]
    p[_SCORE] = s & 0xFF
    p[_SCORE + 1] = (s >> 8) & 0xFF


def remove(arena, x: int):
    """Undo `place` on cell x."""
    p = arena
    q = p[x]  # the field starts the arena: cell x is byte x
    dec = _DISC1
    if q == 2:
        dec = _DISC2
    s = p[_SCORE] | (p[_SCORE + 1] << 8)
    j = _CW + (x << _CW_SHIFT)
    end = j + p[_CWN + x]
    while j < end:
        w = p[j]
        old = p[w]
        new = old - dec
        p[w] = new
        s += p[_F + new] - p[_F + old]
        if old == _THREE1 or old == _THREE2:  # the threat this disc completed is gone
            y = p[_WINDOW_AT + 2 * w]
            d = p[_WINDOW_AT + 2 * w + 1]
            while p[y] != 0:
                y += d
            _hole(p, _T2 if old == _THREE2 else _T1, y, -1)
        if new == _THREE1:  # x is the hole of a threat again
            _hole(p, _T1, x, 1)
        elif new == _THREE2:
            _hole(p, _T2, x, 1)
        j += 1
    if p[_MIDCOL + (x & _COL_MASK)]:
        if q == 1:
            s -= p[_WCENTRE]
        else:
            s += p[_WCENTRE]
    p[_SCORE] = s & 0xFF
    p[_SCORE + 1] = (s >> 8) & 0xFF
    p[x] = 0


def make(arena, c: int, q: int):
    """Drop a `q` disc in column c (legal, not full)."""
    p = arena
    x = p[_TOP + c]
    p[_TOP + c] = x + _ROW
    p[_N] = p[_N] + 1
    place(arena, x, q)


def unmake(arena, c: int):
    p = arena
    x = p[_TOP + c] - _ROW
    p[_TOP + c] = x
    p[_N] = p[_N] - 1
    remove(arena, x)


def scan(arena, player: int) -> int:
    """One pass over the playable cells: the columns of each SCAN_* field.

    SCAN_WINS: `player` wins there at once; SCAN_THREATS: the opponent would
    win there at once; SCAN_UNDER: the cell above the playable one wins for
    the opponent (playing there hands over the game). Read a field as
    (s >> SCAN_x) & COLUMNS; legal() gives the columns that are not full.
    """
    p = arena
    own = _T1
    opp = _T2
    if player == 2:
        own = _T2
        opp = _T1
    out = 0
    fend = p[_FEND]
    c = 0
    while c < p[_NCOLS]:
        x = p[_TOP + c]
        if x < fend:
            if p[own + x]:
                out |= 1 << (c + SCAN_WINS)
            if p[opp + x]:
                out |= 1 << (c + SCAN_THREATS)
            if p[opp + x + _ROW]:  # 0 above the top row: _T_BYTES
                out |= 1 << (c + SCAN_UNDER)
        c += 1
    return out


def legal(arena) -> int:
    """One bit per column that is not full."""
    out = 0
    c = 0
    while c < arena[_NCOLS]:
        if arena[_TOP + c] < arena[_FEND]:
            out |= 1 << c
        c += 1
    return out


# negamax() walks the tree in one loop, not by calling itself: each ply's
# record in the arena keeps what its node must remember while a child is
# searched, so the call stack stays the same however deep the search goes
# (on the chip a nested call took 460 bytes of a 15,360-byte stack, and
# cost about as much as a leaf's work). Leaves are nodes like any other: the
# horizon value is written once, in _ENTER. The loop is a small state machine:
_ENTER = const(0)  # a node: count it, its quick results, the table or the horizon, its ordered moves
_NEXT = const(1)  # descend into the node's next move, or store its result and return it
_RETURN = const(2)  # a node's value is `r`: back to its parent (or out, from the first node)
_SCORED = const(3)  # the move just searched scored `sc`: undo it, fold the score in


@micropython.viper
def negamax(p: ptr8, j: int, h: int) -> int:
    """Negamax alpha-beta with a transposition table; returns the score.

    `depth` comes packed with alpha and beta (see search()). On abort it
    returns 0 and sets the arena's abort byte: the caller must then discard
    the result. The locals below belong to the node being worked on; when
    it descends they go to its ply record (the window's lower end is
    max(alpha0, best), so only alpha0 is kept), and come back from it when
    the child returns.
    """
    alpha = ((j >> _AB_BITS) & _AB_MASK) - _AB_BIAS
    beta = (j & _AB_MASK) - _AB_BIAS
    depth = j >> _DEPTH_SHIFT
    first = int(p[_N])  # the disc count of the node asked for: its value ends the loop
    step = _ENTER
    r = 0  # step _RETURN: the value of the node that returns
    sc = 0  # step _SCORED: the value of the move just searched
    n = 0  # the node's disc count, its player, ...
    player = 0
    inc = 0  # ... a disc's step in a window state, the centre bonus ...
    centre = 0
    rec = 0  # ... its ply record ...
    cnt = 0  # ... how many moves it has, the one being searched ...
    i = 0
    c = 0  # ... that move's column and cell ...
    x = 0
    alpha0 = 0  # ... its window as its own bounds and the table left it ...
    best = 0  # ... and the best so far
    best_move = _NO_MOVE
    cols = int(p[_NCOLS])  # the board's size (set_size), for the whole search
    fend = int(p[_FEND])
    discs = int(p[_NDISCS])
    win_n = WIN + discs  # a win with disc k scores win_n + 1 - k
    steps = _STEP1  # the side to move's score steps and threat flags (_STEP1, _STEP2)
    # The node count, the budget and the poll's period live here while the search runs; the
    # count goes back to the arena before each poll and at the end.
    count = p[_NODES] | (p[_NODES + 1] << 8) | (p[_NODES + 2] << 16) | (p[_NODES + 3] << 24)
    budget = p[_BUDGET] | (p[_BUDGET + 1] << 8) | (p[_BUDGET + 2] << 16) | (p[_BUDGET + 3] << 24)
    if budget == 0:
        budget = 0x3FFFFFFF  # none: beyond every count
    pollmask = p[_POLLMASK] | (p[_POLLMASK + 1] << 8)
    while 1:
        if step == _ENTER:
            count += 1
            if count > budget:
                p[_ABORT] = 1
            if (count & pollmask) == 0:
                p[_NODES] = count & 0xFF
                p[_NODES + 1] = (count >> 8) & 0xFF
                p[_NODES + 2] = (count >> 16) & 0xFF
                p[_NODES + 3] = (count >> 24) & 0xFF
                if int(_poll()):
                    p[_ABORT] = 1
            r = 0
            step = _RETURN
            if p[_ABORT]:
                continue
            n = p[_N]
            if n >= discs:
                continue
            player = 1 + (n & 1)
            # s = scan(arena, player), inlined
            own = _T1
            opp = _T2
            if player == 2:
                own = _T2
                opp = _T1
            s = 0  # the wins, ...
            threats = 0  # ... the threats, ...
            under = 0  # ... the cells under an opponent's win ...
            cands = 0  # ... and the legal moves, a bit per column
            c = 0
            bit = 1
            while c < cols:
                x = p[_TOP + c]
                if x < fend:
                    cands |= bit
                    if p[_HOLES1 + c] | p[_HOLES2 + c]:  # the column holds threat holes
                        if p[own + x]:
                            s |= bit
                        if p[opp + x]:
                            threats |= bit
                        if p[opp + x + _ROW]:  # 0 above the top row: _T_BYTES
                            under |= bit
                c += 1
                bit <<= 1
            if s:
                r = win_n - n  # this disc, number n + 1, wins
                continue
            if n >= discs - 1:
                continue  # the last disc fills the board without winning: 0
            if threats:
                if (threats & (threats - 1)) != 0 or (threats & under) != 0:
                    r = n - (win_n - 1)  # two threats, or the block hands over a win
                    continue
                cands = threats
            else:
                cands = cands & (COLUMNS ^ under)
                if cands == 0:
                    r = n - (win_n - 1)  # every move hands the opponent disc n + 2 and the win
                    continue
            hi = (win_n - 2) - n  # we cannot win before our next-but-one disc, n + 3
            if beta > hi:
                beta = hi
                if alpha >= beta:
                    r = beta
                    continue
            lo = n - (win_n - 3)  # nor can the opponent win with its next disc, n + 2
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    r = alpha
                    continue
            if depth <= 0:
                # The horizon: a heuristic value for `player`, within +-EVAL_MAX.
                # The incremental score holds the open windows (by how many discs
                # they hold) and the centre discs. Here the threats are added: a
                # cell that would complete a four, with extras for the row parity
                # that favours its owner (odd rows for the first player, even for
                # the second), for being the lowest threat of its column, for
                # sitting right above a playable cell, and for two threats of one
                # player stacked in a column (a fork).
                r = (p[_SCORE] | (p[_SCORE + 1] << 8)) - _SCORE_BIAS
                c = 0
                while c < cols:  # the columns' threat holes as bits (_HOLES1, _HOLES2)
                    m1 = p[_HOLES1 + c]
                    m2 = p[_HOLES2 + c]
                    if m1 | m2:
                        r += p[_WTHREAT] * (p[_POP + m1] - p[_POP + m2])
                        r += p[_PODD] * (p[_POP + (m1 & _ODD_ROWS)] - p[_POP + (m2 & _EVEN_ROWS)])
                        r += p[_WSTACK] * (p[_POP + (m1 & (m1 << 1))] - p[_POP + (m2 & (m2 << 1))])
                        y = m1 | m2
                        y = y & (0 - y)  # the column's lowest threat, either player's
                        if y & m1 & _ODD_ROWS:
                            r += p[_PLOW]
                        if y & m2 & _EVEN_ROWS:
                            r -= p[_PLOW]
                        y = 1 << (p[_TOP + c] >> _ROW_SHIFT)  # the cell right above the playable one
                        if y & m1:
                            r += p[_WNEXT]
                        if y & m2:
                            r -= p[_WNEXT]
                    c += 1
                if player == 2:
                    r = 0 - r
                if r > EVAL_MAX:
                    r = EVAL_MAX
                elif r < 0 - EVAL_MAX:
                    r = 0 - EVAL_MAX
                continue
            ti = _TABLE + (h & (p[_TTMASK] | (p[_TTMASK + 1] << 8))) * _BUCKET
            check = (h >> _CHECK_SHIFT) & _CHECK_MASK
            tt_move = _NO_MOVE
            te = ti  # the entry probed: the deep slot if its check matches, else the other one
            if (p[ti] | (p[ti + 1] << 8)) != check:
                te = ti + TT_ENTRY
            df = p[te + _TT_DEPTH]
            if (p[te] | (p[te + 1] << 8)) == check and (df & _FLAG_MASK) != 0:
                tt_move = p[te + _TT_MOVE] >> _MOVE_SHIFT
                if (df >> _FLAG_BITS) >= depth:
                    r = (p[te + _TT_SCORE] | ((p[te + _TT_MOVE] & _SCORE_HIGH) << 8)) - _TT_BIAS
                    flag = df & _FLAG_MASK
                    if flag == _EXACT:
                        continue
                    if flag == _LOWER:
                        if r > alpha:
                            alpha = r
                    elif r < beta:
                        beta = r
                    if alpha >= beta:
                        continue
            rec = _PLY_RECORDS + ((n - p[_ROOTN]) << _PLY_SHIFT)
            # Order the candidates into this ply's move list, best first: the table
            # move, then by the threats a move creates (windows through its cell
            # holding two of ours and nothing else), then centre first (inlined).
            wcreate = p[_WCREATE]
            two = _TWO1
            if player == 2:
                two = _TWO2
            cnt = 0
            i = 0
            while i < cols:
                c = p[_ORDER + i]
                i += 1
                if not (cands & (1 << c)):
                    continue
                if c == tt_move:
                    key = _KEY_TT_MOVE
                else:
                    x = p[_TOP + c]
                    made = 0
                    j = _CW + (x << _CW_SHIFT)
                    end = j + p[_CWN + x]
                    while j < end:  # windows through x holding two of ours and no other
                        if p[p[j]] == two:
                            made += 1
                        j += 1
                    key = made * wcreate + p[_CENTRE + c]
                    if key > _KEY_MAX:
                        key = _KEY_MAX
                j = cnt  # insertion sort, stable: equal keys keep the centre-first order
                while j > 0 and p[_KEYS + j - 1] < key:
                    p[rec + _P_MOVES + j] = p[rec + _P_MOVES + j - 1]
                    p[_KEYS + j] = p[_KEYS + j - 1]
                    j -= 1
                p[rec + _P_MOVES + j] = c
                p[_KEYS + j] = key
                cnt += 1
            p[rec + _P_COUNT] = cnt
            inc = _DISC1
            centre = p[_WCENTRE]
            steps = _STEP1
            if player == 2:
                inc = _DISC2
                centre = 0 - centre
                steps = _STEP2
            alpha0 = alpha
            best = 0 - INF
            best_move = _NO_MOVE
            i = 0
            step = _NEXT
        if step == _NEXT:
            if i >= cnt:
                # Every move searched, or a cut-off: store the result and return it.
                flag = _EXACT
                if best <= alpha0:
                    flag = _UPPER
                elif best >= beta:
                    flag = _LOWER
                # Store: into the deep slot if at least as deep as its entry, which then
                # moves to the other slot unless it is this very position; else into the
                # other slot (beside a deeper entry of this very position, if so: the
                # probe finds the deeper one first).
                ti = _TABLE + (h & (p[_TTMASK] | (p[_TTMASK + 1] << 8))) * _BUCKET
                check = (h >> _CHECK_SHIFT) & _CHECK_MASK
                te = ti + TT_ENTRY
                if (p[ti + _TT_DEPTH] >> _FLAG_BITS) <= depth:
                    if (p[ti] | (p[ti + 1] << 8)) != check:  # read anew: the subtree stores too
                        k = 0
                        while k < TT_ENTRY:
                            p[te + k] = p[ti + k]
                            k += 1
                    te = ti
                p[te] = check & 0xFF
                p[te + 1] = check >> 8
                v = best + _TT_BIAS
                p[te + _TT_SCORE] = v & 0xFF
                p[te + _TT_MOVE] = ((v >> 8) & _SCORE_HIGH) | (best_move << _MOVE_SHIFT)
                p[te + _TT_DEPTH] = (depth << _FLAG_BITS) | flag
                r = best
                step = _RETURN
            else:
                c = p[rec + _P_MOVES + i]
                x = p[_TOP + c]
                p[_TOP + c] = x + _ROW
                p[_N] = n + 1
                # place(arena, x, player), inlined: a call costs about as much as the work
                p[x] = player  # the field starts the arena: cell x is byte x
                end = p[_CWN + x]
                acc = (p[_SCORE] | (p[_SCORE + 1] << 8)) - (end << _STEP_SHIFT)  # the steps' bias
                j = _CW + (x << _CW_SHIFT)
                end += j
                while j < end:
                    w = p[j]  # the offset of the window's state
                    old = p[w]
                    p[w] = old + inc
                    acc += p[steps + old]
                    if p[steps + _STATES + old]:  # a threat's hole moves
                        new = old + inc
                        if old == _THREE1:  # x was its hole: its counts end at 0
                            p[_T1 + x] = p[_T1 + x] - 1
                            p[_HOLES1 + c] = p[_HOLES1 + c] & (0xFF ^ (1 << ((x >> _ROW_SHIFT) - 1)))
                        elif old == _THREE2:
                            p[_T2 + x] = p[_T2 + x] - 1
                            p[_HOLES2 + c] = p[_HOLES2 + c] & (0xFF ^ (1 << ((x >> _ROW_SHIFT) - 1)))
                        if new == _THREE1 or new == _THREE2:  # a new threat: its hole
                            y = p[_WINDOW_AT + 2 * w]
                            d = p[_WINDOW_AT + 2 * w + 1]
                            while p[y] != 0:
                                y += d
                            k = _T1 + y
                            d = _HOLES1 + (y & _COL_MASK)
                            if new == _THREE2:
                                k = _T2 + y
                                d = _HOLES2 + (y & _COL_MASK)
                            p[k] = p[k] + 1
                            p[d] = p[d] | (1 << ((y >> _ROW_SHIFT) - 1))
                    j += 1
                if p[_MIDCOL + (x & _COL_MASK)]:
                    acc += centre
                p[_SCORE] = acc & 0xFF
                p[_SCORE + 1] = (acc >> 8) & 0xFF
                # Descend: the child's window, the first move's the full one, the
                # others' a null window first (_RETURN searches again if it fails high).
                p[rec + _P_STATE] = best_move | (i << _NEXT_SHIFT)
                p[rec + _P_ALPHA0] = (alpha0 + _AB_BIAS) & 0xFF
                p[rec + _P_ALPHA0 + 1] = (alpha0 + _AB_BIAS) >> 8
                p[rec + _P_BETA] = (beta + _AB_BIAS) & 0xFF
                p[rec + _P_BETA + 1] = (beta + _AB_BIAS) >> 8
                p[rec + _P_BEST] = (best + _AB_BIAS) & 0xFF
                p[rec + _P_BEST + 1] = (best + _AB_BIAS) >> 8
                alpha = alpha0
                if best > alpha:
                    alpha = best
                child_alpha = 0 - alpha - 1
                if i == 0:
                    child_alpha = 0 - beta
                beta = 0 - alpha
                alpha = child_alpha
                if depth > 1:  # a leaf looks at no table: its hash is not needed
                    z = _ZOBRIST + ((player - 1) << _SIDE_SHIFT) + (x << _KEY_SHIFT)
                    h = h ^ (p[z] | (p[z + 1] << 8) | (p[z + 2] << 16) | (p[z + 3] << 24))
                depth -= 1
                step = _ENTER
                continue
        if step == _RETURN:
            if int(p[_N]) == first:
                p[_NODES] = count & 0xFF
                p[_NODES + 1] = (count >> 8) & 0xFF
                p[_NODES + 2] = (count >> 16) & 0xFF
                p[_NODES + 3] = (count >> 24) & 0xFF
                return r
            # Back in the parent, whose move is still on the board: its locals from its record.
            depth += 1
            n = p[_N] - 1
            player = 1 + (n & 1)
            inc = _DISC1
            centre = p[_WCENTRE]
            steps = _STEP1
            if player == 2:
                inc = _DISC2
                centre = 0 - centre
                steps = _STEP2
            rec = _PLY_RECORDS + ((n - p[_ROOTN]) << _PLY_SHIFT)
            cnt = p[rec + _P_COUNT]
            state = p[rec + _P_STATE]
            i = state >> _NEXT_SHIFT
            research = state & _RESEARCH
            best_move = state & _MOVE_BITS
            alpha0 = (p[rec + _P_ALPHA0] | (p[rec + _P_ALPHA0 + 1] << 8)) - _AB_BIAS
            beta = (p[rec + _P_BETA] | (p[rec + _P_BETA + 1] << 8)) - _AB_BIAS
            best = (p[rec + _P_BEST] | (p[rec + _P_BEST + 1] << 8)) - _AB_BIAS
            alpha = alpha0
            if best > alpha:
                alpha = best
            c = p[rec + _P_MOVES + i]
            x = p[_TOP + c] - _ROW
            sc = 0 - r
            if i > 0 and research == 0 and sc > alpha and sc < beta and p[_ABORT] == 0:
                # The null window failed high (an aborted child scored nothing):
                # the same child again, with the full window.
                p[rec + _P_STATE] = state | _RESEARCH
                child_alpha = 0 - beta
                beta = 0 - alpha
                alpha = child_alpha
                depth -= 1
                step = _ENTER
                continue
            if depth > 1:  # back to this node's hash (a leaf's was never made)
                z = _ZOBRIST + ((player - 1) << _SIDE_SHIFT) + (x << _KEY_SHIFT)
                h = h ^ (p[z] | (p[z + 1] << 8) | (p[z + 2] << 16) | (p[z + 3] << 24))
            step = _SCORED
        if step == _SCORED:
            # remove(arena, x), inlined
            end = p[_CWN + x]
            acc = (p[_SCORE] | (p[_SCORE + 1] << 8)) + (end << _STEP_SHIFT)  # the steps' bias
            j = _CW + (x << _CW_SHIFT)
            end += j
            while j < end:
                w = p[j]
                new = p[w] - inc
                p[w] = new
                acc -= p[steps + new]  # the step from new to old, taken back
                if p[steps + _STATES + new]:  # a threat's hole moves
                    old = new + inc
                    if old == _THREE1 or old == _THREE2:  # the threat this disc made is gone
                        y = p[_WINDOW_AT + 2 * w]
                        d = p[_WINDOW_AT + 2 * w + 1]
                        while p[y] != 0:
                            y += d
                        k = _T1 + y
                        d = _HOLES1 + (y & _COL_MASK)
                        if old == _THREE2:
                            k = _T2 + y
                            d = _HOLES2 + (y & _COL_MASK)
                        p[k] = p[k] - 1
                        if p[k] == 0:
                            p[d] = p[d] & (0xFF ^ (1 << ((y >> _ROW_SHIFT) - 1)))
                    if new == _THREE1:  # x is a threat's hole again
                        p[_T1 + x] = p[_T1 + x] + 1
                        p[_HOLES1 + c] = p[_HOLES1 + c] | (1 << ((x >> _ROW_SHIFT) - 1))
                    elif new == _THREE2:
                        p[_T2 + x] = p[_T2 + x] + 1
                        p[_HOLES2 + c] = p[_HOLES2 + c] | (1 << ((x >> _ROW_SHIFT) - 1))
                j += 1
            if p[_MIDCOL + (x & _COL_MASK)]:
                acc -= centre
            p[_SCORE] = acc & 0xFF
            p[_SCORE + 1] = (acc >> 8) & 0xFF
            p[x] = 0
            p[_TOP + c] = x
            p[_N] = n
            if p[_ABORT]:
                r = 0
                step = _RETURN
                continue
            if sc > best:
                best = sc
                best_move = c
                if sc >= beta and sc > alpha0:
                    i = cnt  # a cut-off: no more moves
            i += 1
            step = _NEXT
