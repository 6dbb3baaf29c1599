"""Level 8 in the page: time per move in headless Chromium, beside CPython and the chip estimate.

    python tools/site/bench.py [--positions 4453,3344352,...] [--stock-loader]

Builds the site (without the opening book: every move a search), opens it in
Debian's chromium (selenium, as the tests do) and sends `level 8`, `position P`,
`go` for each of tools/bench/chipbench.py's positions to the page's MicroPython
(its engine worker, the same VM and firmware as the board page); the same
commands run on CPython (connect4.engine.protocol in this process). The chip
column is the nodes at tools.common.chip_nodes_per_second() (tools/data/chip.txt).
--stock-loader adds a row for the same page with the npm package's loader as it
comes (with the debug check that tools/site/build.py's loader() takes out), in
the same run.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
sys.path.insert(1, os.path.join(ROOT, "tools", "bench"))

import host_sim  # noqa: E402,F401  (the firmware on the path)
from tools.common import chip_nodes_per_second  # noqa: E402
from tools.site import build, serve  # noqa: E402


def commands(positions):
    out = ["level 8"]
    for p in positions:
        out += ["position " + p, "go"]
    return out


def nodes_of(lines):
    """The node count of each search: its last `info` line before each bestmove."""
    out, last = [], 0
    for line in lines:
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words:
            last = int(words[words.index("nodes") + 1])
        elif words[:1] == ["bestmove"]:
            out.append(last)
    return out


def cpython(cmds):
    from connect4.engine.player import AIPlayer
    from connect4.engine.protocol import Protocol
    out, ms = [], []
    protocol = Protocol(out.append, AIPlayer(book=None))
    for line in cmds:
        t0 = time.perf_counter()
        protocol.handle(line)
        ms.append((time.perf_counter() - t0) * 1000)
    return out, ms


def browser(cmds, stock=False):
    """The page's answers, ms per line and Chromium's version (stock: the package's own loader)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    folder = tempfile.mkdtemp(prefix="site-")
    profile = tempfile.mkdtemp(prefix="chromium-")
    build.build(folder, book=False)
    if stock:
        shutil.copyfile(os.path.join(build.WASM_DIR, "micropython.mjs"), os.path.join(folder, "micropython.mjs"))
    server, url = serve.start(directory=folder)
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--user-data-dir=" + profile):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=opts)
    try:
        driver.set_script_timeout(600)
        driver.get(url)
        r = driver.execute_async_script("c4.engineTimed(arguments[0]).then(arguments[1])", cmds)
        version = driver.capabilities.get("browserVersion", "?")
        return r["out"], r["ms"], version
    finally:
        driver.quit()
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)


def go_times(cmds, ms):
    return [t for c, t in zip(cmds, ms) if c == "go"]


def main(argv=None):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from bench.chipbench import POSITIONS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", default=",".join(p or "-" for p in POSITIONS),
                    help="comma-separated move strings, '-' the empty board")
    ap.add_argument("--stock-loader", action="store_true",
                    help="also time the page with the npm package's loader as it comes")
    args = ap.parse_args(argv)
    positions = ["" if p == "-" else p for p in args.positions.split(",")]
    cmds = commands(positions)
    page_out, page_ms, version = browser(cmds)
    cpy_out, cpy_ms = cpython(cmds)
    if page_out != cpy_out:
        sys.exit("error: the page and CPython answered differently:\n%s\n%s" % (page_out, cpy_out))
    stock = []
    if args.stock_loader:
        stock_out, stock_ms, _ = browser(cmds, stock=True)
        if stock_out != page_out:
            sys.exit("error: the two loaders answered differently")
        stock = [("Chromium %s, the npm package's loader as it comes" % version, go_times(cmds, stock_ms))]
    nodes = nodes_of(page_out)
    rate = chip_nodes_per_second()
    chip = [n * 1000.0 / rate for n in nodes]
    rows = [("Chromium %s (the page's MicroPython, WebAssembly)" % version, go_times(cmds, page_ms))] + stock + [
        ("CPython %d.%d (host simulator)" % sys.version_info[:2], go_times(cmds, cpy_ms)),
        ("ESP32-C3 estimate (%d nodes/s, tools/data/chip.txt)" % rate, chip)]
    print("level 8, %d positions (%s), %d nodes a move on average, the same moves and nodes in each" % (
        len(positions), ", ".join(p or "empty" for p in positions), statistics.mean(nodes)))
    print("| where | mean ms a move | max ms |")
    print("|---|---:|---:|")
    for name, times in rows:
        print("| %s | %.0f | %.0f |" % (name, statistics.mean(times), max(times)))


if __name__ == "__main__":
    main()
