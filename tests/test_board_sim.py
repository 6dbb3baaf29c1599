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


def run_board(flash, stop_ms, script=(), preset="encoder", overrides=None):
    """boot.main() (what main.py runs) on the virtual clock until stop_ms.

    Returns (result, panel); panel.frames_seen: every frame shown, panel.apps:
    the apps boot started (its "app" events), panel.games: the games played."""
    machine.reset_world()
    CLOCK.make_virtual(0)
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
        result = boot.main(cfg, listen, stop=lambda: now_ms() >= stop_ms)
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
    from host_sim.world import chip_nodes_per_second
    cfg = load_config("encoder")
    rate = chip_nodes_per_second()
    assert 5000 < rate < 20000
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
