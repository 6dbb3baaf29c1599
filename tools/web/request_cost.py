"""What one web request costs the game loop, measured in the MicroPython VM.

    python tools/web/request_cost.py [N]

The server runs inside the AI's poll hook, so a request served there delays
the next button read by its own time. The VM has no sockets and its asyncio
has no run_until_complete, so this drives microdot by hand: N requests for
GET /api/state, each parsed from bytes (microdot's Request.create), routed,
answered (the API's JSON) and written to a memory stream, in the firmware's
own server (connect4.net.server, its routes and limits) on the real App.
Prints ms per request in the VM, and a chip estimate at 12 times that: the
VM runs the engine as bytecode at 11,900 nodes/s (docs/benchmarks.md, Speed of the
search), the chip about 18,900 nodes/s as viper (tools.common.chip_nodes_per_second()),
and viper is about 10.6 times fewer instructions a node than bytecode on the chip
(106,000 vs 10,000 in the measured table of the chip notes), so the chip runs
bytecode about 6.7 times slower than the VM; 12 leaves room.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

VM_SCRIPT = r'''
import sys, time
sys.path.append('/tests/portable')
from fakes import Rig
from connect4.app.face import Face
from connect4.net.server import Server
from connect4.net.pairing import Pairing
from microdot.microdot import Request

class In:
    def __init__(self, data):
        self.data = data
        self.pos = 0
    async def readline(self):
        i = self.data.find(b"\n", self.pos)
        i = len(self.data) if i < 0 else i + 1
        line = self.data[self.pos:i]
        self.pos = i
        return line
    async def readexactly(self, n):
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out
    async def read(self, n=-1):
        return await self.readexactly(len(self.data) - self.pos if n < 0 else n)

class Out:
    def __init__(self):
        self.n = 0
    async def awrite(self, data):
        self.n += len(data)
    async def aclose(self):
        pass
    def get_extra_info(self, name):
        return ("127.0.0.1", 1)

def drive(coro):
    try:
        while True:
            coro.send(None)
    except StopIteration as e:
        return e.value

async def one(web):
    out = Out()
    req = await Request.create(web, In(b"GET /api/state HTTP/1.1\r\nHost: board\r\nAccept: */*\r\n\r\n"), out, ("127.0.0.1", 1))
    res = await web.dispatch_request(req)
    await res.write(out)
    return out.n

rig = Rig("cost")
rig.run_for(1600)
server = Server(Face(rig.app), Pairing())
n = int(sys.argv[1])
size = drive(one(server.web))
t = time.ticks_ms()
for _ in range(n):
    drive(one(server.web))
ms = time.ticks_diff(time.ticks_ms(), t)
print("COST %d requests, %d bytes each, %.2f ms each in the VM" % (n, size, ms / n))
'''


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    n = int(argv[0]) if argv else 200
    import tempfile
    from tools import mpvm
    try:
        import microdot
    except ImportError:
        print("microdot is not installed (requirements-dev.txt)")
        return 2
    lib = os.path.dirname(microdot.__file__)
    import shutil
    from tools.board import device
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "lib", "microdot"))
        for name in device.LIBRARY_FILES:  # what make deploy puts in /lib/microdot
            shutil.copy(os.path.join(lib, name), os.path.join(tmp, "lib", "microdot", name))
        script = os.path.join(tmp, "cost.py")
        with open(script, "w") as f:
            f.write(VM_SCRIPT)
        r = mpvm.run(script, str(n), grow=True, timeout=600,
                     paths=[(os.path.join(ROOT, "tests", "portable"), "/tests/portable"),
                            (os.path.join(tmp, "lib"), "/lib")])
    for line in r.stdout.splitlines():
        if line.startswith("COST "):
            ms = float(line.split(" ms each")[0].split()[-1])
            print(line[5:])
            print("chip estimate (bytecode about 12 times slower than the VM): %.1f ms a request" % (ms * 12))
            return 0
    print(r.stdout + r.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
