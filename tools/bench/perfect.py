"""The judge: exact Connect 4 scores and a perfect player, from bitbully.

Why: tools/bench/solver.py (pure Python) cannot reach early positions (about
three minutes for "4455", the empty board out of reach). bitbully (PyPI, C++
with Python bindings, AGPL-3.0) with the 12-ply opening book of
bitbully-databases (MIT, scores with win distances) solves any position in
well under a second, so the benchmark sets, the bench's perfect opponent and
the test oracles for early positions use it. Host only, development only:
nothing of it goes onto the board. tools/bench/solver.py stays as the
dependency-free reference (and the second opinion in tests/test_perfect.py).

Conventions are those of tools/bench/solver.py: a position is the string of
its moves as 1-based column digits; scores are Pascal Pons' (seen from the
side to move, 0 a draw, a win with one's k-th disc 22 - k). Positions are
checked by solver.Position.parse, so bad input gets the same clear
ValueError in both modules.

Usage:
    python tools/bench/perfect.py 4453      # score and per-column scores
"""
import argparse
import os
import random
import sys
from typing import List, Optional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools.bench.solver import WIDTH, Position  # noqa: E402

BOOK = "12-ply-dist"  # exact scores (win distances); "8-ply"/"12-ply" give only signs


class Perfect:
    """Exact scores of positions, by bitbully with its 12-ply distance book."""

    def __init__(self) -> None:
        from bitbully import BitBully  # imported late: only the judge needs it
        self._agent = BitBully(BOOK)

    def _board(self, moves: str):
        from bitbully import Board
        position = Position.parse(moves)
        if position.is_over():
            raise ValueError(f"position {moves!r} is already over")
        return Board("".join(str(int(char) - 1) for char in moves))

    def solve(self, moves: str) -> int:
        """Exact score of `moves` for the side to move."""
        return int(self._agent.mtdf(self._board(moves)))

    def analyze(self, moves: str) -> List[Optional[int]]:
        """Score of each column for the player moving there; None if full
        (solver.Solver.analyze's shape)."""
        scores = self._agent.score_all_moves(self._board(moves))
        return [scores.get(col) for col in range(WIDTH)]

    def best_moves(self, moves: str) -> List[int]:
        """The 1-based columns whose score is the best."""
        scores = self.analyze(moves)
        best = max(score for score in scores if score is not None)
        return [col + 1 for col, score in enumerate(scores) if score == best]


class PerfectPlayer:
    """Plays a best-score move, picked at random (seeded) among the best; with
    `error` percent, a uniformly random legal move instead. Deterministic for
    a seed: the same position sequence gives the same moves."""

    def __init__(self, seed: int, error: int = 0, judge: Optional[Perfect] = None) -> None:
        self.rng = random.Random(seed)
        self.error = error
        self.judge = judge or shared()
        self.erred = False  # whether the last choose() played a random move

    def choose(self, moves: str) -> int:
        """A 0-based column to play in `moves`; also sets `self.erred`."""
        scores = self.judge.analyze(moves)
        legal = [col for col, score in enumerate(scores) if score is not None]
        self.erred = self.error > 0 and self.rng.randrange(100) < self.error
        if self.erred:
            return self.rng.choice(legal)
        best = max(scores[col] for col in legal)
        return self.rng.choice([col for col in legal if scores[col] == best])


_shared: Optional[Perfect] = None


def shared() -> Perfect:
    """One Perfect per process (loading the book takes a fraction of a second)."""
    global _shared
    if _shared is None:
        _shared = Perfect()
    return _shared


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Perfect Connect 4 scores by bitbully.")
    parser.add_argument("position", help="moves as 1-based column digits ('' for the empty board)")
    args = parser.parse_args(argv)
    judge = shared()
    try:
        score, scores = judge.solve(args.position), judge.analyze(args.position)
    except ValueError as error:
        parser.error(str(error))
    print(f"score {score}")
    print("columns " + " ".join(f"{col}:{'full' if s is None else s}"
                                for col, s in enumerate(scores, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
