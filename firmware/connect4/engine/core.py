"""The search's hot path: alpha-beta negamax and the horizon evaluation.

Written for ``@micropython.viper`` on the ESP32-C3: all state lives in one
preallocated bytearray (the arena) and one transposition-table bytearray, read
through ``ptr8``; ints stay below 2**30, so the same code gives the same
results as plain Python on CPython (host_sim) and on a VM with no native
emitter (the decorators stripped). Nothing here allocates per node, and the
only calls are a few coarse ones (scan, evaluate, recurse, and the poll hook
every ``poll mask + 1`` nodes: interrupt callbacks never run inside native
code, so the hook itself must read the input).

Scores are from the side to move's point of view. A forced win placed with
disc k (k = 1..42 counting all discs) scores WIN + 43 - k; a loss the negation;
0 is a draw or a level position; heuristic values stay within +-EVAL_MAX.
Win scores depend on the position only, so the table may store them as is.
"""
import micropython
from micropython import const

from connect4.engine.board import new_cells, DIRECTIONS, CENTRE_FIRST

WIN = const(1000)
EVAL_MAX = const(900)
INF = const(30000)

# Arena layout (byte offsets). Cells 0..63 use the board's padded layout.
_TOP = const(64)  # 7 bytes: next free cell index per column
_N = const(71)  # discs on the board
_ABORT = const(72)  # 1 once the search must unwind
_ROOTN = const(73)  # discs at the root of this search
_NODES = const(74)  # 4 bytes little endian: nodes searched
_BUDGET = const(78)  # 4 bytes: node budget (0 = none)
_POLLMASK = const(82)  # 2 bytes: poll the hook when nodes & mask == 0
_TTMASK = const(84)  # 2 bytes: table entries - 1
_SCORE = const(86)  # 2 bytes: incremental window + centre score for player 1, + 32768
_WEIGHTS = const(88)  # 16 bytes of evaluation weights (see WEIGHT_NAMES)
_ORDER = const(104)  # 7 bytes: columns centre first
_CENTRE = const(112)  # 7 bytes: static ordering bonus per column
_MOVES = const(120)  # 8 bytes per ply: ordered move lists
_KEYS = const(464)  # 8 bytes per ply: ordering keys
_T1 = const(808)  # 64 bytes: per cell, open windows it would complete for player 1
_T2 = const(872)  # 64 bytes: the same for player 2 (must follow _T1)
_WINDOWS = const(936)  # 69 x (start cell, step)
_WSTATE = const(1076)  # 69 bytes: discs per window, player 1 + 16 * player 2
_F = const(1148)  # 64 bytes: window value by state, + 128
_CWN = const(1212)  # 64 bytes: windows through each cell
_CW = const(1276)  # 64 x 16 bytes: their indexes
_ZOBRIST = const(2300)  # 2 x 64 x 4 bytes of 30-bit keys
ARENA_SIZE = const(2812)

_W1 = const(88)  # one disc in an open window
_W2 = const(89)  # two discs in an open window
_W3 = const(90)  # a threat cell (it would complete a four), any height
_WODD = const(91)  # extra for a threat on the row parity that favours its owner
_WLOW = const(92)  # extra for the lowest threat of a column on the right parity
_WSTACK = const(93)  # two threats of one player stacked in a column (a fork)
_WCENTRE = const(94)  # a disc in the centre column
_WNEXT = const(95)  # a threat right above a playable cell (the column is poisoned)
_WCREATE = const(96)  # move ordering: per threat a move creates

WEIGHT_NAMES = ("one", "two", "threat", "parity", "lowest", "stack", "centre",
                "poison", "order_threat")
DEFAULT_WEIGHTS = (1, 4, 10, 6, 10, 40, 4, 8, 16)

# Transposition table: TT_ENTRY bytes an entry, indexed by the hash's low bits.
#   0-1  check: hash bits 14..29, little endian
#   2    score + _TT_BIAS, low 8 bits
#   3    score + _TT_BIAS, high 4 bits | best move << 4 (_NO_MOVE: none)
#   4    depth << 2 | flag (flag 0: an empty slot)
# A stored score is a searched node's best, so it stays within
# +-(WIN + 43) and fits 12 bits; depths stay below 64 (42 plies at most).
TT_ENTRY = const(5)
_TT_BIAS = const(2048)
_NO_MOVE = const(7)
_EXACT = const(3)
_LOWER = const(1)
_UPPER = const(2)


def no_poll():
    return 0


_poll = no_poll  # the search driver installs its hook here; it returns 1 to abort


def _put32(buf, offset, value):
    for i in range(4):
        buf[offset + i] = (value >> (8 * i)) & 0xFF


