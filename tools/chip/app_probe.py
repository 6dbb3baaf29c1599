# Runs inside MicroPython: on the emulated chip, sent by tests/chip/ through the raw REPL.
"""The app as main.py runs it, reporting on the UART what the chip-in-the-loop tests read.

The test puts it on the flash compiled (/app_probe.mpy: its own heap is then only its
bytecode, about 2 KB, counted in every figure below) and runs
`import sys; sys.argv[:] = ["app_probe", "{...}"]; import app_probe`, the dict's keys:
  report_ms  how often a `probe heap ...` line is printed (emulated ms)
  run_ms     stop the app after this long (0: never)
  wifi       turn Wi-Fi on through the menu's own path (App.wifi) at start (the saved switch
             does it too: connect4.json's "wifi"); the board prints `connect4: web: ...`
  demo       start the demo (two AIs) at once
  events     print the app's state changes, searches and drops (below)
  ticks      print `probe t=MS` every 100 emulated ms from power-on (boot's clock), so that
             the test presses and releases the buttons at known emulated times
  cut        a file the app writes through connect4.app.store.Files ("connect4.json",
             "games.txt", "game.txt"): at the moment `phase` of its first write the probe
             prints `probe cut PATH PHASE` and spins until the host cuts the power
  grow       watch the web server's and the app's steps for the GC heap growing into the
             ESP-IDF heap: `probe idf A->B at STEP enter|exit WHAT gc_used U`
  ballast    bytes of the GC heap held from the start to the end (the margin's proof: the app
             must still fit, with Wi-Fi on, in the heap it has)
  phase      "write": half of the temporary file's first write on flash (flushed), the
             rest never written; "rename": the temporary file whole, before its rename;
             "saved": just after the rename
  steps      time each loop step (App.step) in PLAY, apart while the board listens for
             Improv on its serial port (connect4.ear) and while it does not: the button lag
Lines printed, one a report, all figures in bytes and emulated ms:
  probe heap ms=T gc_used=U gc_free=F idf_free=I idf_largest=L stack=S
  probe low gc_used=U idf_free=I idf_largest=L stack=S    (the worst so far)
  probe state S ms=T                                         (events: the app's state S)
  probe think ms=T level=L discs=D                           (events: a search begins ...
  probe search ms=T nodes=N stopped=WHY                      (... and ends)
  probe stop ms=T gap_us=G                                   (events: a poll saw the press)
  probe drop C ms=T                                          (events: a disc dropped in column C)
  probe gap max_us=G                                         (with each report: the longest
                                                              time between two polls of a search)
  probe web served=N slow=N slowest=MS refused=N short=N dropped=N errors=N   (with each report, once
                                                              the page is served: answers, those
                                                              over a second, the slowest)
  probe app moves=M mode=O state=S first=F levels=A/B         (the app's first loop step:
                                                              the game it starts with)
  probe cut PATH PHASE                                       (cut: the power may go now)
  probe steps listening=N/US/MAX quiet=N/US/MAX               (steps: loop steps in PLAY, their
                                                              count, total and longest time, us)
  probe stopped
`micropython.mem_info()`'s `GC: total: ...` line follows each report (the GC
heap's areas: it grows into the ESP-IDF heap and never gives memory back).
The stack (`micropython.stack_use()`) is read at the search's poll hook and
inside what it calls on the matrix and the buttons (the wrappers add a frame
of their own: the figure is an upper bound).
"""
import gc
import esp32
import micropython
import sys
import time
from time import ticks_ms, ticks_diff, ticks_us

from connect4 import boot
from connect4.app import store, turn
from connect4.hw import display, input as hw_input

_P = eval(sys.argv[1]) if len(sys.argv) > 1 else {}
_REPORT_MS = _P.get("report_ms", 1000)
_RUN_MS = _P.get("run_ms", 0)
_LOW = {"gc_used": 0, "idf_free": 1 << 30, "idf_largest": 1 << 30, "stack": 0}
_STATE = {"start": ticks_ms(), "next": ticks_ms(), "app": None, "poll_us": None,
          "gap_us": 0}
