"""A simulated board with its web server, running in a thread on the real clock.

The firmware's own App (host_sim.world.Sim) and server (connect4.net.server),
stepped as the board's main loop does; the tests talk to it over HTTP, or
through a real browser, and read the simulated matrix (`panel`).
"""
import http.client
import json
import threading
import time

from host_sim.clock import CLOCK
from host_sim.world import Sim
from tools.common import free_port  # noqa: F401  (the tests take it from here)


class WebBoard:
    def __init__(self, flash_dir, settings=None, chip_speed=False, games=None, port=None):
        self.flash_dir = flash_dir
        self.settings = settings or {}
        self.chip_speed = chip_speed
        self.games = games
        self.port = port or free_port()  # the same port again: the same board started again
        self.sim = None
        self.server = None
        self.error = None
        self.stop_flag = False
        self.paused = False  # the board gone silent (out of range): nothing steps, nothing answers
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="webboard", daemon=True)

    def _run(self):
        try:
            from connect4.net.server import Server
            from connect4.net.pairing import Pairing
            from connect4.net.netconf import NetConf
            from connect4.app.assemble import settings_store
            from host_sim.world import load_config
            import os
            cfg = load_config("encoder", {"flash_dir": os.path.join(self.flash_dir, "")})
            if self.settings:
                store = settings_store(cfg)
                store.settings.update(self.settings)
                store.save()
            self.sim = Sim(self.flash_dir, seed=3, chip_speed=self.chip_speed)
            CLOCK.make_real()
            from connect4.app.face import Face
            flash = os.path.join(self.flash_dir, "")
            self.server = Server(Face(self.sim.app), Pairing(flash), NetConf(flash).load(),
                                 games=self.games).start("127.0.0.1", self.port)
            self.ready.set()
            while not self.stop_flag:
                if self.paused:
                    time.sleep(0.02)
                    continue
                self.sim.step()
        except BaseException as e:  # noqa: B902  (handed to the test)
            self.error = e
            self.ready.set()

    def __enter__(self):
        self.thread.start()
        self.ready.wait(30)
        if self.error is not None:
            raise self.error
        return self

    def __exit__(self, *exc):
        self.stop_flag = True
        self.thread.join(10)
        if self.server is not None:
            self.server.stop()
        if self.sim is not None:
            self.sim.close()

    @property
    def app(self):
        return self.sim.app

    @property
    def code(self):
        return self.server.pairing.code

    def request(self, method, path, body=None, headers=None, timeout=10):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = body if isinstance(body, (bytes, type(None))) else json.dumps(body)
            c.request(method, path, data, headers or {})
            r = c.getresponse()
            raw = r.read()
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = raw
            return r.status, parsed
        finally:
            c.close()

    def on_board(self, fn, seconds=10):
        """Run fn(app, now) in the board's thread at a safe point of its loop (as the API's
        writes are applied), and wait until it has run."""
        done = threading.Event()

        def command(app, arg, now):
            fn(app, now)
            done.set()
        self.app.commands.append((command, None))
        if not done.wait(seconds):
            raise AssertionError("the board did not run the command within %d s" % seconds)

    def pair(self):
        status, body = self.request("POST", "/api/pair", {"code": self.code})
        assert status == 200, body
        return {"Authorization": "Bearer " + body["token"]}

    def wait(self, condition, seconds=30, what="condition"):
        end = time.monotonic() + seconds
        while not condition():
            if self.error is not None:
                raise self.error
            if time.monotonic() > end:
                raise AssertionError("%s not met within %d s" % (what, seconds))
            time.sleep(0.02)
