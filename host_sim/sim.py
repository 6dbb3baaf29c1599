"""`make sim`: the board's firmware, unmodified, on a simulated board in your terminal.

The firmware's own main.py runs against host_sim's stubs of `machine` and
`neopixel`; the LED panel is drawn in the terminal and the keyboard drives
the controls (a rotary encoder, or three buttons with --preset buttons).
The board's flash is a folder (--flash, default sim_flash/), so settings and
statistics persist between runs.

  ←/→ or A/D   turn the encoder (or press LEFT/RIGHT)
  Space/Enter  press (drop a disc, confirm)
  L or M       long press (the menu)
  Q, Ctrl-C    quit

--headless runs on a virtual clock without drawing and prints each game's
moves and result; --script FILE plays timed input (lines `TIME ACTION [ARG]`,
TIME in ms or +ms after the previous line; actions: left, right, press, long,
hold MS, down, up, wait MS, quit); --record FILE writes an animated GIF (or a
PNG of the last frame, or PNG frames with a %d pattern).
"""
import argparse
import os
import runpy
import sys
import threading
import time

import host_sim
from host_sim.clock import CLOCK
from host_sim import world
from host_sim.world import Controls, Panel, SimExit, now_ms, parse_script, chip_nodes_per_second
import machine

MODES = ("ai", "two", "demo")
DEFAULT_FLASH = os.path.join(host_sim.ROOT, "sim_flash")
MAIN = os.path.join(host_sim.FIRMWARE, "main.py")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="make sim", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preset", default="encoder", choices=("encoder", "buttons"))
    p.add_argument("--mode", choices=MODES, help="start in this mode (saved like a menu change)")
    p.add_argument("--level", type=int, choices=range(1, 9), metavar="1-8",
                   help="the AI's level (saved like a menu change)")
    p.add_argument("--seed", type=int, default=None, help="AI and demo randomness (default: fresh)")
    p.add_argument("--script", metavar="FILE", help="timed input events")
    p.add_argument("--headless", action="store_true",
                   help="no drawing, virtual clock; print each game's moves and result")
    p.add_argument("--record", metavar="FILE", help="animated GIF, PNG (last frame) or frame%%03d.png")
    p.add_argument("--chip-speed", action="store_true",
                   help="the AI takes about as long as on the chip (%d nodes/s)" % chip_nodes_per_second())
    p.add_argument("--flash", default=DEFAULT_FLASH, metavar="DIR", help="the board's flash (a folder)")
    p.add_argument("--games", type=int, default=0, help="headless: stop after this many games")
    p.add_argument("--seconds", type=float, default=0,
                   help="stop after this many (virtual, when headless) seconds")
    return p.parse_args(argv)


def firmware_config(args):
    """Patch the firmware's config module as a build would, before main.py imports it."""
    import importlib
    import config
    importlib.reload(config)
    overrides = {"flash_dir": os.path.join(os.path.abspath(args.flash), "")}
    if args.seed is not None:
        overrides["seed"] = args.seed
    if args.chip_speed:
        overrides["node_rate"] = chip_nodes_per_second()
    config.PRESET = args.preset
    config.PRESETS[args.preset].update(overrides)
    return config.get()


def preset_settings(args, cfg):
    """--mode/--level: change the saved settings, as the menu would."""
    if args.mode is None and args.level is None:
        return
    from connect4.app.store import Store
    from connect4 import boot
    store = Store(cfg["flash_dir"] + boot.SETTINGS_FILE)
    store.load()
    if args.mode is not None:
        store.settings["mode"] = args.mode
    if args.level is not None:
        store.settings["level"] = args.level
    store.save()


class Firmware:
    """Runs main.py (again after a simulated reset) and watches the stop conditions."""

    def __init__(self, args, cfg, controls):
        self.args = args
        self.cfg = cfg
        self.controls = controls
        self.quit = False
        self.games = []
        self.ended = None  # why main.py returned: safe, crashed, ...
        self.error = None

    def listen(self, kind, data):
        if kind == "game":
            self.games.append(data)
            if self.args.headless:
                print(describe_game(len(self.games), data), flush=True)

    def tick(self):
        """Runs in the firmware's thread at every sleep."""
        if self.args.headless:
            self.controls.advance(now_ms())
            if self.controls.quit_at is not None and now_ms() >= self.controls.quit_at:
                self.quit = True
            if self.args.games and len(self.games) >= self.args.games:
                self.quit = True
            if self.args.seconds and now_ms() >= self.args.seconds * 1000:
                self.quit = True
        machine.run_pending()
        machine.check_watchdogs()
        if self.quit:
            raise SimExit()

    def run(self):
        from connect4 import boot
        boot.LISTENER = self.listen
        CLOCK.hooks[:] = [self.tick]
        try:
            while True:
                try:
                    runpy.run_path(MAIN, run_name="__main__")
                    self.ended = "returned"
                    break
                except machine.Reset:
                    continue  # the board resets: main.py runs again
        except SimExit:
            self.ended = "quit"
        except BaseException as e:  # noqa: B902  (shown to the user, not swallowed)
            self.error = e
            self.ended = "error"
        finally:
            boot.LISTENER = None


