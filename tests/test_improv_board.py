"""Issue 39: Improv Wi-Fi's board side (connect4.net.provision) on the simulated board, host_sim's
radio stub: the device info names the board as its access point does; a scan turns the station
on for itself only, each network once; "send Wi-Fi settings" keeps the network in wifi.json
(written atomically, by connect4.net.netconf), turns Wi-Fi on through the app's switch (saved
on), joins, serves the page and answers with its URL; a network it cannot join is answered
UNABLE_TO_CONNECT and put back as it was; a bad frame changes no file; the menu's "set up from
a computer" listens on the USB serial port (only the chip has one: elsewhere it says so).
(The frames and the state machine alone: tests/portable/test_net_improv.py; against the
protocol's own client: tests/test_improv_sdk.py; on the emulated chip: tests/chip/.)
"""
import json
import os
import sys

import pytest

import machine
import network
from host_sim.world import Sim
from connect4 import listen
from connect4.app import menu as menu_mod
from connect4.app.game import MENU
from connect4.app.resume import SavedGame
from connect4.app.takeback import load
from connect4.engine.board import Board
from connect4.engine.rng import Rng
from connect4.net import link as link_mod
from connect4.net.netconf import NetConf
from fakeserial import Port
from test_board_sim import run_board
from test_net_improv import frames, rpc, settings, strings
from test_resume_sim import two_moves
from webboard import free_port


@pytest.fixture
def sim(tmp_path):
    network.world.reset()
    port = free_port()
    s = Sim(str(tmp_path), overrides={"web_host": "127.0.0.1", "web_port": port})
    s.run_for(1600)
    s.usb = Port()
    assert listen.start(s.app, s.app.clock.ticks_ms(), None, s.usb, s.usb, s.usb)
    yield s
    if s.app.link is not None:
        s.app.link.off()
    s.close()
    network.world.reset()


def ask(sim, data, limit=5000):
    """Send `data` on the USB serial port; run the board until it has read it (or is joining
    a network: the ear reads nothing meanwhile); the frames it wrote."""
    sim.usb.send(data)
    sim.run_until(lambda: not sim.usb.data or joining(sim), limit)
    return frames(sim.usb)


def wifi_json(sim):
    with open(os.path.join(sim.cfg["flash_dir"], "wifi.json"), "rb") as f:
        return f.read()


def saved_switch(sim):
    with open(sim.app.store.path) as f:
        return json.load(f)["settings"]["wifi"]


def joining(sim):
    """A network given is being joined (connect4.net.improv's Joining, its URL not yet out)."""
    hook = sim.app.serial
    return hasattr(hook, "ear") and hook.answered is None


def test_the_device_info_names_the_board_as_its_access_point_does(sim):
    (kind, data), = ask(sim, rpc(3))
    assert kind == 4 and strings(data, 3) == ["connect4", "0.1.0", "ESP32-C3", "Connect4-C47E"]


def test_a_scan_turns_the_station_on_for_itself_only_each_network_once(sim):
    assert not network.world.active[network.STA_IF]
    got = ask(sim, rpc(4))
    assert network.world.scans == 1 and not network.world.active[network.STA_IF]
    assert sorted(strings(d, 4) for _, d in got[:-1]) == [["Cafe", "-71", "NO"], ["HomeNet", "-48", "YES"]]
    assert strings(got[-1][1], 4) == []  # the end


def test_wifi_settings_are_kept_joined_served_and_answered_with_the_url(sim):
    app = sim.app
    assert not app.wifi_on and not app.settings["wifi"]
    got = ask(sim, rpc(1, settings(b"HomeNet", b"secret123")))
    assert got == [(2, b"\x00"), (1, b"\x03")]  # no error, PROVISIONING
    conf = NetConf(sim.cfg["flash_dir"]).load()
    assert (conf.ssid, conf.password) == ("HomeNet", "secret123")  # kept at once, the page's way
    assert not os.path.exists(os.path.join(sim.cfg["flash_dir"], "wifi.json.tmp"))
    assert network.world.target == "HomeNet"
    sim.run_until(lambda: not joining(sim), 10000)
    got = frames(sim.usb)
    assert got[0] == (1, b"\x04") and strings(got[1][1], 1) == ["http://192.168.1.57/"]
    assert app.wifi_on and app.web is not None and app.link.address == "192.168.1.57"
    with open(app.store.path) as f:
        assert json.load(f)["settings"]["wifi"] is True  # on again at the next start
    assert not app.stopped
    sim.run_for(600)  # the answer out of the port: the app's loop ends, for boot to restart
    assert app.stopped and app.restart and frames(sim.usb) == []


