"""Wi-Fi from the menu on the simulated board (host_sim's `network` stub): off by
default, the access point with its WPA2 key, a home network joined, a failed join
falling back to the access point, the address scrolling across the matrix, off again."""
import os
import socket
import subprocess
import sys

import pytest

import machine
import network
from host_sim.world import Sim
from connect4.app.game import INTRO, MENU
from connect4.app import menu as menu_mod
from connect4.net.netconf import NetConf
from connect4.net import link as link_mod
from webboard import free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def sim(tmp_path):
    network.world.reset()
    port = free_port()
    s = Sim(str(tmp_path), overrides={"web_host": "127.0.0.1", "web_port": port})
    s.port = port
    s.run_for(1600)
    yield s
    if s.app.link is not None:
        s.app.link.off()
    s.close()
    network.world.reset()


def to_menu_item(sim, name):
    """A long press opens the menu; turned right to its item `name`."""
    sim.do("long")
    assert sim.app.state == MENU
    for _ in range(menu_mod.ITEMS.index(name)):
        sim.do("right")
    assert menu_mod.ITEMS[sim.app.menu.item] == name


def to_wifi_item(sim):
    to_menu_item(sim, "wifi")


def toggle(sim):
    sim.do("press")
    sim.do("right")
    sim.do("press")


def lit(sim):
    return sum(1 for p in sim.panel.pixels if max(p) > 0)


def test_wifi_is_off_until_the_menu_turns_it_on_then_the_access_point_and_the_page(sim):
    assert sim.app.link is None and sim.app.pump is None and not any(network.world.active.values())
    to_wifi_item(sim)
    toggle(sim)
    assert network.world.active[network.AP_IF] and not network.world.active[network.STA_IF]
    cfg = network.world.ap_config
    nc = NetConf(sim.cfg["flash_dir"]).load()
    assert cfg["essid"] == "Connect4-C47E" and cfg["authmode"] == network.AUTH_WPA2_PSK
    assert cfg["password"] == nc.ap_password and len(nc.ap_password) == 12
    app = sim.app
    assert app.web is not None and app.pump == app.web.pump and app.wifi_on
    socket.create_connection(("127.0.0.1", sim.port), timeout=5).close()  # listening
    # the address, the key and the code scroll across the matrix, then the menu is back
    banner = app.banner
    assert banner is not None
    text_cols = banner.text_width()
    assert text_cols > 4 * len("192.168.4.1 Connect4-C47E KEY " + nc.ap_password + " CODE 1234") - 8
    sim.run_for(500)
    assert lit(sim) > 0 and app.banner is banner
    sim.run_until(lambda: app.banner is None, 30000)
    # on request: confirming "on" again scrolls it again; a press ends it
    sim.do("press")
    sim.do("press")
    assert app.banner is not None
    sim.do("press")
    assert app.banner is None and app.state == MENU
    # off
    toggle(sim)
    assert not any(network.world.active.values()) and app.pump is None and app.web is None
    assert not app.wifi_on
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", sim.port), timeout=2).close()


def test_a_home_network_set_from_the_page_is_joined(sim):
    nc = NetConf(sim.cfg["flash_dir"]).load()
    assert nc.set_network("HomeNet", "secret-pass")
    to_wifi_item(sim)
    toggle(sim)
    assert network.world.target == "HomeNet" and not network.world.active[network.AP_IF]
    # no modem sleep: on the emulated chip a sleeping radio stalled the board within seconds,
    # and on a real one it holds the page's answers until the next beacon
    assert network.world.ap_config.get("pm") == network.WLAN.PM_NONE
    sim.run_until(lambda: sim.app.web is not None, 5000)
    assert sim.app.link.address == "192.168.1.57"


