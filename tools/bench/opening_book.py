"""The firmware's opening book as the benches open it: once per process and version of the file.

The top level plays with it as on the board, in `make bench` (bench.py) and in
the modules it runs (ladder.py, people.py, sizes.py); its own module so that
they all import it downward and none of them imports bench.py back.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401
from connect4.engine.book import open_book  # noqa: E402
from tools.common import ROOT  # noqa: E402

BOOK = os.path.join(ROOT, "firmware", "book.bin")  # the opening book, as deployed
_opened = {}


def the_book(path=BOOK):
    """The opened book at `path` (once per process and version of the file), or None
    without one."""
    key = (path, os.stat(path).st_mtime_ns if path and os.path.exists(path) else 0)
    if key not in _opened:
        _opened[key] = open_book(path) if path else None
    return _opened[key]


def facts(path=BOOK):
    """{"bytes", "positions", "discs"} of the book at `path` (its size and its header's counts:
    mirror images stored once), or None without one: what docs/benchmarks.md says of it."""
    bk = the_book(path) if os.path.exists(path) else None
    if bk is None:
        return None
    return {"bytes": os.path.getsize(path), "positions": int.from_bytes(bk.head[8:12], "little"),
            "discs": bk.head[12]}
