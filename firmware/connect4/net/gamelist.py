"""GET /api/games: the newest recorded games as JSON, a record at a time, for connect4.net.api.

Loaded for each answer and gone from the heap with it (connect4.modules.use). The
answer is never whole in the heap: twenty records make some 5 KB, and one block
that large, on the chip's heap near full and fragmented with Wi-Fi on, made
MicroPython grow its heap into the network's memory.
"""
import json

RESULTS = ("red", "yellow", "draw", "abandoned")  # a record's result, by its number
SIDES = ("red", "yellow")
MAX_GAMES = 20  # records an answer holds, newest first


def pieces(face, source=None):
    """The answer's pieces (bytes): the games of `source()` (a list of dicts: the simulator's),
    else the newest MAX_GAMES records of the face's app (connect4.app.recordfile)."""
    if source is not None:
        return _pieces(source(), True)
    records = face.records()
    if records is None:
        return _pieces((), False)
    return _pieces(_recorded(records.recent()), True)


def _recorded(stream):
    """The newest MAX_GAMES of a records stream as the API's dicts; the file closed at the end
    (or when the answer is dropped: the server closes what it streams)."""
    try:
        n = 0
        for r in stream:
            yield {"number": r.number, "mode": r.mode, "first": SIDES[r.first],
                   "levels": list(r.levels), "result": RESULTS[r.result],
                   "hints": list(r.hints), "moves": r.moves, "marks": r.marks, "size": r.size}
            n += 1
            if n >= MAX_GAMES:
                break
    finally:
        stream.close()


def _pieces(games, recorded):
    """{"games": [...], "records": recorded} as bytes, a game at a time."""
    try:
        yield b'{"games": ['
        sep = b""
        for g in games:
            yield sep + json.dumps(g).encode()
            sep = b", "
        yield b'], "records": ' + (b"true}" if recorded else b"false}")
    finally:  # closed early (the client gone): so is what it reads (MicroPython would not)
        close = getattr(games, "close", None)
        if close is not None:
            close()
