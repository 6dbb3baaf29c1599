"""When config.py cannot be read, or its hardware never builds: the red cross on the default panel.

Imported by connect4.boot only then, so it costs no heap otherwise. PANEL is
the panel of config.py's default preset (tests check they match): the red
cross reaches the reference build even without a config.
"""
from connect4 import boot, hardware_setup

PANEL = {
    "led_pin": 4, "width": 8, "height": 8, "serpentine": False, "rotation": 0,
    "flip_x": False, "flip_y": False, "color_order": "GRB", "brightness_level": 4,
    "current_budget_ma": 400, "ma_per_channel": 20, "idle_ma_per_led": 1,
}


def unreadable_config(exc, flash_dir=""):
    """Log `exc`, light the red cross on PANEL, print what to do; returns "config"."""
    boot.log_error(flash_dir + boot.ERROR_LOG, exc)
    print("connect4: config.py cannot be read (%r); see %s and the REPL, fix config.py, reset" % (
        exc, boot.ERROR_LOG))
    show_cross()
    return "config"


def show_cross():
    """The red cross on PANEL; never raises (used when config.py's own panel cannot be built)."""
    try:
        boot.show_cross(hardware_setup.build_display(PANEL))
    except Exception:
        pass