def get32(buf, offset):
    return buf[offset] | (buf[offset + 1] << 8) | (buf[offset + 2] << 16) | (buf[offset + 3] << 24)


def _windows():
    """The 69 four-cell lines as (start index, step) pairs."""
    steps = ((1, 1, 0), (7, -1, 1), (8, 0, 1), (9, 1, 1))  # (index step, dcol, drow)
    out = []
    for row in range(6):
        for col in range(7):
            for d, dc, dr in steps:
                if 0 <= col + 3 * dc < 7 and row + 3 * dr < 6:
                    out.append(((row + 1) * 8 + col, d))
    return out


def init_arena(arena, weights=DEFAULT_WEIGHTS):
    """Fill the constant parts of a fresh arena (once, at start-up)."""
    arena[0:64] = new_cells()
    for i, col in enumerate(CENTRE_FIRST):
        arena[_ORDER + i] = col
        arena[_CENTRE + col] = 6 - i
    for w, (start, d) in enumerate(_windows()):
        arena[_WINDOWS + 2 * w] = start
        arena[_WINDOWS + 2 * w + 1] = d
        for k in range(4):
            x = start + k * d
            arena[_CW + 16 * x + arena[_CWN + x]] = w
            arena[_CWN + x] += 1
    seed = 0x2545F491
    for i in range(128):  # xorshift32, kept to 30 bits so keys stay small ints
        seed ^= (seed << 13) & 0xFFFFFFFF
        seed ^= seed >> 17
        seed ^= (seed << 5) & 0xFFFFFFFF
        _put32(arena, _ZOBRIST + 4 * i, seed & 0x3FFFFFFF)
    set_weights(arena, weights)


def set_weights(arena, weights):
    """Install evaluation weights (bytes); takes effect at the next load_position."""
    for i in range(len(weights)):
        arena[_WEIGHTS + i] = weights[i]
    for state in range(64):
        arena[_F + state] = 128
    for c in (1, 2):
        value = weights[c - 1]
        arena[_F + c] = 128 + value
        arena[_F + 16 * c] = 128 - value


def zobrist(arena, index, player):
    return get32(arena, _ZOBRIST + ((player - 1) << 8) + (index << 2))


def load_position(arena, cells, tops, count):
    """Copy a board into the arena, rebuild the incremental state, return the hash."""
    for i in range(64):
        arena[i] = cells[i] if cells[i] == 3 else 0
    for i in range(69):
        arena[_WSTATE + i] = 0
    for i in range(128):
        arena[_T1 + i] = 0
    arena[_SCORE] = 0
    arena[_SCORE + 1] = 128
    h = 0
    for i in range(64):
        v = cells[i]
        if v == 1 or v == 2:
            place(arena, i, v)
            h ^= zobrist(arena, i, v)
    arena[_TOP:_TOP + 7] = tops
    arena[_N] = count
    return h


def prepare(arena, tt_entries, budget, poll_mask):
    """Reset the per-search counters."""
    arena[_ABORT] = 0
    arena[_ROOTN] = arena[_N]
    _put32(arena, _NODES, 0)
    _put32(arena, _BUDGET, budget)
    arena[_POLLMASK] = poll_mask & 0xFF
    arena[_POLLMASK + 1] = poll_mask >> 8
    arena[_TTMASK] = (tt_entries - 1) & 0xFF
    arena[_TTMASK + 1] = (tt_entries - 1) >> 8


def play(arena, col, player, h):
    """Drop a disc at the root (Python level); returns the new hash."""
    x = arena[_TOP + col]
    make(arena, col, player)
    return h ^ zobrist(arena, x, player)


def nodes(arena):
    return get32(arena, _NODES)


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


# place, remove and scan serve the Python-level root and load_position; the
# search inlines the same steps, because on the chip a viper-to-viper call
# costs about as much as the work it wraps (callgrind: 9,397 -> 6,663
# instructions per node). tests/portable/test_search.py checks the two agree.


