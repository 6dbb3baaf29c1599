"""The page's board: the unmodified firmware on the browser's pins and LEDs (runs in MicroPython).

The worker (worker.js) imports this module and calls `Board.step()` once per
main-loop period, each call its own top-level call into the VM: the WebAssembly
port collects garbage only when control is back in JavaScript, so the firmware's
own `App.run()` loop (step, sleep_ms(loop_ms), forever) is run from JavaScript,
step by step, with the sleep between steps done there. Everything else is what
connect4/boot.py does on the board: config.get(), hardware_setup.build() on
`machine` and `neopixel` (host_sim/stubs' modules, the simulator's own),
build_app(), and after an unexpected error crashlog's log_error() (error.log on
flash) and show_error() (the red cross), then a new App; five crashes within
10 s each stop it, as on the board.

The JS side is the module `jsboard` (registered by worker.js):
  pin(gpio)       0 while the page holds that line low (a pressed button, an
                  encoder contact), None when released (the pull-up reads 1)
  frame(hex)      the bytes a NeoPixel write() sent, as hex
  pins(json)      the input lines of the preset, by name
  panel(json)     the matrix: width, height, the cell of each LED (the firmware's
                  led_map, inverted, as world.Panel does) and the colour order
  search(json)    the AI's move or a hint: nodes, depth, ms, stopped, its kind and the
                  page's speed line (`words`); a hint's has "hint": true
  state(json)     when the game or the menu changes: the app's state's name, the
                  game's moves, the cursor, and in words (lib/words.py, from
                  connect4.app.face's snapshot and the menu) the status line, the
                  menu's item and value (`menu`, "" when closed) and what the live
                  region says (`said`, when there is something new); at each start
                  also its settings and statistics (as read from flash)
  game(json)      a game's end (the app's listener event "game")
  error(text)     a traceback for the page
"""
import io
import json
import sys
import time

import jsboard
import machine

import config
from connect4 import boot, crashlog, fallback, hardware_setup
from connect4.app.assemble import build_app, fresh_seed
from connect4.app.face import Face  # the phone page's reads: this page's too
from connect4.app.game import MENU
from connect4.engine.levels import MAX_LEVEL  # the hint's level: connect4.app.turn.hint
from connect4.hw.display import led_map
import words


def _traceback(exc):
    buf = io.StringIO()
    sys.print_exception(exc, buf)
    return buf.getvalue()


def input_pins(cfg):
    """{name: gpio} of the preset's controls (the encoder's A/B swapped if reversed, as world.Controls does)."""
    if cfg["input"] == "encoder":
        a, b = cfg["enc_a"], cfg["enc_b"]
        if cfg.get("encoder_reverse"):
            a, b = b, a
        return {"select": cfg["button"], "a": a, "b": b}
    return {"select": cfg["drop"], "left": cfg["left"], "right": cfg["right"]}


def panel(cfg):
    """What the page needs to draw a frame in the player's view."""
    w, h = cfg["width"], cfg["height"]
    mapping = led_map(w, h, cfg["serpentine"], cfg["rotation"], cfg["flip_x"], cfg["flip_y"])
    cells = [0] * len(mapping)
    for cell, led in enumerate(mapping):
        cells[led] = cell
    order = hardware_setup.COLOR_ORDERS[cfg["color_order"]]
    return {"width": w, "height": h, "cells": cells, "order": order[:3]}


