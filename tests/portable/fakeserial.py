"""A USB serial port, an app and a board side for Improv Wi-Fi (connect4.ear and
connect4.net.improv), as fakes that run in MicroPython too: tests/portable/test_net_improv.py,
and the protocol's own client's exchanges (tests/test_improv_sdk.py: `Device`).
"""
from connect4 import listen
from fakes import tmpdir


class Port:
    """The USB serial port: bytes a computer sent (`send`), read a byte at a time, and its
    poll (ipoll yields while bytes wait); what the board wrote (`out`, its write)."""

    def __init__(self):
        self.data = b""
        self.out = b""

    def send(self, data):
        self.data += data

    def ipoll(self, ms):
        return [(self, 1)] if self.data else []

    def read(self, n):
        got, self.data = self.data[:n], self.data[n:]
        return got

    def write(self, data):
        self.out += data


class App:
    def __init__(self):
        self.serial = None
        self.cfg = {"flash_dir": tmpdir("improv")}
        self.stopped = self.restart = False  # (the App's: its loop ends, the board restarts)


class Board:
    """The board's side, as connect4.net.improv asks it; `calls` lists what was asked."""

    def __init__(self, url=None, joins=("http://192.168.1.57/",)):
        self.home_url = url
        self.joins = list(joins)  # what joined() says at each step after a join ("": failed)
        self.calls = []
        self.networks = [(b"HomeNet", -48, True), (b"Cafe", -71, False)]
        self.kept = True  # the switch saved on at the join (provision's Board)

    def url(self):
        return self.home_url

    def info(self):
        return "connect4", "0.1.0", "ESP32-C3", "Connect4-C47E"

    def scan(self):
        self.calls.append("scan")
        return self.networks

    def join(self, ssid, password, now):
        self.calls.append(("join", ssid, password))
        return True

    def joined(self, now):
        url = self.joins.pop(0) if len(self.joins) > 1 else self.joins[0]
        if url:
            self.home_url = url
        return url

    def undo(self, now):
        self.calls.append("undo")



class Device:
    """The firmware's ear and protocol on a Port and a Board, as the client's serial port
    (tools/improv/sdk.py's talk): each call takes what the client wrote, runs loop steps (the
    ear's hook, 2 ms apart) and gives what the board wrote. A call with nothing runs no step:
    the same bytes in, in the same calls, give the same bytes out (the VM's replay)."""

    def __init__(self, board=None, ms=None):
        self.app, self.port = App(), Port()
        listen.start(self.app, 0, ms, self.port, self.port, self.port)
        self.app.serial.board = board or Board()
        self.now = 0

    def __call__(self, data):
        if not data:
            return b""
        self.port.send(data)
        for _ in range(len(self.port.data) + 20):
            if self.app.serial is None:
                break
            self.app.serial(self.now)
            self.now += 2
        out, self.port.out = self.port.out, b""
        return out
