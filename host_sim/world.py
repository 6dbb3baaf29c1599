"""The simulated board around the firmware: LED panel, controls, timed input.

- `Panel` listens to the NeoPixel data pin (machine stub's bitstream) and
  decodes every frame the firmware writes into RGB per cell, in the order the
  player sees them (using the firmware's own LED map, inverted).
- `Controls` turns actions ("left", "right", "press", "long", "hold 500", ...)
  into timed pin levels: a button is a pin pulled to GND; the encoder's A/B
  pins go through the quadrature cycle (optionally with contact bounce). On
  the `buttons` preset, left/right are button presses.
- `ChipPace`: --chip-speed, the search takes as long as on the chip (the
  simulator's clock moves, the firmware is not told).
- `Sim` runs the app step by step on the virtual clock (tests, headless):
  `run_for(ms)`, `run_until(condition)`.
"""
import heapq
import os
import time

import host_sim
from host_sim.clock import CLOCK
import machine  # the stub (host_sim put it on the path)

CLICK_MS = 80
LONG_MS = 1000
STEP_MS = 6  # between encoder transitions
BOUNCE_MS = 2

ACTIONS = ("left", "right", "press", "long", "hold", "down", "up", "wait", "quit", "hint",
           "bounce-left", "bounce-right", "bounce-press", "menu")
MENU_STEP_MS = 500  # `menu ITEM`: between two turns


class SimExit(BaseException):
    """Raised inside the firmware's thread to end a simulation run."""


def load_config(preset, overrides=None):
    """The firmware's config.get(), with `overrides` applied last."""
    import config
    return config.get(preset, overrides)


class Panel:
    def __init__(self, cfg):
        from connect4.hw.display import led_map
        from connect4.hardware_setup import COLOR_ORDERS
        self.width = cfg["width"]
        self.height = cfg["height"]
        mapping = led_map(self.width, self.height, cfg["serpentine"], cfg["rotation"],
                          cfg["flip_x"], cfg["flip_y"])
        self.cell_of_led = [0] * len(mapping)
        for cell, led in enumerate(mapping):
            self.cell_of_led[led] = cell
        self.order = COLOR_ORDERS[cfg["color_order"]]
        self.pixels = [(0, 0, 0)] * (self.width * self.height)
        self.frames = 0
        self.listeners = []
        machine.listen(cfg["led_pin"], self._receive)

    def _receive(self, data):
        o = self.order
        pixels = list(self.pixels)
        for led, cell in enumerate(self.cell_of_led):
            b = data[3 * led:3 * led + 3]
            if len(b) == 3:
                pixels[cell] = (b[o[0]], b[o[1]], b[o[2]])
        self.pixels = pixels
        self.frames += 1
        for listener in self.listeners:
            listener(pixels)

    def rgb(self, x, y):
        return self.pixels[x + y * self.width]

    def rows(self):
        w = self.width
        return [self.pixels[y * w:(y + 1) * w] for y in range(self.height)]


