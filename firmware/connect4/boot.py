"""Power-on: read the config, safe mode or the hardware test, then the app, restarted after an error.

`start()` is all main.py runs, and everything it does is inside the error
handling below: a config.py that cannot be read, a display that fails on
its first write, a crash of the game.

- Power-on gestures, on SELECT, within the first `safe_mode_ms` after power-on
  (connect4/poweron.py): safe mode (held 0.3 s) or the hardware test (held 3 s:
  connect4/app/hwtest.py; a long press ends it, and the REPL is free).
  (The encoder button is on GPIO2, a strapping pin that must be high while
  the chip resets, so the window starts after reset rather than relying on a
  button held through it.)
- An unexpected exception is appended to `error.log` on flash (kept under
  about 8 KB) with the game's moves, a red cross blinks on the matrix, and the
  app starts again, back in the game in progress (connect4.app.resume: a game
  taken back after crashes twice with no move since is given up at the third).
  Five crashes in a row, each within 10 s of its start, stop the restarts
  (the cross stays lit; the REPL is free, unless `watchdog_ms` armed the
  watchdog, which cannot be stopped: it then resets the board). If the
  hardware could never be built (a wrong pin), the cross is shown on the
  default preset's panel (connect4/fallback.py).
- A config.py that cannot be read (a syntax error, an unknown preset) is
  logged to error.log and shown as a red cross on the default preset's panel
  (connect4/fallback.py); the REPL then says what is wrong.
- The hardware watchdog, if configured, is armed only once the game runs.
- Each app, once built, listens for Improv Wi-Fi on the USB serial port
  (connect4.listen: the first minute, or for good while no home network is
  set), unless Wi-Fi comes on at its start. A network joined through it ends
  the app's loop once answered (`restart`): the chip is reset (the hardware's
  `restart`, no crash), and Wi-Fi comes on at the next start, as after any
  power-on with the switch saved on, on a whole heap.
"""
import gc
import sys
import time
from micropython import kbd_intr

from connect4.modules import forget, use

ERROR_LOG = "error.log"  # on flash (connect4.crashlog writes it)
CRASH_WINDOW_MS = 10000
MAX_CRASHES = 5


def wifi_link(app, cfg):
    """The menu's Wi-Fi for `app` (connect4.net, loaded only now), through the game's face:
    the factory build_app hands the app, so that the app imports nothing of connect4.net."""
    from connect4.app.face import Face
    from connect4.net.link import Link
    return Link(Face(app), cfg)


def main(cfg, listener=None, stop=None, clock=time, book_path="book.bin", judge=None,
         wifi=wifi_link):
    """Run the board: returns only in safe mode, after the hardware test,
    after too many crashes, or when stop() says so.

    listener(kind, data), if given, hears the app's events (connect4.app.game)
    and ("app", the App) at every start of the app; book_path, judge, wifi: see
    connect4.app.assemble.build_app (the board's defaults; the simulator passes its own).
    """
    log = cfg.get("flash_dir", "") + ERROR_LOG
    seed = None
    hw = None
    choice = None  # the power-on gesture's choice (connect4.poweron), made once
    crashes = 0
    app = None
    while True:
        started = clock.ticks_ms()
        try:
            if hw is None:
                from connect4 import hardware_setup  # used once: forgotten below
                hw = hardware_setup.build(cfg)
                del hardware_setup
                forget("connect4.hardware_setup")
            if choice is None:
                choice = "game"
                if cfg["safe_mode_ms"]:
                    poweron = use("connect4.poweron")  # used once
                    choice = poweron.choice(hw, cfg["safe_mode_ms"], clock)
                    if choice != "game":
                        kbd_intr(3)  # no app, no ear (main.py turned Ctrl-C off)
                        return poweron.run(choice, hw, cfg, clock, stop)
                    del poweron
                hw.start_watchdog()
            from connect4.app.assemble import build_app, fresh_seed  # used once an app: forgotten below
            if seed is None:
                seed = cfg["seed"] if cfg["seed"] is not None else fresh_seed()
            app = build_app(cfg, hw, clock, seed, listener, book_path=book_path, wifi=wifi,
                            judge=judge)
            del build_app, fresh_seed
            forget("connect4.app.assemble")
            if listener is not None:
                listener("app", app)
            if app.settings["wifi"]:  # Improv Wi-Fi on the USB port, never with Wi-Fi on:
                kbd_intr(3)  # no ear, so Ctrl-C is MicroPython's (main.py turned it off)
            else:
                use("connect4.listen").at_start(app, clock.ticks_ms())
            app.run(stop)
            if app.restart:  # a network joined through Improv, answered: the board starts
                app.close()  # anew, its heap whole, Wi-Fi on from the saved switch
                hw.restart()  # (connect4.net.improv; never returns)
            return "stopped"
        except KeyboardInterrupt:
            raise
        except Exception as e:
            moves = None
            if app is not None:
                moves = app.board.moves_string() or "-"
                app.close()  # its Wi-Fi, server and sockets: the next app's to open
            app = None  # free the crashed app before the next one (and before crashlog)
            gc.collect()
            print("connect4: crashed (%r), see %s" % (e, ERROR_LOG))
            if clock.ticks_diff(clock.ticks_ms(), started) < CRASH_WINDOW_MS:
                crashes += 1
            else:
                crashes = 1
            end = (choice if choice == "safe" or choice == "hwtest"  # asked for at power-on: never
                   else "crashed" if crashes >= MAX_CRASHES else None)  # the game instead
            try:
                use("connect4.crashlog").after(log, e, moves, hw, end, clock)
            except Exception:  # (no heap even now): the cross and the log are lost, not the board
                pass
            if end is not None:
                return end
            if hw is not None:
                hw.after_crash = True  # the next app starts after a crash: its game's restarts count
            gc.collect()
            if seed is not None:
                seed += 1


def start(listener=None, stop=None, clock=time, book_path="book.bin", judge=None, wifi=wifi_link,
          preset=None, overrides=None):
    """What main.py runs: read config.py (its PRESET unless `preset` names another, then
    `overrides` on top: the simulator's flash folder, seed, web address), then main() with
    the rest. Never raises but KeyboardInterrupt."""
    try:
        import config
        cfg = config.get(preset, overrides)
        del sys.modules["config"], config  # its presets are read: free them (about 3 KB of heap)
    except KeyboardInterrupt:
        raise
    except Exception as e:
        try:
            use("connect4.crashlog").log_error(ERROR_LOG, e)
        except Exception:
            pass
        from connect4 import fallback  # loaded only then: no heap for it otherwise
        return fallback.unreadable_config(e, ERROR_LOG)
    return main(cfg, listener, stop, clock, book_path, judge, wifi)
