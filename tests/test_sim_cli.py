"""The simulator's command line: bad options and input files give one clear
line and exit code 2 at start; recordings keep every frame; examples can run
on a throwaway flash; the display curve shows every lit LED as lit."""
import os
import shutil
import subprocess
import sys

import pytest

from host_sim import sim
from host_sim.record import Recorder, screen_color, HOLE, record_kind, RecordError
from host_sim.world import Controls, load_config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(args, cwd=ROOT, timeout=120, root=ROOT):
    env = dict(os.environ, PYTHONPATH=root)
    return subprocess.run([sys.executable, "-m", "host_sim"] + args, cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)


def assert_usage_error(r, *needles):
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert "Traceback" not in r.stderr
    assert len(lines) == 1 or lines[0].startswith("usage:"), r.stderr  # one line (argparse: usage too)
    for needle in needles:
        assert needle in lines[-1], r.stderr
    assert "game 1" not in r.stdout  # failed at start, before any game


def copy_project(tmp_path, config_edit=None):
    """host_sim and firmware/ in a folder of their own, config.py edited (a maker's build)."""
    root = tmp_path / "project"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(os.path.join(ROOT, "host_sim"), root / "host_sim", ignore=ignore)
    shutil.copytree(os.path.join(ROOT, "firmware"), root / "firmware", ignore=ignore)
    if config_edit:
        path = root / "firmware" / "config.py"
        text = path.read_text()
        for old, new in config_edit:
            assert old in text
            text = text.replace(old, new, 1)
        path.write_text(text)
    return str(root)


# ---- options

@pytest.mark.parametrize("args, needle", [
    (["--seconds", "nan"], "--seconds"),
    (["--seconds", "-1"], "--seconds"),
    (["--seconds", "inf"], "--seconds"),
    (["--games", "-1"], "--games"),
    (["--games", "0"], "--games"),
    (["--games", "two"], "--games"),
    (["--size", "9x9"], "--size"),
    (["--size", "8x8"], "--size"),
    (["--size", "big"], "--size"),
])
def test_bad_numbers_are_refused(tmp_path, args, needle):
    flash = str(tmp_path / "flash")  # (old code: --seconds nan ran for ever)
    assert_usage_error(run(["--headless", "--flash", flash] + args, timeout=60), needle)


def test_python_m_host_sim_runs_the_simulator():
    r = run(["--help"])
    assert r.returncode == 0 and "usage: python -m host_sim" in r.stdout
    assert "--temp-flash" in r.stdout


# ---- input files and folders

@pytest.mark.parametrize("content, needle", [
    (None, "cannot read it"),  # missing
    ("folder", "Is a directory"),
    (b"0 press\n\xff\xfe 12\n", "line 2 is not UTF-8"),
    (b"0 press\nsoon press\n", "script line 2: expected 'TIME ACTION [ARG]'"),
    (b"0 jump\n", "unknown action 'jump'"),
    (b"0 long\n+1500 menu wlan\n", "script line 2: expected 'TIME menu ITEM [MS]', ITEM one of mode, level"),
])
def test_bad_scripts_are_one_clear_line(tmp_path, content, needle):
    path = tmp_path / "input.script"
    if content == "folder":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    flash = str(tmp_path / "flash")
    assert_usage_error(run(["--headless", "--flash", flash, "--seconds", "5", "--script", str(path)]),
                       "--script", needle)


def test_a_menu_item_named_in_a_script_is_walked_to_from_the_first():
    from host_sim.world import parse_script
    from connect4.app.menu import ITEMS
    got = parse_script("100 long\n+1200 menu games 300\n+900 press\n")
    turns = [t for t, action, _ in got if action == "right"]
    assert len(turns) == ITEMS.index("games") and turns[0] == 1300
    assert all(b - a == 300 for a, b in zip(turns, turns[1:]))
    assert got[-1] == (turns[-1] + 900, "press", 0)  # the next line counts from the last turn


def test_a_bad_flash_folder_is_one_clear_line(tmp_path):
    a_file = tmp_path / "flash.txt"
    a_file.write_text("not a folder")
    assert_usage_error(run(["--headless", "--seconds", "5", "--flash", str(a_file)]),
                       "--flash", "is a file")
    assert_usage_error(run(["--headless", "--seconds", "5", "--flash", str(a_file / "sub")]),
                       "--flash", "cannot make the folder")
    assert_usage_error(run(["--headless", "--seconds", "5", "--flash", "/proc/no/flash"]),
                       "--flash", "cannot make the folder")