def wifi_on_from_the_menu(sim):
    sim.do("long")
    for _ in range(menu_mod.ITEMS.index("wifi")):
        sim.do("right")
    for action in ("press", "right", "press"):
        sim.do(action)
    app = sim.app
    assert app.wifi_on and app.link.address == "192.168.4.1" and network.world.active[network.AP_IF]
    sim.do("press")  # (the address's words end)


def test_wifi_turned_on_stops_listening(sim):
    wifi_on_from_the_menu(sim)
    assert sim.app.serial is None  # Wi-Fi and the ear never share the heap
    sim.usb.send(rpc(2))
    sim.run_for(200)
    assert sim.usb.data and frames(sim.usb) == []  # unheard


def test_a_network_it_cannot_join_is_put_back_and_wifi_left_as_it_was(sim):
    nc = NetConf(sim.cfg["flash_dir"]).load()  # (its access point's key drawn)
    before = wifi_json(sim)
    app = sim.app
    ask(sim, rpc(1, settings(network.world.NO_SUCH_NETWORK.encode(), b"")))
    assert NetConf(sim.cfg["flash_dir"]).load().ssid == network.world.NO_SUCH_NETWORK
    sim.run_until(lambda: not joining(sim), link_mod.JOIN_MS + 5000)
    assert frames(sim.usb) == [(2, b"\x03"), (1, b"\x02")]  # UNABLE_TO_CONNECT, READY
    after = NetConf(sim.cfg["flash_dir"]).load()
    assert (after.ssid, after.password, after.ap_password) == ("", "", nc.ap_password)
    assert json.loads(wifi_json(sim)) == json.loads(before)
    assert not app.wifi_on and not any(network.world.active.values()) and not app.settings["wifi"]


def test_bad_settings_change_no_file_and_no_radio(sim):
    NetConf(sim.cfg["flash_dir"]).load()
    before = wifi_json(sim)
    for data in (settings(b"x" * 40, b"secret123"), settings(b"HomeNet", b"secr\x00t123")):
        assert ask(sim, rpc(1, data)) == [(2, b"\x01")]
    assert wifi_json(sim) == before and not any(network.world.active.values())
    assert not sim.app.wifi_on


