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


def pair(port, code):
    import http.client
    import json
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        c.request("POST", "/api/pair", json.dumps({"code": code}))
        return c.getresponse().status
    finally:
        c.close()


def wrong_codes(port, code):
    """Five wrong codes in a row: pairing locks and draws a new code."""
    from connect4.net.pairing import MAX_TRIES
    wrong = "%04d" % ((int(code) + 1) % 10000)
    return [pair(port, wrong) for _ in range(MAX_TRIES)]


def test_headless_web_prints_every_new_pairing_code(tmp_path):
    import subprocess
    import sys
    from webboard import free_port
    port = free_port()
    p = subprocess.Popen([sys.executable, "-m", "host_sim.sim", "--headless", "--temp-flash", "--mode",
                          "two", "--web", str(port), "--seconds", "60"], cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        while not line.startswith("web:"):
            assert line, p.stderr.read()
            line = p.stdout.readline()
        code = line.split()[-1]
        assert pair(port, code) == 200  # the line comes once the server answers
        assert wrong_codes(port, code) == [403] * 4 + [403]
        line = p.stdout.readline()
        assert line.startswith("web: new pairing code "), line
        new = line.split()[4]
        assert len(new) == 4 and new.isdigit()
        assert pair(port, new) == 429  # locked for a minute: then the new code pairs
    finally:
        p.terminate()
        p.wait(10)


@pytest.mark.skipif(not __import__("shutil").which("make"), reason="needs make")
def test_the_terminal_board_keeps_the_address_and_the_current_code_in_view(tmp_path):
    """Was: the web line was printed before the terminal board drew over it, and a new code
    (after wrong ones locked pairing) was never shown: the simulator could not be paired again."""
    import re
    from test_sim_terminal import Session
    from webboard import free_port
    port = free_port()
    s = Session("--temp-flash --mode two --web %d" % port)
    try:
        s.wait_for("web: http://127.0.0.1:%d/ pairing code " % port)
        code = re.search(r"pairing code (\d{4})", s.text()).group(1)
        s.wait_for("two players | play")
        assert "pairing code " + code in s.text()  # still there with the board drawn
        wrong_codes(port, code)
        found = None
        for _ in range(50):
            s.pump(0.1)
            m = re.search(r"pairing code (\d{4})", s.text())
            if m and m.group(1) != code:
                found = m.group(1)
                break
        assert found, s.text()
        s.send("q", settle=0.5)
    finally:
        s.close()


def test_a_paired_phone_stays_paired_when_the_board_is_killed_and_started_again(tmp_path):
    """Was (issue 32): after a restart on the same flash the game came back but every token
    was gone: the page said "Your turn", and its tap got "Pair this page first"."""
    from test_resume_sim import played_then_cut, start_sim, request, wait_state
    from webboard import free_port
    flash = str(tmp_path / "flash")
    token, before = played_then_cut(flash, 2)
    for name in os.listdir(flash):  # the token is on the flash only as a hash
        with open(os.path.join(flash, name), "rb") as f:
            assert token.encode() not in f.read(), name
    port = free_port()
    p, _ = start_sim(flash, port)  # the same flash
    try:
        after = wait_state(port, lambda s: s["state"] == "play", "the game")
        assert after["moves"] == before["moves"] and after["human"]
        assert request(port, "GET", "/api/state", token=token)[1]["paired"] is True
        assert request(port, "GET", "/api/state", token="0" * len(token))[1]["paired"] is False
        assert request(port, "GET", "/api/state")[1]["paired"] is False
        status, body = request(port, "POST", "/api/move", {"column": 3}, token)
        assert status == 200, body  # the tap is taken, not "Pair this page first"
        wait_state(port, lambda s: s["moves"].startswith(before["moves"] + "3"), "the move")
        # forgotten from the page: the token goes, and the new code is printed, with why
        assert request(port, "POST", "/api/forget", {}, token)[0] == 200
        assert request(port, "GET", "/api/state", token=token)[1]["paired"] is False
        line = p.stdout.readline()
        assert line.startswith("web: new pairing code ") and "forgotten" in line, line
        assert request(port, "POST", "/api/pair", {"code": line.split()[4]})[0] == 200
    finally:
        p.terminate()
        p.communicate(timeout=60)
