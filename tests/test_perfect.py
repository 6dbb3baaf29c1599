"""tools/bench/perfect.py (bitbully, the judge) agrees with the Python solver
and with Pascal Pons' published scores, and its perfect player is seeded."""
from pathlib import Path

import pytest

pytest.importorskip("bitbully")

from tools.bench import perfect, solver  # noqa: E402

DATA = Path(__file__).parent / "data"
SAMPLES = ["Test_L3_R1.sample", "Test_L2_R1.sample"]


@pytest.fixture(scope="module")
def judge():
    return perfect.shared()


@pytest.mark.parametrize("name", SAMPLES)
def test_scores_match_pons_samples(judge, name):
    lines = list(solver.read_benchmark(str(DATA / name)))
    assert len(lines) == 40
    for number, moves, expected in lines:
        assert judge.solve(moves) == expected, f"{name}:{number} {moves}"


@pytest.mark.parametrize("moves", [
    "41416453222527221644", "536553711753541133152", "44455554221",
    "23163416124767223154467471272416755633355", "2252576253462244111563365343671351441"])
def test_per_column_scores_match_the_python_solver(judge, moves):
    assert judge.analyze(moves) == solver.Solver().analyze(moves)
    assert judge.best_moves(moves) == solver.Solver().best_moves(moves)


def test_early_positions_the_python_solver_cannot_reach(judge):
    # Known results: the first player wins only from the centre, with its last disc.
    assert judge.solve("") == 1
    assert judge.analyze("") == [-2, -1, 0, 1, 0, -1, -2]
    assert judge.solve("4455") == 18  # blog.gamesolver.org part 2 (minutes in Python)


@pytest.mark.parametrize("moves, message", [
    ("449", "not a column"), ("1111111", "column is full"), ("1212121", "already over"),
    ("1a", "not a column")])
def test_bad_positions_are_refused_clearly(judge, moves, message):
    with pytest.raises(ValueError, match=message):
        judge.solve(moves)
    with pytest.raises(ValueError, match=message):
        judge.analyze(moves)


def game(seed_first, seed_second, error=0):
    players = (perfect.PerfectPlayer(seed_first, error), perfect.PerfectPlayer(seed_second, error))
    moves = ""
    while not solver.Position.parse(moves).is_over():
        moves += str(players[len(moves) % 2].choose(moves) + 1)
    return moves


def test_perfect_player_is_deterministic_for_a_seed():
    assert game(1, 2) == game(1, 2)
    assert game(1, 2, error=20) == game(1, 2, error=20)
    assert len({game(seed, seed + 1) for seed in range(4)}) > 1  # the seed matters


def test_perfect_player_plays_only_best_moves(judge):
    moves = game(5, 6)
    # perfect play from the empty board: the first player wins with its last disc
    assert len(moves) == 41
    for n in range(len(moves)):
        assert int(moves[n]) in judge.best_moves(moves[:n])


def test_erring_player_errs_at_its_rate(judge):
    player = perfect.PerfectPlayer(3, error=100)
    picks = {player.choose("44") for _ in range(40)}
    assert player.erred and len(picks) > 3  # random legal moves, not the best one
    never = perfect.PerfectPlayer(3, error=0)
    assert {never.choose("44") for _ in range(20)} <= {c - 1 for c in judge.best_moves("44")}
    assert not never.erred


def test_command_line(capsys):
    assert perfect.main(["4455"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("score 18\ncolumns 1:")
    with pytest.raises(SystemExit):
        perfect.main(["1111111"])
    assert "column is full" in capsys.readouterr().err


def test_bench_counts_a_game_kept_only_if_it_ends_at_least_as_well_as_given():
    from tools.bench import bench
    rows = [("W", [5], 1, 3), ("D", [7], 1, 0), ("D", [], 0, 0), ("W", [], 0, 2), ("L", [1], 0, 0),
            ("L", [], -1, 1)]
    tally, nodes, given, kept, booked = bench.tally_perfect(rows)
    assert tally == {"W": 2, "D": 2, "L": 2} and nodes == [5, 7, 1] and booked == 6
    assert (given, kept) == (5, 3)  # never given anything: not counted; lost a won game: not kept


def test_bench_judges_the_top_level_on_a_set_position():
    from tools.bench import bench
    # the side to move wins at once in column 1 (score 18): the top level finds it
    assert bench.judge_set_position(("121212", 18))[:2] == (True, True)


def test_position_sets_are_labelled_exactly(judge):
    """The checked-in sets of tools/bench/make_sets.py: sizes, ranges, and a
    sample of labels re-solved (make test does not need them to be present)."""
    from tools.bench.make_sets import SETS, set_path
    for lo, hi in SETS:
        path = set_path(lo, hi)
        if not Path(path).exists():
            pytest.skip("position sets not made")
        rows = list(solver.read_benchmark(path))
        assert len(rows) >= 500 and len({moves for _, moves, _ in rows}) == len(rows)
        assert all(lo <= len(moves) <= hi for _, moves, _ in rows)
        for _, moves, score in rows[::50]:
            assert judge.solve(moves) == score, moves


@pytest.mark.parametrize("g", [1, 6])  # level 3 and level 2 against a perfect player erring 50%
def test_set_games_are_deterministic_and_keep_only_positions_where_choice_matters(judge, g):
    from tools.bench import make_sets
    kept = make_sets.play_game((g, 3))
    assert kept and kept == make_sets.play_game((g, 3))
    for index, moves, score in kept:
        lo, hi = make_sets.SETS[index]
        assert lo <= len(moves) <= hi and judge.solve(moves) == score
        assert make_sets.choice_matters(judge.analyze(moves))
