"""The board's configuration: hardware presets and options, all in one place.

Edit PRESET (or the preset's entries) for your build; `get()` merges the
common options, the preset and any overrides into one dict. Only
connect4/hardware_setup.py turns pin numbers into machine.Pin objects.

Presets
  encoder  the reference build: LOLIN C3 Mini, 8x8 WS2812B panel (data on
           GPIO4, progressive wiring), rotary encoder A/B on GPIO0/GPIO1 and
           its push button on GPIO2. Turn = move, press = drop or confirm,
           long press = menu.
  buttons  three push buttons LEFT / DROP / RIGHT wired to GND (internal
           pull-ups) on GPIO0 / GPIO1 / GPIO3, same events.

GPIO2 is an ESP32-C3 strapping pin (it must read high while the chip
resets), so safe mode does not rely on holding the button through reset:
hold it during the first second after power-on instead (see docs/playing.md).

Panel geometry: `width` x `height` is the matrix as the player sees it (8x8;
7x7, or a bare 7x6 strip, also work). The LED chain is described by
`serpentine` (every other row runs backwards), `rotation` (0/90/180/270:
how far the panel's first row is turned clockwise from the top) and the
flips, which are applied first. `color_order` is the LEDs' byte order.
"""

PRESET = "encoder"

COMMON = {
    # panel
    "led_pin": 4,
    "width": 8,
    "height": 8,
    "serpentine": False,
    "rotation": 0,
    "flip_x": False,
    "flip_y": False,
    "color_order": "GRB",
    "brightness_level": 4,  # 1..7 (menu), the default until the player changes it
    "current_budget_ma": 400,  # safe on USB; the limiter scales frames down to it
    "ma_per_channel": 20,  # a WS2812B channel at full duty
    "idle_ma_per_led": 1,  # quiescent draw of one LED
    # input
    "debounce_ms": 50,
    "long_press_ms": 800,
    "repeat_ms": 0,  # auto-repeat of held LEFT/RIGHT buttons (0 = off)
    "encoder_reverse": False,
    # timing
    "loop_ms": 2,  # main loop period: also the encoder's sampling period
    "idle_dim_ms": 120000,  # dim the matrix after this long without input (0 = never)
    "demo_idle_ms": 300000,  # start the demo after this idle time in the menu or after a game (0 = never)
    "demo_idle_game_ms": 0,  # ... and during a game in progress (0 = never, the default)
    "ai_min_think_ms": 400,  # the AI's disc pulses at least this long (a move is never instant)
    "demo_move_ms": 700,  # pace of demo moves
    # AI: the poll hook runs every `poll_interval` nodes. Measured on the real
    # C3 firmware (1.28.0, in an emulator), 256 nodes put the button reads
    # 9-14 ms apart (14-20 ms with the thinking pulse, 23-34 ms for a search's
    # first interval): a press is noticed well within 50 ms. (The simulator's
    # --chip-speed paces the search by tools/data/chip.txt, the instructions
    # per node counted on the emulated chip, at the slow end of its speed.)
    # The levels are node budgets; the time cap is only a safety net that
    # stops a search running this long (0 = none).
    "poll_interval": 256,
    "ai_time_cap_ms": 10000,
    # The search's table: 1024 entries, 5 KB (2048 kept the budget of 90 KB out of reach once
    # the board sizes came; against people it played as well: docs/ai.md#the-table)
    "tt_entries": 1024,
    # system
    "watchdog_ms": 0,  # hardware watchdog timeout (0 = off); fed by the main loop and the search
    "safe_mode_ms": 1000,  # hold the button this long after power-on: no game, REPL free
    "seed": None,  # AI and demo randomness; None = a fresh seed at every power-on
    "flash_dir": "",  # where settings and the error log live ("" = the flash root)
    # Wi-Fi (the menu's switch, saved: on again at the next start if on): the web page and API
    "web_host": "0.0.0.0",
    "tt_entries_wifi": 1024,  # the AI's table while Wi-Fi is on: the same, so it plays the same
    "web_port": 80,  # 0: no page served (the simulator without --web)
    # below this many bytes free in the ESP-IDF heap (lwIP's and the Wi-Fi driver's), the
    # server answers new connections 503 and the page and matrix say the board is short of memory
    "net_min_free": 12288,
    # "board_find" (not set: connect4.net.finder's BROADCAST): where a game of two boards (the menu's
    # "play a board") looks for other boards, UDP at the page's port, ("HOST" or "HOST:PORT", ...):
    # boards a broadcast does not reach (another emulator's, another subnet's) by their address.
    # Left out of the resident dict: a board that serves phones only pays nothing for it.
}

PRESETS = {
    "encoder": {
        "input": "encoder",
        "enc_a": 0,
        "enc_b": 1,
        "button": 2,
    },
    "buttons": {
        "input": "buttons",
        "left": 0,
        "drop": 1,
        "right": 3,
        "repeat_ms": 180,
    },
}


def get(preset=None, overrides=None):
    """The merged configuration dict of `preset` (default PRESET)."""
    name = preset or PRESET
    if name not in PRESETS:
        raise ValueError("unknown preset %r (have: %s)" % (name, ", ".join(sorted(PRESETS))))
    cfg = dict(COMMON)
    cfg.update(PRESETS[name])
    cfg["preset"] = name
    if overrides:
        cfg.update(overrides)
    return cfg
