"""The board page's words: what the matrix shows, said in text (tools/site/static/page.js shows it).

- status(snap): who you are, whose turn it is, the mode and level, the result
  from your side ("You won", "You lost", "A draw");
- moved(before, snap): a move said for the live region (and the result or
  whose turn is next);
- menu(m): the menu's item and its value, beside the LEDs while it is open;
- search_kind(board, result) and speed(...): the AI's move and what it cost,
  blunders, book moves and forced moves named as such.

All of it reads what the firmware already offers: connect4.app.face's
snapshot() (the web page's own state), the Menu's item and settings, the AI's
SearchResult and the board before its move. Runs in the page's MicroPython
(lib/words.py, called by lib/browser_board.py) and on CPython
(tests/test_site_words.py); the firmware is not changed for it.
"""
from connect4.app import store
from connect4.app.menu import ITEMS
from connect4.app.stats import PAGES
from connect4.engine import levels

MODES = {"ai": "against the AI", "two": "two players", "demo": "demo"}
ITEM_NAMES = {"mode": "Mode", "level": "Level", "first": "Who starts", "blunder": "Blunders",
              "brightness": "Brightness", "size": "Board size", "wifi": "Wi-Fi",
              "phones": "Paired phones", "stats": "Statistics", "games": "Recorded games",
              "board": "Play a board", "back": "Back"}
FIRSTS = {"red": "red (you, against the AI)", "yellow": "yellow (the AI, against the AI)",
          "alternate": "each side in turn", "loser": "the loser of the last game"}
RESULTS = ("red won", "yellow won", "a draw", "left unfinished")  # connect4.app.records' results
STOPPED = {"poll": " (stopped by your press)", "nodes": " (its node budget used up)",
           "time": " (stopped by its time cap)"}


def thousands(n):
    """1234567 -> "1,234,567" (MicroPython's format has no "," option)."""
    digits = str(abs(int(n)))
    groups = []
    while len(digits) > 3:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    groups.insert(0, digits)
    return ("-" if n < 0 else "") + ",".join(groups)


def count(n, word, many=None):
    """count(1, "node") -> "1 node", count(2, "node") -> "2 nodes", count(2, "loss", "losses")."""
    return "%s %s" % (thousands(n), word if n == 1 else many or word + "s")


def cap(text):
    return text[:1].upper() + text[1:]


def _other(side):
    return "yellow" if side == "red" else "red"


# ---- the game
def players(snap):
    """Who plays whom, at which level."""
    mode = snap["mode"]
    lv = snap["levels"]
    if mode == "ai":
        return "You are red; the AI is yellow, level %d." % lv[1]
    if mode == "two":
        return "Two players: red and yellow take turns."
    if not lv[0]:  # the intro (connect4.app.face.game): the demo draws its levels as it starts
        return "Demo: the AI plays itself, at levels drawn for each game."
    return "Demo: the AI plays itself, red at level %d, yellow at level %d; any press leaves it." % (lv[0], lv[1])


def mover(snap, side):
    """Who `side` is, in this mode's words."""
    mode = snap["mode"]
    if mode == "ai":
        return "you" if side == "red" else "the AI"
    if mode == "demo":
        return "%s (level %d)" % (side, snap["levels"][0 if side == "red" else 1])
    return side


def result(snap):
    """The game's result from your side ("You won."), or "" while it goes on."""
    winner = snap["result"]
    if not winner:
        return ""
    if winner == "draw":
        return "A draw."
    if snap["mode"] == "ai":
        return "You won." if winner == "red" else "You lost."
    return "%s won." % cap(mover(snap, winner))


def turn(snap):
    """Whose turn it is, or the result."""
    done = result(snap)
    if done:
        return done + " Press for a new game."
    side = snap["turn"]
    if snap["mode"] == "ai":
        if side == "red":
            return "Your turn."
        return "The AI is thinking." if snap["thinking"] else "The AI's turn."
    return "%s to move." % cap(mover(snap, side))


