"""Improv Wi-Fi Serial (issue 39): the frames and the state machine, through the board's ear
(connect4.ear, made by connect4.listen) on a fake USB serial port, with a fake board side
(connect4.net.provision's Board: tests/test_improv_board.py has the real one). Runs in the
MicroPython VM too. The protocol's own client checks the same bytes: tests/test_improv_sdk.py.
"""
from connect4 import listen
from connect4.net import improv
from fakeserial import App, Board, Port

SUM_IMPROV = 73 + 77 + 80 + 82 + 79 + 86  # "IMPROV"


def rig(ms=60000, board=None):
    app, port = App(), Port()
    assert listen.start(app, 0, ms, port, port, port)
    app.serial.board = board or Board()
    return app, port


def frame(kind, data, version=1, checksum=None, length=None):
    """A frame as the spec draws it, built here by hand (not by the firmware's improv.frame)."""
    body = b"IMPROV" + bytes((version, kind, len(data) if length is None else length)) + data
    return body + bytes(((sum(body) if checksum is None else checksum) & 0xFF,)) + b"\n"


def rpc(command, data=b""):
    return frame(3, bytes((command, len(data))) + data)


def hear(app, port, now=0, steps=200):
    """Loop steps (the ear's hook) until what was sent is read (or the ear gave way to a join,
    which reads nothing); the frames written, decoded."""
    for _ in range(steps):
        if app.serial is None or not port.data or hasattr(app.serial, "ear"):
            break
        app.serial(now)
    return frames(port)


def frames(port):
    """[(type, data)] of every frame the board wrote, each checked: version 1, its length,
    its checksum, a newline after it."""
    out, i, got = port.out, 0, []
    port.out = b""
    while i < len(out):
        assert out[i:i + 6] == b"IMPROV", out[i:]
        n = out[i + 8]
        end = i + 9 + n
        assert out[i + 6] == 1 and out[end] == sum(out[i:end]) & 0xFF and out[end + 1] == 10, out[i:]
        got.append((out[i + 7], out[i + 9:end]))
        i = end + 2
    return got


def strings(data, command):
    """An RPC result's strings (its command checked)."""
    assert data[0] == command and data[1] == len(data) - 2, data
    out, i = [], 2
    while i < len(data):
        out.append(data[i + 1:i + 1 + data[i]].decode())
        i += 1 + data[i]
    return out


def settings(ssid, password):
    return bytes((len(ssid),)) + ssid + bytes((len(password),)) + password


def test_a_frame_is_the_header_version_type_length_data_and_the_sum_of_all_before():
    assert improv.frame(1, b"\x02") == b"IMPROV\x01\x01\x01\x02" + bytes(
        ((SUM_IMPROV + 1 + 1 + 1 + 2) & 0xFF,)) + b"\n"
    assert improv.frame(1, b"\x02") == frame(1, b"\x02")
    assert improv.result(3, ("ab", b"\x00c")) == b"\x03\x06\x02ab\x02\x00c"


def test_current_state_ready_and_then_provisioned_with_its_url():
    app, port = rig()
    port.send(b"connect4 junk, a newline\nIMPRO" + rpc(2))  # a false start, then the frame
    assert hear(app, port) == [(1, b"\x02")]  # READY
    app.serial.board.home_url = "http://192.168.1.57/"
    port.send(rpc(2))
    got = hear(app, port)
    assert got[0] == (1, b"\x04") and strings(got[1][1], 2) == ["http://192.168.1.57/"]
    assert len(got) == 2


def test_device_info_and_the_networks_in_reach_then_an_empty_result():
    app, port = rig()
    port.send(rpc(3))
    (kind, data), = hear(app, port)
    assert kind == 4 and strings(data, 3) == ["connect4", "0.1.0", "ESP32-C3", "Connect4-C47E"]
    port.send(rpc(4))
    got = hear(app, port)
    assert [strings(d, 4) for k, d in got if k == 4] == [["HomeNet", "-48", "YES"], ["Cafe", "-71", "NO"], []]
    assert len(got) == 3


def test_wifi_settings_join_then_answer_the_url_and_the_board_stops_listening():
    board = Board(joins=(None, None, "http://192.168.1.57/"))
    app, port = rig(None, board)  # no home network: listening for good
    ear = app.serial
    port.send(rpc(1, settings(b"HomeNet", b"secret123")))
    got = hear(app, port)
    assert got == [(2, b"\x00"), (1, b"\x03")]  # no error, PROVISIONING
    assert board.calls == [("join", "HomeNet", "secret123")]
    assert app.serial is not ear and app.serial.ear is ear  # joining
    app.serial(10)
    app.serial(20)
    assert frames(port) == []
    app.serial(30)
    got = frames(port)
    assert got[0] == (1, b"\x04") and strings(got[1][1], 1) == ["http://192.168.1.57/"]
    assert len(got) == 2 and app.serial is not ear  # Wi-Fi is on: no more listening
    # the answer leaves the port; then the app's loop ends for the board to restart
    port.send(rpc(2))  # (no more listening: unheard)
    for now in (31, 100, 529):
        app.serial(now)
        assert not app.restart and not app.stopped
    app.serial(530)
    assert app.restart and app.stopped and frames(port) == [] and port.data
    app.serial(540)  # (until the loop ends: nothing more)
    assert frames(port) == [] and board.calls == [("join", "HomeNet", "secret123")]