@micropython.viper
def place(arena, x: int, q: int):
    """Put a `q` disc on cell x and update windows, threat counts and score."""
    p = ptr8(arena)
    p[x] = q
    inc = 1
    if q == 2:
        inc = 16
    s = p[_SCORE] | (p[_SCORE + 1] << 8)
    j = _CW + (x << 4)
    end = j + p[_CWN + x]
    while j < end:
        w = p[j]
        old = p[_WSTATE + w]
        new = old + inc
        p[_WSTATE + w] = new
        s += p[_F + new] - p[_F + old]
        if old == 3:  # x was the hole of a player 1 threat
            p[_T1 + x] = p[_T1 + x] - 1
        elif old == 48:
            p[_T2 + x] = p[_T2 + x] - 1
        if new == 3 or new == 48:  # a new threat: find its hole
            y = p[_WINDOWS + 2 * w]
            d = p[_WINDOWS + 2 * w + 1]
            while p[y] != 0:
                y += d
            t = _T1 + y
            if new == 48:
                t = _T2 + y
            p[t] = p[t] + 1
        j += 1
    if (x & 7) == 3:
        if q == 1:
            s += p[_WCENTRE]
        else:
            s -= p[_WCENTRE]
    p[_SCORE] = s & 0xFF
    p[_SCORE + 1] = (s >> 8) & 0xFF


@micropython.viper
def remove(arena, x: int):
    """Undo `place` on cell x."""
    p = ptr8(arena)
    q = p[x]
    dec = 1
    if q == 2:
        dec = 16
    s = p[_SCORE] | (p[_SCORE + 1] << 8)
    j = _CW + (x << 4)
    end = j + p[_CWN + x]
    while j < end:
        w = p[j]
        old = p[_WSTATE + w]
        new = old - dec
        p[_WSTATE + w] = new
        s += p[_F + new] - p[_F + old]
        if old == 3 or old == 48:  # the threat this disc completed is gone
            y = p[_WINDOWS + 2 * w]
            d = p[_WINDOWS + 2 * w + 1]
            while p[y] != 0:
                y += d
            t = _T1 + y
            if old == 48:
                t = _T2 + y
            p[t] = p[t] - 1
        if new == 3:  # x is the hole of a threat again
            p[_T1 + x] = p[_T1 + x] + 1
        elif new == 48:
            p[_T2 + x] = p[_T2 + x] + 1
        j += 1
    if (x & 7) == 3:
        if q == 1:
            s -= p[_WCENTRE]
        else:
            s += p[_WCENTRE]
    p[_SCORE] = s & 0xFF
    p[_SCORE + 1] = (s >> 8) & 0xFF
    p[x] = 0


@micropython.viper
def make(arena, c: int, q: int):
    """Drop a `q` disc in column c (legal, not full)."""
    p = ptr8(arena)
    x = p[_TOP + c]
    p[_TOP + c] = x + 8
    p[_N] = p[_N] + 1
    place(arena, x, q)


@micropython.viper
def unmake(arena, c: int):
    p = ptr8(arena)
    x = p[_TOP + c] - 8
    p[_TOP + c] = x
    p[_N] = p[_N] - 1
    remove(arena, x)


@micropython.viper
def scan(arena, player: int) -> int:
    """One pass over the playable cells.

    Returns bits 0-6: columns where `player` wins at once; bits 7-13: columns
    where the opponent would win at once; bits 14-20: columns whose cell above
    the playable one wins for the opponent (playing there hands over the game);
    bits 21-27: columns that are not full.
    """
    p = ptr8(arena)
    own = _T1
    opp = _T2
    if player == 2:
        own = _T2
        opp = _T1
    out = 0
    c = 0
    while c < 7:
        x = p[_TOP + c]
        if x < 56:
            out |= 1 << (c + 21)
            if p[own + x]:
                out |= 1 << c
            if p[opp + x]:
                out |= 1 << (c + 7)
            if x < 48:
                if p[opp + x + 8]:
                    out |= 1 << (c + 14)
        c += 1
    return out


