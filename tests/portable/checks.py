"""Assertion helpers that work under pytest and under MicroPython alike."""


def raises(exc_type, func, *args):
    """Call func(*args); return the exception's message, fail if none was raised."""
    try:
        func(*args)
    except exc_type as e:
        return str(e)
    raise AssertionError("%s not raised" % exc_type.__name__)


# Positions whose side to move has a forced win in exactly 3 or 5 plies (no
# immediate win); tests/test_fixtures.py proves each with the perfect solver.
WIN_IN_3 = ("4343723627611423746347", "22442413457266776", "1236234731633615215235")
WIN_IN_5 = ("777365617335663", "377464475156376", "77111336311476715763332756")
# A full board without a winner.
DRAW = "627611313612643311373445565265752224447775"


def ai_plays_every_size():
    """Does the engine's search play boards other than 7x6 yet (issue 21: the engine
    side's work)? The app's AI tests on other sizes run once it does; until then
    they keep to 7x6 (two-player games cover the app on every size)."""
    from connect4.engine.board import Board
    from connect4.engine.search import Searcher
    board = Board("", 5, 4)
    try:
        move = Searcher(tt_entries=64).search(board, depth=2).move
        return 0 <= move < 5
    except Exception:
        return False


def said(fn):
    """What fn() said on the console through connect4.app.store.say (storeload's too: the name
    it imported), as a list of lines."""
    from connect4.app import store, storeload
    lines = []
    saved = store.say
    store.say = storeload.say = lines.append
    try:
        fn()
    finally:
        store.say = storeload.say = saved
    return lines
