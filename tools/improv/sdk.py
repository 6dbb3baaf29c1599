"""The protocol's own Improv client against a board on this side: tools/improv/client.mjs
(npm improv-wifi-serial-sdk's ImprovSerial, in Node) with its serial port relayed here.

`talk(steps, board)` runs the client's steps (client.mjs's list) and relays bytes both ways
until it is done: `board(data)` is handed what the client wrote since the last call (often
nothing) and returns what the board wrote since, its console lines included (the client skips
them, as it does on a real port). The firmware in CPython (tests/test_improv_sdk.py) or the
emulated chip's UART (tests/chip/test_improv_on_chip.py) is the board. Host only; needs node
and node_modules (`npm ci`).
"""
import json
import os
import queue
import subprocess
import threading
import time

from tools.common import ROOT

CLIENT = os.path.join(ROOT, "tools", "improv", "client.mjs")
SDK = os.path.join(ROOT, "node_modules", "improv-wifi-serial-sdk", "package.json")


def available():
    """Is the client installed (node and the npm package)?"""
    import shutil
    return bool(shutil.which("node")) and os.path.isfile(SDK)


def sdk_version():
    with open(SDK) as f:
        return json.load(f)["version"]


def _pipe(stream, out):
    while True:
        chunk = stream.read1(4096) if hasattr(stream, "read1") else stream.read(1)
        if not chunk:
            out.put(None)
            return
        out.put(chunk)


def talk(steps, board, timeout=120, idle=None):
    """Run `steps`; returns (results, transcript): each step's result (a dict), and every
    byte both ways in order, [("client" | "board", bytes)]. `idle()`, if given, is called
    while nothing moves (the chip test watches for the emulator's stall there)."""
    proc = subprocess.Popen(["node", CLIENT, json.dumps(steps)], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wrote, said = queue.Queue(), queue.Queue()
    threads = [threading.Thread(target=_pipe, args=(proc.stdout, wrote), daemon=True),
               threading.Thread(target=_pipe, args=(proc.stderr, said), daemon=True)]
    for t in threads:
        t.start()
    transcript, err, done = [], b"", False
    end = time.monotonic() + timeout
    try:
        while not done:
            if time.monotonic() > end:
                raise TimeoutError("the Improv client did not finish within %d s; it said:\n%s"
                                   % (timeout, err.decode(errors="replace")))
            data = b""
            try:
                while True:
                    chunk = wrote.get(timeout=0.01 if not data else 0)
                    if chunk is None:
                        done = True
                        break
                    data += chunk
            except queue.Empty:
                pass
            while not said.empty():
                err += said.get_nowait() or b""
            if data:
                transcript.append(("client", data))
            answer = board(data)
            if answer:
                transcript.append(("board", answer))
                try:
                    proc.stdin.write(answer)
                    proc.stdin.flush()
                except (BrokenPipeError, OSError):
                    done = True
            elif not data and idle is not None:
                idle()
    finally:
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for t in threads:
            t.join(timeout=5)
    while not said.empty():
        err += said.get_nowait() or b""
    lines = err.decode(errors="replace").splitlines()
    results = [json.loads(ln[len("RESULT "):]) for ln in lines if ln.startswith("RESULT ")]
    if len(results) != len(steps):
        raise RuntimeError("the Improv client gave %d results for %d steps; it said:\n%s"
                           % (len(results), len(steps), "\n".join(lines)))
    return results, transcript
