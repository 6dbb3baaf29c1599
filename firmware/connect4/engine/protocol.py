"""A line protocol so other programs can play against the engine.

One command a line in, answers out through `write(line)`:
  position [digits]       set the position (no digits: empty board)
  go [depth D] [nodes N]  search; `info depth D score S nodes N` lines, then `bestmove C`
  level L | seed S | blunder P   options (blunder in percent, `blunder level` = the level's own)
  isready                 answers `readyok`
  quit                    `handle` returns False
Anything else, or a bad argument, answers `error <message>` and changes nothing.
Columns are 1-based as in the move notation.
"""
from connect4.engine import levels
from connect4.engine.board import Board
from connect4.engine.player import AIPlayer

HELP = "commands: position [digits] | go [depth D] [nodes N] | level 1-%d | seed S | blunder 0-100 | isready | quit" % levels.MAX_LEVEL


def _int(text, low, high, what):
    try:
        value = int(text)
    except ValueError:
        raise ValueError("%s must be a number, not %r" % (what, text))
    if not low <= value <= high:
        raise ValueError("%s must be %d to %d" % (what, low, high))
    return value


class Protocol:
    def __init__(self, write, player=None):
        self.write = write
        self.board = Board()
        self.player = player or AIPlayer()

    def handle(self, line):
        """Process one line; return False once the peer said quit."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0], words[1:]
        try:
            if cmd == "quit":
                return False
            elif cmd == "position":
                self._position(args)
            elif cmd == "go":
                self._go(args)
            elif cmd == "level":
                self._one(args, cmd)
                self.player.set_level(_int(args[0], levels.MIN_LEVEL, levels.MAX_LEVEL, "level"))
            elif cmd == "seed":
                self._one(args, cmd)
                self.player.rng.seed(_int(args[0], 0, 0xFFFFFFFF, "seed"))
            elif cmd == "blunder":
                self._one(args, cmd)
                self.player.blunder = None if args[0] == "level" else _int(args[0], 0, 100, "blunder")
            elif cmd == "isready":
                self.write("readyok")
            elif cmd == "help":
                self.write(HELP)
            else:
                raise ValueError("unknown command %r; %s" % (cmd, HELP))
        except ValueError as e:
            self.write("error " + str(e))
        return True

    @staticmethod
    def _one(args, cmd):
        if len(args) != 1:
            raise ValueError("%s takes one argument" % cmd)

    def _position(self, args):
        if len(args) > 1:
            raise ValueError("position takes one string of column digits")
        self.board.load(args[0] if args else "")

    def _go(self, args):
        limits = {}
        if len(args) % 2:
            raise ValueError("go takes pairs: depth D, nodes N")
        for i in range(0, len(args), 2):
            key = args[i]
            if key == "depth":
                limits["depth"] = _int(args[i + 1], 1, 42, "depth")
            elif key == "nodes":
                limits["nodes"] = _int(args[i + 1], 1, 100000000, "nodes")
            else:
                raise ValueError("unknown go limit %r" % key)
        if self.board.is_over():
            raise ValueError("the game is over; set a new position")
        result = self.player.choose(self.board, info=self._info, **limits)
        self.write("bestmove %d" % (result.move + 1))

    def _info(self, depth, score, nodes):
        self.write("info depth %d score %d nodes %d" % (depth, score, nodes))
