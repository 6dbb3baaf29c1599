"""The game's narrow face: what the web API (connect4.net) and the simulator read and write.

Reads: `snapshot()` (moves, turn, state name, result, winning four, the game's
levels, settings, thinking...), `settings()`, `records()`. Writes are
commands (`move`, `new_game`, `change_settings`, `hint`): checked here,
queued, and applied by the app at a safe point of its loop (App.step), never
inside the AI's search; a new game or a change of mode, level or blunder
stops a search under way at its next poll (`interrupt`). Settings themselves
are taken at once (`settle`: a read that follows the answer sees them, and they
are on flash before it), what they do to the game goes through the app's one
rule at the safe point (`follow`, then newgame.restart_for, the menu's too).

For the Wi-Fi side (connect4.net.link): `say()` scrolls text over the game,
`set_pump()` gives the server its rounds (from the loop and from the
search's poll hook; in a game of two boards that game pumps it, then itself),
`resize_table()` shrinks the AI's table while Wi-Fi shares the heap.

A game of two boards (connect4.app.twoboards, the app's `duo`): the other
board's routes (`board`) and who may move (`may_move`, for any move).

Nothing here is imported unless Wi-Fi is on (or the simulator runs): the
names cost the heap nothing otherwise.
"""
from connect4.engine.board import parse_size
from connect4.app import store
from connect4.app.render import fits, sizes
from connect4.app.states import MODE_AI, MODE_DEMO, INTRO, PLAY, HINT, MENU, REPLAY
from connect4.app.glyphs import WHITE, ORANGE, GREEN, RED
from connect4.modules import use

# by state number (connect4.app.game: INTRO, PLAY, THINK, DROP, OVER, MENU, CHOSEN, HELD,
# REPLAY, the hint); the AI's turn is "thinking" from its first frame to its disc's drop
STATE_NAMES = ("intro", "play", "thinking", "drop", "over", "menu", "thinking", "thinking",
               "replay", "hint")
SIDES = ("red", "yellow")
SETTING_KEYS = ("mode", "level", "first", "blunder", "brightness", "size")
_RESTARTS = ("mode", "level", "blunder", "size")  # a change of these starts a new game (newgame.restart_for)
COLOURS = {"white": WHITE, "orange": ORANGE, "green": GREEN, "red": RED}  # for say()


def thinking(app):
    """Is a search under way or about to start (the AI's turn or a hint)?"""
    name = STATE_NAMES[app.state]
    return name == "thinking" or name == "hint"


def game(app):
    """The game's mode and levels by side (0: a person). At the intro there is no game yet
    (the app's are its first values, level 0): the one the intro starts, the saved mode
    at its level; a demo draws its levels as it starts, 0 until then."""
    if app.state != INTRO:
        return app.mode, app.game_levels
    mode = app._mode_index(app.settings["mode"])
    return mode, (0, app.settings["level"] if mode == MODE_AI else 0)


def human_turn(app):
    """May a person move now (the state PLAY, not the AI's turn, the game not over)?"""
    return app.state == PLAY and not app.ai_to_move() and not app.board.is_over()


# ---- the commands, applied by the app at a safe point (App.step): fn(app, arg, now)
def _apply_move(app, col, now):
    if human_turn(app) and app.board.can_play(col):  # still so: the board may have moved on
        app.last_input = now
        app.drop(col, now)


def settle(app, data):
    """Settings from elsewhere than the menu (the page), taken at once: kept in the settings,
    the brightness shown, saved; so a read that follows the answer sees them, and a power cut
    after it keeps them. What they do to the game waits for the app's safe point (follow).
    (Here, not in the App: only the page changes settings so, and this module loads with
    Wi-Fi.) The keys that changed, and whether the flash took them."""
    settings = app.settings
    changed = [key for key in data if settings[key] != data[key]]
    for key in data:
        settings[key] = data[key]
    if "brightness" in changed:
        app._set_brightness(settings["brightness"])
    return changed, app.store.save()


def follow(app, changed, now, new_game=False):
    """What changed settings do to the game, at the app's safe point (App.step): the menu's
    rule (newgame.restart_for); new_game: a new game in any case. In the menu (or a replay,
    which goes back to it) the changes wait for the menu to close, as its own would."""
    app.interrupt = False
    if app.state == MENU or app.state == REPLAY:
        for key in changed:
            if key not in app.menu.changed:
                app.menu.changed.append(key)
        if not new_game:
            return
    use("connect4.app.newgame").restart_for(app, changed, now, new_game)


def _apply_settings(app, changed, now):
    app.last_input = now
    follow(app, changed, now)  # the menu's rule: a new level is a new game


def _apply_new(app, changed, now):
    app.last_input = now
    follow(app, changed, now, True)


def _apply_hint(app, arg, now):
    if human_turn(app) and app.duo is None:  # (a game of two boards has no hint: twoboards.table)
        app.last_input = now
        app._go(HINT, now)


