"""Wi-Fi from the menu on the simulated board (host_sim's `network` stub): off by
default, the access point with its WPA2 key, a home network joined, a failed join
falling back to the access point, the address scrolling across the matrix, off again."""
import os
import socket

import pytest

import network
from host_sim.world import Sim
from connect4.app.game import MENU
from connect4.app import menu as menu_mod
from connect4.net.netconf import NetConf
from connect4.net import link as link_mod
from webboard import free_port


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


def to_wifi_item(sim):
    sim.do("long")
    assert sim.app.state == MENU
    for _ in range(menu_mod.ITEMS.index("wifi")):
        sim.do("right")
    assert menu_mod.ITEMS[sim.app.menu.item] == "wifi"


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
    assert app.web is not None and app.pump == app.web.pump and app.menu.wifi_on
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
    assert not app.menu.wifi_on
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", sim.port), timeout=2).close()


def test_a_home_network_set_from_the_page_is_joined(sim):
    nc = NetConf(sim.cfg["flash_dir"]).load()
    assert nc.set_network("HomeNet", "secret-pass")
    to_wifi_item(sim)
    toggle(sim)
    assert network.world.target == "HomeNet" and not network.world.active[network.AP_IF]
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