@micropython.viper
def search(arena, tt, depth: int, alpha: int, beta: int, h: int) -> int:
    """Negamax alpha-beta with a transposition table; returns the score.

    On abort it returns 0 and sets the arena's abort byte: the caller must
    then discard the result.
    """
    p = ptr8(arena)
    t = ptr8(tt)
    count = p[_NODES] | (p[_NODES + 1] << 8) | (p[_NODES + 2] << 16) | (p[_NODES + 3] << 24)
    count += 1
    p[_NODES] = count & 0xFF
    p[_NODES + 1] = (count >> 8) & 0xFF
    p[_NODES + 2] = (count >> 16) & 0xFF
    p[_NODES + 3] = (count >> 24) & 0xFF
    budget = p[_BUDGET] | (p[_BUDGET + 1] << 8) | (p[_BUDGET + 2] << 16) | (p[_BUDGET + 3] << 24)
    if budget:
        if count > budget:
            p[_ABORT] = 1
    if (count & (p[_POLLMASK] | (p[_POLLMASK + 1] << 8))) == 0:
        if int(_poll()):
            p[_ABORT] = 1
    if p[_ABORT]:
        return 0
    n = p[_N]
    if n >= 42:
        return 0
    player = 1 + (n & 1)
    # s = scan(arena, player), inlined
    own = _T1
    opp = _T2
    if player == 2:
        own = _T2
        opp = _T1
    s = 0
    c = 0
    while c < 7:
        x = p[_TOP + c]
        if x < 56:
            s |= 1 << (c + 21)
            if p[own + x]:
                s |= 1 << c
            if p[opp + x]:
                s |= 1 << (c + 7)
            if x < 48:
                if p[opp + x + 8]:
                    s |= 1 << (c + 14)
        c += 1
    if s & 0x7F:
        return WIN + 42 - n
    if n >= 41:
        return 0  # the last disc fills the board without winning
    threats = (s >> 7) & 0x7F
    under = (s >> 14) & 0x7F
    if threats:
        if (threats & (threats - 1)) != 0 or (threats & under) != 0:
            return 0 - (WIN + 41 - n)  # two threats, or the block hands over a win
        cands = threats
    else:
        cands = ((s >> 21) & 0x7F) & (0x7F ^ under)
        if cands == 0:
            return 0 - (WIN + 41 - n)  # every move hands the opponent a win
    hi = WIN + 40 - n  # we cannot win before our next-but-one disc
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta
    lo = 0 - (WIN + 39 - n)  # nor can the opponent win with its next disc
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    if depth <= 0:
        # The horizon: a heuristic value for `player`, within +-EVAL_MAX.
        # The incremental score holds the open windows (by how many discs they
        # hold) and the centre discs. Here the threats are added: a cell that
        # would complete a four, with extras for the row parity that favours
        # its owner (odd rows for the first player, even for the second), for
        # being the lowest threat of its column, for sitting right above a
        # playable cell, and for two threats of one player stacked in a column
        # (a fork). Inlined: a call would cost as much as the walk.
        v = (p[_SCORE] | (p[_SCORE + 1] << 8)) - 32768
        w3 = p[_W3]
        wodd = p[_WODD]
        wlow = p[_WLOW]
        wstack = p[_WSTACK]
        wnext = p[_WNEXT]
        c = 0
        while c < 7:
            x = p[_TOP + c]
            y = x
            low = 0  # set once any threat was seen lower in this column
            prev1 = 0
            prev2 = 0
            while y < 56:
                a = p[_T1 + y]
                b = p[_T2 + y]
                odd = (y >> 3) & 1  # 1 on the 1st, 3rd and 5th rows
                if a:
                    v += w3
                    if odd:
                        v += wodd
                        if low == 0:
                            v += wlow
                    if prev1:
                        v += wstack
                    if y == x + 8:
                        v += wnext
                if b:
                    v -= w3
                    if odd == 0:
                        v -= wodd
                        if low == 0:
                            v -= wlow
                    if prev2:
                        v -= wstack
                    if y == x + 8:
                        v -= wnext
                if a or b:
                    low = 1
                prev1 = a
                prev2 = b
                y += 8
            c += 1
        if player == 2:
            v = 0 - v
        if v > EVAL_MAX:
            v = EVAL_MAX
        elif v < 0 - EVAL_MAX:
            v = 0 - EVAL_MAX
        return v
    ti = (h & (p[_TTMASK] | (p[_TTMASK + 1] << 8))) * TT_ENTRY
    check = (h >> 14) & 0xFFFF
    tt_move = 255
    stored = t[ti] | (t[ti + 1] << 8)
    df = t[ti + 4]
    if stored == check and (df & 3) != 0:
        tt_move = t[ti + 3] >> 4
        if tt_move == _NO_MOVE:
            tt_move = 255
        if (df >> 2) >= depth:
            sc = (t[ti + 2] | ((t[ti + 3] & 15) << 8)) - _TT_BIAS
            flag = df & 3
            if flag == _EXACT:
                return sc
            if flag == _LOWER:
                if sc > alpha:
                    alpha = sc
            elif sc < beta:
                beta = sc
            if alpha >= beta:
                return sc
    base = (n - p[_ROOTN]) << 3
    # Order the candidates into this ply's move list, best first: the table
    # move, then by the threats a move creates (windows through its cell
    # holding two of ours and nothing else), then centre first (inlined).
    wcreate = p[_WCREATE]
    two = 2
    if player == 2:
        two = 32
    cnt = 0
    i = 0
    while i < 7:
        c = p[_ORDER + i]
        i += 1
        if not (cands & (1 << c)):
            continue
        if c == tt_move:
            key = 255
        else:
            x = p[_TOP + c]
            made = 0
            j = _CW + (x << 4)
            end = j + p[_CWN + x]
            while j < end:  # windows through x holding two of ours and no other
                if p[_WSTATE + p[j]] == two:
                    made += 1
                j += 1
            key = made * wcreate + p[_CENTRE + c]
            if key > 254:
                key = 254
        j = cnt  # insertion sort, stable: equal keys keep the centre-first order
        while j > 0 and p[_KEYS + base + j - 1] < key:
            p[_MOVES + base + j] = p[_MOVES + base + j - 1]
            p[_KEYS + base + j] = p[_KEYS + base + j - 1]
            j -= 1
        p[_MOVES + base + j] = c
        p[_KEYS + base + j] = key
        cnt += 1
    inc = 1  # a disc's step in a window state: 1 for player 1, 16 for player 2
    centre = p[_WCENTRE]
    if player == 2:
        inc = 16
        centre = 0 - centre
    alpha0 = alpha
    best = 0 - INF
    best_move = 255
    i = 0
    while i < cnt:
        c = p[_MOVES + base + i]
        x = p[_TOP + c]
        p[_TOP + c] = x + 8
        p[_N] = n + 1
        # place(arena, x, player), inlined: a call costs about as much as the work
        p[x] = player
        acc = p[_SCORE] | (p[_SCORE + 1] << 8)
        j = _CW + (x << 4)
        end = j + p[_CWN + x]
        while j < end:
            w = p[j]
            old = p[_WSTATE + w]
            new = old + inc
            p[_WSTATE + w] = new
            acc += p[_F + new] - p[_F + old]
            if old == 3:
                p[_T1 + x] = p[_T1 + x] - 1
            elif old == 48:
                p[_T2 + x] = p[_T2 + x] - 1
            if new == 3 or new == 48:
                y = p[_WINDOWS + 2 * w]
                d = p[_WINDOWS + 2 * w + 1]
                while p[y] != 0:
                    y += d
                k = _T1 + y
                if new == 48:
                    k = _T2 + y
                p[k] = p[k] + 1
            j += 1
        if (x & 7) == 3:
            acc += centre
        p[_SCORE] = acc & 0xFF
        p[_SCORE + 1] = (acc >> 8) & 0xFF
        z = _ZOBRIST + ((player - 1) << 8) + (x << 2)
        hz = h ^ (p[z] | (p[z + 1] << 8) | (p[z + 2] << 16) | (p[z + 3] << 24))
        if i == 0:
            sc = 0 - int(search(arena, tt, depth - 1, 0 - beta, 0 - alpha, hz))
        else:
            sc = 0 - int(search(arena, tt, depth - 1, 0 - alpha - 1, 0 - alpha, hz))
            if sc > alpha and sc < beta:
                sc = 0 - int(search(arena, tt, depth - 1, 0 - beta, 0 - alpha, hz))
        # remove(arena, x), inlined
        acc = p[_SCORE] | (p[_SCORE + 1] << 8)
        j = _CW + (x << 4)
        end = j + p[_CWN + x]
        while j < end:
            w = p[j]
            old = p[_WSTATE + w]
            new = old - inc
            p[_WSTATE + w] = new
            acc += p[_F + new] - p[_F + old]
            if old == 3 or old == 48:
                y = p[_WINDOWS + 2 * w]
                d = p[_WINDOWS + 2 * w + 1]
                while p[y] != 0:
                    y += d
                k = _T1 + y
                if old == 48:
                    k = _T2 + y
                p[k] = p[k] - 1
            if new == 3:
                p[_T1 + x] = p[_T1 + x] + 1
            elif new == 48:
                p[_T2 + x] = p[_T2 + x] + 1
            j += 1
        if (x & 7) == 3:
            acc -= centre
        p[_SCORE] = acc & 0xFF
        p[_SCORE + 1] = (acc >> 8) & 0xFF
        p[x] = 0
        p[_TOP + c] = x
        p[_N] = n
        if p[_ABORT]:
            return 0
        if sc > best:
            best = sc
            best_move = c
            if sc > alpha:
                alpha = sc
                if alpha >= beta:
                    break
        i += 1
    flag = _EXACT
    if best <= alpha0:
        flag = _UPPER
    elif best >= beta:
        flag = _LOWER
    if (t[ti + 4] >> 2) <= depth or stored != check:
        t[ti] = check & 0xFF
        t[ti + 1] = check >> 8
        v = best + _TT_BIAS
        if best_move > _NO_MOVE:
            best_move = _NO_MOVE
        t[ti + 2] = v & 0xFF
        t[ti + 3] = ((v >> 8) & 15) | (best_move << 4)
        t[ti + 4] = (depth << 2) | flag
    return best
