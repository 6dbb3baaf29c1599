"""Search: tactics, exact results, limits, abort, determinism."""
from connect4.engine.board import Board
from connect4.engine.search import Searcher, is_win_score, moves_to_end, STOP_POLL, STOP_NODES
from connect4.engine.player import AIPlayer
from connect4.engine.rng import Rng
from connect4.engine import levels
from checks import WIN_IN_3, WIN_IN_5

SEARCHER = Searcher(tt_entries=1024)


def test_takes_a_win_in_one():
    b = Board("112233")  # X can complete 1-2-3-4 on the bottom row
    r = SEARCHER.search(b, depth=4)
    assert r.move == 3 and is_win_score(r.score) and r.score > 0


def test_blocks_a_loss_in_one():
    b = Board("1122336")  # O to move must block column 4
    r = SEARCHER.search(b, depth=4)
    assert r.move == 3


def test_a_forced_move_spends_only_a_small_budget():
    from connect4.engine.search import FORCED_NODES
    r = SEARCHER.search(Board("1122336"), nodes=100000)  # O must block column 4
    assert r.move == 3 and 0 < r.nodes <= FORCED_NODES + 1
    r = SEARCHER.search(Board("754145265165513522"), nodes=4000)  # only column 1 does not lose
    assert r.move == 0 and FORCED_NODES <= r.nodes <= FORCED_NODES + 1, r  # went 2 over once


def test_never_plays_under_an_opponent_threat():
    rng = Rng(11)
    checked = 0
    for game in range(40):
        b = Board()
        while not b.is_over() and b.count < 30:
            moves = b.legal_moves()
            opp = 3 - b.turn
            safe = [c for c in moves if b.height(c) >= 5 or not b.is_winning_move_at(c, b.height(c) + 1, opp)]
            urgent = [c for c in moves if b.is_winning_move(c) or b.is_winning_move(c, opp)]
            if safe and len(safe) < len(moves) and not urgent:
                move = SEARCHER.search(b, depth=3).move
                assert move in safe, (b.moves_string(), move)
                checked += 1
            b.play(moves[rng.below(len(moves))])
    assert checked >= 10


def check_forced_win(positions, plies):
    for moves in positions:
        b = Board(moves)
        r = SEARCHER.search(b, depth=plies + 1, nodes=200000)
        assert r.score > 0 and is_win_score(r.score), (moves, r)
        assert moves_to_end(r.score, b.count) == (plies + 1) // 2, (moves, r)
        # the move really wins: the opponent's best reply still loses
        b.play(r.move)
        reply = SEARCHER.search(b, depth=plies, nodes=200000)
        assert reply.score < 0 and is_win_score(reply.score), (moves, reply)


def test_finds_forced_wins_in_3_plies():
    check_forced_win(WIN_IN_3, 3)


def test_finds_forced_wins_in_5_plies():
    check_forced_win(WIN_IN_5, 5)


def test_abort_at_once_returns_a_legal_move():
    b = Board("4453")
    s = Searcher(tt_entries=256, poll_interval=1)
    r = s.search(b, nodes=100000, poll=lambda: True)
    assert r.stopped == STOP_POLL
    assert b.can_play(r.move)


def test_abort_midway_keeps_the_deepest_finished_iteration():
    b = Board("4453")
    s = Searcher(tt_entries=256, poll_interval=16)
    full = []
    s.search(b, depth=5, info=lambda d, sc, n: full.append((d, sc, n)))
    calls = [0]

    def poll():
        calls[0] += 1
        return calls[0] > full[3][2] // 16 + 1  # after depth 4 finished

    r = s.search(b, depth=42, poll=poll)
    assert r.stopped == STOP_POLL and r.depth >= 4
    assert b.can_play(r.move)


def test_node_budget_is_respected_and_reported():
    r = SEARCHER.search(Board(), nodes=3000)
    assert r.stopped == STOP_NODES
    assert 3000 <= r.nodes <= 3001


