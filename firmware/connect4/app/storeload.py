"""Reading the settings file (connect4.app.store's): what a start does once, loaded for it.

connect4.app.assemble loads it to read the file when the app is built, and
drops it: the board then runs for hours, with Wi-Fi on among them, where every
resident byte is the network's room. `load(store)` never raises: a missing file
gives defaults; a corrupt, truncated or unknown-version file gives defaults and
is kept aside as `PATH.bad`; a leftover `PATH.tmp` is used only when `PATH` is
missing (a first save cut short before its rename), else removed. Out-of-range
values fall back to their defaults one by one, each said on the console.
"""
import json

from connect4.engine.levels import MAX_LEVEL
from connect4.app.store import (VERSION, CLASSIC, default_stats, table, valid, say, exists, discard,
                                set_aside)


def _count(value):
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 29 else 0


def _triple(value):
    if isinstance(value, list) and len(value) == 3:
        return [_count(v) for v in value]
    return [0, 0, 0]


def _tables(out, saved):
    """A size's saved "ai" and "two" counts into `out` (bad ones: zeros)."""
    ai = saved.get("ai")
    if isinstance(ai, list):
        for i in range(min(MAX_LEVEL, len(ai))):
            out["ai"][i] = _triple(ai[i])
    out["two"] = _triple(saved.get("two"))


def _read(store, path):
    f = store.fs.open(path, "r")
    try:
        data = json.loads(f.read())
    finally:
        f.close()
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ValueError("unknown version")
    return data


def _apply(store, data):
    settings = dict(store.defaults)
    saved = data.get("settings")
    if isinstance(saved, dict):
        for key in settings:
            if key in saved:
                if valid(key, saved[key]):
                    settings[key] = saved[key]
                else:
                    say("settings: bad %s %r, %r instead" % (key, saved[key], settings[key]))
    stats = default_stats()
    saved = data.get("stats")
    if isinstance(saved, dict):
        _tables(stats, saved)
        stats["hints"] = _count(saved.get("hints"))
        stats["ended"] = _count(saved.get("ended"))
        sizes = saved.get("sizes")
        if isinstance(sizes, dict):
            for size in sizes:
                if size != CLASSIC and valid("size", size) and isinstance(sizes[size], dict):
                    _tables(table(stats, size), sizes[size])
    store.settings = settings
    store.stats = stats


def load(store):
    """Read the file (never raises); returns store.status."""
    store.settings = dict(store.defaults)
    store.stats = default_stats()
    fs = store.fs
    if not exists(fs, store.path):
        store.status = "missing"
        if exists(fs, store.tmp):
            try:
                _apply(store, _read(store, store.tmp))
                fs.rename(store.tmp, store.path)
                store.status = "recovered"
            except Exception:
                discard(fs, store.tmp)
        return store.status
    try:
        _apply(store, _read(store, store.path))
        store.status = "ok"
    except Exception:
        store.status = "corrupt"
        set_aside(fs, store.path)
    if exists(fs, store.tmp):
        discard(fs, store.tmp)
    return store.status