class Board:
    def __init__(self, preset, overrides_json, seed, chip_rate):
        self.args = (preset, overrides_json, seed, chip_rate)
        self.chip_rate = chip_rate  # the chip's nodes a second (site.json: tools.common)
        cfg = config.get(preset, json.loads(overrides_json))
        self.cfg = cfg
        machine.reset_world(machine.reset_cause())  # the cause machine.reset() or the watchdog left
        machine.listen(cfg["led_pin"], self._frame)
        pins = input_pins(cfg)
        for gpio in pins.values():
            machine.on_read(gpio, self._reader(gpio))
        jsboard.pins(json.dumps(pins))
        jsboard.panel(json.dumps(panel(cfg)))
        self.seed = seed or fresh_seed()
        self.hw = hardware_setup.build(cfg)
        self.log = cfg["flash_dir"] + boot.ERROR_LOG
        self.crashes = 0
        self.halted = False
        self.app = None
        self._start()

    def _reader(self, gpio):
        def read():
            machine.drive(gpio, jsboard.pin(gpio))
        return read

    def _frame(self, data):
        jsboard.frame(data.hex())

    def _start(self):
        self.started = time.ticks_ms()
        self.app = build_app(self.cfg, self.hw, time, self.seed, self._listen)
        self.app.start()
        self.hint = None  # the hint's SearchResult, until step() reports it
        hinted = self.app.hinted  # connect4.app.turn.hint hands its search to app.hinted: seen here
        # first, so that the page says what the hint cost as it says what the AI's move cost

        def on_hint(result, now):
            self.hint = result
            hinted(result, now)
        self.app.hinted = on_hint

        self.face = Face(self.app)
        self.shown = None
        self.moves = None
        self.menu_said = ""
        self._state({"settings": self.app.settings, "stats": self.app.store.stats})

    def _listen(self, kind, data):
        if kind == "game":
            jsboard.game(json.dumps(data))

    def _state(self, extra=None):
        app = self.app
        menu = words.menu(app.menu) if app.state == MENU else ""
        now = (app.state, app.board.count, app.cursor, app.mode, app.first_side)
        if now == self.shown and menu == self.menu_said and extra is None:
            return
        self.shown = now
        self.menu_said = menu
        snap = self.face.snapshot()
        out = {"state": snap["state"], "moves": snap["moves"], "cursor": app.cursor,
               "status": words.status(snap), "menu": menu}
        if self.moves is not None:
            said = words.moved(self.moves, snap)
            if said:
                out["said"] = said
        self.moves = snap["moves"]
        if extra:
            out.update(extra)
        jsboard.state(json.dumps(out))

    def step(self):
        """One pass of App.run()'s loop (the sleep is the caller's); False once halted."""
        if self.halted:
            return False
        app = self.app
        before = app.turn.last_search
        t0 = time.ticks_ms()
        try:
            app.step()
            machine.run_pending()
        except machine.Reset:  # machine.reset() or the watchdog: the board starts again
            self.__init__(*self.args)
            return True
        except Exception as e:
            self._crash(e)
            return not self.halted
        found = app.turn.last_search
        if found is not None and found is not before:  # the board is still the one searched
            self._report(found, t0, app.ai.level, {"blunder": words.blunder_percent(app.ai)})
        if self.hint is not None:  # the board the hint searched: the person's move is still to come
            found, self.hint = self.hint, None
            self._report(found, t0, MAX_LEVEL, {"hint": True})
        self._state()
        return True

    def _report(self, found, t0, level, extra):
        """A search's report and speed line to the page (the step began at t0)."""
        report = {"move": found.move, "nodes": found.nodes, "depth": found.depth,
                  "stopped": found.stopped, "ms": time.ticks_diff(time.ticks_ms(), t0),
                  "level": level, "kind": words.search_kind(self.app.board, found)}
        report.update(extra)
        report["words"] = words.speed(report, self.chip_rate)
        jsboard.search(json.dumps(report))

    def _crash(self, exc):
        """boot.main()'s answer to an unexpected error, and the traceback to the page."""
        jsboard.error(_traceback(exc))
        crashlog.log_error(self.log, exc, self.app.board.moves_string() or "-" if self.app else None)
        self.app = None
        if time.ticks_diff(time.ticks_ms(), self.started) < boot.CRASH_WINDOW_MS:
            self.crashes += 1
        else:
            self.crashes = 1
        crashlog.show_error(self.hw)
        if self.crashes >= boot.MAX_CRASHES:
            fallback.show_cross(self.hw.display)
            self.halted = True
            return
        self.seed += 1
        self.hw.after_crash = True  # as boot.main: the next app starts after a crash
        try:
            self._start()
        except Exception as e:
            self._crash(e)


class Engine:
    """The engine's line protocol (connect4/engine/protocol.py), one line per call: the
    answers of `python -m host_sim.engine --no-book`, from the page's MicroPython."""

    def __init__(self):
        from connect4.engine.player import AIPlayer
        from connect4.engine.protocol import Protocol
        self.out = []
        self.protocol = Protocol(self.out.append, AIPlayer(book=None))

    def handle(self, line):
        self.protocol.handle(line)
        out = self.out[:]
        del self.out[:]
        return "\n".join(out)
