"""The whole board in real MicroPython: boot (what main.py runs), hardware_setup,
drivers and app on host_sim's machine/neopixel stubs, driven through the pins;
then a second boot finds the saved settings."""
import os

import pytest

from tools import mpvm

pytestmark = pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")

STUBS = os.path.join(mpvm.ROOT, "host_sim", "stubs")

SCRIPT = """
import sys, os, time
sys.path.append('/stubs')  # after the VM's built-in modules: its own micropython stays
import machine
import config
from connect4 import boot
try:
    os.mkdir('/flash')
except OSError:
    pass
A, B, BUTTON = 0, 1, 2
PLAY, MENU = 1, 5


def human(app):
    return app is not None and app.state == PLAY and not app.ai_to_move()


def menu(app):
    return app is not None and app.state == MENU


APPS = []


def listen(kind, data):
    if kind == "app":
        APPS.append(data)


def current():
    return APPS[-1] if APPS else None


def run(steps, until_ms):
    # steps: (when, gpio, level); when is a predicate on the app, or ms after the last step
    cfg = config.get("encoder", {"safe_mode_ms": 50, "flash_dir": "/flash/", "seed": 5})
    frames = []
    machine.listen(4, frames.append)
    pending = list(steps)
    last = [time.ticks_ms()]

    def stop():  # called once per loop iteration: one pin change at most
        now = time.ticks_ms()
        if pending:
            when, gpio, level = pending[0]
            due = when(current()) if callable(when) else time.ticks_diff(now, last[0]) >= when
            if due:
                pending.pop(0)
                machine.drive(gpio, level)
                last[0] = now
            return False
        return time.ticks_diff(now, last[0]) > until_ms
    result = boot.main(cfg, listen, stop=stop)
    return result, len(frames)


def click(when):
    return [(when, BUTTON, 0), (150, BUTTON, None)]


def turn_right(when):  # clockwise: B closes first
    return [(when, B, 0), (15, A, 0), (15, B, None), (15, A, None)]


first = click(human)  # drop in the centre
first += [(human, BUTTON, 0), (1100, BUTTON, None)]  # long press: the menu
first += turn_right(menu) + click(100)  # the level item; change it
first += turn_right(100) + turn_right(100) + click(100)  # level 6, confirm
first += [(200, BUTTON, 0), (1100, BUTTON, None)]  # long press: close, a new game
result, frames = run(first, 300)
app = current()
files = os.listdir("/flash")  # game.txt: the new game's first move, if the AI has made it
print("first", result, frames > 20, app.settings["level"], app.board.count <= 1,
      ("game.txt" in files) == (app.board.count == 1), sorted(f for f in files if f != "game.txt"))
print("record", open("/flash/games.txt").read().split(" ")[4])  # the game left for a new one
machine.reset_world()
result, frames = run([], 200)
print("second", result, current().store.status, current().settings["level"])
"""


def test_the_board_boots_plays_and_keeps_settings_in_micropython(tmp_path):
    (tmp_path / "main.py").write_text(SCRIPT)
    r = mpvm.run(tmp_path / "main.py", paths=[(STUBS, "/stubs"), (tmp_path, "/t")], grow=True,
                 timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "first stopped True 6 True True ['connect4.json', 'games.txt']", r.stdout  # a new game
    assert lines[1] == "record a", r.stdout  # the game left for it: recorded, abandoned
    assert lines[2] == "second stopped ok 6", r.stdout