def status(snap):
    """The status line: the whole picture in a sentence or three."""
    state = snap["state"]
    if state == "menu":
        return "The menu is open: turn to choose an item, press to change it; a long press leaves it."
    if state == "replay":
        return ("Replaying a recorded game: turn to step through it, press to pause; "
                "a long press goes back to the menu.")
    if state == "intro":
        return players(snap) + " Press to start."
    if state == "hint":
        return players(snap) + " Looking for a hint for you."
    return players(snap) + " " + turn(snap)


def moved(before, snap):
    """What the live region says when the moves went from `before` to snap's; "" for nothing."""
    moves = snap["moves"]
    if moves == before:
        return ""
    if len(moves) != len(before) + 1 or not moves.startswith(before):
        return ("A new game. " + players(snap) + " " + turn(snap)) if not moves else ""
    first = snap["first"]
    side = first if len(before) % 2 == 0 else _other(first)
    return "%s: column %s. %s" % (cap(mover(snap, side)), moves[-1], turn(snap))


# ---- the menu
def _value(key, m):
    s = m.settings
    if key == "mode":
        return MODES[s["mode"]]
    if key == "level":
        return "%d of %d" % (s["level"], store.MAX_LEVEL)
    if key == "first":
        return FIRSTS[s["first"]]
    if key == "blunder":
        return "the level's own" if s["blunder"] < 0 else "%d%% of its moves at random" % s["blunder"]
    if key == "brightness":
        return "%d of %d" % (s["brightness"], store.BRIGHTNESS_LEVELS)
    if key == "size":
        cols, rows = s["size"].split("x")
        return "%s columns, %s rows" % (cols, rows)
    if key == "wifi":
        if m.wifi_pick == 2:  # the LEDs' computer
            return "set up from a computer (a page in a browser has no USB serial port: it says so)"
        return "on" if m.wifi_on else "off (a page in a browser has none: turning it on fails)"
    if key == "phones":  # turned to "forget": the LEDs' phone crossed out
        if m.editing:
            return "forget them all" if m.forget else "keep them"
        return "none (a page in a browser has no Wi-Fi)"
    if key == "stats":
        return "at level %d, %s" % (s["level"], _record(m.table()["ai"][s["level"] - 1]))
    if key == "board":
        return "another board over Wi-Fi (a page in a browser has none)"
    return ""


def _record(wld):
    return "%s, %s, %s" % (count(wld[0], "win"), count(wld[1], "loss", "losses"), count(wld[2], "draw"))


def _stats_page(m):
    page = m.page
    if page == PAGES - 1:
        text = "hints asked for: %d" % m.stats.get("hints", 0)
    elif page < store.MAX_LEVEL:
        text = "against level %d: %s" % (page + 1, _record(m.table()["ai"][page]))
    else:
        r, y, d = m.table()["two"]
        text = "two players: red won %d, yellow won %d, %s" % (r, y, count(d, "draw"))
    return "Statistics (%s board), %s. Turn for the other pages, press to go back." % (m.settings["size"], text)


def _game_page(games):
    rec = games.chosen
    if rec is None:
        return "Recorded games: none yet. Press to go back."
    lv = rec.levels
    who = MODES.get(rec.mode, rec.mode)
    if rec.mode == "ai":
        who += " at level %d" % max(lv[0], lv[1])
    elif rec.mode == "demo":
        who += ", levels %d and %d" % (lv[0], lv[1])
    return "Recorded game %d (%d of %d, newest first): %s, %s, %s, %s. Press to replay it, turn for the others." % (
        rec.number, games.index + 1, len(games.offsets), who, rec.size, RESULTS[rec.result],
        count(len(rec.moves), "move"))


def menu(m):
    """The menu's item and value in words, and what a press does (connect4.app.menu.Menu)."""
    if m.games is not None and hasattr(m.games, "tick"):  # "play a board" (connect4.app.boards)
        return "Play a board: no other board can be found without Wi-Fi. Turn to the back arrow, press."
    if m.games is not None:
        return _game_page(m.games)
    if m.page >= 0:
        return _stats_page(m)
    key = ITEMS[m.item]
    value = _value(key, m)
    text = "Menu, %d of %d: %s" % (m.item + 1, len(ITEMS), ITEM_NAMES[key])
    if value:
        text += ": " + value
    if m.editing:
        return text + ". Turn to change it, press to keep it."
    if key == "stats":
        return text + ". Press for the numbers."
    if key == "games":
        return text + ". Press for the list."
    if key == "board":
        return text + ". Press to look for boards."
    if key == "back":
        return text + ". Press to leave the menu."
    return text + ". Press to change it."