class Face:
    """The app (connect4.app.game.App) as the outside sees it."""

    def __init__(self, app):
        self.app = app

    # ---- reads
    def snapshot(self):
        app = self.app
        board = app.board
        mode, levels = game(app)
        side = app.side_to_move()
        winner = None
        if board.winner:
            winner = SIDES[app.first_side if board.winner == 1 else 1 - app.first_side]
        elif board.is_over():
            winner = "draw"
        line = board.winning_line() or ()
        return {
            "moves": board.moves_string(),
            "mode": store.MODES[mode],
            "level": levels[side] if mode == MODE_DEMO else levels[1] if mode == MODE_AI else
            app.settings["level"],
            "levels": list(levels),
            "turn": SIDES[side],
            "first": SIDES[app.first_side],
            "thinking": thinking(app),
            "nodes": app.turn.think_nodes,
            "result": winner,
            "winning": [[c + 1, r + 1] for c, r in line],
            "state": STATE_NAMES[app.state],
            "human": human_turn(app) and app.duo is None,  # two boards: moves come from their buttons
            "boards": None if app.duo is None else app.duo.names(app),
            "games": app.games,
            "brightness": app.settings["brightness"],
            "columns": board.cols,
            "rows": board.rows,
        }

    def settings(self):
        """The settings and the statistics (of the size chosen: "stats" says which)."""
        app = self.app
        out = {}
        for key in SETTING_KEYS:
            out[key] = app.settings[key]
        size = app.settings["size"]
        table = store.table(app.store.stats, size)
        out["stats"] = {"ai": [list(t) for t in table["ai"]], "two": list(table["two"]), "size": size}
        out["sizes"] = self.sizes()  # the sizes this panel shows
        return out

    def records(self):
        """The game records (connect4.app.recordfile.Records, loaded for the caller), or None."""
        return self.app.records()

    def valid(self, key, value):
        """Is `value` one the setting `key` may take (connect4.app.store; a size, one this
        panel shows: connect4.app.render.fits)?"""
        if not store.valid(key, value):
            return False
        if key == "size":
            d = self.app.display
            return fits(d.width, d.height, *parse_size(value))
        return True

    def can_play(self, col):
        return self.app.board.can_play(col)

    def columns(self):
        return self.app.board.cols

    def sizes(self):
        """The board sizes this panel shows ("4x4" ... "8x7"), smallest first."""
        d = self.app.display
        return sizes(d.width, d.height)

    def busy(self):
        """Is a command still waiting to be applied?"""
        return bool(self.app.commands)

    # ---- writes: queued, applied by the app (App.step)
    def move(self, col):
        self.app.commands.append((_apply_move, col))

    def new_game(self, data):
        """A new game with these settings (taken at once: settle); False if the flash
        refused them."""
        app = self.app
        changed, saved = settle(app, data)
        app.commands.append((_apply_new, changed))
        app.interrupt = True  # a search under way stops at its next poll
        return saved

    def change_settings(self, data):
        """Settings taken at once (settle), what they do to the game queued; False if the
        flash refused them."""
        app = self.app
        changed, saved = settle(app, data)
        app.commands.append((_apply_settings, changed))
        for key in _RESTARTS:
            if key in changed:
                app.interrupt = True  # a new game comes (follow): stop the search
                break
        return saved

    def hint(self):
        self.app.commands.append((_apply_hint, None))

    # ---- a game of two boards (connect4.app.twoboards): `who` is the asking token's digest
    def board(self, who, data):
        """POST /api/board from the board `who` ({}: its poll): (status, dict)."""
        app = self.app
        duo = app.duo
        if duo is not None:
            return duo.route(app, who, data)
        if not data:  # (the other board's poll: it had a game here, which is gone)
            return 404, {"error": "no game with another board here"}
        page = app.menu.games if app.menu is not None else None
        if page is None or not hasattr(page, "asked"):  # only while this board looks for one
            return 409, {"error": "not looking for a game (the menu's board page does)"}
        return page.asked(app, who, data)  # (connect4.app.boards: the game's code comes after)

    def may_move(self, who, n):
        """Why the session `who` may not move now, or None: in a game of two boards only the
        other board, on its turn; not a person's turn; `n` (if given, >= 0) not the moves
        played (a move replayed, or out of turn)."""
        app = self.app
        duo = app.duo
        why = None if duo is None else duo.may_move(app, who)
        if why is None and not human_turn(app):
            why = "not a person's turn"
        if why is None and n >= 0 and n != app.board.count:
            why = "not move %d" % (n + 1)
        return why

    # ---- for the Wi-Fi side (connect4.net.link)
    def say(self, parts, now):
        """Scroll [(text, colour name)] over the game until it has gone by or an input ends it
        (connect4.app.scroll: loaded for each text, gone from the heap with it). Not over a
        game of two boards, which says its own (LOST, WAIT): there the address and code that
        Wi-Fi's start scrolls were the fullest moment of the board's heap (1.5 KB on the
        emulated chip); the console line and the menu's Wi-Fi item still give them."""
        if self.app.duo is None:
            self.app.banner = use("connect4.app.scroll").Scroller(
                [(text, COLOURS[colour]) for text, colour in parts], now)

    def short_of_memory(self, now):
        """Wi-Fi did not fit the heap: said on the matrix, Wi-Fi off, the game untouched."""
        self.app.short_of_memory(now)

    def set_pump(self, pump):
        """pump(): one round of the server, from the loop and the search's poll hook (or None);
        a game of two boards pumps it, then itself."""
        app = self.app
        if app.duo is not None:
            app.duo.inner = pump
        else:
            app.pump = pump

    def resize_table(self, entries):
        """The AI's table at `entries` (Wi-Fi on or off: connect4.net.link), unless a game of two
        boards holds it smaller (connect4.app.twoboards): so it stays until the restart that ends
        that game (a 5 KB block wanted back in the middle of it could grow the heap)."""
        app = self.app
        if app.duo is None:
            app.turn.searcher.resize(entries)

    @property
    def web(self):
        """The server already serving this app (the simulator's --web), or None."""
        return self.app.web

    @web.setter
    def web(self, server):
        self.app.web = server
