"""The AI's turn and the hint: THINK, HINT, CHOSEN, HELD, with their timing.

connect4.app.game's state table names the four handlers here (`think`,
`hint`, `chosen`, `held`, each fn(app, sig, now) like the App's own) and
`Turn` holds what a search needs beside the game: the searcher and the AI,
the poll hook, what the page and the status line read (`thinking`,
`think_nodes`, `think_info`, `last_search`). The app uses `Turn.draw` for
the AI's pulsing disc and `Turn.hook` as the search's poll.

The search blocks the loop, so THINK (and HINT) first lets one frame with
the pulsing disc be drawn, then searches. Its poll hook (every
`poll_interval` nodes) feeds the watchdog, lets the web server run a round
(the app's `pump`; the app's `interrupt`, a new game from the page, stops
the search), pulses the disc and reads the SELECT pin: a new press stops the
search at once (-> HELD). CHOSEN drops the move once the turn has lasted the
minimum think time (THINK and CHOSEN share one clock), or at a press; HELD
drops it once the press is released as a click (a long press opens the menu
in the app's common rules); in the demo, HELD leaves the demo.

The hint (HINT): on a person's turn, SELECT held while turning (or while
pressing LEFT/RIGHT on the three-button build) asks for the move the top level
would play; the held press is then swallowed (no disc drops, no menu). The
search runs as in THINK (a press stops it), the cursor moves to its move and
blinks quickly there until it moves (App.hinted); the player still decides.
Hints are counted in the statistics and per side in the game's record.

connect4.app.game imports this module, never the reverse: the state numbers
are connect4.app.states'.
"""
import gc

from micropython import const

from connect4.engine import levels
from connect4.engine.search import STOP_POLL
from connect4.hw.display import scale
from connect4.hw.input import SELECT
from connect4.app.render import pulse
from connect4.app.resume import learn
from connect4.app.states import CHOSEN, HELD, TICK, MODE_DEMO

_PULSE_MS = const(60)  # the thinking disc's redraw period inside the search (a show() costs a few ms on the chip)
_HELD_GRACE_MS = const(150)  # a press seen by the search but never by the buttons


