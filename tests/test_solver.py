"""Tests of tools/bench/solver.py against Pascal Pons' published benchmark scores.

The vendored samples in tests/data are every 25th line of his Test_L3_R1 and
Test_L2_R1 files; the full files are checked only when the environment
variable C4_SHARED_BENCH names a directory holding them.
"""

import io
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tools.bench import solver
from tools.bench.solver import Position, Solver

DATA = Path(__file__).parent / "data"
SAMPLES = ["Test_L3_R1.sample", "Test_L2_R1.sample"]
BENCH_NAMES = ["Test_L3_R1", "Test_L2_R1"]

# A finished game: 42 discs, nobody connected four.
FULL_DRAW = "231634161247672231544674712724167556333555"

# Positions from the samples plus the examples of blog.gamesolver.org part 2.
ANALYZED = [
    "2252576253462244111563365343671351441",
    "7422341735647741166133573473242566",
    "335413424327172446337172625415575517",
    "41416453222527221644",
    "536553711753541133152",
    "44455554221",
]


def sample_lines(name):
    return list(solver.read_benchmark(str(DATA / name)))


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_scores_are_exact(name):
    lines = sample_lines(name)
    assert len(lines) == 40
    engine = Solver()
    for number, moves, expected in lines:
        assert engine.solve(moves) == expected, f"{name}:{number} {moves}"


@pytest.mark.parametrize("name", SAMPLES)
def test_check_file_reports_success(name):
    out = io.StringIO()
    assert solver.check_file(str(DATA / name), out=out) == 0
    assert out.getvalue().startswith("checked 40, mismatches 0, mean nodes ")


def test_check_file_reports_mismatch_and_limit(tmp_path):
    bench = tmp_path / "bench"
    bench.write_text("# comment\n\n44455554221 -15\n4455 17\n4455 18\n")
    out = io.StringIO()
    assert solver.check_file(str(bench), out=out) == 1
    assert "line 4: 4455 expected 17, got 18" in out.getvalue()
    assert "checked 3, mismatches 1," in out.getvalue()
    out = io.StringIO()
    assert solver.check_file(str(bench), limit=1, out=out) == 0
    assert "checked 1, mismatches 0," in out.getvalue()


def test_read_benchmark_rejects_malformed_line(tmp_path):
    bench = tmp_path / "bench"
    bench.write_text("4455 18\n4455\n")
    with pytest.raises(ValueError, match="bench:2"):
        list(solver.read_benchmark(str(bench)))


def test_blog_examples():
    assert solver.solve("4455") == 18
    assert solver.solve("44455554221") == -15


@pytest.mark.parametrize("moves", ANALYZED)
def test_analyze_is_consistent_with_solve(moves):
    engine = Solver()
    scores = engine.analyze(moves)
    assert len(scores) == 7
    assert max(s for s in scores if s is not None) == engine.solve(moves)
    position = Position.parse(moves)
    for col, score in enumerate(scores):
        if not position.can_play(col):
            assert score is None
        elif not position.play(col).won:
            assert score == -engine.solve(moves + str(col + 1))
    best = max(s for s in scores if s is not None)
    assert engine.best_moves(moves) == [c + 1 for c, s in enumerate(scores) if s == best]


@pytest.mark.parametrize("moves", ANALYZED)
def test_sign_and_move_signs_agree_with_the_exact_scores(moves):
    """The public cheap searches tools/tuning/make_midgame_set.py filters with."""
    exact = Solver()
    cheap = Solver()
    sign = lambda x: (x > 0) - (x < 0)  # noqa: E731
    assert cheap.sign(moves) == sign(exact.solve(moves))
    assert cheap.move_signs(moves) == [None if s is None else sign(s) for s in exact.analyze(moves)]


def test_a_node_limit_gives_up_deterministically_and_keeps_the_table():
    moves = "34773631712336641477"  # from the L2 sample: score -9, about 1,200 nodes
    full = Solver()
    assert full.solve(moves) == -9
    assert full.nodes > 50
    limited = Solver(node_limit=50)
    with pytest.raises(solver.NodeLimitReached):
        limited.solve(moves)
    assert limited.nodes == 50
    limited.nodes = 0  # a new count; the bounds found so far stay
    limited.node_limit = None
    assert limited.solve(moves) == full.solve(moves)
    assert Solver(node_limit=full.nodes).solve(moves) == full.solve(moves)


def test_full_columns_are_none():
    scores = solver.analyze("2252576253462244111563365343671351441")
    assert scores[:5] == [None] * 5
    assert scores[5:] == [-1, -2]


