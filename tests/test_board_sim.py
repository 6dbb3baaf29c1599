"""The firmware on host_sim's stubs: machine/neopixel semantics, whole-board runs,
settings across reboots, safe mode, crash recovery, the headless simulator."""
import json
import os
import subprocess
import sys

import pytest

import machine
import neopixel
from host_sim.clock import CLOCK
from host_sim.world import Sim, Controls, Panel, parse_script, now_ms, load_config
from connect4 import boot
from connect4.app import menu as menu_mod, stats
from connect4.app.game import PLAY, OVER
from fakes import hue, assert_board_shown

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def sim(tmp_path):
    sims = []

    def make(**kw):
        s = Sim(str(tmp_path / "flash"), **kw)
        sims.append(s)
        return s
    os.makedirs(tmp_path / "flash", exist_ok=True)
    yield make
    for s in sims:
        s.close()


@pytest.fixture
def virtual_clock():
    machine.reset_world()
    CLOCK.make_virtual(0)
    yield CLOCK
    CLOCK.hooks[:] = []
    CLOCK.make_real()


# ---- the stubs behave like the real modules

def test_neopixel_writes_only_on_write_in_its_colour_order(virtual_clock):
    frames = []
    machine.listen(5, frames.append)
    np = neopixel.NeoPixel(machine.Pin(5), 3)
    np[0] = (1, 2, 3)
    np.fill((9, 8, 7))
    assert frames == [] and len(np) == 3
    assert bytes(np.buf) == bytes([8, 9, 7] * 3)  # GRB on the wire
    np[1] = (255, 0, 0)
    assert np[1] == (255, 0, 0)
    np.write()
    assert frames == [bytes([8, 9, 7, 0, 255, 0, 8, 9, 7])]
    np.ORDER = (0, 1, 2, 3)
    np[2] = (1, 2, 3)
    np.write()
    assert frames[-1][6:] == bytes([1, 2, 3])


def test_pins_pull_ups_external_drive_and_soft_irqs(virtual_clock):
    p = machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UP)
    q = machine.Pin(3, machine.Pin.IN)
    assert p.value() == 1 and q.value() == 0 and p() == 1
    seen = []
    p.irq(lambda pin: seen.append(pin.value()), machine.Pin.IRQ_FALLING)
    machine.drive(2, 0)
    assert p.value() == 0 and machine.Pin(2).value() == 0
    assert seen == []  # soft: runs at the firmware's next sleep
    import time
    CLOCK.hooks[:] = [machine.run_pending]
    time.sleep_ms(1)
    assert seen == [0]
    machine.drive(2, None)
    time.sleep_ms(1)
    assert seen == [0] and p.value() == 1  # a rising edge does not match the trigger
    out = machine.Pin(4, machine.Pin.OUT, value=1)
    assert out.value() == 1
    out.off()
    assert out.value() == 0


def test_reset_cause_says_what_restarted_the_board(virtual_clock):
    """The ESP32 port's constants; a new world is a power-on, machine.reset() leaves
    HARD_RESET for the next start, the watchdog WDT_RESET."""
    assert (machine.PWRON_RESET, machine.HARD_RESET, machine.WDT_RESET, machine.DEEPSLEEP_RESET,
            machine.SOFT_RESET) == (1, 2, 3, 4, 5)
    assert machine.reset_cause() == machine.PWRON_RESET
    with pytest.raises(machine.Reset):
        machine.reset()
    assert machine.reset_cause() == machine.HARD_RESET
    machine.WDT(timeout=1000)
    import time
    time.sleep_ms(1500)
    with pytest.raises(machine.WatchdogReset):
        machine.check_watchdogs()
    assert machine.reset_cause() == machine.WDT_RESET
    machine.reset_world()
    assert machine.reset_cause() == machine.PWRON_RESET
    machine.reset_world(machine.WDT_RESET)
    assert machine.reset_cause() == machine.WDT_RESET
    machine.reset_world()


@pytest.mark.parametrize("cause, crashed", [
    ("PWRON_RESET", False), ("HARD_RESET", True), ("WDT_RESET", True), ("SOFT_RESET", False),
    ("DEEPSLEEP_RESET", False), (None, False)])  # None: 0, a reset the port does not name (USB)
