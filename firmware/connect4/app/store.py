"""Settings and statistics: one JSON file on flash, written atomically.

File: {"version": 1, "settings": {...}, "stats": {"ai": [[w, l, d] per level],
"two": [red wins, yellow wins, draws], "hints": hints asked for, "sizes":
{"5x4": {"ai": ..., "two": ...}}}}. The statistics are kept per board size:
"ai" and "two" are the classic 7x6 board's (as before sizes), "sizes" holds
each other size played (`table(stats, size)`); hints are counted for all.

- `save()` writes `PATH.tmp`, then renames it over `PATH` (LittleFS renames
  atomically), so a power cut leaves the old file or the new one, never half
  of one. A failed write (flash full, a read-only flash, a folder where the
  file should be: any error) removes the temporary file and keeps the old
  file; `save()` then returns False. The first failure is said once on the
  console and kept in `save_error` (the simulator shows it), never raised.
- Reading the file is connect4.app.storeload's (`load(store)`), loaded once at
  the start: it never raises; a missing, corrupt or unknown file gives
  defaults (a board size not supported, say "9x9", gives 7x6; one the panel
  cannot show is the app's to refuse, connect4.app.game).
"""
import json
import os

from connect4.engine.levels import MAX_LEVEL
from connect4.engine.board import parse_size

VERSION = 1

MODES = ("ai", "two", "demo")
FIRSTS = ("red", "yellow", "alternate", "loser")  # who starts: red = you against the AI
BLUNDERS = (-1, 0, 2, 5, 10, 20, 45, 90)  # percent; -1 = the level's own
BRIGHTNESS_LEVELS = 7

DEFAULTS = {
    "mode": "ai",
    "level": 4,
    "first": "alternate",
    "blunder": -1,
    "brightness": 4,
    "size": "7x6",
    "wifi": False,  # the menu's Wi-Fi switch: on again at the next start if on (connect4.app.game)
}
CLASSIC = "7x6"  # the board of the statistics' top level "ai" and "two"


def default_stats():
    return {"ai": [[0, 0, 0] for _ in range(MAX_LEVEL)], "two": [0, 0, 0], "hints": 0, "sizes": {},
            "ended": 0}  # games counted, ever: a game's end writes its count (connect4.app.resume)


def table(stats, size):
    """The statistics of one board size: {"ai", "two"}, made on first use (7x6: the top level)."""
    if size == CLASSIC:
        return stats
    sizes = stats["sizes"]
    if size not in sizes:
        sizes[size] = {"ai": [[0, 0, 0] for _ in range(MAX_LEVEL)], "two": [0, 0, 0]}
    return sizes[size]


def _valid(key, value):
    if key == "mode":
        return value in MODES
    if key == "first":
        return value in FIRSTS
    if key == "blunder":
        return value in BLUNDERS
    if key == "size":
        try:
            return value == "%dx%d" % parse_size(value)  # the canonical name only
        except ValueError:
            return False
    if key == "wifi":
        return value is True or value is False
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    if key == "level":
        return 1 <= value <= MAX_LEVEL
    if key == "brightness":
        return 1 <= value <= BRIGHTNESS_LEVELS
    return False


valid = _valid  # the web API checks each field by the same rules (connect4.net.api)


def say(text):
    """A line on the console (the board's log); tests swap it to read what was said."""
    print("connect4: " + text)


def why(e):
    """An error in a few words."""
    n = e.args[0] if isinstance(e, OSError) and e.args else 0
    return "a folder is in the way" if n == 21 else "read-only" if n == 30 else repr(e)


class Files:
    """The file operations the store uses (a test passes a faulty one)."""

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, old, new):
        os.rename(old, new)

    def remove(self, path):
        os.remove(path)


def exists(fs, path):
    try:
        fs.open(path, "rb").close()
        return True
    except OSError:
        return False


def discard(fs, path):
    """Remove `path` if it is there; never raises."""
    try:
        fs.remove(path)
    except OSError:
        pass


def set_aside(fs, path):
    """Keep a bad file as PATH.bad for a look later (an older .bad goes); removed if it
    cannot be renamed. The settings and the Wi-Fi file (connect4.net.netconf) both do so."""
    discard(fs, path + ".bad")
    try:
        fs.rename(path, path + ".bad")
    except OSError:
        discard(fs, path)


def replace(fs, path, tmp, text):
    """Write `text` (str; bytes: a binary file; or an iterable of str pieces, each written as it
    comes, so that a long file is never whole in the heap) to `path` atomically: to `tmp`,
    then renamed over `path`. None, or why the flash refused (in a few words; `tmp` removed,
    the old file kept); never raises."""
    try:
        f = fs.open(tmp, "wb" if isinstance(text, bytes) else "w")
        try:
            for piece in (text,) if isinstance(text, (str, bytes)) else text:
                if f.write(piece) != len(piece):
                    raise OSError(28)  # a short write: flash full
        finally:
            f.close()
        fs.rename(tmp, path)
        return None
    except Exception as e:
        discard(fs, tmp)
        return why(e)


def refused(holder, what, err):
    """A write the flash refused: said once on the console (kept in holder.save_error, which
    the simulator shows), never raised; returns False."""
    if holder.save_error is None:
        holder.save_error = "%s not saved to %s (%s)" % (what, holder.path, err)
        say(holder.save_error)
    return False


def settle(fs, path, tmp):
    """A write cut short (a leftover `tmp`): removed if `path` is there (cut before its
    rename: the file is the truth), else it becomes `path` (cut after the file's removal)."""
    if exists(fs, tmp):
        if exists(fs, path):
            discard(fs, tmp)
        else:
            try:
                fs.rename(tmp, path)
            except OSError:
                discard(fs, tmp)


class Store:
    def __init__(self, path="connect4.json", fs=None, defaults=None):
        self.path = path
        self.tmp = path + ".tmp"
        self.bad = path + ".bad"
        self.fs = fs or Files()
        self.defaults = dict(DEFAULTS)
        for key in defaults or ():
            if _valid(key, defaults[key]):
                self.defaults[key] = defaults[key]
        self.settings = dict(self.defaults)
        self.stats = default_stats()
        self.status = "new"  # what storeload.load() found: ok, missing, corrupt, recovered
        self.save_error = None  # why the first failed save failed (said once)

    def save(self):
        """Write atomically; False (old file kept) if the flash refused."""
        err = replace(self.fs, self.path, self.tmp, self._pieces())
        return True if err is None else refused(self, "settings and statistics", err)

    def _pieces(self):
        """The file's JSON a piece at a time, none over a few hundred bytes: the statistics grow
        a table for each board size played, and one string of them all could find no room in
        the chip's heap with Wi-Fi on (a page's settings write saves it)."""
        stats = self.stats
        yield '{"version": %d, "settings": %s, "stats": {' % (VERSION, json.dumps(self.settings))
        for key in stats:
            if key != "sizes":
                yield '"%s": %s, ' % (key, json.dumps(stats[key]))
        yield '"sizes": {'
        sep = ""
        sizes = stats["sizes"]
        for size in sizes:
            yield '%s"%s": %s' % (sep, size, json.dumps(sizes[size]))
            sep = ", "
        yield "}}}"

    # statistics, by board size
    def record_ai(self, level, result, size=CLASSIC):
        """result: 0 = the player won, 1 = lost, 2 = draw."""
        table(self.stats, size)["ai"][max(1, min(MAX_LEVEL, level)) - 1][result] += 1

    def record_two(self, result, size=CLASSIC):
        """result: 0 = red won, 1 = yellow won, 2 = draw."""
        table(self.stats, size)["two"][result] += 1