def test_a_home_network_that_is_not_there_falls_back_to_the_access_point(sim):
    nc = NetConf(sim.cfg["flash_dir"]).load()
    assert nc.set_network(network.world.NO_SUCH_NETWORK, "")
    to_wifi_item(sim)
    toggle(sim)
    sim.run_for(link_mod.JOIN_MS - 1000)
    assert sim.app.web is None and not network.world.active[network.AP_IF]
    sim.run_until(lambda: sim.app.web is not None, 5000)
    assert network.world.active[network.AP_IF] and sim.app.link.address == "192.168.4.1"


def test_the_wifi_table_searches_like_a_fresh_searcher_of_that_size(sim):
    """Searcher.resize rebuilds its arena: the next searches are node for node those
    of Searcher(tt_entries=N), and back at full size those of the config's."""
    from connect4.engine.board import Board
    from connect4.engine.search import Searcher
    app = sim.app
    for entries in (sim.cfg["tt_entries_wifi"], sim.cfg["tt_entries"]):
        app.turn.searcher.resize(entries)
        fresh = Searcher(tt_entries=entries, poll_interval=sim.cfg["poll_interval"])
        for moves in ("", "4453", "44444233"):
            got = app.turn.searcher.search(Board(moves), depth=9, nodes=20000)
            want = fresh.search(Board(moves), depth=9, nodes=20000)
            assert (got.move, got.score, got.depth, got.nodes) == (
                want.move, want.score, want.depth, want.nodes), (entries, moves)
        assert len(app.turn.searcher.tt) == entries * len(app.turn.searcher.tt) // app.turn.searcher.tt_entries


def no_memory_banner(app):
    from connect4.app.scroll import Scroller
    from connect4.app.glyphs import RED
    return app.banner is not None and bytes(app.banner.bits) == bytes(Scroller([("NO MEMORY", RED)], 0).bits)


def test_wifi_that_does_not_fit_the_heap_is_said_and_the_game_goes_on(sim, monkeypatch):
    """Allocations failed on purpose where Wi-Fi on needs the heap most: loading the network
    code (the app's factory), then building the web server (connect4.net.server, the API). Each time NO
    MEMORY scrolls over the game, Wi-Fi stays off, the game is untouched, and it goes on."""
    app = sim.app
    sim.do("press")  # a first disc, so that "untouched" means something
    sim.run_until(lambda: app.board.count >= 1, 30000)
    factory = app.wifi_factory

    def no_heap(*args, **kwargs):
        raise MemoryError("memory allocation failed, allocating 4096 bytes")

    app.wifi_factory = no_heap
    to_wifi_item(sim)  # the game waits while the menu is open
    moves = app.board.moves_string()
    toggle(sim)
    assert app.link is None and not app.wifi_on and no_memory_banner(app)
    assert app.board.moves_string() == moves and not any(network.world.active.values())
    sim.run_until(lambda: app.banner is None, 30000)

    app.wifi_factory = factory  # the code loads, but the server does not fit
    from connect4.net import server as server_mod
    monkeypatch.setattr(server_mod.Server, "__init__", no_heap)
    toggle(sim)
    assert "MemoryError" in app.link.error and not app.wifi_on and no_memory_banner(app)
    assert app.link.server is None and app.pump is None and not any(network.world.active.values())
    assert app.turn.searcher.tt_entries == sim.cfg["tt_entries"]  # the AI's table back to its size
    assert app.board.moves_string() == moves
    sim.run_until(lambda: app.banner is None, 30000)
    sim.do("long")  # the menu closes; the game goes on from where it was
    assert app.state != MENU, sim.status()
    sim.run_until(lambda: app.turn.thinking is False and "your move" in sim.status(), 60000)
    sim.do("press")  # the person's disc, then the AI's reply
    sim.run_until(lambda: app.board.count > len(moves) + 1, 60000)
    assert app.board.moves_string().startswith(moves)


