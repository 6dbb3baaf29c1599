"""The red cross lit for good: when the game cannot go on, or config.py cannot be read.

Imported by connect4.boot only then, so it costs no heap otherwise, and it
imports nothing of boot (boot logs the error first). PANEL is the panel of
config.py's default preset (tests check they match): the red cross reaches the
reference build even without a config, or when config.py's own panel never builds.
"""
from connect4.app.render import draw_error

PANEL = {
    "led_pin": 4, "width": 8, "height": 8, "serpentine": False, "rotation": 0,
    "flip_x": False, "flip_y": False, "color_order": "GRB", "brightness_level": 4,
    "current_budget_ma": 400, "ma_per_channel": 20, "idle_ma_per_led": 1,
}


def unreadable_config(exc, log):
    """Light the red cross on PANEL, print what to do (boot has logged `exc` in `log`);
    returns "config"."""
    print("connect4: config.py cannot be read (%r); see %s and the REPL, fix config.py, reset" % (
        exc, log))
    show_cross()
    return "config"


def show_cross(display=None):
    """The red cross, lit for good, on `display`, or else on PANEL; never raises."""
    try:
        if display is None:
            from connect4 import hardware_setup
            display = hardware_setup.build_display(PANEL)
        draw_error(display, True)
        display.show()
    except Exception:
        pass
