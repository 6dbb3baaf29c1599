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
