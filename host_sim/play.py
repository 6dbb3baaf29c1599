"""`make sim` (for now): play the engine in the terminal, one column digit a move.

The full LED-matrix simulator replaces this once the board app exists.
"""
import argparse
import sys

import host_sim  # noqa: F401
from connect4.engine import levels
from connect4.engine.board import Board
from connect4.engine.player import AIPlayer


def ask(board, stdin, stdout):
    while True:
        stdout.write("your move (1-7, u = undo, q = quit): ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            return None
        text = line.strip().lower()
        if text in ("q", "quit"):
            return None
        if text == "u":
            return "undo"
        if len(text) == 1 and "1" <= text <= "7" and board.can_play(int(text) - 1):
            return int(text) - 1
        stdout.write("please type a column 1-7 that is not full\n")


def play(level, human_first, seed, stdin=sys.stdin, stdout=sys.stdout):
    board = Board()
    ai = AIPlayer(level=level, seed=seed)
    human = 1 if human_first else 2
    while not board.is_over():
        stdout.write("\n%s\n" % board)
        if board.turn == human:
            move = ask(board, stdin, stdout)
            if move is None:
                return 0
            if move == "undo":
                for _ in range(2 if board.count >= 2 else board.count):
                    board.undo()
                continue
        else:
            result = ai.choose(board)
            move = result.move
            stdout.write("AI (level %d) plays %d  [depth %d, %d nodes]\n" % (
                level, move + 1, result.depth, result.nodes))
        board.play(move)
    stdout.write("\n%s\n" % board)
    if board.winner == human:
        stdout.write("You win!\n")
    elif board.winner:
        stdout.write("The AI wins.\n")
    else:
        stdout.write("A draw.\n")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--level", type=int, default=4, choices=range(1, levels.MAX_LEVEL + 1))
    parser.add_argument("--ai-first", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return play(args.level, not args.ai_first, args.seed)


if __name__ == "__main__":
    sys.exit(main())