def test_the_menus_set_up_from_a_computer_turns_wifi_off_and_listens_on_the_chips_usb_port(
        sim, monkeypatch):
    """The menu's Wi-Fi item turned twice: a computer; confirmed, Wi-Fi goes off (the switch
    saved off) and the board listens MENU_MS on its USB serial port (the chip's stdin: here a
    fake one, sys.platform said "esp32"), or, where there is none, says so. A network given
    there moves the board from its own access point to it."""
    app = sim.app
    app.serial = None  # (the fixture's ear gone)

    class Select:
        POLLIN = 1

        class poll:
            def register(self, stream, mask):
                self.stream = stream

            def ipoll(self, ms):
                return []

    def choose_computer():
        if app.state != MENU:
            sim.do("long")
        assert app.state == MENU
        for _ in range(menu_mod.ITEMS.index("wifi") - app.menu.item):
            sim.do("right")
        for action in ("press", "right", "right"):
            sim.do(action)
        assert app.menu.wifi_pick == 2
        sim.do("press")

    choose_computer()
    assert app.serial is None and app.banner is not None  # the simulator: no USB serial port
    assert app.banner.text_width() == len("NO USB") * 4
    sim.do("press")  # (the words end)
    sim.do("long")  # (the menu closed)
    wifi_on_from_the_menu(sim)
    monkeypatch.setattr(sys, "platform", "esp32")
    monkeypatch.setitem(sys.modules, "select", Select)
    now = app.clock.ticks_ms()
    choose_computer()
    monkeypatch.undo()  # (the server's poll is select's own)
    ear = app.serial
    assert ear is not None and ear.poller.stream is sys.stdin and ear.port is sys.stdin.buffer
    assert ear.until - now >= listen.MENU_MS - 1000
    assert app.banner.text_width() == len("USB SETUP") * 4
    assert not app.wifi_on and not any(network.world.active.values()) and not saved_switch(sim)
    ear.port = ear.poller = ear.out = sim.usb  # (the test's port: this one is for the words)
    sim.do("press")
    ask(sim, rpc(1, settings(b"HomeNet", b"secret123")))
    sim.run_until(lambda: not joining(sim), 10000)
    assert strings(frames(sim.usb)[1][1], 1) == ["http://192.168.1.57/"]
    assert app.wifi_on and app.link.ssid == "HomeNet" and saved_switch(sim)
    sim.run_for(600)
    assert app.restart and app.stopped


def test_a_join_restarts_the_board_which_comes_back_with_wifi_on_and_the_game_intact(tmp_path):
    """boot.main as main.py runs it, a two-player game in progress ("43"), no home network: a
    computer gives one through Improv. Once the URL is answered, boot closes the app and resets
    the chip through the hardware layer (the stub's machine.reset() raises Reset, as the
    simulator's loop expects); the next start reads in the RTC's memory that the reset was the
    board's own: no crash, the game taken back uncounted, Wi-Fi on from the saved switch, and
    no ear (Wi-Fi is on). The reset after it, unmarked, counts as a crash again."""
    network.world.reset()
    flash = str(tmp_path) + "/"
    two_moves(flash)
    overrides = {"web_host": "127.0.0.1", "web_port": free_port()}
    usb = Port()
    usb.send(rpc(1, settings(b"HomeNet", b"secret123")))

    def ear(apps, games):  # the chip's USB serial port: here the test's, on the first app only
        app = apps[-1]
        if len(apps) == 1 and app.serial is None and not app.wifi_on:
            assert listen.start(app, app.clock.ticks_ms(), None, usb, usb, usb)
        return False
    try:
        with pytest.raises(machine.Reset):
            run_board(flash, 30000, overrides=overrides, until=ear)
        assert machine.reset_cause() == machine.HARD_RESET
        got = frames(usb)
        assert got[-2] == (1, b"\x04") and strings(got[-1][1], 1) == ["http://192.168.1.57/"]
        assert NetConf(flash).load().ssid == "HomeNet" and not os.path.exists(flash + "wifi.json.tmp")
        with open(flash + "connect4.json") as f:
            assert json.load(f)["settings"]["wifi"] is True
        assert load(SavedGame(flash + "game.txt"), Board(), Rng())[1] == 0
        assert not any(network.world.active.values())  # boot closed the app: Wi-Fi off, then the reset
        result, panel = run_board(flash, 3000, overrides=overrides, cause=machine.reset_cause())
        app = panel.apps[-1]
        try:
            assert result == "stopped" and len(panel.apps) == 1 and app.after_crash is False
            assert app.wifi_on and app.link.address == "192.168.1.57" and app.web is not None
            assert app.serial is None and app.board.moves_string() == "43" and app.mode == 1
            assert load(SavedGame(flash + "game.txt"), Board(), Rng())[1] == 0  # not counted
        finally:
            app.close()
        assert machine.RTC().memory() == b""  # read once: the next reset is a crash again
        result, panel = run_board(flash, 500, overrides=overrides, cause=machine.HARD_RESET)
        panel.apps[-1].close()
        assert panel.apps[-1].after_crash is True and panel.apps[-1].board.moves_string() == "43"
    finally:
        network.world.reset()
