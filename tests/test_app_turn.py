"""The app's flow names the AI's turn: connect4.app.game's state table and connect4.app.turn.

The state numbers, the signals and the modes have one home, connect4.app.states,
which game, turn, menu, replay and face all import; the modes are the settings'
own by number.
"""
from connect4.app import game, states, store, turn


def test_the_modes_are_the_settings_modes_by_number():
    assert [store.MODES[m] for m in (states.MODE_AI, states.MODE_TWO, states.MODE_DEMO)] == ["ai", "two", "demo"]


def test_the_state_table_names_the_turns_handlers_for_the_ais_states():
    table = game._STATES
    assert table[game.THINK] is turn.think and table[game.HINT] is turn.hint
    assert table[game.CHOSEN] is turn.chosen and table[game.HELD] is turn.held
    assert all(table[s].__module__ == "connect4.app.game" for s in
               (game.INTRO, game.PLAY, game.DROP, game.OVER, game.MENU, game.REPLAY))
