"""The one place that touches `machine` and `neopixel`: builds the drivers.

Everything above this layer receives the objects built here (a Display, an
Input, an optional watchdog, whether the chip started after a crash) and
never imports `machine`. The simulator runs
this very module against its stubs of `machine` and `neopixel`.
"""
import machine
import neopixel

from connect4.hw.display import Display, led_map, brightness_for
from connect4.hw.input import Button, Encoder, Input

# NeoPixel.ORDER: where each of R, G, B (, W) goes in an LED's bytes
_RESTART = b"restart"  # in the RTC's memory: the reset was the board's own (Hardware.restart)
COLOR_ORDERS = {
    "RGB": (0, 1, 2, 3), "RBG": (0, 2, 1, 3), "GRB": (1, 0, 2, 3),
    "GBR": (2, 0, 1, 3), "BRG": (1, 2, 0, 3), "BGR": (2, 1, 0, 3),
}


class Hardware:
    """What the app is built on: a Display, an Input, the watchdog once armed, and
    `after_crash`: does this start follow a crash (connect4.app.resume counts those)?"""

    def __init__(self, cfg, display, inp):
        self.cfg = cfg
        self.display = display
        self.input = inp
        self.wdt = None
        # The ESP32 port (ports/esp32/modmachine.c) says HARD_RESET after a panic, after
        # MicroPython's fatal error and after machine.reset() (ESP_RST_PANIC, ESP_RST_SW;
        # connect4.boot restarts the app in place after an error and sets this itself),
        # WDT_RESET after the watchdog. Power-on and brownouts (PWRON_RESET), Ctrl-D
        # (SOFT_RESET) and a reset from USB (0) are no crash, and neither is the board's own
        # `restart`, which says so in the RTC's memory (kept through a reset, not a power-on).
        rtc = machine.RTC()
        asked = rtc.memory() == _RESTART
        if asked:
            rtc.memory(b"")
        cause = machine.reset_cause()
        self.after_crash = not asked and (cause == machine.HARD_RESET or cause == machine.WDT_RESET)

    def restart(self):
        """Reset the chip, as its button does, marked as no crash: the board starts anew, the
        GC heap whole (connect4.boot, once a network joined through Improv is answered:
        connect4.net.improv). Never returns."""
        machine.RTC().memory(_RESTART)
        machine.reset()

    def start_watchdog(self):
        """Arm the hardware watchdog if configured (never in safe mode: it would reset the REPL)."""
        if self.cfg.get("watchdog_ms") and self.wdt is None:
            self.wdt = machine.WDT(timeout=max(1000, int(self.cfg["watchdog_ms"])))
        return self.wdt


def _button(cfg, gpio, repeat_ms=0):
    pin = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
    return Button(pin.value, active_low=True, debounce_ms=cfg["debounce_ms"],
                  long_ms=cfg["long_press_ms"], repeat_ms=repeat_ms)


def build_display(cfg):
    """The NeoPixel strip and its Display from the panel entries of a config dict."""
    width, height = cfg["width"], cfg["height"]
    strip = neopixel.NeoPixel(machine.Pin(cfg["led_pin"], machine.Pin.OUT), width * height)
    order = cfg.get("color_order", "GRB")
    if order not in COLOR_ORDERS:
        raise ValueError("color_order must be one of " + ", ".join(sorted(COLOR_ORDERS)))
    strip.ORDER = COLOR_ORDERS[order]
    mapping = led_map(width, height, cfg["serpentine"], cfg["rotation"], cfg["flip_x"], cfg["flip_y"])
    return Display(strip, width, height, mapping, brightness_for(cfg["brightness_level"]),
                   cfg["current_budget_ma"], cfg["ma_per_channel"], cfg["idle_ma_per_led"])


def build(cfg):
    """Construct every Pin, the NeoPixel strip and the drivers from a config dict."""
    display = build_display(cfg)
    if cfg["input"] == "encoder":
        a = machine.Pin(cfg["enc_a"], machine.Pin.IN, machine.Pin.PULL_UP)
        b = machine.Pin(cfg["enc_b"], machine.Pin.IN, machine.Pin.PULL_UP)
        inp = Input(_button(cfg, cfg["button"]),
                    encoder=Encoder(a.value, b.value, cfg["encoder_reverse"]))
    elif cfg["input"] == "buttons":
        repeat = cfg["repeat_ms"]
        inp = Input(_button(cfg, cfg["drop"]), left=_button(cfg, cfg["left"], repeat),
                    right=_button(cfg, cfg["right"], repeat))
    else:
        raise ValueError("input must be 'encoder' or 'buttons'")
    return Hardware(cfg, display, inp)
