"""The one place the app is put together: from a config and the hardware.

The board (connect4.boot), the simulator (host_sim), the memory probe and
the tests all call `build_app`, so none of them can drift from what the board
runs: the settings file and its defaults (the config's brightness), the
search's table, poll interval, clock and time cap.
"""
import os
import time
from micropython import const

from connect4.engine.board import Board
from connect4.engine.book import open_book
from connect4.engine.player import AIPlayer
from connect4.engine.rng import Rng
from connect4.engine.search import Searcher
from connect4.app.game import App
from connect4.app.turn import Turn
from connect4.app.store import Store
from connect4.app.resume import SavedGame
from connect4.modules import use

_SETTINGS_FILE = const("connect4.json")  # and the game records: games.txt, the game in progress: game.txt


def settings_store(cfg, fs=None):
    """The settings file of `cfg`'s flash, loaded (defaults: the config's brightness)."""
    store = Store(cfg["flash_dir"] + _SETTINGS_FILE, fs=fs,
                  defaults={"brightness": cfg["brightness_level"]})
    use("connect4.app.storeload").load(store)
    return store


def build_app(cfg, hw, clock=time, seed=1, listener=None, fs=None, book_path="book.bin",
              wifi=None, judge=None):
    """The App on `hw` (anything with .display, .input, .wdt and .after_crash:
    connect4.hardware_setup.Hardware), its settings loaded from flash,
    with every collaborator built here: the AI's turn (connect4.app.turn: the searcher, the
    AI with its book), the menu, the board, the demo's random generator, the records and
    the game in progress.

    cfg: config.get()'s dict; clock: the `time` module or a fake; listener:
    see connect4.app.game; fs: the files' operations (tests): settings, records, the game in
    progress; book_path: the opening book (beside main.py on the board; "" or a missing
    file: none, the AI searches every move); wifi: wifi(app, cfg) -> the Wi-Fi link
    (connect4.boot.wifi_link; None: the menu's Wi-Fi does nothing); judge: judge(moves, size) ->
    the records' marks (the simulator's perfect solver; None: the board's own).
    """
    flash = cfg["flash_dir"]
    searcher = Searcher(tt_entries=cfg["tt_entries"], poll_interval=cfg["poll_interval"], clock=clock)
    ai = AIPlayer(seed=seed, searcher=searcher, book=open_book(book_path))
    store = settings_store(cfg, fs)
    return App(hw.display, hw.input, store, cfg, Turn(searcher, ai, cfg, clock),
               Board(), Rng(seed ^ 0x5DEECE6),
               clock=clock, wdt=hw.wdt, listener=listener, records=(flash + "games.txt", fs),
               saved=SavedGame(flash + "game.txt", fs=fs), wifi=wifi, judge=judge,
               after_crash=hw.after_crash)


def fresh_seed():
    """A seed for the AI's and the demo's generators from the chip's random source (the
    config's `seed`, when set, is used instead: connect4.boot)."""
    try:
        b = os.urandom(4)
        return (b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x3F) << 24) or 1
    except Exception:
        return time.ticks_ms() or 1
