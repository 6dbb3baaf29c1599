"""A game's end: counted in the statistics, appended to the records, no longer in progress.

Loaded for each end and dropped again (connect4.modules.use): a game's end is
rare, and with Wi-Fi on the heap's room is the network's margin. The app
(connect4.app.game) calls `end` when a game ends, is left before its end (a new
game, the demo) or is given up at a start.
"""
import gc
from micropython import const

from connect4.app.resume import as_record
from connect4.app.states import MODE_AI, MODE_TWO, MODE_DEMO, OVER

MODE_NAMES = ("vs AI", "two players", "demo")  # by mode, as the listener hears them

_ABANDONED = const(3)  # a record's result: the game left before its end


def over(app, now):
    """The game on `app` is over (its last move landed): who lost starts next if the settings
    say so, the end counted and recorded (`end`), the listener told, then OVER."""
    board = app.board
    if board.winner:
        winner = app.first_side if board.winner == 1 else 1 - app.first_side
        app.last_loser = 1 - winner
    else:
        winner = -1
        app.last_loser = -1
    app.games += 1
    end(app, 2 if winner < 0 else winner)  # 0 red won, 1 yellow won, 2 draw
    if app.listener is not None:  # (no dict made for nobody)
        app.listener("game", {
            "mode": MODE_NAMES[app.mode], "moves": board.moves_string(), "winner": winner,
            "first": app.first_side,
            "levels": app.game_levels,
        })
    app._go(OVER, now)


def end(app, result):
    """The game of `app` ends (result 0-2) or is left (3, abandoned): counted in the
    statistics (a finished game of ai or two), appended to the records, no longer in
    progress. Each step once, whatever power cut comes between them: the ending is written
    first in the game's file with the game's count in the statistics and number in the
    records (connect4.app.resume), and an ending taken back from there at the next start
    (`saved.ending`) does only the steps that did not happen. The records file is read
    through once (its scan serves the number and the write)."""
    gc.collect()  # room for the files it writes, each open with a cache of its own
    store = app.store
    stats = store.stats
    mode = app.mode
    records = app.records()
    scanned = records.scan() if records is not None else None
    newest = scanned[2] if scanned is not None else 0
    saved = app.saved if mode != MODE_DEMO else None  # (the demo's are not kept)
    counted = result != _ABANDONED and (mode == MODE_AI or mode == MODE_TWO)
    record = as_record(app, result, app.judge)
    taken = saved.ending if saved is not None else None
    if taken is not None:  # an end taken back: what it wrote first
        count, number = taken
    else:  # a new end
        count = stats["ended"] + 1 if counted else 0
        number = newest + 1 if records is not None and saved is not None else 0
        if saved is not None:
            record.number = number
            saved.save(record, 0, app.ai.rng, app.cursor, count)
    if count > stats["ended"]:
        if mode == MODE_AI:
            store.record_ai(app.game_levels[1], result, app.board.size)
        else:
            store.record_two(result, app.board.size)
        stats["ended"] = count
        store.save()
    if records is not None and not (taken is not None and newest == number):
        records.append(record, scanned)
    if saved is not None:
        saved.clear()  # recorded: no longer in progress
