"""Game records: the last 100 games, one line of text each, in a file on flash.

Why a line each: a user copies the file off the board (`mpremote fs cp
:games.txt .`) and reads it, and the board reads it a line at a time: the
file is streamed, never loaded whole. A line holds eight fields, one space
apart, and a ninth on a board other than the classic 7x6:

    NUMBER MODE FIRST LEVELS RESULT HINTS MOVES MARKS [SIZE]
    12 ai r 0/4 y 1/0 4453362 ????W?W
    13 two y 0/0 r 0/0 3322 ???W 5x4

- NUMBER: the game's number (1, 2, ...: the newest record's plus one);
- MODE: ai, two or demo;
- FIRST: who started, r (red) or y (yellow);
- LEVELS: red's and yellow's AI level, 0 for a person;
- RESULT: r or y (that side won), d (a draw), a (abandoned);
- HINTS: the hints red and yellow asked for;
- MOVES: the columns played, 1 to the board's width, in order (- for none);
- MARKS: one per move, what the board knows of the position after it, seen
  by the side that moved: W a win, D a draw, L a loss, ? not known (- for
  none). The board knows a value when its search proved it; the simulator
  marks every move with a perfect solver;
- SIZE: the board, COLUMNSxROWS (connect4.engine.board.parse_size); a line
  without it is a 7x6 game (so are all the lines written before sizes).

This module is the line: `Record`, which the game in progress
(connect4.app.resume) writes at every move. Reading a line (`parse`), the file
of lines, its writes and its reading, are connect4.app.recordfile's, loaded
only while it is used.

Heap: the module is written for few names (each global, attribute and
string is interned for good on the chip): private constants, helpers inline.
"""

class Record:
    """One game: mode name, first side (0 red, 1 yellow), levels and hints by side,
    result (0 red won, 1 yellow won, 2 draw, 3 abandoned), moves and marks as text,
    the board's size ("7x6")."""

    def __init__(self, mode="ai", first=0, levels=(0, 0), result=3, hints=(0, 0),
                 moves="", marks="", number=0, size="7x6"):
        self.size = size
        self.number = number
        self.mode = mode
        self.first = first
        self.levels = levels
        self.result = result
        self.hints = hints
        self.moves = moves
        self.marks = marks

    def line(self):
        return "%d %s %s %d/%d %s %d/%d %s %s" % (
            self.number, self.mode, "ryda"[self.first], self.levels[0], self.levels[1],
            "ryda"[self.result], self.hints[0], self.hints[1], self.moves or "-", self.marks or "-"
        ) + ("" if self.size == "7x6" else " " + self.size)


def clear_marks(marks):
    """A new game's marks (a bytearray, a byte a move): nothing proven, every one "?"."""
    for i in range(len(marks)):
        marks[i] = 63  # "?"
