"""Where a game leaves the first-player book (tools/book/exits.py): the
positions it finds, the search it replays there (the board's own move) and
the checked-in book's move at every exit it listed."""
import os

import pytest

from connect4.engine.book import Book
from connect4.engine.board import Board
from connect4.engine.player import AIPlayer
from tools.book import build, exits
from tools.common import TOP_LEVEL


def test_the_exits_are_the_defender_replies_the_book_does_not_hold(tmp_path):
    entries = tmp_path / "entries.txt"
    # the board opens 4; after 44 it plays 4 again; 4443 is a second-player record (held, not followed)
    entries.write_text("- 4 first\n44 4 first\n4443 5 second\n")
    found = exits.exits(str(entries))
    # after 4: 1/7, 2/6, 3/5 mirror each other and 44 is held; after 444: 4444 and three pairs, 4443 held
    assert found == ["45", "46", "47", "4444", "4446", "4447"]
    assert all(build.canonical(m)[1] == m for m in found)  # each in its stored orientation


def test_a_move_that_does_not_win_is_found():
    pytest.importorskip("bitbully")
    # the people bench's one first-player drop (issue 19): 1 and 7 win, every other column draws
    assert exits.loses_win(("474446433347331177", 3)) == (("474446433347331177", 3), True)
    assert exits.loses_win(("474446433347331177", 1))[1] is False
    assert exits.loses_win(("4455", 3))[1] is False  # 4455 wins with 3 and 6
    assert exits.loses_win(("445566", 7))[1] is False  # an immediate win needs no solver


def test_a_rerun_keeps_the_positions_of_the_file_it_replaces_once_each(tmp_path):
    path = tmp_path / "book_exits.txt"
    assert exits.kept_positions(str(path), {"45"}) == set()  # no file before: nothing kept
    exits.write(str(path), ["45", "4444", "4447"], ["# an earlier run"])
    # 43 mirrors 45 (held by this run already); 4441 mirrors 4447 and stays in the stored orientation
    kept = exits.kept_positions(str(path), {"43", "4446"})
    assert kept == {"4444", build.canonical("4447")[1]}
    assert all(build.canonical(m)[1] == m for m in kept)


POSITIONS = ["444442245736622556633727", "4444415666622222646353555733"]  # exits, judged quickly


def test_the_replayed_search_is_the_boards_own_move(tmp_path):
    """What exits.py judges is what the top level plays where its game leaves the book:
    a fresh table, a fresh PRNG of the seed, the level's budget, no book."""
    for seed in (1, 2):
        found = dict(exits.search(POSITIONS, seed, None, 1, lambda text: None, cache=str(tmp_path)))
        for moves in POSITIONS:
            assert found[moves] == AIPlayer(level=TOP_LEVEL, seed=seed).choose(Board(moves)).move + 1
    assert len(os.listdir(tmp_path)) == 2  # cached by fingerprint, seed and positions
    assert dict(exits.search(POSITIONS, 2, "no-such-binary", 1, lambda text: None, cache=str(tmp_path))) == found


def test_one_move_later_the_search_goes_on_from_the_exits_table_and_prng(tmp_path):
    """held_search.py replies: after the exit's search and the board's move, each reply's search
    starts from the table and the PRNG the exit's search left, as in the board's game."""
    pairs = exits.search(POSITIONS, 3, None, 1, lambda text: None, cache=str(tmp_path), replies=True)
    want = []
    for moves in POSITIONS:
        first = AIPlayer(level=TOP_LEVEL, seed=3).choose(Board(moves)).move + 1
        after = Board(moves + str(first))
        for reply in after.legal_moves():
            player = AIPlayer(level=TOP_LEVEL, seed=3)  # the same player: its table and PRNG go on
            player.choose(Board(moves))
            child = Board(moves + str(first) + str(reply + 1))
            if not child.is_over():
                want.append((child.moves_string(), player.choose(child).move + 1))
    assert pairs == want and len(want) > 5


def test_the_book_wins_at_every_exit_listed():
    pytest.importorskip("bitbully")
    from tools.bench import perfect
    judge = perfect.shared()
    with open(build.EXITS) as f:
        positions = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
    assert positions, "tools/data/book_exits.txt lists no position"
    assert len(build.recorded_fingerprint()) == 12
    with open(build.OUT, "rb") as f:
        book = Book(f)
        for moves in positions:
            col = book.move(Board(moves))
            assert col >= 0, moves
            scores = judge.analyze(moves)
            assert scores[col] is not None and scores[col] > 0, (moves, col, scores)