# ---- the AI's move
def _gives_a_four(board, col):
    """Does playing `col` let the other side make four on top of it?"""
    board.play(col)
    try:
        return not board.is_over() and board.is_winning_move(col)
    finally:
        board.undo()


def search_kind(board, found):
    """What the AI's move was, by the engine's own rules (connect4.engine.player and search):
    "blunder" (a random move), "book", "win" (it makes four: no search), "lost" (every move
    loses at once: no search), "forced" (one move does not lose at once: searched only for
    its score) or "search". `board`: the position before the move."""
    if found.stopped == "blunder" or found.stopped == "book":
        return found.stopped
    legal = board.legal_moves()
    if any(board.is_winning_move(c) for c in legal):
        return "win"
    threats = [c for c in legal if board.is_winning_move(c, 3 - board.turn)]
    if len(threats) > 1:
        return "lost"
    if len(threats) == 1:
        return "forced"
    safe = [c for c in legal if not _gives_a_four(board, c)]
    if not safe:
        return "lost"
    return "forced" if len(safe) == 1 else "search"


def chip_time(nodes, rate):
    """How long `nodes` take at the chip's `rate` nodes a second, in words."""
    ms = nodes * 1000 // rate
    if ms < 1:
        return "under 1 ms"
    if ms < 1000:
        return "about %d ms" % ms
    return "about %d.%d s" % (ms // 1000, ms % 1000 // 100)


def speed(r, rate):
    """The speed line: r is the page's search report (level, kind, nodes, depth, ms, stopped,
    blunder: the percent it was drawn with; "hint": a hint's search, the top level's, for the
    person to move); rate the chip's nodes a second."""
    kind = r["kind"]
    if r.get("hint"):
        return hint_speed(r, rate)
    who = "The AI (level %d)" % r["level"]
    if kind == "blunder":
        return "%s played a random move (its blunder chance, %d%%): no search." % (who, r["blunder"])
    if kind == "book":
        return "%s played its opening book's move: no search." % who
    if kind == "win":
        return "%s made four: a winning move needs no search." % who
    if kind == "lost":
        return "%s cannot stop a four whatever it plays: no search." % who
    cost = search_cost(r, rate)
    if kind == "forced":
        return "%s had one move that does not lose at once (forced), searched only for its score: %s" % (
            who, cost)
    return "%s searched %s" % (who, cost)


def search_cost(r, rate):
    """What a search cost: its nodes and depth, its time here and on the chip."""
    return "%s, depth %d, %d ms here%s; the chip: %s (%s nodes/s)." % (
        count(r["nodes"], "node"), r["depth"], r["ms"], STOPPED.get(r["stopped"], ""),
        chip_time(r["nodes"], rate), thousands(rate))


def hint_speed(r, rate):
    """The speed line of a hint: the top level's search for the person to move (no book, no
    blunder: connect4.app.turn.hint), its column and what it cost."""
    col = r["move"] + 1
    kind = r["kind"]
    if kind == "win":
        return "The hint: column %d makes four; a winning move needs no search." % col
    if kind == "lost":
        return "The hint: column %d; no move stops a four: no search." % col
    who = "The hint (level %d's search): column %d" % (r["level"], col)
    if kind == "forced":
        return "%s, the one move that does not lose at once, searched only for its score: %s" % (
            who, search_cost(r, rate))
    return "%s, %s" % (who, search_cost(r, rate))


def blunder_percent(ai):
    """The blunder chance the AI's last move was drawn with (connect4.app.turn.think sets it)."""
    return levels.blunder(ai.level) if ai.blunder is None else ai.blunder
