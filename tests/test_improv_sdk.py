"""Issue 39: the firmware's Improv Wi-Fi Serial against the protocol's own client, npm
improv-wifi-serial-sdk (the version ESP Web Tools pins), run in Node (tools/improv/client.mjs),
on the same bytes both ways: the client's frames reach the firmware's ear and state machine
(in CPython, on tests/portable/fakeserial.py's port and board side) and the board's answers
reach the client, which reads what the install page would show: the state, the device info,
the networks, the URL after "send Wi-Fi settings", and each bad frame's error. Then the
MicroPython VM is handed the client's very bytes and must write the very bytes the client
took. (The board's side itself, on host_sim's radio: tests/test_improv_board.py.)
"""
import json
import os

import pytest

from connect4 import VERSION
from fakeserial import Board, Device
from tools import mpvm
from tools.improv import sdk

pytestmark = [
    pytest.mark.skipif(not sdk.available(), reason="the Improv client runs in Node: node and node_modules (npm ci)"),
    pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (npm ci): the replay runs in it"),
]

URL = "http://192.168.1.57/"
GOOD = ["provision", "HomeNet", "secret123", 10000]


def raw(data, ms=3000):
    """A frame as it is, hex (the client's own framing cannot be wrong)."""
    return ["raw", data.hex(), ms]


def bad_checksum():
    body = b"IMPROV\x01\x03\x02\x02\x00"
    return body + bytes(((sum(body) + 1) & 0xFF,)) + b"\n"


STEPS = [
    ["initialize", 3000],
    ["scan"],
    raw(bad_checksum()),
    ["rpc", 9, []],
    ["provision", "x" * 40, "secret123", 3000],
    ["provision", "HomeNet", "secr\x00t123", 3000],
    ["provision", "HomeNet", "short", 3000],
    ["provision", "Elsewhere", "", 10000],
    ["state"],
    GOOD,  # the last: once on the network, with Wi-Fi on, the board listens no more
]


def exchange():
    board = Board(joins=(None, "", None, None, URL))  # the first join fails, the second works
    return sdk.talk(STEPS, Device(board)), board


@pytest.fixture(scope="module")
def talked():
    return exchange()


def test_the_clients_version_is_the_one_esp_web_tools_pins():
    with open(os.path.join(mpvm.ROOT, "node_modules", "esp-web-tools", "package.json")) as f:
        assert json.load(f)["dependencies"]["improv-wifi-serial-sdk"] == sdk.sdk_version() == "2.8.0"


def test_the_client_reads_the_state_the_device_info_and_the_networks(talked):
    (results, _), _ = talked
    first = results[0]
    assert "error" not in first, first
    assert first["info"] == {"firmware": "connect4", "version": VERSION, "chipFamily": "ESP32-C3",
                             "name": "Connect4-C47E", "osName": None, "osVersion": None}
    assert first["state"] == 2 and first["nextUrl"] is None and first["deviceError"] == 0  # READY
    assert results[1]["networks"] == [{"name": "Cafe", "rssi": -71, "secured": False},
                                      {"name": "HomeNet", "rssi": -48, "secured": True}]


def test_the_client_gives_a_network_and_reads_the_boards_url(talked):
    (results, _), board = talked
    assert results[9] == {"step": "provision", "state": 4, "deviceError": 0, "nextUrl": URL}
    assert ("join", "HomeNet", "secret123") in board.calls


def test_bad_frames_get_the_clients_error_and_change_nothing(talked):
    (results, _), board = talked
    wrong, unknown, ssid, nul, short = results[2:7]
    assert wrong["answered"] and wrong["deviceError"] == 1  # INVALID_RPC
    assert unknown["error"] == "UNKNOWN_RPC_COMMAND" and unknown["deviceError"] == 2
    for r in (ssid, nul, short):
        assert r["error"] == "INVALID_RPC_PACKET" and r["deviceError"] == 1, r
    joins = [c for c in board.calls if c[0] == "join"]
    assert joins == [("join", "Elsewhere", ""), ("join", "HomeNet", "secret123")]  # the bad ones: none


def test_a_network_it_cannot_join_is_unable_to_connect(talked):
    (results, _), board = talked
    failed, after = results[7], results[8]
    assert failed["error"] == "UNABLE_TO_CONNECT" and failed["deviceError"] == 3, failed
    assert "undo" in board.calls
    assert after["state"] == 2 and after["nextUrl"] is None  # READY, listening still


VM_REPLAY = """
import json
from fakeserial import Board, Device
with open("/t/client.json") as f:
    chunks = json.load(f)
device = Device(Board(joins=(None, "", None, None, %r)))
out = b""
for hexed in chunks:
    out += device(bytes.fromhex(hexed))
print("BOARD " + out.hex())
""" % URL


def test_the_micropython_vm_answers_the_clients_bytes_with_the_same_bytes(talked, tmp_path):
    (_, transcript), _ = talked
    client = [data.hex() for who, data in transcript if who == "client"]
    board = b"".join(data for who, data in transcript if who == "board")
    assert len(client) >= len(STEPS) and len(board) > 200
    (tmp_path / "client.json").write_text(json.dumps(client))
    (tmp_path / "main.py").write_text(VM_REPLAY)
    portable = os.path.join(mpvm.ROOT, "tests", "portable")
    r = mpvm.run(tmp_path / "main.py", paths=[(tmp_path, "/t"), (portable, "/tests/portable")], grow=True)
    assert r.returncode == 0, r.stdout + r.stderr
    out = [ln for ln in r.stdout.splitlines() if ln.startswith("BOARD ")]
    assert out and bytes.fromhex(out[0][6:]) == board