def test_a_request_that_does_not_fit_the_heap_gets_503_and_the_server_goes_on(tmp_path, monkeypatch):
    import http.client
    import json
    from webboard import WebBoard
    from connect4.net import api as api_mod
    with WebBoard(str(tmp_path)) as board:
        real = api_mod.Api.state
        calls = []

        def state(self, auth=None):
            calls.append(1)
            if len(calls) == 1:
                raise MemoryError("memory allocation failed, allocating 2048 bytes")
            return real(self, auth)

        monkeypatch.setattr(api_mod.Api, "state", state)
        conn = http.client.HTTPConnection("127.0.0.1", board.port, timeout=10)
        conn.request("GET", "/api/state")
        r = conn.getresponse()
        body = json.loads(r.read())
        assert (r.status, r.reason) == (503, "Service Unavailable")
        assert body == {"error": "the board is short of memory: try again"}
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", board.port, timeout=10)
        conn.request("GET", "/api/state")
        r = conn.getresponse()
        assert r.status == 200 and "moves" in json.loads(r.read())
        conn.close()


def to_phones_item(sim):
    to_menu_item(sim, "phones")


@pytest.fixture
def said(monkeypatch):
    """What the Wi-Fi side scrolled across the matrix (Face.say's texts), in order."""
    from connect4.app import face
    seen = []
    real = face.Face.say

    def say(self, parts, now):
        seen.append("".join(text for text, _ in parts))
        return real(self, parts, now)
    monkeypatch.setattr(face.Face, "say", say)
    return seen


def test_the_menu_forgets_the_paired_phones_with_wifi_off(sim, said):
    """Issue 32: "forget paired phones" on the board, Wi-Fi off: the phones kept on flash go."""
    from connect4.net.pairing import Pairing
    from host_sim.status import menu_text
    flash = sim.cfg["flash_dir"]
    p = Pairing(flash)
    token = p.pair(p.code)
    assert Pairing(flash).check("Bearer " + token)
    to_phones_item(sim)
    sim.do("press")
    sim.do("press")  # confirmed without turning to "forget": nothing happens
    assert sim.app.link is None and said == [] and Pairing(flash).check("Bearer " + token)
    sim.do("press")
    sim.do("right")
    assert menu_text(sim.app.menu) == "menu: paired phones = forget (changing)"
    sim.do("press")
    assert said == ["PHONES FORGOTTEN"] and not Pairing(flash).check("Bearer " + token)
    assert not any(network.world.active.values())  # Wi-Fi still off
    assert menu_text(sim.app.menu) == "menu: paired phones = keep" and sim.app.state == MENU


def test_the_menu_forgets_the_paired_phones_of_the_page_served_and_shows_the_new_code(sim, said, capsys):
    to_wifi_item(sim)
    toggle(sim)
    pairing = sim.app.web.pairing  # the served page's (what POST /api/pair uses)
    token = pairing.pair(pairing.code)
    assert pairing.check("Bearer " + token)
    sim.do("press")  # the address scrolling ends
    for _ in range(menu_mod.ITEMS.index("phones") - menu_mod.ITEMS.index("wifi")):
        sim.do("right")
    sim.do("press")
    sim.do("right")
    sim.do("press")
    assert not pairing.check("Bearer " + token) and pairing.revoked == 1
    assert said[-1] == "PHONES FORGOTTEN CODE " + pairing.code  # the new code
    assert sim.app.web.pairing is pairing and sim.app.wifi_on  # Wi-Fi still on
    # the console too, as Link.show says it (a maker at the serial port; the chip tests)
    console = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("connect4: web: ")]
    assert console[-1] == "connect4: web: http://192.168.4.1/ name connect4-C47E code " + pairing.code