def test_no_terminal_is_one_clear_line(tmp_path):
    r = run(["--flash", str(tmp_path / "flash"), "--seconds", "5"])
    assert_usage_error(r, "terminal", "--headless")


@pytest.mark.parametrize("name, needle", [
    ("missing/demo.gif", "does not exist"),
    ("demo.jpg", "unknown picture type '.jpg'"),
    ("demo", "unknown picture type"),
    ("demo 100%.gif", "a % in the name"),
    ("frame%d%d.png", "a % in the name"),
    ("frame%03d.gif", "a % in the name"),
])
def test_a_bad_record_path_fails_at_start(tmp_path, name, needle):
    r = run(["--headless", "--flash", str(tmp_path / "flash"), "--mode", "demo", "--seconds", "20",
             "--record", str(tmp_path / name)])
    assert_usage_error(r, "--record", needle)
    assert os.listdir(tmp_path) in ([], ["flash"])  # no picture, no temporary file left behind


def test_record_paths_that_work(tmp_path):
    assert record_kind(str(tmp_path / "a.GIF")) == "gif"
    assert record_kind(str(tmp_path / "a.png")) == "png"
    assert record_kind(str(tmp_path / "f%04d.png")) == "frames"
    assert record_kind(str(tmp_path / "100%%.gif")) == "gif"  # %% is a plain %
    with pytest.raises(RecordError):
        record_kind(str(tmp_path))  # a folder


def test_a_bad_color_order_shows_the_firmware_message(tmp_path):
    root = copy_project(tmp_path, [('"color_order": "GRB"', '"color_order": "GBX"')])
    r = run(["--headless", "--flash", str(tmp_path / "flash"), "--seconds", "5"], root=root, cwd=root)
    assert_usage_error(r, "color_order must be one of", "BGR")


def test_chip_speed_in_a_copy_without_tools_says_it_has_no_record(tmp_path):
    """The chip's speed comes from tools/data/chip.txt alone (tools.common.chip_nodes_per_second):
    a maker's copy of host_sim and firmware/ runs, and --chip-speed says why it cannot."""
    root = copy_project(tmp_path)
    assert run(["--help"], root=root, cwd=root).returncode == 0
    r = run(["--headless", "--flash", str(tmp_path / "flash"), "--seconds", "1", "--chip-speed"], root=root, cwd=root)
    assert_usage_error(r, "--chip-speed: this copy has no tools/data/chip.txt")


def test_an_unknown_preset_is_one_clear_line(tmp_path):
    assert_usage_error(run(["--headless", "--flash", str(tmp_path), "--preset", "joystick"]),
                       "unknown preset 'joystick'")


# ---- presets

def test_config_preset_is_honoured_and_presets_are_not_edited(tmp_path):
    root = copy_project(tmp_path, [('PRESET = "encoder"', 'PRESET = "buttons"')])
    flash = str(tmp_path / "flash")
    r = run(["--headless", "--flash", flash, "--seconds", "2"], root=root, cwd=root)
    assert r.returncode == 0, r.stderr
    assert "preset buttons" in r.stdout
    r = run(["--headless", "--flash", flash, "--seconds", "2", "--preset", "encoder"], root=root,
            cwd=root)
    assert "preset encoder" in r.stdout


def test_firmware_config_leaves_config_py_alone(tmp_path):
    """The simulator's options reach the firmware as boot.start's parameters: config.py's
    presets and its get() stay as written."""
    import config
    real_get = config.get
    args = sim.parse_args(["--flash", str(tmp_path), "--seed", "5", "--preset", "buttons"])
    cfg = sim.firmware_config(args)
    config = sys.modules["config"]
    assert cfg["preset"] == "buttons" and cfg["seed"] == 5 and cfg["input"] == "buttons"
    assert "flash_dir" not in config.PRESETS["buttons"] and "seed" not in config.PRESETS["buttons"]
    assert config.PRESET == "encoder"
    assert config.get.__module__ == real_get.__module__ == "config" and config.get()["flash_dir"] == ""
    assert config.get("buttons", sim.config_overrides(args)) == cfg  # what boot.start reads


# ---- examples leave nothing behind

