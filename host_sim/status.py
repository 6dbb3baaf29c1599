"""The simulator's status line, in words, from what the app shows to any caller.

The firmware carries no text for it: this module reads the app's public
state (`state`, `mode`, `settings`, `menu`, the last search) and the "game"
events it emits, and words them; nothing here runs on the board.
"""
from connect4.app import game, menu as menu_mod, stats
from connect4.app.face import STATE_NAMES, game as game_of
from connect4.engine.levels import MAX_LEVEL

RESULTS = ("red won", "yellow won", "a draw", "abandoned")
SIDES = ("red", "yellow")


def setting_text(key, value):
    """A setting as the player would say it (never an internal value like -1)."""
    if key == "mode":
        return {"ai": "vs AI", "two": "two players", "demo": "demo"}.get(value, str(value))
    if key == "blunder":
        return "the level's own" if value < 0 else "%d%%" % value
    if key == "first":
        return {"red": "red (you)", "yellow": "yellow (the AI)", "alternate": "alternate",
                "loser": "the loser"}.get(value, str(value))
    return str(value)


def board_text(page):
    """The menu's "play a board" page (connect4.app.boards; during a game of two boards
    connect4.app.boardside's), its step in words."""
    from connect4.app import boardside
    step = page.step
    if step == boardside.PLAYER:
        if page.level == boardside.LEAVE:
            return "board: leave this game (X; press: a loss for neither)"
        return "board: this board's side: %s" % ("level %d" % page.level if page.level else "you (P)")
    if step == boardside.WAIT:
        return "board: give up after %s" % ("%d min lost" % page.wait if page.wait else "a press only")
    from connect4.app import boards  # (the page's own steps: not loaded for this board's side alone)
    if step == boards._FIND:
        n = len(page.found) + 2
        i = page.index % n
        if i == n - 1:
            return "board: back"
        if i == n - 2:
            return "board: type its four hex digits (%d found)" % len(page.found)
        name, host, port = page.found[i]
        return "board: %s at %s:%d (press: pick it)" % (name, host, port)
    if step in (boards._HEX, boards._CODE):
        typed = "".join(boards._HEXES[d] for d in page.digits[:page.pos])
        return "board: %s, digit %d of 4: %s%s" % (
            "its four hex digits" if step == boards._HEX else "its pairing code", page.pos + 1, typed,
            boards._HEXES[page.digits[page.pos]])
    return "board: asking..."


def menu_text(m):
    if m.games is not None and type(m.games).__module__ in ("connect4.app.boards", "connect4.app.boardside"):
        return board_text(m.games)  # "play a board", or this board's side during such a game
    if m.games is not None:
        r = m.games.chosen
        if r is None:
            return "games: none recorded yet"
        return "games: game %d, %s%s, %s, %d moves (press: replay)" % (
            r.number, setting_text("mode", r.mode), "" if r.size == "7x6" else " on " + r.size,
            RESULTS[r.result], len(r.moves))
    if m.page >= 0:
        kind, value = stats.shown(m)
        if m.page == stats.PAGES - 1:
            return "stats: hints %d" % value
        size = m.settings["size"]
        if m.page < MAX_LEVEL:
            return "stats %s: level %d %s %d" % (size, m.page + 1, ("wins", "losses", "draws")[kind], value)
        return "stats %s: two players %s %d" % (size, ("red wins", "yellow wins", "draws")[kind], value)
    key = menu_mod.ITEMS[m.item]
    if key == "wifi":  # the switch as the menu shows it (the saved one may differ: App.wifi)
        return "menu: wifi = %s%s" % ("on" if m.wifi_on else "off", " (changing)" if m.editing else "")
    if key in m.settings:
        return "menu: %s = %s%s" % (key, setting_text(key, m.settings[key]),
                                    " (changing)" if m.editing else "")
    if key == "phones":
        return "menu: paired phones = %s%s" % ("forget" if m.editing and m.forget else "keep",
                                               " (changing)" if m.editing else "")
    return "menu: " + key


def result_text(g):
    """Who won the game of a "game" event."""
    if g["winner"] < 0:
        return "a draw"
    if g["mode"] == "vs AI":
        return "you win" if g["winner"] == 0 else "the AI wins"
    return SIDES[g["winner"]] + " wins"


def status_line(app, last_game=None, save_error=None):
    """One line: mode and level, what is happening, who won; a failed save first."""
    text = ""
    if save_error:
        text = "! " + save_error + " | "
    m = app.menu  # (read once: the terminal reads the app as the firmware's thread changes it, and
    if app.state == game.MENU and m is not None:  # a game of two boards drops the menu as it begins)
        return text + menu_text(m) + wifi_note(app)
    mode, levels = game_of(app)  # at the intro: the game it starts
    if mode == game.MODE_DEMO:
        text += "demo: level %d (red) vs level %d (yellow)" % tuple(levels) if levels[0] else "demo"
    elif mode == game.MODE_AI:
        text += "vs AI level %d" % levels[1]
    else:
        text += "two players"
    if app.board.size != "7x6":
        text += " on " + app.board.size
    state = app.state
    text += " | " + STATE_NAMES[state]
    if state == game.REPLAY and app.replay is not None:
        r = app.replay
        return "replay: game %d, move %d of %d%s" % (r.record.number, r.pos, r.length,
                                                    " (paused)" if r.paused else "")
    if state == game.PLAY:
        if app.mode == game.MODE_TWO:
            text += ": %s to move" % SIDES[app.side_to_move()]
        else:
            text += ": the AI's move" if app.ai_to_move() else ": your move"
        if app.hint_col >= 0:
            text += " (hint: column %d)" % (app.hint_col + 1)
    if state in (game.THINK, game.CHOSEN, game.HELD):
        r = app.turn.last_search if state != game.THINK else None
        if r is not None and r.stopped == "blunder":
            text += ": a random move (the level's blunder)"
        elif r is not None and r.stopped == "book":
            text += ": from the opening book"
        else:
            depth, score, nodes = app.turn.think_info
            nodes = max(nodes, app.turn.think_nodes)
            if nodes:
                text += ": depth %d, %d nodes" % (depth, nodes)
    if state == game.OVER and last_game is not None:
        text += ": " + result_text(last_game)
    if app.dimmed:
        text += " | dimmed"
    return text + wifi_note(app)


def wifi_note(app):
    """The menu's Wi-Fi on in a simulator that serves no page (no --web): say how to get one."""
    link = app.link
    if link is not None and link.address and app.web is None:
        return " | Wi-Fi on, no page: --web PORT serves it"
    return ""