class Controls:
    """Timed pin levels for the preset's controls; `advance(now)` applies what is due."""

    def __init__(self, cfg, step_ms=STEP_MS):
        self.cfg = cfg
        self.step_ms = step_ms
        self.queue = []  # heap of (t, seq, gpio, level)
        self.seq = 0
        self.busy_until = 0
        if cfg["input"] == "encoder":
            self.select = cfg["button"]
            self.a, self.b = cfg["enc_a"], cfg["enc_b"]
            if cfg.get("encoder_reverse"):
                self.a, self.b = self.b, self.a
        else:
            self.select = cfg["drop"]
            self.a = self.b = None
        self.quit_at = None
        self.paced = False  # real time: one level each advance() (real_time sets it)

    def _at(self, t, gpio, low):
        heapq.heappush(self.queue, (t, self.seq, gpio, 0 if low else None))
        self.seq += 1

    def _button(self, t, gpio, ms, bounce=False):
        if bounce:
            for k in range(3):
                self._at(t + k * BOUNCE_MS, gpio, k % 2 == 0)
            t += 2 * BOUNCE_MS
        self._at(t, gpio, True)
        self._at(t + ms, gpio, False)
        return t + ms

    def _turn(self, t, clockwise, bounce=False):
        first, second = (self.b, self.a) if clockwise else (self.a, self.b)
        for gpio, low in ((first, True), (second, True), (first, False), (second, False)):
            if bounce:
                self._at(t, gpio, low)
                self._at(t + BOUNCE_MS, gpio, not low)
                t += 2 * BOUNCE_MS
            self._at(t, gpio, low)
            t += self.step_ms
        return t

    def act(self, action, t, arg=0):
        """Schedule `action` from time t (ms); returns when it is over."""
        if action in ("left", "right", "bounce-left", "bounce-right"):
            right = action.endswith("right")
            if self.a is None:
                gpio = self.cfg["right"] if right else self.cfg["left"]
                return self._button(t, gpio, CLICK_MS, action.startswith("bounce"))
            return self._turn(t, right, action.startswith("bounce"))
        if action == "press":
            return self._button(t, self.select, arg or CLICK_MS)
        if action == "bounce-press":
            return self._button(t, self.select, arg or CLICK_MS, True)
        if action == "long":
            return self._button(t, self.select, arg or LONG_MS)
        if action == "hold":
            return self._button(t, self.select, arg or 2000)
        if action == "down":
            self._at(t, self.select, True)
            return t
        if action == "up":
            self._at(t, self.select, False)
            return t
        if action == "hint":  # the hint's chord: SELECT held while turning (pressing RIGHT)
            self._at(t, self.select, True)
            end = self.act("right", t + 100)
            self._at(end + 100, self.select, False)
            return end + 100
        if action == "wait":
            return t + arg
        if action == "quit":
            self.quit_at = t
            return t
        raise ValueError("unknown action %r" % action)

    def advance(self, now):
        """Drive the pin levels due by `now`, in order. Paced (on the real clock), one level a
        call and the rest at the next: the firmware samples its controls between two calls, so
        after the host stalled (a loaded computer) every level of a turn is still seen, later,
        as a slow hand's; else a turn's four edges, 6 ms apart, came at once and the firmware
        saw no turn at all."""
        q = self.queue
        while q and q[0][0] <= now:
            _, _, gpio, level = heapq.heappop(q)
            machine.drive(gpio, level)
            if self.paced:
                return

    def pending(self):
        return bool(self.queue)


def parse_script(text):
    """Lines of `TIME ACTION [ARG]`; TIME in ms from the start, or +ms after the previous line.

    Returns [(time_ms, action, arg)]. '#' starts a comment.

    `TIME menu ITEM [MS]` walks a menu just opened (at its first item) to the item
    named (connect4.app.menu.ITEMS: mode, level, ..., size, wifi, phones, stats, games, back), one
    right turn every MS ms (default MENU_STEP_MS), so a script names the item it
    wants rather than counting turns that a new item would shift; the next line's
    `+ms` counts from the last turn.
    """
    out = []
    t = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        try:
            when = words[0]
            t = t + int(when[1:]) if when.startswith("+") else int(when)
            action = words[1].lower()
            if action != "menu":
                arg = int(words[2]) if len(words) > 2 else 0
        except (IndexError, ValueError):
            raise ValueError("script line %d: expected 'TIME ACTION [ARG]', got %r" % (number, raw))
        if action == "menu":
            t = _menu_walk(out, t, words[2:], number)
            continue
        if action not in ACTIONS:
            raise ValueError("script line %d: unknown action %r (known: %s)" % (
                number, action, ", ".join(ACTIONS)))
        out.append((t, action, arg))
    return out


def _menu_walk(out, t, args, number):
    """`menu ITEM [MS]`: right turns from the first item to ITEM; the time of the last one."""
    from connect4.app.menu import ITEMS
    gap = args[1] if len(args) == 2 else str(MENU_STEP_MS)
    if not 1 <= len(args) <= 2 or args[0].lower() not in ITEMS or not gap.isdigit():
        raise ValueError("script line %d: expected 'TIME menu ITEM [MS]', ITEM one of %s" % (
            number, ", ".join(ITEMS)))
    gap = int(gap)
    for k in range(ITEMS.index(args[0].lower())):
        t += gap if k else 0
        out.append((t, "right", 0))
    return t


def now_ms():
    return CLOCK.now_us() // 1000


def board_mac(flash_dir):
    """The simulated radio's MAC for the board of this flash folder (host_sim's network stub):
    a board is its flash, so two simulated boards have two names (connect4-XXXX)."""
    import hashlib
    import network
    digest = hashlib.sha256(os.path.abspath(flash_dir).encode()).digest()
    network.world.mac = network.MAC[:4] + digest[:2]


