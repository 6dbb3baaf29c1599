"""tools/bench/held.py: the search alone where the board holds a value past its book."""
import os
import subprocess
import sys

from tools.bench import held
from tools.bench.perfect import shared
from tools.common import ROOT, sign


def positions():
    with open(held.POSITIONS) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def test_the_position_set_holds_only_positions_the_board_holds_a_draw_or_a_win_in():
    found = positions()
    assert len(found) == len(set(found)) == 3037
    judge = shared()
    for moves in found[::101]:  # a sample: bitbully at 13-26 discs takes a while
        assert sign(max(s for s in judge.analyze(moves) if s is not None)) >= 0, moves


def test_held_judges_the_search_s_moves(tmp_path):
    """Three positions in CPython (through host_sim): one line a class held, and the total."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench", "held.py"), "--limit", "3",
                        "--nodes", "2000"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "2000 nodes, CPython" in r.stdout
    assert "all   positions     3" in r.stdout, r.stdout


def test_the_search_script_prints_a_column_and_nodes_a_position(tmp_path):
    first = positions()[0]
    (tmp_path / "p.txt").write_text("# a note\n%s\n" % first)
    found = held.search(str(tmp_path / "p.txt"), 500, os.path.join(ROOT, "firmware"))
    col, nodes = found[first]
    assert 1 <= col <= 7 and 0 < nodes <= 501
