"""The simulator and the network: no port opens unless --web asks for one, and never
beyond this computer without --web-host; with --web the address and the current pairing
code stay in view (a line of the terminal board, a printed line for every new code)."""
import os
import socket

import pytest

import network
from host_sim import sim
from connect4.app import menu as menu_mod

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def wifi_on_script(tmp_path):
    """The menu's Wi-Fi item turned on, then a while for the page to be served."""
    lines = ["2600 long"] + ["+1400 right"] + ["+300 right"] * (menu_mod.ITEMS.index("wifi") - 1) + [
        "+300 press", "+300 right", "+300 press", "+1500 quit"]
    path = tmp_path / "wifi.script"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture
def binds(monkeypatch):
    """Every address a socket of this process binds to (a listening server binds first)."""
    seen = []
    real = socket.socket.bind

    def bind(self, address):
        seen.append(address)
        return real(self, address)
    monkeypatch.setattr(socket.socket, "bind", bind)
    network.world.reset()
    yield seen
    network.world.reset()


def test_wifi_from_the_menu_opens_no_port_without_web(tmp_path, binds, capsys):
    """Was: the terminal simulator with Wi-Fi turned on from its menu listened on 0.0.0.0:80."""
    rc = sim.main(["--headless", "--temp-flash", "--mode", "two", "--script", wifi_on_script(tmp_path)])
    assert rc == 0, capsys.readouterr()
    assert network.world.active[network.AP_IF]  # the menu did turn the (stub) radio on
    assert binds == []


def test_wifi_from_the_menu_with_web_serves_on_the_web_port_and_loopback_only(tmp_path, binds, capsys):
    from webboard import free_port
    port = free_port()
    binds[:] = []
    rc = sim.main(["--headless", "--temp-flash", "--mode", "two", "--web", str(port),
                   "--script", wifi_on_script(tmp_path)])
    assert rc == 0, capsys.readouterr()
    assert network.world.active[network.AP_IF]
    assert binds and all(a[0] == "127.0.0.1" and a[1] == port for a in binds), binds


def test_wifi_without_a_page_says_how_to_get_one(tmp_path, binds):
    """The simulated board's Wi-Fi on and no page served: its status line says so, and how."""
    from host_sim.world import Sim
    s = Sim(str(tmp_path))
    try:
        s.run_for(1600)
        s.do("long")
        for _ in range(menu_mod.ITEMS.index("wifi")):
            s.do("right")
        for action in ("press", "right", "press"):
            s.do(action)
        assert s.app.link.address and s.app.web is None and binds == []
        assert s.status() == "menu: wifi = on | Wi-Fi on, no page: --web PORT serves it"
    finally:
        s.app.link.off()
        s.close()
