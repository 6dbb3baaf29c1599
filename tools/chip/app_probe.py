# Runs inside MicroPython: on the emulated chip, sent by tests/chip/ through the raw REPL.
"""The app as main.py runs it, reporting on the UART what the chip-in-the-loop tests read.

The test puts it on the flash compiled (/app_probe.mpy: its own heap is then only its
bytecode, counted in every figure below; what only some tests ask for, events, grow, cut,
ticks and steps, is tools/chip/app_probe_more.py, /app_probe_more.mpy, loaded only when asked) and runs
`import sys; sys.argv[:] = ["app_probe", "{...}"]; import app_probe`, the dict's keys:
  report_ms  how often a `probe heap ...` line is printed (emulated ms)
  run_ms     stop the app after this long (0: never)
  wifi       turn Wi-Fi on through the menu's own path (App.wifi) at start (the saved switch
             does it too: connect4.json's "wifi"); the board prints `connect4: web: ...`
  demo       start the demo (two AIs) at once
  events     print the app's state changes, searches and drops (below)
  ticks      print `probe t=MS` every 100 emulated ms from power-on (boot's clock), so that
             the test presses and releases the buttons at known emulated times
  press_ms   at the first poll of the first search this many emulated ms after its start,
             print `probe press? ms=T` and hold the search there until the select button reads
             pressed (the host's press, however late a busy host sends it): the press lands
             just after a poll, the worst moment, and `probe latency us=U` says, on the
             board's clock, how long after it the search returned (the wait is no poll gap)
  cut        a file the app writes through connect4.app.store.Files ("connect4.json",
             "games.txt", "game.txt"): at the moment `phase` of its first write the probe
             prints `probe cut PATH PHASE` and spins until the host cuts the power
  grow       watch the web server's and the app's steps for the GC heap growing into the
             ESP-IDF heap: `probe idf A->B at STEP enter|exit WHAT gc_used U`
  ballast    bytes of the GC heap held from the start to the end (the margin's proof: the app
             must still fit, with Wi-Fi on, in the heap it has)
  preset     config.py's preset to run (its PRESET if not given), and
  overrides  options over it (a dict: the page's port, where other boards are looked for)
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
  probe press? ms=T                                          (press_ms: press the button now)
  probe latency us=U                                         (press_ms: from the press to the
                                                              search's return)
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
    steps = _STATE.get("steps")
    if steps is not None:
        print("probe steps listening=%d/%d/%d quiet=%d/%d/%d" % (tuple(steps[True]) + tuple(steps[False])))
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
    _STATE["gap"] = gap  # (events: the gap of the poll that saw a press)
    return _poll(self)


turn.Turn._poll = _polling
_start = turn.Turn._start


def _starting(self, now):
    _STATE["poll_us"] = ticks_us()  # a search's first interval counts from its start
    return _start(self, now)


turn.Turn._start = _starting
# what only some tests ask for (events, grow, cut, ticks, steps): another file, loaded only then, so
# that the figures of the others count only this one's heap
_CLOCK = time
if _P.get("events") or _P.get("grow") or _P.get("cut") or _P.get("ticks") or _P.get("steps") \
        or _P.get("press_ms") is not None:
    import app_probe_more
    _CLOCK = app_probe_more.install(_P, _STATE)


_report(ticks_ms())
boot.start(listener=_listener, stop=_stop, clock=_CLOCK, preset=_P.get("preset"), overrides=_P.get("overrides"))
_report(ticks_ms())
print("probe stopped")
