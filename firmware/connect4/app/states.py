"""The app's states, the two signals its state handlers take beside the input events, its modes.

One home for the numbers of the flow: connect4.app.game runs the state machine,
connect4.app.turn (the AI's turn and the hint), connect4.app.menu and
connect4.app.replay handle states of it, connect4.app.face names them for the
page; each imports them from here, so none keeps a copy in step.
"""
from micropython import const

INTRO = const(0)
PLAY = const(1)
THINK = const(2)
DROP = const(3)
OVER = const(4)
MENU = const(5)
CHOSEN = const(6)
HELD = const(7)
REPLAY = const(8)
HINT = const(9)
# a state handler's signals beside the input events (connect4.hw.input's, all > 0)
TICK = const(-1)
ENTER = const(-2)

MODE_AI = const(0)  # the settings' modes by number (connect4.app.store.MODES)
MODE_TWO = const(1)
MODE_DEMO = const(2)
