"""The game's names for the outside: what each state of the app is called.

One table, read by the web API (connect4.net.api) and the simulator's status
line (host_sim.status), so the two never disagree; loaded only by them (the
names cost the heap nothing while neither runs).
"""
# by state number (connect4.app.game: INTRO, PLAY, THINK, DROP, OVER, MENU, CHOSEN, HELD,
# REPLAY, the hint); the AI's turn is "thinking" from its first frame to its disc's drop
STATE_NAMES = ("intro", "play", "thinking", "drop", "over", "menu", "thinking", "thinking",
               "replay", "hint")


def thinking(app):
    """Is a search under way or about to start (the AI's turn or a hint)?"""
    name = STATE_NAMES[app.state]
    return name == "thinking" or name == "hint"
