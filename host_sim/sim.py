"""`make sim`: the board's firmware, unmodified, on a simulated board in your terminal.

The firmware's own start (connect4.boot.start, all main.py runs; the
simulator's flash folder, seed, book, judge and Wi-Fi passed as its
parameters) runs against host_sim's stubs of `machine` and `neopixel`; the LED panel is drawn in the terminal and the keyboard drives
the controls (a rotary encoder, or three buttons with --preset buttons).
The board's flash is a folder (--flash, default sim_flash/), so settings and
statistics persist between runs; --temp-flash runs on a throwaway one.

  ←/→ or A/D   turn the encoder (buttons preset: press LEFT/RIGHT)
  Space/Enter  press (drop a disc, confirm; buttons preset: DROP)
  L or M       long press (the menu)
  H            the hint (press held while turning)
  Q, Ctrl-C    quit

The preset is config.py's PRESET unless --preset names another.

--size COLSxROWS plays on another board (4x4 to 8x7, as far as the preset's panel
shows it; saved like a menu change, as --mode and --level are); the terminal
draws the panel as it is, whatever the board on it.

--headless runs on a virtual clock without drawing and prints each game's
moves and result; --script FILE plays timed input (lines `TIME ACTION [ARG]`,
TIME in ms or +ms after the previous line; actions: left, right, press, long,
hold MS, down, up, wait MS, hint, quit), --script - reads such lines from stdin
as they come (another program drives the board; each played from then on, TIME
optional); --record FILE writes an animated GIF (or a PNG of the last frame, or
PNG frames with a %d pattern).
A headless run against the AI or between two players needs someone on a
person's side (--script, or --web and a browser): `--games N` without either
is refused at once, and a run whose script ends while a person is to move stops.

--web PORT serves the board's web page and JSON API (connect4/net, the very
firmware code the board runs with Wi-Fi on) on 127.0.0.1:PORT (--web-host to
change); the terminal board keeps `web: http://127.0.0.1:PORT/ pairing code NNNN`
in view under its status line, with the current code; --headless prints that
line once the server listens, and every new code drawn after wrong ones.
With --headless the clock is then real (browsers keep real time) and the run
lasts until Ctrl-C, --seconds or --games. No port opens without --web: the
menu's Wi-Fi item then brings up the stub radio and serves no page.

Two boards, one game: a second simulator on a flash of its own is a second
board (its own name, connect4-XXXX, from its flash folder). --boards HOST:PORT
tells each where the other's page is (the menu's "play a board" asks there, as a
board on a network broadcasts): in one terminal `make sim SIM_ARGS="--web 8080
--boards 127.0.0.1:8081"`, in another `make sim SIM_ARGS="--web 8081 --flash
sim_flash2 --boards 127.0.0.1:8080"` (docs/simulator.md).

Game records: the board appends every game to games.txt in its flash (the
simulator's folder too); the simulator marks every move with the host's
perfect solver. --review FILE-OR-LINE prints a review of each record in a
records file (copied off a board, or the simulator's), or of one record line.
"""
import argparse
import math
import os
import socket
import shutil
import signal
import sys
import tempfile
import threading
import time

import host_sim
from host_sim.clock import CLOCK
from host_sim.world import (ChipPace, Controls, Panel, SimExit, now_ms, parse_script,
                            chip_nodes_per_second, board_mac)
import machine

MODES = ("ai", "two", "demo")
DEFAULT_FLASH = os.path.join(host_sim.ROOT, "sim_flash")
KEY_BACKLOG_MS = 250  # keys beyond this much input still to play out are dropped


class UsageError(Exception):
    """Bad options or input files: one line on stderr, exit code 2."""


def whole_number(minimum):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a whole number" % text)
        if value < minimum:
            raise argparse.ArgumentTypeError("%r: must be %d or more" % (text, minimum))
        return value
    parse.__name__ = "whole number"
    return parse


