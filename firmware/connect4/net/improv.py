"""Improv Wi-Fi Serial: its frames, and the board's answers (https://www.improv-wifi.com/serial/).

A computer's browser (the install page's ESP Web Tools: docs/hardware.md) asks the board on
its USB serial port for its state, what it is and the networks it sees, and gives it a home
network. The ear (connect4.listen) hears a frame begin ("IMPROV") and loads this module for
the rest of it (connect4.modules.use: it leaves the heap after); `serve` reads the rest,
answers, and for "send Wi-Fi settings" leaves a `Joining` on the app's serial hook until the
board is on that network (then, its URL answered, the board restarts: Wi-Fi comes on from the
saved switch on a whole heap) or could not join it. A scan holds the game loop the seconds
it takes (the board is being set up, nobody plays). The board's side of it all (its state,
name, the scan, the join) is connect4.net.provision's Board.

A frame: b"IMPROV", the version (1), its type, the data's length, the data, and a checksum,
the low byte of the sum of every byte before it. The board ends each of its own with a
newline, as the protocol's client does: the client skips the console's other lines.

Bad frames change nothing and get Improv's error states: a wrong checksum, lengths that do
not add up, or a frame cut short, INVALID_RPC; an unknown command, UNKNOWN_RPC; settings no
network can have (an SSID of 0 or more than 32 bytes, a NUL byte in it or in the password, a
password that is neither empty nor 8-63 characters), INVALID_RPC; a network the board could
not join, UNABLE_TO_CONNECT (the settings it had are put back). What follows a bad frame,
to its newline, is read and dropped (the rest of a frame longer than its length said).
"""
from micropython import const
from time import ticks_diff

# private names: consts take no room, in the module or among the names MicroPython interns
_HEADER = b"IMPROV"
_VERSION = const(1)
# frame types
_CURRENT_STATE = const(1)
_ERROR_STATE = const(2)
_RPC = const(3)  # (also Ctrl-C: connect4.listen)
_RPC_RESULT = const(4)
# states
_READY = const(2)  # "authorized": no network joined through Improv yet
_PROVISIONING = const(3)
_PROVISIONED = const(4)
# errors
_NO_ERROR = const(0)
_INVALID_RPC = const(1)
_UNKNOWN_RPC = const(2)
_UNABLE_TO_CONNECT = const(3)
_UNKNOWN_ERROR = const(255)
# commands
_WIFI_SETTINGS = const(1)
_GET_STATE = const(2)
_GET_INFO = const(3)
_GET_NETWORKS = const(4)

_WAIT_MS = const(200)  # the longest pause inside a frame (its bytes come together)
_FLUSH_MS = const(500)  # from the URL written to the restart: the UART's FIFO and the USB
#                         host's reads empty it (a frame of some 40 bytes: 4 ms at 115,200 baud)
_MAX_SSID = const(32)  # bytes (802.11)


def checksum(data, start=0):
    return (start + sum(data)) & 0xFF


def frame(kind, data):
    """One frame of `kind` carrying `data` (bytes), with its checksum and a newline."""
    head = _HEADER + bytes((_VERSION, kind, len(data)))
    return head + data + bytes((checksum(data, checksum(head)), 10))


def result(command, strings):
    """An RPC result's data: the command, the length of what follows, each string (bytes or
    str) as its length and its UTF-8 bytes."""
    body = b""
    for s in strings:
        if isinstance(s, str):
            s = s.encode()
        body += bytes((len(s),)) + s
    return bytes((command, len(body))) + body


def byte(ear, ms):
    """The next byte from the ear's port, or -1 if none came within `ms`."""
    for _ in ear.poller.ipoll(ms):
        b = ear.port.read(1)
        if b:
            return b[0]
    return -1


def read(ear):
    """The rest of a frame after "IMPROV": (version, type, data, checksum ok), or None if it
    was cut short (a byte not come within _WAIT_MS)."""
    head = bytearray(3)  # version, type, length
    for i in range(3):
        b = byte(ear, _WAIT_MS)
        if b < 0:
            return None
        head[i] = b
    data = bytearray(head[2])
    for i in range(head[2]):
        b = byte(ear, _WAIT_MS)
        if b < 0:
            return None
        data[i] = b
    b = byte(ear, _WAIT_MS)
    if b < 0:
        return None
    return head[0], head[1], bytes(data), b == checksum(data, checksum(head, checksum(_HEADER)))