class Turn:
    def __init__(self, searcher, ai, cfg, clock, app=None):
        self.searcher = searcher  # connect4.engine.search.Searcher, the AI's (and the hint's)
        self.ai = ai  # connect4.engine.player.AIPlayer on it
        self.clock = clock
        self.poll_interval = cfg["poll_interval"]
        self.time_cap_ms = cfg["ai_time_cap_ms"]  # the search's wall-clock safety net (0 = none)
        self.app = app  # the App it plays for (the App sets itself here)
        self.last_search = None  # the AI's last SearchResult: its move in CHOSEN and HELD
        self.thinking = False
        self.think_info = (0, 0, 0)  # depth, score, nodes of the last finished iteration
        self.think_nodes = 0  # nodes searched so far, counted by the poll hook
        self._armed = False
        self._next_pulse = 0
        self.hook = self._poll  # bound once
        self._info_cb = self._info

    def _info(self, depth, score, nodes):
        self.think_info = (depth, score, nodes)

    def _start(self, now):
        """A search begins: a press held from before must be released first."""
        self._armed = not self.app.input.pressed()
        self._next_pulse = now
        self.think_nodes = 0
        self.thinking = True

    def _poll(self):
        """Called from inside the search every poll_interval nodes; truthy stops it."""
        self.think_nodes += self.poll_interval
        app = self.app
        clock = self.clock
        now = clock.ticks_ms()
        if app.wdt is not None:
            app.wdt.feed()
        if app.pump is not None:
            app.pump()
            if app.interrupt:  # a new game from the web
                return True
        if clock.ticks_diff(now, self._next_pulse) >= 0:
            self._next_pulse = clock.ticks_add(now, _PULSE_MS)
            self.draw(now)
            app.display.show()
        down = app.input.pressed()
        if not self._armed:
            self._armed = not down
            return False
        return down

    def draw(self, now):
        """The pulsing disc of the side to move, over its hover cell."""
        app = self.app
        x, y = app.layout.hover_cell(app.board, (app.board.cols - 1) // 2)  # over the centre
        app.display.set(x, y, scale(app.colors[app.board.turn], pulse(now)))


def hint(app, sig, now):
    """The top level's move for the side to move: one frame, the search (a press stops
    it), then the app takes it (App.hinted: the cursor on it, blinking, in PLAY)."""
    if sig != TICK or (app._elapsed(now) <= 0 and app.dirty):  # one frame first (think)
        return
    turn = app.turn
    turn._start(now)
    try:
        board = app.board  # the top level's budget on this board's size
        result = turn.searcher.search(board, depth=levels.depth(levels.MAX_LEVEL),
                                      nodes=levels.nodes(levels.MAX_LEVEL, board.cols, board.rows),
                                      poll=turn.hook, info=turn._info_cb, time_ms=turn.time_cap_ms)
    finally:
        turn.thinking = False
    app.input.flush()  # a press that stopped it gives nothing
    app.hinted(result, turn.clock.ticks_ms())


def think(app, sig, now):
    """The AI's turn: a frame shows its pulsing disc, then the search blocks the loop
    (its poll hook keeps the matrix alive); then CHOSEN, or HELD if a press stopped it."""
    if sig != TICK or (app._elapsed(now) <= 0 and app.dirty):
        return  # one frame first: the step that entered THINK draws the AI's disc (the search
        # itself shows nothing until its first poll)
    turn = app.turn
    ai = turn.ai
    ai.set_level(app.game_levels[app.side_to_move()])  # the game's, not the settings'
    if app.mode == MODE_DEMO:
        ai.blunder = None
    else:
        blunder = app.settings["blunder"]
        ai.blunder = None if blunder < 0 else blunder
    turn._start(now)
    turn.think_info = (0, 0, 0)
    gc.collect()  # the search starts on a clean heap: the page's requests, answered from its
    # poll hook, then have all the heap's free room (a search's deep stack, scanned as roots,
    # keeps garbage alive; a collect that cannot make room makes the chip's heap grow)
    try:
        result = ai.choose(app.board, poll=turn.hook, info=turn._info_cb, time_ms=turn.time_cap_ms)
    finally:
        turn.thinking = False
    turn.last_search = result
    learn(app, result)
    if result.stopped == STOP_POLL:
        app._go(HELD, turn.clock.ticks_ms())
    else:
        app._go(CHOSEN, app.state_since)  # CHOSEN keeps the clock of the turn, which began in THINK


def chosen(app, sig, now):
    """The AI has its move; it drops once the turn (THINK and CHOSEN: _elapsed) has lasted
    the minimum think time, or at a press."""
    if sig == TICK:
        wait = app.cfg["demo_move_ms"] if app.mode == MODE_DEMO else app.cfg["ai_min_think_ms"]
        if app._elapsed(now) >= wait:
            app.drop(app.turn.last_search.move, now)  # type: ignore[union-attr]  # set by the search
    elif sig == SELECT:
        app.drop(app.turn.last_search.move, now)  # type: ignore[union-attr]  # move now


def held(app, sig, now):
    """A new press stopped the search: a click plays the best move so far, a long
    press opens the menu (App._event); a press the buttons never report counts as a click."""
    if sig == TICK:
        if app.mode == MODE_DEMO:
            app.leave_demo(now)
        elif (not app.input.busy() and not app.input.pressed()
              and app._elapsed(now) >= _HELD_GRACE_MS):
            app.drop(app.turn.last_search.move, now)  # type: ignore[union-attr]  # set by the search
    elif sig == SELECT:
        app.drop(app.turn.last_search.move, now)  # type: ignore[union-attr]