# solve() only: analyze() would also need the exact scores of the other
# moves, and early positions take minutes.
@pytest.mark.parametrize("moves", ["112233", "121212", "1213243"])
def test_early_immediate_win_scores(moves):
    assert solver.solve(moves) == (42 + 1 - len(moves)) // 2


# Late positions (analyze stays fast) with exactly one winning move.
@pytest.mark.parametrize("moves, column", [
    ("473552544734335546136652", 2),          # horizontal
    ("462356766146517255346112322273", 7),    # vertical
    ("72277331422256737724531336", 6),        # diagonal /
    ("3624532157157264377561123126", 4),      # diagonal \\
])
def test_immediate_win_scores(moves, column):
    win = (42 + 1 - len(moves)) // 2
    assert solver.solve(moves) == win
    scores = solver.analyze(moves)
    assert scores[column - 1] == win
    assert all(s is None or s < win for c, s in enumerate(scores) if c != column - 1)
    assert solver.best_moves(moves) == [column]


def test_last_empty_cell_is_a_draw():
    engine = Solver()
    assert engine.analyze(FULL_DRAW[:-1]) == [None] * 4 + [0] + [None] * 2
    assert engine.solve(FULL_DRAW[:-1]) == 0


def test_table_persists_between_calls():
    engine = Solver()
    moves = "5554224333423"  # about 17 000 nodes from scratch
    score = engine.solve(moves)
    first = engine.nodes
    assert engine.solve(moves) == score
    assert engine.nodes - first < first // 10
    engine.reset()
    assert engine.nodes == 0
    assert engine.solve(moves) == score
    assert engine.nodes == first


def test_tiny_table_still_exact():
    engine = Solver(table_cap=50)
    for number, moves, expected in sample_lines("Test_L2_R1.sample")[:10]:
        assert engine.solve(moves) == expected, number


@pytest.mark.parametrize("moves, index, reason", [
    ("8", 0, "not a column"),
    ("4405", 2, "not a column"),
    ("12a", 2, "not a column"),
    ("44 5", 2, "not a column"),
    ("1111111", 6, "column is full"),
    ("12121212", 7, "game already won"),
])
def test_bad_strings_raise_with_index(moves, index, reason):
    with pytest.raises(ValueError, match=f"move {moves[index]!r} at index {index}: {reason}"):
        solver.solve(moves)


@pytest.mark.parametrize("moves", ["1212121", FULL_DRAW])
def test_finished_positions_raise(moves):
    with pytest.raises(ValueError, match="already over"):
        solver.solve(moves)
    with pytest.raises(ValueError, match="already over"):
        solver.analyze(moves)


def test_cli_position(capsys):
    assert solver.main(["2252576253462244111563365343671351441"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "score -1",
        "columns 1:full 2:full 3:full 4:full 5:full 6:-1 7:-2",
    ]


def test_cli_check(capsys):
    assert solver.main(["--check", str(DATA / SAMPLES[0]), "--limit", "5"]) == 0
    assert capsys.readouterr().out.startswith("checked 5, mismatches 0, mean nodes ")


def test_cli_rejects_bad_input(capsys):
    with pytest.raises(SystemExit) as exit_info:
        solver.main(["449"])
    assert exit_info.value.code == 2
    assert "at index 2" in capsys.readouterr().err


def mirror(moves):
    return "".join(str(8 - int(c)) for c in moves)


@st.composite
def late_positions(draw):
    """Legal unfinished positions of 32 to 40 discs from random play."""
    length = draw(st.integers(32, 40))
    choices = draw(st.lists(st.integers(0, 6), min_size=length, max_size=length))
    moves, position = "", Position.parse("")
    for choice in choices:
        playable = [c for c in range(7) if position.can_play(c)]
        col = playable[choice % len(playable)]
        position = position.play(col)
        moves += str(col + 1)
        if position.won:
            break
    assume(not position.is_over())
    return moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(late_positions())
def test_random_late_positions(moves):
    engine = Solver()
    score = engine.solve(moves)
    assert engine.solve(mirror(moves)) == score
    assert max(s for s in engine.analyze(moves) if s is not None) == score


@pytest.mark.parametrize("name", BENCH_NAMES)
def test_full_benchmark_file(name):
    folder = os.environ.get("C4_SHARED_BENCH")
    if not folder or not (Path(folder) / name).is_file():
        pytest.skip("set C4_SHARED_BENCH to the folder of Pons' benchmark files")
    out = io.StringIO()
    assert solver.check_file(str(Path(folder) / name), out=out) == 0, out.getvalue()
    assert out.getvalue().startswith("checked 1000, mismatches 0,")