def test_temp_flash_leaves_the_next_run_alone(tmp_path):
    root = copy_project(tmp_path)
    temp = tmp_path / "tmp"
    temp.mkdir()
    env_tmp = dict(os.environ, PYTHONPATH=root, TMPDIR=str(temp))
    r = subprocess.run([sys.executable, "-m", "host_sim", "--headless", "--temp-flash", "--mode",
                        "demo", "--seed", "1", "--seconds", "20"], cwd=root, env=env_tmp,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "(temporary)" in r.stdout
    assert not os.path.exists(os.path.join(root, "sim_flash"))  # the default flash untouched
    assert os.listdir(temp) == []  # the throwaway flash is gone


# ---- recordings

def test_a_long_recording_keeps_every_frame(tmp_path):
    from PIL import Image, ImageChops
    from host_sim.record import draw
    path = str(tmp_path / "long.gif")
    rec = Recorder(path, 8, 8, cell=4)
    frames = 3500  # the old recorder stopped adding frames silently after 3,000
    for i in range(frames):
        pixels = [(0, 0, 0)] * 64
        pixels[i % 64] = (1 + i % 200, 0, 0)
        pixels[(i // 64) % 64] = (0, 0, 3)
        rec.add(i * 40, pixels)
    assert rec.save(frames * 40) == frames
    with Image.open(path) as im:
        assert im.n_frames == frames
        im.seek(frames - 1)
        last = im.convert("RGB")
    assert ImageChops.difference(last, draw(pixels, 8, 8, 4)).getbbox() is None  # the last one


# ---- the display curve

def duty(color, level=4):
    """The firmware's duty for a perceptual colour at a brightness level (Display.show)."""
    from connect4.hw.display import gamma_table, brightness_for
    g = gamma_table()
    b = brightness_for(level)
    return tuple((g[v] * b // 255 or 1) if v else 0 for v in color)


def test_every_lit_led_looks_lit_and_brighter_than_unlit():
    hole = max(HOLE)
    for v in range(1, 256):
        for rgb in ((v, 0, 0), (0, v, 0), (0, 0, v), (v, v, v)):
            shown = screen_color(rgb)
            assert max(shown) >= 3 * hole, rgb  # dim white 1,1,1 was 21,21,21 < unlit 34,34,38
    assert screen_color((0, 0, 0)) is None
    levels = [screen_color((v, 0, 0))[0] for v in range(1, 256)]
    assert levels == sorted(levels)  # dimmer duty, dimmer on screen


def test_blue_and_yellow_are_recognisable_at_the_default_brightness():
    from connect4.app.glyphs import FRAME, YELLOW, RED
    rgb = lambda c: ((c >> 16) & 255, (c >> 8) & 255, c & 255)  # noqa: E731
    level = load_config("encoder")["brightness_level"]
    blue = screen_color(duty(rgb(FRAME), level))
    assert blue[0] == blue[1] == 0 and blue[2] >= 110, blue  # was 0,0,34: black
    r, g, b = screen_color(duty(rgb(YELLOW), level))
    assert r >= 200 and g >= 0.75 * r and b == 0, (r, g, b)  # was 119,79,0: ochre
    red = screen_color(duty(rgb(RED), level))
    assert red[0] >= 200 and red[1] == red[2] == 0


# ---- typed keys

def test_quick_keys_do_not_queue_without_bound():
    controls = Controls(load_config("buttons"))
    now = 1000
    taken = sum(sim.feed_key(controls, "press", now) for _ in range(200))
    assert taken < 10
    assert controls.busy_until - now <= sim.KEY_BACKLOG_MS + 200  # was 200 x 85 ms = 17 s
    later = controls.busy_until + 1
    assert sim.feed_key(controls, "press", later)  # once played out, keys are taken again
    enc = Controls(load_config("encoder"))
    assert sum(sim.feed_key(enc, "right", now) for _ in range(200)) < 20


# ---- a headless run that nobody could finish

@pytest.mark.parametrize("mode", [None, "ai", "two"])
def test_headless_games_with_nobody_on_a_persons_side_is_refused_at_once(tmp_path, mode):
    """`--headless --games 1` in the default AI mode used to run for ever: nobody plays
    the person's side there. Refused at start, saying what to use instead."""
    args = ["--headless", "--flash", str(tmp_path / "flash"), "--games", "1"]
    r = run(args + (["--mode", mode] if mode else []), timeout=60)
    assert_usage_error(r, "--games", "--mode demo", "--script", "--web")


def test_a_script_that_runs_out_before_the_games_end_stops_the_run(tmp_path):
    """A person's side played by a script that ends too early: the run stops, saying why,
    rather than waiting for ever (here: one disc, then nothing more)."""
    script = tmp_path / "one.script"
    script.write_text("2600 press\n")
    r = run(["--headless", "--flash", str(tmp_path / "flash"), "--mode", "two", "--games", "1",
             "--script", str(script)], timeout=60)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "waits for a person's move" in r.stderr and "script" in r.stderr
    assert "Traceback" not in r.stderr


def test_headless_ai_mode_with_a_script_or_seconds_still_runs(tmp_path):
    r = run(["--headless", "--flash", str(tmp_path / "flash"), "--seconds", "3"], timeout=60)
    assert r.returncode == 0, r.stderr


# ---- a throwaway flash goes, however the run ends

def temp_flash_of(p):
    line = p.stdout.readline()
    assert line.startswith("board: ") and line.rstrip().endswith("(temporary)"), (line, p.stderr.read())
    path = line.split(" flash ", 1)[1].rsplit(" (temporary)", 1)[0]
    assert os.path.isdir(path)
    return path


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_temp_flash_is_removed_on_sigterm_and_sighup(sig, tmp_path):
    import signal
    p = subprocess.Popen([sys.executable, "-m", "host_sim", "--headless", "--temp-flash", "--mode", "demo",
                          "--seconds", "100000"], cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=ROOT, TMPDIR=str(tmp_path)),
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        path = temp_flash_of(p)
        p.stdout.readline()  # a game has been played: the flash has files
        p.send_signal(getattr(signal, sig))
        p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode != 0  # killed by a signal is not a success
    assert "Traceback" not in p.stderr.read()
    assert not os.path.exists(path) and os.listdir(tmp_path) == []


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_temp_flash_is_removed_when_the_terminal_closes(tmp_path, monkeypatch):
    """A closed terminal sends SIGHUP to the terminal board."""
    import signal
    from test_sim_terminal import Session
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    s = Session("--temp-flash --mode two")
    try:
        s.wait_for("two players | play")
        assert [p for p in os.listdir(tmp_path) if p.startswith("sim_flash-")]
        os.killpg(s.proc.pid, signal.SIGHUP)
        s.proc.wait(30)
    finally:
        s.close()
    assert os.listdir(tmp_path) == []


def test_a_size_the_panel_cannot_show_is_one_clear_line(tmp_path):
    from host_sim import sim
    args = sim.parse_args(["--size", "8x7", "--flash", str(tmp_path)])
    cfg = {"width": 7, "height": 7, "preset": "encoder", "flash_dir": str(tmp_path) + "/"}
    with pytest.raises(sim.UsageError, match="--size 8x7: the 7x7 panel of preset encoder shows 4x4 to 7x6"):
        sim.preset_settings(args, cfg)
    assert not os.listdir(str(tmp_path))  # nothing saved


@pytest.mark.parametrize("mode, winner, said", [
    ("vs AI", 0, "you (red) win"), ("vs AI", 1, "the AI (yellow, level 3) wins"),
    ("two players", 0, "red wins"), ("demo", 1, "yellow (level 3) wins"), ("vs AI", -1, "a draw")])
def test_the_headless_log_says_who_won_in_good_english(mode, winner, said):
    """Was: "you (red) wins"."""
    g = {"mode": mode, "levels": [2, 3], "winner": winner, "first": 0, "moves": "4455667"}
    line = sim.describe_game(1, g)
    assert line.endswith(", moves 4455667, " + said), line


def test_a_turn_after_the_host_stalled_is_still_a_turn_on_the_real_clock():
    """Was: on the real clock (--web, the terminal) a turn whose four edges all fell due while
    the host was busy (a loaded computer: tests/test_two_boards_loopback.py in `make test`)
    was driven at once, so the firmware's next sample saw the pins at rest, no turn; its menu
    walks went astray. Paced, each advance drives one level and the firmware samples each."""
    import machine
    from connect4.hw.input import Encoder
    cfg = load_config("encoder")
    for paced, steps in ((False, 0), (True, 1)):
        machine.reset_world()
        controls = Controls(cfg)
        controls.paced = paced
        a, b = (machine.Pin(cfg[k], machine.Pin.IN, machine.Pin.PULL_UP) for k in ("enc_a", "enc_b"))
        enc = Encoder(a.value, b.value, cfg["encoder_reverse"])  # as hardware_setup makes it
        controls.act("right", 0)
        got = 0
        for _ in range(6):  # all four edges due: the host woke 100 ms late
            controls.advance(100)
            got += enc.update()
        assert got == steps and not controls.queue, (paced, got)
    machine.reset_world()