def test_a_join_whose_switch_the_flash_refused_answers_and_does_not_restart():
    board = Board(joins=("http://192.168.1.57/",))
    board.kept = False  # Wi-Fi is on, but would not be on at the next start
    app, port = rig(None, board)
    port.send(rpc(1, settings(b"HomeNet", b"secret123")))
    hear(app, port)
    app.serial(10)
    got = frames(port)
    assert got[0] == (1, b"\x04") and strings(got[1][1], 1) == ["http://192.168.1.57/"]
    assert app.serial is None and not app.restart and not app.stopped


def test_a_network_it_cannot_join_is_unable_to_connect_and_put_back():
    board = Board(joins=(None, ""))
    app, port = rig(60000, board)
    port.send(rpc(1, settings(b"Elsewhere", b"")))  # an open network
    assert hear(app, port) == [(2, b"\x00"), (1, b"\x03")]
    app.serial(5)
    app.serial(6)
    assert frames(port) == [(2, b"\x03"), (1, b"\x02")]  # UNABLE_TO_CONNECT, READY
    assert board.calls == [("join", "Elsewhere", ""), "undo"] and app.serial.until == 60000


def bad(data):
    """Bytes that are no good frame: what the board answered, and what it asked its side."""
    board = Board()
    app, port = rig(60000, board)
    port.send(data)
    return hear(app, port), board.calls, app


def test_bad_frames_get_improvs_error_states_and_change_nothing():
    invalid, unknown = [(2, b"\x01")], [(2, b"\x02")]
    good = rpc(1, settings(b"HomeNet", b"secret123"))
    cases = [
        (frame(3, good[9:-2], checksum=sum(good[:-2]) + 1), invalid),  # a wrong checksum
        (frame(3, b"\x01\x05" + settings(b"HomeNet", b"secret123")), invalid),  # RPC length
        (rpc(1, b"\x0aHome\x00"), invalid),  # an SSID longer than what came
        (frame(3, bytes((2, 0)), length=5), invalid),  # longer than what came: cut short
        (rpc(9), unknown),  # an unknown command
        (rpc(1, settings(b"x" * 40, b"secret123")), invalid),  # a 40-byte SSID
        (rpc(1, settings(b"", b"secret123")), invalid),  # no SSID
        (rpc(1, settings(b"HomeNet", b"secr\x00et123")), invalid),  # a NUL in the password
        (rpc(1, settings(b"Home\x00Net", b"secret123")), invalid),  # ... in the SSID
        (rpc(1, settings(b"HomeNet", b"short")), invalid),  # neither open nor WPA2's 8-63
        (rpc(1, settings(b"HomeNet", b"x" * 64)), invalid),
        (rpc(1, settings(b"\xff\xfeNet", b"secret123")), invalid),  # not UTF-8
    ]
    for data, answer in cases:
        got, calls, app = bad(data)
        assert got == answer, (data, got)
        assert calls == [] and app.serial is not None and app.serial.until == 60000, (data, calls)


def test_a_frame_for_another_version_or_of_another_type_is_not_answered():
    for data in (frame(3, bytes((2, 0)), version=2), frame(1, b"\x02"), frame(4, b"\x02\x00")):
        got, calls, app = bad(data)
        assert got == [] and calls == [] and app.serial is not None, data


def test_ctrl_c_stops_the_app_outside_a_frame_never_inside_one():
    app, port = rig()
    port.send(rpc(2))  # its type byte is 0x03 ...
    assert hear(app, port) == [(1, b"\x02")]
    port.send(frame(3, bytes((2, 0, 3, 3)), length=2))  # ... and a wrong length leaves 0x03s behind
    assert hear(app, port) == [(2, b"\x01")] and not port.data  # the rest dropped to its newline
    ear = app.serial
    port.send(b"\r\x03\r\x01")  # mpremote: Ctrl-C, then Ctrl-A for the raw REPL
    ear(0)
    try:
        ear(0)
        raise AssertionError("Ctrl-C did not stop the app")
    except KeyboardInterrupt:
        pass
    assert app.serial is None and port.data == b"\r\x01"  # what followed is the REPL's


def test_listening_ends_at_its_time_and_the_menu_makes_it_longer():
    app, port = rig(1000)
    ear = app.serial
    assert listen.start(app, 500, 2000, port, port, port) and app.serial is ear and ear.until == 2500
    assert listen.start(app, 600, 100, port, port, port) and ear.until == 2500  # never shorter
    ear(2499)
    assert app.serial is ear
    ear(2500)
    assert app.serial is None
    assert not listen.start(App(), 0, 1000)  # no USB serial port but the chip's


def test_at_the_start_it_listens_a_minute_or_for_good_without_a_home_network():
    from connect4.net.netconf import NetConf
    app, port = App(), Port()
    listen.at_start(app, 0, port, port, port)
    assert app.serial.until is None  # no wifi.json: no home network
    conf = NetConf(app.cfg["flash_dir"]).load()
    app.serial = None
    listen.at_start(app, 0, port, port, port)
    assert app.serial.until is None  # a file with its access point's key only
    assert conf.set_network("HomeNet", "secret123")
    app.serial = None
    listen.at_start(app, 7, port, port, port)
    assert app.serial.until == 7 + listen.LISTEN_MS
    assert conf.set_network("", "")
    assert not listen.home_set(app.cfg["flash_dir"])