def seconds(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number of seconds" % text)
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError("%r: must be a number of seconds above 0" % text)
    return value


def board_size(text):
    """--size: "8x7" (columns x rows, 4x4 to 8x7) -> the size's name."""
    from connect4.engine.board import parse_size, size_name
    try:
        return size_name(*parse_size(text))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def port_number(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a port number" % text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError("%r: a port is 1-65535" % text)
    return value


def check_port(host, port):
    """UsageError now, rather than a crash of the firmware later, if host:port cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, socket.AF_UNSPEC, socket.SOCK_STREAM)
        s = socket.socket(infos[0][0], socket.SOCK_STREAM)
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(infos[0][4])
        finally:
            s.close()
    except OSError as e:
        raise UsageError("--web %d: cannot listen on %s:%d: %s" % (port, host, port, e.strerror or e))


def parse_args(argv, prog="make sim"):
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preset", help="the hardware preset of config.py (default: its PRESET)")
    p.add_argument("--mode", choices=MODES, help="start in this mode (saved like a menu change)")
    p.add_argument("--level", type=int, choices=range(1, 9), metavar="1-8",
                   help="the AI's level (saved like a menu change)")
    p.add_argument("--size", type=board_size, metavar="COLSxROWS",
                   help="the board: 4x4 to 8x7, as the panel shows (default 7x6; saved like a menu change)")
    p.add_argument("--seed", type=int, default=None, help="AI and demo randomness (default: fresh)")
    p.add_argument("--script", metavar="FILE",
                   help="timed input events (-: lines read from stdin as they come, each played "
                        "from then on, --headless only)")
    p.add_argument("--headless", action="store_true",
                   help="no drawing, virtual clock; print each game's moves and result")
    p.add_argument("--record", metavar="FILE", help="animated GIF, PNG (last frame) or frame%%03d.png")
    rate = chip_nodes_per_second()
    p.add_argument("--chip-speed", action="store_true",
                   help="the AI takes about as long as on the chip: %s, tools/data/chip.txt's "
                        "instructions per node (counted on the emulated chip) at the slow end of "
                        "the chip's speed (docs/benchmarks.md#speed-on-the-chip)" % (
                            "%s nodes/s" % format(rate, ",") if rate else "not in this copy (no tools/)"))
    p.add_argument("--no-book", action="store_true",
                   help="play without the opening book (firmware/book.bin), as a board without the file")
    p.add_argument("--flash", metavar="DIR", help="the board's flash (a folder; default sim_flash/)")
    p.add_argument("--temp-flash", action="store_true",
                   help="a throwaway empty flash, removed at exit: the run changes nothing "
                        "for the next one (examples, demos)")
    p.add_argument("--games", type=whole_number(1), default=0, metavar="N",
                   help="headless: stop after this many games")
    p.add_argument("--seconds", type=seconds, default=0, metavar="S",
                   help="stop after this many (virtual, when headless) seconds")
    p.add_argument("--web", type=port_number, metavar="PORT",
                   help="serve the board's web page and API on this port (the firmware's connect4.net)")
    p.add_argument("--web-host", default="127.0.0.1", metavar="HOST",
                   help="the address --web listens on (default 127.0.0.1: this computer only)")
    p.add_argument("--boards", nargs="+", metavar="HOST:PORT",
                   help="where the menu's \"play a board\" looks for other boards (another "
                        "simulator's --web address; default: a broadcast, connect4.net.finder's)")
    p.add_argument("--review", metavar="RECORDS",
                   help="print a review of every game in a records file (games.txt), or of one "
                        "record line, with the perfect solver; runs no board")
    args = p.parse_args(argv)
    if args.flash is not None and args.temp_flash:
        p.error("--flash and --temp-flash: give one of them")
    if args.script == "-" and not args.headless:
        p.error("--script -: stdin is the terminal's keys without --headless")
    for board in args.boards or ():
        host, _, port = board.rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            p.error("--boards %s: expected HOST:PORT, e.g. 127.0.0.1:8081" % board)
    if args.chip_speed and not rate:
        p.error("--chip-speed: this copy has no tools/data/chip.txt, the chip's speed record")
    return args


def prepare_flash(path):
    """The flash folder, made if missing; UsageError if it cannot be one."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise UsageError("--flash %s: is a file, not a folder" % path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UsageError("--flash %s: cannot make the folder: %s" % (path, e.strerror or e))
    if not os.access(path, os.W_OK | os.X_OK):
        raise UsageError("--flash %s: the folder is not writable" % path)
    return path


def read_script(path):
    """The script's [(time_ms, action, arg)]; UsageError for a file that is not a good script."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise UsageError("--script %s: cannot read it: %s" % (path, e.strerror or e))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise UsageError("--script %s: line %d is not UTF-8 text (byte 0x%02x)" % (
            path, line, data[e.start]))
    try:
        return parse_script(text)
    except ValueError as e:
        raise UsageError("--script %s: %s" % (path, e))


def config_overrides(args):
    """The simulator's options on top of config.py's preset: its flash folder, the seed, and
    the menu's Wi-Fi serving a page only with --web (its server), on --web-host only."""
    overrides = {"flash_dir": os.path.join(os.path.abspath(args.flash), ""),
                 "web_host": args.web_host, "web_port": args.web or 0}
    if args.boards:
        overrides["board_find"] = tuple(args.boards)
    if args.seed is not None:
        overrides["seed"] = args.seed
    return overrides


def firmware_config(args):
    """The firmware's config as connect4.boot.start(preset=..., overrides=...) will read it:
    config.py as written (loaded fresh), its preset or --preset's, the simulator's overrides."""
    import importlib
    try:
        import config
        config = importlib.reload(config)
    except Exception as e:  # noqa: B902  (a broken config.py: say what and where)
        raise UsageError("firmware/config.py cannot be loaded: %s: %s" % (type(e).__name__, e))
    try:
        cfg = config.get(args.preset or config.PRESET, config_overrides(args))
    except ValueError as e:
        raise UsageError("config.py: %s" % e)
    check_hardware(cfg)
    return cfg


def check_hardware(cfg):
    """The firmware's own checks of the config (hardware_setup.build), before anything runs."""
    from connect4 import hardware_setup
    try:
        hardware_setup.build(cfg)
    except (ValueError, KeyError, TypeError, IndexError) as e:
        what = "missing entry %s" % e if isinstance(e, KeyError) else str(e)
        raise UsageError("config.py (preset %s): %s" % (cfg.get("preset"), what))
    finally:
        machine.reset_world()


def preset_settings(args, cfg):
    """--mode/--level/--size: change the saved settings, as the menu would: a change leaves
    the game in progress kept on the flash (connect4.app.resume), recorded as abandoned.
    UsageError for a size the preset's panel cannot show."""
    if args.mode is None and args.level is None and args.size is None:
        return
    from connect4.app.assemble import settings_store
    from connect4.app.render import sizes
    if args.size is not None and args.size not in sizes(cfg["width"], cfg["height"]):
        shown = sizes(cfg["width"], cfg["height"])
        raise UsageError("--size %s: the %dx%d panel of preset %s shows %s to %s" % (
            args.size, cfg["width"], cfg["height"], cfg.get("preset"), shown[0], shown[-1]))
    store = settings_store(cfg)
    before = dict(store.settings)
    if args.mode is not None:
        store.settings["mode"] = args.mode
    if args.level is not None:
        store.settings["level"] = args.level
    if args.size is not None:
        store.settings["size"] = args.size
    store.save()
    if store.settings != before:
        leave_game(cfg["flash_dir"])


def leave_game(flash):
    """The game in progress on the flash, if any, recorded as abandoned and no longer kept."""
    from connect4.app.recordfile import Records
    from connect4.app.resume import SavedGame
    from connect4.app.takeback import load
    from connect4.engine.board import Board, parse_size
    from connect4.engine.rng import Rng
    saved = SavedGame(flash + "game.txt")
    got = load(saved, lambda size: Board("", *parse_size(size)), Rng())  # the game's own size
    if got is not None and saved.ending is None:  # (an ending: the app finishes it at its start)
        record = got[0]
        if JUDGE[0] is not None:  # the simulator's marks, as for every record it writes
            record.marks = JUDGE[0](record.moves, record.size) or record.marks
        Records(flash + "games.txt").append(record)
        saved.clear()


def saved_mode(cfg):
    """The mode the board starts in: the settings file's (after --mode)."""
    from connect4.app.assemble import settings_store
    return settings_store(cfg).settings["mode"]


class Firmware:
    """Runs the board's start (again after a simulated reset) and watches the stop conditions.

    It calls connect4.boot.start(), as main.py does, with the simulator's needs as its
    parameters: this object's listener (the documented way to hear the app's events,
    "app": the App at every start, "game": a finished game), the book, the judge, the
    Wi-Fi factory, and the preset and options (config_overrides) read over config.py.
    """

    def __init__(self, args, cfg, controls, pace=None):
        self.args = args
        self.cfg = cfg
        self.controls = controls
        self.pace = pace  # ChipPace for --chip-speed
        self.quit = False
        self.app = None  # the running app, from its "app" event
        self.games = []
        self.ended = None  # why boot.start returned: safe, crashed, ...
        self.error = None
        self.stuck = None  # why a headless run stopped early: a person's move that cannot come
        self.server = None  # --web: the firmware's web server, made at the first start of the app
        self.pairing = None
        self.code_shown = None  # the pairing code last printed (--web)
        self.live = []  # --script -: the lines read from stdin, not yet played (each parsed)
        if args.script == "-":
            threading.Thread(target=self.read_live, daemon=True).start()
        if args.web:
            from connect4.net.pairing import Pairing
            self.pairing = Pairing(cfg["flash_dir"])  # paired phones kept on its flash

    def read_live(self):
        """--script -: each line of stdin (`ACTION [ARG]`, `+MS ACTION [ARG]` or `menu ITEM`),
        played as it comes; a bad line is said on stderr and skipped; the end of stdin quits."""
        for line in sys.stdin:
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            if not text[0] in "+0123456789":
                text = "+0 " + text
            try:
                self.live.append(parse_script(text))
            except ValueError as e:
                print("--script -: %s" % e, file=sys.stderr, flush=True)
        self.live.append([(0, "quit", 0)])

    def web_line(self):
        """--web: the address and the current pairing code (the terminal board's last line)."""
        if self.server is None:
            return "web: starting on %s:%d" % (self.args.web_host, self.args.web)
        return "web: http://%s:%d/ pairing code %s" % (self.args.web_host, self.args.web,
                                                       self.pairing.code)

    def new_code(self):
        """--web --headless: print a pairing code drawn after wrong ones locked pairing, or
        after the paired phones were forgotten."""
        pairing = self.pairing
        code = pairing.code
        if code != self.code_shown:
            from connect4.net.pairing import MAX_TRIES, LOCK_MS
            self.code_shown = code
            why = ("after %d wrong codes; pairing is locked for %d s" % (MAX_TRIES, LOCK_MS // 1000)
                   if pairing.locked_at is not None else "the paired phones were forgotten")
            print("web: new pairing code %s (%s)" % (code, why), flush=True)

    def serve(self, app):
        """--web: the firmware's server on the running app (kept across restarts of the app)."""
        from connect4.app.face import Face
        if self.server is not None:
            self.server.attach(Face(app))
            return
        from connect4.net.server import Server
        from connect4.net.netconf import NetConf
        netconf = NetConf(self.cfg["flash_dir"]).load()
        self.server = Server(Face(app), self.pairing, netconf).start(self.args.web_host, self.args.web)
        self.code_shown = self.pairing.code
        if self.args.headless:  # listening now: the app's loop answers from its next step
            print(self.web_line(), flush=True)

    def listen(self, kind, data):
        if kind == "app":
            self.app = data
            if self.pace is not None:
                self.pace.follow(data)
            if self.args.web:
                self.serve(data)
        elif kind == "game":
            self.games.append(data)
            if self.args.headless:
                print(describe_game(len(self.games), data), flush=True)

    def tick(self):
        """Runs in the firmware's thread at every sleep."""
        if self.args.headless:
            while self.live:  # --script -: the lines read since, played from now
                for t, action, arg in self.live.pop(0):
                    self.controls.act(action, now_ms() + t, arg)
            self.controls.advance(now_ms())
            if self.controls.quit_at is not None and now_ms() >= self.controls.quit_at:
                self.quit = True
            if self.args.games and len(self.games) >= self.args.games:
                self.quit = True
            if self.args.seconds and now_ms() >= self.args.seconds * 1000:
                self.quit = True
            if self.server is not None:
                self.new_code()
            if self.args.games and not self.quit and self.waits_for_nobody():
                self.stuck = ("game %d waits for a person's move and the script has no more input: "
                              "end the script with `quit`, or give it the moves" % (len(self.games) + 1))
                self.quit = True
        machine.run_pending()
        machine.check_watchdogs()
        if self.quit:
            raise SimExit()

    def waits_for_nobody(self):
        """Headless, no web: the game waits for a person's move and no input will ever come
        (the script has run out; a game in progress never turns into the demo by itself)."""
        from connect4.app import game
        app = self.app
        return (app is not None and not self.args.web and app.state == game.PLAY
                and app.mode != game.MODE_DEMO and not app.ai_to_move()
                and not self.controls.queue and self.controls.quit_at is None
                and not self.cfg["demo_idle_game_ms"])

    def run(self):
        from connect4 import boot

        # the opening book the board gets from `make deploy`; --no-book plays without it; the
        # perfect solver, if installed, marks every move of the records
        book = "" if self.args.no_book else os.path.join(host_sim.FIRMWARE, "book.bin")
        CLOCK.hooks[:] = [self.tick]
        try:
            while True:
                try:
                    boot.start(self.listen, None, time, book_path=book, judge=JUDGE[0],
                               wifi=boot.wifi_link, preset=self.cfg["preset"],
                               overrides=config_overrides(self.args))
                    self.ended = "returned"
                    break
                except machine.Reset:
                    continue  # the board resets: it starts again
        except SimExit:
            self.ended = "quit"
        except BaseException as e:  # noqa: B902  (shown to the user, not swallowed)
            self.error = e
            self.ended = "error"
        finally:
            if self.server is not None:
                self.server.stop()


def describe_game(n, g):
    """One line per game: who played, who started, the moves (1-based columns), the result."""
    if g["mode"] == "vs AI":
        who = ("you (red)", "the AI (yellow, level %d)" % g["levels"][1])
    elif g["mode"] == "demo":
        who = ("red (level %d)" % g["levels"][0], "yellow (level %d)" % g["levels"][1])
    else:
        who = ("red", "yellow")
    winner = who[g["winner"]] if g["winner"] >= 0 else None
    result = "a draw" if winner is None else winner + (" win" if winner.startswith("you") else " wins")
    return "game %d, %s: %s vs %s, %s starts, moves %s, %s" % (
        n, g["mode"], who[0], who[1], ("red", "yellow")[g["first"]], g["moves"], result)


def print_unfinished(fw):
    """Headless: the game left on the board when the run stopped, if one was under way."""
    from connect4.app.ending import MODE_NAMES
    app = fw.app
    if app is not None and app.board.count and not app.board.is_over():
        print("game %d, %s: unfinished, moves %s" % (len(fw.games) + 1, MODE_NAMES[app.mode],
                                                   app.board.moves_string()), flush=True)


def _judge():
    """host_sim.review.judge if the perfect solver is installed, else None (the board's marks)."""
    from host_sim import review
    return review.judge if review.available() else None


JUDGE = [None]


def print_reviews(source):
    from host_sim import review
    try:
        records = review.read_records(source)
    except (OSError, ValueError) as e:
        raise UsageError("--review %s" % e)
    print("\n\n".join(review.review(r) for r in records))
    return 0


def real_time(controls):
    """The real clock from now on; a script's times count from now. Returns now (ms)."""
    CLOCK.make_real()
    controls.paced = True  # the host may stall: no level left unseen (Controls.advance)
    start = now_ms()
    if controls.queue:
        import heapq
        controls.queue = [(t + start,) + tuple(rest) for (t, *rest) in controls.queue]
        heapq.heapify(controls.queue)
    if controls.quit_at is not None:
        controls.quit_at += start
    return start


def run_headless(args, cfg, fw):
    if args.web:
        start = real_time(fw.controls)  # a browser keeps real time; runs until Ctrl-C, --seconds or --games
        if args.seconds:
            args.seconds += start / 1000.0
        fw.run()
        if fw.error is not None:
            raise fw.error
        print("%d game(s)" % len(fw.games))
        print_unfinished(fw)
        return 0
    CLOCK.make_virtual(0)
    if not (args.games or args.seconds or fw.controls.quit_at is not None):
        args.seconds = 600.0
    fw.run()
    if fw.error is not None:
        raise fw.error
    print("%d game(s) in %.1f s of board time" % (len(fw.games), now_ms() / 1000.0))
    print_unfinished(fw)
    if fw.stuck:
        return fail(fw.stuck)
    return 0


def feed_key(controls, key, now, backlog_ms=KEY_BACKLOG_MS):
    """Schedule a typed key's action after the ones still playing out; False if dropped.

    Keys are played one after the other, so quick keys do not garble the
    encoder's phases; but a board samples its controls and a real button is
    not clicked 30 times a second, so keys that arrive while more than
    `backlog_ms` of input is still waiting are dropped rather than queued
    (200 quick key presses must not keep the board moving for seconds).
    """
    start_at = max(now, controls.busy_until)
    if start_at - now > backlog_ms:
        return False
    controls.busy_until = controls.act(key, start_at) + 5
    return True


def run_interactive(args, cfg, fw, panel):
    from host_sim.term import Terminal, render, HELP
    from host_sim.status import status_line
    start = real_time(fw.controls)
    thread = threading.Thread(target=fw.run, name="firmware", daemon=True)
    shown = None
    title = "Connect 4 board simulator - preset %s - %s" % (
        cfg["preset"], "chip speed" if args.chip_speed else "host speed")
    help_text = HELP.get(cfg["input"], HELP["encoder"])
    with Terminal() as term:
        thread.start()
        try:
            while True:
                now = now_ms()
                fw.controls.advance(now)
                if (fw.controls.quit_at is not None and now >= fw.controls.quit_at) or (
                        args.seconds and now - start >= args.seconds * 1000):
                    break
                if fw.error is not None:
                    break
                cols, rows = term.size()
                app = fw.app
                if fw.ended == "returned":
                    status = ("the board returned (safe mode, the hardware test or too many "
                              "crashes): the REPL would be free")
                elif app is None:
                    status = "starting (L now: safe mode; a script's \"0 hold 3500\": the hardware test)"
                else:
                    status = status_line(app, fw.games[-1] if fw.games else None,
                                         app.store.save_error)
                web = fw.web_line() if args.web else None
                frame = (tuple(panel.pixels), cols, rows, status, web)
                if term.resized or frame != shown:
                    if term.resized:
                        term.write("\x1b[2J")
                        term.resized = False
                    term.write(render(panel.pixels, panel.width, panel.height, cols, rows, title,
                                      status, help_text, web))
                    shown = frame
                keys = term.read_keys(0.004 if fw.controls.queue else 0.02)
                for key in keys:
                    if key == "quit":
                        fw.controls.quit_at = now
                    else:
                        feed_key(fw.controls, key, now_ms())
        except KeyboardInterrupt:  # Ctrl-C as a signal (kill -INT): a quit like Q
            pass
        finally:
            fw.quit = True
            thread.join(1.0)
    if fw.error is not None:
        raise fw.error
    return 0


def fail(message):
    print("%s: error: %s" % (PROG[0], message), file=sys.stderr)
    return 2


PROG = ["make sim"]


def main(argv=None, prog="make sim"):
    PROG[0] = prog
    args = parse_args(argv, prog)
    if args.review:
        try:
            return print_reviews(args.review)
        except UsageError as e:
            return fail(e)
    JUDGE[0] = _judge()
    temps = []
    saved = exit_on_signals()
    try:
        return run_board(args, temps)
    finally:
        for path in temps:  # --temp-flash: gone however the run ends
            shutil.rmtree(path, ignore_errors=True)
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def exit_on_signals():
    """SIGTERM and SIGHUP (a closed terminal) end the run as an exit does, so that its
    `finally` clauses run (a throwaway flash removed, a recording saved). Returns the
    handlers they replace."""
    saved = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)  # (Windows has no SIGHUP)
        if sig is not None:
            try:
                saved[sig] = signal.signal(sig, _exit_on_signal)
            except ValueError:  # not the main thread: its handlers stay
                pass
    return saved


def _exit_on_signal(signum, frame):
    raise SystemExit(128 + signum)


def run_board(args, temps):
    """Everything but --review; a --temp-flash folder made is added to `temps`."""
    temp = None
    recorder = None
    try:
        if args.temp_flash:
            temp = args.flash = tempfile.mkdtemp(prefix="sim_flash-")
            temps.append(temp)
        elif args.flash is None:
            args.flash = DEFAULT_FLASH
        prepare_flash(args.flash)
        script = read_script(args.script) if args.script and args.script != "-" else []
        machine.reset_world()
        board_mac(args.flash)
        cfg = firmware_config(args)
        panel = Panel(cfg)
        if args.record:
            from host_sim.record import Recorder, RecordError
            try:
                recorder = Recorder(args.record, panel.width, panel.height)
            except RecordError as e:
                raise UsageError(str(e))
        if not args.headless and not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise UsageError("the simulator draws in a terminal and reads its keys: run it in "
                             "one (stdin and stdout), or use --headless")
        preset_settings(args, cfg)
        if args.headless and args.games and not (args.script or args.web):
            mode = saved_mode(cfg)
            if mode != "demo":
                raise UsageError(
                    "--games %d: in %s mode nobody plays a person's side when headless, so no game "
                    "would end: use --mode demo (the AI plays both sides), --script FILE (the "
                    "person's moves) or --web PORT (play them from a browser)"
                    % (args.games, {"ai": "vs AI", "two": "two-player"}.get(mode, mode)))
        if args.web:
            check_port(args.web_host, args.web)
    except UsageError as e:
        if recorder is not None:
            recorder.discard()
        return fail(e)
    if args.headless:
        print("board: preset %s, flash %s%s" % (cfg["preset"], args.flash,
                                                " (temporary)" if temp else ""), flush=True)
    controls = Controls(cfg)
    for t, action, arg in script:
        controls.act(action, t, arg)
    pace = ChipPace(cfg, chip_nodes_per_second()) if args.chip_speed else None
    fw = Firmware(args, cfg, controls, pace)
    if recorder is not None:
        panel.listeners.append(lambda pixels: recorder.add(now_ms(), pixels))
    try:
        if args.headless:
            rc = run_headless(args, cfg, fw)
        else:
            rc = run_interactive(args, cfg, fw, panel)
    except KeyboardInterrupt:  # Ctrl-C: a clean quit
        rc = 0
    finally:
        CLOCK.hooks[:] = []
        if recorder is not None:
            panel.listeners[:] = []
            if recorder.last is None:
                recorder.discard()
                print("nothing recorded: no frame was shown", file=sys.stderr)
            else:
                n = recorder.save(now_ms())
                print("recorded %d frame(s) to %s" % (n, recorder.path))
    return rc


if __name__ == "__main__":
    sys.exit(main())
