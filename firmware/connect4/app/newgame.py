"""A new game: its board and size, who starts, the demo's levels; and the one rule for changed settings.

The app (connect4.app.game) starts every game here (App.new_game); the menu
(connect4.app.menu) and the page (connect4.app.face) apply changed settings
through `restart_for`, the app's one rule. Loaded for each use and dropped
(connect4.modules.use): a game starts rarely, and with Wi-Fi on every resident
byte is the network's room.
"""
from connect4.engine import levels
from connect4.app import store
from connect4.app.records import clear_marks
from connect4.app.states import PLAY, MODE_AI, MODE_DEMO

_ABANDONED = 3  # a record's result: the game left before its end


def start(app, now, mode=-1):
    """A new game on `app` (in `mode` if given): the one left before its end recorded as
    abandoned, the board of the settings' size, who starts by the settings (the demo
    alternates), the game's levels by side as it starts (a menu change comes after). In a
    game of two boards (app.duo, connect4.app.twoboards' `started`) the next game of the two
    boards begins, or a new game in a given mode leaves it."""
    if app.board.count and not app.board.is_over():
        app._end_game(_ABANDONED)  # left before its end (an ended one is recorded)
        if app.hints[0] or app.hints[1]:
            app.store.save()  # the hints' count
    if app.saved is not None:
        app.saved.clear()
    if mode >= 0:
        app.mode = mode
    _settings_size(app)
    app.board.reset()
    app.hints[0] = app.hints[1] = 0
    app.hint_col = -1
    clear_marks(app.marks)
    first = app.settings["first"]
    if app.mode == MODE_DEMO or first == "alternate":
        side = 1 - app.last_first if app.last_first >= 0 else 0
    elif first == "loser":
        if app.last_loser >= 0:
            side = app.last_loser
        else:
            side = 1 - app.last_first if app.last_first >= 0 else 0
    else:
        side = 0 if first == "red" else 1
    app.set_first(side)
    if app.mode == MODE_DEMO:  # the same levels in the same order could replay the last game
        app.demo_order = levels.demo_pair(app.rng, app.demo_order)
        a, b = app.demo_order
        app.demo_levels = (a, b) if side == 0 else (b, a)
    # the levels by side (0: a person) as the game starts: a menu change comes after
    app.game_levels = (app.demo_levels if app.mode == MODE_DEMO else
                       (0, app.settings["level"] if app.mode == MODE_AI else 0))
    if app.duo is not None:  # two boards: the game's first side, levels and size are theirs
        app.duo.started(app, mode, now)
    app.cursor = (app.board.cols - 1) // 2  # the centre (the left one of two)
    app._go(PLAY, now)


def _settings_size(app):
    """A new game's board: the settings' size, or 7x6 (said on the console) if this panel
    cannot show it (a settings file from a bigger panel)."""
    try:
        app.board_for(app.settings["size"])
    except ValueError as e:
        store.say("size %s: %s; 7x6 instead" % (app.settings["size"], e))
        app.settings["size"] = "7x6"
        app.board_for("7x6")


def after_menu(app, changed, now):
    """The menu closed (connect4.app.menu, or a page in its place: connect4.app.boardside): its
    changes saved, then the one rule for changed settings (restart_for), else back to where it
    was opened."""
    if changed:
        app.store.save()
    if not restart_for(app, changed, now, app.menu_return < 0 or app.mode == MODE_DEMO):
        app._go(app.menu_return, now)


def restart_for(app, changed, now, leaving):
    """The one rule for changed settings, the menu's and the page's: a new mode, level,
    blunder or size starts a new game (the game left is recorded at its own levels and size;
    the new one is on a board of the size: App.board_for); the rest (first, brightness) apply
    from now on. leaving: a new game in any case (the menu closed from the demo, or with no
    game to go back to). True if a game started."""
    mode = app._mode_index(app.settings["mode"])
    if mode == MODE_DEMO and ("mode" in changed or leaving):
        app.start_demo(now, -1)
    elif ("mode" in changed or "level" in changed or "blunder" in changed or "size" in changed
          or leaving):
        start(app, now, mode)
    else:
        return False
    return True
