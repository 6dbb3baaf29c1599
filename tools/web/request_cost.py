"""What one web request costs the game loop, measured in the MicroPython VM.

    python tools/web/request_cost.py [N]

The server runs inside the AI's poll hook, so a request served there delays
the next button read by its own time. The VM has no sockets, so this puts
the firmware's own server (connect4.net.server, its routes and limits) on
the real App and on tests/portable/fakenet.py's fake sockets: N requests for
GET /api/state, each taken, read, parsed, routed, answered (the API's JSON)
and closed in one `pump()`, the server's real path but for the sockets.
Prints ms per request in the VM, and a chip estimate at 12 times that: the
VM runs the engine as bytecode at about 17,300 nodes/s (docs/benchmarks.md, Speed of the
search), the chip about 18,900 nodes/s as viper (tools.common.chip_nodes_per_second()),
and viper is about 10.6 times fewer instructions a node than bytecode on the chip
(106,000 vs 10,000 in the measured table of the chip notes), so the chip runs
bytecode about 10 times slower than the VM; 12 leaves a little room.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

VM_SCRIPT = r'''
import sys, time
sys.path.append('/tests/portable')
from fakes import Rig
from fakenet import FakeSocket, listen, get
from connect4.app.face import Face
from connect4.net.server import Server
from connect4.net.pairing import Pairing

REQUEST = get(b"/api/state", b"Accept: */*\r\n")

def one():
    s = FakeSocket(REQUEST)
    listener.waiting.append(s)
    server.pump()  # the listener ready: taken, read, answered and closed in this one pump
    assert s.closed and s.got.startswith(b"HTTP/1.0 200 OK"), s.got
    return len(s.got)

rig = Rig("cost")
rig.run_for(1600)
server = Server(Face(rig.app), Pairing())
listener = listen(server)
n = int(sys.argv[1])
size = one()
t = time.ticks_ms()
for _ in range(n):
    one()
ms = time.ticks_diff(time.ticks_ms(), t)
print("COST %d requests, %d bytes each, %.2f ms each in the VM" % (n, size, ms / n))
'''


CHIP_FACTOR = 12  # the chip runs bytecode about this many times slower than the VM (above)


def measure(n=200):
    """(ms a request in the VM, bytes of the answer); raises RuntimeError with the VM's output."""
    import tempfile
    from tools import mpvm
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "cost.py")
        with open(script, "w") as f:
            f.write(VM_SCRIPT)
        r = mpvm.run(script, str(n), grow=True, timeout=600,
                     paths=[(os.path.join(ROOT, "tests", "portable"), "/tests/portable")])
    for line in r.stdout.splitlines():
        if line.startswith("COST "):
            return float(line.split(" ms each")[0].split()[-1]), int(line.split(" bytes each")[0].split()[-1])
    raise RuntimeError(r.stdout + r.stderr)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    n = int(argv[0]) if argv else 200
    try:
        ms, size = measure(n)
    except RuntimeError as e:
        print(e)
        return 1
    print("%d requests, %d bytes each, %.2f ms each in the VM" % (n, size, ms))
    print("chip estimate (bytecode about %d times slower than the VM): %.1f ms a request" % (CHIP_FACTOR, ms * CHIP_FACTOR))
    return 0


if __name__ == "__main__":
    sys.exit(main())