def describe_game(n, g):
    """One line per game: who played, who started, the moves (1-based columns), the result."""
    if g["mode"] == "vs AI":
        who = ("you (red)", "the AI (yellow, level %d)" % g["levels"][1])
    elif g["mode"] == "demo":
        who = ("red (level %d)" % g["levels"][0], "yellow (level %d)" % g["levels"][1])
    else:
        who = ("red", "yellow")
    result = "a draw" if g["winner"] < 0 else who[g["winner"]] + " wins"
    return "game %d, %s: %s vs %s, %s starts, moves %s, %s" % (
        n, g["mode"], who[0], who[1], ("red", "yellow")[g["first"]], g["moves"], result)


def run_headless(args, cfg, fw, recorder):
    CLOCK.make_virtual(0)
    if not (args.games or args.seconds or fw.controls.quit_at is not None):
        args.seconds = 600.0
    fw.run()
    if fw.error is not None:
        raise fw.error
    print("%d game(s) in %.1f s of board time" % (len(fw.games), now_ms() / 1000.0))
    return 0


def run_interactive(args, cfg, fw, panel):
    from host_sim.term import Terminal, render
    from connect4 import boot
    CLOCK.make_real()
    start = now_ms()
    if fw.controls.queue:  # a script: its times count from now
        fw.controls.queue = [(t + start,) + rest for (t, *rest) in fw.controls.queue]
        import heapq
        heapq.heapify(fw.controls.queue)
    if fw.controls.quit_at is not None:
        fw.controls.quit_at += start
    thread = threading.Thread(target=fw.run, name="firmware", daemon=True)
    shown = None
    with Terminal() as term:
        thread.start()
        while True:
            now = now_ms()
            fw.controls.advance(now)
            if (fw.controls.quit_at is not None and now >= fw.controls.quit_at) or (
                    args.seconds and now - start >= args.seconds * 1000):
                break
            if fw.error is not None:
                break
            cols, rows = term.size()
            app = boot.APP
            if fw.ended == "returned":
                status = "main.py returned (safe mode or too many crashes): the REPL would be free"
            elif app is None:
                status = "starting (a long press now, L, enters safe mode)"
            else:
                status = app.status()
            title = "Connect 4 board simulator - preset %s - %s" % (
                args.preset, "chip speed" if args.chip_speed else "host speed")
            frame = (tuple(panel.pixels), cols, rows, status)
            if term.resized or frame != shown:
                if term.resized:
                    term.write("\x1b[2J")
                    term.resized = False
                term.write(render(panel.pixels, panel.width, panel.height, cols, rows, title, status))
                shown = frame
            keys = term.read_keys(0.004 if fw.controls.queue else 0.02)
            for key in keys:
                if key == "quit":
                    fw.controls.quit_at = now
                else:  # one after the other, so quick keys do not garble the encoder's phases
                    start_at = max(now_ms(), fw.controls.busy_until)
                    fw.controls.busy_until = fw.controls.act(key, start_at) + 5
        fw.quit = True
        thread.join(1.0)
    if fw.error is not None:
        raise fw.error
    return 0


def main(argv=None):
    args = parse_args(argv)
    os.makedirs(args.flash, exist_ok=True)
    machine.reset_world()
    cfg = firmware_config(args)
    preset_settings(args, cfg)
    panel = Panel(cfg)
    controls = Controls(cfg)
    if args.script:
        with open(args.script) as f:
            for t, action, arg in parse_script(f.read()):
                controls.act(action, t, arg)
    fw = Firmware(args, cfg, controls)
    recorder = None
    if args.record:
        from host_sim.record import Recorder
        recorder = Recorder(panel.width, panel.height)
        panel.listeners.append(lambda pixels: recorder.add(now_ms(), pixels))
    try:
        if args.headless:
            rc = run_headless(args, cfg, fw, recorder)
        else:
            rc = run_interactive(args, cfg, fw, panel)
    except KeyboardInterrupt:
        rc = 130
    finally:
        CLOCK.hooks[:] = []
    if recorder is not None:
        n = recorder.save(args.record, now_ms())
        print("recorded %d frame(s) to %s" % (n, args.record))
    return rc


if __name__ == "__main__":
    sys.exit(main())