def test_a_new_code_from_the_page_or_the_lock_shows_on_the_matrix_and_the_console(sim, said, capsys):
    """Issue 36: a forget from the page (POST /api/forget) and the lock after wrong codes draw a
    new pairing code; the board shows it at once (matrix and console), or no phone could pair."""
    from connect4.net.pairing import MAX_TRIES
    to_wifi_item(sim)
    toggle(sim)
    api = sim.app.web.api
    pairing = api.pairing
    status, body = api.pair(('{"code": "%s"}' % pairing.code).encode())
    assert status == 200
    assert api.forget("Bearer " + body["token"], b"{}")[0] == 200
    code = pairing.code
    assert said[-1] == " CODE " + code
    console = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("connect4: web: ")]
    assert console[-1] == "connect4: web: http://192.168.4.1/ name connect4-C47E code " + code
    wrong = "%04d" % ((int(code) + 1) % 10000)
    for _ in range(MAX_TRIES):
        api.pair(('{"code": "%s"}' % wrong).encode())
    assert pairing.code != code and said[-1] == " CODE " + pairing.code


def test_the_menu_says_when_the_flash_refuses_to_forget(sim, said):
    os.makedirs(os.path.join(sim.cfg["flash_dir"], "paired.bin", "kept"))  # a folder in the way
    to_phones_item(sim)
    for action in ("press", "right", "press"):
        sim.do(action)
    assert said == ["NOT SAVED"]


# ---- Wi-Fi stays on (issue 30): the menu's switch is saved, on again at the next start

def restarted(sim, cause=machine.PWRON_RESET):
    """The board on the same flash again: the old one's radio and server gone, as after a
    reset (its link's off(); the stub's radio off), the chip started for `cause`."""
    flash, port = sim.cfg["flash_dir"], sim.port
    if sim.app.link is not None:
        sim.app.link.off()
    sim.close()
    network.world.reset()
    again = Sim(flash, overrides={"web_host": "127.0.0.1", "web_port": port}, reset_cause=cause)
    again.port = port
    return again


@pytest.mark.parametrize("cause", ["PWRON_RESET", "HARD_RESET", "WDT_RESET"])
def test_wifi_on_in_the_menu_is_on_again_after_a_power_cut_a_crash_or_the_watchdog(sim, cause):
    to_wifi_item(sim)
    toggle(sim)
    assert sim.app.wifi_on and sim.store.settings["wifi"] is True
    again = restarted(sim, getattr(machine, cause))
    try:
        app = again.app
        assert app.link is not None and app.wifi_on and app.link.address == "192.168.4.1"
        assert network.world.active[network.AP_IF] and app.pump == app.web.pump
        assert app.turn.searcher.tt_entries == again.cfg["tt_entries_wifi"]  # resized as from the menu
        socket.create_connection(("127.0.0.1", again.port), timeout=5).close()  # the page is served
        assert app.banner is not None  # the address and the code scroll, over the intro
        again.run_until(lambda: app.banner is None, 30000)
        again.run_until(lambda: app.state != INTRO, 5000)
        # off in the menu: saved off, and off after the next start
        to_wifi_item(again)
        toggle(again)
        assert not app.wifi_on and not any(network.world.active.values())
        assert again.store.settings["wifi"] is False
        again = restarted(again)
        assert again.app.link is None and not any(network.world.active.values())
    finally:
        again.close()


def test_a_home_network_is_joined_again_at_the_start(sim):
    nc = NetConf(sim.cfg["flash_dir"]).load()
    assert nc.set_network("HomeNet", "secret-pass")
    to_wifi_item(sim)
    toggle(sim)
    again = restarted(sim)
    try:
        assert network.world.target == "HomeNet" and again.app.link.joining_since is not None
        again.run_until(lambda: again.app.web is not None, 5000)
        assert again.app.link.address == "192.168.1.57"
    finally:
        again.close()


LOADED = """
import os, sys
from host_sim.world import Sim
from connect4.app.store import Store
flash = sys.argv[1]
store = Store(os.path.join(flash, "connect4.json"))
store.settings["wifi"] = sys.argv[2] == "on"
assert store.save()
s = Sim(flash, chip_speed=False)
s.run_for(1600)
print(" ".join(sorted(n for n in sys.modules if n.startswith("connect4.net") or n == "network"
                      or n == "connect4.app.face")))
s.close()
"""