def test_the_hardware_says_whether_the_chip_started_after_a_crash(virtual_clock, cause, crashed):
    from connect4 import hardware_setup
    machine.reset_world(getattr(machine, cause) if cause else 0)
    hw = hardware_setup.build(load_config("encoder"))
    assert hw.after_crash is crashed
    machine.reset_world()


def test_watchdog_resets_when_not_fed(virtual_clock):
    import time
    w = machine.WDT(timeout=1000)
    time.sleep_ms(900)
    w.feed()
    time.sleep_ms(900)
    machine.check_watchdogs()
    time.sleep_ms(200)
    with pytest.raises(machine.WatchdogReset):
        machine.check_watchdogs()


def test_script_parsing():
    steps = parse_script("# demo\n500 right\n+100 press\n+50 hold 900  # long\n3000 quit\n")
    assert steps == [(500, "right", 0), (600, "press", 0), (650, "hold", 900), (3000, "quit", 0)]
    with pytest.raises(ValueError, match="line 1"):
        parse_script("soon press")
    with pytest.raises(ValueError, match="unknown action"):
        parse_script("10 jump")


# ---- whole board, through hardware_setup and the stubs

def test_a_full_game_against_the_ai_on_the_encoder_build(sim):
    s = sim(seed=5)
    s.store.settings.update({"level": 2, "first": "red"})
    s.run_for(1600)
    while s.app.state != OVER:
        s.run_until(lambda: s.app.state == OVER or (s.app.state == PLAY and not s.app.ai_to_move()))
        if s.app.state == OVER:
            break
        assert_board_shown(s.app, s.panel.rgb)
        legal = s.app.board.legal_moves()
        target = legal[s.app.board.count % len(legal)]
        while s.app.cursor != target:
            s.do("right" if target > s.app.cursor else "left", settle=10)
        count = s.app.board.count
        s.do("press")
        assert s.app.board.count == count + 1
    assert len(s.games) == 1 and sum(s.store.stats["ai"][1]) == 1


def test_two_players_on_the_three_button_build(sim):
    s = sim(preset="buttons")
    s.store.settings.update({"mode": "two", "first": "red"})
    s.run_for(1600)
    for col in (3, 3, 4, 4, 5, 5, 6):  # red completes the bottom row 4-7
        while s.app.cursor != col:
            s.do("right" if col > s.app.cursor else "left", settle=40)
        s.do("press")
        s.run_until(lambda: s.app.state in (PLAY, OVER))
    assert s.app.state == OVER and s.games[-1]["winner"] == 0
    assert s.store.stats["two"] == [1, 0, 0]


def test_bounce_and_mashing_through_the_stubs(sim):
    s = sim()
    s.store.settings.update({"mode": "two"})
    s.run_for(1600)
    for _ in range(2):
        s.do("bounce-right", settle=10)
    assert s.app.cursor == 5
    s.do("bounce-press")
    s.run_until(lambda: s.app.state == PLAY)
    assert s.app.board.moves_string() == "6"


def run_board(flash, stop_ms, script=(), preset="encoder", overrides=None, gpio4=None, until=None,
              cause=machine.PWRON_RESET):
    """boot.main() (what main.py runs) on the virtual clock until stop_ms, or until
    until(apps, games) is true; the chip started for `cause` (machine.reset_cause()).

    Returns (result, panel); panel.frames_seen: every frame shown, panel.apps:
    the apps boot started (its "app" events), panel.games: the games played.
    gpio4: a list that also gets the raw frames sent on GPIO4 (the default panel)."""
    machine.reset_world(cause)
    CLOCK.make_virtual(0)
    if gpio4 is not None:
        machine.listen(4, gpio4.append)
    cfg = load_config(preset, dict({"flash_dir": flash, "seed": 3}, **(overrides or {})))
    panel = Panel(cfg)
    frames = []
    panel.listeners.append(frames.append)
    controls = Controls(cfg)
    for t, action, arg in script:
        controls.act(action, t, arg)

    def tick():
        controls.advance(now_ms())
        machine.check_watchdogs()
    CLOCK.hooks[:] = [tick]
    apps, games = [], []

    def listen(kind, data):
        (apps if kind == "app" else games if kind == "game" else []).append(data)
    try:
        result = boot.main(cfg, listen, stop=lambda: now_ms() >= stop_ms or (
            until is not None and until(apps, games)))
    finally:
        CLOCK.hooks[:] = []
        CLOCK.make_real()
    panel.frames_seen = frames
    panel.apps = apps
    panel.games = games
    return result, panel


