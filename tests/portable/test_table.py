"""The transposition table's buckets: the deep slot keeps the deepest search,
the other slot takes the latest store.

Observed through the core alone: a position whose exact score is in the table
at a depth at least the one asked costs the search one node (the root's probe).
"""
from connect4.engine import core
from connect4.engine.board import Board
from connect4.engine.rng import Rng
from connect4.engine.search import Searcher

ENTRIES = 16  # 8 buckets: positions that share one are easy to find
DEEP = 8
SHALLOW = 2


def _hash(s, moves):
    b = Board(moves)
    return core.load_position(s.arena, b.cells, b.tops, b.count)


def _search(s, moves, depth):
    """core.search of `moves` to `depth` with the window (-INF, INF); returns the nodes it took."""
    h = _hash(s, moves)
    core.prepare(s.arena, s.tt_entries, 0, 1023)
    core.search(s.arena, depth, -core.INF, core.INF, h)
    assert not core.aborted(s.arena)
    return core.nodes(s.arena)


def _same_slot(s, moves, count, skip=()):
    """`count` positions, none in `skip`, whose hash has the same low bits as
    that of `moves` in a table of ENTRIES entries (the same entry of a table
    with one entry a slot, the same bucket of ours), and whose search stores
    its root (no win or forced reply settles it first)."""
    low = _hash(s, moves) & (ENTRIES - 1)
    scratch = Searcher(tt_entries=ENTRIES)
    rng = Rng(11)
    out = []
    while len(out) < count:
        b = Board()
        for i in range(4 + rng.below(6)):
            legal = b.legal_moves()
            b.play(legal[rng.below(len(legal))])
            if b.is_over():
                break
        m = b.moves_string()
        if not b.is_over() and m != moves and m not in skip and m not in out \
                and _hash(s, m) & (ENTRIES - 1) == low:
            scratch.new_game()
            if _search(scratch, m, SHALLOW) > 1 and _search(scratch, m, SHALLOW) == 1:
                out.append(m)
    return out


def test_a_deep_entry_survives_shallow_stores_into_its_bucket():
    s = Searcher(tt_entries=ENTRIES)
    deep = "4453"
    others = _same_slot(s, deep, 3)
    assert _search(s, deep, DEEP) > 1000
    assert _search(s, deep, DEEP) == 1  # stored: the root's probe answers
    for m in others:  # a one-entry slot would take each of these
        _search(s, m, SHALLOW)
        assert _search(s, deep, DEEP) == 1


def test_a_shallow_store_keeps_the_latest_one_beside_the_deep_entry():
    s = Searcher(tt_entries=ENTRIES)
    deep = "4453"
    other = _same_slot(s, deep, 1)[0]
    _search(s, deep, DEEP)
    _search(s, other, SHALLOW)
    assert _search(s, other, SHALLOW) == 1  # in the other slot of the bucket
    assert _search(s, deep, DEEP) == 1
