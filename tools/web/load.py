"""The board's server while a peer holds idle sockets: answers a second, and the slowest.

    python tools/web/load.py [SECONDS]

Issue 32: ten idle connections from one peer made the next request wait about
4 s (503, then 200). This runs the simulator's --web (the firmware's server,
connect4.net.server, on the real clock, on CPython) and for SECONDS (default 5)
puts on it IDLE clients that each keep a socket open without a word (opened
again as soon as the server closes it) and POLLERS clients that each ask
GET /api/state again as soon as answered, as open pages would (far more often). It prints the
answers by status, the requests answered a second and the slowest answer.
Host figures (the simulator's loop on this machine), not the chip's: on the
chip, requests are served at every loop step and every poll of the search
(docs/web.md#while-the-ai-thinks). tests/test_web_server.py runs the same load
on a simulated board and holds every answer to a 200.
"""
import http.client
import os
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IDLE = 10
POLLERS = 4
TIMEOUT = 10.0  # a client's patience, seconds: far beyond any answer the server should take
# an idle client opens its next socket this long after the server closed one (a peer that
# does so at once floods the listen backlog, and some connections then wait for TCP's
# 1 s retransmission, however quickly the server serves)
IDLE_PAUSE = 0.1


def _idle(port, stop, closed):
    """Hold one socket open, silent; when the server closes it, open another."""
    while not stop.wait(IDLE_PAUSE):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        except OSError:
            stop.wait(0.05)
            continue
        s.settimeout(0.1)
        try:
            while not stop.is_set():
                try:
                    if s.recv(1) == b"":
                        closed.append(1)
                        break
                except socket.timeout:
                    continue
        except OSError:  # reset
            closed.append(1)
        finally:
            s.close()


def _poll(port, stop, answers):
    """GET /api/state again and again: (status or the exception's name, seconds) each."""
    while not stop.is_set():
        start = time.monotonic()
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        try:
            c.request("GET", "/api/state")
            r = c.getresponse()
            r.read()
            status = r.status
        except Exception as e:  # noqa: BLE001 (a timeout, a reset: counted, named)
            status = type(e).__name__
        finally:
            c.close()
        answers.append((status, time.monotonic() - start))


def run(port, seconds=5.0, idle=IDLE, pollers=POLLERS):
    """The load on the server at 127.0.0.1:port for `seconds`. Returns a dict: statuses
    {status: count}, answered (200s), per_second, slowest (s), idle_closed (idle sockets the
    server closed)."""
    stop = threading.Event()
    closed, answers = [], []
    threads = [threading.Thread(target=_idle, args=(port, stop, closed), daemon=True) for _ in range(idle)]
    for t in threads:
        t.start()
    time.sleep(0.3)  # the idle sockets first, as a peer holding them would
    polling = [threading.Thread(target=_poll, args=(port, stop, answers), daemon=True) for _ in range(pollers)]
    start = time.monotonic()
    for t in polling:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in polling + threads:
        t.join(TIMEOUT + 5)
    elapsed = time.monotonic() - start
    statuses = {}
    for status, _ in answers:
        statuses[status] = statuses.get(status, 0) + 1
    answered = statuses.get(200, 0)
    return {"statuses": statuses, "answered": answered, "per_second": answered / elapsed,
            "slowest": max((t for _, t in answers), default=0.0), "idle_closed": len(closed),
            "seconds": elapsed, "idle": idle, "pollers": pollers}


def report(f):
    return ("%d idle sockets and %d polling clients for %.1f s: %d requests answered (%.0f a second), "
            "the slowest in %.0f ms; answers by status %s; %d idle sockets closed by the server"
            % (f["idle"], f["pollers"], f["seconds"], f["answered"], f["per_second"], 1000 * f["slowest"],
               ", ".join("%s: %d" % (k, v) for k, v in sorted(f["statuses"].items(), key=str)),
               f["idle_closed"]))


def simulator(port):
    """`host_sim.sim --headless --web PORT` in two-player mode, once it serves: the process."""
    p = subprocess.Popen([sys.executable, "-m", "host_sim.sim", "--headless", "--temp-flash", "--mode", "two",
                          "--web", str(port), "--seconds", "600"], cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE, text=True)
    line = ""
    while not line.startswith("web:"):
        line = p.stdout.readline()
        if not line:
            raise RuntimeError("the simulator stopped before serving")
    return p


def measure(seconds=5.0):
    """run() on a simulator of its own (simulator())."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    p = simulator(port)
    try:
        return run(port, seconds)
    finally:
        p.terminate()
        p.wait(10)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    figures = measure(float(argv[0]) if argv else 5.0)
    print(report(figures))
    return 0 if set(figures["statuses"]) == {200} else 1


if __name__ == "__main__":
    sys.exit(main())