def test_a_budget_stop_never_searches_past_the_budget():
    """The node that notices the budget is the last: a child cut off by it
    must not start the PVS re-search (these searches went 2 nodes over)."""
    s = Searcher(tt_entries=1024)
    for moves, budget in (("", 200), ("4453", 500), ("44", 1000), ("62667", 50), ("71", 2000),
                          ("3431357145147553", 500)):
        r = s.search(Board(moves), nodes=budget)
        assert r.stopped == STOP_NODES, (moves, budget, r)
        assert budget <= r.nodes <= budget + 1, (moves, budget, r)


def test_same_seed_same_game():
    def game(seed):
        b = Board()
        players = (AIPlayer(level=3, seed=seed), AIPlayer(level=5, seed=seed + 1))
        while not b.is_over():
            b.play(players[b.count & 1].choose(b).move)
        return b.moves_string()
    assert game(7) == game(7)
    assert game(7) != game(8) or game(7) != game(9)


def test_blunder_never_skips_a_win_or_a_block():
    win = Board("112233")
    block = Board("1122336")
    for seed in range(30):
        ai = AIPlayer(level=1, seed=seed, blunder=100)
        assert ai.choose(win).move == 3
        assert ai.choose(block).move == 3


def test_blunder_plays_random_legal_moves():
    ai = AIPlayer(level=8, seed=3, blunder=100)
    b = Board("4453")
    moves = set()
    for _ in range(40):
        r = ai.choose(b)
        assert r.stopped == "blunder" and b.can_play(r.move)
        moves.add(r.move)
    assert len(moves) >= 5


def test_levels_table_and_demo_pairs():
    assert levels.MAX_LEVEL >= 8
    prev = (0, 0)
    for level in range(1, levels.MAX_LEVEL + 1):
        limits = (levels.depth(level), levels.nodes(level))
        assert limits >= prev and 0 <= levels.blunder(level) <= 100
        prev = limits
    assert levels.nodes(0) == levels.nodes(1) and levels.depth(99) == levels.depth(levels.MAX_LEVEL)
    rng = Rng(5)
    seen = set()
    for _ in range(200):
        a, b = levels.demo_pair(rng)
        assert a != b and 1 <= a <= levels.MAX_LEVEL and 1 <= b <= levels.MAX_LEVEL
        seen.add((a, b))
    assert len(seen) > 20


def test_rng_is_xorshift32_everywhere():
    """The same draws as a plain xorshift32 (big ints are fine here, in a test)."""
    for seed in (12345, 0, 1, 0xFFFFFFFF, 0x9E3779B9, -7):
        rng = Rng(seed)
        x = (seed & 0xFFFFFFFF) or 0x9E3779B9
        for i in range(300):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            n = 1 + i % 100
            assert rng.below(n) == (x >> 8) % n, (seed, i)


def test_rng_draws_allocate_nothing():
    """On the chip an int of 2**30 or more is a heap object: a 32-bit state
    would allocate at every draw. With the heap locked that raises MemoryError
    (in the MicroPython VM; a no-op on CPython)."""
    import micropython
    rng = Rng(0xDEADBEEF)
    total = 0
    micropython.heap_lock()
    try:
        for i in range(200):
            total += rng.below(7) + rng.chance(50)
    finally:
        micropython.heap_unlock()
    assert 0 < total < 200 * 8


def test_the_search_core_allocates_nothing_per_node():
    """With the heap locked, any allocation raises MemoryError (a no-op on CPython)."""
    import micropython
    from connect4.engine import core
    s = Searcher(tt_entries=1024, poll_interval=64)
    b = Board("4453")
    arena = s.arena
    h = core.load_position(arena, b.cells, b.tops, b.count)
    core.clear(s.tt, len(s.tt))
    core.prepare(arena, s.tt_entries, 0, 63)
    micropython.heap_lock()
    try:
        score = core.search(arena, 7, -core.INF, core.INF, h)
    finally:
        micropython.heap_unlock()
    assert core.nodes(arena) > 1000 and not core.aborted(arena)
    assert -core.EVAL_MAX <= score <= core.EVAL_MAX


