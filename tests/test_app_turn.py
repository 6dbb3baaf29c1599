"""connect4.app.turn's copies of connect4.app.game's numbers agree with the originals.

turn.py cannot import game.py (game.py imports it for its state table), so it
keeps private copies of the few state numbers, the TICK signal and the demo's
mode that its handlers use; a change on one side only would send the AI's turn
to the wrong state.
"""
from connect4.app import game, store, turn


def test_the_turns_copies_of_the_games_numbers_agree():
    assert turn._CHOSEN == game.CHOSEN
    assert turn._HELD == game.HELD
    assert turn._TICK == game._TICK
    assert turn._MODE_DEMO == game.MODE_DEMO == store.MODES.index("demo")


def test_the_state_table_names_the_turns_handlers_for_the_ais_states():
    table = game._STATES
    assert table[game.THINK] is turn.think and table[game.HINT] is turn.hint
    assert table[game.CHOSEN] is turn.chosen and table[game.HELD] is turn.held
    assert all(table[s].__module__ == "connect4.app.game" for s in
               (game.INTRO, game.PLAY, game.DROP, game.OVER, game.MENU, game.REPLAY))