class ChipPace:
    """--chip-speed: each poll of a search takes as long as `poll_interval` nodes on the chip.

    The firmware's search reads the SELECT pin once per poll (every
    `poll_interval` nodes, its poll hook). Each such read while the app is
    thinking waits on the simulator's clock until that many nodes at `rate`
    nodes/s have passed since the previous one: the virtual clock jumps
    ahead, the real one is slept. The firmware itself runs at host speed and
    knows nothing of it. Attach the app with `follow(app)`.
    """

    def __init__(self, cfg, rate):
        self.us_per_poll = cfg["poll_interval"] * 1000000 // rate
        self.app = None
        self.last = None
        select = cfg["button"] if cfg["input"] == "encoder" else cfg["drop"]
        machine.on_read(select, self._read)

    def follow(self, app):
        self.app = app
        self.last = None

    def _read(self):
        app = self.app
        if app is None or not app.turn.thinking:
            self.last = None
            return
        now = CLOCK.now_us()
        due = (now if self.last is None else self.last) + self.us_per_poll
        if due > now:
            CLOCK.sleep_us(due - now)
        self.last = CLOCK.now_us()


class Sim:
    """The firmware's drivers and app on the stubs and the virtual clock, stepped by hand.

    The app is built by connect4.app.assemble.build_app, as on the board. reset_cause:
    what the board's start reads from machine.reset_cause() (the stub's constants:
    PWRON_RESET, a power-on, by default; WDT_RESET or HARD_RESET: a start after a crash).
    """

    def __init__(self, flash_dir, preset="encoder", seed=1, overrides=None, chip_speed=True,
                 book_path="", reset_cause=machine.PWRON_RESET):
        from connect4 import hardware_setup
        from connect4.app.assemble import build_app
        from connect4.boot import wifi_link
        machine.reset_world(reset_cause)
        CLOCK.make_virtual(0)
        CLOCK.hooks[:] = [self._tick]
        # Wi-Fi turned on from the menu serves no page unless the overrides give a port
        # (then on loopback): a simulated world never takes the host's port 80 or its network.
        opts = {"flash_dir": os.path.join(flash_dir, ""), "seed": seed,
                "web_host": "127.0.0.1", "web_port": 0}
        opts.update(overrides or {})
        self.cfg = load_config(preset, opts)
        self.panel = Panel(self.cfg)
        self.controls = Controls(self.cfg)
        self.pace = None
        if chip_speed:
            rate = chip_nodes_per_second()
            if not rate:
                raise RuntimeError("chip_speed: this copy has no tools/data/chip.txt, the chip's speed record")
            self.pace = ChipPace(self.cfg, rate)
        self.hw = hardware_setup.build(self.cfg)
        self.games = []
        self.app = build_app(self.cfg, self.hw, clock=time, seed=seed, listener=self._listen,
                             book_path=book_path, wifi=wifi_link)
        self.store = self.app.store
        if self.pace is not None:
            self.pace.follow(self.app)
        self.app.start()

    def _listen(self, kind, data):
        if kind == "game":
            self.games.append(data)

    def status(self):
        """The simulator's status line (host_sim.status)."""
        from host_sim.status import status_line
        return status_line(self.app, self.games[-1] if self.games else None, self.store.save_error)

    def _tick(self):
        self.controls.advance(now_ms())
        machine.run_pending()

    def close(self):
        link = getattr(self.app, "link", None)
        if link is not None:
            link.off()  # its server's socket is closed with the world
        CLOCK.hooks[:] = []
        CLOCK.make_real()

    def act(self, action, arg=0, delay=0):
        """Schedule an action `delay` ms from now; returns the virtual ms when it ends."""
        return self.controls.act(action, now_ms() + delay, arg)

    def step(self):
        self.app.step()
        time.sleep_ms(self.cfg["loop_ms"])

    def run_for(self, ms):
        end = now_ms() + ms
        while now_ms() < end:
            self.step()

    def run_until(self, condition, limit_ms=60000):
        end = now_ms() + limit_ms
        while not condition():
            if now_ms() >= end:
                raise AssertionError("condition not met within %d ms (%s)" % (limit_ms, self.status()))
            self.step()

    def do(self, action, arg=0, settle=60):
        """Perform an action and run until it is over, plus `settle` ms."""
        end = self.act(action, arg)
        self.run_for(end - now_ms() + settle)


def chip_nodes_per_second():
    """The chip's search speed for --chip-speed: tools.common.chip_nodes_per_second(), the one
    source (tools/data/chip.txt's record); None in a copy of host_sim and firmware/ without
    tools/ (a maker's build), which has no record to pace the search by."""
    try:
        from tools.common import chip_nodes_per_second as recorded
    except ImportError:
        return None
    return recorded()