def test_settings_survive_a_reboot(tmp_path):
    flash = str(tmp_path) + "/"
    # long press: menu; right: level; press: change; right x3: level 7; press; long: close
    script = [(2500, "long", 0), (3800, "right", 0), (4000, "press", 0)]
    script += [(4300 + 100 * i, "right", 0) for i in range(3)]
    script += [(4800, "press", 0), (5200, "long", 0)]
    result, _ = run_board(flash, 7000, script)
    assert result == "stopped"
    saved = json.load(open(flash + "connect4.json"))
    assert saved["settings"]["level"] == 7
    _, panel = run_board(flash, 3000)
    app = panel.apps[-1]
    assert app.settings["level"] == 7 and app.store.status == "ok"


def test_a_corrupt_settings_file_is_recovered_at_boot(tmp_path):
    flash = str(tmp_path) + "/"
    with open(flash + "connect4.json", "w") as f:
        f.write('{"version": 1, "settings": {"level": 5')
    result, panel = run_board(flash, 3000)
    app = panel.apps[-1]
    assert result == "stopped" and app.store.status == "corrupt"
    assert app.settings["level"] == 4
    assert open(flash + "connect4.json.bad").read().startswith('{"version": 1')
    assert any(any(p) for p in panel.pixels)  # the game runs


def test_safe_mode_skips_the_game(tmp_path, capsys):
    flash = str(tmp_path) + "/"
    result, panel = run_board(flash, 5000, [(0, "hold", 1000)])
    assert result == "safe"
    assert "safe mode" in capsys.readouterr().out
    assert not any(any(p) for p in panel.pixels)
    assert not os.path.exists(flash + "connect4.json")


def test_a_crash_is_logged_shown_and_the_app_restarts(tmp_path, monkeypatch):
    from connect4.app import game
    flash = str(tmp_path) + "/"
    crashes = []
    real = game.App.new_game

    def flaky(self, now, mode=-1):
        if not crashes:
            crashes.append(now)
            raise RuntimeError("boom")
        return real(self, now, mode)
    monkeypatch.setattr(game.App, "new_game", flaky)
    result, panel = run_board(flash, 8000, overrides={"watchdog_ms": 3000})
    log = open(flash + "error.log").read()
    assert "RuntimeError: boom" in log and "flaky" in log
    assert result == "stopped" and panel.apps[-1].state == PLAY  # restarted and playing
    assert len(panel.apps) == 2
    cross = [f for f in panel.frames_seen if f[0] == f[9] == f[63] == f[7] != (0, 0, 0)]
    assert cross and hue(cross[0][0]) == "red"  # the red cross was shown