_EVENTS = _P.get("events")
_BALLAST = bytearray(_P.get("ballast", 0))


def _stack():
    s = micropython.stack_use()
    if s > _LOW["stack"]:
        _LOW["stack"] = s


def _wrap(cls, name):
    inner = getattr(cls, name)

    def wrapped(self, *args):
        _stack()
        return inner(self, *args)
    setattr(cls, name, wrapped)


_wrap(turn.Turn, "_poll")
_wrap(display.Display, "show")
_wrap(hw_input.Input, "pressed")


def _watch_growth():
    """grow: each step of the web server and of the app watched for the GC heap growing into
    the ESP-IDF heap (its free memory changed by more than 16 KB since the last look):
    `probe idf A->B at STEP enter|exit WHAT gc_used U`, where it was seen first."""
    from connect4.net import server
    from connect4.app import game
    last = [0]

    def look(where, what):
        free = _idf()[0]
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
    for name in ("step", "render", "_idle"):
        watch(game.App, name)
    _STATE["look"] = look



def _idf():
    free = largest = 0
    for h in esp32.idf_heap_info(esp32.HEAP_DATA):  # (total, free, largest free block, least free)
        free += h[1]
        largest = max(largest, h[2])
    return free, largest


def _report(now):
    look = _STATE.get("look")
    if look:
        look("report", None)
    gc.collect()
    used, free = gc.mem_alloc(), gc.mem_free()
    idf_free, idf_largest = _idf()
    low = _LOW
    low["gc_used"] = max(low["gc_used"], used)
    low["idf_free"] = min(low["idf_free"], idf_free)
    low["idf_largest"] = min(low["idf_largest"], idf_largest)
    print("probe heap ms=%d gc_used=%d gc_free=%d idf_free=%d idf_largest=%d stack=%d" % (
        ticks_diff(now, _STATE["start"]), used, free, idf_free, idf_largest, low["stack"]))
    print("probe low gc_used=%d idf_free=%d idf_largest=%d stack=%d" % (
        low["gc_used"], low["idf_free"], low["idf_largest"], low["stack"]))
    print("probe gap max_us=%d" % _STATE["gap_us"])
    app = _STATE["app"]
    link = app.link if app is not None else None
    web = (link.server or link.face.web) if link is not None else None
    if web is not None:
        print("probe web served=%d slow=%d slowest=%d refused=%d short=%d dropped=%d errors=%d" % (
            web.served, web.slow, web.slowest, web.refused, web.short, web.dropped, web.errors))
    if _STEPS is not None:
        print("probe steps listening=%d/%d/%d quiet=%d/%d/%d" % (tuple(_STEPS[True]) + tuple(_STEPS[False])))
    micropython.mem_info()


def _listener(kind, obj):
    if kind == "app":
        _STATE["app"] = obj
        _STATE["fresh"] = True
    elif kind == "game":
        print("probe game %s winner %s levels %s" % (obj["moves"], obj["winner"], obj["levels"]))


def _stop():
    now = ticks_ms()
    app = _STATE["app"]
    if _STATE.get("fresh"):  # the app's first loop step: what PROBE asks for at the start
        _STATE["fresh"] = False
        print("probe app moves=%s mode=%s state=%d first=%d levels=%d/%d" % (
            app.board.moves_string() or "-", store.MODES[app.mode], app.state, app.first_side,
            app.game_levels[0], app.game_levels[1]))
        if _P.get("wifi"):
            app.wifi(now, True)
        if _P.get("demo"):
            app.start_demo(now, -1)
    if ticks_diff(now, _STATE["next"]) >= 0:
        _STATE["next"] = now + _REPORT_MS
        _report(now)
    return bool(_RUN_MS) and ticks_diff(now, _STATE["start"]) >= _RUN_MS


