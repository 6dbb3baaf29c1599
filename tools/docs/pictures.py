"""`make picture`: the pictures of the board in the README and docs/, each a scripted run of the simulator.

    python tools/docs/pictures.py [--out DIR] [NAME ...]

Each picture's script (docs/NAME.script; `menu ITEM` names the menu items it
walks to) plays two-player games on a flash of its own, removed afterwards.
PICTURES holds each picture with its caption in the README or docs/*.md and what it must
show at its end; tests/test_pictures.py makes them afresh and checks that they
do (the final position is the recorded game, or the game left on the board).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools.common import ROOT  # noqa: E402

DOCS = os.path.join(ROOT, "docs")
SIM_ARGS = ("--headless", "--mode", "two", "--seed", "7")
# (picture, its caption in the README or docs/, what its last frames show:
#  "record" the game recorded, "unfinished" the game left on the board, "replay" the
#  recorded game replayed from the menu's games list; "menu": the menu shows before that)
PICTURES = (
    ("board.gif", "The board simulator playing a two-player game, then the menu", ("record", "menu")),
    ("layout.png", "Layout of a game in progress", ("unfinished",)),
    ("layout-8x7.png", "Layout of an 8x7 game in progress", ("unfinished",)),
    ("layout-5x4.png", "Layout of a 5x4 game in progress", ("unfinished",)),
    ("replay.gif", "A hint, then the game replayed from the games list", ("replay", "menu")),
)
SIZES = {"layout-8x7.png": "8x7", "layout-5x4.png": "5x4"}  # the board of a picture not on 7x6


def size_of(picture):
    """The board size a picture's run plays on (--size)."""
    return SIZES.get(picture, "7x6")


def script_of(picture):
    return os.path.join(DOCS, os.path.splitext(picture)[0] + ".script")


def make(picture, out_dir=DOCS):
    """Record `picture` into out_dir; returns what the run left: {"path", "records" (the
    move strings of the recorded games, oldest first), "unfinished" (moves, or None)}."""
    flash = tempfile.mkdtemp(prefix="picture_flash-")
    path = os.path.join(out_dir, picture)
    try:
        r = subprocess.run([sys.executable, "-m", "host_sim.sim"] + list(SIM_ARGS) + [
            "--size", size_of(picture), "--flash", flash, "--script", script_of(picture), "--record", path],
            cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("%s: the simulator failed (%d): %s" % (picture, r.returncode, r.stderr))
        records = []
        try:
            with open(os.path.join(flash, "games.txt")) as f:
                records = [line.split()[6] for line in f if line.strip()]
        except OSError:
            pass
        m = re.search(r"^game \d+, .*: unfinished, moves (\d+)$", r.stdout, re.M)
        return {"path": path, "records": records, "unfinished": m.group(1) if m else None}
    finally:
        shutil.rmtree(flash, ignore_errors=True)


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=DOCS, help="the folder to write them to (default docs/)")
    p.add_argument("names", nargs="*", help="pictures to make (default: all of %s)"
                   % ", ".join(name for name, _, _ in PICTURES))
    args = p.parse_args(argv)
    known = [name for name, _, _ in PICTURES]
    for name in args.names:
        if name not in known:
            p.error("unknown picture %r (known: %s)" % (name, ", ".join(known)))
    for name in args.names or known:
        got = make(name, args.out)
        print("%s: recorded games %s, unfinished %s" % (got["path"], got["records"] or "none",
                                                       got["unfinished"] or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