def settings(payload):
    """The SSID and password of "send Wi-Fi settings" (its data after the command and length),
    as str; ValueError if the lengths do not add up or no network can have them."""
    n = payload[0] if payload else 0
    if len(payload) < n + 2 or len(payload) != n + 2 + payload[n + 1]:
        raise ValueError("lengths")
    ssid, password = payload[1:n + 1], payload[n + 2:]
    if not 1 <= n <= _MAX_SSID or 0 in ssid or 0 in password:
        raise ValueError("ssid")
    password = password.decode()  # (UnicodeError is a ValueError)
    if password and not 8 <= len(password) <= 63:  # WPA2's passphrase, or none: an open network
        raise ValueError("password")
    return ssid.decode(), password


def drain(ear):
    """Drop what follows a bad frame, to its newline (or a pause)."""
    for _ in range(300):
        b = byte(ear, _WAIT_MS // 4)
        if b < 0 or b == 10:
            return


def serve(ear, now, board=None):
    """A frame the ear heard begin: read, checked, answered (`board`: connect4.net.provision's
    Board on the ear's app, unless the ear carries its own: the tests')."""
    got = read(ear)
    if got is None:  # cut short
        send(ear, _ERROR_STATE, bytes((_INVALID_RPC,)))
        drain(ear)
        return
    version, kind, data, ok = got
    if version != _VERSION:  # not a frame for this board
        return
    if not ok:
        send(ear, _ERROR_STATE, bytes((_INVALID_RPC,)))
        drain(ear)
        return
    if kind != _RPC:  # the board's own kinds, echoed: nothing to do
        return
    if len(data) < 2 or data[1] != len(data) - 2:
        send(ear, _ERROR_STATE, bytes((_INVALID_RPC,)))
        return
    command = data[0]
    if command != _WIFI_SETTINGS and command != _GET_STATE and command != _GET_INFO and command != _GET_NETWORKS:
        send(ear, _ERROR_STATE, bytes((_UNKNOWN_RPC,)))
        return
    if board is None:
        board = getattr(ear, "board", None)
    if board is None:
        from connect4.modules import use
        board = use("connect4.net.provision").Board(ear.app)
    if command == _GET_STATE:
        url = board.url()
        send(ear, _CURRENT_STATE, bytes((_PROVISIONED if url else _READY,)))
        if url:
            send(ear, _RPC_RESULT, result(_GET_STATE, (url,)))
    elif command == _GET_INFO:
        send(ear, _RPC_RESULT, result(_GET_INFO, board.info()))
    elif command == _GET_NETWORKS:
        for ssid, rssi, secured in board.scan():
            send(ear, _RPC_RESULT, result(_GET_NETWORKS, (ssid, str(rssi), "YES" if secured else "NO")))
        send(ear, _RPC_RESULT, result(_GET_NETWORKS, ()))
    else:
        try:
            ssid, password = settings(data[2:])
        except ValueError:
            send(ear, _ERROR_STATE, bytes((_INVALID_RPC,)))
            return
        send(ear, _ERROR_STATE, bytes((_NO_ERROR,)))
        app = ear.app
        app.serial = Joining(ear, board)  # before Wi-Fi comes on: the ear is kept for the answer
        if not board.join(ssid, password, now):  # the flash refused it
            app.serial = ear
            send(ear, _ERROR_STATE, bytes((_UNKNOWN_ERROR,)))
            return
        send(ear, _CURRENT_STATE, bytes((_PROVISIONING,)))


def send(ear, kind, data):
    ear.out.write(frame(kind, data))


class Joining:
    """The app's serial hook while the board joins the network a computer gave it: each
    step asks the board how far it is; then the URL (PROVISIONED), the board stops listening,
    and once the answer has left the port (_FLUSH_MS) the app's loop ends for the board to
    restart (connect4.boot): Wi-Fi comes on at the next start from the switch saved on, on a
    whole heap, as after any power-on, with nothing of the join left in it (the names it
    interned stay until a restart). Or UNABLE_TO_CONNECT with the settings it had put back,
    and the ear listens again (what came meanwhile waits)."""

    def __init__(self, ear, board):
        self.ear = ear
        self.board = board
        self.answered = None  # ticks_ms when the URL was written

    def __call__(self, now):
        ear = self.ear
        app = ear.app
        if self.answered is not None:
            if ticks_diff(now, self.answered) >= _FLUSH_MS:
                app.restart = app.stopped = True
            return
        url = self.board.joined(now)
        if url is None:  # still joining
            return
        app.serial = ear
        if url:
            send(ear, _CURRENT_STATE, bytes((_PROVISIONED,)))
            send(ear, _RPC_RESULT, result(_WIFI_SETTINGS, (url,)))
            ear.stop()
            if self.board.kept:  # wifi.json and the switch on flash: on at the next start
                self.answered = now
                app.serial = self
        else:
            self.board.undo(now)
            send(ear, _ERROR_STATE, bytes((_UNABLE_TO_CONNECT,)))
            send(ear, _CURRENT_STATE, bytes((_READY,)))