# each poll of the search: the gap since the last one (how soon a press is seen)
_poll = turn.Turn._poll


def _polling(self):
    now = ticks_us()
    last = _STATE["poll_us"]
    gap = ticks_diff(now, last) if last is not None else 0
    if gap > _STATE["gap_us"]:
        _STATE["gap_us"] = gap
    _STATE["poll_us"] = now
    stop = _poll(self)
    if stop and _EVENTS:
        print("probe stop ms=%d gap_us=%d" % (ticks_ms(), gap))
    return stop


turn.Turn._poll = _polling
_start = turn.Turn._start


def _starting(self, now):
    _STATE["poll_us"] = ticks_us()  # a search's first interval counts from its start
    if _EVENTS:
        app = self.app
        print("probe think ms=%d level=%d discs=%d" % (
            ticks_ms(), app.game_levels[app.side_to_move()], app.board.count))
    return _start(self, now)


turn.Turn._start = _starting
if _EVENTS:
    from connect4.app import game

    _go, _drop = game.App._go, game.App.drop

    def _going(self, state, now):
        print("probe state %d ms=%d" % (state, ticks_ms()))
        return _go(self, state, now)

    def _dropping(self, col, now):
        print("probe drop %d ms=%d" % (col + 1, ticks_ms()))
        return _drop(self, col, now)
    game.App._go, game.App.drop = _going, _dropping
    _think = turn.think

    def _thinking(app, sig, now):
        searched = app.turn.last_search
        _think(app, sig, now)
        r = app.turn.last_search
        if r is not searched and r is not None:
            print("probe search ms=%d nodes=%d stopped=%s" % (ticks_ms(), r.nodes, r.stopped or "-"))
    turn.think = _thinking
    game._STATES = tuple(_thinking if f is _think else f for f in game._STATES)


_STEPS = None
if _P.get("steps"):
    from connect4.app import game as _game

    _STEPS = {True: [0, 0, 0], False: [0, 0, 0]}  # listening or not: steps, their us, the longest
    _step = _game.App.step

    def _stepping(self):
        t = ticks_us()
        _step(self)
        d = ticks_diff(ticks_us(), t)
        if self.state == 1:  # PLAY
            s = _STEPS[self.serial is not None]
            s[0] += 1
            s[1] += d
            if d > s[2]:
                s[2] = d
    _game.App.step = _stepping

if _P.get("grow"):
    _watch_growth()
_CUT = _P.get("cut")
if _CUT:
    _PHASE = _P.get("phase", "write")
    _TMP = _CUT + ".tmp"

    def _spin(path):
        """The moment asked for: said, then nothing more happens until the power goes."""
        print("probe cut %s %s" % (path, _PHASE))
        while True:
            time.sleep_ms(100)

    class _HalfFile:
        """The temporary file: its first write stops halfway, flushed to flash."""

        def __init__(self, f):
            self.f = f

        def write(self, data):
            self.f.write(data[:len(data) // 2])
            self.f.flush()
            _spin(_CUT)

        def close(self):
            self.f.close()

    _open, _rename = store.Files.open, store.Files.rename

    def _opening(self, path, mode):
        f = _open(self, path, mode)
        if _PHASE == "write" and path == _TMP and "w" in mode:
            return _HalfFile(f)
        return f

    def _renaming(self, old, new):
        if old == _TMP and new == _CUT and _PHASE == "rename":
            _spin(_CUT)
        _rename(self, old, new)
        if old == _TMP and new == _CUT and _PHASE == "saved":
            _spin(_CUT)
    store.Files.open, store.Files.rename = _opening, _renaming


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


_report(ticks_ms())
boot.start(listener=_listener, stop=_stop, clock=_TickClock() if _P.get("ticks") else time)
_report(ticks_ms())
print("probe stopped")