def test_incremental_state_is_exact_and_restored_by_the_search():
    """The standalone place (via core.play) keeps the same window, threat and
    score state as a rebuild from scratch, and a search leaves it as it was."""
    from connect4.engine import core
    s = Searcher(tt_entries=256)
    rebuilt = Searcher(tt_entries=256)
    rng = Rng(5)
    for game in range(9):
        b = Board("", *((7, 6), (8, 7), (5, 4))[game % 3])
        h = core.load_position(s.arena, b.cells, b.tops, b.count)
        while not b.is_over() and b.count < 30:
            moves = b.legal_moves()
            col = moves[rng.below(len(moves))]
            h = core.play(s.arena, col, b.turn, h)  # standalone place
            b.play(col)
            if b.is_over():
                break
            state = core.incremental_state(s.arena)
            assert core.load_position(rebuilt.arena, b.cells, b.tops, b.count) == h
            assert core.incremental_state(rebuilt.arena) == state, b.moves_string()
            core.prepare(s.arena, 256, 400, 1023)
            core.search(s.arena, 3, -core.INF, core.INF, h)  # inlined make/unmake
            assert core.incremental_state(s.arena) == state, b.moves_string()


def model_state(cells, weights, cols=7, rows=6):
    """Score (player 1's view) and threat holes of a position, counted window
    by window apart from core. Cell (col, row) is cells[(row + 1) * 8 + col];
    the centre columns: one on odd widths, two on even ones."""
    score = 0
    holes = [bytearray(72), bytearray(72)]
    for row in range(rows):
        for col in range(cols):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                line = [(col + k * dc, row + k * dr) for k in range(4)]
                if not all(0 <= c < cols and 0 <= r < rows for c, r in line):
                    continue
                owners = [cells[(r + 1) * 8 + c] for c, r in line]
                for me, sign in ((1, 1), (2, -1)):
                    if (3 - me) in owners:
                        continue
                    mine = owners.count(me)
                    if mine in (1, 2):  # weights "one" and "two"
                        score += sign * weights[mine - 1]
                    elif mine == 3:
                        c, r = line[owners.index(0)]
                        holes[me - 1][(r + 1) * 8 + c] += 1
    for row in range(rows):
        for col in set(((cols - 1) // 2, cols // 2)):
            owner = cells[(row + 1) * 8 + col]
            if owner:
                score += (1 if owner == 1 else -1) * weights[6]  # weight "centre"
    return score, bytes(holes[0]) + bytes(holes[1])


def loaded_positions(seed, sizes):
    """Every position of 12 random games (seeded), in turn on each size (cols, rows) of
    `sizes`, loaded into one arena: (arena, board) before each move."""
    from connect4.engine import core
    arena = bytearray(core.ARENA_SIZE)
    core.init_arena(arena)
    rng = Rng(seed)
    for game in range(12):
        cols, rows = sizes[game % len(sizes)]
        b = Board("", cols, rows)
        while not b.is_over():
            core.load_position(arena, b.cells, b.tops, b.count)
            yield arena, b
            moves = b.legal_moves()
            b.play(moves[rng.below(len(moves))])


def test_place_keeps_what_a_model_counts_from_scratch():
    """load_position (place, disc by disc) against model_state: together with
    the check at every node this ties the inlined copies to the model too."""
    from connect4.engine import core
    empty = None  # the score's stored form at 0: the first position's, the empty board
    threats = 0
    for arena, b in loaded_positions(13, ((7, 6), (8, 7), (4, 4), (6, 4), (8, 5), (5, 7))):
        state = core.incremental_state(arena)
        if empty is None:
            empty = state[3]
        score = (state[3][0] | state[3][1] << 8) - (empty[0] | empty[1] << 8)
        model = model_state(b.cells, core.DEFAULT_WEIGHTS, b.cols, b.rows)
        assert (score, state[4]) == model, (b.size, b.moves_string())
        threats += sum(state[4])
    assert threats > 20


def test_scan_fields_hold_the_columns_the_board_sees():
    """core.scan's bit layout, read through its named fields, and core.legal,
    on the classic board and on the smallest, tallest and widest ones."""
    from connect4.engine import core
    checked = 0
    for arena, b in loaded_positions(9, ((7, 6), (4, 4), (8, 7), (5, 7), (8, 4), (6, 5))):
        cols, rows = b.cols, b.rows
        s = core.scan(arena, b.turn)
        legal = core.legal(arena)
        assert s < (1 << 30) and legal < (1 << cols)  # small ints on the chip
        opp = 3 - b.turn
        for c in range(cols):
            row = b.height(c)
            above = b.can_play(c) and row < rows - 1 and b.is_winning_move_at(c, row + 1, opp)
            assert bool(legal & (1 << c)) == b.can_play(c), (b.moves_string(), c)
            for field, expected in ((core.SCAN_WINS, b.is_winning_move(c)),
                                    (core.SCAN_THREATS, b.is_winning_move(c, opp)),
                                    (core.SCAN_UNDER, above)):
                columns = (s >> field) & core.COLUMNS
                assert bool(columns & (1 << c)) == expected, (b.size, b.moves_string(), c, field)
                checked += expected
    assert checked > 100


REGION_NAMES = ("cells", "tops", "disc count", "score", "threat counts", "window states", "threat holes")


def test_the_inlined_make_and_unmake_match_a_rebuild_at_every_node():
    """core.search inlines place/remove. With poll_interval=1 the poll hook runs
    at every node: there the incrementally kept state must equal a rebuild from
    the cells alone (a wrong centre bonus in both inlined copies still undoes
    itself, so only a check inside the search sees it)."""
    from connect4.engine import core
    s = Searcher(tt_entries=256, poll_interval=1)
    scratch = bytearray(core.ARENA_SIZE)
    core.init_arena(scratch)
    checked = [0]
    wrong = []

    def check():
        state = core.incremental_state(s.arena)
        core.load_position(scratch, state[0], state[1], state[2])
        rebuilt = core.incremental_state(scratch)
        for name, a, b in zip(REGION_NAMES, state, rebuilt):
            if a != b:
                wrong.append(name)
        checked[0] += 1
        return len(wrong)  # stop at the first difference

    for moves, cols, rows in (("4453", 7, 6), ("3431357145147553", 7, 6), ("62667", 7, 6),
                              ("1234567444", 7, 6), ("4455", 8, 7), ("18812345", 8, 7),
                              ("2323", 4, 4), ("3344", 6, 5), ("1357", 8, 4)):
        s.search(Board(moves, cols, rows), depth=5, nodes=150, poll=check)
        assert not wrong, (moves, cols, rows, wrong)
    assert checked[0] >= 900, checked


def test_root_reorder_is_stable_on_ties_and_puts_the_best_first():
    # MicroPython's list.sort is not stable: the root order must not depend on it.
    from connect4.engine.search import reorder
    scores = [0] * 7
    for c, s in ((3, 5), (2, 7), (4, 5), (1, 7), (5, 5), (0, -2), (6, 7)):
        scores[c] = s
    order = [3, 2, 4, 1, 5, 0, 6]
    reorder(order, scores, 1)
    assert order == [1, 2, 6, 3, 4, 5, 0]
    order = [3, 2, 4, 1, 5, 0, 6]
    reorder(order, scores, 3)  # the best may tie below others' scores after an abort
    assert order == [3, 2, 1, 6, 4, 5, 0]
    order = [4]
    reorder(order, scores, 4)
    assert order == [4]


def fresh(moves, **limits):
    """The search of `moves` by a Searcher that has searched nothing before."""
    return Searcher(tt_entries=1024).search(Board(moves), **limits)


def same(a, b):
    return (a.move, a.score, a.depth, a.nodes, a.stopped) == (b.move, b.score, b.depth, b.nodes, b.stopped)


def test_the_table_is_kept_within_a_game_and_cleared_at_a_new_one():
    s = Searcher(tt_entries=1024)
    s.search(Board("4453"), depth=8)
    kept = s.search(Board("445344"), depth=8)  # two discs later in the same game
    alone = fresh("445344", depth=8)
    assert kept.nodes < alone.nodes, (kept, alone)  # what the first search learnt served
    # a position that does not follow the last one (a new game): judged as if alone
    assert same(s.search(Board("1234"), depth=7), fresh("1234", depth=7))
    # a move taken back: the same
    s.search(Board("12345"), depth=7)
    assert same(s.search(Board("1234"), depth=7), fresh("1234", depth=7))
    # new_game() forgets even a position that follows
    s.search(Board("123456"), depth=7)
    s.new_game()
    assert same(s.search(Board("12345677"), depth=7), fresh("12345677", depth=7))
    # new weights: the table's heuristic scores are stale
    s.search(Board("4453"), depth=8)
    s.set_weights(core_weights())
    assert same(s.search(Board("445344"), depth=8), alone)


def core_weights():
    from connect4.engine import core
    return core.DEFAULT_WEIGHTS


def test_a_proof_within_the_budget_plays_the_fastest_win():
    """Late positions are solved to the end: the score is a proven result, and
    the move wins as fast as the full-window search to the end says (the
    weak solve and its refinement against the plain exact search)."""
    scores = []
    # two wins, a draw, a loss (the first win after its winning move), 19-23 discs
    for moves in ("43436157345567665523215", "44232333554665224144", "44444435215212225555216",
                  "442323335546652241443"):
        b = Board(moves)
        r = fresh(moves, nodes=50000)
        assert not r.stopped, (moves, r)
        assert r.depth == 42 - b.count and (r.score == 0 or is_win_score(r.score)), (moves, r)
        plain = fresh(moves, nodes=0)  # no budget, no proof first: iterative deepening to the end
        assert plain.depth == 42 - b.count or is_win_score(plain.score)  # to the end, or a win proved
        assert r.score == plain.score, (moves, r, plain)
        assert r.nodes < plain.nodes, (moves, r, plain)  # and the proof was the cheaper way
        scores.append(r.score)
    assert max(scores) > 0 and min(scores) < 0 and 0 in scores


def test_a_proof_that_runs_out_of_budget_leaves_the_rest_to_the_heuristic_search():
    for moves in ("444443333636", "34444363314111"):  # 12 and 14 discs: no proof in 2000 nodes
        r = fresh(moves, nodes=2000)
        assert r.nodes <= 2001 and r.stopped == STOP_NODES and r.depth >= 3, (moves, r)
        assert Board(moves).can_play(r.move)


def test_a_released_arena_made_again_searches_as_a_fresh_searcher():
    """release() gives the arena and its table to the heap (a game of two boards played by the
    board's buttons, the page asking for one); resize() makes them as Searcher() would, the
    weights set before kept; a search on a released searcher makes the smallest table first."""
    weights = (1, 4, 9, 6, 10, 40, 4, 8, 16)  # (not the defaults: kept across the release)
    s = Searcher(tt_entries=64)
    s.set_weights(weights)
    s.search(Board("4453"), depth=7)
    s.release()
    assert s.arena is None and s.tt is None and s.tt_entries == 0
    s.new_game()  # (nothing to forget)
    s.resize(32)
    fresh = Searcher(tt_entries=32, weights=weights)
    for moves in ("", "4453", "44444233"):
        got, want = s.search(Board(moves), depth=7), fresh.search(Board(moves), depth=7)
        assert (got.move, got.score, got.depth, got.nodes) == (want.move, want.score, want.depth, want.nodes), moves
    s.release()
    got = s.search(Board("4453"), depth=7)
    assert s.tt_entries == 16 and got.move == Searcher(tt_entries=16, weights=weights).search(
        Board("4453"), depth=7).move
