"""Wi-Fi on and off from the menu: the radio (wifi.py), the server, and what the matrix shows.

On: with a home network set (from the page, kept in wifi.json) the board
joins it; otherwise, or when joining fails within JOIN_MS, it makes its own
access point `Connect4-XXXX` (WPA2, the key drawn at first start). Then the
server starts (or, if one already serves the app, as in the simulator's
--web, that one is used), and the matrix scrolls the address, the access
point's key and the pairing code; `show()` scrolls them again on request.
Nothing here blocks: joining is watched from the app's pump. The menu's
"forget paired phones" comes here too (`forget_phones`), Wi-Fi on or off.

The Wi-Fi settings' code (connect4.net.netconf) is loaded only to read or
write them (`_conf`): the link keeps the home network's name and the access
point's key, and stands for the settings before the API (`configured`,
`set_network`).

The board's name on the network (`name`, connect4-XXXX: connect4.net.wifi)
scrolls with the address, and the console line and the page carry both. What
reaches another board (a game of two boards: connect4.net.finder, peer) is not
here: loaded for that game only, it costs a board that serves phones nothing.
"""
from time import ticks_ms, ticks_diff

from connect4.modules import use
from connect4.net import wifi

JOIN_MS = 20000


class Link:
    def __init__(self, face, cfg):
        self.face = face  # the game (connect4.app.face.Face)
        self.cfg = cfg
        self.home = ""  # the home network's name ("": none set: our own access point) ...
        self.ap_password = ""  # ... and our own access point's key, as on() read them
        self.server = None  # the one this link started
        self.joining_since = None
        self.ssid = ""
        self.name = None  # the board's name on the network, connect4-XXXX (its hostname)
        self.address = None
        self.error = None

    def on(self, now):
        """Turn Wi-Fi on (or, if on, show the address again)."""
        if self.address is not None or self.joining_since is not None:
            self.show(now)
            return
        try:
            self.face.resize_table(self.cfg["tt_entries_wifi"])  # smaller while Wi-Fi shares the heap
            self.name = wifi.name()
            nc = self._conf()  # read afresh (the password: kept for the join only)
            self.home, self.ap_password = nc.ssid, nc.ap_password
            if self.home:
                wifi.start_join(nc.ssid, nc.password)
                self.ssid = nc.ssid
                self.joining_since = now
                self.face.set_pump(self.pump)  # watch the joining from the game loop
                self.face.say([("WIFI " + nc.ssid, "white")], now)
            else:
                self._access_point(now)
        except Exception as e:  # a radio that will not start: said on the matrix, never a crash
            self._failed(e, now)

    def _access_point(self, now):
        self.ssid, address = wifi.start_ap(self.ap_password)
        self._up(address, now)

    def _up(self, address, now):
        self.address = address
        self.joining_since = None
        face = self.face
        web = face.web
        if web is not None:
            face.set_pump(web.pump)
        elif self.cfg["web_port"]:
            from connect4.net.server import Server
            from connect4.net.pairing import Pairing
            cfg = self.cfg
            pairing = Pairing(cfg["flash_dir"])  # the phones paired before: on flash
            web = self.server = Server(face, pairing, self, net_free=wifi.net_free,
                                       min_free=cfg["net_min_free"]).start(cfg["web_host"], cfg["web_port"])
        else:  # web_port 0: no page served (the simulator without --web)
            face.set_pump(None)
        if web is not None:
            web.pairing.shown = self._new_code
        self.show(now)

    def _failed(self, e, now):
        self.error = repr(e)
        print("connect4: Wi-Fi: %s" % self.error)
        self.off()
        if isinstance(e, MemoryError):  # the server did not fit: said as such, the game untouched
            self.face.short_of_memory(now)
        else:
            self.face.say([("NO WIFI", "red")], now)

    # ---- the Wi-Fi settings (connect4.net.netconf's file), as the API sees them
    def _conf(self):
        """The Wi-Fi settings, read now (connect4.net.netconf, loaded for this and dropped)."""
        return use("connect4.net.netconf").NetConf(self.cfg["flash_dir"]).load()

    def configured(self):
        """Is a home network set (else the board makes its own access point)?"""
        return bool(self.home)

    def set_network(self, ssid, password):
        """Keep a home network ("" forgets it), as NetConf.set_network; used from the next
        time Wi-Fi comes on. False if the values are bad or not saved."""
        nc = self._conf()
        done = nc.set_network(ssid, password)
        self.home = nc.ssid
        return done

    def pump(self):
        """While joining: has the home network given an address (or is it time to give up)?"""
        now = ticks_ms()
        try:
            address = wifi.joined()
            if address:
                self._up(address, now)
            elif ticks_diff(now, self.joining_since) >= JOIN_MS:
                self._access_point(now)  # the home network is not there: our own
        except Exception as e:
            self._failed(e, now)

    def show(self, now):
        """Scroll the address (and the access point's key) and the pairing code."""
        if self.address is None:
            return
        web = self.server or self.face.web
        parts = [("%s %s" % (self.name, self.address), "white")]
        if self.ssid != self.home:  # our own access point: its name and key
            parts.append((" " + self.ssid + " KEY " + self.ap_password, "orange"))
        if web is not None:
            parts.append((" CODE " + web.pairing.code, "green"))
            self._console(web.pairing.code)
        self.face.say(parts, now)

    def _new_code(self, code):
        """The page's pairing code changed (a forget, from the page or the menu; the lock
        after wrong codes): the new one on the matrix and the console, where a phone's owner
        reads it."""
        self.face.say([(" CODE " + code, "green")], ticks_ms())
        self._console(code)

    def _console(self, code):
        """The address and the code on the console too (a maker at the serial port; the
        chip tests pair with this line): at each show and after a forget."""
        if self.address is not None:
            print("connect4: web: http://%s/ name %s code %s" % (self.address, self.name, code))

    def forget_phones(self, now):
        """The menu's "forget paired phones": every token dropped, on flash too, and a new
        pairing code (shown, if a page is served). Wi-Fi need not be on."""
        web = self.server or self.face.web
        if web is not None:
            pairing = web.pairing
        else:
            from connect4.net.pairing import Pairing
            pairing = Pairing(self.cfg["flash_dir"])
        if not pairing.forget():
            self.face.say([("NOT SAVED", "red")], now)  # forgotten until a restart only
            return
        parts = [("PHONES FORGOTTEN", "orange")]
        if web is not None:  # (the console has the code already: _new_code)
            parts.append((" CODE " + pairing.code, "green"))
        self.face.say(parts, now)

    def off(self):
        face = self.face
        if self.server is not None:
            self.server.stop()
            self.server = None
            face.set_pump(None)
            face.web = None
        elif self.joining_since is not None:
            face.set_pump(None)
        self.joining_since = None
        self.address = None
        try:
            wifi.stop()
        except Exception:
            pass
        self.face.resize_table(self.cfg["tt_entries"])