def test_headless_simulator_prints_games_and_records(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("0 wait\n")
    gif = tmp_path / "demo.gif"
    r = subprocess.run([sys.executable, "-m", "host_sim.sim", "--headless", "--mode", "demo",
                        "--seed", "4", "--flash", str(tmp_path / "flash"), "--games", "1",
                        "--script", str(script), "--record", str(gif)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "game 1, demo: red (level " in r.stdout and "moves " in r.stdout
    from PIL import Image
    with Image.open(gif) as im:
        assert im.n_frames > 20 and im.size[0] > 100


# ---- configuration

def test_the_poll_interval_reacts_within_50_ms_on_the_chip():
    from tools.common import chip_nodes_per_second
    cfg = load_config("encoder")
    rate = chip_nodes_per_second()
    assert 5000 < rate < 60000  # a record out of this range is a misrecord (30,157 on 2026-11-28)
    assert cfg["poll_interval"] * 1000 / rate <= 25  # half the 50 ms budget per poll


@pytest.mark.parametrize("overrides", [
    {},
    {"width": 7, "height": 7},
    {"width": 7, "height": 6, "serpentine": True, "rotation": 180},
    {"rotation": 90, "flip_x": True, "color_order": "RGB"},
])
@pytest.mark.parametrize("preset", ["encoder", "buttons"])
def test_presets_and_panels_build_and_play(sim, preset, overrides):
    s = sim(preset=preset, overrides=overrides)
    s.store.settings.update({"mode": "two"})
    s.run_for(1600)
    s.do("right")
    s.do("press")
    s.run_until(lambda: s.app.state == PLAY)
    assert s.app.board.moves_string() == "5"
    # the panel, decoded with the config's wiring and colour order, shows it
    assert hue(s.panel.rgb(4, s.app.layout.cell_y(0))) == "red"


def test_config_rejects_unknown_presets_and_orders():
    with pytest.raises(ValueError, match="unknown preset"):
        load_config("joystick")
    from connect4 import hardware_setup
    machine.reset_world()
    with pytest.raises(ValueError, match="color_order"):
        hardware_setup.build(load_config("encoder", {"color_order": "XYZ"}))


# ---- boot hardening: everything main.py runs is inside the error handling

def test_a_failing_first_led_write_is_logged_shown_and_retried(tmp_path, monkeypatch, capsys):
    flash = str(tmp_path) + "/"
    real = neopixel.NeoPixel.write
    failures = []

    def flaky(self):
        if not failures:  # the very first write: the safe-mode window's corners
            failures.append(1)
            raise OSError("RMT allocation failed")
        return real(self)
    monkeypatch.setattr(neopixel.NeoPixel, "write", flaky)
    result, panel = run_board(flash, 6000)
    assert "RMT allocation failed" in open(flash + "error.log").read()
    assert "crashed" in capsys.readouterr().out
    assert result == "stopped" and panel.apps and panel.apps[-1].state == PLAY  # then it played


def test_a_bad_led_pin_is_logged_and_stops_after_the_crash_limit(tmp_path):
    flash = str(tmp_path) + "/"
    frames = []  # the default preset's data pin: the fallback panel
    result, _ = run_board(flash, 60000, overrides={"led_pin": 40}, gpio4=frames)
    assert result == "crashed"
    log = open(flash + "error.log").read()
    assert log.count("ValueError: invalid pin") == boot.MAX_CRASHES
    assert frames and any(frames[-1][3 * 9:3 * 9 + 3])  # the red cross's diagonal, on GPIO4


def run_main_py(tmp_path, config_text):
    """firmware/main.py, as the board runs it, with this config.py; returns (result, frames on GPIO4)."""
    import runpy
    cfgdir = tmp_path / "cfg"
    cfgdir.mkdir()
    (cfgdir / "config.py").write_text(config_text)
    saved = sys.modules.pop("config", None)
    sys.path.insert(0, str(cfgdir))
    machine.reset_world()
    CLOCK.make_virtual(0)
    frames = []
    machine.listen(4, frames.append)
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the flash root: error.log lands here
    try:
        runpy.run_path(os.path.join(ROOT, "firmware", "main.py"), run_name="__main__")
    finally:
        os.chdir(cwd)
        sys.path.remove(str(cfgdir))
        sys.modules.pop("config", None)
        if saved is not None:
            sys.modules["config"] = saved
        CLOCK.make_real()
    return frames


@pytest.mark.parametrize("text, why", [
    ("PRESET = 'encoder'\nCOMMON = {\n", "SyntaxError"),
    ("def get(preset=None, overrides=None):\n    raise ValueError(\"unknown preset 'joystik'\")\n", "unknown preset"),
])
def test_a_bad_config_py_is_logged_and_shown_on_the_default_panel(tmp_path, capsys, text, why):
    frames = run_main_py(tmp_path, text)
    assert why in (tmp_path / "error.log").read_text()
    assert "config.py cannot be read" in capsys.readouterr().out
    from connect4.hardware_setup import COLOR_ORDERS
    o = COLOR_ORDERS["GRB"]
    lit = [i for i in range(64) if any(frames[-1][3 * i:3 * i + 3])]
    assert lit and all(frames[-1][3 * i + o[0]] and not frames[-1][3 * i + o[1]] for i in lit)  # red
    assert 0 in lit and 63 in lit and 9 in lit  # the cross's diagonal


def test_the_fallback_panel_is_the_default_presets_panel():
    from connect4.fallback import PANEL as panel
    cfg = load_config(None)
    assert {k: cfg[k] for k in panel} == panel


# ---- the hardware test, reached at power-on

def test_holding_the_button_3_s_at_power_on_runs_the_hardware_test(tmp_path, capsys):
    from connect4.app import hwtest
    flash = str(tmp_path) + "/"
    # hold 3.5 s (safe mode at 0.3 s, the test at 3 s), then turn left, hold SELECT, long press
    script = [(0, "hold", 3500), (6000, "left", 0), (7000, "down", 0), (7300, "up", 0),
              (9000, "long", 0)]
    result, panel = run_board(flash, 20000, script)
    assert result == "hwtest" and "hardware test" in capsys.readouterr().out
    assert not panel.apps and not os.path.exists(flash + "connect4.json")  # no game, no settings
    full = [f for f in panel.frames_seen if len(set(f)) == 1 and f[0] != (0, 0, 0)]
    hues = []
    for f in full:
        r, g, b = f[0]
        assert max(r, g, b) <= hwtest.BRIGHTNESS  # low brightness
        name = {(1, 0, 0): "red", (0, 1, 0): "green", (0, 0, 1): "blue", (1, 1, 1): "white"}[
            (r > 0, g > 0, b > 0)]
        if not hues or hues[-1] != name:
            hues.append(name)
    assert hues[:4] == ["red", "green", "blue", "white"]
    magenta = [f for f in panel.frames_seen if f[0][0] and f[0][2] and not f[0][1]]
    centre = [f for f in panel.frames_seen if f[27][0] and f[27][2] and not f[27][1]]
    assert magenta and centre  # LEFT lit the top-left corner, SELECT the centre
    assert panel.frames_seen[-1] == [(0, 0, 0)] * 64  # a long press left it, dark


def failing_writes_from(monkeypatch, count):
    """The NeoPixel driver's write() fails from its `count`-th call on (1-based)."""
    real = neopixel.NeoPixel.write
    calls = []

    def flaky(self):
        calls.append(1)
        if len(calls) >= count:
            raise OSError("the LED write failed")
        return real(self)
    monkeypatch.setattr(neopixel.NeoPixel, "write", flaky)


def test_safe_mode_is_kept_when_the_display_fails_after_the_gesture(tmp_path, monkeypatch, capsys):
    """Writes 1-2 draw the power-on corners; the 3rd (safe mode's dark panel) fails:
    the board stays in safe mode, it never starts the game instead."""
    flash = str(tmp_path) + "/"
    failing_writes_from(monkeypatch, 3)
    result, panel = run_board(flash, 20000, [(0, "hold", 1000)])
    assert result == "safe" and not panel.apps
    assert "the LED write failed" in open(flash + "error.log").read()
    assert "safe mode" in capsys.readouterr().out


def test_the_hardware_test_is_kept_when_the_display_fails_during_it(tmp_path, monkeypatch):
    flash = str(tmp_path) + "/"
    failing_writes_from(monkeypatch, 5)  # a few frames into the hardware test
    result, panel = run_board(flash, 20000, [(0, "hold", 3500)])
    assert result == "hwtest" and not panel.apps
    assert "the LED write failed" in open(flash + "error.log").read()


def test_releasing_the_button_before_3_s_is_safe_mode(tmp_path):
    result, _ = run_board(str(tmp_path) + "/", 8000, [(0, "hold", 2000)])
    assert result == "safe"


# ---- the app as the board builds it, in the simulator too

def test_the_simulator_honours_the_configs_brightness(sim):
    from connect4.hw.display import brightness_for
    s = sim(overrides={"brightness_level": 2})
    assert s.store.settings["brightness"] == 2
    assert s.app.display.brightness == brightness_for(2)


def test_a_folder_in_place_of_the_settings_file_is_said_once(tmp_path, capsys):
    from host_sim.status import status_line
    flash = tmp_path / "flash"
    (flash / "connect4.json").mkdir(parents=True)
    s = Sim(str(flash), seed=2)
    try:
        s.store.settings.update({"mode": "two", "first": "red"})
        s.run_for(1600)
        for col in (3, 3, 4, 4, 5, 5, 6, 0, 0):  # red wins on the bottom row, then a second game
            while s.app.cursor != col:
                s.do("right" if col > s.app.cursor else "left", settle=40)
            s.do("press")
            s.run_until(lambda: s.app.state in (PLAY, OVER))
            if s.app.state == OVER:
                s.do("press")
                s.run_until(lambda: s.app.state == PLAY)
        out = capsys.readouterr().out
        assert out.count("not saved") == 1 and "connect4.json" in out
        assert "not saved" in s.status() and "a folder is in the way" in s.status()
        assert s.store.stats["two"] == [1, 0, 0]  # kept in memory all the same
    finally:
        s.close()


def test_the_status_line_says_who_won_and_no_internal_values(sim):
    s = sim(seed=4)
    s.store.settings.update({"mode": "two", "first": "red"})
    s.run_for(1600)
    assert s.status() == "two players | play: red to move"
    for col in (3, 3, 4, 4, 5, 5, 6):
        while s.app.cursor != col:
            s.do("right" if col > s.app.cursor else "left", settle=40)
        s.do("press")
        s.run_until(lambda: s.app.state in (PLAY, OVER))
    assert s.status().endswith("| over: red wins")
    s.do("long")  # the menu: mode, then blunder
    for _ in range(3):
        s.do("right", settle=20)
    assert s.status() == "menu: blunder = the level's own"


def test_the_status_line_of_the_intro_names_the_saved_mode_and_level(sim):
    """Was: "vs AI level 4 | intro" with two players or the demo saved (the app's first mode)."""
    for mode, want in (("ai", "vs AI level 4"), ("two", "two players"), ("demo", "demo")):
        s = sim(seed=4)
        s.store.settings.update({"mode": mode, "level": 4})
        assert s.status() == want + " | intro"


def test_the_status_line_names_a_board_other_than_7x6_and_its_statistics(sim):
    s = sim(seed=4)
    s.store.settings.update({"mode": "two", "first": "red", "size": "5x4"})
    s.run_for(1600)
    assert s.status() == "two players on 5x4 | play: red to move"
    for col in (2, 3, 2, 3, 2, 3, 2):  # red's four in column 3
        while s.app.cursor != col:
            s.do("right" if col > s.app.cursor else "left", settle=40)
        s.do("press")
        s.run_until(lambda: s.app.state in (PLAY, OVER))
    assert s.status() == "two players on 5x4 | over: red wins"
    s.do("long")
    for _ in range(menu_mod.ITEMS.index("size")):
        s.do("right", settle=20)
    assert s.status() == "menu: size = 5x4"
    for _ in range(menu_mod.ITEMS.index("stats") - menu_mod.ITEMS.index("size")):
        s.do("right", settle=20)
    s.do("press")
    for _ in range(stats.PAGES - 2 - s.app.menu.page):  # to the two players' page
        s.do("right", settle=20)
    assert s.status() == "stats 5x4: two players red wins 1"
    s.do("press")
    s.do("right", settle=20)
    s.do("press")
    assert s.status() == "games: game 1, two players on 5x4, red won, 7 moves (press: replay)"


def test_the_status_line_of_level_1_never_shows_an_empty_search(sim):
    s = sim(seed=1)
    s.store.settings.update({"mode": "ai", "level": 1, "first": "yellow"})
    seen = set()
    s.run_for(1500)
    for _ in range(3000):
        s.step()
        seen.add(s.status())
        if s.app.board.count >= 1:
            break
    thinking = [t for t in seen if "thinking" in t]
    assert thinking and not any("depth 0" in t or "nodes 0" in t or "-1" in t for t in seen), seen


def test_a_crash_with_wifi_on_closes_the_crashed_apps_wifi_and_server_before_the_next_app(tmp_path):
    """boot restarts the app after a crash: the crashed one's Wi-Fi, server and sockets are
    closed first, so the new app's Wi-Fi comes on (its server on the same port)."""
    import network
    from webboard import free_port
    network.world.reset()
    flash = str(tmp_path) + "/"
    port = free_port()
    phase = []

    def until(apps, games):
        now = now_ms()
        if not phase and now > 2000:
            apps[0].wifi(now, True)
            assert apps[0].link.server is not None and apps[0].wifi_on
            phase.append("on")
        elif len(phase) == 1:
            phase.append("crash")
            raise RuntimeError("boom")  # inside the app's loop: boot's crash handling
        elif len(apps) == 2 and now > 8000:
            apps[1].wifi(now, True)
            return True
        return False
    try:
        result, panel = run_board(flash, 20000, overrides={"web_host": "127.0.0.1", "web_port": port},
                                  until=until)
        assert result == "stopped" and len(panel.apps) == 2
        old, new = panel.apps
        assert old.link.server is None and not old.wifi_on  # closed by the crash handler
        assert new.link.error is None and new.wifi_on, new.link.error
        assert new.link.server is not None
    finally:
        for app in panel.apps if "panel" in locals() else ():
            if app.link is not None:
                app.link.off()
        network.world.reset()
    assert "RuntimeError: boom" in open(flash + "error.log").read()
