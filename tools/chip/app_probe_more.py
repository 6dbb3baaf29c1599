# Runs inside MicroPython: on the emulated chip, beside tools/chip/app_probe.py.
"""What only some chip tests ask of the app's probe: events, press_ms, grow, cut, ticks, steps.

tools/chip/app_probe.py loads this file (/app_probe_more.mpy on the flash) only
when one of them is asked for, so that the heap figures of the other tests count
only the probe's core. `install(P, STATE)` patches the app's classes as asked
(app_probe.py's docstring says what each prints) and returns the clock the app
is to run on.
"""
import gc
import time
from time import ticks_ms, ticks_diff, ticks_us

import esp32

from connect4.app import game, store, turn
from connect4.engine import player


def install(P, STATE):
    if P.get("events"):
        _events(STATE)
    if P.get("press_ms") is not None:
        _press(STATE, P["press_ms"])
    if P.get("grow"):
        STATE["look"] = _watch_growth()
    if P.get("cut"):
        _cut(P["cut"], P.get("phase", "write"))
    if P.get("steps"):
        STATE["steps"] = _steps()
    return _TickClock() if P.get("ticks") else time


def _events(STATE):
    """The app's state changes, searches and drops, and the poll that saw a press."""
    poll, start = turn.Turn._poll, turn.Turn._start

    def polling(self):
        stop = poll(self)
        if stop:
            print("probe stop ms=%d gap_us=%d" % (ticks_ms(), STATE["gap"]))
        return stop

    def starting(self, now):
        app = self.app
        print("probe think ms=%d level=%d discs=%d" % (
            ticks_ms(), app.game_levels[app.side_to_move()], app.board.count))
        return start(self, now)
    turn.Turn._poll, turn.Turn._start = polling, starting
    go, drop = game.App._go, game.App.drop

    def going(self, state, now):
        print("probe state %d ms=%d" % (state, ticks_ms()))
        return go(self, state, now)

    def dropping(self, col, now):
        print("probe drop %d ms=%d" % (col + 1, ticks_ms()))
        return drop(self, col, now)
    game.App._go, game.App.drop = going, dropping
    think = turn.think

    def thinking(app, sig, now):
        searched = app.turn.last_search
        think(app, sig, now)
        r = app.turn.last_search
        if r is not searched and r is not None:
            print("probe search ms=%d nodes=%d stopped=%s" % (ticks_ms(), r.nodes, r.stopped or "-"))
    game._STATES = tuple(thinking if f is think else f for f in game._STATES)


def _press(STATE, press_ms):
    """press_ms: at the first poll of a search `press_ms` after its start, `probe press? ms=T`,
    and the search held there until the select button reads pressed (however late a busy host
    sends it); when that search ends, `probe latency us=U`: from the press to the search's end
    on the board's own clock."""
    poll, start, choose = turn.Turn._poll, turn.Turn._start, player.AIPlayer.choose

    def polling(self):
        stop = poll(self)
        if (not stop and "pressed_us" not in STATE
                and ticks_diff(ticks_ms(), STATE["think_ms"]) >= press_ms):
            print("probe press? ms=%d" % ticks_ms())
            app = self.app
            while not app.input.pressed():
                if app.wdt is not None:
                    app.wdt.feed()
            now = ticks_us()
            STATE["pressed_us"] = now
            STATE["poll_us"] = now  # the wait is not a gap between two polls
        return stop

    def starting(self, now):
        STATE["think_ms"] = ticks_ms()
        return start(self, now)

    def choosing(self, *args, **kwargs):
        result = choose(self, *args, **kwargs)
        pressed = STATE.get("pressed_us")
        if pressed is not None and "latency" not in STATE:
            STATE["latency"] = ticks_diff(ticks_us(), pressed)
            print("probe latency us=%d" % STATE["latency"])
        return result
    turn.Turn._poll, turn.Turn._start, player.AIPlayer.choose = polling, starting, choosing


def _steps():
    """Each loop step in PLAY timed, apart while the board listens for Improv (the app's
    serial hook set) and while it does not: {listening: [steps, their us, the longest]}."""
    steps = {True: [0, 0, 0], False: [0, 0, 0]}
    step = game.App.step

    def stepping(self):
        t = ticks_us()
        step(self)
        d = ticks_diff(ticks_us(), t)
        if self.state == 1:  # PLAY
            s = steps[self.serial is not None]
            s[0] += 1
            s[1] += d
            if d > s[2]:
                s[2] = d
    game.App.step = stepping
    return steps


def _idf_free():
    return sum(h[1] for h in esp32.idf_heap_info(esp32.HEAP_DATA))


def _watch_growth():
    """grow: each step of the web server and of the app watched for the GC heap growing into
    the ESP-IDF heap (its free memory changed by more than 16 KB since the last look):
    `probe idf A->B at STEP enter|exit WHAT gc_used U`, where it was seen first. Returns the
    look, which the probe's reports call too."""
    from connect4.net import server
    last = [0]

    def look(where, what):
        free = _idf_free()
        if last[0] and abs(free - last[0]) > 16384:
            print("probe idf %d->%d at %s %r gc_used %d" % (last[0], free, where, what, gc.mem_alloc()))
        last[0] = free

    def watch(cls, name):
        inner = getattr(cls, name)
        where = cls.__name__ + "." + name

        def watched(self, *args):
            what = args[0] if args else None
            what = getattr(what, "path", None) or what if not isinstance(what, int) else what
            look(where + " enter", what)
            out = inner(self, *args)
            look(where + " exit", what)
            return out
        setattr(cls, name, watched)
    for name in ("pump", "_route", "_write", "_take", "_feed", "_page", "_stream", "_close", "_short"):
        watch(server.Server, name)
    for name in ("step", "_idle"):
        watch(game.App, name)
    return look


def _cut(path, phase):
    """cut: at the moment `phase` of the first write of `path` through connect4.app.store.Files,
    `probe cut PATH PHASE`, then nothing more happens until the host cuts the power."""
    tmp = path + ".tmp"

    def spin():
        print("probe cut %s %s" % (path, phase))
        while True:
            time.sleep_ms(100)

    class HalfFile:
        """The temporary file: its first write stops halfway, flushed to flash."""

        def __init__(self, f):
            self.f = f

        def write(self, data):
            self.f.write(data[:len(data) // 2])
            self.f.flush()
            spin()

        def close(self):
            self.f.close()

    opening, renaming = store.Files.open, store.Files.rename

    def open_(self, p, mode):
        f = opening(self, p, mode)
        if phase == "write" and p == tmp and "w" in mode:
            return HalfFile(f)
        return f

    def rename(self, old, new):
        if old == tmp and new == path and phase == "rename":
            spin()
        renaming(self, old, new)
        if old == tmp and new == path and phase == "saved":
            spin()
    store.Files.open, store.Files.rename = open_, rename


class _TickClock:
    """time, printing `probe t=MS` (emulated ms since it was made) every 100 ms it is read."""

    def __init__(self):
        self.t0 = ticks_ms()
        self.next = 0

    def ticks_ms(self):
        now = ticks_ms()
        t = ticks_diff(now, self.t0)
        if t >= self.next:
            print("probe t=%d" % t)
            self.next = t - t % 100 + 100
        return now

    def __getattr__(self, name):
        return getattr(time, name)