@pytest.mark.parametrize("switch", ["off", "on"])
def test_off_loads_none_of_the_network_code_at_the_start(tmp_path, switch):
    """(In a process of its own: this one has loaded it long ago.)"""
    flash = str(tmp_path)
    r = subprocess.run([sys.executable, "-c", LOADED, flash, switch], cwd=ROOT, capture_output=True,
                       text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=120)
    assert r.returncode == 0, r.stderr
    loaded = r.stdout.split()
    if switch == "off":
        assert loaded == []
    else:
        assert "connect4.net.link" in loaded and "network" in loaded and "connect4.app.face" in loaded


def test_the_simulators_web_serves_the_board_that_starts_with_wifi_on(tmp_path):
    """--web: the simulator's own server is the one Wi-Fi on at the start uses (Link._up), as
    from the menu: the page pairs and plays."""
    from test_resume_sim import start_sim, request, wait_state, settings
    flash = str(tmp_path / "flash") + "/"
    os.makedirs(flash)
    settings(flash, mode="two", first="red", wifi=True)
    port = free_port()
    p, code = start_sim(flash, port)
    try:
        status, body = request(port, "POST", "/api/pair", {"code": code})
        assert status == 200, body
        wait_state(port, lambda s: s["state"] == "play" and s["human"], "the game")
        status, body = request(port, "POST", "/api/move", {"column": 4}, body["token"])
        assert status == 200, body
        wait_state(port, lambda s: s["moves"] == "4", "the move")
    finally:
        p.terminate()
        p.communicate(timeout=60)


def test_the_status_line_words_the_menus_play_a_board_page(tmp_path):
    """Was: `make sim` crashed (AttributeError: 'Boards' object has no attribute 'chosen') as
    soon as the menu's "play a board" page opened: the status line took it for the games list."""
    from host_sim.status import status_line
    network.world.reset()
    s = Sim(str(tmp_path), overrides={"web_host": "127.0.0.1", "web_port": free_port(),
                                      "board_find": ("127.0.0.1:%d" % free_port(),)})
    try:
        s.run_for(1600)
        to_menu_item(s, "board")
        s.do("press")
        s.run_for(1500)
        words = lambda: status_line(s.app)  # noqa: E731
        assert words() == "board: type its four hex digits (0 found)"  # (its own digits scrolling)
        s.do("right")  # (ends them)
        s.do("right")
        assert words() == "board: back"
        s.do("right")
        s.do("press")
        s.do("right")
        assert words() == "board: its four hex digits, digit 1 of 4: 1"
        # a game of two boards drops the menu as it begins, the state moved on a moment later: the
        # terminal's thread may read the app between the two (was: the same crash, on None)
        menu, s.app.menu = s.app.menu, None
        assert words().endswith("| menu")
        s.app.menu = menu
    finally:
        if s.app.link is not None:
            s.app.link.off()
        s.close()
        network.world.reset()


def test_the_status_line_words_this_boards_side_its_x_included():
    """During a game of two boards a long press shows this board's side (connect4.app.boardside):
    the status line says each value of its PLAYER step, the X that leaves the game included."""
    from types import SimpleNamespace
    from connect4.app import boardside
    from host_sim.status import board_text
    page = SimpleNamespace(step=boardside.PLAYER, level=0, wait=0)
    assert board_text(page) == "board: this board's side: you (P)"
    page.level = 3
    assert board_text(page) == "board: this board's side: level 3"
    page.level = boardside.level_after(8, 1, True)
    assert page.level == boardside.LEAVE
    assert board_text(page) == "board: leave this game (X; press: a loss for neither)"
    page.step, page.wait = boardside.WAIT, 5
    assert board_text(page) == "board: give up after 5 min lost"
